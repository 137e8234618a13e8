//! The comparison: the fields, text runs and child order of every element that stayed, the
//! subtrees that came and went, and where the focus moved.
//!
//! Owns: which fields are compared and in what order, and that an invalid field's new error
//! text is news. Must not: word changes (steps/changes/ does), or compare whether text is
//! painted (scrolling and layers change that, not the page).

use super::groups::{groups, sizes};
use super::matching::matching;
use super::runs::{implied_text, runs, text_changes};
use super::{Change, Field, Group, PageDiff, without_private_use};
use crate::snapshot::{Node, Snapshot};
use crate::wire::Tri;
use serde_json::Value;

fn tri(t: &Option<Tri>) -> Value {
    match t {
        None | Some(Tri::Bool(false)) => Value::Bool(false),
        Some(Tri::Bool(true)) => Value::Bool(true),
        Some(Tri::Token(s)) => Value::String(s.clone()),
    }
}

fn opt_str(s: &Option<String>) -> Value {
    s.clone().map(Value::String).unwrap_or(Value::Null)
}

/// The fields compared on an element that stayed, in the order they are reported. Whether
/// text is painted (`unseen`) is not among them: a layer over it, its place in the viewport
/// and scrolling change that, not the page.
fn fields(n: &Node) -> [(Field, Value); 12] {
    let s = &n.states;
    [
        (Field::Name, Value::String(n.name.clone())),
        (Field::Value, opt_str(&n.value)),
        (Field::Checked, tri(&s.checked)),
        (
            Field::Expanded,
            s.expanded.map(Value::Bool).unwrap_or(Value::Null),
        ),
        (Field::Selected, Value::Bool(s.selected)),
        (Field::Pressed, tri(&s.pressed)),
        (Field::Disabled, Value::Bool(s.disabled)),
        (Field::Invalid, Value::Bool(s.invalid)),
        (Field::Required, Value::Bool(s.required)),
        (Field::Readonly, Value::Bool(s.readonly)),
        (
            Field::Level,
            s.level.map(Value::from).unwrap_or(Value::Null),
        ),
        (Field::Sort, opt_str(&s.sort)),
    ]
}

/// Whether the children that stayed under a node that stayed are in another order (rows a
/// table sorted): the role of the first one found out of its old order, for the words.
fn reordered(
    before: &Snapshot,
    after: &Snapshot,
    ib: usize,
    ia: usize,
    a2b: &[Option<usize>],
) -> Option<String> {
    let mut last = 0;
    for &c in &after.children[ia] {
        let Some(cb) = a2b[c] else { continue };
        if before.nodes[cb].parent != Some(ib) || after.nodes[c].is_text() {
            continue;
        }
        if cb < last {
            return Some(after.nodes[c].role.clone());
        }
        last = cb;
    }
    None
}

/// The controls a re-render replaced (new elements matched to old ones by role and name: a
/// calendar's days after "next month", a list a framework rendered anew), grouped under the
/// nearest element that stayed, in the after snapshot's order: their refs are new, and the
/// ones an agent holds name elements that are gone (docs/reference/replies.md#changes).
/// Only the innermost are listed (a row and a cell around a day's link are not news beside
/// the link).
fn rerendered(after: &Snapshot, recreated: &[bool], size: &[usize]) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    for ia in 1..after.nodes.len() {
        if !recreated[ia] || after.nodes[ia].ref_.is_none() {
            continue;
        }
        let mut p = after.nodes[ia].parent.unwrap_or(0);
        while p > 0 && recreated[p] {
            p = after.nodes[p].parent.unwrap_or(0);
        }
        match out.iter_mut().find(|g| g.root == p) {
            Some(g) => {
                g.controls.push(ia);
                g.nodes += 1;
            }
            None => out.push(Group {
                root: p,
                nodes: 1,
                controls: vec![ia],
                ..Group::default()
            }),
        }
    }
    for g in &mut out {
        let all = std::mem::take(&mut g.controls);
        g.controls = all
            .iter()
            .enumerate()
            .filter(|&(k, &c)| all.get(k + 1).is_none_or(|&next| next >= c + size[c]))
            .map(|(_, &c)| c)
            .collect();
        g.nodes = g.controls.len();
    }
    out
}

