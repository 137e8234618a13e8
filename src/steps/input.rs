//! Input on the page: `click`, `hover`, `drag`, `fill`, `type`, `press`, `select`, `set`,
//! `check`, `scroll`, `upload`, `submit`, `selectText`: refs or points of the viewport.
//!
//! Owns: these steps' arguments and their checks (a ref or a point, not both), and the
//! steps that are more than one call into `actions`. Must not: send input other than
//! through `actions`.

use super::navigation::{DocMark, doc_state, new_document};
use super::points::{Point, check_point, check_target, look_at, point_arg};
use super::shared::{
    OneOrMany, RunOptions, SUBMIT_NAV_LIMIT, looks_like_ref, one_or_many, parse_xy, within,
};
use crate::actions;
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::engine::{ScrollTo, entry};
use crate::error::{Error, Result};
use crate::refs::parse_ref;
use crate::safe::quote;
use crate::wire::{Named, ScrollReply, SelectTextReply, SubmitReply};
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// `click`: a ref (or a point of the viewport), with options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TargetArgs {
    /// The element's ref (`s1e4`, `@s1e4`, `[ref=s1e4]`), or give x and y.
    #[serde(rename = "ref", default)]
    #[arg(id = "ref", value_name = "REF", required_unless_present = "x", conflicts_with_all = ["x", "y"])]
    pub ref_: Option<String>,
    /// A point instead of a ref (canvas, custom-drawn widgets): x in CSS pixels of the
    /// viewport.
    #[serde(default)]
    #[arg(long, requires = "y")]
    pub x: Option<f64>,
    /// y in CSS pixels of the viewport.
    #[serde(default)]
    #[arg(long, requires = "x")]
    pub y: Option<f64>,
    /// Mouse button: left (default), middle, right.
    #[serde(default)]
    #[arg(long)]
    pub button: Option<String>,
    /// Double click.
    #[serde(default)]
    #[arg(long)]
    pub double: bool,
    /// Act even when other elements cover all of the target in sight (at its centre; the
    /// warning names what got the click).
    #[serde(default)]
    #[arg(long)]
    pub force: bool,
}

impl From<String> for TargetArgs {
    fn from(r: String) -> Self {
        TargetArgs {
            ref_: Some(r),
            x: None,
            y: None,
            button: None,
            double: false,
            force: false,
        }
    }
}

/// A ref with no options (hover, check, uncheck).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct RefOnly {
    /// The element's ref (`s1e4`, `@s1e4`, `[ref=s1e4]`).
    #[serde(rename = "ref")]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: String,
}

impl From<String> for RefOnly {
    fn from(r: String) -> Self {
        RefOnly { ref_: r }
    }
}

impl RefOnly {
    /// The ref as given.
    pub fn ref_str(&self) -> &str {
        &self.ref_
    }
}

/// `fill`: clear a field and type a value; or several fields at once.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct FillArgs {
    /// The field's ref.
    #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// The text it gets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(allow_hyphen_values = true)]
    pub value: Option<String>,
    /// Instead of value: the name of a secret the operator gave (`secrets` lists them). Its
    /// value is typed and never shown: replies say [secret:NAME].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(
        long = "use-secret",
        id = "use_secret",
        value_name = "NAME",
        conflicts_with = "value"
    )]
    pub secret: Option<String>,
    /// Several fields in one step: {"s1e3": "ada@example.org", "s1e5": {"secret":
    /// "SHOP_PASSWORD"}}; each is set like `set` (any control) and read back, with a result
    /// per field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<std::collections::BTreeMap<String, FieldForm>>")]
    #[arg(long, value_name = "JSON", value_parser = fields_arg, conflicts_with_all = ["ref", "value", "use_secret"])]
    pub fields: Option<serde_json::Map<String, serde_json::Value>>,
}

/// `type`: type text into a ref (or the focused element), without clearing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct TypeArgs {
    /// The field's ref (default: the focused element).
    #[serde(rename = "ref", default)]
    #[arg(long = "ref", id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// The text to type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(required_unless_present = "use_secret")]
    pub text: Option<String>,
    /// Instead of text: the name of a secret the operator gave, typed into ref (needed with
    /// a secret) and never shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(
        long = "use-secret",
        id = "use_secret",
        value_name = "NAME",
        conflicts_with = "text"
    )]
    pub secret: Option<String>,
    /// Press Enter afterwards.
    #[serde(default)]
    #[arg(long)]
    pub submit: bool,
}

