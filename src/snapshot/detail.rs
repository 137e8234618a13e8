//! Detail levels (SPEC 3): `interactive` (only elements with refs, each with its landmark
//! path) and `summary` (landmarks with their interactive counts, plus page totals).
//!
//! Owns: these two renderings. Must not: talk to the browser, or print page text other
//! than through `safe` (SPEC 9).

use super::Snapshot;
use super::render::{TEXT_CUT, cut, flags};
use super::safe::{quote, text, token};
use serde_json::{Value, json};

/// Roles that make up a landmark path.
pub const LANDMARKS: &[&str] = &[
    "banner",
    "main",
    "navigation",
    "contentinfo",
    "complementary",
    "search",
    "form",
    "region",
    "dialog",
    "alertdialog",
];

fn is_landmark(role: &str) -> bool {
    LANDMARKS.contains(&role)
}

fn landmark_label(snap: &Snapshot, i: usize) -> String {
    let n = &snap.nodes[i];
    if n.name.is_empty() {
        token(&n.role).into_owned()
    } else {
        format!("{} {}", token(&n.role), quote(&cut(&n.name, 40)))
    }
}

/// Landmark path of every node, e.g. `main > form "Checkout"` (one forward pass).
pub fn landmark_paths(snap: &Snapshot) -> Vec<String> {
    let mut paths = vec![String::new(); snap.nodes.len()];
    for i in 1..snap.nodes.len() {
        let p = snap.nodes[i].parent.unwrap_or(0);
        let base = &paths[p];
        paths[i] = if is_landmark(&snap.nodes[p].role) && p != 0 {
            let own = landmark_label(snap, p);
            if base.is_empty() {
                own
            } else {
                format!("{base} > {own}")
            }
        } else {
            base.clone()
        };
    }
    // paths[i] holds the path of i's ancestors up to (and including) its parent landmark.
    paths
}

/// `interactive` as text: the elements with refs under the landmarks that contain them, so
/// each element's landmark path is the chain of landmarks above it (printed once, not
/// repeated on every line).
pub fn interactive_text(snap: &Snapshot, verbose: bool) -> String {
    let n_nodes = snap.nodes.len();
    // keep[i]: node i has a ref, or is a landmark with a kept node below it.
    let mut keep = vec![false; n_nodes];
    for i in (1..n_nodes).rev() {
        let n = &snap.nodes[i];
        if n.ref_.is_some() || (keep[i] && is_landmark(&n.role)) {
            keep[i] = true;
        }
        if keep[i]
            && let Some(p) = n.parent
        {
            keep[p] = true;
        }
    }
    // Depth counts kept landmarks only.
    let mut depth = vec![0usize; n_nodes];
    let mut out = String::new();
    for n in super::render::notes(snap) {
        out.push_str(&n);
        out.push('\n');
    }
    out.push_str(&super::render::head(&snap.nodes[0], false));
    out.push('\n');
    let mut count = 0;
    for i in 1..n_nodes {
        let n = &snap.nodes[i];
        let p = n.parent.unwrap_or(0);
        let shown_landmark = keep[i] && n.ref_.is_none() && is_landmark(&n.role);
        depth[i] =
            depth[p] + usize::from(shown_landmark || (n.ref_.is_some() && is_landmark(&n.role)));
        if !keep[i] || !(shown_landmark || n.ref_.is_some()) {
            continue;
        }
        out.push_str(&"  ".repeat(depth[p]));
        out.push_str("- ");
        out.push_str(&token(&n.role));
        if !n.name.is_empty() {
            out.push(' ');
            out.push_str(&quote(&cut(&n.name, TEXT_CUT)));
        }
        if let Some(r) = &n.ref_ {
            count += 1;
            out.push_str(&flags(n, verbose));
            out.push_str(&format!(" [ref={}]", token(r)));
            if let Some(v) = n.value.as_deref().filter(|v| !v.is_empty()) {
                out.push_str(": ");
                out.push_str(&text(&cut(v, TEXT_CUT)));
            }
        } else {
            out.push(':');
        }
        out.push('\n');
    }
    if count == 0 {
        out.push_str("# no interactive elements\n");
    }
    out
}

/// `interactive` as JSON.
pub fn interactive_json(snap: &Snapshot) -> Value {
    let paths = landmark_paths(snap);
    let items: Vec<Value> = snap
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.ref_.is_some())
        .map(|(i, n)| {
            let mut m = serde_json::Map::new();
            m.insert("ref".into(), n.ref_.clone().into());
            m.insert("role".into(), n.role.clone().into());
            m.insert("name".into(), n.name.clone().into());
            if let Some(v) = &n.value {
                m.insert("value".into(), v.clone().into());
            }
            m.insert("path".into(), paths[i].clone().into());
            Value::Object(m)
        })
        .collect();
    json!({"url": snap.url, "title": snap.title, "snapshot": snap.number, "detail": "interactive", "items": items})
}

/// Counts for `summary`: per landmark (in document order) the refs inside it.
pub struct Summary {
    pub landmarks: Vec<(usize, String, usize)>,
    pub elements: u64,
    pub interactive: usize,
    pub in_viewport: Option<usize>,
}

