//! DevTools through the driver (chromedriver's `goog/cdp/execute`): a Chromium speed-up and
//! the way around pages that break the driver's own scripts, never required. Every DevTools
//! command ariasnap sends is a typed function here, with its reply read through a type.
//!
//! Owns: CDP_OK (cleared for the process when the endpoint is not Chromium's driver), the
//! commands (Runtime.evaluate, Page.addScriptToEvaluateOnNewDocument and its removal,
//! Page.getNavigationHistory, Page.getFrameTree, Page.navigate, Input.dispatchMouseEvent)
//! and the session capability that names the DevTools HTTP endpoint. Must not: fail a
//! command: without DevTools every function answers None / false and callers fall back.

pub(super) mod direct;
pub(super) mod keys;
pub(super) mod mouse;

use super::{ENGINE_JS, RawCommand};
use fantoccini::Client;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, Ordering};
use tracing::debug;

/// Chromium's driver runs DevTools commands for us (`goog/cdp/execute`); its script endpoint
/// moves large replies about twice as slowly (it re-serializes them in the page and again
/// in the driver). Cleared for the process when the endpoint is not Chromium's driver.
static CDP_OK: AtomicBool = AtomicBool::new(true);

/// Whether DevTools commands may be tried.
pub(super) fn enabled() -> bool {
    CDP_OK.load(Ordering::Relaxed)
}

/// Says whether the session this process works on may have DevTools at all (its browser's
/// kind, from the session record: only Chromium has them). Firefox's driver answers
/// "unknown command" to `goog/cdp/execute`: knowing that up front spares a failed round
/// trip per command (each command is a process of its own).
pub fn allow_devtools(allowed: bool) {
    CDP_OK.store(allowed, Ordering::Relaxed);
}

/// After a failed DevTools command: an endpoint without the passthrough is not asked again
/// by this process.
fn note_failure(e: &fantoccini::error::CmdError, cmd: &str) {
    use fantoccini::error::CmdError;
    // geckodriver answers a path it does not know with a bare "HTTP method not allowed"
    // (405, not JSON); W3C drivers with "unknown command"
    if e.is_unknown_command() || e.is_unknown_method() || matches!(e, CmdError::NotJson(_)) {
        debug!(error = %e, cmd, "no DevTools passthrough: script endpoint from now on");
        CDP_OK.store(false, Ordering::Relaxed);
    } else {
        debug!(error = %e, cmd, "DevTools command failed");
    }
}

/// chromedriver's `POST /session/{id}/goog/cdp/execute` for one DevTools command.
fn command(cmd: &str, params: impl Serialize) -> RawCommand {
    RawCommand {
        method: http::Method::POST,
        path: "goog/cdp/execute".into(),
        body: Some(json!({"cmd": cmd, "params": params})),
    }
}

/// Runs one DevTools command through the driver and reads its reply as `T`; None without a
/// passthrough, on failure, or for a reply of another shape.
async fn cdp<T: DeserializeOwned>(client: &Client, cmd: &str, params: impl Serialize) -> Option<T> {
    if !enabled() {
        return None;
    }
    let v = client
        .issue_cmd(command(cmd, params))
        .await
        .map_err(|e| note_failure(&e, cmd))
        .ok()?;
    serde_json::from_value(v)
        .map_err(|e| debug!(error = %e, cmd, "unexpected DevTools reply"))
        .ok()
}

/// `Runtime.evaluate`'s reply, by value.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Evaluated {
    #[serde(default)]
    result: RemoteObject,
    exception_details: Option<Value>,
}

#[derive(Default, Deserialize)]
struct RemoteObject {
    /// Absent for `undefined`; `Some(Value::Null)` for null.
    #[serde(default, deserialize_with = "present")]
    value: Option<Value>,
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Evaluate<'a> {
    expression: &'a str,
    return_by_value: bool,
    await_promise: bool,
    /// The realm to run in (a BiDi sandbox realm's id on Chromium); the main world when None.
    #[serde(skip_serializing_if = "Option::is_none")]
    unique_context_id: Option<&'a str>,
}

/// Evaluates `expr` in the top-level document's main world through DevTools. None when the
/// endpoint has no DevTools passthrough (then it is not tried again), the call failed or
/// the page threw.
pub(super) async fn evaluate(client: &Client, expr: &str) -> Option<Value> {
    evaluate_in(client, expr, None).await
}

