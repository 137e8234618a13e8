//! Steps: the one schema shared by step files, CLI commands and MCP tools (SPEC 5).
//!
//! Owns: the `Action` enum (externally tagged: `{"click": ...}`), argument types with their
//! shorthand forms, and the JSON schema. Must not: run anything (runner.rs does).

pub mod changes;
pub mod effects;
pub mod eyes;
pub mod eyes_args;
pub mod look;
pub mod parse;
pub mod runner;
pub mod vocab;
mod vocab_run;

pub use vocab::{
    Hooks, InspectArgs, PollArgs, QueryAllArgs, QueryGroups, QuerySpec, SelectTextArgs, SubmitArgs,
    WaitForNavigationArgs,
};

use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

pub use eyes_args::{
    DragArgs, DragEnd, ElementsAtArgs, HoverArgs, PdfArgs, Point, ReadNotesArgs, WriteNotesArgs,
};

// SPEC 5 short forms: an action's argument written bare (`"s1e4"`, `500`, `"Enter"`)
// stands for its object form with one field set. Only step files and MCP tools see this;
// the command line takes the object form's fields as arguments. (No doc comments here:
// schemars would repeat them in every tool's schema.)
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
enum Form<B, F> {
    Bare(B),
    Full(F),
}

/// Deserializes an argument in its short or its object form (see [`Form`]).
fn bare_or<'de, D, B, F>(d: D) -> std::result::Result<F, D::Error>
where
    D: Deserializer<'de>,
    B: Deserialize<'de>,
    F: Deserialize<'de> + From<B>,
{
    Ok(match Form::<B, F>::deserialize(d)? {
        Form::Bare(b) => F::from(b),
        Form::Full(f) => f,
    })
}

/// `X,Y` as two numbers (CSS pixels), for `scroll --to` on the command line.
fn parse_xy(s: &str) -> std::result::Result<[f64; 2], String> {
    let bad = || format!("expected two numbers X,Y such as 0,800, got {s:?}");
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [x, y] => match (x.parse::<f64>(), y.parse::<f64>()) {
            (Ok(x), Ok(y)) => Ok([x, y]),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

/// `search --near X,Y[,R]` on the command line: kept as the string form `near` takes.
fn near_arg(s: &str) -> std::result::Result<serde_json::Value, String> {
    Ok(serde_json::Value::String(s.to_string()))
}

/// A detail level, checked by the one list of them (`query::view::Detail`).
fn detail_level(s: &str) -> std::result::Result<String, String> {
    crate::query::view::Detail::parse(Some(s))
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// `goto --snapshot [DETAIL]` on the command line (and goto's `snapshot` given as a
/// string in step files): snapshot options with that detail.
fn snapshot_detail(s: &str) -> std::result::Result<SnapshotArgs, String> {
    if s.is_empty() {
        return Ok(SnapshotArgs::default());
    }
    Ok(SnapshotArgs {
        detail: Some(detail_level(s)?),
        ..Default::default()
    })
}

// The forms `goto`'s `snapshot` takes, for the schema (what `snapshot_opt` reads).
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum SnapshotOptForm {
    On(bool),
    Detail(String),
    Args(Box<SnapshotArgs>),
}

/// `goto`'s `snapshot`: `true`, a detail level, or snapshot options (`false` and `null`:
/// none), the forms the `snapshot` step itself takes.
fn snapshot_opt<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<SnapshotArgs>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Opt {
        On(bool),
        Detail(String),
        Args(Box<SnapshotArgs>),
    }
    Ok(match Option::<Opt>::deserialize(d)? {
        None | Some(Opt::On(false)) => None,
        Some(Opt::On(true)) => Some(SnapshotArgs::default()),
        Some(Opt::Detail(s)) => Some(snapshot_detail(&s).map_err(serde::de::Error::custom)?),
        Some(Opt::Args(a)) => Some(*a),
    })
}

/// An argument that may be absent, `null` or `{}` (actions without arguments).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

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
    /// Act even when another element covers the target's centre.
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

/// `goto`: a URL, and optionally the loaded page's snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct GotoArgs {
    /// Address to open.
    pub url: String,
    /// Take a snapshot once loaded and return it: true, a detail level (full,
    /// interactive, summary) or snapshot options; omit to stay silent.
    #[serde(default, deserialize_with = "snapshot_opt")]
    #[schemars(with = "Option<SnapshotOptForm>")]
    #[arg(long, num_args = 0..=1, default_missing_value = "", value_name = "DETAIL", value_parser = snapshot_detail)]
    pub snapshot: Option<SnapshotArgs>,
}

impl From<String> for GotoArgs {
    fn from(url: String) -> Self {
        GotoArgs {
            url,
            snapshot: None,
        }
    }
}

impl GotoArgs {
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Snapshot options of a navigation that also returns the page.
    pub fn snapshot(&self) -> Option<&SnapshotArgs> {
        self.snapshot.as_ref()
    }
}

/// `newTab`: a new tab, optionally at a URL.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct NewTabArgs {
    /// Address to open in it.
    #[serde(default)]
    pub url: Option<String>,
}

