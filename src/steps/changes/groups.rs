//! What came and went as a whole (docs/reference/replies.md#changes): popups and dialogs
//! that opened (a dialog with its text and first field, the focused control marked), the
//! other groups that were added (in the viewport first, live regions left to what they
//! announced), and how a group is named.
//!
//! Owns: how a group is named, the line of one that opened or came, and the roles that make
//! a popup, a dialog, a live region. Must not: word a single change (words.rs) or order the
//! summary (changes/mod.rs).

use super::words::{CONTROLS_CAP, control_item, control_list, control_list_said, list};
use crate::safe::{quote, squash};
use crate::snapshot::Snapshot;
use crate::snapshot::diff::{Group, PageDiff, labelled};
use crate::snapshot::render::cut;

/// Roles that open and close as a whole: reported as `Opened` / `Closed`.
const POPUPS: &[&str] = &[
    "dialog",
    "alertdialog",
    "menu",
    "listbox",
    "tree",
    "grid",
    "tooltip",
];

/// Roles of dialogs: their text and first field are named when they open.
const DIALOGS: &[&str] = &["dialog", "alertdialog"];

/// How many elements a summary names in one list before counting the rest.
pub(super) const NAMED: usize = 5;

/// Roles of live regions: what they show is announced (effects), not repeated as added.
const LIVE: &[&str] = &["alert", "status", "log", "marquee", "timer"];

/// Whether node i of `s` is in the viewport (its box, when the snapshot has boxes).
fn in_view(s: &Snapshot, i: usize) -> Option<bool> {
    s.nodes[i].bbox.map(|b| s.in_viewport(b))
}

/// Whether a group shows in the viewport: its root, or a control in it.
pub(super) fn group_in_view(s: &Snapshot, g: &Group) -> Option<bool> {
    let root = in_view(s, g.root);
    if root == Some(true) {
        return root;
    }
    let any = g
        .controls
        .iter()
        .filter_map(|&c| in_view(s, c))
        .reduce(|a, b| a || b);
    any.or(root)
}

pub(super) fn is_popup(s: &Snapshot, g: &Group) -> bool {
    POPUPS.contains(&s.nodes[g.root].role.as_str())
}

/// A group as a summary names it: its root with its ref, and, when the root has no name,
/// the start of its text (`alert "Card declined"`).
pub(super) fn group_label(s: &Snapshot, g: &Group) -> String {
    let n = &s.nodes[g.root];
    let l = labelled(n);
    if n.name.is_empty() && n.words().is_none() && !g.text.is_empty() {
        format!("{l} {}", quote(&cut(&g.text, 60)))
    } else {
        l
    }
}

/// A group with the start of the text it shows besides its name (`tabpanel "Getting there"
/// s4e7: "The hut is reached..."`): what an agent opened a panel for.
fn group_with_text(s: &Snapshot, g: &Group) -> String {
    let n = &s.nodes[g.root];
    let rest = g
        .text
        .strip_prefix(n.name.as_str())
        .unwrap_or(&g.text)
        .trim();
    if n.name.is_empty() || rest.is_empty() {
        return group_label(s, g);
    }
    format!("{}: {}", labelled(n), quote(&cut(rest, 100)))
}

/// The controls of a group a summary lists: not its root, and not the rows and items that
/// hold other controls (a calendar's rows around its day buttons) when there are others.
fn listed(s: &Snapshot, g: &Group) -> Vec<usize> {
    const HOLDERS: &[&str] = &["row", "rowgroup", "listitem", "treeitem", "generic"];
    let all: Vec<usize> = g
        .controls
        .iter()
        .copied()
        .filter(|&c| c != g.root)
        .collect();
    let leaves: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&c| !HOLDERS.contains(&s.nodes[c].role.as_str()) || s.children[c].is_empty())
        .collect();
    let mut out = if leaves.is_empty() { all } else { leaves };
    // nameless ones (a calendar's blank cells) after the named
    out.sort_by_key(|&c| s.nodes[c].name_or_words().trim().is_empty());
    out
}

/// `Opened dialog "X": "text"; field textbox "Street" s2e1 (focused); 4 controls: ...`
pub(super) fn opened(s: &Snapshot, g: &Group) -> (String, bool) {
    let root = &s.nodes[g.root];
    let dialog = DIALOGS.contains(&root.role.as_str());
    // the page made itself inert around it: one word, not the page removed
    let modal = if dialog && s.stats.behind_modal {
        "modal "
    } else {
        ""
    };
    let mut out = format!("Opened {modal}{}", labelled(root));
    let text = g
        .text
        .strip_prefix(root.name.as_str())
        .unwrap_or(&g.text)
        .trim();
    if dialog && !text.is_empty() {
        out.push_str(&format!(": {}", quote(&cut(text, 120))));
    }
    // its controls, a dialog's first field first, the focused one marked
    let mut controls = listed(s, g);
    if dialog && let Some(f) = g.first_field {
        controls.retain(|&c| c != f);
        controls.insert(0, f);
    }
    let items: Vec<(String, String)> = controls
        .iter()
        .map(|&c| {
            control_item(
                s,
                c,
                if g.focused == Some(c) {
                    " (focused)"
                } else {
                    ""
                },
            )
        })
        .collect();
    let (list, said) = control_list_said(&items, CONTROLS_CAP);
    let said_focus = g
        .focused
        .is_some_and(|f| said.iter().any(|&k| controls[k] == f));
    if !controls.is_empty() {
        let sep = if dialog { "; " } else { ": " };
        out.push_str(&format!("{sep}{list}"));
    }
    out.push('.');
    (out, said_focus)
}

