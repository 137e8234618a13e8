//! axe-core in the engine's sandbox realm of every frame (docs/reference/audit.md): the
//! vendored build (js/vendor/axe-core, its version pinned in scripts/npm-pins.sh) is loaded
//! into each frame's sandbox with `script.evaluate` (a protocol evaluation: no page CSP
//! applies, and the page's realm never sees it), run there with `axe.runPartial` frame by
//! frame, parent before children in the order `axe.utils.getFrameContexts` gives (as
//! `@axe-core/playwright` does: no message passes between frames), and finished with
//! `axe.finishRun` in the top frame's sandbox. The engine then names each element axe
//! targets: its ref, role and name (js/src/85_audit.js).
//!
//! Two things a real page brings: a frame whose sandbox never answers (Chromium's BiDi
//! leaves a call into the sandbox of a frame stuck on a `javascript:` URL the parent's CSP
//! blocked unanswered), so a frame gets [`FRAME_ANSWER`] to answer before axe is run there
//! and is counted as not checked otherwise (`@axe-core/playwright` gives a frame one second
//! to take axe and skips it the same way); and text that is not well-formed UTF-16 (axe cuts
//! an element's HTML in its results mid surrogate pair), which `JSON.stringify` writes as a
//! lone `\uD8xx` escape that no Rust string can hold, so partial results pass through the
//! host as opaque text and the final results are made well-formed in the sandbox.
//!
//! Owns: loading axe, the partial runs and their order, reaching a target's frame. Must
//! not: decide how a violation is worded (steps/audit.rs does).

use super::bidi::{
    Bidi, CallFunction, Evaluate, LocalValue, RemoteValue, ResultOwnership, SerializationOptions,
    Target,
};
use super::{Page, SANDBOX};
use crate::error::{Error, Result};
use crate::wire::audit::{AuditNode, AuditRefsReply};
use serde_json::Value;
use std::time::{Duration, Instant};
use tracing::debug;

/// How long a frame's sandbox has to answer its first call before the frame is counted as
/// not checked (a frame that answers at all answers in milliseconds; one that does not
/// never will).
const FRAME_ANSWER: Duration = Duration::from_secs(5);

/// A `JSON.stringify` replacer that makes every string well-formed (a lone surrogate becomes
/// U+FFFD): the host's JSON is UTF-8 and refuses lone surrogate escapes.
const WELL_FORMED: &str = "function(k, v){ if (typeof v !== 'string') return v; \
     if (typeof v.toWellFormed === 'function') return v.toWellFormed(); \
     var o = ''; for (var i = 0; i < v.length; i++) { var c = v.charCodeAt(i); \
     if (c >= 0xD800 && c < 0xDC00 && (v.charCodeAt(i + 1) & 0xFC00) === 0xDC00) { o += v[i] + v[i + 1]; i++; } \
     else o += (c & 0xF800) === 0xD800 ? '\\uFFFD' : v[i]; } return o; }";

/// The vendored axe-core build.
const AXE_JS: &str = include_str!("../../js/vendor/axe-core/axe.min.js");

/// Its version, as its banner says (`/*! axe v4.14.1`).
pub fn axe_version() -> &'static str {
    AXE_JS
        .strip_prefix("/*! axe v")
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or("")
}

/// What axe-core found: its violations (`axe.finishRun`'s, as axe writes them) and how many
/// rules it could not decide (`incomplete`: to be checked by a person).
#[derive(Debug, Clone, Default)]
pub struct AxeRun {
    pub violations: Vec<Value>,
    pub incomplete: usize,
    /// Frames whose partial run failed (their elements are not checked).
    pub frames_failed: usize,
    /// Target path (frame selectors, JSON) -> the BiDi context of that frame.
    pub frames: Vec<(Vec<Value>, String)>,
}

/// Calls `function` with JSON-text arguments in the sandbox of `context` and returns the
/// string it returns (awaited), waiting up to `deadline` (the step's when None).
async fn call_text(
    bidi: &Bidi,
    context: &str,
    function: &str,
    args: &[String],
    deadline: Option<Duration>,
) -> Result<String> {
    let mut call = CallFunction::new(
        function,
        Target::sandbox(context, SANDBOX),
        args.iter().map(|a| LocalValue::string(a.clone())).collect(),
    );
    call.await_promise = true;
    call.result_ownership = Some(ResultOwnership::None);
    call.serialization_options = Some(SerializationOptions {
        max_dom_depth: Some(0),
        max_object_depth: Some(0),
        include_shadow_tree: None,
    });
    let reply = match deadline {
        Some(d) => bidi.send_within(&call, d).await?,
        None => bidi.send(&call).await?,
    };
    match reply.into_value()? {
        RemoteValue::String { value } => Ok(value),
        other => Err(Error::Engine(format!(
            "axe-core's call answered {other:?}, not text"
        ))),
    }
}