impl From<String> for NewTabArgs {
    fn from(url: String) -> Self {
        NewTabArgs { url: Some(url) }
    }
}

/// `switchTab`: a tab alias.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct TabArgs {
    /// Tab alias (t1, t2...).
    pub tab: String,
}

impl From<String> for TabArgs {
    fn from(tab: String) -> Self {
        TabArgs { tab }
    }
}

/// `closeTab`: a tab alias, or the current tab.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct CloseTabArgs {
    /// Tab alias (default: the current tab).
    #[serde(default)]
    pub tab: Option<String>,
}

impl From<String> for CloseTabArgs {
    fn from(tab: String) -> Self {
        CloseTabArgs { tab: Some(tab) }
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
    /// Several fields in one step: {"s1e3": "ada@example.org", "s1e5": "Berlin"}; each
    /// is set like `set` (any control) and read back, with a result per field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<std::collections::BTreeMap<String, SetValueForm>>")]
    #[arg(long, value_name = "JSON", value_parser = vocab::fields_arg, conflicts_with_all = ["ref", "value"])]
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
    pub text: String,
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

// A string or a list of strings (the step file's spellings of a list).
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// Deserializes one string or a list of strings as a list.
fn one_or_many<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<String>, D::Error> {
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
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

/// `set`: any control to a value, in one call (SPEC 8).
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
    #[schemars(with = "SetValueForm")]
    #[arg(value_parser = set_value_arg, allow_hyphen_values = true)]
    pub value: serde_json::Value,
}

/// `scroll`: a ref into view, or the page by a delta / to a position / in a direction.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ScrollArgs {
    /// A ref to bring into view.
    #[serde(rename = "ref", default)]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// up, down, left, right (one viewport less a margin).
    #[serde(default)]
    #[arg(long)]
    pub direction: Option<String>,
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

/// `wait`: until a condition holds (or `hidden`: until it stops holding), bounded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct WaitArgs {
    /// Visible text on the page (case-insensitive substring).
    #[serde(default)]
    #[arg(long)]
    pub text: Option<String>,
    /// A ref that must resolve (still there, same role and name).
    #[serde(rename = "ref", default)]
    #[arg(long = "ref", id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// A CSS selector matching a visible element.
    #[serde(default)]
    #[arg(long)]
    pub selector: Option<String>,
    /// The URL contains this (or matches it with `regex: true`).
    #[serde(default)]
    #[arg(long)]
    pub url: Option<String>,
    /// `url` is a regular expression.
    #[serde(default)]
    #[arg(long)]
    pub regex: bool,
    /// Wait for the condition to stop holding.
    #[serde(default)]
    #[arg(long)]
    pub hidden: bool,
    /// Limit in ms (default: the step's deadline).
    #[serde(default)]
    #[arg(skip)]
    pub timeout: Option<u64>,
}

/// `sleep`: a pause.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct SleepArgs {
    /// Milliseconds.
    pub ms: u64,
}

impl From<u64> for SleepArgs {
    fn from(ms: u64) -> Self {
        SleepArgs { ms }
    }
}

/// `assert`: fails the step when the condition does not hold now.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct AssertArgs {
    /// Visible text on the page.
    #[serde(default)]
    #[arg(long)]
    pub text: Option<String>,
    /// A ref that resolves.
    #[serde(rename = "ref", default)]
    #[arg(long = "ref", id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// A CSS selector matching a visible element.
    #[serde(default)]
    #[arg(long)]
    pub selector: Option<String>,
    /// The URL contains this.
    #[serde(default)]
    #[arg(long)]
    pub url: Option<String>,
    /// The title contains this.
    #[serde(default)]
    #[arg(long)]
    pub title: Option<String>,
    /// The ref's value equals this.
    #[serde(default)]
    #[arg(long)]
    pub value: Option<String>,
    /// The ref is checked (true) or not (false).
    #[serde(default)]
    #[arg(long)]
    pub checked: Option<bool>,
    /// Assert the condition does not hold.
    #[serde(default)]
    #[arg(long)]
    pub not: bool,
}

