//! What a page says urgently (docs/reference/detail.md#budgets: under a budget, alerts, status and error text go
//! right after the focused element): alert and status regions (roles alert, alertdialog,
//! status and log, and the aria-live regions the engine marks) with what they say, and
//! invalid fields with the text of their error messages.
//!
//! Owns: finding these nodes in a snapshot. Must not: choose what a budget keeps (`budget`)
//! or render.

use super::Snapshot;

/// How urgent a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Urgency {
    /// Roles alert and alertdialog, aria-live=assertive, invalid fields and their error
    /// messages.
    Alert,
    /// Roles status and log, aria-live=polite.
    Status,
}

/// The urgent nodes of a snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct Urgent {
    /// Per node: how urgent it is, if it is.
    pub of: Vec<Option<Urgency>>,
    /// Per node: where it goes in document order among the nodes as urgent as it: its own
    /// index, or for the text of an error message, its field's (a field and its message go
    /// together).
    pub place: Vec<usize>,
}

/// The nodes of a region that go with it (its own line and what it says); a longer region's
/// other nodes are not urgent, so that a chat log of 2,000 messages does not push the
/// viewport out of a budget.
pub const REGION_NODES: usize = 16;
/// Ancestors of an invalid field whose subtrees are searched for its error message.
const ERROR_NEAR: usize = 4;
/// The largest subtree searched there.
const ERROR_NEAR_NODES: usize = 4000;
/// Invalid fields whose error message is looked for (the first ones in document order)...
const ERROR_FIELDS: usize = 200;
/// ... and, when it is not near them, in the whole tree.
const ERROR_FAR_FIELDS: usize = 20;

/// Whether text run `t` says (part of) error message `msg` (both squashed): the whole
/// message, a part of it (a message made of several elements), or the message within a
/// longer run; a part or a message of [`SAYS_MIN`] bytes at least (a label's word inside the
/// message is no evidence).
fn says(t: &str, msg: &str) -> bool {
    !t.is_empty()
        && (t == msg
            || (t.len() >= SAYS_MIN && msg.contains(t))
            || (msg.len() >= SAYS_MIN && t.contains(msg)))
}

const SAYS_MIN: usize = 12;

/// The text runs that show the error message of invalid field `field` (docs/reference/detail.md#nothing-is-dropped-silently: invalid
/// fields with their messages). The engine sends the message as the field's description
/// (aria-errormessage, else aria-describedby: WAI-ARIA 1.2); its element is found by its
/// text, first under the field's nearest ancestors (the closest one that holds it), else,
/// when `far`, anywhere in the tree (the first match in document order).
fn error_message_nodes(s: &Snapshot, field: usize, size: &[usize], far: bool) -> Vec<usize> {
    let Some(msg) = s.nodes[field]
        .description
        .as_deref()
        .map(crate::safe::squash)
        .filter(|m| !m.is_empty())
    else {
        return Vec::new();
    };
    let matches = |from: usize, to: usize| -> Vec<usize> {
        (from..to)
            .filter(|&j| {
                let n = &s.nodes[j];
                n.is_text() && says(&crate::safe::squash(n.value.as_deref().unwrap_or("")), &msg)
            })
            .collect()
    };
    let mut a = field;
    for _ in 0..ERROR_NEAR {
        let Some(p) = s.nodes[a].parent else { break };
        a = p;
        if size[a] > ERROR_NEAR_NODES {
            break;
        }
        let found = matches(a, a + size[a]);
        if !found.is_empty() {
            return found;
        }
    }
    if !far {
        return Vec::new();
    }
    (1..s.nodes.len())
        .find(|&j| {
            let n = &s.nodes[j];
            n.is_text() && says(&crate::safe::squash(n.value.as_deref().unwrap_or("")), &msg)
        })
        .into_iter()
        .collect()
}

