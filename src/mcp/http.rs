//! MCP over streamable HTTP (`ariasnap mcp --http [ADDR]`, docs/reference/mcp.md#over-http):
//! the transport of the MCP specification (rmcp's streamable HTTP server: sessions for the 2025
//! protocols, stateless requests for 2026-07-28), at `/mcp`, beside `/healthz` and `/metrics`.
//! Each agent (an MCP session, or a handle: below) has a user context of its own in a
//! browser it shares with other agents (fleet.rs), or a browser of its own
//! (`--browser-per-agent`), closed when the agent ends (the client's DELETE, the idle
//! timeout, the server's shutdown).
//!
//! Who a request is (docs/reference/mcp.md#agents-without-a-session): the [`Router`] rmcp's
//! streamable HTTP server makes for each MCP session of the 2025 protocols, and for each
//! request of the stateless 2026-07-28 protocol, which has no session (SEP-2567 removed
//! `initialize` and `Mcp-Session-Id`). A session is one agent. A request without a session
//! finds its agent by the `agent` argument every tool takes over HTTP: a handle the server
//! mints on the agent's first call (given on the reply's first line) and the client passes
//! back, the way that revision says state spanning calls travels. A handle is 122 random
//! bits: knowing it is what lets a client use that agent's context, so agents sharing the
//! token still cannot reach each other's. An agent with a handle ends after
//! `--idle-timeout` without a call, or at shutdown.
//!
//! Safe by default: bound to loopback unless told otherwise; a bearer token (read from
//! `--token-file`, never the command line) is required on every `/mcp` request when bound
//! elsewhere, and whenever given; `Host` and `Origin` are checked against allow lists (the
//! specification's defence against DNS rebinding; rmcp checks them); request bodies are
//! limited; session ids are rmcp's random UUIDs, and an agent names only its own session's
//! tabs, refs and files (each agent is its own session record and user context).
//!
//! Owns: the listener, the routes, the token check, idle agents, which agent serves a call
//! (a new one made when none is named) and the handles. Must not: run steps itself (the
//! `Agent` of mod.rs does, one per agent), or end the server (lifecycle.rs drains and
//! closes).

use super::Agent;
use super::counts::Counts;
use super::lifecycle::{close_everything, drain};
use crate::browser::BrowserOptions;
use crate::error::{Error, Result};
use crate::steps::RunOptions;
use http::{Request, Response, StatusCode};
use http_body_util::BodyExt;
use hyper::body::{Bytes, Incoming};
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ContentBlock, InitializeResult, ListToolsResult,
    PaginatedRequestParams, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::Value;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, info, info_span};

/// The default address of `--http`.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8931";

/// How the HTTP server is set up.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    pub addr: SocketAddr,
    /// The bearer token every `/mcp` request must carry (None: none, loopback only).
    pub token: Option<String>,
    /// `Host` values accepted besides the loopback names.
    pub hosts: Vec<String>,
    /// `Origin` values accepted (none: requests with an `Origin` header are refused).
    pub origins: Vec<String>,
    /// An agent that sends nothing for this long is closed.
    pub idle: Duration,
    /// At most this many agents per browser (`--max-agents`).
    pub max_agents: usize,
    /// At most this many browsers (`--max-browsers`): a new agent is refused beyond.
    pub max_browsers: usize,
    /// A browser of its own for each agent (`--browser-per-agent`) instead of a user context
    /// in a shared browser.
    pub browser_per_agent: bool,
}

impl HttpOptions {
    /// The most agents the server takes at once.
    fn agent_limit(&self, shared: bool) -> usize {
        if shared {
            self.max_agents.saturating_mul(self.max_browsers)
        } else {
            self.max_browsers
        }
    }
}

/// What the idle timeout goes by, per agent: rmcp's own (`SessionConfig::keep_alive`) counts
/// only the session's messages, so it would close a session in the middle of a call that
/// outlasts it (a Firefox started by the first call took 3.8 s, past a 2 s timeout). An
/// agent is idle when no call of its runs and nothing came from it for `--idle-timeout`.
#[derive(Debug)]
pub struct Idle {
    session: std::sync::Mutex<Option<String>>,
    last: std::sync::Mutex<std::time::Instant>,
    running: AtomicUsize,
}