/// `press`: a key or chord (`Enter`, `Control+a`, `Shift+Tab`), optionally on a ref.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct PressArgs {
    /// Key or chord.
    pub key: String,
    /// Focus this ref first.
    #[serde(rename = "ref", default)]
    #[arg(long = "ref", id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
}

impl From<String> for PressArgs {
    fn from(key: String) -> Self {
        PressArgs { key, ref_: None }
    }
}

/// `select`: choose options of a select by value or visible text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct SelectArgs {
    /// The select's ref.
    #[serde(rename = "ref")]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: String,
    /// One value or several (multiple selects).
    #[serde(deserialize_with = "one_or_many")]
    #[schemars(with = "OneOrMany")]
    #[arg(required = true)]
    pub values: Vec<String>,
}

// `set`'s value: a string, a number, true/false, or a list of strings (multiple selects).
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum SetValueForm {
    Text(String),
    Number(f64),
    Flag(bool),
    Many(Vec<String>),
}

// A field's value in `fill`'s fields: as `set` takes, or a secret by name.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum FieldForm {
    Text(String),
    Number(f64),
    Flag(bool),
    Many(Vec<String>),
    Secret(SecretForm),
}

// {"secret": "NAME"}: a secret the operator gave, typed and never shown.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SecretForm {
    secret: String,
}

/// `set` on the command line: a JSON list (`["a","b"]`) or `true` / `false` as JSON, any
/// other text as a string (so `007` stays text).
fn set_value_arg(s: &str) -> std::result::Result<serde_json::Value, String> {
    let t = s.trim();
    if (t.starts_with('[') || t == "true" || t == "false")
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(t)
    {
        return Ok(v);
    }
    Ok(serde_json::Value::String(s.to_string()))
}

/// `set`: any control to a value, in one call (docs/reference/actions.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct SetArgs {
    /// The control's ref.
    #[serde(rename = "ref")]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: String,
    /// Text, a date/time (2026-05-01, 14:30), a colour (#ff0000), a number or value text
    /// (sliders), an option's value or label (a list for multiple selects and listboxes), or
    /// true/false for checkboxes, radios, switches and options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<SetValueForm>")]
    #[arg(value_parser = set_value_arg, allow_hyphen_values = true, required_unless_present = "use_secret")]
    pub value: Option<serde_json::Value>,
    /// Instead of value: the name of a secret the operator gave, typed and never shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(
        long = "use-secret",
        id = "use_secret",
        value_name = "NAME",
        conflicts_with = "value"
    )]
    pub secret: Option<String>,
}

/// `scroll`: a ref into view, a ref's scroll container in a direction, or the page by a
/// delta / to a position / in a direction.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ScrollArgs {
    /// A ref to bring into view; with a direction, the element (or its nearest ancestor)
    /// that scrolls that way is scrolled instead: a scrolling list, a text area.
    #[serde(rename = "ref", default)]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// up, down, left, right (the page: 600 CSS pixels; a ref's scroll container: 85% of
    /// what it shows).
    #[serde(default)]
    #[arg(long)]
    pub direction: Option<String>,
    /// How far to scroll in the direction, in CSS pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(long, requires = "direction")]
    pub amount: Option<f64>,
    /// Horizontal delta in CSS pixels.
    #[serde(default)]
    #[arg(long, allow_hyphen_values = true)]
    pub dx: Option<f64>,
    /// Vertical delta in CSS pixels.
    #[serde(default)]
    #[arg(long, allow_hyphen_values = true)]
    pub dy: Option<f64>,
    /// Absolute position [x, y].
    #[serde(default)]
    #[arg(long, value_name = "X,Y", value_parser = parse_xy)]
    pub to: Option<[f64; 2]>,
}

/// `upload`: files for a file input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct UploadArgs {
    /// The file input's ref.
    #[serde(rename = "ref")]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: String,
    /// One path or several.
    #[serde(deserialize_with = "one_or_many")]
    #[schemars(with = "OneOrMany")]
    #[arg(required = true)]
    pub files: Vec<String>,
}

