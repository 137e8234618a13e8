//! Faults and hostile pages (docs/reference/faults.md#deadlines): every command ends within its deadline with one line
//! of `error:`, and the session works for the next command: pages that alert while loading,
//! replace their timers and promises, loop forever or hold navigation with beforeunload;
//! two commands at once on one session; a driver or a browser killed mid-command; closed
//! shadow roots attached by a plain inline script.

use crate::common::{Ctx, SESSION, Test, Text};
use serde_json::Value;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn tests() -> Vec<Test> {
    trials![
        alert_on_load_is_answered,
        replaced_timers_do_not_stall,
        endless_loop_ends_at_the_deadline,
        beforeunload_never_holds_the_session,
        stuck_navigation_ends_at_the_deadline,
        concurrent_commands_are_serialised,
        busy_session_fails_at_the_deadline,
        killed_driver_then_browser,
        closed_root_from_an_inline_script,
        kept_realm_of_a_replaced_document
    ]
}

const PLAIN: &str = "- document \"Plain page\":\n  - main:\n    - heading \"All is well\" [level=1]\n    - button \"Proceed\" [ref=";

/// Runs `args`, timing it.
fn timed(c: &Ctx, args: &[&str]) -> (Output, Duration) {
    let t = Instant::now();
    let o = c.run(args);
    (o, t.elapsed())
}

/// Runs `args` with `--timeout MS`; asserts it succeeds within that deadline; returns stdout.
fn ok_within(c: &Ctx, args: &[&str], ms: u64) -> String {
    let limit = ms.to_string();
    let (o, took) = timed(c, &[args, &["--timeout", &limit]].concat());
    let t = o.stdout_text();
    assert!(o.status.success(), "{args:?}: {t}\n{}", o.stderr_text());
    assert!(took < Duration::from_millis(ms), "{args:?}: {took:?}");
    t
}

/// Runs `args` with `--timeout MS`; asserts exit `code` with one error line, within the
/// deadline plus `slack_ms`; returns the output and how long it took.
fn fails_within(c: &Ctx, args: &[&str], code: i32, ms: u64, slack_ms: u64) -> (Output, Duration) {
    let limit = ms.to_string();
    let (o, took) = timed(c, &[args, &["--timeout", &limit]].concat());
    assert_eq!(o.status.code(), Some(code), "{args:?}: {}", o.stderr_text());
    assert_one_error_line(&o.stderr);
    assert!(
        took < Duration::from_millis(ms + slack_ms),
        "{args:?}: deadline {ms} ms, took {took:?}"
    );
    (o, took)
}

/// docs/reference/faults.md#messages: an error a user sees is one `error:` line, optionally `caused by:` and `hint:`
/// lines (and `note:` lines for what the command did besides).
fn assert_one_error_line(stderr: &[u8]) {
    let s = String::from_utf8_lossy(stderr);
    let errors = s.lines().filter(|l| l.starts_with("error:")).count();
    assert_eq!(errors, 1, "one error line expected:\n{s}");
    for l in s.lines() {
        assert!(
            ["error: ", "caused by: ", "hint: ", "note: "]
                .iter()
                .any(|p| l.starts_with(p)),
            "stray line {l:?} in:\n{s}"
        );
    }
}

/// A plain page snapshots correctly in the shared session (the session is not poisoned).
fn plain_works(c: &Ctx) -> String {
    let t = c.snapshot("html/faults/plain.html");
    assert!(t.contains(PLAIN), "plain page after a hostile one:\n{t}");
    t
}

