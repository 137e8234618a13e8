//! The engine's element helpers on `window.__ariaRefs` (their arguments and results are
//! WebDriver element references, which the JSON entry point cannot carry), and WebDriver's
//! Get Element Shadow Root, whose result goes back to them.
//!
//! Owns: the helper scripts and the typed reading of what they return. Must not: switch
//! browsing contexts (frames.rs and capture.rs do): helpers run wherever WebDriver is.

use super::Page;
use super::RawCommand;
use crate::error::Result;
use crate::wire::{WebRef, WireRoute};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tracing::debug;

/// The helpers, by what they do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Helper {
    /// The element behind a ref (resolved with the same checks as every action), or null.
    Element,
    /// Custom elements the last walk could not look into (closed shadow root candidates).
    ClosedCandidates,
    /// Hands the shadow roots WebDriver found back to the engine: (hosts, roots, failed).
    AdoptClosedRoots,
    /// Routes (iframe chains) to every cross-origin frame of the last walk.
    FrameRoutes,
    /// The route to cross-origin frame k of the last walk.
    FrameRoute,
    /// The element identities of what the page's own work and an action touched.
    TouchedIdentities,
}

impl Helper {
    fn script(self) -> &'static str {
        match self {
            Helper::Element => {
                "var a = window.__ariaRefs; return a && a.element ? a.element(arguments[0]) : null;"
            }
            Helper::ClosedCandidates => {
                "var a = window.__ariaRefs; return a && a.closedCandidates ? a.closedCandidates() : [];"
            }
            Helper::AdoptClosedRoots => {
                "var a = window.__ariaRefs; return a && a.adoptClosedRoots ? a.adoptClosedRoots(arguments[0], arguments[1], arguments[2]) : 0;"
            }
            Helper::FrameRoutes => {
                "var a = window.__ariaRefs; return a && a.frameRoutes ? a.frameRoutes() : [];"
            }
            Helper::FrameRoute => {
                "var a = window.__ariaRefs; return a && a.frameRoute ? a.frameRoute(arguments[0]) : null;"
            }
            Helper::TouchedIdentities => {
                "var a = window.__ariaRefs; return a && a.touchedIdentities ? a.touchedIdentities(arguments[0]) : null;"
            }
        }
    }

    /// Runs the helper in the current browsing context (top document or the frame WebDriver
    /// is switched to) and reads its result as `T`; a result of another shape is `None`.
    async fn run<T: DeserializeOwned>(self, page: &Page, args: Vec<Value>) -> Result<Option<T>> {
        let v = page.execute(self.script(), args).await?;
        Ok(serde_json::from_value(v)
            .map_err(|e| debug!(helper = ?self, error = %e, "unexpected helper result"))
            .ok())
    }
}

/// The WebDriver element id of the element behind ref `r` in the current browsing context
/// (None when the ref does not resolve there).
pub async fn element(page: &Page, r: &str) -> Result<Option<String>> {
    let el: Option<Option<WebRef>> = Helper::Element.run(page, vec![json!(r)]).await?;
    Ok(el.flatten().map(|w| w.id))
}

/// The custom elements the last walk of the current browsing context could not look into
/// (None for an entry WebDriver could not reference).
pub async fn closed_candidates(page: &Page) -> Result<Vec<Option<WebRef>>> {
    let hosts = Helper::ClosedCandidates.run(page, vec![]).await?;
    Ok(hosts.unwrap_or_default())
}

/// Hands the engine the shadow roots found for `hosts` (None where there is none), and
/// whether the endpoint `failed` to return any; returns how many it took.
pub async fn adopt_closed_roots(
    page: &Page,
    hosts: &[Option<WebRef>],
    roots: &[Option<WebRef>],
    failed: bool,
) -> Result<u64> {
    let args = vec![json!(hosts), json!(roots), json!(failed)];
    let adopted = Helper::AdoptClosedRoots.run(page, args).await?;
    Ok(adopted.unwrap_or(0))
}

/// Routes to every cross-origin frame of the current context's last walk (each with its
/// frame index `k`).
pub(super) async fn frame_routes(page: &Page) -> Result<Vec<WireRoute>> {
    let routes = Helper::FrameRoutes.run(page, vec![]).await?;
    Ok(routes.unwrap_or_default())
}

/// The route to cross-origin frame `k` of the current context's last walk (None when the
/// frame is gone).
pub(super) async fn frame_route(page: &Page, k: u32) -> Result<Option<WireRoute>> {
    let route: Option<Option<WireRoute>> = Helper::FrameRoute.run(page, vec![json!(k)]).await?;
    Ok(route.flatten())
}

/// The element identities (`Node::id` of a snapshot) of what the page's own work and an
/// action touched, from the work hook's node lists (`hooks::work_touched`).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
pub struct Touched {
    pub bg_up: Vec<u64>,
    pub bg_down: Vec<u64>,
    pub act_up: Vec<u64>,
    pub act_down: Vec<u64>,
}

/// [`Touched`] for the work hook's node lists `lists` (None when the engine could not say).
pub async fn touched_identities(page: &Page, lists: Value) -> Option<Touched> {
    Helper::TouchedIdentities
        .run(page, vec![lists])
        .await
        .ok()
        .flatten()
}

/// What WebDriver's Get Element Shadow Root answered for one host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShadowRoot {
    /// The root's reference (chromedriver and geckodriver answer for closed roots too).
    Found(WebRef),
    /// The host has none (or is gone).
    Missing,
    /// The endpoint cannot return shadow roots (a driver older than the command).
    Unsupported,
}

/// WebDriver's Get Element Shadow Root for element `host_id`, with the root's reference kept
/// as the driver wrote it so that it can go back to the page as a script argument
/// (fantoccini keeps that reference private).
pub async fn shadow_root(page: &Page, host_id: &str) -> ShadowRoot {
    if page.isolated() {
        // BiDi serializes a host's shadow root, closed ones included, in the engine's
        // sandbox: no driver script runs in the page's realm
        return match page.closed_shadow_root(host_id).await {
            Ok(Some(id)) => ShadowRoot::Found(WebRef {
                key: super::page::SHADOW_KEY.into(),
                id,
            }),
            Ok(None) => ShadowRoot::Missing,
            Err(e) => {
                debug!(error = %e, "shadow root probe failed");
                ShadowRoot::Missing
            }
        };
    }
    let Ok(client) = page.client().await else {
        return ShadowRoot::Missing;
    };
    let cmd = RawCommand {
        method: http::Method::GET,
        path: format!("element/{host_id}/shadow"),
        body: None,
    };
    match client.issue_cmd(cmd).await {
        Ok(v) => match serde_json::from_value(v) {
            Ok(root) => ShadowRoot::Found(root),
            Err(_) => ShadowRoot::Missing,
        },
        Err(e) if e.is_no_such_shadow_root() || e.is_stale_element_reference() => {
            ShadowRoot::Missing
        }
        Err(e)
            if e.is_unknown_command() || e.is_unknown_method() || e.is_unsupported_operation() =>
        {
            debug!(error = %e, "the WebDriver endpoint cannot return shadow roots");
            ShadowRoot::Unsupported
        }
        Err(e) => {
            debug!(error = %e, "shadow root probe failed");
            ShadowRoot::Missing
        }
    }
}
