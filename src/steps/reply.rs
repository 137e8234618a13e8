//! The reply after actions: the whole-page captures before the first visual step and after
//! the last, and the changes between them (changes/ words them), with the effects.
//!
//! Owns: the baseline and when captures are taken. Must not: word the summary (changes/).

use super::action::{Action, Step};
use super::changes::dialog_line;
use super::options::DocMark;
use super::options::strip_hash;
use super::result::StepResult;
use crate::browser::Browser;
use crate::capture::{CaptureOptions, capture};
use crate::engine::entry;
use crate::error::Result;
use crate::snapshot::{Snapshot, diff};
use crate::wire::Here;
use serde_json::{Value, json};

/// What the run's `changes` compare: the whole page before the first visual action, where
/// the run started when it navigated, and the last visual action that ran.
pub(super) struct Baseline {
    pub(super) before: Option<(Snapshot, String)>,
    pub(super) start_url: Option<String>,
    /// The verb of the last visual action that ran without failing; None when none did.
    pub(super) last_verb: Option<&'static str>,
    /// What that action did that the tree does not show (an element's scroll), for the
    /// summary's lead.
    pub(super) last_detail: Option<String>,
    /// The ref that action acted on.
    pub(super) last_target: Option<String>,
    /// That action went to the focused element (a key press or typing without a ref).
    pub(super) to_focused: bool,
    /// The document shown when the last action that may change the page began
    /// (`waitForNavigation`).
    pub(super) doc: Option<DocMark>,
    /// The run's token for the page's work hook (docs/reference/replies.md#settling).
    pub(super) work: String,
}

impl Baseline {
    /// Notes a visual action that ran without failing (its verb, what it did that the tree
    /// does not show, its target), for the summary's lead.
    pub(super) fn note_visual(&mut self, action: &Action, out: &crate::actions::Outcome) {
        self.last_verb = Some(action.info().verb);
        self.last_detail = match (action, out.output.as_ref()) {
            (Action::Scroll(a), Some(o)) => super::moving::scroll_words(a, o),
            _ => None,
        };
        self.last_target = action
            .target_ref()
            .and_then(|t| crate::refs::parse_ref(t).ok())
            .map(|t| t.to_string());
        self.to_focused =
            self.last_target.is_none() && matches!(action, Action::Press(_) | Action::Type(_));
    }
}

