//! Detail levels (docs/reference/detail.md#detail-levels): `interactive` (only elements with refs, each with its landmark
//! path) and `summary` (landmarks with their interactive counts, plus page totals). Both
//! keep the context an agent reads to know where it is and what happened (headings, alerts,
//! status messages, the error text of invalid fields) and end with what they left out, so
//! nothing is dropped silently (docs/reference/detail.md#nothing-is-dropped-silently).
//!
//! Owns: these two renderings. Must not: talk to the browser, or print page text other
//! than through `safe` (docs/reference/output.md#what-no-page-can-forge).

use super::Snapshot;
use super::render::{TEXT_CUT, TEXT_KEEP, cut, flags};
use crate::safe::{quote, text, token};
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

/// What a context line stands for (docs/reference/detail.md#nothing-is-dropped-silently: headings, alerts, status messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    Heading,
    /// role=alert: an important, usually time-sensitive message (WAI-ARIA 1.2 alert).
    Alert,
    /// role=status and role=log: advisory live regions (WAI-ARIA 1.2 status, log).
    Status,
    /// A column or row header with aria-sort: how a table is sorted.
    Sorted,
}

fn context_of(n: &super::Node) -> Option<Context> {
    match n.role.as_str() {
        "heading" => Some(Context::Heading),
        "alert" => Some(Context::Alert),
        "status" | "log" => Some(Context::Status),
        "columnheader" | "rowheader" if super::render::sort(n).is_some() => Some(Context::Sorted),
        _ => None,
    }
}

/// Roles counted in the `# left out:` footer, with their plural labels: the units of
/// content a reader would miss (the outermost one counts: a paragraph's text runs are the
/// paragraph).
const CONTENT: &[(&str, &str)] = &[
    ("paragraph", "paragraphs"),
    ("listitem", "list items"),
    ("table", "tables"),
    ("grid", "grids"),
    ("img", "images"),
    ("image", "images"),
    ("figure", "figures"),
    ("article", "articles"),
    ("blockquote", "quotes"),
    ("code", "code blocks"),
    ("term", "terms"),
    ("definition", "definitions"),
    ("math", "formulas"),
    ("text", "text runs"),
];

fn content_label(role: &str) -> Option<&'static str> {
    CONTENT.iter().find(|(r, _)| *r == role).map(|(_, l)| *l)
}

/// The text of node i's subtree (names and text runs, in order), on one line, cut.
fn subtree_text(snap: &Snapshot, i: usize, depth: &[usize]) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let n = &snap.nodes[i];
    if !n.name.is_empty() {
        parts.push(&n.name);
    }
    let mut j = i + 1;
    while j < snap.nodes.len() && depth[j] > depth[i] {
        let d = &snap.nodes[j];
        if d.role == "text" {
            if let Some(v) = d.value.as_deref() {
                parts.push(v);
            }
        } else if !d.name.is_empty() {
            parts.push(&d.name);
            // a named node's name already holds its content's text
            let dj = depth[j];
            j += 1;
            while j < snap.nodes.len() && depth[j] > dj {
                j += 1;
            }
            continue;
        }
        j += 1;
    }
    let joined = parts.join(" ");
    cut(
        joined
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .as_str(),
        TEXT_KEEP,
    )
}

/// The context line of node i (no indent, no newline).
fn context_line(snap: &Snapshot, i: usize, kind: Context, depth: &[usize]) -> String {
    let n = &snap.nodes[i];
    match kind {
        Context::Heading | Context::Sorted => super::render::head(n, false),
        Context::Alert | Context::Status => {
            let body = subtree_text(snap, i, depth);
            if body.is_empty() {
                format!("- {}", token(&n.role))
            } else {
                format!("- {}: {}", token(&n.role), text(&body))
            }
        }
    }
}

/// The error text of an invalid control (its description: aria-describedby or
/// aria-errormessage, WAI-ARIA 1.2 aria-invalid), when it has one.
fn error_text(n: &super::Node) -> Option<&str> {
    if !n.states.invalid {
        return None;
    }
    n.description.as_deref().filter(|d| !d.trim().is_empty())
}