impl Default for Idle {
    fn default() -> Self {
        Idle {
            session: Default::default(),
            last: std::sync::Mutex::new(std::time::Instant::now()),
            running: AtomicUsize::new(0),
        }
    }
}

/// A call of an agent, counted while it runs ([`Idle::busy`]).
pub struct Busy<'a>(&'a Idle);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.touch();
        self.0.running.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Idle {
    /// A message of the agent (`extensions`: its request's, which carry the HTTP request and
    /// so the session id).
    pub fn seen(&self, extensions: &rmcp::model::Extensions) {
        if let Some(id) = session_of(extensions)
            && let Ok(mut s) = self.session.lock()
            && s.is_none()
        {
            *s = Some(id.to_string());
        }
        self.touch();
    }

    /// A call starting; it counts until the guard is dropped.
    pub fn busy(&self, extensions: &rmcp::model::Extensions) -> Busy<'_> {
        self.running.fetch_add(1, Ordering::Relaxed);
        self.seen(extensions);
        Busy(self)
    }

    fn touch(&self) {
        if let Ok(mut l) = self.last.lock() {
            *l = std::time::Instant::now();
        }
    }

    /// True when no call of the agent runs and nothing came from it for `limit`.
    pub fn quiet_for(&self, limit: Duration) -> bool {
        self.running.load(Ordering::Relaxed) == 0
            && self.last.lock().is_ok_and(|l| l.elapsed() >= limit)
    }

    /// The session id of an agent idle for `limit` ([`Idle::quiet_for`]).
    pub(super) fn expired(&self, limit: Duration) -> Option<String> {
        if !self.quiet_for(limit) {
            return None;
        }
        self.session.lock().ok()?.clone()
    }
}

/// A response body (what rmcp's service answers with too).
type Body = http_body_util::combinators::BoxBody<Bytes, std::convert::Infallible>;

/// A whole body of text.
fn full(s: impl Into<String>) -> Body {
    http_body_util::Full::new(Bytes::from(s.into())).boxed()
}

/// Serves MCP over HTTP until Ctrl-C or SIGTERM, then closes every agent's browser.
pub async fn serve(
    bopts: BrowserOptions,
    ropts: RunOptions,
    set: super::tools::ToolSet,
    structured: bool,
    h: HttpOptions,
) -> Result<()> {
    if !h.addr.ip().is_loopback() && h.token.is_none() {
        return Err(Error::Usage(format!(
            "--http {}: not a loopback address, so a token is required: give --token-file FILE (a file holding the bearer token clients send)",
            h.addr
        )));
    }
    let listener = tokio::net::TcpListener::bind(h.addr)
        .await
        .map_err(|e| Error::Usage(format!("--http {}: cannot listen there: {e}", h.addr)))?;
    let counts = Arc::new(Counts::default());
    let shutdown = CancellationToken::new();
    let mut hosts = vec!["localhost".to_string(), "127.0.0.1".into(), "::1".into()];
    hosts.push(h.addr.to_string());
    hosts.extend(h.hosts.iter().cloned());
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(h.origins.clone())
        .with_cancellation_token(shutdown.child_token())
        .with_max_request_body_bytes(1 << 20);
    if h.origins.is_empty() {
        config = config.enforce_origin_validation();
    }
    let mut manager = LocalSessionManager::default();
    let mut session = SessionConfig::default();
    // idle agents are closed by `reap_idle` (an agent whose call runs is not idle); rmcp's
    // own timer remains for sessions that never sent a message after `initialize`, set far
    // enough out to pass any call
    session.keep_alive = Some(h.idle.max(Duration::from_secs(3600)));
    manager.session_config = session;
    let manager = Arc::new(manager);
    let agents: Arc<std::sync::Mutex<Vec<std::sync::Weak<Agent>>>> = Default::default();
    let fleet = shared_browsers(&bopts, &h, &counts);
    let make = {
        let counts = counts.clone();
        let agents = agents.clone();
        let fleet = fleet.clone();
        let max = h.agent_limit(fleet.is_some());
        move || {
            if counts.agents.load(Ordering::Relaxed) >= max {
                counts.refused.fetch_add(1, Ordering::Relaxed);
                return Err(format!(
                    "the server has {max} agents already (--max-agents, --max-browsers)"
                ));
            }
            let mut b = bopts.clone();
            b.session.clear();
            let mut server =
                Agent::new(b, ropts.clone(), set, structured).with_counts(counts.clone());
            // the operator's handle on what the agent did: its session's journal
            // (docs/reference/mcp.md#each-agents-journal)
            info!(
                session = server.bopts.session.as_str(),
                "agent started; its journal: ariasnap session export {} FILE", server.bopts.session
            );
            if let Some(f) = &fleet {
                server = server.in_fleet(f.clone());
            }
            let server = Arc::new(server);
            if let Ok(mut a) = agents.lock() {
                a.retain(|w| w.strong_count() > 0);
                a.push(Arc::downgrade(&server));
            }
            Ok(server)
        }
    };
    let handles = Arc::new(Handles::new(Box::new(make), &super::tool_defs(set), h.idle));
    let factory = {
        let handles = handles.clone();
        move || Ok(Router::new(handles.clone()))
    };
    let mcp = StreamableHttpService::new(factory, manager.clone(), config);
    tokio::spawn(reap_idle(
        agents.clone(),
        handles,
        manager,
        h.idle,
        shutdown.clone(),
    ));
    eprintln!(
        "ariasnap mcp: serving MCP at http://{}/mcp (health: /healthz, metrics: /metrics)",
        h.addr
    );
    accept(listener, mcp, &counts, h.token.clone()).await;
    shutdown.cancel();
    close_everything(&agents, fleet.as_deref(), &counts).await;
    Ok(())
}

