//! A small typed WebDriver BiDi client over one WebSocket (tokio-tungstenite): commands
//! carry ids and their replies are awaited with a deadline; events go to every subscriber's
//! tokio channel, decoded once into [`Event`].
//!
//! Owns: the connection (a reader task that routes replies and events; writes under a lock),
//! the command and reply types (`types`; the network module's in `network`, the storage
//! module's cookies in `storage`), the script values (`value`), the input actions
//! (`input`), and the one place BiDi JSON is read (the decode functions here and in
//! `value`). Errors of the protocol become `Error::Bidi` (command, code, message); a lost
//! connection is `Error::Browser`, a missed deadline `Error::Timeout`. Must not: start or
//! end WebDriver sessions (browser/ does), know the engine's methods or decide what a reply
//! means for a step.

mod input;
mod log;
mod network;
mod storage;
mod types;
mod value;

pub use input::{
    KeyAction, Origin, PerformActions, PointerAction, ReleaseActions, SetFiles, SharedReference,
    SourceActions,
};
pub use log::{LogEntry, Source, StackFrame, StackTrace};
pub use network::{
    AddDataCollector, AddDataCollectorReply, AddIntercept, AddInterceptReply, BeforeRequestSent,
    BytesValue, ContinueRequest, FailRequest, FetchError, FetchTimings, GetData, GetDataReply,
    Header, Initiator, ProvideResponse, RemoveDataCollector, RemoveIntercept, RequestData,
    ResponseContent, ResponseData, ResponseEvent, UrlPattern,
};
pub use storage::{
    Cookie, GetCookies, GetCookiesReply, PartialCookie, Partition, SameSite, SetCookie,
};
pub use types::{
    AddPreloadScript, AddPreloadScriptReply, CallFunction, CloseContext, Command, ContextInfo,
    CreateContext, CreateContextReply, CreateUserContext, DownloadBehavior, DownloadEnd,
    DownloadWillBegin, Empty, Evaluate, ExceptionDetails, GetTree, GetTreeReply, GetUserContexts,
    GetUserContextsReply, HandleUserPrompt, Navigate, NavigateReply, NavigationInfo, Readiness,
    RemovePreloadScript, RemoveUserContext, ResultOwnership, ScriptResult, SerializationOptions,
    SetDownloadBehavior, ShadowTree, Subscribe, SubscribeReply, Target, Unsubscribe,
    UserContextInfo, UserPromptOpened,
};
pub use value::{
    Key, LocalValue, NodeProperties, NodeValue, Number, RemoteValue, WindowProperties, WindowValue,
};

use crate::error::{Error, Result};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::{Mutex, mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tracing::{debug, trace};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long a command waits for its reply unless told otherwise.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(30);

/// Largest message accepted from the browser (an engine reply can be a big snapshot).
const MAX_MESSAGE: usize = 256 << 20;

/// The reply the reader task hands to a waiting command.
enum Answer {
    /// `result` of a success.
    Ok(Value),
    /// An error reply: code and message.
    Err { code: String, message: String },
}

/// What the reader task and the command senders share.
struct Shared {
    /// Commands waiting for their reply, by id.
    pending: StdMutex<HashMap<u64, oneshot::Sender<Answer>>>,
    /// Event subscribers; closed ones are dropped on the next event.
    subscribers: StdMutex<Vec<mpsc::UnboundedSender<Event>>>,
    /// Set by the reader task when the socket ends; later commands fail at once.
    closed: std::sync::atomic::AtomicBool,
}

/// One WebDriver BiDi connection. Cheap to share behind an `Arc`; commands may be sent
/// from several tasks at once. Dropping it ends the reader task and the socket.
pub struct Bidi {
    url: String,
    next_id: AtomicU64,
    sink: Mutex<SplitSink<Socket, Message>>,
    shared: Arc<Shared>,
    reader: JoinHandle<()>,
    deadline: Duration,
}

impl std::fmt::Debug for Bidi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bidi").field("url", &self.url).finish()
    }
}