/// `get`: something about a ref, uncut: text (default), value, name, role, html, box, attr:NAME.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct GetArgs {
    /// The element's ref.
    #[serde(rename = "ref")]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: String,
    /// text (default), value, name, role, html, box or attr:NAME.
    #[serde(default)]
    #[arg(long)]
    pub what: Option<String>,
}

impl From<String> for GetArgs {
    fn from(r: String) -> Self {
        GetArgs {
            ref_: r,
            what: None,
        }
    }
}

/// `eval`: a JavaScript expression (its JSON value is the output). On the command line
/// `eval EXPR` or `eval --expression EXPR` (the MCP tool's name): see [`EvalCli`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvalArgs {
    /// Expression (its value is returned; use an IIFE for statements).
    pub expression: String,
    /// First item of a large array or string result.
    #[serde(default)]
    pub offset: Option<usize>,
    /// Page size of a large array or string result.
    #[serde(default)]
    pub limit: Option<usize>,
}

/// `eval`'s command line: the expression as a positional argument or as `--expression`
/// (one clap argument cannot be both, so `EvalArgs` takes its arguments from this).
#[derive(Args)]
struct EvalCli {
    /// Expression (its value is returned; use an IIFE for statements).
    #[arg(
        value_name = "EXPR",
        required_unless_present = "expression_option",
        conflicts_with = "expression_option"
    )]
    expression: Option<String>,
    /// The expression, as an option (the MCP tool's name for it).
    #[arg(long = "expression", id = "expression_option", value_name = "EXPR")]
    expression_option: Option<String>,
    /// First item of a large array or string result.
    #[arg(long)]
    offset: Option<usize>,
    /// Page size of a large array or string result.
    #[arg(long)]
    limit: Option<usize>,
}

impl clap::FromArgMatches for EvalArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> std::result::Result<Self, clap::Error> {
        let c = EvalCli::from_arg_matches(m)?;
        let expression = c.expression.or(c.expression_option).ok_or_else(|| {
            clap::Error::raw(
                clap::error::ErrorKind::MissingRequiredArgument,
                "eval needs the expression: eval EXPR or eval --expression EXPR",
            )
        })?;
        Ok(EvalArgs {
            expression,
            offset: c.offset,
            limit: c.limit,
        })
    }

    fn update_from_arg_matches(
        &mut self,
        m: &clap::ArgMatches,
    ) -> std::result::Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for EvalArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        EvalCli::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        EvalCli::augment_args_for_update(cmd)
    }
}

impl From<String> for EvalArgs {
    fn from(expression: String) -> Self {
        EvalArgs {
            expression,
            offset: None,
            limit: None,
        }
    }
}

/// `viewport`: the window's inner size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ViewportArgs {
    /// Width in CSS pixels.
    pub width: u32,
    /// Height in CSS pixels.
    pub height: u32,
}

// Which frame later steps act in: `"main"`, an index, or an iframe ref (no doc comment:
// schemars would repeat it wherever the type is used).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FrameArg {
    Index(u16),
    Name(String),
}

impl std::str::FromStr for FrameArg {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        Ok(match s.parse::<u16>() {
            Ok(i) => FrameArg::Index(i),
            Err(_) => FrameArg::Name(s.to_string()),
        })
    }
}

/// `frame`: which frame later steps act in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct FrameArgs {
    /// main, an index, or an iframe's ref.
    #[arg(value_name = "TARGET", value_parser = |s: &str| s.parse::<FrameArg>())]
    pub target: FrameArg,
}

impl From<FrameArg> for FrameArgs {
    fn from(target: FrameArg) -> Self {
        FrameArgs { target }
    }
}

/// `cookies`: list (default), set or clear.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct CookiesArgs {
    /// list (default), set or clear.
    #[serde(default)]
    pub action: Option<String>,
    /// The cookie's name (set).
    #[serde(default)]
    #[arg(long)]
    pub name: Option<String>,
    /// The cookie's value (set).
    #[serde(default)]
    #[arg(long)]
    pub value: Option<String>,
}

