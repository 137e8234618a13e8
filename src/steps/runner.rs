//! The step runner: runs validated steps in order in one session, times each, stops at the
//! first failing required step, and reports what changed on screen (SPEC 5).
//!
//! Owns: the run result, the before/after viewport snapshots for `changes`, settling and
//! dialogs between steps, tabs and frames. Must not: parse files (parse.rs), render trees
//! (snapshot/), or read engine replies other than through their `wire` types.

use super::{Action, EvalArgs, FrameArg, GotoArgs, Step, StepFile};
use crate::actions::{self, Outcome, ask};
use crate::browser::Browser;
use crate::capture::{CaptureOptions, capture};
use crate::engine::{Condition, Method, ScrollTo};
use crate::error::{Error, Result};
use crate::output::OutputOptions;
use crate::refs::parse_ref;
use crate::snapshot::Snapshot;
use crate::snapshot::diff;
use crate::spill;
use crate::wire::{
    Ack, CheckedReply, ConditionReply, ConsoleReply, Fingerprint, GetReply, ScrollReply,
};
use serde::Serialize;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// How a run behaves.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Limit per step (default 30 s).
    pub timeout: Duration,
    /// Where big outputs go.
    pub output: OutputOptions,
    /// Upper bound of the wait for the page to settle after an action.
    pub settle_max: Duration,
    pub verbose: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            timeout: Duration::from_millis(30_000),
            output: OutputOptions {
                file: None,
                inline_limit: spill::DEFAULT_INLINE_LIMIT,
                artifacts: None,
            },
            settle_max: Duration::from_millis(3_000),
            verbose: false,
        }
    }
}

/// One step's result.
#[derive(Debug, Clone, Serialize)]
pub struct StepResult {
    pub action: String,
    /// ok, error, skipped
    pub status: String,
    pub ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dialogs: Vec<Value>,
    /// Snapshot steps: nodes, refs, elements visited, the page's own time (`engine_ms`,
    /// `walk_ms`) and whether the engine's cache answered (`cached`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Value>,
    /// What an action did besides changing the tree (SPEC 8): announced text, navigation,
    /// new tabs, HTTP and console errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<super::effects::Effects>,
    /// The value of the step's `observe` hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observation: Option<Value>,
}

/// The whole run's result (printed as JSON on stdout).
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    /// ok or error
    pub status: String,
    pub tab: String,
    pub steps: Vec<StepResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Value>,
    pub context: Value,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub artifacts: Vec<String>,
    /// What the reader must know besides the steps' data: a tab replaced after its page
    /// stopped answering (SPEC 9).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Process exit code (SPEC 5).
    #[serde(skip)]
    pub exit_code: i32,
}

/// What the run's `changes` compare: the whole page before the first visual action, where
/// the run started when it navigated, and the last visual action that ran.
struct Baseline {
    before: Option<(Snapshot, String)>,
    start_url: Option<String>,
    /// The verb of the last visual action that ran without failing; None when none did.
    last_verb: Option<&'static str>,
    /// The ref that action acted on.
    last_target: Option<String>,
    /// That action went to the focused element (a key press or typing without a ref).
    to_focused: bool,
    /// The document shown when the last action that may change the page began
    /// (`waitForNavigation`).
    doc: Option<super::vocab_run::DocMark>,
}

impl StepResult {
    fn skipped(action: &str) -> StepResult {
        StepResult {
            action: action.into(),
            status: "skipped".into(),
            ms: 0,
            output: None,
            warning: None,
            error: None,
            dialogs: vec![],
            stats: None,
            effects: None,
            observation: None,
        }
    }

    fn failed(action: &str, ms: u64, e: &Error, dialogs: Vec<Value>) -> StepResult {
        StepResult {
            action: action.into(),
            status: "error".into(),
            ms,
            output: None,
            warning: e.hint().map(|h| format!("hint: {h}")),
            error: Some(e.to_string()),
            dialogs,
            stats: None,
            effects: None,
            observation: None,
        }
    }
}

