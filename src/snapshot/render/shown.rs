//! Which children a rendering shows: text runs a name already says, and the options of a
//! closed select or combobox (its value and count stand for them in text).
//!
//! Owns: the roles whose name is their content, what a collapsed combobox's subtree may hold.
//! Must not: write output (`text`, `json` and `detail` do), or recurse.

use crate::safe::squash;
use crate::snapshot::Snapshot;

/// Roles whose name is their content: text under them says nothing the name does not.
const NAME_IS_CONTENT: &[&str] = &[
    "button",
    "link",
    "heading",
    "cell",
    "gridcell",
    "columnheader",
    "rowheader",
    "option",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "treeitem",
    "checkbox",
    "radio",
    "switch",
];

/// The children worth showing: text runs that only repeat the node's name are implied by it.
pub fn shown_children(snap: &Snapshot, i: usize) -> &[usize] {
    let kids = &snap.children[i];
    let n = &snap.nodes[i];
    if kids.is_empty() || n.name.is_empty() || n.is_text() {
        return kids;
    }
    let all_text = kids.iter().all(|&k| snap.nodes[k].is_text());
    if all_text && NAME_IS_CONTENT.contains(&n.role.as_str()) {
        return &[];
    }
    if all_text {
        let joined: Vec<&str> = kids
            .iter()
            .filter_map(|&k| snap.nodes[k].value.as_deref())
            .collect();
        let joined = joined.join(" ");
        if squash(&joined) == squash(&n.name) {
            return &[];
        }
    }
    kids
}

/// For a closed combobox whose options are in the tree (a native select, or an ARIA
/// combobox with its listbox), the number of options and the value to show (the node's own
/// value, else the selected options' names); None for anything else. docs/reference/output.md#values-selects-and-comboboxes: the text shows
/// the value and the count, not the options (JSON keeps them).
pub fn collapsed_options(snap: &Snapshot, i: usize) -> Option<(usize, Option<String>)> {
    let n = &snap.nodes[i];
    if n.role != "combobox" || n.states.expanded == Some(true) || snap.children[i].is_empty() {
        return None;
    }
    // the subtree: nodes after i deeper than i (pre-order), only options, groups and
    // listboxes (anything else, say a text field inside, keeps the children shown)
    let mut count = 0;
    let mut selected: Vec<&str> = Vec::new();
    let mut stack: Vec<usize> = snap.children[i].iter().rev().copied().collect();
    while let Some(k) = stack.pop() {
        let c = &snap.nodes[k];
        match c.role.as_str() {
            "option" => {
                count += 1;
                if c.states.selected {
                    selected.push(&c.name);
                }
            }
            "listbox" | "group" => stack.extend(snap.children[k].iter().rev().copied()),
            _ if c.is_text() => {}
            _ => return None,
        }
    }
    if count == 0 {
        return None;
    }
    let value = n
        .value
        .clone()
        .filter(|v| !v.is_empty())
        .or_else(|| (!selected.is_empty()).then(|| selected.join(", ")));
    Some((count, value))
}