/// Like [`evaluate`], in realm `realm` when given: Chromium's BiDi realm ids are DevTools'
/// unique execution context ids, so the engine's sandbox is reachable this way too.
pub(super) async fn evaluate_in(client: &Client, expr: &str, realm: Option<&str>) -> Option<Value> {
    let cmd = command(
        "Runtime.evaluate",
        Evaluate {
            expression: expr,
            return_by_value: true,
            await_promise: false,
            unique_context_id: realm,
        },
    );
    match client.issue_cmd(cmd).await {
        Ok(v) => {
            let e: Evaluated = serde_json::from_value(v).ok()?;
            if let Some(details) = e.exception_details {
                debug!(details = %details, "page threw under Runtime.evaluate");
                return None;
            }
            e.result.value
        }
        Err(e) => {
            note_failure(&e, "Runtime.evaluate");
            None
        }
    }
}

/// Evaluates `expr` in the top-level document's main world through DevTools, awaiting a
/// promise result: its value (null for undefined), or None when DevTools cannot or the page
/// threw.
pub(super) async fn evaluate_awaited(client: &Client, expr: &str) -> Option<Value> {
    let params = Evaluate {
        expression: expr,
        return_by_value: true,
        await_promise: true,
        unique_context_id: None,
    };
    let e: Evaluated = cdp(client, "Runtime.evaluate", params).await?;
    match e.exception_details {
        Some(_) => None,
        None => Some(e.result.value.unwrap_or(Value::Null)),
    }
}

/// `readyState` and `timeOrigin` of the top-level document through DevTools (a new document
/// has a new time origin), for navigation on pages that break the driver's scripts. Empty
/// when DevTools cannot say.
pub async fn document_state(client: &Client) -> String {
    match evaluate(client, "document.readyState + ' ' + performance.timeOrigin").await {
        Some(Value::String(s)) => s,
        _ => String::new(),
    }
}

/// The line of the prelude that says whether the engine was preloaded (see [`preload`]).
pub(super) const PRELOADED_FALSE: &str = "const PRELOADED = false;";

#[derive(Deserialize)]
struct Registered {
    identifier: String,
}