/// `console`: messages logged by the page since the engine was installed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ConsoleArgs {
    /// Empty the log after reading it.
    #[serde(default)]
    #[arg(long)]
    pub clear: bool,
}

/// `screenshot`: a PNG of the viewport (or of a ref), written to `path` or an artifact.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ScreenshotArgs {
    /// File to write (default: an artifact file).
    #[serde(default)]
    #[arg(long)]
    pub path: Option<String>,
    /// Only this element.
    #[serde(rename = "ref", default)]
    #[arg(long = "ref", id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// Outline every ref's box and label it with its ref (the refs drawn are listed).
    #[serde(default)]
    #[arg(long)]
    pub annotate: bool,
}

/// `snapshot` options (SPEC 3/4).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SnapshotArgs {
    /// Command line only: open this URL first.
    #[serde(skip)]
    #[schemars(skip)]
    pub url: Option<String>,
    /// full (default), interactive (elements with refs and their landmark path), summary.
    #[serde(default)]
    #[arg(long, value_parser = detail_level)]
    pub detail: Option<String>,
    /// Give refs to every interactive element, even above 100 of them.
    #[serde(default)]
    #[arg(long)]
    pub all_refs: bool,
    /// Answer `{"unchanged": true}` when nothing changed since this snapshot (e.g. "s3").
    #[serde(default)]
    #[arg(long)]
    pub since: Option<String>,
    /// Only what intersects the viewport.
    #[serde(default)]
    #[arg(long)]
    pub viewport: bool,
    /// Scope the snapshot: a ref, a CSS selector or role=ROLE.
    #[serde(default)]
    #[arg(long)]
    pub root: Option<String>,
    /// Stop after this many nodes (0 = no limit; default 10000, none under a query).
    #[serde(default)]
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Always walk the page (skip the 5-second snapshot cache).
    #[serde(default)]
    #[arg(long)]
    pub no_cache: bool,
    /// Leave out text and nodes not painted for a sighted user (flagged [unseen=...]).
    #[serde(default)]
    #[arg(long)]
    pub drop_unseen: bool,
    /// Fit the snapshot in this many tokens (4 bytes each): what does not fit becomes
    /// elided lines that `root` expands (full detail).
    #[serde(default)]
    #[arg(long, value_name = "TOKENS")]
    pub budget: Option<u64>,
    /// Print values shaped like secrets (tokens, API keys) instead of masking them.
    #[serde(default)]
    #[arg(skip)]
    pub reveal_secrets: bool,
    /// text (default) or json.
    #[serde(default, rename = "output_format", alias = "format")]
    #[arg(skip)]
    pub format: Option<String>,
    /// Show values, descriptions, URLs, placeholders and all states.
    #[serde(default)]
    #[arg(skip)]
    pub verbose: bool,
    /// Capture (and mint refs) without returning the tree.
    #[serde(default, rename = "silent_mode", alias = "silent")]
    #[arg(long, visible_alias = "silent-mode")]
    pub silent: bool,
    /// JMESPath query over the JSON tree (or the flattened list with flatten).
    #[serde(default, rename = "jmespath_query", alias = "query")]
    #[arg(long, visible_alias = "jmespath-query")]
    pub query: Option<String>,
    /// Query the depth-first node list (`_depth`, `_parent_role`, `_index`) instead of the tree.
    #[serde(default)]
    #[arg(long)]
    pub flatten: bool,
    /// Page size (1..10000) of a list result.
    #[serde(default)]
    #[arg(long)]
    pub limit: Option<usize>,
    /// First item of the page.
    #[serde(default)]
    #[arg(long)]
    pub offset: Option<usize>,
    /// Page through an earlier result without walking the page again.
    #[serde(default, rename = "cache_key")]
    #[arg(long)]
    pub cache_key: Option<String>,
}

/// `search` (SPEC 4).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Text to find (case-insensitive substring of name or value).
    #[serde(default)]
    pub text: Option<String>,
    /// Whole-name match instead of substring.
    #[serde(default)]
    #[arg(long)]
    pub exact: bool,
    /// Regular expression on name or value.
    #[serde(default)]
    #[arg(long)]
    pub pattern: Option<String>,
    /// Only this role.
    #[serde(default)]
    #[arg(long)]
    pub role: Option<String>,
    /// {x, y, radius} in CSS pixels, or "X,Y[,R]": nearest first.
    #[serde(default)]
    #[arg(long, value_name = "X,Y[,R]", value_parser = near_arg)]
    pub near: Option<serde_json::Value>,
    /// Most matches (default 10).
    #[serde(default)]
    #[arg(long)]
    pub limit: Option<usize>,
}

