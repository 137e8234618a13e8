//! Secrets the model never sees, consent the model cannot give, the user's own browser, one
//! saved login for many agents (docs/reference/policy.md#secrets, #consent,
//! docs/reference/browsers.md#your-own-browser, docs/reference/mcp.md#one-saved-login-for-many-agents).
//!
//! A login done with a secret on the command line, in a step file and over MCP, and every
//! byte the processes wrote searched for its value; a page on an origin the secret is not
//! bound to refused it, and its server never got it. A password the agent typed itself into
//! a GET form (#typed-passwords), through the command line, a step file and MCP: every byte
//! printed and written searched for it too. An MCP client answers the question a
//! `--confirm` rule raises (yes: the click happens; no: it does not; no elicitation: refused,
//! the rule named). A browser the test starts with two tabs, attached to and left as it was.
//! Four HTTP agents started with one `--state` file, all signed in, and apart.

use crate::common::{Answer, Ctx, HttpServer, Test, Text, firefox, free_port, ref_of};
use crate::mcp_http::{sdk_dir, start_server};
use serde_json::Value;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

pub fn tests() -> Vec<Test> {
    trials![
        a_secret_is_typed_and_never_written,
        a_typed_password_is_never_written,
        consent_is_asked_of_the_mcp_clients_user,
        an_attached_browser_is_left_as_it_was,
        http_agents_share_one_saved_login
    ]
}

/// The secret's value: with `&` and `!` so that its HTML- and URL-escaped forms differ.
const VALUE: &str = "Tr0ub4dor&3-xyzzy!";

/// The forms a leak of `VALUE` could take: as it is, JSON-escaped is the same, URL-encoded
/// (form and component), HTML-escaped.
fn leaks() -> Vec<String> {
    vec![
        VALUE.to_string(),
        "Tr0ub4dor%263-xyzzy!".to_string(),
        "Tr0ub4dor%263-xyzzy%21".to_string(),
        "Tr0ub4dor&amp;3-xyzzy!".to_string(),
    ]
}

/// Where `bytes` holds the value in any form.
fn hits_in(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    leaks().into_iter().filter(|l| text.contains(l)).collect()
}

/// Every file under `dir` but the browsers' own profiles (what the page keeps is the
/// browser's to store, as any browser does) that holds the value: its path and the form.
fn files_holding_it(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                if !name.contains("-profile-") {
                    stack.push(p);
                }
            } else if ft.is_file()
                && let Ok(b) = std::fs::read(&p)
            {
                for h in hits_in(&b) {
                    out.push(format!("{} ({h})", p.display()));
                }
            }
        }
    }
    out
}

/// A server on another origin that serves `html/secrets/other.html` for every path and
/// keeps every request, head and body (its request line holds what the page sent).
fn counting_server(c: &Ctx) -> HttpServer {
    let body = std::fs::read_to_string(c.fixtures.join("html/secrets/other.html")).unwrap();
    HttpServer::start(move |_| Answer::html(body.clone()))
}

/// The commands of the secrets test: a home of their own (searched afterwards), the
/// secret's variable set, every byte they print kept.
struct Run<'a> {
    c: &'a Ctx,
    home: tempfile::TempDir,
    printed: Vec<u8>,
}

impl Run<'_> {
    fn cmd(&self) -> std::process::Command {
        let mut cmd = self.c.cmd();
        cmd.env("ARIASNAP_HOME", self.home.path())
            .env("SHOP_PW", VALUE)
            .env("RUST_LOG", "debug")
            .env_remove("ARIASNAP_SESSION");
        cmd
    }

    fn run(&mut self, args: &[&str]) -> Output {
        let artifacts = self.home.path().join("artifacts");
        let o = self
            .cmd()
            .args(["--artifacts", artifacts.to_str().unwrap()])
            .args(args)
            .output()
            .unwrap();
        self.printed.extend_from_slice(&o.stdout);
        self.printed.extend_from_slice(&o.stderr);
        o
    }

    fn ok(&mut self, args: &[&str]) -> String {
        let o = self.run(args);
        let out = o.stdout_text();
        assert!(
            o.status.success(),
            "ariasnap {args:?}: {out}\n{}",
            o.stderr_text()
        );
        out
    }
}

/// The secret bound to the fixture server's origin, as the flag gives it.
fn secret_flag(c: &Ctx) -> String {
    format!("SHOP_PASSWORD@{}=SHOP_PW", c.base.trim_end_matches('/'))
}

