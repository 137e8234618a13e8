//! The one door into the page and the browser: every call into a page, and every WebDriver,
//! BiDi and DevTools command, goes through this module. It installs the bundled engine when
//! the page lacks this exact build, calls its entry points and decodes their replies; it runs
//! the element helpers, the main-world hooks and the few other page scripts; it routes calls
//! about refs into the frames that minted them; and it makes, attaches to and ends WebDriver
//! sessions. fantoccini (the classic WebDriver client) is named nowhere else
//! (`layering::only_the_engine_names_the_webdriver_client`).
//!
//! Owns: ENGINE_JS, ENGINE_HASH; [`Method`], the engine's entry points with typed arguments
//! (`method`); [`call`] / [`call_in_frame`], which return the method's typed reply (a
//! `wire.rs` type) and turn the page's tagged failures into typed errors (`reply`: ref
//! problems are `Error::Ref`, bad selectors and patterns usage errors); the element helpers
//! and Get Element Shadow Root (`helpers`); frame routing for refs (`frames`); the main-world
//! hooks and the preload (`hooks`); users' scripts and the ref mirror (`user`); classic
//! WebDriver commands, typed (`classic`); sessions and the client (`session`); WebDriver's
//! errors as the crate's (`errors`); the DevTools passthrough (`cdp`); the storage of saved
//! logins, read and written through BiDi (`storage`); the realm the engine
//! runs in (the page's main world: DevTools' `Runtime.evaluate` for the tab's document when
//! offered, the driver's script endpoint otherwise). Must not: decide what a reply means for
//! a step (the callers do), or leave `__ariaRefs`, a script, a DevTools command name, the
//! WebDriver client or an untyped reply to anyone else.

pub mod audit;
pub mod bidi;
mod cdp;
mod classic;
mod errors;
mod frames;
mod helpers;
mod hold;
mod hooks;
mod method;
mod page;
mod reply;
mod session;
pub mod storage;
mod user;

pub use cdp::{Frame, FrameTree, Mouse, allow_devtools};
pub use classic::{Cookie, Key};
pub use errors::webdriver_message;
pub use frames::{
    FrameRoute, Route, call_for_ref, enter_ref_frame, enter_route, frame_chain_of_ref,
    frame_routes, leave_frames,
};
pub use helpers::{
    ShadowRoot, Touched, adopt_closed_roots, closed_candidates, element, shadow_root,
    touched_identities,
};
pub use hold::{Held, Judged, Verdict, hold_requests};
pub use hooks::{
    Startup, WorkPoll, console_messages, hooked_closed_roots, preload_key, preload_sandbox,
    startup_timers, startup_work, work_begin, work_poll, work_stop, work_touched,
};
pub use method::{Condition, Entry, Method, Paint, QueryGroup, ScrollTo, SearchQuery, Walk, entry};
pub use page::{DevtoolsSlot, Page, SANDBOX, WindowTurn, subscribe};
pub use reply::options_were_shown;
pub use session::{Connection, NewSession, Refused, endpoint_status};
pub use user::{evaluate_user, poll_once};

use crate::error::{Error, Result};
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

/// Calls an entry point of the engine in the tab's top-level document, installing the engine
/// first when needed. Returns the reply its row declares (e.g. `wire::CheckedReply` for
/// [`entry::Checked`]); the page's tagged failures are errors.
pub async fn call<E: Entry>(page: &Page, call: E) -> Result<E::Reply> {
    call_method(page, call.into()).await
}

/// [`call`] of a method already made, decoded as `T` (the engine's own callers, which keep
/// the entry's reply type).
async fn call_method<T: DeserializeOwned>(page: &Page, method: Method) -> Result<T> {
    call_args(page, method.name(), &method.args_json()).await
}

/// [`call_method`] with its arguments serialized already (`frames::call_for_ref`).
async fn call_args<T: DeserializeOwned>(page: &Page, name: &'static str, args: &str) -> Result<T> {
    let raw = if page.isolated() {
        call_isolated(page, name, args).await?
    } else {
        call_raw_top(page, name, args).await?
    };
    tracing::trace!(method = name, reply = %raw, "engine reply");
    reply::decode(&raw)
}

/// Like [`call`], in the browsing context WebDriver is switched to (a frame): only the
/// script endpoint reaches it on the classic path; with BiDi, its context's sandbox.
pub async fn call_in_frame<E: Entry>(page: &Page, call: E) -> Result<E::Reply> {
    let method: Method = call.into();
    call_in_frame_args(page, method.name(), &method.args_json()).await
}

