//! What the reply is worded from: a node's label (`role "name"`, page text quoted), its JSON
//! entry, and the entries of groups and changes; the `changes` value of a navigation.
//!
//! Owns: the shape of those entries (docs/reference/replies.md#changes). Must not: decide
//! what changed (`compare`, `groups`), or print page text other than through `safe`.

use super::{Change, Group, TEXT_CAP};
use crate::safe;
use crate::snapshot::{Node, Snapshot, render};
use serde_json::{Value, json};

/// `role "name"` of a node for entries and summaries, page text quoted (`text "..."` for a
/// text run).
pub fn label(n: &Node) -> String {
    let role = safe::token(&n.role);
    if n.is_text() {
        let t = render::cut(n.value.as_deref().unwrap_or(""), 60);
        return format!("text {}", safe::quote(&t));
    }
    let name = render::cut(&n.name, 60);
    if name.is_empty() {
        role.into_owned()
    } else {
        format!("{role} {}", safe::quote(&name))
    }
}

/// A node with its ref when it has one (`link "Details" s2e9`), so a reader can act on it.
/// A nameless generic's words come after its ref, as a nameless group's text does
/// (`generic s1e5 "Stove"`): a name always comes before the ref, so they read as no name.
pub fn labelled(n: &Node) -> String {
    let mut out = match &n.ref_ {
        Some(r) => format!("{} {}", label(n), safe::token(r)),
        None => label(n),
    };
    if let Some(w) = n.words() {
        out.push(' ');
        out.push_str(&safe::quote(&render::cut(w, 60)));
    }
    out
}

/// `{"role", "name", "ref"?}` of a node (`text` for a text run).
pub fn entry(n: &Node) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("role".into(), n.role.clone().into());
    if n.is_text() {
        m.insert("text".into(), n.value.clone().unwrap_or_default().into());
    } else {
        m.insert("name".into(), n.name.clone().into());
        // a nameless generic's words: its text, not a name
        if let Some(w) = n.words() {
            m.insert("text".into(), render::cut(w, TEXT_CAP).into());
        }
    }
    if let Some(r) = &n.ref_ {
        m.insert("ref".into(), r.clone().into());
    }
    m
}

/// The JSON entry of a group: the root's `{"role", "name", "ref"?}`, its text (cut, with its
/// length when cut), how many nodes came with it, and the controls in it.
pub fn group_entry(s: &Snapshot, g: &Group, in_view: Option<bool>) -> Value {
    let mut m = entry(&s.nodes[g.root]);
    if !g.text.is_empty() && g.text != s.nodes[g.root].name {
        let len = g.text.chars().count();
        m.insert("text".into(), render::cut(&g.text, TEXT_CAP).into());
        if len > TEXT_CAP {
            m.insert("size".into(), len.into());
        }
    }
    if g.nodes > 1 {
        m.insert("nodes".into(), g.nodes.into());
    }
    let inner: Vec<Value> = g
        .controls
        .iter()
        .filter(|&&c| c != g.root)
        .map(|&c| Value::Object(entry(&s.nodes[c])))
        .collect();
    if !inner.is_empty() {
        m.insert("controls".into(), inner.into());
    }
    if let Some(v) = in_view {
        m.insert("inView".into(), v.into());
    }
    Value::Object(m)
}

/// The JSON entry of a change: the element (`{"role", "name", "ref"?}`, as it is now),
/// `field`, `from`, `to` and, for text, the new run's `size`.
pub fn change_entry(after: &Snapshot, c: &Change) -> Value {
    let mut m = entry(&after.nodes[c.after]);
    m.insert("field".into(), c.field.as_str().into());
    m.insert("from".into(), c.from.clone());
    m.insert("to".into(), c.to.clone());
    if let Some(n) = c.size {
        m.insert("size".into(), n.into());
    }
    Value::Object(m)
}

/// The `changes` value for a navigation.
pub fn navigated(from: &str, to: &str) -> Value {
    // `to` is the run's `context.url`: said there and in the summary, not again
    // (docs/reference/replies.md#changes)
    json!({"summary": format!("Navigated to {to}"), "navigated": {"from": from}})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::tests::snap;

    #[test]
    fn entries_quote_page_text_strictly() {
        let a = snap(&[
            (-1, "document", "", None, None),
            (0, "heading", "Done\u{9b}2J\n- x", None, None),
        ]);
        assert_eq!(labelled(&a.nodes[1]), "heading \"Done\\u009b2J\\n- x\"");
    }

    #[test]
    fn a_nameless_generic_is_labelled_by_its_words_after_its_ref() {
        let mut a = snap(&[
            (-1, "document", "", None, None),
            (0, "generic", "", Some("s1e5"), None),
            (1, "text", "", None, Some("Stove \"x\" s9e9")),
            (0, "generic", "Named", Some("s1e6"), None),
        ]);
        a.nodes[1].states.clickable = true;
        a.nodes[1].states.words = Some("Stove \"x\" s9e9".into());
        // an author's name stays a name; words never stand for one
        a.nodes[3].states.words = Some("ignored".into());
        assert_eq!(
            labelled(&a.nodes[1]),
            "generic s1e5 \"Stove \\\"x\\\" s9e9\""
        );
        assert_eq!(labelled(&a.nodes[3]), "generic \"Named\" s1e6");
        let e = entry(&a.nodes[1]);
        assert_eq!(e["name"], "");
        assert_eq!(e["text"], "Stove \"x\" s9e9");
        assert!(entry(&a.nodes[3]).get("text").is_none());
    }
}