fn a_secret_is_typed_and_never_written(c: &Ctx) {
    let mut r = Run {
        c,
        home: tempfile::tempdir().unwrap(),
        printed: Vec::new(),
    };
    let flag = secret_flag(c);
    let login = c.url("html/secrets/login.html");
    let server = counting_server(c);
    // another host too: the shop's cookies (which hold the value: the page put it there)
    // go to every port of its host (RFC 6265 8.5), and are not what is looked for here
    let other = format!("http://localhost:{}/signin", server.addr.port());
    // the command line: the names are listed, never a value
    let s = ["--session", "trust-cli", "--secret", &flag];
    let listed = r.ok(&[&s[..], &["secrets"]].concat());
    assert!(
        listed.contains(r#""name":"SHOP_PASSWORD""#) && !listed.contains("SHOP_PW\""),
        "{listed}"
    );
    cli_login(&mut r, &s, &login);
    refused_elsewhere(&mut r, &s, &other, "cli");
    step_file_login(&mut r, &flag, &login, &server.addr.port().to_string());
    mcp_login(&mut r, &flag, &login, &other);
    let _ = r.run(&["session", "close", "trust-cli"]);
    let _ = r.run(&["session", "close", "trust-steps"]);
    // no request to the other origin carried the value, in any form
    let got: Vec<String> = server
        .requests()
        .into_iter()
        .map(|r| r.head + &r.body)
        .collect();
    assert!(!got.is_empty(), "the other origin's page was loaded");
    for req in &got {
        assert!(hits_in(req.as_bytes()).is_empty(), "{req}");
    }
    assert!(
        !got.iter().any(|r| r.contains("/typed")),
        "nothing was typed there: {got:?}"
    );
    // every byte the processes printed, and every file they wrote
    assert!(
        hits_in(&r.printed).is_empty(),
        "printed: {:?}",
        hits_in(&r.printed)
    );
    let files = files_holding_it(r.home.path());
    assert!(files.is_empty(), "{files:#?}");
    let spilled = std::fs::read_dir(r.home.path().join("artifacts"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert!(spilled > 0, "a reply was spilled to a file (and searched)");
}

/// A password the agent typed (no secret: the operator named none) with `&`, `!` and a space,
/// so that each of its written forms differs.
const TYPED: &str = "correct horse&9!";

/// Where `bytes` holds `TYPED` in any form a page, a URL or a reply could write it in: as
/// it is (JSON-escaped is the same), a form's query (`+`, `%26`, `%21`), a URI component,
/// `encodeURIComponent`'s, HTML-escaped.
fn typed_in(bytes: &[u8]) -> Vec<&'static str> {
    let text = String::from_utf8_lossy(bytes);
    [
        TYPED,
        "correct+horse%269%21",
        "correct%20horse%269%21",
        "correct%20horse%269!",
        "correct horse&amp;9!",
    ]
    .into_iter()
    .filter(|l| text.contains(l))
    .collect()
}

/// Every file under `dir` but the browsers' own profiles that holds `TYPED`.
fn files_holding_typed(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                if !e.file_name().to_string_lossy().contains("-profile-") {
                    stack.push(p);
                }
            } else if let Ok(b) = std::fs::read(&p) {
                out.extend(
                    typed_in(&b)
                        .iter()
                        .map(|h| format!("{} ({h})", p.display())),
                );
            }
        }
    }
    out
}

