//! The policy guard (docs/reference/policy.md#how-requests-are-held): a small process per
//! session whose policy confines origins. It holds every request of the browser before it is
//! sent (WebDriver BiDi `network.addIntercept`, phase `beforeRequestSent`, every context)
//! and answers each one: on to the network when the policy allows its URL, failed
//! (`network.failRequest`: nothing leaves the browser) when it does not, with a line in the
//! session's log of refusals that the next reply reports. Navigation, a page's fetch, an
//! image, a form post, a frame and a new tab all go through it, whoever started them (the
//! agent, the page, a redirect).
//!
//! Why a process: a held request waits for an answer from a live WebDriver BiDi client, and
//! a session outlives the command that started it; the guard is that client, between
//! commands too. Every command checks it is alive and starts it again when not (the reply
//! says so).
//!
//! Owns: starting and finding the guard, its loop, its log. Must not: decide what a policy
//! allows (policy.rs does) or touch the session's record beyond reading it (the command
//! that started it keeps the record).

use super::launch;
use super::session::{self, SessionRecord};
use crate::engine::bidi::{
    AddIntercept, Bidi, ContinueRequest, DownloadBehavior, Event, FailRequest, GetTree,
    RemoveIntercept, SetDownloadBehavior, Subscribe,
};
use crate::error::{Error, Result};
use crate::policy::{Policy, Switch};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;
use tracing::debug;

/// The hidden subcommand that runs the guard (`ariasnap policy-guard NAME`).
pub const SUBCOMMAND: &str = "policy-guard";

/// One request the guard refused, as its log keeps it (one JSON object per line).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Refused {
    /// What it was: `navigation`, `frame`, `new tab`, `form post`, `fetch`, `image`...
    pub kind: String,
    /// Its URL.
    pub url: String,
    /// Why (the policy's words).
    pub why: String,
}

impl Refused {
    /// One line for a reply: `fetch http://x/y: http://x is not an allowed origin (...)`.
    pub fn line(&self) -> String {
        let url: String = if self.url.chars().count() > 120 {
            self.url.chars().take(119).chain(['…']).collect()
        } else {
            self.url.clone()
        };
        format!("{} {}: {}", self.kind, crate::safe::quote(&url), self.why)
    }
}

/// Whether a policy needs the guard process (browser/guard.rs): origins confined, downloads
/// or foreign tabs off.
pub fn needed(p: &crate::policy::Policy) -> bool {
    use crate::policy::Switch;
    p.confines_origins() || !p.allows(Switch::Downloads) || !p.allows(Switch::ForeignTabs)
}

/// The log of refused requests of session `name`.
pub fn log_path(name: &str) -> Result<PathBuf> {
    Ok(session::sessions_dir()?.join(format!("{name}.policy.jsonl")))
}

/// Where the guard keeps its intercept's id (a new guard removes a dead one's).
fn state_path(name: &str) -> Result<PathBuf> {
    Ok(session::sessions_dir()?.join(format!("{name}.guard.json")))
}

#[derive(Serialize, Deserialize)]
struct GuardState {
    pid: u32,
    intercept: String,
}

/// Whether the guard recorded for the session is running (its process is alive and is a
/// guard of this session: a reused pid is not).
pub fn running(rec: &SessionRecord) -> bool {
    let Some(pid) = rec.guard_pid else {
        return false;
    };
    if !launch::alive(pid) {
        return false;
    }
    match std::fs::read(format!("/proc/{pid}/cmdline")) {
        Ok(cmd) => {
            let args: Vec<&[u8]> = cmd.split(|b| *b == 0).collect();
            args.contains(&SUBCOMMAND.as_bytes()) && args.contains(&rec.name.as_bytes())
        }
        // no /proc: the pid's liveness is all there is to go by
        Err(_) => true,
    }
}

