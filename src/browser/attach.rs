//! The user's own browser (`--attach ADDR`, docs/reference/browsers.md#your-own-browser): a
//! session that starts in a tab of its own in a browser the user started and is signed in
//! to, and that `session close` leaves, browser and tabs as they were.
//!
//! A Chromium started with `--remote-debugging-port` is reached through chromedriver's
//! `goog:chromeOptions.debuggerAddress`; a Firefox started with `--marionette` (and
//! `--remote-debugging-port` for WebDriver BiDi) through geckodriver's `--connect-existing`.
//! Which one listens at an address is found by asking it (`probe`): Marionette greets a new
//! connection first, DevTools answers `GET /json/version`.
//!
//! Owns: the probe, the session's start there (driver, capabilities, its own tab) and its
//! detaching. Must not: close the user's tabs or browser, change the browser's settings
//! (downloads, preferences), restore a saved state into it, or hold its requests (a policy
//! guard would hold the user's own tabs' requests too).

use super::BrowserOptions;
use super::launch::{self, BrowserKind};
use super::session::{self, SessionRecord, TabRecord};
use crate::engine::Connection;
use crate::error::{Error, Result};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// How long the probe of an address waits for each answer.
const PROBE: Duration = Duration::from_secs(3);

/// What listens at an `--attach` address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// Chromium's DevTools HTTP endpoint: `host:port` and the browser it names
    /// (`Chrome/156.0...`).
    Chromium { address: String, browser: String },
    /// Firefox's Marionette: its host and port.
    Firefox { host: String, port: u16 },
}

impl Endpoint {
    /// The kind of browser.
    pub fn kind(&self) -> BrowserKind {
        match self {
            Endpoint::Chromium { .. } => BrowserKind::Chromium,
            Endpoint::Firefox { .. } => BrowserKind::Firefox,
        }
    }

    /// What it is, in words (`doctor`).
    pub fn describe(&self) -> String {
        match self {
            Endpoint::Chromium { browser, .. } => {
                format!("{browser} (a Chromium's DevTools endpoint)")
            }
            Endpoint::Firefox { .. } => "a Firefox's Marionette port".into(),
        }
    }
}

/// `host:port` of an address given as `host:port`, `http://host:port[/...]` or
/// `ws://host:port/...`.
fn host_port(addr: &str) -> Result<(String, u16)> {
    let a = addr.trim();
    let a = a.split_once("://").map_or(a, |(_, r)| r);
    let a = a.split('/').next().unwrap_or("");
    let (h, p) = a.rsplit_once(':').ok_or_else(|| bad(addr, "no port"))?;
    let port = p.parse::<u16>().map_err(|_| bad(addr, "not a port"))?;
    let host = h.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return Err(bad(addr, "no host"));
    }
    Ok((host.to_string(), port))
}

fn bad(addr: &str, why: &str) -> Error {
    Error::Usage(format!(
        "--attach {addr:?}: {why}; give the address the browser listens at: 127.0.0.1:9222 for a Chromium started with --remote-debugging-port=9222, 127.0.0.1:2828 for a Firefox started with --marionette"
    ))
}

/// The fix for an address where no browser answers.
const START_ONE: &str = "start Chromium with --remote-debugging-port=9222 (and a --user-data-dir of its own) and give --attach 127.0.0.1:9222, or Firefox with --marionette --remote-debugging-port 9222 and give --attach 127.0.0.1:2828 (its Marionette port)";

/// Asks what listens at `addr`: Marionette greets a new connection with
/// `{"applicationType":"gecko",...}` before anything is sent; a Chromium answers
/// `GET /json/version` with its `Browser`.
pub async fn probe(addr: &str) -> Result<Endpoint> {
    let (host, port) = host_port(addr)?;
    let nothing = |why: String| Error::Usage(format!("--attach {addr}: {why}; {START_ONE}"));
    let connect = || tokio::net::TcpStream::connect((host.as_str(), port));
    let mut s = match tokio::time::timeout(PROBE, connect()).await {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Err(nothing(format!("nothing listens there ({e})"))),
        Err(_) => return Err(nothing("nothing answered within 3 s".into())),
    };
    let mut buf = vec![0u8; 512];
    if let Ok(Ok(n)) = tokio::time::timeout(Duration::from_millis(700), s.read(&mut buf)).await
        && n > 0
    {
        let greeting = String::from_utf8_lossy(&buf[..n]);
        if greeting.contains("\"applicationType\"") && greeting.contains("gecko") {
            return Ok(Endpoint::Firefox { host, port });
        }
        return Err(nothing(format!(
            "it spoke first, but not as Firefox's Marionette ({})",
            crate::error::one_line(&greeting.chars().take(80).collect::<String>())
        )));
    }
    drop(s);
    let version = async {
        let mut s = connect().await.ok()?;
        let req = format!(
            "GET /json/version HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
        );
        s.write_all(req.as_bytes()).await.ok()?;
        let json = read_response(&mut s).await?;
        let v: serde_json::Value = serde_json::from_str(json.trim()).ok()?;
        v.get("Browser")?.as_str().map(str::to_string)
    };
    match tokio::time::timeout(PROBE, version).await {
        Ok(Some(browser)) if !browser.to_ascii_lowercase().contains("firefox") => {
            Ok(Endpoint::Chromium {
                address: format!("{host}:{port}"),
                browser,
            })
        }
        _ => Err(nothing(
            "it answers neither as a Chromium's DevTools endpoint (GET /json/version) nor as a Firefox's Marionette port".into(),
        )),
    }
}

