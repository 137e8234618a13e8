//! The words of a run's changes (docs/reference/replies.md#changes): one change (`expanded`,
//! `value "Alabama"`, `rows reordered, first row "Alpha"`), an element's changes together, a
//! page dialog the run answered, and the lists a summary joins (`a, b, +3`).
//!
//! Owns: how a change and a list are worded, page text quoted and cut. Must not: choose
//! what a summary says or in which order (changes/mod.rs does).

use crate::safe::{quote, squash};
use crate::snapshot::Snapshot;
use crate::snapshot::diff::{self, Change, Field, labelled};
use crate::snapshot::render::cut;
use serde_json::Value;

/// The words of one change: `expanded`, `value "Alabama"`, `text "Last action: B"`.
pub(super) fn word(c: &Change) -> String {
    let flag = |on: &str, off: &str| match &c.to {
        Value::Bool(true) => on.to_string(),
        Value::String(t) => format!("{on}={}", crate::safe::token(t)),
        _ => off.to_string(),
    };
    match c.field {
        Field::Value => format!("value {}", quote(&cut(c.to.as_str().unwrap_or(""), 80))),
        // the label shows the new name: say the old one, around what changed
        Field::Name => {
            let (from, _) =
                diff::around_change(c.from.as_str().unwrap_or(""), c.to.as_str().unwrap_or(""));
            format!("renamed from {}", quote(&cut(&from, 80)))
        }
        Field::Text => match c.to.as_str() {
            Some("") => format!(
                "text {} gone",
                quote(&cut(c.from.as_str().unwrap_or(""), 80))
            ),
            t => format!("text {}", quote(&cut(t.unwrap_or(""), 100))),
        },
        Field::Expanded => match &c.to {
            Value::Bool(true) => "expanded".into(),
            Value::Bool(false) => "collapsed".into(),
            _ => "no longer expandable".into(),
        },
        Field::Checked => flag("checked", "unchecked"),
        Field::Selected => flag("selected", "unselected"),
        Field::Pressed => flag("pressed", "not pressed"),
        Field::Disabled => flag("disabled", "enabled"),
        Field::Invalid => flag("invalid", "valid"),
        Field::Required => flag("required", "not required"),
        Field::Readonly => flag("read-only", "editable"),
        Field::Level => format!("level {}", c.to),
        Field::Sort => match c.to.as_str() {
            Some(d) => format!("sort={}", crate::safe::token(d)),
            None => "unsorted".into(),
        },
        Field::Order => match c.to.as_str() {
            Some(r) if r != "child" => format!("{r}s reordered"),
            _ => "content reordered".into(),
        },
        Field::Message => format!("message {}", quote(&cut(c.to.as_str().unwrap_or(""), 100))),
    }
}

/// Changes grouped by element, in document order: (after index, words).
pub(super) fn by_element<'c>(
    s: &Snapshot,
    changes: impl Iterator<Item = &'c Change>,
) -> Vec<(usize, Vec<String>)> {
    let mut out: Vec<(usize, Vec<String>)> = Vec::new();
    let mut at: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for c in changes {
        let mut w = word(c);
        if c.field == Field::Order
            && let Some(first) = order_words(s, c)
        {
            w.push_str(&first);
        }
        match at.get(&c.after) {
            Some(&k) => out[k].1.push(w),
            None => {
                at.insert(c.after, out.len());
                out.push((c.after, vec![w]));
            }
        }
    }
    out
}

/// `label: words` of one element's changes (text changes name the element they are under).
pub(super) fn element_words(s: &Snapshot, i: usize, words: &[String]) -> String {
    format!("{} {}", labelled(&s.nodes[i]), words.join(", "))
}

/// The text of node i's subtree (names and text runs), white space collapsed, for naming
/// a row by what it shows.
fn shown_text(s: &Snapshot, i: usize) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let mut stack = vec![i];
    while let Some(j) = stack.pop() {
        let n = &s.nodes[j];
        if n.is_text() {
            parts.push(n.value.as_deref().unwrap_or(""));
        } else if !n.name.is_empty() {
            parts.push(&n.name);
            // a named node's content is its name
            continue;
        }
        stack.extend(s.children[j].iter().rev());
    }
    squash(&parts.join(" "))
}

/// For a reorder: `rows reordered, first row "Gruttenhütte 2,500"` (the first child of that
/// role now).
fn order_words(s: &Snapshot, c: &Change) -> Option<String> {
    let role = c.to.as_str()?;
    let first = s.children[c.after]
        .iter()
        .copied()
        .filter(|&k| s.nodes[k].role == role)
        .find(|&k| {
            !shown_text(s, k).is_empty()
                && !s.children[k]
                    .iter()
                    .any(|&h| s.nodes[h].role == "columnheader")
        })?;
    let shown = shown_text(s, first);
    Some(format!(", first {role} {}", quote(&cut(&shown, 60))))
}

