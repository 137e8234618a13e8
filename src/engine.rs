//! The one door into the page: every call into a page goes through this module. It installs
//! the bundled engine when the page lacks this exact build, calls its entry points and
//! decodes their replies; it runs the element helpers and the few other page scripts; and
//! it sends every DevTools command and every WebDriver command fantoccini has no method for.
//!
//! Owns: ENGINE_JS, ENGINE_HASH; [`Method`], the engine's entry points with typed arguments
//! (`method`); [`call`] / [`call_in_frame`], which return the method's typed reply (a
//! `wire.rs` type) and turn the page's tagged failures into typed errors (`reply`: ref
//! problems are `Error::Ref`, bad selectors and patterns usage errors); the element helpers
//! and Get Element Shadow Root (`helpers`); the DevTools passthrough (`cdp`); the realm the
//! engine runs in (the page's main world: DevTools' `Runtime.evaluate` for the tab's
//! document when offered, the driver's script endpoint otherwise). Must not: decide what a
//! reply means for a step (the callers do), or leave `__ariaRefs`, a script, a DevTools
//! command name or an untyped reply to anyone else.

pub mod bidi;
mod cdp;
mod classic;
mod helpers;
mod method;
mod page;
mod reply;

pub use cdp::{Frame, FrameTree, Mouse, allow_devtools, browser_name, devtools_address};
pub use helpers::{
    ShadowRoot, adopt_closed_roots, closed_candidates, element, frame_route, frame_routes,
    shadow_root,
};
pub use method::{Condition, Method, Paint, QueryGroup, ScrollTo, SearchQuery, Walk};
pub use page::{DevtoolsSlot, Page, SANDBOX, subscribe};
pub use reply::options_were_shown;

use crate::error::{Error, Result};
use crate::wire::WebRef;
use fantoccini::Client;
use fantoccini::wd::WebDriverCompatibleCommand;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tracing::debug;

/// The injected engine: `js/src/*.js` joined by build.rs.
pub const ENGINE_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/engine.js"));
/// First 16 hex digits of the SHA-256 of the engine bundle.
pub const ENGINE_HASH: &str = include_str!(concat!(env!("OUT_DIR"), "/engine_hash.txt"));

const FAST_PATH: &str = "var a = window.__ariaRefs; \
     if (!a || a.hash !== arguments[0] || typeof a.call !== 'function') return null; \
     return a.call(arguments[1], arguments[2]);";

fn install_script() -> String {
    format!(
        "{ENGINE_JS}\nvar a = window.__ariaRefs; \
         if (!a || a.hash !== arguments[0]) return '__blocked__:' + (a && typeof a.hash === 'string' ? a.hash : ''); \
         return a.call(arguments[1], arguments[2]);"
    )
}

/// Calls `method` of the engine in the tab's top-level document, installing the engine
/// first when needed. Returns the reply's payload (the `wire.rs` type of the method: e.g.
/// `wire::CheckedReply` for [`Method::Checked`]); the page's tagged failures are errors.
pub async fn call<T: DeserializeOwned>(page: &Page, method: Method) -> Result<T> {
    let (name, args) = (method.name(), method.args_json());
    let raw = if page.isolated() {
        call_isolated(page, name, &args).await?
    } else {
        call_raw_top(page, name, &args).await?
    };
    tracing::trace!(method = name, reply = %raw, "engine reply");
    reply::decode(&raw)
}

/// Like [`call`], in the browsing context WebDriver is switched to (a frame): only the
/// script endpoint reaches it on the classic path; with BiDi, its context's sandbox.
pub async fn call_in_frame<T: DeserializeOwned>(page: &Page, method: Method) -> Result<T> {
    let (name, args) = (method.name(), method.args_json());
    let raw = if page.isolated() {
        call_isolated(page, name, &args).await?
    } else {
        call_raw(page, name, &args).await?
    };
    tracing::trace!(method = name, reply = %raw, "engine reply");
    reply::decode(&raw)
}

/// The engine as it runs in its sandbox realm: built-ins there are pristine whenever it is
/// installed (no fresh-realm frame is needed), as in a preloaded document.
pub fn sandbox_engine() -> String {
    ENGINE_JS.replacen(cdp::PRELOADED_FALSE, "const PRELOADED = true;", 1)
}