fn alert_on_load_is_answered(c: &Ctx) {
    // an alert in <head> and a confirm on load: both answered (dismissed by default) and
    // reported, and the page behind them read
    let t = ok_within(
        c,
        &["snapshot", &c.url("html/faults/alert-on-load.html")],
        8000,
    );
    assert!(
        t.contains(
            "# dialog dismissed (--dialog dismiss, the default): \"Welcome! Read this first.\""
        ),
        "{t}"
    );
    assert!(t.contains("\"Accept cookies?\""), "{t}");
    assert!(t.contains("- heading \"Behind an alert\" [level=1]"), "{t}");
    // JSON: the same notes in the reply itself
    let j = c.ok(&[
        "snapshot",
        &c.url("html/faults/alert-on-load.html"),
        "--format",
        "json",
        "--inline-limit",
        "0",
    ]);
    let v: Value = serde_json::from_str(&j).unwrap();
    assert!(
        v["notes"][0]
            .as_str()
            .unwrap_or("")
            .contains("\"Welcome! Read this first.\""),
        "{j}"
    );
    assert_eq!(v["children"][0]["name"], "Behind an alert", "{j}");
    // in a step file, with --dialog accept: the dialogs are in the step's result
    let steps =
        serde_json::json!([{"goto": c.url("html/faults/alert-on-load.html")}, {"getTitle": {}}]);
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("alert.json");
    std::fs::write(&f, steps.to_string()).unwrap();
    let out = c.ok(&[
        "run",
        f.to_str().unwrap(),
        "--dialog",
        "accept",
        "--timeout",
        "8000",
    ]);
    let r: Value = serde_json::from_str(&out).unwrap();
    let d = &r["steps"][0]["dialogs"];
    assert_eq!(d[0]["message"], "Welcome! Read this first.", "{r:#}");
    assert_eq!(d[0]["handled"], "accepted", "{r:#}");
    assert_eq!(r["steps"][1]["output"], "Alerts while loading", "{r:#}");
    plain_works(c);
}

fn replaced_timers_do_not_stall(c: &Ctx) {
    let t = ok_within(
        c,
        &["snapshot", &c.url("html/faults/replaced-timers.html")],
        5000,
    );
    assert!(t.contains("- searchbox \"Search\" [ref="), "{t}");
    // actions, waits and diffs on the same page do not lean on its timers either
    let go = crate::common::ref_of(&t, "button \"Go\"");
    ok_within(c, &["click", &go], 5000);
    ok_within(c, &["wait", "--text", "No timers here"], 5000);
    plain_works(c);
}

/// Opens the endless-loop page and arms its loop, which starts 1.2 s later.
fn freeze(c: &Ctx) {
    c.ok(&["goto", &c.url("html/faults/endless-loop.html")]);
    c.ok(&["eval", "freezeSoon()"]);
    std::thread::sleep(Duration::from_millis(1700));
}

fn endless_loop_ends_at_the_deadline(c: &Ctx) {
    freeze(c);
    let (o, took) = fails_within(c, &["snapshot"], 4, 3000, 1000);
    assert!(
        o.stderr_text().contains("did not finish within 3000 ms"),
        "{}",
        o.stderr_text()
    );
    eprintln!(
        "endless loop: deadline 3000 ms, exit 4 after {} ms",
        took.as_millis()
    );
    // the next command replaces the tab and says so
    let (o, took) = timed(
        c,
        &[
            "snapshot",
            &c.url("html/faults/plain.html"),
            "--inline-limit",
            "0",
        ],
    );
    let t = o.stdout_text();
    assert!(o.status.success(), "{t}\n{}", o.stderr_text());
    assert!(
        crate::common::body(&t)
            .starts_with("# tab t1 was replaced by a blank tab: its page stopped answering"),
        "{t}"
    );
    assert!(t.contains(PLAIN), "{t}");
    eprintln!(
        "endless loop: next command recovered in {} ms",
        took.as_millis()
    );
    // a step file whose step hits the loop: the step fails at its deadline, the run says
    // the page is not answering, and the next run gets a fresh tab
    freeze(c);
    // (a step that needs the page: Firefox's parent process answers Get Title by itself)
    let needs_page: &[&str] = if crate::common::firefox() {
        &["eval", "document.title"]
    } else {
        &["getTitle"]
    };
    let (o, _) = fails_within(c, needs_page, 4, 2000, 1000);
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["context"]["answering"], false, "{r}");
    let out = c.ok(&["getTitle"]);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert!(
        r["notes"][0]
            .as_str()
            .unwrap_or("")
            .starts_with("tab t1 was replaced"),
        "{r}"
    );
    plain_works(c);
}

fn beforeunload_never_holds_the_session(c: &Ctx) {
    let t = c.snapshot("html/faults/beforeunload.html");
    let draft = crate::common::ref_of(&t, "textbox \"Draft\"");
    let leave = crate::common::ref_of(&t, "link \"Leave\"");
    // the user typed: the page now asks before it is left
    c.ok(&["fill", &draft, "unsaved words"]);
    assert_eq!(
        crate::common::eval(c, "navigator.userActivation.hasBeenActive"),
        true
    );
    ok_within(c, &["click", &leave], 5000);
    // back to the page, typed again, then a navigation by the host
    let t = c.snapshot("html/faults/beforeunload.html");
    let draft = crate::common::ref_of(&t, "textbox \"Draft\"");
    c.ok(&["fill", &draft, "unsaved again"]);
    ok_within(c, &["goto", &c.url("html/faults/plain.html")], 5000);
    plain_works(c);
}