/// Runs one step within its deadline (the viewport baseline, the step, settling); returns
/// its result and, when it failed, the exit code it stands for.
async fn run_one(
    b: &mut Browser,
    step: &Step,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
    base: &mut Baseline,
) -> (StepResult, Option<i32>) {
    let t0 = Instant::now();
    let remaining = || opts.timeout.saturating_sub(t0.elapsed());
    let mut hooked = super::vocab_run::HookResults::default();
    let r = tokio::time::timeout(opts.timeout, async {
        if let Some(h) = &step.hooks.ready_when
            && let Err(e) = super::vocab_run::ready_when(b, h, remaining()).await
        {
            return (Err(e), None);
        }
        take_baseline(b, step, base).await;
        let watch = if step.action.modifies_page() {
            Some(super::effects::before(b).await)
        } else {
            None
        };
        // the document the previous action began on (waitForNavigation); this one's next
        let prev_doc = base.doc.clone();
        if let Some(w) = &watch {
            base.doc = Some(w.mark());
        }
        let acted_at = Instant::now();
        let r = run_step(b, step, opts, artifacts, prev_doc).await;
        let mut effects = None;
        if step.action.modifies_page() && !r.as_ref().is_err_and(Error::is_timeout) {
            let _ = ask::<Ack>(b, Method::Invalidate).await;
            let tail = super::effects::answer_tail(&step.action).map(|min| (acted_at, min));
            actions::settle(b, 120.0, tail, opts.settle_max).await;
            if let Some(w) = watch {
                let e = super::effects::after(b, w, opts.output.artifacts.as_deref()).await;
                artifacts.extend(e.download.iter().filter_map(|d| d.path.clone()));
                effects = Some(e).filter(|e| !e.is_empty());
            }
        }
        if r.is_ok() {
            hooked = super::vocab_run::after_hooks(b, step, remaining()).await;
        }
        (r, effects)
    })
    .await;
    let (r, effects) = match r {
        Ok((r, e)) => (r, e),
        Err(_) => (
            Err(Error::Timeout(format!(
                "step took over {} ms (the step's deadline: --timeout, or \"timeout\" in the step file)",
                opts.timeout.as_millis()
            ))),
            None,
        ),
    };
    if r.as_ref().is_err_and(Error::is_timeout) {
        b.mark_suspect();
    }
    if step.action.is_visual() && r.is_ok() {
        base.last_verb = Some(verb(&step.action));
        base.last_target = step
            .action
            .target_ref()
            .and_then(|t| parse_ref(t).ok())
            .map(|t| t.to_string());
        base.to_focused =
            base.last_target.is_none() && matches!(step.action, Action::Press(_) | Action::Type(_));
    }
    let dialogs: Vec<Value> = crate::dialogs::drain()
        .into_iter()
        .map(|d| json!(d))
        .collect();
    let ms = t0.elapsed().as_millis() as u64;
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

/// Before a step: the diff's baseline (SPEC 5 `changes`).
async fn take_baseline(b: &mut Browser, step: &Step, base: &mut Baseline) {
    if matches!(step.action, Action::Goto(_)) {
        // A navigation starts a new page: the diff's baseline is taken after it, and the
        // run reports where it went.
        if base.start_url.is_none() && base.before.is_none() {
            base.start_url = Some(b.url().await);
        }
        base.before = None;
    } else if step.action.is_visual() && base.before.is_none() {
        // The diff's "before": the whole page as it is now.
        if let Ok(s) = page_snapshot(b, false).await {
            let url = s.url.clone();
            base.before = Some((s, url));
        }
    }
}

fn verb(a: &Action) -> &'static str {
    match a {
        Action::Click(_) => "Clicked",
        Action::Fill(_) => "Filled",
        Action::Type(_) => "Typed",
        Action::Press(_) => "Pressed",
        Action::Hover(_) => "Hovered",
        Action::Select(_) => "Selected",
        Action::Set(_) => "Set",
        Action::Check(_) => "Checked",
        Action::Uncheck(_) => "Unchecked",
        Action::Scroll(_) => "Scrolled",
        Action::Drag(_) => "Dragged",
        Action::Goto(_) => "Opened",
        Action::Submit(_) => "Submitted",
        _ => "Done",
    }
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
        last_target: None,
        to_focused: false,
        doc: None,
    };
    for step in &file.steps {
        if failed.is_none() && b.record.suspect.is_some() {
            // an earlier (optional) step ran out of time: is the page still answering?
            if let Err(e) = b.check_suspect().await {
                failed = Some(e.exit_code());
            }
        }
        if failed.is_some() {
            results.push(StepResult::skipped(step.action.name()));
            continue;
        }
        let (res, err) = run_one(b, step, &opts, &mut artifacts, &mut base).await;
        if let Some(code) = err.filter(|_| !step.optional) {
            failed = Some(code);
        }
        results.push(res);
    }
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
        let changes = changes_of(b, &base, &results).await;
        (changes, context(b).await)
    })
    .await;
    let (changes, context) = match tail {
        Ok(t) => t,
        Err(_) => {
            b.mark_suspect();
            (None, stuck_context(b).await)
        }
    };
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