/// `click`: on a ref, or at a point (real pointer input through the same path); a click at
/// a point names what was there.
pub async fn click(b: &mut Browser, a: &TargetArgs) -> Result<Outcome> {
    let at = check_target("click", a.ref_.as_deref(), a.x, a.y).map_err(Error::Usage)?;
    match (at, &a.ref_) {
        (Some(p), _) => {
            let what = look_at(b, &[p], None, None).await?;
            actions::click_point(b, p.x, p.y, a.button.as_deref(), a.double).await?;
            Ok(Outcome::with(json!({ "at": what.first() })))
        }
        (None, Some(r)) => actions::click(b, r, a.button.as_deref(), a.double, a.force).await,
        (None, None) => Err(Error::Usage("click needs a ref or a point".into())),
    }
}

/// `hover`: over a ref, or at a point (named in the output).
pub async fn hover(b: &mut Browser, a: &HoverArgs) -> Result<Outcome> {
    let at = check_target("hover", a.ref_.as_deref(), a.x, a.y).map_err(Error::Usage)?;
    match (at, &a.ref_) {
        (Some(p), _) => {
            let what = look_at(b, &[p], None, None).await?;
            actions::hover_point(b, p.x, p.y).await?;
            Ok(Outcome::with(json!({ "at": what.first() })))
        }
        (None, Some(r)) => actions::hover(b, r).await,
        (None, None) => Err(Error::Usage("hover needs a ref or a point".into())),
    }
}

/// `drag`: between refs and/or points along a pointer path; points are named in the
/// output. On a ref, the drag starts at the point of it a hit test reaches and ends past the
/// middle of the target in the direction of travel (`actions::drop_point`).
pub async fn drag(b: &mut Browser, d: &DragArgs) -> Result<Outcome> {
    let mut named = serde_json::Map::new();
    let unresolved = || {
        Error::Usage("drag: a locator end was not resolved (run it as a step, not through the library's drag)".into())
    };
    let from = match &d.from {
        DragEnd::Locator(_) => return Err(unresolved()),
        DragEnd::Ref(r) => actions::drag_point(b, r).await?,
        DragEnd::Point(p) => {
            let p = check_point(*p).map_err(Error::Usage)?;
            let what = look_at(b, &[p], None, None).await?;
            named.insert("from".into(), json!(what.first()));
            (p.x, p.y)
        }
    };
    let to = match &d.to {
        DragEnd::Locator(_) => return Err(unresolved()),
        DragEnd::Ref(r) => actions::drop_point(b, r, from).await?,
        DragEnd::Point(p) => {
            let p = check_point(*p).map_err(Error::Usage)?;
            let what = look_at(b, &[p], None, None).await?;
            named.insert("to".into(), json!(what.first()));
            (p.x, p.y)
        }
    };
    // bringing the target into view may have scrolled the start away: both again, once
    let (from, to) = match (&d.from, &d.to) {
        (DragEnd::Ref(a), DragEnd::Ref(z)) => {
            let again = actions::drag_point(b, a).await?;
            if again == from {
                (from, to)
            } else {
                (again, actions::drop_point(b, z, again).await?)
            }
        }
        _ => (from, to),
    };
    let warnings = actions::drag_points(b, from, to).await?;
    Ok(Outcome {
        output: (!named.is_empty()).then_some(Value::Object(named)),
        warnings,
        ..Outcome::default()
    })
}

/// `hover`: a ref, or a point of the viewport.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct HoverArgs {
    /// The element's ref (or give x and y).
    #[serde(rename = "ref", default)]
    #[arg(id = "ref", value_name = "REF", required_unless_present = "x", conflicts_with_all = ["x", "y"])]
    pub ref_: Option<String>,
    /// A point instead of a ref: x in CSS pixels of the viewport.
    #[serde(default)]
    #[arg(long, requires = "y")]
    pub x: Option<f64>,
    /// y in CSS pixels of the viewport.
    #[serde(default)]
    #[arg(long, requires = "x")]
    pub y: Option<f64>,
}

impl From<String> for HoverArgs {
    fn from(r: String) -> Self {
        HoverArgs {
            ref_: Some(r),
            x: None,
            y: None,
        }
    }
}

// One end of a drag: a ref, a point {x, y} or a locator (docs/reference/step-files.md#locators)
// (no doc comment: schemars would repeat it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DragEnd {
    Ref(String),
    Point(Point),
    Locator(super::locate::Locator),
}

