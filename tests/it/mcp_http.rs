//! MCP over streamable HTTP (docs/reference/mcp.md#over-http), spoken to by the official MCP
//! SDK (npm `@modelcontextprotocol/sdk`, installed by scripts/setup.sh): two agents on one
//! server share one browser, a user context each, and see nothing of each other's cookies,
//! storage, tabs, refs or files; the counts follow them; a missing or wrong token gets 401, a
//! foreign `Origin` or `Host` 403; a client gone mid-call leaves no context; a browser killed
//! under load costs each agent one error; SIGTERM lets the call in flight finish, then closes
//! every context.

use crate::common::{Ctx, Test, Text, free_port};
use serde_json::Value;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

pub fn tests() -> Vec<Test> {
    trials![
        agents_over_http_are_apart_and_the_door_is_guarded,
        a_client_gone_mid_call_leaves_no_context,
        sigterm_lets_the_call_in_flight_finish,
        a_browser_killed_under_load_costs_each_agent_one_error,
        a_call_cancelled_over_http_is_cut,
        agents_without_a_session_are_known_by_handle
    ]
}

/// The SDK's directory: `ARIASNAP_MCP_SDK`, else where scripts/setup.sh installs it.
pub fn sdk_dir() -> std::path::PathBuf {
    if let Some(d) = std::env::var_os("ARIASNAP_MCP_SDK") {
        return d.into();
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache")
        });
    cache.join("ariasnap/mcp-sdk/node_modules/@modelcontextprotocol/sdk")
}

/// One raw HTTP/1.1 request; the status code and body.
fn raw(port: u16, head: &str) -> (u16, String) {
    let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return (0, String::new());
    };
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    let mut buf = String::new();
    let _ = s.read_to_string(&mut buf);
    let code = buf
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, buf)
}

