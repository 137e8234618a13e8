//! Secret masking (docs/reference/output.md#secrets): values and text shaped like secrets (JWTs, API keys, long runs
//! of base64 or hex characters) print as `[secret:KIND N chars]` unless the user asks for
//! them (`--reveal-secrets`), so that a snapshot copied into a transcript does not carry a
//! credential the page happened to show. Password values never leave the engine (it sends
//! `••••`).
//!
//! Owns: the shapes and the masking. Must not: talk to the browser.

use super::guarded::{Guarded, guarded};
use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// `--reveal-secrets` for this process (every snapshot it takes).
static REVEAL: AtomicBool = AtomicBool::new(false);

/// Sets `--reveal-secrets` for every snapshot of this process.
pub fn set_reveal(reveal: bool) {
    REVEAL.store(reveal, Ordering::Relaxed);
}

/// Whether `--reveal-secrets` is in force for this process.
pub fn revealed() -> bool {
    REVEAL.load(Ordering::Relaxed)
}

/// A shape: its kind and its guarded pattern.
struct Shape {
    kind: &'static str,
    pat: Guarded,
}

/// Known shapes, most specific first; each names its kind. The providers' documented
/// prefixes: JWTs (RFC 7519, a base64url JSON header `eyJ...`), OpenAI and Anthropic `sk-`,
/// GitHub `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_`/`github_pat_`, AWS access key ids `AKIA`/`ASIA`,
/// Slack `xox?-`, Stripe `sk_live_`/`rk_live_`, Google API keys `AIza`. A pattern is compiled
/// and run only on text holding one of its guards (a literal part of every match): most
/// pages show none, and compiling them all cost each process about 2 ms.
static SHAPES: [Shape; 7] = [
    Shape {
        kind: "jwt",
        pat: guarded!(
            &["eyJ"],
            r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
        ),
    },
    Shape {
        kind: "api-key",
        pat: guarded!(&["sk-"], r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}"),
    },
    Shape {
        kind: "github-token",
        pat: guarded!(
            &["gh", "github_pat_"],
            r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"
        ),
    },
    Shape {
        kind: "aws-key",
        pat: guarded!(&["AKIA", "ASIA"], r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    },
    Shape {
        kind: "slack-token",
        pat: guarded!(&["xox"], r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    },
    Shape {
        kind: "stripe-key",
        pat: guarded!(&["_live_"], r"\b(?:sk|rk)_live_[A-Za-z0-9]{20,}"),
    },
    Shape {
        kind: "google-key",
        pat: guarded!(&["AIza"], r"\bAIza[0-9A-Za-z_-]{35}"),
    },
];

/// The shortest run [`RUN`] matches.
const LONG_RUN: usize = 32;

/// Runs of 32 or more hex or base64 characters (a key, a token, a hash).
static RUN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9+/_-]{32,}={0,2}").expect("secret run"));

/// The kind of a long run, or None when it reads as words rather than as a token: a run
/// counts when it is all hex with a digit and a letter, or mixes upper case, lower case and
/// digits (a long word, a slug of words with dashes, or a plain number does not).
fn run_kind(run: &str) -> Option<&'static str> {
    let body = run.trim_end_matches('=');
    let digits = body.bytes().filter(u8::is_ascii_digit).count();
    let upper = body.bytes().filter(u8::is_ascii_uppercase).count();
    let lower = body.bytes().filter(u8::is_ascii_lowercase).count();
    if body.bytes().all(|b| b.is_ascii_hexdigit()) {
        return (digits > 0 && upper + lower > 0).then_some("hex");
    }
    // words joined by dashes or underscores (a URL slug) are not a token
    let longest_part = body
        .split(['-', '_', '/', '+'])
        .map(str::len)
        .max()
        .unwrap_or(0);
    if longest_part < 24 {
        return None;
    }
    (digits >= 2 && upper >= 2 && lower >= 2).then_some("base64")
}

/// The fewest consecutive token characters (`[A-Za-z0-9_+/-]`) any shape needs: a JWT's
/// first part, `eyJ` and 8 more, is the shortest (the others need 15 or more; a long run 32).
const MIN_TOKEN_RUN: usize = 11;

