//! The `# ...` lines above a tree: the page header (docs/reference/output.md#page-header)
//! and the notes about what the snapshot does not show (unreadable frames, closed shadow
//! roots, masked secrets, unseen text, withheld refs, truncation).
//!
//! Owns: the words of those lines and the page header as JSON. Must not: print page text
//! other than through `safe::text` and `token`.

use super::TEXT_CUT;
use super::line::cut;
use crate::safe::{text, token};
use crate::snapshot::Snapshot;
use serde_json::Value;

/// The page header (docs/reference/output.md#page-header) as `# ...` lines: `# page: URL status=N ready=STATE`, then
/// `# wall: KIND (WHY)` when the page is a wall. No status when the browser knows none.
pub fn header_lines(snap: &Snapshot) -> Vec<String> {
    let Some(p) = &snap.page else {
        return Vec::new();
    };
    let status = p.status.map(|s| format!(" status={s}")).unwrap_or_default();
    let mut out = vec![format!(
        "# page: {}{status} ready={}",
        text(&cut(&p.url, 300)),
        token(&p.ready)
    )];
    if let Some(w) = &p.wall {
        out.push(format!(
            "# wall: {} ({})",
            w.kind.as_str(),
            text(&cut(&w.why, 200))
        ));
    }
    if let Some(pol) = &p.policy {
        out.push(format!("# policy: {}", text(pol)));
    }
    out
}

/// The page header as JSON (`page: {url, status, ready, wall?}`), or None.
pub fn header_json(snap: &Snapshot) -> Option<Value> {
    snap.page
        .as_ref()
        .and_then(|p| serde_json::to_value(p).ok())
}

/// Notes about what the snapshot does not show, as `# ...` comment lines.
pub fn notes(snap: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for f in &snap.frames {
        if let Some(why) = &f.unreadable {
            out.push(format!(
                "# frame f{} ({}) could not be read: {}",
                f.index,
                text(&cut(&f.url, TEXT_CUT)),
                text(why)
            ));
        }
    }
    let st = &snap.stats;
    let tags = if st.closed_hosts.is_empty() {
        String::new()
    } else {
        let tags: Vec<String> = st
            .closed_hosts
            .iter()
            .map(|t| text(&cut(t, 40)).into_owned())
            .collect();
        format!(" ({})", tags.join(", "))
    };
    if st.closed_read > 0 {
        out.push(format!(
            "# closed shadow roots: {} read{tags}",
            st.closed_read
        ));
    }
    if st.closed_unread > 0 {
        out.push(format!(
            "# closed shadow roots: {} custom elements may hold one that could not be read{tags} (the WebDriver endpoint does not return shadow roots)",
            st.closed_unread
        ));
    }
    if st.closed_pending > 0 {
        out.push(format!(
            "# closed shadow roots: {} more custom elements not checked yet (snapshot again to check them)",
            st.closed_pending
        ));
    }
    if snap.secrets_masked > 0 {
        out.push(format!(
            "# secrets: {} values shaped like secrets are masked (--reveal-secrets shows them)",
            snap.secrets_masked
        ));
    }
    if snap.unseen_dropped > 0 {
        out.push(format!(
            "# unseen: {} nodes not painted for a sighted user are left out (--drop-unseen)",
            snap.unseen_dropped
        ));
    }
    if snap.stats.withheld_refs > 0 {
        out.push(format!(
            "# compact refs: {} more elements in lists, grids and trees can take refs (use --all-refs)",
            snap.stats.withheld_refs
        ));
    }
    if snap.stats.left_out > 0 {
        out.push(format!(
            "# truncated: {} more nodes left out by --max-nodes {} (raise it, 0 = no limit, or use --root / --detail interactive)",
            snap.stats.left_out,
            if snap.stats.max_nodes > 0 {
                snap.stats.max_nodes
            } else {
                snap.stats.nodes
            }
        ));
    }
    out
}
