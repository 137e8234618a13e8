//! The short-lived snapshot cache: served without a walk while nothing changed, bypassed by
//! --all-refs and --no-cache, dropped by any change to the page.

use crate::common::{Ctx, Test, walks};
use serde_json::Value;

pub fn tests() -> Vec<Test> {
    vec![(
        "cache::repeat_snapshot_is_served_without_a_walk",
        repeat_snapshot_is_served_without_a_walk,
    )]
}

fn json_snapshot(c: &Ctx, extra: &[&str]) -> Value {
    let mut args = vec!["snapshot", "--format", "json", "--inline-limit", "0"];
    args.extend_from_slice(extra);
    serde_json::from_str(&c.ok(&args)).expect("JSON")
}

fn repeat_snapshot_is_served_without_a_walk(c: &Ctx) {
    c.snapshot("html/basic/page.html");
    // reading the counter runs an `eval` step, which drops the cache like any action
    let before = walks(c);
    let a = json_snapshot(c, &[]);
    let b = json_snapshot(c, &[]);
    assert_eq!(a["stats"]["cached"], false);
    assert_eq!(
        b["stats"]["cached"], true,
        "second snapshot within 5 s comes from the cache"
    );
    assert_eq!(a["children"], b["children"]);
    assert_eq!(walks(c), before + 1, "one walk for two snapshots");
    // --all-refs and --no-cache always walk
    let _ = json_snapshot(c, &[]);
    let _ = json_snapshot(c, &["--all-refs"]);
    let n = json_snapshot(c, &["--no-cache"]);
    assert_eq!(n["stats"]["cached"], false);
    assert_eq!(walks(c), before + 4);
    // a change the page makes by itself (no action in between) drops the cache
    c.ok(&[
        "eval",
        "(setTimeout(function(){ document.getElementById('other').setAttribute('aria-pressed', 'true') }, 400), 1)",
    ]);
    let e = json_snapshot(c, &[]);
    assert!(!e.to_string().contains("\"pressed\":true"));
    let f = json_snapshot(c, &[]);
    assert_eq!(f["stats"]["cached"], true);
    c.ok(&["sleep", "600"]);
    let d = json_snapshot(c, &[]);
    assert_eq!(
        d["stats"]["cached"], false,
        "the page changed: walked again"
    );
    assert!(d.to_string().contains("\"pressed\":true"));
}
