//! Who an HTTP request is (docs/reference/mcp.md#agents-without-a-session): the handler rmcp's
//! streamable HTTP server makes for each MCP session of the 2025 protocols, and for each
//! request of the stateless 2026-07-28 protocol, which has no session (SEP-2567 removed
//! `initialize` and `Mcp-Session-Id`).
//!
//! A session is one agent, as before. A request without a session finds its agent by the
//! `agent` argument every tool takes over HTTP: a handle the server mints on the agent's first
//! call (given on the reply's first line) and the client passes back, the way that revision
//! says state spanning calls travels. A handle is 122 random bits: knowing it is what lets a
//! client use that agent's context, so agents sharing the token still cannot reach each
//! other's. An agent with a handle ends after `--idle-timeout` without a call, or at shutdown.
//!
//! Owns: the routing (which agent serves a call, a new one made when none is named) and the
//! handles. Must not: run steps (the `Agent` does).

use super::Agent;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ContentBlock, InitializeResult, ListToolsResult,
    PaginatedRequestParams, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// Makes a new agent (counted, placed later), or says why the server takes no more.
pub type MakeAgent = dyn Fn() -> Result<Arc<Agent>, String> + Send + Sync;

/// What every router of one HTTP server shares: how agents are made, the agents known by
/// handle, and the tool list (with the `agent` argument).
pub struct Handles {
    make: Box<MakeAgent>,
    handles: std::sync::Mutex<HashMap<String, Arc<Agent>>>,
    tools: Vec<Tool>,
    idle: Duration,
}

/// The argument that names an agent without a session.
const AGENT: &str = "agent";

impl Handles {
    /// A handles making agents with `make`, listing `tools` (the `agent` argument added to
    /// each); `idle`: the idle timeout, said to new agents.
    pub fn new(make: Box<MakeAgent>, tools: &[super::tools::ToolDef], idle: Duration) -> Self {
        let tools = tools
            .iter()
            .map(|t| {
                let mut schema = t.input_schema.clone();
                if let Some(Value::Object(p)) = schema.get_mut("properties") {
                    p.insert(
                        AGENT.into(),
                        serde_json::json!({
                            "type": "string",
                            "description": "The handle your first reply gave (its agent: line); omit on a first call"
                        }),
                    );
                }
                Tool::new(t.name.clone(), t.description.clone(), Arc::new(schema))
            })
            .collect();
        Handles {
            make,
            handles: Default::default(),
            tools,
            idle,
        }
    }

    /// Ends the agents known by handle that were idle for `limit`: their contexts closed
    /// (Agent's Drop, which removes the agent's folder: after the lock is let go, so that
    /// other agents' calls do not wait on it). Returns how many.
    pub fn reap(&self, limit: Duration) -> usize {
        let mut ended = Vec::new();
        if let Ok(mut h) = self.handles.lock() {
            h.retain(|_, s| {
                let quiet = s.idle.quiet_for(limit);
                if quiet {
                    ended.push(s.clone());
                }
                !quiet
            });
        }
        ended.len()
    }

    /// The agent of `handle`, or the error that says what to do.
    fn agent(&self, handle: &str) -> Result<Arc<Agent>, String> {
        self.handles
            .lock()
            .ok()
            .and_then(|h| h.get(handle).cloned())
            .ok_or_else(|| {
                format!(
                    "unknown agent handle {}: it ended (no call for {} s, or the server restarted) or was never given; call without \"agent\" to get a new browser context (its tabs, cookies and refs start empty)",
                    crate::safe::quote(handle),
                    self.idle.as_secs()
                )
            })
    }

    /// A new agent and its handle.
    fn new_agent(&self) -> Result<(String, Arc<Agent>), String> {
        let server = (self.make)()?;
        let handle = format!("a-{}", uuid::Uuid::new_v4().simple());
        if let Ok(mut h) = self.handles.lock() {
            h.insert(handle.clone(), server.clone());
        }
        Ok((handle, server))
    }
}

/// The handler of one MCP session (2025 protocols: its agent, made once) or of one request
/// without a session (2026-07-28: the agent its `agent` argument names, or a new one).
pub struct Router {
    handles: Arc<Handles>,
    own: tokio::sync::OnceCell<Arc<Agent>>,
}

impl Router {
    pub fn new(handles: Arc<Handles>) -> Self {
        Router {
            handles,
            own: Default::default(),
        }
    }

    /// This session's agent, made on its first use.
    async fn session_agent(&self) -> Result<&Arc<Agent>, String> {
        self.own
            .get_or_try_init(|| async { (self.handles.make)() })
            .await
    }
}

/// The MCP session a request belongs to (its `Mcp-Session-Id`; `extensions`: the request's,
/// which carry its HTTP parts), or None for a request of the stateless 2026-07-28 protocol.
pub fn session_of(extensions: &rmcp::model::Extensions) -> Option<&str> {
    extensions
        .get::<http::request::Parts>()
        .and_then(|p| p.headers.get(SESSION_HEADER))
        .and_then(|v| v.to_str().ok())
}

/// The header naming a request's MCP session (2025 protocols).
pub const SESSION_HEADER: &str = "mcp-session-id";

/// True when the request belongs to an MCP session; false for the stateless protocol's.
fn in_session(context: &RequestContext<RoleServer>) -> bool {
    session_of(&context.extensions).is_some()
}

