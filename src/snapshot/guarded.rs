//! Patterns compiled on first use and run only on text that could match them: each has
//! guards, literals every match contains (at least one of them). Most text holds none, and
//! compiling every pattern cost each process about 2 ms (secret shapes, page-wall titles).
//!
//! Owns: the guard test and the lazy pattern. Must not: know what a pattern is for.

use regex::Regex;
use std::sync::LazyLock;

/// A pattern and its guards.
pub struct Guarded {
    /// Literals every match contains, at least one of them (lower case when `fold`).
    pub guards: &'static [&'static str],
    /// The guards compare ignoring ASCII case (for a `(?i)` pattern). Text with a
    /// non-ASCII character then always runs the pattern: Unicode case folding can match
    /// `k` with the Kelvin sign.
    pub fold: bool,
    pub re: LazyLock<Regex>,
}

/// A [`Guarded`] pattern: `guarded!(guards, pattern)`, or `guarded!(fold: guards, pattern)`
/// for a `(?i)` pattern whose guards compare ignoring case.
macro_rules! guarded {
    (fold: $guards:expr, $re:expr) => {
        $crate::snapshot::guarded::Guarded {
            guards: $guards,
            fold: true,
            re: std::sync::LazyLock::new(|| regex::Regex::new($re).expect($re)),
        }
    };
    ($guards:expr, $re:expr) => {
        $crate::snapshot::guarded::Guarded {
            guards: $guards,
            fold: false,
            re: std::sync::LazyLock::new(|| regex::Regex::new($re).expect($re)),
        }
    };
}
pub(crate) use guarded;

impl Guarded {
    /// Whether `text` holds one of the guards (so the pattern may match it).
    pub fn may_match(&self, text: &str) -> bool {
        if !self.fold {
            return self.guards.iter().any(|g| text.contains(g));
        }
        if !text.is_ascii() {
            return true;
        }
        let t = text.as_bytes();
        self.guards.iter().any(|g| {
            t.windows(g.len())
                .any(|w| w.eq_ignore_ascii_case(g.as_bytes()))
        })
    }

    /// Whether the pattern matches `text` (compiled on the first text that may match).
    pub fn is_match(&self, text: &str) -> bool {
        self.may_match(text) && self.re.is_match(text)
    }
}

#[cfg(test)]
mod tests {
    static PLAIN: super::Guarded = guarded!(&["AKIA"], r"\bAKIA[0-9A-Z]{4}\b");
    static FOLDED: super::Guarded = guarded!(fold: &["blocked"], r"(?i)\bblocked\b");

    #[test]
    fn guards_decide_whether_the_pattern_runs() {
        assert!(PLAIN.is_match("key AKIA1234 here"));
        // case counts without `fold`
        assert!(!PLAIN.may_match("akia1234"));
        assert!(FOLDED.may_match("You have been BLOCKED"));
        assert!(FOLDED.is_match("You have been BLOCKED"));
        assert!(!FOLDED.may_match("Shop"));
        assert!(!FOLDED.is_match("Shop"));
        // a guard longer than the text
        assert!(!FOLDED.may_match("blo"));
        // non-ASCII text always runs a folded pattern: the Kelvin sign folds to k
        let kelvin = "You have been bloc\u{212A}ed";
        assert!(FOLDED.may_match(kelvin));
        assert!(FOLDED.is_match(kelvin));
    }
}
