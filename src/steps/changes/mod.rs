//! The `changes` of a run (docs/reference/replies.md#changes): the page's changes during the run's actions, with
//! what they did besides, in the order an agent needs them. The summary (the MCP reply's
//! text) leads with the acted element's new state or value, then dialogs opened or answered
//! (with their text and first field), the new controls (in the viewport first) with their
//! refs, what live regions announced, where the focus went and the other effects; the rest
//! is counted, naming a few; a scroll the actions caused is one fact at the end. The JSON
//! keeps every entry.
//!
//! Owns: ordering (here), the words of changes and lists (`words`), the lines of groups
//! that opened, closed or came (`groups`). Must not: take snapshots or compare them
//! (snapshot/diff/).

mod groups;
#[cfg(test)]
mod reviewed;
mod words;

pub(super) use words::dialog_line;

use super::effects::Effects;
use crate::safe::{quote, squash};
use crate::snapshot::Snapshot;
use crate::snapshot::diff::{self, Change, Field, PageDiff, labelled};
use crate::snapshot::render::cut;
use groups::{
    NAMED, added, bare, group_in_view, group_label, is_ancestor, is_popup, opened, rerendered, says,
};
use serde_json::{Value, json};
use words::{
    CONTROLS_CAP, by_element, control_item, control_list, element_words, list, list_semi, word,
};

/// How many elements of the rest (changes elsewhere, removals) a summary names.
const REST_NAMED: usize = 3;

/// How many entries each of `added`, `removed` and `changed` lists; `more` counts the rest.
const ENTRIES_MAX: usize = 100;

/// What a run did, for its `changes`.
pub struct Run<'a> {
    pub before: &'a Snapshot,
    pub after: &'a Snapshot,
    pub diff: &'a PageDiff,
    /// The verb of the last action that ran ("Clicked"); None when no action ran (the one
    /// that was tried failed).
    pub verb: Option<&'a str>,
    /// What the last action did that the tree does not show: "textbox \"Notes\" down 71 px"
    /// (an element's scroll), said after the verb.
    pub detail: Option<&'a str>,
    /// The ref of the element the last action acted on.
    pub target: Option<&'a str>,
    /// The last action went to the focused element (a key press or typing without a ref):
    /// the element focused before it is the acted one.
    pub to_focused: bool,
    /// The run's steps' effects, merged.
    pub effects: &'a Effects,
    /// Page dialogs (alert, confirm, prompt) answered during the run: (text, how).
    pub dialogs: &'a [(String, String)],
    /// The window's scroll before and after.
    pub scroll: ([i64; 2], [i64; 2]),
}

/// `x,y` of a scroll position.
fn at(p: [i64; 2]) -> String {
    format!("{},{}", p[0], p[1])
}

/// The `changes` of a run on one document: the JSON with every entry, and its summary.
pub fn report(r: &Run) -> Value {
    let (b, a, d) = (r.before, r.after, r.diff);
    let target = match r.target {
        Some(t) => target_of(r, t),
        None if r.to_focused => focused_before(r),
        None => None,
    };
    let mut parts = lead(r, target);
    let said_focus = dialogs_and_popups(r, &mut parts);
    let announced = announcements(r);
    parts.extend(added(a, d, &announced));
    parts.extend(rerendered(a, d));
    // what live regions said, unless an opened dialog's text says it
    let said: Vec<String> = announced
        .iter()
        .filter(|t| !d.added.iter().any(|g| is_popup(a, g) && says(a, g, t)))
        .take(3)
        .map(|t| quote(&cut(t, 100)))
        .collect();
    if !said.is_empty() {
        parts.push(format!("Announced {}.", said.join(", ")));
    }
    // where the focus went, when not to the acted element, the widget around it, a
    // dialog's first field or a node without a ref in a popup that opened
    let in_opened = |f: usize| {
        d.added
            .iter()
            .any(|g| is_popup(a, g) && (g.root == f || is_ancestor(a, g.root, f)))
    };
    if let Some(f) = d.focus
        && !said_focus
        && !target.is_some_and(|t| t == f || is_ancestor(a, f, t))
        && !(a.nodes[f].ref_.is_none() && in_opened(f))
    {
        parts.push(format!("Focus on {}.", labelled(&a.nodes[f])));
    }
    // the other effects: new tabs, downloads, HTTP and console errors
    parts.extend(
        Effects {
            announced: vec![],
            navigation: None,
            ..r.effects.clone()
        }
        .summary(),
    );
    parts.extend(rest(r, target));
    // a scroll the actions caused: one fact
    if r.scroll.0 != r.scroll.1 {
        parts.push(format!("Scrolled to {}.", at(r.scroll.1)));
    }
    if parts.len() == 1
        && r.verb.is_some()
        && r.detail.is_none()
        && d.is_empty()
        && d.focus.is_none()
    {
        parts.push("No change.".into());
    }
    // each list holds its first ENTRIES_MAX entries; what is left is counted (a "select all"
    // of 5,000 rows is 5,000 changes: the summary says so, the JSON names 100)
    let mut left = serde_json::Map::new();
    let mut cap = |key: &str, all: Vec<Value>| -> Vec<Value> {
        if all.len() > ENTRIES_MAX {
            left.insert(key.into(), (all.len() - ENTRIES_MAX).into());
        }
        all.into_iter().take(ENTRIES_MAX).collect()
    };
    let added = cap(
        "added",
        d.added
            .iter()
            .map(|g| diff::group_entry(a, g, group_in_view(a, g)))
            .collect(),
    );
    let removed = cap(
        "removed",
        d.removed
            .iter()
            .map(|g| diff::group_entry(b, g, None))
            .collect(),
    );
    let changed = cap(
        "changed",
        d.changed.iter().map(|c| diff::change_entry(a, c)).collect(),
    );
    let mut out = json!({
        "summary": parts.join(" "),
        "added": added,
        "removed": removed,
        "changed": changed,
    });
    if !d.rerendered.is_empty() {
        let groups = d
            .rerendered
            .iter()
            .map(|g| rerendered_entry(a, g))
            .collect();
        out["rerendered"] = Value::Array(cap("rerendered", groups));
    }
    if !left.is_empty() {
        out["more"] = Value::Object(left);
    }
    if let Some(f) = d.focus {
        out["focus"] = Value::Object(diff::entry(&a.nodes[f]));
    }
    if r.scroll.0 != r.scroll.1 {
        out["scrolled"] = json!({"from": r.scroll.0, "to": r.scroll.1});
    }
    out
}

