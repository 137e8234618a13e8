//! The preload of a BiDi session and the hooks it runs in every document's main world
//! before the page's scripts: the closed-root hook and the start-up timers hook (the
//! engine's sandbox cannot see the page's own `attachShadow` or timers), and the typed reads
//! of what they kept. The console is not hooked: WebDriver BiDi's `log.entryAdded` gives
//! each message with its stack (browser/watch records them; an action's effects read its
//! own), and a wrapped `console` would stand first in every message's stack. The console
//! hook remains as the fallback of a session whose watcher cannot be reached.
//!
//! Owns: the hooks' scripts, their registration (`script.addPreloadScript`) and the
//! functions that read them (`console_messages`, `hooked_closed_roots`, `startup_timers`).
//! Must not: decide what a step does with what they kept (callers do), or trust them further
//! than a page could push them (each hook says what a page that reaches it can do).

use super::{Page, SANDBOX, bidi, sandbox_engine};
use crate::error::{Error, Result};
use crate::wire::WebRef;
use tracing::debug;

/// Registers the engine to run in the sandbox realm of every new document and frame of the
/// session, before the page's scripts (`script.addPreloadScript`), and the closed-root and
/// start-up timers hooks in their main world, replacing registrations `old` (an older
/// build's). Returns the registrations' ids; None without BiDi.
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
        (format!("{CLOSED_ROOTS_HOOK}\n{STARTUP_TIMERS_HOOK}"), None),
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

/// The start-up timers hook of the page's main world (BiDi sessions), run before the page's
/// scripts: it wraps `setTimeout` and `setInterval` (the page's arguments, `this` and result
/// passed through) and notes when the timers the page sets while it starts (before its load
/// event and for a second after it) are due: an interval's first tick only, since what
/// repeats is the page's life, not its start. Cleared timers are forgotten. A page's own
/// start-up work is often on such a timer (a widget shown half a second after load, a
/// banner), and a navigation waits for the ones due within a second (`startup_timers`), so
/// that the first action's reply does not report the page finishing its start as the
/// action's doing (docs/reference/replies.md#settling). Read through a non-enumerable function under
/// `Symbol.for('ariasnap.timers')`: ms until the last such timer due within `horizon` ms,
/// or -1. A page that reaches the hook can only make a navigation wait longer (within its
/// settle limit) or shorter.
const STARTUP_TIMERS_HOOK: &str = "(function(){ var W = window, K = Symbol.for('ariasnap.timers'); \
  if (typeof W.setTimeout !== 'function' || Object.prototype.hasOwnProperty.call(W, K)) return; \
  var apply = Reflect.apply, now = Performance.prototype.now, perf = W.performance, \
    st = W.setTimeout, si = W.setInterval, ct = W.clearTimeout, ci = W.clearInterval, \
    M = Map, mset = M.prototype.set, mdel = M.prototype['delete'], mfor = M.prototype.forEach, \
    due = new M(), loadedAt = -1, count = 0, AFTER = 1000, MAX = 1000; \
  var t = function () { return apply(now, perf, []); }; \
  try { W.addEventListener('load', function () { loadedAt = t(); }, true); } catch (e) {} \
  var note = function (id, ms) { if (count >= MAX || (loadedAt >= 0 && t() - loadedAt > AFTER)) return; \
    var d = +ms; if (!(d > 0)) d = 0; count++; apply(mset, due, [id, t() + d]); }; \
  var wrap = function (orig, name) { return { [name]: function (handler) { \
    var id = apply(orig, this === undefined ? W : this, arguments); \
    try { note(id, arguments[1]); } catch (e) {} return id; } }[name]; }; \
  var unwrap = function (orig, name) { return { [name]: function () { \
    try { apply(mdel, due, [arguments[0]]); } catch (e) {} \
    return apply(orig, this === undefined ? W : this, arguments); } }[name]; }; \
  try { W.setTimeout = wrap(st, 'setTimeout'); W.setInterval = wrap(si, 'setInterval'); \
    W.clearTimeout = unwrap(ct, 'clearTimeout'); W.clearInterval = unwrap(ci, 'clearInterval'); } catch (e) { return; } \
  Object.defineProperty(W, K, { value: function (horizon) { var n = t(), last = -1; \
    apply(mfor, due, [function (at) { var left = at - n; if (left > 0 && left <= horizon && left > last) last = left; }]); \
    return last; }, enumerable: false, configurable: false }); })();";

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
