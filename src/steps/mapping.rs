//! Maps of the page in one call: `queryAll` (named groups of role / name or selector
//! queries, matches with refs) and `inspect` (counts of roles and tags, forms, frames,
//! headings, refs).
//!
//! Owns: these steps' arguments, their checks and their outputs.

use super::act::{Act, Cx, Info, Kind, row};
use super::args::Form;
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::engine::{QueryGroup, entry};
use crate::error::{Error, Result};
use crate::safe::quote;
use crate::wire::{InspectReply, QueryAllReply};
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;

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

/// `queryAll`: per group, its matches (with refs) and total.
pub async fn query_all(b: &mut Browser, q: &QueryAllArgs) -> Result<Outcome> {
    let groups: Vec<QueryGroup> = q
        .queries
        .0
        .iter()
        .map(|(label, s)| QueryGroup {
            label: label.clone(),
            role: s.role.clone(),
            name: s.name.clone(),
            exact: s.exact,
            selector: s.selector.clone(),
            limit: s.limit.or(q.limit).unwrap_or(10),
        })
        .collect();
    let n = b.next_snapshot()?;
    let r: QueryAllReply = ask(b, entry::QueryAll { groups, n }).await?;
    let mut o = serde_json::Map::new();
    for g in r.groups {
        if let Some(e) = g.error {
            let sel = q
                .queries
                .0
                .iter()
                .find(|(l, _)| *l == g.label)
                .and_then(|(_, s)| s.selector.clone())
                .unwrap_or_default();
            return Err(Error::Usage(format!(
                "queryAll query {}: {e} {}",
                quote(&g.label),
                quote(&sel)
            )));
        }
        o.insert(g.label, json!({"total": g.total, "matches": g.matches}));
    }
    Ok(Outcome::with(Value::Object(o)))
}

/// `inspect`: the page's map.
pub async fn inspect(b: &Browser, a: &InspectArgs) -> Result<Outcome> {
    let m = entry::Inspect {
        selectors: a.selectors.clone(),
    };
    let r: InspectReply = ask(b, m).await?;
    Ok(Outcome::with(
        serde_json::to_value(r).unwrap_or(Value::Null),
    ))
}

/// What serde cannot check of `queryAll`: at least one group, each with something to match,
/// limits within 1..100.
fn query_all_problems(q: &QueryAllArgs) -> Vec<String> {
    let mut out = Vec::new();

    if q.queries.0.is_empty() {
        out.push(
            "no queries: give named groups such as {\"buttons\": {\"role\": \"button\"}}".into(),
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
    out
}

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for QueryAllArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_query_all", "value", r#"{"buttons": {"role": "button"}, "rows": "table tr"} or {"queries": {...}, "limit": 5}"#);
    fn problems(&self) -> Vec<String> {
        query_all_problems(self)
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        query_all(cx.b, self).await
    }
}

impl Act for InspectArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_inspect", "value", r#"true or {"selectors": [".card"]}"#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        inspect(cx.b, self).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