/// A server on 127.0.0.1 that accepts connections and never answers, until it is dropped
/// (or `hold` has passed); stopping closes the connections it held.
struct SilentServer {
    url: String,
    _server: crate::common::LocalServer,
}

impl SilentServer {
    fn start(hold: Duration) -> SilentServer {
        let mut held = Vec::new();
        let server = crate::common::LocalServer::start(hold, move |sock| held.push(sock));
        SilentServer {
            url: format!("http://{}/never", server.addr),
            _server: server,
        }
    }
}

fn stuck_navigation_ends_at_the_deadline(c: &Ctx) {
    plain_works(c);
    // silent for as long as the test needs it (it used to sit out a fixed 8 s)
    let server = SilentServer::start(Duration::from_secs(30));
    let url = server.url.clone();
    let (_, took) = fails_within(c, &["goto", &url], 4, 3000, 1000);
    eprintln!(
        "stuck navigation: deadline 3000 ms, exit 4 after {} ms",
        took.as_millis()
    );
    let (o, took) = timed(
        c,
        &[
            "snapshot",
            &c.url("html/faults/plain.html"),
            "--inline-limit",
            "0",
        ],
    );
    let t = o.stdout_text();
    assert!(o.status.success(), "{t}\n{}", o.stderr_text());
    assert!(t.contains(PLAIN), "{t}");
    eprintln!(
        "stuck navigation: next command done in {} ms",
        took.as_millis()
    );
    drop(server);
}

