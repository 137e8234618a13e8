//! What a snapshot request returns once detail, query, flatten, paging and silence are
//! applied (SPEC 3/4), shared by the CLI, step files and MCP.
//!
//! Order: cache, flatten, query, page, format.

use super::{Paging, cache, flatten, jmes, page, tree_value};
use crate::browser::Browser;
use crate::capture::{CaptureOptions, capture};
use crate::error::{Error, Result};
use crate::snapshot::Snapshot;
use crate::snapshot::detail;
use crate::snapshot::render::{self, RenderOptions};
use crate::steps::SnapshotArgs;
use serde_json::{Value, json};

/// Detail levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    Full,
    Interactive,
    Summary,
}

impl Detail {
    pub fn parse(s: Option<&str>) -> Result<Detail> {
        match s.unwrap_or("full") {
            "full" => Ok(Detail::Full),
            "interactive" => Ok(Detail::Interactive),
            "summary" => Ok(Detail::Summary),
            other => Err(Error::Usage(format!(
                "unknown detail {other:?}: use full, interactive or summary"
            ))),
        }
    }
}

/// A snapshot request's answer.
pub enum View {
    /// A tree at some detail level.
    Tree(Box<Snapshot>, Detail),
    /// Data: query results, pages, silent captures, unchanged replies.
    Data(Value),
}

/// Output formats of a view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewFormat {
    Text,
    Json,
    Yaml,
}

impl ViewFormat {
    pub fn parse(s: Option<&str>) -> Result<ViewFormat> {
        match s.unwrap_or("text") {
            "text" => Ok(ViewFormat::Text),
            "json" => Ok(ViewFormat::Json),
            "yaml" => Ok(ViewFormat::Yaml),
            other => Err(Error::Usage(format!(
                "unknown output format {other:?}: use text, json or yaml"
            ))),
        }
    }
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
        let v: Value = crate::engine::call(&b.client, "since", &json!({"n": n})).await?;
        if v["unchanged"] == json!(true) {
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
    let opts = CaptureOptions {
        max_nodes: a
            .max_nodes
            .unwrap_or(if querying { 0 } else { extra.max_nodes }),
        all_refs: a.all_refs || extra.all_refs,
        verbose: a.verbose || extra.verbose,
        viewport: a.viewport || extra.viewport,
        root: a.root.clone().or_else(|| extra.root.clone()),
        boxes: detail == Detail::Summary || extra.boxes,
        no_cache: extra.no_cache,
    };
    let snap = capture(b, &opts).await?;
    if a.silent {
        return Ok(View::Data(json!({
            "snapshot": format!("s{}", snap.number), "nodes": snap.nodes.len(), "refs": snap.ref_count(), "url": snap.url,
        })));
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

/// Renders a view as the CLI prints it.
pub fn render_view(v: &View, fmt: ViewFormat, verbose: bool, pretty: bool) -> Result<String> {
    let ropts = RenderOptions { verbose };
    match v {
        View::Data(d) => super::format_value(
            d,
            fmt == ViewFormat::Yaml,
            pretty || fmt == ViewFormat::Text,
        ),
        View::Tree(s, Detail::Full) => match fmt {
            ViewFormat::Text => Ok(render::to_text(s, &ropts)),
            ViewFormat::Json => Ok(render::to_json(s, &ropts, pretty)),
            ViewFormat::Yaml => super::format_value(&tree_value(s)?, true, false),
        },
        View::Tree(s, Detail::Interactive) => match fmt {
            ViewFormat::Text => Ok(detail::interactive_text(s, verbose)),
            _ => super::format_value(
                &detail::interactive_json(s),
                fmt == ViewFormat::Yaml,
                pretty,
            ),
        },
        View::Tree(s, Detail::Summary) => match fmt {
            ViewFormat::Text => Ok(detail::summary_text(s)),
            _ => super::format_value(&detail::summary_json(s), fmt == ViewFormat::Yaml, pretty),
        },
    }
}

/// The refs map of a snapshot (`ref -> {role, name}`), for the `.refs.json` artifact.
pub fn refs_map(s: &Snapshot) -> Value {
    let mut m = serde_json::Map::new();
    for n in s.nodes.iter() {
        if let Some(r) = &n.ref_ {
            m.insert(r.clone(), json!({"role": n.role, "name": n.name}));
        }
    }
    Value::Object(m)
}

/// Refs maps above this many entries go to their own `.refs.json` when a reply spills.
pub const REFS_FILE_OVER: usize = 1000;