impl Drop for Bidi {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// The envelope of every message from the browser (BiDi `Message`).
#[derive(Deserialize)]
struct Envelope {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    params: Option<Value>,
}

/// A command as sent: `{id, method, params}`.
#[derive(Serialize)]
struct Outgoing<'a, P> {
    id: u64,
    method: &'static str,
    params: &'a P,
}

impl Bidi {
    /// Connects to a session's `webSocketUrl` (ws://). Replies wait [`DEFAULT_DEADLINE`].
    pub async fn connect(url: &str) -> Result<Bidi> {
        let mut config = WebSocketConfig::default();
        config.max_message_size = Some(MAX_MESSAGE);
        config.max_frame_size = Some(MAX_MESSAGE);
        let (socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true)
            .await
            .map_err(|e| Error::Browser(format!("could not open WebDriver BiDi at {url}: {e}")))?;
        let (sink, stream) = socket.split();
        let shared = Arc::new(Shared {
            pending: StdMutex::new(HashMap::new()),
            subscribers: StdMutex::new(Vec::new()),
            closed: false.into(),
        });
        let reader = tokio::spawn(read_loop(stream, shared.clone()));
        debug!(url, "bidi connected");
        Ok(Bidi {
            url: url.to_string(),
            next_id: AtomicU64::new(1),
            sink: Mutex::new(sink),
            shared,
            reader,
            deadline: DEFAULT_DEADLINE,
        })
    }

    /// The same connection with another default deadline for replies.
    pub fn with_deadline(mut self, deadline: Duration) -> Bidi {
        self.deadline = deadline;
        self
    }

    /// The WebSocket address this client is connected to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// False once the browser closed the socket (or it failed).
    pub fn is_open(&self) -> bool {
        !self.shared.closed.load(Ordering::Acquire)
    }

    /// Sends `cmd` and waits for its reply up to the client's deadline.
    pub async fn send<C: Command>(&self, cmd: &C) -> Result<C::Reply> {
        self.send_within(cmd, self.deadline).await
    }

    /// Sends `cmd` and waits for its reply up to `deadline`. A protocol error is
    /// `Error::Bidi`; no reply in time is `Error::Timeout`; a closed socket `Error::Browser`.
    pub async fn send_within<C: Command>(&self, cmd: &C, deadline: Duration) -> Result<C::Reply> {
        let result = self.roundtrip(C::METHOD, cmd, deadline).await?;
        serde_json::from_value(result).map_err(|source| Error::Json {
            what: "a WebDriver BiDi reply",
            source,
        })
    }

    /// Sends one command and waits for the `result` of its reply.
    async fn roundtrip<P: Serialize>(
        &self,
        method: &'static str,
        params: &P,
        deadline: Duration,
    ) -> Result<Value> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let text = serde_json::to_string(&Outgoing { id, method, params }).map_err(|source| {
            Error::Json {
                what: "a WebDriver BiDi command",
                source,
            }
        })?;
        let (tx, rx) = oneshot::channel();
        lock(&self.shared.pending).insert(id, tx);
        let _forget = Forget(&self.shared, id);
        if !self.is_open() {
            return Err(lost(method, "the connection is closed"));
        }
        trace!(id, method, len = text.len(), "bidi command");
        self.sink
            .lock()
            .await
            .send(Message::text(text))
            .await
            .map_err(|e| lost(method, &e.to_string()))?;
        match tokio::time::timeout(deadline, rx).await {
            Err(_) => Err(Error::Timeout(format!(
                "WebDriver BiDi command {method} got no reply within {} ms",
                deadline.as_millis()
            ))),
            Ok(Err(_)) => Err(lost(method, "the connection closed before the reply")),
            Ok(Ok(Answer::Ok(v))) => Ok(v),
            Ok(Ok(Answer::Err { code, message })) => Err(Error::Bidi {
                command: method,
                code,
                message: crate::error::one_line(message.lines().next().unwrap_or("")),
            }),
        }
    }

    /// A new receiver of every event this connection gets from now on (the browser sends
    /// only the events a `session.subscribe` asked for). Events arrive in the browser's order.
    pub fn events(&self) -> Events {
        let (tx, rx) = mpsc::unbounded_channel();
        lock(&self.shared.subscribers).push(tx);
        Events {
            rx,
            held: std::collections::VecDeque::new(),
        }
    }

    /// Closes the socket politely (the session stays: BiDi sessions made over classic
    /// WebDriver end with Delete Session).
    pub async fn close(self) -> Result<()> {
        let mut sink = self.sink.lock().await;
        sink.close()
            .await
            .map_err(|e| lost("close", &e.to_string()))
    }
}