/// Loads axe-core into the sandbox of `context` unless this version is there. The first
/// call waits up to `answer` (None: the step's deadline).
async fn load(bidi: &Bidi, context: &str, answer: Option<Duration>) -> Result<()> {
    let have = call_text(
        bidi,
        context,
        "function(){ return typeof axe === 'object' && axe ? String(axe.version) : ''; }",
        &[],
        answer,
    )
    .await?;
    if have == axe_version() {
        return Ok(());
    }
    let mut e = Evaluate::new(
        &format!("{AXE_JS}\n;typeof axe === 'object' ? axe.version : ''"),
        Target::sandbox(context, SANDBOX),
    );
    e.await_promise = false;
    e.result_ownership = Some(ResultOwnership::None);
    bidi.send(&e).await?.into_value()?;
    Ok(())
}

/// axe-core's partial run in `context` (`frame_context`: the context its parent's
/// `getFrameContexts` gave, null for the top), as axe's JSON text (kept opaque: it may hold
/// lone surrogate escapes, and only `axe.finishRun` reads it), and the frames it found:
/// (frame selector, their context for axe).
async fn partial(
    bidi: &Bidi,
    context: &str,
    frame_context: &Value,
) -> Result<(String, Vec<(Value, Value)>)> {
    load(bidi, context, None).await?;
    // frames first, then a line break (JSON.stringify writes none), then the partial result
    let f = format!(
        "async function(c){{ var ctx = JSON.parse(c) || document; \
         var r = await axe.runPartial(ctx, {{}}); \
         var fr = axe.utils.getFrameContexts(ctx, {{}}); \
         return JSON.stringify(fr, {WELL_FORMED}) + '\\n' + JSON.stringify(r); }}"
    );
    let text = call_text(bidi, context, &f, &[frame_context.to_string()], None).await?;
    let (frames, result) = text.split_once('\n').unwrap_or((&text, "null"));
    let frames: Value = serde_json::from_str(frames).map_err(|source| Error::Json {
        what: "axe-core's frames",
        source,
    })?;
    let frames = frames
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| (f["frameSelector"].clone(), f["frameContext"].clone()))
        .collect();
    Ok((result.to_string(), frames))
}

/// The BiDi context of the frame element a frame selector names in `context`.
async fn frame_of(bidi: &Bidi, context: &str, selector: &Value) -> Option<String> {
    let f = "function(s){ var el = axe.utils.shadowSelect(JSON.parse(s)); \
             return el ? el.contentWindow : null; }";
    let call = CallFunction::new(
        f,
        Target::sandbox(context, SANDBOX),
        vec![LocalValue::string(selector.to_string())],
    );
    match bidi.send(&call).await.ok()?.into_value().ok()? {
        RemoteValue::Window(w) => Some(w.value.context),
        _ => None,
    }
}

/// Runs axe-core on the tab's document and every frame under it.
pub async fn run_axe(page: &Page, tab: &str) -> Result<AxeRun> {
    let bidi = page.bidi().ok_or_else(|| {
        Error::Usage("audit needs WebDriver BiDi (it runs axe-core in the engine's sandbox realm of every frame)".into())
    })?;
    let mut out = AxeRun::default();
    // each frame's partial result as axe's JSON text, "null" for a frame not checked
    let mut partials: Vec<String> = Vec::new();
    // depth first, parent before its frames (the order finishRun expects)
    // (a frame whose context could not be found or did not answer is None: its place gets a
    // null result)
    let mut todo: Vec<(Option<String>, Value, Vec<Value>)> =
        vec![(Some(tab.to_string()), Value::Null, vec![])];
    while let Some((ctx, fctx, path)) = todo.pop() {
        let Some(ctx) = ctx else {
            partials.push("null".into());
            out.frames_failed += 1;
            continue;
        };
        let t = Instant::now();
        let got = partial(bidi, &ctx, &fctx).await;
        debug!(frame = ?path, ms = t.elapsed().as_millis() as u64, ok = got.is_ok(), "axe partial run");
        match got {
            Ok((r, frames)) => {
                partials.push(r);
                out.frames.push((path.clone(), ctx.clone()));
                let children = children(bidi, &ctx, &path, frames).await;
                todo.extend(children.into_iter().rev());
            }
            Err(e) if path.is_empty() => return Err(e),
            Err(_) => {
                partials.push("null".into());
                out.frames_failed += 1;
            }
        }
    }
    // the partials go back as one JSON array of the texts axe wrote; the result comes well-formed
    let f = format!(
        "async function(p){{ var r = await axe.finishRun(JSON.parse(p), {{}}); \
         var v = r.violations.map(function(x){{ return {{id: x.id, impact: x.impact, tags: x.tags, help: x.help, \
         nodes: x.nodes.map(function(n){{ return {{target: n.target}}; }})}}; }}); \
         return JSON.stringify({{v: v, i: r.incomplete.length}}, {WELL_FORMED}); }}"
    );
    let all = format!("[{}]", partials.join(","));
    let (t, bytes) = (Instant::now(), all.len());
    let text = call_text(bidi, tab, &f, &[all], None).await?;
    debug!(ms = t.elapsed().as_millis() as u64, bytes, "axe finishRun");
    let v: Value = serde_json::from_str(&text).map_err(|source| Error::Json {
        what: "axe-core's results",
        source,
    })?;
    out.violations = v["v"].as_array().cloned().unwrap_or_default();
    out.incomplete = v["i"].as_u64().unwrap_or(0) as usize;
    Ok(out)
}