/// The body of an HTTP/1.1 response on `s`: read up to its `Content-Length` (Chromium's
/// DevTools server keeps the connection open after it, `Connection: close` or not), or to
/// the end; at most 64 KiB.
async fn read_response(s: &mut tokio::net::TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = s.read(&mut chunk).await.ok()?;
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let len = head.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.trim()
                    .eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse::<usize>().ok())
                    .flatten()
            });
            if n == 0 || len.is_some_and(|l| body.len() >= l) {
                return Some(body.to_string());
            }
        }
        if n == 0 || buf.len() > 65536 {
            return None;
        }
    }
}

/// Refuses what an attached session cannot have, before anything starts: a policy that
/// holds requests (it would hold the user's own tabs' requests too), a saved state (it would
/// replace the user's cookies), a WebDriver endpoint (the browser is the user's, reached
/// through a driver ariasnap starts).
fn refuse(name: &str, opts: &BrowserOptions, addr: &str) -> Result<()> {
    if opts.policy.as_ref().is_some_and(super::guard::needed) {
        return Err(Error::Usage(format!(
            "session {name:?}: --attach {addr} with a policy that holds the page's requests (allowed or blocked origins, downloads or foreign tabs off) would hold the requests of the user's own tabs too: give only --deny eval, uploads or passwordSet, --secret and --confirm with --attach"
        )));
    }
    if opts.state.is_some() {
        return Err(Error::Usage(format!(
            "session {name:?}: --state with --attach would replace the cookies of the user's own browser, which is signed in already: leave --state out"
        )));
    }
    if opts.webdriver.is_some() {
        return Err(Error::Usage(
            "--attach and --webdriver: give one (--attach reaches a browser through a driver ariasnap starts on this machine)".into(),
        ));
    }
    Ok(())
}

/// Starts session `name` in a tab of its own in the browser at `addr`.
pub async fn start(
    name: &str,
    opts: &BrowserOptions,
    addr: &str,
) -> Result<(Connection, SessionRecord)> {
    refuse(name, opts, addr)?;
    let at = probe(addr).await?;
    let kind = at.kind();
    let driver = launch::find_driver_for(kind, opts.driver.as_deref())?;
    let dir = session::sessions_dir()?;
    let log = dir.join(format!("{name}.driver.log"));
    let prompts = serde_json::json!({"default": "ignore", "beforeUnload": "accept"});
    let (d, caps) = match &at {
        Endpoint::Chromium { address, .. } => {
            let d = launch::start_driver_to(kind, &driver, &log, None).await?;
            // Classic WebDriver only: chromedriver starting a BiDi session on a browser it
            // attaches to navigates one of the browser's existing tabs to about:blank
            // (measured, chromedriver 156: the tab it takes as its first window), which
            // would lose a page of the user's. The engine then runs in the page's realm of
            // the session's own tab (docs/reference/browsers.md#without-bidi).
            let caps = serde_json::json!({
                "browserName": "chrome",
                "unhandledPromptBehavior": prompts,
                "goog:chromeOptions": {"debuggerAddress": address},
            });
            (d, caps)
        }
        Endpoint::Firefox { host, port } => {
            let d = launch::start_driver_to(kind, &driver, &log, Some((host, *port))).await?;
            let caps = serde_json::json!({
                "browserName": "firefox",
                "webSocketUrl": true,
                "unhandledPromptBehavior": prompts,
            });
            (d, caps)
        }
    };
    let caps = match caps {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    let connection = match Connection::create(&d.url, caps).await {
        Ok(c) => c,
        Err(e) => {
            let pid = d.pid;
            let _ = tokio::task::spawn_blocking(move || launch::kill_group(pid)).await;
            return Err(Error::Browser(format!(
                "--attach {addr}: the driver could not attach to the browser ({}); {START_ONE}",
                crate::error::one_line(&Error::from(e).to_string())
            )));
        }
    };
    let new = connection.started().await?;
    let tab = connection.own_tab().await?;
    crate::engine::allow_devtools(kind.has_devtools());
    let rec = SessionRecord {
        name: name.to_string(),
        webdriver: d.url,
        session_id: new.session_id,
        browser: kind,
        driver_pid: Some(d.pid),
        user_data_dir: None,
        tabs: vec![TabRecord {
            alias: "t1".into(),
            handle: tab,
            preload: None,
            asked: None,
        }],
        current: "t1".into(),
        next_tab: 2,
        snapshots: Default::default(),
        created: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|t| t.as_secs())
            .unwrap_or(0),
        debugger: new.devtools.filter(|_| kind.has_devtools()),
        suspect: None,
        driver_timeout_ms: Some(600_000),
        bidi: new.bidi,
        sandbox_preload: None,
        bidi_subscribed: false,
        top_realm: None,
        policy: None,
        guard_pid: None,
        policy_reported: 0,
        shared: None,
        routes: Vec::new(),
        network_seen: 0,
        console_seen: 0,
        attached: Some(addr.to_string()),
    };
    session::save(&rec)?;
    Ok((connection, rec))
}

