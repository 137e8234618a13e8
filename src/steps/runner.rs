//! Running a step file: validated steps in order in one session, each timed, stopping at
//! the first failing required step; each step's action runs its declaration (`Act::run`).
//!
//! Owns: the run result and the dispatch. Must not: parse files (parse.rs), render trees
//! (snapshot/), or compose the reply after actions (reply.rs, changes/).

use super::act::{Cx, Gate};
use super::action::{Action, Step, StepFile};
use super::options::RunOptions;
use super::reply::{Baseline, changes_of, take_baseline};
use super::result::{RunResult, StepResult};
use super::waiting::{HookResults, after_hooks, ready_when};
use crate::actions;
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::engine::entry;
use crate::error::{Error, Result};
use crate::policy::Switch;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// What comes before a step's action: the policy's refusal, then its `readyWhen` hook.
async fn before_step(b: &Browser, step: &Step, remaining: Duration) -> Result<()> {
    policy_gate(b, step).await?;
    match &step.hooks.ready_when {
        Some(h) => ready_when(b, h, remaining).await,
        None => Ok(()),
    }
}

/// Refuses a step the operator's policy turns off (docs/reference/policy.md#actions-off),
/// before anything of it runs: scripts of the agent (`eval`, `poll`, a step's hooks),
/// uploads, and a new tab on another origin than the current tab's. (Password fields are
/// refused by the actions that type, which know the field; origins by `goto` and the
/// guard.)
async fn policy_gate(b: &Browser, step: &Step) -> Result<()> {
    let Some(p) = b.policy() else {
        return Ok(());
    };
    let name = step.action.name();
    match step.action.gate() {
        Gate::Open => {}
        Gate::Off(switch) => p.check(switch, name)?,
        Gate::NewTab(u) if !p.allows(Switch::ForeignTabs) => {
            let to = crate::browser::guard::origin_of(&crate::browser::normalize_url(u)?);
            let from = crate::browser::guard::origin_of(&b.url().await);
            // from a blank tab (an opaque origin) there is nothing to leave
            if to != from && from != "null" && !from.is_empty() {
                return Err(crate::error::Error::Policy(format!(
                    "newTab {u}: a new tab on another origin ({to}) than the current tab's ({from}) (--deny foreignTabs)"
                )));
            }
        }
        Gate::NewTab(_) => {}
    }
    if !step.hooks.is_empty() {
        p.check(
            Switch::Eval,
            &format!("{name}'s readyWhen / settledWhen / observe hooks"),
        )?;
    }
    Ok(())
}

/// A step's work within its deadline, unless the caller gives up first (opts.cancel): its
/// outcome, or the error of the cut (a timeout; a step error when cancelled), where the
/// step stopped.
async fn bounded<O, E>(
    opts: &RunOptions,
    work: impl std::future::Future<Output = (Result<O>, Option<E>)>,
) -> (Result<O>, Option<E>) {
    tokio::select! {
        biased;
        _ = opts.until_cancelled() => (Err(Error::Step(
            "cancelled by the client (it gave up on the call): this step stopped part way and the steps after it did not run".into(),
        )), None),
        r = tokio::time::timeout(opts.timeout, work) => r.unwrap_or_else(|_| (
            Err(Error::Timeout(format!(
                "step took over {} ms (the step's deadline: --timeout, or \"timeout\" in the step file)",
                opts.timeout.as_millis()
            ))),
            None,
        )),
    }
}

/// Settles after `action`, a step that may change the page (docs/reference/replies.md#settling):
/// on the work its input or script started (`work`: the run's token for the page's work
/// hook; an `eval` that started nothing is settled at once), on the start-up work of the
/// document a navigation of the agent's loaded, or, for the other steps that may change the
/// page, on its quiet.
async fn settle_step(
    b: &Browser,
    action: &Action,
    work: Option<&str>,
    tail: Option<(Instant, Duration)>,
    max: Duration,
    events: Option<&mut crate::engine::bidi::Events>,
) {
    match work {
        Some(token) => {
            let script = matches!(action, Action::Eval(_));
            actions::settle_action(b, token, tail, max, events, script).await;
        }
        // a navigation of the agent's settles on the document it loaded
        None if matches!(
            action,
            Action::Goto(_) | Action::Reload(_) | Action::Back(_) | Action::Forward(_)
        ) =>
        {
            actions::settle_loaded(b, tail, max).await
        }
        None => actions::settle(b, 120.0, tail, max).await,
    }
}

