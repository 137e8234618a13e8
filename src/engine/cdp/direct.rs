//! A DevTools WebSocket straight to the tab's page target, for a Chromium that ariasnap
//! launched on this machine: the engine's large replies then cross one hop instead of two
//! (chromedriver's `goog/cdp/execute` reads each DevTools reply into its own value tree and
//! writes it out again as the HTTP reply). A speed-up only: a connection that cannot be made
//! says so, and the caller goes through the driver as before.
//!
//! Owns: the connection to one target (reopened when the tab changes), the ids of its
//! commands, and reading `Runtime.evaluate`'s reply. Must not: decide what a reply means
//! (the caller does), or enable any DevTools domain (the connection hears no events).

use super::{Evaluate, Evaluated};
use serde::Deserialize;
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tracing::debug;

/// The largest reply read (a snapshot of a very large page is tens of MB).
const MAX_MESSAGE: usize = 512 << 20;

/// What commands sent together came to ([`Slot::commands`]).
#[derive(Debug)]
pub enum Sent {
    /// Every command was answered without an error.
    Done,
    /// The browser refused one (its message); those before it ran.
    Refused(String),
    /// Nothing was sent: no connection could be made. The driver's path may be used.
    Unreachable,
    /// The connection was lost before every answer came: what ran is unknown.
    Lost,
}

/// One open connection to a page target.
pub struct Direct {
    target: String,
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next: u64,
    /// Set while a command waits for its reply: a call cancelled half way (a step's
    /// deadline) leaves the connection in an unknown state, and it is then reopened.
    busy: bool,
}

/// What a direct evaluation came to.
pub enum Evaluation {
    /// The page answered: the value (None for undefined, or when the page threw).
    Answered(Option<Value>),
    /// Nothing was sent: no connection could be made. The driver's path may be used.
    Unreachable,
    /// The command was sent but no reply came back (connection lost): whether it ran is
    /// unknown.
    Lost,
    /// The realm is gone (its document was replaced): nothing ran. Ask for the new one.
    NoRealm,
}

/// Chromium's answer to `Runtime.evaluate` for a `uniqueContextId` it does not know (the
/// document of that realm has gone): `{"code": -32602, "message": "uniqueContextId not
/// found"}`.
fn no_realm(err: &Value) -> bool {
    err.get("message")
        .and_then(Value::as_str)
        .is_some_and(|m| m.contains("uniqueContextId not found"))
}

#[derive(Deserialize)]
struct Incoming {
    id: Option<u64>,
    result: Option<Evaluated>,
    error: Option<Value>,
}

impl Direct {
    async fn connect(addr: &str, target: &str) -> Option<Direct> {
        // Chromium's DevTools server listens on the loopback address; its HTTP address is
        // reported as localhost:PORT
        let addr = addr.replacen("localhost:", "127.0.0.1:", 1);
        let url = format!("ws://{addr}/devtools/page/{target}");
        let mut config = WebSocketConfig::default();
        config.max_message_size = Some(MAX_MESSAGE);
        config.max_frame_size = Some(MAX_MESSAGE);
        match tokio_tungstenite::connect_async_with_config(&url, Some(config), true).await {
            Ok((ws, _)) => {
                debug!(url, "DevTools page connection open");
                Some(Direct {
                    target: target.to_string(),
                    ws,
                    next: 1,
                    busy: false,
                })
            }
            Err(e) => {
                debug!(url, error = %e, "no DevTools page connection");
                None
            }
        }
    }

    async fn evaluate(&mut self, params: &Evaluate<'_>) -> Evaluation {
        use futures_util::{SinkExt, StreamExt};
        let id = self.next;
        self.next += 1;
        let text = serde_json::json!({"id": id, "method": "Runtime.evaluate", "params": params})
            .to_string();
        self.busy = true;
        if let Err(e) = self.ws.send(Message::text(text)).await {
            debug!(error = %e, "DevTools page connection: send failed");
            return Evaluation::Lost;
        }
        while let Some(m) = self.ws.next().await {
            let text = match m {
                Ok(Message::Text(t)) => t,
                Ok(Message::Close(_)) | Err(_) => break,
                Ok(_) => continue,
            };
            let msg: Incoming = match serde_json::from_str(text.as_str()) {
                Ok(m) => m,
                Err(e) => {
                    debug!(error = %e, "DevTools page connection: unreadable message");
                    continue;
                }
            };
            if msg.id != Some(id) {
                continue; // an event, or the reply to a call that was given up
            }
            self.busy = false;
            if let Some(err) = msg.error {
                debug!(error = %err, "Runtime.evaluate refused");
                if no_realm(&err) {
                    return Evaluation::NoRealm;
                }
                return Evaluation::Answered(None);
            }
            let Some(e) = msg.result else {
                return Evaluation::Answered(None);
            };
            if let Some(details) = e.exception_details {
                debug!(details = %details, "page threw under Runtime.evaluate");
                return Evaluation::Answered(None);
            }
            return Evaluation::Answered(e.result.value);
        }
        debug!("DevTools page connection closed before the reply");
        Evaluation::Lost
    }
}

