//! Saved logins (docs/guide.md#saved-logins): a session that signed in saves its cookies and
//! storage (`state save`, `saveState`), and fresh sessions started with `--state FILE` or
//! a `loadState` step are signed in, without a request to the site for the restore; the
//! file is private and its values are never printed; bad files give one `error:` line.
//!
//! Over MCP, `ariasnap mcp --state FILE` restores a file as Playwright writes it for the
//! server's session, and `browser_save_state` / `browser_load_state` are its tools.
//!
//! The site is a server of the test's own (an `HttpServer`) so that it can set an HttpOnly
//! session cookie no script can fake, decide from the request's cookies what the account
//! page says, and count every request it gets.

use crate::common::{Answer, Ctx, HttpServer, Request, Test, Text};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

pub fn tests() -> Vec<Test> {
    trials![
        a_saved_login_signs_in_fresh_sessions,
        mcp_restores_a_playwright_file_and_has_the_tools
    ]
}

/// The session cookie the server sets at sign-in (HttpOnly).
const SID: &str = "sid-7c1e5a0b93d2";
/// A localStorage value the sign-in page keeps.
const TOKEN: &str = "ls-token-9f2c41d7";
/// A sessionStorage value the sign-in page keeps.
const STEP: &str = "ss-step-3b7e";

/// The test's site: `/signin.html` sets the session cookie, `/account.html` says whether
/// the request carried it; every request's path is kept, in order.
struct Site {
    server: HttpServer,
}

impl Site {
    fn start(fixtures: &Path) -> Site {
        let dir = fixtures.join("html/logins");
        Site {
            server: HttpServer::start(move |r| answer(r, &dir)),
        }
    }

    fn url(&self, path: &str) -> String {
        self.server.url(path)
    }

    /// The paths requested so far (without their queries).
    fn hits(&self) -> Vec<String> {
        let all = self.server.requests();
        all.iter().map(|r| r.route().to_string()).collect()
    }
}

/// The answer to one request.
fn answer(r: &Request, dir: &Path) -> Answer {
    let sid_seen = r
        .header("cookie")
        .is_some_and(|c| c.contains(&format!("sid={SID}")));
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    match r.route() {
        "/signin.html" => Answer::html(read("signin.html")).with(
            "Set-Cookie",
            &format!("sid={SID}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600"),
        ),
        "/account.html" => Answer::html(
            read("account.html").replace("SID_SEEN", if sid_seen { "yes" } else { "no" }),
        ),
        _ => Answer::new("404 Not Found", "text/html; charset=utf-8", ""),
    }
}

/// Runs `args` on session `session` (tracked, to be closed at the end); returns the output
/// whatever the exit code.
fn on(c: &Ctx, session: &str, args: &[&str]) -> Output {
    c.track_session(session);
    let mut argv = vec!["--session", session];
    argv.extend_from_slice(args);
    c.run(&argv)
}

fn text(o: &Output) -> (String, String) {
    (o.stdout_text(), o.stderr_text())
}

/// Runs and asserts success; returns stdout and stderr.
fn ok_on(c: &Ctx, session: &str, args: &[&str]) -> (String, String) {
    let o = on(c, session, args);
    let (out, err) = text(&o);
    assert!(
        o.status.success(),
        "{session} {args:?} failed ({}):\nstdout: {out}\nstderr: {err}",
        o.status
    );
    (out, err)
}

/// Asserts that no secret of the site is in `s`.
fn no_secrets(what: &str, s: &str) {
    for secret in [SID, TOKEN, STEP] {
        assert!(!s.contains(secret), "{what} prints {secret}:\n{s}");
    }
}

/// The step result's first step output.
fn first_output(out: &str) -> Value {
    let v: Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"));
    v["steps"][0]["output"].clone()
}

fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Session A signs in and saves its state twice (`state save FILE`, and a `saveState` step
/// with sessionStorage); fresh sessions are then signed in with `--state FILE` (B) or a
/// `loadState` step (D), and not without (C). Restoring made no request to the site: its
/// server saw no `/` (the origin's root the restore loads) and nothing besides the pages
/// the sessions loaded themselves. `--state` on a running session is not applied and says
/// so; a missing, malformed or empty file gets its one-line answer.
fn a_saved_login_signs_in_fresh_sessions(c: &Ctx) {
    let site = Site::start(&c.fixtures);
    let dir = tempfile::tempdir().unwrap();
    let file: PathBuf = dir.path().join("state.json");
    let with_tab: PathBuf = dir.path().join("state-tab.json");
    let (file_s, tab_s) = (file.to_str().unwrap(), with_tab.to_str().unwrap());
    let (signin, account) = (site.url("signin.html"), site.url("account.html"));

    // A: sign in, check the fixture's logic, save
    let (a, b, cs, d) = ("state-a", "state-b", "state-c", "state-d");
    ok_on(c, a, &["goto", &signin]);
    let (out, _) = ok_on(c, a, &["goto", &account, "--snapshot"]);
    assert!(out.contains("Signed in as Ada"), "{out}");
    let (out, err) = ok_on(c, a, &["state", "save", file_s]);
    assert_eq!(
        first_output(&out),
        Value::from(format!("saved 1 cookie and 1 origin to {file_s}")),
        "{out}"
    );
    no_secrets("state save", &format!("{out}{err}"));
    assert_eq!(mode(&file), 0o600);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let cookies = saved["cookies"].as_array().unwrap();
    assert_eq!(cookies.len(), 1, "{saved}");
    let sid = &cookies[0];
    assert_eq!(
        (sid["name"].as_str(), sid["value"].as_str()),
        (Some("sid"), Some(SID))
    );
    assert_eq!(sid["httpOnly"], true, "{sid}");
    assert_eq!(sid["path"], "/", "{sid}");
    assert!(sid["expires"].as_f64().unwrap() > 0.0, "{sid}");
    for key in ["domain", "secure", "sameSite"] {
        assert!(sid.get(key).is_some(), "no {key}: {sid}");
    }
    let origins = saved["origins"].as_array().unwrap();
    assert_eq!(origins.len(), 1, "{saved}");
    assert_eq!(origins[0]["origin"], site.server.origin().as_str());
    let local = origins[0]["localStorage"].as_array().unwrap();
    for (k, v) in [("user", "Ada"), ("token", TOKEN)] {
        assert!(
            local.contains(&serde_json::json!({"name": k, "value": v})),
            "{k}: {saved}"
        );
    }
    assert!(origins[0].get("sessionStorage").is_none(), "{saved}");
    // the step's own form, with sessionStorage
    let steps = dir.path().join("save.json");
    let save_step = serde_json::json!([{"saveState": {"path": tab_s, "sessionStorage": true}}]);
    std::fs::write(&steps, save_step.to_string()).unwrap();
    let (out, err) = ok_on(c, a, &["run", steps.to_str().unwrap()]);
    no_secrets("saveState", &format!("{out}{err}"));
    assert_eq!(mode(&with_tab), 0o600);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&with_tab).unwrap()).unwrap();
    assert_eq!(
        saved["origins"][0]["sessionStorage"],
        serde_json::json!([{"name": "step", "value": STEP}]),
        "{saved}"
    );
    ok_on(c, "it", &["session", "close", a]);

    // B: a fresh session started with --state is signed in; the restore asked the site
    // for nothing
    let before = site.hits().len();
    let (out, err) = ok_on(c, b, &["--state", file_s, "goto", &account, "--snapshot"]);
    assert!(out.contains("Signed in as Ada"), "{out}\n{err}");
    assert!(out.contains("No tab step"), "{out}");
    assert!(
        err.contains(&format!(
            "--state: restored 1 cookie and 1 origin from {file_s}"
        )),
        "{err}"
    );
    no_secrets("--state", &format!("{out}{err}"));
    // (the pages have an icon of their own: the site is asked for no favicon)
    assert_eq!(site.hits()[before..], ["/account.html"], "requests of B");

    // C: without it, signed out
    let (out, _) = ok_on(c, cs, &["goto", &account, "--snapshot"]);
    assert!(out.contains("Signed out"), "{out}");

    // D: a step file's loadState, then the page; sessionStorage comes back into the tab
    let before = site.hits().len();
    let steps = dir.path().join("load.json");
    let load =
        serde_json::json!([{"loadState": tab_s}, {"goto": {"url": account, "snapshot": {}}}]);
    std::fs::write(&steps, load.to_string()).unwrap();
    let (out, err) = ok_on(c, d, &["run", steps.to_str().unwrap()]);
    assert_eq!(
        first_output(&out),
        Value::from(format!("restored 1 cookie and 1 origin from {tab_s}")),
        "{out}"
    );
    assert!(out.contains("Signed in as Ada"), "{out}\n{err}");
    assert!(out.contains("Tab step kept"), "{out}");
    no_secrets("loadState", &format!("{out}{err}"));
    assert_eq!(site.hits()[before..], ["/account.html"], "requests of D");
    // a restore alone asks the site for nothing, not even later (Chromium would fetch the
    // favicon of the temporary tab's document by itself if that document had no icon)
    let before = site.hits().len();
    let (out, _) = ok_on(c, b, &["state", "load", file_s]);
    assert_eq!(
        first_output(&out),
        Value::from(format!("restored 1 cookie and 1 origin from {file_s}"))
    );
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        site.hits()[before..],
        [] as [&str; 0],
        "requests of a restore"
    );
    let all = site.hits();
    assert!(
        !all.contains(&"/".to_string()),
        "the site's root was asked for: {all:?}"
    );

    // --state on a running session: not applied, and said
    let (_, err) = ok_on(c, b, &["--state", file_s, "get-url"]);
    assert!(
        err.contains(&format!("--state {file_s} was not applied"))
            && err.contains(&format!("`ariasnap state load {file_s}`")),
        "{err}"
    );

    // a missing file: one error line naming it and the fix, exit 2, no session started
    let gone = dir.path().join("gone.json");
    let gone_s = gone.to_str().unwrap();
    let o = on(c, "state-e", &["--state", gone_s, "goto", &account]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.starts_with(&format!("error: state file {gone_s} does not exist: "))
            && first.contains("`ariasnap state save FILE`"),
        "{err}"
    );
    let (list, _) = ok_on(c, "it", &["session", "list"]);
    assert!(!list.lines().any(|l| l == "state-e"), "{list}");
    // a malformed one, as a step
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"cookies\": [{\"name\": \"sid\"}]}").unwrap();
    let o = on(c, b, &["load-state", bad.to_str().unwrap()]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error: step loadState failed: state file")
            && err.contains("is not a saved state (missing field `value`"),
        "{err}"
    );
    // an empty one restores nothing, and says so
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, "").unwrap();
    let (out, _) = ok_on(c, b, &["state", "load", empty.to_str().unwrap()]);
    assert_eq!(
        first_output(&out),
        Value::from(format!(
            "restored nothing from {}: it holds no cookies and no origins",
            empty.display()
        ))
    );
    for s in [b, cs, d] {
        ok_on(c, "it", &["session", "close", s]);
    }
}

