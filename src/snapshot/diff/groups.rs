//! The subtrees that came or went: each one reported once, by its root (the highest node
//! with no match under a parent that has one), with its size, controls, first form field,
//! focused node and text.
//!
//! Owns: what a group's text holds (text runs and names of nodes that are not controls,
//! less what only labels a control). Must not: report an element that moved in from
//! elsewhere (it is matched), or word the group (`entry` and steps/changes/ do).

use super::{Group, plain};
use crate::safe;
use crate::snapshot::Snapshot;

/// Roles of form fields, for a group's first field.
const FIELDS: &[&str] = &[
    "textbox",
    "searchbox",
    "combobox",
    "spinbutton",
    "slider",
    "checkbox",
    "radio",
    "switch",
    "listbox",
];

/// Subtree sizes (pre-order: node i's subtree is i..i + size[i]).
pub(super) fn sizes(s: &Snapshot) -> Vec<usize> {
    let mut size = vec![1usize; s.nodes.len()];
    for i in (1..s.nodes.len()).rev() {
        if let Some(p) = s.nodes[i].parent {
            size[p] += size[i];
        }
    }
    size
}

/// The subtrees of `s` whose roots have no match while their parents do (text runs aside:
/// they are compared under their element), with what came or went in each.
pub(super) fn groups(
    s: &Snapshot,
    m: &[Option<usize>],
    size: &[usize],
    implied: &[bool],
) -> Vec<Group> {
    let mut out = Vec::new();
    let mut i = 1;
    while i < s.nodes.len() {
        let n = &s.nodes[i];
        let parent_matched = m[n.parent.unwrap_or(0)].is_some();
        if m[i].is_some() || n.is_text() || !parent_matched {
            i += 1;
            continue;
        }
        let mut g = Group {
            root: i,
            ..Group::default()
        };
        let mut text: Vec<&str> = Vec::new();
        for j in i..i + size[i] {
            let d = &s.nodes[j];
            // a matched node inside is an element that moved in, not news
            if m[j].is_some() || (d.is_text() && implied[j]) {
                continue;
            }
            g.nodes += 1;
            if d.ref_.is_some() {
                g.controls.push(j);
                if g.first_field.is_none() && FIELDS.contains(&d.role.as_str()) {
                    g.first_field = Some(j);
                }
            } else if d.is_text() {
                text.push(d.value.as_deref().unwrap_or(""));
            } else if !d.name.is_empty() && j != i {
                // (the root's own name is on its label)
                text.push(&d.name);
            }
            if d.states.focused {
                g.focused = Some(j);
            }
        }
        // text that only names a control in the group (its label) is said by the control
        let names: Vec<String> = g
            .controls
            .iter()
            .map(|&c| plain(&s.nodes[c].name))
            .collect();
        text.retain(|t| !names.contains(&plain(t)));
        let joined = text.join(" ");
        g.text = safe::squash(&joined);
        out.push(g);
        i += size[i];
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::snapshot::diff::tests::with_ids;
    use crate::snapshot::diff::{diff, group_entry};
    use crate::snapshot::tests::snap;
    use serde_json::json;

    #[test]
    fn a_new_subtree_is_one_group_with_its_controls_and_text() {
        let before = with_ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "button", "Open", Some("s1e1"), None),
            ]),
            &[0, 1],
        );
        let mut after = with_ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "button", "Open", Some("s1e1"), None),
                (0, "dialog", "Add address", None, None),
                (2, "heading", "Add address", None, None),
                (2, "text", "", None, Some("Where should we ship?")),
                (2, "textbox", "Street", Some("s2e1"), Some("")),
                (2, "button", "Save", Some("s2e2"), None),
            ]),
            &[0, 1, 2, 3, 0, 4, 5],
        );
        after.nodes[5].states.focused = true;
        let d = diff(&before, &after);
        assert_eq!(d.added.len(), 1, "{d:?}");
        let g = &d.added[0];
        assert_eq!(g.root, 2);
        assert_eq!(g.nodes, 5);
        assert_eq!(g.controls, vec![5, 6]);
        assert_eq!(g.first_field, Some(5));
        assert_eq!(g.focused, Some(5));
        assert_eq!(g.text, "Add address Where should we ship?");
        assert_eq!(d.focus, Some(5));
        let e = group_entry(&after, g, Some(true));
        assert_eq!(e["role"], "dialog");
        assert_eq!(
            e["controls"][1],
            json!({"role": "button", "name": "Save", "ref": "s2e2"})
        );
        assert_eq!(e["inView"], true);
    }
}