/// `ariasnap mcp --http` on a free port with `args`, once it answers `/healthz`; its port.
pub fn start_server(c: &Ctx, args: &[&str]) -> (Stop, u16) {
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let server = c
        .cmd()
        .args(["mcp", "--http", &addr])
        .args(args)
        .env_remove("ARIASNAP_SESSION")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let server = Stop(server);
    let t0 = Instant::now();
    while raw(
        port,
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    )
    .0 != 200
    {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the server never answered /healthz"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    (server, port)
}

/// The server's `/metrics` values by name.
fn metrics(port: u16) -> std::collections::HashMap<String, u64> {
    let (_, body) = raw(
        port,
        "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    );
    body.lines()
        .filter(|l| l.starts_with("ariasnap_"))
        .filter_map(|l| {
            let (k, v) = l.split_once(' ')?;
            Some((k.to_string(), v.trim().parse().ok()?))
        })
        .collect()
}

/// The faults script (tests/it/js/mcp_http_faults.mjs) against the server at `port`.
fn faults_script(c: &Ctx, port: u16, env: &[(&str, String)]) -> std::process::Command {
    let mut cmd = std::process::Command::new("node");
    cmd.arg(
        c.fixtures
            .parent()
            .unwrap()
            .join("tests/it/js/mcp_http_faults.mjs"),
    )
    .env("SDK_DIR", sdk_dir())
    .env("MCP_URL", format!("http://127.0.0.1:{port}/mcp"))
    .env("PAGE", c.url("html/agent/count.html"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

/// Waits up to `secs` for `/metrics` to show no agent, context or browser; the last counts.
fn settled(port: u16, secs: u64) -> std::collections::HashMap<String, u64> {
    let t0 = Instant::now();
    loop {
        let m = metrics(port);
        let zero = |k: &str| m.get(k).copied() == Some(0);
        if (zero("ariasnap_agents") && zero("ariasnap_contexts") && zero("ariasnap_browsers"))
            || t0.elapsed() > Duration::from_secs(secs)
        {
            return m;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A client (the faults script, MODE=hang) whose call of `ms` milliseconds has started on
/// the server at `port`; its stdout's remaining lines.
fn hanging_call(
    c: &Ctx,
    port: u16,
    ms: u64,
) -> (
    std::process::Child,
    std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
) {
    use std::io::BufRead;
    let mut client = faults_script(
        c,
        port,
        &[("MODE", "hang".into()), ("SLEEP_MS", ms.to_string())],
    )
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let mut lines = std::io::BufReader::new(client.stdout.take().unwrap()).lines();
    let first = lines.next().and_then(|l| l.ok()).unwrap_or_default();
    assert_eq!(first, "calling", "the client never started its call");
    (client, lines)
}

/// Sends SIGTERM to the server.
fn sigterm(server: &Stop) {
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &server.0.id().to_string()])
        .status();
}

/// The server's exit status once it exits, waiting up to `limit`; None if it still runs.
fn exited_within(server: &mut Stop, limit: Duration) -> Option<std::process::ExitStatus> {
    let t0 = Instant::now();
    loop {
        if let Ok(Some(st)) = server.0.try_wait() {
            return Some(st);
        }
        if t0.elapsed() >= limit {
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits up to 20 s for the server to exit, and asserts it exited 0 (`why`: the message
/// when it does not stop).
fn exits_0(server: &mut Stop, why: &str) {
    let st = exited_within(server, Duration::from_secs(20));
    let st = st.unwrap_or_else(|| panic!("{why}"));
    assert!(st.success(), "{st}");
}

/// No agent's session record is left in the suite's home.
fn no_session_left(c: &Ctx) {
    let left = c.ok(&["session", "list"]);
    assert!(
        !left.lines().any(|l| l.starts_with("mcp-")),
        "sessions left behind: {left}"
    );
}

/// A client that disconnects in the middle of a call (its process killed) leaves no user
/// context, browser or session record behind: its call ends, the MCP session is closed
/// at the idle timeout, and its context with it.
fn a_client_gone_mid_call_leaves_no_context(c: &Ctx) {
    let (_server, port) = start_server(c, &["--idle-timeout", "2"]);
    let (mut client, _lines) = hanging_call(c, port, 8000);
    std::thread::sleep(Duration::from_millis(500));
    let during = metrics(port);
    assert_eq!(during.get("ariasnap_contexts"), Some(&1), "{during:?}");
    assert_eq!(
        during.get("ariasnap_calls_in_flight"),
        Some(&1),
        "{during:?}"
    );
    client.kill().unwrap();
    let _ = client.wait();
    // the sleep (8 s) runs out, then the idle timeout (2 s) closes the session
    let after = settled(port, 40);
    assert_eq!(after.get("ariasnap_agents"), Some(&0), "{after:?}");
    assert_eq!(after.get("ariasnap_contexts"), Some(&0), "{after:?}");
    assert_eq!(after.get("ariasnap_browsers"), Some(&0), "{after:?}");
    no_session_left(c);
}

/// What the agents of the 2026-07-28 protocol saw of their handles.
fn handles_hold(r: &Value) {
    let w = &r["wire"];
    assert_eq!(
        w["version"], "2026-07-28",
        "not the stateless protocol: {r:#}"
    );
    let (a, b) = (
        w["aHandle"].as_str().unwrap_or(""),
        w["bHandle"].as_str().unwrap_or(""),
    );
    assert!(a.starts_with("a-") && a.len() == 34, "A's handle: {r:#}");
    assert!(b.starts_with("a-") && a != b, "B's handle: {r:#}");
    assert_eq!(
        w["aHandleLines"], 1,
        "the handle is said once, first: {r:#}"
    );
    assert_eq!(r["madeUpHandle"]["error"], true, "{r:#}");
    let said = r["aAfterEnd"]["text"].as_str().unwrap_or("");
    assert_eq!(r["aAfterEnd"]["error"], true, "{r:#}");
    assert!(
        said.contains("unknown agent handle") && said.contains("call without \"agent\""),
        "{said}"
    );
}

/// A call its client aborts over HTTP, on either wire ([`cancelled_on`]), is cut: the click
/// after the sleep never happens, and the agent's next call is answered at once, not after
/// the 19 s the sleep had left; then SIGTERM closes the agents left.
fn a_call_cancelled_over_http_is_cut(c: &Ctx) {
    let (mut server, port) = start_server(c, &[]);
    for wire in ["legacy", "modern"] {
        cancelled_on(c, port, wire);
    }
    // (the modern agent lives until the idle timeout: shutdown closes it)
    sigterm(&server);
    exits_0(&mut server, "the server did not stop on SIGTERM");
    no_session_left(c);
}

/// The cancel of [`a_call_cancelled_over_http_is_cut`] by a client on `wire`: legacy (the
/// SDK v1 sends `notifications/cancelled`), modern (the SDK v2 on the 2026-07-28 protocol
/// closes the call's stream, which that revision makes the cancel).
fn cancelled_on(c: &Ctx, port: u16, wire: &str) {
    let o = faults_script(c, port, &[("MODE", "cancel".into()), ("WIRE", wire.into())])
        .output()
        .unwrap();
    let out = o.stdout_text();
    let r: Value = serde_json::from_str(out.trim()).unwrap_or(Value::Null);
    assert!(r["ref"].is_string(), "{out} {}", o.stderr_text());
    assert_eq!(r["how"], "aborted", "{out}");
    assert_eq!(r["next"]["error"], false, "{out}");
    let waited = r["nextMs"].as_u64().unwrap_or(u64::MAX);
    assert!(
        waited < 10_000,
        "the call after the cancel waited {waited} ms: {out}"
    );
    let text = r["next"]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("Clicked 0"),
        "the click after the cut step ran: {out}"
    );
    let t0 = Instant::now();
    while metrics(port).get("ariasnap_calls_in_flight") != Some(&0) {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "{wire}: a call still runs: {:?}",
            metrics(port)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// SIGTERM while a call runs: the call finishes and its client gets its result, new
/// requests get 503 meanwhile, then the server closes every context and exits 0.
fn sigterm_lets_the_call_in_flight_finish(c: &Ctx) {
    let (mut server, port) = start_server(c, &[]);
    let (mut client, mut lines) = hanging_call(c, port, 3000);
    std::thread::sleep(Duration::from_millis(500));
    sigterm(&server);
    std::thread::sleep(Duration::from_millis(300));
    let (code, body) = raw(
        port,
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    );
    assert_eq!(code, 503, "a new request while draining: {body}");
    let ended = lines.next().and_then(|l| l.ok()).unwrap_or_default();
    let r: Value = serde_json::from_str(&ended).unwrap_or(Value::Null);
    assert_eq!(
        r["ended"], true,
        "the call in flight did not end: {ended:?}"
    );
    assert_eq!(r["error"], false, "the call in flight failed: {ended:?}");
    let _ = client.wait();
    exits_0(&mut server, "the server did not stop after its call ended");
    no_session_left(c);
}

/// Three agents looping on one shared browser; the browser's processes are killed in the
/// middle. Each agent gets one clear error (its tabs and refs are gone, a new browser is
/// ready), and every later call works.
fn a_browser_killed_under_load_costs_each_agent_one_error(c: &Ctx) {
    let (_server, port) = start_server(c, &[]);
    let pattern = c.home.path().join("sessions-v1/mcp-").display().to_string();
    let o = faults_script(
        c,
        port,
        &[
            ("MODE", "load".into()),
            ("AGENTS", "3".into()),
            ("KILL_PATTERN", pattern),
        ],
    )
    .output()
    .unwrap();
    let stdout = o.stdout_text();
    assert!(o.status.success(), "{stdout}\n{}", o.stderr_text());
    let agents: Value = serde_json::from_str(stdout.trim()).unwrap();
    for (i, a) in agents.as_array().unwrap().iter().enumerate() {
        let errors = a["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 1, "agent {i}: {a:#}");
        let said = errors[0]["text"].as_str().unwrap();
        assert!(
            said.contains("was replaced by a new one") && said.contains("navigate again"),
            "agent {i}'s error: {said}"
        );
        // 2 rounds before, 3 after: 3 calls a round, less the round the error cut short
        assert!(a["calls"].as_u64().unwrap() >= 13, "agent {i}: {a:#}");
    }
    let after = settled(port, 20);
    assert_eq!(after.get("ariasnap_browsers"), Some(&0), "{after:?}");
}

/// The server, stopped if the test ends before it did: SIGTERM first, so that it closes its
/// browsers (a SIGKILLed server leaves its drivers and browsers running, which then slow
/// every later test down), then SIGKILL after 10 s.
pub struct Stop(pub std::process::Child);

impl Drop for Stop {
    fn drop(&mut self) {
        if !matches!(self.0.try_wait(), Ok(None)) {
            return;
        }
        sigterm(self);
        if exited_within(self, Duration::from_secs(10)).is_some() {
            return;
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn agents_over_http_are_apart_and_the_door_is_guarded(c: &Ctx) {
    agents_apart_on(c, &[]);
}

/// Clients of the stateless 2026-07-28 protocol (no session): each agent is the handle its
/// first reply gives, sent back in every call; the same separation as sessions; a handle
/// never given is refused; an agent idle for `--idle-timeout` ends, and its handle is then
/// refused with what to do.
fn agents_without_a_session_are_known_by_handle(c: &Ctx) {
    agents_apart(c, &["--idle-timeout", "2"], "modern");
}

/// Two agents on a server started with `extra` (`--webdriver HUB` for the grid test,
/// tests/it/grid.rs): apart in one browser, counted, the door guarded, SIGTERM.
pub fn agents_apart_on(c: &Ctx, extra: &[&str]) {
    agents_apart(c, extra, "legacy");
}

/// [`agents_apart_on`] with clients on `wire` (tests/it/js/mcp_wire.mjs).
fn agents_apart(c: &Ctx, extra: &[&str], wire: &str) {
    let sdk = sdk_dir();
    assert!(
        sdk.join("package.json").exists(),
        "the MCP SDK is not at {} (bash scripts/setup.sh installs it, or set ARIASNAP_MCP_SDK)",
        sdk.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let token = "0123456789abcdef".repeat(4);
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, format!("{token}\n")).unwrap();
    let mut args = vec!["--token-file", token_file.to_str().unwrap()];
    args.extend_from_slice(extra);
    let (mut server, port) = start_server(c, &args);
    let addr = format!("127.0.0.1:{port}");
    // a Host that is not the server's: the DNS-rebinding defence
    let (code, body) = raw(
        port,
        &format!(
            "POST /mcp HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        ),
    );
    assert_eq!(code, 403, "{body}");
    let o = std::process::Command::new("node")
        .arg(
            c.fixtures
                .parent()
                .unwrap()
                .join("tests/it/js/mcp_http_agents.mjs"),
        )
        .env("SDK_DIR", &sdk)
        .env("WIRE", wire)
        .env("MCP_URL", format!("http://{addr}/mcp"))
        .env("TOKEN", &token)
        .env("PAGE", c.url("html/policy/other.html"))
        .env("FORM", c.url("html/agent/set.html"))
        .env("AGENT_A_GUESS", "mcp-0-1")
        .output()
        .unwrap();
    let stdout = o.stdout_text();
    assert!(o.status.success(), "{stdout}\n{}", o.stderr_text());
    let r: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(r["aNavigate"]["error"], false, "{r:#}");
    assert!(
        r["aMarks"]["text"].as_str().unwrap().contains("who=A"),
        "{r:#}"
    );
    let seen = |k: &str| -> Value {
        let t = r[k]["text"].as_str().unwrap_or("");
        let json = t.lines().find(|l| l.contains("cookie")).unwrap_or("{}");
        let json = json
            .trim_start_matches("eval: ")
            .trim_matches('"')
            .replace("\\\"", "\"");
        serde_json::from_str(&json).unwrap_or(Value::String(t.to_string()))
    };
    assert_eq!(seen("aSees")["stored"], "A", "{r:#}");
    assert_eq!(seen("bSees")["cookie"], "", "B sees A's cookie: {r:#}");
    assert_eq!(
        seen("bSees")["stored"],
        Value::Null,
        "B sees A's storage: {r:#}"
    );
    assert_eq!(r["aNewTab"]["error"], false, "{r:#}");
    let tabs = r["aTabs"]["text"].as_str().unwrap();
    assert_eq!(tabs.matches("\"tab\"").count(), 2, "A's tabs: {tabs}");
    let tabs = r["bTabs"]["text"].as_str().unwrap();
    assert_eq!(tabs.matches("\"tab\"").count(), 1, "B's tabs: {tabs}");
    assert!(r["aRef"].is_string(), "A's page had no ref: {r:#}");
    assert_eq!(r["bUsesARef"]["error"], true, "B used A's ref: {r:#}");
    let said = r["bUsesARef"]["text"].as_str().unwrap();
    assert!(
        said.contains(r["aRef"].as_str().unwrap()) && !said.contains("invalid step"),
        "B's error does not name the ref: {said}"
    );
    // files: inside the agent's own folder only
    let said = |k: &str| r[k]["text"].as_str().unwrap_or("").to_string();
    assert_eq!(r["aSavesOutside"]["error"], true, "{r:#}");
    assert!(
        said("aSavesOutside").contains("is not a file of this agent"),
        "{r:#}"
    );
    assert!(!std::path::Path::new("/tmp/ariasnap-agent-a.json").exists());
    assert_eq!(r["aSaves"]["error"], false, "{r:#}");
    assert_eq!(r["bLoadsA"]["error"], true, "B read A's file: {r:#}");
    assert_eq!(r["bClimbs"]["error"], true, "B climbed to A's file: {r:#}");
    assert!(
        said("bClimbs").contains("is not a file of this agent"),
        "{r:#}"
    );
    // one browser, a user context per agent
    assert_eq!(r["during"]["ariasnap_agents"], 2, "{r:#}");
    assert_eq!(r["during"]["ariasnap_browsers"], 1, "{r:#}");
    assert_eq!(r["during"]["ariasnap_contexts"], 2, "{r:#}");
    assert_eq!(r["after"]["ariasnap_agents"], 0, "{r:#}");
    assert_eq!(r["after"]["ariasnap_browsers"], 0, "{r:#}");
    assert_eq!(r["after"]["ariasnap_contexts"], 0, "{r:#}");
    if wire == "modern" {
        handles_hold(&r);
    }
    assert_eq!(r["noToken"], 401, "{r:#}");
    assert_eq!(r["wrongToken"], 401, "{r:#}");
    assert_eq!(r["foreignOrigin"], 403, "{r:#}");
    // SIGTERM: the server ends, and no agent's session is left
    sigterm(&server);
    exits_0(&mut server, "the server did not stop on SIGTERM");
    no_session_left(c);
}