/// Removes a command's waiter when its call ends (reply, timeout or cancellation).
struct Forget<'a>(&'a Shared, u64);

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        lock(&self.0.pending).remove(&self.1);
    }
}

/// Locks a std mutex, taking over a poisoned one (its data stays consistent: plain inserts
/// and removals).
fn lock<T>(m: &StdMutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The error for a command that could not get through.
fn lost(method: &str, why: &str) -> Error {
    Error::Browser(format!(
        "the WebDriver BiDi connection failed during {method}: {why}"
    ))
}

/// Reads messages until the socket ends: replies to their waiters, events to subscribers.
async fn read_loop(mut stream: SplitStream<Socket>, shared: Arc<Shared>) {
    while let Some(msg) = stream.next().await {
        let text = match msg {
            Ok(Message::Text(t)) => t,
            Ok(Message::Binary(b)) => match String::from_utf8(b.to_vec()) {
                Ok(t) => t.into(),
                Err(_) => continue,
            },
            Ok(Message::Close(_)) => break,
            Ok(_) => continue,
            Err(e) => {
                debug!(error = %e, "bidi socket failed");
                break;
            }
        };
        route(text.as_str(), &shared);
    }
    shared.closed.store(true, Ordering::Release);
    // waking every waiter: their senders drop, and they report a lost connection
    lock(&shared.pending).clear();
    lock(&shared.subscribers).clear();
    debug!("bidi connection ended");
}

/// Routes one message from the browser.
fn route(text: &str, shared: &Shared) {
    let env: Envelope = match serde_json::from_str(text) {
        Ok(e) => e,
        Err(e) => {
            debug!(error = %e, "undecodable bidi message");
            return;
        }
    };
    match (env.kind.as_str(), env.id) {
        ("success", Some(id)) => reply(shared, id, Answer::Ok(env.result.unwrap_or_default())),
        ("error", Some(id)) => {
            let outcome = Answer::Err {
                code: env.error.unwrap_or_default(),
                message: env.message.unwrap_or_default(),
            };
            reply(shared, id, outcome)
        }
        ("event", _) => {
            let method = env.method.unwrap_or_default();
            let event = Event::decode(&method, env.params.unwrap_or_default());
            trace!(method, "bidi event");
            lock(&shared.subscribers).retain(|s| s.send(event.clone()).is_ok());
        }
        (kind, id) => debug!(kind, ?id, error = ?env.error, "unrouted bidi message"),
    }
}

/// Hands a reply to its waiter (gone when the caller timed out).
fn reply(shared: &Shared, id: u64, outcome: Answer) {
    if let Some(tx) = lock(&shared.pending).remove(&id) {
        let _ = tx.send(outcome);
    }
}

/// An event the client knows, decoded; others keep their method name.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// `browsingContext.contextCreated`: a tab, window or frame appeared.
    ContextCreated(ContextInfo),
    /// `browsingContext.contextDestroyed`: it went away (its children with it).
    ContextDestroyed(ContextInfo),
    /// `browsingContext.navigationStarted`.
    NavigationStarted(NavigationInfo),
    /// `browsingContext.navigationFailed`: a navigation ended without a new document (a
    /// network error, a 204 answer, a response that became a download).
    NavigationFailed(NavigationInfo),
    /// `browsingContext.navigationAborted`: a navigation was replaced or stopped.
    NavigationAborted(NavigationInfo),
    /// `browsingContext.domContentLoaded`.
    DomContentLoaded(NavigationInfo),
    /// `browsingContext.load`.
    Load(NavigationInfo),
    /// `browsingContext.userPromptOpened`: an alert, confirm, prompt or beforeunload.
    UserPromptOpened(UserPromptOpened),
    /// `browsingContext.downloadWillBegin`: a navigation became a download.
    DownloadWillBegin(DownloadWillBegin),
    /// `browsingContext.downloadEnd`: a download completed or was canceled.
    DownloadEnd(DownloadEnd),
    /// `network.beforeRequestSent`: a request is about to be sent (held, when an intercept
    /// of the session holds it).
    BeforeRequestSent(Box<BeforeRequestSent>),
    /// `network.responseStarted`: a response's headers are in.
    ResponseStarted(Box<ResponseEvent>),
    /// `network.responseCompleted`: a response's body is in.
    ResponseCompleted(Box<ResponseEvent>),
    /// `network.fetchError`: a request failed (network error, CORS, refused, aborted).
    FetchError(Box<FetchError>),
    /// `log.entryAdded`: a console call or an uncaught error.
    LogEntry(Box<LogEntry>),
    /// Any other event, or one whose parameters did not decode.
    Other {
        /// The event's method name.
        method: String,
    },
}