/// `query`: JMESPath over the snapshot (SPEC 4).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct QueryArgs {
    /// JMESPath expression.
    #[arg(value_name = "EXPR")]
    pub query: String,
    /// Query the flattened node list instead of the tree.
    #[serde(default)]
    #[arg(long)]
    pub flatten: bool,
    /// Page size of a list result.
    #[serde(default)]
    #[arg(long)]
    pub limit: Option<usize>,
    /// First item of the page.
    #[serde(default)]
    #[arg(long)]
    pub offset: Option<usize>,
    /// Page through an earlier result without walking the page again.
    #[serde(default)]
    #[arg(long)]
    pub cache_key: Option<String>,
}

/// Every step action (SPEC 5): the one schema of step files, MCP tools and the command
/// line. Serialized externally tagged (`{"click": "s1e4"}`); each variant's argument type
/// derives serde (step files and tools, with the short form where one exists), schemars
/// (the schema the tools are made from) and clap (`ariasnap click REF --double`). Doc
/// comments are the help of all three.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, clap::Subcommand)]
#[serde(rename_all = "camelCase")]
pub enum Action {
    /// Open a URL in the current tab and wait for it to load.
    Goto(
        #[serde(deserialize_with = "bare_or::<_, String, GotoArgs>")]
        #[schemars(with = "Form<String, GotoArgs>")]
        GotoArgs,
    ),
    /// Reload the page.
    Reload(NoArgs),
    /// Go back in history.
    Back(NoArgs),
    /// Go forward in history.
    Forward(NoArgs),
    /// Open a new tab (optionally at a URL) and make it current.
    #[command(alias = "newTab")]
    NewTab(
        #[serde(deserialize_with = "bare_or::<_, String, NewTabArgs>")]
        #[schemars(with = "Form<String, NewTabArgs>")]
        NewTabArgs,
    ),
    /// Make a tab (t1, t2...) current.
    #[command(alias = "switchTab")]
    SwitchTab(
        #[serde(deserialize_with = "bare_or::<_, String, TabArgs>")]
        #[schemars(with = "Form<String, TabArgs>")]
        TabArgs,
    ),
    /// Close a tab (default: the current one).
    #[command(alias = "closeTab")]
    CloseTab(
        #[serde(deserialize_with = "bare_or::<_, String, CloseTabArgs>")]
        #[schemars(with = "Form<String, CloseTabArgs>")]
        CloseTabArgs,
    ),
    /// List tabs with their URLs and titles.
    #[command(name = "tabs", alias = "list-tabs", alias = "listTabs")]
    ListTabs(NoArgs),
    /// Take a snapshot of the current page.
    Snapshot(SnapshotArgs),
    /// Find elements by text, regex, role or position; matches carry refs.
    Search(SearchArgs),
    /// JMESPath query over the snapshot.
    Query(QueryArgs),
    /// Click an element by ref (real pointer input, after a covered-target check), or a
    /// point {x, y} of the viewport (canvas, custom-drawn widgets).
    Click(
        #[serde(deserialize_with = "bare_or::<_, String, TargetArgs>")]
        #[schemars(with = "Form<String, TargetArgs>")]
        TargetArgs,
    ),
    /// Clear a field and type a value (real key input).
    Fill(FillArgs),
    /// Type text into a field (or the focused element) without clearing it.
    Type(TypeArgs),
    /// Press a key or chord (Enter, Control+a, Shift+Tab).
    Press(
        #[serde(deserialize_with = "bare_or::<_, String, PressArgs>")]
        #[schemars(with = "Form<String, PressArgs>")]
        PressArgs,
    ),
    /// Move the pointer over an element, or to a point {x, y} of the viewport.
    Hover(
        #[serde(deserialize_with = "bare_or::<_, String, HoverArgs>")]
        #[schemars(with = "Form<String, HoverArgs>")]
        HoverArgs,
    ),
    /// Choose options of a select by value or visible text.
    Select(SelectArgs),
    /// Set any control in one call (text, date/time, colour, range, slider, spin button,
    /// select, listbox, checkbox, radio, switch, ARIA combobox, contenteditable); returns the
    /// value read back.
    Set(SetArgs),
    /// Make a checkbox, radio or switch checked (no-op when it is).
    Check(
        #[serde(deserialize_with = "bare_or::<_, String, RefOnly>")]
        #[schemars(with = "Form<String, RefOnly>")]
        RefOnly,
    ),
    /// Make a checkbox or switch unchecked (no-op when it is).
    Uncheck(
        #[serde(deserialize_with = "bare_or::<_, String, RefOnly>")]
        #[schemars(with = "Form<String, RefOnly>")]
        RefOnly,
    ),
    /// Scroll a ref into view, or the page (direction, dx/dy, to).
    Scroll(ScrollArgs),
    /// Drag one element (or point) onto another.
    Drag(DragArgs),
    /// Set the files of a file input.
    Upload(UploadArgs),
    /// Wait for text, a ref, a selector or a URL (or, with hidden, for them to go away).
    Wait(WaitArgs),
    /// Pause for a number of milliseconds.
    Sleep(
        #[serde(deserialize_with = "bare_or::<_, u64, SleepArgs>")]
        #[schemars(with = "Form<u64, SleepArgs>")]
        SleepArgs,
    ),
    /// Evaluate a JavaScript expression in the page; its JSON value is the output.
    Eval(
        #[serde(deserialize_with = "bare_or::<_, String, EvalArgs>")]
        #[schemars(with = "Form<String, EvalArgs>")]
        EvalArgs,
    ),
    /// Check a condition now; the step fails when it does not hold.
    Assert(AssertArgs),
    /// Read text, value, name, role, html, box or attr:NAME of a ref, uncut.
    Get(
        #[serde(deserialize_with = "bare_or::<_, String, GetArgs>")]
        #[schemars(with = "Form<String, GetArgs>")]
        GetArgs,
    ),
    /// The current URL.
    #[command(alias = "getUrl")]
    GetUrl(NoArgs),
    /// The current title.
    #[command(alias = "getTitle")]
    GetTitle(NoArgs),
    /// Resize the viewport.
    Viewport(ViewportArgs),
    /// Act in a frame: "main", an index, or an iframe ref.
    Frame(
        #[serde(deserialize_with = "bare_or::<_, FrameArg, FrameArgs>")]
        #[schemars(with = "Form<FrameArg, FrameArgs>")]
        FrameArgs,
    ),
    /// List, set or clear cookies.
    Cookies(CookiesArgs),
    /// Console messages of the page.
    Console(ConsoleArgs),
    /// Save a PNG screenshot (of the viewport or a ref); annotate outlines and labels refs.
    Screenshot(ScreenshotArgs),
    /// What is at points of the viewport (role, name, box, a ref to act on), or near them
    /// with radius.
    #[command(alias = "elementsAt")]
    ElementsAt(
        #[serde(deserialize_with = "eyes_args::points_or_args")]
        #[schemars(with = "eyes_args::ElementsAtForm")]
        ElementsAtArgs,
    ),
    /// Print the page to a PDF file (WebDriver Print Page).
    Pdf(PdfArgs),
    /// Read the notes kept for a site (default: the current page's).
    #[command(alias = "readSiteNotes")]
    ReadSiteNotes(
        #[serde(deserialize_with = "bare_or::<_, String, ReadNotesArgs>")]
        #[schemars(with = "Form<String, ReadNotesArgs>")]
        ReadNotesArgs,
    ),
    /// Add to (or replace) the notes kept for a site; goto says when a site has notes.
    #[command(alias = "writeSiteNotes")]
    WriteSiteNotes(
        #[serde(deserialize_with = "bare_or::<_, String, WriteNotesArgs>")]
        #[schemars(with = "Form<String, WriteNotesArgs>")]
        WriteNotesArgs,
    ),
    /// Submit a form (by ref, or a control in it, or CSS selector) as a user would, after
    /// the browser's validation: an invalid form is not submitted and the step fails with
    /// each field's validation message.
    Submit(
        #[serde(deserialize_with = "bare_or::<_, String, SubmitArgs>")]
        #[schemars(with = "Form<String, SubmitArgs>")]
        SubmitArgs,
    ),
    /// Select text of a ref (an input's or textarea's value, or any element's text),
    /// optionally characters start..end; returns the selected text.
    #[command(alias = "selectText")]
    SelectText(
        #[serde(deserialize_with = "bare_or::<_, String, SelectTextArgs>")]
        #[schemars(with = "Form<String, SelectTextArgs>")]
        SelectTextArgs,
    ),
    /// Wait until the page is replaced by a new document (or its URL changes) and loads:
    /// the navigation an earlier step started.
    #[command(alias = "waitForNavigation")]
    WaitForNavigation(WaitForNavigationArgs),
    /// Run a page function until it returns a truthy value (host timers, never the
    /// page's); returns the value and the attempts.
    Poll(
        #[serde(deserialize_with = "bare_or::<_, String, PollArgs>")]
        #[schemars(with = "Form<String, PollArgs>")]
        PollArgs,
    ),
    /// Named groups of role/name or selector queries in one call; matches carry refs.
    #[command(alias = "queryAll")]
    QueryAll(
        #[serde(deserialize_with = "bare_or::<_, QueryGroups, QueryAllArgs>")]
        #[schemars(with = "vocab::QueryAllForm")]
        QueryAllArgs,
    ),
    /// A map of the page in a few hundred bytes: counts of roles and tags, forms, frames,
    /// headings, refs.
    Inspect(InspectArgs),
}

