//! The text runs right under an element that stayed: which runs count, the changes between
//! two lists of them, and each changed run cut to a window around what changed.
//!
//! Owns: the window ([`around_change`]: context on each side, the changed middle capped).
//! Must not: compare an element's fields (`compare` does), or report text a name already
//! says (the rendering leaves it out, so does the diff).

use super::{Change, Field, TEXT_CAP, plain};
use crate::snapshot::{Snapshot, render};
use serde_json::Value;

/// Characters kept on each side of what changed in a text run.
const CONTEXT: usize = 40;

/// Indexes of text runs the rendering leaves out because their parent's name says them.
pub(super) fn implied_text(s: &Snapshot) -> Vec<bool> {
    let mut out = vec![false; s.nodes.len()];
    for i in 0..s.nodes.len() {
        if render::shown_children(s, i).is_empty() {
            for &c in &s.children[i] {
                out[c] = true;
            }
        }
    }
    out
}

/// The text runs right under node i that the rendering shows, in order; a run that only
/// says the node's name is left out (the page shows it or not as the node's children
/// change: a tree item's label once its group opens).
pub(super) fn runs<'a>(s: &'a Snapshot, i: usize, implied: &[bool]) -> Vec<&'a str> {
    let name = plain(&s.nodes[i].name);
    s.children[i]
        .iter()
        .filter(|&&c| s.nodes[c].is_text() && !implied[c])
        .map(|&c| s.nodes[c].value.as_deref().unwrap_or(""))
        .filter(|t| name.is_empty() || plain(t) != name)
        .collect()
}

/// `s` cut to at most `max` characters with `...` at the end.
/// Two versions of a text run cut around what changed: the common start and end shortened to
/// [`CONTEXT`] characters each (`...` where cut), the changed middle to [`TEXT_CAP`].
pub fn around_change(from: &str, to: &str) -> (String, String) {
    let (f, t): (Vec<char>, Vec<char>) = (from.chars().collect(), to.chars().collect());
    let mut pre = 0;
    while pre < f.len() && pre < t.len() && f[pre] == t[pre] {
        pre += 1;
    }
    let mut suf = 0;
    while suf < f.len() - pre && suf < t.len() - pre && f[f.len() - 1 - suf] == t[t.len() - 1 - suf]
    {
        suf += 1;
    }
    // whole words of context: back to a space, when there is one near
    let start = pre.saturating_sub(CONTEXT);
    let start = (start..pre)
        .find(|&i| i == 0 || f[i - 1] == ' ')
        .unwrap_or(start);
    let show = |v: &[char]| -> String {
        let end_keep = (v.len() - suf + CONTEXT).min(v.len());
        let mid_end = v.len() - suf;
        let mut out = String::new();
        if start > 0 {
            out.push_str("...");
        }
        let middle: String = v[start..mid_end].iter().collect();
        let middle_max = TEXT_CAP + (pre - start);
        out.push_str(&render::cut(&middle, middle_max));
        let tail: String = v[mid_end..end_keep].iter().collect();
        out.push_str(&tail);
        if end_keep < v.len() {
            out.push_str("...");
        }
        out
    };
    (show(&f), show(&t))
}

/// The changes of the text runs right under an element that stayed: the runs that differ
/// once the runs both sides share at the start and the end are set aside, paired in order;
/// one change each.
pub(super) fn text_changes(rb: &[&str], ra: &[&str], ib: usize, ia: usize, out: &mut Vec<Change>) {
    let mut pre = 0;
    while pre < rb.len() && pre < ra.len() && rb[pre] == ra[pre] {
        pre += 1;
    }
    let mut suf = 0;
    while suf < rb.len() - pre
        && suf < ra.len() - pre
        && rb[rb.len() - 1 - suf] == ra[ra.len() - 1 - suf]
    {
        suf += 1;
    }
    let (mb, ma) = (&rb[pre..rb.len() - suf], &ra[pre..ra.len() - suf]);
    for k in 0..mb.len().max(ma.len()) {
        let (f, t) = (
            mb.get(k).copied().unwrap_or(""),
            ma.get(k).copied().unwrap_or(""),
        );
        let (from, to) = around_change(f, t);
        out.push(Change {
            before: ib,
            after: ia,
            field: Field::Text,
            from: Value::String(from),
            to: Value::String(to),
            size: Some(t.chars().count()),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::diff::diff;
    use crate::snapshot::tests::snap;
    use serde_json::json;

    #[test]
    fn a_changed_text_run_is_one_change_cut_around_the_change() {
        let long = "word ".repeat(40);
        let before = snap(&[
            (-1, "document", "", None, None),
            (0, "paragraph", "", None, None),
            (
                1,
                "text",
                "",
                None,
                Some(&format!("{long}total 31.90 EUR {long}")),
            ),
        ]);
        let after = snap(&[
            (-1, "document", "", None, None),
            (0, "paragraph", "", None, None),
            (
                1,
                "text",
                "",
                None,
                Some(&format!("{long}total 41.90 EUR {long}")),
            ),
        ]);
        let d = diff(&before, &after);
        assert!(d.added.is_empty() && d.removed.is_empty(), "{d:?}");
        assert_eq!(d.changed.len(), 1, "{d:?}");
        let c = &d.changed[0];
        assert_eq!(c.field, Field::Text);
        let (f, t) = (c.from.as_str().unwrap(), c.to.as_str().unwrap());
        assert!(f.contains("31.90") && t.contains("41.90"), "{f} / {t}");
        assert!(f.starts_with("...") && f.ends_with("..."), "{f}");
        assert!(t.chars().count() < 120, "{t}");
        assert_eq!(c.size, Some(long.len() * 2 + 16));
    }

    #[test]
    fn a_run_whose_edge_moved_is_one_change_not_a_removal_and_an_addition() {
        let before = snap(&[
            (-1, "document", "", None, None),
            (0, "main", "", None, None),
            (1, "text", "", None, Some("Items: 3")),
            (1, "button", "Add", Some("s1e1"), None),
        ]);
        let after = snap(&[
            (-1, "document", "", None, None),
            (0, "main", "", None, None),
            (1, "text", "", None, Some("Items: 4")),
            (1, "button", "Add", Some("s1e1"), None),
        ]);
        let d = diff(&before, &after);
        assert!(d.added.is_empty() && d.removed.is_empty(), "{d:?}");
        assert_eq!(d.changed.len(), 1);
        assert_eq!(d.changed[0].from, json!("Items: 3"));
        assert_eq!(d.changed[0].to, json!("Items: 4"));
    }

    #[test]
    fn text_is_cut_around_what_changed() {
        let (f, t) = around_change("Last action: none", "Last action: Action 2");
        assert_eq!(
            (f.as_str(), t.as_str()),
            ("Last action: none", "Last action: Action 2")
        );
        let long = format!("{} total 31.90 EUR", "x".repeat(200));
        let (f, t) = around_change(&long, &long.replace("31.90", "41.90"));
        assert!(f.starts_with("...") && f.ends_with("31.90 EUR"), "{f}");
        assert!(t.ends_with("41.90 EUR") && t.len() < 60, "{t}");
        let (f, t) = around_change("", "Saved");
        assert_eq!((f.as_str(), t.as_str()), ("", "Saved"));
    }
}