/// A drag end on the command line: `X,Y` is a point, `role "name"` or a locator's JSON
/// (`{"role": "option", "name": "Apples"}`) a locator, anything else a ref.
fn drag_end(s: &str) -> std::result::Result<DragEnd, String> {
    let t = s.trim();
    if t.starts_with('{') {
        let l: super::locate::Locator =
            serde_json::from_str(t).map_err(|e| format!("a locator: {e}"))?;
        l.check()?;
        return Ok(DragEnd::Locator(l));
    }
    if let Some((role, name)) = t.split_once(' ')
        && let Ok(name) = serde_json::from_str::<String>(name.trim())
    {
        return Ok(DragEnd::Locator(super::locate::Locator {
            role: Some(role.to_string()),
            name: Some(name),
            ..Default::default()
        }));
    }
    if t.contains(',') {
        return point_arg(t).map(DragEnd::Point);
    }
    Ok(DragEnd::Ref(s.to_string()))
}

/// `drag`: press on one ref or point, move to another, release.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct DragArgs {
    /// The ref to pick up, a point {x, y} (command line: X,Y), or a locator {"role",
    /// "name", ...} (command line: `role "name"` or its JSON).
    #[arg(value_parser = drag_end)]
    pub from: DragEnd,
    /// The ref to drop it on, a point {x, y}, or a locator.
    #[arg(value_parser = drag_end)]
    pub to: DragEnd,
}

/// `scroll`: a ref into view, a ref's scroll container in a direction, the page to a point,
/// or the page by a direction or delta. A scroll in a direction or by a delta says how far it
/// moved (`by`) and whether it reached the end that way (`end`); a ref's, what scrolled.
pub(super) async fn scroll(b: &mut Browser, s: &super::ScrollArgs) -> Result<Outcome> {
    if let Some(a) = s.amount
        && !(a.is_finite() && a > 0.0)
    {
        return Err(Error::Usage(format!(
            "scroll amount {a}: give a distance in CSS pixels, more than 0"
        )));
    }
    let sign = match s.direction.as_deref() {
        Some("down" | "right") => 1.0,
        Some("up" | "left") => -1.0,
        Some(other) => {
            return Err(Error::Usage(format!(
                "scroll direction {other:?}: use up, down, left or right"
            )));
        }
        None => 0.0,
    };
    let to = match (&s.ref_, s.direction.as_deref()) {
        (Some(r), Some(d)) => ScrollTo::Within {
            r#ref: parse_ref(r)?,
            direction: d.into(),
            amount: s.amount,
        },
        (Some(r), None) => ScrollTo::Ref {
            r#ref: parse_ref(r)?,
        },
        (None, _) if s.to.is_some() => ScrollTo::Point {
            to: s.to.unwrap_or_default(),
        },
        (None, d) => {
            let (mut dx, mut dy) = (s.dx.unwrap_or(0.0), s.dy.unwrap_or(0.0));
            let far = s.amount.unwrap_or(600.0) * sign;
            match d {
                Some("down" | "up") => dy = far,
                Some(_) => dx = far,
                None if s.dx.is_none() && s.dy.is_none() => dy = 600.0,
                None => {}
            }
            ScrollTo::By { dx, dy }
        }
    };
    let v: ScrollReply = ask(b, to).await?;
    let mut out = json!({"scroll": v.scroll});
    if let Some(by) = v.by {
        out["by"] = json!(by);
    }
    if let Some(end) = v.end {
        out["end"] = json!(end);
    }
    if let Some(w) = v.scroller.filter(|_| !v.page) {
        out["scrolled"] = json!(if w.name.is_empty() {
            w.role
        } else {
            format!("{} {}", w.role, quote(&w.name))
        });
    }
    Ok(Outcome::with(out))
}

/// The words of an element's scroll for the summary's lead (docs/reference/replies.md#pointer-actions):
/// `textbox "Licence" down 71 px`, `..., to its end`, or `textbox "Licence": at its end
/// already`; None for the page's scroll (its new position is said as the page's own fact).
pub(super) fn scroll_words(a: &ScrollArgs, out: &Value) -> Option<String> {
    let what = out.get("scrolled")?.as_str()?;
    let dir = a.direction.as_deref()?;
    let by = out.get("by")?;
    let moved = by[0].as_i64().unwrap_or(0).abs() + by[1].as_i64().unwrap_or(0).abs();
    let end = out.get("end").and_then(Value::as_bool) == Some(true);
    Some(match (moved, end) {
        (0, true) => format!("{what}: at its end already"),
        (n, true) => format!("{what} {dir} {n} px, to its end"),
        (n, false) => format!("{what} {dir} {n} px"),
    })
}

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

