//! Ref syntax and the messages for refs that cannot be used (docs/reference/refs.md#before-an-action).
//!
//! Owns: parsing what users type as a ref (`s1e4`, `@s1e4`, `[ref=s1e4]`, `ref=s1e4`,
//! `f0s1e4`) and the exact error texts. Must not: talk to the page.

use crate::error::{Error, RefProblem};
use crate::wire::Reply;

/// Normalizes user input to the canonical ref (`f0` is the main frame and is dropped).
pub fn parse_ref(input: &str) -> Result<String, Error> {
    let t = input.trim();
    let t = t
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .unwrap_or(t);
    let t = t.strip_prefix("ref=").unwrap_or(t);
    let t = t.strip_prefix('@').unwrap_or(t);
    let canon = t
        .strip_prefix("f0")
        .filter(|r| r.starts_with('s'))
        .unwrap_or(t);
    if is_ref(canon) {
        Ok(canon.to_string())
    } else {
        Err(Error::Ref {
            kind: RefProblem::Malformed,
            message: format!("malformed ref {input:?}: expected s<n>e<m>"),
        })
    }
}

/// True for `s<n>e<m>` or `f<k>s<n>e<m>`.
pub fn is_ref(s: &str) -> bool {
    let rest = match s.strip_prefix('f') {
        Some(r) => {
            let d = r.chars().take_while(char::is_ascii_digit).count();
            if d == 0 {
                return false;
            }
            &r[d..]
        }
        None => s,
    };
    let Some(rest) = rest.strip_prefix('s') else {
        return false;
    };
    let n = rest.chars().take_while(char::is_ascii_digit).count();
    if n == 0 {
        return false;
    }
    let Some(m) = rest[n..].strip_prefix('e') else {
        return false;
    };
    !m.is_empty() && m.chars().all(|c| c.is_ascii_digit())
}

/// The docs/reference/refs.md#before-an-action message for a stale or unknown ref reply (of any engine method).
pub fn stale_error<T>(reply: &Reply<T>) -> Error {
    let kind = match reply {
        Reply::Unknown { .. } => RefProblem::Unknown,
        Reply::Gone { .. } => RefProblem::Gone,
        Reply::Changed { .. } => RefProblem::Changed,
        Reply::Tampered { .. } => RefProblem::Tampered,
        _ => {
            return Error::Engine(
                "unexpected reply from the page engine: not a ref problem".into(),
            );
        }
    };
    let message = match reply {
        Reply::Unknown { r#ref } => {
            format!("unknown ref \"{}\": take a new snapshot", r#ref)
        }
        Reply::Gone { r#ref, role, name } => format!(
            "Element {role} {} (ref {}) no longer exists. Take a new snapshot to see the current page.",
            crate::safe::quote(name),
            r#ref
        ),
        Reply::Changed { was, now, .. } => format!(
            "Element changed since snapshot. Was: {} {}, now: {} {}. Take a new snapshot.",
            was.0,
            crate::safe::quote(&was.1),
            now.0,
            crate::safe::quote(&now.1)
        ),
        Reply::Tampered { r#ref, role, name } => format!(
            "ref {} ({role} {}) was rewritten by the page in window.__ariaRefs: refused. Take a new snapshot.",
            r#ref,
            crate::safe::quote(name)
        ),
        _ => String::new(),
    };
    Error::Ref { kind, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_spelling_parses() {
        for s in [
            "s1e4",
            "@s1e4",
            "[ref=s1e4]",
            "ref=s1e4",
            "f0s1e4",
            " s1e4 ",
        ] {
            assert_eq!(parse_ref(s).unwrap(), "s1e4", "{s}");
        }
        assert_eq!(parse_ref("f2s3e10").unwrap(), "f2s3e10");
        // typed: callers ask what is wrong, never match message text
        let e = parse_ref("x").unwrap_err();
        assert!(e.is_unknown_ref() && !e.is_stale_ref(), "{e}");
        assert_eq!(e.ref_problem(), Some(RefProblem::Malformed));
        let gone = stale_error(&Reply::<()>::Gone {
            r#ref: "s1e4".into(),
            role: "button".into(),
            name: "Submit".into(),
        });
        assert!(gone.is_stale_ref() && !gone.is_covered(), "{gone}");
    }

    #[test]
    fn malformed_refs_say_what_is_expected() {
        for s in ["x", "s1", "e4", "s1e", "fs1e4", "s1e4x", ""] {
            let e = parse_ref(s).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("malformed ref {s:?}: expected s<n>e<m>")
            );
        }
    }

    #[test]
    fn stale_messages_match_spec_2() {
        let gone = Reply::<()>::Gone {
            r#ref: "s1e4".into(),
            role: "button".into(),
            name: "Submit".into(),
        };
        assert_eq!(
            stale_error(&gone).to_string(),
            "Element button \"Submit\" (ref s1e4) no longer exists. Take a new snapshot to see the current page."
        );
        let changed = Reply::<()>::Changed {
            r#ref: "s1e4".into(),
            was: ("button".into(), "Submit".into()),
            now: ("button".into(), "Loading...".into()),
        };
        assert_eq!(
            stale_error(&changed).to_string(),
            "Element changed since snapshot. Was: button \"Submit\", now: button \"Loading...\". Take a new snapshot."
        );
        let unknown = Reply::<()>::Unknown {
            r#ref: "s9e99".into(),
        };
        assert_eq!(
            stale_error(&unknown).to_string(),
            "unknown ref \"s9e99\": take a new snapshot"
        );
    }
}