/// [`call_in_frame`] with its arguments serialized already (`frames::call_for_ref`).
async fn call_in_frame_args<T: DeserializeOwned>(
    page: &Page,
    name: &'static str,
    args: &str,
) -> Result<T> {
    let raw = if page.isolated() {
        call_isolated(page, name, args).await?
    } else {
        call_raw(page, name, args).await?
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
        use cdp::direct::Evaluation;
        let mut outcome = page.evaluate_direct(&expr, &realm).await;
        if matches!(outcome, Evaluation::NoRealm) {
            // a realm kept from an earlier command whose document has gone since: nothing
            // ran; the current document's realm is asked for, once
            page.forget_realm();
            outcome = match page.top_realm().await {
                Some(r) => {
                    realm = r;
                    page.evaluate_direct(&expr, &realm).await
                }
                None => Evaluation::Answered(None),
            };
        }
        let got = match outcome {
            Evaluation::Answered(v) => v,
            Evaluation::Lost | Evaluation::NoRealm => None,
            Evaluation::Unreachable => match page.client().await {
                Ok(c) => cdp::evaluate_in(&c, &expr, Some(&realm)).await,
                Err(_) => None,
            },
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

/// `readyState` and `timeOrigin` of the top-level document through DevTools (see
/// `cdp::document_state`); empty when DevTools cannot say.
pub async fn document_state(page: &Page) -> String {
    match page.client().await {
        Ok(c) => cdp::document_state(&c).await,
        Err(_) => String::new(),
    }
}

/// Registers the engine to run in new documents of the tab before the page's scripts,
/// replacing the registration `old` (see `cdp::preload`); None without DevTools.
pub async fn preload(page: &Page, old: Option<&str>) -> Option<String> {
    cdp::preload(&*page.client().await.ok()?, old).await
}

/// The current tab's URL and title from its navigation history, which no page script can
/// tamper with; None without DevTools.
pub async fn history_entry(page: &Page) -> Option<(String, String)> {
    cdp::history_entry(&*page.client().await.ok()?).await
}

/// Navigates the current tab through DevTools, without a page script; false without a
/// passthrough or when the command failed.
pub async fn navigate(page: &Page, url: &str) -> bool {
    match page.client().await {
        Ok(c) => cdp::navigate(&c, url).await,
        Err(_) => false,
    }
}

/// Real mouse input at (x, y) in top-level viewport CSS pixels through DevTools; false
/// without a passthrough or when the command failed.
pub async fn dispatch_mouse(page: &Page, event: Mouse<'_>, x: f64, y: f64) -> bool {
    match page.client().await {
        Ok(c) => cdp::dispatch_mouse(&c, event, x, y).await,
        Err(_) => false,
    }
}

/// The URLs the tab's out-of-process frames failed to load (each frame's DevTools target in
/// `targets`, on DevTools address `addr`, asked on its own connection, all at once): the
/// tab's frame tree does not hold them.
pub async fn unreachable_frames(addr: &str, targets: &[String]) -> Vec<String> {
    let asks = targets
        .iter()
        .map(|t| cdp::direct::unreachable_url(addr, t));
    futures_util::future::join_all(asks)
        .await
        .into_iter()
        .flatten()
        .collect()
}

/// The tab's frame tree (`Page.getFrameTree`); None without DevTools.
pub async fn frame_tree(page: &Page) -> Option<FrameTree> {
    cdp::frame_tree(&*page.client().await.ok()?).await
}

/// Calls entry point `method` with the JSON text `args` through the script endpoint and
/// returns the reply as the JSON text the page produced. A page dialog that blocks the call
/// is answered (by the `--dialog` policy) and the call made again.
async fn call_raw(page: &Page, method: &str, args: &str) -> Result<String> {
    let mut tries = 0;
    loop {
        let once = match page.client().await {
            Ok(c) => call_raw_once(&c, method, args).await,
            Err(e) => Err(e),
        };
        match once {
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
    if cdp::enabled() {
        let client = &*page.client().await?;
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

/// The window's inner size `[width, height]` in CSS pixels.
pub async fn viewport_size(page: &Page) -> Result<[u64; 2]> {
    let client = page.client().await?;
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
    let v = page.client().await?.issue_cmd(cmd).await?;
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
    let client = page.client().await?;
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
    page.client().await?.execute("return 1", vec![]).await?;
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
    let client = page.client().await?;
    match client.execute("return document.readyState", vec![]).await? {
        Value::String(s) => Ok(s),
        _ => Ok(String::new()),
    }
}

#[cfg(test)]
mod tests;