/// The frames of `ctx` axe found, each with its BiDi context if it answers within
/// [`FRAME_ANSWER`] (all asked at once, so frames that never answer cost that time once),
/// its context for axe and its target path.
async fn children(
    bidi: &Bidi,
    ctx: &str,
    path: &[Value],
    frames: Vec<(Value, Value)>,
) -> Vec<(Option<String>, Value, Vec<Value>)> {
    let mut out = Vec::new();
    for (sel, fc) in frames {
        let mut p = path.to_vec();
        p.push(sel.clone());
        out.push((frame_of(bidi, ctx, &sel).await, fc, p));
    }
    let answers = futures_util::future::join_all(out.iter().map(|(c, _, _)| async move {
        match c {
            Some(c) => load(bidi, c, Some(FRAME_ANSWER)).await.is_ok(),
            None => false,
        }
    }))
    .await;
    for ((c, _, p), ok) in out.iter_mut().zip(answers) {
        if !ok {
            debug!(frame = ?p, "a frame's sandbox did not answer: not checked");
            *c = None;
        }
    }
    out
}

/// The engine's names (ref, role, name) of the elements of `targets` (axe-core targets),
/// asked in the tab's document (same-origin frames are entered there), and for a target
/// inside a cross-origin frame, in that frame's document.
pub async fn name_targets(page: &Page, run: &AxeRun, targets: &[Value]) -> Vec<AuditNode> {
    let Some(bidi) = page.bidi() else {
        return vec![AuditNode::default(); targets.len()];
    };
    let top = run.frames.first().map(|f| f.1.clone()).unwrap_or_default();
    let t = Instant::now();
    let mut out = engine_names(bidi, &top, targets).await;
    debug!(
        ms = t.elapsed().as_millis() as u64,
        targets = targets.len(),
        "audit refs"
    );
    for (i, n) in out.iter_mut().enumerate() {
        let Some(at) = n.cross_at else { continue };
        let Some(path) = targets[i].as_array() else {
            continue;
        };
        let frame_path = &path[..at.min(path.len())];
        let Some((_, ctx)) = run.frames.iter().find(|(p, _)| p.as_slice() == frame_path) else {
            continue;
        };
        let rest = Value::Array(path[at.min(path.len())..].to_vec());
        if let Some(found) = engine_names(bidi, ctx, &[rest]).await.pop() {
            *n = found;
        }
    }
    out
}

/// `auditRefs` of the engine in the sandbox of `context`.
async fn engine_names(bidi: &Bidi, context: &str, targets: &[Value]) -> Vec<AuditNode> {
    let args = serde_json::json!({ "targets": targets }).to_string();
    let f = "function(a){ var r = window.__ariaRefs; \
             return r && typeof r.call === 'function' ? r.call('auditRefs', a) : '{}'; }";
    let reply = call_text(bidi, context, f, &[args], None).await.ok();
    let parsed: Option<AuditRefsReply> = reply.and_then(|t| super::reply::decode(&t).ok());
    match parsed {
        Some(r) if r.nodes.len() == targets.len() => r.nodes,
        _ => vec![AuditNode::default(); targets.len()],
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_vendored_axe_says_its_version() {
        assert_eq!(super::axe_version(), "4.14.1");
        // the version pinned for the bench and the updater is the one vendored
        let pins = include_str!("../../scripts/npm-pins.sh");
        assert!(pins.contains("AXE_CORE=4.14.1"), "scripts/npm-pins.sh");
    }
}
