//! The page's changes between two whole-page snapshots, element by element (docs/reference/replies.md#changes: changes
//! are the page's changes).
//!
//! Elements are matched by their identity (`Node::id`: one number per element for the
//! document's life), so content that only scrolled into or out of view is no change, and an
//! element keeps its place in the diff when its name, its ref or its position changes.
//! Elements a page re-created (a framework re-render: new DOM nodes, same role and name
//! under the same parent) are matched by role and name under their matched parent. What is
//! left is grouped: a new (or gone) element is reported once, as the root of the subtree
//! that came (or went) with it, with the controls and text in it; the text under an element
//! that stayed is compared run by run, and a run that changed is one change, cut around what
//! changed.
//!
//! Owns: matching and grouping. Must not: take snapshots or word the summary
//! (steps/changes.rs does, with the effects of the actions).

use super::{Node, Snapshot};
use crate::wire::Tri;
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};

/// What changed between two snapshots of one document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageDiff {
    /// Subtrees that came, by their root in the `after` snapshot, in document order.
    pub added: Vec<Group>,
    /// Subtrees that went, by their root in the `before` snapshot, in document order.
    pub removed: Vec<Group>,
    /// Fields of elements that stayed, and text runs under them, in document order.
    pub changed: Vec<Change>,
    /// The element the focus moved to (an index in `after`), when it moved.
    pub focus: Option<usize>,
}

impl PageDiff {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// A subtree that came or went.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Group {
    /// Its root (an index in the snapshot it is in).
    pub root: usize,
    /// How many nodes came (or went) with it, itself included.
    pub nodes: usize,
    /// The nodes with refs among them, in document order (the root first when it has one).
    pub controls: Vec<usize>,
    /// Its text (names of its headings and other named nodes that are not controls, text
    /// runs), white space collapsed.
    pub text: String,
    /// Its first form field (a control that takes a value or a check), if any.
    pub first_field: Option<usize>,
    /// Its focused node, if any.
    pub focused: Option<usize>,
}

/// What a change is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    Name,
    Value,
    Text,
    Checked,
    Expanded,
    Selected,
    Pressed,
    Disabled,
    Invalid,
    Required,
    Readonly,
    Level,
    /// A column or row header's sort direction (aria-sort).
    Sort,
    /// The order of an element's children (rows a table sorted).
    Order,
    /// The error text of an invalid field (its description).
    Message,
}

impl Field {
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Value => "value",
            Field::Text => "text",
            Field::Checked => "checked",
            Field::Expanded => "expanded",
            Field::Selected => "selected",
            Field::Pressed => "pressed",
            Field::Disabled => "disabled",
            Field::Invalid => "invalid",
            Field::Required => "required",
            Field::Readonly => "readonly",
            Field::Level => "level",
            Field::Sort => "sort",
            Field::Order => "order",
            Field::Message => "message",
        }
    }
}

/// One change of an element that stayed (for `Text`: of the text under it).
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The element (for `Text`: the element the text is under) in `before` and in `after`.
    pub before: usize,
    pub after: usize,
    pub field: Field,
    pub from: Value,
    pub to: Value,
    /// For text: the length of the new run, in characters (the values are cut around what
    /// changed).
    pub size: Option<usize>,
}

/// A name with the Unicode private-use characters left out: icon fonts draw their glyphs
/// from those code points (a tree item's arrow, a star), and a name that changed only there
/// is the same name to a reader (ref keeping in js/src/50_refs.js follows the same rule).
pub fn without_private_use(s: &str) -> std::borrow::Cow<'_, str> {
    let pua =
        |c: char| matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD);
    if !s.chars().any(pua) {
        return std::borrow::Cow::Borrowed(s);
    }
    let kept: String = s.chars().filter(|&c| !pua(c)).collect();
    std::borrow::Cow::Owned(crate::safe::squash(&kept))
}

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

/// Longest text kept for a group's text and a changed run's ends (characters).
pub const TEXT_CAP: usize = 300;
/// Characters kept on each side of what changed in a text run.
const CONTEXT: usize = 40;

/// Indexes of text runs the rendering leaves out because their parent's name says them.
fn implied_text(s: &Snapshot) -> Vec<bool> {
    let mut out = vec![false; s.nodes.len()];
    for i in 0..s.nodes.len() {
        if super::render::shown_children(s, i).is_empty() {
            for &c in &s.children[i] {
                out[c] = true;
            }
        }
    }
    out
}

/// Subtree sizes (pre-order: node i's subtree is i..i + size[i]).
fn sizes(s: &Snapshot) -> Vec<usize> {
    let mut size = vec![1usize; s.nodes.len()];
    for i in (1..s.nodes.len()).rev() {
        if let Some(p) = s.nodes[i].parent {
            size[p] += size[i];
        }
    }
    size
}

/// The key that pairs re-created elements: role and name (private-use characters aside).
fn pair_key(n: &Node) -> (String, String) {
    (n.role.clone(), without_private_use(&n.name).into_owned())
}

