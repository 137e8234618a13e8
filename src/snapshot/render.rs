//! Renderings of a snapshot: Playwright-style indented text (docs/reference/output.md#text-format) and JSON.
//!
//! Owns: line format, flags, text cutting, which text children are implied by a name. Must
//! not: recurse (iterative with explicit stacks; trees can be thousands of levels deep), or
//! print page text other than through `safe` (docs/reference/output.md#what-no-page-can-forge: names quoted, values bare only when
//! unambiguous, tokens checked).

use super::{Node, Snapshot};
use crate::safe::{quote, squash, text, token};
use crate::wire::Tri;
use serde_json::Value;
use std::fmt::Write as _;

/// Text and names longer than this are cut with `...` in text output.
pub const TEXT_CUT: usize = 100;
/// Hard cap for strings in JSON output.
pub const JSON_CAP: usize = 10_000;

/// Options for rendering.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Show value, description, url, placeholder and the rarer states.
    pub verbose: bool,
}

/// Cuts `s` to `max` characters, appending `...` when it was longer. Cut the raw string,
/// then quote it: a cut never splits an escape.
pub fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// Flags in docs/reference/output.md#flags order, each in its own brackets.
pub fn flags(n: &Node, verbose: bool) -> String {
    let s = &n.states;
    let mut out = String::new();
    match &s.checked {
        Some(Tri::Bool(true)) => out.push_str(" [checked]"),
        Some(Tri::Token(t)) => {
            let _ = write!(out, " [checked={}]", token(t));
        }
        _ => {}
    }
    if s.disabled {
        out.push_str(" [disabled]");
    }
    match s.expanded {
        Some(true) => out.push_str(" [expanded]"),
        Some(false) => out.push_str(" [collapsed]"),
        None => {}
    }
    if s.selected {
        out.push_str(" [selected]");
    }
    match &s.pressed {
        Some(Tri::Bool(true)) => out.push_str(" [pressed]"),
        Some(Tri::Token(t)) => {
            let _ = write!(out, " [pressed={}]", token(t));
        }
        _ => {}
    }
    if s.required {
        out.push_str(" [required]");
    }
    if s.readonly {
        out.push_str(" [readonly]");
    }
    if s.invalid {
        out.push_str(" [invalid]");
    }
    if s.focused {
        out.push_str(" [focused]");
    }
    if let Some(l) = s.level {
        let _ = write!(out, " [level={l}]");
    }
    if let Some(k) = sort(n) {
        let _ = write!(out, " [sort={k}]");
    }
    if verbose {
        if let Some(c) = &s.current {
            let _ = write!(out, " [current={}]", token(c));
        }
        if s.modal {
            out.push_str(" [modal]");
        }
        if let Some(h) = &s.haspopup {
            let _ = write!(out, " [haspopup={}]", token(h));
        }
        if s.multiselectable {
            out.push_str(" [multiselectable]");
        }
        if let Some(o) = &s.orientation {
            let _ = write!(out, " [orientation={}]", token(o));
        }
        if let Some(d) = &n.description {
            let _ = write!(out, " [description={}]", quote(&cut(d, TEXT_CUT)));
        }
        if let Some(p) = &n.placeholder {
            let _ = write!(out, " [placeholder={}]", quote(&cut(p, TEXT_CUT)));
        }
    }
    if let Some(k) = unseen(n) {
        let _ = write!(out, " [unseen={k}]");
    }
    out
}

/// The values of aria-sort a header shows (WAI-ARIA 1.2; `none` is no flag).
const SORT_KINDS: &[&str] = &["ascending", "descending", "other"];

/// The sort order of a column or row header, as one of [`SORT_KINDS`] (nothing else the
/// wire carried is printed: docs/reference/output.md#what-no-page-can-forge).
pub fn sort(n: &Node) -> Option<&'static str> {
    let k = n.states.sort.as_deref()?;
    SORT_KINDS.iter().find(|s| **s == k).copied()
}

/// The kinds of unseen text (docs/reference/output.md#unseen-text).
pub const UNSEEN_KINDS: &[&str] = &[
    "clipped",
    "offscreen",
    "transparent",
    "tiny",
    "camouflaged",
    "covered",
];

/// Why a node's text is not painted, as one of [`UNSEEN_KINDS`] (anything else the wire
/// carried is not printed: docs/reference/output.md#what-no-page-can-forge, no page forges a flag).
pub fn unseen(n: &Node) -> Option<&'static str> {
    let k = n.states.unseen.as_deref()?;
    UNSEEN_KINDS.iter().find(|u| **u == k).copied()
}