/// Compares `before` and `after`, two whole-page snapshots of one document.
pub fn diff(before: &Snapshot, after: &Snapshot) -> PageDiff {
    let m = matching(before, after);
    let (a2b, b2a) = (m.a2b, m.b2a);
    let (ib_implied, ia_implied) = (implied_text(before), implied_text(after));
    let mut out = PageDiff::default();
    // fields and text of the elements that stayed, in the after snapshot's order
    for (ia, m) in a2b.iter().enumerate() {
        let Some(ib) = *m else { continue };
        let (nb, na) = (&before.nodes[ib], &after.nodes[ia]);
        if ia > 0 {
            for ((f, vb), (_, va)) in fields(nb).into_iter().zip(fields(na)) {
                let same = match f {
                    Field::Name => without_private_use(&nb.name) == without_private_use(&na.name),
                    _ => vb == va,
                };
                if !same {
                    out.changed.push(Change {
                        before: ib,
                        after: ia,
                        field: f,
                        from: vb,
                        to: va,
                        size: None,
                    });
                }
            }
            // an invalid field's error text (its description) is news when it changes
            if na.states.invalid && nb.description != na.description {
                out.changed.push(Change {
                    before: ib,
                    after: ia,
                    field: Field::Message,
                    from: opt_str(&nb.description),
                    to: opt_str(&na.description),
                    size: None,
                });
            }
        }
        let (rb, ra) = (runs(before, ib, &ib_implied), runs(after, ia, &ia_implied));
        if rb != ra {
            text_changes(&rb, &ra, ib, ia, &mut out.changed);
        }
        if let Some(role) = reordered(before, after, ib, ia, &a2b) {
            out.changed.push(Change {
                before: ib,
                after: ia,
                field: Field::Order,
                from: Value::Null,
                to: Value::String(role),
                size: None,
            });
        }
    }
    let (sb, sa) = (sizes(before), sizes(after));
    out.added = groups(after, &a2b, &sa, &ia_implied);
    out.removed = groups(before, &b2a, &sb, &ib_implied);
    out.rerendered = rerendered(after, &m.recreated, &sa);
    let focused = |s: &Snapshot| s.nodes.iter().position(|n| n.states.focused);
    if let Some(fa) = focused(after) {
        let was = focused(before);
        if was.is_none() || a2b[fa] != was {
            out.focus = Some(fa);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::diff::tests::with_ids;
    use crate::snapshot::diff::without_private_use;
    use crate::snapshot::tests::snap;
    use serde_json::json;

    #[test]
    fn names_that_differ_only_in_private_use_glyphs_are_the_same() {
        let before = with_ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "treeitem", "\u{e5cc} Fruits", Some("s1e1"), None),
            ]),
            &[0, 1],
        );
        let mut after = with_ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "treeitem", "\u{e5cf} Fruits", Some("s1e1"), None),
            ]),
            &[0, 1],
        );
        after.nodes[1].states.expanded = Some(true);
        let d = diff(&before, &after);
        assert_eq!(d.changed.len(), 1, "{d:?}");
        assert_eq!(d.changed[0].field, Field::Expanded);
        assert_eq!(without_private_use("\u{e5cc} Fruits"), "Fruits");
    }

    #[test]
    fn rows_a_sort_moved_are_one_order_change() {
        let before = with_ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "table", "Guests", None, None),
                (1, "row", "Ada 3", None, None),
                (1, "row", "Brian 1", None, None),
                (1, "row", "Chen 2", None, None),
            ]),
            &[0, 1, 2, 3, 4],
        );
        let after = with_ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "table", "Guests", None, None),
                (1, "row", "Brian 1", None, None),
                (1, "row", "Chen 2", None, None),
                (1, "row", "Ada 3", None, None),
            ]),
            &[0, 1, 3, 4, 2],
        );
        let d = diff(&before, &after);
        assert!(d.added.is_empty() && d.removed.is_empty(), "{d:?}");
        assert_eq!(d.changed.len(), 1, "{d:?}");
        assert_eq!(d.changed[0].field, Field::Order);
        assert_eq!(d.changed[0].to, json!("row"));
        assert_eq!(d.changed[0].after, 1);
    }

    #[test]
    fn identical_snapshots_have_no_change() {
        let a = snap(&[
            (-1, "document", "", None, None),
            (0, "button", "A", Some("s1e1"), None),
            (0, "text", "", None, Some("hello")),
        ]);
        assert!(diff(&a, &a.clone()).is_empty());
    }
}