/// docs/reference/policy.md#typed-passwords: a password typed into a password field (by
/// `fill --fields`, `type`, a step file's `fill`, MCP's `browser_fill`) of a form sent by
/// GET, whose next page puts it in its URL, its text, its title, a console error and a
/// failing request: the fill's reply echoes no value, the click's reply and every later
/// command (URL, snapshot, network listing, HAR, console, journal export, logs at debug)
/// show it as `••••`, and no file of the session's home holds it.
fn a_typed_password_is_never_written(c: &Ctx) {
    let mut r = Run {
        c,
        home: tempfile::tempdir().unwrap(),
        printed: Vec::new(),
    };
    let signup = c.url("html/secrets/signup.html");
    let s = ["--session", "trust-typed"];
    let snap = r.ok(&[&s[..], &["snapshot", &signup, "--detail", "interactive"]].concat());
    let (first, pw, pw2) = (
        ref_of(&snap, "\"First name\""),
        ref_of(&snap, "\"Password\""),
        ref_of(&snap, "\"Confirm password\""),
    );
    let fields = serde_json::json!({first.clone(): "Ada", pw.clone(): TYPED}).to_string();
    let filled = r.ok(&[&s[..], &["fill", "--fields", &fields]].concat());
    // the output says each field is done; what changed is in the change list, masked
    let v: Value = serde_json::from_str(&filled).unwrap();
    assert_eq!(
        v["steps"][0]["output"]["fields"],
        serde_json::json!([{"ref": first, "ok": true}, {"ref": pw, "ok": true}]),
        "{filled}"
    );
    // `type` into the other one
    r.ok(&[&s[..], &["type", TYPED, "--ref", &pw2]].concat());
    let clicked = r.ok(&[&s[..], &["click", &ref_of(&snap, "\"Create account\"")]].concat());
    assert!(
        clicked.contains("signed-up.html?first=Ada&pw=••••&pw2=••••"),
        "{clicked}"
    );
    // the new URL said once in the structured reply (context.url), and in the summary's words
    let cv: Value = serde_json::from_str(&clicked).unwrap();
    assert!(cv["changes"]["navigated"].get("to").is_none(), "{clicked}");
    assert!(
        cv["steps"][0]["effects"]["navigation"].get("to").is_none(),
        "{clicked}"
    );
    assert!(
        cv["context"]["url"]
            .as_str()
            .unwrap()
            .contains("signed-up.html?first=Ada&pw=••••")
    );
    // no prefix of the password where a text was cut (the console error quoting the URL)
    assert!(!clicked.contains("pw=cor"), "{clicked}");
    let text = r.ok(&[&s[..], &["--format", "text", "get-url"]].concat());
    assert!(text.contains("pw=••••"), "{text}");
    let page = r.ok(&[&s[..], &["snapshot"]].concat());
    assert!(page.contains("Your password is ••••"), "{page}");
    let har = r.home.path().join("page.har");
    for cmd in [
        vec!["network", "--all"],
        vec!["network", "--har", har.to_str().unwrap(), "--bodies"],
        vec!["console", "--all"],
        vec!["eval", "location.href"],
    ] {
        let out = r.ok(&[&s[..], &cmd[..]].concat());
        assert!(out.contains("••••"), "{cmd:?}: {out}");
    }
    assert!(std::fs::read_to_string(&har).unwrap().contains("pw=••••"));
    let spec = r.home.path().join("signup.spec.json");
    r.ok(&[&s[..], &["session", "export", spec.to_str().unwrap()]].concat());
    // a step file and MCP, each in a session of its own
    typed_in_a_step_file(&mut r, &signup);
    let steps = serde_json::json!([
        ["browser_navigate", {"url": signup, "snapshot": {}}],
        ["browser_fill", {"ref": "$REF:\"Password\"", "value": TYPED}],
        ["browser_click", {"ref": "$REF:\"Create account\""}],
        ["browser_snapshot", {}],
    ]);
    let v = mcp(
        &mut r,
        &["--session", "trust-typed-mcp", "--structured"],
        "none",
        steps,
    );
    let (failed, went) = call(&v, 2);
    assert!(!failed && went.contains("pw=••••"), "{v:#}");
    for name in ["trust-typed", "trust-typed-steps", "trust-typed-mcp"] {
        let _ = r.run(&["session", "close", name]);
    }
    assert!(
        typed_in(&r.printed).is_empty(),
        "printed: {:?}",
        typed_in(&r.printed)
    );
    let files = files_holding_typed(r.home.path());
    assert!(files.is_empty(), "{files:#?}");
}

/// The same form through a step file: `fill` with `fields`, then the click.
fn typed_in_a_step_file(r: &mut Run, signup: &str) {
    let s = ["--session", "trust-typed-steps"];
    let snap = r.ok(&[&s[..], &["snapshot", signup, "--detail", "interactive"]].concat());
    let steps = serde_json::json!({"steps": [
        {"fill": {"fields": {ref_of(&snap, "\"Password\""): TYPED, ref_of(&snap, "\"Confirm password\""): TYPED}}},
        {"click": ref_of(&snap, "\"Create account\"")},
        {"eval": "document.body.innerText"},
    ]});
    // the agent's own step file holds the password: outside the session home searched below
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("typed.json");
    std::fs::write(&f, steps.to_string()).unwrap();
    let out = r.ok(&[&s[..], &["run", f.to_str().unwrap()]].concat());
    assert!(out.contains("Your password is ••••"), "{out}");
}

