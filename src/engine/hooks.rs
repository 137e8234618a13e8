//! The preload of a BiDi session and the hooks it runs in every document's main world
//! before the page's scripts: the closed-root hook, the work hook and the click-listener
//! hook (the engine's sandbox cannot see the page's own `attachShadow`, timers, requests or
//! listeners), and the typed reads of what they kept. The console is not hooked: WebDriver
//! BiDi's `log.entryAdded` gives each message with its stack (browser/watch records them; an
//! action's effects read its own), and a wrapped `console` would stand first in every
//! message's stack. The console hook remains as the fallback of a session whose watcher
//! cannot be reached.
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
/// session, before the page's scripts (`script.addPreloadScript`), and the closed-root, work
/// and click-listener hooks in their main world, replacing registrations `old` (an older
/// build's). Returns the registrations' ids; None without BiDi.
pub async fn preload_sandbox(page: &Page, old: &[String]) -> Option<Vec<String>> {
    let b = page.bidi()?;
    for id in old {
        let _ = b
            .send(&bidi::RemovePreloadScript { script: id.clone() })
            .await;
    }
    let mut ids = Vec::new();
    // the listener hook's secret, known to this registration's two scripts only
    // (js/src/17_listen.js: no page can ask the hook or answer the engine)
    let key = listen_key();
    for (source, sandbox) in [
        (keyed_engine(&key), Some(SANDBOX.to_string())),
        (
            format!("{CLOSED_ROOTS_HOOK}\n{WORK_HOOK}\n{}", click_hook(&key)),
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

/// A fresh secret for the listener hook: 32 random hex digits (an event type no page can
/// guess: it cannot ask the hook for its targets, nor send the engine a forged answer).
fn listen_key() -> String {
    format!("as{}", uuid::Uuid::new_v4().simple())
}

/// The sandbox engine with the listener hook's secret written in (js/src/17_listen.js).
fn keyed_engine(key: &str) -> String {
    let engine = sandbox_engine();
    debug_assert!(engine.contains(LISTEN_KEY_EMPTY));
    engine.replacen(
        LISTEN_KEY_EMPTY,
        &format!("const LISTEN_KEY = \"{key}\";"),
        1,
    )
}

/// The line of js/src/17_listen.js that the preload rewrites with the secret.
const LISTEN_KEY_EMPTY: &str = "const LISTEN_KEY = \"\";";

/// The listener hook of the page's main world (BiDi sessions), run before the page's scripts:
/// the engine's sandbox cannot see which elements the page listens to, so this wraps
/// `EventTarget.prototype.addEventListener` / `removeEventListener` and the `onclick`-family
/// setters of `HTMLElement.prototype` and `SVGElement.prototype` (React sets `onclick` on
/// every element with an `onClick`), keeping, per element, its listeners of the click family
/// (`once` and `signal` followed) behind weak references, with the built-ins it needs taken
/// before the page's scripts run (and array entries defined, not assigned, so a setter on
/// `Array.prototype` cannot swallow them). The page's arguments, `this` and results pass
/// through unchanged; names, lengths and property attributes are kept. The
/// engine asks by dispatching an event of the secret type `KEY-q` on a document; the hook
/// answers at once by dispatching on each connected target a marker (`KEY-m`: a click,
/// mousedown or mouseup listener; `KEY-p`: dblclick, pointerdown or pointerup; `KEY-c`: one in
/// the capture phase), composed so that the engine's capture listener on the document sees the
/// target through open shadow roots (targets in closed trees get none: their marker would name
/// the host); so does each element of the document whose `on*` content attribute made a handler
/// (its IDL getter says so: a page whose CSP forbids inline handlers gets none, and Blink then
/// registers no listener either); then `KEY-a` on the document. A page that reaches the hook can only make
/// elements clickable (which `role=button` does too), never a line or a ref.
fn click_hook(key: &str) -> String {
    CLICK_HOOK.replacen("__KEY__", key, 1)
}

const CLICK_HOOK: &str = r#"(function(){ var W = window, KEY = "__KEY__";
  if (!W.EventTarget || !W.WeakRef || !W.WeakMap || !W.Node) return;
  var O = Object, gopd = O.getOwnPropertyDescriptor, defp = O.defineProperty, apply = Reflect.apply,
    ET = W.EventTarget.prototype, dAdd = gopd(ET, 'addEventListener'), dRem = gopd(ET, 'removeEventListener');
  if (!dAdd || !dRem || typeof dAdd.value !== 'function') return;
  var add = dAdd.value, rem = dRem.value, disp = ET.dispatchEvent, Ev = W.Event, WR = W.WeakRef,
    deref = WR.prototype.deref, WM = W.WeakMap, wmGet = WM.prototype.get, wmSet = WM.prototype.set,
    M = W.Map, mSet = M.prototype.set, mDel = M.prototype['delete'], mEach = M.prototype.forEach,
    NP = W.Node.prototype, nodeType = gopd(NP, 'nodeType').get, connected = gopd(NP, 'isConnected').get,
    rootOf = NP.getRootNode, hostOf = W.ShadowRoot ? gopd(W.ShadowRoot.prototype, 'host').get : null,
    modeOf = W.ShadowRoot ? gopd(W.ShadowRoot.prototype, 'mode').get : null,
    aborted = W.AbortSignal ? gopd(W.AbortSignal.prototype, 'aborted').get : null,
    targetOf = gopd(W.Event.prototype, 'target').get;
  var KIND = O.create(null); KIND.click = 1; KIND.mousedown = 1; KIND.mouseup = 1;
  KIND.dblclick = 2; KIND.pointerdown = 2; KIND.pointerup = 2;
  var PROP = {}, recs = new WM(), live = new M(), next = 0;
  var put = function (a, v) { defp(a, a.length, { value: v, writable: true, enumerable: true, configurable: true }); };
  var isEl = function (t) { try { return apply(nodeType, t, []) === 1; } catch (e) { return false; } };
  var capOf = function (o) { return typeof o === 'boolean' ? o : !!(o && typeof o === 'object' && o.capture); };
  var find = function (l, type, cb, cap) { for (var i = 0; i < l.length; i++) {
    var e = l[i]; if (e.t === type && e.f === cb && e.c === cap) return i; } return -1; };
  var note = function (t, type, cb, cap) { var r = apply(wmGet, recs, [t]);
    if (!r) { r = { l: [] }; apply(wmSet, recs, [t, r]); apply(mSet, live, [next++, new WR(t)]); }
    if (find(r.l, type, cb, cap) < 0) put(r.l, { t: type, f: cb, c: cap }); };
  var drop = function (t, type, cb, cap) { var r = apply(wmGet, recs, [t]); if (!r) return;
    var i = find(r.l, type, cb, cap); if (i >= 0) { r.l[i] = r.l[r.l.length - 1]; r.l.length = r.l.length - 1; } };
  var wrappedAdd = { addEventListener: function (type, cb) { var ret = apply(add, this, arguments);
    try { if (cb && KIND[type] && isEl(this)) { var t = this, o = arguments[2], cap = capOf(o),
        sig = o && typeof o === 'object' ? o.signal : null;
      if (!(sig && aborted && apply(aborted, sig, []))) { note(t, '' + type, cb, cap);
        var undo = function () { drop(t, '' + type, cb, cap); };
        if (o && typeof o === 'object' && o.once) apply(add, t, [type, undo, { capture: cap, once: true }]);
        if (sig) apply(add, sig, ['abort', undo, { once: true }]); } } } catch (e) {}
    return ret; } }.addEventListener;
  var wrappedRem = { removeEventListener: function (type, cb) { var ret = apply(rem, this, arguments);
    try { if (cb && KIND[type] && isEl(this)) drop(this, '' + type, cb, capOf(arguments[2])); } catch (e) {}
    return ret; } }.removeEventListener;
  try { defp(ET, 'addEventListener', { value: wrappedAdd, writable: dAdd.writable, enumerable: dAdd.enumerable,
      configurable: dAdd.configurable });
    defp(ET, 'removeEventListener', { value: wrappedRem, writable: dRem.writable, enumerable: dRem.enumerable,
      configurable: dRem.configurable }); } catch (e) { return; }
  var ONGET = [];
  var wrapProp = function (P, name) { var d = P && gopd(P, name); if (!d || !d.set || !d.get) return;
    var set = d.set, get = d.get, type = name.slice(2);
    put(ONGET, { g: get, k: KIND[type] });
    var wrapped = { [name]: function (v) { apply(set, this, [v]);
      try { if (isEl(this)) { if (apply(get, this, []) != null) note(this, type, PROP, false);
        else drop(this, type, PROP, false); } } catch (e) {} } }[name];
    try { defp(P, name, { get: get, set: wrapped, enumerable: d.enumerable, configurable: d.configurable }); } catch (e) {} };
  ['onclick', 'onmousedown', 'onmouseup', 'ondblclick', 'onpointerdown', 'onpointerup'].forEach(function (n) {
    if (W.HTMLElement) wrapProp(W.HTMLElement.prototype, n);
    if (W.SVGElement) wrapProp(W.SVGElement.prototype, n); });
  var qsa = W.Document.prototype.querySelectorAll, listLen = gopd(W.NodeList.prototype, 'length').get,
    listItem = W.NodeList.prototype.item,
    ATTRS = '[onclick], [onmousedown], [onmouseup], [ondblclick], [onpointerdown], [onpointerup]';
  var handlerKinds = function (el) { var k = 0; for (var i = 0; i < ONGET.length; i++) {
    try { if (apply(ONGET[i].g, el, []) != null) k |= ONGET[i].k; } catch (x) {} } return k; };
  var mark = function (t, k) {
    if (k & 1) apply(disp, t, [new Ev(KEY + '-m', { composed: true })]);
    if (k & 2) apply(disp, t, [new Ev(KEY + '-p', { composed: true })]);
    if (k & 4) apply(disp, t, [new Ev(KEY + '-c', { composed: true })]); };
  var closedIn = function (t) { for (var g = 0, r = apply(rootOf, t, []); g < 64 && r && apply(nodeType, r, []) === 11; g++) {
      if (modeOf && apply(modeOf, r, []) === 'closed') return true; var h = apply(hostOf, r, []);
      r = h ? apply(rootOf, h, []) : null; } return false; };
  var answer = function (e) { var dead = [];
    apply(mEach, live, [function (wr, id) { var t = apply(deref, wr, []), r = t && apply(wmGet, recs, [t]);
      if (!r || !r.l.length) { put(dead, id); return; }
      if (!apply(connected, t, []) || closedIn(t)) return;
      var k = 0; for (var i = 0; i < r.l.length; i++) { k |= KIND[r.l[i].t]; if (r.l[i].c && KIND[r.l[i].t] === 1) k |= 4; }
      mark(t, k); }]);
    for (var j = 0; j < dead.length; j++) apply(mDel, live, [dead[j]]);
    var doc = apply(targetOf, e, []); if (!doc) return;
    try { var list = apply(qsa, doc, [ATTRS]), n = apply(listLen, list, []);
      for (var a = 0; a < n; a++) { var el = apply(listItem, list, [a]); mark(el, handlerKinds(el)); } } catch (x) {}
    apply(disp, doc, [new Ev(KEY + '-a')]); };
  apply(add, W, [KEY + '-q', function (e) { try { answer(e); } catch (x) {} }, true]); })();"#;

/// What a session's preload registration is keyed by: the engine's build and the main
/// world's hooks (`ENGINE_HASH` covers the engine alone), so that a build with other hooks
/// registers its own.
pub fn preload_key() -> String {
    // FNV-1a, 64 bits: a change detector, not a digest anything trusts
    let mut h: u64 = 0xcbf29ce484222325;
    for part in [CLOSED_ROOTS_HOOK, WORK_HOOK, CLICK_HOOK] {
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

/// A new document's start-up work, as the work hook saw it (`startup_work`).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
pub struct Startup {
    /// Ms until the last start-up timer due within the horizon (-1: none).
    #[serde(default = "none_due")]
    pub timer: f64,
    /// Start-up requests still running that began within the horizon.
    #[serde(default)]
    pub requests: u32,
    /// The document's ready state.
    #[serde(default)]
    pub ready: String,
}

/// The start-up work of the tab's document (timers and requests the page began before its
/// load event or up to a second after it, before any action), within `horizon` ms. None
/// when the document has no work hook (a classic session, a document older than the
/// session's preload); an error when it could not be asked (a navigation in flight).
pub async fn startup_work(page: &Page, horizon: u64) -> Result<Option<Startup>> {
    if !page.isolated() {
        return Ok(None);
    }
    let f = "function(h){ var f = window[Symbol.for('ariasnap.timers')]; \
         return typeof f === 'function' ? f(h, true) : null; }";
    let v = page
        .call_main_world(f, vec![bidi::LocalValue::Number(horizon as f64)])
        .await?;
    Ok(v.as_str().and_then(|t| serde_json::from_str(t).ok()))
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
    /// The page rendered a frame since then (an animation frame the hook asked for ran).
    #[serde(default)]
    pub framed: bool,
    /// A navigation to another document the action started is in flight (the Navigation
    /// API's `navigate` event fired for it, and this document is still the tab's).
    #[serde(default)]
    pub nav: bool,
    /// The hook sees the document's navigations (the Navigation API is there).
    #[serde(default)]
    pub navs: bool,
    /// The action's work ran or changed the DOM since it began (an older hook that does not
    /// say: taken as yes).
    #[serde(default = "yes")]
    pub worked: bool,
    /// Nodes the page's own work touched, and nodes the action's touched, since recording began.
    #[serde(default)]
    pub bg: u64,
    #[serde(default)]
    pub act: u64,
}

impl WorkPoll {
    /// The action started nothing that is pending or ran: no DOM change, timer, request,
    /// animation frame, animation or navigation.
    pub fn idle(&self) -> bool {
        !self.worked
            && self.timer < 0.0
            && self.frames == 0
            && self.requests == 0
            && self.anims <= 0.0
            && !self.nav
    }
}

fn yes() -> bool {
    true
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
        page.note_answered();
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
        .inspect(|_| page.note_answered())
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

#[cfg(test)]
mod tests {
    use super::WorkPoll;

    /// A poll of the hook with `fields` beside a loaded document's (the rest default to
    /// nothing pending).
    fn poll(fields: &str) -> WorkPoll {
        let json = format!(r#"{{"ready":"complete","quiet":3,"navs":true,{fields}}}"#);
        serde_json::from_str(&json).unwrap()
    }

    #[test]
    fn only_an_action_that_started_nothing_is_idle() {
        assert!(poll(r#""worked":false"#).idle());
        // an older hook that does not say whether work ran: taken as work
        assert!(!poll(r#""framed":false"#).idle());
        for pending in [
            r#""worked":true"#,
            r#""worked":false,"timer":250"#,
            r#""worked":false,"frames":1"#,
            r#""worked":false,"requests":1"#,
            r#""worked":false,"anims":120"#,
            r#""worked":false,"nav":true"#,
        ] {
            assert!(!poll(pending).idle(), "{pending}");
        }
    }
}
