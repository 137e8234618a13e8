//! Snapshots on the host side: the tree built from the page's flat list, and its renderings.
//!
//! Owns: the `Snapshot` model (flat, pre-order, parent indexes: no recursion anywhere, pages
//! nest deeper than any stack) and rendering in `render`. Must not: talk to the browser.

pub mod budget;
pub mod detail;
pub mod diff;
pub mod guarded;
pub mod header;
pub mod render;
pub mod secrets;
pub mod urgent;

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
    pub states: States,
    pub bbox: Option<[f64; 4]>,
    /// A ref minted only so that a budget can elide this node (shown on elided lines).
    pub elide_ref: Option<String>,
    /// Under a budget: this line stands for a subtree (or a run of siblings) left out.
    pub elided: Option<Box<budget::Elided>>,
    /// The element's identity for the document's life (0: none; see `WireNode::id`).
    pub id: u64,
}

/// A node's states, read and written as [`WireStates`]: most nodes have none, and then take
/// no room (a node list of a large page is tens of megabytes, and touching fresh memory was
/// a good part of the host's time).
#[derive(Debug, Clone, Default)]
pub struct States(Option<Box<WireStates>>);

static NO_STATES: std::sync::LazyLock<WireStates> = std::sync::LazyLock::new(WireStates::default);

impl std::ops::Deref for States {
    type Target = WireStates;
    fn deref(&self) -> &WireStates {
        self.0.as_deref().unwrap_or(&NO_STATES)
    }
}

impl std::ops::DerefMut for States {
    fn deref_mut(&mut self) -> &mut WireStates {
        self.0.get_or_insert_with(Box::default)
    }
}

impl PartialEq for States {
    fn eq(&self, other: &States) -> bool {
        **self == **other
    }
}

impl From<Option<Box<WireStates>>> for States {
    fn from(s: Option<Box<WireStates>>) -> States {
        States(s)
    }
}

impl Node {
    /// True for text runs.
    pub fn is_text(&self) -> bool {
        self.role == "text"
    }

    /// The words of a generic with a ref and no name (focusable, clickable): its content as
    /// the engine reads it, cut (js/src/45_walk.js `genericWords`). No name (WAI-ARIA 1.2:
    /// generic is "name prohibited"; Chromium and Firefox hold none), but the ref's identity,
    /// and what replies name it by: `generic s1e5 "Stove"`.
    pub fn words(&self) -> Option<&str> {
        if !self.name.is_empty() {
            return None;
        }
        self.states.words.as_deref().filter(|w| !w.is_empty())
    }

