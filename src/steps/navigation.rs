//! Navigation: `goto`, tabs, frames and `waitForNavigation` (telling documents apart).
//!
//! Owns: these steps' arguments and how they run. Must not: reach the page other than
//! through `engine` and `browser`.

use super::act::{Act, Core, Cx, Gate, Info, Kind, row};
use super::args::no_args;
use super::files::notes_hint;
use super::looking::{SnapshotArgs, SnapshotOptForm, snapshot_detail, snapshot_opt, snapshot_step};
use super::options::{DocMark, RunOptions, strip_hash, within};
use crate::actions;
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::engine::entry;
use crate::error::{Error, Result};
use crate::safe::quote;
use crate::wire::DocStateReply;
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// `goto`: a URL, and optionally the loaded page's snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct GotoArgs {
    /// Address to open.
    pub url: String,
    /// Take a snapshot once loaded and return it: true, a detail level (full,
    /// interactive, summary) or snapshot options; omit to stay silent.
    #[serde(default, deserialize_with = "snapshot_opt")]
    #[schemars(with = "Option<SnapshotOptForm>")]
    #[arg(long, num_args = 0..=1, default_missing_value = "", value_name = "DETAIL", value_parser = snapshot_detail)]
    pub snapshot: Option<SnapshotArgs>,
}

impl From<String> for GotoArgs {
    fn from(url: String) -> Self {
        GotoArgs {
            url,
            snapshot: None,
        }
    }
}

impl GotoArgs {
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Snapshot options of a navigation that also returns the page.
    pub fn snapshot(&self) -> Option<&SnapshotArgs> {
        self.snapshot.as_ref()
    }
}

/// `newTab`: a new tab, optionally at a URL.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct NewTabArgs {
    /// Address to open in it.
    #[serde(default)]
    pub url: Option<String>,
}

impl From<String> for NewTabArgs {
    fn from(url: String) -> Self {
        NewTabArgs { url: Some(url) }
    }
}

/// `switchTab`: a tab alias.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct TabArgs {
    /// Tab alias (t1, t2...).
    pub tab: String,
}

impl From<String> for TabArgs {
    fn from(tab: String) -> Self {
        TabArgs { tab }
    }
}

/// `closeTab`: a tab alias, or the current tab.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct CloseTabArgs {
    /// Tab alias (default: the current tab).
    #[serde(default)]
    pub tab: Option<String>,
}

impl From<String> for CloseTabArgs {
    fn from(tab: String) -> Self {
        CloseTabArgs { tab: Some(tab) }
    }
}

// Which frame later steps act in: `"main"`, an index, or an iframe ref (no doc comment:
// schemars would repeat it wherever the type is used).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FrameArg {
    Index(u16),
    Name(String),
}

impl std::str::FromStr for FrameArg {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        Ok(match s.parse::<u16>() {
            Ok(i) => FrameArg::Index(i),
            Err(_) => FrameArg::Name(s.to_string()),
        })
    }
}

/// `frame`: which frame later steps act in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct FrameArgs {
    /// main, an index, or an iframe's ref.
    #[arg(value_name = "TARGET", value_parser = |s: &str| s.parse::<FrameArg>())]
    pub target: FrameArg,
}

impl From<FrameArg> for FrameArgs {
    fn from(target: FrameArg) -> Self {
        FrameArgs { target }
    }
}

/// `goto`: navigate, and with `snapshot`, return the loaded page's snapshot too.
pub(super) async fn goto(
    b: &mut Browser,
    u: &GotoArgs,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    b.goto(u.url()).await?;
    let url = b.url().await;
    let mut o = json!({"url": url});
    // an agent learns that this site has notes (issue 16)
    if let Some(n) = notes_hint(&url, opts) {
        o["siteNotes"] = n;
    }
    if let Some(sa) = u.snapshot() {
        actions::settle_loaded(b, None, opts.settle_max).await;
        let snap = snapshot_step(b, sa, opts, artifacts).await?;
        o["snapshot"] = snap.output.unwrap_or(Value::Null);
    }
    Ok(Outcome::with(o))
}