impl Event {
    /// Method name of [`Event::ContextCreated`].
    pub const CONTEXT_CREATED: &'static str = "browsingContext.contextCreated";
    /// Method name of [`Event::ContextDestroyed`].
    pub const CONTEXT_DESTROYED: &'static str = "browsingContext.contextDestroyed";
    /// Method name of [`Event::NavigationStarted`].
    pub const NAVIGATION_STARTED: &'static str = "browsingContext.navigationStarted";
    /// Method name of [`Event::NavigationFailed`].
    pub const NAVIGATION_FAILED: &'static str = "browsingContext.navigationFailed";
    /// Method name of [`Event::NavigationAborted`].
    pub const NAVIGATION_ABORTED: &'static str = "browsingContext.navigationAborted";
    /// Method name of [`Event::DomContentLoaded`].
    pub const DOM_CONTENT_LOADED: &'static str = "browsingContext.domContentLoaded";
    /// Method name of [`Event::Load`].
    pub const LOAD: &'static str = "browsingContext.load";
    /// Method name of [`Event::UserPromptOpened`].
    pub const USER_PROMPT_OPENED: &'static str = "browsingContext.userPromptOpened";
    /// Method name of [`Event::DownloadWillBegin`].
    pub const DOWNLOAD_WILL_BEGIN: &'static str = "browsingContext.downloadWillBegin";
    /// Method name of [`Event::DownloadEnd`].
    pub const DOWNLOAD_END: &'static str = "browsingContext.downloadEnd";
    /// Method name of [`Event::BeforeRequestSent`].
    pub const BEFORE_REQUEST_SENT: &'static str = "network.beforeRequestSent";
    /// Method name of [`Event::ResponseStarted`].
    pub const RESPONSE_STARTED: &'static str = "network.responseStarted";
    /// Method name of [`Event::ResponseCompleted`].
    pub const RESPONSE_COMPLETED: &'static str = "network.responseCompleted";
    /// Method name of [`Event::FetchError`].
    pub const FETCH_ERROR: &'static str = "network.fetchError";
    /// Method name of [`Event::LogEntry`].
    pub const LOG_ENTRY: &'static str = "log.entryAdded";

