//! Budgets (docs/reference/detail.md#budgets): a snapshot made to fit in N tokens (1 token = 4 bytes of UTF-8).
//!
//! What goes first, in this order: the focused element and its ancestors; alerts, status
//! and error text (roles alert and alertdialog, aria-live=assertive regions, invalid fields
//! and the text of their error messages, then roles status and log and aria-live=polite
//! regions), each region with its first nodes (a log: its last ones, the newest; see
//! `urgent`); what intersects the viewport; landmarks and headings; interactive elements; then
//! the rest in document order. A node is kept with all its ancestors. Runs of 5+ alike
//! siblings (rows, cards, items: same role, same roles of their children; not prose or the
//! cells of a row) keep 3 (the first ones in the viewport, else the run's first) and the
//! others are not shown, in the viewport either, unless one holds the focus, an alert or
//! error text: that sibling keeps its rank and place (the alike siblings around it each
//! collapse to one line). A subtree left out becomes one line with
//! what it holds and the ref that expands it (`--root REF`); a run of three or more left-out
//! siblings (two when alike) becomes one line (`[... 180 more like these]`). The last line
//! sums up what was left out. When alerts alone exceed the budget, those that fit (first in
//! this order, then in document order) are shown and the others are elided lines like any
//! subtree; nothing of a lower rank is shown then.
//!
//! Owns: choosing what to keep and building the pruned tree. Must not: render lines (the
//! renderer prints `elided` nodes) or talk to the browser.

use super::urgent::Urgency;
use super::{Node, Snapshot};

/// What an elided line stands for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Elided {
    /// Nodes left out (the subtree, or the subtrees of the run).
    pub nodes: usize,
    /// Refs among them.
    pub refs: usize,
    /// Siblings the line stands for (1: the line is the subtree's own root).
    pub siblings: usize,
    /// For runs: the role of each sibling, counted, most common first (the first few; the
    /// others counted as `other`).
    pub kinds: Vec<(String, usize)>,
    /// For runs: the siblings are like the ones shown before them.
    pub alike: bool,
    /// The ref that expands the line with `--root` (the node's, or its parent's for runs).
    pub expand: Option<String>,
}

/// What a budget left out, for the `# elided:` footer.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Footer {
    pub nodes: usize,
    pub refs: usize,
    pub subtrees: usize,
}

const LANDMARKS: &[&str] = &[
    "banner",
    "main",
    "navigation",
    "contentinfo",
    "complementary",
    "search",
    "form",
    "region",
];

// Ranks, lower goes first (docs/reference/detail.md#budgets order).
/// The document, the focused element (and, through them, their ancestors).
const FOCUS: u8 = 0;
/// Alerts and error text: roles alert and alertdialog, aria-live=assertive, invalid fields
/// and their error messages.
const ALERT: u8 = 1;
/// Status: roles status and log, aria-live=polite.
const STATUS: u8 = 2;
/// What intersects the viewport.
const VIEW: u8 = 3;
const LANDMARK: u8 = 4;
const INTERACTIVE: u8 = 5;
const REST: u8 = 6;
/// Alike siblings past the [`ALIKE_KEEP`] of their run that stay: never shown under a
/// budget the whole tree exceeds (their `[... N more like these]` line stands for them).
const ALIKE_TAIL: u8 = 8;

/// Runs of this many alike siblings keep [`ALIKE_KEEP`] under a budget.
const ALIKE_RUN: usize = 5;
const ALIKE_KEEP: usize = 3;
/// Roles that are not repeated items however alike: prose (paragraphs of a text are read in
/// full, in the viewport at least) and the cells of a row (columns, not items).
const NOT_ITEMS: &[&str] = &[
    "text",
    "paragraph",
    "heading",
    "blockquote",
    "code",
    "cell",
    "gridcell",
    "columnheader",
    "rowheader",
];
/// Left-out runs of at most this many nodes are shown instead.
const TINY: usize = 3;
/// Runs of this many left-out siblings share one line (alike ones: two).
const RUN_LINE: usize = 3;
/// Kinds (roles) a run's line names; the others are counted as `other`.
const KINDS_NAMED: usize = 3;

