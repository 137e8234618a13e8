//! The step vocabulary of issue 16, part A: `submit`, `selectText`, `waitForNavigation`,
//! `fill` with a fields map, `poll`, `queryAll`, `inspect`, and the `readyWhen` /
//! `settledWhen` / `observe` hooks, each on a fixture where it makes the difference; and
//! `focus`.

use crate::common::{Ctx, Test, Text};
use serde_json::{Value, json};

pub fn tests() -> Vec<Test> {
    trials![
        a_cdp_skill_style_step_file_runs_end_to_end,
        each_step_where_it_makes_the_difference,
        focus_moves_focus_without_a_press,
        the_whole_vocabulary_in_one_step_file
    ]
}

/// Issue 16's acceptance: fixtures/steps/cdp-skill.json, a cdp-skill style step file that
/// uses every step and hook of the issue (parts A and B), runs end to end in a fresh
/// session; each of them ran and did what it is for.
fn the_whole_vocabulary_in_one_step_file(c: &Ctx) {
    let session = "it-more-steps-all";
    c.track_session(session);
    let _ = c.run(&["session", "close", session]);
    let text = std::fs::read_to_string(c.fixtures.join("steps/cdp-skill.json")).unwrap();
    let steps: Value = serde_json::from_str(&text.replace("http://127.0.0.1:8080/", &c.base))
        .expect("the step file is JSON");
    let (code, r) = run(c, Some(session), &steps);
    assert_eq!(code, 0, "{r:#}");
    let all = r["steps"].as_array().unwrap();
    let ran = |action: &str| {
        all.iter()
            .filter(|s| s["action"] == action && s["status"] == "ok")
            .count()
    };
    for action in [
        "inspect",
        "queryAll",
        "poll",
        "submit",
        "fill",
        "selectText",
        "waitForNavigation",
        "elementsAt",
        "click",
        "hover",
        "drag",
        "screenshot",
        "pdf",
        "writeSiteNotes",
        "readSiteNotes",
    ] {
        assert!(ran(action) > 0, "no {action} step ran: {r:#}");
    }
    // the step hooks: readyWhen ran before, settledWhen after without a warning, observe
    // returned what the page showed
    let with = |key: &str| {
        steps["steps"]
            .as_array()
            .unwrap()
            .iter()
            .zip(all)
            .filter(|(step, _)| {
                step.get(key).is_some()
                    || step
                        .as_object()
                        .unwrap()
                        .values()
                        .any(|v| v.get(key).is_some())
            })
            .map(|(_, res)| res.clone())
            .collect::<Vec<_>>()
    };
    assert!(
        !with("readyWhen").is_empty() && !with("settledWhen").is_empty(),
        "{r:#}"
    );
    for res in with("settledWhen") {
        assert!(res.get("warning").is_none(), "{res:#}");
    }
    let observed = with("observe");
    assert!(observed.len() >= 3, "{r:#}");
    for res in &observed {
        assert!(!res["observation"].is_null(), "{res:#}");
    }
    // part B left its marks: the canvas saw the clicks at points, the PDF is in the
    // artifacts directory, the notes read back
    let log = all.last().unwrap()["output"].to_string();
    assert!(log.contains("click"), "{log}");
    let pdf = all.iter().find(|s| s["action"] == "pdf").unwrap();
    let path = std::path::PathBuf::from(pdf["output"]["path"].as_str().unwrap());
    assert!(
        std::fs::read(&path).unwrap().starts_with(b"%PDF"),
        "{pdf:#}"
    );
    let notes = all.iter().find(|s| s["action"] == "readSiteNotes").unwrap();
    assert!(
        notes["output"].to_string().contains("the map is a canvas"),
        "{notes:#}"
    );
    let _ = c.run(&["session", "close", session]);
}