fn spawn(c: &Ctx, args: &[&str]) -> Child {
    c.cmd()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn concurrent_commands_are_serialised(c: &Ctx) {
    c.snapshot("html/faults/plain.html");
    // several commands at once on one session: each is whole and correct, never interleaved
    let kids: Vec<Child> = (0..4)
        .map(|i| {
            if i % 2 == 0 {
                spawn(c, &["snapshot", "--no-cache", "--timeout", "20000"])
            } else {
                spawn(
                    c,
                    &[
                        "snapshot",
                        &c.url("html/faults/plain.html"),
                        "--timeout",
                        "20000",
                    ],
                )
            }
        })
        .collect();
    for k in kids {
        let o = k.wait_with_output().unwrap();
        let t = o.stdout_text();
        assert!(o.status.success(), "{t}\n{}", o.stderr_text());
        let tree = crate::common::body(&t);
        assert!(tree.starts_with(PLAIN), "garbled or wrong:\n{t}");
        assert_eq!(tree.lines().count(), 4, "{t}");
    }
}

fn busy_session_fails_at_the_deadline(c: &Ctx) {
    c.snapshot("html/faults/plain.html");
    let long = spawn(c, &["sleep", "2500"]);
    // let the sleeper take the lock
    std::thread::sleep(Duration::from_millis(700));
    let (o, _) = fails_within(c, &["snapshot"], 4, 600, 800);
    let e = o.stderr_text();
    assert!(
        e.starts_with(&format!("error: session \"{SESSION}\" is busy")),
        "{e}"
    );
    let o = long.wait_with_output().unwrap();
    assert!(o.status.success());
    plain_works(c);
}

/// The session record of `name` (driver pid, profile).
fn record(c: &Ctx, name: &str) -> Value {
    let p = c
        .home
        .path()
        .join("sessions-v1")
        .join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn kill(pid: u32) {
    let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
}

/// Kills `pid` while a long `wait` runs; the command must exit 3 soon after, with one error
/// line, and the next command must work on a fresh browser.
fn kill_mid_command(c: &Ctx, session: &str, pid: u32, what: &str) {
    let mut cmd = c.cmd();
    cmd.env("ARIASNAP_SESSION", session)
        .args(["wait", "--text", "never on this page", "--timeout", "20000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1200));
    let t = Instant::now();
    kill(pid);
    let o = child.wait_with_output().unwrap();
    let took = t.elapsed();
    assert_eq!(o.status.code(), Some(3), "{what}: {}", o.stderr_text());
    assert_one_error_line(&o.stderr);
    assert!(
        took < Duration::from_millis(5000),
        "{what}: exit 3 after {took:?}"
    );
    eprintln!("killed {what}: exit 3 after {} ms", took.as_millis());
    let o = c
        .cmd()
        .env("ARIASNAP_SESSION", session)
        .args(["snapshot", &c.url("html/faults/plain.html")])
        .output()
        .unwrap();
    let t = o.stdout_text();
    assert!(
        o.status.success(),
        "{what}: next command: {t}\n{}",
        o.stderr_text()
    );
    assert!(t.contains(PLAIN), "{t}");
}

fn killed_driver_then_browser(c: &Ctx) {
    let s = "faults-kill";
    c.track_session(s);
    let o = c
        .cmd()
        .env("ARIASNAP_SESSION", s)
        .args(["snapshot", &c.url("html/faults/plain.html")])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", o.stderr_text());
    // the driver
    let pid = record(c, s)["driver_pid"].as_u64().unwrap() as u32;
    kill_mid_command(c, s, pid, "the driver");
    // the browser (its main process: the one of this profile that is no helper process)
    let rec = record(c, s);
    let profile = rec["user_data_dir"].as_str().unwrap().to_string();
    let kind: ariasnap::browser::launch::BrowserKind =
        serde_json::from_value(rec["browser"].clone()).unwrap();
    let needle = ariasnap::browser::launch::profile_needle(kind, std::path::Path::new(&profile));
    let main = ariasnap::browser::launch::pids_matching(&needle)
        .into_iter()
        .find(|p| {
            let cmd = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
            !String::from_utf8_lossy(&cmd).contains("--type=")
        })
        .expect("the browser's main process");
    kill_mid_command(c, s, main, "the browser");
}

fn closed_root_from_an_inline_script(c: &Ctx) {
    // docs/reference/browsers.md#closed-shadow-roots: read whenever and however it was attached; this one by an inline script of an
    // ordinary <div> while the page parses (no custom element to probe)
    let t = c.snapshot("html/shadow/closed-inline.html");
    assert!(t.contains("- heading \"Order summary\" [level=2]"), "{t}");
    assert!(t.contains("- button \"Place order\" [ref="), "{t}");
    assert!(t.contains("- text: Light text"), "{t}");
    // and its button acts
    let b = crate::common::ref_of(&t, "button \"Place order\"");
    c.ok(&["click", &b]);
}

/// The session record's kept sandbox realm of the current tab (Chromium: engine calls reach
/// it through DevTools by its id), or None.
fn kept_realm(c: &Ctx) -> Option<String> {
    let path = c
        .home
        .path()
        .join("sessions-v1")
        .join(format!("{}.json", crate::common::SESSION));
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("session record")).unwrap();
    rec["top_realm"]["realm"].as_str().map(str::to_string)
}

fn kept_realm_of_a_replaced_document(c: &Ctx) {
    // a command keeps the engine's realm for the next one; a document replaced behind the
    // session's back (the page reloads itself) leaves that realm gone: the next snapshot
    // still reads the page, and keeps the new document's realm
    let t = c.snapshot("html/faults/plain.html");
    assert!(crate::common::body(&t).starts_with(PLAIN), "{t}");
    let before = kept_realm(c);
    if !crate::common::firefox() {
        assert!(before.is_some(), "no realm kept on Chromium");
    }
    c.ok(&["eval", "void setTimeout(() => location.reload(), 50)"]);
    std::thread::sleep(Duration::from_millis(800));
    let t = c.ok(&["snapshot"]);
    assert!(crate::common::body(&t).starts_with(PLAIN), "{t}");
    let after = kept_realm(c);
    if !crate::common::firefox() {
        assert!(
            after.is_some() && after != before,
            "kept realm {before:?} -> {after:?}"
        );
    }
    // without the DevTools connection (a call through the driver cannot tell a gone realm
    // from other failures), a gone realm is not kept either: dropped, or replaced by the
    // realm a later call of the same command asked for
    c.ok(&["eval", "void setTimeout(() => location.reload(), 50)"]);
    std::thread::sleep(Duration::from_millis(800));
    let o = c
        .cmd()
        .env("ARIASNAP_DEVTOOLS_DIRECT", "0")
        .arg("snapshot")
        .output()
        .expect("run ariasnap");
    let t = o.stdout_text();
    assert!(o.status.success(), "{t}\n{}", o.stderr_text());
    assert!(crate::common::body(&t).starts_with(PLAIN), "{t}");
    if !crate::common::firefox() {
        let now = kept_realm(c);
        assert_ne!(now, after, "a gone realm stayed in the record");
        c.ok(&["snapshot"]);
        assert!(kept_realm(c).is_some(), "no realm kept again");
    }
}
