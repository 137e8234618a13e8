//! Taking a snapshot of the current tab: reserve the snapshot number, call the engine,
//! build the tree.
//!
//! Owns: the snapshot options sent to the page. Must not: render.

use crate::browser::Browser;
use crate::engine;
use crate::error::{Error, Result};
use crate::snapshot::Snapshot;
use crate::wire::WireSnapshotOrError;
use serde_json::json;
use tracing::{Instrument, debug, info_span};

/// What to capture.
#[derive(Debug, Clone)]
pub struct CaptureOptions {
    /// Stop after this many nodes (0 = no limit).
    pub max_nodes: u64,
    pub all_refs: bool,
    pub verbose: bool,
    /// Only nodes that intersect the viewport.
    pub viewport: bool,
    /// Scope: a ref, a CSS selector or `role=main`.
    pub root: Option<String>,
    /// Boxes for every node.
    pub boxes: bool,
    /// Skip the engine's short-lived snapshot cache.
    pub no_cache: bool,
}

impl Default for CaptureOptions {
    fn default() -> Self {
        CaptureOptions {
            max_nodes: 10_000,
            all_refs: false,
            verbose: false,
            viewport: false,
            root: None,
            boxes: false,
            no_cache: false,
        }
    }
}

/// Snapshots the current tab.
pub async fn capture(browser: &mut Browser, opts: &CaptureOptions) -> Result<Snapshot> {
    let n = browser.next_snapshot()?;
    let args = json!({
        "n": n,
        "maxNodes": opts.max_nodes,
        "allRefs": opts.all_refs,
        "verbose": opts.verbose,
        "viewport": opts.viewport,
        "root": opts.root,
        "boxes": opts.boxes,
        "noCache": opts.no_cache,
    });
    let reply: WireSnapshotOrError = engine::call(&browser.client, "snapshot", &args)
        .instrument(info_span!("capture_snapshot", n))
        .await?;
    match reply {
        WireSnapshotOrError::Snapshot(w) => {
            if w.cached {
                debug!(n = w.snapshot, "snapshot cache hit: no walk");
            } else {
                debug!(n, "snapshot cache miss: walked");
            }
            debug!(
                nodes = w.nodes.len(),
                walk_ms = w.stats.walk_ms,
                engine_ms = w.engine_ms,
                "captured"
            );
            Ok(Snapshot::from_wire(*w))
        }
        WireSnapshotOrError::NoRoot { root } => Err(Error::Step(format!(
            "--root {root:?} matches nothing on this page"
        ))),
        WireSnapshotOrError::BadSelector { root } => Err(Error::Usage(format!(
            "--root {root:?} is neither a ref, role=ROLE nor a valid CSS selector"
        ))),
        other => Err(crate::refs::stale_error(&other)),
    }
}