/// Runs a step list (JSON through stdin) in `session` (the suite's when None); returns the
/// exit code and the result.
fn run(c: &Ctx, session: Option<&str>, steps: &Value) -> (i32, Value) {
    let mut args = Vec::new();
    if let Some(s) = session {
        args.extend(["--session", s]);
    }
    args.extend(["run", "-", "--inline-limit", "0"]);
    let (code, v, _) = c.run_steps(&args, steps);
    (code, v)
}

/// fixtures/steps/more-steps-a.json, as a cdp-skill user would write it (hooks among a step's
/// options or beside them, the bare fields map, selectors), against this suite's server in
/// a fresh session: the refs its queryAll mints are the ones later steps name.
fn a_cdp_skill_style_step_file_runs_end_to_end(c: &Ctx) {
    let session = "it-more-steps";
    c.track_session(session);
    let _ = c.run(&["session", "close", session]);
    let text = std::fs::read_to_string(c.fixtures.join("steps/more-steps-a.json")).unwrap();
    let steps: Value = serde_json::from_str(&text.replace("http://127.0.0.1:8080/", &c.base))
        .expect("the step file is JSON");
    let (code, r) = run(c, Some(session), &steps);
    assert_eq!(code, 0, "{r:#}");
    let step = |i: usize, action: &str| -> Value {
        let s = r["steps"][i].clone();
        assert_eq!(s["action"], action, "step {i}: {r:#}");
        s
    };
    // inspect: a map of the page in a few hundred bytes
    let inspect = step(1, "inspect")["output"].clone();
    assert_eq!(inspect["roles"]["button"], 3, "{inspect:#}");
    assert_eq!(inspect["roles"]["form"], 2, "{inspect:#}");
    assert_eq!(inspect["tags"]["input"], 5, "{inspect:#}");
    assert_eq!(inspect["frames"], 1, "{inspect:#}");
    assert_eq!(
        inspect["forms"][0],
        json!({"name": "Sign up", "fields": 4, "required": 2, "method": "get",
            "action": "/html/more-steps/form.html"})
    );
    assert_eq!(
        inspect["headings"],
        json!(["h1 Sign up", "h2 Reading", "h2 Actions"])
    );
    assert_eq!(inspect["counts"], json!({"form": 2, "input[required]": 2}));
    let bytes = inspect.to_string().len();
    assert!(bytes < 1000, "inspect is {bytes} bytes: {inspect}");
    // queryAll: named groups in one call, refs minted in order
    let q = step(2, "queryAll")["output"].clone();
    for (label, r#ref) in [
        ("name", "s1e1"),
        ("email", "s1e2"),
        ("city", "s1e3"),
        ("pay", "s1e4"),
        ("load", "s1e5"),
        ("later", "s1e6"),
        ("quote", "s1e7"),
        ("notes", "s1e8"),
    ] {
        assert_eq!(q[label]["total"], 1, "{label}: {q:#}");
        assert_eq!(q[label]["matches"][0]["ref"], r#ref, "{label}: {q:#}");
    }
    assert_eq!(q["city"]["matches"][0]["value"], "Choose");
    assert_eq!(
        q["quote"]["matches"][0]["text"],
        "The quick brown fox jumps over the lazy dog"
    );
    let names: Vec<&Value> = q["buttons"]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["name"])
        .collect();
    assert_eq!(names, ["Pay", "Load results", "Continue later"]);
    // readyWhen: Pay works only once the app is ready; the click waited for it
    assert_eq!(step(3, "click")["observation"], "paid at ready", "{r:#}");
    assert_eq!(step(4, "poll")["output"]["value"], "ready-42", "{r:#}");
    // submit of an empty form: not submitted, the browser's message per field, inline
    let s = step(5, "submit");
    assert_eq!(s["status"], "error", "{s:#}");
    let invalid = s["output"]["invalid"].as_array().unwrap();
    assert_eq!(invalid.len(), 2, "{s:#}");
    assert_eq!(invalid[0]["ref"], "s1e1");
    assert_eq!(invalid[1]["name"], "Email");
    for f in invalid {
        assert!(
            !f["message"].as_str().unwrap_or("").is_empty(),
            "{f}: the browser's validationMessage"
        );
    }
    let e = s["error"].as_str().unwrap();
    assert!(
        e.starts_with("form \"Sign up\" (")
            && e.contains("was not submitted: 2 invalid fields: textbox \"Name\" (s1e1): "),
        "{e}"
    );
    // fill with a fields map: a result per field, the values sent not echoed (the
    // changes say what each field holds)
    assert_eq!(
        step(6, "fill")["output"],
        json!({"fields": [
            {"ref": "s1e1", "ok": true},
            {"ref": "s1e2", "ok": true},
            {"ref": "s1e3", "ok": true}],
            "filled": 3, "failed": 0})
    );
    // submit by a control's ref: the page's submit handler ran (it has no submit button)
    let s = step(7, "submit");
    assert_eq!(s["output"]["submitted"], true, "{s:#}");
    assert_eq!(s["output"]["handledByPage"], true, "{s:#}");
    assert_eq!(
        s["observation"],
        "Thanks, Ada Lovelace <ada@example.org> from Berlin"
    );
    // selectText: a paragraph's text by a DOM range, a textarea's value by offsets
    let s = step(8, "selectText");
    assert_eq!(s["output"]["selected"], "quick brown", "{s:#}");
    assert_eq!(s["observation"], "quick brown");
    let s = step(9, "selectText");
    assert_eq!(s["output"]["selected"], "line", "{s:#}");
    assert_eq!(s["observation"], "Notes selection: line", "the page saw it");
    // settledWhen: the results arrive 1.2 s after the click
    assert_eq!(
        step(10, "click")["observation"],
        json!(["Alpha", "Beta", "Gamma"]),
        "{r:#}"
    );
    // waitForNavigation: the navigation the click started 1.5 s later (after the click's own settling, up to its 500 ms tail)
    let w = step(12, "waitForNavigation");
    let done = c.url("html/more-steps/done.html?via=later");
    assert_eq!(w["output"]["url"], done, "{w:#}");
    assert_eq!(w["output"]["ready"], "complete");
    assert!(w["output"]["waited_ms"].as_u64().unwrap() >= 100, "{w:#}");
    assert_eq!(step(13, "getUrl")["output"], done);
}

