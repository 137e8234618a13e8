//! MCP over streamable HTTP (docs/reference/mcp.md#over-http), spoken to by the official MCP
//! SDK (npm `@modelcontextprotocol/sdk`, installed by scripts/setup.sh): two agents on one
//! server have a browser each and see nothing of each other's cookies, storage or tabs; the
//! counts follow them; a missing or wrong token gets 401, a foreign `Origin` or `Host` 403;
//! SIGTERM closes every agent's browser.

use crate::common::{Ctx, Test};
use serde_json::Value;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

pub fn tests() -> Vec<Test> {
    trials![agents_over_http_are_apart_and_the_door_is_guarded]
}

/// The SDK's directory: `ARIASNAP_MCP_SDK`, else where scripts/setup.sh installs it.
fn sdk_dir() -> std::path::PathBuf {
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

/// The server, killed if the test ends before it stopped it.
struct Stop(std::process::Child);

impl Drop for Stop {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

fn agents_over_http_are_apart_and_the_door_is_guarded(c: &Ctx) {
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
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let server = c
        .cmd()
        .args(["mcp", "--http", &addr, "--token-file"])
        .arg(&token_file)
        .env_remove("ARIASNAP_SESSION")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut server = Stop(server);
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
        .env("MCP_URL", format!("http://{addr}/mcp"))
        .env("TOKEN", &token)
        .env("PAGE", c.url("html/policy/other.html"))
        .env("FORM", c.url("html/agent/set.html"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
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
    // one browser, a user context per agent
    assert_eq!(r["during"]["ariasnap_agents"], 2, "{r:#}");
    assert_eq!(r["during"]["ariasnap_browsers"], 1, "{r:#}");
    assert_eq!(r["during"]["ariasnap_contexts"], 2, "{r:#}");
    assert_eq!(r["after"]["ariasnap_agents"], 0, "{r:#}");
    assert_eq!(r["after"]["ariasnap_browsers"], 0, "{r:#}");
    assert_eq!(r["after"]["ariasnap_contexts"], 0, "{r:#}");
    assert_eq!(r["noToken"], 401, "{r:#}");
    assert_eq!(r["wrongToken"], 401, "{r:#}");
    assert_eq!(r["foreignOrigin"], 403, "{r:#}");
    // SIGTERM: the server ends, and no agent's session is left
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &server.0.id().to_string()])
        .status();
    let t0 = Instant::now();
    loop {
        if let Some(st) = server.0.try_wait().unwrap() {
            assert!(st.success(), "{st}");
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the server did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let left = c.ok(&["session", "list"]);
    assert!(
        !left.lines().any(|l| l.starts_with("mcp-")),
        "sessions left behind: {left}"
    );
}
