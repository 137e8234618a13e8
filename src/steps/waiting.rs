//! Waiting and checking: `wait`, `sleep`, `poll`, `assert`, and the step hooks
//! (`readyWhen`, `settledWhen`, `observe`).
//!
//! Owns: polling page functions from the host (tokio's timers: a page that replaced or
//! froze its own `setTimeout` cannot stop it). Must not: reach the page other than through
//! `engine` (typed methods; a page function runs through `engine::poll_once`, in the page's
//! main world like `eval`, with a typed reply).

use super::act::{Act, Cx, Gate, Info, Kind, row};
use super::args::{Form, truthy};
use super::options::{HOOK_LIMIT, RunOptions, within};
use crate::actions;
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::engine::{Condition, entry};
use crate::error::{Error, Result};
use crate::policy::Switch;
use crate::refs::parse_ref;
use crate::safe::quote;
use crate::snapshot::render::cut;
use crate::wire::{CheckedReply, ConditionReply, GetReply, PollReply};
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// `wait`: until a condition holds (or `hidden`: until it stops holding), bounded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct WaitArgs {
    /// Visible text on the page (case-insensitive substring).
    #[serde(default)]
    #[arg(long)]
    pub text: Option<String>,
    /// A ref that must resolve (still there, same role and name).
    #[serde(rename = "ref", default)]
    #[arg(long = "ref", id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// A CSS selector matching a visible element.
    #[serde(default)]
    #[arg(long)]
    pub selector: Option<String>,
    /// The URL contains this (or matches it with `regex: true`).
    #[serde(default)]
    #[arg(long)]
    pub url: Option<String>,
    /// `url` is a regular expression.
    #[serde(default)]
    #[arg(long)]
    pub regex: bool,
    /// Wait for the condition to stop holding.
    #[serde(default)]
    #[arg(long)]
    pub hidden: bool,
    /// Limit in ms (default: the step's deadline).
    #[serde(default)]
    #[arg(skip)]
    pub timeout: Option<u64>,
    /// The step's locator, polled until it names one element (or, with hidden, none): the
    /// runner puts it here (docs/reference/step-files.md#locators); never written.
    #[serde(skip)]
    #[arg(skip)]
    #[schemars(skip)]
    pub locator: Option<super::locate::Locator>,
}

/// `sleep`: a pause.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct SleepArgs {
    /// Milliseconds.
    pub ms: u64,
}

impl From<u64> for SleepArgs {
    fn from(ms: u64) -> Self {
        SleepArgs { ms }
    }
}

/// `assert`: fails the step when the condition does not hold now.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct AssertArgs {
    /// Visible text on the page.
    #[serde(default)]
    #[arg(long)]
    pub text: Option<String>,
    /// A ref that resolves.
    #[serde(rename = "ref", default)]
    #[arg(long = "ref", id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// A CSS selector matching a visible element.
    #[serde(default)]
    #[arg(long)]
    pub selector: Option<String>,
    /// The URL contains this.
    #[serde(default)]
    #[arg(long)]
    pub url: Option<String>,
    /// The title contains this.
    #[serde(default)]
    #[arg(long)]
    pub title: Option<String>,
    /// The ref's value equals this.
    #[serde(default)]
    #[arg(long)]
    pub value: Option<String>,
    /// The ref is checked (true) or not (false).
    #[serde(default)]
    #[arg(long)]
    pub checked: Option<bool>,
    /// Assert the condition does not hold.
    #[serde(default)]
    #[arg(long)]
    pub not: bool,
}

