//! Taking a snapshot of the current tab: reserve the snapshot number, call the engine in the
//! tab's document, hand it the closed shadow roots only WebDriver can reach, read
//! cross-origin frames by WebDriver frame switching, and stitch them in under their iframe
//! nodes.
//!
//! Owns: the snapshot options sent to the page, and the cross-origin frames a snapshot reads
//! (it always returns to the context it started in; the switches themselves are
//! `engine::frames`'). Must not: render, reach the page other than through `engine`, or make
//! per-node WebDriver round trips (closed-root probes are per custom element, once per
//! element's life; frames are per frame).

use crate::browser::Browser;
use crate::engine::{self, FrameTree, Page, Route, ShadowRoot, Walk};
use crate::error::Result;
use crate::snapshot::{Snapshot, stitch_frame};
use crate::wire::WireSnapshot;
use std::future::Future;
use std::pin::Pin;
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
    /// Refs for every element node, shown on elided lines only (`--budget`).
    pub container_refs: bool,
    /// Skip the engine's short-lived snapshot cache.
    pub no_cache: bool,
    /// The engine's last walk may serve when the page has not changed since it (the walk
    /// before an action: js/src/72_memo.js).
    pub reuse: bool,
    /// Print secret-shaped values as they are (also for the whole process:
    /// `secrets::set_reveal`).
    pub reveal_secrets: bool,
    /// Each element node's identity (`Node::id`), for the diff of an action's changes.
    pub ids: bool,
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
            container_refs: false,
            no_cache: false,
            reuse: false,
            reveal_secrets: false,
            ids: false,
        }
    }
}

/// Cross-origin frames inside cross-origin frames are read this many levels deep.
const MAX_FRAME_DEPTH: usize = 3;
/// Rounds of closed-root probing per document and snapshot (each probes up to 64 hosts).
const MAX_PROBE_ROUNDS: usize = 2;
/// The engine's reason for a frame it could not read from inside the page.
const CROSS_ORIGIN: &str = "cross-origin";

/// Snapshots the current tab.
pub async fn capture(browser: &mut Browser, opts: &CaptureOptions) -> Result<Snapshot> {
    // tabs that never had a `goto` (popups, tabs the page opened) get the engine preloaded
    // for their next documents too
    browser.ensure_preload().await;
    let n = browser.next_snapshot()?;
    let w = capture_context(&browser.page, opts, n, 0, 0, opts.max_nodes)
        .instrument(info_span!("capture_snapshot", n))
        .await?;
    let mut w = w;
    if let Some(p) = w.page.as_mut() {
        p.asked = browser.asked_for(&w.url);
    }
    let mut snap = Snapshot::from_wire(w);
    if let (Some(p), Some(h)) = (browser.policy(), snap.page.as_mut()) {
        h.policy = Some(p.summary());
    }
    snap.mask_named_secrets();
    if !opts.reveal_secrets && !crate::snapshot::secrets::revealed() {
        snap.mask_secrets();
    }
    Ok(snap)
}

type Boxed<'a, T> = Pin<Box<dyn Future<Output = Result<T>> + Send + 'a>>;

/// Snapshots the current browsing context (frame `frame`, 0 for the tab's document) and the
/// cross-origin frames under it, within `budget` nodes (0 = no limit).
fn capture_context<'a>(
    page: &'a Page,
    opts: &'a CaptureOptions,
    n: u64,
    frame: u32,
    depth: usize,
    budget: u64,
) -> Boxed<'a, WireSnapshot> {
    Box::pin(async move {
        // with BiDi, closed roots the page attached are known to the main world's hook
        // only: hand them to the engine's sandbox before it walks
        // (the channel of the tab's document is readied meanwhile: both are round trips)
        let (hooked, ()) = if frame == 0 {
            tokio::join!(engine::hooked_closed_roots(page), page.ready_top_call())
        } else {
            (engine::hooked_closed_roots(page).await, ())
        };
        let hooked = hooked.unwrap_or_default();
        if !hooked.is_empty() {
            let (hosts, roots): (Vec<_>, Vec<_>) =
                hooked.into_iter().map(|(h, r)| (Some(h), Some(r))).unzip();
            let taken = engine::adopt_closed_roots(page, &hosts, &roots, false).await?;
            debug!(frame, taken, "closed roots from the page's hook");
        }
        let mut w = walk(page, opts, n, frame, budget, opts.no_cache, opts.reuse).await?;
        let mut rounds = 0;
        while w.stats.closed_pending > 0 && rounds < MAX_PROBE_ROUNDS {
            rounds += 1;
            let p = probe_closed_roots(page).await?;
            debug!(
                frame,
                probed = p.probed,
                adopted = p.adopted,
                unsupported = p.unsupported,
                "closed shadow roots probed"
            );
            if p.adopted > 0 || w.stats.closed_pending > p.probed {
                // the closed roots' content (or the next hosts to probe) needs a new walk
                w = walk(page, opts, n, frame, budget, true, false).await?;
            } else {
                // nothing new to show: account for what was probed without walking again
                w.stats.closed_pending -= p.probed;
                if p.unsupported {
                    w.stats.closed_unread += p.probed;
                }
                break;
            }
        }
        read_cross_origin_frames(page, opts, n, depth, budget, &mut w).await?;
        Ok(w)
    })
}

