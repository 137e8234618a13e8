//! Running the step vocabulary of issue 16 (`submit`, `selectText`, `waitForNavigation`,
//! `fill`'s fields map, `poll`, `queryAll`, `inspect`) and the step hooks (`readyWhen`,
//! `settledWhen`, `observe`).
//!
//! Owns: polling page functions from the host (tokio's timers: a page that replaced or
//! froze its own `setTimeout` cannot stop it), telling documents apart for navigations,
//! and these steps' outputs. Must not: reach the page other than through `engine` (typed
//! methods, and `evaluate_user` for page functions, which run in the page's main world like
//! `eval` steps, SPEC 7).

use super::vocab::{PollArgs, poll_script, truthy};
use super::{FillArgs, InspectArgs, QueryAllArgs, SelectTextArgs, Step, SubmitArgs};
use super::{WaitForNavigationArgs, runner::RunOptions};
use crate::actions::{self, Outcome, ask};
use crate::browser::Browser;
use crate::engine::{Method, QueryGroup};
use crate::error::{Error, Result};
use crate::refs::parse_ref;
use crate::snapshot::render::cut;
use crate::snapshot::safe::quote;
use crate::wire::{
    DocStateReply, InspectReply, Named, QueryAllReply, SelectTextReply, SubmitReply,
};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// What a wait may take of the step's deadline: it keeps 500 ms (a quarter of short
/// deadlines) for the rest of the step, so that the wait's own message (not the deadline's)
/// is the one reported.
fn within(deadline: Duration) -> Duration {
    deadline.saturating_sub(Duration::from_millis(500).min(deadline / 4))
}
/// The default limit of `readyWhen` and `settledWhen`.
const HOOK_LIMIT: Duration = Duration::from_secs(10);
/// How long `submit` waits for the page a navigating form loads.
const SUBMIT_NAV_LIMIT: Duration = Duration::from_secs(10);

/// Which document a tab shows: its time origin (a new document has another) and URL.
#[derive(Debug, Clone, PartialEq)]
pub struct DocMark {
    pub origin: f64,
    pub url: String,
}

fn out(v: Value) -> Outcome {
    Outcome {
        output: Some(v),
        ..Outcome::default()
    }
}

/// `role "name" (ref)` of an element named in a reply.
fn named(n: &Named) -> String {
    let r = n
        .r#ref
        .as_deref()
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    format!("{} {}{r}", n.role, quote(&n.name))
}

// ---- page functions: poll and the hooks ----

/// One run of `src` in the page: its value, or what it threw. A script that cannot run at
/// all (a syntax error) is an error.
async fn run_once(b: &Browser, src: &str) -> Result<std::result::Result<Value, String>> {
    let v = crate::engine::evaluate_user(&b.client, &poll_script(src)).await?;
    if let Some(t) = v.get("threw") {
        return Ok(Err(t.as_str().unwrap_or_default().to_string()));
    }
    Ok(Ok(v.get("ok").cloned().unwrap_or(Value::Null)))
}

/// A successful poll.
struct Polled {
    value: Value,
    attempts: u32,
    ms: u64,
}

/// Why a poll ended without a truthy value.
enum PollEnd {
    Timeout { attempts: u32, last: String },
    Failed(Error),
}

/// Runs `p.fn` every `p.interval` ms (default 100) until it returns a truthy value or
/// `limit` passes. Values that are falsy, throws and page reloads in between count as
/// "not yet"; a function that does not run at its first attempt (a syntax error) ends it.
async fn poll_until(
    b: &Browser,
    p: &PollArgs,
    limit: Duration,
    what: &str,
) -> std::result::Result<Polled, PollEnd> {
    let interval = Duration::from_millis(p.interval.unwrap_or(100).max(1));
    let start = Instant::now();
    let mut attempts = 0;
    let mut last;
    loop {
        attempts += 1;
        match run_once(b, &p.fn_).await {
            Ok(Ok(v)) if truthy(&v) => {
                return Ok(Polled {
                    value: v,
                    attempts,
                    ms: start.elapsed().as_millis() as u64,
                });
            }
            Ok(Ok(v)) => last = cut(&v.to_string(), 100),
            Ok(Err(threw)) => last = format!("threw {}", quote(&cut(&threw, 200))),
            Err(e @ Error::Step(_)) if attempts == 1 => {
                return Err(PollEnd::Failed(Error::Step(format!(
                    "{what}: the function {} does not run in the page: {}",
                    quote(&cut(&p.fn_, 80)),
                    crate::error::one_line(&e.to_string())
                ))));
            }
            Err(e) if e.is_browser() || e.is_timeout() => return Err(PollEnd::Failed(e)),
            Err(e) => {
                // a navigation or a dialog in between: answered, then tried again
                last = cut(&crate::error::one_line(&e.to_string()), 200);
                actions::handle_dialogs(b).await;
            }
        }
        if start.elapsed() + interval > limit {
            return Err(PollEnd::Timeout { attempts, last });
        }
        tokio::time::sleep(interval).await;
    }
}

