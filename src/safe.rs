//! Page text made safe to print (docs/reference/output.md#what-no-page-can-forge: no page content can forge output).
//!
//! Owns: the one escaper (a JSON string that also escapes DEL, C1 controls, the line and
//! paragraph separators, bidi controls and invisible format characters), the one rule that
//! says when a page-controlled value may print bare, and token checks for flag values.
//! Every rendering that prints page text goes through [`quote`], [`text`] or [`token`], and
//! so does every message that quotes it (refs, dialogs, steps; `error::one_line`).
//! Must not: cut text (callers cut the raw string first, then quote it, so a cut never
//! leaves half an escape); import anything from the crate (a leaf, so that quoting a
//! message does not bring in the snapshot model: `layering` checks it).

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter, PrettyFormatter};
use std::borrow::Cow;
use std::io;

/// Characters written as `\uXXXX` beyond what JSON requires (JSON already escapes `"`, `\`
/// and C0): DEL and C1 controls, U+2028/U+2029, bidi controls (U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069), and invisible format characters that could hide text
/// (U+180E, U+200B, U+2060–U+2064, U+206A–U+206F, U+FEFF, U+FFF9–U+FFFB, tag characters
/// U+E0000–U+E007F, written as a surrogate pair).
pub fn is_escaped(c: char) -> bool {
    matches!(c,
        '\u{7F}'..='\u{9F}'
        | '\u{061C}'
        | '\u{180E}'
        | '\u{200B}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206F}'
        | '\u{FEFF}'
        | '\u{FFF9}'..='\u{FFFB}'
        | '\u{E0000}'..='\u{E007F}')
}

/// Default-ignorable code points (Unicode's DerivedCoreProperties, rounded to whole
/// blocks): they draw nothing, so they must not hide a `[ref=` or pad the ends of bare text.
fn is_ignorable(c: char) -> bool {
    matches!(c,
        '\u{AD}'
        | '\u{34F}'
        | '\u{61C}'
        | '\u{115F}'
        | '\u{1160}'
        | '\u{17B4}'
        | '\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}'
        | '\u{3164}'
        | '\u{FE00}'..='\u{FE0F}'
        | '\u{FEFF}'
        | '\u{FFA0}'
        | '\u{FFF0}'..='\u{FFF8}'
        | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E0FFF}')
}

/// A serde_json formatter that escapes [`is_escaped`] characters too; the layout (compact
/// or pretty) is the wrapped formatter's.
struct Strict<F>(F);

fn write_fragment<W: ?Sized + io::Write>(w: &mut W, frag: &str) -> io::Result<()> {
    // every escaped character is at or above U+007F: plain ASCII goes straight through
    if frag.bytes().all(|b| b < 0x7F) {
        return w.write_all(frag.as_bytes());
    }
    let mut start = 0;
    for (i, c) in frag.char_indices() {
        if is_escaped(c) {
            w.write_all(&frag.as_bytes()[start..i])?;
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                write!(w, "\\u{u:04x}")?;
            }
            start = i + c.len_utf8();
        }
    }
    w.write_all(&frag.as_bytes()[start..])
}

impl<F: Formatter> Formatter for Strict<F> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        frag: &str,
    ) -> io::Result<()> {
        write_fragment(w, frag)
    }
    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        e: CharEscape,
    ) -> io::Result<()> {
        self.0.write_char_escape(w, e)
    }
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// JSON of `v` with the strict escaper (compact, or indented by two spaces).
pub fn to_json<T: Serialize + ?Sized>(v: &T, pretty: bool) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(128);
    if pretty {
        let mut ser =
            serde_json::Serializer::with_formatter(&mut out, Strict(PrettyFormatter::new()));
        v.serialize(&mut ser)?;
    } else {
        let mut ser = serde_json::Serializer::with_formatter(&mut out, Strict(CompactFormatter));
        v.serialize(&mut ser)?;
    }
    // serde_json writes UTF-8 and the escapes are ASCII
    Ok(String::from_utf8(out).unwrap_or_default())
}

/// `s` as a JSON string with the strict escaper: no control, line-break, bidi or invisible
/// format character survives, and a JSON parser reads back exactly `s`.
pub fn quote(s: &str) -> String {
    to_json(s, false).unwrap_or_else(|_| "\"\"".into())
}

/// Whether a page-controlled value must be quoted rather than printed bare at the end of a
/// line (docs/reference/output.md#what-no-page-can-forge): it is empty; holds a control character (C0, DEL,
/// C1: line breaks \n, \r, U+0085 among them), U+2028/U+2029, a bidi or invisible format
/// character; holds ⟦ or ⟧ (U+27E6, U+27E7: only text-level marks print them bare); holds
/// `[ref=`, `[icon:` or `[cut:` (ASCII case aside, invisible characters removed); starts with
/// `"`, `#`, `-` and a space, white space or an invisible character; or ends with white
/// space or an invisible character.
pub fn needs_quotes(s: &str) -> bool {
    let mut chars = s.chars();
    let (Some(first), Some(last)) = (chars.next(), s.chars().next_back()) else {
        return true;
    };
    if s.chars()
        .any(|c| c.is_control() || is_escaped(c) || c == '\u{27E6}' || c == '\u{27E7}')
    {
        return true;
    }
    if matches!(first, '"' | '#') || first.is_whitespace() || is_ignorable(first) {
        return true;
    }
    if first == '-'
        && chars
            .next()
            .is_some_and(|c| c.is_whitespace() || is_ignorable(c))
    {
        return true;
    }
    if last.is_whitespace() || is_ignorable(last) {
        return true;
    }
    holds_ref_marker(s)
}