/// Takes connections and serves their requests ([`route`]) until the calls in flight at a
/// signal have finished (new requests meanwhile get 503).
async fn accept(
    listener: tokio::net::TcpListener,
    mcp: McpService,
    counts: &Arc<Counts>,
    token: Option<String>,
) {
    let token = token.map(Arc::new);
    let drained = drain(counts);
    tokio::pin!(drained);
    loop {
        let (sock, peer) = tokio::select! {
            a = listener.accept() => match a {
                Ok(a) => a,
                Err(_) => continue,
            },
            _ = &mut drained => break,
        };
        let mcp = mcp.clone();
        let counts = counts.clone();
        let token = token.clone();
        tokio::spawn(async move {
            let svc = hyper::service::service_fn(move |req: Request<Incoming>| {
                let mcp = mcp.clone();
                let counts = counts.clone();
                let token = token.clone();
                async move {
                    Ok::<_, std::convert::Infallible>(
                        route(req, &mcp, &counts, token.as_deref()).await,
                    )
                }
            });
            let io = hyper_util::rt::TokioIo::new(sock);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, svc)
                .await;
            tracing::debug!(%peer, "connection closed");
        });
    }
}

/// The shared browsers agents get a user context in (docs/reference/mcp.md#one-browser-many-agents), or None
/// when each agent gets a browser of its own (`--browser-per-agent`, or a set-up that
/// cannot share one, said on stderr).
fn shared_browsers(
    bopts: &BrowserOptions,
    h: &HttpOptions,
    counts: &Arc<Counts>,
) -> Option<Arc<super::fleet::Fleet>> {
    if h.browser_per_agent {
        return None;
    }
    if let Some(why) = crate::browser::shared::why_not_shared(bopts) {
        eprintln!("note: each agent gets a browser of its own: {why}");
        return None;
    }
    Some(Arc::new(super::fleet::Fleet::new(
        bopts.clone(),
        h.max_agents,
        h.max_browsers,
        counts.clone(),
    )))
}