/// `poll`: the truthy value, how many attempts it took and how long.
pub async fn poll(b: &Browser, p: &PollArgs, opts: &RunOptions) -> Result<Outcome> {
    let cap = within(opts.timeout);
    let limit = p.timeout.map(Duration::from_millis).unwrap_or(cap).min(cap);
    match poll_until(b, p, limit, "poll").await {
        Ok(r) => Ok(out(
            json!({"value": r.value, "attempts": r.attempts, "ms": r.ms}),
        )),
        Err(PollEnd::Timeout { attempts, last }) => Err(Error::Timeout(format!(
            "poll: {} stayed falsy for {} ms ({attempts} attempts; last value: {last})",
            quote(&cut(&p.fn_, 80)),
            limit.as_millis()
        ))),
        Err(PollEnd::Failed(e)) => Err(e),
    }
}

fn hook_limit(p: &PollArgs, remaining: Duration) -> Duration {
    p.timeout
        .map(Duration::from_millis)
        .unwrap_or(HOOK_LIMIT)
        .min(within(remaining))
}

/// `readyWhen`: polled before the action; when it stays falsy the step fails (exit 4)
/// and the action does not run.
pub async fn ready_when(b: &Browser, p: &PollArgs, remaining: Duration) -> Result<()> {
    let limit = hook_limit(p, remaining);
    match poll_until(b, p, limit, "readyWhen").await {
        Ok(_) => Ok(()),
        Err(PollEnd::Timeout { attempts, last }) => Err(Error::Timeout(format!(
            "readyWhen {} stayed falsy for {} ms ({attempts} attempts; last value: {last}): \
             the action did not run",
            quote(&cut(&p.fn_, 80)),
            limit.as_millis()
        ))),
        Err(PollEnd::Failed(e)) => Err(e),
    }
}

/// `settledWhen`: polled after the action; a warning when it stays falsy (the action
/// happened all the same).
pub async fn settled_when(b: &Browser, p: &PollArgs, remaining: Duration) -> Option<String> {
    let limit = hook_limit(p, remaining);
    match poll_until(b, p, limit, "settledWhen").await {
        Ok(_) => None,
        Err(PollEnd::Timeout { attempts, last }) => Some(format!(
            "settledWhen {} stayed falsy for {} ms ({attempts} attempts; last value: {last}): \
             the page may not have settled",
            quote(&cut(&p.fn_, 80)),
            limit.as_millis()
        )),
        Err(PollEnd::Failed(e)) => Some(e.to_string()),
    }
}

/// `observe`: the value of the function after the action (the step's `observation`), or
/// why there is none (a warning).
pub async fn observe(b: &Browser, p: &PollArgs) -> std::result::Result<Value, String> {
    match run_once(b, &p.fn_).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(threw)) => Err(format!("observe threw: {}", cut(&threw, 300))),
        Err(e) => Err(format!(
            "observe failed: {}",
            crate::error::one_line(&e.to_string())
        )),
    }
}

/// What the hooks after an action gave: the observation and warnings.
#[derive(Default)]
pub struct HookResults {
    pub observation: Option<Value>,
    pub warnings: Vec<String>,
}

/// `settledWhen` (a warning when it stays falsy), then `observe`.
pub async fn after_hooks(b: &Browser, step: &Step, remaining: Duration) -> HookResults {
    let mut h = HookResults::default();
    if let Some(p) = &step.hooks.settled_when {
        h.warnings.extend(settled_when(b, p, remaining).await);
    }
    if let Some(p) = &step.hooks.observe {
        match observe(b, p).await {
            Ok(v) => h.observation = Some(v),
            Err(w) => h.warnings.push(w),
        }
    }
    h
}

// ---- documents and navigations ----

