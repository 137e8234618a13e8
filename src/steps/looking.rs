//! Looking at the page: `snapshot`, `query`, `search`, `queryAll`, `inspect`, `get` and
//! `elementsAt`: the capture, then the view of `query::view` (detail, query, flatten,
//! paging), and the spill of long output to files.
//!
//! Owns: these steps' arguments, turning them into a capture and a view, and their outputs.
//! Must not: render (query::view and snapshot/ do).

use super::act::{Act, Core, Cx, Info, Kind, row};
use super::options::RunOptions;
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::capture::{CaptureOptions, capture};
use crate::engine::{SearchQuery, entry};
use crate::error::{Error, Result};
use crate::query::view::{Detail, View};
use crate::query::{Paging, cache, flatten, jmes, page, tree_value};
use crate::refs::parse_ref;
use crate::wire::{GetReply, SearchReply, WireSince};
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};

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
pub(super) fn snapshot_detail(s: &str) -> std::result::Result<SnapshotArgs, String> {
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
pub(super) enum SnapshotOptForm {
    On(bool),
    Detail(String),
    Args(Box<SnapshotArgs>),
}

/// `goto`'s `snapshot`: `true`, a detail level, or snapshot options (`false` and `null`:
/// none), the forms the `snapshot` step itself takes.
pub(super) fn snapshot_opt<'de, D: Deserializer<'de>>(
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

/// `snapshot` options (docs/reference/detail.md, docs/reference/search.md).
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

/// `search` (docs/reference/search.md#search).
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

/// `query`: JMESPath over the snapshot (docs/reference/search.md#jmespath-queries).
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

/// Answers a snapshot request in the current tab of `b` (session name for the page cache).
pub async fn view(b: &mut Browser, a: &SnapshotArgs, extra: &CaptureOptions) -> Result<View> {
    let detail = Detail::parse(a.detail.as_deref())?;
    let paging = Paging {
        limit: a.limit,
        offset: a.offset,
        cache_key: a.cache_key.clone(),
    };
    paging.validate()?;
    if let Some(since) = &a.since {
        let n = since
            .trim()
            .strip_prefix('s')
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(|| {
                Error::Usage(format!(
                    "since {since:?}: expected a snapshot number like \"s3\""
                ))
            })?;
        let v: WireSince = crate::engine::call(&b.page, entry::Since { n }).await?;
        if v.unchanged {
            return Ok(View::Data(json!({"unchanged": true, "since": since})));
        }
    }
    let session = b.record.name.clone();
    let tab = b.tab().to_string();
    let querying = a.query.is_some() || a.flatten || paging.active();
    // 1. cache: a page of an earlier result, without walking the page
    if paging.active()
        && let Some(key) = &paging.cache_key
    {
        if let Some(items) = cache::get(&format!("{session}-{tab}"), key)? {
            tracing::debug!(key, "query cache hit");
            return Ok(View::Data(page(&items, &paging, key)));
        }
        tracing::debug!(key, "query cache miss");
    }
    // docs/reference/detail.md#budgets: a budget applies to the full tree, read whole (what is left out is counted)
    let budget = a
        .budget
        .filter(|_| detail == Detail::Full && !querying && !a.silent);
    let opts = CaptureOptions {
        max_nodes: a.max_nodes.unwrap_or(if querying || budget.is_some() {
            0
        } else {
            extra.max_nodes
        }),
        all_refs: a.all_refs || extra.all_refs,
        verbose: a.verbose || extra.verbose,
        viewport: a.viewport || extra.viewport,
        root: a.root.clone().or_else(|| extra.root.clone()),
        boxes: detail == Detail::Summary || extra.boxes || budget.is_some(),
        container_refs: budget.is_some(),
        no_cache: a.no_cache || extra.no_cache,
        reuse: false,
        reveal_secrets: a.reveal_secrets || extra.reveal_secrets,
        ids: false,
    };
    let mut snap = capture(b, &opts).await?;
    if a.drop_unseen {
        snap.drop_unseen();
    }
    if a.silent {
        return Ok(View::Data(json!({
            "snapshot": format!("s{}", snap.number), "nodes": snap.nodes.len(), "refs": snap.ref_count(), "url": snap.url,
        })));
    }
    if let Some(t) = budget {
        return Ok(View::Budgeted(Box::new(snap), t));
    }
    if !querying {
        return Ok(View::Tree(Box::new(snap), detail));
    }
    // 2. flatten, 3. query
    let data = if a.flatten {
        Value::Array(flatten(&snap))
    } else {
        tree_value(&snap)?
    };
    let result = match &a.query {
        Some(q) => jmes::search(q, &data)?,
        None => data,
    };
    // 4. page
    if paging.active() {
        let Value::Array(items) = result else {
            return Err(Error::Usage(
                "pagination needs a list: add flatten, or a query that returns an array".into(),
            ));
        };
        let key = paging.cache_key.clone().unwrap_or_else(cache::new_key);
        cache::put(&format!("{session}-{tab}"), &key, &items)?;
        return Ok(View::Data(page(&items, &paging, &key)));
    }
    Ok(View::Data(result))
}

/// Runs a search in the current tab; matches carry ref, role, name, landmark path and box.
pub async fn search(b: &mut Browser, a: &SearchArgs) -> Result<Value> {
    if a.text.is_none() && a.pattern.is_none() && a.role.is_none() && a.near.is_none() {
        return Err(Error::Usage(
            "search needs text, pattern, role or near".into(),
        ));
    }
    if let Some(p) = &a.pattern {
        // Rust's regex syntax is close to JavaScript's for what agents write; reject early
        // what neither accepts.
        if regex::Regex::new(p).is_err() && !p.contains("(?<") {
            return Err(Error::Usage(format!(
                "invalid pattern {p:?}: not a regular expression"
            )));
        }
    }
    let near = match &a.near {
        None => None,
        Some(v) => Some(crate::query::search::parse_near(v)?),
    };
    let limit = a.limit.unwrap_or(10);
    if !(1..=crate::query::MAX_LIMIT).contains(&limit) {
        return Err(Error::Usage(format!(
            "invalid limit {limit}: it must be between 1 and {}",
            crate::query::MAX_LIMIT
        )));
    }
    // Matches may mint refs: they belong to a new snapshot number.
    let n = b.next_snapshot()?;
    let query = SearchQuery {
        text: a.text.clone(),
        exact: a.exact,
        pattern: a.pattern.clone(),
        role: a.role.clone(),
        near,
        limit,
        n,
    };
    let mut v: SearchReply = ask(b, query).await?;
    crate::query::search::shape_controls(&mut v.matches);
    Ok(json!({"matches": v.matches, "total": v.total}))
}

/// `query`: a JSON snapshot request with the query and paging options.
pub(super) async fn query(
    b: &mut Browser,
    q: &super::QueryArgs,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    let a = super::SnapshotArgs {
        query: Some(q.query.clone()),
        flatten: q.flatten,
        limit: q.limit,
        offset: q.offset,
        cache_key: q.cache_key.clone(),
        format: Some("json".into()),
        ..Default::default()
    };
    snapshot_step(b, &a, opts, artifacts).await
}

pub(super) async fn snapshot_step(
    b: &mut Browser,
    a: &super::SnapshotArgs,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    use crate::query::view::{View, ViewFormat};
    let fmt = ViewFormat::parse(a.format.as_deref())?;
    let extra = CaptureOptions {
        verbose: opts.verbose,
        ..Default::default()
    };
    let v = view(b, a, &extra).await?;
    let stats = match &v {
        View::Tree(s, _) | View::Budgeted(s, _) => Some(json!({
            "nodes": s.nodes.len(),
            "refs": s.ref_count(),
            "elements": s.stats.elements,
            "engine_ms": s.engine_ms,
            "walk_ms": s.stats.walk_ms,
            "cached": s.cached,
        })),
        View::Data(_) => None,
    };
    let o = snapshot_body(v, a, opts, fmt, artifacts)?;
    Ok(Outcome { stats, ..o })
}

const SPILLED_HINT: &str = "the full reply is in the file; narrow it with detail \"interactive\", root, viewport, a query or search";

/// A snapshot step's output when the body went to a file (`output::Spilled`, the one spill,
/// wrote it): where, and what it holds.
#[derive(Serialize)]
struct SpilledStep {
    spilled: SpilledFile,
    hint: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    snapshot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    refs: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    refs_file: Option<std::path::PathBuf>,
}

#[derive(Serialize)]
struct SpilledFile {
    path: std::path::PathBuf,
    bytes: usize,
}

fn snapshot_body(
    v: crate::query::view::View,
    a: &super::SnapshotArgs,
    opts: &RunOptions,
    fmt: crate::query::view::ViewFormat,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    use crate::query::view::{self, View, ViewFormat};
    let verbose = a.verbose || opts.verbose;
    let body = view::render_view(&v, fmt, verbose, false)?;
    if let View::Budgeted(s, _) = &v {
        return budgeted_body(s, body, fmt, verbose, opts, artifacts);
    }
    if let Some(sp) = crate::output::spill_if_over(
        &body,
        &v,
        fmt,
        opts.output.inline_limit,
        opts.output.artifacts.as_deref(),
    )? {
        artifacts.push(sp.body.path.display().to_string());
        let tree = match &v {
            View::Tree(s, _) | View::Budgeted(s, _) => Some(s),
            View::Data(_) => None,
        };
        if let Some(r) = &sp.refs_file {
            artifacts.push(r.display().to_string());
        }
        let reply = SpilledStep {
            spilled: SpilledFile {
                path: sp.body.path.clone(),
                bytes: sp.body.bytes,
            },
            hint: SPILLED_HINT,
            snapshot: tree.map(|s| format!("s{}", s.number)),
            nodes: tree.map(|s| s.nodes.len()),
            refs: tree.map(|s| s.ref_count()),
            summary: tree.map(|s| crate::snapshot::detail::summary_text(s)),
            refs_file: sp.refs_file,
        };
        return Ok(Outcome::with(json!(reply)));
    }
    match (&v, fmt) {
        (View::Data(d), ViewFormat::Text | ViewFormat::Json) => Ok(Outcome::with(d.clone())),
        (View::Tree(_, _), ViewFormat::Json) => {
            let v: Value = serde_json::from_str(&body).map_err(|source| Error::Json {
                what: "a rendered snapshot",
                source,
            })?;
            Ok(Outcome::with(v))
        }
        _ => Ok(Outcome::with(Value::String(body))),
    }
}

/// A budgeted snapshot is always inline (docs/reference/detail.md#budgets: never a bare file pointer).
fn budgeted_body(
    s: &crate::snapshot::Snapshot,
    body: String,
    fmt: crate::query::view::ViewFormat,
    verbose: bool,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    use crate::query::view::ViewFormat;
    let (body, file) =
        crate::output::budgeted_inline(s, body, fmt, verbose, opts.output.artifacts.as_deref())?;
    if let Some(f) = file {
        artifacts.push(f.display().to_string());
    }
    Ok(match fmt {
        ViewFormat::Text => Outcome::with(Value::String(body)),
        _ => Outcome::with(serde_json::from_str(&body).unwrap_or(Value::String(body))),
    })
}

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for SnapshotArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_snapshot", "value", r#"true, "interactive" or {"detail": "interactive"}"#);
    const CORE: Option<Core> = Some(Core {
        rank: 1,
        description: Some(
            "The page's accessibility tree with refs, fitted to budget tokens (default \
             4000); root expands an elided line.",
        ),
        props: &[
            ("detail", "full, interactive or summary"),
            ("root", "A ref, CSS selector or role=ROLE"),
            ("budget", ""),
            ("since", "Snapshot id: unchanged if nothing changed"),
            ("viewport", ""),
        ],
    });
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        snapshot_step(cx.b, self, cx.opts, cx.artifacts).await
    }
}

impl Act for SearchArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_search", "text", r#"{"text": "order placed", "role": "heading"}"#);
    const CORE: Option<Core> = Some(Core {
        rank: 2,
        description: Some("Find elements by text, role or regex; matches carry refs and context."),
        props: &[("text", ""), ("role", ""), ("pattern", ""), ("limit", "")],
    });
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        Ok(Outcome::with(search(cx.b, self).await?))
    }
}

impl Act for QueryArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_query", "query", r#"{"query": "[?role=='button'].name"}"#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        query(cx.b, self, cx.opts, cx.artifacts).await
    }
}

impl Act for GetArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_get", "value", r#""s1e4" or {"ref": "s1e4", "what": "value"}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = r;
        true
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        let get = entry::Get {
            r#ref: parse_ref(&self.ref_)?,
            what: self.what.clone().unwrap_or_else(|| "text".into()),
        };
        let v: GetReply = ask(cx.b, get).await?;
        Ok(Outcome::with(json!(v.value)))
    }
}