/// The run's effects merged, and the dialogs its steps answered.
fn effects_of(results: &[StepResult]) -> (super::effects::Effects, Vec<(String, String)>) {
    let mut all = super::effects::Effects::default();
    let mut dialogs = Vec::new();
    for r in results {
        if let Some(e) = &r.effects {
            all.merge(e.clone());
        }
        for d in &r.dialogs {
            let text = d["message"].as_str().unwrap_or("").to_string();
            let how = d["handled"].as_str().unwrap_or("answered").to_string();
            dialogs.push((text, how));
        }
    }
    (all, dialogs)
}

/// The page's changes between the whole page before the first and after the last visual
/// action (SPEC 8), with the run's effects and dialogs, or the navigation the run made.
async fn changes_of(b: &mut Browser, base: &Baseline, results: &[StepResult]) -> Option<Value> {
    let (effects, dialogs) = effects_of(results);
    let final_url = b.url().await;
    let navigated = |from: &str| {
        let mut v = diff::navigated(from, &final_url);
        let words = super::effects::Effects {
            navigation: None,
            ..effects.clone()
        }
        .summary();
        let said: Vec<String> = dialogs
            .iter()
            .map(|(t, how)| format!("Dialog {} {how}.", crate::snapshot::safe::quote(t)))
            .chain(words)
            .collect();
        if !said.is_empty() {
            v["summary"] = Value::String(format!(
                "{} {}",
                v["summary"].as_str().unwrap_or(""),
                said.join(" ")
            ));
        }
        v
    };
    match (&base.before, &base.start_url) {
        (Some((bs, burl)), start) => {
            if strip_hash(&final_url) != strip_hash(burl) {
                return Some(navigated(burl));
            }
            let after = page_snapshot(b, true).await.ok()?;
            let d = diff::diff(bs, &after);
            let run = super::changes::Run {
                before: bs,
                after: &after,
                diff: &d,
                verb: base.last_verb,
                target: base.last_target.as_deref(),
                to_focused: base.to_focused,
                effects: &effects,
                dialogs: &dialogs,
                scroll: (bs.fingerprint.scroll, after.fingerprint.scroll),
            };
            let mut v = super::changes::report(&run);
            if let Some(from) = start
                .as_deref()
                .filter(|f| strip_hash(f) != strip_hash(&final_url))
            {
                v["summary"] = Value::String(format!(
                    "Navigated to {final_url}. {}",
                    v["summary"].as_str().unwrap_or("")
                ));
                v["navigated"] = json!({"from": from, "to": final_url});
            }
            // nothing ran and nothing happened: no changes to report (a failed step says
            // its error)
            if v["summary"].as_str() == Some("") {
                return None;
            }
            Some(v)
        }
        (None, Some(from)) => Some(navigated(from)),
        // no visual action: what the other steps did besides (a download an eval started)
        (None, None) => {
            let said: Vec<String> = dialogs
                .iter()
                .map(|(t, how)| format!("Dialog {} {how}.", crate::snapshot::safe::quote(t)))
                .chain(effects.summary())
                .collect();
            (!said.is_empty()).then(|| json!({"summary": said.join(" ")}))
        }
    }
}