/// Builds the summary counts.
pub fn summarize(snap: &Snapshot) -> Summary {
    let depth = snap.depths();
    let mut landmark_depth = vec![0usize; snap.nodes.len()];
    // nearest landmark ancestor (or self) of every node
    let mut owner: Vec<Option<usize>> = vec![None; snap.nodes.len()];
    for i in 1..snap.nodes.len() {
        let p = snap.nodes[i].parent.unwrap_or(0);
        owner[i] = if is_landmark(&snap.nodes[i].role) {
            Some(i)
        } else {
            owner[p]
        };
        landmark_depth[i] = if is_landmark(&snap.nodes[i].role) {
            landmark_depth[p] + 1
        } else {
            landmark_depth[p]
        };
    }
    let mut counts = vec![0usize; snap.nodes.len()];
    for (i, n) in snap.nodes.iter().enumerate() {
        if n.ref_.is_none() {
            continue;
        }
        // count the ref in every enclosing landmark
        let mut o = owner[i];
        while let Some(l) = o {
            counts[l] += 1;
            o = snap.nodes[l].parent.and_then(|p| owner[p]);
        }
    }
    let _ = depth;
    let landmarks = (1..snap.nodes.len())
        .filter(|&i| is_landmark(&snap.nodes[i].role))
        .map(|i| (landmark_depth[i] - 1, landmark_label(snap, i), counts[i]))
        .collect();
    let vp = snap.viewport;
    let in_viewport = if snap.nodes.iter().any(|n| n.bbox.is_some()) {
        Some(
            snap.nodes
                .iter()
                .filter(|n| n.ref_.is_some())
                .filter(|n| {
                    n.bbox.is_some_and(|b| {
                        b[2] > 0.0
                            && b[3] > 0.0
                            && b[0] < vp[0]
                            && b[1] < vp[1]
                            && b[0] + b[2] > 0.0
                            && b[1] + b[3] > 0.0
                    })
                })
                .count(),
        )
    } else {
        None
    };
    Summary {
        landmarks,
        elements: snap.stats.elements,
        interactive: snap.ref_count(),
        in_viewport,
    }
}

/// Most landmarks listed by `summary`.
pub const SUMMARY_MAX_LANDMARKS: usize = 30;

/// `summary` as text.
pub fn summary_text(snap: &Snapshot) -> String {
    let s = summarize(snap);
    let mut out = super::render::head(&snap.nodes[0], false);
    out.push('\n');
    for (depth, label, count) in s.landmarks.iter().take(SUMMARY_MAX_LANDMARKS) {
        out.push_str(&"  ".repeat(*depth + 1));
        out.push_str(&format!("- {label}: {count} interactive\n"));
    }
    if s.landmarks.len() > SUMMARY_MAX_LANDMARKS {
        out.push_str(&format!(
            "# {} more landmarks\n",
            s.landmarks.len() - SUMMARY_MAX_LANDMARKS
        ));
    }
    let vp = s
        .in_viewport
        .map(|v| format!(", {v} in viewport"))
        .unwrap_or_default();
    out.push_str(&format!(
        "# {} elements, {} nodes, {} interactive{vp}\n",
        s.elements,
        snap.nodes.len(),
        s.interactive
    ));
    out
}

/// `summary` as JSON.
pub fn summary_json(snap: &Snapshot) -> Value {
    let s = summarize(snap);
    let lm: Vec<Value> = s
        .landmarks
        .iter()
        .take(SUMMARY_MAX_LANDMARKS)
        .map(|(d, l, c)| json!({"landmark": l, "depth": d, "interactive": c}))
        .collect();
    json!({
        "url": snap.url, "title": snap.title, "snapshot": snap.number, "detail": "summary",
        "landmarks": lm, "more_landmarks": s.landmarks.len().saturating_sub(SUMMARY_MAX_LANDMARKS),
        "totals": {"elements": s.elements, "nodes": snap.nodes.len(), "interactive": s.interactive, "in_viewport": s.in_viewport},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::tests::snap;

    fn sample() -> Snapshot {
        snap(&[
            (-1, "document", "Shop", None, None),
            (0, "banner", "", None, None),
            (1, "link", "Home", Some("s1e1"), None),
            (0, "main", "", None, None),
            (3, "form", "Checkout", None, None),
            (4, "textbox", "Email", Some("s1e2"), Some("a@b")),
            (4, "button", "Pay", Some("s1e3"), None),
            (3, "heading", "Cart", None, None),
        ])
    }

    #[test]
    fn interactive_lines_carry_landmark_paths() {
        let t = interactive_text(&sample(), false);
        assert_eq!(
            t,
            "- document \"Shop\"\n- banner:\n  - link \"Home\" [ref=s1e1]\n- main:\n  - form \"Checkout\":\n    - textbox \"Email\" [ref=s1e2]: a@b\n    - button \"Pay\" [ref=s1e3]\n"
        );
        let j = interactive_json(&sample());
        assert_eq!(j["items"][2]["path"], "main > form \"Checkout\"");
    }

    #[test]
    fn landmark_names_and_values_cannot_forge_lines() {
        use crate::snapshot::render::tests::HOSTILE;
        use crate::snapshot::safe::check::unforgeable;
        for h in HOSTILE {
            let s = snap(&[
                (-1, "document", h, None, None),
                (0, "main", h, None, None),
                (1, "form", h, None, None),
                (2, "textbox", h, Some("s1e1"), Some(h)),
                (2, "button", h, Some("s1e2"), None),
            ]);
            // document, main, form, textbox, button
            unforgeable(&interactive_text(&s, false), 5, &["s1e1", "s1e2"]);
            unforgeable(&interactive_text(&s, true), 5, &["s1e1", "s1e2"]);
            // document, main, form, totals
            unforgeable(&summary_text(&s), 4, &[]);
        }
    }

    #[test]
    fn summary_counts_refs_per_landmark() {
        let t = summary_text(&sample());
        assert!(t.contains("  - banner: 1 interactive\n"), "{t}");
        assert!(
            t.contains("  - main: 2 interactive\n    - form \"Checkout\": 2 interactive\n"),
            "{t}"
        );
        assert!(t.contains("3 interactive"), "{t}");
    }
}
