//! The short-lived snapshot cache: served without a walk while nothing changed, bypassed by
//! --all-refs and --no-cache, dropped by any change to the page. The kept walk
//! (js/src/72_memo.js): an action on a page that stood still walks it once, and a change the
//! page made meanwhile, in a shadow root too, is not read as the action's. And the engine's
//! warm-up (js/src/90_api.js): a loaded page is walked in idle time, and nothing of it shows.

use crate::common::{Ctx, Test, eval, line_with, walks};
use serde_json::Value;

pub fn tests() -> Vec<Test> {
    trials![
        repeat_snapshot_is_served_without_a_walk,
        an_action_on_a_page_that_stood_still_walks_it_once,
        a_change_in_a_shadow_root_between_commands_is_not_the_actions,
        the_warm_up_leaves_no_trace,
        the_warm_up_uses_the_hosts_settle_sleep
    ]
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
    // a change the page makes by itself (no action in between) drops the cache: a timer
    // due after the 1 s an action's reply waits for its timers (replies.md#settling)
    c.ok(&[
        "eval",
        "(setTimeout(function(){ document.getElementById('other').setAttribute('aria-pressed', 'true') }, 1200), 1)",
    ]);
    let e = json_snapshot(c, &[]);
    assert!(!e.to_string().contains("\"pressed\":true"));
    let f = json_snapshot(c, &[]);
    assert_eq!(f["stats"]["cached"], true);
    c.ok(&["sleep", "1400"]);
    let d = json_snapshot(c, &[]);
    assert_eq!(
        d["stats"]["cached"], false,
        "the page changed: walked again"
    );
    assert!(d.to_string().contains("\"pressed\":true"));
}

fn memo_hits(c: &Ctx) -> u64 {
    eval(c, "JSON.parse(window.__ariaRefs.stats)")["memo_hits"]
        .as_u64()
        .expect("memo counter")
}

fn an_action_on_a_page_that_stood_still_walks_it_once(c: &Ctx) {
    let url = c.url("html/cache/stood-still.html");
    c.ok(&["goto", &url]);
    let t = c.ok(&["snapshot", "--inline-limit", "0"]);
    let press = crate::common::ref_of(&t, "button \"Press\"");
    // reading the counter is an `eval`, an action: it drops the kept walk
    let before = memo_hits(c);
    let r = c.ok(&["--format", "text", "click", &press]);
    assert!(r.contains("Pressed 1"), "{r}");
    // the journal's locator of the target and the walk before the click: one walk
    assert_eq!(memo_hits(c), before + 1, "one walk before the first click");
    let before = memo_hits(c);
    c.ok(&["click", &press]);
    let r = c.ok(&["--format", "text", "click", &press]);
    assert!(r.contains("Pressed 3"), "{r}");
    // each later click on a page that stood still since the last reply: no walk before it
    // (the locator and the walk before both are the last reply's walk)
    assert_eq!(
        memo_hits(c),
        before + 1 + 2,
        "no walk before the third click"
    );
}

fn a_change_in_a_shadow_root_between_commands_is_not_the_actions(c: &Ctx) {
    let url = c.url("html/cache/stood-still.html");
    c.ok(&["goto", &url]);
    let t = c.ok(&["snapshot", "--inline-limit", "0"]);
    let press = crate::common::ref_of(&t, "button \"Press\"");
    let first = c.ok(&["--format", "text", "click", &press]);
    assert!(
        first.contains("Pressed 1") && !first.contains("Tick"),
        "the component ticks after this reply: {first}"
    );
    // the component ticks in its shadow root, by itself, while no command runs
    std::thread::sleep(std::time::Duration::from_millis(2000));
    let second = c.ok(&["--format", "text", "click", &press]);
    assert!(second.contains("Pressed 2"), "{second}");
    assert!(
        !second.contains("Tick"),
        "the tick came before the click, not from it: {second}"
    );
    let t = c.ok(&["snapshot", "--inline-limit", "0"]);
    assert!(t.contains("Tick 1"), "{t}");
}

fn the_warm_up_leaves_no_trace(c: &Ctx) {
    // a page with a cross-origin frame: frame numbers and refs belong to the walks of commands
    let url = c.url("html/frames/cross-origin.html");
    c.ok(&["goto", &url]);
    // it waits until no command has called the engine for 200 ms: each read here is one
    let mut st = Value::Null;
    for _ in 0..25 {
        std::thread::sleep(std::time::Duration::from_millis(400));
        st = eval(c, "JSON.parse(window.__ariaRefs.stats)");
        if st["warm_end"] != 0 {
            break;
        }
    }
    assert_eq!(st["warm_end"], 1, "the warm-up ran to its end: {st}");
    assert!(
        st["warmed"].as_u64().unwrap_or(0) >= 3,
        "it walked the page (body, button, iframe): {st}"
    );
    assert_eq!(
        st["walks"], 0,
        "neither goto nor the warm-up made a walk of a command: {st}"
    );
    let t = c.ok(&["snapshot", "--no-cache", "--inline-limit", "0"]);
    // the first snapshot numbers from e1, and the frame the warm-up met but did not enter
    // is the page's first (f1; its own frame inside is numbered by the frame's walk)
    let top = line_with(&t, "button \"Top button\"");
    assert!(
        top.ends_with("e1]") && top.contains("[ref=s"),
        "first ref of the page: {t}"
    );
    assert!(t.contains("[ref=f1s"), "{t}");
    assert!(!t.contains("[ref=f2s") && !t.contains("# frame f2"), "{t}");
}

fn the_warm_up_uses_the_hosts_settle_sleep(c: &Ctx) {
    // a large page that keeps changing after its load event: `goto` waits for its DOM to
    // be quiet, polling, and tells the page how long it sleeps between two polls
    let url = c.url("html/big/settling.html");
    c.ok(&["goto", &url]);
    let st = eval(c, "JSON.parse(window.__ariaRefs.stats)");
    assert!(
        st["away_slices"].as_u64().unwrap_or(0) >= 1,
        "the warm-up walked while goto slept between two settle polls: {st}"
    );
    assert!(st["warmed"].as_u64().unwrap_or(0) > 0, "{st}");
    assert_eq!(st["walks"], 0, "the warm-up is no walk of a command: {st}");
    // and it left nothing behind: the first snapshot numbers its refs from e1
    let t = c.ok(&["snapshot", "--no-cache", "--inline-limit", "0"]);
    let first = line_with(&t, "link \"link 0\"");
    assert!(
        first.contains("[ref=s") && first.contains("e1]"),
        "first ref of the page: {first}"
    );
}