/// Registers the engine to run in every new top-level document of the current tab before
/// the page's scripts (DevTools' `Page.addScriptToEvaluateOnNewDocument`), replacing the
/// registration `old` (an older build's). There the page's realm is still pristine, so the
/// engine captures its built-ins in place (no fresh-realm frame is made). Returns the new
/// registration's identifier; None without a DevTools passthrough.
pub async fn preload(client: &Client, old: Option<&str>) -> Option<String> {
    if !enabled() {
        return None;
    }
    if let Some(id) = old {
        let _: Option<IgnoredAny> = cdp(
            client,
            "Page.removeScriptToEvaluateOnNewDocument",
            json!({"identifier": id}),
        )
        .await;
    }
    debug_assert!(ENGINE_JS.contains(PRELOADED_FALSE));
    let source = format!(
        "if (window === window.top) {}",
        ENGINE_JS.replacen(PRELOADED_FALSE, "const PRELOADED = true;", 1)
    );
    let r: Registered = cdp(
        client,
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": source}),
    )
    .await?;
    debug!(id = r.identifier, "engine preloaded in new documents");
    Some(r.identifier)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NavigationHistory {
    current_index: usize,
    entries: Vec<NavigationEntry>,
}

#[derive(Deserialize)]
struct NavigationEntry {
    url: String,
    #[serde(default)]
    title: Option<String>,
}

/// The current tab's URL and title from its navigation history (DevTools'
/// `Page.getNavigationHistory`), which no page script can tamper with; None without a
/// DevTools passthrough. For pages whose tampering breaks the driver's own script-based
/// answers.
pub async fn history_entry(client: &Client) -> Option<(String, String)> {
    let h: NavigationHistory = cdp(client, "Page.getNavigationHistory", json!({})).await?;
    let e = h.entries.into_iter().nth(h.current_index)?;
    Some((e.url, e.title.unwrap_or_default()))
}

/// Navigates the current tab through DevTools (`Page.navigate`), without a page script;
/// false without a passthrough or when the command failed.
pub async fn navigate(client: &Client, url: &str) -> bool {
    let r: Option<IgnoredAny> = cdp(client, "Page.navigate", json!({"url": url})).await;
    r.is_some()
}

/// One mouse event for [`dispatch_mouse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mouse<'a> {
    /// The pointer moves to the point.
    Moved,
    /// `button` ("left", "middle", "right") goes down, as the `clicks`-th click.
    Pressed { button: &'a str, clicks: u32 },
    /// `button` goes up, as the `clicks`-th click.
    Released { button: &'a str, clicks: u32 },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MouseEvent<'a> {
    r#type: &'static str,
    x: f64,
    y: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    button: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    click_count: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    buttons: Option<u32>,
}

/// Real mouse input at (x, y) in top-level viewport CSS pixels through DevTools
/// (`Input.dispatchMouseEvent`), which needs no page script; false without a passthrough or
/// when the command failed.
pub async fn dispatch_mouse(client: &Client, event: Mouse<'_>, x: f64, y: f64) -> bool {
    let (kind, pressed) = match event {
        Mouse::Moved => ("mouseMoved", None),
        Mouse::Pressed { button, clicks } => ("mousePressed", Some((button, clicks))),
        Mouse::Released { button, clicks } => ("mouseReleased", Some((button, clicks))),
    };
    let params = MouseEvent {
        r#type: kind,
        x,
        y,
        button: pressed.map(|p| p.0),
        click_count: pressed.map(|p| p.1),
        buttons: pressed.map(|_| 0),
    };
    let r: Option<IgnoredAny> = cdp(client, "Input.dispatchMouseEvent", params).await;
    r.is_some()
}

/// A frame of the tab and the frames inside it (DevTools' `Page.FrameTree`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameTree {
    #[serde(default)]
    pub frame: Frame,
    #[serde(default)]
    pub child_frames: Vec<FrameTree>,
}

/// One frame (DevTools' `Page.Frame`, the fields read).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    #[serde(default)]
    pub url: String,
    /// Set when the frame shows the browser's error page instead of this URL.
    #[serde(default)]
    pub unreachable_url: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FrameTreeReply {
    frame_tree: FrameTree,
}

/// The tab's frame tree (`Page.getFrameTree`); None without a DevTools passthrough.
pub async fn frame_tree(client: &Client) -> Option<FrameTree> {
    let r: FrameTreeReply = cdp(client, "Page.getFrameTree", json!({})).await?;
    Some(r.frame_tree)
}

#[derive(Deserialize)]
struct Capabilities {
    #[serde(rename = "goog:chromeOptions")]
    chrome: Option<ChromeOptions>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChromeOptions {
    debugger_address: Option<String>,
}

/// The browser's name as the driver reports it in the session's capabilities
/// (`browserName`: "chrome", "firefox"...); None for a session this client reattached to
/// (the record keeps the kind then).
pub(super) fn browser_name(client: &Client) -> Option<String> {
    match client.capabilities()?.get("browserName")? {
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The `host:port` of the browser's DevTools HTTP endpoint, as Chromium's driver reports it
/// in the session's capabilities (`goog:chromeOptions.debuggerAddress`).
pub(super) fn devtools_address(client: &Client) -> Option<String> {
    let caps = Value::Object(client.capabilities()?.clone());
    let caps: Capabilities = serde_json::from_value(caps).ok()?;
    caps.chrome?.debugger_address
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mouse_events_carry_what_devtools_reads() {
        let moved = MouseEvent {
            r#type: "mouseMoved",
            x: 1.0,
            y: 2.5,
            button: None,
            click_count: None,
            buttons: None,
        };
        assert_eq!(
            serde_json::to_string(&moved).unwrap(),
            r#"{"type":"mouseMoved","x":1.0,"y":2.5}"#
        );
        let pressed = MouseEvent {
            r#type: "mousePressed",
            button: Some("left"),
            click_count: Some(2),
            buttons: Some(0),
            ..moved
        };
        assert_eq!(
            serde_json::to_string(&pressed).unwrap(),
            r#"{"type":"mousePressed","x":1.0,"y":2.5,"button":"left","clickCount":2,"buttons":0}"#
        );
    }

    #[test]
    fn evaluate_tells_null_from_undefined() {
        let null: Evaluated =
            serde_json::from_value(json!({"result": {"type": "object", "value": null}})).unwrap();
        assert_eq!(null.result.value, Some(Value::Null));
        let undefined: Evaluated =
            serde_json::from_value(json!({"result": {"type": "undefined"}})).unwrap();
        assert_eq!(undefined.result.value, None);
    }
}
