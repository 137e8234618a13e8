//! Before/after diffs of the viewport, by ref (SPEC 5 `changes`).
//!
//! Owns: comparing two snapshots. Nodes with refs are matched by ref; nodes without (a new
//! heading, a status message) by role and name. Must not: take snapshots.

use super::{Node, Snapshot};
use crate::wire::Tri;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::HashMap;

/// One changed field of an element that kept its ref.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    #[serde(rename = "ref")]
    pub ref_: String,
    pub field: String,
    pub from: Value,
    pub to: Value,
}

/// What changed between two snapshots.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Changes {
    pub summary: String,
    pub added: Vec<Value>,
    pub removed: Vec<Value>,
    pub changed: Vec<Change>,
    /// Set when the run also navigated: where from and to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub navigated: Option<Navigation>,
}

/// A navigation: the URLs before and after.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Navigation {
    pub from: String,
    pub to: String,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

fn label(n: &Node) -> String {
    let text = if n.is_text() {
        n.value.clone().unwrap_or_default()
    } else {
        n.name.clone()
    };
    let text = super::render::cut(&text, 60);
    let role = super::safe::token(&n.role);
    if n.is_text() {
        format!("text {}", super::safe::quote(&text))
    } else if text.is_empty() {
        role.into_owned()
    } else {
        format!("{role} {}", super::safe::quote(&text))
    }
}

fn entry(n: &Node) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("role".into(), n.role.clone().into());
    if n.is_text() {
        m.insert("text".into(), n.value.clone().unwrap_or_default().into());
    } else {
        m.insert("name".into(), n.name.clone().into());
    }
    if let Some(r) = &n.ref_ {
        m.insert("ref".into(), r.clone().into());
    }
    Value::Object(m)
}

fn tri(t: &Option<Tri>) -> Value {
    match t {
        None | Some(Tri::Bool(false)) => Value::Bool(false),
        Some(Tri::Bool(true)) => Value::Bool(true),
        Some(Tri::Token(s)) => Value::String(s.clone()),
    }
}

fn fields(n: &Node) -> Vec<(&'static str, Value)> {
    let s = &n.states;
    vec![
        (
            "value",
            n.value.clone().map(Value::String).unwrap_or(Value::Null),
        ),
        ("checked", tri(&s.checked)),
        (
            "expanded",
            s.expanded.map(Value::Bool).unwrap_or(Value::Null),
        ),
        ("selected", Value::Bool(s.selected)),
        ("pressed", tri(&s.pressed)),
        ("disabled", Value::Bool(s.disabled)),
        ("invalid", Value::Bool(s.invalid)),
        ("required", Value::Bool(s.required)),
        ("readonly", Value::Bool(s.readonly)),
        ("level", s.level.map(Value::from).unwrap_or(Value::Null)),
    ]
}

fn key(n: &Node) -> String {
    format!(
        "{}\u{1}{}\u{1}{}",
        n.role,
        n.name,
        n.value.as_deref().unwrap_or("")
    )
}

/// Indexes of text runs the rendering leaves out because their parent's name says them.
fn implied_text(s: &Snapshot) -> std::collections::HashSet<usize> {
    let mut out = std::collections::HashSet::new();
    for i in 0..s.nodes.len() {
        if super::render::shown_children(s, i).is_empty() {
            out.extend(s.children[i].iter().copied());
        }
    }
    out
}

/// Nodes that count for a diff: all but the document and implied text runs.
fn counted(s: &Snapshot) -> Vec<&Node> {
    let implied = implied_text(s);
    s.nodes
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(i, _)| !implied.contains(i))
        .map(|(_, n)| n)
        .collect()
}

