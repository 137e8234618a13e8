//! Typing a named secret (docs/reference/policy.md#secrets): the value the operator gave is
//! looked up by name, and only for a field whose document is on an origin the secret is
//! bound to; the caller types it like any text, and every reply masks it.
//!
//! Owns: the check of the field's origin and the words of its refusal. Must not: write the
//! value anywhere (it goes to the page as keys, nowhere else).

use super::ask;
use crate::browser::Browser;
use crate::engine::entry;
use crate::error::{Error, Result};
use crate::refs::parse_ref;
use crate::wire::ControlReply;

/// The value of secret `name` for `verb` (fill, type, set) into ref `r`, after checking that
/// the field's document is on an origin the secret is bound to (refused with exit 5, the
/// rule named, before any key is sent).
pub async fn secret_value(b: &Browser, r: &str, name: &str, verb: &str) -> Result<String> {
    let Some(p) = b.policy() else {
        return Err(Error::Usage(format!(
            "{verb} {r} with secret {name:?}: this session has no secrets (the operator gives them with --secret NAME=ENV_VAR or --secrets FILE when the session starts)"
        )));
    };
    let spec = p.secret(name)?;
    // the origin of the document the field is in (a frame's own, for a ref of a frame), from
    // its URL as the browser holds it (the engine reads Document.URL through the getter it
    // captured, so a page cannot answer for it)
    let c: ControlReply = ask(
        b,
        entry::Control {
            r#ref: parse_ref(r)?,
        },
    )
    .await?;
    let origin = url::Url::parse(&c.doc)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_default();
    if let Some(why) = spec.refusal(&origin) {
        return Err(Error::Policy(format!(
            "{verb} {r} with secret {name}: {why}; nothing was typed"
        )));
    }
    crate::vault::value(name).ok_or_else(|| {
        Error::Usage(format!(
            "secret {name}: its value was not read (from {})",
            spec.source()
        ))
    })
}
