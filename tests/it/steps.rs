//! Acting by ref: step files, actions, stale-ref safety, covered targets, diffs, dialogs,
//! malformed input and `--since`.

use crate::common::{Ctx, Lcg, Test, Text, eval, ref_of};
use serde_json::{Value, json};

pub fn tests() -> Vec<Test> {
    trials![
        shop_flow_in_one_step_file,
        controlled_input_state_follows_fill,
        covered_click_is_refused_and_names_the_overlay,
        stale_ref_messages,
        randomized_rounds_never_act_on_the_wrong_element,
        malformed_step_file_runs_nothing,
        since_says_unchanged_until_a_toggle,
        dialogs_are_reported_not_hanging,
        tabs_open_switch_and_close,
        optional_steps_and_exit_codes,
        every_other_action_in_one_run
    ]
}

/// Runs a step file given as JSON through stdin; returns (exit code, result).
fn run(c: &Ctx, session: Option<&str>, steps: &Value) -> (i32, Value) {
    let mut args = Vec::new();
    if let Some(s) = session {
        args.extend(["--session", s]);
    }
    args.extend(["run", "-"]);
    let (code, v, _) = c.run_steps(&args, steps);
    (code, v)
}

fn shop_flow_in_one_step_file(c: &Ctx) {
    let session = "it-shop";
    c.track_session(session);
    let steps = json!({"steps": [
        {"goto": c.url("html/actions/shop.html")},
        {"snapshot": {}},
        {"fill": {"ref": "s1e1", "value": "ada@example.org"}},
        {"check": "s1e2"},
        {"click": "s1e4"},
        {"wait": {"text": "Order placed"}},
        {"search": {"text": "order placed", "role": "heading"}, "optional": true}
    ]});
    let (code, r) = run(c, Some(session), &steps);
    // the optional search step may fail without failing the run
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["status"], "ok");
    let snap = r["steps"][1]["output"].as_str().unwrap();
    assert!(
        snap.contains("- textbox \"Email\" [required] [ref=s1e1]"),
        "{snap}"
    );
    assert!(
        snap.contains("- checkbox \"Gift wrap\" [ref=s1e2]"),
        "{snap}"
    );
    // the snapshot step says what it cost
    let st = &r["steps"][1]["stats"];
    assert!(st["nodes"].as_u64().unwrap() > 5, "{st}");
    assert!(st["refs"].as_u64().unwrap() >= 4, "{st}");
    assert!(st["engine_ms"].as_f64().unwrap() > 0.0, "{st}");
    assert_eq!(st["cached"], false, "{st}");
    assert!(r["steps"][2].get("stats").is_none(), "{r:#}");
    for s in r["steps"].as_array().unwrap().iter().take(6) {
        assert_eq!(s["status"], "ok", "{s}");
        assert!(s["ms"].as_u64().is_some());
    }
    // a navigation in the run: the diff is replaced by the URL, said in the summary and
    // context.url only
    assert!(r["changes"]["navigated"]["from"].is_string(), "{r:#}");
    assert!(r["changes"]["navigated"].get("to").is_none(), "{r:#}");
    let url = r["context"]["url"].as_str().unwrap();
    assert!(url.ends_with("shop.html"), "{r:#}");
    assert!(
        r["changes"]["summary"]
            .as_str()
            .unwrap()
            .starts_with(&format!("Navigated to {url}")),
        "{r:#}"
    );
    // the same flow on the loaded page shows the diff
    let steps = json!([
        {"fill": {"ref": "s1e1", "value": "bob@example.org"}},
        {"uncheck": "s1e2"},
        {"click": "s1e4"}
    ]);
    let (code, r) = run(c, Some(session), &steps);
    assert_eq!(code, 0, "{r:#}");
    let ch = &r["changes"];
    let summary = ch["summary"].as_str().unwrap();
    assert!(summary.starts_with("Clicked."), "{summary}");
    // the summary names what appeared by role and name (docs/reference/replies.md#the-summary), with the ref to act on
    assert!(summary.contains("heading \"Order placed\""), "{summary}");
    for a in ch["added"].as_array().unwrap().iter().take(5) {
        if let Some(r) = a["ref"].as_str() {
            let want = format!("{} {} {r}", a["role"].as_str().unwrap(), a["name"]);
            assert!(summary.contains(&want), "{want} not in {summary}");
        }
    }
    // the acted element's change leads (none: a button), then what came, then the rest,
    // each element once with its words (docs/reference/replies.md#the-summary)
    assert!(
        summary.contains("Changed textbox \"Email\" s1e1 value \"bob@example.org\"; checkbox \"Gift wrap\" s1e2 unchecked."),
        "{summary}"
    );
    assert!(
        ch["added"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["role"] == "heading" && a["name"] == "Order placed"),
        "{ch:#}"
    );
    assert!(
        ch["changed"]
            .as_array()
            .unwrap()
            .contains(&json!({"role": "checkbox", "name": "Gift wrap", "ref": "s1e2", "field": "checked", "from": true, "to": false})),
        "{ch:#}"
    );
    assert!(
        ch["changed"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["ref"] == "s1e1" && c["to"] == "bob@example.org"),
        "{ch:#}"
    );
    assert_eq!(r["context"]["title"], "Checkout");
}

