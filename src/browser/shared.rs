//! Agents of a shared browser (`ariasnap mcp --http`, docs/reference/mcp.md#one-browser-many-agents):
//! one browser session (the owner) serves several agents, each in a WebDriver BiDi user
//! context of its own (`browser.createUserContext`: its own cookies, storage, cache and
//! tabs, as a private window of the profile), with a session record of its own that names
//! the owner ([`SharedIn`]).
//!
//! Owns: making an agent (its user context, its first tab, its record) and ending one (its
//! user context removed, which closes its tabs; its record and download folder deleted).
//! Must not: start or end the owner's browser (open.rs does, as for any session), or decide
//! which agents share which browser (the MCP server does).

use super::session::{self, SessionRecord, SharedIn, TabRecord};
use super::{Browser, BrowserOptions};
use crate::engine::bidi::{
    Bidi, CloseContext, CreateContext, CreateUserContext, RemoveUserContext,
};
use crate::error::{Error, Result};
use std::time::Duration;
use tracing::debug;

/// Makes agent `agent` in the browser of session `owner.session` (started now when it does
/// not run): a user context, a blank tab in it, and the agent's record.
pub async fn add_agent(owner: &BrowserOptions, agent: &str) -> Result<()> {
    session::validate_name(agent)?;
    let b = Browser::open(owner).await?;
    let Some(bidi) = b.page.bidi() else {
        return Err(Error::Browser(format!(
            "session {:?} has no WebDriver BiDi, which agents sharing its browser need (a user context each): run the server with --browser-per-agent",
            b.record.name
        )));
    };
    let uc = bidi.send(&CreateUserContext {}).await?.user_context;
    let tab = match bidi
        .send(&CreateContext::background_tab().within(Some(&uc)))
        .await
    {
        Ok(t) => t.context,
        Err(e) => {
            remove_context(bidi, &uc).await;
            return Err(e);
        }
    };
    let rec = agent_record(&b.record, agent, &uc, &tab);
    if let Err(e) = session::save(&rec) {
        remove_context(bidi, &uc).await;
        return Err(e);
    }
    // the owner's first tab, blank in the default user context, serves no agent: on
    // Chromium it is a window of its own with its renderers (the tab's, the window's
    // omnibox popup), closed once the first agent has a tab
    if b.started
        && let Some(first) = b.record.tabs.first()
    {
        let close = CloseContext {
            context: first.handle.clone(),
        };
        if let Err(e) = bidi.send(&close).await {
            debug!(error = %e, "the owner's first tab was not closed");
        }
    }
    debug!(
        agent,
        owner = b.record.name,
        uc,
        "agent added to a shared browser"
    );
    Ok(())
}

/// The record of an agent of the owner's browser: the owner's WebDriver session and page
/// channel addresses, none of its processes, and one tab of the agent's own.
fn agent_record(owner: &SessionRecord, agent: &str, uc: &str, tab: &str) -> SessionRecord {
    SessionRecord {
        name: agent.to_string(),
        shared: Some(SharedIn {
            owner: owner.name.clone(),
            user_context: uc.to_string(),
            local: owner.driver_pid.is_some(),
        }),
        driver_pid: None,
        user_data_dir: None,
        tabs: vec![TabRecord {
            alias: "t1".into(),
            handle: tab.to_string(),
            preload: None,
            asked: None,
        }],
        current: "t1".into(),
        next_tab: 2,
        snapshots: Default::default(),
        created: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        suspect: None,
        sandbox_preload: None,
        bidi_subscribed: false,
        top_realm: None,
        guard_pid: None,
        policy_reported: 0,
        routes: Vec::new(),
        network_seen: 0,
        console_seen: 0,
        ..owner.clone()
    }
}

/// Removes user context `uc` (and so its tabs), quietly: the browser may be gone.
async fn remove_context(bidi: &Bidi, uc: &str) {
    let rm = RemoveUserContext {
        user_context: uc.to_string(),
    };
    if let Err(e) = bidi.send_within(&rm, Duration::from_secs(10)).await {
        debug!(error = %e, uc, "user context not removed");
    }
}

/// Ends an agent of a shared browser (its record `rec`, whose lock the caller holds): its
/// user context removed when the browser still runs, its record and download folder
/// deleted. The owner's browser keeps running.
pub async fn end_agent(rec: &SessionRecord) {
    if let (Some(shared), Some(url)) = (&rec.shared, &rec.bidi) {
        match tokio::time::timeout(Duration::from_secs(5), Bidi::connect(url)).await {
            Ok(Ok(bidi)) => {
                remove_context(&bidi, &shared.user_context).await;
                let _ = bidi.close().await;
            }
            _ => debug!(agent = rec.name, "the shared browser is gone"),
        }
    }
    if let Ok(dir) = session::sessions_dir() {
        let _ = std::fs::remove_dir_all(dir.join(format!("{}.downloads", rec.name)));
    }
    let _ = session::remove(&rec.name);
}

/// The error of an agent whose shared browser stopped answering (`why`: the driver's words).
pub fn browser_lost(agent: &str, why: &str) -> Error {
    Error::Browser(format!(
        "the browser agent {agent:?} shared stopped answering ({why}): its tabs, cookies, storage and refs are gone"
    ))
}

/// Whether session `owner`'s browser still answers (its WebDriver session and the browser
/// behind it), within 5 s; false when it has no record.
pub async fn alive(owner: &str) -> bool {
    let Ok(Some(rec)) = session::load(owner) else {
        return false;
    };
    if rec.driver_pid.is_some_and(|p| !super::launch::alive(p)) {
        return false;
    }
    let probe = async {
        let c = crate::engine::Connection::attach(&rec.webdriver, &rec.session_id).await?;
        c.alive().await
    };
    matches!(
        tokio::time::timeout(Duration::from_secs(5), probe).await,
        Ok(Ok(()))
    )
}

/// Why agents under `opts` cannot share a browser (then each gets one of its own), or None:
/// a policy that needs the guard (its log of refused requests is per browser, and would
/// tell one agent what another's pages tried), or `ARIASNAP_BIDI=0` (user contexts are
/// BiDi's).
pub fn why_not_shared(opts: &BrowserOptions) -> Option<&'static str> {
    if opts.policy.as_ref().is_some_and(super::guard::needed) {
        return Some("the policy holds the pages' requests per browser");
    }
    if !super::bidi_wanted() {
        return Some("ARIASNAP_BIDI=0 turns WebDriver BiDi off, and user contexts are BiDi's");
    }
    None
}