/// Each step and hook against what happens without it, and their failures.
fn each_step_where_it_makes_the_difference(c: &Ctx) {
    // poll runs on the host's timers: a page that took setTimeout, setInterval,
    // requestAnimationFrame and queueMicrotask away does not stop it
    let (code, r) = run(
        c,
        None,
        &json!([
            {"goto": c.url("html/more-steps/timers.html")},
            {"poll": {"fn": "() => window.flag && window.flag.ready && window.flag", "interval": 50}},
            {"poll": {"fn": "window.never", "timeout": 300}}
        ]),
    );
    assert_eq!(code, 4, "{r:#}");
    let p = &r["steps"][1];
    assert_eq!(
        p["output"]["value"],
        json!({"ready": true, "at": "later"}),
        "{r:#}"
    );
    assert!(p["output"]["attempts"].as_u64().unwrap() >= 2, "{p}");
    let e = r["steps"][2]["error"].as_str().unwrap();
    assert!(
        e.starts_with("timed out: poll: \"window.never\" stayed falsy for 300 ms (")
            && e.ends_with("last value: null)"),
        "{e}"
    );
    // a function that does not run fails at once, named
    let (code, r) = run(c, None, &json!([{"poll": "() => {"}]));
    assert_eq!(code, 1, "{r:#}");
    let e = r["steps"][0]["error"].as_str().unwrap();
    assert!(
        e.starts_with("poll: the function \"() => {\" does not run in the page"),
        "{e}"
    );

    // readyWhen: without it the click lands while Pay is disabled; when it stays falsy
    // the step fails and the click is not made
    // (Pay is ready 5 s after load here: the run starts long before)
    let t = c.snapshot("html/more-steps/form.html?ready=5000");
    let pay = crate::common::ref_of(&t, "button \"Pay\"");
    let load = crate::common::ref_of(&t, "button \"Load results\"");
    let code_ref = crate::common::ref_of(&t, "textbox \"Code\"");
    let name = crate::common::ref_of(&t, "textbox \"Name\"");
    let email = crate::common::ref_of(&t, "textbox \"Email\"");
    let (_, r) = run(
        c,
        None,
        &json!([
            {"click": pay, "observe": "String(window.payment)"},
            {"click": pay, "readyWhen": {"fn": "false", "timeout": 300}, "optional": true},
            // settledWhen: without it the results are not there yet; unmet, a warning
            {"click": load, "observe": "document.querySelectorAll('#results tr').length"},
            {"click": load, "settledWhen": {"fn": "document.querySelectorAll('#results tr').length === 4", "timeout": 1500},
             "observe": "document.querySelectorAll('#results tr').length"},
            // a fields map with a field the page rewrites: the step fails, every field reported
            {"fill": {"fields": {name.clone(): "Ada", code_ref.clone(): "abcdef", email.clone(): "ada@example.org"}}, "optional": true},
            // reportValidity: the browser focuses the first invalid field
            {"fill": {"ref": email.clone(), "value": "not-an-address"}},
            {"submit": {"selector": "#signup", "reportValidity": true}, "optional": true},
            {"eval": "document.activeElement.name"},
            {"submit": "#quote", "optional": true},
            // a GET form: submitted as a user would, the page it loads waited for
            {"submit": {"selector": "#search"}},
            // the navigation of the step before, already done: nothing to wait for
            {"waitForNavigation": {"timeout": 400}}
        ]),
    );
    let s = |i: usize| r["steps"][i].clone();
    assert_eq!(s(0)["observation"], "undefined", "a disabled Pay: {r:#}");
    assert_eq!(s(1)["status"], "error", "{r:#}");
    assert!(
        s(1)["error"]
            .as_str()
            .unwrap()
            .starts_with("timed out: readyWhen \"false\" stayed falsy for 300 ms"),
        "{r:#}"
    );
    assert_eq!(s(2)["observation"], 0, "no settledWhen: {r:#}");
    assert_eq!(s(3)["status"], "ok", "{r:#}");
    assert_eq!(s(3)["observation"], 3, "{r:#}");
    assert!(
        s(3)["warning"]
            .as_str()
            .unwrap_or("")
            .contains("settledWhen \"document.querySelectorAll('#results tr').length === 4\" stayed falsy for 1500 ms"),
        "{r:#}"
    );
    let f = s(4);
    assert_eq!(f["status"], "error", "{f:#}");
    assert_eq!(f["output"]["fields"][0], json!({"ref": name, "ok": true}));
    assert_eq!(f["output"]["fields"][1]["ok"], false);
    assert_eq!(
        f["output"]["fields"][2],
        json!({"ref": email, "ok": true}),
        "the field after the failing one is still filled"
    );
    assert!(
        f["error"].as_str().unwrap().starts_with(&format!(
            "fill: 1 of 3 fields failed: {code_ref}: set {code_ref}: asked for \"abcdef\""
        )),
        "{f:#}"
    );
    let sub = s(6);
    assert_eq!(sub["output"]["invalid"][0]["name"], "Email", "{sub:#}");
    assert_eq!(s(7)["output"], "email", "reportValidity focused it: {r:#}");
    assert!(
        s(8)["error"]
            .as_str()
            .unwrap()
            .contains("is neither a form nor inside one"),
        "{r:#}"
    );
    let done = c.url("html/more-steps/done.html?q=owls&page=2");
    assert_eq!(s(9)["output"]["url"], done, "{r:#}");
    // the navigation's URL in its effects only when the run did not end there
    let to = &s(9)["effects"]["navigation"]["to"];
    if r["context"]["url"] == done {
        assert!(to.is_null(), "said once, in context.url: {r:#}");
    } else {
        assert_eq!(*to, done, "{r:#}");
    }
    assert_eq!(s(10)["output"]["url"], done, "{r:#}");
    assert_eq!(r["status"], "ok", "every failing step was optional: {r:#}");

    // the same steps as commands (docs/reference/cli.md#commands)
    c.ok(&["goto", &c.url("html/more-steps/form.html")]);
    let q: Value = serde_json::from_str(&c.ok(&[
        "query-all",
        "--queries",
        &json!({"email": {"role": "textbox", "name": "email", "exact": true}, "rows": "#results tr"})
            .to_string(),
    ]))
    .unwrap();
    let out = &q["steps"][0]["output"];
    assert_eq!(out["rows"]["total"], 0, "{q:#}");
    let email = out["email"]["matches"][0]["ref"]
        .as_str()
        .unwrap()
        .to_string();
    let f: Value = serde_json::from_str(&c.ok(&[
        "fill",
        "--fields",
        &json!({ email.clone(): "grace@example.org" }).to_string(),
    ]))
    .unwrap();
    assert_eq!(f["steps"][0]["output"]["fields"][0]["ok"], true, "{f:#}");
    assert!(
        f["changes"].to_string().contains("grace@example.org"),
        "the changes say what the field holds: {f:#}"
    );
    // an email input has no partial selection API (HTML): its whole value only
    let t = c.run(&["select-text", &email, "--start", "0", "--end", "5"]);
    assert_eq!(t.status.code(), Some(1));
    assert!(
        t.stderr_text()
            .contains("whose value cannot be selected in part"),
        "{}",
        t.stderr_text()
    );
    let t: Value = serde_json::from_str(&c.ok(&["select-text", &email])).unwrap();
    assert_eq!(
        t["steps"][0]["output"]["selected"], "grace@example.org",
        "{t:#}"
    );
    let i: Value = serde_json::from_str(&c.ok(&["inspect"])).unwrap();
    assert_eq!(i["steps"][0]["output"]["title"], "Vocabulary");
    let p = c.run(&["poll", "window.lateValue"]);
    assert!(p.status.success(), "{}", p.stderr_text());
    // nothing navigates: waitForNavigation says so within its limit
    let w = c.run(&["wait-for-navigation", "--timeout", "1000"]);
    assert_eq!(w.status.code(), Some(4));
    assert!(
        w.stderr_text()
            .contains("no navigation within 750 ms: the page is still"),
        "{}",
        w.stderr_text()
    );
}