/// `fill --fields JSON` on the command line.
fn fields_arg(s: &str) -> std::result::Result<serde_json::Map<String, serde_json::Value>, String> {
    serde_json::from_str(s).map_err(|e| {
        format!("expected a JSON object of refs and values such as {{\"s1e3\": \"ada@example.org\"}}: {e}")
    })
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

/// `fill`: one field (clear and type), or a map of fields, each set like `set` with its
/// value read back; every field is tried, and one that fails fails the step with every
/// field's result in its output.
pub async fn fill(b: &Browser, f: &FillArgs) -> Result<Outcome> {
    let fields = match (&f.ref_, &f.value, &f.secret, &f.fields) {
        (Some(r), Some(v), None, None) => return actions::fill(b, r, v).await,
        (Some(r), None, Some(name), None) => {
            let v = actions::secret_value(b, r, name, "fill").await?;
            return actions::fill(b, r, &v).await;
        }
        (None, None, None, Some(m)) => m,
        _ => {
            return Err(Error::Usage(
                "fill takes a ref and a value (or a secret), or --fields with a JSON object of refs and values"
                    .into(),
            ));
        }
    };
    // every secret's origin is checked before any field is touched: a refusal (exit 5)
    // leaves the form as it was
    let mut secrets = std::collections::HashMap::new();
    for (r, v) in fields {
        if let Some(name) = v.get("secret").and_then(Value::as_str) {
            let s = actions::secret_value(b, r, name, "fill").await?;
            secrets.insert(r.as_str(), Value::String(s));
        }
    }
    let mut results = Vec::new();
    let mut failed = Vec::new();
    let mut warnings = Vec::new();
    for (r, v) in fields {
        match actions::set(b, r, secrets.get(r.as_str()).unwrap_or(v)).await {
            Ok(o) => {
                // what the field holds is in the change list (a password masked); the
                // values the agent sent are not echoed (docs/reference/replies.md#changes)
                results.push(json!({"ref": r, "ok": true}));
                warnings.extend(o.warnings);
            }
            Err(e) if e.is_browser() || e.is_timeout() || e.exit_code() == 5 => return Err(e),
            Err(e) => {
                failed.push(format!("{r}: {}", crate::error::one_line(&e.to_string())));
                results.push(json!({"ref": r, "ok": false, "error": e.to_string()}));
            }
        }
    }
    let output = json!({
        "fields": results,
        "filled": fields.len() - failed.len(),
        "failed": failed.len(),
    });
    if failed.is_empty() {
        return Ok(Outcome {
            output: Some(output),
            warnings,
            stats: None,
        });
    }
    Err(Error::StepOutput {
        message: format!(
            "fill: {} of {} fields failed: {}",
            failed.len(),
            fields.len(),
            failed.join("; ")
        ),
        output: Box::new(output),
    })
}

/// `type`: its text, or the value of the secret it names (which needs a ref: keys sent to
/// whatever has focus could land in a frame of another origin).
pub async fn type_step(b: &Browser, t: &TypeArgs) -> Result<Outcome> {
    match (&t.text, &t.secret, &t.ref_) {
        (Some(text), None, r) => actions::type_into(b, r.as_deref(), text, t.submit).await,
        (None, Some(name), Some(r)) => {
            let v = actions::secret_value(b, r, name, "type").await?;
            actions::type_into(b, Some(r), &v, t.submit).await
        }
        (None, Some(name), None) => Err(Error::Usage(format!(
            "type with secret {name}: give the field's ref (a secret is typed into a field named by ref, never into whatever has focus)"
        ))),
        _ => Err(Error::Usage("type takes text or a secret, not both".into())),
    }
}

/// `set`: its value, or the value of the secret it names.
pub async fn set_step(b: &Browser, s: &SetArgs) -> Result<Outcome> {
    match (&s.value, &s.secret) {
        (Some(v), None) => actions::set(b, &s.ref_, v).await,
        (None, Some(name)) => {
            let v = actions::secret_value(b, &s.ref_, name, "set").await?;
            actions::set(b, &s.ref_, &Value::String(v)).await
        }
        _ => Err(Error::Usage(
            "set takes a value or a secret (one of them)".into(),
        )),
    }
}