/// A list of at most `max` items, then `+N`.
pub(super) fn list(items: &[String], max: usize) -> String {
    joined(items, max, ", ", "")
}

/// The first `max` items joined by `sep`, and how many more there are (`sep`+N`more`).
fn joined(items: &[String], max: usize, sep: &str, more: &str) -> String {
    let mut out = items
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(sep);
    if items.len() > max {
        out.push_str(&format!("{sep}+{}{more}", items.len() - max));
    }
    out
}

/// About how many characters a list of controls takes before counting the rest: a month of
/// day cells (31 x `gridcell "12" s5e40, `) fits.
pub(super) const CONTROLS_CAP: usize = 680;

/// Controls with their refs (docs/reference/replies.md#the-summary): each as `role "name" ref`
/// (a reader or a script finds `menuitem "Shoes"` whatever came before it), those of one role
/// together, the roles in the order they first come (`button "OK" s5e9, button "Cancel"
/// s5e10; gridcell "1" s5e3, ...`), within about `cap` characters (the first always), then
/// `+N`. Items are (role, words after the role: `"1" s5e3 (focused)`). The controls a run
/// brought or renamed in numbers (a calendar's new month, a dialog's grid) are named with the
/// refs an agent's next step takes, not cut to the first three.
pub(super) fn control_list(items: &[(String, String)], cap: usize) -> String {
    control_list_said(items, cap).0
}

/// [`control_list`], and which of the items it names (their indices).
pub(super) fn control_list_said(items: &[(String, String)], cap: usize) -> (String, Vec<usize>) {
    let mut roles: Vec<(&str, Vec<(usize, &str)>)> = Vec::new();
    for (i, (role, rest)) in items.iter().enumerate() {
        match roles.iter_mut().find(|(r, _)| r == role) {
            Some((_, v)) => v.push((i, rest)),
            None => roles.push((role, vec![(i, rest)])),
        }
    }
    let mut out = String::new();
    let mut said = Vec::new();
    'all: for (role, rest) in &roles {
        for (k, &(i, r)) in rest.iter().enumerate() {
            let item = if r.is_empty() {
                role.to_string()
            } else {
                format!("{role} {r}")
            };
            if !said.is_empty() && out.len() + item.len() > cap {
                break 'all;
            }
            if !said.is_empty() {
                out.push_str(if k == 0 { "; " } else { ", " });
            }
            out.push_str(&item);
            said.push(i);
        }
    }
    if items.len() > said.len() {
        out.push_str(&format!(", +{}", items.len() - said.len()));
    }
    (out, said)
}

/// Node `i` of `s` as a [`control_list`] item: its role, and the rest of its label (`"1" s5e3`).
pub(super) fn control_item(s: &Snapshot, i: usize, mark: &str) -> (String, String) {
    let n = &s.nodes[i];
    let role = crate::safe::token(&n.role).into_owned();
    let l = labelled(n);
    let rest = l.strip_prefix(role.as_str()).unwrap_or(&l).trim_start();
    (role, format!("{rest}{mark}").trim_start().to_string())
}

/// Like [`list`], with `; ` between items (an item may hold commas).
pub(super) fn list_semi(items: &[String], max: usize) -> String {
    joined(items, max, "; ", " more")
}

/// The words of a page dialog the run answered (`how`: accepted, dismissed).
pub(in crate::steps) fn dialog_line(text: &str, how: &str) -> String {
    format!("Dialog {} {how}.", quote(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter()
            .map(|(r, w)| (r.to_string(), w.to_string()))
            .collect()
    }

    #[test]
    fn a_list_of_controls_groups_roles_and_counts_what_the_cap_leaves() {
        let v = items(&[
            ("link", "\"1\" s5e3"),
            ("gridcell", "\"1\" s5e2"),
            ("link", "\"2\" s5e5"),
            ("button", "\"OK\" s5e9 (focused)"),
            ("button", "s5e10"),
        ]);
        assert_eq!(
            control_list(&v, 480),
            "link \"1\" s5e3, link \"2\" s5e5; gridcell \"1\" s5e2; button \"OK\" s5e9 (focused), button s5e10"
        );
        // the first item is said whatever its length, then as many as fit
        let (text, said) = control_list_said(&v, 30);
        assert_eq!(
            (text.as_str(), said),
            ("link \"1\" s5e3, link \"2\" s5e5, +3", vec![0, 2])
        );
        assert_eq!(
            control_list_said(&v, 1),
            ("link \"1\" s5e3, +4".to_string(), vec![0])
        );
        assert_eq!(control_list(&[], 10), "");
    }
}