/// The JSON entry of a re-render: the element that stayed around it and the new controls.
fn rerendered_entry(a: &Snapshot, g: &diff::Group) -> Value {
    let mut m = diff::entry(&a.nodes[g.root]);
    let controls: Vec<Value> = g
        .controls
        .iter()
        .map(|&c| Value::Object(diff::entry(&a.nodes[c])))
        .collect();
    m.insert("controls".into(), controls.into());
    Value::Object(m)
}

/// The acted element in the after snapshot: by its ref, or, when a change of name gave it a
/// new one, through the element that had the ref before.
fn target_of(r: &Run, t: &str) -> Option<usize> {
    let has = |n: &crate::snapshot::Node| n.ref_.as_deref() == Some(t);
    if let Some(i) = r.after.nodes.iter().position(has) {
        return Some(i);
    }
    let ib = r.before.nodes.iter().position(has)?;
    r.diff
        .changed
        .iter()
        .find(|c| c.before == ib)
        .map(|c| c.after)
}

/// The element that had the focus before the actions, in the after snapshot (when it changed).
fn focused_before(r: &Run) -> Option<usize> {
    let fb = r.before.nodes.iter().position(|n| n.states.focused)?;
    if let Some(c) = r.diff.changed.iter().find(|c| c.before == fb) {
        return Some(c.after);
    }
    let id = r.before.nodes[fb].id;
    (id != 0)
        .then(|| r.after.nodes.iter().position(|n| n.id == id))
        .flatten()
}

/// The summary's lead: the verb, with the acted element's new state or value when it changed
/// (`Set combobox "State" s1e3: value "Alabama".`); nothing when no action ran.
fn lead(r: &Run, target: Option<usize>) -> Vec<String> {
    // its states and value; its own text only when nothing else of it changed (a slider's
    // label that shows its value says what the value does)
    let mine = |text: bool| -> Vec<String> {
        r.diff
            .changed
            .iter()
            .filter(|c| Some(c.after) == target && (c.field == Field::Text) == text)
            .map(word)
            .collect()
    };
    let mut own = mine(false);
    if own.is_empty() {
        own = mine(true);
    }
    match (r.verb, target) {
        (Some(v), Some(t)) if !own.is_empty() => {
            vec![format!(
                "{v} {}: {}.",
                labelled(&r.after.nodes[t]),
                own.join(", ")
            )]
        }
        (Some(v), _) => match r.detail {
            Some(d) => vec![format!("{v} {d}.")],
            None => vec![format!("{v}.")],
        },
        (None, _) => vec![],
    }
}

