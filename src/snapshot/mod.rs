//! Snapshots on the host side: the tree built from the page's flat list, and its renderings.
//!
//! Owns: the `Snapshot` model (flat, pre-order, parent indexes: no recursion anywhere, pages
//! nest deeper than any stack) and rendering in `render`. Must not: talk to the browser.

pub mod detail;
pub mod diff;
pub mod render;

use crate::wire::{WireNode, WireSnapshot, WireStates};

/// One node of a snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Parent index; None for the document.
    pub parent: Option<usize>,
    pub role: String,
    pub name: String,
    pub ref_: Option<String>,
    /// Value of a control, or the text of a text run.
    pub value: Option<String>,
    pub url: Option<String>,
    pub description: Option<String>,
    pub placeholder: Option<String>,
    pub states: WireStates,
    pub bbox: Option<[f64; 4]>,
}

impl Node {
    /// True for text runs.
    pub fn is_text(&self) -> bool {
        self.role == "text"
    }
}

/// A frame met in the walk.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub index: u32,
    pub node: Option<usize>,
    pub url: String,
    pub unreadable: Option<String>,
}

/// A whole snapshot of one tab.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub url: String,
    pub title: String,
    /// The snapshot number n of `s<n>e<m>`.
    pub number: u64,
    /// Nodes in document order; nodes[0] is the document.
    pub nodes: Vec<Node>,
    /// children[i]: indexes of the children of node i, in order.
    pub children: Vec<Vec<usize>>,
    pub frames: Vec<Frame>,
    pub stats: crate::wire::WireStats,
    pub fingerprint: crate::wire::Fingerprint,
    /// Time the engine spent in the page, ms.
    pub engine_ms: f64,
    /// Viewport size [w, h].
    pub viewport: [f64; 2],
    /// Served from the engine's snapshot cache, without a walk.
    pub cached: bool,
}

impl Snapshot {
    /// Builds the tree from the page's flat list. Parent indexes that do not point backwards
    /// are attached to the document, so a hostile or broken reply cannot make a cycle.
    pub fn from_wire(w: WireSnapshot) -> Snapshot {
        let mut nodes = Vec::with_capacity(w.nodes.len().max(1));
        for (i, n) in w.nodes.into_iter().enumerate() {
            nodes.push(node_from_wire(i, n));
        }
        if nodes.is_empty() {
            nodes.push(Node {
                parent: None,
                role: "document".into(),
                name: w.title.clone(),
                ref_: None,
                value: None,
                url: None,
                description: None,
                placeholder: None,
                states: WireStates::default(),
                bbox: None,
            });
        }
        let mut children = vec![Vec::new(); nodes.len()];
        for (i, n) in nodes.iter().enumerate().skip(1) {
            children[n.parent.unwrap_or(0)].push(i);
        }
        let frames = w
            .frames
            .into_iter()
            .map(|f| Frame {
                index: f.k,
                node: usize::try_from(f.i).ok().filter(|&i| i < nodes.len()),
                url: f.url,
                unreadable: f.unreadable,
            })
            .collect();
        Snapshot {
            url: w.url,
            title: w.title,
            number: w.snapshot,
            nodes,
            children,
            frames,
            stats: w.stats,
            fingerprint: w.fingerprint,
            engine_ms: w.engine_ms,
            viewport: w.viewport,
            cached: w.cached,
        }
    }

    /// Number of refs in the snapshot.
    pub fn ref_count(&self) -> usize {
        self.nodes.iter().filter(|n| n.ref_.is_some()).count()
    }

    /// Depth of every node (document = 0), computed in one forward pass.
    pub fn depths(&self) -> Vec<usize> {
        let mut d = vec![0usize; self.nodes.len()];
        for i in 1..self.nodes.len() {
            d[i] = self.nodes[i].parent.map(|p| d[p] + 1).unwrap_or(1);
        }
        d
    }
}

fn node_from_wire(i: usize, n: WireNode) -> Node {
    let parent = if i == 0 {
        None
    } else {
        // only backward pointers are accepted
        Some(usize::try_from(n.p).ok().filter(|&p| p < i).unwrap_or(0))
    };
    let is_text = n.r == "text";
    Node {
        parent,
        name: if is_text {
            String::new()
        } else {
            n.n.unwrap_or_default()
        },
        value: n.v,
        role: n.r,
        ref_: n.ref_,
        url: n.u,
        description: n.d,
        placeholder: n.ph,
        states: n.s.unwrap_or_default(),
        bbox: n.b,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::wire::{Fingerprint, WireStats};

    /// (parent, role, name, ref, value)
    pub type Row<'a> = (i64, &'a str, &'a str, Option<&'a str>, Option<&'a str>);

    /// A snapshot from rows; the first row is the document.
    pub fn snap(rows: &[Row]) -> Snapshot {
        let nodes = rows
            .iter()
            .map(|(p, r, n, rf, v)| WireNode {
                p: *p,
                r: r.to_string(),
                n: if n.is_empty() {
                    None
                } else {
                    Some(n.to_string())
                },
                v: v.map(str::to_string),
                s: None,
                u: None,
                d: None,
                ph: None,
                b: None,
                ref_: rf.map(str::to_string),
            })
            .collect();
        Snapshot::from_wire(WireSnapshot {
            url: "http://127.0.0.1/".into(),
            title: "T".into(),
            snapshot: 1,
            nodes,
            frames: vec![],
            viewport: [800.0, 600.0],
            stats: WireStats::default(),
            fingerprint: Fingerprint {
                url: String::new(),
                scroll: [0, 0],
                dom: 0,
                interactive: 0,
                epoch: 0,
            },
            engine_ms: 0.0,
            cached: false,
        })
    }

    #[test]
    fn forward_parent_pointers_are_reattached_to_the_document() {
        let s = snap(&[
            (-1, "document", "T", None, None),
            (5, "button", "A", None, None),
            (1, "text", "", None, Some("x")),
        ]);
        assert_eq!(s.nodes[1].parent, Some(0));
        assert_eq!(s.children[0], vec![1]);
        assert_eq!(s.children[1], vec![2]);
        assert_eq!(s.depths(), vec![0, 1, 2]);
    }
}