/// Signs in on the command line: the password typed by name, the page's echo masked, a
/// spilled snapshot and a saved state searched later.
fn cli_login(r: &mut Run, s: &[&str], login: &str) {
    let snap = r.ok(&[s, &["snapshot", login, "--inline-limit", "0"]].concat());
    let (user, pw) = (ref_of(&snap, "\"Email\""), ref_of(&snap, "\"Password\""));
    r.ok(&[s, &["fill", &user, "ada@example.org"]].concat());
    r.ok(&[s, &["fill", &pw, "--use-secret", "SHOP_PASSWORD"]].concat());
    let signed = r.ok(&[s, &["click", &ref_of(&snap, "\"Sign in\"")]].concat());
    assert!(signed.contains("[secret:SHOP_PASSWORD]"), "{signed}");
    let snap = r.ok(&[s, &["snapshot", "--inline-limit", "0"]].concat());
    assert!(
        snap.contains("heading \"Signed in as ada@example.org\"")
            && snap.contains("paragraph: Your password is [secret:SHOP_PASSWORD]"),
        "{snap}"
    );
    // `set` and `type` take a secret too; a field that shows its value shows the mask
    let notes = ref_of(&snap, "\"Notes\"");
    let set = r.ok(&[s, &["set", &notes, "--use-secret", "SHOP_PASSWORD"]].concat());
    assert!(set.contains("[secret:SHOP_PASSWORD]"), "{set}");
    r.ok(&[
        s,
        &["type", "--ref", &notes, "--use-secret", "SHOP_PASSWORD"],
    ]
    .concat());
    let snap = r.ok(&[s, &["snapshot", "--inline-limit", "0"]].concat());
    assert!(
        snap.contains(&format!(
            "[ref={notes}]: [secret:SHOP_PASSWORD][secret:SHOP_PASSWORD]"
        )),
        "{snap}"
    );
    // a reply spilled to a file, read back by the agent's eval, a saved state
    let spilled = r.ok(&[s, &["snapshot", "--inline-limit", "200"]].concat());
    assert!(spilled.contains("artifacts"), "{spilled}");
    let read = r.ok(&[s, &["eval", "document.getElementById('pw').value"]].concat());
    assert!(
        read.contains("\"output\":\"[secret:SHOP_PASSWORD]\""),
        "{read}"
    );
    let state = r.home.path().join("login.json");
    let saved = r.ok(&[s, &["state", "save", state.to_str().unwrap()]].concat());
    assert!(saved.contains("kept a secret's value"), "{saved}");
}

/// The secret on a page of another origin: refused with exit 5, the rule named, nothing
/// typed.
fn refused_elsewhere(r: &mut Run, s: &[&str], other: &str, how: &str) {
    let snap = r.ok(&[s, &["snapshot", other, "--inline-limit", "0"]].concat());
    let o = r.run(
        &[
            s,
            &[
                "fill",
                &ref_of(&snap, "\"Password\""),
                "--use-secret",
                "SHOP_PASSWORD",
            ],
        ]
        .concat(),
    );
    let err = o.stderr_text();
    assert_eq!(o.status.code(), Some(5), "{how}: {err}");
    assert!(
        err.contains("is not an origin it is bound to (@http://127.0.0.1:")
            && err.contains("nothing was typed"),
        "{how}: {err}"
    );
}

/// Signs in by a step file: `fill` with `secret` in `fields`. The page also sends the
/// password to the other server (`port`), which the operator blocks: the policy guard's log
/// of the refused request holds it masked.
fn step_file_login(r: &mut Run, flag: &str, login: &str, port: &str) {
    let block = format!("http://localhost:{port}");
    let s = [
        "--session",
        "trust-steps",
        "--secret",
        flag,
        "--block-origin",
        &block,
    ];
    let login = format!("{login}?leak={block}");
    let snap = r.ok(&[&s[..], &["snapshot", &login, "--inline-limit", "0"]].concat());
    let (user, pw, go) = (
        ref_of(&snap, "\"Email\""),
        ref_of(&snap, "\"Password\""),
        ref_of(&snap, "\"Sign in\""),
    );
    let steps = serde_json::json!({"steps": [
        {"fill": {"fields": {user: "grace@example.org", pw: {"secret": "SHOP_PASSWORD"}}}},
        {"click": go},
        {"wait": {"text": "Signed in as grace@example.org"}},
        {"eval": "document.body.innerText"},
    ]});
    let f = r.home.path().join("steps.json");
    std::fs::write(&f, steps.to_string()).unwrap();
    let out = r.ok(&[&s[..], &["run", f.to_str().unwrap()]].concat());
    assert!(
        out.contains("Your password is [secret:SHOP_PASSWORD]"),
        "{out}"
    );
    let log = r.home.path().join("sessions-v1/trust-steps.policy.jsonl");
    let t0 = Instant::now();
    let mut held = String::new();
    while !held.contains("/collect?pw=") && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
        held = std::fs::read_to_string(&log).unwrap_or_default();
    }
    assert!(
        held.contains("/collect?pw=[secret:SHOP_PASSWORD]"),
        "the guard logged the refused request, masked: {held}"
    );
}

