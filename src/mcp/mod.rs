//! MCP server over stdio (`ariasnap mcp`): every step action as a tool, plus
//! `browser_run_steps` for a whole step list. `tools/list` offers the chosen set (core by
//! default); a call may name any tool of the whole set, with any of its options.
//!
//! Owns: the protocol side. Tools come from the step schema (tools.rs), calls run through the
//! same step runner as step files and the CLI, so the three never drift apart. stdout carries
//! protocol messages only (logs go to stderr). The browser starts on the first tool call and
//! its session is closed when the client disconnects (unless it was an existing session).

pub mod counts;
pub mod elicit;
pub mod fleet;
pub mod http;
mod lifecycle;
pub mod reference;
pub mod tools;

use crate::browser::{Browser, BrowserOptions};
use crate::error::{Error, Result};
use crate::steps::RunOptions;
use crate::steps::RunResult;
use crate::steps::runner::run;
use crate::steps::{StepFile, parse};
use rmcp::ServiceExt;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, ListToolsResult, PaginatedRequestParams, ServerCapabilities, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value};
use std::sync::Arc;
use tokio::sync::Mutex;
use tools::ToolDef;

/// Tokens an explicit `browser_snapshot` fits in unless the call says otherwise (docs/reference/mcp.md#results).
pub const DEFAULT_BUDGET: u64 = 4000;

/// One agent of the MCP server: its tools, its browser (or its place on a shared one), its
/// run options. The stdio server has one; over HTTP, one per MCP session or handle.
pub struct Agent {
    /// What `tools/list` offers (the chosen set).
    tools: Vec<ToolDef>,
    /// What a call may name: every tool with its whole schema, listed or not.
    callable: Vec<ToolDef>,
    browser: Mutex<Option<Browser>>,
    bopts: BrowserOptions,
    ropts: RunOptions,
    /// True when the session was made for this server (then it is closed at the end).
    own_session: bool,
    /// Send the step result JSON as `structuredContent` too (`ariasnap mcp --structured`).
    structured: bool,
    /// The HTTP server's counts, for an agent of `mcp --http`.
    counts: Option<Arc<counts::Counts>>,
    /// The HTTP server's shared browsers, when agents share them (fleet.rs), and where this
    /// agent was placed (on its first call).
    fleet: Option<Arc<fleet::Fleet>>,
    place: Mutex<Option<fleet::Placement>>,
    /// The generation of the shared browser whose user context got `--state` restored
    /// (docs/reference/mcp.md#one-saved-login-for-many-agents): each new context gets it once.
    restored: std::sync::Mutex<Option<u64>>,
    /// For the HTTP server's idle timeout: this agent's MCP session id (from its requests'
    /// `Mcp-Session-Id`), when it last did something, and its calls running now.
    pub(crate) idle: http::Idle,
}

/// Private sessions made by this process: `mcp-<pid>-<n>`, one per agent.
static PRIVATE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The tool list of a set, derived from the step schema.
pub fn tool_defs(set: tools::ToolSet) -> Vec<ToolDef> {
    tools::tool_set(
        &crate::steps::step_schema(),
        &crate::steps::steps_schema(),
        set,
    )
}

impl Agent {
    /// A server using `bopts` (session name empty: a private session `mcp-<pid>-<n>`);
    /// `structured`: results carry the step result JSON as `structuredContent` too.
    pub fn new(
        mut bopts: BrowserOptions,
        ropts: RunOptions,
        set: tools::ToolSet,
        structured: bool,
    ) -> Self {
        let own_session = bopts.session.is_empty();
        if own_session {
            let n = PRIVATE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            bopts.session = format!("mcp-{}-{n}", std::process::id());
        }
        Agent {
            tools: tool_defs(set),
            callable: tool_defs(tools::ToolSet::All),
            browser: Mutex::new(None),
            bopts,
            ropts,
            own_session,
            structured,
            counts: None,
            fleet: None,
            place: Mutex::new(None),
            restored: Default::default(),
            idle: Default::default(),
        }
    }

    /// The same server, as an agent placed in a shared browser of `fleet`.
    pub fn in_fleet(mut self, fleet: Arc<fleet::Fleet>) -> Self {
        self.fleet = Some(fleet);
        self
    }

    /// The same server, as an agent of the HTTP server: counted (`/metrics`), and its steps
    /// name files only inside a folder of its own (docs/reference/mcp.md#files), removed
    /// when it ends.
    pub fn with_counts(mut self, counts: Arc<counts::Counts>) -> Self {
        counts
            .agents
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.counts = Some(counts);
        self.ropts.files = Some(agent_files(&self.bopts.session));
        self
    }

    /// The tool a call names: any tool of the whole set, listed or not (an unlisted tool or
    /// option costs nothing per turn and is still taken).
    pub fn callable(&self, name: &str) -> Option<&ToolDef> {
        self.callable.iter().find(|t| t.name == name)
    }

