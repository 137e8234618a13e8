//! Decoding an engine reply: the payload of a success, or the typed error an expected
//! failure stands for (docs/reference/refs.md#before-an-action messages for refs; usage errors for bad selectors, patterns
//! and `get` fields; step errors for what the page cannot do).
//!
//! Owns: the text of every error a reply becomes. Must not: call the page.

use crate::error::{Error, RefProblem, Result};
use crate::refs::stale_error;
use crate::wire::{self, Reply};
use serde::de::DeserializeOwned;

/// What the error of `comboOption` says when the popup showed options and none matched
/// (`set` waits for options to come, not for other ones to replace those of a list that is
/// all there).
pub const OPTIONS_SHOWN: &str = "; the options shown are: ";

/// Whether an error is `comboOption`'s, about options that were shown and did not match.
pub fn options_were_shown(e: &Error) -> bool {
    matches!(e, Error::Step(m) if m.contains(OPTIONS_SHOWN))
}

/// Decodes the JSON text the page returned into the method's payload `T`; tagged failures
/// become errors.
pub(super) fn decode<T: DeserializeOwned>(raw: &str) -> Result<T> {
    let raw = &*wire::mend_surrogates(raw);
    match wire::decode_reply::<T>(raw) {
        Ok(Reply::Ok(t)) => Ok(t),
        Ok(failed) => Err(failure(failed, raw)),
        Err(source) => match wire::reply_kind(raw) {
            // a failure of a kind this build does not know
            Some(kind) if !wire::is_success(kind) => Err(unexpected(kind, raw)),
            _ => Err(Error::Json {
                what: "the page engine",
                source,
            }),
        },
    }
}

/// The error a failed reply stands for.
fn failure<T>(reply: Reply<T>, raw: &str) -> Error {
    match reply {
        Reply::Unknown { .. }
        | Reply::Gone { .. }
        | Reply::Changed { .. }
        | Reply::Tampered { .. } => stale_error(&reply),
        Reply::Covered(c) => Error::Ref {
            kind: RefProblem::Covered,
            message: format!(
                "{} {} (ref {}) is covered by {} {}: dismiss it first",
                c.role,
                json(&c.name),
                c.r#ref,
                c.by.role,
                json(&c.by.name)
            ),
        },
        Reply::Clipped(c) => Error::Ref {
            kind: RefProblem::Covered,
            message: format!(
                "{} {} (ref {}) is out of sight, cut off by {} {} (its overflow is hidden and \
                 does not scroll to it): show it with the page's own controls first",
                c.role,
                json(&c.name),
                c.r#ref,
                c.by.role,
                json(&c.by.name)
            ),
        },
        Reply::Invisible(t) => Error::Step(format!(
            "{} {} (ref {}) has no size on screen: it cannot be clicked; take a new snapshot",
            t.role,
            json(&t.name),
            t.r#ref
        )),
        Reply::NotSelect(t) => Error::Step(format!(
            "{} {} is not a native <select>: click it, then click the option",
            t.role,
            json(&t.name)
        )),
        Reply::NoOption {
            missing, available, ..
        } => Error::Step(format!(
            "no option {} in this select; options are: {}",
            json(&missing),
            json(&available)
        )),
        Reply::NotSettable(t) => Error::Step(format!(
            "{} {} is not a date, time, colour or range input",
            t.role,
            json(&t.name)
        )),
        Reply::NoComboOption {
            r#ref,
            value,
            available,
            what,
            typed,
        } => {
            let what = if what == "listbox" {
                "listbox"
            } else {
                "combobox"
            };
            let free = if typed {
                ", or fill the field to keep free text"
            } else {
                ""
            };
            if available.is_empty() {
                Error::Step(format!(
                    "no option of {what} {ref} matches {}: it showed no options (check the \
                     spelling{free})",
                    json(&value),
                    ref = r#ref
                ))
            } else {
                Error::Step(format!(
                    "no option of {what} {ref} matches {}{OPTIONS_SHOWN}{} (set one of \
                     them{free})",
                    json(&value),
                    json(&available),
                    ref = r#ref
                ))
            }
        }
        Reply::NoRoot { root } => {
            Error::Step(format!("--root {root:?} matches nothing on this page"))
        }
        Reply::BadSelector {
            root: Some(root), ..
        } => Error::Usage(format!(
            "--root {root:?} is neither a ref, role=ROLE nor a valid CSS selector"
        )),
        Reply::BadSelector { selector, .. } => {
            Error::Usage(format!("invalid CSS selector {}", json(&selector)))
        }
        Reply::BadWhat { what } => Error::Usage(format!(
            "get: unknown {}: use text, value, name, role, html, box or attr:NAME",
            json(&what)
        )),
        Reply::BadPattern { pattern } => {
            Error::Usage(format!("invalid regular expression {}", json(&pattern)))
        }
        r @ (Reply::NoForm(_)
        | Reply::NoMatch { .. }
        | Reply::BadRange { .. }
        | Reply::NoSelectionApi { .. }) => step_failure(r, raw),
        Reply::Exception { message } => threw(message.as_deref()),
        Reply::BadMethod { .. } => threw(None),
        Reply::NotFocusable(_) => unexpected("not_focusable", raw),
        Reply::NotMultiple { .. } => unexpected("not_multiple", raw),
        Reply::Ok(_) => unexpected("ok", raw),
    }
}

