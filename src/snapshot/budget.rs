//! Budgets (SPEC 8): a snapshot made to fit in N tokens (1 token = 4 bytes of UTF-8).
//!
//! What goes first: the focused element and its ancestors, what intersects the viewport,
//! landmarks and headings, interactive elements, alerts, status and error text, then the
//! rest in document order; a node is kept with all its ancestors. A subtree left out
//! becomes one line with what it holds and the ref that expands it (`--root REF`); a run of
//! three or more left-out siblings becomes one line, and runs of 5+ alike siblings keep
//! their first 3 (`[... 180 more like these]`). The last line sums up what was left out.
//!
//! Owns: choosing what to keep and building the pruned tree. Must not: render lines (the
//! renderer prints `elided` nodes) or talk to the browser.

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
    /// For runs: the role of each sibling, counted, most common first.
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
const ALERTS: &[&str] = &["alert", "alertdialog", "status", "log"];
/// Runs of this many alike siblings keep their first [`ALIKE_KEEP`] under a budget.
const ALIKE_RUN: usize = 5;
const ALIKE_KEEP: usize = 3;
/// Left-out runs of at most this many nodes are shown instead.
const TINY: usize = 3;
/// Runs of this many left-out siblings share one line.
const RUN_LINE: usize = 3;

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

/// Priority of each node (lower goes first), SPEC 8 order.
fn priorities(s: &Snapshot) -> Vec<u8> {
    let n = s.nodes.len();
    let [vw, vh] = s.viewport;
    let mut prio = vec![9u8; n];
    let mut in_view = vec![false; n];
    for (i, node) in s.nodes.iter().enumerate() {
        let parent = node.parent.unwrap_or(0);
        in_view[i] = match node.bbox {
            Some([x, y, w, h]) => {
                w > 0.0 && h > 0.0 && x < vw && y < vh && x + w > 0.0 && y + h > 0.0
            }
            // text runs have no box: they are where their element is
            None => i > 0 && node.is_text() && in_view[parent],
        };
        prio[i] = if i == 0 || node.states.focused {
            0
        } else if in_view[i] {
            1
        } else if LANDMARKS.contains(&node.role.as_str()) || node.role == "heading" {
            2
        } else if node.ref_.is_some() {
            3
        } else if ALERTS.contains(&node.role.as_str()) || node.states.invalid {
            4
        } else {
            5
        };
    }
    // runs of alike siblings: past the first few, they go last
    for kids in &s.children {
        let mut start = 0;
        while start < kids.len() {
            let key = shape(s, kids[start]);
            let mut end = start + 1;
            while end < kids.len() && shape(s, kids[end]) == key {
                end += 1;
            }
            if end - start >= ALIKE_RUN && !key.0.is_empty() {
                for &k in &kids[start + ALIKE_KEEP..end] {
                    if prio[k] > 1 {
                        prio[k] = 8;
                    }
                }
            }
            start = end;
        }
    }
    prio
}

/// What makes siblings alike: the same role and the same roles of their children.
fn shape(s: &Snapshot, i: usize) -> (&str, Vec<&str>) {
    let n = &s.nodes[i];
    if n.is_text() {
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
    let prio = priorities(s);
    let mut order: Vec<usize> = (0..s.nodes.len()).collect();
    order.sort_by_key(|&i| (prio[i], i));
    let must = order.iter().take_while(|&&i| prio[i] == 0).count().max(1);
    let counts = subtree_counts(s);
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
                    if run.len() < RUN_LINE {
                        items.extend(run.iter().map(|&r| Work::Elide(r, at)));
                    } else {
                        let before = start.checked_sub(1).map(|b| kids[b]);
                        items.push(Work::Run(run_line(s, i, run, before, counts), at));
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
        assert!(t.contains("link \"Item 4\""), "{t}");
        assert!(t.contains("more like these"), "{t}");
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
