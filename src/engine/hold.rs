//! Holding every request of a Chromium before it is sent, through the browser's own
//! DevTools socket (`/devtools/browser/...`, flat sessions): the channel of the session's
//! watcher (browser/watch) on a Chromium that ariasnap started, for the operator's policy
//! (browser/guard.rs) and for routes.
//!
//! Why not WebDriver BiDi's `network.addIntercept` there: chromedriver runs a session's
//! commands one at a time, BiDi ones included, so the guard's answer to a held request waits
//! behind the classic command that caused it (Navigate To waits for the load the held
//! request is part of): the two wait on each other until the deadline. Measured: a `goto`
//! under an intercept answered over chromedriver's BiDi timed out, the guard's
//! `network.continueRequest` answered only after it. The browser's DevTools socket does not
//! go through chromedriver.
//!
//! How (DevTools protocol, Target and Fetch domains): auto-attach to every target with
//! `waitForDebuggerOnStart` (a new tab, an out-of-process frame, a worker runs nothing
//! before it is held), `Fetch.enable` for every URL at the request stage in each, then let
//! it run; each `Fetch.requestPaused` is answered with `Fetch.continueRequest`,
//! `Fetch.failRequest` (`BlockedByClient`: nothing is sent; `Failed` for a route's failure)
//! or `Fetch.fulfillRequest` (a route's answer), at once or after the route's delay.
//!
//! Owns: the socket, the sessions and the protocol's words. Must not: decide which request
//! goes through or how it is answered (the caller's `judge` does).

use crate::error::{Error, Result};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tracing::debug;

/// How a held request is answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// On to the network.
    Continue,
    /// Refused: nothing is sent (`BlockedByClient`).
    Refuse,
    /// Failed as a network error (`Failed`).
    Fail,
    /// Answered without the network: status, headers, body.
    Fulfill(u16, Vec<(String, String)>, Vec<u8>),
}

/// A request held in the browser, as the judge sees it.
#[derive(Debug, Clone)]
pub struct Held {
    pub url: String,
    pub method: String,
    /// DevTools' resource type: `Document`, `Image`, `Fetch`, `XHR`, `Script`...
    pub resource_type: String,
    /// A document request of a frame, not of its tab's top.
    pub subframe: bool,
    /// A document request of a tab's top.
    pub top_navigation: bool,
    /// The URL of the tab that opened this one (window.open, target=_blank), for a tab a
    /// page opened; its URL when it was opened.
    pub opener_url: Option<String>,
    /// The request's id in the Network domain (WebDriver BiDi's request id on Chromium).
    pub network_id: String,
    /// The browser context (BiDi user context) of its target.
    pub browser_context: Option<String>,
}

/// What a judge answers for a held request: how, and after how long.
pub type Judged = (Verdict, Duration);

/// Holds every request of the browser whose DevTools socket is `ws_url` and asks `judge`
/// how to answer it, and after how long. `ready` is called once every target that existed
/// is held. Returns when the browser's socket ends (or the caller drops the future: the
/// socket closes, and Chromium lets what it held go on).
pub async fn hold_requests(
    ws_url: &str,
    ready: impl FnOnce(),
    mut judge: impl FnMut(&Held) -> Judged,
) -> Result<()> {
    let (ws, _) = tokio_tungstenite::connect_async(ws_url)
        .await
        .map_err(|e| Error::Browser(format!("could not open DevTools at {ws_url}: {e}")))?;
    let (mut sink, mut stream) = ws.split();
    let mut h = Holder::default();
    let (later_tx, mut later) = tokio::sync::mpsc::unbounded_channel::<String>();
    h.later = Some(later_tx);
    h.send(None, "Target.setDiscoverTargets", json!({"discover": true}));
    h.attach_id = h.send(None, "Target.setAutoAttach", auto_attach());
    let mut ready = Some(ready);
    loop {
        for m in h.out.drain(..) {
            if sink.send(Message::text(m)).await.is_err() {
                return Ok(());
            }
        }
        if h.attached_all
            && h.enabling.is_empty()
            && let Some(r) = ready.take()
        {
            r();
        }
        let text = tokio::select! {
            m = stream.next() => match m {
                Some(Ok(Message::Text(t))) => t.to_string(),
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => continue,
            },
            // an answer whose delay is over
            Some(m) = later.recv() => {
                h.out.push(m);
                continue;
            }
        };
        if let Ok(v) = serde_json::from_str::<Value>(&text) {
            h.read(&v, &mut judge);
        }
    }
    debug!("the browser's DevTools socket ended");
    Ok(())
}

