//! Frame routing for refs: a ref minted in a cross-origin frame (`f<k>` refs, k read by
//! frame switching; nested ones k*1000+j) is acted on in that frame. Classic WebDriver
//! switches into it along the route the page gives (the iframe elements from the current
//! document down), the page channel's context stack follows, and the way back is always
//! taken, also on failure.
//!
//! Owns: routes and their entering and leaving ([`enter_route`], [`leave_frames`]), the frame
//! chain a ref names ([`frame_chain_of_ref`]), and [`call_for_ref`], which runs a method about
//! a ref in the document that minted it. Must not: read or stitch frames into a snapshot
//! (capture.rs does), or leave a switch without its way back.

use super::{Entry, Method, Page, helpers};
use crate::error::{Error, Result};
use crate::wire::WireRoute;

/// Where a cross-origin frame of the current context is, for the host: how many frames were
/// entered to reach it and its content origin in the current context's viewport.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameRoute {
    /// Frames entered (leave with [`leave_frames`]).
    pub entered: usize,
    /// The frame's content origin in the starting context's viewport, CSS pixels.
    pub offset: (f64, f64),
}

/// How the page says to reach one of its cross-origin frames: WebDriver references of the
/// iframe elements from the current document down, and the frame's content origin (enter
/// it with [`enter_route`]).
#[derive(Debug, Clone, Default)]
pub struct Route {
    chain: Vec<String>,
    offset: (f64, f64),
}

impl From<WireRoute> for Route {
    fn from(r: WireRoute) -> Self {
        Route {
            chain: r.chain.into_iter().map(|e| e.id).collect(),
            offset: (r.x, r.y),
        }
    }
}

/// Routes to every cross-origin frame of the current context's last walk, by frame index
/// (one round trip for all of them).
pub async fn frame_routes(page: &Page) -> Result<std::collections::HashMap<u32, Route>> {
    let mut out = std::collections::HashMap::new();
    for r in helpers::frame_routes(page).await? {
        if let Some(k) = r.k {
            let route = Route::from(r);
            if !route.chain.is_empty() {
                out.insert(k, route);
            }
        }
    }
    Ok(out)
}

/// Switches along a route; on failure, goes back to where it started.
pub async fn enter_route(page: &Page, route: &Route) -> Result<FrameRoute> {
    let mut entered = 0;
    for id in &route.chain {
        // with BiDi the page learns the frame's context first: engine calls follow the
        // switch into the frame's sandbox
        if let Err(e) = page.enter_frame_element(id).await {
            leave_n(page, entered).await?;
            return Err(e);
        }
        entered += 1;
    }
    Ok(FrameRoute {
        entered,
        offset: route.offset,
    })
}

/// Switches into cross-origin frame `k` of the last walk of the current context (through
/// the same-origin frames around it). Returns how many frames were entered and where.
async fn enter_frame(page: &Page, k: u32) -> Result<FrameRoute> {
    let route = helpers::frame_route(page, k)
        .await?
        .map(Route::from)
        .unwrap_or_default();
    if route.chain.is_empty() {
        return Err(Error::Step(format!(
            "frame f{k} is gone: take a new snapshot"
        )));
    }
    enter_route(page, &route).await
}

/// Goes back up `route.entered` frames.
pub async fn leave_frames(page: &Page, route: FrameRoute) -> Result<()> {
    leave_n(page, route.entered).await
}

async fn leave_n(page: &Page, n: usize) -> Result<()> {
    for _ in 0..n {
        page.enter_parent_frame().await?;
    }
    Ok(())
}

/// The cross-origin frames a ref lives in, outermost first (`f2004s1e3` -> [2, 2004]; a
/// ref of the tab's document or of a same-origin frame may still be in this list: entering
/// stops at the first frame the current context does not know as cross-origin).
pub fn frame_chain_of_ref(r: &str) -> Vec<u32> {
    let Some(rest) = r.strip_prefix('f') else {
        return Vec::new();
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let Ok(mut k) = digits.parse::<u32>() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    while k > 0 {
        out.push(k);
        k /= 1000;
    }
    out.reverse();
    out
}

/// Enters the cross-origin frames that hold ref `r` (none for refs of the tab's document
/// and of same-origin frames), so engine calls about it reach the document that minted it.
/// Returns the route to leave with [`leave_frames`]; its offset is the frame's content
/// origin in the tab's viewport (add it to points the frame's engine returns).
pub async fn enter_ref_frame(page: &Page, r: &str) -> Result<FrameRoute> {
    let mut total = FrameRoute {
        entered: 0,
        offset: (0.0, 0.0),
    };
    for k in frame_chain_of_ref(r) {
        match enter_frame(page, k).await {
            Ok(step) => {
                total.entered += step.entered;
                total.offset.0 += step.offset.0;
                total.offset.1 += step.offset.1;
            }
            // not a cross-origin frame of this context: the ref lives here
            Err(Error::Step(_)) => break,
            Err(e) => {
                leave_frames(page, total).await?;
                return Err(e);
            }
        }
    }
    Ok(total)
}

/// Calls the engine's `method` in the document that minted the ref it is about (its
/// `target_ref`): enters the cross-origin frames that hold the ref, calls, and comes back.
/// Returns the typed reply and the frame's content origin in the tab's viewport, measured
/// after the call (a `point` call may scroll): add it to points the reply carries before
/// dispatching input from the tab's top-level context. Calls about refs of the tab's
/// document and of same-origin frames, or about no ref, need no switch (offset 0, 0).
pub async fn call_for_ref<E: Entry>(page: &Page, call: E) -> Result<(E::Reply, (f64, f64))> {
    let method: Method = call.into();
    let (args, r) = method.args_and_target();
    let r = r.unwrap_or_default();
    if frame_chain_of_ref(&r).is_empty() {
        return Ok((
            super::call_args(page, method.name(), &args).await?,
            (0.0, 0.0),
        ));
    }
    let route = enter_ref_frame(page, &r).await?;
    let res = super::call_in_frame_args(page, method.name(), &args).await;
    leave_frames(page, route).await?;
    let reply = res?;
    if route.entered == 0 {
        return Ok((reply, (0.0, 0.0)));
    }
    // where the frame is now
    let again = enter_ref_frame(page, &r).await?;
    leave_frames(page, again).await?;
    Ok((reply, again.offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_chains_of_refs() {
        assert_eq!(frame_chain_of_ref("s1e2"), Vec::<u32>::new());
        assert_eq!(frame_chain_of_ref("f0s1e2"), Vec::<u32>::new());
        assert_eq!(frame_chain_of_ref("f3s1e2"), vec![3]);
        assert_eq!(frame_chain_of_ref("f2004s1e3"), vec![2, 2004]);
        assert_eq!(frame_chain_of_ref("fxs1"), Vec::<u32>::new());
    }
}