pub(super) async fn frame(b: &mut Browser, f: &FrameArg) -> Result<Outcome> {
    match f {
        FrameArg::Name(n) if n == "main" || n == "top" => {
            for _ in 0..16 {
                b.page.enter_parent_frame().await?;
            }
            Ok(Outcome::with(json!({"frame": "main"})))
        }
        FrameArg::Name(r) => {
            let id = actions::element(b, r).await?;
            b.page.enter_frame_element(&id).await?;
            Ok(Outcome::with(json!({"frame": r})))
        }
        FrameArg::Index(i) => {
            b.page.enter_frame(*i).await?;
            Ok(Outcome::with(json!({"frame": i})))
        }
    }
}

/// `waitForNavigation`: until the document is replaced (or the URL changes) and loads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WaitForNavigationArgs {
    /// Limit in ms (default: the step's deadline, which is --timeout on the command line).
    #[serde(default)]
    #[arg(skip)]
    pub timeout: Option<u64>,
    /// load (default), domcontentloaded, or commit (the new document exists).
    #[serde(default)]
    #[arg(long)]
    pub wait_until: Option<String>,
}

/// What `waitUntil` may say.
pub const WAIT_UNTIL: &[&str] = &["load", "domcontentloaded", "commit"];

/// Which document the tab shows now, retried through a navigation in flight.
pub(super) async fn doc_state(b: &Browser, limit: Duration) -> Result<DocStateReply> {
    let start = Instant::now();
    loop {
        match ask(b, entry::DocState {}).await {
            Ok(s) => return Ok(s),
            Err(e) if e.is_browser() || start.elapsed() >= limit => return Err(e),
            Err(_) => {
                actions::handle_dialogs(b).await;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// Whether a ready state is as far as `until` asks (HTML's document readiness: loading,
/// interactive = DOMContentLoaded, complete = load).
pub(super) fn reached(ready: &str, until: &str) -> bool {
    match until {
        "commit" => true,
        "domcontentloaded" => ready == "interactive" || ready == "complete",
        _ => ready == "complete",
    }
}

/// Waits until the tab shows another document than `mark` (or another URL: a same-document
/// navigation) that is as ready as `until` asks; with `loading`, the document shown now
/// counts as the new one (a navigation committed before the wait began).
pub(super) async fn new_document(
    b: &Browser,
    mark: &DocMark,
    until: &str,
    loading: bool,
    limit: Duration,
) -> std::result::Result<DocStateReply, (Error, String)> {
    let start = Instant::now();
    let mut now = mark.url.clone();
    loop {
        match ask(b, entry::DocState {}).await {
            Ok(s) => {
                let changed = loading
                    || s.origin != mark.origin
                    || strip_hash(&s.url) != strip_hash(&mark.url);
                if changed && reached(&s.ready, until) {
                    return Ok(s);
                }
                now = s.url;
            }
            Err(e) if e.is_browser() => return Err((e, now)),
            // between documents: the old one is gone, the new one not answering yet
            Err(_) => actions::handle_dialogs(b).await,
        }
        if start.elapsed() >= limit {
            return Err((
                Error::Timeout(format!("no new page within {} ms", limit.as_millis())),
                now,
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `waitForNavigation`: the navigation an earlier action of this run started (`prev` is the
/// document shown when that action began: a navigation already finished counts), or one
/// that starts within the limit; then until the new document is loaded (`waitUntil`).
pub async fn wait_for_navigation(
    b: &Browser,
    a: &WaitForNavigationArgs,
    opts: &RunOptions,
    prev: Option<DocMark>,
) -> Result<Outcome> {
    let t0 = Instant::now();
    let until = a.wait_until.as_deref().unwrap_or("load");
    let cap = within(opts.timeout);
    let limit = a.timeout.map(Duration::from_millis).unwrap_or(cap).min(cap);
    let (mark, loading) = match prev {
        Some(m) => (m, false),
        None => {
            let s = doc_state(b, limit).await?;
            let loading = s.ready != "complete";
            (
                DocMark {
                    origin: s.origin,
                    url: s.url,
                },
                loading,
            )
        }
    };
    match new_document(b, &mark, until, loading, limit.saturating_sub(t0.elapsed())).await {
        Ok(s) => Ok(Outcome::with(json!({
            "url": s.url,
            "ready": s.ready,
            "waited_ms": t0.elapsed().as_millis() as u64,
        }))),
        Err((e, _)) if !e.is_timeout() => Err(e),
        Err((_, now)) => Err(Error::Timeout(format!(
            "no navigation within {} ms: the page is still {} (waitForNavigation waits for a \
             navigation started by an earlier step of this run or during the wait; wait \
             {{\"url\": \"...\"}} waits for a URL)",
            limit.as_millis(),
            quote(&now)
        ))),
    }
}

no_args!(
    /// `reload`: none.
    ReloadArgs,
    /// `back`: none.
    BackArgs,
    /// `forward`: none.
    ForwardArgs,
    /// `tabs`: none.
    ListTabsArgs,
);

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for GotoArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Opened", "browser_navigate", "url", r#""http://127.0.0.1:8080/""#);
    const CORE: Option<Core> = Some(Core {
        rank: 0,
        description: Some("Open a URL and wait for it to load."),
        props: &[
            ("url", ""),
            (
                "snapshot",
                "Also return a snapshot: true, a detail or its options",
            ),
        ],
    });
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        goto(cx.b, self, cx.opts, cx.artifacts).await
    }
}

impl Act for ReloadArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_reload", "value", "true");
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        cx.b.page.refresh().await?;
        Ok(Outcome::default())
    }
}

impl Act for BackArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_navigate_back", "value", "true");
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        cx.b.page.back().await?;
        Ok(Outcome::default())
    }
}

impl Act for ForwardArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_navigate_forward", "value", "true");
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        cx.b.page.forward().await?;
        Ok(Outcome::default())
    }
}

impl Act for NewTabArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_new_tab", "url", r#""http://127.0.0.1:8080/""#);
    fn gate(&self) -> Gate<'_> {
        self.url.as_deref().map_or(Gate::Open, Gate::NewTab)
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        let alias = cx.b.new_tab().await?;
        if let Some(u) = &self.url {
            cx.b.goto(u).await?;
        }
        Ok(Outcome::with(json!({"tab": alias})))
    }
}

