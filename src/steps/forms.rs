//! Forms and selections: `submit` (a form by ref, a control in it or a CSS selector, after
//! the browser's validation, as a user submits it) and `selectText` (characters of a field's
//! value or of an element's text).
//!
//! Owns: these steps' arguments and their outputs. Must not: send input other than through
//! `actions`.

use super::act::{Act, Cx, Info, Kind, row};
use super::args::looks_like_ref;
use super::navigation::{doc_state, new_document};
use super::options::{DocMark, RunOptions, SUBMIT_NAV_LIMIT, within};
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::engine::entry;
use crate::error::{Error, Result};
use crate::refs::parse_ref;
use crate::safe::quote;
use crate::wire::{Named, SelectTextReply, SubmitReply};
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// `submit`: a form by ref (or a control inside it) or CSS selector.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SubmitArgs {
    /// The form's ref, or the ref of a control inside it.
    #[serde(rename = "ref", default)]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// A CSS selector of the form (or of a control inside it).
    #[serde(default)]
    #[arg(long)]
    pub selector: Option<String>,
    /// When invalid, also show the browser's messages on the page (reportValidity).
    #[serde(default)]
    #[arg(long)]
    pub report_validity: bool,
}

impl From<String> for SubmitArgs {
    fn from(s: String) -> Self {
        if looks_like_ref(&s) {
            SubmitArgs {
                ref_: Some(s),
                ..Default::default()
            }
        } else {
            SubmitArgs {
                selector: Some(s),
                ..Default::default()
            }
        }
    }
}

/// `selectText`: characters [start, end) of a ref's text (default: all of it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct SelectTextArgs {
    /// The element's ref (an input, a textarea, or any element with text).
    #[serde(rename = "ref")]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: String,
    /// First character (default 0).
    #[serde(default)]
    #[arg(long)]
    pub start: Option<u64>,
    /// One past the last character (default: the end of the text).
    #[serde(default)]
    #[arg(long)]
    pub end: Option<u64>,
}

impl From<String> for SelectTextArgs {
    fn from(r: String) -> Self {
        SelectTextArgs {
            ref_: r,
            start: None,
            end: None,
        }
    }
}

/// `role "name" (ref)` of an element named in a reply.
pub(super) fn named(n: &Named) -> String {
    let r = n
        .r#ref
        .as_deref()
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    format!("{} {}{r}", n.role, quote(&n.name))
}

/// `submit`: the browser's validation of the form, then a user's submission
/// (`requestSubmit`) and the page it loads. An invalid form is not submitted: the step
/// fails with each invalid field's message (and the fields in its output), since what
/// follows a submit assumes it happened.
pub async fn submit(b: &mut Browser, a: &SubmitArgs, opts: &RunOptions) -> Result<Outcome> {
    let r#ref = a.ref_.as_deref().map(parse_ref).transpose()?;
    let cap = within(opts.timeout);
    let before = doc_state(b, cap).await?;
    let n = b.next_snapshot()?;
    let sub = entry::Submit {
        r#ref,
        selector: a.selector.clone(),
        n,
        report: a.report_validity,
    };
    let r: SubmitReply = ask(b, sub).await?;
    if !r.valid {
        let fields: Vec<String> = r
            .invalid
            .iter()
            .map(|f| {
                format!(
                    "{}: {}",
                    named(f),
                    quote(f.message.as_deref().unwrap_or_default())
                )
            })
            .collect();
        let count = fields.len();
        return Err(Error::StepOutput {
            message: format!(
                "{} was not submitted: {count} invalid field{}: {}",
                named(&r.form),
                if count == 1 { "" } else { "s" },
                fields.join("; ")
            ),
            output: Box::new(json!({
                "submitted": false, "valid": false, "form": r.form, "invalid": r.invalid,
            })),
        });
    }
    let mut o = json!({"submitted": true, "valid": true, "form": r.form});
    if !r.submitted {
        // a submit handler called preventDefault: the page handles the data itself
        o["handledByPage"] = json!(true);
    }
    let mut warnings = vec![];
    if r.novalidate {
        warnings.push("the form has novalidate: the browser did not check its fields".into());
    }
    if r.navigating {
        let mark = DocMark {
            origin: before.origin,
            url: before.url,
        };
        match new_document(b, &mark, "load", false, SUBMIT_NAV_LIMIT.min(cap)).await {
            Ok(s) => o["url"] = json!(s.url),
            Err((e, _)) if !e.is_timeout() => return Err(e),
            Err(_) => warnings.push(format!(
                "the form was submitted, but no new page loaded within {} ms",
                SUBMIT_NAV_LIMIT.min(cap).as_millis()
            )),
        }
    }
    Ok(Outcome {
        output: Some(o),
        warnings,
        stats: None,
    })
}

/// `selectText`: the selected text and its offsets.
pub async fn select_text(b: &Browser, a: &SelectTextArgs) -> Result<Outcome> {
    let m = entry::SelectText {
        r#ref: parse_ref(&a.ref_)?,
        start: a.start,
        end: a.end,
    };
    let r: SelectTextReply = ask(b, m).await?;
    Ok(Outcome::with(
        json!({"selected": r.text, "start": r.start, "end": r.end, "length": r.length}),
    ))
}

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for SubmitArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Submitted", "browser_submit", "value", r#""s1e4", "form#signup" or {"ref": "s1e4", "reportValidity": true}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        self.ref_.as_deref()
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = Some(r);
        true
    }
    fn problems(&self) -> Vec<String> {
        match (&self.ref_, &self.selector) {
            (Some(_), None) | (None, Some(_)) => Vec::new(),
            (None, None) => vec!["give the form's ref or a CSS selector".into()],
            (Some(_), Some(_)) => vec!["give ref or selector, not both".into()],
        }
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        submit(cx.b, self, cx.opts).await
    }
}

impl Act for SelectTextArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_select_text", "value", r#""s1e4" or {"ref": "s1e4", "start": 0, "end": 5}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = r;
        true
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        select_text(cx.b, self).await
    }
}