    /// Decodes an event's parameters by its method name.
    fn decode(method: &str, params: Value) -> Event {
        fn de<T: serde::de::DeserializeOwned>(p: Value, f: fn(T) -> Event) -> Option<Event> {
            serde_json::from_value(p).ok().map(f)
        }
        let known = match method {
            Self::CONTEXT_CREATED => de(params, Event::ContextCreated),
            Self::CONTEXT_DESTROYED => de(params, Event::ContextDestroyed),
            Self::NAVIGATION_STARTED => de(params, Event::NavigationStarted),
            Self::NAVIGATION_FAILED => de(params, Event::NavigationFailed),
            Self::NAVIGATION_ABORTED => de(params, Event::NavigationAborted),
            Self::DOM_CONTENT_LOADED => de(params, Event::DomContentLoaded),
            Self::LOAD => de(params, Event::Load),
            Self::USER_PROMPT_OPENED => de(params, Event::UserPromptOpened),
            Self::DOWNLOAD_WILL_BEGIN => de(params, Event::DownloadWillBegin),
            Self::DOWNLOAD_END => de(params, Event::DownloadEnd),
            Self::BEFORE_REQUEST_SENT => de(params, |b| Event::BeforeRequestSent(Box::new(b))),
            Self::RESPONSE_STARTED => de(params, |r| Event::ResponseStarted(Box::new(r))),
            Self::RESPONSE_COMPLETED => de(params, |r| Event::ResponseCompleted(Box::new(r))),
            Self::FETCH_ERROR => de(params, |f| Event::FetchError(Box::new(f))),
            Self::LOG_ENTRY => de(params, |l| Event::LogEntry(Box::new(l))),
            _ => None,
        };
        known.unwrap_or_else(|| Event::Other {
            method: method.to_string(),
        })
    }

    /// A navigation ended without a new document (`navigationFailed`, `navigationAborted`).
    pub fn is_navigation_end(&self) -> bool {
        matches!(
            self,
            Event::NavigationFailed(_) | Event::NavigationAborted(_)
        )
    }

    /// The browsing context the event is about, when it names one.
    pub fn context(&self) -> Option<&str> {
        match self {
            Event::ContextCreated(c) | Event::ContextDestroyed(c) => Some(&c.context),
            Event::NavigationStarted(n)
            | Event::NavigationFailed(n)
            | Event::NavigationAborted(n)
            | Event::DomContentLoaded(n)
            | Event::Load(n) => Some(&n.context),
            Event::UserPromptOpened(p) => Some(&p.context),
            Event::DownloadWillBegin(d) => Some(&d.context),
            Event::DownloadEnd(d) => Some(&d.context),
            Event::BeforeRequestSent(b) => b.context.as_deref(),
            Event::ResponseStarted(r) | Event::ResponseCompleted(r) => r.context.as_deref(),
            Event::FetchError(f) => f.context.as_deref(),
            Event::LogEntry(l) => l.source.context.as_deref(),
            Event::Other { .. } => None,
        }
    }
}

/// A subscriber's stream of events (see [`Bidi::events`]); ends when the connection does.
/// Events looked at ([`Events::seen`]) stay in it for the reads after.
#[derive(Debug)]
pub struct Events {
    rx: mpsc::UnboundedReceiver<Event>,
    held: std::collections::VecDeque<Event>,
}

impl Events {
    /// The next event, or None once the connection ended.
    pub async fn next(&mut self) -> Option<Event> {
        match self.held.pop_front() {
            Some(e) => Some(e),
            None => self.rx.recv().await,
        }
    }

    /// Whether an event `want` accepts was received so far, without waiting or taking it.
    pub fn seen(&mut self, want: impl Fn(&Event) -> bool) -> bool {
        while let Ok(e) = self.rx.try_recv() {
            self.held.push_back(e);
        }
        self.held.iter().any(want)
    }

    /// Waits up to `within` for the first event `want` accepts, dropping the others.
    pub async fn wait_for(
        &mut self,
        within: Duration,
        mut want: impl FnMut(&Event) -> bool,
    ) -> Result<Event> {
        let found = tokio::time::timeout(within, async {
            while let Some(e) = self.next().await {
                if want(&e) {
                    return Some(e);
                }
            }
            None
        })
        .await;
        match found {
            Ok(Some(e)) => Ok(e),
            Ok(None) => Err(lost("an event wait", "the connection is closed")),
            Err(_) => Err(Error::Timeout(format!(
                "no awaited WebDriver BiDi event within {} ms",
                within.as_millis()
            ))),
        }
    }

    /// Every event already received, without waiting.
    pub fn drain(&mut self) -> Vec<Event> {
        let mut out: Vec<Event> = self.held.drain(..).collect();
        while let Ok(e) = self.rx.try_recv() {
            out.push(e);
        }
        out
    }
}