/// A tool error result with `msg`.
fn refused(msg: String) -> CallToolResponse {
    rmcp::model::CallToolResult::error(vec![ContentBlock::text(format!("error: {msg}"))]).into()
}

/// The first line of a new agent's first reply: its handle and what to do with it.
pub fn handle_line(handle: &str, idle: Duration) -> String {
    format!(
        "agent: {handle} (a browser context of your own: give \"agent\": \"{handle}\" in every call; it ends after {} s without one)",
        idle.as_secs()
    )
}

impl ServerHandler for Router {
    fn get_info(&self) -> InitializeResult {
        super::server_info()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, rmcp::ErrorData> {
        if in_session(&context)
            && let Some(s) = self.own.get()
        {
            s.idle.seen(&context.extensions);
        }
        Ok(ListToolsResult::with_all_items(self.handles.tools.clone()))
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, rmcp::ErrorData> {
        let named = request
            .arguments
            .as_mut()
            .and_then(|a| a.remove(AGENT))
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| v.to_string())
            });
        if in_session(&context) {
            // (a session is its agent: an `agent` argument is not needed there)
            let server = match self.session_agent().await {
                Ok(s) => s.clone(),
                Err(e) => return Ok(refused(e)),
            };
            return ServerHandler::call_tool(&*server, request, context).await;
        }
        let (new, server) = match named {
            Some(h) => match self.handles.agent(&h) {
                Ok(s) => (None, s),
                Err(e) => return Ok(refused(e)),
            },
            None => match self.handles.new_agent() {
                Ok((h, s)) => (Some(h), s),
                Err(e) => return Ok(refused(e)),
            },
        };
        let mut r = ServerHandler::call_tool(&*server, request, context).await?;
        if let (Some(h), CallToolResponse::Complete(c)) = (new, &mut r) {
            c.content
                .insert(0, ContentBlock::text(handle_line(&h, self.handles.idle)));
            if let Some(Value::Object(o)) = &mut c.structured_content {
                o.insert(AGENT.into(), Value::String(h));
            }
        }
        Ok(r)
    }

    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        // a 2025 session's agent is made (and counted) as its session starts
        match self.session_agent().await {
            Ok(s) => s.idle.seen(&context.extensions),
            Err(e) => tracing::warn!("{e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handles(make: Box<MakeAgent>) -> Handles {
        Handles::new(
            make,
            &super::super::tool_defs(super::super::tools::ToolSet::Core),
            Duration::from_secs(300),
        )
    }

    /// Over HTTP every listed tool takes the optional `agent` argument (a string), and no
    /// tool requires it.
    #[test]
    fn every_tool_takes_an_optional_agent() {
        let h = handles(Box::new(|| Err("none".into())));
        assert!(!h.tools.is_empty());
        for t in &h.tools {
            assert_eq!(
                t.input_schema["properties"]["agent"]["type"], "string",
                "{}",
                t.name
            );
            let required = t.input_schema.get("required").cloned().unwrap_or_default();
            assert!(
                !required.to_string().contains("\"agent\""),
                "{} requires agent",
                t.name
            );
        }
    }

    /// New agents get distinct random handles; a handle never given is refused with what to
    /// do; agents idle for the limit end, busy or recent ones stay.
    #[test]
    fn handles_name_agents_until_they_idle_out() {
        let h = handles(Box::new(|| {
            Ok(Arc::new(Agent::new(
                crate::browser::BrowserOptions::default(),
                crate::steps::RunOptions::default(),
                super::super::tools::ToolSet::Core,
                false,
            )))
        }));
        let (a, _) = h.new_agent().unwrap();
        let (b, _) = h.new_agent().unwrap();
        for x in [&a, &b] {
            assert!(x.starts_with("a-") && x.len() == 34, "{x}");
            assert!(x[2..].chars().all(|c| c.is_ascii_hexdigit()), "{x}");
        }
        assert_ne!(a, b);
        assert!(h.agent(&a).is_ok());
        let e = h.agent("a-0123").err().unwrap();
        assert!(
            e.contains("unknown agent handle \"a-0123\"") && e.contains("call without \"agent\""),
            "{e}"
        );
        assert_eq!(h.reap(Duration::from_secs(60)), 0, "recent agents ended");
        {
            let busy = h.agent(&a).unwrap();
            let _call = busy.idle.busy(&Default::default());
            assert_eq!(
                h.reap(Duration::ZERO),
                1,
                "only the agent with no call ends"
            );
        }
        assert!(h.agent(&b).is_err());
        assert_eq!(h.reap(Duration::ZERO), 1);
        assert!(h.agent(&a).is_err());
    }

    /// A refusal (the server full) reaches the caller as the reason.
    #[test]
    fn a_full_server_says_so() {
        let h = handles(Box::new(|| Err("the server has 2 agents already".into())));
        assert_eq!(
            h.new_agent().err().unwrap(),
            "the server has 2 agents already"
        );
    }

    #[test]
    fn the_handle_line_says_how_to_use_it() {
        let l = handle_line("a-1", Duration::from_secs(300));
        assert_eq!(
            l,
            "agent: a-1 (a browser context of your own: give \"agent\": \"a-1\" in every call; it ends after 300 s without one)"
        );
    }
}
