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
//! (steps/changes/ does, with the effects of the actions).
//!
//! The parts: what a diff is, and names and text as compared (here); matching elements
//! (`matching`); the comparison itself, field by field and child order (`compare`); the
//! text runs under an element and the window cut around a change (`runs`); the subtrees that
//! came or went (`groups`); the JSON entries and labels the reply is worded from (`entry`);
//! what the page did on its own while the action settled, left out (`own`).

mod compare;
mod entry;
mod groups;
mod matching;
mod own;
mod runs;

pub use compare::diff;
pub use entry::{change_entry, entry, group_entry, label, labelled, navigated};
pub use own::{OwnWork, drop_own_work};
pub use runs::around_change;

use serde_json::Value;

/// What changed between two snapshots of one document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageDiff {
    /// Subtrees that came, by their root in the `after` snapshot, in document order.
    pub added: Vec<Group>,
    /// Subtrees that went, by their root in the `before` snapshot, in document order.
    pub removed: Vec<Group>,
    /// Fields of elements that stayed, and text runs under them, in document order.
    pub changed: Vec<Change>,
    /// Controls a re-render replaced by new elements with the same role and name (matched,
    /// so not added nor removed, but with new refs), by the nearest element that stayed
    /// (`root`, in `after`), in document order.
    pub rerendered: Vec<Group>,
    /// The element the focus moved to (an index in `after`), when it moved.
    pub focus: Option<usize>,
}

impl PageDiff {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.rerendered.is_empty()
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

/// Longest text kept for a group's text and a changed run's ends (characters).
pub const TEXT_CAP: usize = 300;

/// White space collapsed, private-use characters left out.
fn plain(s: &str) -> String {
    crate::safe::squash(&without_private_use(s))
}

#[cfg(test)]
mod tests {
    use crate::snapshot::Snapshot;

    /// A snapshot whose element nodes carry identities (`ids[i]`, 0 for none).
    pub(super) fn with_ids(mut s: Snapshot, ids: &[u64]) -> Snapshot {
        for (n, &id) in s.nodes.iter_mut().zip(ids) {
            n.id = id;
        }
        s
    }
}
