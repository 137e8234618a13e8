//! The preload of a BiDi session and the hooks it runs in every document's main world
//! before the page's scripts: the console hook, the closed-root hook and the work hook
//! (the engine's sandbox cannot see the page's own `console`, `attachShadow`, timers or
//! requests), and the typed reads of what they kept.
//!
//! Owns: the hooks' scripts, their registration (`script.addPreloadScript`) and the
//! functions that read them (`console_messages`, `hooked_closed_roots`, `startup_timers`,
//! `work_begin`, `work_poll`, `work_touched`).
//! Must not: decide what a step does with what they kept (callers do), or trust them further
//! than a page could push them (each hook says what a page that reaches it can do).

use super::{Page, SANDBOX, bidi, sandbox_engine};
use crate::error::{Error, Result};
use crate::wire::WebRef;
use tracing::debug;

/// Registers the engine to run in the sandbox realm of every new document and frame of the
/// session, before the page's scripts (`script.addPreloadScript`), and the console hook in
/// their main world, replacing registrations `old` (an older build's). Returns the
/// registrations' ids; None without BiDi.
pub async fn preload_sandbox(page: &Page, old: &[String]) -> Option<Vec<String>> {
    let b = page.bidi()?;
    for id in old {
        let _ = b
            .send(&bidi::RemovePreloadScript { script: id.clone() })
            .await;
    }
    let mut ids = Vec::new();
    for (source, sandbox) in [
        (sandbox_engine(), Some(SANDBOX.to_string())),
        (
            format!("{CONSOLE_HOOK}\n{CLOSED_ROOTS_HOOK}\n{WORK_HOOK}"),
            None,
        ),
    ] {
        let r = b
            .send(&bidi::AddPreloadScript {
                function_declaration: format!("function(){{{source}\n}}"),
                contexts: None,
                sandbox,
                // an agent of a shared browser: its own documents only
                user_contexts: page.user_context().map(|u| vec![u.to_string()]),
            })
            .await;
        match r {
            Ok(r) => ids.push(r.script),
            Err(e) => {
                debug!(error = %e, "preload not registered");
                return None;
            }
        }
    }
    debug!(?ids, "engine preloaded in every document's sandbox");
    Some(ids)
}