/// Roles whose name is their content: text under them says nothing the name does not.
const NAME_IS_CONTENT: &[&str] = &[
    "button",
    "link",
    "heading",
    "cell",
    "gridcell",
    "columnheader",
    "rowheader",
    "option",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "treeitem",
    "checkbox",
    "radio",
    "switch",
];

/// The children worth showing: text runs that only repeat the node's name are implied by it.
pub fn shown_children(snap: &Snapshot, i: usize) -> &[usize] {
    let kids = &snap.children[i];
    let n = &snap.nodes[i];
    if kids.is_empty() || n.name.is_empty() || n.is_text() {
        return kids;
    }
    let all_text = kids.iter().all(|&k| snap.nodes[k].is_text());
    if all_text && NAME_IS_CONTENT.contains(&n.role.as_str()) {
        return &[];
    }
    if all_text {
        let joined: Vec<&str> = kids
            .iter()
            .filter_map(|&k| snap.nodes[k].value.as_deref())
            .collect();
        let joined = joined.join(" ");
        if squash(&joined) == squash(&n.name) {
            return &[];
        }
    }
    kids
}

/// A URL as shown: same-origin URLs lose their origin.
pub fn short_url(url: &str, page: &str) -> String {
    fn origin(u: &str) -> Option<&str> {
        let scheme_end = u.find("://")? + 3;
        let rest = &u[scheme_end..];
        let end = rest.find('/').map(|i| scheme_end + i).unwrap_or(u.len());
        Some(&u[..end])
    }
    match (origin(url), origin(page)) {
        (Some(a), Some(b)) if a == b => {
            let rest = &url[a.len()..];
            if rest.is_empty() {
                "/".to_string()
            } else {
                rest.to_string()
            }
        }
        _ => url.to_string(),
    }
}

/// The `- role "name" [flags] [ref=..]` head of a node's line (no indent, no suffix).
pub fn head(n: &Node, verbose: bool) -> String {
    let mut line = String::with_capacity(48);
    line.push_str("- ");
    line.push_str(&token(&n.role));
    if !n.name.is_empty() {
        line.push(' ');
        line.push_str(&quote(&cut(&n.name, TEXT_CUT)));
    }
    line.push_str(&flags(n, verbose));
    if let Some(r) = &n.ref_ {
        let _ = write!(line, " [ref={}]", token(r));
    }
    line
}

/// The page header (docs/reference/output.md#page-header) as `# ...` lines: `# page: URL status=N ready=STATE`, then
/// `# wall: KIND (WHY)` when the page is a wall. No status when the browser knows none.
pub fn header_lines(snap: &Snapshot) -> Vec<String> {
    let Some(p) = &snap.page else {
        return Vec::new();
    };
    let status = p.status.map(|s| format!(" status={s}")).unwrap_or_default();
    let mut out = vec![format!(
        "# page: {}{status} ready={}",
        text(&cut(&p.url, 300)),
        token(&p.ready)
    )];
    if let Some(w) = &p.wall {
        out.push(format!(
            "# wall: {} ({})",
            w.kind.as_str(),
            text(&cut(&w.why, 200))
        ));
    }
    out
}

/// The page header as JSON (`page: {url, status, ready, wall?}`), or None.
pub fn header_json(snap: &Snapshot) -> Option<Value> {
    snap.page
        .as_ref()
        .and_then(|p| serde_json::to_value(p).ok())
}