/// Compares `before` and `after`; `verb` opens the summary ("Clicked").
pub fn diff(before: &Snapshot, after: &Snapshot, verb: &str) -> Changes {
    let (cb, ca) = (counted(before), counted(after));
    let mut out = Changes::default();
    let by_ref = |s: &Snapshot| -> HashMap<String, usize> {
        s.nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.ref_.clone().map(|r| (r, i)))
            .collect()
    };
    let (rb, ra) = (by_ref(before), by_ref(after));
    // Elements without refs: multisets keyed by role, name and value.
    let mut counts: HashMap<String, i64> = HashMap::new();
    for n in cb.iter().filter(|n| n.ref_.is_none()) {
        *counts.entry(key(n)).or_default() += 1;
    }
    let mut added_plain = Vec::new();
    for n in ca.iter().copied().filter(|n| n.ref_.is_none()) {
        let c = counts.entry(key(n)).or_default();
        if *c > 0 {
            *c -= 1;
        } else {
            added_plain.push(n);
        }
    }
    let mut removed_plain: Vec<&Node> = Vec::new();
    for n in cb.iter().copied().filter(|n| n.ref_.is_none()) {
        let c = counts.entry(key(n)).or_default();
        if *c > 0 {
            *c -= 1;
            removed_plain.push(n);
        }
    }
    let mut added_labels = Vec::new();
    for n in after.nodes.iter().skip(1) {
        match &n.ref_ {
            Some(r) if !rb.contains_key(r) => {
                out.added.push(entry(n));
                added_labels.push(labelled(n, r));
            }
            _ => {}
        }
    }
    for n in added_plain {
        out.added.push(entry(n));
        added_labels.push(label(n));
    }
    let mut removed_labels = Vec::new();
    for n in before.nodes.iter().skip(1) {
        if let Some(r) = &n.ref_
            && !ra.contains_key(r)
        {
            out.removed.push(entry(n));
            removed_labels.push(labelled(n, r));
        }
    }
    for n in removed_plain {
        out.removed.push(entry(n));
        removed_labels.push(label(n));
    }
    for (r, &ia) in &ra {
        let Some(&ib) = rb.get(r) else { continue };
        let (nb, na) = (&before.nodes[ib], &after.nodes[ia]);
        for ((f, vb), (_, va)) in fields(nb).into_iter().zip(fields(na)) {
            if vb != va {
                out.changed.push(Change {
                    ref_: r.clone(),
                    field: f.into(),
                    from: vb,
                    to: va,
                });
            }
        }
    }
    out.changed
        .sort_by(|a, b| a.ref_.cmp(&b.ref_).then(a.field.cmp(&b.field)));
    let changed_labels: HashMap<&str, String> = out
        .changed
        .iter()
        .filter_map(|c| {
            let n = &after.nodes[*ra.get(&c.ref_)?];
            Some((c.ref_.as_str(), labelled(n, &c.ref_)))
        })
        .collect();
    out.summary = summary(
        verb,
        &added_labels,
        &removed_labels,
        &out.changed,
        &changed_labels,
    );
    out
}

/// A node with a ref as the summary names it: role, name and ref (`link "Details" s2e9`),
/// so the reader knows what appeared without looking it up (SPEC 8).
fn labelled(n: &Node, r: &str) -> String {
    format!("{} {}", label(n), super::safe::token(r))
}

fn list(items: &[String]) -> String {
    let shown: Vec<&str> = items.iter().take(5).map(String::as_str).collect();
    let more = if items.len() > 5 {
        format!(", +{}", items.len() - 5)
    } else {
        String::new()
    };
    format!("{}{more}", shown.join(", "))
}