/// `ariasnap mcp` (stdio) spoken to by the MCP SDK with `steps`; its JSON report.
fn mcp(r: &mut Run, args: &[&str], answer: &str, steps: Value) -> Value {
    let sdk = sdk_dir();
    assert!(
        sdk.join("package.json").exists(),
        "the MCP SDK is not at {} (bash scripts/setup.sh installs it, or set ARIASNAP_MCP_SDK)",
        sdk.display()
    );
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.extend([
        "--artifacts".into(),
        r.home.path().join("artifacts").display().to_string(),
    ]);
    let cmd = r.cmd();
    let envs: Vec<(String, String)> = cmd
        .get_envs()
        .filter_map(|(k, v)| Some((k.to_str()?.to_string(), v?.to_str()?.to_string())))
        .collect();
    let o = std::process::Command::new("node")
        .arg(
            r.c.fixtures
                .parent()
                .unwrap()
                .join("tests/it/js/mcp_trust.mjs"),
        )
        .envs(envs)
        .env("SDK_DIR", &sdk)
        .env("BIN", &r.c.bin)
        .env("ANSWER", answer)
        .env("ARGS", serde_json::to_string(&args).unwrap())
        .env("STEPS", steps.to_string())
        .output()
        .unwrap();
    r.printed.extend_from_slice(&o.stdout);
    r.printed.extend_from_slice(&o.stderr);
    let out = o.stdout_text();
    assert!(o.status.success(), "{out}\n{}", o.stderr_text());
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The calls of an MCP report, by index: (failed, text).
fn call(v: &Value, i: usize) -> (bool, String) {
    let c = &v["calls"][i];
    (
        c["error"].as_bool().unwrap_or(true),
        c["text"].as_str().unwrap_or("").to_string(),
    )
}

/// Signs in over MCP (structured results on, searched too), then the secret on the other
/// origin: an error naming the rule.
fn mcp_login(r: &mut Run, flag: &str, login: &str, other: &str) {
    let steps = serde_json::json!([
        ["browser_secrets", {}],
        ["browser_navigate", {"url": login, "snapshot": {}}],
        ["browser_fill", {"ref": "$REF:\"Password\"", "secret": "SHOP_PASSWORD"}],
        ["browser_fill", {"ref": "$REF:\"Email\"", "value": "ada@example.org"}],
        ["browser_click", {"ref": "$REF:\"Sign in\""}],
        ["browser_snapshot", {}],
        ["browser_navigate", {"url": other, "snapshot": {}}],
        ["browser_fill", {"ref": "$REF:\"Password\"", "secret": "SHOP_PASSWORD"}],
    ]);
    let v = mcp(
        r,
        &["--session", "trust-mcp", "--secret", flag, "--structured"],
        "none",
        steps,
    );
    let (failed, listed) = call(&v, 0);
    assert!(!failed && listed.contains("SHOP_PASSWORD"), "{listed}");
    let (failed, snap) = call(&v, 5);
    assert!(
        !failed && snap.contains("paragraph: Your password is [secret:SHOP_PASSWORD]"),
        "{v:#}"
    );
    let (failed, refused) = call(&v, 7);
    assert!(
        failed
            && refused.contains("blocked by policy")
            && refused.contains("is not an origin it is bound to"),
        "{refused}"
    );
    let _ = r.run(&["session", "close", "trust-mcp"]);
}

/// The paid counter of `html/secrets/pay.html` in a snapshot.
fn paid(snap: &str) -> String {
    snap.lines()
        .find(|l| l.contains("status: Paid"))
        .unwrap_or("")
        .trim()
        .to_string()
}

fn consent_is_asked_of_the_mcp_clients_user(c: &Ctx) {
    let mut r = Run {
        c,
        home: tempfile::tempdir().unwrap(),
        printed: Vec::new(),
    };
    let pay = c.url("html/secrets/pay.html");
    let steps = serde_json::json!([
        ["browser_navigate", {"url": pay, "snapshot": {}}],
        ["browser_click", {"ref": "$REF:\"Save for later\""}],
        ["browser_click", {"ref": "$REF:\"Pay now\""}],
        ["browser_snapshot", {}],
    ]);
    for (answer, count) in [("accept", 1), ("decline", 0), ("none", 0)] {
        let session = format!("trust-consent-{answer}");
        let v = mcp(
            &mut r,
            &["--session", &session, "--confirm", "click:Pay"],
            answer,
            steps.clone(),
        );
        let _ = r.run(&["session", "close", &session]);
        let (failed, saved) = call(&v, 1);
        assert!(
            !failed && saved.contains("Saved 1 times"),
            "{answer}: {saved}"
        );
        let (failed, clicked) = call(&v, 2);
        let (_, snap) = call(&v, 3);
        assert_eq!(
            paid(&snap),
            format!("- status: Paid {count} times"),
            "{answer}: {v:#}"
        );
        let questions = v["questions"].as_array().unwrap();
        match answer {
            "accept" => assert!(!failed, "{clicked}"),
            "decline" => assert!(
                failed
                    && clicked.contains("not allowed by a person")
                    && clicked.contains("the user declined"),
                "{clicked}"
            ),
            _ => assert!(
                failed
                    && clicked.contains("--confirm click:Pay")
                    && clicked.contains("did not declare the elicitation capability"),
                "{clicked}"
            ),
        }
        // one question, for Pay only, with the page and the element's line
        if answer != "none" {
            assert_eq!(questions.len(), 1, "{answer}: {questions:?}");
            let msg = questions[0]["message"].as_str().unwrap();
            assert!(
                msg.contains("activate button \"Pay now\"")
                    && msg.contains("Page: Checkout (")
                    && msg.contains("Element: - button \"Pay now\" [ref="),
                "{msg}"
            );
        }
        // the question and its answer are in the session's log
        let log = std::fs::read_to_string(
            r.home
                .path()
                .join(format!("sessions-v1/{session}.consent.jsonl")),
        )
        .unwrap_or_default();
        let want = match answer {
            "accept" => "\"answer\":\"allowed\"",
            "decline" => "\"answer\":\"refused: the user declined\"",
            _ => "did not declare the elicitation capability",
        };
        assert!(
            log.lines().count() == 1 && log.contains(want),
            "{answer}: {log}"
        );
    }
    on_the_command_line(&mut r, &pay);
}

/// The command line: without a terminal, refused (exit 5, nothing clicked); with one, the
/// person there answers.
fn on_the_command_line(r: &mut Run, pay: &str) {
    let s = ["--session", "trust-consent-cli", "--confirm", "click:Pay"];
    let snap = r.ok(&[&s[..], &["snapshot", pay, "--inline-limit", "0"]].concat());
    let o = r.run(&[&s[..], &["click", &ref_of(&snap, "\"Pay now\"")]].concat());
    let err = o.stderr_text();
    assert_eq!(o.status.code(), Some(5), "{err}");
    assert!(err.contains("no terminal to ask a person on"), "{err}");
    let snap = r.ok(&[&s[..], &["snapshot", "--inline-limit", "0"]].concat());
    assert_eq!(paid(&snap), "- status: Paid 0 times", "{snap}");
    // a person at the command's terminal (a pseudo-terminal of util-linux `script`): "n"
    // refuses, "y" allows; standard input is never asked
    let pay_ref = ref_of(&snap, "\"Pay now\"");
    for (typed, code, count) in [("n", 5, 0), ("y", 0, 1)] {
        let line = format!(
            "'{}' --session trust-consent-cli click {pay_ref}",
            r.c.bin.display()
        );
        let env = r.cmd();
        let mut cmd = std::process::Command::new("script");
        cmd.args(["-qec", &line, "/dev/null"])
            .envs(env.get_envs().filter_map(|(k, v)| Some((k, v?))))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut p = cmd.spawn().expect("util-linux script");
        use std::io::Write;
        p.stdin
            .take()
            .unwrap()
            .write_all(format!("{typed}\n").as_bytes())
            .unwrap();
        let o = p.wait_with_output().unwrap();
        r.printed.extend_from_slice(&o.stdout);
        let said = o.stdout_text();
        assert!(
            said.contains("wants to activate button \"Pay now\"")
                && said.contains("Allow it? [y/N]"),
            "{said}"
        );
        assert_eq!(o.status.code(), Some(code), "{typed}: {said}");
        let snap = r.ok(&[&s[..], &["snapshot", "--inline-limit", "0"]].concat());
        assert_eq!(
            paid(&snap),
            format!("- status: Paid {count} times"),
            "{typed}: {snap}"
        );
    }
    let _ = r.run(&["session", "close", "trust-consent-cli"]);
}

/// A browser the test starts as a user would, with a debugging port, killed when dropped.
struct UserBrowser {
    child: std::process::Child,
    /// What `--attach` takes.
    addr: String,
    /// Firefox: its WebDriver BiDi endpoint (`--remote-debugging-port`).
    bidi: String,
    _profile: tempfile::TempDir,
}

impl Drop for UserBrowser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the suite's browser as a user would, with two tabs at `urls`: Chromium with
/// `--remote-debugging-port` (its second tab opened through `/json/new`, as headless
/// Chromium takes one URL), Firefox with `--marionette` on a port of its own.
fn user_browser(urls: [&str; 2]) -> UserBrowser {
    use ariasnap::browser::launch::{BrowserKind, find_browser_for};
    let profile = tempfile::tempdir().unwrap();
    let port = free_port();
    let bidi_port = free_port();
    let kind = if firefox() {
        BrowserKind::Firefox
    } else {
        BrowserKind::Chromium
    };
    let bin = find_browser_for(kind, None).expect("the browser");
    let mut cmd = std::process::Command::new(bin);
    if firefox() {
        std::fs::write(
            profile.path().join("user.js"),
            format!("user_pref(\"marionette.port\", {port});\n"),
        )
        .unwrap();
        cmd.args(["--headless", "--marionette", "--no-remote", "--profile"])
            .arg(profile.path())
            .args(["--remote-debugging-port", &bidi_port.to_string()])
            .args(urls);
    } else {
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!("--remote-debugging-port={port}"))
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(urls[0]);
    }
    let child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let b = UserBrowser {
        child,
        addr: format!("127.0.0.1:{port}"),
        bidi: format!("127.0.0.1:{bidi_port}"),
        _profile: profile,
    };
    let t0 = Instant::now();
    while !ready(&b.addr) {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the browser never listened"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    if !firefox() {
        http(&b.addr, "PUT", &format!("/json/new?{}", urls[1]), "");
    }
    b
}