/// Runs one step within its deadline (the viewport baseline, the step, settling); returns
/// its result and, when it failed, the exit code it stands for. A step the operator's rules
/// ask a person about waits for the answer first, outside its deadline (steps/consent.rs).
async fn run_one(
    b: &mut Browser,
    step: &Step,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
    base: &mut Baseline,
) -> (StepResult, Option<i32>) {
    if let Err(e) = super::consent::gate(b, step, opts).await {
        let dialogs = crate::dialogs::drain()
            .into_iter()
            .map(|d| json!(d))
            .collect();
        return finish(b, step, Err(e), None, HookResults::default(), dialogs, 0).await;
    }
    let t0 = Instant::now();
    let remaining = || opts.timeout.saturating_sub(t0.elapsed());
    let mut hooked = HookResults::default();
    let (mut r, effects) = bounded(opts, async {
        if let Err(e) = before_step(b, step, remaining()).await {
            return (Err(e), None);
        }
        let acts = step.action.modifies_page();
        if acts && step.action.is_visual() && base.before.is_none() {
            // what touches the page is recorded from before the diff's baseline on
            crate::engine::work_begin(&b.page, &base.work, true, false).await;
        }
        take_baseline(b, step, base).await;
        let watch = if acts {
            Some(super::effects::before(b).await)
        } else {
            None
        };
        // the document the previous action began on (waitForNavigation); this one's next
        let prev_doc = base.doc.clone();
        if let Some(w) = &watch {
            base.doc = Some(w.mark());
        }
        // docs/reference/replies.md#settling: the work input or the agent's script starts is
        // the action's; navigations settle on the new document's start-up work
        let follows = matches!(step.action, Action::Eval(_))
            || (step.action.is_visual() && !matches!(step.action, Action::Goto(_)));
        if follows {
            crate::engine::work_begin(&b.page, &base.work, false, true).await;
        }
        let acted_at = Instant::now();
        let mut cx = Cx {
            b: &mut *b,
            opts,
            artifacts: &mut *artifacts,
            prev_doc,
        };
        let r = step.action.run(&mut cx).await;
        let mut effects = None;
        let mut watch = watch;
        // a step cut at its deadline is not waited for; one refused before it touched the
        // page has nothing to wait for
        if acts
            && !r
                .as_ref()
                .is_err_and(|e| e.is_timeout() || e.left_page_alone())
        {
            let _ = ask(b, entry::Invalidate {}).await;
            let tail = step.action.tail().map(|min| (acted_at, min));
            let max = opts.settle_max.min(remaining());
            let events = watch.as_mut().and_then(|w| w.events());
            let work = follows.then_some(base.work.as_str());
            settle_step(b, &step.action, work, tail, max, events).await;
            if let Some(w) = watch {
                let e = super::effects::after(b, w, opts.output.artifacts.as_deref()).await;
                artifacts.extend(e.download.iter().filter_map(|d| d.path.clone()));
                effects = Some(e).filter(|e| !e.is_empty());
            }
        }
        if r.is_ok() {
            hooked = after_hooks(b, &step.hooks, remaining()).await;
        }
        (r, effects)
    })
    .await;
    if r.as_ref().is_err_and(Error::is_timeout) || opts.cancelled() {
        // cut part way: the page may still be busy with it (the next command checks it)
        b.mark_suspect();
    }
    // a download the page started that no question covered is asked about now
    let files: Vec<String> = effects
        .iter()
        .flat_map(|e| e.download.iter().filter_map(|d| d.path.clone()))
        .collect();
    if r.is_ok()
        && let Err(e) = super::consent::after_downloads(b, step, &files, opts).await
    {
        artifacts.retain(|a| !files.contains(a));
        r = Err(e);
    }
    if let Ok(o) = &r
        && step.action.is_visual()
    {
        base.note_visual(&step.action, o);
    }
    let dialogs: Vec<Value> = crate::dialogs::drain()
        .into_iter()
        .map(|d| json!(d))
        .collect();
    let ms = t0.elapsed().as_millis() as u64;
    finish(b, step, r, effects, hooked, dialogs, ms).await
}