/// The context of a tab whose page may not answer: what the browser process knows of it
/// (Chromium's DevTools endpoint), never a page script. Without that endpoint (Firefox, a
/// remote driver) the URL and title are left empty: the driver would queue the question
/// behind the command that ran out of time.
async fn stuck_context(b: &Browser) -> Value {
    let handle = b
        .record
        .tabs
        .iter()
        .find(|t| t.alias == b.record.current)
        .map(|t| t.handle.clone())
        .unwrap_or_default();
    let (url, title) = match &b.record.debugger {
        Some(addr) => crate::browser::devtools::tab_info(addr, &handle)
            .await
            .unwrap_or_default(),
        None => Default::default(),
    };
    json!({"url": url, "title": title, "scroll": null, "answering": false})
}

fn strip_hash(u: &str) -> &str {
    u.split('#').next().unwrap_or(u)
}

/// The whole page with each element's identity, for the diff of a run's changes; `after`
/// also takes boxes (which new controls are in the viewport) and refs for every candidate
/// (the items of a list that opened can be acted on at once).
async fn page_snapshot(b: &mut Browser, after: bool) -> Result<Snapshot> {
    capture(
        b,
        &CaptureOptions {
            no_cache: true,
            max_nodes: 0,
            ids: true,
            boxes: after,
            all_refs: after,
            ..Default::default()
        },
    )
    .await
}

async fn context(b: &Browser) -> Value {
    let url = b.url().await;
    let title = b.title().await;
    let scroll = match crate::engine::call::<Fingerprint>(&b.client, Method::Fingerprint).await {
        Ok(fp) => fp.scroll,
        Err(_) => [0, 0],
    };
    json!({"url": url, "title": title, "scroll": scroll})
}

fn out(v: Value) -> Outcome {
    Outcome {
        output: Some(v),
        warnings: vec![],
        stats: None,
    }
}

async fn run_step(
    b: &mut Browser,
    step: &Step,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
    prev_doc: Option<super::vocab_run::DocMark>,
) -> Result<Outcome> {
    use super::vocab_run as v;
    match &step.action {
        // navigation and tabs
        Action::Goto(u) => goto(b, u, opts, artifacts).await,
        Action::Reload(_) => {
            b.client.refresh().await?;
            Ok(Outcome::default())
        }
        Action::Back(_) => {
            b.client.back().await?;
            Ok(Outcome::default())
        }
        Action::Forward(_) => {
            b.client.forward().await?;
            Ok(Outcome::default())
        }
        Action::NewTab(a) => {
            let alias = b.new_tab().await?;
            if let Some(u) = &a.url {
                b.goto(u).await?;
            }
            Ok(out(json!({"tab": alias})))
        }
        Action::SwitchTab(a) => {
            b.use_tab(Some(&a.tab)).await?;
            Ok(out(json!({"tab": a.tab})))
        }
        Action::CloseTab(a) => {
            let t = &a.tab;
            let now = b.close_tab(t.as_deref()).await?;
            Ok(out(
                json!({"closed": t.clone().unwrap_or_default(), "tab": now}),
            ))
        }
        Action::ListTabs(_) => Ok(out(b.list_tabs().await?)),
        // looking at the page
        Action::Snapshot(a) => snapshot_step(b, a, opts, artifacts).await,
        Action::Search(a) => Ok(out(super::look::search(b, a).await?)),
        Action::Query(q) => query(b, q, opts, artifacts).await,
        // input on refs
        Action::Click(a) => super::eyes::click(b, a).await,
        Action::Fill(f) => v::fill(b, f).await,
        Action::Type(t) => actions::type_into(b, t.ref_.as_deref(), &t.text, t.submit).await,
        Action::Press(p) => actions::press(b, &p.key, p.ref_.as_deref()).await,
        Action::Hover(h) => super::eyes::hover(b, h).await,
        Action::Select(s) => actions::select(b, &s.ref_, &s.values.to_vec()).await,
        Action::Set(s) => actions::set(b, &s.ref_, &s.value).await,
        Action::Check(t) => actions::set_checked(b, t.ref_str(), true).await,
        Action::Uncheck(t) => actions::set_checked(b, t.ref_str(), false).await,
        Action::Scroll(s) => scroll(b, s).await,
        Action::Drag(d) => super::eyes::drag(b, d).await,
        Action::Upload(u) => actions::upload(b, &u.ref_, &u.files.to_vec()).await,
        // waiting, checking, reading
        Action::Wait(w) => wait(b, w, opts).await,
        Action::Sleep(a) => {
            tokio::time::sleep(Duration::from_millis(a.ms)).await;
            Ok(Outcome::default())
        }
        Action::Eval(e) => eval(b, e).await,
        Action::Assert(a) => assert_step(b, a).await,
        Action::Get(g) => {
            let get = Method::Get {
                r#ref: parse_ref(&g.ref_)?,
                what: g.what.clone().unwrap_or_else(|| "text".into()),
            };
            let v: GetReply = ask(b, get).await?;
            Ok(out(json!(v.value)))
        }
        Action::GetUrl(_) => Ok(out(json!(b.url().await))),
        Action::GetTitle(_) => Ok(out(json!(b.title().await))),
        // the page's settings and artifacts
        Action::Viewport(v) => {
            b.client.set_window_size(v.width, v.height).await?;
            let inner = crate::engine::viewport_size(&b.client).await?;
            Ok(out(json!({"viewport": inner})))
        }
        Action::Frame(f) => frame(b, &f.target).await,
        Action::Cookies(c) => cookies(b, c).await,
        Action::Console(c) => {
            // with BiDi the page's console is read from its main world's hook (the
            // engine's sandbox does not see it)
            let v: ConsoleReply = if b.client.isolated() {
                crate::engine::console_messages(&b.client, c.clear).await?
            } else {
                ask(b, Method::Console { clear: c.clear }).await?
            };
            Ok(out(json!(v.messages)))
        }
        Action::Screenshot(s) if s.annotate => {
            super::eyes::annotated_screenshot(b, s, opts, artifacts).await
        }
        Action::Screenshot(s) => screenshot(b, s, opts, artifacts).await,
        // seeing and pointing where the tree is blind (issue 16)
        Action::ElementsAt(a) => super::eyes::elements_at(b, a).await,
        Action::Pdf(p) => super::eyes::pdf(b, p, opts, artifacts).await,
        Action::ReadSiteNotes(a) => super::eyes::read_notes(b, a).await,
        Action::WriteSiteNotes(a) => super::eyes::write_notes(b, a).await,
        // the step vocabulary of issue 16 (vocab_run.rs)
        Action::Submit(s) => v::submit(b, s, opts).await,
        Action::SelectText(s) => v::select_text(b, s).await,
        Action::WaitForNavigation(w) => v::wait_for_navigation(b, w, opts, prev_doc).await,
        Action::Poll(p) => v::poll(b, p, opts).await,
        Action::QueryAll(q) => v::query_all(b, q).await,
        Action::Inspect(i) => v::inspect(b, i).await,
    }
}