    /// Its name, else its words: what it is matched and known by.
    pub fn name_or_words(&self) -> &str {
        self.words().unwrap_or(&self.name)
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
    /// The page header (docs/reference/output.md#page-header); None when the engine sent no page signals.
    pub page: Option<header::PageHeader>,
    /// Values and texts whose secret-shaped parts were masked (docs/reference/output.md#secrets).
    pub secrets_masked: usize,
    /// Nodes `--drop-unseen` left out (docs/reference/output.md#unseen-text).
    pub unseen_dropped: usize,
    /// Nodes that show an aria-live region with no live role (budgeted walks, docs/reference/detail.md#budgets:
    /// alerts and status go first), with whether it is assertive.
    pub live: Vec<(usize, bool)>,
}

impl Snapshot {
    /// Whether a box (x, y, width, height in CSS pixels) shows in the viewport: not empty,
    /// and overlapping it.
    pub fn in_viewport(&self, [x, y, w, h]: [f64; 4]) -> bool {
        let [vw, vh] = self.viewport;
        w > 0.0 && h > 0.0 && x < vw && y < vh && x + w > 0.0 && y + h > 0.0
    }

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
                states: States::default(),
                bbox: None,
                elide_ref: None,
                elided: None,
                id: 0,
            });
        }
        let mut children = vec![Vec::new(); nodes.len()];
        for (i, n) in nodes.iter().enumerate().skip(1) {
            children[n.parent.unwrap_or(0)].push(i);
        }
        lift_unseen(&mut nodes, &children);
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
        let page = w.page.as_ref().map(|signals| {
            let facts = header::PageFacts {
                url: &w.url,
                title: &w.title,
                text_fields: nodes.iter().filter(|n| n.role == "textbox").count(),
            };
            header::header(signals, &facts)
        });
        let live = w
            .live
            .iter()
            .filter_map(|&[i, loud]| {
                let i = usize::try_from(i)
                    .ok()
                    .filter(|&i| i > 0 && i < nodes.len())?;
                Some((i, loud == 1))
            })
            .collect();
        Snapshot {
            page,
            live,
            secrets_masked: 0,
            unseen_dropped: 0,
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

    /// Leaves out text and nodes flagged unseen, with their subtrees (`--drop-unseen`,
    /// docs/reference/output.md#unseen-text); returns how many nodes went. Names stay as computed (a visually-hidden
    /// label still names its control).
    pub fn drop_unseen(&mut self) -> usize {
        let keep = without_subtrees(&self.nodes, |n| n.states.unseen.is_some());
        let gone = self.nodes.len() - keep.len();
        if gone == 0 {
            return 0;
        }
        let mut new_index = vec![usize::MAX; self.nodes.len()];
        for (j, &i) in keep.iter().enumerate() {
            new_index[i] = j;
        }
        let old = std::mem::take(&mut self.nodes);
        self.nodes = keep
            .iter()
            .map(|&i| Node {
                parent: old[i].parent.map(|p| new_index[p]),
                ..old[i].clone()
            })
            .collect();
        let mut children = vec![Vec::new(); self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate().skip(1) {
            children[n.parent.unwrap_or(0)].push(i);
        }
        self.children = children;
        for f in &mut self.frames {
            f.node = f
                .node
                .and_then(|i| new_index.get(i).copied())
                .filter(|&i| i != usize::MAX);
        }
        self.live = self
            .live
            .iter()
            .filter_map(|&(i, loud)| {
                Some((
                    new_index.get(i).copied().filter(|&j| j != usize::MAX)?,
                    loud,
                ))
            })
            .collect();
        self.unseen_dropped = gone;
        gone
    }

    /// A copy without nodes (frames keep their notes, not their node indexes): the shell a
    /// pruned tree is put in.
    pub fn header_only(&self) -> Snapshot {
        Snapshot {
            url: self.url.clone(),
            title: self.title.clone(),
            number: self.number,
            nodes: Vec::new(),
            children: Vec::new(),
            frames: self
                .frames
                .iter()
                .map(|f| Frame {
                    node: None,
                    ..f.clone()
                })
                .collect(),
            stats: self.stats.clone(),
            fingerprint: self.fingerprint.clone(),
            engine_ms: self.engine_ms,
            viewport: self.viewport,
            cached: self.cached,
            page: self.page.clone(),
            secrets_masked: self.secrets_masked,
            unseen_dropped: self.unseen_dropped,
            live: Vec::new(),
        }
    }

    /// Masks secret-shaped parts of names, values, text, descriptions, placeholders, link
    /// URLs, the title and the header's URL (docs/reference/output.md#secrets; `secrets`); returns how many strings
    /// changed.
    pub fn mask_secrets(&mut self) -> usize {
        let n = self.mask_with(secrets::mask_in_place);
        self.secrets_masked += n;
        n
    }

    /// Writes the operator's named secrets (docs/reference/policy.md#secrets) as
    /// `[secret:NAME]` wherever the page shows them: always, `--reveal-secrets` or not.
    pub fn mask_named_secrets(&mut self) -> usize {
        if !crate::vault::active() {
            return 0;
        }
        let mut n = self.mask_with(crate::vault::mask_in_place);
        n += usize::from(crate::vault::mask_in_place(&mut self.url));
        n
    }

    /// Applies `mask` to every string of the snapshot a page can fill; how many changed.
    fn mask_with(&mut self, mask: impl Fn(&mut String) -> bool) -> usize {
        let mut n = 0;
        for node in &mut self.nodes {
            n += usize::from(mask(&mut node.name));
            for v in [
                &mut node.value,
                &mut node.url,
                &mut node.description,
                &mut node.placeholder,
            ]
            .into_iter()
            .flatten()
            {
                n += usize::from(mask(v));
            }
        }
        n += usize::from(mask(&mut self.title));
        if let Some(p) = &mut self.page {
            n += usize::from(mask(&mut p.url));
        }
        n
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

/// Puts the snapshot of a frame read in its own browsing context under its iframe node `at`
/// of `main`: the frame's document node is dropped, its top-level nodes become the iframe's
/// children, right after the iframe's subtree (pre-order holds), and every later index,
/// frame entry and stat follows.
pub fn stitch_frame(main: &mut WireSnapshot, at: usize, child: WireSnapshot) {
    if at >= main.nodes.len() {
        return;
    }
    // end of the iframe node's subtree (pre-order: a contiguous range after it)
    let mut inside = vec![false; main.nodes.len()];
    inside[at] = true;
    let mut end = at + 1;
    while end < main.nodes.len() {
        let p = main.nodes[end].p;
        if p >= 0 && (p as usize) < end && inside[p as usize] {
            inside[end] = true;
            end += 1;
        } else {
            break;
        }
    }
    let added = child.nodes.len().saturating_sub(1);
    let shift = |i: i64| -> i64 { if i >= end as i64 { i + added as i64 } else { i } };
    for n in main.nodes.iter_mut().skip(end) {
        n.p = shift(n.p);
    }
    for f in main.frames.iter_mut() {
        f.i = shift(f.i);
    }
    for l in main.live.iter_mut() {
        l[0] = shift(l[0]);
    }
    // child index j (>= 1) lands at end + j - 1; its document (0) is the iframe node
    let place = |j: i64| -> i64 {
        if j <= 0 {
            at as i64
        } else {
            end as i64 + j - 1
        }
    };
    let kids: Vec<WireNode> = child
        .nodes
        .into_iter()
        .skip(1)
        .map(|mut n| {
            n.p = place(n.p);
            n
        })
        .collect();
    main.nodes.splice(end..end, kids);
    for mut f in child.frames {
        f.i = if f.i < 0 { f.i } else { place(f.i) };
        main.frames.push(f);
    }
    for [i, loud] in child.live {
        if i > 0 {
            main.live.push([place(i), loud]);
        }
    }
    let (s, c) = (&mut main.stats, child.stats);
    s.elements += c.elements;
    s.nodes += c.nodes.saturating_sub(1);
    s.refs += c.refs;
    s.withheld_refs += c.withheld_refs;
    s.left_out += c.left_out;
    s.interactive += c.interactive;
    s.closed_read += c.closed_read;
    s.closed_unread += c.closed_unread;
    s.closed_pending += c.closed_pending;
    s.behind_modal |= c.behind_modal;
    for t in c.closed_hosts {
        if s.closed_hosts.len() < 5 && !s.closed_hosts.contains(&t) {
            s.closed_hosts.push(t);
        }
    }
    s.walk_ms += c.walk_ms;
    s.refs_ms += c.refs_ms;
    main.engine_ms += child.engine_ms;
}

/// A named node whose text is all unseen text runs of one kind is itself unseen (docs/reference/output.md#unseen-text):
/// its name is that text, and its line is where the text is shown. Not a control that shows
/// its icon in sight (`painted`: docs/behaviour.md#unseen-controls): a user sees it.
fn lift_unseen(nodes: &mut [Node], children: &[Vec<usize>]) {
    for i in 1..nodes.len() {
        let kids = &children[i];
        if kids.is_empty()
            || nodes[i].name.is_empty()
            || nodes[i].states.unseen.is_some()
            || nodes[i].states.painted
        {
            continue;
        }
        let first = nodes[kids[0]].states.unseen.clone();
        if first.is_some()
            && kids
                .iter()
                .all(|&k| nodes[k].is_text() && nodes[k].states.unseen == first)
        {
            nodes[i].states.unseen = first;
        }
    }
}

/// Node indexes of `nodes` kept when the subtrees of `drop` nodes go (pre-order: a subtree
/// is the run of nodes after its root deeper than it).
fn without_subtrees(nodes: &[Node], drop: impl Fn(&Node) -> bool) -> Vec<usize> {
    let mut gone = vec![false; nodes.len()];
    let mut keep = Vec::with_capacity(nodes.len());
    for (i, n) in nodes.iter().enumerate() {
        let parent_gone = n.parent.is_some_and(|p| gone[p]);
        gone[i] = i > 0 && (parent_gone || drop(n));
        if !gone[i] {
            keep.push(i);
        }
    }
    keep
}

fn node_from_wire(i: usize, n: WireNode) -> Node {
    let parent = if i == 0 {
        None
    } else {
        // only backward pointers are accepted
        Some(usize::try_from(n.p).ok().filter(|&p| p < i).unwrap_or(0))
    };
    let is_text = n.r == "text";
    let (ref_, elide_ref) = match n.ref_ {
        Some(r) if r.starts_with('+') => (None, Some(r[1..].to_string())),
        r => (r, None),
    };
    Node {
        parent,
        name: if is_text {
            String::new()
        } else {
            n.n.unwrap_or_default()
        },
        value: n.v,
        role: n.r,
        ref_,
        elide_ref,
        elided: None,
        url: n.u,
        description: n.d,
        placeholder: n.ph,
        states: n.s.into(),
        bbox: n.b,
        id: n.id,
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
        Snapshot::from_wire(wire(rows))
    }

    /// The page's reply for rows; the first row is the document.
    pub fn wire(rows: &[Row]) -> WireSnapshot {
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
                id: 0,
            })
            .collect();
        WireSnapshot {
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
            page: None,
            live: vec![],
        }
    }

    #[test]
    fn states_read_as_wire_states_and_compare_by_value() {
        // none: every state reads as absent, and equals states boxed with nothing set
        let none = States::default();
        assert_eq!(none.unseen, None);
        assert!(!none.modal);
        assert_eq!(none, States::from(Some(Box::default())));
        // a write makes the box; the node then differs from one without the state
        let mut s = States::default();
        let w: &mut WireStates = &mut s;
        w.unseen = Some("clipped".into());
        assert_eq!(s.unseen.as_deref(), Some("clipped"));
        assert_ne!(s, none);
        let wire = WireStates {
            level: Some(2),
            ..WireStates::default()
        };
        assert_eq!(States::from(Some(Box::new(wire.clone()))).level, Some(2));
        // and the node's size stays small (it was 496 bytes with the states inline)
        assert!(
            std::mem::size_of::<Node>() <= 280,
            "{}",
            std::mem::size_of::<Node>()
        );
    }

    #[test]
    fn a_frame_is_stitched_under_its_iframe_node_in_pre_order() {
        use crate::wire::WireFrame;
        let mut main = wire(&[
            (-1, "document", "Top", None, None),
            (0, "button", "Before", Some("s1e1"), None),
            (0, "iframe", "Pay", None, None),
            (0, "iframe", "Ads", None, None),
            (0, "button", "After", Some("s1e2"), None),
        ]);
        main.frames = vec![
            WireFrame {
                k: 1,
                i: 2,
                url: "http://a/".into(),
                unreadable: Some("cross-origin".into()),
            },
            WireFrame {
                k: 2,
                i: 3,
                url: "http://b/".into(),
                unreadable: Some("cross-origin".into()),
            },
        ];
        main.stats.nodes = 5;
        let mut child = wire(&[
            (-1, "document", "Frame", None, None),
            (0, "form", "Card", None, None),
            (1, "textbox", "Number", Some("f1s1e1"), None),
            (0, "iframe", "Inner", None, None),
        ]);
        child.frames = vec![WireFrame {
            k: 1001,
            i: 3,
            url: "http://c/".into(),
            unreadable: None,
        }];
        child.stats.nodes = 4;
        child.stats.refs = 1;
        stitch_frame(&mut main, 2, child);
        let s = Snapshot::from_wire(main);
        let rows: Vec<(Option<usize>, &str)> = s
            .nodes
            .iter()
            .map(|n| (n.parent, n.name.as_str()))
            .collect();
        assert_eq!(
            rows,
            vec![
                (None, "Top"),
                (Some(0), "Before"),
                (Some(0), "Pay"),
                (Some(2), "Card"),
                (Some(3), "Number"),
                (Some(2), "Inner"),
                (Some(0), "Ads"),
                (Some(0), "After"),
            ]
        );
        let frames: Vec<(u32, Option<usize>)> =
            s.frames.iter().map(|f| (f.index, f.node)).collect();
        assert_eq!(frames, vec![(1, Some(2)), (2, Some(6)), (1001, Some(5))]);
        assert_eq!(s.stats.nodes, 8);
        assert_eq!(s.stats.refs, 1);
        assert_eq!(s.nodes[4].ref_.as_deref(), Some("f1s1e1"));
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