/// The failures of the entry points of single steps (`submit`, `selectText`).
fn step_failure<T>(reply: Reply<T>, raw: &str) -> Error {
    match reply {
        Reply::NoForm(t) => Error::Step(format!(
            "{} {}{} is neither a form nor inside one: give the form's ref (or a control \
             inside it) or a CSS selector such as \"form#signup\"",
            t.role,
            json(&t.name),
            if t.r#ref.is_empty() {
                String::new()
            } else {
                format!(" (ref {})", t.r#ref)
            }
        )),
        Reply::NoMatch { selector } => Error::Step(format!(
            "selector {} matches nothing on this page: check it against a snapshot",
            json(&selector)
        )),
        Reply::BadRange {
            r#ref,
            start,
            end,
            length,
        } => Error::Usage(format!(
            "selectText {ref}: end {end} is before start {start} (the text has {length} \
             characters)",
            ref = r#ref
        )),
        Reply::NoSelectionApi {
            r#ref,
            role,
            name,
            kind,
        } => Error::Step(format!(
            "{role} {} (ref {ref}) is an input of type {} whose value cannot be selected in \
             part (HTML's selection API skips it): leave start and end out to select all of it",
            json(&name),
            json(&kind),
            ref = r#ref
        )),
        _ => unexpected("ok", raw),
    }
}

fn threw(message: Option<&str>) -> Error {
    Error::Engine(format!(
        "the engine threw in the page: {}",
        message.unwrap_or("unknown failure")
    ))
}

/// A reply no caller expects: its kind and the whole reply, for a bug report.
fn unexpected(kind: &str, raw: &str) -> Error {
    let reply = serde_json::from_str::<serde_json::Value>(raw)
        .map(|v| v.to_string())
        .unwrap_or_else(|_| raw.to_string());
    Error::Engine(format!("unexpected engine reply {kind:?}: {reply}"))
}

