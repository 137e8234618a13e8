//! Looking at the page for a step: the snapshot request (capture, then the view of
//! `query::view`: detail, query, flatten, paging) and `search`, answered in the page (SPEC
//! 3/4). The capturing half of what `query` computes over a `Snapshot`.
//!
//! Owns: turning step arguments into a capture and a view. Must not: render (query::view
//! and snapshot/ do).

use crate::actions::ask;
use crate::browser::Browser;
use crate::capture::{CaptureOptions, capture};
use crate::engine::{Method, SearchQuery};
use crate::error::{Error, Result};
use crate::query::view::{Detail, View};
use crate::query::{Paging, cache, flatten, jmes, page, tree_value};
use crate::steps::{SearchArgs, SnapshotArgs};
use crate::wire::{SearchReply, WireSince};
use serde_json::{Value, json};

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
        let v: WireSince = crate::engine::call(&b.client, Method::Since { n }).await?;
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
    // SPEC 8: a budget applies to the full tree, read whole (what is left out is counted)
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
    let v: SearchReply = ask(b, Method::Search(query)).await?;
    Ok(json!({"matches": v.matches, "total": v.total}))
}