/// Before a step: the diff's baseline (docs/reference/replies.md#changes `changes`).
pub(super) async fn take_baseline(b: &mut Browser, step: &Step, base: &mut Baseline) {
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

/// The words of what a run did besides its changes on screen: the dialogs it answered, then
/// its effects.
fn said_besides(dialogs: &[(String, String)], effects: &super::effects::Effects) -> Vec<String> {
    dialogs
        .iter()
        .map(|(t, how)| dialog_line(t, how))
        .chain(effects.summary())
        .collect()
}

/// The page's changes between the whole page before the first and after the last visual
/// action (docs/reference/replies.md#effects), with the run's effects and dialogs, or the
/// navigation the run made; and where the tab is then (the reply's `context`).
pub(super) async fn changes_of(
    b: &mut Browser,
    base: &Baseline,
    results: &[StepResult],
) -> (Option<Value>, Here) {
    let (effects, dialogs) = effects_of(results);
    let here = here(b).await;
    let final_url = here.url.clone();
    let navigated = |from: &str| {
        let mut v = diff::navigated(from, &final_url);
        // the navigation is said already
        let rest = super::effects::Effects {
            navigation: None,
            ..effects.clone()
        };
        let said = said_besides(&dialogs, &rest);
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
        (Some((_, burl)), start) => {
            if strip_hash(&final_url) != strip_hash(burl) {
                return (Some(navigated(burl)), here);
            }
            // the page after, then what its own work touched up to then: recording stops after
            // the walk, so a poll landing between the two is known as the page's (stopping
            // first left that change unrecorded, and it read as the action's)
            let after = page_snapshot(b, true).await;
            let own = own_work(b, base).await;
            let Ok(after) = after else {
                return (None, here);
            };
            // the walk after is the latest word on where the tab is
            let here = Here {
                url: after.url.clone(),
                title: after.title.clone(),
                scroll: after.fingerprint.scroll,
            };
            (
                diffed(
                    base,
                    &after,
                    own.as_ref(),
                    start.as_deref(),
                    &final_url,
                    &effects,
                    &dialogs,
                ),
                here,
            )
        }
        (None, Some(from)) if strip_hash(from) != strip_hash(&final_url) => {
            (Some(navigated(from)), here)
        }
        // no visual action, or a navigation that left the tab where it was (a `goto` the
        // policy refused, a site that did not answer): what the steps did besides
        (None, _) => {
            let said = said_besides(&dialogs, &effects);
            (
                (!said.is_empty()).then(|| json!({"summary": said.join(" ")})),
                here,
            )
        }
    }
}

/// Where the tab is: its document's URL, title and scroll, read by the engine in one call
/// (the driver's URL and title when the engine cannot answer: a browser's error page).
pub(super) async fn here(b: &Browser) -> Here {
    match crate::engine::call(&b.page, entry::Here {}).await {
        Ok(h) => h,
        Err(_) => Here {
            url: b.url().await,
            title: b.title().await,
            scroll: [0, 0],
        },
    }
}

/// The changes between the run's baseline and the page after, worded (None: nothing ran and
/// nothing happened).
fn diffed(
    base: &Baseline,
    after: &Snapshot,
    own: Option<&diff::OwnWork>,
    start: Option<&str>,
    final_url: &str,
    effects: &super::effects::Effects,
    dialogs: &[(String, String)],
) -> Option<Value> {
    let (bs, _) = base.before.as_ref()?;
    let mut d = diff::diff(bs, after);
    if let Some(w) = own {
        diff::drop_own_work(&mut d, bs, after, w);
    }
    let run = super::changes::Run {
        before: bs,
        after,
        diff: &d,
        verb: base.last_verb,
        detail: base.last_detail.as_deref(),
        target: base.last_target.as_deref(),
        to_focused: base.to_focused,
        effects,
        dialogs,
        scroll: (bs.fingerprint.scroll, after.fingerprint.scroll),
    };
    let mut v = super::changes::report(&run);
    if let Some(from) = start.filter(|f| strip_hash(f) != strip_hash(final_url)) {
        v["summary"] = Value::String(format!(
            "Navigated to {final_url}. {}",
            v["summary"].as_str().unwrap_or("")
        ));
        v["navigated"] = json!({ "from": from });
    }
    // nothing ran and nothing happened: no changes to report (a failed step says its error)
    if v["summary"].as_str() == Some("") {
        return None;
    }
    Some(v)
}

/// What the page's own background work touched while the run's actions settled (and what
/// the actions' work touched), from the page's work hook; recording stops. None when its
/// own work touched nothing (or the document has no hook).
async fn own_work(b: &Browser, base: &Baseline) -> Option<diff::OwnWork> {
    use crate::engine::{touched_identities, work_stop, work_touched};
    if work_stop(&b.page, &base.work).await.unwrap_or(0) == 0 {
        return None;
    }
    let lists = work_touched(&b.page, &base.work).await?;
    let t = touched_identities(&b.page, lists).await?;
    tracing::debug!(?t, "the page's own work and the actions' touched");
    Some(diff::OwnWork {
        bg_up: t.bg_up.into_iter().collect(),
        bg_down: t.bg_down.into_iter().collect(),
        act_up: t.act_up.into_iter().collect(),
        act_down: t.act_down.into_iter().collect(),
    })
}

/// The whole page with each element's identity, for the diff of a run's changes; `after`
/// also takes boxes (which new controls are in the viewport) and refs for every candidate
/// (the items of a list that opened can be acted on at once).
async fn page_snapshot(b: &mut Browser, after: bool) -> Result<Snapshot> {
    capture(
        b,
        &CaptureOptions {
            no_cache: true,
            // before: the walk of the journal's describe, or the last reply's, when the page
            // has not changed since
            reuse: !after,
            max_nodes: 0,
            ids: true,
            boxes: after,
            all_refs: after,
            ..Default::default()
        },
    )
    .await
}