/// `Target.setAutoAttach`'s parameters: every related target, held until let go.
fn auto_attach() -> Value {
    json!({"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true})
}

/// What the holder knows and has to send.
#[derive(Default)]
struct Holder {
    next_id: u64,
    /// Messages to send, in order.
    out: Vec<String>,
    /// Target id -> its URL (kept current).
    urls: HashMap<String, String>,
    /// Session id -> target id.
    sessions: HashMap<String, String>,
    /// A tab a page opened -> the URL of its opener then.
    openers: HashMap<String, String>,
    /// `Fetch.enable` commands whose reply the start waits for.
    enabling: HashSet<u64>,
    /// The browser's own auto-attach command, and whether it answered (every target that
    /// existed was attached before its answer).
    attach_id: u64,
    attached_all: bool,
    /// Target id -> its browser context.
    contexts: HashMap<String, String>,
    /// Answers sent when their delay is over.
    later: Option<tokio::sync::mpsc::UnboundedSender<String>>,
}

impl Holder {
    fn send(&mut self, session: Option<&str>, method: &str, params: Value) -> u64 {
        self.send_after(session, method, params, Duration::ZERO)
    }

    /// Sends a command now, or after `delay` (through the loop's channel).
    fn send_after(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
        delay: Duration,
    ) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        let mut m = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            m["sessionId"] = json!(s);
        }
        match &self.later {
            Some(tx) if !delay.is_zero() => {
                let tx = tx.clone();
                let m = m.to_string();
                tokio::spawn(async move {
                    tokio::time::sleep(delay).await;
                    let _ = tx.send(m);
                });
            }
            _ => self.out.push(m.to_string()),
        }
        id
    }

    /// One message from the browser: a reply, or an event.
    fn read(&mut self, v: &Value, judge: &mut impl FnMut(&Held) -> Judged) {
        if let Some(id) = v.get("id").and_then(Value::as_u64) {
            if let Some(e) = v.get("error") {
                debug!(id, error = %e, "DevTools command refused");
            }
            if id == self.attach_id {
                self.attached_all = true;
            }
            self.enabling.remove(&id);
            return;
        }
        let session = v.get("sessionId").and_then(Value::as_str);
        let params = v.get("params").unwrap_or(&Value::Null);
        match v.get("method").and_then(Value::as_str).unwrap_or("") {
            "Target.targetCreated" | "Target.targetInfoChanged" => {
                let info = &params["targetInfo"];
                if let (Some(id), Some(url)) = (info["targetId"].as_str(), info["url"].as_str()) {
                    self.urls.insert(id.to_string(), url.to_string());
                }
            }
            "Target.targetDestroyed" => {
                if let Some(id) = params["targetId"].as_str() {
                    self.urls.remove(id);
                    self.openers.remove(id);
                }
            }
            "Target.attachedToTarget" => self.attached(params),
            "Target.detachedFromTarget" => {
                if let Some(sid) = params["sessionId"].as_str() {
                    self.sessions.remove(sid);
                }
            }
            "Fetch.requestPaused" => self.paused(session, params, judge),
            _ => {}
        }
    }

    /// A target attached (paused when new): hold its requests, attach to its own targets
    /// (frames, workers), then let it run.
    fn attached(&mut self, params: &Value) {
        let sid = params["sessionId"].as_str().unwrap_or("").to_string();
        let info = &params["targetInfo"];
        let target = info["targetId"].as_str().unwrap_or("").to_string();
        let kind = info["type"].as_str().unwrap_or("");
        if let Some(url) = info["url"].as_str() {
            self.urls.insert(target.clone(), url.to_string());
        }
        if let Some(bc) = info["browserContextId"].as_str() {
            self.contexts.insert(target.clone(), bc.to_string());
        }
        if kind == "page"
            && let Some(opener) = info["openerId"].as_str()
            && !self.openers.contains_key(&target)
        {
            let from = self.urls.get(opener).cloned().unwrap_or_default();
            self.openers.insert(target.clone(), from);
        }
        self.sessions.insert(sid.clone(), target);
        let s = Some(sid.as_str());
        if matches!(
            kind,
            "page" | "iframe" | "worker" | "shared_worker" | "service_worker"
        ) {
            let patterns = json!({"patterns": [{"urlPattern": "*", "requestStage": "Request"}]});
            let id = self.send(s, "Fetch.enable", patterns);
            if !self.attached_all {
                self.enabling.insert(id);
            }
            self.send(s, "Target.setAutoAttach", auto_attach());
        }
        if params["waitingForDebugger"].as_bool() == Some(true) {
            self.send(s, "Runtime.runIfWaitingForDebugger", json!({}));
        }
    }

    /// A request held: on, failed, or answered, now or after the judge's delay.
    fn paused(
        &mut self,
        session: Option<&str>,
        params: &Value,
        judge: &mut impl FnMut(&Held) -> Judged,
    ) {
        let request_id = params["requestId"].as_str().unwrap_or("").to_string();
        let target = session
            .and_then(|s| self.sessions.get(s))
            .cloned()
            .unwrap_or_default();
        let resource_type = params["resourceType"].as_str().unwrap_or("").to_string();
        let frame = params["frameId"].as_str().unwrap_or("");
        let document = resource_type == "Document";
        let held = Held {
            url: params["request"]["url"].as_str().unwrap_or("").to_string(),
            method: params["request"]["method"]
                .as_str()
                .unwrap_or("")
                .to_string(),
            top_navigation: document && frame == target,
            subframe: document && frame != target,
            resource_type,
            opener_url: self.openers.get(&target).cloned(),
            network_id: params["networkId"].as_str().unwrap_or("").to_string(),
            browser_context: self.contexts.get(&target).cloned(),
        };
        let (verdict, delay) = judge(&held);
        let (method, answer) = answer_of(&request_id, verdict);
        self.send_after(session, method, answer, delay);
    }
}

/// The DevTools command that answers held request `id` by `verdict`.
fn answer_of(id: &str, verdict: Verdict) -> (&'static str, Value) {
    match verdict {
        Verdict::Continue => ("Fetch.continueRequest", json!({"requestId": id})),
        Verdict::Refuse => (
            "Fetch.failRequest",
            json!({"requestId": id, "errorReason": "BlockedByClient"}),
        ),
        Verdict::Fail => (
            "Fetch.failRequest",
            json!({"requestId": id, "errorReason": "Failed"}),
        ),
        Verdict::Fulfill(status, headers, body) => {
            use base64::Engine;
            let headers: Vec<Value> = headers
                .iter()
                .map(|(n, v)| json!({"name": n, "value": v}))
                .collect();
            let body = base64::engine::general_purpose::STANDARD.encode(body);
            (
                "Fetch.fulfillRequest",
                json!({"requestId": id, "responseCode": status, "responseHeaders": headers, "body": body}),
            )
        }
    }
}