/// `wait`: poll a condition until it holds (or stops holding), within the step's deadline.
pub(super) async fn wait(
    b: &mut Browser,
    w: &super::WaitArgs,
    opts: &RunOptions,
) -> Result<Outcome> {
    let limit = w
        .timeout
        .map(Duration::from_millis)
        .unwrap_or(opts.timeout)
        .min(opts.timeout);
    let hidden = w.hidden;
    if let Some(loc) = &w.locator {
        return wait_locator(b, loc, hidden, limit).await;
    }
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

/// `wait` on a locator: polled until it names one element (several: the locator's error at
/// once, as for any step), or with `hidden` until it names none; at the limit, the words of
/// what it found (the nearest names of its role).
async fn wait_locator(
    b: &mut Browser,
    loc: &super::locate::Locator,
    hidden: bool,
    limit: Duration,
) -> Result<Outcome> {
    use super::locate;
    let start = Instant::now();
    loop {
        let r = locate::probe(b, loc).await?;
        let done = if hidden {
            r.total == 0
        } else if locate::unique(loc, &r) {
            true
        } else if let Some(e) = locate::several(loc, &r) {
            return Err(e);
        } else {
            false
        };
        if done {
            return Ok(Outcome::with(
                json!({"waited_ms": start.elapsed().as_millis() as u64}),
            ));
        }
        if start.elapsed() >= limit {
            let found = if hidden {
                format!("{} still match {}", r.total, loc.words())
            } else {
                locate::none_words(loc, &r)
            };
            return Err(Error::Timeout(format!(
                "{}{} did not happen within {} ms: {found}",
                loc.words(),
                gone(hidden),
                limit.as_millis()
            )));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(super) fn gone(hidden: bool) -> &'static str {
    if hidden { " to go away" } else { "" }
}

pub(super) async fn assert_step(b: &Browser, a: &super::AssertArgs) -> Result<Outcome> {
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
        let v: ConditionReply = ask(b, cond).await?;
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
        Ok(Outcome::with(json!({"passed": true})))
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
        let v: ConditionReply = ask(b, resolves).await?;
        if v.met == a.not {
            // the state as JSON: "gone", "changed"...
            let state = serde_json::to_string(&v.state).unwrap_or_default();
            failures.push(format!("expected ref {r} {not}to resolve (it is {state})"));
        }
    }
    if let Some(want) = &a.value {
        let get = entry::Get {
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
        let v: CheckedReply = ask(b, entry::Checked { r#ref: rr }).await?;
        if (v.checked.is_true() == want) == a.not {
            failures.push(format!("expected {r} checked={want}, it is {}", v.checked));
        }
    }
    Ok(failures)
}

/// `poll`, and the hooks: a page expression or function source, polled until truthy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct PollArgs {
    /// A JavaScript expression or a function's source (`() => ...`, may return a promise),
    /// run in the page's main world like eval.
    #[serde(rename = "fn", alias = "expression")]
    #[arg(id = "fn", value_name = "FN", allow_hyphen_values = true)]
    pub fn_: String,
    /// Milliseconds between attempts (default 100).
    #[serde(default)]
    #[arg(long)]
    pub interval: Option<u64>,
    /// Limit in ms (poll: the step's deadline; hooks: 10000).
    #[serde(default)]
    #[arg(skip)]
    pub timeout: Option<u64>,
}

impl From<String> for PollArgs {
    fn from(fn_: String) -> Self {
        PollArgs {
            fn_,
            interval: None,
            timeout: None,
        }
    }
}

/// A hook in its short or object form.
fn hook_opt<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<PollArgs>, D::Error> {
    Ok(match Option::<Form<String, PollArgs>>::deserialize(d)? {
        None => None,
        Some(Form::Bare(s)) => Some(PollArgs::from(s)),
        Some(Form::Full(p)) => Some(p),
    })
}

/// The hooks of a step: page functions run around its action.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Hooks {
    /// Polled before the action until truthy (default limit 10 s); when it stays falsy
    /// the step fails and the action does not run.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "hook_opt"
    )]
    #[schemars(with = "Option<Form<String, PollArgs>>")]
    pub ready_when: Option<PollArgs>,
    /// Polled after the action until truthy (default limit 10 s); when it stays falsy the
    /// step gets a warning.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "hook_opt"
    )]
    #[schemars(with = "Option<Form<String, PollArgs>>")]
    pub settled_when: Option<PollArgs>,
    /// Evaluated after the action (and settledWhen): its value is the step's observation.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "hook_opt"
    )]
    #[schemars(with = "Option<Form<String, PollArgs>>")]
    pub observe: Option<PollArgs>,
}

