//! The JSON rendering (docs/reference/output.md#json-format): nested nodes `{role, name,
//! ref?, props?, children}`, text runs as strings, the root with url, title, snapshot and
//! stats, whose `bytes` is the document's own length.
//!
//! Owns: the props a node carries, the cap on strings ([`JSON_CAP`](super::JSON_CAP)), elided
//! entries, pretty printing. Must not: recurse (an explicit stack), or write page text
//! other than through `safe` (quoted, escaped).

use super::header::{header_json, notes};
use super::line::{icon, short_url, sort, unseen};
use super::marks;
use super::shown::shown_children;
use super::{JSON_CAP, RenderOptions};
use crate::safe::{self, quote};
use crate::snapshot::budget::Elided;
use crate::snapshot::{Node, Snapshot};
use crate::wire::Tri;
use serde_json::Value;
use std::fmt::Write as _;

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
    if s.clickable {
        m.insert("clickable".into(), true.into());
    }
    if let Some(h) = icon(n) {
        m.insert("icon".into(), h.into());
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
        Ok(v) => safe::to_json(&v, true).unwrap_or(s),
        Err(_) => s,
    }
}

/// An elided subtree or run in JSON: `{"role", "name", "ref", "elided": {"nodes", "refs"}}`
/// or `{"elided": {"siblings", "kinds", "alike", "nodes", "refs", "expand"}}`.
fn elided_json(n: &Node, e: &Elided) -> String {
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
    safe::to_json(&Value::Object(m), false).unwrap_or_else(|_| "{}".into())
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
        out.push_str(&safe::to_json(&p, false).unwrap_or_else(|_| "null".into()));
    }
    let notes = notes(snap);
    if !notes.is_empty() {
        out.push_str(",\"notes\":");
        out.push_str(&safe::to_json(&notes, false).unwrap_or_else(|_| "[]".into()));
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
                    text_json(&mut out, n);
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
                    out.push_str(&safe::to_json(&p, false).unwrap_or_else(|_| "{}".into()));
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

/// A text run in a `children` list: a string, `{"text", "unseen"}` for unseen text, or, with
/// text-level marks, its segments in order: strings and `{"role", "name": "", "children":
/// [text]}` nodes (docs/reference/output.md#text-level-marks).
fn text_json(out: &mut String, n: &Node) {
    let v = n.value.as_deref().unwrap_or("");
    let t = cap(v);
    if let Some(k) = unseen(n) {
        let _ = write!(out, "{{\"text\":{},\"unseen\":\"{k}\"}}", quote(t));
        return;
    }
    let spans = marks::spans(n);
    if spans.is_empty() || t.len() < v.len() {
        out.push_str(&quote(t));
        return;
    }
    for (j, (role, piece)) in marks::segments(v, &spans).into_iter().enumerate() {
        if j > 0 {
            out.push(',');
        }
        match role {
            Some(r) => {
                let _ = write!(
                    out,
                    "{{\"role\":{},\"name\":\"\",\"children\":[{}]}}",
                    quote(r),
                    quote(piece)
                );
            }
            None => out.push_str(&quote(piece)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::render::tests::{HOSTILE, hostile_snap};
    use crate::snapshot::tests::snap;

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
}