/// Starts the guard of the session (its record saved with the policy already) and waits,
/// up to `within`, until its intercept holds requests. Returns its pid.
pub async fn start(rec: &SessionRecord, within: Duration) -> Result<u32> {
    use std::process::Stdio;
    use tokio::io::AsyncBufReadExt;
    let exe = std::env::current_exe().map_err(|e| {
        Error::Browser(format!(
            "cannot find ariasnap's own binary to start the policy guard: {e}"
        ))
    })?;
    let log = session::sessions_dir()?.join(format!("{}.guard.log", rec.name));
    let err = crate::private::append_file(&log)?;
    let mut cmd = tokio::process::Command::new(exe);
    cmd.arg(SUBCOMMAND)
        .arg(&rec.name)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(err))
        .kill_on_drop(false);
    // its own process group: a signal to the command's group (Ctrl-C) leaves it running
    cmd.process_group(0);
    let mut child = cmd
        .spawn()
        .map_err(|e| Error::Browser(format!("could not start the policy guard: {e}")))?;
    let pid = child.id().unwrap_or(0);
    let out = child.stdout.take();
    let ready = async {
        let mut lines = tokio::io::BufReader::new(out?).lines();
        while let Ok(Some(l)) = lines.next_line().await {
            if l.starts_with("ready") {
                return Some(());
            }
        }
        None
    };
    match tokio::time::timeout(within, ready).await {
        Ok(Some(())) => {
            // the guard lives on; nothing waits for it (the session's end stops it)
            std::mem::forget(child);
            Ok(pid)
        }
        _ => {
            let _ = child.start_kill();
            let why = std::fs::read_to_string(&log)
                .ok()
                .and_then(|t| {
                    t.lines()
                        .rev()
                        .find(|l| !l.trim().is_empty())
                        .map(str::to_string)
                })
                .unwrap_or_else(|| "it did not say it was ready".into());
            Err(Error::Browser(format!(
                "the policy guard of session {:?} did not start: {}",
                rec.name,
                crate::error::one_line(&why)
            )))
        }
    }
}

/// Stops the guard of a session that ends.
pub fn stop(rec: &SessionRecord) {
    if running(rec)
        && let Some(pid) = rec.guard_pid
    {
        launch::kill_group(pid);
    }
    if let Ok(p) = state_path(&rec.name) {
        let _ = std::fs::remove_file(p);
    }
}