/// Notes about what the snapshot does not show, as `# ...` comment lines.
pub fn notes(snap: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for f in &snap.frames {
        if let Some(why) = &f.unreadable {
            out.push(format!(
                "# frame f{} ({}) could not be read: {}",
                f.index,
                text(&cut(&f.url, TEXT_CUT)),
                text(why)
            ));
        }
    }
    let st = &snap.stats;
    let tags = if st.closed_hosts.is_empty() {
        String::new()
    } else {
        let tags: Vec<String> = st
            .closed_hosts
            .iter()
            .map(|t| text(&cut(t, 40)).into_owned())
            .collect();
        format!(" ({})", tags.join(", "))
    };
    if st.closed_read > 0 {
        out.push(format!(
            "# closed shadow roots: {} read{tags}",
            st.closed_read
        ));
    }
    if st.closed_unread > 0 {
        out.push(format!(
            "# closed shadow roots: {} custom elements may hold one that could not be read{tags} (the WebDriver endpoint does not return shadow roots)",
            st.closed_unread
        ));
    }
    if st.closed_pending > 0 {
        out.push(format!(
            "# closed shadow roots: {} more custom elements not checked yet (snapshot again to check them)",
            st.closed_pending
        ));
    }
    if snap.secrets_masked > 0 {
        out.push(format!(
            "# secrets: {} values shaped like secrets are masked (--reveal-secrets shows them)",
            snap.secrets_masked
        ));
    }
    if snap.unseen_dropped > 0 {
        out.push(format!(
            "# unseen: {} nodes not painted for a sighted user are left out (--drop-unseen)",
            snap.unseen_dropped
        ));
    }
    if snap.stats.withheld_refs > 0 {
        out.push(format!(
            "# compact refs: {} more elements in lists, grids and trees can take refs (use --all-refs)",
            snap.stats.withheld_refs
        ));
    }
    if snap.stats.left_out > 0 {
        out.push(format!(
            "# truncated: {} more nodes left out by --max-nodes {} (raise it, 0 = no limit, or use --root / --detail interactive)",
            snap.stats.left_out,
            if snap.stats.max_nodes > 0 {
                snap.stats.max_nodes
            } else {
                snap.stats.nodes
            }
        ));
    }
    out
}

/// For a closed combobox whose options are in the tree (a native select, or an ARIA
/// combobox with its listbox), the number of options and the value to show (the node's own
/// value, else the selected options' names); None for anything else. docs/reference/output.md#values-selects-and-comboboxes: the text shows
/// the value and the count, not the options (JSON keeps them).
pub fn collapsed_options(snap: &Snapshot, i: usize) -> Option<(usize, Option<String>)> {
    let n = &snap.nodes[i];
    if n.role != "combobox" || n.states.expanded == Some(true) || snap.children[i].is_empty() {
        return None;
    }
    // the subtree: nodes after i deeper than i (pre-order), only options, groups and
    // listboxes (anything else, say a text field inside, keeps the children shown)
    let mut count = 0;
    let mut selected: Vec<&str> = Vec::new();
    let mut stack: Vec<usize> = snap.children[i].iter().rev().copied().collect();
    while let Some(k) = stack.pop() {
        let c = &snap.nodes[k];
        match c.role.as_str() {
            "option" => {
                count += 1;
                if c.states.selected {
                    selected.push(&c.name);
                }
            }
            "listbox" | "group" => stack.extend(snap.children[k].iter().rev().copied()),
            _ if c.is_text() => {}
            _ => return None,
        }
    }
    if count == 0 {
        return None;
    }
    let value = n
        .value
        .clone()
        .filter(|v| !v.is_empty())
        .or_else(|| (!selected.is_empty()).then(|| selected.join(", ")));
    Some((count, value))
}

/// The line of an elided subtree or run of siblings (docs/reference/detail.md#budgets budgets): the subtree's own
/// head with `[elided: N nodes, M refs]` before its ref, or for a run `[elided: 40
/// listitem, 2 paragraph: N nodes, M refs]` (`[... 40 more like these: ...]` when they are
/// like the sibling before them) with the ref that expands them.
fn elided_line(n: &Node, e: &super::budget::Elided, verbose: bool) -> String {
    let counts = format!("{} nodes, {} refs", e.nodes, e.refs);
    if e.siblings <= 1 {
        let line = if n.is_text() {
            "- text".to_string()
        } else {
            head(n, verbose)
        };
        return match line.rfind(" [ref=") {
            Some(at) => format!("{} [elided: {counts}]{}", &line[..at], &line[at..]),
            None => format!("{line} [elided: {counts}]"),
        };
    }
    let what = if e.alike {
        format!("[... {} more like these: {counts}]", e.siblings)
    } else {
        let kinds: Vec<String> = e.kinds.iter().map(|(k, c)| format!("{c} {k}")).collect();
        format!("[elided: {}: {counts}]", kinds.join(", "))
    };
    match &e.expand {
        Some(r) => format!("- {what} (--root {r})"),
        None => format!("- {what}"),
    }
}

