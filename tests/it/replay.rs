//! Step files that outlive the snapshot (issue 57): targets by locator on the command line
//! and in step files, the session's journal (no secret in it), `session export` replayed on
//! a fresh session, healing on drifted pages (said, never silent; `--strict` refuses) and
//! the Playwright export. Fixtures: `fixtures/html/replay/`.

use crate::common::{Ctx, Test, Text, normalize_refs, ref_of};
use serde_json::{Value, json};

pub fn tests() -> Vec<Test> {
    trials![
        locators_act_by_role_label_and_text,
        locator_errors_name_the_matches_or_the_nearest,
        journal_is_private_and_keeps_no_secret,
        export_replays_on_a_fresh_session,
        replay_heals_drift_and_strict_refuses,
        mcp_tools_take_a_target,
        exported_spec_passes_playwright_test,
        exported_spec_acts_as_ariasnap_did,
        apg_patterns_replay_to_the_same_state,
        a_clickable_generic_is_journaled_by_its_words_and_replays,
        added_cards_are_checked_by_a_control_of_theirs,
        http_agents_keep_a_journal_each,
        drag_wait_screenshot_and_frame_take_locators,
        drag_wait_screenshot_and_frame_replay_from_the_journal
    ]
}

/// Runs a step file (JSON on stdin) on `session` with extra args; (exit code, result, stderr).
fn run(c: &Ctx, session: &str, extra: &[&str], steps: &Value) -> (i32, Value, String) {
    let args: Vec<&str> = ["--session", session, "run", "-"]
        .into_iter()
        .chain(extra.iter().copied())
        .collect();
    c.run_steps(&args, steps)
}

/// A command on `session`: (exit code, stdout, stderr).
fn cmd(c: &Ctx, session: &str, args: &[&str]) -> (i32, String, String) {
    let o = c
        .cmd()
        .args(["--session", session])
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        o.stdout_text(),
        o.stderr_text(),
    )
}

/// The order the checkout page placed: its summary's text, or "" before one.
fn order(c: &Ctx, session: &str) -> String {
    let (_, out, _) = cmd(
        c,
        session,
        &[
            "eval",
            "document.getElementById('summary')?.textContent ?? ''",
        ],
    );
    let v: Value = serde_json::from_str(&out).unwrap_or(Value::Null);
    v["steps"][0]["output"].as_str().unwrap_or("").to_string()
}

fn locators_act_by_role_label_and_text(c: &Ctx) {
    let s = "it-loc";
    c.track_session(s);
    let page = c.url("html/replay/checkout.html");
    // single commands: by label, by role and name, within a container
    for args in [
        vec!["goto", page.as_str()],
        vec!["fill", "--label", "Email", "ada@example.org"],
        vec!["check", "--role", "checkbox", "--name", "Gift wrap"],
        vec!["select", "--label", "Country", "Germany"],
        vec![
            "click",
            "--role",
            "button",
            "--name",
            "pay",
            "--within",
            "region \"Cart\"",
        ],
    ] {
        let (code, out, err) = cmd(c, s, &args);
        assert_eq!(code, 0, "{args:?}: {out}\n{err}");
    }
    assert_eq!(
        order(c, s),
        "For ada@example.org, to Germany, gift wrapped, by card."
    );
    // a step file: locators inline, as `target`, by text, a substring, nth
    let steps = json!({"steps": [
        {"goto": page},
        {"fill": {"label": "email", "value": "bob@example.org"}},
        {"set": {"target": {"role": "combobox", "name": "Country"}, "value": "France"}},
        {"click": {"role": "button", "name": "Pa", "exact": false, "within": "Cart"}},
        {"get": {"text": "Order placed", "role": "heading"}}
    ]});
    let (code, r, err) = run(c, s, &[], &steps);
    assert_eq!(code, 0, "{r:#}\n{err}");
    assert_eq!(r["steps"][4]["output"], "Order placed", "{r:#}");
    assert_eq!(order(c, s), "For bob@example.org, to France, by card.");
    // the reply names the element acted on, as a ref does
    let sum = r["changes"]["summary"].as_str().unwrap_or_default();
    assert!(sum.contains("Order placed"), "{sum}");
}

