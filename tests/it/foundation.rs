//! Issue: the foundation. A first faithful snapshot, JSON output, stable refs, persistent
//! sessions (reattach and close), deep pages, text cutting, blank pages, hidden content.

use crate::common::{Ctx, Test, Text, line_with, ref_of, refs_in};
use std::collections::HashSet;

pub fn tests() -> Vec<Test> {
    trials![
        basic_page_lines,
        json_output_parses,
        refs_are_stable_and_follow_names,
        reattach_and_close_leave_nothing,
        deep_page_5000_divs,
        long_text_is_cut,
        blank_page_is_minimal,
        hidden_content_never_shows,
        missing_browser_says_how_to_fix,
        version_shows_engine_hash,
        demo_runs,
        non_ascii_names_survive_the_reply
    ]
}

/// The engine sends a reply with few non-ASCII characters as JSON escapes (Chromium moves
/// an ASCII string out of the page faster) and one with many as it is: both read back
/// exactly, pairs (emoji) and quotes included.
fn non_ascii_names_survive_the_reply(c: &Ctx) {
    let t = c.snapshot("html/basic/unicode-few.html");
    for line in [
        "- document \"Few non-ASCII characters\"",
        "- heading \"Ελληνικά heading\" [level=1]",
        "- button \"Café 東京 😀\" [ref=s",
        "- link \"naïve Ünïcödé 👨‍👩‍👧\" [ref=s",
        "- textbox \"Straße \\\"quoted\\\" \\\\ back\" [ref=s",
    ] {
        assert!(t.contains(line), "{line} in:\n{t}");
    }
    let t = c.snapshot("html/basic/unicode-many.html");
    for line in [
        "- document \"日本語のページ\"",
        "- heading \"日本語の見出し\" [level=1]",
        "東京、大阪、京都、札幌、福岡、名古屋。",
        "- button \"保存する 😀\" [ref=s",
        "- link \"次のページへ\" [ref=s",
    ] {
        assert!(t.contains(line), "{line} in:\n{t}");
    }
}

fn basic_page_lines(c: &Ctx) {
    let t = c.snapshot("html/basic/page.html");
    let url = c.url("html/basic/page.html");
    assert!(
        t.starts_with(&format!(
            "# page: {url} status=200 ready=complete\n- document \"Basic page\":\n"
        )),
        "{t}"
    );
    assert!(
        t.contains("  - heading \"Welcome aboard\" [level=1]\n"),
        "{t}"
    );
    assert!(
        t.contains("  - paragraph: This paragraph explains the page.\n"),
        "{t}"
    );
    let link = line_with(&t, "- link \"Next page\"");
    assert!(link.contains("[ref=s"), "{link}");
    let save = line_with(&t, "- button \"Save draft\"");
    assert!(
        save.starts_with("  - button \"Save draft\" [ref=s"),
        "{save}"
    );
    let tb = line_with(&t, "- textbox \"Full name\"");
    assert!(tb.contains("[ref=s"), "{tb}");
    let cb = line_with(&t, "- checkbox \"I accept the terms\"");
    assert!(cb.contains("[ref=s") && !cb.contains("[checked]"), "{cb}");
    let refs = refs_in(&t);
    assert_eq!(refs.len(), 5, "link, 2 buttons, textbox, checkbox: {t}");
    let uniq: HashSet<&String> = refs.iter().collect();
    assert_eq!(uniq.len(), refs.len(), "refs must be unique: {refs:?}");
    for r in &refs {
        assert!(ariasnap::refs::is_ref(r), "{r}");
    }
}

fn json_output_parses(c: &Ctx) {
    let v = c.snapshot_json("html/basic/page.html");
    assert_eq!(v["role"], "document");
    assert_eq!(v["name"], "Basic page");
    assert_eq!(v["title"], "Basic page");
    assert!(
        v["url"]
            .as_str()
            .unwrap()
            .ends_with("/html/basic/page.html")
    );
    assert!(v["snapshot"].as_u64().unwrap() >= 1);
    let kids = v["children"].as_array().unwrap();
    let button = kids
        .iter()
        .find(|k| k["name"] == "Save draft")
        .expect("button");
    assert_eq!(button["role"], "button");
    assert!(button["ref"].as_str().unwrap().starts_with('s'));
    assert!(button["children"].is_array());
    let cb = kids
        .iter()
        .find(|k| k["role"] == "checkbox")
        .expect("checkbox");
    assert_eq!(cb["name"], "I accept the terms");
    assert_eq!(v["stats"]["refs"], 5);
}

