//! What the user's own scripts run as in the page's main world: `eval` expressions and the
//! functions `poll`, `wait` and step hooks run, and the read-only mirror of the engine's refs
//! there (`window.__ariaRefs`, for `eval`).
//!
//! Owns: the wrapper a hook function runs in and its typed reply ([`PollReply`]), the mirror's
//! three scripts and its update. Must not: decide what a value means for a step (callers
//! judge truthiness and deadlines), or let the page's main world reach the engine's sandbox
//! (only copies of refs cross, as events or shared ids).

use super::{Page, answers, bidi, cdp};
use crate::error::{Error, Result};
use crate::wire::PollReply;
use serde_json::Value;
use tracing::debug;

/// Evaluates a user's expression (`eval` steps) in the page's main world and returns its
/// value (arbitrary JSON, passed on as it is). The driver's script endpoint first; on a page
/// whose replaced built-ins break the driver's own wrapper, DevTools' `Runtime.evaluate`
/// (awaiting a promise result). With BiDi the page is reached through it first: the ref
/// mirror's update when the expression names it (see [`names_mirror`]), else a probe, unless
/// the document answered a call just before (the work hook's `begin` of the step). A page
/// that stopped answering then holds that call until the step's deadline, not a classic
/// command that the driver would queue the step's later commands behind (geckodriver).
pub async fn evaluate_user(page: &Page, expr: &str) -> Result<Value> {
    if page.isolated() {
        let first = if names_mirror(expr) {
            sync_mirror(page).await
        } else if page.at_top() && page.answered_within(JUST_ANSWERED) {
            Ok(())
        } else {
            answers(page).await
        };
        if let Err(e) = first {
            debug!(error = %e, "page not reached through BiDi before eval");
        }
    }
    let client = page.client().await?;
    match client.execute(&format!("return ({expr});"), vec![]).await {
        Ok(v) => Ok(v),
        Err(err) if err.is_javascript_error() => Err(Error::Step(format!(
            "eval failed in the page: {}",
            super::webdriver_message(&err)
        ))),
        Err(err) => match cdp::evaluate_awaited(&client, &format!("({expr})")).await {
            Some(v) => Ok(v),
            None => Err(err.into()),
        },
    }
}

/// How recent a call the tab's document answered spares `eval` its probe: the step's own
/// `begin` of the work hook comes a round trip before it.
const JUST_ANSWERED: std::time::Duration = std::time::Duration::from_millis(100);

/// Runs the function (or expression) `src` of a `poll`, `wait` or step hook once in the
/// page's main world, as [`evaluate_user`] runs an `eval`: a function's source is called; its
/// value (a promise's, awaited) or what it threw comes back (so polling goes on through
/// errors of a page still loading). A script that cannot run at all (a syntax error) is an
/// error.
pub async fn poll_once(page: &Page, src: &str) -> Result<PollReply> {
    Ok(PollReply::from(
        evaluate_user(page, &poll_script(src)).await?,
    ))
}

/// The page script that runs `src` once: the value comes back as `{"ok": v}`, a throw as
/// `{"threw": message}` ([`PollReply`] reads them).
fn poll_script(src: &str) -> String {
    format!(
        "(function(){{ try {{ var v = ({src}\n); if (typeof v === 'function') v = v(); \
         if (v && typeof v.then === 'function') return v.then(function(x){{ return {{ok: x}}; }}, \
         function(e){{ return {{threw: '' + (e && e.message || e)}}; }}); \
         return {{ok: v}}; }} catch (e) {{ return {{threw: '' + (e && e.message || e)}}; }} }})()"
    )
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
    fn the_poll_script_calls_functions_and_wraps_values() {
        let s = poll_script("() => 1");
        assert!(s.contains("var v = (() => 1\n)"), "{s}");
        assert!(s.contains("typeof v === 'function'"));
        // a trailing line comment cannot swallow the wrapper's closing parenthesis
        assert!(poll_script("x // note").contains("x // note\n)"));
    }
}