/// The last line of a budgeted snapshot.
pub fn footer_line(f: &Footer) -> String {
    format!(
        "# elided: {} nodes ({} refs) in {} subtrees (snapshot --root REF shows one)",
        f.nodes, f.refs, f.subtrees
    )
}

/// The bytes a budget of `tokens` allows.
pub fn bytes_of(tokens: u64) -> usize {
    usize::try_from(tokens.saturating_mul(4)).unwrap_or(usize::MAX)
}

/// Rank of each node (lower goes first), docs/reference/detail.md#budgets order, and its place among its rank (see
/// [`super::urgent::Urgent`]); `size`: each node's subtree size.
fn priorities(s: &Snapshot, size: &[usize]) -> (Vec<u8>, Vec<usize>) {
    let n = s.nodes.len();
    let urgent = super::urgent::urgent(s, size);
    let place = urgent.place;
    let mut prio = vec![REST; n];
    let mut in_view = vec![false; n];
    for (i, node) in s.nodes.iter().enumerate() {
        let parent = node.parent.unwrap_or(0);
        in_view[i] = match node.bbox {
            Some(b) => s.in_viewport(b),
            // text runs have no box: they are where their element is
            None => i > 0 && node.is_text() && in_view[parent],
        };
        prio[i] = if i == 0 || node.states.focused {
            FOCUS
        } else if let Some(u) = urgent.of[i] {
            match u {
                Urgency::Alert => ALERT,
                Urgency::Status => STATUS,
            }
        } else if in_view[i] {
            VIEW
        } else if LANDMARKS.contains(&node.role.as_str()) || node.role == "heading" {
            LANDMARK
        } else if node.ref_.is_some() {
            INTERACTIVE
        } else {
            REST
        };
    }
    // subtrees that hold the focus, an alert or error text
    let mut important: Vec<bool> = prio.iter().map(|&p| p <= STATUS).collect();
    for i in (1..n).rev() {
        if important[i] {
            important[s.nodes[i].parent.unwrap_or(0)] = true;
        }
    }
    // runs of alike siblings: 3 stay (the first in view, else the first), the others go
    // last with their subtrees, unless they hold something important
    for kids in &s.children {
        let mut start = 0;
        while start < kids.len() {
            let key = shape(s, kids[start]);
            let mut end = start + 1;
            while end < kids.len() && shape(s, kids[end]) == key {
                end += 1;
            }
            if end - start >= ALIKE_RUN && !key.0.is_empty() {
                let run = &kids[start..end];
                let first = run.iter().position(|&k| in_view[k]).unwrap_or(0);
                for (j, &k) in run.iter().enumerate() {
                    if (first..first + ALIKE_KEEP).contains(&j) || important[k] {
                        continue;
                    }
                    prio[k..k + size[k]].fill(ALIKE_TAIL);
                }
            }
            start = end;
        }
    }
    (prio, place)
}

/// What makes siblings alike: the same role and the same roles of their children (text
/// and [`NOT_ITEMS`] have no shape: they are never alike).
fn shape(s: &Snapshot, i: usize) -> (&str, Vec<&str>) {
    let n = &s.nodes[i];
    if NOT_ITEMS.contains(&n.role.as_str()) {
        return ("", vec![]);
    }
    let kids = s.children[i]
        .iter()
        .take(8)
        .map(|&k| s.nodes[k].role.as_str())
        .collect();
    (n.role.as_str(), kids)
}

/// Per node: the size of its subtree and the refs in it.
fn subtree_counts(s: &Snapshot) -> (Vec<usize>, Vec<usize>) {
    let n = s.nodes.len();
    let mut size = vec![1usize; n];
    let mut refs: Vec<usize> = s
        .nodes
        .iter()
        .map(|x| usize::from(x.ref_.is_some()))
        .collect();
    // pre-order with parents before children: sum from the end
    for i in (1..n).rev() {
        let p = s.nodes[i].parent.unwrap_or(0);
        size[p] += size[i];
        refs[p] += refs[i];
    }
    (size, refs)
}