/// `goto`: navigate, and with `snapshot`, return the loaded page's snapshot too.
async fn goto(
    b: &mut Browser,
    u: &GotoArgs,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    b.goto(u.url()).await?;
    let url = b.url().await;
    let mut o = json!({"url": url});
    // an agent learns that this site has notes (issue 16)
    if let Some(n) = super::eyes::notes_hint(&url) {
        o["siteNotes"] = n;
    }
    if let Some(sa) = u.snapshot() {
        actions::settle(b, 120.0, None, opts.settle_max).await;
        let snap = snapshot_step(b, sa, opts, artifacts).await?;
        o["snapshot"] = snap.output.unwrap_or(Value::Null);
    }
    Ok(out(o))
}

/// `query`: a JSON snapshot request with the query and paging options.
async fn query(
    b: &mut Browser,
    q: &super::QueryArgs,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    let a = super::SnapshotArgs {
        query: Some(q.query.clone()),
        flatten: q.flatten,
        limit: q.limit,
        offset: q.offset,
        cache_key: q.cache_key.clone(),
        format: Some("json".into()),
        ..Default::default()
    };
    snapshot_step(b, &a, opts, artifacts).await
}

/// `scroll`: a ref into view, the page to a point, or the page by a direction or delta.
async fn scroll(b: &mut Browser, s: &super::ScrollArgs) -> Result<Outcome> {
    let to = if let Some(r) = &s.ref_ {
        ScrollTo::Ref {
            r#ref: parse_ref(r)?,
        }
    } else if let Some(to) = s.to {
        ScrollTo::Point { to }
    } else {
        let (mut dx, mut dy) = (s.dx.unwrap_or(0.0), s.dy.unwrap_or(0.0));
        match s.direction.as_deref() {
            Some("down") => dy = 600.0,
            Some("up") => dy = -600.0,
            Some("right") => dx = 600.0,
            Some("left") => dx = -600.0,
            Some(other) => {
                return Err(Error::Usage(format!(
                    "scroll direction {other:?}: use up, down, left or right"
                )));
            }
            None if s.dx.is_none() && s.dy.is_none() => dy = 600.0,
            None => {}
        }
        ScrollTo::By { dx, dy }
    };
    let v: ScrollReply = ask(b, Method::Scroll(to)).await?;
    Ok(out(json!({"scroll": v.scroll})))
}