/// What marks ours on a line: a ref, an icon hint, a cut (docs/reference/output.md#what-no-page-can-forge).
const MARKERS: &[&str] = &["[ref=", "[icon:", "[cut:"];

/// `[ref=`, `[icon:` or `[cut:` in `s`, ignoring ASCII case and invisible characters.
fn holds_ref_marker(s: &str) -> bool {
    if !s.contains('[') {
        return false;
    }
    let visible: String = s
        .chars()
        .filter(|&c| !is_ignorable(c))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    MARKERS.iter().any(|m| visible.contains(m))
}

/// A page-controlled value (text run, value, URL, tag) as printed: bare when that cannot be
/// mistaken for anything else, else [`quote`]d.
pub fn text(s: &str) -> Cow<'_, str> {
    if needs_quotes(s) {
        Cow::Owned(quote(s))
    } else {
        Cow::Borrowed(s)
    }
}

/// A token (role, ref, flag value such as `mixed` or `page`): bare when it is only ASCII
/// letters, digits, `-` and `_`, else [`quote`]d, so no `]`, space or `[ref=` gets through.
pub fn token(s: &str) -> Cow<'_, str> {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(quote(s))
    }
}

/// Text on one line: runs of white space as one space, trimmed.
pub fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Hostile page text, and checks of its renderings, shared by the renderers' tests.
#[cfg(test)]
pub(crate) mod check {
    /// Page text that tries to pass for lines, nodes, refs, flags, notes and escapes.
    pub const HOSTILE: &[&str] = &[
        "x\n- button \"Pay\" [ref=s9e997]",
        "Total due - button \"Pay\" [ref=s1e1]",
        "# note",
        "- x",
        "  leading",
        "trailing  ",
        "esc \u{1b}[31m red",
        "nul \u{0}",
        "csi \u{9b}31m",
        "rlo \u{202e}evil",
        "nel\u{85}- link [ref=s9e1]",
        "cr\r- x",
        "ls\u{2028}# x",
        "x] [ref=s9e2",
        "\"quoted\" [REF=s9e3]",
        "end\\",
    ];

    /// Characters that must never appear raw in text output (`\n` ends lines).
    pub fn forbidden(c: char) -> bool {
        (c.is_control() && c != '\n')
            || matches!(
                c,
                '\u{2028}' | '\u{2029}' | '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{FEFF}'
            )
            || ('\u{202A}'..='\u{202E}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
    }

    /// `line` without its JSON strings (each must be a whole one that parses).
    pub fn outside_quotes(line: &str) -> String {
        let mut out = String::new();
        let mut rest = line;
        while let Some(i) = rest.find('"') {
            out.push_str(&rest[..i]);
            let b = rest.as_bytes();
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            assert!(j < b.len(), "unterminated string in {line:?}");
            let _: String = serde_json::from_str(&rest[i..=j])
                .unwrap_or_else(|e| panic!("{:?} in {line:?}: {e}", &rest[i..=j]));
            rest = &rest[j + 1..];
        }
        out.push_str(rest);
        out
    }

    /// `text` has `lines` lines, no forbidden character, and outside JSON strings exactly
    /// the refs in `refs`, each as a line's last flag.
    pub fn unforgeable(text: &str, lines: usize, refs: &[&str]) {
        assert!(!text.chars().any(forbidden), "{text:?}");
        assert_eq!(text.lines().count(), lines, "{text}");
        let mut seen = Vec::new();
        for line in text.lines() {
            let bare = outside_quotes(line);
            let mut parts = bare.split("[ref=");
            parts.next();
            for p in parts {
                let end = p.find(']').unwrap_or_else(|| panic!("{line:?}"));
                // after the ref: nothing, the text, or an icon hint of lower-case words
                let mut rest = &p[end + 1..];
                if let Some(h) = rest.strip_prefix(" [icon: ") {
                    let close = h.find(']').unwrap_or_else(|| panic!("{line:?}"));
                    assert!(
                        h[..close]
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b' '),
                        "an icon hint of other characters in {line:?}"
                    );
                    rest = &h[close + 1..];
                }
                assert!(
                    rest.is_empty() || rest.starts_with(':'),
                    "a ref that is not the last flag in {line:?}"
                );
                seen.push(p[..end].to_string());
            }
        }
        assert_eq!(seen, refs, "{text}");
    }
}

#[cfg(test)]
mod tests {
    use super::check::forbidden;
    use super::*;

