//! The operator's policy (docs/reference/policy.md): a page under `--allow-origin` reaches
//! for a blocked origin in every way a page can, and no request reaches that origin's
//! server (its hits are counted), each attempt reported; actions the operator turned off
//! fail with one `blocked by policy` line and exit 5; the policy is fixed when the session
//! starts and no later command, step or page changes it; a guard killed between commands
//! is started again.

use crate::common::{Answer, Ctx, HttpServer, Test, Text, ref_of};
use serde_json::Value;

pub fn tests() -> Vec<Test> {
    trials![
        requests_to_a_blocked_origin_never_leave_the_browser,
        actions_the_operator_turned_off_are_refused,
        the_policy_is_fixed_when_the_session_starts,
        an_mcp_agent_cannot_get_around_the_policy,
        a_saved_login_is_restored_under_a_policy
    ]
}

/// A server on another origin (another port of 127.0.0.1) that counts every request.
fn counting_server() -> HttpServer {
    HttpServer::start(|r| {
        if std::env::var_os("IT_POLICY_DEBUG").is_some() {
            eprintln!("HIT: {}", r.head);
        }
        Answer::html("<!doctype html><title>Other</title><h1>Other origin</h1>")
            .with("Access-Control-Allow-Origin", "*")
    })
}

/// The suite's fixture origin (`http://127.0.0.1:PORT`).
fn own_origin(c: &Ctx) -> String {
    c.base.trim_end_matches('/').to_string()
}

/// Runs `args` on session `s`; returns stdout, stderr and the exit code.
fn on(c: &Ctx, s: &str, args: &[&str]) -> (String, String, i32) {
    let o = c.run(&[&["--session", s][..], args].concat());
    (
        o.stdout_text(),
        o.stderr_text(),
        o.status.code().unwrap_or(-1),
    )
}

/// Runs `args` on session `s`, asserting success; returns stdout.
fn ok_on(c: &Ctx, s: &str, args: &[&str]) -> String {
    let (out, err, code) = on(c, s, args);
    assert_eq!(code, 0, "ariasnap {args:?} on {s}: {out}\n{err}");
    out
}

/// The refused requests a step run's JSON reports: its steps' effects and its notes.
fn blocked_in(run: &str) -> Vec<(String, String)> {
    let v: Value = serde_json::from_str(run).unwrap_or_else(|e| panic!("{e}: {run}"));
    let mut out = Vec::new();
    for s in v["steps"].as_array().into_iter().flatten() {
        for b in s["effects"]["blocked"].as_array().into_iter().flatten() {
            out.push((
                b["kind"].as_str().unwrap_or("").to_string(),
                b["url"].as_str().unwrap_or("").to_string(),
            ));
        }
    }
    out
}