/// Dialogs the page answered, a navigation, and dialogs and popups that opened or closed;
/// whether an opened dialog's words said where the focus is.
fn dialogs_and_popups(r: &Run, parts: &mut Vec<String>) -> bool {
    for (text, how) in r.dialogs {
        parts.push(dialog_line(&cut(text, 200), how));
    }
    if let Some(n) = &r.effects.navigation {
        let status = n.status.map(|s| format!(" ({s})")).unwrap_or_default();
        parts.push(format!("Navigated to {}{status}.", quote(&n.to)));
    }
    let mut said_focus = false;
    for g in r.diff.added.iter().filter(|g| is_popup(r.after, g)) {
        let (words, focus) = opened(r.after, g);
        parts.push(words);
        said_focus |= focus;
    }
    let closed: Vec<String> = r
        .diff
        .removed
        .iter()
        .filter(|g| is_popup(r.before, g))
        .map(|g| labelled(&r.before.nodes[g.root]))
        .collect();
    if !closed.is_empty() {
        parts.push(format!("Closed {}.", list(&closed, NAMED)));
    }
    said_focus
}

/// The run's announcements, white space collapsed.
fn announcements(r: &Run) -> Vec<String> {
    r.effects
        .announced
        .iter()
        .map(|t| squash(t))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The rest, a few named: changes of other elements (text a live region announced aside:
/// it was said), then what went.
fn rest(r: &Run, target: Option<usize>) -> Vec<String> {
    let (a, b, d) = (r.after, r.before, r.diff);
    let announced_text = |c: &Change| {
        c.field == Field::Text
            && r.effects.announced.iter().any(|t| {
                c.to.as_str()
                    .is_some_and(|to| t.contains(to.trim_matches('.')))
            })
    };
    // the acted element's changes are the lead's
    let others = by_element(
        a,
        d.changed
            .iter()
            .filter(|c| r.verb.is_none() || Some(c.after) != target)
            .filter(|c| !announced_text(c)),
    );
    let mut out = Vec::new();
    if !others.is_empty() {
        let items: Vec<String> = others
            .iter()
            .map(|(i, w)| element_words(a, *i, w))
            .collect();
        out.push(format!("Changed {}.", list_semi(&items, REST_NAMED)));
        // the controls renamed among the rest, with their refs: a date picker's cells that
        // now show the next month's days are where the agent's next click goes
        let renamed: Vec<usize> = others
            .iter()
            .skip(REST_NAMED)
            .map(|(i, _)| *i)
            .filter(|&i| {
                let n = &a.nodes[i];
                // (not the rows around the cells, nor a cell left blank)
                n.ref_.is_some()
                    && n.role != "row"
                    && !n.name_or_words().trim().is_empty()
                    && d.changed
                        .iter()
                        .any(|c| c.after == i && c.field == Field::Name)
            })
            .collect();
        if renamed.len() > 1 {
            let items: Vec<(String, String)> =
                renamed.iter().map(|&i| control_item(a, i, "")).collect();
            out.push(format!(
                "Renamed too: {}.",
                control_list(&items, CONTROLS_CAP)
            ));
        }
    }
    let gone: Vec<String> = d
        .removed
        .iter()
        .filter(|g| !is_popup(b, g) && !bare(b, g))
        .map(|g| group_label(b, g))
        .collect();
    if !gone.is_empty() {
        out.push(format!("Removed {}.", list(&gone, REST_NAMED)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::tests::snap;

    /// `s` with the engine's node ids (they tell an element that stayed from a new one).
    pub(super) fn ids(mut s: Snapshot, ids: &[u64]) -> Snapshot {
        for (n, &id) in s.nodes.iter_mut().zip(ids) {
            n.id = id;
        }
        s
    }

    fn run<'a>(
        b: &'a Snapshot,
        a: &'a Snapshot,
        d: &'a PageDiff,
        target: Option<&'a str>,
        e: &'a Effects,
    ) -> Run<'a> {
        Run {
            before: b,
            after: a,
            diff: d,
            verb: Some("Clicked"),
            detail: None,
            target,
            to_focused: false,
            effects: e,
            dialogs: &[],
            scroll: ([0, 0], [0, 0]),
        }
    }

    #[test]
    fn an_elements_scroll_is_said_after_the_verb_and_is_a_change() {
        let b = snap(&[
            (-1, "document", "Terms", None, None),
            (0, "textbox", "Licence", Some("s1e3"), None),
        ]);
        let d = diff::diff(&b, &b);
        let e = Effects::default();
        let r = Run {
            verb: Some("Scrolled"),
            detail: Some("textbox \"Licence\" down 71 px"),
            ..run(&b, &b, &d, Some("s1e3"), &e)
        };
        assert_eq!(
            report(&r)["summary"],
            "Scrolled textbox \"Licence\" down 71 px."
        );
    }

    #[test]
    fn an_alert_and_a_scroll_are_all_a_scroll_and_alert_reply_says() {
        let b = snap(&[
            (-1, "document", "Shop", None, None),
            (0, "button", "Returns", Some("s1e9"), None),
        ]);
        let d = diff::diff(&b, &b);
        let e = Effects::default();
        let dialogs = vec![(
            "Returns are accepted within 30 days of delivery.".to_string(),
            "dismissed".to_string(),
        )];
        let r = Run {
            dialogs: &dialogs,
            scroll: ([0, 0], [0, 2480]),
            ..run(&b, &b, &d, Some("s1e9"), &e)
        };
        let v = report(&r);
        let s = v["summary"].as_str().unwrap();
        assert_eq!(
            s,
            "Clicked. Dialog \"Returns are accepted within 30 days of delivery.\" dismissed. Scrolled to 0,2480."
        );
        assert!(s.len() <= 200);
        assert_eq!(v["added"], json!([]));
        assert_eq!(v["scrolled"]["to"], json!([0, 2480]));
    }

    #[test]
    fn the_acted_element_leads_with_its_value_then_what_opened() {
        let b = ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "combobox", "State", Some("s1e3"), Some("")),
                (0, "link", "Docs", Some("s1e4"), None),
            ]),
            &[0, 1, 2],
        );
        let mut a = ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "combobox", "State", Some("s1e3"), Some("Alabama")),
                (0, "link", "Docs", Some("s1e4"), None),
                (0, "dialog", "Confirm state", None, None),
                (3, "text", "", None, Some("Ship to Alabama?")),
                (3, "button", "Yes", Some("s2e1"), None),
            ]),
            &[0, 1, 2, 3, 0, 4],
        );
        a.nodes[1].states.expanded = Some(false);
        let d = diff::diff(&b, &a);
        let e = Effects {
            announced: vec!["State saved".into()],
            ..Effects::default()
        };
        let r = Run {
            verb: Some("Set"),
            ..run(&b, &a, &d, Some("s1e3"), &e)
        };
        let v = report(&r);
        assert_eq!(
            v["summary"],
            "Set combobox \"State\" s1e3: value \"Alabama\", collapsed. Opened dialog \"Confirm state\": \"Ship to Alabama?\"; button \"Yes\" s2e1. Announced \"State saved\"."
        );
        assert_eq!(v["added"][0]["controls"][0]["ref"], "s2e1");
    }

    #[test]
    fn no_change_is_said_and_a_failed_action_claims_none() {
        let b = snap(&[
            (-1, "document", "", None, None),
            (0, "button", "A", Some("s1e1"), None),
        ]);
        let d = diff::diff(&b, &b);
        let e = Effects::default();
        assert_eq!(
            report(&run(&b, &b, &d, None, &e))["summary"],
            "Clicked. No change."
        );
        let failed = Run {
            verb: None,
            ..run(&b, &b, &d, None, &e)
        };
        assert_eq!(report(&failed)["summary"], "");
    }

    #[test]
    fn a_panel_that_came_says_its_text_and_a_sort_names_its_first_row() {
        let b = ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "tab", "Route", Some("s1e1"), None),
                (0, "table", "Huts", None, None),
                (2, "row", "", None, None),
                (3, "cell", "Zeta", None, None),
                (2, "row", "", None, None),
                (5, "cell", "Alpha", None, None),
            ]),
            &[0, 1, 2, 3, 4, 5, 6],
        );
        let mut a = ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "tab", "Route", Some("s1e1"), None),
                (0, "tabpanel", "Route", None, None),
                (2, "text", "", None, Some("Start at the farm, 2 hours.")),
                (0, "table", "Huts", None, None),
                (4, "row", "", None, None),
                (5, "cell", "Alpha", None, None),
                (4, "row", "", None, None),
                (7, "cell", "Zeta", None, None),
            ]),
            &[0, 1, 9, 0, 2, 5, 6, 3, 4],
        );
        a.nodes[1].states.selected = true;
        a.nodes[2].bbox = Some([0.0, 0.0, 100.0, 50.0]);
        let d = diff::diff(&b, &a);
        let e = Effects::default();
        let s = report(&run(&b, &a, &d, Some("s1e1"), &e))["summary"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(
            s,
            "Clicked tab \"Route\" s1e1: selected. Added tabpanel \"Route\": \"Start at the farm, 2 hours.\". Changed table \"Huts\" rows reordered, first row \"Alpha\"."
        );
    }

    #[test]
    fn the_rest_is_counted_with_a_few_named() {
        let rows: Vec<crate::snapshot::tests::Row> =
            std::iter::once((-1, "document", "", None, None))
                .chain((0..6).map(|_| (0, "checkbox", "Item", None, None)))
                .collect();
        let b = snap(&rows);
        let mut a = b.clone();
        for n in a.nodes.iter_mut().skip(1) {
            n.states.checked = Some(crate::wire::Tri::Bool(true));
        }
        let d = diff::diff(&b, &a);
        let e = Effects::default();
        let s = report(&run(&b, &a, &d, None, &e))["summary"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(
            s,
            "Clicked. Changed checkbox \"Item\" checked; checkbox \"Item\" checked; checkbox \"Item\" checked; +3 more."
        );
    }
}