/// `wait`: poll a condition until it holds (or stops holding), within the step's deadline.
async fn wait(b: &mut Browser, w: &super::WaitArgs, opts: &RunOptions) -> Result<Outcome> {
    let limit = w
        .timeout
        .map(Duration::from_millis)
        .unwrap_or(opts.timeout)
        .min(opts.timeout);
    let hidden = w.hidden;
    let (cond, what) = if let Some(t) = &w.text {
        (
            Condition::Text {
                text: t.clone(),
                hidden,
            },
            format!("text {t:?}{}", gone(hidden)),
        )
    } else if let Some(r) = &w.ref_ {
        (
            Condition::Ref {
                r#ref: parse_ref(r)?,
                hidden,
            },
            format!("ref {r}{}", gone(hidden)),
        )
    } else if let Some(s) = &w.selector {
        (
            Condition::Selector {
                selector: s.clone(),
                hidden,
            },
            format!("selector {s:?}{}", gone(hidden)),
        )
    } else if let Some(u) = &w.url {
        (
            Condition::Url {
                url: u.clone(),
                regex: w.regex,
            },
            format!("URL matching {u:?}"),
        )
    } else {
        return Err(Error::Usage(
            "wait needs one of text, ref, selector or url".into(),
        ));
    };
    actions::wait_for(b, cond, limit, &what).await
}

/// `screenshot`: a PNG of the page or of one ref, to `path` or an artifact.
async fn screenshot(
    b: &mut Browser,
    s: &super::ScreenshotArgs,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    let png = match &s.ref_ {
        Some(r) => actions::element(b, r).await?.screenshot().await?,
        None => b.client.screenshot().await?,
    };
    let path = match &s.path {
        Some(p) => {
            spill::write_user_file(std::path::Path::new(p), &png)?;
            p.clone()
        }
        None => {
            let a = spill::write_artifact(
                &png,
                "screenshot",
                ".png",
                opts.output.artifacts.as_deref(),
            )?;
            a.path.display().to_string()
        }
    };
    artifacts.push(path.clone());
    Ok(out(json!({"path": path, "bytes": png.len()})))
}

fn gone(hidden: bool) -> &'static str {
    if hidden { " to go away" } else { "" }
}

async fn snapshot_step(
    b: &mut Browser,
    a: &super::SnapshotArgs,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    use crate::query::view::{View, ViewFormat};
    let fmt = ViewFormat::parse(a.format.as_deref())?;
    let extra = CaptureOptions {
        verbose: opts.verbose,
        ..Default::default()
    };
    let v = super::look::view(b, a, &extra).await?;
    let stats = match &v {
        View::Tree(s, _) | View::Budgeted(s, _) => Some(json!({
            "nodes": s.nodes.len(),
            "refs": s.ref_count(),
            "elements": s.stats.elements,
            "engine_ms": s.engine_ms,
            "walk_ms": s.stats.walk_ms,
            "cached": s.cached,
        })),
        View::Data(_) => None,
    };
    let o = snapshot_body(v, a, opts, fmt, artifacts)?;
    Ok(Outcome { stats, ..o })
}

const SPILLED_HINT: &str = "the full reply is in the file; narrow it with detail \"interactive\", root, viewport, a query or search";

/// A snapshot step's output when the body went to a file.
#[derive(Serialize)]
struct Spilled {
    spilled: SpilledFile,
    hint: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    snapshot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    refs: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    refs_file: Option<std::path::PathBuf>,
}

#[derive(Serialize)]
struct SpilledFile {
    path: std::path::PathBuf,
    bytes: usize,
}