/// `focus` moves focus to a field without pointer input: the field's focus handler runs (the
/// reply names the list it showed), no pointer event reaches the page, and by a locator in a
/// step file too.
fn focus_moves_focus_without_a_press(c: &Ctx) {
    c.ok(&["goto", &c.url("html/more-steps/focus.html")]);
    let t = c.ok(&["snapshot", "--detail", "interactive"]);
    let q = crate::common::ref_of(&t, "searchbox \"Search\"");
    let r: Value = serde_json::from_str(&c.ok(&["focus", &q])).unwrap();
    let said = r["changes"]["summary"].as_str().unwrap_or_default();
    assert!(
        said.starts_with("Focused. Opened listbox \"Recent searches\": option \"running shoes\" s"),
        "{r:#}"
    );
    assert_eq!(r["changes"]["focus"]["ref"], json!(q), "{r:#}");
    let at: Value =
        serde_json::from_str(&c.ok(&["eval", "[document.activeElement.id, !!window.pressed]"]))
            .unwrap();
    assert_eq!(at["steps"][0]["output"], json!(["q", false]), "{at:#}");
    // by a locator, in a step file, after focus went elsewhere
    let (code, r) = run(
        c,
        None,
        &json!([
            {"eval": "document.activeElement.blur()"},
            {"focus": {"target": {"role": "searchbox", "name": "Search"}}},
            {"eval": "document.activeElement.id"}
        ]),
    );
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["steps"][2]["output"], json!("q"), "{r:#}");
}
