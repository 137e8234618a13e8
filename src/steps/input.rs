//! Input on the page: `click`, `hover`, `drag`, `fill`, `type`, `press`, `select`, `set`,
//! `check`, `scroll`, `upload`, `submit`, `selectText`: refs or points of the viewport.
//!
//! Owns: these steps' arguments and their checks (a ref or a point, not both), and the
//! steps that are more than one call into `actions`. Must not: send input other than
//! through `actions`.

use super::act::{ANSWER_TAIL, Act, Core, Cx, Gate, Info, Kind, row};
use super::args::{OneOrMany, looks_like_ref, one_or_many};
use super::points::{check_target, look_at};
use crate::actions;
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::engine::entry;
use crate::error::{Error, Result};
use crate::policy::Switch;
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::time::Duration;

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

/// `check`, `uncheck` and `focus`: a ref (their schema is [`RefOnly`]'s), one type each for
/// its action's declaration.
macro_rules! ref_only {
    ($($T:ident),*) => {$(
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Args)]
        #[serde(deny_unknown_fields)]
        pub struct $T {
            /// The element's ref (`s1e4`, `@s1e4`, `[ref=s1e4]`).
            #[serde(rename = "ref")]
            #[arg(id = "ref", value_name = "REF")]
            pub ref_: String,
        }

        impl From<String> for $T {
            fn from(r: String) -> Self {
                $T { ref_: r }
            }
        }
    )*};
}
ref_only!(CheckArgs, UncheckArgs, FocusArgs);

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

/// `fill --fields JSON` on the command line.
fn fields_arg(s: &str) -> std::result::Result<serde_json::Map<String, serde_json::Value>, String> {
    serde_json::from_str(s).map_err(|e| {
        format!("expected a JSON object of refs and values such as {{\"s1e3\": \"ada@example.org\"}}: {e}")
    })
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

/// What serde cannot check of `fill`: a ref with a value or a secret, or a fields map of
/// refs and values.
fn fill_problems(f: &FillArgs) -> Vec<String> {
    let mut out = Vec::new();
    match (&f.ref_, f.value.is_some() || f.secret.is_some(), &f.fields) {
        (Some(_), true, None) if f.value.is_some() && f.secret.is_some() => {
            out.push("give value or secret, not both".into())
        }
        (Some(_), true, None) => {}
        (None, false, Some(m)) => {
            if m.is_empty() {
                out.push("fields is empty: give at least one ref and its value".into());
            }
            for (k, v) in m {
                if !looks_like_ref(k) {
                    out.push(format!(
                        "fields: {k:?} is not a ref (expected s<n>e<m> from a snapshot)"
                    ));
                }
                let secret = v.as_object().is_some_and(|o| {
                    o.len() == 1 && o.get("secret").is_some_and(|s| s.is_string())
                });
                if v.is_null() || (v.is_object() && !secret) {
                    out.push(format!(
                            "fields: the value of {k} must be text, a number, true/false, a list or {{\"secret\": \"NAME\"}}"
                        ));
                }
            }
        }
        (Some(r), false, None) => out.push(format!(
            "missing field `value` (the text {r} gets) or `secret` (the name of a secret)"
        )),
        (None, true, None) => out.push("missing field `ref` (the field to fill)".into()),
        _ => out.push("give either ref and value, or fields (not both)".into()),
    };
    out
}

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for TargetArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Clicked", "browser_click", "ref", r#""s1e4", {"ref": "s1e4"} or {"x": 120, "y": 80}"#);
    const CORE: Option<Core> = Some(Core {
        rank: 3,
        description: Some("Click a ref, or a viewport point x, y."),
        props: &[("ref", ""), ("x", ""), ("y", "")],
    });
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        self.ref_.as_deref()
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = Some(r);
        true
    }
    fn problems(&self) -> Vec<String> {
        check_target("click", self.ref_.as_deref(), self.x, self.y)
            .err()
            .into_iter()
            .collect()
    }
    fn tail(&self) -> Option<Duration> {
        Some(ANSWER_TAIL)
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        click(cx.b, self).await
    }
}

impl Act for FillArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Filled", "browser_fill", "value", r#"{"ref": "s1e2", "value": "text"}, {"ref": "s1e2", "secret": "SHOP_PASSWORD"} or {"fields": {"s1e2": "text", "s1e3": "Berlin"}}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        self.ref_.as_deref()
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = Some(r);
        true
    }
    fn problems(&self) -> Vec<String> {
        fill_problems(self)
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        fill(cx.b, self).await
    }
}