fn summary(
    verb: &str,
    added: &[String],
    removed: &[String],
    changed: &[Change],
    labels: &HashMap<&str, String>,
) -> String {
    let mut parts = vec![format!("{verb}.")];
    if !added.is_empty() {
        parts.push(format!("{} added ({}).", added.len(), list(added)));
    }
    if !removed.is_empty() {
        parts.push(format!("{} removed ({}).", removed.len(), list(removed)));
    }
    // Group field changes by the word an agent reads: "1 expanded (s1e7)".
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for c in changed {
        let word = match (c.field.as_str(), &c.to) {
            ("expanded", Value::Bool(true)) => "expanded".to_string(),
            ("expanded", _) => "collapsed".to_string(),
            ("checked", Value::Bool(true)) => "checked".to_string(),
            ("checked", Value::String(m)) => format!("checked={m}"),
            ("checked", _) => "unchecked".to_string(),
            ("selected", Value::Bool(true)) => "selected".to_string(),
            ("pressed", Value::Bool(true)) => "pressed".to_string(),
            ("disabled", Value::Bool(true)) => "disabled".to_string(),
            ("disabled", _) => "enabled".to_string(),
            ("invalid", Value::Bool(true)) => "invalid".to_string(),
            (f, _) => format!("{f} changed"),
        };
        let l = labels
            .get(c.ref_.as_str())
            .cloned()
            .unwrap_or_else(|| c.ref_.clone());
        match groups.iter_mut().find(|(w, _)| *w == word) {
            Some((_, refs)) => {
                if !refs.contains(&l) {
                    refs.push(l)
                }
            }
            None => groups.push((word, vec![l])),
        }
    }
    for (word, refs) in groups {
        parts.push(format!("{} {word} ({}).", refs.len(), list(&refs)));
    }
    if added.is_empty() && removed.is_empty() && changed.is_empty() {
        parts.push("No visible change.".into());
    }
    parts.join(" ")
}

/// The `changes` value for a navigation.
pub fn navigated(from: &str, to: &str) -> Value {
    json!({"summary": format!("Navigated to {to}"), "navigated": {"from": from, "to": to}})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::tests::snap;

    #[test]
    fn added_removed_and_changed_are_found_by_ref_and_by_name() {
        let before = snap(&[
            (-1, "document", "Shop", None, None),
            (0, "checkbox", "Gift", Some("s1e1"), None),
            (0, "button", "Pay", Some("s1e2"), None),
            (0, "textbox", "Email", Some("s1e3"), Some("")),
        ]);
        let mut after = snap(&[
            (-1, "document", "Shop", None, None),
            (0, "checkbox", "Gift", Some("s1e1"), None),
            (0, "textbox", "Email", Some("s1e3"), Some("ada@example.org")),
            (0, "heading", "Order placed", None, None),
            (0, "button", "Track", Some("s2e4"), None),
        ]);
        after.nodes[1].states.checked = Some(Tri::Bool(true));
        let d = diff(&before, &after, "Clicked");
        assert_eq!(d.added.len(), 2);
        assert!(
            d.added
                .iter()
                .any(|a| a["name"] == "Order placed" && a.get("ref").is_none())
        );
        assert_eq!(
            d.removed,
            vec![json!({"role": "button", "name": "Pay", "ref": "s1e2"})]
        );
        assert!(d.changed.contains(&Change {
            ref_: "s1e1".into(),
            field: "checked".into(),
            from: json!(false),
            to: json!(true)
        }));
        assert!(
            d.changed
                .iter()
                .any(|c| c.ref_ == "s1e3" && c.field == "value")
        );
        assert_eq!(
            d.summary,
            "Clicked. 2 added (button \"Track\" s2e4, heading \"Order placed\"). 1 removed (button \"Pay\" s1e2). 1 checked (checkbox \"Gift\" s1e1). 1 value changed (textbox \"Email\" s1e3)."
        );
    }

    #[test]
    fn summaries_quote_page_text_strictly() {
        let a = snap(&[(-1, "document", "", None, None)]);
        let b = snap(&[
            (-1, "document", "", None, None),
            (0, "heading", "Done\u{9b}2J\n- x", None, None),
        ]);
        let d = diff(&a, &b, "Clicked");
        assert_eq!(
            d.summary,
            "Clicked. 1 added (heading \"Done\\u009b2J\\n- x\")."
        );
    }

    #[test]
    fn identical_snapshots_say_no_change() {
        let a = snap(&[
            (-1, "document", "", None, None),
            (0, "button", "A", Some("s1e1"), None),
        ]);
        let d = diff(&a, &a.clone(), "Hovered");
        assert!(d.is_empty());
        assert_eq!(d.summary, "Hovered. No visible change.");
    }
}