/// The alert, status and error regions of `s` and what they say; `size`: each node's subtree
/// size.
pub fn urgent(s: &Snapshot, size: &[usize]) -> Urgent {
    use Urgency::{Alert, Status};
    let n = s.nodes.len();
    let mut rank: Vec<Option<Urgency>> = vec![None; n];
    let mut place: Vec<usize> = (0..n).collect();
    let mut regions: Vec<(usize, Urgency)> = Vec::new();
    for (i, node) in s.nodes.iter().enumerate().skip(1) {
        let r = match node.role.as_str() {
            "alert" | "alertdialog" => Alert,
            "status" | "log" => Status,
            _ if node.states.invalid => Alert,
            _ => continue,
        };
        regions.push((i, r));
    }
    for &(i, loud) in &s.live {
        if i < n {
            regions.push((i, if loud { Alert } else { Status }));
        }
    }
    // the more urgent of two marks (an alert inside a status region is an alert)
    let mark = |x: &mut Option<Urgency>, r: Urgency| {
        if *x != Some(Alert) {
            *x = Some(r);
        }
    };
    for &(i, r) in &regions {
        let end = i + size[i];
        mark(&mut rank[i], r);
        // what it says: its first nodes, or a log's last ones (the newest entries)
        let from = if s.nodes[i].role == "log" {
            end.saturating_sub(REGION_NODES - 1).max(i + 1)
        } else {
            i + 1
        };
        let to = (from + REGION_NODES - 1).min(end);
        for x in &mut rank[from..to] {
            mark(x, r);
        }
    }
    let invalid = (1..n).filter(|&i| s.nodes[i].states.invalid);
    for (k, i) in invalid.take(ERROR_FIELDS).enumerate() {
        for j in error_message_nodes(s, i, size, k < ERROR_FAR_FIELDS) {
            rank[j] = Some(Alert);
            place[j] = place[j].min(i);
        }
    }
    Urgent { of: rank, place }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::tests::snap;

    fn sizes(s: &Snapshot) -> Vec<usize> {
        let mut size = vec![1; s.nodes.len()];
        for i in (1..s.nodes.len()).rev() {
            size[s.nodes[i].parent.unwrap()] += size[i];
        }
        size
    }

    #[test]
    fn regions_and_what_they_say_are_urgent() {
        use Urgency::{Alert, Status};
        let mut rows = vec![
            (-1, "document", "D", None, None),
            (0, "paragraph", "", None, None),
            (1, "text", "", None, Some("Welcome")),
            (0, "alert", "", None, None),
            (3, "text", "", None, Some("Card declined")),
            (0, "status", "", None, None),
            (5, "text", "", None, Some("Saved")),
            (0, "log", "", None, None),
        ];
        let entries: Vec<String> = (0..30).map(|k| format!("Message {k}")).collect();
        for e in &entries {
            rows.push((7, "text", "", None, Some(e.as_str())));
        }
        rows.push((0, "paragraph", "", None, None));
        rows.push((38, "text", "", None, Some("Polite news")));
        let mut s = snap(&rows);
        // a live region the engine marked (a div with aria-live=polite: its text run)
        s.live = vec![(39, false)];
        let u = urgent(&s, &sizes(&s));
        assert_eq!(u.of[2], None);
        assert_eq!((u.of[3], u.of[4]), (Some(Alert), Some(Alert)));
        assert_eq!((u.of[5], u.of[6]), (Some(Status), Some(Status)));
        // a log: its own line and its newest entries, not the oldest
        assert_eq!(u.of[7], Some(Status));
        assert_eq!(u.of[8], None, "oldest entry");
        assert_eq!(u.of[37], Some(Status), "newest entry");
        assert_eq!(
            u.of[8..38].iter().filter(|x| x.is_some()).count(),
            REGION_NODES - 1
        );
        assert_eq!(u.of[39], Some(Status));
        assert_eq!(u.of[38], None);
    }

    #[test]
    fn an_invalid_fields_error_message_is_found_near_it_or_anywhere() {
        use Urgency::Alert;
        let s = {
            let mut s = snap(&[
                (-1, "document", "D", None, None),
                (0, "form", "Order", None, None),
                (1, "text", "", None, Some("Quantity")),
                (1, "textbox", "Quantity", Some("s1e1"), None),
                (1, "paragraph", "", None, None),
                (4, "text", "", None, Some("Only 3 left in stock")),
                (1, "textbox", "Email", Some("s1e2"), None),
                (0, "paragraph", "", None, None),
                (7, "text", "", None, Some("Only 3 left in stock")),
                (0, "contentinfo", "", None, None),
                (
                    9,
                    "text",
                    "",
                    None,
                    Some("Enter an email address   like ada@example.org"),
                ),
            ]);
            s.nodes[3].states.invalid = true;
            s.nodes[3].description = Some("Only 3 left in stock".into());
            s.nodes[6].states.invalid = true;
            s.nodes[6].description = Some("Enter an email address like ada@example.org".into());
            s
        };
        let u = urgent(&s, &sizes(&s));
        // near: the one in the field's form, not the same words elsewhere; not the label
        assert_eq!(u.of[5], Some(Alert));
        assert_eq!(u.of[8], None);
        assert_eq!(u.of[2], None);
        assert_eq!(u.place[5], 3, "goes with its field");
        // far: found anywhere, white space aside
        assert_eq!(u.of[10], Some(Alert));
        assert_eq!(u.place[10], 6);
        assert_eq!((u.of[3], u.of[6]), (Some(Alert), Some(Alert)));
    }

    #[test]
    fn says_needs_the_message_or_a_long_part_of_it() {
        assert!(says("Required", "Required"));
        assert!(says("Error: Only 3 left in stock.", "Only 3 left in stock"));
        assert!(says(
            "Only 3 left in stock",
            "Only 3 left in stock. Enter 3 or less."
        ));
        assert!(!says("Quantity", "Quantity must be 3 or less"));
        assert!(!says("", "x"));
    }
}
