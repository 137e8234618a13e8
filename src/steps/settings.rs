//! The page's settings and scripts: `eval`, `cookies`, `viewport`, and saved
//! logins: `saveState` and `loadState` (docs/guide.md#saved-logins).
//!
//! Owns: these steps' arguments and outputs (a saved state's reply gives counts and the
//! path, never a value). Must not: reach the browser other than through `engine` and
//! `browser` (browser/logins.rs saves and restores).

use super::act::{Act, Core, Cx, Gate, Info, Kind, row};
use super::args::no_args;
use crate::actions::Outcome;
use crate::browser::Browser;
use crate::error::{Error, Result};
use crate::policy::Switch;
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

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

/// `saveState`: the session's cookies and its open origins' storage, written to a file in
/// Playwright's storageState format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SaveStateArgs {
    /// The file to write (JSON, 0600: it holds secrets; replaced whole).
    #[arg(value_name = "FILE")]
    pub path: String,
    /// Also each origin's sessionStorage (an extra array Playwright ignores).
    #[serde(default)]
    #[arg(long)]
    pub session_storage: bool,
}

impl From<String> for SaveStateArgs {
    fn from(path: String) -> Self {
        SaveStateArgs {
            path,
            session_storage: false,
        }
    }
}

/// `loadState`: cookies and storage restored from a file `saveState` (or Playwright) wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct LoadStateArgs {
    /// The state file to read.
    #[arg(value_name = "FILE")]
    pub path: String,
}

impl From<String> for LoadStateArgs {
    fn from(path: String) -> Self {
        LoadStateArgs { path }
    }
}

pub(super) async fn eval(b: &Browser, e: &EvalArgs) -> Result<Outcome> {
    let (expr, offset, limit) = (&e.expression, e.offset, e.limit);
    let v = crate::engine::evaluate_user(&b.page, expr).await?;
    if offset.is_none() && limit.is_none() {
        return Ok(Outcome::with(v));
    }
    let off = offset.unwrap_or(0);
    let lim = limit.unwrap_or(100).clamp(1, 10_000);
    let paged = match &v {
        Value::Array(a) => {
            let items: Vec<Value> = a.iter().skip(off).take(lim).cloned().collect();
            json!({"items": items, "total_items": a.len(), "offset": off, "limit": lim, "has_more": off + lim < a.len()})
        }
        Value::String(s) => {
            let chars: Vec<char> = s.chars().collect();
            let part: String = chars.iter().skip(off).take(lim).collect();
            json!({"items": part, "total_items": chars.len(), "offset": off, "limit": lim, "has_more": off + lim < chars.len()})
        }
        other => other.clone(),
    };
    Ok(Outcome::with(paged))
}

pub(super) async fn cookies(b: &Browser, c: &super::CookiesArgs) -> Result<Outcome> {
    match c.action.as_deref().unwrap_or("list") {
        "list" => {
            let all = b.page.cookies().await?;
            let list: Vec<Value> = all
                .iter()
                .map(|k| json!({"name": k.name, "value": k.value, "domain": k.domain, "path": k.path}))
                .collect();
            Ok(Outcome::with(json!(list)))
        }
        "set" => {
            let (Some(name), Some(value)) = (&c.name, &c.value) else {
                return Err(Error::Usage("cookies set needs name and value".into()));
            };
            crate::engine::set_page_cookie(&b.page, name, value).await?;
            Ok(Outcome::with(json!({"set": name})))
        }
        "clear" => {
            b.page.delete_all_cookies().await?;
            Ok(Outcome::with(json!({"cleared": true})))
        }
        other => Err(Error::Usage(format!(
            "cookies action {other:?}: use list, set or clear"
        ))),
    }
}