impl Act for TabArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_switch_tab", "tab", r#""t2""#);
    const CORE: Option<Core> = Some(Core {
        rank: 7,
        description: Some("Make a tab (t2) current."),
        props: &[("tab", "")],
    });
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        cx.b.use_tab(Some(&self.tab)).await?;
        Ok(Outcome::with(json!({"tab": self.tab})))
    }
}

impl Act for CloseTabArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_close_tab", "tab", r#""t2""#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        let t = &self.tab;
        let now = cx.b.close_tab(t.as_deref()).await?;
        Ok(Outcome::with(
            json!({"closed": t.clone().unwrap_or_default(), "tab": now}),
        ))
    }
}

impl Act for ListTabsArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_tabs", "value", "true");
    const CORE: Option<Core> = Some(Core {
        rank: 6,
        description: Some("List tabs (t1, t2...) with URLs and titles."),
        props: &[],
    });
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        Ok(Outcome::with(cx.b.list_tabs().await?))
    }
}

impl Act for FrameArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_frame", "value", r#""main", 0 or "s1e5""#);
    const LOCATED_BY: Option<&'static str> = Some("target");
    fn target(&self) -> Option<&str> {
        match &self.target {
            FrameArg::Name(r) if crate::refs::is_ref(r.trim()) => Some(r.as_str()),
            _ => None,
        }
    }
    fn set_target(&mut self, r: String) -> bool {
        self.target = FrameArg::Name(r);
        true
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        frame(cx.b, &self.target).await
    }
}

impl Act for WaitForNavigationArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_wait_for_navigation", "value", r#"true or {"timeout": 10000, "waitUntil": "load"}"#);
    fn problems(&self) -> Vec<String> {
        match &self.wait_until {
            Some(u) if !WAIT_UNTIL.contains(&u.as_str()) => vec![format!(
                "waitUntil {u:?}: use load, domcontentloaded or commit"
            )],
            _ => Vec::new(),
        }
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        wait_for_navigation(cx.b, self, cx.opts, cx.prev_doc.clone()).await
    }
}