fn requests_to_a_blocked_origin_never_leave_the_browser(c: &Ctx) {
    let server = counting_server();
    let other = server.origin();
    let s = "pol-origins";
    c.track_session(s);
    let own = own_origin(c);
    let page = format!("{}?other={other}", c.url("html/policy/page.html"));
    let snap = ok_on(
        c,
        s,
        &[
            "--allow-origin",
            &own,
            "snapshot",
            &page,
            "--inline-limit",
            "0",
        ],
    );
    assert!(
        snap.lines().any(|l| l == "# policy: 1 origin allowed"),
        "the header names the policy:\n{snap}"
    );
    // the page's own origin works, the other is refused (the page says so itself)
    let waited = ok_on(c, s, &["wait", "--text", "own: fetched"]);
    let waited2 = ok_on(c, s, &["wait", "--text", "other: refused"]);
    let mut said = format!("{snap}\n{waited}\n{waited2}");
    let snap = ok_on(c, s, &["snapshot", "--inline-limit", "0"]);
    said.push_str(&snap);
    // a form post, a new tab and a link, each by the page, each refused and reported
    let mut kinds = Vec::new();
    for (label, kind) in [
        ("button \"Send\"", "form post"),
        ("button \"Open tab\"", "new tab"),
    ] {
        let snap = ok_on(c, s, &["snapshot", "--inline-limit", "0"]);
        let r = ref_of(&snap, label);
        let run = ok_on(c, s, &["click", &r]);
        let blocked = blocked_in(&run);
        assert!(
            blocked
                .iter()
                .any(|(k, u)| k == kind && u.starts_with(&other)),
            "clicking {label} reports a refused {kind}: {run}"
        );
        assert!(run.contains("Blocked by policy: "), "{run}");
        kinds.extend(blocked.into_iter().map(|(k, _)| k));
        said.push_str(&run);
        // back to the page (the form post left it on the browser's error page)
        let _ = on(c, s, &["switch-tab", "t1"]);
        ok_on(c, s, &["goto", &page]);
    }
    let snap = ok_on(c, s, &["snapshot", "--inline-limit", "0"]);
    let run = ok_on(c, s, &["click", &ref_of(&snap, "link \"Leave\"")]);
    assert!(
        blocked_in(&run)
            .iter()
            .any(|(k, u)| k == "navigation" && u.ends_with("/leave")),
        "{run}"
    );
    said.push_str(&run);
    // the page's image, frame and fetch were reported, by this or a later reply
    for kind in ["image \"", "frame \"", "fetch \""] {
        assert!(said.contains(kind), "no {kind} reported in:\n{said}");
    }
    // the agent's own navigation: one line that says which rule refused what, exit 5
    let (out, err, code) = on(c, s, &["goto", &format!("{other}/agent")]);
    assert_eq!(code, 5, "{out}\n{err}");
    assert!(
        err.contains(&format!(
            "blocked by policy: goto {other}/agent: {other} is not an allowed origin (--allow-origin {own})"
        )),
        "{err}"
    );
    let got = server.paths();
    assert!(
        got.is_empty(),
        "requests reached the blocked origin's server: {got:?}"
    );
    drop(server);
}