/// One engine walk of the current browsing context.
async fn walk(
    page: &Page,
    opts: &CaptureOptions,
    n: u64,
    frame: u32,
    budget: u64,
    no_cache: bool,
    reuse: bool,
) -> Result<WireSnapshot> {
    let walk = Walk {
        n,
        max_nodes: budget,
        all_refs: opts.all_refs,
        verbose: opts.verbose,
        viewport: opts.viewport,
        // --root scopes the tab's document; frames read inside it are whole
        root: if frame == 0 { opts.root.clone() } else { None },
        boxes: opts.boxes,
        container_refs: opts.container_refs,
        no_cache,
        reuse,
        frame,
        ids: opts.ids,
    };
    // the tab's own document goes through the faster channel; frames WebDriver switched
    // into are only reachable through the script endpoint (no root, stale root ref and bad
    // selector replies are errors)
    let w: WireSnapshot = if frame == 0 {
        engine::call(page, walk).await?
    } else {
        engine::call_in_frame(page, walk).await?
    };
    if w.cached {
        debug!(n = w.snapshot, frame, "snapshot cache hit: no walk");
    } else {
        debug!(n, frame, "snapshot cache miss: walked");
    }
    debug!(
        nodes = w.nodes.len(),
        walk_ms = w.stats.walk_ms,
        engine_ms = w.engine_ms,
        frame,
        "captured"
    );
    Ok(w)
}

/// What one probing round found.
#[derive(Debug, Default)]
struct Probe {
    probed: u64,
    adopted: u64,
    /// The endpoint cannot return shadow roots (a driver older than the command).
    unsupported: bool,
}

/// Asks WebDriver for the shadow roots of the custom elements the last walk could not look
/// into, and hands what it finds back to the page.
async fn probe_closed_roots(page: &Page) -> Result<Probe> {
    let hosts = engine::closed_candidates(page).await?;
    let mut roots = Vec::with_capacity(hosts.len());
    let mut probe = Probe {
        probed: hosts.len() as u64,
        ..Probe::default()
    };
    for h in &hosts {
        let root = match h {
            Some(host) if !probe.unsupported => engine::shadow_root(page, &host.id).await,
            _ => ShadowRoot::Missing,
        };
        roots.push(match root {
            ShadowRoot::Found(r) => {
                probe.adopted += 1;
                Some(r)
            }
            ShadowRoot::Missing => None,
            ShadowRoot::Unsupported => {
                probe.unsupported = true;
                None
            }
        });
    }
    probe.adopted = engine::adopt_closed_roots(page, &hosts, &roots, probe.unsupported).await?;
    Ok(probe)
}

/// Reads the walk's cross-origin frames by switching into them, and stitches each under
/// its iframe node. A frame that cannot be read keeps a reason (shown in the notes).
async fn read_cross_origin_frames(
    page: &Page,
    opts: &CaptureOptions,
    n: u64,
    depth: usize,
    budget: u64,
    w: &mut WireSnapshot,
) -> Result<()> {
    let mut todo: Vec<usize> = (0..w.frames.len())
        .filter(|&j| w.frames[j].unreadable.as_deref() == Some(CROSS_ORIGIN) && w.frames[j].i > 0)
        .collect();
    if todo.is_empty() {
        return Ok(());
    }
    // Frames the browser could not load show its error page ("This content is blocked",
    // "This site can't be reached"): the frame tree says which, in one DevTools call, so
    // they are named in a note instead of entered (a switch costs ~30 ms a frame).
    let tree = engine::frame_tree(page).await;
    // without DevTools' frame tree (Firefox) each frame is checked once entered
    let check_error_page = tree.is_none();
    let mut failed = std::collections::HashSet::new();
    if let Some(tree) = &tree {
        failed_urls_of(tree, &mut failed);
        // cross-site frames under site isolation are not in the tab's frame tree: each is a
        // DevTools target of its own, which says whether its document failed to load (one
        // connection each, at once: a few ms, where entering a frame costs ~20)
        if let Some((addr, top)) = page.devtools_target().filter(|_| depth == 0) {
            let targets = crate::browser::devtools::frame_targets(&addr, &top)
                .await
                .unwrap_or_default();
            for u in engine::unreachable_frames(&addr, &targets).await {
                failed.insert(strip_fragment(&u).to_string());
            }
        }
    }
    todo.retain(|&j| {
        let f = &mut w.frames[j];
        if failed.contains(strip_fragment(&f.url)) {
            f.unreadable = Some(FAILED_TO_LOAD.into());
            false
        } else {
            true
        }
    });
    if todo.is_empty() {
        return Ok(());
    }
    // stitch from the last iframe up, so earlier insertion points stay put
    todo.sort_by_key(|&j| std::cmp::Reverse(w.frames[j].i));
    let mut routes = engine::frame_routes(page).await?;
    let mut used = w.nodes.len() as u64;
    for j in todo {
        let k = w.frames[j].k;
        if depth >= MAX_FRAME_DEPTH {
            w.frames[j].unreadable = Some(format!(
                "cross-origin, nested deeper than {MAX_FRAME_DEPTH} cross-origin frames"
            ));
            continue;
        }
        let left = if budget > 0 {
            let left = budget.saturating_sub(used);
            // the frame's document node is its iframe's: one node would show nothing
            if left <= 1 {
                w.frames[j].unreadable = Some("cross-origin, not read: --max-nodes reached".into());
                continue;
            }
            left
        } else {
            0
        };
        let Some(route) = routes.remove(&k) else {
            w.frames[j].unreadable = Some("cross-origin, gone before it could be read".into());
            continue;
        };
        match read_frame(page, opts, n, k, &route, depth, left, check_error_page).await? {
            Ok(Some(child)) => {
                used += child.nodes.len().saturating_sub(1) as u64;
                let at = usize::try_from(w.frames[j].i).unwrap_or(0);
                w.frames[j].unreadable = None;
                if !child.url.is_empty() {
                    w.frames[j].url = child.url.clone();
                }
                stitch_frame(w, at, child);
            }
            Ok(None) => w.frames[j].unreadable = Some(FAILED_TO_LOAD.into()),
            Err(e) => {
                debug!(k, error = %e, "cross-origin frame not read");
                w.frames[j].unreadable = Some(format!("cross-origin, {e}"));
            }
        }
    }
    Ok(())
}

