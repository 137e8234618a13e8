//! The argument types of the step vocabulary of issue 16 (`submit`, `selectText`,
//! `waitForNavigation`, `poll`, `queryAll`, `inspect`, `fill`'s fields map) and of the
//! step hooks (`readyWhen`, `settledWhen`, `observe`), with the checks that serde cannot
//! make (which option goes with which), run before any step does (SPEC 5).
//!
//! Owns: those shapes and their short forms. Must not: run anything (vocab_run.rs does).

use super::{Action, Form};
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// True for text written as a ref (`s1e4`, `f1s2e3`, `@s1e4`, `[ref=s1e4]`).
pub fn looks_like_ref(s: &str) -> bool {
    crate::refs::parse_ref(s).is_ok()
}

/// `poll`, and the hooks: a page expression or function source, polled until truthy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct PollArgs {
    /// A JavaScript expression or a function's source (`() => ...`, may return a promise),
    /// run in the page's main world like eval.
    #[serde(rename = "fn", alias = "expression")]
    #[arg(id = "fn", value_name = "FN", allow_hyphen_values = true)]
    pub fn_: String,
    /// Milliseconds between attempts (default 100).
    #[serde(default)]
    #[arg(long)]
    pub interval: Option<u64>,
    /// Limit in ms (poll: the step's deadline; hooks: 10000).
    #[serde(default)]
    #[arg(skip)]
    pub timeout: Option<u64>,
}

impl From<String> for PollArgs {
    fn from(fn_: String) -> Self {
        PollArgs {
            fn_,
            interval: None,
            timeout: None,
        }
    }
}

/// The page script that runs `fn` once: a function's source is called; the value (a
/// promise's, awaited) comes back as `{"ok": v}`, a throw as `{"threw": message}` (so
/// polling goes on through errors of a page still loading; a syntax error fails at once).
pub fn poll_script(src: &str) -> String {
    format!(
        "(function(){{ try {{ var v = ({src}\n); if (typeof v === 'function') v = v(); \
         if (v && typeof v.then === 'function') return v.then(function(x){{ return {{ok: x}}; }}, \
         function(e){{ return {{threw: '' + (e && e.message || e)}}; }}); \
         return {{ok: v}}; }} catch (e) {{ return {{threw: '' + (e && e.message || e)}}; }} }})()"
    )
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

/// `waitForNavigation`: until the document is replaced (or the URL changes) and loads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WaitForNavigationArgs {
    /// Limit in ms (default: the step's deadline, which is --timeout on the command line).
    #[serde(default)]
    #[arg(skip)]
    pub timeout: Option<u64>,
    /// load (default), domcontentloaded, or commit (the new document exists).
    #[serde(default)]
    #[arg(long)]
    pub wait_until: Option<String>,
}

/// What `waitUntil` may say.
pub const WAIT_UNTIL: &[&str] = &["load", "domcontentloaded", "commit"];

/// One query of a `queryAll` group: role and/or name over what snapshots show, or a CSS
/// selector (optionally filtered by role and name).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuerySpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Accessible name (case-insensitive substring; whole name with exact).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// Most matches of this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
}

impl From<String> for QuerySpec {
    fn from(selector: String) -> Self {
        QuerySpec {
            selector: Some(selector),
            ..Default::default()
        }
    }
}

/// Named query groups in the order written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryGroups(pub Vec<(String, QuerySpec)>);

impl<'de> Deserialize<'de> for QueryGroups {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum One {
            Selector(String),
            Spec(QuerySpec),
        }
        // serde_json's map keeps the written order (preserve_order)
        let m = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        let mut out = Vec::new();
        for (k, v) in m {
            let spec = match serde_json::from_value::<One>(v) {
                Ok(One::Selector(s)) => QuerySpec::from(s),
                Ok(One::Spec(s)) => s,
                Err(_) => {
                    return Err(serde::de::Error::custom(format!(
                        "query \"{k}\" must be a CSS selector or an object with role, name, \
                         exact, selector, limit"
                    )));
                }
            };
            out.push((k, spec));
        }
        Ok(QueryGroups(out))
    }
}

impl Serialize for QueryGroups {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// `queryAll --queries JSON` on the command line.
fn query_groups_arg(s: &str) -> std::result::Result<QueryGroups, String> {
    serde_json::from_str(s).map_err(|e| {
        format!("expected a JSON object such as {{\"buttons\": {{\"role\": \"button\"}}}}: {e}")
    })
}

// The forms of one query, for the schema.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub(super) enum QueryForm {
    Selector(String),
    Spec(QuerySpec),
}