impl Direct {
    /// Sends `cmds` (method, parameters) one after the other without waiting, then reads
    /// their answers: the browser runs a target's commands in the order they come.
    async fn send_all(&mut self, cmds: &[(&str, Value)]) -> Sent {
        use futures_util::{SinkExt, StreamExt};
        let first = self.next;
        self.busy = true;
        for (method, params) in cmds {
            let id = self.next;
            self.next += 1;
            let text = serde_json::json!({"id": id, "method": method, "params": params});
            if let Err(e) = self.ws.feed(Message::text(text.to_string())).await {
                debug!(error = %e, "DevTools page connection: send failed");
                return Sent::Lost;
            }
        }
        if let Err(e) = self.ws.flush().await {
            debug!(error = %e, "DevTools page connection: send failed");
            return Sent::Lost;
        }
        let mut waiting = cmds.len();
        let mut refused = None;
        while let Some(m) = self.ws.next().await {
            let text = match m {
                Ok(Message::Text(t)) => t,
                Ok(Message::Close(_)) | Err(_) => break,
                Ok(_) => continue,
            };
            let Ok(msg) = serde_json::from_str::<Acked>(text.as_str()) else {
                continue;
            };
            if !msg.id.is_some_and(|id| id >= first && id < self.next) {
                continue; // an event, or the reply to a call that was given up
            }
            if let (None, Some(err)) = (&refused, msg.error) {
                debug!(error = %err, "DevTools command refused");
                refused = Some(
                    err.get("message")
                        .and_then(Value::as_str)
                        .map_or_else(|| err.to_string(), str::to_string),
                );
            }
            waiting -= 1;
            if waiting == 0 {
                self.busy = false;
                return refused.map_or(Sent::Done, Sent::Refused);
            }
        }
        debug!("DevTools page connection closed before the replies");
        Sent::Lost
    }
}

/// A command's answer, read for its id and error only.
#[derive(Deserialize)]
struct Acked {
    id: Option<u64>,
    error: Option<Value>,
}

/// The URL the document of target `target` (an out-of-process frame) failed to load: its
/// `Page.getFrameTree` says `unreachableUrl` when the browser shows its error page there.
/// Asked on a connection of its own, closed after; None when it loaded, or when it could not
/// be asked within a second.
pub async fn unreachable_url(addr: &str, target: &str) -> Option<String> {
    use futures_util::{SinkExt, StreamExt};
    let ask = async {
        let mut d = Direct::connect(addr, target).await?;
        let text = serde_json::json!({"id": 1, "method": "Page.getFrameTree"}).to_string();
        d.ws.send(Message::text(text)).await.ok()?;
        while let Some(Ok(m)) = d.ws.next().await {
            let Message::Text(t) = m else { continue };
            let v: Value = serde_json::from_str(t.as_str()).ok()?;
            if v.get("id").and_then(Value::as_u64) != Some(1) {
                continue;
            }
            let _ = d.ws.close(None).await;
            return v
                .pointer("/result/frameTree/frame/unreachableUrl")
                .and_then(Value::as_str)
                .filter(|u| !u.is_empty())
                .map(str::to_string);
        }
        None
    };
    tokio::time::timeout(std::time::Duration::from_secs(1), ask)
        .await
        .ok()
        .flatten()
}

/// The process's connection, opened on first use.
#[derive(Default)]
pub struct Slot(tokio::sync::Mutex<Option<Direct>>);

impl Slot {
    /// Opens the connection to page target `target` now, when it is not open (a caller
    /// about to evaluate opens it while other calls it needs are under way).
    pub async fn open(&self, addr: &str, target: &str) {
        Self::ensure(&mut *self.0.lock().await, addr, target).await;
    }

    /// The open connection to `target`, or a new one (a connection to another target, or
    /// one left waiting by a cancelled call, is dropped first).
    async fn ensure(slot: &mut Option<Direct>, addr: &str, target: &str) {
        if slot.as_ref().is_some_and(|d| d.target != target || d.busy) {
            *slot = None;
        }
        if slot.is_none() {
            *slot = Direct::connect(addr, target).await;
        }
    }

    /// `Runtime.evaluate` of `expr` in realm `realm` (a unique execution context id) of page
    /// target `target`, on DevTools HTTP address `addr`.
    pub async fn evaluate_in(
        &self,
        addr: &str,
        target: &str,
        expr: &str,
        realm: &str,
    ) -> Evaluation {
        self.run(addr, target, expr, Some(realm)).await
    }

    /// Evaluates `expr` in the main world of target `target`'s top-level document.
    pub async fn evaluate_main(&self, addr: &str, target: &str, expr: &str) -> Evaluation {
        self.run(addr, target, expr, None).await
    }

    /// Sends `cmds` to page target `target` together ([`Direct::send_all`]).
    pub async fn commands(&self, addr: &str, target: &str, cmds: &[(&str, Value)]) -> Sent {
        let mut slot = self.0.lock().await;
        Self::ensure(&mut slot, addr, target).await;
        let Some(d) = slot.as_mut() else {
            return Sent::Unreachable;
        };
        let r = d.send_all(cmds).await;
        if matches!(r, Sent::Lost) {
            *slot = None;
        }
        r
    }

    async fn run(&self, addr: &str, target: &str, expr: &str, realm: Option<&str>) -> Evaluation {
        let mut slot = self.0.lock().await;
        Self::ensure(&mut slot, addr, target).await;
        let Some(d) = slot.as_mut() else {
            return Evaluation::Unreachable;
        };
        let params = Evaluate {
            expression: expr,
            return_by_value: true,
            await_promise: false,
            unique_context_id: realm,
        };
        let r = d.evaluate(&params).await;
        if matches!(r, Evaluation::Lost) {
            *slot = None;
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gone_realm_is_told_from_other_refusals() {
        // what Chromium answers for a uniqueContextId whose document has gone
        let gone = serde_json::json!({"code": -32602, "message": "uniqueContextId not found"});
        assert!(no_realm(&gone));
        for other in [
            serde_json::json!({"code": -32000, "message": "Execution context was destroyed."}),
            serde_json::json!({"code": -32602, "message": "Invalid parameters"}),
            serde_json::json!({"code": -32602}),
        ] {
            assert!(!no_realm(&other), "{other}");
        }
    }
}
