//! The indented text rendering (docs/reference/output.md#text-format): the header and notes,
//! then one line per shown node, elided subtrees and runs as one line each.
//!
//! Owns: the shape of the text: indentation, `: text` after a head, `/url` and `/value`
//! property lines, `[options=N]` on closed selects, the elided lines. Must not: recurse (an
//! explicit stack), or print page text other than through `safe`.

use super::RenderOptions;
use super::TEXT_CUT;
use super::header::{header_lines, notes};
use super::line::{before_ref, cut, cut_flag, head, kept, short_url, unseen};
use super::marks;
use super::shown::{collapsed_options, shown_children};
use crate::safe::text;
use crate::snapshot::budget::Elided;
use crate::snapshot::{Node, Snapshot};
use std::fmt::Write as _;

/// The line of an elided subtree or run of siblings (docs/reference/detail.md#budgets budgets): the subtree's own
/// head with `[elided: N nodes, M refs]` before its ref, or for a run `[elided: 40
/// listitem, 2 paragraph: N nodes, M refs]` (`[... 40 more like these: ...]` when they are
/// like the sibling before them) with the ref that expands them.
fn elided_line(n: &Node, e: &Elided, verbose: bool) -> String {
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

/// A text run's text as printed, cut at [`super::TEXT_KEEP`] characters, with its text-level
/// marks inline when it can be printed bare (docs/reference/output.md#text-level-marks), else
/// as any text; and how many characters the cut left out.
fn run_text(n: &Node) -> (String, usize) {
    let v = n.value.as_deref().unwrap_or("");
    let (t, left) = kept(v);
    let spans = marks::spans(n);
    if !spans.is_empty()
        && unseen(n).is_none()
        && let Some(s) = marks::inline(v, &spans, super::TEXT_KEEP)
    {
        return (s, left);
    }
    (text(&t).into_owned(), left)
}

/// A text run's own line: `- text [unseen=KIND] [cut: ...]: ...`, or, for a run that is one
/// text-level element's text whole, that element's line (`- term: Name`).
fn text_line(n: &Node, out: &mut String) {
    let v = n.value.as_deref().unwrap_or("");
    let read = n.states.read.as_deref();
    let role = match unseen(n) {
        Some(_) => None,
        None => marks::whole(v, &marks::spans(n)),
    };
    match role {
        Some(role) => {
            let (t, left) = kept(v);
            let _ = write!(out, "- {role}{}: ", cut_flag(left, read, false));
            out.push_str(&text(&t));
        }
        None => {
            out.push_str("- text");
            if let Some(k) = unseen(n) {
                let _ = write!(out, " [unseen={k}]");
            }
            let (t, left) = run_text(n);
            out.push_str(&cut_flag(left, read, false));
            out.push_str(": ");
            out.push_str(&t);
        }
    }
    out.push('\n');
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
            text_line(n, &mut out);
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
        let line = head(n, opts.verbose);
        let kids = shown_children(snap, i);
        let url = n.url.as_deref().filter(|_| n.role == "link");
        let single_text = i != 0
            && kids.len() == 1
            && snap.nodes[kids[0]].is_text()
            && unseen(&snap.nodes[kids[0]]).is_none()
            && url.is_none()
            && n.value.is_none();
        if single_text {
            let kid = &snap.nodes[kids[0]];
            let (t, left) = run_text(kid);
            out.push_str(&before_ref(
                &line,
                &cut_flag(left, kid.states.read.as_deref(), false),
            ));
            out.push_str(": ");
            out.push_str(&t);
            out.push('\n');
            continue;
        }
        let value = n.value.as_deref().filter(|v| !v.is_empty()).map(kept);
        let value_flag = |left| cut_flag(left, n.ref_.as_deref(), true);
        if kids.is_empty() && url.is_none() {
            match &value {
                Some((v, left)) => {
                    out.push_str(&before_ref(&line, &value_flag(*left)));
                    out.push_str(": ");
                    out.push_str(&text(v));
                }
                None => out.push_str(&line),
            }
            out.push('\n');
            continue;
        }
        out.push_str(&line);
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
        if let Some((v, left)) = &value {
            for _ in 0..=depth {
                out.push_str("  ");
            }
            out.push_str("- /value");
            out.push_str(&value_flag(*left));
            out.push_str(": ");
            out.push_str(&text(v));
            out.push('\n');
        }
        for &k in kids.iter().rev() {
            stack.push((k, depth + 1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::render::tests::{HOSTILE, hostile_snap};
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
}