/// The fast path as a function of (hash, method, args) for `script.callFunction`.
const FAST_FN: &str = "function(h, m, a){ var r = window.__ariaRefs; \
     if (!r || r.hash !== h || typeof r.call !== 'function') return null; \
     return r.call(m, a); }";

/// Calls entry point `method` in the engine's sandbox realm of the page's current context
/// (docs/reference/browsers.md#the-page-channel-webdriver-bidi), installing the engine there first when the preload did not run (documents
/// older than the session's preload, Firefox's same-origin frames). On Chromium the tab's
/// own document is reached through DevTools by the sandbox's realm id, which moves large
/// replies several times faster than BiDi through chromedriver; BiDi otherwise.
async fn call_isolated(page: &Page, method: &str, args: &str) -> Result<String> {
    if cdp::enabled()
        && page.at_top()
        && let Some(mut realm) = page.top_realm().await
    {
        let expr = format!(
            "({FAST_FN})({h}, {m}, {a})",
            h = json!(ENGINE_HASH),
            m = json!(method),
            a = json!(args),
        );
        use cdp::direct::Outcome;
        let mut outcome = page.evaluate_direct(&expr, &realm).await;
        if matches!(outcome, Outcome::NoRealm) {
            // a realm kept from an earlier command whose document has gone since: nothing
            // ran; the current document's realm is asked for, once
            page.forget_realm();
            outcome = match page.top_realm().await {
                Some(r) => {
                    realm = r;
                    page.evaluate_direct(&expr, &realm).await
                }
                None => Outcome::Answered(None),
            };
        }
        let got = match outcome {
            Outcome::Answered(v) => v,
            Outcome::Lost | Outcome::NoRealm => None,
            Outcome::Unreachable => cdp::evaluate_in(page.client(), &expr, Some(&realm)).await,
        };
        match got {
            Some(v @ Value::String(_)) => return interpret(v),
            Some(Value::Null) => {}
            _ => page.forget_realm(),
        }
    }
    let argv = || {
        vec![
            bidi::LocalValue::string(ENGINE_HASH),
            bidi::LocalValue::string(method),
            bidi::LocalValue::string(args),
        ]
    };
    let v = page.call_sandbox(FAST_FN, argv(), None).await?;
    let v = match v {
        bidi::RemoteValue::Null | bidi::RemoteValue::Undefined => {
            debug!(
                method,
                "engine missing in this document's sandbox: installing"
            );
            let install = format!(
                "function(h, m, a){{{engine}\nvar r = window.__ariaRefs; \
                 if (!r || r.hash !== h) return '__blocked__:' + (r && typeof r.hash === 'string' ? r.hash : ''); \
                 return r.call(m, a); }}",
                engine = sandbox_engine()
            );
            page.call_sandbox(&install, argv(), None).await?
        }
        other => other,
    };
    match v.into_string() {
        Some(s) => interpret(Value::String(s)),
        None => Err(Error::Engine(
            "unexpected reply from the engine's sandbox (not a string)".into(),
        )),
    }
}

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
            format!("{CONSOLE_HOOK}\n{CLOSED_ROOTS_HOOK}\n{STARTUP_TIMERS_HOOK}"),
            None,
        ),
    ] {
        let r = b
            .send(&bidi::AddPreloadScript {
                function_declaration: format!("function(){{{source}\n}}"),
                contexts: None,
                sandbox,
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

/// `readyState` and `timeOrigin` of the top-level document through DevTools (see
/// `cdp::document_state`); empty when DevTools cannot say.
pub async fn document_state(page: &Page) -> String {
    cdp::document_state(page.client()).await
}

/// Registers the engine to run in new documents of the tab before the page's scripts,
/// replacing the registration `old` (see `cdp::preload`); None without DevTools.
pub async fn preload(page: &Page, old: Option<&str>) -> Option<String> {
    cdp::preload(page.client(), old).await
}

/// The current tab's URL and title from its navigation history, which no page script can
/// tamper with; None without DevTools.
pub async fn history_entry(page: &Page) -> Option<(String, String)> {
    cdp::history_entry(page.client()).await
}

/// Navigates the current tab through DevTools, without a page script; false without a
/// passthrough or when the command failed.
pub async fn navigate(page: &Page, url: &str) -> bool {
    cdp::navigate(page.client(), url).await
}

/// Real mouse input at (x, y) in top-level viewport CSS pixels through DevTools; false
/// without a passthrough or when the command failed.
pub async fn dispatch_mouse(page: &Page, event: Mouse<'_>, x: f64, y: f64) -> bool {
    cdp::dispatch_mouse(page.client(), event, x, y).await
}

/// The tab's frame tree (`Page.getFrameTree`); None without DevTools.
pub async fn frame_tree(page: &Page) -> Option<FrameTree> {
    cdp::frame_tree(page.client()).await
}

/// Calls entry point `method` with the JSON text `args` through the script endpoint and
/// returns the reply as the JSON text the page produced. A page dialog that blocks the call
/// is answered (by the `--dialog` policy) and the call made again.
async fn call_raw(page: &Page, method: &str, args: &str) -> Result<String> {
    let mut tries = 0;
    loop {
        match call_raw_once(page.client(), method, args).await {
            Err(e) if e.is_dialog() && tries < 3 => {
                tries += 1;
                page.answer_open().await;
            }
            r => return r,
        }
    }
}

async fn call_raw_once(client: &Client, method: &str, args: &str) -> Result<String> {
    let params = vec![json!(ENGINE_HASH), json!(method), json!(args)];
    let reply = client.execute(FAST_PATH, params.clone()).await?;
    let reply = match reply {
        Value::Null => {
            debug!(method, "engine missing in this document: installing");
            client.execute(&install_script(), params).await?
        }
        other => other,
    };
    interpret(reply)
}

/// A reply of the fast path or the installer: the JSON text, or why there is none.
fn interpret(reply: Value) -> Result<String> {
    match reply {
        Value::String(s) if s.starts_with("__blocked__:") => {
            let other = &s["__blocked__:".len()..];
            Err(Error::Engine(if other.is_empty() {
                "the page blocks the engine (window.__ariaRefs was defined by the page and cannot be replaced)".into()
            } else {
                format!(
                    "this page holds the engine of another ariasnap build ({other}); reload the page (ariasnap reload) to install this one ({ENGINE_HASH})"
                )
            }))
        }
        Value::String(s) => Ok(s),
        other => Err(Error::Engine(format!(
            "unexpected reply from the page: {other}"
        ))),
    }
}

/// A WebDriver command fantoccini has no method for: `method` on `session/{id}/{path}`,
/// with the reply kept raw (chromedriver's `goog/cdp/execute`, or Get Element Shadow Root,
/// whose reference fantoccini keeps private).
#[derive(Debug)]
struct RawCommand {
    method: http::Method,
    /// The path after `session/{id}/`.
    path: String,
    body: Option<Value>,
}

impl WebDriverCompatibleCommand for RawCommand {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> std::result::Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/{}",
            session_id.unwrap_or_default(),
            self.path
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (
            self.method.clone(),
            self.body.as_ref().map(Value::to_string),
        )
    }
}

/// Like [`call_raw`], for the tab's top-level document only (not a frame WebDriver switched
/// into): the call goes through DevTools' `Runtime.evaluate` in the page's main world when
/// the endpoint offers it, which moves large replies (snapshots) at about twice the speed.
/// Anything unexpected (engine not installed yet, another driver, a dialog) falls back to
/// [`call_raw`], which installs the engine and reports errors as usual.
async fn call_raw_top(page: &Page, method: &str, args: &str) -> Result<String> {
    let client = page.client();
    if cdp::enabled() {
        let call = format!(
            "var a = window.__ariaRefs; \
             if (!a || a.hash !== {h} || typeof a.call !== 'function') return {missing}; \
             return a.call({m}, {a});",
            h = json!(ENGINE_HASH),
            m = json!(method),
            a = json!(args),
            missing = "null",
        );
        match cdp::evaluate(client, &format!("(function(){{{call}}})()")).await {
            Some(Value::Null) => {
                debug!(method, "engine missing in this document: installing");
                let install = format!(
                    "(function(){{{ENGINE_JS}\nvar a = window.__ariaRefs; \
                     if (!a || a.hash !== {h}) return '__blocked__:' + (a && typeof a.hash === 'string' ? a.hash : ''); \
                     return a.call({m}, {a});}})()",
                    h = json!(ENGINE_HASH),
                    m = json!(method),
                    a = json!(args),
                );
                if let Some(v @ Value::String(_)) = cdp::evaluate(client, &install).await {
                    return interpret(v);
                }
            }
            Some(v @ Value::String(_)) => return interpret(v),
            _ => {}
        }
        debug!(
            method,
            "engine not reachable through DevTools: script endpoint"
        );
    }
    call_raw(page, method, args).await
}

/// Evaluates a user's expression (`eval` steps) in the page's main world and returns its
/// value (arbitrary JSON, passed on as it is). The driver's script endpoint first; on a page
/// whose replaced built-ins break the driver's own wrapper, DevTools' `Runtime.evaluate`
/// (awaiting a promise result). With BiDi the page is reached through it first: the ref
/// mirror's update when the expression names it (see [`names_mirror`]), else a probe. A page
/// that stopped answering then holds that call until the step's deadline, not a classic
/// command that the driver would queue the step's later commands behind (geckodriver).
pub async fn evaluate_user(page: &Page, expr: &str) -> Result<Value> {
    if page.isolated() {
        let first = if names_mirror(expr) {
            sync_mirror(page).await
        } else {
            answers(page).await
        };
        if let Err(e) = first {
            debug!(error = %e, "page not reached through BiDi before eval");
        }
    }
    let client = page.client();
    match client.execute(&format!("return ({expr});"), vec![]).await {
        Ok(v) => Ok(v),
        Err(err) if err.is_javascript_error() => Err(Error::Step(format!(
            "eval failed in the page: {}",
            crate::error::webdriver_message(&err)
        ))),
        Err(err) => match cdp::evaluate_awaited(client, &format!("({expr})")).await {
            Some(v) => Ok(v),
            None => Err(err.into()),
        },
    }
}

/// Whether an `eval` expression names the page's ref mirror (`window.__ariaRefs`, docs/reference/browsers.md#the-ref-mirror).
/// Bringing the mirror up to date takes three round trips and an event per ref (39-46 ms
/// after a snapshot of a 10,000-element page, 2,000 refs; about 0.8 s when every element goes
/// by shared id, see [`sync_mirror`]), so an expression that does not name it is spared that.
fn names_mirror(expr: &str) -> bool {
    expr.contains("__ariaRefs")
}

/// Starts a mirror update in the page's main world: a listener (capture phase, on the
/// window: first on every event's path) that keeps, in order, the targets of events of a
/// new random type, which it returns. Its state waits under that name on the window.
const MIRROR_LISTEN: &str = "function(){ var t = 'ariasnap-mirror-' + Math.random().toString(36).slice(2); \
     var got = []; var h = function(e){ got[got.length] = e.target; }; \
     window.addEventListener(t, h, true); \
     Object.defineProperty(window, t, { value: { got: got, h: h }, configurable: true, enumerable: false }); \
     return t; }";

/// In the engine's sandbox, the refs of the current document (a main world reaches no other
/// document's nodes by id). With an update type `t`: an event of that type at each ref's
/// element of the document's own tree, in the order of the refs; without one (`''`), none.
/// Returns the engine's counters (the JSON text of its `stats` entry point), the refs the
/// events went to (space separated, in order), then `[ref, element, ...]` of the others
/// (with events, those in shadow trees: seen from the window, an event there has their host
/// as its target), handed over as shared ids.
const MIRROR_SEND: &str = "function(t){ var a = window.__ariaRefs; var out = ['', '']; \
     if (!a) return out; out[0] = a.call('stats', '{}'); var ks = Object.keys(a); var sent = []; \
     for (var i = 0; i < ks.length; i++) { var el = a[ks[i]]; \
       if (!el || el.ownerDocument !== document) continue; \
       if (t && el.getRootNode() === document) { sent[sent.length] = ks[i]; el.dispatchEvent(new CustomEvent(t)); } \
       else { out[out.length] = ks[i]; out[out.length] = el; } } \
     out[1] = sent.join(' '); return out; }";

/// Ends an update in the main world (arguments: type, counters, refs sent as events, then
/// ref and element pairs): the events' targets paired with the refs they went to, and the
/// pairs, as a frozen object defined as `window.__ariaRefs` with the counters under the
/// non-enumerable key `stats`. False, and nothing defined, when the events seen do not
/// match the refs sent (the page stopped or added some).
const MIRROR_SET: &str = "function(t, stats, sent){ var o = Object.create(null); \
     Object.defineProperty(o, 'stats', { value: stats, enumerable: false }); \
     if (t) { var st = window[t]; \
       if (!st) return false; window.removeEventListener(t, st.h, true); delete window[t]; \
       var refs = sent ? sent.split(' ') : []; if (refs.length !== st.got.length) return false; \
       for (var i = 0; i < refs.length; i++) o[refs[i]] = st.got[i]; } \
     for (var j = 3; j + 1 < arguments.length; j += 2) o[arguments[j]] = arguments[j + 1]; \
     Object.freeze(o); \
     try { Object.defineProperty(window, '__ariaRefs', { value: o, configurable: true, enumerable: false, writable: false }); } catch (e) {} \
     return true; }";

/// Copies the engine's refs of the current document into the page's main world as
/// `window.__ariaRefs` (for `eval` steps), where the page may read and even replace it:
/// actions resolve refs in the engine's sandbox only (docs/reference/browsers.md#the-page-channel-webdriver-bidi). The elements cross from the
/// sandbox as events dispatched on them, caught in the main world: handing each over by
/// shared id (out of the sandbox, into the main world) cost about 0.8 s for the 2,000 refs
/// of a 10,000-element page. When the events do not match, every element goes by shared id.
async fn sync_mirror(page: &Page) -> Result<()> {
    match push_mirror(page, true).await {
        Ok(true) => Ok(()),
        other => {
            debug!(
                ?other,
                "ref mirror: no update by events; handing elements over by id"
            );
            push_mirror(page, false).await.map(|_| ())
        }
    }
}

/// One mirror update, its elements as events (`events`) or all by shared id; false when the
/// events seen did not match the refs sent.
async fn push_mirror(page: &Page, events: bool) -> Result<bool> {
    let t = if events {
        let Value::String(t) = page.call_main_world(MIRROR_LISTEN, vec![]).await? else {
            return Ok(false);
        };
        t
    } else {
        String::new()
    };
    let v = page
        .call_sandbox(MIRROR_SEND, vec![bidi::LocalValue::string(&t)], None)
        .await?;
    let items = v.items().unwrap_or_default();
    let text = |i: usize| items.get(i).and_then(|s| s.as_str()).unwrap_or_default();
    let stats = if text(0).is_empty() { "{}" } else { text(0) };
    let mut args = vec![
        bidi::LocalValue::string(&t),
        bidi::LocalValue::string(stats),
        bidi::LocalValue::string(text(1)),
    ];
    args.extend(shared_pairs(items.get(2..).unwrap_or_default()));
    Ok(page.call_main_world(MIRROR_SET, args).await? == Value::Bool(true))
}

/// `[ref, element, ...]` remote values as call arguments: each ref's string and its element
/// by shared id (pairs that are not both are left out).
fn shared_pairs(items: &[bidi::RemoteValue]) -> Vec<bidi::LocalValue> {
    let mut args = Vec::new();
    for pair in items.chunks(2) {
        if let [r, el] = pair
            && let (Some(r), Some(id)) = (r.as_str(), el.shared_id())
        {
            args.push(bidi::LocalValue::string(r));
            args.push(bidi::LocalValue::shared(id));
        }
    }
    args
}

/// The window's inner size `[width, height]` in CSS pixels.
pub async fn viewport_size(page: &Page) -> Result<[u64; 2]> {
    let client = page.client();
    let v = client
        .execute("return [window.innerWidth, window.innerHeight]", vec![])
        .await?;
    serde_json::from_value(v).map_err(|source| Error::Json {
        what: "the page's viewport size",
        source,
    })
}

/// The current page printed to PDF by WebDriver Print Page (`POST /session/{id}/print`,
/// W3C WebDriver 18.1; `params` are its parameters: orientation, scale, background,
/// pageRanges...). Returns the PDF's bytes.
pub async fn print_page(page: &Page, params: Value) -> Result<Vec<u8>> {
    use base64::Engine as _;
    let cmd = RawCommand {
        method: http::Method::POST,
        path: "print".into(),
        body: Some(params),
    };
    let v = page.client().issue_cmd(cmd).await?;
    let b64 = v.as_str().ok_or_else(|| {
        Error::Engine(format!(
            "WebDriver Print Page answered {} instead of the PDF in base64",
            v.to_string().chars().take(200).collect::<String>()
        ))
    })?;
    base64::engine::general_purpose::STANDARD
        .decode(b64)
        .map_err(|e| Error::Engine(format!("WebDriver Print Page answered bad base64: {e}")))
}

/// Sets a host-only cookie for the current page, as the page itself would (WebDriver's Add
/// Cookie wants a domain, which Chromium refuses for IP hosts).
pub async fn set_page_cookie(page: &Page, name: &str, value: &str) -> Result<()> {
    let client = page.client();
    client
        .execute(
            "document.cookie = arguments[0] + '=' + arguments[1] + '; path=/'; return document.cookie.indexOf(arguments[0] + '=') >= 0;",
            vec![json!(name), json!(value)],
        )
        .await?;
    Ok(())
}

/// Does the page answer a trivial script? (its main thread is not stuck)
pub async fn answers(page: &Page) -> Result<()> {
    if page.isolated() {
        // in the sandbox: a probe that hangs there holds no classic driver queue
        page.call_sandbox("function(){ return 1; }", vec![], None)
            .await?;
        return Ok(());
    }
    page.client().execute("return 1", vec![]).await?;
    Ok(())
}

/// Whether the browsing context WebDriver is switched to shows the browser's own error page
/// instead of the document asked for (Firefox's `about:neterror`, `about:certerror`,
/// `about:blocked`; Chromium's `chrome-error:`): its `documentURI` says so while its
/// `location` keeps the URL that failed. False when the page cannot say.
pub async fn shows_error_page(page: &Page) -> bool {
    match page.execute("return document.documentURI", vec![]).await {
        Ok(Value::String(u)) => [
            "about:neterror",
            "about:certerror",
            "about:blocked",
            "chrome-error:",
        ]
        .iter()
        .any(|p| u.starts_with(p)),
        _ => false,
    }
}

/// The current document's `readyState`.
pub async fn ready_state(page: &Page) -> Result<String> {
    let client = page.client();
    match client.execute("return document.readyState", vec![]).await? {
        Value::String(s) => Ok(s),
        _ => Ok(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_expression_that_names_the_mirror_waits_for_it() {
        assert!(names_mirror("window.__ariaRefs['s1e4'].textContent"));
        assert!(names_mirror("JSON.parse(__ariaRefs.stats).walks"));
        assert!(!names_mirror("document.title"));
        assert!(!names_mirror("document.querySelectorAll('a').length"));
    }

    #[test]
    fn bundle_is_one_iife_with_its_hash() {
        assert!(ENGINE_JS.starts_with("(function(){"));
        assert!(ENGINE_JS.contains(&format!("const ENGINE_HASH = \"{ENGINE_HASH}\"")));
        assert_eq!(ENGINE_HASH.len(), 16);
        // every source file is in, in order
        let a = ENGINE_JS.find("00_prelude.js").unwrap();
        let b = ENGINE_JS.find("90_api.js").unwrap();
        assert!(a < b);
    }

    /// js/src with comments, strings and template literals blanked (regular expressions are
    /// built with `re("...")`, never written as literals).
    fn engine_files() -> Vec<(String, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("js/src");
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.ends_with(".js"))
            .collect();
        names.sort();
        let strip = regex::Regex::new(
            r#"(?s)//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`"#,
        )
        .unwrap();
        names
            .into_iter()
            .map(|n| {
                let text = std::fs::read_to_string(dir.join(&n)).unwrap();
                let code = strip.replace_all(&text, "\"\"").into_owned();
                (n, code)
            })
            .collect()
    }

    /// Identifiers used as names (not `.property`, not `key:` of an object literal).
    fn names_used(code: &str) -> Vec<String> {
        let id = regex::Regex::new(r"[A-Za-z_$][\w$]*").unwrap();
        let mut out = Vec::new();
        for m in id.find_iter(code) {
            let before = code[..m.start()].trim_end();
            let after = code[m.end()..].trim_start();
            let starts_here = code[..m.start()]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '$'));
            if !starts_here || before.ends_with('.') && !before.ends_with("...") {
                continue;
            }
            if after.starts_with(':') && !after.starts_with("::") {
                // an object key (or the middle of a ternary: a false negative at worst)
                continue;
            }
            out.push(m.as_str().to_string());
        }
        out
    }

    /// Issue 13: per-walk caches begin and end in the top layer only (90_api.js brackets
    /// every engine call), so no lower layer can keep a cache past the call that made it.
    #[test]
    fn per_walk_caches_begin_and_end_in_the_top_layer() {
        let call = regex::Regex::new(r"\b(beginCaches|endCaches)\s*\(").unwrap();
        let def = regex::Regex::new(r"function\s+(beginCaches|endCaches)\s*\(").unwrap();
        let mut top_calls = 0;
        for (file, code) in engine_files() {
            let calls = call.find_iter(&code).count() - def.find_iter(&code).count();
            if file == "90_api.js" {
                top_calls = calls;
            } else {
                assert_eq!(calls, 0, "{file} begins or ends the per-walk caches");
            }
        }
        assert!(
            top_calls >= 2,
            "90_api.js must bracket engine calls with the caches"
        );
    }

    #[test]
    fn engine_layers_and_globals() {
        // js/README's rules, checked over the sources the bundle is made of:
        // 1. a file uses only what files with a lower number (or itself) define at top level;
        // 2. outside 00_prelude.js no name reaches a page global (everything is captured
        //    there), and no `.call`/`.apply`/`.bind` goes through the page's
        //    Function.prototype.
        let files = engine_files();
        let top = regex::Regex::new(r"(?m)^(?:function\s+|(?:const|let|var)\s+)([A-Za-z_$][\w$]*)")
            .unwrap();
        let any_decl = regex::Regex::new(
            r"(?:function\s+([A-Za-z_$][\w$]*))|(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*))|(?:catch\s*\(\s*([A-Za-z_$][\w$]*))|(?:([A-Za-z_$][\w$]*)\s*=>)",
        )
        .unwrap();
        let params =
            regex::Regex::new(r"function\s*[\w$]*\s*\(([^)]*)\)|\(([^()]*)\)\s*=>").unwrap();
        let id = regex::Regex::new(r"[A-Za-z_$][\w$]*").unwrap();
        let mut owner: std::collections::HashMap<String, String> = Default::default();
        let mut declared: std::collections::HashSet<String> = Default::default();
        let mut problems = Vec::new();
        for (file, code) in &files {
            for c in top.captures_iter(code) {
                // one bundle, one scope: a second top-level function of the same name
                // silently replaces the first everywhere
                if let Some(first) = owner.get(&c[1]) {
                    problems.push(format!("{file} defines {} again (first in {first})", &c[1]));
                }
                owner
                    .entry(c[1].to_string())
                    .or_insert_with(|| file.clone());
            }
            for c in any_decl.captures_iter(code) {
                for g in 1..=4 {
                    if let Some(m) = c.get(g) {
                        declared.insert(m.as_str().to_string());
                    }
                }
            }
            for c in params.captures_iter(code) {
                for g in 1..=2 {
                    if let Some(m) = c.get(g) {
                        for p in id.find_iter(m.as_str()) {
                            declared.insert(p.as_str().to_string());
                        }
                    }
                }
            }
        }
        const ALLOWED: &[&str] = &[
            "break",
            "case",
            "catch",
            "const",
            "continue",
            "default",
            "delete",
            "do",
            "else",
            "finally",
            "for",
            "function",
            "if",
            "in",
            "instanceof",
            "new",
            "return",
            "switch",
            "this",
            "throw",
            "try",
            "typeof",
            "var",
            "void",
            "while",
            "let",
            "of",
            "true",
            "false",
            "null",
            "undefined",
            "NaN",
            "Infinity",
            "arguments",
            "window",
            "document",
            "ENGINE_HASH",
        ];
        for (file, code) in &files {
            let prelude = file.starts_with("00_");
            for name in names_used(code) {
                if let Some(o) = owner.get(&name)
                    && o > file
                {
                    problems.push(format!("{file} uses {name} of {o} (a higher layer)"));
                }
                if !prelude && !declared.contains(&name) && !ALLOWED.contains(&name.as_str()) {
                    problems.push(format!("{file} reaches the page global {name}"));
                }
            }
            if !prelude {
                for bad in [".call(", ".apply(", ".bind("] {
                    if code.contains(bad) {
                        problems.push(format!(
                            "{file} calls {bad}..) through the page's Function.prototype"
                        ));
                    }
                }
            }
        }
        problems.sort();
        problems.dedup();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