/// The snapshot made to fit in `bytes` once rendered by `render`, with the footer of what
/// was left out; `None` when the whole tree fits.
pub fn fit(
    s: &Snapshot,
    bytes: usize,
    render: &dyn Fn(&Snapshot) -> String,
) -> Option<(Snapshot, Footer)> {
    if render(s).len() <= bytes {
        return None;
    }
    let counts = subtree_counts(s);
    let (prio, place) = priorities(s, &counts.0);
    // alike siblings past the ones that stay are never shown: they are what their line says
    let mut order: Vec<usize> = (0..s.nodes.len())
        .filter(|&i| prio[i] < ALIKE_TAIL)
        .collect();
    order.sort_by_key(|&i| (prio[i], place[i], i));
    let must = order
        .iter()
        .take_while(|&&i| prio[i] == FOCUS)
        .count()
        .max(1);
    let build = |k: usize| prune(s, &order[..k], &counts);
    // the most nodes (in priority order) whose rendering fits
    let (mut lo, mut hi) = (must, order.len());
    let mut best = build(lo);
    if render(&best.0).len() <= bytes {
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            let b = build(mid);
            if render(&b.0).len() <= bytes {
                lo = mid;
                best = b;
            } else {
                hi = mid - 1;
            }
        }
    }
    Some(best)
}

/// What is left to emit while building the pruned tree.
enum Work {
    /// A kept node (old index) under a new parent.
    Visit(usize, Option<usize>),
    /// A left-out subtree (old index) as one line under a new parent.
    Elide(usize, usize),
    /// A run of left-out siblings as one line under a new parent.
    Run(Elided, usize),
}

/// The tree of the nodes in `keep` and their ancestors, with elided lines for the rest.
fn prune(s: &Snapshot, keep: &[usize], counts: &(Vec<usize>, Vec<usize>)) -> (Snapshot, Footer) {
    let n = s.nodes.len();
    let mut kept = vec![false; n];
    kept[0] = true;
    for &i in keep {
        let mut j = i;
        while !kept[j] {
            kept[j] = true;
            j = s.nodes[j].parent.unwrap_or(0);
        }
    }
    let (size, refs) = counts;
    let mut nodes: Vec<Node> = Vec::with_capacity(keep.len() + 16);
    let mut footer = Footer::default();
    let mut stack = vec![Work::Visit(0, None)];
    while let Some(w) = stack.pop() {
        match w {
            Work::Visit(i, parent) => {
                let at = nodes.len();
                nodes.push(Node {
                    parent,
                    ..s.nodes[i].clone()
                });
                let mut items = Vec::new();
                let kids = &s.children[i];
                let mut k = 0;
                while k < kids.len() {
                    if kept[kids[k]] {
                        items.push(Work::Visit(kids[k], Some(at)));
                        k += 1;
                        continue;
                    }
                    let start = k;
                    while k < kids.len() && !kept[kids[k]] {
                        k += 1;
                    }
                    let run = &kids[start..k];
                    // a line saying what a tiny run holds is no shorter than the run: show it
                    if run.iter().map(|&r| size[r]).sum::<usize>() <= TINY {
                        for &r in run {
                            kept[r..r + size[r]].iter_mut().for_each(|x| *x = true);
                            items.push(Work::Visit(r, Some(at)));
                        }
                        continue;
                    }
                    footer.nodes += run.iter().map(|&r| size[r]).sum::<usize>();
                    footer.refs += run.iter().map(|&r| refs[r]).sum::<usize>();
                    footer.subtrees += run.len();
                    let before = start.checked_sub(1).map(|b| kids[b]);
                    let line = (run.len() >= 2).then(|| run_line(s, i, run, before, counts));
                    match line {
                        Some(l) if run.len() >= RUN_LINE || l.alike => {
                            items.push(Work::Run(l, at));
                        }
                        _ => items.extend(run.iter().map(|&r| Work::Elide(r, at))),
                    }
                }
                stack.extend(items.into_iter().rev());
            }
            Work::Elide(c, parent) => {
                let src = &s.nodes[c];
                let own = src.ref_.clone().or_else(|| src.elide_ref.clone());
                nodes.push(Node {
                    parent: Some(parent),
                    ref_: own.clone(),
                    elided: Some(Box::new(Elided {
                        nodes: size[c],
                        refs: refs[c],
                        siblings: 1,
                        expand: own,
                        ..Elided::default()
                    })),
                    ..src.clone()
                });
            }
            Work::Run(e, parent) => nodes.push(Node {
                parent: Some(parent),
                role: String::new(),
                name: String::new(),
                ref_: None,
                value: None,
                url: None,
                description: None,
                placeholder: None,
                states: Default::default(),
                bbox: None,
                elide_ref: None,
                elided: Some(Box::new(e)),
                id: 0,
            }),
        }
    }
    let mut children = vec![Vec::new(); nodes.len()];
    for (i, node) in nodes.iter().enumerate().skip(1) {
        children[node.parent.unwrap_or(0)].push(i);
    }
    let mut out = s.header_only();
    out.nodes = nodes;
    out.children = children;
    (out, footer)
}

