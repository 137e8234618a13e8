//! Text-level marks in a text run (docs/behaviour.md#text-level-semantics): the spans that
//! strong, emphasis, code, mark, deletion, insertion, subscript, superscript, time and term
//! elements hold in a run of text, printed inline in text (`Was ⟦deletion: $20⟧ now $15`)
//! and as nodes among the strings of a JSON `children` list.
//!
//! Owns: where a run's marks are (byte ranges over its text) and their two forms. Must not:
//! print page text other than through `safe`: a run that could be misread bare (and any run
//! holding ⟦ or ⟧ itself: `safe::needs_quotes`) is quoted whole and shows no mark in text.

use super::line::cut;
use crate::snapshot::Node;

/// The roles a mark may carry (js/src/45_walk.js `MARK_ROLES`); a mark with any other is
/// dropped.
const MARK_ROLES: &[&str] = &[
    "strong",
    "emphasis",
    "code",
    "mark",
    "subscript",
    "superscript",
    "deletion",
    "insertion",
    "time",
    "term",
];

/// Opens a mark in text output; no bare page text holds it (`safe::needs_quotes`).
pub const OPEN: char = '\u{27E6}';
/// Closes a mark.
pub const CLOSE: char = '\u{27E7}';

/// One mark of a run: its role and its byte range in the run's text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span<'a> {
    pub role: &'a str,
    pub start: usize,
    pub end: usize,
}

/// The marks of text run `n` in order: known roles, non-empty, inside its text, not
/// overlapping (the engine sends UTF-16 offsets; a mark that does not fit is dropped).
pub fn spans(n: &Node) -> Vec<Span<'_>> {
    let Some(marks) = n.states.marks.as_deref().filter(|m| !m.is_empty()) else {
        return Vec::new();
    };
    let v = n.value.as_deref().unwrap_or("");
    // the byte offset of each char boundary, by UTF-16 offset
    let mut at: Vec<(u32, usize)> = Vec::with_capacity(v.len() + 1);
    let mut u = 0u32;
    for (i, c) in v.char_indices() {
        at.push((u, i));
        u += c.len_utf16() as u32;
    }
    at.push((u, v.len()));
    let byte = |x: u32| at.binary_search_by_key(&x, |p| p.0).ok().map(|k| at[k].1);
    let mut out: Vec<Span> = Vec::with_capacity(marks.len());
    for m in marks {
        let Some(role) = MARK_ROLES.iter().find(|r| **r == m.0) else {
            continue;
        };
        let (Some(start), Some(end)) = (byte(m.1), byte(m.2)) else {
            continue;
        };
        if start >= end || out.last().is_some_and(|p| p.end > start) {
            continue;
        }
        out.push(Span { role, start, end });
    }
    out
}

/// The run's single mark when it covers the whole text (a `dt` alone in its run, a `code`
/// block): the run then prints as that element's own line, `- term: Name`.
pub fn whole<'a>(v: &str, spans: &[Span<'a>]) -> Option<&'a str> {
    match spans {
        [s] if s.start == 0 && s.end == v.len() => Some(s.role),
        _ => None,
    }
}

/// Text `v` cut at `max` characters as any text is (`line::cut`), with its marks inline
/// (`⟦role: text⟧`; a mark the cut goes through ends at the cut), or None when the cut text
/// must be quoted (then it prints as any text, without its marks).
pub fn inline(v: &str, spans: &[Span], max: usize) -> Option<String> {
    let c = cut(v, max);
    if crate::safe::needs_quotes(&c) {
        return None;
    }
    let kept = v.char_indices().nth(max).map_or(v.len(), |(i, _)| i);
    let mut out = String::with_capacity(c.len() + spans.len() * 16);
    let mut at = 0;
    for s in spans {
        if s.start >= kept {
            break;
        }
        let end = s.end.min(kept);
        out.push_str(&v[at..s.start]);
        out.push(OPEN);
        out.push_str(s.role);
        out.push_str(": ");
        out.push_str(&v[s.start..end]);
        out.push(CLOSE);
        at = end;
    }
    out.push_str(&v[at..kept]);
    if kept < v.len() {
        out.push_str("...");
    }
    Some(out)
}

/// The run as JSON segments in order: `(None, text)` for plain text, `(Some(role), text)`
/// for a mark (empty pieces left out).
pub fn segments<'a, 'b>(v: &'a str, spans: &[Span<'b>]) -> Vec<(Option<&'b str>, &'a str)> {
    let mut out = Vec::with_capacity(spans.len() * 2 + 1);
    let mut at = 0;
    for s in spans {
        if s.start > at {
            out.push((None, &v[at..s.start]));
        }
        out.push((Some(s.role), &v[s.start..s.end]));
        at = s.end;
    }
    if at < v.len() {
        out.push((None, &v[at..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::tests::snap;
    use crate::wire::Mark;

    fn run(v: &str, marks: &[(&str, u32, u32)]) -> Node {
        let mut s = snap(&[
            (-1, "document", "", None, None),
            (0, "text", "", None, Some(v)),
        ]);
        s.nodes[1].states.marks = Some(
            marks
                .iter()
                .map(|(r, a, b)| Mark(r.to_string(), *a, *b))
                .collect(),
        );
        s.nodes.swap_remove(1)
    }

    #[test]
    fn marks_go_inline_and_into_segments() {
        let n = run(
            "Was $20 now $15",
            &[("deletion", 4, 7), ("insertion", 12, 15)],
        );
        let sp = spans(&n);
        let v = n.value.as_deref().unwrap();
        assert_eq!(
            inline(v, &sp, 100).unwrap(),
            "Was ⟦deletion: $20⟧ now ⟦insertion: $15⟧"
        );
        assert_eq!(
            segments(v, &sp),
            vec![
                (None, "Was "),
                (Some("deletion"), "$20"),
                (None, " now "),
                (Some("insertion"), "$15")
            ]
        );
        assert_eq!(whole(v, &sp), None);
        // a cut through a mark ends it at the cut
        assert_eq!(inline(v, &sp, 6).unwrap(), "Was ⟦deletion: $2⟧...");
    }

    #[test]
    fn offsets_are_utf16_and_bad_marks_are_dropped() {
        // 😀 is two UTF-16 units, é one: "é😀 x" = é(0) 😀(1..3) space(3) x(4)
        let n = run(
            "é😀 x",
            &[
                ("code", 1, 3),
                ("code", 2, 4),     // inside the surrogate pair: dropped
                ("marquee", 4, 5),  // not a text-level role: dropped
                ("strong", 4, 9),   // past the end: dropped
                ("emphasis", 4, 5), // fine
            ],
        );
        let sp = spans(&n);
        let v = n.value.as_deref().unwrap();
        assert_eq!(inline(v, &sp, 100).unwrap(), "é⟦code: 😀⟧ ⟦emphasis: x⟧");
        let w = run("Name", &[("term", 0, 4)]);
        assert_eq!(whole("Name", &spans(&w)), Some("term"));
    }

    #[test]
    fn text_that_could_be_misread_keeps_no_mark() {
        for v in [
            "- x and more",
            "fake ⟦strong: bold⟧ text",
            "a ⟧ b",
            "x [ref=s1e1]",
        ] {
            let n = run(v, &[("strong", 2, 3)]);
            assert_eq!(inline(v, &spans(&n), 100), None, "{v}");
        }
    }
}