fn controlled_input_state_follows_fill(c: &Ctx) {
    let t = c.snapshot("html/actions/react-like.html");
    let r = ref_of(&t, "textbox \"Name\"");
    assert!(t.contains(": old value"), "{t}");
    c.ok(&["fill", &r, "Grace Hopper"]);
    assert_eq!(eval(c, "window.readState()"), json!("Grace Hopper"));
    let t = c.ok(&["snapshot"]);
    assert!(t.contains("state: Grace Hopper"), "{t}");
}

fn covered_click_is_refused_and_names_the_overlay(c: &Ctx) {
    let t = c.snapshot("html/actions/overlay.html");
    let pay = ref_of(&t, "button \"Pay\"");
    let o = c.run(&["click", &pay]);
    assert_eq!(o.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    let err = r["steps"][0]["error"].as_str().unwrap();
    assert_eq!(
        err,
        format!("button \"Pay\" (ref {pay}) is covered by div \"Cookie banner\": dismiss it first")
    );
    assert_eq!(
        eval(c, "document.title"),
        json!("Overlay"),
        "nothing was clicked"
    );
    // dismiss the banner, then the click goes through
    let accept = ref_of(&t, "button \"Accept cookies\"");
    c.ok(&["click", &accept]);
    c.ok(&["click", &pay]);
    assert_eq!(eval(c, "document.title"), json!("paid"));
}

fn step_error(c: &Ctx, args: &[&str]) -> String {
    let o = c.run(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", o.stdout_text());
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    r["steps"][0]["error"].as_str().unwrap().to_string()
}

fn stale_ref_messages(c: &Ctx) {
    let t = c.snapshot("html/actions/stale.html");
    let a = ref_of(&t, "\"Alpha\"");
    let b = ref_of(&t, "\"Bravo\"");
    let s = ref_of(&t, "\"Submit order\"");
    // unknown and malformed
    assert_eq!(
        step_error(c, &["click", "s999e99"]),
        "unknown ref \"s999e99\": take a new snapshot"
    );
    let o = c.run(&["click", "bogus"]);
    assert_eq!(o.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        r["steps"][0]["error"],
        "malformed ref \"bogus\": expected s<n>e<m>"
    );
    // every accepted spelling works
    for spelling in [
        format!("@{a}"),
        format!("[ref={a}]"),
        format!("ref={a}"),
        format!("f0{a}"),
    ] {
        c.ok(&["click", &spelling]);
    }
    // changed: same role, very different name
    eval(c, "document.getElementById('c').textContent = 'Loading...'");
    assert_eq!(
        step_error(c, &["click", &s]),
        "Element changed since snapshot. Was: button \"Submit order\", now: button \"Loading...\". Take a new snapshot."
    );
    // minor change proceeds with a note
    eval(c, "document.getElementById('b').textContent = 'Bravo!'");
    let out: Value = serde_json::from_str(&c.ok(&["click", &b])).unwrap();
    assert_eq!(
        out["steps"][0]["warning"],
        "Note: element may have changed; used its current state."
    );
    // gone
    eval(c, "document.getElementById('a').remove()");
    assert_eq!(
        step_error(c, &["click", &a]),
        format!(
            "Element button \"Alpha\" (ref {a}) no longer exists. Take a new snapshot to see the current page."
        )
    );
    // (a ref the page rewrote in its mirror of the ref map acts on its own element:
    // hostile::rewritten_mirror_cannot_redirect_a_click; without BiDi, where the page can
    // reach the engine's map, it is refused: hostile::without_bidi_the_snapshot_says_so)
    let t = c.ok(&["snapshot"]);
    let b2 = ref_of(&t, "\"Bravo!\"");
    // a ref from before a navigation never acts on the new page
    c.snapshot("html/actions/stale.html");
    let e = step_error(c, &["click", &b2]);
    assert!(e.starts_with("unknown ref"), "{e}");
    assert_eq!(eval(c, "window.clicked || []"), json!([]));
}

/// Rounds of the randomized test (issue 12: 1,000), on Chromium.
const ROUNDS: usize = 1000;
/// Rounds on Firefox: the same seeded sequence cut short. 1,000 took some 470 s there, the
/// Firefox pass's longest test by far, and CI runs that pass beside the Chromium one
/// (docs/contributing.md#ci). `ARIASNAP_ROUNDS=N` runs N on either browser.
const FIREFOX_ROUNDS: usize = 250;

/// How many rounds to run.
fn rounds_wanted() -> usize {
    match std::env::var("ARIASNAP_ROUNDS") {
        Ok(n) => n
            .trim()
            .parse()
            .expect("ARIASNAP_ROUNDS is a number of rounds"),
        Err(_) if crate::common::firefox() => FIREFOX_ROUNDS,
        Err(_) => ROUNDS,
    }
}

fn randomized_rounds_never_act_on_the_wrong_element(c: &Ctx) {
    use rmcp::ServiceExt;
    use rmcp::model::{CallToolRequestParams, CallToolResult};
    use serde_json::Map;
    // its own session: a thousand snapshots would make the shared session's refs longer
    const S: &str = "rounds";
    c.track_session(S);
    // One MCP server on the session for all rounds (a process per command made this test
    // most of the suite's time): the same step runner as the CLI's, without the start-up.
    let mut cmd = tokio::process::Command::new(&c.bin);
    cmd.args(["--session", S, "mcp", "--structured"])
        .env("ARIASNAP_HOME", c.home.path())
        .env_remove("ARIASNAP_SESSION")
        .env_remove("ARIASNAP_WEBDRIVER")
        .env_remove("ARIASNAP_DRIVER")
        .env("ARIASNAP_BROWSER", crate::common::browser())
        .env("NO_COLOR", "1")
        .env("RUST_LOG", "warn");
    let url = c.url("html/actions/stale.html");
    c.rt.block_on(async move {
        // the child is this test's own (not the transport's): dropped on a panic, it is
        // killed at once (kill_on_drop), so no server outlives a failed round
        let mut server = cmd
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn ariasnap mcp");
        let io = (
            server.stdout.take().expect("server stdout"),
            server.stdin.take().expect("server stdin"),
        );
        let client = ().serve(io).await.expect("initialize");
        let call = |name: &'static str, args: Value| {
            let client = &client;
            async move {
                let args = args.as_object().cloned().unwrap_or_else(Map::new);
                client
                    .call_tool(CallToolRequestParams::new(name).with_arguments(args))
                    .await
                    .unwrap_or_else(|e| panic!("{name}: {e}"))
            }
        };
        // the step result of a call that must succeed
        let ok = |r: CallToolResult, what: &str| -> Value {
            assert_eq!(r.is_error, Some(false), "{what}: {:?}", r.content);
            r.structured_content
                .unwrap_or_else(|| panic!("{what}: no structured content"))
        };
        let setup = "(function(){ window.log = []; var area = document.getElementById('area'); area.innerHTML = ''; \
            for (var i = 0; i < 6; i++) { var b = document.createElement('button'); b.textContent = 'Item ' + i; \
            b.dataset.id = 'id' + i; b.onclick = function(){ window.log.push(this.dataset.id); }; area.appendChild(b); } return 1; })()";
        // open the page and put the buttons in, in one call
        let open = || async {
            let r = ok(
                call(
                    "browser_run_steps",
                    json!({"steps": [{"goto": url}, {"eval": setup}]}),
                )
                .await,
                "open",
            );
            assert_eq!(r["steps"][1]["output"], json!(1), "{r:#}");
        };
        // Each round: snapshot, remember the ref of one button and its label, mutate the
        // page (rename, re-render, remove, shuffle or nothing), click the old ref, and now
        // and then navigate away and back. The click must either hit exactly the element the
        // ref was issued for, or be refused.
        let mut rng = Lcg(42);
        let mut acted = 0;
        let mut refused = 0;
        let t0 = std::time::Instant::now();
        let rounds = rounds_wanted();
        for round in 0..rounds {
            if round % 40 == 0 {
                open().await;
            }
            let s = ok(call("browser_snapshot", json!({})).await, "snapshot");
            let t = s["steps"][0]["output"]
                .as_str()
                .unwrap_or_else(|| panic!("round {round}: not an inline snapshot: {s:#}"));
            let k = rng.next(6);
            let name = format!("Item {k}");
            let line = t
                .lines()
                .find(|l| l.contains(&format!("\"{name}\"")))
                .map(str::to_string);
            let Some(line) = line else {
                // the item was removed earlier: bring the buttons back
                let r = ok(call("browser_evaluate", json!({"expression": setup})).await, "setup");
                assert_eq!(r["steps"][0]["output"], json!(1), "{r:#}");
                continue;
            };
            let r = crate::common::refs_in(&line)[0].clone();
            let id = format!("id{k}");
            let js = match rng.next(5) {
                0 => format!("(document.querySelector('[data-id={id}]').textContent = 'Renamed {k} ' + Math.random(), 1)"),
                1 => "(function(){ var a = document.getElementById('area'); a.innerHTML = a.innerHTML; \
                       a.querySelectorAll('button').forEach(function(b){ b.onclick = function(){ window.log.push(this.dataset.id); }; }); return 1; })()".to_string(),
                2 => format!("(document.querySelector('[data-id={id}]').remove(), 1)"),
                3 => "(function(){ var a = document.getElementById('area'); var bs = Array.from(a.children); bs.reverse().forEach(function(b){ a.appendChild(b); }); return 1; })()".to_string(),
                _ => "1".to_string(),
            };
            // clear the log and mutate, click the old ref, read what the page logged: one
            // call (the click is optional so the read happens either way)
            let res = call(
                "browser_run_steps",
                json!({"steps": [
                    {"eval": format!("(window.log = [], {js})")},
                    {"click": r, "optional": true},
                    {"eval": "window.log || []"}
                ]}),
            )
            .await;
            let res = res
                .structured_content
                .unwrap_or_else(|| panic!("round {round}: no structured content: {:?}", res.content));
            assert_eq!(res["steps"][0]["status"], "ok", "round {round}: mutation: {res:#}");
            assert_eq!(res["steps"][2]["status"], "ok", "round {round}: log read: {res:#}");
            let log = res["steps"][2]["output"].clone();
            if res["steps"][1]["status"] == "ok" {
                acted += 1;
                assert_eq!(
                    log,
                    json!([id]),
                    "round {round}: ref {r} for {id} clicked {log}"
                );
            } else {
                refused += 1;
                assert_eq!(
                    log,
                    json!([]),
                    "round {round}: a refused click still acted: {log}"
                );
            }
            if rng.next(10) == 0 {
                // navigate away and back: old refs must not act on the new document
                open().await;
                let o = call("browser_click", json!({"ref": r})).await;
                assert_eq!(
                    o.is_error,
                    Some(true),
                    "round {round}: ref {r} acted after a navigation: {:?}",
                    o.content
                );
                let l = ok(
                    call("browser_evaluate", json!({"expression": "window.log"})).await,
                    "log after navigation",
                );
                assert_eq!(
                    l["steps"][0]["output"],
                    json!([]),
                    "round {round}: a refused click after a navigation still acted"
                );
            }
        }
        let took = t0.elapsed().as_secs_f64();
        eprintln!(
            "{rounds} rounds in {took:.1} s ({:.0} ms a round): {acted} acted on the right element, {refused} refused",
            took * 1000.0 / rounds as f64
        );
        assert!(
            acted > rounds / 10 && refused > rounds / 10,
            "both outcomes exercised: {acted} acted, {refused} refused"
        );
        client.cancel().await.expect("disconnect");
        // the server ends when its stdin closes (the session stays: the suite closes it)
        let exit = tokio::time::timeout(std::time::Duration::from_secs(10), server.wait()).await;
        assert!(
            matches!(exit, Ok(Ok(s)) if s.success()),
            "the MCP server did not end cleanly: {exit:?}"
        );
    });
}

fn malformed_step_file_runs_nothing(c: &Ctx) {
    let before = eval(c, "location.href");
    let steps = json!({"steps": [
        {"goto": c.url("html/actions/shop.html")},
        {"clik": "s1e1"},
        {"fill": {"ref": "s1e2"}},
        {"sleep": "later"}
    ]});
    let o = {
        use std::io::Write;
        let mut child = c
            .cmd()
            .args(["run", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(steps.to_string().as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    assert_eq!(o.status.code(), Some(2));
    let err = o.stderr_text();
    assert!(
        err.contains("step 2: unknown action \"clik\" (did you mean \"click\"?)"),
        "{err}"
    );
    assert!(
        err.contains("step 3 (fill): missing field `value`"),
        "{err}"
    );
    assert!(err.contains("step 4 (sleep)"), "{err}");
    assert!(o.stdout.is_empty());
    assert_eq!(eval(c, "location.href"), before, "nothing ran");
    // bad JSON names line and column
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.json");
    std::fs::write(&p, "{\"steps\": [\n  {\"goto\" \"x\"}\n]}").unwrap();
    let o = c.run(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = o.stderr_text();
    assert!(
        err.contains("bad.json") && err.contains("line 2, column 11"),
        "{err}"
    );
}

fn since_says_unchanged_until_a_toggle(c: &Ctx) {
    c.snapshot("html/actions/shop.html");
    let v: Value =
        serde_json::from_str(&c.ok(&["snapshot", "--format", "json", "--no-cache"])).unwrap();
    let n = format!("s{}", v["snapshot"]);
    let cb = v["children"][0]["children"][2]["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["role"] == "checkbox")
        .unwrap()["ref"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, r) = run(c, None, &json!([{"snapshot": {"since": n}}]));
    assert_eq!(
        r["steps"][0]["output"],
        json!({"unchanged": true, "since": n})
    );
    eval(c, "(document.getElementById('gift').click(), 1)");
    let (_, r) = run(c, None, &json!([{"snapshot": {"since": n}}]));
    let out = r["steps"][0]["output"]
        .as_str()
        .unwrap_or_else(|| panic!("a snapshot: {r}"));
    assert!(
        out.contains(&format!("- checkbox \"Gift wrap\" [checked] [ref={cb}]")),
        "{out}"
    );
}

fn dialogs_are_reported_not_hanging(c: &Ctx) {
    let t = c.snapshot("html/actions/dialogs.html");
    let alert = ref_of(&t, "\"Alert me\"");
    let confirm = ref_of(&t, "\"Confirm me\"");
    let (code, r) = run(
        c,
        None,
        &json!([{"click": alert}, {"click": confirm}, {"getTitle": {}}]),
    );
    assert_eq!(code, 0, "{r:#}");
    // docs/reference/faults.md#dialogs: dismissed by default
    assert_eq!(r["steps"][0]["dialogs"][0]["message"], "Saved!");
    assert_eq!(r["steps"][1]["dialogs"][0]["message"], "Sure?");
    assert_eq!(r["steps"][1]["dialogs"][0]["handled"], "dismissed");
    assert_eq!(r["steps"][2]["output"], "cancelled");
    // --dialog accept
    let o = c.ok(&["click", &confirm, "--dialog", "accept"]);
    let r: Value = serde_json::from_str(&o).unwrap();
    assert_eq!(r["steps"][0]["dialogs"][0]["handled"], "accepted", "{r:#}");
    assert_eq!(eval(c, "document.title"), "confirmed");
}

fn tabs_open_switch_and_close(c: &Ctx) {
    c.snapshot("html/basic/page.html");
    let (code, r) = run(
        c,
        None,
        &json!([{"newTab": c.url("html/actions/shop.html")}, {"listTabs": {}}]),
    );
    assert_eq!(code, 0, "{r:#}");
    let new = r["steps"][0]["output"]["tab"].as_str().unwrap().to_string();
    let tabs = r["steps"][1]["output"].as_array().unwrap();
    assert!(tabs.len() >= 2);
    assert!(
        tabs.iter()
            .any(|t| t["tab"] == new && t["current"] == true && t["title"] == "Checkout")
    );
    let (code, r) = run(c, None, &json!([{"closeTab": new}, {"getTitle": {}}]));
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["steps"][1]["output"], "Basic page");
}

fn optional_steps_and_exit_codes(c: &Ctx) {
    c.snapshot("html/basic/page.html");
    let (code, r) = run(
        c,
        None,
        &json!([{"click": "s999e1", "optional": true}, {"getTitle": {}}, {"assert": {"text": "nowhere to be found"}}, {"getUrl": {}}]),
    );
    assert_eq!(code, 1);
    assert_eq!(r["status"], "error");
    assert_eq!(r["steps"][0]["status"], "error");
    assert_eq!(r["steps"][1]["status"], "ok");
    assert_eq!(r["steps"][2]["status"], "error");
    assert!(
        r["steps"][2]["error"]
            .as_str()
            .unwrap()
            .starts_with("assertion failed")
    );
    assert_eq!(r["steps"][3]["status"], "skipped");
    let (code, _) = run(
        c,
        None,
        &json!([{"wait": {"text": "never appears", "timeout": 300}}]),
    );
    assert_eq!(code, 4);
}

fn every_other_action_in_one_run(c: &Ctx) {
    let t = c.snapshot("html/actions/widgets.html");
    let q = ref_of(&t, "textbox \"Query\"");
    let color = ref_of(&t, "combobox \"Color\"");
    let hov = ref_of(&t, "button \"Hover me\"");
    let handle = ref_of(&t, "button \"Handle\"");
    let file = ref_of(&t, "button \"Attachment\"");
    let bottom = ref_of(&t, "button \"Far below\"");
    let dir = tempfile::tempdir().unwrap();
    let up = dir.path().join("upload.txt");
    std::fs::write(&up, "hello").unwrap();
    let shot = dir.path().join("shot.png");
    let steps = json!([
        {"eval": "(setTimeout(function(){ console.warn('late page message') }, 0), 1)"},
        {"type": {"ref": q, "text": "abc"}},
        {"press": {"key": "Shift+Home", "ref": q}},
        {"press": "Backspace"},
        {"type": {"text": "xyz"}},
        {"get": {"ref": q, "what": "value"}},
        {"select": {"ref": color, "values": "Green"}},
        {"hover": hov},
        {"drag": {"from": handle, "to": "s999e1"}, "optional": true},
        {"upload": {"ref": file, "files": up.to_str().unwrap()}},
        {"scroll": {"ref": bottom}},
        {"scroll": {"direction": "up"}},
        {"getUrl": {}},
        {"getTitle": {}},
        {"viewport": {"width": 900, "height": 700}},
        {"cookies": {"action": "set", "name": "k", "value": "v1"}},
        {"cookies": {}},
        {"console": {"clear": true}},
        {"screenshot": {"path": shot.to_str().unwrap()}},
        {"eval": {"expression": "Array.from({length: 50}, (_, i) => i)", "offset": 40, "limit": 20}},
        {"reload": {}},
        {"cookies": {"action": "clear"}},
        {"cookies": {}}
    ]);
    let (code, r) = run(c, None, &steps);
    let st = r["steps"].as_array().unwrap();
    let by = |i: usize| &st[i];
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(
        by(5)["output"],
        "xyz",
        "type, chord and key presses with real key events"
    );
    assert_eq!(by(6)["output"]["value"], "Green");
    assert_eq!(
        by(8)["status"],
        "error",
        "drag to an unknown ref fails, optional"
    );
    assert_eq!(
        by(9)["output"]["files"][0]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next(),
        Some("upload.txt")
    );
    assert!(
        by(10)["output"]["scroll"][1].as_f64().unwrap() > 1000.0,
        "{}",
        by(10)
    );
    assert!(by(12)["output"].as_str().unwrap().ends_with("widgets.html"));
    assert_eq!(by(13)["output"], "Widgets");
    assert_eq!(by(15)["output"]["set"], "k");
    assert!(
        by(16)["output"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["name"] == "k" && k["value"] == "v1")
    );
    assert!(
        by(17)["output"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["text"] == "late page message" && m["level"] == "warn"),
        "{}",
        by(17)
    );
    assert!(std::fs::read(&shot).unwrap().starts_with(b"\x89PNG"));
    assert_eq!(
        by(19)["output"]["items"],
        json!([40, 41, 42, 43, 44, 45, 46, 47, 48, 49])
    );
    assert_eq!(by(19)["output"]["has_more"], false);
    assert!(
        by(22)["output"].as_array().unwrap().is_empty(),
        "cookies cleared"
    );
    // hover changed the page: the run's diff shows it
    let ch = &r["changes"];
    assert!(
        ch["added"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["name"] == "Hovered")
            || ch["navigated"].is_object()
            || ch["summary"].is_string(),
        "{ch}"
    );
    let nav = eval(c, "performance.getEntriesByType('navigation')[0].type");
    assert_eq!(nav, json!("reload"), "reloaded page");
    // Firefox sends the reloaded page a mouseover for the pointer still resting on the
    // button (a real mouse would too); Chromium does not until the pointer moves
    if !crate::common::firefox() {
        let hovered = eval(c, "document.getElementById('hov').textContent");
        assert_eq!(hovered, json!("Hover me"), "reloaded page");
    }
    // drag onto the drop zone, then back/forward
    let t = c.snapshot("html/actions/widgets.html");
    let handle = ref_of(&t, "button \"Handle\"");
    // the drop zone is not interactive: search mints a ref for it
    let found: Value =
        serde_json::from_str(&c.ok(&["search", "Drop zone", "--role", "region"])).unwrap();
    let drop = found["steps"][0]["output"]["matches"][0]["ref"]
        .as_str()
        .unwrap()
        .to_string();
    let _ = &t;
    c.ok(&["drag", &handle, &drop]);
    assert_eq!(
        eval(
            c,
            "document.getElementById('drop').getAttribute('aria-label')"
        ),
        json!("Dropped")
    );
    c.snapshot("html/basic/page.html");
    let (code, r) = run(
        c,
        None,
        &json!([{"back": {}}, {"getTitle": {}}, {"forward": {}}, {"getTitle": {}}]),
    );
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["steps"][1]["output"], "Widgets");
    assert_eq!(r["steps"][3]["output"], "Basic page");
}