/// Whether the browser answers at `addr`: Firefox's Marionette greets a connection once it
/// is ready for a client (a connection it accepts earlier waits), Chromium listens.
fn ready(addr: &str) -> bool {
    use std::io::Read;
    let Ok(mut s) = std::net::TcpStream::connect(addr) else {
        return false;
    };
    if !firefox() {
        return true;
    }
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let mut buf = [0u8; 256];
    matches!(s.read(&mut buf), Ok(n) if String::from_utf8_lossy(&buf[..n]).contains("marionetteProtocol"))
}

/// One HTTP/1.1 request to `addr` (a Chromium's DevTools endpoint, a driver); the body.
fn http(addr: &str, method: &str, path: &str, body: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    // the endpoint keeps the connection open: read until the body is whole
    loop {
        let n = s.read(&mut chunk).unwrap_or(0);
        buf.extend_from_slice(&chunk[..n]);
        let t = String::from_utf8_lossy(&buf);
        if let Some((head, body)) = t.split_once("\r\n\r\n") {
            let len: usize = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse().unwrap_or(0))
                })
                .unwrap_or(usize::MAX);
            if n == 0 || body.len() >= len {
                return body.to_string();
            }
        }
        if n == 0 {
            return String::new();
        }
    }
}

/// The URLs of the browser's tabs, sorted, asked of the browser itself: Chromium's
/// `/json/list` pages, or (Firefox) the window handles of a WebDriver session that a
/// geckodriver of the test's own makes there and ends.
fn user_tabs(c: &Ctx, b: &UserBrowser) -> Vec<String> {
    let mut urls: Vec<String> = if firefox() {
        c.rt.block_on(firefox_tabs(&b.bidi))
    } else {
        let list: Value = serde_json::from_str(&http(&b.addr, "GET", "/json/list", "")).unwrap();
        list.as_array()
            .unwrap()
            .iter()
            .filter(|t| t["type"] == "page")
            .map(|t| t["url"].as_str().unwrap().to_string())
            .collect()
    };
    urls.sort();
    urls
}

