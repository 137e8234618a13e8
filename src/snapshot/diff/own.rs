//! What the page did on its own while an action settled, left out of the action's changes
//! (docs/reference/replies.md#settling): a poll's new figures, a ticker's tick, a carousel's
//! slide are the page's background work, not the action's doing.
//!
//! The page's work hook tells which elements each kind of work touched (as identities,
//! `Node::id`): targets of its DOM changes with their ancestors ("up": a text that changed
//! is a change of the element that shows it and of the names made from it), and the nodes
//! it added or removed ("down": with everything under them). An entry of the diff is the
//! page's own when its element was touched by the page's own work and not by the action's
//! (work whose starter is not known counts as the action's).
//!
//! Owns: that rule. Must not: tell the kinds of work apart (the page's work hook does).

use super::PageDiff;
use crate::snapshot::Snapshot;
use std::collections::HashSet;

/// The elements each kind of work touched, by identity.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OwnWork {
    pub bg_up: HashSet<u64>,
    pub bg_down: HashSet<u64>,
    pub act_up: HashSet<u64>,
    pub act_down: HashSet<u64>,
}

impl OwnWork {
    /// Whether node `i` of `s` was touched by `up` (itself) or `down` (itself or an
    /// ancestor); a text run counts by its element.
    fn touched(s: &Snapshot, i: usize, up: &HashSet<u64>, down: &HashSet<u64>) -> bool {
        let mut at = Some(i);
        let mut first = true;
        while let Some(k) = at {
            let n = &s.nodes[k];
            if n.id != 0 {
                if first && up.contains(&n.id) {
                    return true;
                }
                if down.contains(&n.id) {
                    return true;
                }
                first = false;
            }
            at = n.parent;
        }
        false
    }

    /// Node `i` of `s` was changed by the page's own work only.
    pub fn own(&self, s: &Snapshot, i: usize) -> bool {
        Self::touched(s, i, &self.bg_up, &self.bg_down)
            && !Self::touched(s, i, &self.act_up, &self.act_down)
    }
}

/// Leaves out of `d` the entries whose element only the page's own work touched.
pub fn drop_own_work(d: &mut PageDiff, before: &Snapshot, after: &Snapshot, w: &OwnWork) {
    if w.bg_up.is_empty() && w.bg_down.is_empty() {
        return;
    }
    d.added.retain(|g| !w.own(after, g.root));
    d.removed.retain(|g| !w.own(before, g.root));
    d.changed.retain(|c| !w.own(after, c.after));
    d.rerendered.retain(|g| !w.own(after, g.root));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::diff::diff;
    use crate::snapshot::diff::tests::with_ids;
    use crate::snapshot::tests::snap;

    #[test]
    fn changes_only_the_pages_own_work_made_are_left_out() {
        let before = with_ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "status", "Updated 10:01", None, None),
                (0, "button", "Add", Some("s1e1"), None),
                (0, "list", "", None, None),
            ]),
            &[0, 10, 11, 12],
        );
        let after = with_ids(
            snap(&[
                (-1, "document", "", None, None),
                (0, "status", "Updated 10:02", None, None),
                (0, "button", "Add", Some("s1e1"), None),
                (0, "list", "", None, None),
                (3, "listitem", "Milk", None, None),
                (0, "paragraph", "Ad", None, None),
            ]),
            &[0, 10, 11, 12, 13, 14],
        );
        let mut d = diff(&before, &after);
        assert_eq!((d.added.len(), d.changed.len()), (2, 1), "{d:?}");
        // the poll renamed the status and added the ad; the click added the item
        let w = OwnWork {
            bg_up: [10, 0].into_iter().collect(),
            bg_down: [14].into_iter().collect(),
            act_up: [12, 0].into_iter().collect(),
            act_down: [13].into_iter().collect(),
        };
        drop_own_work(&mut d, &before, &after, &w);
        assert!(d.changed.is_empty(), "{d:?}");
        assert_eq!(d.added.len(), 1);
        assert_eq!(after.nodes[d.added[0].root].name, "Milk");
        // what both touched stays the action's
        let mut d = diff(&before, &after);
        let both = OwnWork {
            act_up: [10].into_iter().collect(),
            ..w.clone()
        };
        drop_own_work(&mut d, &before, &after, &both);
        assert_eq!(d.changed.len(), 1);
    }
}