/// A later command on an attached session: `--attach` must name the same address (a running
/// session keeps its browser), and a session that runs its own browser takes no `--attach`.
pub fn check_kept(name: &str, opts: &BrowserOptions, kept: &SessionRecord) -> Result<()> {
    match (&opts.attach, &kept.attached) {
        (Some(a), Some(k)) if a != k => Err(Error::Usage(format!(
            "session {name:?} is attached to {k}, not {a}: end it with `ariasnap session close {name}` (the browser stays) and attach again"
        ))),
        (Some(a), None) => Err(Error::Usage(format!(
            "session {name:?} runs a browser of its own: --attach {a} starts a session, so give another --session (or close this one first)"
        ))),
        _ => Ok(()),
    }
}

/// The error of an attached session whose browser is gone (the user closed it): no new
/// browser is started in its place.
pub fn lost(name: &str, addr: &str, why: &str) -> Error {
    Error::Browser(format!(
        "session {name:?} was attached to the browser at {addr}, which no longer answers ({why}): the session is closed; start the browser again and attach with --attach"
    ))
}

/// Leaves an attached session (its lock held by the caller): its own tabs closed, the
/// driver's session ended and the driver stopped; the browser keeps running with the user's
/// tabs as they were.
pub async fn detach(rec: &SessionRecord) {
    let tabs: Vec<String> = rec.tabs.iter().map(|t| t.handle.clone()).collect();
    Connection::detach(
        &rec.webdriver,
        &rec.session_id,
        &tabs,
        Duration::from_secs(10),
    )
    .await;
    if let Some(pid) = rec.driver_pid {
        let _ = tokio::task::spawn_blocking(move || launch::kill_group(pid)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_in_their_usual_spellings() {
        assert_eq!(
            host_port("127.0.0.1:9222").unwrap(),
            ("127.0.0.1".into(), 9222)
        );
        assert_eq!(
            host_port("http://localhost:9222/json/version").unwrap(),
            ("localhost".into(), 9222)
        );
        assert_eq!(
            host_port("ws://[::1]:2828/session").unwrap(),
            ("::1".into(), 2828)
        );
        for bad in ["9222", "host:", "host:x"] {
            assert_eq!(host_port(bad).unwrap_err().exit_code(), 2, "{bad}");
        }
    }

    /// A Firefox's Marionette greets first; a Chromium's DevTools endpoint answers
    /// `/json/version`; anything else is said, with how to start a browser to attach to.
    #[test]
    fn the_probe_tells_the_browsers_apart() {
        use std::io::{Read, Write};
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let serve = |reply: &'static [u8], greet: bool| {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let addr = l.local_addr().unwrap().to_string();
            std::thread::spawn(move || {
                for s in l.incoming().take(2) {
                    let Ok(mut s) = s else { continue };
                    if greet {
                        let _ = s.write_all(reply);
                    } else {
                        let mut b = [0u8; 1024];
                        let _ = s.set_read_timeout(Some(Duration::from_millis(1500)));
                        if s.read(&mut b).unwrap_or(0) > 0 {
                            let _ = s.write_all(reply);
                        }
                    }
                }
            });
            addr
        };
        let ff = serve(
            br#"50:{"applicationType":"gecko","marionetteProtocol":3}"#,
            true,
        );
        let ch = serve(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"Browser\": \"Chrome/156.0.1\"}",
            false,
        );
        let other = serve(b"HTTP/1.1 404 Not Found\r\n\r\nno", false);
        let at = rt.block_on(probe(&ff)).unwrap();
        assert_eq!(at.kind(), BrowserKind::Firefox);
        let at = rt.block_on(probe(&ch)).unwrap();
        assert_eq!(
            at,
            Endpoint::Chromium {
                address: ch.clone(),
                browser: "Chrome/156.0.1".into()
            }
        );
        let e = rt.block_on(probe(&other)).unwrap_err().to_string();
        assert!(
            e.contains("answers neither") && e.contains("--remote-debugging-port"),
            "{e}"
        );
    }
}