    /// Runs a call; `cancel` fires when its client gives up on it (rmcp's request token).
    async fn run_call(
        &self,
        def: &ToolDef,
        args: Map<String, Value>,
        cancel: tokio_util::sync::CancellationToken,
        peer: rmcp::service::Peer<RoleServer>,
    ) -> Result<RunResult> {
        let file: StepFile = match &def.action {
            None => {
                let steps = args.get("steps").cloned().unwrap_or(Value::Null);
                parse::parse_value(&steps, def.name.as_str())?
            }
            Some(action) => {
                let mut args = args;
                // docs/reference/mcp.md#results: an explicit snapshot comes back inline, fitted to a budget, with
                // the whole tree in a file when it did not fit (never a bare file pointer)
                if action == "snapshot" && !args.contains_key("budget") {
                    args.insert("budget".into(), Value::from(DEFAULT_BUDGET));
                }
                let step = tools::step_from_call(def, args);
                let parsed = parse::parse_step(&step, 0).map_err(|p| Error::StepFile {
                    path: def.name.clone(),
                    problems: p.join("; "),
                })?;
                StepFile {
                    tab: None,
                    timeout: None,
                    steps: vec![parsed],
                }
            }
        };
        let ropts = RunOptions {
            cancel: Some(cancel),
            // docs/reference/policy.md#consent: the client's user, through elicitation
            asker: Some(crate::steps::consent::AskerRef(Arc::new(elicit::Elicit {
                peer,
            }))),
            ..self.ropts.clone()
        };
        if let Some(fleet) = &self.fleet {
            return self.run_shared(fleet, &file, &ropts).await;
        }
        let mut guard = self.browser.lock().await;
        if guard.is_none() {
            *guard = Some(Browser::open(&self.bopts).await?);
            if let Some(c) = &self.counts {
                c.browsers
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
        let b = guard
            .as_mut()
            .ok_or_else(|| Error::Browser("no browser".into()))?;
        Ok(run(b, &file, &ropts).await)
    }

    /// Closes the browser session when this server made it.
    pub async fn shutdown(&self) {
        if let Some(fleet) = &self.fleet {
            self.browser.lock().await.take();
            if let Some(p) = self.place.lock().await.take() {
                fleet.end(p, &self.bopts.session).await;
            }
            return;
        }
        let had = self.browser.lock().await.take().is_some();
        if had && let Some(c) = &self.counts {
            c.browsers
                .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        }
        // (the Browser and its session lock are dropped by now: closing takes the lock)
        if had && self.own_session {
            let _ = Browser::close_session(&self.bopts.session, self.bopts.deadline()).await;
        }
    }
}

/// The folder of agent `name`'s files (`$ARIASNAP_HOME/agents-v1/NAME`).
fn agent_files(name: &str) -> std::path::PathBuf {
    crate::private::home().join("agents-v1").join(name)
}

impl Drop for Agent {
    /// An agent of the HTTP server whose MCP session ended (the client's DELETE, the idle
    /// timeout): its browser session is closed, on the runtime, without waiting here.
    fn drop(&mut self) {
        use std::sync::atomic::Ordering;
        let Some(c) = &self.counts else { return };
        c.agents.fetch_sub(1, Ordering::Relaxed);
        if let Some(files) = &self.ropts.files {
            let _ = std::fs::remove_dir_all(files);
        }
        let had = self.browser.get_mut().take().is_some();
        if let Some(fleet) = self.fleet.clone() {
            // its user context removed, its browser closed when no agent is left on it
            if let Some(p) = self.place.get_mut().take()
                && let Ok(rt) = tokio::runtime::Handle::try_current()
            {
                let agent = self.bopts.session.clone();
                c.closing(rt.spawn(async move { fleet.end(p, &agent).await }));
            }
            return;
        }
        if !had {
            return;
        }
        c.browsers.fetch_sub(1, Ordering::Relaxed);
        if self.own_session
            && let Ok(rt) = tokio::runtime::Handle::try_current()
        {
            let (name, deadline) = (self.bopts.session.clone(), self.bopts.deadline());
            c.closing(rt.spawn(async move {
                let _ = Browser::close_session(&name, deadline).await;
            }));
        }
    }
}

/// What the server says of itself (initialize, server/discover).
pub(crate) fn server_info() -> InitializeResult {
    InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
        .with_server_info(Implementation::new("ariasnap", env!("CARGO_PKG_VERSION")))
        .with_instructions(
            "Browser tools over an accessibility snapshot: call browser_navigate or browser_snapshot, \
             then act with the refs it prints (s1e4). Actions return what changed.",
        )
}

impl ServerHandler for Agent {
    fn get_info(&self) -> InitializeResult {
        server_info()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListToolsResult, rmcp::ErrorData> {
        self.idle.seen(&context.extensions);
        let tools = self
            .tools
            .iter()
            .map(|t| {
                Tool::new(
                    t.name.clone(),
                    t.description.clone(),
                    Arc::new(t.input_schema.clone()),
                )
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<CallToolResponse, rmcp::ErrorData> {
        let Some(def) = self.callable(&request.name) else {
            return Err(rmcp::ErrorData::invalid_params(
                format!(
                    "unknown tool {:?}; the tools (listed or not): {}",
                    request.name,
                    self.callable
                        .iter()
                        .map(|t| t.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None,
            ));
        };
        let args = request.arguments.unwrap_or_default();
        let _call = self
            .counts
            .as_ref()
            .map(|c| counts::InFlight::new(c.clone()));
        let _busy = self.idle.busy(&context.extensions);
        // a span per call, with the agent's session, for the logs (`-v`, RUST_LOG)
        let span = tracing::info_span!("tool_call", agent = %self.bopts.session, tool = %def.name);
        let result = match tracing::Instrument::instrument(
            self.run_call(def, args, context.ct.clone(), context.peer.clone()),
            span,
        )
        .await
        {
            Ok(r) => {
                // docs/reference/policy.md#secrets: no result carries a secret's value
                let text = crate::vault::mask(&r.text(true)).into_owned();
                let failed = r.status != "ok";
                let structured = self.structured.then(|| {
                    let mut v = serde_json::to_value(&r).unwrap_or(Value::Null);
                    crate::vault::mask_json(&mut v);
                    v
                });
                let mut r = if failed {
                    CallToolResult::error(vec![ContentBlock::text(text)])
                } else {
                    CallToolResult::success(vec![ContentBlock::text(text)])
                };
                // Off unless asked for: clients such as Claude Code give the model
                // `structuredContent` instead of the text when it is present, and the step
                // result JSON is several times the text (the snapshot inside JSON, every
                // change listed); the text is what an agent should read.
                r.structured_content = structured;
                r
            }
            Err(e) => {
                let mut msg = format!("error: {e}");
                if let Some(h) = e.hint() {
                    msg.push_str(&format!("\nhint: {h}"));
                }
                CallToolResult::error(vec![ContentBlock::text(crate::vault::mask(&msg))])
            }
        };
        Ok(result.into())
    }
}

/// Serves MCP on stdin/stdout until the client disconnects, then closes the browser.
pub async fn serve(
    bopts: BrowserOptions,
    ropts: RunOptions,
    set: tools::ToolSet,
    structured: bool,
) -> Result<()> {
    let server = Arc::new(Agent::new(bopts, ropts, set, structured));
    let handler = ArcAgent(server.clone());
    let running = handler
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| Error::Browser(format!("MCP start-up failed: {e}")))?;
    let _ = running.waiting().await;
    server.shutdown().await;
    Ok(())
}

/// Gives the heap's free memory back to the system after a call: a call builds and drops
/// a few large structures (the page's reply, the snapshot, its rendering), and the server
/// lives on between calls, where glibc would keep what they freed below its trim threshold
/// and in the holes between live blocks (`malloc_trim` returns both). Elsewhere (another
/// libc) nothing happens.
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the heap's arenas.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// A cheap handle so the server's state outlives the protocol service.
struct ArcAgent(Arc<Agent>);

impl ServerHandler for ArcAgent {
    fn get_info(&self) -> InitializeResult {
        self.0.get_info()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListToolsResult, rmcp::ErrorData> {
        self.0.list_tools(request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<CallToolResponse, rmcp::ErrorData> {
        let r = self.0.call_tool(request, context).await;
        give_back_memory();
        r
    }

    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        self.0.idle.seen(&context.extensions);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Saved logins as tools (issue 45): `browser_save_state` and `browser_load_state` take
    /// the file as `path` (and `sessionStorage`), and a call makes the step.
    #[test]
    fn state_steps_are_tools() {
        let defs = tool_defs(tools::ToolSet::All);
        let by = |n: &str| defs.iter().find(|d| d.name == n).cloned().unwrap();
        let save = by("browser_save_state");
        let props = &save.input_schema["properties"];
        assert!(props.get("path").is_some() && props.get("sessionStorage").is_some());
        let mut a = Map::new();
        a.insert("path".into(), "s.json".into());
        let step = tools::step_from_call(&by("browser_load_state"), a);
        let parsed = crate::steps::parse::parse_step(&step, 0).unwrap();
        assert_eq!(parsed.action.name(), "loadState", "{step}");
    }

    #[test]
    fn every_step_action_has_a_tool_and_every_tool_an_action() {
        let defs = tool_defs(tools::ToolSet::All);
        for a in crate::steps::ActionKind::names() {
            assert!(
                defs.iter().any(|d| d.action.as_deref() == Some(a)),
                "no tool for step action {a}"
            );
        }
        for d in &defs {
            match &d.action {
                Some(a) => assert!(
                    crate::steps::ActionKind::from_name(a).is_some(),
                    "tool {} maps to no action",
                    d.name
                ),
                None => assert_eq!(d.name, "browser_run_steps"),
            }
            assert_eq!(
                d.input_schema.get("type"),
                Some(&Value::from("object")),
                "{}",
                d.name
            );
        }
        assert_eq!(defs.len(), crate::steps::ActionKind::all().count() + 1);
        for name in [
            "browser_navigate",
            "browser_snapshot",
            "browser_search",
            "browser_click",
            "browser_type",
            "browser_fill",
            "browser_press_key",
            "browser_hover",
            "browser_select_option",
            "browser_tabs",
            "browser_evaluate",
            "browser_run_steps",
        ] {
            assert!(defs.iter().any(|d| d.name == name), "{name} missing");
        }
    }

    /// Issue 15: the core listing is small, the calls are the whole set's: every tool is
    /// callable by name and takes every option, listed or not.
    #[test]
    fn unlisted_tools_and_options_are_callable() {
        let server = Agent::new(
            BrowserOptions::default(),
            RunOptions::default(),
            tools::ToolSet::Core,
            false,
        );
        let listed: Vec<&str> = server.tools.iter().map(|t| t.name.as_str()).collect();
        for d in tool_defs(tools::ToolSet::All) {
            let def = server
                .callable(&d.name)
                .unwrap_or_else(|| panic!("{}", d.name));
            assert_eq!(def, &d, "{}", d.name);
        }
        assert!(!listed.contains(&"browser_fill"), "{listed:?}");
        let mut a = Map::new();
        a.insert("ref".into(), "s1e2".into());
        a.insert("value".into(), "ada@example.org".into());
        let s = tools::step_from_call(server.callable("browser_fill").unwrap(), a);
        assert!(parse::parse_step(&s, 0).is_ok(), "{s}");
        let mut a = Map::new();
        a.insert("text".into(), "Saved".into());
        a.insert("timeout".into(), 500.into());
        let s = tools::step_from_call(server.callable("browser_wait").unwrap(), a);
        assert!(parse::parse_step(&s, 0).is_ok(), "{s}");
        let mut a = Map::new();
        a.insert("jmespath_query".into(), "length(children)".into());
        let s = tools::step_from_call(server.callable("browser_snapshot").unwrap(), a);
        assert_eq!(s["snapshot"]["jmespath_query"], "length(children)", "{s}");
        assert!(server.callable("browser_nothing").is_none());
    }

    #[test]
    fn tool_calls_parse_as_steps() {
        let defs = tool_defs(tools::ToolSet::Core);
        let by = |n: &str| defs.iter().find(|d| d.name == n).unwrap().clone();
        let mut a = Map::new();
        a.insert("url".into(), "http://127.0.0.1/".into());
        let s = tools::step_from_call(&by("browser_navigate"), a);
        assert!(parse::parse_step(&s, 0).is_ok(), "{s}");
        let mut a = Map::new();
        a.insert("ref".into(), "s1e2".into());
        let s = tools::step_from_call(&by("browser_click"), a);
        assert!(parse::parse_step(&s, 0).is_ok(), "{s}");
        let s = tools::step_from_call(&by("browser_tabs"), Map::new());
        assert!(parse::parse_step(&s, 0).is_ok(), "{s}");
        let s = tools::step_from_call(&by("browser_snapshot"), Map::new());
        assert!(parse::parse_step(&s, 0).is_ok(), "{s}");
        // hooks among an action tool's arguments (issue 16)
        let mut a = Map::new();
        a.insert("ref".into(), "s1e2".into());
        a.insert("observe".into(), "location.href".into());
        let s = tools::step_from_call(&by("browser_click"), a);
        let step = parse::parse_step(&s, 0).unwrap_or_else(|p| panic!("{s}: {p:?}"));
        assert_eq!(
            step.hooks.observe.map(|h| h.fn_).as_deref(),
            Some("location.href")
        );
        // and beside each step of browser_run_steps
        let steps = serde_json::json!([{"click": "s1e2", "readyWhen": "window.ready"}]);
        let file = parse::parse_value(&steps, "browser_run_steps").unwrap();
        assert!(file.steps[0].hooks.ready_when.is_some());
        // options the core tool does not list are still taken
        let mut a = Map::new();
        a.insert("jmespath_query".into(), "length(children)".into());
        a.insert("flatten".into(), true.into());
        let s = tools::step_from_call(&by("browser_snapshot"), a);
        assert!(parse::parse_step(&s, 0).is_ok(), "{s}");
        assert_eq!(s["snapshot"]["jmespath_query"], "length(children)", "{s}");
    }
}