/// A step's result from its outcome (the browser's crash checked first).
async fn finish(
    b: &mut Browser,
    step: &Step,
    r: Result<Outcome>,
    effects: Option<super::effects::Effects>,
    hooked: HookResults,
    dialogs: Vec<Value>,
    ms: u64,
) -> (StepResult, Option<i32>) {
    match b.crash_guard(r).await {
        Ok(o) => {
            let mut warnings = o.warnings;
            warnings.extend(hooked.warnings);
            (
                StepResult {
                    action: step.action.name().into(),
                    status: "ok".into(),
                    ms,
                    output: o.output,
                    warning: if warnings.is_empty() {
                        None
                    } else {
                        Some(warnings.join(" "))
                    },
                    error: None,
                    dialogs,
                    stats: o.stats,
                    effects,
                    observation: hooked.observation,
                    healed: None,
                },
                None,
            )
        }
        Err(e) => {
            let code = match e.exit_code() {
                0 => 1,
                c => c,
            };
            // what the step did before it failed (each field of a form, of a fill)
            let output = match &e {
                Error::StepOutput { output, .. } => Some((**output).clone()),
                _ => None,
            };
            (
                StepResult {
                    effects,
                    output,
                    ..StepResult::failed(step.action.name(), ms, &e, dialogs)
                },
                Some(code),
            )
        }
    }
}