/// What `interactive` or `summary` did not show, as (label, count), most first: the
/// outermost content units outside the shown nodes (`shown[i]`: node i's line is printed,
/// standing for its whole subtree when it has a ref or is a context line).
fn left_out(snap: &Snapshot, covers: &[bool]) -> Vec<(&'static str, usize)> {
    let n = snap.nodes.len();
    // inside[i]: an ancestor (or i itself) is shown as a whole, or already counted
    let mut inside = vec![false; n];
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for i in 1..n {
        let p = snap.nodes[i].parent.unwrap_or(0);
        if inside[p] && p != 0 || covers[i] {
            inside[i] = true;
            continue;
        }
        if let Some(label) = content_label(&snap.nodes[i].role) {
            inside[i] = true;
            match counts.iter_mut().find(|(l, _)| *l == label) {
                Some(c) => c.1 += 1,
                None => counts.push((label, 1)),
            }
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    counts
}

fn shown_nodes(snap: &Snapshot) -> Vec<bool> {
    snap.nodes
        .iter()
        .map(|n| n.ref_.is_some() || context_of(n).is_some())
        .collect()
}

/// The `# left out:` footer line, or None when nothing was left out.
fn left_out_line(counts: &[(&'static str, usize)]) -> Option<String> {
    if counts.is_empty() {
        return None;
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(l, c)| {
            if *c == 1 {
                format!("1 {}", singular(l))
            } else {
                format!("{c} {l}")
            }
        })
        .collect();
    Some(format!(
        "# left out: {} (snapshot --root REF for one region)",
        parts.join(", ")
    ))
}

fn singular(label: &str) -> &str {
    match label {
        "list items" => "list item",
        "text runs" => "text run",
        "code blocks" => "code block",
        "quotes" => "quote",
        other => other.strip_suffix('s').unwrap_or(other),
    }
}

fn left_out_json(counts: &[(&'static str, usize)]) -> Value {
    let mut m = serde_json::Map::new();
    for (l, c) in counts {
        m.insert((*l).to_string(), json!(c));
    }
    Value::Object(m)
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
    let tree_depth = snap.depths();
    // shown[i]: node i gets a line of its own (a ref or a context line)
    let shown = shown_nodes(snap);
    // keep[i]: node i is shown, or is a landmark with a shown node below it.
    let mut keep = vec![false; n_nodes];
    for i in (1..n_nodes).rev() {
        let n = &snap.nodes[i];
        if shown[i] || (keep[i] && is_landmark(&n.role)) {
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
    for n in super::render::header_lines(snap)
        .into_iter()
        .chain(super::render::notes(snap))
    {
        out.push_str(&n);
        out.push('\n');
    }
    out.push_str(&super::render::head(&snap.nodes[0], false));
    out.push('\n');
    let mut count = 0;
    // covered[i]: node i's content is told by a printed line (its own, or an ancestor's)
    let mut covered = vec![false; n_nodes];
    for i in 1..n_nodes {
        let n = &snap.nodes[i];
        let p = n.parent.unwrap_or(0);
        covered[i] = covered[p] || shown[i];
        let shown_landmark = keep[i] && n.ref_.is_none() && is_landmark(&n.role);
        depth[i] =
            depth[p] + usize::from(shown_landmark || (n.ref_.is_some() && is_landmark(&n.role)));
        if !keep[i] || !(shown_landmark || shown[i]) {
            continue;
        }
        // context lines inside a shown ref's subtree (a heading in a link) are its name; a
        // sorted header in a grid row is not (the row's name does not say how it is sorted)
        if covered[p] && p != 0 && n.ref_.is_none() && context_of(n) != Some(Context::Sorted) {
            continue;
        }
        out.push_str(&"  ".repeat(depth[p]));
        if let Some(r) = &n.ref_ {
            count += 1;
            out.push_str("- ");
            out.push_str(&token(&n.role));
            if !n.name.is_empty() {
                out.push(' ');
                out.push_str(&quote(&cut(&n.name, TEXT_CUT)));
            }
            out.push_str(&flags(n, verbose));
            out.push_str(&format!(" [ref={}]", token(r)));
            let collapsed = super::render::collapsed_options(snap, i);
            if let Some((count, _)) = &collapsed {
                // replace the ref suffix just written: `[options=N] [ref=...]`
                let suffix = format!(" [ref={}]", token(r));
                out.truncate(out.len() - suffix.len());
                out.push_str(&format!(" [options={count}]{suffix}"));
            }
            // a hint after the ref, never a name (docs/reference/output.md#icon-hints)
            out.push_str(&super::render::icon_suffix(n));
            let shown_value = collapsed.and_then(|(_, v)| v);
            // a nameless generic's words are its content, shown where a value goes, as
            // the full view shows the text under it (`- generic [ref=s1e5]: Stove`)
            let value = n
                .value
                .as_deref()
                .or(shown_value.as_deref())
                .or(n.words())
                .filter(|v| !v.is_empty());
            if let Some(e) = error_text(n) {
                // a value and an error: both as property lines (`:` opens children)
                let pad = "  ".repeat(depth[p] + 1);
                out.push(':');
                if let Some(v) = value {
                    out.push_str(&format!("\n{pad}- /value: {}", text(&cut(v, TEXT_KEEP))));
                }
                out.push_str(&format!("\n{pad}- /error: {}", text(&cut(e, TEXT_KEEP))));
            } else if let Some(v) = value {
                out.push_str(": ");
                out.push_str(&text(&cut(v, TEXT_KEEP)));
            }
        } else if let Some(kind) = context_of(n) {
            out.push_str(&context_line(snap, i, kind, &tree_depth));
        } else {
            out.push_str("- ");
            out.push_str(&token(&n.role));
            if !n.name.is_empty() {
                out.push(' ');
                out.push_str(&quote(&cut(&n.name, TEXT_CUT)));
            }
            out.push(':');
        }
        out.push('\n');
    }
    if count == 0 {
        out.push_str("# no interactive elements\n");
    }
    if let Some(l) = left_out_line(&left_out(snap, &shown)) {
        out.push_str(&l);
        out.push('\n');
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
            if let Some(w) = n.words() {
                m.insert("text".into(), w.into());
            }
            if let Some(k) = super::render::sort(n) {
                m.insert("sort".into(), k.into());
            }
            if let Some(e) = error_text(n) {
                m.insert("error".into(), e.into());
            }
            m.insert("path".into(), paths[i].clone().into());
            Value::Object(m)
        })
        .collect();
    let shown = shown_nodes(snap);
    let mut v = json!({"url": snap.url, "title": snap.title, "snapshot": snap.number, "detail": "interactive", "items": items,
        "context": context_json(snap, &paths), "left_out": left_out_json(&left_out(snap, &shown))});
    if let Some(p) = super::render::header_json(snap) {
        v["page"] = p;
    }
    v
}

/// The context nodes (headings, alerts, status messages) as JSON, outside refs' subtrees.
fn context_json(snap: &Snapshot, paths: &[String]) -> Value {
    let depth = snap.depths();
    let mut in_ref = vec![false; snap.nodes.len()];
    let mut out = Vec::new();
    for i in 1..snap.nodes.len() {
        let n = &snap.nodes[i];
        let p = n.parent.unwrap_or(0);
        in_ref[i] = in_ref[p] || n.ref_.is_some();
        let Some(kind) = context_of(n) else {
            continue;
        };
        if in_ref[i] && kind != Context::Sorted {
            continue;
        }
        let mut m = serde_json::Map::new();
        m.insert("role".into(), n.role.clone().into());
        match kind {
            Context::Heading => {
                m.insert("name".into(), n.name.clone().into());
                if let Some(l) = n.states.level {
                    m.insert("level".into(), l.into());
                }
            }
            Context::Alert | Context::Status => {
                m.insert("text".into(), subtree_text(snap, i, &depth).into());
            }
            Context::Sorted => {
                m.insert("name".into(), n.name.clone().into());
                if let Some(k) = super::render::sort(n) {
                    m.insert("sort".into(), k.into());
                }
            }
        }
        m.insert("path".into(), paths[i].clone().into());
        out.push(Value::Object(m));
    }
    Value::Array(out)
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
    let in_viewport = if snap.nodes.iter().any(|n| n.bbox.is_some()) {
        Some(
            snap.nodes
                .iter()
                .filter(|n| n.ref_.is_some())
                .filter(|n| n.bbox.is_some_and(|b| snap.in_viewport(b)))
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
/// Most headings listed by `summary` (the first ones: the top of the page's outline).
pub const SUMMARY_MAX_HEADINGS: usize = 10;

/// `summary` as text.
pub fn summary_text(snap: &Snapshot) -> String {
    let s = summarize(snap);
    let mut out = String::new();
    for h in super::render::header_lines(snap) {
        out.push_str(&h);
        out.push('\n');
    }
    out.push_str(&super::render::head(&snap.nodes[0], false));
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
    // context: alerts, status messages and invalid fields' errors always; the first
    // headings
    let depth = snap.depths();
    let mut headings = 0;
    for (i, n) in snap.nodes.iter().enumerate().skip(1) {
        match context_of(n) {
            Some(Context::Heading) => {
                headings += 1;
                if headings <= SUMMARY_MAX_HEADINGS {
                    out.push_str("  ");
                    out.push_str(&context_line(snap, i, Context::Heading, &depth));
                    out.push('\n');
                }
            }
            Some(kind) => {
                out.push_str("  ");
                out.push_str(&context_line(snap, i, kind, &depth));
                out.push('\n');
            }
            None => {}
        }
        if let (Some(r), Some(e)) = (&n.ref_, error_text(n)) {
            out.push_str(&format!(
                "  - /error {}: {}\n",
                token(r),
                text(&cut(e, TEXT_KEEP))
            ));
        }
    }
    if headings > SUMMARY_MAX_HEADINGS {
        out.push_str(&format!(
            "# {} more headings\n",
            headings - SUMMARY_MAX_HEADINGS
        ));
    }
    out.push_str(&format!(
        "# {} elements, {} nodes, {} interactive{vp}\n",
        s.elements,
        snap.nodes.len(),
        s.interactive
    ));
    let shown = shown_nodes(snap);
    if let Some(l) = left_out_line(&left_out(snap, &shown)) {
        out.push_str(&l);
        out.push('\n');
    }
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
    let mut v = json!({
        "url": snap.url, "title": snap.title, "snapshot": snap.number, "detail": "summary",
        "landmarks": lm, "more_landmarks": s.landmarks.len().saturating_sub(SUMMARY_MAX_LANDMARKS),
        "totals": {"elements": s.elements, "nodes": snap.nodes.len(), "interactive": s.interactive, "in_viewport": s.in_viewport},
        "context": context_json(snap, &landmark_paths(snap)),
        "left_out": left_out_json(&left_out(snap, &shown_nodes(snap))),
    });
    if let Some(p) = super::render::header_json(snap) {
        v["page"] = p;
    }
    v
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
            "- document \"Shop\"\n- banner:\n  - link \"Home\" [ref=s1e1]\n- main:\n  - form \"Checkout\":\n    - textbox \"Email\" [ref=s1e2]: a@b\n    - button \"Pay\" [ref=s1e3]\n  - heading \"Cart\"\n"
        );
        let j = interactive_json(&sample());
        assert_eq!(j["items"][2]["path"], "main > form \"Checkout\"");
    }

    #[test]
    fn sorted_headers_are_context_in_every_level() {
        let mut s = snap(&[
            (-1, "document", "Flights", None, None),
            (0, "table", "Departures", None, None),
            (1, "row", "", None, None),
            (2, "columnheader", "Time", None, None),
            (3, "button", "Time", Some("s1e1"), None),
            (2, "columnheader", "Gate", None, None),
            (0, "grid", "Seats", None, None),
            (6, "row", "Seat 12A", Some("s1e2"), None),
            (7, "columnheader", "Seat", None, None),
        ]);
        s.nodes[3].states.sort = Some("ascending".into());
        s.nodes[8].states.sort = Some("other".into());
        let t = interactive_text(&s, false);
        assert_eq!(
            t,
            "- document \"Flights\"\n- columnheader \"Time\" [sort=ascending]\n- button \"Time\" [ref=s1e1]\n- row \"Seat 12A\" [ref=s1e2]\n- columnheader \"Seat\" [sort=other]\n# left out: 1 table, 1 grid (snapshot --root REF for one region)\n"
        );
        let j = interactive_json(&s);
        assert_eq!(
            j["context"][0],
            json!({"role": "columnheader", "name": "Time", "sort": "ascending", "path": ""})
        );
        assert_eq!(j["context"][1]["sort"], "other");
    }

    #[test]
    fn landmark_names_and_values_cannot_forge_lines() {
        use crate::safe::check::HOSTILE;
        use crate::safe::check::unforgeable;
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
            // context lines and errors from page text stay on their lines
            let mut s = snap(&[
                (-1, "document", h, None, None),
                (0, "main", h, None, None),
                (1, "alert", h, None, None),
                (2, "text", "", None, Some(h)),
                (1, "textbox", h, Some("s1e1"), Some(h)),
            ]);
            s.nodes[4].states.invalid = true;
            s.nodes[4].description = Some(h.to_string());
            // document, main, alert, textbox, /value, /error
            unforgeable(&interactive_text(&s, false), 6, &["s1e1"]);
        }
    }

    /// A shop page: a heading, an alert and a status message, an invalid field with its
    /// error, paragraphs, a list and a table that the views leave out.
    fn shop() -> Snapshot {
        let mut s = snap(&[
            (-1, "document", "Shop", None, None),
            (0, "main", "", None, None),
            (1, "heading", "Your cart", None, None),
            (1, "paragraph", "", None, None),
            (3, "text", "", None, Some("Total 31.90 EUR")),
            (1, "paragraph", "", None, None),
            (5, "text", "", None, Some("Free delivery")),
            (5, "link", "Terms", Some("s1e1"), None),
            (1, "list", "", None, None),
            (8, "listitem", "", None, None),
            (9, "text", "", None, Some("Tea")),
            (8, "listitem", "", None, None),
            (1, "table", "Prices", None, None),
            (12, "row", "", None, None),
            (13, "cell", "Tea", None, None),
            (1, "alert", "", None, None),
            (15, "text", "", None, Some("Coupon SAVE10")),
            (15, "strong", "", None, None),
            (17, "text", "", None, Some("applied")),
            (1, "status", "", None, None),
            (19, "text", "", None, Some("2 items")),
            (1, "textbox", "Coupon", Some("s1e2"), Some("XX")),
            (1, "link", "", Some("s1e3"), None),
            (22, "heading", "Inside a link", None, None),
        ]);
        s.nodes[21].states.invalid = true;
        s.nodes[21].description = Some("This code has expired".into());
        s
    }

    #[test]
    fn interactive_keeps_context_and_says_what_it_left_out() {
        let t = interactive_text(&shop(), false);
        let want = [
            "- main:",
            "  - heading \"Your cart\"",
            "  - link \"Terms\" [ref=s1e1]",
            "  - alert: Coupon SAVE10 applied",
            "  - status: 2 items",
            "  - textbox \"Coupon\" [invalid] [ref=s1e2]:",
            "    - /value: XX",
            "    - /error: This code has expired",
            "  - link [ref=s1e3]",
            "# left out: 2 paragraphs, 2 list items, 1 table (snapshot --root REF for one region)",
        ];
        for w in want {
            assert!(t.lines().any(|l| l == w), "no {w:?} in:\n{t}");
        }
        // a heading inside a link is the link's name, not a line of its own
        assert!(!t.contains("Inside a link"), "{t}");
        let j = interactive_json(&shop());
        assert_eq!(
            j["left_out"],
            json!({"paragraphs": 2, "list items": 2, "tables": 1})
        );
        assert_eq!(
            j["context"][1],
            json!({"role": "alert", "text": "Coupon SAVE10 applied", "path": "main"})
        );
        assert_eq!(j["items"][1]["error"], "This code has expired");
        // nothing left out: no footer
        let t = interactive_text(&sample(), false);
        assert!(!t.contains("# left out"), "{t}");
    }

    #[test]
    fn summary_keeps_alerts_errors_and_headings() {
        let t = summary_text(&shop());
        for w in [
            "  - heading \"Your cart\"",
            "  - alert: Coupon SAVE10 applied",
            "  - status: 2 items",
            "  - /error s1e2: This code has expired",
            "# left out: 2 paragraphs, 2 list items, 1 table (snapshot --root REF for one region)",
        ] {
            assert!(t.lines().any(|l| l == w), "no {w:?} in:\n{t}");
        }
        let j = summary_json(&shop());
        assert_eq!(j["left_out"]["paragraphs"], 2);
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
