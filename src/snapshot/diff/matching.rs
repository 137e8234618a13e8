//! Which elements of `after` are elements of `before`: by identity (`Node::id`) first, then
//! re-created elements (same role and name under a matched parent, in order).
//!
//! Owns: the pairing rules. Must not: compare what the matched elements say (`compare` does),
//! or match text runs (they are compared under their element).

use super::without_private_use;
use crate::snapshot::{Node, Snapshot};
use std::collections::{HashMap, VecDeque};

/// The key that pairs re-created elements: role and name (private-use characters aside), or
/// a nameless generic's words (its ref's identity: `Node::words`).
fn pair_key(n: &Node) -> (String, String) {
    (
        n.role.clone(),
        without_private_use(n.name_or_words()).into_owned(),
    )
}

/// Matches the elements of `after` with those of `before`: `(a_to_b, b_to_a)`, and which
/// elements of `after` were matched as re-created (`a_recreated`: new elements in the place
/// of old ones, whose refs are new too).
pub(super) fn matching(before: &Snapshot, after: &Snapshot) -> Matched {
    let (a2b, b2a, recreated) = pairs(before, after);
    Matched {
        a2b,
        b2a,
        recreated,
    }
}

/// What [`matching`] found.
pub(super) struct Matched {
    pub a2b: Vec<Option<usize>>,
    pub b2a: Vec<Option<usize>>,
    /// After nodes matched by role and name only (re-created elements).
    pub recreated: Vec<bool>,
}

type Pairs = (Vec<Option<usize>>, Vec<Option<usize>>, Vec<bool>);

fn pairs(before: &Snapshot, after: &Snapshot) -> Pairs {
    let (nb, na) = (before.nodes.len(), after.nodes.len());
    let mut a2b = vec![None; na];
    let mut b2a = vec![None; nb];
    let mut recreated = vec![false; na];
    if nb == 0 || na == 0 {
        return (a2b, b2a, recreated);
    }
    a2b[0] = Some(0);
    b2a[0] = Some(0);
    // by identity
    let by_id: HashMap<u64, usize> = before
        .nodes
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, n)| n.id != 0 && !n.is_text())
        .map(|(i, n)| (n.id, i))
        .collect();
    for (ia, n) in after.nodes.iter().enumerate().skip(1) {
        if n.id == 0 || n.is_text() {
            continue;
        }
        if let Some(&ib) = by_id.get(&n.id)
            && b2a[ib].is_none()
            && before.nodes[ib].role == n.role
        {
            a2b[ia] = Some(ib);
            b2a[ib] = Some(ia);
        }
    }
    // re-created elements: same role and name under matched parents, in order
    let mut free: HashMap<(usize, (String, String)), VecDeque<usize>> = HashMap::new();
    for (ib, n) in before.nodes.iter().enumerate().skip(1) {
        if b2a[ib].is_none() && !n.is_text() {
            free.entry((n.parent.unwrap_or(0), pair_key(n)))
                .or_default()
                .push_back(ib);
        }
    }
    if free.is_empty() {
        return (a2b, b2a, recreated);
    }
    // pre-order: a parent is paired before its children look for theirs
    for ia in 1..na {
        let n = &after.nodes[ia];
        if a2b[ia].is_some() || n.is_text() {
            continue;
        }
        let Some(pb) = a2b[n.parent.unwrap_or(0)] else {
            continue;
        };
        if let Some(q) = free.get_mut(&(pb, pair_key(n)))
            && let Some(ib) = q.pop_front()
        {
            a2b[ia] = Some(ib);
            b2a[ib] = Some(ia);
            // (snapshots without identities match every element this way)
            recreated[ia] = n.id != 0 && before.nodes[ib].id != 0;
        }
    }
    (a2b, b2a, recreated)
}

#[cfg(test)]
mod tests {
    use crate::snapshot::diff::tests::with_ids;
    use crate::snapshot::diff::{Field, diff};
    use crate::snapshot::tests::snap;
    use serde_json::json;

    #[test]
    fn elements_are_matched_by_identity_not_by_ref_or_place() {
        // the page scrolled: other nodes around, the button's name changed, its ref too
        let before = with_ids(
            snap(&[
                (-1, "document", "Shop", None, None),
                (0, "link", "Top", Some("s1e1"), None),
                (0, "button", "Play", Some("s1e2"), None),
            ]),
            &[0, 10, 11],
        );
        let after = with_ids(
            snap(&[
                (-1, "document", "Shop", None, None),
                (0, "link", "Top", Some("s1e1"), None),
                (0, "button", "Pause", Some("s2e1"), None),
                (0, "link", "Footer", Some("s2e2"), None),
            ]),
            &[0, 10, 11, 12],
        );
        let d = diff(&before, &after);
        assert_eq!(d.changed.len(), 1, "{d:?}");
        assert_eq!(d.changed[0].field, Field::Name);
        assert_eq!(d.changed[0].to, json!("Pause"));
        assert_eq!(d.added.len(), 1);
        assert_eq!(after.nodes[d.added[0].root].name, "Footer");
        assert!(d.removed.is_empty());
    }

    #[test]
    fn re_created_elements_are_matched_by_role_and_name_under_their_parent() {
        let before = with_ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "list", "", None, None),
                (1, "listitem", "A", None, None),
                (1, "listitem", "B", None, None),
            ]),
            &[0, 1, 2, 3],
        );
        // the list re-rendered its items (new elements), one changed its level
        let mut after = with_ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "list", "", None, None),
                (1, "listitem", "A", None, None),
                (1, "listitem", "B", None, None),
            ]),
            &[0, 1, 7, 8],
        );
        after.nodes[3].states.level = Some(2);
        let d = diff(&before, &after);
        assert!(d.added.is_empty() && d.removed.is_empty(), "{d:?}");
        assert_eq!(d.changed.len(), 1);
        assert_eq!(d.changed[0].field, Field::Level);
    }
}