/// What a session's preload registration is keyed by: the engine's build and the main
/// world's hooks (`ENGINE_HASH` covers the engine alone), so that a build with other hooks
/// registers its own.
pub fn preload_key() -> String {
    // FNV-1a, 64 bits: a change detector, not a digest anything trusts
    let mut h: u64 = 0xcbf29ce484222325;
    for part in [CONSOLE_HOOK, CLOSED_ROOTS_HOOK, WORK_HOOK] {
        for b in part.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    format!("{}.{h:016x}", super::ENGINE_HASH)
}

/// The console hook of the page's main world (BiDi sessions): the engine's sandbox cannot
/// see the page's own `console`, so this small script, run before the page's scripts,
/// keeps the last 500 messages (2,000 characters each) in its closure and hands them out
/// as JSON text through a non-enumerable function under `Symbol.for('ariasnap.console')`.
/// They are the page's own messages: a page that reaches the hook can only hide or add
/// messages it could have logged or not.
const CONSOLE_HOOK: &str = "(function(){ var W = window, K = Symbol.for('ariasnap.console'); \
  if (!W.console || Object.prototype.hasOwnProperty.call(W, K)) return; \
  var con = W.console, log = [], MAX = 500, str = JSON.stringify, slice = String.prototype.slice, \
    apply = Reflect.apply, now = Performance.prototype.now, perf = W.performance; \
  ['log', 'info', 'warn', 'error', 'debug'].forEach(function (level) { \
    var orig = con[level]; if (typeof orig !== 'function') return; \
    try { con[level] = function () { var parts = ''; \
      for (var j = 0; j < arguments.length; j++) { var a = arguments[j], t; \
        try { t = typeof a === 'string' ? a : apply(str, JSON, [a]); } catch (e) { t = '' + a; } \
        if (typeof t !== 'string') t = '' + t; \
        parts += (j ? ' ' : '') + apply(slice, t, [0, 2000]); } \
      if (log.length >= MAX) log.splice(0, 1); \
      log[log.length] = { level: level, text: parts, at: apply(now, perf, []) }; \
      return apply(orig, this, arguments); }; } catch (e) {} }); \
  Object.defineProperty(W, K, { value: function (clear) { var out = apply(str, JSON, [log]); \
    if (clear) log.length = 0; return out; }, enumerable: false, configurable: false }); })();";

/// The closed-root hook of the page's main world (BiDi sessions), run before the page's
/// scripts: the engine's sandbox cannot wrap the page's own `attachShadow`, so this
/// wraps it (name, length and property attributes kept, the page's arguments and result
/// passed through) and keeps each closed root with its host in its closure, handed out
/// through a non-enumerable function under `Symbol.for('ariasnap.closed')` (docs/reference/browsers.md#closed-shadow-roots:
/// closed roots are read whenever and however they were attached). The engine takes a
/// root only when the DOM confirms it (`root.host` is the host and the host has no open
/// root): a page that reaches the hook can hand over nothing that is not a real root.
const CLOSED_ROOTS_HOOK: &str = "(function(){ var W = window, K = Symbol.for('ariasnap.closed'); \
  if (!W.Element || !W.ShadowRoot || Object.prototype.hasOwnProperty.call(W, K)) return; \
  var P = W.Element.prototype, d = Object.getOwnPropertyDescriptor(P, 'attachShadow'); \
  if (!d || typeof d.value !== 'function') return; \
  var orig = d.value, apply = Reflect.apply, slice = Array.prototype.slice, seen = [], \
    modeOf = Object.getOwnPropertyDescriptor(W.ShadowRoot.prototype, 'mode').get; \
  var wrapped = { attachShadow: function (init) { var root = apply(orig, this, arguments); \
    try { if (seen.length < 20000 && apply(modeOf, root, []) === 'closed') { \
      seen[seen.length] = this; seen[seen.length] = root; } } catch (e) {} \
    return root; } }.attachShadow; \
  Object.defineProperty(P, 'attachShadow', { value: wrapped, writable: d.writable, \
    enumerable: d.enumerable, configurable: d.configurable }); \
  Object.defineProperty(W, K, { value: function () { return apply(slice, seen, []); }, \
    enumerable: false, configurable: false }); })();";

/// The work hook of the page's main world (BiDi sessions), run before the page's scripts:
/// it wraps the page's timers, animation frames, fetch, the reads of a response's body and
/// XMLHttpRequest, and watches the DOM with a MutationObserver of its own, to tell the work
/// an action started from the page's own background work (docs/reference/replies.md#settling;
/// the script's header says how). It also notes the timers a page sets while it starts
/// (before its load event and for a second after it: an interval's first tick only), which a
/// navigation waits for (`startup_timers`). Read through non-enumerable functions under
/// `Symbol.for('ariasnap.work')` and `Symbol.for('ariasnap.timers')`. A page that reaches
/// the hook can only make a reply wait longer (within its limit) or shorter, or make its own
/// changes read as the action's.
const WORK_HOOK: &str = include_str!("../../js/hooks/work.js");

/// How long until the last timer the page set while starting is due, within `horizon` ms
/// (None: none, or no hook: classic sessions, a frame entered, a page that threw).
pub async fn startup_timers(page: &Page, horizon: u64) -> Option<u64> {
    if !page.isolated() {
        return None;
    }
    let f = "function(h){ var f = window[Symbol.for('ariasnap.timers')]; \
         return typeof f === 'function' ? f(h) : -1; }";
    let v = page
        .call_main_world(f, vec![bidi::LocalValue::Number(horizon as f64)])
        .await
        .ok()?;
    let ms = v.as_f64()?;
    (ms > 0.0).then_some(ms.ceil() as u64)
}

/// What the work hook says of the action in progress (`work_poll`).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
pub struct WorkPoll {
    /// The document saw no `work_begin` of this token: the action replaced it (a navigation).
    #[serde(default)]
    pub fresh: bool,
    /// The document's ready state.
    #[serde(default)]
    pub ready: String,
    /// Ms until the last timer the action set that is due within the horizon (-1: none).
    #[serde(default = "none_due")]
    pub timer: f64,
    /// Animation frames the action requested that have not run.
    #[serde(default)]
    pub frames: u32,
    /// Requests the action started (and reads of their bodies) still running.
    #[serde(default)]
    pub requests: u32,
    /// Ms until the last animation that began with the action ends (0: none).
    #[serde(default)]
    pub anims: f64,
    /// Ms since the action's work last ran or changed the DOM (or since it began).
    #[serde(default)]
    pub quiet: f64,
    /// Nodes the page's own work touched, and nodes the action's touched, since recording began.
    #[serde(default)]
    pub bg: u64,
    #[serde(default)]
    pub act: u64,
}

fn none_due() -> f64 {
    -1.0
}

/// What the work hook's function answered for `what` (None: no hook in this document, a
/// classic session, a frame entered, a page that threw). On Chromium the call goes straight
/// to the tab's DevTools page target when that path is open (a fraction of a BiDi round trip
/// through the driver); BiDi otherwise.
async fn work_call(
    page: &Page,
    what: &str,
    token: &str,
    a: bool,
    b: bool,
) -> Option<serde_json::Value> {
    if !page.isolated() || !page.at_top() {
        return None;
    }
    let f = "function(w, t, a, b){ var f = window[Symbol.for('ariasnap.work')]; \
         return typeof f === 'function' ? f(w, t, a, b) : null; }";
    let expr = format!(
        "({f})({}, {}, {a}, {b})",
        serde_json::json!(what),
        serde_json::json!(token)
    );
    if let Some(v) = page.evaluate_main_direct(&expr).await {
        return Some(v).filter(|v| !v.is_null());
    }
    let args = vec![
        bidi::LocalValue::string(what),
        bidi::LocalValue::string(token),
        bidi::LocalValue::Boolean(a),
        bidi::LocalValue::Boolean(b),
    ];
    page.call_main_world(f, args)
        .await
        .ok()
        .filter(|v| !v.is_null())
}

/// Starts recording what touches the tab's document for the action run `token` (`reset`:
/// forgetting what was touched before), and with `open`, a new action: the work its input
/// starts is its own. False when the document has no work hook.
pub async fn work_begin(page: &Page, token: &str, reset: bool, open: bool) -> bool {
    work_call(page, "begin", token, reset, open).await.is_some()
}

/// The work of the action begun with `token` still pending (None: no work hook).
pub async fn work_poll(page: &Page, token: &str) -> Option<WorkPoll> {
    let v = work_call(page, "poll", token, false, false).await?;
    serde_json::from_str(v.as_str()?).ok()
}

/// Stops recording what touches the document for the action run `token`; how many nodes
/// the page's own work touched meanwhile (None: no such recording).
pub async fn work_stop(page: &Page, token: &str) -> Option<u64> {
    work_call(page, "stop", token, false, false).await?.as_u64()
}

/// The nodes the page's own work and the action run `token` touched, as
/// [background targets, background added or removed, action targets, action added or
/// removed] (element references; text nodes too), and recording stops. Through BiDi: the
/// nodes cross as shared ids.
pub async fn work_touched(page: &Page, token: &str) -> Option<serde_json::Value> {
    if !page.isolated() || !page.at_top() {
        return None;
    }
    let f = "function(t){ var f = window[Symbol.for('ariasnap.work')]; \
         return typeof f === 'function' ? f('touched', t) : null; }";
    page.call_main_world(f, vec![bidi::LocalValue::string(token)])
        .await
        .ok()
        .filter(|v| v.is_array())
}

/// The main world's function that lists what the closed-root hook saw, as (host, root)
/// pairs (empty without the hook).
macro_rules! closed_list_fn {
    () => {
        "function(){ var f = window[Symbol.for('ariasnap.closed')]; \
         return typeof f === 'function' ? f() : []; }"
    };
}

/// The length of that list: 0 when the hook saw no closed root (or there is no hook).
const CLOSED_COUNT: &str = concat!("(", closed_list_fn!(), ")().length");

/// The closed shadow roots the main world's hook saw attached in the current context's
/// document, as (host, root) references; empty without the hook (classic sessions).
pub async fn hooked_closed_roots(page: &Page) -> Result<Vec<(WebRef, WebRef)>> {
    if !page.isolated() {
        return Ok(Vec::new());
    }
    // most pages attach no closed root: how many the hook saw is asked first through
    // DevTools when that path is open (a round trip there costs a fraction of a BiDi call
    // through the driver); the roots themselves cross as shared ids, through BiDi. The hook
    // is the preload's own non-configurable function: a page can make it report more
    // (another round trip) but not fewer.
    if let Some(n) = page.evaluate_main_direct(CLOSED_COUNT).await
        && n.as_u64() == Some(0)
    {
        return Ok(Vec::new());
    }
    let v = page.call_main_world(closed_list_fn!(), vec![]).await?;
    let items: Vec<Option<WebRef>> = serde_json::from_value(v).unwrap_or_default();
    Ok(items
        .chunks(2)
        .filter_map(|p| match p {
            [Some(h), Some(r)] => Some((h.clone(), r.clone())),
            _ => None,
        })
        .collect())
}

/// The page's console messages, from the console hook of the tab's main world (installed
/// on first use when the preload did not run), and clears them when `clear`.
pub async fn console_messages(page: &Page, clear: bool) -> Result<crate::wire::ConsoleReply> {
    let f = format!(
        "function(clear){{ var K = Symbol.for('ariasnap.console'); \
         if (typeof window[K] !== 'function') {{ {CONSOLE_HOOK} }} \
         return typeof window[K] === 'function' ? window[K](clear) : '[]'; }}"
    );
    let v = page
        .call_main_world(&f, vec![bidi::LocalValue::Boolean(clear)])
        .await?;
    let text = v.as_str().unwrap_or("[]");
    let messages = serde_json::from_str(text).map_err(|source| Error::Json {
        what: "the page's console messages",
        source,
    })?;
    Ok(crate::wire::ConsoleReply { messages })
}