/// Renders the whole snapshot as indented text (docs/reference/output.md#text-format).
pub fn to_text(snap: &Snapshot, opts: &RenderOptions) -> String {
    let mut out = String::with_capacity(snap.nodes.len() * 40);
    for n in header_lines(snap).into_iter().chain(notes(snap)) {
        out.push_str(&n);
        out.push('\n');
    }
    let doc = &snap.nodes[0];
    let top = &snap.children[0];
    if top.is_empty() {
        out.push_str(&head(doc, opts.verbose));
        out.push_str("\n# no accessible content\n");
        return out;
    }
    // (node, depth)
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    while let Some((i, depth)) = stack.pop() {
        let n = &snap.nodes[i];
        for _ in 0..depth {
            out.push_str("  ");
        }
        if let Some(e) = &n.elided {
            out.push_str(&elided_line(n, e, opts.verbose));
            out.push('\n');
            continue;
        }
        if n.is_text() {
            match unseen(n) {
                Some(k) => {
                    let _ = write!(out, "- text [unseen={k}]: ");
                }
                None => out.push_str("- text: "),
            }
            out.push_str(&text(&cut(n.value.as_deref().unwrap_or(""), TEXT_CUT)));
            out.push('\n');
            continue;
        }
        if let Some((count, value)) = collapsed_options(snap, i) {
            // docs/reference/output.md#values-selects-and-comboboxes: a closed select or combobox shows its value and option count
            let line = head(n, opts.verbose);
            match line.rfind(" [ref=") {
                Some(at) => {
                    out.push_str(&line[..at]);
                    let _ = write!(out, " [options={count}]");
                    out.push_str(&line[at..]);
                }
                None => {
                    out.push_str(&line);
                    let _ = write!(out, " [options={count}]");
                }
            }
            if let Some(v) = value.filter(|v| !v.is_empty()) {
                out.push_str(": ");
                out.push_str(&text(&cut(&v, TEXT_CUT)));
            }
            out.push('\n');
            continue;
        }
        out.push_str(&head(n, opts.verbose));
        let kids = shown_children(snap, i);
        let url = n.url.as_deref().filter(|_| n.role == "link");
        let single_text = i != 0
            && kids.len() == 1
            && snap.nodes[kids[0]].is_text()
            && unseen(&snap.nodes[kids[0]]).is_none()
            && url.is_none()
            && n.value.is_none();
        if single_text {
            out.push_str(": ");
            out.push_str(&text(&cut(
                snap.nodes[kids[0]].value.as_deref().unwrap_or(""),
                TEXT_CUT,
            )));
            out.push('\n');
            continue;
        }
        if kids.is_empty() && url.is_none() {
            if let Some(v) = n.value.as_deref().filter(|v| !v.is_empty()) {
                out.push_str(": ");
                out.push_str(&text(&cut(v, TEXT_CUT)));
            }
            out.push('\n');
            continue;
        }
        out.push_str(":\n");
        if let Some(u) = url {
            for _ in 0..=depth {
                out.push_str("  ");
            }
            out.push_str("- /url: ");
            out.push_str(&text(&cut(&short_url(u, &snap.url), 200)));
            out.push('\n');
        }
        // a value and children (a slider whose thumb shows text, an open select): the value
        // as a property line, as interactive prints a value beside an error
        if let Some(v) = n.value.as_deref().filter(|v| !v.is_empty()) {
            for _ in 0..=depth {
                out.push_str("  ");
            }
            out.push_str("- /value: ");
            out.push_str(&text(&cut(v, TEXT_CUT)));
            out.push('\n');
        }
        for &k in kids.iter().rev() {
            stack.push((k, depth + 1));
        }
    }
    out
}