/// Which document the tab shows now, retried through a navigation in flight.
async fn doc_state(b: &Browser, limit: Duration) -> Result<DocStateReply> {
    let start = Instant::now();
    loop {
        match ask::<DocStateReply>(b, Method::DocState).await {
            Ok(s) => return Ok(s),
            Err(e) if e.is_browser() || start.elapsed() >= limit => return Err(e),
            Err(_) => {
                actions::handle_dialogs(b).await;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

fn strip_hash(u: &str) -> &str {
    u.split('#').next().unwrap_or(u)
}

/// Whether a ready state is as far as `until` asks (HTML's document readiness: loading,
/// interactive = DOMContentLoaded, complete = load).
fn reached(ready: &str, until: &str) -> bool {
    match until {
        "commit" => true,
        "domcontentloaded" => ready == "interactive" || ready == "complete",
        _ => ready == "complete",
    }
}

/// Waits until the tab shows another document than `mark` (or another URL: a same-document
/// navigation) that is as ready as `until` asks; with `loading`, the document shown now
/// counts as the new one (a navigation committed before the wait began).
async fn new_document(
    b: &Browser,
    mark: &DocMark,
    until: &str,
    loading: bool,
    limit: Duration,
) -> std::result::Result<DocStateReply, (Error, String)> {
    let start = Instant::now();
    let mut now = mark.url.clone();
    loop {
        match ask::<DocStateReply>(b, Method::DocState).await {
            Ok(s) => {
                let changed = loading
                    || s.origin != mark.origin
                    || strip_hash(&s.url) != strip_hash(&mark.url);
                if changed && reached(&s.ready, until) {
                    return Ok(s);
                }
                now = s.url;
            }
            Err(e) if e.is_browser() => return Err((e, now)),
            // between documents: the old one is gone, the new one not answering yet
            Err(_) => actions::handle_dialogs(b).await,
        }
        if start.elapsed() >= limit {
            return Err((
                Error::Timeout(format!("no new page within {} ms", limit.as_millis())),
                now,
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `waitForNavigation`: the navigation an earlier action of this run started (`prev` is the
/// document shown when that action began: a navigation already finished counts), or one
/// that starts within the limit; then until the new document is loaded (`waitUntil`).
pub async fn wait_for_navigation(
    b: &Browser,
    a: &WaitForNavigationArgs,
    opts: &RunOptions,
    prev: Option<DocMark>,
) -> Result<Outcome> {
    let t0 = Instant::now();
    let until = a.wait_until.as_deref().unwrap_or("load");
    let cap = within(opts.timeout);
    let limit = a.timeout.map(Duration::from_millis).unwrap_or(cap).min(cap);
    let (mark, loading) = match prev {
        Some(m) => (m, false),
        None => {
            let s = doc_state(b, limit).await?;
            let loading = s.ready != "complete";
            (
                DocMark {
                    origin: s.origin,
                    url: s.url,
                },
                loading,
            )
        }
    };
    match new_document(b, &mark, until, loading, limit.saturating_sub(t0.elapsed())).await {
        Ok(s) => Ok(out(json!({
            "url": s.url,
            "ready": s.ready,
            "waited_ms": t0.elapsed().as_millis() as u64,
        }))),
        Err((e, _)) if !e.is_timeout() => Err(e),
        Err((_, now)) => Err(Error::Timeout(format!(
            "no navigation within {} ms: the page is still {} (waitForNavigation waits for a \
             navigation started by an earlier step of this run or during the wait; wait \
             {{\"url\": \"...\"}} waits for a URL)",
            limit.as_millis(),
            quote(&now)
        ))),
    }
}

// ---- acting and reading ----

/// `submit`: the browser's validation of the form, then a user's submission
/// (`requestSubmit`) and the page it loads. An invalid form is not submitted: the step
/// fails with each invalid field's message (and the fields in its output), since what
/// follows a submit assumes it happened.
pub async fn submit(b: &mut Browser, a: &SubmitArgs, opts: &RunOptions) -> Result<Outcome> {
    let r#ref = a.ref_.as_deref().map(parse_ref).transpose()?;
    let cap = within(opts.timeout);
    let before = doc_state(b, cap).await?;
    let n = b.next_snapshot()?;
    let sub = Method::Submit {
        r#ref,
        selector: a.selector.clone(),
        n,
        report: a.report_validity,
    };
    let r: SubmitReply = ask(b, sub).await?;
    if !r.valid {
        let fields: Vec<String> = r
            .invalid
            .iter()
            .map(|f| {
                format!(
                    "{}: {}",
                    named(f),
                    quote(f.message.as_deref().unwrap_or_default())
                )
            })
            .collect();
        let count = fields.len();
        return Err(Error::StepOutput {
            message: format!(
                "{} was not submitted: {count} invalid field{}: {}",
                named(&r.form),
                if count == 1 { "" } else { "s" },
                fields.join("; ")
            ),
            output: Box::new(json!({
                "submitted": false, "valid": false, "form": r.form, "invalid": r.invalid,
            })),
        });
    }
    let mut o = json!({"submitted": true, "valid": true, "form": r.form});
    if !r.submitted {
        // a submit handler called preventDefault: the page handles the data itself
        o["handledByPage"] = json!(true);
    }
    let mut warnings = vec![];
    if r.novalidate {
        warnings.push("the form has novalidate: the browser did not check its fields".into());
    }
    if r.navigating {
        let mark = DocMark {
            origin: before.origin,
            url: before.url,
        };
        match new_document(b, &mark, "load", false, SUBMIT_NAV_LIMIT.min(cap)).await {
            Ok(s) => o["url"] = json!(s.url),
            Err((e, _)) if !e.is_timeout() => return Err(e),
            Err(_) => warnings.push(format!(
                "the form was submitted, but no new page loaded within {} ms",
                SUBMIT_NAV_LIMIT.min(cap).as_millis()
            )),
        }
    }
    Ok(Outcome {
        output: Some(o),
        warnings,
        stats: None,
    })
}

/// `selectText`: the selected text and its offsets.
pub async fn select_text(b: &Browser, a: &SelectTextArgs) -> Result<Outcome> {
    let m = Method::SelectText {
        r#ref: parse_ref(&a.ref_)?,
        start: a.start,
        end: a.end,
    };
    let r: SelectTextReply = ask(b, m).await?;
    Ok(out(
        json!({"selected": r.text, "start": r.start, "end": r.end, "length": r.length}),
    ))
}

/// `fill`: one field (clear and type), or a map of fields, each set like `set` with its
/// value read back; every field is tried, and one that fails fails the step with every
/// field's result in its output.
pub async fn fill(b: &Browser, f: &FillArgs) -> Result<Outcome> {
    let fields = match (&f.ref_, &f.value, &f.fields) {
        (Some(r), Some(v), None) => return actions::fill(b, r, v).await,
        (None, None, Some(m)) => m,
        _ => {
            return Err(Error::Usage(
                "fill takes a ref and a value, or --fields with a JSON object of refs and values"
                    .into(),
            ));
        }
    };
    let mut results = Vec::new();
    let mut failed = Vec::new();
    let mut warnings = Vec::new();
    for (r, v) in fields {
        match actions::set(b, r, v).await {
            Ok(o) => {
                let value = o
                    .output
                    .as_ref()
                    .and_then(|x| x.get("value"))
                    .cloned()
                    .unwrap_or(Value::Null);
                results.push(json!({"ref": r, "ok": true, "value": value}));
                warnings.extend(o.warnings);
            }
            Err(e) if e.is_browser() || e.is_timeout() => return Err(e),
            Err(e) => {
                failed.push(format!("{r}: {}", crate::error::one_line(&e.to_string())));
                results.push(json!({"ref": r, "ok": false, "error": e.to_string()}));
            }
        }
    }
    let output = json!({
        "fields": results,
        "filled": fields.len() - failed.len(),
        "failed": failed.len(),
    });
    if failed.is_empty() {
        return Ok(Outcome {
            output: Some(output),
            warnings,
            stats: None,
        });
    }
    Err(Error::StepOutput {
        message: format!(
            "fill: {} of {} fields failed: {}",
            failed.len(),
            fields.len(),
            failed.join("; ")
        ),
        output: Box::new(output),
    })
}

/// `queryAll`: per group, its matches (with refs) and total.
pub async fn query_all(b: &mut Browser, q: &QueryAllArgs) -> Result<Outcome> {
    let groups: Vec<QueryGroup> = q
        .queries
        .0
        .iter()
        .map(|(label, s)| QueryGroup {
            label: label.clone(),
            role: s.role.clone(),
            name: s.name.clone(),
            exact: s.exact,
            selector: s.selector.clone(),
            limit: s.limit.or(q.limit).unwrap_or(10),
        })
        .collect();
    let n = b.next_snapshot()?;
    let r: QueryAllReply = ask(b, Method::QueryAll { groups, n }).await?;
    let mut o = serde_json::Map::new();
    for g in r.groups {
        if let Some(e) = g.error {
            let sel = q
                .queries
                .0
                .iter()
                .find(|(l, _)| *l == g.label)
                .and_then(|(_, s)| s.selector.clone())
                .unwrap_or_default();
            return Err(Error::Usage(format!(
                "queryAll query {}: {e} {}",
                quote(&g.label),
                quote(&sel)
            )));
        }
        o.insert(g.label, json!({"total": g.total, "matches": g.matches}));
    }
    Ok(out(Value::Object(o)))
}

/// `inspect`: the page's map.
pub async fn inspect(b: &Browser, a: &InspectArgs) -> Result<Outcome> {
    let m = Method::Inspect {
        selectors: a.selectors.clone(),
    };
    let r: InspectReply = ask(b, m).await?;
    Ok(out(serde_json::to_value(r).unwrap_or(Value::Null)))
}