/// `queryAll`: named groups of queries in one call; matches carry refs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct QueryAllArgs {
    /// {"buttons": {"role": "button"}, "email": {"role": "textbox", "name": "Email"},
    /// "rows": {"selector": "table tr"}}; a bare string is a selector.
    #[schemars(with = "BTreeMap<String, QueryForm>")]
    #[arg(long, value_name = "JSON", value_parser = query_groups_arg)]
    pub queries: QueryGroups,
    /// Most matches per group (default 10).
    #[serde(default)]
    #[arg(long)]
    pub limit: Option<usize>,
}

impl From<QueryGroups> for QueryAllArgs {
    fn from(queries: QueryGroups) -> Self {
        QueryAllArgs {
            queries,
            limit: None,
        }
    }
}

// queryAll's argument forms, for the schema: the groups bare, or with options.
pub(super) type QueryAllForm = Form<BTreeMap<String, QueryForm>, QueryAllArgs>;

/// `inspect`: a map of the page in a few hundred bytes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct InspectArgs {
    /// CSS selectors to count too.
    #[serde(default)]
    #[arg(long)]
    pub selectors: Vec<String>,
}

/// `fill --fields JSON` on the command line.
pub(super) fn fields_arg(
    s: &str,
) -> std::result::Result<serde_json::Map<String, serde_json::Value>, String> {
    serde_json::from_str(s).map_err(|e| {
        format!("expected a JSON object of refs and values such as {{\"s1e3\": \"ada@example.org\"}}: {e}")
    })
}

/// What serde cannot check about an action's options (which go together, allowed words),
/// in the words of step files; empty when the action is well formed.
pub fn problems(action: &Action) -> Vec<String> {
    let mut out = Vec::new();
    match action {
        Action::Fill(f) => match (&f.ref_, &f.value, &f.fields) {
            (Some(_), Some(_), None) => {}
            (None, None, Some(m)) => {
                if m.is_empty() {
                    out.push("fields is empty: give at least one ref and its value".into());
                }
                for (k, v) in m {
                    if !looks_like_ref(k) {
                        out.push(format!(
                            "fields: {k:?} is not a ref (expected s<n>e<m> from a snapshot)"
                        ));
                    }
                    if v.is_null() || v.is_object() {
                        out.push(format!(
                            "fields: the value of {k} must be text, a number, true/false or a list"
                        ));
                    }
                }
            }
            (Some(r), None, None) => out.push(format!("missing field `value` (the text {r} gets)")),
            (None, Some(_), None) => out.push("missing field `ref` (the field to fill)".into()),
            _ => out.push("give either ref and value, or fields (not both)".into()),
        },
        Action::Submit(s) => match (&s.ref_, &s.selector) {
            (Some(_), None) | (None, Some(_)) => {}
            (None, None) => out.push("give the form's ref or a CSS selector".into()),
            (Some(_), Some(_)) => out.push("give ref or selector, not both".into()),
        },
        Action::WaitForNavigation(w) => {
            if let Some(u) = &w.wait_until
                && !WAIT_UNTIL.contains(&u.as_str())
            {
                out.push(format!(
                    "waitUntil {u:?}: use load, domcontentloaded or commit"
                ));
            }
        }
        Action::Poll(p) => out.extend(hook_problems("poll", p)),
        Action::QueryAll(q) => {
            if q.queries.0.is_empty() {
                out.push(
                    "no queries: give named groups such as {\"buttons\": {\"role\": \"button\"}}"
                        .into(),
                );
            }
            for (label, spec) in &q.queries.0 {
                if spec.role.is_none() && spec.name.is_none() && spec.selector.is_none() {
                    out.push(format!("query \"{label}\" needs role, name or selector"));
                }
                if spec.limit == Some(0) || spec.limit.is_some_and(|l| l > 100) {
                    out.push(format!("query \"{label}\": limit must be 1..100"));
                }
            }
            if q.limit == Some(0) || q.limit.is_some_and(|l| l > 100) {
                out.push("limit must be 1..100".into());
            }
        }
        _ => {}
    }
    out
}

/// The checks of a function to poll (`poll`, `readyWhen`, `settledWhen`, `observe`).
pub fn hook_problems(what: &str, p: &PollArgs) -> Vec<String> {
    let mut out = Vec::new();
    if p.fn_.trim().is_empty() {
        out.push(format!(
            "{what}: the function is empty (write an expression such as \"document.readyState === 'complete'\")"
        ));
    }
    if p.interval == Some(0) {
        out.push(format!("{what}: interval must be at least 1 ms"));
    }
    if p.timeout == Some(0) {
        out.push(format!("{what}: timeout must be at least 1 ms"));
    }
    out
}