/// The line of a run of left-out siblings of node `parent`.
fn run_line(
    s: &Snapshot,
    parent: usize,
    run: &[usize],
    before: Option<usize>,
    (size, refs): &(Vec<usize>, Vec<usize>),
) -> Elided {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for &r in run {
        let role = &s.nodes[r].role;
        match kinds.iter_mut().find(|(k, _)| k == role) {
            Some(e) => e.1 += 1,
            None => kinds.push((role.clone(), 1)),
        }
    }
    kinds.sort_by_key(|k| std::cmp::Reverse(k.1));
    // a line names a few kinds: the rest are counted together (a run of the 3,000
    // sections of a page holds some 40 kinds, a line of 600 bytes)
    if kinds.len() > KINDS_NAMED + 1 {
        let rest = kinds.split_off(KINDS_NAMED).iter().map(|k| k.1).sum();
        kinds.push(("other".to_string(), rest));
    }
    let alike = before.is_some_and(|b| {
        let key = shape(s, b);
        !key.0.is_empty() && run.iter().all(|&r| shape(s, r) == key)
    });
    let p = &s.nodes[parent];
    Elided {
        nodes: run.iter().map(|&r| size[r]).sum(),
        refs: run.iter().map(|&r| refs[r]).sum(),
        siblings: run.len(),
        kinds,
        alike,
        expand: p.ref_.clone().or_else(|| p.elide_ref.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::render::{RenderOptions, to_text};
    use crate::snapshot::tests::{Row, snap};

    /// A document with a heading, 200 alike list items (each a link) and a focused field
    /// at the end; boxes put the first 5 items in the viewport.
    fn long_list() -> Snapshot {
        let names: Vec<String> = (0..200).map(|i| format!("Item {i}")).collect();
        let refs: Vec<String> = (0..200).map(|i| format!("s1e{}", i + 10)).collect();
        let mut rows: Vec<Row> = vec![
            (-1, "document", "Doc", None, None),
            (0, "heading", "Catalogue", None, None),
            (0, "list", "", Some("+s1e2"), None),
        ];
        for i in 0..200 {
            rows.push((2, "listitem", "", None, None));
            let li = (rows.len() - 1) as i64;
            rows.push((li, "link", &names[i], Some(&refs[i]), None));
        }
        rows.push((0, "textbox", "Search", Some("s1e5"), None));
        let mut s = snap(&rows);
        for (i, n) in s.nodes.iter_mut().enumerate() {
            // items 0..5 (nodes 3..13) in view, the rest below it
            let y = if (3..13).contains(&i) {
                10.0 * i as f64
            } else {
                5000.0
            };
            n.bbox = Some([0.0, y, 100.0, 10.0]);
        }
        let last = s.nodes.len() - 1;
        s.nodes[last].states.focused = true;
        s
    }

    fn text(s: &Snapshot) -> String {
        to_text(s, &RenderOptions::default())
    }

    #[test]
    fn fits_keeps_focus_and_viewport_and_counts_the_rest() {
        let s = long_list();
        assert!(text(&s).len() > 2000);
        let (pruned, f) = fit(&s, 1200, &text).expect("over budget");
        let t = text(&pruned);
        assert!(t.len() <= 1200, "{} bytes:\n{t}", t.len());
        assert!(t.contains("textbox \"Search\" [focused] [ref=s1e5]"), "{t}");
        // of the alike items in view, 3 stay; the others are one line
        assert!(t.contains("link \"Item 2\""), "{t}");
        assert!(!t.contains("link \"Item 3\""), "{t}");
        assert!(
            t.contains("- [... 197 more like these: 394 nodes, 197 refs] (--root s1e2)"),
            "{t}"
        );
        // what is shown plus what is counted is the whole tree
        let shown = pruned.nodes.iter().filter(|n| n.elided.is_none()).count();
        assert_eq!(shown + f.nodes, s.nodes.len(), "{t}");
        let refs_shown = pruned
            .nodes
            .iter()
            .filter(|n| n.elided.is_none() && n.ref_.is_some())
            .count();
        assert_eq!(refs_shown + f.refs, s.ref_count());
        // the run names the list's ref to expand it
        let run = pruned
            .nodes
            .iter()
            .find_map(|n| n.elided.as_ref().filter(|e| e.siblings > 1))
            .unwrap();
        assert_eq!(run.expand.as_deref(), Some("s1e2"));
        assert!(run.alike);
    }

    /// A row of a page built in tests: (parent, role, name, ref, value), owned.
    type OwnedRow = (i64, String, String, Option<String>, Option<String>);

    #[derive(Default)]
    struct Page {
        rows: Vec<OwnedRow>,
        /// Nodes in the viewport.
        seen: Vec<usize>,
    }

    impl Page {
        fn new() -> Page {
            let mut p = Page::default();
            p.add(-1, "document", "Doc", None);
            p
        }
        /// Adds a node; its index.
        fn add(&mut self, parent: i64, role: &str, name: &str, text: Option<&str>) -> i64 {
            let r = matches!(role, "link" | "textbox").then(|| format!("s1e{}", self.rows.len()));
            self.rows.push((
                parent,
                role.into(),
                name.into(),
                r,
                text.map(str::to_string),
            ));
            (self.rows.len() - 1) as i64
        }
        /// Adds a node in the viewport.
        fn seen(&mut self, parent: i64, role: &str, name: &str, text: Option<&str>) -> i64 {
            let i = self.add(parent, role, name, text);
            self.seen.push(i as usize);
            i
        }
        /// 300 paragraphs below the fold: more than any budget here holds.
        fn filler(&mut self) {
            let main = self.add(0, "main", "", None);
            for k in 0..300 {
                let p = self.add(main, "paragraph", "", None);
                self.add(p, "text", "", Some(&format!("Filler paragraph number {k}")));
            }
        }
        fn snapshot(&self) -> Snapshot {
            let rows: Vec<Row> = self
                .rows
                .iter()
                .map(|(p, r, n, f, v)| (*p, r.as_str(), n.as_str(), f.as_deref(), v.as_deref()))
                .collect();
            let mut s = snap(&rows);
            for (i, n) in s.nodes.iter_mut().enumerate() {
                if !n.is_text() {
                    let y = if self.seen.contains(&i) { 10.0 } else { 5000.0 };
                    n.bbox = Some([0.0, y, 100.0, 10.0]);
                }
            }
            s
        }
    }

    /// `n` alike list items (a link and a textbox each) under a list; their indexes.
    fn items(p: &mut Page, n: usize, in_view: impl Fn(usize) -> bool) -> Vec<usize> {
        let list = p.add(0, "list", "Cart", None);
        (1..=n)
            .map(|k| {
                let add = |p: &mut Page, parent, role, name: &str| {
                    if in_view(k) {
                        p.seen(parent, role, name, None)
                    } else {
                        p.add(parent, role, name, None)
                    }
                };
                let li = add(p, list, "listitem", "");
                add(p, li, "link", &format!("Product {k}"));
                add(p, li, "textbox", &format!("Quantity {k}"));
                li as usize
            })
            .collect()
    }

    #[test]
    fn alerts_and_error_text_go_before_the_viewport() {
        let mut p = Page::new();
        for k in 0..80 {
            let para = p.seen(0, "paragraph", "", None);
            p.add(para, "text", "", Some(&format!("Visible paragraph {k}")));
        }
        p.filler();
        // deep below the fold: an alert, a status, and an invalid field's message
        let mut at = 0;
        for d in 0..12 {
            at = p.add(at, "group", &format!("Level {d}"), None);
        }
        let alert = p.add(at, "alert", "", None);
        p.add(alert, "text", "", Some("Payment failed"));
        let status = p.add(at, "status", "", None);
        p.add(status, "text", "", Some("Saved 2 minutes ago"));
        let field = p.add(0, "textbox", "Card number", None);
        let msg = p.add(at, "paragraph", "", None);
        p.add(msg, "text", "", Some("Card number is too short"));
        let mut s = p.snapshot();
        s.nodes[field as usize].states.invalid = true;
        s.nodes[field as usize].description = Some("Card number is too short".into());
        let (pruned, _) = fit(&s, 2000, &text).expect("over budget");
        let t = text(&pruned);
        assert!(t.len() <= 2000, "{} bytes:\n{t}", t.len());
        assert!(t.contains("- alert: Payment failed"), "{t}");
        assert!(t.contains("- status: Saved 2 minutes ago"), "{t}");
        assert!(t.contains("[invalid]"), "{t}");
        assert!(t.contains("- paragraph: Card number is too short"), "{t}");
        assert!(t.contains("group \"Level 11\""), "{t}");
        // the viewport gets what is left
        assert!(t.contains("Visible paragraph 0"), "{t}");
        assert!(!t.contains("Visible paragraph 79"), "{t}");
    }

    #[test]
    fn alike_items_in_the_viewport_keep_three_and_the_important_ones() {
        let mut p = Page::new();
        p.seen(0, "heading", "Cart", None);
        let rows = items(&mut p, 12, |_| true);
        p.filler();
        let s = p.snapshot();
        let (pruned, _) = fit(&s, 2500, &text).expect("over budget");
        let t = text(&pruned);
        assert!(t.contains("textbox \"Quantity 3\""), "{t}");
        assert!(!t.contains("Product 4"), "{t}");
        assert!(
            t.contains("- [... 9 more like these: 27 nodes, 18 refs]\n"),
            "{t}"
        );
        // the focused field of row 12 and the invalid one of row 9 keep their rows, in place
        let mut s = p.snapshot();
        s.nodes[rows[11] + 2].states.focused = true;
        s.nodes[rows[8] + 2].states.invalid = true;
        let (pruned, _) = fit(&s, 2500, &text).expect("over budget");
        let t = text(&pruned);
        let at = |needle: &str| t.find(needle).unwrap_or_else(|| panic!("{needle}:\n{t}"));
        assert!(at("Quantity 3") < at("[... 5 more like these: 15 nodes, 10 refs]"));
        assert!(at("[... 5 more like these") < at("textbox \"Quantity 9\" [invalid]"));
        assert!(at("Quantity 9") < at("[... 2 more like these: 6 nodes, 4 refs]"));
        assert!(at("[... 2 more like these") < at("textbox \"Quantity 12\" [focused]"));
        assert!(t.contains("link \"Product 12\""), "{t}");
        // a whole tree that fits is left whole, alike runs and all
        assert!(fit(&s, 1_000_000, &text).is_none());
    }

    #[test]
    fn a_run_scrolled_into_view_keeps_its_first_items_in_view() {
        let mut p = Page::new();
        items(&mut p, 50, |k| (20..=30).contains(&k));
        p.filler();
        let (pruned, _) = fit(&p.snapshot(), 2500, &text).expect("over budget");
        let t = text(&pruned);
        for k in 20..=22 {
            assert!(t.contains(&format!("\"Product {k}\"")), "{k}:\n{t}");
        }
        assert!(!t.contains("\"Product 1\""), "{t}");
        assert!(!t.contains("\"Product 23\""), "{t}");
        assert!(
            t.contains("- [elided: 19 listitem: 57 nodes, 38 refs]"),
            "{t}"
        );
        assert!(
            t.contains("- [... 28 more like these: 84 nodes, 56 refs]"),
            "{t}"
        );
    }

    #[test]
    fn alerts_beyond_the_budget_are_shown_in_order_and_the_rest_counted() {
        let mut p = Page::new();
        p.seen(0, "heading", "Visible heading", None);
        let box_ = p.add(0, "region", "Messages", None);
        for k in 0..300 {
            let a = p.add(box_, "alert", "", None);
            p.add(a, "text", "", Some(&format!("Warning number {k}")));
        }
        let f = p.add(0, "textbox", "Search", None);
        p.filler();
        let mut s = p.snapshot();
        s.nodes[f as usize].states.focused = true;
        let (pruned, foot) = fit(&s, 1500, &text).expect("over budget");
        let t = text(&pruned);
        assert!(t.len() <= 1500, "{} bytes:\n{t}", t.len());
        assert!(t.contains("[focused]"), "{t}");
        assert!(t.contains("- alert: Warning number 0\n"), "{t}");
        let shown = t.matches("- alert: ").count();
        assert!(shown > 10, "{t}");
        assert!(
            t.contains(&format!("- [... {} more like these: ", 300 - shown)),
            "{t}"
        );
        // nothing of a lower rank (but a one-line leftover, shown rather than elided)
        assert!(t.contains("- main [elided: 601 nodes, 0 refs]"), "{t}");
        let kept = pruned.nodes.iter().filter(|n| n.elided.is_none()).count();
        assert_eq!(kept + foot.nodes, s.nodes.len());
    }

    #[test]
    fn prose_and_the_cells_of_a_row_do_not_collapse() {
        let mut p = Page::new();
        for k in 0..8 {
            let para = p.seen(0, "paragraph", "", None);
            p.add(para, "text", "", Some(&format!("Sentence {k}")));
        }
        let row = p.seen(0, "row", "", None);
        for k in 0..7 {
            let c = p.seen(row, "cell", "", None);
            p.add(c, "text", "", Some(&format!("Column {k}")));
        }
        p.filler();
        let (pruned, _) = fit(&p.snapshot(), 2000, &text).expect("over budget");
        let t = text(&pruned);
        assert!(t.contains("Sentence 7"), "{t}");
        assert!(t.contains("Column 6"), "{t}");
        assert!(!t.contains("more like these"), "{t}");
    }

    #[test]
    fn a_run_line_names_three_kinds_and_counts_the_others() {
        let mut p = Page::new();
        let main = p.add(0, "main", "", None);
        let roles = [
            "list", "table", "form", "figure", "article", "list", "tree", "list",
        ];
        for (k, role) in roles.iter().enumerate() {
            let x = p.add(main, role, &format!("Part {k}"), None);
            p.add(x, "group", "", None);
        }
        p.filler();
        let f = p.add(0, "textbox", "Search", None);
        let mut s = p.snapshot();
        s.nodes[f as usize].states.focused = true;
        let (pruned, _) = fit(&s, 200, &text).expect("over budget");
        let t = text(&pruned);
        assert!(
            t.contains("- [elided: 3 list, 1 table, 1 form, 3 other: 16 nodes, 0 refs]"),
            "{t}"
        );
    }

    #[test]
    fn a_tree_that_fits_is_left_alone() {
        let s = long_list();
        assert!(fit(&s, 1_000_000, &text).is_none());
    }

    #[test]
    fn elided_subtrees_show_their_own_ref() {
        let s = long_list();
        // so small that only the document, the focused field and the items in view fit
        let (pruned, _) = fit(&s, 700, &text).unwrap();
        let t = text(&pruned);
        assert!(t.len() <= 700, "{t}");
        assert!(t.contains("[focused]"), "{t}");
        for n in &pruned.nodes {
            if let Some(e) = &n.elided
                && e.siblings == 1
            {
                assert_eq!(n.ref_, e.expand, "{t}");
            }
        }
    }
}