/// The URLs of the top-level tabs of the Firefox whose WebDriver BiDi endpoint is `bidi`
/// (`--remote-debugging-port`), through a BiDi session of the test's own that it ends. A
/// Firefox just started refuses sessions for a few seconds ("Maximum number of active
/// sessions", measured with Firefox ESR 153): asked again until it takes one.
async fn firefox_tabs(bidi: &str) -> Vec<String> {
    let t0 = Instant::now();
    loop {
        let mut ws = Ws::connect(bidi).await;
        let new = ws
            .send("session.new", serde_json::json!({"capabilities": {}}))
            .await;
        if new["type"] == "success" {
            let tree = ws
                .send(
                    "browsingContext.getTree",
                    serde_json::json!({"maxDepth": 0}),
                )
                .await;
            let _ = ws.send("session.end", serde_json::json!({})).await;
            return tree["result"]["contexts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["url"].as_str().unwrap_or("").to_string())
                .collect();
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "a BiDi session on the user's Firefox: {new}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// A WebDriver BiDi connection of the test's own.
struct Ws {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    id: u64,
}

impl Ws {
    async fn connect(bidi: &str) -> Ws {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{bidi}/session"))
            .await
            .expect("the user's Firefox's BiDi endpoint");
        Ws { ws, id: 0 }
    }

    /// Sends a command; its answer.
    async fn send(&mut self, method: &str, params: Value) -> Value {
        use futures_util::{SinkExt, StreamExt};
        use tokio_tungstenite::tungstenite::Message;
        self.id += 1;
        let msg = serde_json::json!({"id": self.id, "method": method, "params": params});
        self.ws.send(Message::text(msg.to_string())).await.unwrap();
        loop {
            let Some(Ok(Message::Text(t))) = self.ws.next().await else {
                panic!("the BiDi connection ended");
            };
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["id"] == self.id {
                return v;
            }
        }
    }
}

fn an_attached_browser_is_left_as_it_was(c: &Ctx) {
    let pay = c.url("html/secrets/pay.html");
    let account = c.url("html/secrets/account.html");
    let b = user_browser([&pay, &account]);
    let t0 = Instant::now();
    let mut want = vec![pay.clone(), account.clone()];
    want.sort();
    let mut before = user_tabs(c, &b);
    while before.len() < 2 && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(200));
        before = user_tabs(c, &b);
    }
    assert_eq!(
        before, want,
        "the browser the test started has its two tabs"
    );
    // doctor says what listens there
    let doctor = c.run(&["doctor", "--attach", &b.addr]);
    let said = doctor.stdout_text();
    let kind = if firefox() {
        "a Firefox's Marionette port"
    } else {
        "(a Chromium's DevTools endpoint)"
    };
    assert!(
        said.lines()
            .any(|l| l.starts_with("ok attach: ") && l.contains(kind)),
        "{said}"
    );
    let s = "trust-attach";
    c.track_session(s);
    let on = |args: &[&str]| c.ok(&[&["--session", s, "--attach", &b.addr][..], args].concat());
    // its own tab: a page loaded and acted on there; its tabs are that one only
    let snap = on(&[
        "snapshot",
        &c.url("html/agent/count.html"),
        "--inline-limit",
        "0",
    ]);
    let clicked = on(&["click", &ref_of(&snap, "button \"Count\"")]);
    assert!(clicked.contains("Clicked 1"), "{clicked}");
    let tabs: Value = serde_json::from_str(&on(&["tabs"])).unwrap();
    let listed = tabs["steps"][0]["output"].as_array().unwrap();
    assert_eq!(listed.len(), 1, "the session sees its own tab only: {tabs}");
    assert!(
        listed[0]["url"]
            .as_str()
            .unwrap()
            .ends_with("/agent/count.html"),
        "{tabs}"
    );
    // (Firefox takes one WebDriver session at a time: its tabs are asked of it before and after)
    if !firefox() {
        let mut during = user_tabs(c, &b);
        during.retain(|u| !u.ends_with("/agent/count.html"));
        assert_eq!(
            during, before,
            "the user's tabs are as they were while it works"
        );
    }
    c.ok(&["session", "close", s]);
    assert!(
        std::net::TcpStream::connect(&b.addr).is_ok(),
        "the browser still runs after the session closed"
    );
    assert_eq!(
        user_tabs(c, &b),
        before,
        "the user's two tabs, and no other"
    );
}

fn http_agents_share_one_saved_login(c: &Ctx) {
    let sdk = sdk_dir();
    assert!(
        sdk.join("package.json").exists(),
        "the MCP SDK is not at {} (bash scripts/setup.sh installs it, or set ARIASNAP_MCP_SDK)",
        sdk.display()
    );
    // a saved login (Playwright's storageState form): the session cookie and the user
    let dir = tempfile::tempdir().unwrap();
    let origin = c.base.trim_end_matches('/').to_string();
    let state = serde_json::json!({
        "cookies": [{"name": "sid", "value": "sid-4b1d9e", "domain": "127.0.0.1", "path": "/",
            "expires": -1, "httpOnly": false, "secure": false, "sameSite": "Lax"}],
        "origins": [{"origin": origin, "localStorage": [{"name": "user", "value": "Ada"}]}],
    });
    let file = dir.path().join("login.json");
    std::fs::write(&file, state.to_string()).unwrap();
    let token = "fedcba9876543210".repeat(4);
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, format!("{token}\n")).unwrap();
    let (_server, port) = start_server(
        c,
        &[
            "--token-file",
            token_file.to_str().unwrap(),
            "--state",
            file.to_str().unwrap(),
        ],
    );
    let o = std::process::Command::new("node")
        .arg(
            c.fixtures
                .parent()
                .unwrap()
                .join("tests/it/js/mcp_http_state.mjs"),
        )
        .env("SDK_DIR", &sdk)
        .env("MCP_URL", format!("http://127.0.0.1:{port}/mcp"))
        .env("TOKEN", &token)
        .env("PAGE", c.url("html/secrets/account.html"))
        .output()
        .unwrap();
    let stdout = o.stdout_text();
    assert!(o.status.success(), "{stdout}\n{}", o.stderr_text());
    let r: Value = serde_json::from_str(stdout.trim()).unwrap();
    for a in ["a", "b", "c", "d"] {
        assert_eq!(r["before"][a], "Signed in as Ada", "agent {a}: {r:#}");
    }
    assert_eq!(r["signOut"]["error"], false, "{r:#}");
    assert_eq!(r["after"]["a"], "Signed out", "{r:#}");
    for a in ["b", "c", "d"] {
        assert_eq!(
            r["after"][a], "Signed in as Ada",
            "agent {a} stays signed in: {r:#}"
        );
    }
}