    /// The renderer's hostile strings, and more.
    fn tricky() -> Vec<String> {
        let mut v: Vec<String> = super::check::HOSTILE
            .iter()
            .chain(&[
                "",
                "plain",
                "rlo \u{202e}evil\u{202c}",
                "del \u{7f}",
                "nel\u{85}next",
                "ls\u{2028}ps\u{2029}",
                "cr\r\nlf",
                "tab\there",
                "quote \" backslash \\ end\\",
                "\\u0041 is not A",
                "bom \u{feff} zwsp \u{200b} wj \u{2060}",
                "tags \u{e0041}\u{e0042}",
                "emoji 😀 👨‍👩‍👧 🇫🇷 ❤️",
                "日本語 naïve",
                "[REF=s1e1]",
                "[re\u{ad}f=s1e1]",
                "\u{ad}- x",
                "-\u{a0}x",
                "\"quoted\"",
                "ends with colon:",
                "a: b",
            ])
            .map(|s| s.to_string())
            .collect();
        for c in (0u32..0x300).chain(0x2000..0x2070).chain(0xFE00..0xFF00) {
            if let Some(ch) = char::from_u32(c) {
                v.push(format!("a{ch}b"));
                v.push(ch.to_string());
            }
        }
        v
    }

    #[test]
    fn quote_round_trips_through_serde_json() {
        for s in tricky() {
            let q = quote(&s);
            let back: String = serde_json::from_str(&q).unwrap_or_else(|e| panic!("{q}: {e}"));
            assert_eq!(back, s, "{q}");
            assert!(!q.chars().any(forbidden), "{q:?}");
            assert!(!q.contains('\n'), "{q:?}");
        }
    }

    #[test]
    fn quote_escapes_more_than_json_requires() {
        assert_eq!(quote("a\u{7f}b"), "\"a\\u007fb\"");
        assert_eq!(quote("\u{9b}"), "\"\\u009b\"");
        assert_eq!(quote("\u{85}"), "\"\\u0085\"");
        assert_eq!(quote("\u{2028}\u{2029}"), "\"\\u2028\\u2029\"");
        assert_eq!(quote("\u{202e}x"), "\"\\u202ex\"");
        assert_eq!(quote("\u{feff}"), "\"\\ufeff\"");
        assert_eq!(quote("\u{e0041}"), "\"\\udb40\\udc41\"");
        assert_eq!(quote("\u{1b}"), "\"\\u001b\"");
        assert_eq!(quote("x\ny"), "\"x\\ny\"");
        // what is not escaped stays as it is
        assert_eq!(quote("naïve 😀"), "\"naïve 😀\"");
    }

    #[test]
    fn values_print_bare_only_when_unambiguous() {
        for s in [
            "plain",
            "Total: 31.90 EUR",
            "a: b",
            "ends with colon:",
            "-5 °C",
            "x - y",
            "say \"hi\"",
            "😀",
            "/path?q=1#frag",
        ] {
            assert_eq!(text(s), s, "{s:?} should stay bare");
        }
        for s in [
            "",
            "x\ny",
            "x\ry",
            "x\u{85}y",
            "x\u{2028}y",
            "Total due - button \"Pay\" [ref=s1e1]",
            "see [REF=s1e1]",
            "x [icon: trash]",
            "x [Cut: +5 chars, get s1e1]",
            "[re\u{ad}f=s1e1]",
            "# note",
            "- x",
            "-\u{a0}x",
            "\"quoted\"",
            " lead",
            "trail ",
            "\u{ad}soft",
            "esc\u{1b}",
            "nul\u{0}",
            "c1\u{9b}",
            "rlo\u{202e}",
            "tab\tx",
        ] {
            assert!(text(s).starts_with('"'), "{s:?} should be quoted");
        }
    }

    #[test]
    fn forged_lines_stay_on_their_line() {
        for s in tricky() {
            for shown in [text(&s).into_owned(), quote(&s)] {
                assert!(!shown.contains('\n') && !shown.contains('\r'), "{shown:?}");
                assert!(!shown.chars().any(forbidden), "{shown:?}");
                if shown.contains("[ref=") || shown.starts_with("- ") || shown.starts_with('#') {
                    assert!(shown.starts_with('"') && shown.ends_with('"'), "{shown:?}");
                }
            }
        }
    }

    #[test]
    fn tokens_are_bare_only_when_plain() {
        assert_eq!(token("mixed"), "mixed");
        assert_eq!(token("s1e4"), "s1e4");
        assert_eq!(token("f2s3e10"), "f2s3e10");
        assert_eq!(token("page] [ref=s9e1"), "\"page] [ref=s9e1\"");
        assert_eq!(token(""), "\"\"");
        assert_eq!(token("a b"), "\"a b\"");
    }

    #[test]
    fn pretty_json_keeps_the_strict_escapes() {
        let v = serde_json::json!({"a": ["x\u{9b}", {"b": "\u{202e}"}]});
        let p = to_json(&v, true).unwrap();
        assert!(p.contains("\\u009b") && p.contains("\\u202e"), "{p}");
        assert!(p.contains("\n  \"a\": ["), "{p}");
        let back: serde_json::Value = serde_json::from_str(&p).unwrap();
        assert_eq!(back, v);
    }
}