/// A step's target before it runs: its locator resolved (its `readyWhen` first, within the
/// step's deadline; healed unless `strict`) into a step on that ref; a drag's locator ends
/// likewise; a wait's locator handed to the wait, which polls it (it may not match yet).
async fn locate_step(
    b: &mut Browser,
    step: &Step,
    opts: &RunOptions,
) -> Result<Option<(Step, Option<String>)>> {
    use super::moving::DragEnd;
    let ends: Vec<super::locate::Locator> = match &step.action {
        Action::Drag(d) => [&d.from, &d.to]
            .into_iter()
            .filter_map(|e| match e {
                DragEnd::Locator(l) => Some(l.clone()),
                _ => None,
            })
            .collect(),
        _ => vec![],
    };
    let words = match (&step.target, ends.first()) {
        (Some(l), _) | (None, Some(l)) => l.words(),
        (None, None) => return Ok(None),
    };
    let work = async {
        before_step(b, step, opts.timeout).await?;
        let mut s = step.clone();
        s.hooks.ready_when = None;
        let mut healed = Vec::new();
        if let Some(loc) = s.target.take() {
            if let Action::Wait(w) = &mut s.action {
                w.ref_ = None;
                w.locator = Some(loc);
            } else {
                let r = super::locate::resolve(b, &loc, !opts.strict).await?;
                s.action.set_target_ref(r.r#ref);
                healed.extend(r.healed);
            }
        }
        if let Action::Drag(d) = &mut s.action {
            for end in [&mut d.from, &mut d.to] {
                if let DragEnd::Locator(loc) = end {
                    let r = super::locate::resolve(b, loc, !opts.strict).await?;
                    healed.extend(r.healed);
                    *end = DragEnd::Ref(r.r#ref);
                }
            }
        }
        let healed = (!healed.is_empty()).then(|| healed.join("; "));
        Ok::<_, Error>(Some((s, healed)))
    };
    tokio::time::timeout(opts.timeout, work)
        .await
        .unwrap_or_else(|_| {
            Err(Error::Timeout(format!(
                "locating {words} took over {} ms (the step's deadline)",
                opts.timeout.as_millis()
            )))
        })
}

/// One step of a run with its locator: resolved first (a failure is the step's), run on
/// the ref it names, healing said in the step and a note; then the journal's line.
async fn located_step(
    b: &mut Browser,
    step: &Step,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
    base: &mut Baseline,
    k: usize,
) -> (StepResult, Option<i32>) {
    let t0 = Instant::now();
    let located = match locate_step(b, step, opts).await {
        Ok(l) => l,
        Err(e) => {
            let ms = t0.elapsed().as_millis() as u64;
            let res = StepResult::failed(step.action.name(), ms, &e, vec![]);
            if opts.journal {
                super::journal::record(b, step, &Default::default(), &res);
            }
            return (res, Some(e.exit_code()));
        }
    };
    let (step, healed) = match &located {
        Some((s, h)) => (s, h.clone()),
        None => (step, None),
    };
    // the journal's locators of the targets, taken before the action changes the page
    let seen = if opts.journal {
        super::journal::seen(b, &step.action).await
    } else {
        Default::default()
    };
    let located_ms = t0.elapsed().as_millis() as u64;
    let (mut res, err) = run_one(b, step, opts, artifacts, base).await;
    // the step's time includes finding its target
    res.ms += located_ms;
    if let Some(h) = &healed {
        b.notes
            .push(format!("step {k} ({}): {h}", step.action.name()));
        res.healed = healed.clone();
    }
    if opts.journal {
        super::journal::record(b, step, &seen, &res);
    }
    (res, err)
}

/// Runs a step file in the session.
pub async fn run(b: &mut Browser, file: &StepFile, opts: &RunOptions) -> RunResult {
    let mut opts = opts.clone();
    if let Some(t) = file.timeout {
        opts.timeout = Duration::from_millis(t.max(1));
    }
    // the driver never waits on a page longer than a step may
    b.timeout = opts.timeout;
    let _ = b.driver_timeouts(opts.timeout).await;
    let mut results = Vec::new();
    let mut artifacts = Vec::new();
    let mut failed: Option<i32> = None;
    if let Err(e) = b.use_tab(file.tab.as_deref()).await {
        failed = Some(e.exit_code());
        results.push(StepResult::failed("tab", 0, &e, vec![]));
    }
    let mut base = Baseline {
        before: None,
        start_url: None,
        last_verb: None,
        last_detail: None,
        last_target: None,
        to_focused: false,
        doc: None,
        work: uuid::Uuid::new_v4().simple().to_string(),
    };
    for step in &file.steps {
        if failed.is_none() && b.record.suspect.is_some() {
            // an earlier (optional) step ran out of time: is the page still answering?
            if let Err(e) = b.check_suspect().await {
                failed = Some(e.exit_code());
            }
        }
        if failed.is_none() && opts.cancelled() {
            // (an optional step cut by the cancel does not let the next ones run)
            failed = Some(1);
        }
        if failed.is_some() {
            results.push(StepResult::skipped(step.action.name()));
            continue;
        }
        let (res, err) =
            located_step(b, step, &opts, &mut artifacts, &mut base, results.len() + 1).await;
        if let Some(code) = err.filter(|_| !step.optional) {
            failed = Some(code);
        }
        results.push(res);
    }
    note_refusals(b);
    if b.record.suspect.is_some() {
        // the last step ran out of time: the page may not answer; read nothing more from it
        // (the next command checks the tab and replaces it if need be)
        return RunResult {
            status: "error".into(),
            tab: b.tab().to_string(),
            steps: results,
            changes: None,
            context: stuck_context(b).await,
            artifacts,
            notes: std::mem::take(&mut b.notes),
            exit_code: failed.unwrap_or(4),
        };
    }
    // what changed and where the tab is now, within one more step deadline
    let tail = tokio::time::timeout(opts.timeout, async {
        let (changes, here) = changes_of(b, &base, &results).await;
        (changes, here_context(&here))
    })
    .await;
    let (changes, context) = match tail {
        Ok(t) => t,
        Err(_) => {
            b.mark_suspect();
            (None, stuck_context(b).await)
        }
    };
    if opts.journal {
        super::journal::record_changes(b, changes.as_ref(), &context);
    }
    said_once(&mut results, &context);
    // a run that never loaded a page on the session it started (a mistyped --session?)
    if b.started && context["url"].as_str() == Some("about:blank") {
        b.note_blank_start();
    }
    RunResult {
        status: if failed.is_some() {
            "error".into()
        } else {
            "ok".into()
        },
        tab: b.tab().to_string(),
        steps: results,
        changes,
        context,
        artifacts,
        notes: std::mem::take(&mut b.notes),
        exit_code: failed.unwrap_or(0),
    }
}

/// A navigation's URL is said once in a reply (docs/reference/replies.md#navigation-and-new-tabs):
/// a step's navigation to where the run ended leaves it to `context.url`.
fn said_once(results: &mut [StepResult], context: &Value) {
    let Some(url) = context["url"].as_str() else {
        return;
    };
    for r in results {
        if let Some(n) = r.effects.as_mut().and_then(|e| e.navigation.as_mut())
            && n.to == url
        {
            n.to.clear();
        }
    }
}

/// The requests the policy refused that no step's effects reported (the page's own, between
/// commands or after the last action), as notes: nothing refused goes unsaid.
pub fn note_refusals(b: &mut Browser) {
    let refused = b.policy_refusals();
    if let Some(w) = super::effects::blocked_words(&refused) {
        b.notes.push(w.trim_end_matches('.').to_string());
    }
}

/// The context of a tab whose page may not answer: what the browser process knows of it
/// (Chromium's DevTools endpoint), never a page script. Without that endpoint (Firefox, a
/// remote driver) the URL and title are left empty: the driver would queue the question
/// behind the command that ran out of time.
async fn stuck_context(b: &Browser) -> Value {
    let handle = b.record.current_handle();
    let (url, title) = match &b.record.debugger {
        Some(addr) => crate::browser::devtools::tab_info(addr, &handle)
            .await
            .unwrap_or_default(),
        None => Default::default(),
    };
    json!({"url": url, "title": title, "scroll": null, "answering": false})
}

/// The reply's `context` of where the tab is.
pub(super) fn here_context(h: &crate::wire::Here) -> Value {
    json!({"url": h.url, "title": h.title, "scroll": h.scroll})
}