fn snapshot_body(
    v: crate::query::view::View,
    a: &super::SnapshotArgs,
    opts: &RunOptions,
    fmt: crate::query::view::ViewFormat,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    use crate::query::view::{self, View, ViewFormat};
    let verbose = a.verbose || opts.verbose;
    let body = view::render_view(&v, fmt, verbose, false)?;
    if let View::Budgeted(s, _) = &v {
        return budgeted_body(s, body, fmt, verbose, opts, artifacts);
    }
    if let Some(sp) = crate::output::spill_if_over(
        &body,
        &v,
        fmt,
        opts.output.inline_limit,
        opts.output.artifacts.as_deref(),
    )? {
        artifacts.push(sp.body.path.display().to_string());
        let tree = match &v {
            View::Tree(s, _) | View::Budgeted(s, _) => Some(s),
            View::Data(_) => None,
        };
        if let Some(r) = &sp.refs_file {
            artifacts.push(r.display().to_string());
        }
        let reply = Spilled {
            spilled: SpilledFile {
                path: sp.body.path.clone(),
                bytes: sp.body.bytes,
            },
            hint: SPILLED_HINT,
            snapshot: tree.map(|s| format!("s{}", s.number)),
            nodes: tree.map(|s| s.nodes.len()),
            refs: tree.map(|s| s.ref_count()),
            summary: tree.map(|s| crate::snapshot::detail::summary_text(s)),
            refs_file: sp.refs_file,
        };
        return Ok(out(json!(reply)));
    }
    match (&v, fmt) {
        (View::Data(d), ViewFormat::Text | ViewFormat::Json) => Ok(out(d.clone())),
        (View::Tree(_, _), ViewFormat::Json) => {
            let v: Value = serde_json::from_str(&body).map_err(|source| Error::Json {
                what: "a rendered snapshot",
                source,
            })?;
            Ok(out(v))
        }
        _ => Ok(out(Value::String(body))),
    }
}

/// A budgeted snapshot is always inline (SPEC 8: never a bare file pointer).
fn budgeted_body(
    s: &crate::snapshot::Snapshot,
    body: String,
    fmt: crate::query::view::ViewFormat,
    verbose: bool,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    use crate::query::view::ViewFormat;
    let (body, file) =
        crate::output::budgeted_inline(s, body, fmt, verbose, opts.output.artifacts.as_deref())?;
    if let Some(f) = file {
        artifacts.push(f.display().to_string());
    }
    Ok(match fmt {
        ViewFormat::Text => out(Value::String(body)),
        _ => out(serde_json::from_str(&body).unwrap_or(Value::String(body))),
    })
}

async fn eval(b: &Browser, e: &EvalArgs) -> Result<Outcome> {
    let (expr, offset, limit) = (&e.expression, e.offset, e.limit);
    let v = crate::engine::evaluate_user(&b.client, expr).await?;
    if offset.is_none() && limit.is_none() {
        return Ok(out(v));
    }
    let off = offset.unwrap_or(0);
    let lim = limit.unwrap_or(100).clamp(1, 10_000);
    let paged = match &v {
        Value::Array(a) => {
            let items: Vec<Value> = a.iter().skip(off).take(lim).cloned().collect();
            json!({"items": items, "total_items": a.len(), "offset": off, "limit": lim, "has_more": off + lim < a.len()})
        }
        Value::String(s) => {
            let chars: Vec<char> = s.chars().collect();
            let part: String = chars.iter().skip(off).take(lim).collect();
            json!({"items": part, "total_items": chars.len(), "offset": off, "limit": lim, "has_more": off + lim < chars.len()})
        }
        other => other.clone(),
    };
    Ok(out(paged))
}

