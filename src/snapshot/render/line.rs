//! One node's line: the `- role "name" [flags] [ref=..]` head, its flags, text cut to a
//! length, and URLs as shown.
//!
//! Owns: the order and spelling of flags (docs/reference/output.md#flags), which values of
//! `sort` and `unseen` print, cutting. Must not: print page text other than through `safe`
//! (cut first, then quote: a cut never splits an escape), or decide which nodes are shown
//! (`shown` does).

use super::{TEXT_CUT, TEXT_KEEP};
use crate::safe::{quote, token};
use crate::snapshot::Node;
use crate::wire::Tri;
use std::fmt::Write as _;

/// Cuts `s` to `max` characters, appending `...` when it was longer. Cut the raw string,
/// then quote it: a cut never splits an escape.
pub fn cut(s: &str, max: usize) -> String {
    // masked before it is cut: a cut through a secret's value would leave a prefix the
    // vault's whole-value masking of the output no longer finds (docs/reference/policy.md)
    let s = &*crate::vault::mask(s);
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// Text or a value as the text view prints it (docs/reference/output.md#text-format): whole up
/// to [`TEXT_KEEP`] characters; a longer one cut there (with `...`), and how many characters
/// the cut left out.
pub fn kept(s: &str) -> (String, usize) {
    let s = &*crate::vault::mask(s);
    match s.char_indices().nth(TEXT_KEEP) {
        Some((i, _)) => (format!("{}...", &s[..i]), s[i..].chars().count()),
        None => (s.to_string(), 0),
    }
}

/// The flag of a line whose text [`kept`] cut: ` [cut: +N chars, get REF]` (with `--what
/// value` for a control's value: `get` reads text by default), ` [cut: +N chars]` without a
/// ref to read it by; "" when nothing was cut.
pub fn cut_flag(left: usize, read: Option<&str>, value: bool) -> String {
    if left == 0 {
        return String::new();
    }
    match read {
        Some(r) if value => format!(" [cut: +{left} chars, get {} --what value]", token(r)),
        Some(r) => format!(" [cut: +{left} chars, get {}]", token(r)),
        None => format!(" [cut: +{left} chars]"),
    }
}

/// A head (`- role "name" [flags] [ref=..]`) with `flag` put before its ref: the ref is the
/// last flag (docs/reference/output.md#what-no-page-can-forge).
pub fn before_ref(line: &str, flag: &str) -> String {
    if flag.is_empty() {
        return line.to_string();
    }
    match line.rfind(" [ref=") {
        Some(at) => format!("{}{flag}{}", &line[..at], &line[at..]),
        None => format!("{line}{flag}"),
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
    if s.clickable {
        out.push_str(" [clickable]");
    }
    out
}

/// Words an icon hint may hold (docs/reference/output.md#icon-hints).
const ICON_MAX_WORDS: usize = 4;
const ICON_MAX_LEN: usize = 40;

/// The icon hint of an unnamed node, as printed (`trash`, `arrow left`): one to four words of
/// lower-case ASCII letters and digits, a letter first, or nothing (anything else the wire
/// carried is not printed: docs/reference/output.md#what-no-page-can-forge). Never for a
/// named node: a hint is no name.
pub fn icon(n: &Node) -> Option<&str> {
    let h = n.states.icon.as_deref()?;
    let ok = n.name.is_empty()
        && !h.is_empty()
        && h.len() <= ICON_MAX_LEN
        && h.split(' ').count() <= ICON_MAX_WORDS
        && h.split(' ').all(|w| {
            w.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && !crate::refs::is_ref(w)
        });
    ok.then_some(h)
}

/// The hint after a ref (` [icon: trash]`), or nothing.
pub fn icon_suffix(n: &Node) -> String {
    icon(n).map(|h| format!(" [icon: {h}]")).unwrap_or_default()
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
        // a hint, not a flag: after the ref, where no flag goes
        line.push_str(&icon_suffix(n));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_respects_char_boundaries() {
        let s = "é".repeat(120);
        assert_eq!(cut(&s, 100).chars().count(), 103);
        assert_eq!(cut("short", 100), "short");
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