/// Why a frame showing the browser's error page is not read.
const FAILED_TO_LOAD: &str = "it did not load (the browser shows its error page)";

fn strip_fragment(url: &str) -> &str {
    url.split_once('#').map_or(url, |(u, _)| u)
}

/// Collects into `out` the URLs of `tree`'s error-page frames (in the tab's frame tree such a
/// frame has an `unreachable_url`) not also loaded elsewhere in it, so a frame is only
/// skipped when no frame with its URL loaded.
fn failed_urls_of(tree: &FrameTree, out: &mut std::collections::HashSet<String>) {
    let mut failed = std::collections::HashSet::new();
    let mut loaded = std::collections::HashSet::new();
    let mut stack = vec![tree];
    while let Some(n) = stack.pop() {
        match n.frame.unreachable_url.as_deref() {
            Some(u) if !u.is_empty() => {
                failed.insert(strip_fragment(u).to_string());
            }
            _ => {
                loaded.insert(strip_fragment(&n.frame.url).to_string());
            }
        }
        stack.extend(n.child_frames.iter());
    }
    out.extend(failed.into_iter().filter(|u| !loaded.contains(u)));
}

/// Enters cross-origin frame `k` of the current context, snapshots it and comes back. The
/// outer error is fatal (the way back failed); the inner one says why this frame could not
/// be read; None when `check_error_page` and the frame shows the browser's error page (it
/// did not load).
#[allow(clippy::too_many_arguments)]
async fn read_frame(
    page: &Page,
    opts: &CaptureOptions,
    n: u64,
    k: u32,
    route: &Route,
    depth: usize,
    budget: u64,
    check_error_page: bool,
) -> Result<Result<Option<WireSnapshot>>> {
    let route = match engine::enter_route(page, route).await {
        Ok(r) => r,
        Err(e) => return Ok(Err(e)),
    };
    let res = if check_error_page && engine::shows_error_page(page).await {
        Ok(None)
    } else {
        capture_context(page, opts, n, k, depth + 1, budget)
            .await
            .map(Some)
    };
    engine::leave_frames(page, route).await?;
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_frames_from_the_frame_tree() {
        let tree = serde_json::json!({
            "frame": {"id": "A", "url": "http://127.0.0.1:8080/"},
            "childFrames": [
                {"frame": {"url": "chrome-error://chromewebdata/", "unreachableUrl": "https://ads.example/x#a"}},
                {"frame": {"url": "chrome-error://chromewebdata/", "unreachableUrl": "https://w.example/y"}},
                {"frame": {"url": "https://w.example/y"}, "childFrames": [
                    {"frame": {"url": "chrome-error://chromewebdata/", "unreachableUrl": "https://deep.example/"}}
                ]},
            ]
        });
        let tree: FrameTree = serde_json::from_value(tree).unwrap();
        let mut out = std::collections::HashSet::new();
        failed_urls_of(&tree, &mut out);
        let mut v: Vec<_> = out.into_iter().collect();
        v.sort();
        // w.example/y loaded in one frame: not skipped anywhere
        assert_eq!(v, vec!["https://ads.example/x", "https://deep.example/"]);
        assert_eq!(strip_fragment("https://a/b#c"), "https://a/b");
    }
}