impl Hooks {
    pub fn is_empty(&self) -> bool {
        self.ready_when.is_none() && self.settled_when.is_none() && self.observe.is_none()
    }
}

/// A hook's value in a step file: a function's source, or `{fn, interval?, timeout?}`.
pub fn hook_from(key: &str, v: &serde_json::Value) -> std::result::Result<PollArgs, String> {
    let p = match v {
        serde_json::Value::String(s) => PollArgs::from(s.clone()),
        serde_json::Value::Object(_) => serde_json::from_value::<PollArgs>(v.clone())
            .map_err(|e| {
                format!(
                    "\"{key}\": {}; expected a page expression or function source, or {{\"fn\": \"...\", \"timeout\": 5000}}",
                    e.to_string().trim_end_matches('.')
                )
            })?,
        other => {
            return Err(format!(
                "\"{key}\" must be a page expression or function source such as \"() => !document.querySelector('.spinner')\", got {}",
                match other {
                    serde_json::Value::Null => "null",
                    serde_json::Value::Bool(_) => "a boolean",
                    serde_json::Value::Number(_) => "a number",
                    _ => "a list",
                }
            ));
        }
    };
    let problems = hook_problems(key, &p);
    if problems.is_empty() {
        Ok(p)
    } else {
        Err(problems.join("; "))
    }
}

/// One run of `src` in the page: its value, or what it threw. A script that cannot run at
/// all (a syntax error) is an error.
async fn run_once(b: &Browser, src: &str) -> Result<std::result::Result<Value, String>> {
    Ok(match crate::engine::poll_once(&b.page, src).await? {
        PollReply::Value(v) => Ok(v),
        PollReply::Threw(t) => Err(t),
    })
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
        Ok(r) => Ok(Outcome::with(
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
pub async fn after_hooks(b: &Browser, hooks: &Hooks, remaining: Duration) -> HookResults {
    let mut h = HookResults::default();
    if let Some(p) = &hooks.settled_when {
        h.warnings.extend(settled_when(b, p, remaining).await);
    }
    if let Some(p) = &hooks.observe {
        match observe(b, p).await {
            Ok(v) => h.observation = Some(v),
            Err(w) => h.warnings.push(w),
        }
    }
    h
}

/// The checks of a function to poll (`poll`, `readyWhen`, `settledWhen`, `observe`).
pub fn hook_problems(what: &str, p: &PollArgs) -> Vec<String> {
    let mut out = Vec::new();
    if p.fn_.trim().is_empty() {
        out.push(format!(
            "{what}: the function is empty (write an expression such as \"document.readyState === 'complete'\")"
        ));
    }
    if p.interval == Some(0) {
        out.push(format!("{what}: interval must be at least 1 ms"));
    }
    if p.timeout == Some(0) {
        out.push(format!("{what}: timeout must be at least 1 ms"));
    }
    out
}

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for WaitArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_wait", "value", r#"{"text": "Saved"}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        self.ref_.as_deref()
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = Some(r);
        true
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        wait(cx.b, self, cx.opts).await
    }
}

impl Act for SleepArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_sleep", "ms", "500 (milliseconds)");
    async fn run(&self, _cx: &mut Cx<'_>) -> Result<Outcome> {
        tokio::time::sleep(Duration::from_millis(self.ms)).await;
        Ok(Outcome::default())
    }
}

impl Act for AssertArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_assert", "value", r#"{"text": "Saved"}"#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        assert_step(cx.b, self).await
    }
}

impl Act for PollArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_poll", "value", r#""() => window.ready" or {"fn": "() => window.ready", "interval": 100, "timeout": 5000}"#);
    fn problems(&self) -> Vec<String> {
        hook_problems("poll", self)
    }
    fn gate(&self) -> Gate<'_> {
        Gate::Off(Switch::Eval)
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        poll(cx.b, self, cx.opts).await
    }
}