/// `saveState`: writes the session's state to the file; the reply counts what was saved.
pub(super) async fn save_state(
    b: &Browser,
    a: &SaveStateArgs,
    opts: &super::RunOptions,
) -> Result<Outcome> {
    use crate::browser::logins;
    let to = opts.user_path("saveState", &a.path)?;
    let (mut s, unread) = b.save_state(a.session_storage).await?;
    // docs/reference/policy.md#secrets: a secret the page kept is saved masked
    let masked = s.mask_secrets();
    logins::write_file(&to, &s)?;
    let mut o = Outcome::with(json!(s.saved_sentence(&a.path)));
    if !masked.is_empty() {
        o.warnings.push(format!(
            "the page kept a secret's value in {}: saved as [secret:NAME], so a restore gives the page that text instead (a secret is never written to a file)",
            masked.join(", ")
        ));
    }
    if !unread.is_empty() {
        o.warnings.push(format!(
            "the storage of a document of {} was not read (its page did not answer)",
            unread.join(", ")
        ));
    }
    Ok(o)
}

/// `loadState`: restores the file's cookies and storage into the session, within the
/// step's deadline; the reply counts what was restored (and says what was left out).
pub(super) async fn load_state(
    b: &Browser,
    a: &LoadStateArgs,
    opts: &super::RunOptions,
) -> Result<Outcome> {
    let from = opts.user_path("loadState", &a.path)?;
    let s = crate::browser::logins::read_file(&from)?;
    let done = b
        .restore_state(&s, super::options::within(b.timeout))
        .await?;
    let mut o = Outcome::with(json!(done.sentence(&a.path)));
    if !done.skipped.is_empty() {
        o.warnings
            .push(format!("left out {}", done.skipped.join(", ")));
    }
    Ok(o)
}

/// `secrets`: the names of the session's secrets and the origins each is bound to, never a
/// value (docs/reference/policy.md#secrets).
pub(super) fn secrets(b: &Browser) -> Outcome {
    let list: Vec<serde_json::Value> = b
        .policy()
        .map(|p| {
            p.secrets
                .iter()
                .map(|(name, s)| {
                    let origins: Vec<String> = s.origins.iter().map(ToString::to_string).collect();
                    json!({"name": name, "origins": if origins.is_empty() { json!("any") } else { json!(origins) }})
                })
                .collect()
        })
        .unwrap_or_default();
    Outcome::with(json!(list))
}

no_args!(
    /// `getUrl`: none.
    GetUrlArgs,
    /// `getTitle`: none.
    GetTitleArgs,
    /// `secrets`: none.
    SecretsArgs,
);

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for EvalArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_evaluate", "expression", r#""document.title" or {"expression": "..."}"#);
    const CORE: Option<Core> = Some(Core {
        rank: 8,
        description: Some(
            "Evaluate a JavaScript expression (an IIFE for statements) in the page; \
             returns its JSON value.",
        ),
        props: &[("expression", "")],
    });
    fn gate(&self) -> Gate<'_> {
        Gate::Off(Switch::Eval)
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        eval(cx.b, self).await
    }
}

impl Act for GetUrlArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_get_url", "value", "true");
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        Ok(Outcome::with(json!(cx.b.url().await)))
    }
}

impl Act for GetTitleArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_get_title", "value", "true");
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        Ok(Outcome::with(json!(cx.b.title().await)))
    }
}

impl Act for ViewportArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_viewport", "value", r#"{"width": 1280, "height": 800}"#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        cx.b.page.set_window_size(self.width, self.height).await?;
        let inner = crate::engine::viewport_size(&cx.b.page).await?;
        Ok(Outcome::with(json!({"viewport": inner})))
    }
}

impl Act for CookiesArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_cookies", "value", r#"{"action": "list"}"#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        cookies(cx.b, self).await
    }
}

impl Act for SaveStateArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_save_state", "value", r#""state.json" or {"path": "state.json", "sessionStorage": true}"#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        save_state(cx.b, self, cx.opts).await
    }
}

impl Act for LoadStateArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_load_state", "value", r#""state.json" or {"path": "state.json"}"#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        load_state(cx.b, self, cx.opts).await
    }
}

impl Act for SecretsArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_secrets", "value", "true");
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        Ok(secrets(cx.b))
    }
}