async fn assert_step(b: &Browser, a: &super::AssertArgs) -> Result<Outcome> {
    let mut checks: Vec<(Condition, String)> = Vec::new();
    if let Some(t) = &a.text {
        let text = t.clone();
        let c = Condition::Text {
            text,
            hidden: false,
        };
        checks.push((c, format!("text {t:?} is on the page")));
    }
    if let Some(s) = &a.selector {
        let selector = s.clone();
        checks.push((
            Condition::Selector {
                selector,
                hidden: false,
            },
            format!("selector {s:?} matches a visible element"),
        ));
    }
    if let Some(u) = &a.url {
        let c = Condition::Url {
            url: u.clone(),
            regex: false,
        };
        checks.push((c, format!("URL contains {u:?}")));
    }
    if let Some(t) = &a.title {
        let c = Condition::Title { title: t.clone() };
        checks.push((c, format!("title contains {t:?}")));
    }
    let mut failures = Vec::new();
    for (cond, what) in checks {
        let v: ConditionReply = ask(b, Method::Condition(cond)).await?;
        if v.met == a.not {
            failures.push(if a.not {
                format!("expected not: {what}")
            } else {
                format!("expected: {what}")
            });
        }
    }
    if let Some(r) = &a.ref_ {
        failures.extend(assert_ref(b, a, r).await?);
    }
    if failures.is_empty() {
        Ok(out(json!({"passed": true})))
    } else {
        Err(Error::Step(format!(
            "assertion failed: {}",
            failures.join("; ")
        )))
    }
}

/// The ref checks of `assert`: it resolves, or its value, or its checked state.
async fn assert_ref(b: &Browser, a: &super::AssertArgs, r: &str) -> Result<Vec<String>> {
    let mut failures = Vec::new();
    let rr = parse_ref(r)?;
    let not = if a.not { "not " } else { "" };
    if a.value.is_none() && a.checked.is_none() {
        let resolves = Condition::Ref {
            r#ref: rr.clone(),
            hidden: false,
        };
        let v: ConditionReply = ask(b, Method::Condition(resolves)).await?;
        if v.met == a.not {
            // the state as JSON: "gone", "changed"...
            let state = serde_json::to_string(&v.state).unwrap_or_default();
            failures.push(format!("expected ref {r} {not}to resolve (it is {state})"));
        }
    }
    if let Some(want) = &a.value {
        let get = Method::Get {
            r#ref: rr.clone(),
            what: "value".into(),
        };
        let v: GetReply = ask(b, get).await?;
        let got = v.value.as_ref().and_then(|v| v.text()).unwrap_or("");
        if (got == want) == a.not {
            failures.push(format!(
                "expected value of {r} {not}to be {want:?}, it is {got:?}"
            ));
        }
    }
    if let Some(want) = a.checked {
        let v: CheckedReply = ask(b, Method::Checked { r#ref: rr }).await?;
        if (v.checked.is_true() == want) == a.not {
            failures.push(format!("expected {r} checked={want}, it is {}", v.checked));
        }
    }
    Ok(failures)
}

async fn frame(b: &mut Browser, f: &FrameArg) -> Result<Outcome> {
    match f {
        FrameArg::Name(n) if n == "main" || n == "top" => {
            for _ in 0..16 {
                b.client.enter_parent_frame().await?;
            }
            Ok(out(json!({"frame": "main"})))
        }
        FrameArg::Name(r) => {
            let el = actions::element(b, r).await?;
            b.client.entering_frame(el.element_id().as_ref()).await?;
            if let Err(e) = el.enter_frame().await {
                b.client.left_frame();
                return Err(e.into());
            }
            Ok(out(json!({"frame": r})))
        }
        FrameArg::Index(i) => {
            b.client.enter_frame(*i).await?;
            Ok(out(json!({"frame": i})))
        }
    }
}

async fn cookies(b: &Browser, c: &super::CookiesArgs) -> Result<Outcome> {
    match c.action.as_deref().unwrap_or("list") {
        "list" => {
            let all = b.client.get_all_cookies().await?;
            let list: Vec<Value> = all
                .iter()
                .map(|k| json!({"name": k.name(), "value": k.value(), "domain": k.domain(), "path": k.path()}))
                .collect();
            Ok(out(json!(list)))
        }
        "set" => {
            let (Some(name), Some(value)) = (&c.name, &c.value) else {
                return Err(Error::Usage("cookies set needs name and value".into()));
            };
            crate::engine::set_page_cookie(&b.client, name, value).await?;
            Ok(out(json!({"set": name})))
        }
        "clear" => {
            b.client.delete_all_cookies().await?;
            Ok(out(json!({"cleared": true})))
        }
        other => Err(Error::Usage(format!(
            "cookies action {other:?}: use list, set or clear"
        ))),
    }
}