fn refs_are_stable_and_follow_names(c: &Ctx) {
    let first = c.snapshot("html/basic/page.html");
    let second = c.ok(&["snapshot"]);
    assert_eq!(
        refs_in(&first),
        refs_in(&second),
        "unchanged page keeps every ref"
    );
    let save = ref_of(&second, "\"Save draft\"");
    let cancel = ref_of(&second, "\"Cancel\"");
    let link = ref_of(&second, "\"Next page\"");
    c.ok(&[
        "eval",
        "document.getElementById('save').textContent = 'Publish now'",
    ]);
    let third: serde_json::Value =
        serde_json::from_str(&c.ok(&["snapshot", "--format", "json"])).unwrap();
    let n = third["snapshot"].as_u64().unwrap();
    let kids = third["children"].as_array().unwrap();
    let ref_named = |name: &str| -> String {
        let node = kids
            .iter()
            .find(|k| k["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {third}"));
        node["ref"].as_str().unwrap().to_string()
    };
    let publish = ref_named("Publish now");
    assert_ne!(publish, save, "a renamed button gets a new ref");
    assert!(
        publish.starts_with(&format!("s{n}e")),
        "minted by this snapshot (s{n}): {publish}"
    );
    assert_eq!(ref_named("Cancel"), cancel);
    assert_eq!(ref_named("Next page"), link);
    assert!(!third.to_string().contains("Save draft"));
}

fn reattach_and_close_leave_nothing(c: &Ctx) {
    let name = "it-reattach";
    c.track_session(name);
    let url = c.url("html/basic/page.html");
    // a session's first command starts it: one that loads no page says so, on stderr and in
    // the reply (a mistyped --session name must not pass for an empty page)
    let said = format!("session \"{name}\" was started by this command, so its tab is blank");
    let blank = c.run(&["--session", name, "snapshot"]);
    assert!(blank.status.success());
    let (out, err) = (blank.stdout_text(), blank.stderr_text());
    assert!(out.contains(&said), "stdout: {out}");
    assert!(err.contains(&said), "stderr: {err}");
    let first = c.ok(&["--session", name, "snapshot", &url]);
    assert!(first.contains("Welcome aboard"));
    assert!(
        !first.contains(&said),
        "only the command that started it: {first}"
    );
    // a second process, same session: sees the page the first one opened
    let second = c.ok(&["snapshot", "--session", name]);
    assert!(second.contains("Welcome aboard"), "{second}");
    assert_eq!(refs_in(&first), refs_in(&second));
    // the record names the driver and the profile
    let rec_path = c
        .home
        .path()
        .join("sessions-v1")
        .join(format!("{name}.json"));
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec_path).unwrap()).unwrap();
    let driver_pid = rec["driver_pid"].as_u64().unwrap() as u32;
    let profile = rec["user_data_dir"].as_str().unwrap().to_string();
    assert!(ariasnap::browser::launch::alive(driver_pid));
    let kind: ariasnap::browser::launch::BrowserKind =
        serde_json::from_value(rec["browser"].clone()).unwrap();
    assert_eq!(
        kind.name(),
        crate::common::browser(),
        "the record names the browser"
    );
    let needle = ariasnap::browser::launch::profile_needle(kind, std::path::Path::new(&profile));
    let pids = ariasnap::browser::launch::pids_matching(&needle);
    assert!(!pids.is_empty(), "browser runs");
    if kind == ariasnap::browser::launch::BrowserKind::Chromium {
        // the renderer that drew the page runs with our V8 flags (launch::JS_FLAGS)
        let renderers: Vec<String> = pids
            .iter()
            .map(|p| std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains("--type=renderer"))
            .collect();
        assert!(!renderers.is_empty(), "no renderer among {pids:?}");
        assert!(
            renderers
                .iter()
                .all(|c| c.contains(ariasnap::browser::launch::JS_FLAGS)),
            "renderers without {}: {renderers:?}",
            ariasnap::browser::launch::JS_FLAGS
        );
    } else {
        // Firefox took our nursery size (it writes the preferences it runs with to prefs.js)
        let prefs =
            std::fs::read_to_string(std::path::Path::new(&profile).join("prefs.js")).unwrap();
        assert!(
            prefs.contains("\"javascript.options.mem.nursery.min_kb\", 16384"),
            "{prefs}"
        );
    }
    c.ok(&["session", "close", name]);
    // docs/reference/cli.md#sessions: the session is gone at once, its processes end
    // behind the command (a process of its own ends them): nothing is left once it is done
    assert!(!rec_path.exists(), "record removed");
    let ended = || {
        !ariasnap::browser::launch::alive(driver_pid)
            && ariasnap::browser::launch::pids_matching(&needle).is_empty()
            && !std::path::Path::new(&profile).exists()
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !ended() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        !ariasnap::browser::launch::alive(driver_pid),
        "driver ended"
    );
    let left = ariasnap::browser::launch::pids_matching(&needle);
    assert!(left.is_empty(), "browser processes left: {left:?}");
    assert!(!std::path::Path::new(&profile).exists(), "profile removed");
    // the same through the step runner: a first command that loads no page notes it in the
    // result (and leaves the browser to `session close`)
    let tabs = c.run(&["--session", name, "tabs"]);
    assert!(tabs.status.success());
    let v: serde_json::Value = serde_json::from_slice(&tabs.stdout).expect("JSON result");
    let noted = v["notes"].as_array().is_some_and(|ns| {
        ns.iter()
            .any(|n| n.as_str().is_some_and(|n| n.contains(&said)))
    });
    assert!(noted, "{v}");
    let err = tabs.stderr_text();
    assert!(err.contains(&said), "stderr: {err}");
    c.ok(&["session", "close", name]);
}