fn cap(s: &str) -> &str {
    match s.char_indices().nth(JSON_CAP) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn props_json(n: &Node, page_url: &str, verbose: bool) -> Option<Value> {
    let s = &n.states;
    let mut m = serde_json::Map::new();
    let tri = |t: &Tri| match t {
        Tri::Bool(b) => Value::Bool(*b),
        Tri::Token(t) => Value::String(t.clone()),
    };
    if let Some(c) = s.checked.as_ref().filter(|c| c.is_on()) {
        m.insert("checked".into(), tri(c));
    }
    if s.disabled {
        m.insert("disabled".into(), true.into());
    }
    if let Some(e) = s.expanded {
        m.insert("expanded".into(), e.into());
    }
    if s.selected {
        m.insert("selected".into(), true.into());
    }
    if let Some(p) = s.pressed.as_ref().filter(|p| p.is_on()) {
        m.insert("pressed".into(), tri(p));
    }
    for (k, on) in [
        ("required", s.required),
        ("readonly", s.readonly),
        ("invalid", s.invalid),
        ("focused", s.focused),
    ] {
        if on {
            m.insert(k.into(), true.into());
        }
    }
    if let Some(l) = s.level {
        m.insert("level".into(), l.into());
    }
    if let Some(k) = sort(n) {
        m.insert("sort".into(), k.into());
    }
    if let Some(v) = &n.value {
        m.insert("value".into(), cap(v).into());
    }
    if let Some(u) = &n.url {
        let shown = if verbose {
            u.clone()
        } else {
            short_url(u, page_url)
        };
        m.insert("url".into(), cap(&shown).into());
    }
    if verbose {
        if let Some(d) = &n.description {
            m.insert("description".into(), cap(d).into());
        }
        if let Some(p) = &n.placeholder {
            m.insert("placeholder".into(), cap(p).into());
        }
        if let Some(c) = &s.current {
            m.insert("current".into(), c.clone().into());
        }
        if s.modal {
            m.insert("modal".into(), true.into());
        }
        if let Some(h) = &s.haspopup {
            m.insert("haspopup".into(), h.clone().into());
        }
        if s.multiselectable {
            m.insert("multiselectable".into(), true.into());
        }
        if let Some(o) = &s.orientation {
            m.insert("orientation".into(), o.clone().into());
        }
        if let Some(b) = n.bbox {
            m.insert("box".into(), serde_json::json!(b));
        }
    }
    if let Some(k) = unseen(n) {
        m.insert("unseen".into(), k.into());
    }
    if m.is_empty() {
        None
    } else {
        Some(Value::Object(m))
    }
}

/// Renders the snapshot as one JSON document (docs/reference/output.md#json-format): nested nodes `{role, name, ref?,
/// props?, children}`, text runs as strings, the root with url, title, snapshot and stats.
/// Written iteratively, so any depth is fine.
pub fn to_json(snap: &Snapshot, opts: &RenderOptions, pretty: bool) -> String {
    // stats.bytes is the size of the document itself: render once with 0 in its place,
    // then write the number that makes the length come out right.
    let (mut out, at) = json_with_bytes(snap, opts);
    let rest = out.len() - 1;
    let mut bytes = rest + 1;
    while rest + bytes.to_string().len() != bytes {
        bytes = rest + bytes.to_string().len();
    }
    // in place: a copy of a large document would be as many fresh pages again
    out.replace_range(at..at + 1, &bytes.to_string());
    debug_assert_eq!(out.len(), bytes);
    finish(out, pretty)
}

fn finish(s: String, pretty: bool) -> String {
    if !pretty {
        return s;
    }
    // Pretty printing re-reads the document without a depth limit concern: serde_json's
    // reader stops at 128 levels, so deep trees stay compact rather than fail.
    match serde_json::from_str::<Value>(&s) {
        Ok(v) => crate::safe::to_json(&v, true).unwrap_or(s),
        Err(_) => s,
    }
}

/// An elided subtree or run in JSON: `{"role", "name", "ref", "elided": {"nodes", "refs"}}`
/// or `{"elided": {"siblings", "kinds", "alike", "nodes", "refs", "expand"}}`.
fn elided_json(n: &Node, e: &super::budget::Elided) -> String {
    let mut m = serde_json::Map::new();
    let mut el = serde_json::Map::new();
    el.insert("nodes".into(), e.nodes.into());
    el.insert("refs".into(), e.refs.into());
    if e.siblings > 1 {
        el.insert("siblings".into(), e.siblings.into());
        let kinds: serde_json::Map<String, Value> = e
            .kinds
            .iter()
            .map(|(k, c)| (k.clone(), Value::from(*c)))
            .collect();
        el.insert("kinds".into(), Value::Object(kinds));
        el.insert("alike".into(), e.alike.into());
        if let Some(r) = &e.expand {
            el.insert("expand".into(), r.clone().into());
        }
    } else {
        m.insert("role".into(), n.role.clone().into());
        m.insert("name".into(), cap(&n.name).into());
        if let Some(r) = &n.ref_ {
            m.insert("ref".into(), r.clone().into());
        }
    }
    m.insert("elided".into(), Value::Object(el));
    crate::safe::to_json(&Value::Object(m), false).unwrap_or_else(|_| "{}".into())
}

/// The JSON document with `0` for stats.bytes, and the offset of that `0`.
fn json_with_bytes(snap: &Snapshot, opts: &RenderOptions) -> (String, usize) {
    // room for a typical node (about 60 bytes) without growing: pages not written cost nothing
    let mut out = String::with_capacity(snap.nodes.len() * 80 + 256);
    let doc = &snap.nodes[0];
    out.push_str("{\"role\":\"document\",\"name\":");
    out.push_str(&quote(cap(&doc.name)));
    let _ = write!(
        out,
        ",\"url\":{},\"title\":{},\"snapshot\":{},\"stats\":{{\"nodes\":{},\"refs\":{},\"bytes\":",
        quote(&snap.url),
        quote(cap(&snap.title)),
        snap.number,
        snap.nodes.len(),
        snap.ref_count(),
    );
    let at = out.len();
    let _ = write!(
        out,
        "0,\"elements\":{},\"engine_ms\":{:.1},\"walk_ms\":{:.1},\"cached\":{}}}",
        snap.stats.elements, snap.engine_ms, snap.stats.walk_ms, snap.cached
    );
    if let Some(p) = header_json(snap) {
        out.push_str(",\"page\":");
        out.push_str(&crate::safe::to_json(&p, false).unwrap_or_else(|_| "null".into()));
    }
    let notes = notes(snap);
    if !notes.is_empty() {
        out.push_str(",\"notes\":");
        out.push_str(&crate::safe::to_json(&notes, false).unwrap_or_else(|_| "[]".into()));
    }
    out.push_str(",\"children\":[");
    // Stack items: Open(i) writes a node; Close writes "]}"; Sep writes ",".
    enum It {
        Open(usize),
        Close,
        Sep,
    }
    let mut stack: Vec<It> = Vec::new();
    let top = &snap.children[0];
    for (j, &k) in top.iter().enumerate().rev() {
        stack.push(It::Open(k));
        if j > 0 {
            stack.push(It::Sep);
        }
    }
    while let Some(it) = stack.pop() {
        match it {
            It::Sep => out.push(','),
            It::Close => out.push_str("]}"),
            It::Open(i) => {
                let n = &snap.nodes[i];
                if let Some(e) = &n.elided {
                    out.push_str(&elided_json(n, e));
                    continue;
                }
                if n.is_text() {
                    let t = quote(cap(n.value.as_deref().unwrap_or("")));
                    match unseen(n) {
                        Some(k) => {
                            let _ = write!(out, "{{\"text\":{t},\"unseen\":\"{k}\"}}");
                        }
                        None => out.push_str(&t),
                    }
                    continue;
                }
                out.push_str("{\"role\":");
                out.push_str(&quote(&n.role));
                out.push_str(",\"name\":");
                out.push_str(&quote(cap(&n.name)));
                if let Some(r) = &n.ref_ {
                    out.push_str(",\"ref\":");
                    out.push_str(&quote(r));
                }
                if let Some(p) = props_json(n, &snap.url, opts.verbose) {
                    out.push_str(",\"props\":");
                    out.push_str(&crate::safe::to_json(&p, false).unwrap_or_else(|_| "{}".into()));
                }
                out.push_str(",\"children\":[");
                stack.push(It::Close);
                let kids = shown_children(snap, i);
                for (j, &k) in kids.iter().enumerate().rev() {
                    stack.push(It::Open(k));
                    if j > 0 {
                        stack.push(It::Sep);
                    }
                }
            }
        }
    }
    out.push_str("]}");
    (out, at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::safe::check::HOSTILE;
    use crate::snapshot::tests::snap;

    #[test]
    fn text_lines_follow_spec_1() {
        let s = snap(&[
            (-1, "document", "Shop", None, None),
            (0, "heading", "Your cart", None, None),
            (1, "text", "", None, Some("Your cart")),
            (0, "paragraph", "", None, None),
            (3, "text", "", None, Some("2 items")),
            (0, "button", "Pay", Some("s1e4"), None),
            (0, "textbox", "Email", Some("s1e2"), Some("ada@example.org")),
        ]);
        let t = to_text(&s, &RenderOptions::default());
        assert_eq!(
            t,
            "- document \"Shop\":\n  - heading \"Your cart\"\n  - paragraph: 2 items\n  - button \"Pay\" [ref=s1e4]\n  - textbox \"Email\" [ref=s1e2]: ada@example.org\n"
        );
    }

    #[test]
    fn long_names_and_text_are_cut_with_dots() {
        let long = "x".repeat(150);
        let s = snap(&[
            (-1, "document", "", None, None),
            (0, "button", &long, Some("s1e1"), None),
            (0, "text", "", None, Some(&long)),
        ]);
        let t = to_text(&s, &RenderOptions::default());
        assert!(t.contains(&format!("\"{}...\"", "x".repeat(100))), "{t}");
        assert!(
            t.contains(&format!("- text: {}...\n", "x".repeat(100))),
            "{t}"
        );
        // JSON keeps the full text
        let j = to_json(&s, &RenderOptions::default(), false);
        assert!(j.contains(&long));
    }

    #[test]
    fn cut_respects_char_boundaries() {
        let s = "é".repeat(120);
        assert_eq!(cut(&s, 100).chars().count(), 103);
        assert_eq!(cut("short", 100), "short");
    }

    #[test]
    fn closed_selects_show_their_value_and_option_count() {
        let mut s = crate::snapshot::tests::snap(&[
            (-1, "document", "D", None, None),
            (0, "combobox", "Country", Some("s1e1"), None),
            (1, "option", "France", None, None),
            (1, "option", "Italy", None, None),
            (1, "option", "Spain", None, None),
            (0, "combobox", "City", Some("s1e2"), None),
            (5, "listbox", "Cities", None, None),
            (6, "option", "Paris", Some("s1e3"), None),
        ]);
        s.nodes[3].states.selected = true;
        let t = to_text(&s, &RenderOptions::default());
        assert!(
            t.contains("- combobox \"Country\" [options=3] [ref=s1e1]: Italy\n"),
            "{t}"
        );
        assert!(!t.contains("France"), "{t}");
        assert!(
            t.contains("- combobox \"City\" [options=1] [ref=s1e2]\n"),
            "{t}"
        );
        // open: the options show
        s.nodes[5].states.expanded = Some(true);
        let t = to_text(&s, &RenderOptions::default());
        assert!(t.contains("- option \"Paris\" [ref=s1e3]"), "{t}");
    }

    #[test]
    fn sort_shows_on_headers_as_a_token() {
        let mut s = snap(&[
            (-1, "document", "D", None, None),
            (0, "columnheader", "Time", None, None),
            (0, "columnheader", "Gate", None, None),
        ]);
        s.nodes[1].states.sort = Some("ascending".into());
        // a value no engine sends is not printed (docs/reference/output.md#what-no-page-can-forge: no page forges a flag)
        s.nodes[2].states.sort = Some("x] [ref=s9e9".into());
        let t = to_text(&s, &RenderOptions::default());
        assert!(
            t.contains("  - columnheader \"Time\" [sort=ascending]\n"),
            "{t}"
        );
        assert!(t.contains("  - columnheader \"Gate\"\n"), "{t}");
        let j = to_json(&s, &RenderOptions::default(), false);
        assert!(j.contains("\"props\":{\"sort\":\"ascending\"}"), "{j}");
        assert!(!j.contains("s9e9"), "{j}");
    }

    #[test]
    fn a_value_beside_children_is_a_property_line() {
        let s = snap(&[
            (-1, "document", "D", None, None),
            (0, "slider", "Heat", Some("s1e1"), Some("20 degrees")),
            (1, "text", "", None, Some("20°")),
        ]);
        let t = to_text(&s, &RenderOptions::default());
        assert!(
            t.contains(
                "  - slider \"Heat\" [ref=s1e1]:\n    - /value: 20 degrees\n    - text: 20°\n"
            ),
            "{t}"
        );
    }

    #[test]
    fn blank_page_is_a_bare_document() {
        let s = snap(&[(-1, "document", "", None, None)]);
        assert_eq!(
            to_text(&s, &RenderOptions::default()),
            "- document\n# no accessible content\n"
        );
    }

    #[test]
    fn json_nests_and_reports_its_own_size() {
        let s = snap(&[
            (-1, "document", "T", None, None),
            (0, "list", "", None, None),
            (1, "listitem", "", None, None),
            (2, "text", "", None, Some("one")),
            (0, "button", "Go", Some("s1e1"), None),
        ]);
        let j = to_json(&s, &RenderOptions::default(), false);
        let v: Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["children"][0]["role"], "list");
        assert_eq!(v["children"][0]["children"][0]["children"][0], "one");
        assert_eq!(v["children"][1]["ref"], "s1e1");
        assert_eq!(v["stats"]["bytes"].as_u64().unwrap() as usize, j.len());
        assert_eq!(v["stats"]["refs"], 1);
    }

    #[test]
    fn deep_trees_render_without_recursion() {
        let mut rows: Vec<crate::snapshot::tests::Row> = vec![(-1, "document", "", None, None)];
        for i in 0..20_000 {
            rows.push((i, "group", "", None, None));
        }
        let s = snap(&rows);
        let t = to_text(&s, &RenderOptions::default());
        assert_eq!(t.lines().count(), 20_001);
        let j = to_json(&s, &RenderOptions::default(), false);
        assert!(j.ends_with(&"]}".repeat(20_001)));
    }

    fn hostile_snap(h: &str) -> Snapshot {
        let mut s = snap(&[
            (-1, "document", h, None, None),
            (0, "button", h, Some("s1e1"), None),
            (0, "textbox", h, Some("s1e2"), Some(h)),
            (0, "paragraph", "", None, None),
            (3, "text", "", None, Some(h)),
            (0, "text", "", None, Some(h)),
            (0, "link", h, Some("s1e3"), None),
            (0, "checkbox", h, Some("s1e4"), None),
        ]);
        s.nodes[6].url = Some(format!("http://127.0.0.1/#{h}"));
        let n = &mut s.nodes[2];
        n.description = Some(h.into());
        n.placeholder = Some(h.into());
        n.states.current = Some(h.into());
        n.states.haspopup = Some(h.into());
        n.states.orientation = Some(h.into());
        s.nodes[7].states.checked = Some(Tri::Token(h.into()));
        s.nodes[7].states.pressed = Some(Tri::Token(h.into()));
        s.frames.push(crate::snapshot::Frame {
            index: 1,
            node: None,
            url: h.into(),
            unreadable: Some(h.into()),
        });
        s.stats.closed_read = 1;
        s.stats.closed_hosts = vec![h.into(), "x-ok".into()];
        s
    }

    #[test]
    fn page_text_cannot_forge_lines_refs_or_controls() {
        use crate::safe::check::unforgeable;
        for h in HOSTILE {
            let s = hostile_snap(h);
            for verbose in [false, true] {
                let t = to_text(&s, &RenderOptions { verbose });
                // 2 notes, document, button, textbox, paragraph, text, link, /url, checkbox
                unforgeable(&t, 10, &["s1e1", "s1e2", "s1e3", "s1e4"]);
            }
            // cut before quoting: the cut lands on an escaped character, escaped whole
            let long = format!("{}\u{1b}{h}", "\\".repeat(99));
            let t = to_text(
                &snap(&[
                    (-1, "document", "", None, None),
                    (0, "button", &long, Some("s1e1"), None),
                    (0, "text", "", None, Some(&long)),
                ]),
                &RenderOptions::default(),
            );
            unforgeable(&t, 3, &["s1e1"]);
            assert!(
                t.contains(&format!("\"{}\\u001b...\"", "\\\\".repeat(99))),
                "{t}"
            );
        }
        // what is safe stays bare
        let s = snap(&[
            (-1, "document", "", None, None),
            (0, "paragraph", "", None, None),
            (1, "text", "", None, Some("Total: 31.90 EUR, see \"terms\"")),
        ]);
        assert_eq!(
            to_text(&s, &RenderOptions::default()),
            "- document:\n  - paragraph: Total: 31.90 EUR, see \"terms\"\n"
        );
    }

    #[test]
    fn json_output_escapes_what_text_output_does() {
        for h in HOSTILE {
            let s = hostile_snap(h);
            for (verbose, pretty) in [(false, false), (true, true)] {
                let j = to_json(&s, &RenderOptions { verbose }, pretty);
                assert!(
                    !j.chars()
                        .any(|c| c != '\n' && crate::safe::check::forbidden(c)),
                    "{j:?}"
                );
                let v: Value = serde_json::from_str(&j).unwrap();
                assert_eq!(v["children"][0]["name"], *h);
                assert_eq!(v["children"][1]["props"]["value"], *h);
            }
        }
    }

    #[test]
    fn urls_lose_their_own_origin() {
        assert_eq!(
            short_url("http://a.test/x?y#z", "http://a.test/page"),
            "/x?y#z"
        );
        assert_eq!(short_url("http://a.test", "http://a.test/page"), "/");
        assert_eq!(
            short_url("https://b.test/x", "http://a.test/"),
            "https://b.test/x"
        );
    }
}