/// Matches the elements of `after` with those of `before`: `(a_to_b, b_to_a)`.
fn matching(before: &Snapshot, after: &Snapshot) -> (Vec<Option<usize>>, Vec<Option<usize>>) {
    let (nb, na) = (before.nodes.len(), after.nodes.len());
    let mut a2b = vec![None; na];
    let mut b2a = vec![None; nb];
    if nb == 0 || na == 0 {
        return (a2b, b2a);
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
        return (a2b, b2a);
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
        }
    }
    (a2b, b2a)
}

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

/// White space collapsed, private-use characters left out.
fn plain(s: &str) -> String {
    crate::safe::squash(&without_private_use(s))
}

/// The text runs right under node i that the rendering shows, in order; a run that only
/// says the node's name is left out (the page shows it or not as the node's children
/// change: a tree item's label once its group opens).
fn runs<'a>(s: &'a Snapshot, i: usize, implied: &[bool]) -> Vec<&'a str> {
    let name = plain(&s.nodes[i].name);
    s.children[i]
        .iter()
        .filter(|&&c| s.nodes[c].is_text() && !implied[c])
        .map(|&c| s.nodes[c].value.as_deref().unwrap_or(""))
        .filter(|t| name.is_empty() || plain(t) != name)
        .collect()
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
        out.push_str(&super::render::cut(&middle, middle_max));
        let tail: String = v[mid_end..end_keep].iter().collect();
        out.push_str(&tail);
        if end_keep < v.len() {
            out.push_str("...");
        }
        out
    };
    (show(&f), show(&t))
}

/// Compares `before` and `after`, two whole-page snapshots of one document.
pub fn diff(before: &Snapshot, after: &Snapshot) -> PageDiff {
    let (a2b, b2a) = matching(before, after);
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
    let focused = |s: &Snapshot| s.nodes.iter().position(|n| n.states.focused);
    if let Some(fa) = focused(after) {
        let was = focused(before);
        if was.is_none() || a2b[fa] != was {
            out.focus = Some(fa);
        }
    }
    out
}

/// The changes of the text runs right under an element that stayed: the runs that differ
/// once the runs both sides share at the start and the end are set aside, paired in order;
/// one change each.
fn text_changes(rb: &[&str], ra: &[&str], ib: usize, ia: usize, out: &mut Vec<Change>) {
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

/// The subtrees of `s` whose roots have no match while their parents do (text runs aside:
/// they are compared under their element), with what came or went in each.
fn groups(s: &Snapshot, m: &[Option<usize>], size: &[usize], implied: &[bool]) -> Vec<Group> {
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
        g.text = crate::safe::squash(&joined);
        out.push(g);
        i += size[i];
    }
    out
}

/// `role "name"` of a node for entries and summaries, page text quoted (`text "..."` for a
/// text run).
pub fn label(n: &Node) -> String {
    let role = crate::safe::token(&n.role);
    if n.is_text() {
        let t = super::render::cut(n.value.as_deref().unwrap_or(""), 60);
        return format!("text {}", crate::safe::quote(&t));
    }
    let name = super::render::cut(&n.name, 60);
    if name.is_empty() {
        role.into_owned()
    } else {
        format!("{role} {}", crate::safe::quote(&name))
    }
}

/// A node with its ref when it has one (`link "Details" s2e9`), so a reader can act on it.
pub fn labelled(n: &Node) -> String {
    match &n.ref_ {
        Some(r) => format!("{} {}", label(n), crate::safe::token(r)),
        None => label(n),
    }
}

/// `{"role", "name", "ref"?}` of a node (`text` for a text run).
pub fn entry(n: &Node) -> serde_json::Map<String, Value> {
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
    m
}

/// The JSON entry of a group: the root's `{"role", "name", "ref"?}`, its text (cut, with its
/// length when cut), how many nodes came with it, and the controls in it.
pub fn group_entry(s: &Snapshot, g: &Group, in_view: Option<bool>) -> Value {
    let mut m = entry(&s.nodes[g.root]);
    if !g.text.is_empty() && g.text != s.nodes[g.root].name {
        let len = g.text.chars().count();
        m.insert("text".into(), super::render::cut(&g.text, TEXT_CAP).into());
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
    json!({"summary": format!("Navigated to {to}"), "navigated": {"from": from, "to": to}})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::tests::snap;

    /// A snapshot whose element nodes carry identities (`ids[i]`, 0 for none).
    fn with_ids(mut s: Snapshot, ids: &[u64]) -> Snapshot {
        for (n, &id) in s.nodes.iter_mut().zip(ids) {
            n.id = id;
        }
        s
    }

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

    #[test]
    fn identical_snapshots_have_no_change() {
        let a = snap(&[
            (-1, "document", "", None, None),
            (0, "button", "A", Some("s1e1"), None),
            (0, "text", "", None, Some("hello")),
        ]);
        assert!(diff(&a, &a.clone()).is_empty());
    }

    #[test]
    fn entries_quote_page_text_strictly() {
        let a = snap(&[
            (-1, "document", "", None, None),
            (0, "heading", "Done\u{9b}2J\n- x", None, None),
        ]);
        assert_eq!(labelled(&a.nodes[1]), "heading \"Done\\u009b2J\\n- x\"");
    }
}