fn actions_the_operator_turned_off_are_refused(c: &Ctx) {
    let server = counting_server();
    let other = server.origin();
    let s = "pol-actions";
    c.track_session(s);
    let page = format!("{}?other={other}", c.url("html/policy/page.html"));
    let snap = ok_on(
        c,
        s,
        &[
            "--deny",
            "eval,uploads,downloads",
            "--deny",
            "passwordSet",
            "--deny",
            "foreign-tabs",
            "snapshot",
            &page,
            "--inline-limit",
            "0",
        ],
    );
    assert!(
        snap.contains("# policy: eval, downloads, uploads, passwordSet, foreignTabs off"),
        "{snap}"
    );
    let refused = |args: &[&str], says: &str| {
        let (out, err, code) = on(c, s, args);
        assert_eq!(code, 5, "{args:?}: {out}\n{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["status"], "error", "{out}");
    };
    refused(&["eval", "1+1"], "blocked by policy: eval: ");
    refused(&["poll", "() => true"], "blocked by policy: poll: ");
    let pw = ref_of(&snap, "textbox \"Password\"");
    let name = ref_of(&snap, "textbox \"Name\"");
    refused(
        &["set", &pw, "hunter2"],
        &format!("blocked by policy: set {pw}: "),
    );
    refused(&["fill", &pw, "hunter2"], "blocked by policy: fill");
    refused(
        &["type", "hunter2", "--ref", &pw],
        "blocked by policy: type",
    );
    refused(
        &["upload", &name, "Cargo.toml"],
        "blocked by policy: upload: ",
    );
    refused(
        &["new-tab", &format!("{other}/agent-tab")],
        "(--deny foreignTabs)",
    );
    // a hook is a script too
    let steps = serde_json::json!([{"click": name, "observe": "1"}]).to_string();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hook.json");
    std::fs::write(&file, steps).unwrap();
    refused(
        &["run", file.to_str().unwrap()],
        "hooks: the operator turned off",
    );
    // what is not off works: a text field, a tab on the page's own origin
    ok_on(c, s, &["set", &name, "Ada"]);
    let run = ok_on(c, s, &["click", &ref_of(&snap, "button \"Open own tab\"")]);
    let v: Value = serde_json::from_str(&run).unwrap();
    assert!(
        v["steps"][0]["effects"]["newTab"][0]["url"]
            .as_str()
            .is_some_and(|u| u.ends_with("/html/policy/other.html")),
        "{run}"
    );
    assert!(blocked_in(&run).is_empty(), "{run}");
    let _ = on(c, s, &["switch-tab", "t1"]);
    // the page's own new tab on another origin is refused by the guard
    let run = ok_on(c, s, &["click", &ref_of(&snap, "button \"Open tab\"")]);
    assert!(
        blocked_in(&run)
            .iter()
            .any(|(k, u)| k == "new tab" && u == &format!("{other}/tab")),
        "{run}"
    );
    assert!(run.contains("--deny foreignTabs"), "{run}");
    let got = server.paths();
    assert!(
        !got.iter().any(|p| p == "/tab" || p == "/agent-tab"),
        "a tab on another origin reached its server: {got:?}"
    );
    // origins are not confined here: the page's image reached the other server
    assert!(got.iter().any(|p| p == "/pixel.png"), "{got:?}");
    drop(server);
    // the browser refuses the download a link starts, and the reply says why
    let _ = on(c, s, &["switch-tab", "t1"]);
    let snap = ok_on(
        c,
        s,
        &[
            "snapshot",
            &c.url("html/agent/effects.html"),
            "--inline-limit",
            "0",
        ],
    );
    let run = ok_on(c, s, &["click", &ref_of(&snap, "link \"Download report\"")]);
    let v: Value = serde_json::from_str(&run).unwrap();
    assert_eq!(
        v["steps"][0]["effects"]["download"][0]["status"], "refused by policy (--deny downloads)",
        "{run}"
    );
    assert!(
        !c.home
            .path()
            .join(format!("sessions-v1/{s}.downloads/Q3 report.csv"))
            .exists()
    );
}

fn the_policy_is_fixed_when_the_session_starts(c: &Ctx) {
    let server = counting_server();
    let other = server.origin();
    let s = "pol-fixed";
    c.track_session(s);
    let dir = tempfile::tempdir().unwrap();
    // a policy file with a mistake: the file, the line and column, and the fix
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\n  \"blockOrigin\": []\n}\n").unwrap();
    let o = c
        .cmd()
        .args(["--session", "pol-bad", "snapshot", "about:blank"])
        .env("ARIASNAP_POLICY", &bad)
        .output()
        .unwrap();
    let err = o.stderr_text();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("line 2, column") && err.contains("unknown field `blockOrigin`"),
        "{err}"
    );
    assert!(
        !c.home.path().join("sessions-v1/pol-bad.json").exists(),
        "a bad policy starts no session"
    );
    // the operator's file, through the environment
    let file = dir.path().join("policy.json");
    std::fs::write(&file, format!("{{\"blockOrigins\": [\"{other}\"]}}")).unwrap();
    let page = format!("{}?other={other}", c.url("html/policy/page.html"));
    let o = c
        .cmd()
        .args(["--session", s, "snapshot", &page])
        .env("ARIASNAP_POLICY", &file)
        .output()
        .unwrap();
    let out = o.stdout_text();
    assert!(o.status.success(), "{out}");
    assert!(out.contains("# policy: 1 origin blocked"), "{out}");
    // a later command cannot loosen or change it
    let (out, err, code) = on(c, s, &["--allow-origin", "*", "goto", &other]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(
        err.contains("a policy is fixed when a session starts"),
        "{err}"
    );
    // without flags the session keeps its policy
    let (_, err, code) = on(c, s, &["goto", &format!("{other}/x")]);
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("is blocked (--block-origin"), "{err}");
    // a watcher (it holds the requests) killed between commands is started again by the
    // next one, which says so
    let rec: Value = serde_json::from_slice(
        &std::fs::read(c.home.path().join(format!("sessions-v1/{s}.json"))).unwrap(),
    )
    .unwrap();
    let pid = rec["guard_pid"]
        .as_u64()
        .expect("the record names the guard");
    let _ = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (out, err, code) = on(c, s, &["snapshot", &page]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("watcher of session \"pol-fixed\" had stopped and was started again"),
        "{out}"
    );
    let _ = on(c, s, &["wait", "--text", "other: refused"]);
    let got = server.paths();
    assert!(got.is_empty(), "{got:?}");
    drop(server);
}