impl Act for TypeArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Typed", "browser_type", "value", r#"{"text": "...", "ref": "s1e2", "submit": true}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        self.ref_.as_deref()
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = Some(r);
        true
    }
    fn problems(&self) -> Vec<String> {
        match (&self.text, &self.secret, &self.ref_) {
            (Some(_), Some(_), _) => vec!["give text or secret, not both".into()],
            (None, None, _) => vec!["missing field `text` (or `secret`)".into()],
            (None, Some(_), None) => vec![
                "a secret is typed into a field named by ref, never into whatever has focus: give ref".into(),
            ],
            _ => Vec::new(),
        }
    }
    fn tail(&self) -> Option<Duration> {
        // typing with submit presses Enter
        self.submit.then_some(ANSWER_TAIL)
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        type_step(cx.b, self).await
    }
}

impl Act for PressArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Pressed", "browser_press_key", "key", r#""Enter" or {"key": "Control+a", "ref": "s1e2"}"#);
    const CORE: Option<Core> = Some(Core {
        rank: 5,
        description: Some("Press a key or chord (Enter, Control+a), in ref if given."),
        props: &[("key", ""), ("ref", "")],
    });
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        self.ref_.as_deref()
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = Some(r);
        true
    }
    fn tail(&self) -> Option<Duration> {
        Some(ANSWER_TAIL)
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        actions::press(cx.b, &self.key, self.ref_.as_deref()).await
    }
}

impl Act for HoverArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Hovered", "browser_hover", "ref", r#""s1e4", {"ref": "s1e4"} or {"x": 120, "y": 80}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        self.ref_.as_deref()
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = Some(r);
        true
    }
    fn problems(&self) -> Vec<String> {
        check_target("hover", self.ref_.as_deref(), self.x, self.y)
            .err()
            .into_iter()
            .collect()
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        hover(cx.b, self).await
    }
}

impl Act for SelectArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Selected", "browser_select_option", "value", r#"{"ref": "s1e3", "values": ["a", "b"]}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        Some(&self.ref_)
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = r;
        true
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        actions::select(cx.b, &self.ref_, &self.values.to_vec()).await
    }
}

impl Act for SetArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Set", "browser_set", "value", r#"{"ref": "s1e3", "value": "2026-05-01"} (or true, or ["a", "b"])"#);
    const CORE: Option<Core> = Some(Core {
        rank: 4,
        description: Some(
            "Set any control by ref (text, select, checkbox true/false, date, combobox...); \
             returns the value read back.",
        ),
        props: &[("ref", ""), ("value", "")],
    });
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        Some(&self.ref_)
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = r;
        true
    }
    fn problems(&self) -> Vec<String> {
        match (&self.value, &self.secret) {
            (Some(_), Some(_)) => vec!["give value or secret, not both".into()],
            (None, None) => vec![format!(
                "missing field `value` (what {} is set to) or `secret`",
                self.ref_
            )],
            _ => Vec::new(),
        }
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        set_step(cx.b, self).await
    }
}

impl Act for CheckArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Checked", "browser_check", "ref", r#""s1e4" or {"ref": "s1e4"}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        Some(&self.ref_)
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = r;
        true
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        actions::set_checked(cx.b, &self.ref_, true).await
    }
}

impl Act for UncheckArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Unchecked", "browser_uncheck", "ref", r#""s1e4" or {"ref": "s1e4"}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        Some(&self.ref_)
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = r;
        true
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        actions::set_checked(cx.b, &self.ref_, false).await
    }
}

impl Act for FocusArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Focused", "browser_focus", "ref", r#""s1e4" or {"ref": "s1e4"}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    const PLAYWRIGHT: Option<&'static str> = Some("await {loc}.focus();");
    fn target(&self) -> Option<&str> {
        Some(&self.ref_)
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = r;
        true
    }
    /// The element's focus steps (HTML's focusing steps: focus, focusin), no pointer input.
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        let r = crate::refs::parse_ref(&self.ref_)?;
        let f = ask(
            cx.b,
            entry::Focus {
                r#ref: r,
                select: false,
            },
        )
        .await?;
        Ok(Outcome {
            warnings: actions::minor_note(f.minor),
            ..Outcome::default()
        })
    }
}

impl Act for UploadArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_upload", "value", r#"{"ref": "s1e5", "files": ["a.pdf"]}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = r;
        true
    }
    fn gate(&self) -> Gate<'_> {
        Gate::Off(Switch::Uploads)
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        let files = self
            .files
            .to_vec()
            .iter()
            .map(|f| Ok(cx.opts.user_path("upload", f)?.display().to_string()))
            .collect::<Result<Vec<_>>>()?;
        actions::upload(cx.b, &self.ref_, &files).await
    }
}