/// Whether what a group shows (its name, text and controls' names) says text `t`: a
/// dialog that is also a live region announces what it shows when it opens.
pub(super) fn says(s: &Snapshot, g: &Group, t: &str) -> bool {
    let mut all = vec![s.nodes[g.root].name.clone(), g.text.clone()];
    all.extend(g.controls.iter().map(|&c| s.nodes[c].name.clone()));
    let all = squash(&all.join(" "));
    let words = |x: &str| x.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let have = words(&all);
    all.contains(t) || words(t).iter().all(|w| have.contains(w))
}

/// Whether node `up` of `s` is an ancestor of node `i`.
pub(super) fn is_ancestor(s: &Snapshot, up: usize, i: usize) -> bool {
    let mut p = s.nodes[i].parent;
    while let Some(q) = p {
        if q == up {
            return true;
        }
        p = s.nodes[q].parent;
    }
    false
}

/// A focusable or clickable `generic` with no name, text or controls in it (a dialog's focus
/// trap, a modal's backdrop): news to no one; counted, not named.
pub(super) fn bare(s: &Snapshot, g: &Group) -> bool {
    let n = &s.nodes[g.root];
    n.role == "generic" && n.name.is_empty() && g.text.is_empty() && g.controls.len() <= 1
}

/// What else came: in the viewport first, each with the controls in it. A live region whose
/// text was announced is left to the announcement; a bare `generic` (a dialog's focus trap,
/// a modal's backdrop) is counted, not named, as focusable or clickable.
pub(super) fn added(a: &Snapshot, d: &PageDiff, announced: &[String]) -> Option<String> {
    let mut others: Vec<&Group> = d
        .added
        .iter()
        .filter(|g| !is_popup(a, g))
        .filter(|g| {
            let n = &a.nodes[g.root];
            let said = squash(&format!("{} {}", n.name, g.text));
            !(LIVE.contains(&n.role.as_str())
                && announced
                    .iter()
                    .any(|t| said.contains(t.as_str()) || t.contains(said.trim())))
        })
        .collect();
    others.sort_by_key(|g| group_in_view(a, g) != Some(true));
    // a bare clickable (a modal's backdrop that closes it on a click) is no focusable: say
    // which it is, as its line does (`- generic [clickable] [ref=s5e11]`)
    let clickable = |g: &&Group| a.nodes[g.root].states.clickable;
    let unnamed = others
        .iter()
        .filter(|g| bare(a, g) && !clickable(g))
        .count();
    let unnamed_clickable = others.iter().filter(|g| bare(a, g) && clickable(g)).count();
    others.retain(|g| !bare(a, g));
    // the first two in the viewport say the start of their text too
    let mut named: Vec<String> = others
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let inner: Vec<String> = g
                .controls
                .iter()
                .filter(|&&c| c != g.root)
                .map(|&c| labelled(&a.nodes[c]))
                .collect();
            let label = if k < 2 && group_in_view(a, g) == Some(true) {
                group_with_text(a, g)
            } else {
                group_label(a, g)
            };
            if inner.is_empty() {
                label
            } else {
                format!("{label} ({})", list(&inner, 3))
            }
        })
        .collect();
    for (n, what) in [(unnamed, "focusable"), (unnamed_clickable, "clickable")] {
        if n > 0 {
            named.push(format!(
                "{n} unnamed {what} element{}",
                if n == 1 { "" } else { "s" }
            ));
        }
    }
    (!named.is_empty()).then(|| format!("Added {}.", list(&named, NAMED)))
}

/// The words of the controls a re-render replaced (docs/reference/replies.md#changes): by the
/// element that stayed around them, with their new refs (`Re-rendered grid "March 2026"
/// (link "1" s5e3, link "2" s5e4, link "3" s5e5, +28).`).
pub(super) fn rerendered(a: &Snapshot, d: &PageDiff) -> Option<String> {
    let named: Vec<String> = d
        .rerendered
        .iter()
        .map(|g| {
            let inner: Vec<(String, String)> =
                g.controls.iter().map(|&c| control_item(a, c, "")).collect();
            format!(
                "{} ({})",
                group_label(a, g),
                control_list(&inner, CONTROLS_CAP)
            )
        })
        .collect();
    (!named.is_empty()).then(|| format!("Re-rendered {}.", list(&named, NAMED)))
}