/// Names of all actions, in SPEC order.
pub const ACTIONS: &[&str] = &[
    "goto",
    "reload",
    "back",
    "forward",
    "newTab",
    "switchTab",
    "closeTab",
    "listTabs",
    "snapshot",
    "search",
    "query",
    "click",
    "fill",
    "type",
    "press",
    "hover",
    "select",
    "set",
    "check",
    "uncheck",
    "scroll",
    "drag",
    "upload",
    "wait",
    "sleep",
    "eval",
    "assert",
    "get",
    "getUrl",
    "getTitle",
    "viewport",
    "frame",
    "cookies",
    "console",
    "screenshot",
    "elementsAt",
    "pdf",
    "readSiteNotes",
    "writeSiteNotes",
    "submit",
    "selectText",
    "waitForNavigation",
    "poll",
    "queryAll",
    "inspect",
];

impl Action {
    /// The action's name as written in step files.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Goto(_) => "goto",
            Action::Reload(_) => "reload",
            Action::Back(_) => "back",
            Action::Forward(_) => "forward",
            Action::NewTab(_) => "newTab",
            Action::SwitchTab(_) => "switchTab",
            Action::CloseTab(_) => "closeTab",
            Action::ListTabs(_) => "listTabs",
            Action::Snapshot(_) => "snapshot",
            Action::Search(_) => "search",
            Action::Query(_) => "query",
            Action::Click(_) => "click",
            Action::Fill(_) => "fill",
            Action::Type(_) => "type",
            Action::Press(_) => "press",
            Action::Hover(_) => "hover",
            Action::Select(_) => "select",
            Action::Set(_) => "set",
            Action::Check(_) => "check",
            Action::Uncheck(_) => "uncheck",
            Action::Scroll(_) => "scroll",
            Action::Drag(_) => "drag",
            Action::Upload(_) => "upload",
            Action::Wait(_) => "wait",
            Action::Sleep(_) => "sleep",
            Action::Eval(_) => "eval",
            Action::Assert(_) => "assert",
            Action::Get(_) => "get",
            Action::GetUrl(_) => "getUrl",
            Action::GetTitle(_) => "getTitle",
            Action::Viewport(_) => "viewport",
            Action::Frame(_) => "frame",
            Action::Cookies(_) => "cookies",
            Action::Console(_) => "console",
            Action::Screenshot(_) => "screenshot",
            Action::Submit(_) => "submit",
            Action::SelectText(_) => "selectText",
            Action::WaitForNavigation(_) => "waitForNavigation",
            Action::Poll(_) => "poll",
            Action::QueryAll(_) => "queryAll",
            Action::Inspect(_) => "inspect",
            Action::ElementsAt(_) => "elementsAt",
            Action::Pdf(_) => "pdf",
            Action::ReadSiteNotes(_) => "readSiteNotes",
            Action::WriteSiteNotes(_) => "writeSiteNotes",
        }
    }

    /// Checks what the schema cannot say (a ref or a point, not both; bounds), so a bad
    /// step is refused before any step runs.
    pub fn check(&self) -> std::result::Result<(), String> {
        use eyes_args::check_target;
        match self {
            Action::Click(a) => check_target("click", a.ref_.as_deref(), a.x, a.y).map(|_| ()),
            Action::Hover(a) => check_target("hover", a.ref_.as_deref(), a.x, a.y).map(|_| ()),
            Action::Drag(d) => [&d.from, &d.to].into_iter().try_for_each(|e| match e {
                DragEnd::Point(p) => eyes_args::check_point(*p).map(|_| ()),
                DragEnd::Ref(_) => Ok(()),
            }),
            Action::ElementsAt(a) => a.all_points().map(|_| ()),
            Action::Pdf(p) => p.check(),
            _ => Ok(()),
        }
    }

    /// Actions that change what is on screen: the diff spans the first to the last of them.
    pub fn is_visual(&self) -> bool {
        matches!(
            self,
            Action::Click(_)
                | Action::Fill(_)
                | Action::Type(_)
                | Action::Press(_)
                | Action::Hover(_)
                | Action::Select(_)
                | Action::Set(_)
                | Action::Check(_)
                | Action::Uncheck(_)
                | Action::Scroll(_)
                | Action::Drag(_)
                | Action::Goto(_)
                | Action::Submit(_)
        )
    }

    /// The ref of the element an action acts on, when it names one (SPEC 8: a reply leads
    /// with that element's new state or value). A fields map of `fill` names several: none.
    pub fn target_ref(&self) -> Option<&str> {
        match self {
            Action::Click(a) => a.ref_.as_deref(),
            Action::Fill(a) => a.ref_.as_deref(),
            Action::Type(a) => a.ref_.as_deref(),
            Action::Press(a) => a.ref_.as_deref(),
            Action::Hover(a) => a.ref_.as_deref(),
            Action::Select(a) => Some(&a.ref_),
            Action::Set(a) => Some(&a.ref_),
            Action::Check(a) | Action::Uncheck(a) => Some(a.ref_str()),
            Action::Scroll(a) => a.ref_.as_deref(),
            Action::Submit(a) => a.ref_.as_deref(),
            _ => None,
        }
    }

    /// Actions that may change the page (they drop the snapshot cache, and the page's
    /// reaction is settled before the step ends). `selectText` is one: the page hears of a
    /// new selection from events queued after it (HTML's `select` for text controls, the
    /// Selection API's `selectionchange`), and may rewrite itself then.
    pub fn modifies_page(&self) -> bool {
        self.is_visual()
            || matches!(
                self,
                Action::SelectText(_)
                    | Action::Reload(_)
                    | Action::Back(_)
                    | Action::Forward(_)
                    | Action::Upload(_)
                    | Action::Eval(_)
                    | Action::Viewport(_)
                    | Action::Cookies(_)
                    | Action::WaitForNavigation(_)
                    | Action::Poll(_)
            )
    }
}