/// The refusals logged after byte `from` of the session's log, and the log's length.
pub fn refusals_since(name: &str, from: u64) -> (Vec<Refused>, u64) {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(p) = log_path(name) else {
        return (Vec::new(), from);
    };
    let Ok(mut f) = std::fs::File::open(&p) else {
        return (Vec::new(), from);
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    // a log shorter than what was reported was started afresh
    let from = if from > len { 0 } else { from };
    if f.seek(SeekFrom::Start(from)).is_err() {
        return (Vec::new(), from);
    }
    let mut text = String::new();
    let _ = f.read_to_string(&mut text);
    // a line being written (no newline yet) waits for the next reader
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    let out = text[..whole]
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    (out, from + whole as u64)
}

/// The guard's loop: runs until the browser's connection ends. On a Chromium that ariasnap
/// started, through the browser's DevTools socket (engine/hold.rs says why); elsewhere
/// (Firefox, a remote endpoint), through WebDriver BiDi.
pub async fn run(name: &str) -> Result<()> {
    session::validate_name(name)?;
    let rec =
        session::load(name)?.ok_or_else(|| Error::Usage(format!("no session named {name:?}")))?;
    let policy = rec
        .policy
        .clone()
        .ok_or_else(|| Error::Usage(format!("session {name:?} has no policy")))?;
    // the URLs it logs may carry a secret the page sent (docs/reference/policy.md#secrets):
    // masked, as everything ariasnap writes (the guard has the environment of the command
    // that started it, which read the values already)
    policy.unlock_secrets()?;
    let judge = Judge {
        policy,
        log: log_path(name)?,
    };
    match (&rec.debugger, rec.browser) {
        (Some(addr), launch::BrowserKind::Chromium) => run_devtools(&rec, addr, judge).await,
        _ => run_bidi(&rec, judge).await,
    }
}

fn say_ready() {
    println!("ready");
    let _ = std::io::stdout().flush();
}

async fn run_devtools(rec: &SessionRecord, addr: &str, judge: Judge) -> Result<()> {
    let ws = super::devtools::browser_socket(addr).await?;
    if !judge.policy.allows(Switch::Downloads) {
        deny_downloads(rec).await;
    }
    crate::engine::hold_requests(&ws, say_ready, |h| {
        let kind = if h.top_navigation && h.opener_url.is_some() {
            "new tab"
        } else if h.top_navigation && h.method.eq_ignore_ascii_case("POST") {
            "form post"
        } else if h.top_navigation {
            "navigation"
        } else if h.subframe {
            "frame"
        } else {
            match h.resource_type.as_str() {
                "Image" => "image",
                "Fetch" => "fetch",
                "XHR" => "fetch",
                "Script" => "script",
                "Stylesheet" => "stylesheet",
                "Font" => "font",
                "Ping" => "beacon",
                "WebSocket" => "websocket",
                "EventSource" => "event stream",
                "Media" => "media",
                _ => "request",
            }
        };
        let opener = h
            .opener_url
            .as_deref()
            .filter(|_| h.top_navigation)
            .map(origin_of);
        judge.judge(&h.url, kind, opener.as_deref())
    })
    .await
}

/// Makes the browser refuse downloads (the policy's `downloads` off), through a BiDi
/// connection of the guard's own.
async fn deny_downloads(rec: &SessionRecord) {
    let Some(url) = &rec.bidi else { return };
    let Ok(bidi) = Bidi::connect(url).await else {
        return;
    };
    let deny = SetDownloadBehavior {
        download_behavior: Some(DownloadBehavior::Denied),
        user_contexts: None,
    };
    if let Err(e) = bidi.send(&deny).await {
        eprintln!("downloads could not be refused: {e}");
    }
    let _ = bidi.close().await;
}

async fn run_bidi(rec: &SessionRecord, judge: Judge) -> Result<()> {
    let name = rec.name.as_str();
    let url = rec.bidi.clone().ok_or_else(|| {
        Error::Browser(format!(
            "session {name:?} has no WebDriver BiDi: its policy cannot hold the page's requests"
        ))
    })?;
    let bidi = Bidi::connect(&url)
        .await?
        .with_deadline(Duration::from_secs(10));
    let mut events = bidi.events();
    // a guard that died left its intercept, which holds every request until removed
    if let Ok(old) = std::fs::read(state_path(name)?)
        && let Ok(old) = serde_json::from_slice::<GuardState>(&old)
    {
        let _ = bidi
            .send(&RemoveIntercept {
                intercept: old.intercept,
            })
            .await;
    }
    bidi.send(&Subscribe::to(&[
        Event::BEFORE_REQUEST_SENT,
        Event::CONTEXT_CREATED,
    ]))
    .await?;
    let own = bidi
        .send(&AddIntercept::before_request(None))
        .await?
        .intercept;
    let state = GuardState {
        pid: std::process::id(),
        intercept: own.clone(),
    };
    let state_file = state_path(name)?;
    crate::private::write_file(&state_file, &serde_json::to_vec(&state).unwrap_or_default())?;
    if !judge.policy.allows(Switch::Downloads) {
        let deny = SetDownloadBehavior {
            download_behavior: Some(DownloadBehavior::Denied),
            user_contexts: None,
        };
        if let Err(e) = bidi.send(&deny).await {
            eprintln!("downloads could not be refused: {e}");
        }
    }
    let mut guard = BidiGuard {
        judge,
        own,
        popups: HashMap::new(),
    };
    say_ready();
    while let Some(e) = events.next().await {
        match e {
            Event::BeforeRequestSent(r) => guard.answer(&bidi, &r).await,
            Event::ContextCreated(c) => guard.created(&bidi, &c).await,
            _ => {}
        }
    }
    debug!(
        session = name,
        "the browser's connection ended: the guard stops"
    );
    Ok(())
}

/// The policy and the log of its refusals.
struct Judge {
    policy: Policy,
    log: PathBuf,
}

impl Judge {
    /// Why a request (of this kind; a new tab's first page: with its opener's origin) is
    /// refused, logged; None when it goes on.
    fn judge(&self, url: &str, kind: &str, opener: Option<&str>) -> Option<String> {
        let mut why = self.policy.refusal(url);
        if why.is_none()
            && !self.policy.allows(Switch::ForeignTabs)
            && let Some(opener) = opener
            && !url.starts_with("about:")
            && origin_of(url) != opener
        {
            why = Some(format!(
                "a new tab on another origin than {opener} (--deny foreignTabs)"
            ));
        }
        if let Some(why) = &why {
            self.record(&Refused {
                kind: kind.to_string(),
                url: url.to_string(),
                why: why.clone(),
            });
        }
        why
    }

    fn record(&self, r: &Refused) {
        if let Ok(line) = serde_json::to_string(r)
            && let Ok(mut f) = crate::private::append_file(&self.log)
        {
            let line = crate::vault::mask(&line);
            let _ = f.write_all(format!("{line}\n").as_bytes());
        }
    }
}

struct BidiGuard {
    judge: Judge,
    own: String,
    /// Tabs the page opened, with the origin of the tab that opened them.
    popups: HashMap<String, String>,
}

impl BidiGuard {
    /// A new top-level context opened by a page: remember its opener's origin.
    async fn created(&mut self, bidi: &Bidi, c: &crate::engine::bidi::ContextInfo) {
        let Some(opener) = c.original_opener.as_ref().filter(|_| c.parent.is_none()) else {
            return;
        };
        let tree = bidi
            .send(&GetTree {
                max_depth: Some(0),
                root: Some(opener.clone()),
            })
            .await;
        let origin = tree
            .ok()
            .and_then(|t| t.contexts.first().map(|c| origin_of(&c.url)))
            .unwrap_or_default();
        self.popups.insert(c.context.clone(), origin);
    }

    async fn answer(&mut self, bidi: &Bidi, r: &crate::engine::bidi::BeforeRequestSent) {
        if !r.is_blocked || !r.intercepts.contains(&self.own) {
            return;
        }
        // held by another client's intercept too (ariasnap's own restore of saved logins,
        // limited to a tab of its own): that client answers it, without the network
        if r.intercepts.iter().any(|i| i != &self.own) {
            return;
        }
        let url = &r.request.url;
        let opener = r
            .context
            .as_ref()
            .and_then(|c| self.popups.get(c))
            .filter(|_| r.navigation.is_some())
            .cloned();
        let kind = kind_of(r, opener.is_some());
        let why = self.judge.judge(url, &kind, opener.as_deref());
        let request = r.request.request.clone();
        let sent = match why {
            None => bidi.send(&ContinueRequest { request }).await.map(|_| ()),
            Some(_) => bidi.send(&FailRequest { request }).await.map(|_| ()),
        };
        if let Err(e) = sent {
            // a request that ended meanwhile (its tab closed) cannot be answered
            debug!(error = %e, url, "request not answered");
        }
    }
}

/// What a request is, in a reply's words.
fn kind_of(r: &crate::engine::bidi::BeforeRequestSent, popup: bool) -> String {
    let dest = r.request.destination.as_deref().unwrap_or("");
    let nav = r.navigation.is_some() || dest == "document" || dest == "iframe";
    let post = r.request.method.eq_ignore_ascii_case("POST");
    let k = match dest {
        "iframe" | "frame" => "frame",
        "document" if popup => "new tab",
        _ if nav && popup => "new tab",
        _ if nav && post => "form post",
        "document" => "navigation",
        _ if nav => "navigation",
        "image" => "image",
        "script" => "script",
        "style" => "stylesheet",
        "font" => "font",
        "" => match r.request.initiator_type.as_deref() {
            Some("fetch") => "fetch",
            Some("xmlhttprequest") => "fetch",
            Some("beacon") => "beacon",
            Some("img" | "image") => "image",
            Some("script") => "script",
            _ => "request",
        },
        other => return other.to_string(),
    };
    k.to_string()
}

/// The origin of a URL as `scheme://host[:port]` ("" when it has none).
pub fn origin_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => u.origin().ascii_serialization(),
        Err(_) => String::new(),
    }
}