/// Step keys beside the action (SPEC 5 `optional`, and the hooks).
pub const STEP_KEYS: &[&str] = &["optional", "readyWhen", "settledWhen", "observe"];

/// A hook in its short or object form.
fn hook_opt<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<PollArgs>, D::Error> {
    Ok(match Option::<Form<String, PollArgs>>::deserialize(d)? {
        None => None,
        Some(Form::Bare(s)) => Some(PollArgs::from(s)),
        Some(Form::Full(p)) => Some(p),
    })
}

/// The hooks of a step: page functions run around its action.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Hooks {
    /// Polled before the action until truthy (default limit 10 s); when it stays falsy
    /// the step fails and the action does not run.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "hook_opt"
    )]
    #[schemars(with = "Option<Form<String, PollArgs>>")]
    pub ready_when: Option<PollArgs>,
    /// Polled after the action until truthy (default limit 10 s); when it stays falsy the
    /// step gets a warning.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "hook_opt"
    )]
    #[schemars(with = "Option<Form<String, PollArgs>>")]
    pub settled_when: Option<PollArgs>,
    /// Evaluated after the action (and settledWhen): its value is the step's observation.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "hook_opt"
    )]
    #[schemars(with = "Option<Form<String, PollArgs>>")]
    pub observe: Option<PollArgs>,
}

impl Hooks {
    pub fn is_empty(&self) -> bool {
        self.ready_when.is_none() && self.settled_when.is_none() && self.observe.is_none()
    }
}

/// A hook's value in a step file: a function's source, or `{fn, interval?, timeout?}`.
pub fn hook_from(key: &str, v: &serde_json::Value) -> std::result::Result<PollArgs, String> {
    let p = match v {
        serde_json::Value::String(s) => PollArgs::from(s.clone()),
        serde_json::Value::Object(_) => serde_json::from_value::<PollArgs>(v.clone())
            .map_err(|e| {
                format!(
                    "\"{key}\": {}; expected a page expression or function source, or {{\"fn\": \"...\", \"timeout\": 5000}}",
                    e.to_string().trim_end_matches('.')
                )
            })?,
        other => {
            return Err(format!(
                "\"{key}\" must be a page expression or function source such as \"() => !document.querySelector('.spinner')\", got {}",
                match other {
                    serde_json::Value::Null => "null",
                    serde_json::Value::Bool(_) => "a boolean",
                    serde_json::Value::Number(_) => "a number",
                    _ => "a list",
                }
            ));
        }
    };
    let problems = hook_problems(key, &p);
    if problems.is_empty() {
        Ok(p)
    } else {
        Err(problems.join("; "))
    }
}

/// JSON truthiness of a page value (JavaScript's: null, false, 0, "" are falsy; every
/// object and list is truthy).
pub fn truthy(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Null => false,
        serde_json::Value::Bool(b) => *b,
        serde_json::Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0 && !x.is_nan()),
        serde_json::Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn truthiness_is_javascripts() {
        for v in [json!(null), json!(false), json!(0), json!(0.0), json!("")] {
            assert!(!truthy(&v), "{v}");
        }
        for v in [json!(true), json!(1), json!("0"), json!([]), json!({})] {
            assert!(truthy(&v), "{v}");
        }
    }

    #[test]
    fn query_groups_keep_their_order_and_take_bare_selectors() {
        let q: QueryGroups = serde_json::from_value(json!({
            "rows": "table tr", "buttons": {"role": "button"}, "email": {"role": "textbox", "name": "Email", "exact": true}
        }))
        .unwrap();
        let labels: Vec<&str> = q.0.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(labels, ["rows", "buttons", "email"]);
        assert_eq!(q.0[0].1.selector.as_deref(), Some("table tr"));
        assert!(q.0[2].1.exact);
        let e = serde_json::from_value::<QueryGroups>(json!({"x": {"rol": "button"}})).unwrap_err();
        assert!(e.to_string().contains("query \"x\" must be"), "{e}");
    }

    #[test]
    fn the_poll_script_calls_functions_and_wraps_values() {
        let s = poll_script("() => 1");
        assert!(s.contains("var v = (() => 1\n)"), "{s}");
        assert!(s.contains("typeof v === 'function'"));
        // a trailing line comment cannot swallow the wrapper's closing parenthesis
        assert!(poll_script("x // note").contains("x // note\n)"));
    }
}