/// The `webSocketUrl` a new session's capabilities returned (present when the session
/// asked for `webSocketUrl: true` and the driver speaks BiDi).
pub fn websocket_url(caps: &serde_json::Map<String, Value>) -> Option<String> {
    match caps.get("webSocketUrl") {
        Some(Value::String(s)) if s.starts_with("ws://") || s.starts_with("wss://") => {
            Some(s.clone())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn events_looked_at_stay_for_the_reads_after() {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut ev = Events {
            rx,
            held: std::collections::VecDeque::new(),
        };
        let failed = |c: &str| {
            Event::decode(
                Event::NAVIGATION_FAILED,
                json!({"context": c, "navigation": "n1", "timestamp": 1, "url": "http://a/x"}),
            )
        };
        let other = Event::Other {
            method: "x.y".into(),
        };
        tx.send(other.clone()).unwrap();
        let is_failed = |e: &Event| matches!(e, Event::NavigationFailed(n) if n.context == "T");
        assert!(!ev.seen(is_failed));
        tx.send(failed("T")).unwrap();
        assert!(ev.seen(is_failed));
        // still there, in the order they came, for next() and drain()
        assert_eq!(ev.next().await, Some(other));
        tx.send(failed("U")).unwrap();
        assert_eq!(ev.drain(), vec![failed("T"), failed("U")]);
        assert!(!ev.seen(is_failed));
    }

    #[test]
    fn events_decode_by_method() {
        let e = Event::decode(
            Event::CONTEXT_CREATED,
            json!({"context": "A", "url": "about:blank", "children": null, "parent": "P",
                   "userContext": "default", "originalOpener": null, "clientWindow": "w"}),
        );
        let Event::ContextCreated(c) = &e else {
            panic!("{e:?}")
        };
        assert_eq!((c.context.as_str(), c.parent.as_deref()), ("A", Some("P")));
        let e = Event::decode(
            Event::USER_PROMPT_OPENED,
            json!({"context": "A", "handler": "ignore", "message": "hi", "type": "confirm"}),
        );
        assert!(
            matches!(&e, Event::UserPromptOpened(p) if p.kind == "confirm" && p.message == "hi")
        );
        assert_eq!(
            Event::decode("log.fooAdded", json!({})),
            Event::Other {
                method: "log.fooAdded".into()
            }
        );
        // a console entry as Chromium sends it
        let e = Event::decode(
            Event::LOG_ENTRY,
            json!({"type": "console", "method": "warn", "level": "warn", "text": "careful",
                   "source": {"realm": "R", "context": "C"}, "timestamp": 5,
                   "args": [{"type": "string", "value": "careful"}],
                   "stackTrace": {"callFrames": [{"url": "http://a.test/", "functionName": "",
                                                  "lineNumber": 7, "columnNumber": 8}]}}),
        );
        let Event::LogEntry(l) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(
            (l.level.as_str(), l.method.as_deref()),
            ("warn", Some("warn"))
        );
        assert_eq!(
            l.stack_trace.as_ref().unwrap().call_frames[0].line_number,
            7
        );
        assert_eq!(e.context(), Some("C"));
    }

    #[test]
    fn replies_route_to_their_waiter() {
        let shared = Shared {
            pending: StdMutex::new(HashMap::new()),
            subscribers: StdMutex::new(Vec::new()),
            closed: false.into(),
        };
        let (tx, mut rx) = oneshot::channel();
        lock(&shared.pending).insert(7, tx);
        route(
            r#"{"type":"error","id":7,"error":"no such frame","message":"gone\nstack"}"#,
            &shared,
        );
        match rx.try_recv() {
            Ok(Answer::Err { code, message }) => {
                assert_eq!(code, "no such frame");
                assert!(message.starts_with("gone"));
            }
            _ => panic!("no error outcome"),
        }
    }

    #[test]
    fn websocket_url_is_read_from_capabilities() {
        let caps = json!({"browserName": "chrome", "webSocketUrl": "ws://127.0.0.1:9/session/x"});
        let serde_json::Value::Object(m) = caps else {
            unreachable!()
        };
        assert_eq!(
            websocket_url(&m).as_deref(),
            Some("ws://127.0.0.1:9/session/x")
        );
    }
}