fn locator_errors_name_the_matches_or_the_nearest(c: &Ctx) {
    let s = "it-loc-err";
    c.track_session(s);
    cmd(c, s, &["goto", &c.url("html/replay/twins.html")]);
    // several: exit 1 naming each with its ref and where it is
    let (code, _, err) = cmd(c, s, &["click", "--role", "button", "--name", "Delete"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("2 elements match button \"Delete\""), "{err}");
    assert!(
        err.contains("region \"Drafts\"") && err.contains("region \"Archive\""),
        "{err}"
    );
    assert_eq!(err.matches("button \"Delete\" s").count(), 2, "{err}");
    // within or nth makes it one
    let (code, _, err) = cmd(
        c,
        s,
        &[
            "click",
            "--role",
            "button",
            "--name",
            "Delete",
            "--within",
            "region \"Archive\"",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = cmd(
        c,
        s,
        &[
            "click", "--role", "button", "--name", "Delete", "--nth", "0",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = cmd(c, s, &["get", "--role", "status"]);
    assert!(out.contains("Delete in Drafts"), "{out}");
    let (code, _, err) = cmd(
        c,
        s,
        &[
            "click", "--role", "button", "--name", "Delete", "--nth", "2",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("nth 2 of button \"Delete\""), "{err}");
    assert!(err.contains("only 2 match"), "{err}");
    // none: exit 1 with the nearest names of that role, never another role's element
    let (code, _, err) = cmd(c, s, &["click", "--role", "button", "--name", "Remove"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no button \"Remove\""), "{err}");
    assert!(err.contains("nearest of that role: button \"Re"), "{err}");
    // a single command does not heal: "Restor" is not "Restore"
    let (code, _, err) = cmd(c, s, &["click", "--role", "button", "--name", "Restor"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not healed"), "{err}");
    // a bad locator in a step file is refused before anything runs
    let bad = c.home.path().join("bad-locator.json");
    std::fs::write(&bad, r#"[{"click": {"role": "button", "ref": "s1e1"}}]"#).unwrap();
    let (code, _, err) = cmd(c, s, &["run", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("step 1 (click): a ref or a locator, not both"),
        "{err}"
    );
    let (code, _, err) = cmd(c, s, &["click", "s1e1", "--role", "button"]);
    assert_ne!(code, 0, "{err}");
}

fn journal_is_private_and_keeps_no_secret(c: &Ctx) {
    use std::os::unix::fs::PermissionsExt;
    let s = "it-journal";
    c.track_session(s);
    let secret = "hunter2-Correct-Horse";
    cmd(c, s, &["goto", &c.url("html/replay/checkout.html")]);
    let (code, _, err) = cmd(c, s, &["fill", "--label", "Password", secret]);
    assert_eq!(code, 0, "{err}");
    let snap = c.ok(&["--session", s, "snapshot"]);
    let pw = ref_of(&snap, "textbox \"Password\"");
    let steps =
        json!([{"fill": {"ref": pw, "value": secret}}, {"type": {"ref": pw, "text": secret}}]);
    let (code, r, _) = run(c, s, &[], &steps);
    assert_eq!(code, 0, "{r:#}");
    let path = c.home.path().join("journals-v1").join(format!("{s}.jsonl"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{}", path.display());
    let dir = std::fs::metadata(path.parent().unwrap())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(dir, 0o700);
    assert!(!text.contains(secret), "{text}");
    assert_eq!(text.matches("[secret]").count(), 3, "{text}");
    // the locator taken when it ran, for the fills by ref too
    assert!(text.contains(r#""target":{"role":"textbox","name":"Password","within":{"role":"region","name":"Contact"}}"#), "{text}");
    let out = c.home.path().join("journal-export.json");
    let (code, _, err) = cmd(c, s, &["session", "export", s, out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let exported = std::fs::read_to_string(&out).unwrap();
    assert!(!exported.contains(secret), "{exported}");
    assert!(err.contains("secret"), "{err}");
    let (code, spec, _) = cmd(c, s, &["session", "export", "--as", "playwright", s, "-"]);
    assert_eq!(code, 0);
    assert!(!spec.contains(secret), "{spec}");
}

/// Acts on the checkout by refs, as an agent does, on a session that starts with an empty
/// journal; returns the exported step file.
fn record_checkout(c: &Ctx, s: &str) -> Value {
    c.ok(&["--session", s, "goto", &c.url("html/replay/checkout.html")]);
    let snap = c.ok(&["--session", s, "snapshot"]);
    let email = ref_of(&snap, "textbox \"Email\"");
    let gift = ref_of(&snap, "checkbox \"Gift wrap\"");
    let country = ref_of(&snap, "combobox \"Country\"");
    let pay = ref_of(&snap, "button \"Pay\"");
    for args in [
        vec!["fill", email.as_str(), "ada@example.org"],
        vec!["check", gift.as_str()],
        vec!["select", country.as_str(), "Germany"],
        vec!["click", pay.as_str()],
    ] {
        let (code, out, err) = cmd(c, s, &args);
        assert_eq!(code, 0, "{args:?}: {out}\n{err}");
    }
    assert_eq!(
        order(c, s),
        "For ada@example.org, to Germany, gift wrapped, by card."
    );
    let (code, out, err) = cmd(c, s, &["session", "export", s, "-"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn export_replays_on_a_fresh_session(c: &Ctx) {
    let s = "it-record";
    c.track_session(s);
    let file = record_checkout(c, s);
    let steps = file["steps"].as_array().unwrap();
    // locators, no refs; the check the click's reply gave
    let text = file.to_string();
    assert!(!text.contains("\"ref\""), "{file:#}");
    assert!(steps.contains(&json!({"click": {"role": "button", "name": "Pay", "within": {"role": "region", "name": "Cart"}}})), "{file:#}");
    assert!(
        steps.contains(&json!({"assert": {"text": "Order placed"}})),
        "{file:#}"
    );
    // replayed on a fresh session: the same end state, checked on the page
    let fresh = "it-replay-fresh";
    c.track_session(fresh);
    let (code, r, err) = run(c, fresh, &[], &file);
    assert_eq!(code, 0, "{r:#}\n{err}");
    assert!(r["notes"].as_array().is_none_or(Vec::is_empty), "{r:#}");
    assert_eq!(
        order(c, fresh),
        "For ada@example.org, to Germany, gift wrapped, by card."
    );
    // the Playwright spec of the same journal
    let (code, spec, err) = cmd(c, s, &["session", "export", s, "--as", "playwright", "-"]);
    assert_eq!(code, 0, "{err}");
    for want in [
        "import { test, expect } from '@playwright/test';",
        "await page.getByRole(\"region\", { name: \"Contact\", exact: true }).getByRole(\"textbox\", { name: \"Email\", exact: true }).fill(\"ada@example.org\");",
        ".getByRole(\"checkbox\", { name: \"Gift wrap\", exact: true }).check();",
        ".getByRole(\"combobox\", { name: \"Country\", exact: true }).selectOption([\"Germany\"]);",
        "await expect(page.getByText(\"Order placed\").first()).toBeVisible();",
    ] {
        assert!(spec.contains(want), "{want}\n{spec}");
    }
    // --from: the journal's later lines only (the click on, by its line number)
    let (_, out, _) = cmd(c, s, &["session", "export", s, "--from", "1000", "-"]);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({"steps": []})
    );
}

/// The exported file with its page swapped for a drifted copy.
fn drifted(file: &Value, page: &str) -> Value {
    let t = file
        .to_string()
        .replace("replay/checkout.html", &format!("replay/{page}"));
    serde_json::from_str(&t).unwrap()
}

fn replay_heals_drift_and_strict_refuses(c: &Ctx) {
    let s = "it-record-drift";
    c.track_session(s);
    let file = record_checkout(c, s);
    let fresh = "it-replay-drift";
    c.track_session(fresh);
    // renamed: healed, said in the step and a note
    let (code, r, err) = run(c, fresh, &[], &drifted(&file, "renamed.html"));
    assert_eq!(code, 0, "{r:#}\n{err}");
    let healed: Vec<&str> = r["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|x| x["healed"].as_str())
        .collect();
    assert_eq!(healed, ["healed: button \"Pay\" -> \"Pay now\""], "{r:#}");
    assert!(
        r["notes"]
            .to_string()
            .contains("healed: button \\\"Pay\\\" -> \\\"Pay now\\\""),
        "{r:#}"
    );
    assert_eq!(
        order(c, fresh),
        "For ada@example.org, to Germany, gift wrapped, by card."
    );
    // moved: the field of that very name in another region
    let (code, r, err) = run(c, fresh, &[], &drifted(&file, "moved.html"));
    assert_eq!(code, 0, "{r:#}\n{err}");
    assert!(r.to_string().contains("healed: textbox \\\"Email\\\" moved from region \\\"Contact\\\" to region \\\"Account\\\""), "{r:#}");
    assert_eq!(
        order(c, fresh),
        "For ada@example.org, to Germany, gift wrapped, by card."
    );
    // a twin: refused, naming both
    let (code, r, _) = run(c, fresh, &[], &drifted(&file, "twin.html"));
    assert_eq!(code, 1, "{r:#}");
    let e = r["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|x| x["error"].as_str())
        .unwrap_or_default()
        .to_string();
    assert!(
        e.starts_with("2 elements match button \"Pay\" in region \"Cart\""),
        "{e}"
    );
    assert_eq!(e.matches("button \"Pay\" s").count(), 2, "{e}");
    assert_eq!(order(c, fresh), "");
    // --strict refuses all three
    for page in ["renamed.html", "moved.html", "twin.html"] {
        let (code, r, _) = run(c, fresh, &["--strict"], &drifted(&file, page));
        assert_eq!(code, 1, "{page}: {r:#}");
        let steps = r["steps"].as_array().unwrap();
        assert!(
            steps.iter().all(|x| x.get("healed").is_none()),
            "{page}: {r:#}"
        );
        assert!(
            r["notes"].as_array().is_none_or(Vec::is_empty),
            "{page}: {r:#}"
        );
        assert_eq!(order(c, fresh), "", "{page}");
    }
}

fn mcp_tools_take_a_target(c: &Ctx) {
    use rmcp::ServiceExt;
    use rmcp::model::CallToolRequestParams;
    let cmd = crate::mcp::stdio_server(c, &["--tools", "all"]);
    let url = c.url("html/replay/twins.html");
    c.rt.block_on(async move {
        let transport = rmcp::transport::TokioChildProcess::new(cmd).expect("spawn ariasnap mcp");
        let client = ().serve(transport).await.expect("initialize");
        let tools = client.list_all_tools().await.expect("tools/list");
        let click = tools
            .iter()
            .find(|t| t.name == "browser_click")
            .expect("browser_click");
        let schema = serde_json::to_value(&click.input_schema).unwrap();
        assert!(
            schema["properties"]["target"]["properties"]["role"].is_object(),
            "{schema:#}"
        );
        let call = |name: &str, v: Value| {
            CallToolRequestParams::new(name.to_string())
                .with_arguments(v.as_object().cloned().unwrap())
        };
        let r = client
            .call_tool(call("browser_navigate", json!({"url": url})))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
        let r = client
            .call_tool(call(
                "browser_click",
                json!({"target": {"role": "button", "name": "Restore"}}),
            ))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
        let r = client
            .call_tool(call(
                "browser_click",
                json!({"target": {"role": "button", "name": "Delete"}}),
            ))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(true), "{r:?}");
        let text = crate::mcp::text_of(&r);
        assert!(
            text.contains("2 elements match button \"Delete\""),
            "{text}"
        );
        let r = client
            .call_tool(call("browser_get", json!({"target": {"role": "status"}})))
            .await
            .unwrap();
        assert!(
            crate::mcp::text_of(&r).contains("Restore in Archive"),
            "{r:?}"
        );
        // wait and frame take it too (frame's own target is its iframe's)
        let r = client
            .call_tool(call("browser_wait", json!({"target": {"role": "status"}})))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
        let r = client
            .call_tool(call(
                "browser_frame",
                json!({"target": {"role": "iframe", "name": "Nowhere"}}),
            ))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(true), "{r:?}");
        let text = crate::mcp::text_of(&r);
        assert!(text.contains("no iframe \"Nowhere\""), "{text}");
        client.cancel().await.ok();
    });
}

/// Where scripts/setup.sh installs @playwright/test (`ARIASNAP_PLAYWRIGHT_TEST` for another
/// folder): its `node_modules`.
fn playwright_test_modules() -> std::path::PathBuf {
    let dir = std::env::var_os("ARIASNAP_PLAYWRIGHT_TEST")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(std::path::PathBuf::from)
                .unwrap_or_else(|| {
                    std::path::PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache")
                });
            cache.join("ariasnap/playwright-test")
        });
    let m = dir.join("node_modules");
    assert!(
        m.join("@playwright/test/cli.js").is_file(),
        "@playwright/test is not in {} (bash scripts/setup.sh installs it, pinned in scripts/npm-pins.sh, or set ARIASNAP_PLAYWRIGHT_TEST)",
        m.display()
    );
    m
}

/// The system Chromium, found on PATH as the suite finds it.
fn chromium_on_path() -> std::path::PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
        .expect("chromium on PATH")
}

/// `@playwright/test` set up in `dir` (its modules, a config for the system Chromium): a
/// runner of one spec file there with a timeout.
fn playwright_in<'a>(
    dir: &'a tempfile::TempDir,
    modules: &'a std::path::Path,
) -> impl Fn(&str, &str) -> std::process::Output + 'a {
    std::os::unix::fs::symlink(modules, dir.path().join("node_modules")).unwrap();
    let config = format!(
        "module.exports = {{ testDir: '.', workers: 1, timeout: 30000, outputDir: 'results', use: {{ headless: true, launchOptions: {{ executablePath: {} }} }} }};\n",
        serde_json::to_string(&chromium_on_path()).unwrap()
    );
    std::fs::write(dir.path().join("playwright.config.js"), config).unwrap();
    move |file: &str, timeout: &str| {
        std::process::Command::new("node")
            .arg(modules.join("@playwright/test/cli.js"))
            .args(["test", file, "--reporter=line", "--timeout", timeout])
            .current_dir(dir.path())
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
            .output()
            .expect("node")
    }
}

/// The Playwright export does what ariasnap did where Playwright's own call would not: a
/// click on a button whose centre is covered (at the point ariasnap's pointer reached), a
/// disabled text box scrolled to its end (its scroll box, not scrollIntoView), an ARIA slider
/// set with its keys (Playwright's fill takes only inputs), a clickable `a` without href (a
/// generic to Playwright's getByRole), a switch to the tab a link opened (ariasnap's tab
/// aliases in opening order). The spec passes, and each of those is what it says.
fn exported_spec_acts_as_ariasnap_did(c: &Ctx) {
    let modules = playwright_test_modules();
    let s = "it-record-pw-widgets";
    c.track_session(s);
    let on = |page: &str, needle: &str| {
        c.ok(&["--session", s, "goto", &c.url(page)]);
        let snap = c.ok(&["--session", s, "snapshot", "--detail", "interactive"]);
        ref_of(&snap, needle)
    };
    let act = |args: &[&str]| {
        let (code, out, err) = cmd(c, s, args);
        assert_eq!(code, 0, "{args:?}: {out}\n{err}");
    };
    let one = on("html/pointer/overlap.html", "button \"ONE\"");
    act(&["click", &one]);
    let licence = on("html/pointer/scroll-box.html", "textbox \"Licence\"");
    act(&[
        "scroll",
        &licence,
        "--direction",
        "down",
        "--amount",
        "100000",
    ]);
    // (Gecko fires no scroll event at a disabled form control, so there the page never
    // enables the box: its scroll is still exported, the box is not set)
    if !crate::common::firefox() {
        let read = ref_of(
            &c.ok(&["--session", s, "snapshot"]),
            "checkbox \"I have read the licence\"",
        );
        act(&["set", &read, "true"]);
    }
    let temp = on("html/tasks/docs-slider.html", "slider \"Temperature\"");
    act(&["set", &temp, "24"]);
    let call = on("html/clickables/contacts.html", "link \"503-555-0142\"");
    act(&["click", &call]);
    // a link that opens a tab, and the agent's switch to it
    let guide = on(
        "html/tasks/product.html",
        "link \"Size guide (opens in a new tab)\"",
    );
    act(&["click", &guide]);
    act(&["switch-tab", "t2"]);
    let dir = tempfile::tempdir().unwrap();
    let (code, spec, err) = cmd(c, s, &["session", "export", s, "--as", "playwright", "-"]);
    assert_eq!(code, 0, "{err}");
    // the spec ends on the tab the session ended on
    let spec = format!(
        "{}  await expect(page).toHaveURL(/size-guide\\.html/);\n}});\n",
        spec.trim_end().strip_suffix("});").unwrap_or(&spec)
    );
    for want in [
        "getByRole(\"button\", { name: \"ONE\", exact: true }).click({ position:",
        "await scrollIn(page.getByRole(\"textbox\", { name: \"Licence\", exact: true }), 0, 1, 100000);",
        "await setByKeys(page.getByRole(\"region\"",
        "getByText(\"503-555-0142\", { exact: true }).click();",
        "page = await tabAt(2);",
    ] {
        assert!(spec.contains(want), "{want} in\n{spec}");
    }
    std::fs::write(dir.path().join("widgets.spec.js"), &spec).unwrap();
    let o = playwright_in(&dir, &modules)("widgets.spec.js", "30000");
    let out = o.stdout_text();
    assert!(o.status.success(), "{spec}\n{out}\n{}", o.stderr_text());
    assert!(out.contains("1 passed"), "{out}");
}

fn exported_spec_passes_playwright_test(c: &Ctx) {
    let modules = playwright_test_modules();
    let s = "it-record-pw";
    c.track_session(s);
    record_checkout(c, s);
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("checkout.spec.js");
    let (code, _, err) = cmd(
        c,
        s,
        &[
            "session",
            "export",
            s,
            "--as",
            "playwright",
            spec.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let run = playwright_in(&dir, &modules);
    let o = run("checkout.spec.js", "30000");
    let out = o.stdout_text();
    assert!(o.status.success(), "{out}\n{}", o.stderr_text());
    assert!(out.contains("1 passed"), "{out}");
    // the same spec on the renamed page fails there: it checks what it claims
    let text = std::fs::read_to_string(&spec)
        .unwrap()
        .replace("replay/checkout", "replay/renamed");
    std::fs::write(dir.path().join("renamed.spec.js"), text).unwrap();
    let o = run("renamed.spec.js", "8000");
    let out = o.stdout_text();
    assert!(!o.status.success(), "{out}");
    // it fails at the button, not for another reason
    assert!(
        out.contains("getByRole('button', { name: 'Pay', exact: true })"),
        "{out}"
    );
}

/// The ref on the `nth` line of a snapshot holding `needle`.
fn nth_ref(snap: &str, needle: &str, nth: usize) -> String {
    let line = snap
        .lines()
        .filter(|l| l.contains(needle) && l.contains("[ref="))
        .nth(nth)
        .unwrap_or_else(|| panic!("no line {nth} with {needle:?} in:\n{snap}"));
    ref_of(line, needle)
}

/// Ten and more WAI-ARIA APG patterns of the task bench's docs pages (fixtures/html/tasks/):
/// each done by refs as an agent does (a snapshot, then a click on what it read), exported
/// from its `goto` on (`--from`), and replayed on another session; the two pages'
/// interactive snapshots (refs aside) must be the same, so a step the export lost or a
/// locator that took another element shows. One recording session and one replaying session
/// serve every page (a browser each, rather than two per page: the pages keep no state).
fn apg_patterns_replay_to_the_same_state(c: &Ctx) {
    let tasks: &[(&str, &[(&str, usize)])] = &[
        ("docs-tabs", &[("tab \"Getting there\"", 0)]),
        ("docs-accordion", &[("button \"Billing address\"", 0)]),
        ("docs-switch", &[("- switch ", 1)]),
        ("docs-checkbox", &[("checkbox \"All condiments\"", 0)]),
        ("docs-radio-group", &[("radio \"Express", 0)]),
        ("docs-listbox", &[("option \"Amsterdam (AMS)\"", 0)]),
        ("docs-treeview", &[("- treeitem ", 0)]),
        (
            "docs-toolbar",
            &[("radio \"Centre\"", 0), ("button \"Bold\"", 0)],
        ),
        (
            "docs-disclosure",
            &[("button \"How long do refunds take?\"", 0)],
        ),
        (
            "docs-spinbutton",
            &[("button \"Add adult\"", 0), ("button \"Add adult\"", 0)],
        ),
        (
            "docs-menu-button",
            &[("button \"Actions", 0), ("- menuitem ", 0)],
        ),
        ("docs-dialog", &[("button \"Add delivery address\"", 0)]),
    ];
    let mut done = Vec::new();
    let (rec, fresh) = ("it-apg", "it-apg-replay");
    c.track_session(rec);
    c.track_session(fresh);
    let journal = c.home.path().join(format!("journals-v1/{rec}.jsonl"));
    for (page, acts) in tasks {
        // the journal's next line is this page's goto
        let from = std::fs::read_to_string(&journal)
            .ok()
            .and_then(|j| {
                let last: Value = serde_json::from_str(j.lines().last()?).ok()?;
                last["n"].as_u64()
            })
            .map_or(1, |n| n + 1)
            .to_string();
        c.ok(&[
            "--session",
            rec,
            "goto",
            &c.url(&format!("html/tasks/{page}.html")),
        ]);
        for (needle, nth) in acts.iter() {
            let snap = c.ok(&["--session", rec, "snapshot", "--detail", "interactive"]);
            let r = nth_ref(&snap, needle, *nth);
            let (code, out, err) = cmd(c, rec, &["click", &r]);
            assert_eq!(code, 0, "{page} {needle}: {out}\n{err}");
        }
        let (code, out, err) = cmd(c, rec, &["session", "export", rec, "-", "--from", &from]);
        assert_eq!(code, 0, "{page}: {err}");
        let file: Value = serde_json::from_str(&out).unwrap();
        assert!(!out.contains("\"ref\""), "{page}: {out}");
        let first = &file["steps"][0];
        assert!(
            first["goto"]["url"]
                .as_str()
                .is_some_and(|u| u.ends_with(&format!("{page}.html"))),
            "{page}: the export does not begin at the page's goto: {out}"
        );
        let (code, r, err) = run(c, fresh, &["--strict"], &file);
        assert_eq!(code, 0, "{page}: {r:#}\n{err}\n{out}");
        let want = c.ok(&["--session", rec, "snapshot", "--detail", "interactive"]);
        let got = c.ok(&["--session", fresh, "snapshot", "--detail", "interactive"]);
        assert_eq!(normalize_refs(&got), normalize_refs(&want), "{page}: {out}");
        done.push(*page);
    }
    eprintln!(
        "replayed to the same state: {} APG pages: {}",
        done.len(),
        done.join(", ")
    );
}

/// A clickable generic has no name (WAI-ARIA 1.2: generic is "name prohibited"): the journal
/// takes its target by its words as a `text` locator, which resolves on a fresh session;
/// `--text` finds it on the command line.
fn a_clickable_generic_is_journaled_by_its_words_and_replays(c: &Ctx) {
    let s = "it-generic";
    c.track_session(s);
    let page = c.url("html/clickables/cards.html");
    c.ok(&["--session", s, "goto", &page]);
    let snap = c.ok(&["--session", s, "snapshot", "--inline-limit", "0"]);
    let pro = crate::common::words_ref(&snap, "generic", "Pro ");
    let (code, out, err) = cmd(c, s, &["click", &pro]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = cmd(
        c,
        s,
        &["click", "--role", "generic", "--text", "Office chair"],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let plan = |session: &str| {
        let (_, out, _) = cmd(
            c,
            session,
            &[
                "eval",
                "document.querySelector('.plan.chosen')?.dataset.plan + ' / ' + document.getElementById('status').textContent",
            ],
        );
        let v: Value = serde_json::from_str(&out).unwrap_or(Value::Null);
        v["steps"][0]["output"].as_str().unwrap_or("").to_string()
    };
    assert_eq!(plan(s), "Pro / Opened Office chair");
    let (code, out, err) = cmd(c, s, &["session", "export", s, "-"]);
    assert_eq!(code, 0, "{err}");
    let file: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let steps = file["steps"].as_array().unwrap();
    for want in [
        json!({"click": {"role": "generic", "text": "Pro $12/month 5 users 1 TB"}}),
        json!({"click": {"role": "generic", "text": "Office chair"}}),
    ] {
        assert!(steps.contains(&want), "{want} in {file:#}");
    }
    assert!(!file.to_string().contains("\"name\""), "{file:#}");
    let fresh = "it-generic-fresh";
    c.track_session(fresh);
    let (code, r, err) = run(c, fresh, &["--strict"], &file);
    assert_eq!(code, 0, "{r:#}\n{err}");
    assert_eq!(plan(fresh), "Pro / Opened Office chair");
}

/// Cards a click added are checked, in the export, by the first of their controls no other
/// card has (docs/reference/step-files.md#export): a card's words are its pieces joined around
/// its title link, a run of text the page does not show; that check passes on a fresh session.
fn added_cards_are_checked_by_a_control_of_theirs(c: &Ctx) {
    let s = "it-cards";
    c.track_session(s);
    c.ok(&["--session", s, "goto", &c.url("html/tasks/tents.html")]);
    let (code, out, err) = cmd(
        c,
        s,
        &["click", "--role", "button", "--name", "Load more tents"],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = cmd(c, s, &["session", "export", s, "-"]);
    assert_eq!(code, 0, "{err}");
    let file: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let steps = file["steps"].as_array().unwrap();
    let check = steps.last().unwrap();
    assert_eq!(check["wait"]["role"], "link", "{file:#}");
    assert!(
        check["wait"]["name"]
            .as_str()
            .is_some_and(|n| n.contains("Tent")),
        "{file:#}"
    );
    assert!(!file.to_string().contains("\"assert\""), "{file:#}");
    let fresh = "it-cards-fresh";
    c.track_session(fresh);
    let (code, r, err) = run(c, fresh, &["--strict"], &file);
    assert_eq!(code, 0, "{r:#}\n{err}");
}

/// Agents of `mcp --http` (docs/reference/mcp.md#each-agents-journal): each agent's steps go
/// into a journal of its own (its session's, 0600), nothing of the other's in it; exported,
/// the journal of the one that paid replays on a fresh session to the same order.
fn http_agents_keep_a_journal_each(c: &Ctx) {
    use std::os::unix::fs::PermissionsExt;
    let sdk = crate::mcp_http::sdk_dir();
    assert!(
        sdk.join("package.json").exists(),
        "the MCP SDK is not at {} (bash scripts/setup.sh installs it, or set ARIASNAP_MCP_SDK)",
        sdk.display()
    );
    let (server, port) = crate::mcp_http::start_server(c, &[]);
    let o = std::process::Command::new("node")
        .arg(
            c.fixtures
                .parent()
                .unwrap()
                .join("tests/it/js/mcp_http_journal.mjs"),
        )
        .env("SDK_DIR", &sdk)
        .env("MCP_URL", format!("http://127.0.0.1:{port}/mcp"))
        .env("PAGE", c.url("html/replay/checkout.html"))
        .env("OTHER", c.url("html/agent/count.html"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r: Value = serde_json::from_str(stdout.trim()).unwrap();
    for k in ["aFill", "aCheck", "aSelect", "bClick", "aPay"] {
        assert_eq!(r[k]["error"], false, "{k}: {r:#}");
    }
    // the server's agents are sessions mcp-<its pid>-<n>
    let prefix = format!("mcp-{}-", server.0.id());
    let dir = c.home.path().join("journals-v1");
    let mut journals: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            let session = name.strip_prefix(&prefix)?.strip_suffix(".jsonl")?;
            let text = std::fs::read_to_string(dir.join(&name)).ok()?;
            Some((format!("{prefix}{session}"), text))
        })
        .collect();
    drop(server);
    assert_eq!(journals.len(), 2, "{journals:#?}");
    for (s, _) in &journals {
        let p = dir.join(format!("{s}.jsonl"));
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", p.display());
    }
    journals.sort_by_key(|(_, t)| !t.contains("Pay"));
    let (payer, a) = &journals[0];
    let (_, b) = &journals[1];
    assert!(
        a.contains(
            r#""target":{"role":"button","name":"Pay","within":{"role":"region","name":"Cart"}}"#
        ),
        "{a}"
    );
    assert!(!a.contains("\"Count\"") && !a.contains("count.html"), "{a}");
    assert!(
        b.contains(r#""target":{"role":"button","name":"Count"}"#) && !b.contains("checkout"),
        "{b}"
    );
    // exported by the operator, replayed (strict) on a fresh session
    let out = c.home.path().join("http-agent-export.json");
    let (code, _, err) = cmd(
        c,
        payer,
        &["session", "export", payer, out.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let fresh = "it-replay-http";
    c.track_session(fresh);
    let (code, _, err) = cmd(c, fresh, &["run", "--strict", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}\n{}", std::fs::read_to_string(&out).unwrap());
    assert_eq!(
        order(c, fresh),
        "For ada@example.org, to Germany, gift wrapped, by card."
    );
}

/// The board's state, read on the page: the items in the rucksack, the report, the frame's
/// confirmation.
fn board(c: &Ctx, session: &str) -> Value {
    let (_, out, _) = cmd(
        c,
        session,
        &[
            "eval",
            "JSON.stringify({pack: [...document.querySelectorAll('#pack [role=listitem]')].map(e => e.id), report: !!document.querySelector('h2'), confirmed: document.querySelector('iframe').contentDocument.getElementById('done').textContent})",
        ],
    );
    let v: Value = serde_json::from_str(&out).unwrap_or(Value::Null);
    serde_json::from_str(v["steps"][0]["output"].as_str().unwrap_or("null")).unwrap_or(Value::Null)
}

/// The error of the first failed step of a run.
fn step_error(r: &Value) -> String {
    r["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|x| x["error"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// drag (both ends), wait, screenshot and frame take a locator wherever they take a ref: in
/// step files, on the command line and as MCP's target, with the locator errors.
fn drag_wait_screenshot_and_frame_take_locators(c: &Ctx) {
    let s = "it-targets";
    c.track_session(s);
    let page = c.url("html/replay/board.html");
    let shot = c.home.path().join("chart.png");
    let steps = json!([
        {"goto": page},
        {"drag": {"from": {"role": "listitem", "name": "Tent"}, "to": {"role": "region", "name": "Rucksack"}}},
        {"click": {"role": "button", "name": "Load report"}},
        {"wait": {"role": "heading", "name": "Report ready"}},
        {"screenshot": {"role": "img", "name": "Chart", "path": shot.to_str().unwrap()}},
        {"frame": {"role": "iframe", "name": "Payment"}},
        {"click": {"role": "button", "name": "Confirm"}},
        {"frame": "main"}
    ]);
    let (code, r, err) = run(c, s, &[], &steps);
    assert_eq!(code, 0, "{r:#}\n{err}");
    assert_eq!(
        board(c, s),
        json!({"pack": ["tent"], "report": true, "confirmed": "Confirmed"})
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    // the locator errors: several (at once, a wait too), none (the nearest of the role)
    for (step, want) in [
        (
            json!({"wait": {"role": "button", "name": "Note"}}),
            "2 elements match button \"Note\": button \"Note\" s",
        ),
        (
            json!({"drag": {"from": {"role": "button", "name": "Note"}, "to": {"role": "region", "name": "Rucksack"}}}),
            "2 elements match button \"Note\"",
        ),
        (
            json!({"screenshot": {"role": "img", "name": "Graph"}}),
            "no img \"Graph\"; nearest of that role: img \"Chart\" s",
        ),
        (
            json!({"frame": {"role": "iframe", "name": "Checkout"}}),
            "no iframe \"Checkout\"",
        ),
        (
            json!({"wait": {"role": "heading", "name": "Report failed", "timeout": 300}}),
            "heading \"Report failed\" did not happen within 300 ms: no heading \"Report failed\"; nearest of that role: heading",
        ),
    ] {
        let (code, r, _) = run(c, s, &["--strict"], &json!([step]));
        assert_ne!(code, 0, "{step}: {r:#}");
        let e = step_error(&r);
        assert!(e.contains(want), "{step}: {e}");
    }
    // a wait with hidden: until the locator names nothing
    let (code, r, _) = run(
        c,
        s,
        &[],
        &json!([{"wait": {"role": "listitem", "name": "Stove", "hidden": true, "timeout": 300}}]),
    );
    assert_ne!(code, 0, "{r:#}");
    assert!(
        step_error(&r).contains("1 still match listitem \"Stove\""),
        "{r:#}"
    );
    // the command line: the locator flags, and drag's ends as `role "name"`
    c.ok(&["--session", s, "goto", &page]);
    let (code, _, err) = cmd(c, s, &["drag", "listitem \"Stove\"", "region \"Rucksack\""]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = cmd(
        c,
        s,
        &["click", "--role", "button", "--name", "Load report"],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = cmd(
        c,
        s,
        &["wait", "--role", "heading", "--name", "Report ready"],
    );
    assert_eq!(code, 0, "{err}");
    let shot2 = c.home.path().join("chart-cli.png");
    let (code, _, err) = cmd(
        c,
        s,
        &[
            "screenshot",
            "--role",
            "img",
            "--name",
            "Chart",
            "--path",
            shot2.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(shot2.exists());
    let (code, out, err) = cmd(c, s, &["frame", "--role", "iframe", "--name", "Nope"]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        format!("{out}{err}")
            .contains("no iframe \"Nope\"; nearest of that role: iframe \"Payment\""),
        "{out}\n{err}"
    );
    let (code, _, err) = cmd(c, s, &["wait", "--role", "button", "--name", "Note"]);
    assert_eq!(code, 1, "{err}");
    assert!(board(c, s)["pack"] == json!(["stove"]), "{}", board(c, s));
}

/// An agent's drag, wait, screenshot and frame by refs (and a wait by locator) go into the
/// journal with their locators; exported, they replay (strict) on a fresh session to the
/// same board.
fn drag_wait_screenshot_and_frame_replay_from_the_journal(c: &Ctx) {
    let s = "it-board-agent";
    c.track_session(s);
    c.ok(&["--session", s, "goto", &c.url("html/replay/board.html")]);
    let snap = c.ok(&["--session", s, "snapshot"]);
    let tent = ref_of(&snap, "listitem \"Tent\"");
    let load = ref_of(&snap, "button \"Load report\"");
    // what a snapshot gives no ref (a region, an image, an iframe), search does
    let searched = |text: &str, role: &str| -> String {
        let out = c.ok(&["--session", s, "search", text, "--role", role]);
        let v: Value = serde_json::from_str(&out).unwrap();
        v["steps"][0]["output"]["matches"][0]["ref"]
            .as_str()
            .unwrap_or_else(|| panic!("{out}"))
            .to_string()
    };
    let pack = searched("Rucksack", "region");
    let chart = searched("Chart", "img");
    let frame = searched("Payment", "iframe");
    let shot = c.home.path().join("board-chart.png");
    let shot = shot.to_str().unwrap();
    let steps = json!([
        {"drag": {"from": tent, "to": pack}},
        {"click": load},
        {"wait": {"role": "heading", "name": "Report ready"}},
        {"screenshot": {"ref": chart, "path": shot}},
        {"frame": frame},
        {"click": {"role": "button", "name": "Confirm"}},
        {"frame": "main"}
    ]);
    let (code, r, err) = run(c, s, &[], &steps);
    assert_eq!(code, 0, "{r:#}\n{err}");
    let want = json!({"pack": ["tent"], "report": true, "confirmed": "Confirmed"});
    assert_eq!(board(c, s), want);
    let (code, out, err) = cmd(c, s, &["session", "export", s, "-"]);
    assert_eq!(code, 0, "{err}");
    let file: Value = serde_json::from_str(&out).unwrap();
    let steps = file["steps"].as_array().unwrap();
    for want in [
        json!({"drag": {"from": {"role": "listitem", "name": "Tent", "within": {"role": "region", "name": "Leave at home"}}, "to": {"role": "region", "name": "Rucksack", "within": {"role": "main"}}}}),
        json!({"wait": {"role": "heading", "name": "Report ready"}}),
        json!({"screenshot": {"path": shot, "role": "img", "name": "Chart", "within": {"role": "main"}}}),
        json!({"frame": {"role": "iframe", "name": "Payment", "within": {"role": "main"}}}),
        json!({"frame": {"target": "main"}}),
    ] {
        assert!(steps.contains(&want), "{want}\n{file:#}");
    }
    assert!(!out.contains(&tent) && !out.contains(&frame), "{file:#}");
    // replayed strict on a fresh session
    std::fs::remove_file(shot).unwrap();
    let fresh = "it-board-replay";
    c.track_session(fresh);
    let (code, r, err) = run(c, fresh, &["--strict"], &file);
    assert_eq!(code, 0, "{r:#}\n{err}");
    assert_eq!(board(c, fresh), want);
    assert!(std::path::Path::new(shot).exists());
    // the Playwright spec says the drag, the wait and the screenshot in its own words
    let (_, spec, err) = cmd(c, s, &["session", "export", s, "--as", "playwright", "-"]);
    let journal = std::fs::read_to_string(c.home.path().join(format!("journals-v1/{s}.jsonl")))
        .unwrap_or_default();
    for want in [
        ".getByRole(\"listitem\", { name: \"Tent\", exact: true }).dragTo(page.getByRole(\"main\").getByRole(\"region\", { name: \"Rucksack\", exact: true }));",
        "await expect(page.getByRole(\"heading\", { name: \"Report ready\", exact: true })).toBeVisible();",
        ".getByRole(\"img\", { name: \"Chart\", exact: true }).screenshot({ path: ",
    ] {
        assert!(spec.contains(want), "{want}\n{spec}\n{err}\n{journal}");
    }
}