fn deep_page_5000_divs(c: &Ctx) {
    let t = c.snapshot("html/basic/deep.html");
    for lvl in [1000, 2000, 3000, 4000, 5000] {
        assert!(
            t.contains(&format!("- button \"Level {lvl}\" [ref=")),
            "level {lvl} in:\n{t}"
        );
    }
    assert!(t.contains("Bottom of the well"));
    let v = c.snapshot_json("html/basic/deep.html");
    assert!(v["stats"]["elements"].as_u64().unwrap() >= 5000);
}

/// Names are cut at 100 characters; text up to 300 prints whole (longer text:
/// clickables::long_text_says_what_its_cut_left_and_short_text_is_whole).
fn long_text_is_cut(c: &Ctx) {
    let t = c.snapshot("html/basic/long.html");
    let p = line_with(&t, "- paragraph:");
    assert!(p.ends_with("ullamco END-OF-LONG-TEXT"), "{p}");
    let b = line_with(&t, "- button \"A button");
    assert!(b.contains("...\" [ref="), "{b}");
    assert!(!t.contains("LONG-NAME-TAIL"));
    assert!(t.contains("- button \"Short and sweet\" [ref="));
    // JSON keeps full names
    let j = c.ok(&["snapshot", "--format", "json", "--inline-limit", "0"]);
    assert!(j.contains("LONG-NAME-TAIL") && j.contains("END-OF-LONG-TEXT"));
}

fn blank_page_is_minimal(c: &Ctx) {
    // the page header, then the bare document (no HTTP status for about:blank)
    let t = c.ok(&["snapshot", "about:blank"]);
    assert_eq!(
        t,
        "# page: about:blank ready=complete\n- document\n# no accessible content\n"
    );
    let t = c.snapshot("html/basic/blank.html");
    let url = c.url("html/basic/blank.html");
    assert_eq!(
        t,
        format!("# page: {url} status=200 ready=complete\n- document\n# no accessible content\n")
    );
}

fn hidden_content_never_shows(c: &Ctx) {
    let t = c.snapshot("html/basic/hidden.html");
    let j = c.ok(&[
        "snapshot",
        "--format",
        "json",
        "--verbose",
        "--inline-limit",
        "0",
    ]);
    for out in [&t, &j] {
        assert!(!out.contains("MARKER-"), "hidden text leaked:\n{out}");
    }
    assert!(t.contains("Visible paragraph"));
    assert!(
        t.contains("Visible again"),
        "visibility:visible child of a hidden parent shows:\n{t}"
    );
    assert!(t.contains("- button \"Inside display contents\""), "{t}");
    assert!(t.contains("- button \"Closed details\" [collapsed]"), "{t}");
}

fn missing_browser_says_how_to_fix(c: &Ctx) {
    let o = c
        .cmd()
        .args([
            "--session",
            "it-nobrowser",
            "--browser",
            "/nonexistent/chromium",
            "snapshot",
            "about:blank",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    let err = o.stderr_text();
    assert!(
        err.contains("not found") && err.contains("/nonexistent/chromium"),
        "{err}"
    );
    assert!(
        err.contains("hint:") && err.contains("apt-get install") && err.contains("--webdriver"),
        "{err}"
    );
    assert!(o.stdout.is_empty(), "stdout is data only");
}

fn version_shows_engine_hash(c: &Ctx) {
    let v = c.ok(&["--version"]);
    assert!(v.contains(ariasnap::engine::ENGINE_HASH), "{v}");
}

fn demo_runs(c: &Ctx) {
    let o = c.cmd().args(["demo"]).output().unwrap();
    assert!(o.status.success(), "{}", o.stderr_text());
    let t = o.stdout_text();
    assert!(t.contains("- heading \"Your cart\" [level=1]"), "{t}");
    assert!(t.contains("- button \"Pay\" [ref="), "{t}");
    assert!(!t.contains("hidden text"), "{t}");
    let rec = c.home.path().join("sessions-v1").join("demo.json");
    assert!(!rec.exists(), "demo closes its session");
}