/// A value as JSON text (strings quoted and escaped, as messages quote page text).
fn json<T: serde::Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{CheckedReply, PointReply, WireSince};

    #[test]
    fn exceptions_become_errors() {
        let e = decode::<PointReply>(r#"{"kind":"exception","message":"boom"}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "page engine error: the engine threw in the page: boom"
        );
        let e = decode::<PointReply>(r#"{"kind":"bad_method","method":"x"}"#).unwrap_err();
        assert!(e.to_string().ends_with("unknown failure"), "{e}");
    }

    #[test]
    fn successes_and_untagged_replies_decode_straight() {
        let p: PointReply = decode(
            r#"{"kind":"ok","x":10,"y":20.5,"role":"button","name":"Pay","minor":true,"tag":"button","engine_ms":0.2}"#,
        )
        .unwrap();
        assert_eq!((p.x, p.y, p.minor), (10.0, 20.5, true));
        let s: WireSince = decode(r#"{"unchanged":true,"known":true,"engine_ms":0}"#).unwrap();
        assert!(s.unchanged && s.known);
        let c: CheckedReply =
            decode(r#"{"kind":"ok","checked":"mixed","role":"checkbox","name":"All"}"#).unwrap();
        assert_eq!(c.checked.to_string(), "\"mixed\"");
        assert!(!c.checked.is_true());
    }

    #[test]
    fn covered_replies_name_the_overlay() {
        let raw = r#"{"kind": "covered", "x": 1, "y": 2, "ref": "s1e4", "role": "button", "name": "Pay", "by": {"role": "dialog", "name": "Cookie banner"}}"#;
        let raw = raw.replace("\": ", "\":").replace(", \"", ",\"");
        let e = decode::<PointReply>(&raw).unwrap_err();
        assert!(e.is_covered());
        assert_eq!(
            e.to_string(),
            "button \"Pay\" (ref s1e4) is covered by dialog \"Cookie banner\": dismiss it first"
        );
        let raw = r#"{"kind":"clipped","ref":"s1e5","role":"link","name":"Slide 4","by":{"role":"region","name":"Slides"}}"#;
        let e = decode::<PointReply>(raw).unwrap_err();
        assert!(e.is_covered());
        assert_eq!(
            e.to_string(),
            "link \"Slide 4\" (ref s1e5) is out of sight, cut off by region \"Slides\" (its \
             overflow is hidden and does not scroll to it): show it with the page's own controls \
             first"
        );
    }

    #[test]
    fn ref_problems_are_typed() {
        let e = decode::<PointReply>(
            r#"{"kind":"gone","ref":"s1e4","role":"button","name":"Submit","hidden":true}"#,
        )
        .unwrap_err();
        assert!(e.is_stale_ref(), "{e}");
        assert_eq!(
            e.to_string(),
            "Element button \"Submit\" (ref s1e4) no longer exists. Take a new snapshot to see the current page."
        );
        let e = decode::<PointReply>(r#"{"kind":"unknown","ref":"s9e9"}"#).unwrap_err();
        assert!(e.is_unknown_ref(), "{e}");
        let e = decode::<PointReply>(
            r#"{"kind":"changed","ref":"s1e4","was":["button","A"],"now":["link","A"]}"#,
        )
        .unwrap_err();
        assert_eq!(e.ref_problem(), Some(RefProblem::Changed));
    }

    #[test]
    fn vocabulary_replies_and_failures() {
        let r: crate::wire::SubmitReply = decode(
            r#"{"kind":"ok","form":{"ref":"s2e1","role":"form","name":"Sign up"},"valid":false,"submitted":false,"navigating":false,"invalid":[{"ref":"s1e3","role":"textbox","name":"Email","message":"Please enter an email address."}],"engine_ms":1}"#,
        )
        .unwrap();
        assert!(!r.valid);
        assert_eq!(
            r.invalid[0].message.as_deref(),
            Some("Please enter an email address.")
        );
        let e = decode::<crate::wire::SubmitReply>(
            r#"{"kind":"no_form","ref":"s1e9","role":"paragraph","name":""}"#,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "paragraph \"\" (ref s1e9) is neither a form nor inside one: give the form's ref (or a \
             control inside it) or a CSS selector such as \"form#signup\""
        );
        let e = decode::<crate::wire::SubmitReply>(r##"{"kind":"no_match","selector":"#nope"}"##)
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("selector \"#nope\" matches nothing"),
            "{e}"
        );
        let e = decode::<crate::wire::SelectTextReply>(
            r#"{"kind":"bad_range","ref":"s1e2","start":5,"end":2,"length":9}"#,
        )
        .unwrap_err();
        assert_eq!(e.exit_code(), 2);
        let e = decode::<crate::wire::SelectTextReply>(
            r#"{"kind":"no_selection_api","ref":"s1e2","role":"textbox","name":"Email","type":"email"}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("an input of type \"email\""), "{e}");
    }

    #[test]
    fn failures_keep_their_messages() {
        let msg = |raw: &str| decode::<PointReply>(raw).unwrap_err().to_string();
        assert_eq!(
            msg(r#"{"kind":"no_option","ref":"s1e2","missing":["x"],"available":["a","b"]}"#),
            r#"no option ["x"] in this select; options are: ["a","b"]"#
        );
        assert_eq!(
            msg(r#"{"kind":"bad_selector","selector":"a[["}"#),
            r#"invalid CSS selector "a[[""#
        );
        assert_eq!(
            msg(r#"{"kind":"bad_selector","root":"a[["}"#),
            r#"--root "a[[" is neither a ref, role=ROLE nor a valid CSS selector"#
        );
        assert_eq!(
            msg(r#"{"kind":"no_root","root":"role=main"}"#),
            r#"--root "role=main" matches nothing on this page"#
        );
        assert_eq!(
            msg(r#"{"kind":"bad_what","what":"colour"}"#),
            r#"get: unknown "colour": use text, value, name, role, html, box or attr:NAME"#
        );
        assert_eq!(
            msg(r#"{"kind":"not_multiple","ref":"s1e2","engine_ms":0}"#),
            r#"page engine error: unexpected engine reply "not_multiple": {"kind":"not_multiple","ref":"s1e2","engine_ms":0}"#
        );
        assert!(msg(r#"{"kind":"future","x":1}"#).contains("unexpected engine reply \"future\""));
    }
}