/// Closes the MCP sessions of agents idle for `limit` ([`Idle`]), checking every second
/// (or every half limit, when shorter), until shutdown.
async fn reap_idle(
    agents: Arc<std::sync::Mutex<Vec<std::sync::Weak<Agent>>>>,
    handles: Arc<Handles>,
    manager: Arc<LocalSessionManager>,
    limit: Duration,
    shutdown: CancellationToken,
) {
    use rmcp::transport::streamable_http_server::SessionManager;
    let every = (limit / 2).clamp(Duration::from_millis(100), Duration::from_secs(1));
    loop {
        tokio::select! {
            _ = tokio::time::sleep(every) => {},
            _ = shutdown.cancelled() => return,
        }
        let idle: Vec<String> = agents
            .lock()
            .map(|a| {
                a.iter()
                    .filter_map(std::sync::Weak::upgrade)
                    .filter_map(|s| s.idle.expired(limit))
                    .collect()
            })
            .unwrap_or_default();
        for id in idle {
            info!(
                session = id.chars().take(8).collect::<String>(),
                "idle agent closed"
            );
            let _ = manager.close_session(&id.into()).await;
        }
        let ended = handles.reap(limit);
        if ended > 0 {
            info!(ended, "idle agents without a session closed");
        }
    }
}

type McpService = StreamableHttpService<Router, LocalSessionManager>;

/// One request: `/healthz`, `/metrics`, or `/mcp` after the token check.
async fn route(
    req: Request<Incoming>,
    mcp: &McpService,
    counts: &Counts,
    token: Option<&String>,
) -> Response<Body> {
    let text = |status: StatusCode, body: String| {
        Response::builder()
            .status(status)
            .header("content-type", "text/plain; charset=utf-8")
            .body(full(body))
            .unwrap_or_else(|_| Response::new(full("")))
    };
    match req.uri().path() {
        "/healthz" => text(StatusCode::OK, "ok\n".into()),
        "/metrics" => {
            if token.is_some_and(|t| !bearer_is(&req, t)) {
                counts.refused.fetch_add(1, Ordering::Relaxed);
                return unauthorized();
            }
            text(StatusCode::OK, counts.text())
        }
        "/mcp" => {
            if token.is_some_and(|t| !bearer_is(&req, t)) {
                counts.refused.fetch_add(1, Ordering::Relaxed);
                return unauthorized();
            }
            if counts.draining.load(Ordering::Relaxed) {
                return text(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is shutting down: it finishes the calls in flight and takes no new request\n".into(),
                );
            }
            let session = req
                .headers()
                .get(SESSION_HEADER)
                .and_then(|v| v.to_str().ok())
                .map(|s| s.chars().take(8).collect::<String>())
                .unwrap_or_default();
            let method = req.method().clone();
            let res = tower_service::Service::call(&mut mcp.clone(), req)
                .instrument(info_span!("mcp_request", session, %method))
                .await;
            let Ok(r) = res;
            if r.status() == StatusCode::FORBIDDEN {
                counts.refused.fetch_add(1, Ordering::Relaxed);
            }
            r
        }
        _ => text(
            StatusCode::NOT_FOUND,
            "not found: MCP is served at /mcp (and /healthz, /metrics)\n".into(),
        ),
    }
}

fn unauthorized() -> Response<Body> {
    Response::builder()
        .status(StatusCode::UNAUTHORIZED)
        .header("www-authenticate", "Bearer")
        .body(full(
            "a bearer token is required (Authorization: Bearer TOKEN)\n",
        ))
        .unwrap_or_else(|_| Response::new(full("")))
}

/// Whether the request carries `Authorization: Bearer <token>` (compared in constant time).
fn bearer_is(req: &Request<Incoming>, token: &str) -> bool {
    let Some(given) = req
        .headers()
        .get(http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    else {
        return false;
    };
    let (a, b) = (given.trim().as_bytes(), token.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Reads the token of `--token-file`: the file's first line, not empty; the file should be
/// private (a warning otherwise).
pub fn read_token(path: &std::path::Path) -> Result<String> {
    use std::os::unix::fs::PermissionsExt;
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::Usage(format!(
            "--token-file {}: {e}; give a file holding the bearer token",
            path.display()
        ))
    })?;
    let t = text.lines().next().unwrap_or("").trim().to_string();
    if t.len() < 16 {
        return Err(Error::Usage(format!(
            "--token-file {}: the token is empty or shorter than 16 characters; write a long random one (e.g. `openssl rand -hex 32 > FILE`)",
            path.display()
        )));
    }
    if std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0) {
        eprintln!(
            "note: --token-file {} can be read by other users: chmod 600 it",
            path.display()
        );
    }
    Ok(t)
}

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