/// One step: an action, maybe optional, maybe with hooks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Step {
    #[serde(flatten)]
    pub action: Action,
    /// A failing optional step does not stop the run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    #[serde(flatten)]
    pub hooks: Hooks,
}

impl Step {
    /// A required step without hooks.
    pub fn of(action: Action) -> Step {
        Step {
            action,
            optional: false,
            hooks: Hooks::default(),
        }
    }
}

/// A step file: `{"tab"?, "timeout"?, "steps": [...]}` or a bare array of steps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StepFile {
    /// Tab alias to start in (t1, t2...).
    #[serde(default)]
    pub tab: Option<String>,
    /// Limit per step in ms (default 30000).
    #[serde(default)]
    pub timeout: Option<u64>,
    pub steps: Vec<Step>,
}

/// JSON schema of one step.
pub fn step_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Step)).unwrap_or_default()
}

/// JSON schema of the list of steps (for `browser_run_steps`).
pub fn steps_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Vec<Step>)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_is_in_the_list_and_the_schema() {
        let schema = step_schema().to_string();
        for a in ACTIONS {
            assert!(
                schema.contains(&format!("\"{a}\"")),
                "{a} missing from the schema"
            );
        }
        assert_eq!(ACTIONS.len(), 45);
    }

    #[test]
    fn steps_round_trip_in_their_file_form() {
        let s: Step = serde_json::from_str(r#"{"click": "s1e4", "optional": true}"#).unwrap();
        assert_eq!(
            s.action,
            Action::Click(TargetArgs::from("s1e4".to_string()))
        );
        assert!(s.optional);
        assert_eq!(s.action.name(), "click");
        let f: Step = serde_json::from_str(r#"{"fill": {"ref": "s1e2", "value": "x"}}"#).unwrap();
        assert!(matches!(f.action, Action::Fill(_)));
        let r: Step = serde_json::from_str(r#"{"reload": {}}"#).unwrap();
        assert_eq!(r.action, Action::Reload(NoArgs {}));
    }
}