/// The longest run of token characters (`[A-Za-z0-9_+/-]`) in `s`: every shape matches
/// inside a run of [`MIN_TOKEN_RUN`] or more, and [`RUN`] inside one of [`LONG_RUN`].
fn longest_token_run(s: &str) -> usize {
    let (mut run, mut longest) = (0, 0);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+' | b'/') {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

/// Whether `s` has a run of [`MIN_TOKEN_RUN`] token characters: a text without one holds
/// no secret.
#[cfg(test)]
fn has_token_run(s: &str) -> bool {
    longest_token_run(s) >= MIN_TOKEN_RUN
}

fn label(kind: &str, s: &str) -> String {
    format!("[secret:{kind} {} chars]", s.chars().count())
}

/// `s` with every secret-shaped part replaced by `[secret:KIND N chars]`.
pub fn mask(s: &str) -> Cow<'_, str> {
    // quick exit: nothing long enough to be a secret, and no run of token characters as
    // long as the shortest shape needs (so most text never compiles or runs a regex)
    if s.len() < 20 {
        return Cow::Borrowed(s);
    }
    let longest = longest_token_run(s);
    if longest < MIN_TOKEN_RUN {
        return Cow::Borrowed(s);
    }
    let mut out = Cow::Borrowed(s);
    for sh in &SHAPES {
        if sh.pat.is_match(&out) {
            out = Cow::Owned(
                sh.pat
                    .re
                    .replace_all(&out, |c: &regex::Captures<'_>| label(sh.kind, &c[0]))
                    .into_owned(),
            );
        }
    }
    // masking only shortens runs: a text without a long run before has none after
    if longest >= LONG_RUN && RUN.is_match(&out) {
        let replaced = RUN.replace_all(&out, |c: &regex::Captures<'_>| match run_kind(&c[0]) {
            Some(kind) => label(kind, &c[0]),
            None => c[0].to_string(),
        });
        if let Cow::Owned(o) = replaced {
            out = Cow::Owned(o);
        }
    }
    out
}

/// Masks `v` in place; true when something was masked.
pub fn mask_in_place(v: &mut String) -> bool {
    match mask(v) {
        Cow::Owned(m) if m != *v => {
            *v = m;
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_shapes_are_masked_with_their_kind_and_length() {
        let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        assert_eq!(
            mask(&format!("token: {jwt} (expires soon)")),
            format!("token: [secret:jwt {} chars] (expires soon)", jwt.len())
        );
        for (s, kind) in [
            ("sk-proj-Abcdefghijklmnop1234567890", "api-key"),
            ("ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123", "github-token"),
            ("AKIAIOSFODNN7EXAMPLE", "aws-key"),
            ("xoxb-1234567890-abcdefghij", "slack-token"),
            ("AIzaSyA-1234567890abcdefghijklmnopqrstu", "google-key"),
        ] {
            let m = mask(s);
            assert_eq!(m, format!("[secret:{kind} {} chars]", s.len()), "{s}");
        }
    }

    #[test]
    fn long_runs_of_hex_or_base64_are_masked() {
        let hex = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        assert_eq!(mask(hex), "[secret:hex 64 chars]");
        let b64 = "dGhpcyBpcyBhIHNlY3JldCBrZXkgZm9yIHRlc3Rpbmc9PQ==";
        assert_eq!(mask(&format!("key={b64}")), "key=[secret:base64 48 chars]");
    }

    #[test]
    fn words_numbers_and_slugs_stay() {
        for s in [
            "Supercalifragilisticexpialidocious and antidisestablishmentarianism",
            "12345678901234567890123456789012345",
            "/blog/how-to-make-the-best-cup-of-tea-in-the-world-2024",
            "Order 2024-11-23, total 31.90 EUR",
            "short sk-123",
            "https://example.org/images/photo_of_the_day_2024_11_23.jpg",
        ] {
            assert_eq!(mask(s), s, "{s}");
        }
    }

    #[test]
    fn masking_in_place_says_whether_it_did() {
        let mut v = "AKIAIOSFODNN7EXAMPLE".to_string();
        assert!(mask_in_place(&mut v));
        assert_eq!(v, "[secret:aws-key 20 chars]");
        let mut w = "plain".to_string();
        assert!(!mask_in_place(&mut w));
    }

    #[test]
    fn the_token_run_prefilter_never_hides_a_shape() {
        // every shape at its shortest, alone and between words: the prefilter lets it through
        for short in [
            "eyJabcdefgh.abcdefgh.abcdefgh",
            "sk-abcdefghij0123456789",
            "ghp_abcdefghijklmnopqrstuvwxyz0123",
            "AKIA0123456789ABCDEF",
            "xoxb-0123456789",
            "sk_live_abcdefghij0123456789",
            "AIza01234567890123456789012345678901234",
        ] {
            assert!(has_token_run(short), "{short}");
            // (texts under 20 characters are never masked, prefilter or not)
            let s = format!("see {short} here");
            assert!(has_token_run(&s), "{s}");
            assert_ne!(mask(&s), s, "{s}");
        }
        // and the prefilter agrees with the regexes on text it turns away: no match there
        let mut seed = 7u64;
        let alphabet = b"aZ09_-+/. =eyJskAIzaxoxb";
        for _ in 0..5000 {
            let len = 20 + (seed % 60) as usize;
            let s: String = (0..len)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    alphabet[(seed >> 33) as usize % alphabet.len()] as char
                })
                .collect();
            if !has_token_run(&s) {
                assert!(
                    SHAPES.iter().all(|sh| !sh.pat.re.is_match(&s)) && !RUN.is_match(&s),
                    "{s}"
                );
            }
            // a shape matches only text holding one of its guards, a long run only text
            // with a run of LONG_RUN
            for sh in &SHAPES {
                if sh.pat.re.is_match(&s) {
                    assert!(sh.pat.may_match(&s), "{} {s}", sh.kind);
                }
            }
            if RUN.is_match(&s) {
                assert!(longest_token_run(&s) >= LONG_RUN, "{s}");
            }
        }
    }
}