/// `ariasnap mcp --state FILE` with a file as Playwright's `storageState()` writes it: the
/// server's own session starts signed in (the first call's text has the note), and the
/// state tools save and restore; the site is asked for nothing but the page.
fn mcp_restores_a_playwright_file_and_has_the_tools(c: &Ctx) {
    use rmcp::ServiceExt;
    use rmcp::model::CallToolRequestParams;
    use rmcp::transport::TokioChildProcess;
    let site = Site::start(&c.fixtures);
    let dir = tempfile::tempdir().unwrap();
    let pw = dir.path().join("playwright.json");
    let playwright = serde_json::json!({
        "cookies": [{"name": "sid", "value": SID, "domain": "127.0.0.1", "path": "/",
                     "expires": -1, "httpOnly": true, "secure": false, "sameSite": "Lax"}],
        "origins": [{"origin": site.server.origin(), "localStorage": [
            {"name": "user", "value": "Ada"}, {"name": "token", "value": TOKEN}]}]
    });
    std::fs::write(&pw, serde_json::to_string_pretty(&playwright).unwrap()).unwrap();
    let (pw_s, out) = (pw.display().to_string(), dir.path().join("out.json"));
    let out_s = out.display().to_string();
    let cmd = crate::mcp::stdio_server(c, &["--state", &pw_s]);
    let account = site.url("account.html");
    let texts = c.rt.block_on(async move {
        let transport = TokioChildProcess::new(cmd).expect("spawn ariasnap mcp");
        let client = ().serve(transport).await.expect("initialize");
        let mut texts = Vec::new();
        for (tool, args) in [
            (
                "browser_navigate",
                serde_json::json!({"url": account, "snapshot": {}}),
            ),
            ("browser_save_state", serde_json::json!({"path": out_s})),
            ("browser_load_state", serde_json::json!({"path": pw_s})),
        ] {
            let r = client
                .call_tool(
                    CallToolRequestParams::new(tool)
                        .with_arguments(args.as_object().cloned().unwrap_or_default()),
                )
                .await
                .unwrap_or_else(|e| panic!("{tool}: {e}"));
            let t = crate::mcp::text_of(&r);
            assert_eq!(r.is_error, Some(false), "{tool}: {t:?}");
            texts.push(t);
        }
        client.cancel().await.expect("disconnect");
        texts
    });
    let (pw_s, out_s) = (pw.display().to_string(), out.display().to_string());
    assert!(texts[0].contains("Signed in as Ada"), "{}", texts[0]);
    assert!(
        texts[0].contains(&format!(
            "note: --state: restored 1 cookie and 1 origin from {pw_s}"
        )),
        "{}",
        texts[0]
    );
    assert_eq!(texts[1], format!("saved 1 cookie and 1 origin to {out_s}"));
    assert_eq!(
        texts[2],
        format!("restored 1 cookie and 1 origin from {pw_s}")
    );
    for t in &texts {
        no_secrets("MCP", t);
    }
    assert_eq!(mode(&out), 0o600);
    // the file ariasnap wrote is Playwright's: the same cookie and origin
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(saved["cookies"][0]["value"], SID);
    // (in the storage's own order of keys)
    let sorted = |v: &Value| -> Vec<(String, String)> {
        let mut items: Vec<(String, String)> = v["origins"][0]["localStorage"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| (i["name"].to_string(), i["value"].to_string()))
            .collect();
        items.sort();
        items
    };
    assert_eq!(saved["origins"][0]["origin"], site.server.origin().as_str());
    assert_eq!(sorted(&saved), sorted(&playwright));
    assert_eq!(site.hits(), ["/account.html"]);
}