/// `ariasnap mcp` under the operator's flags: a tool call to a blocked origin and an
/// `eval` are refused with the policy's line (the tools have no way to change it), while
/// the allowed page works.
fn an_mcp_agent_cannot_get_around_the_policy(c: &Ctx) {
    use rmcp::ServiceExt;
    use rmcp::model::CallToolRequestParams;
    use rmcp::transport::TokioChildProcess;
    let server = counting_server();
    let other = server.origin();
    let mut cmd = crate::mcp::stdio_server(c, &["--block-origin", &other, "--deny", "eval"]);
    cmd.env_remove("ARIASNAP_POLICY");
    let page = format!("{}?other={other}", c.url("html/policy/page.html"));
    c.rt.block_on(async move {
        let transport = TokioChildProcess::new(cmd).expect("spawn ariasnap mcp");
        let client = ().serve(transport).await.expect("initialize");
        let call = |name: &'static str, a: Value| {
            let client = &client;
            async move {
                let r = client
                    .call_tool(
                        CallToolRequestParams::new(name)
                            .with_arguments(a.as_object().cloned().unwrap_or_default()),
                    )
                    .await
                    .expect(name);
                (r.is_error == Some(true), format!("{:?}", r.content))
            }
        };
        let (failed, text) = call(
            "browser_navigate",
            serde_json::json!({"url": page, "snapshot": {}}),
        )
        .await;
        assert!(!failed, "{text}");
        assert!(
            text.contains("# policy: 1 origin blocked; eval off"),
            "{text}"
        );
        let (failed, text) = call(
            "browser_navigate",
            serde_json::json!({"url": format!("{other}/mcp")}),
        )
        .await;
        assert!(failed && text.contains("blocked by policy: goto"), "{text}");
        let (failed, text) = call(
            "browser_evaluate",
            serde_json::json!({"expression": "document.title"}),
        )
        .await;
        assert!(failed && text.contains("blocked by policy: eval"), "{text}");
        let (failed, text) = call(
            "browser_run_steps",
            serde_json::json!({"steps": [{"eval": "1"}]}),
        )
        .await;
        assert!(failed && text.contains("blocked by policy: eval"), "{text}");
        let _ = client.cancel().await;
    });
    let got = server.paths();
    assert!(got.is_empty(), "{got:?}");
    drop(server);
}

/// `--state` under `--allow-origin`: the restore's own requests are answered by the restore
/// (the guard leaves them to it), so a saved origin the policy blocks gets its storage back
/// without a request reaching its server, and the allowed page reads what was saved.
fn a_saved_login_is_restored_under_a_policy(c: &Ctx) {
    let server = counting_server();
    let other = server.origin();
    let own = own_origin(c);
    let s = "pol-state";
    c.track_session(s);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("login.json");
    let state = serde_json::json!({
        "cookies": [],
        "origins": [
            {"origin": own, "localStorage": [{"name": "user", "value": "Ada"}]},
            {"origin": other, "localStorage": [{"name": "user", "value": "Eve"}]}
        ]
    });
    std::fs::write(&file, state.to_string()).unwrap();
    let run = ok_on(
        c,
        s,
        &[
            "--allow-origin",
            &own,
            "--state",
            file.to_str().unwrap(),
            "goto",
            &c.url("html/policy/other.html"),
        ],
    );
    assert!(run.contains("restored 0 cookies and 2 origins"), "{run}");
    let v: Value = serde_json::from_str(&ok_on(c, s, &["eval", "localStorage.user"])).unwrap();
    assert_eq!(v["steps"][0]["output"], "Ada");
    let got = server.paths();
    assert!(got.is_empty(), "{got:?}");
    drop(server);
}
