//! Finding and starting the driver and the headless browser: chromedriver and Chromium, or
//! geckodriver and Firefox (docs/reference/browsers.md#chromium-and-firefox).
//!
//! Owns: [`BrowserKind`] and how `--browser` names one, binary discovery, the driver process
//! (its own process group, so it outlives the command that started it), readiness, the
//! browser's flags, preferences and capabilities. Must not: know about sessions on disk
//! (session.rs does).

use crate::error::{Error, Result};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Flags that keep headless Chromium quiet on a machine without outside network.
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,800",
    // The omnibox's WebUI popups (chrome://omnibox-popup.top-chrome/ and its AI-mode twin)
    // are browser UI a headless browser never shows, yet every window loads both, in a
    // renderer of their own: one window with a page, 398 -> 346 MB PSS, 10 -> 9 processes
    // (Chromium 156). `mcp --http` opens a window per agent (a user context each).
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
    // V8's young generation starts at 16 MB a semi-space instead of 1 MB. A walk allocates
    // about 0.8 KB per element (its node records, caches and the reply's JSON), so the first
    // snapshots of a 10,000-element page in a new renderer spent 8-12 ms in scavenges while
    // the space grew (CPU profile of the first call: 7.6-12.4 ms in the garbage collector,
    // 0.9 ms with this flag); the renderer's private memory grows by 1.5-3.5 MB.
    JS_FLAGS,
];

/// The V8 flags of [`CHROMIUM_FLAGS`] (Chromium hands them to every renderer it starts).
pub const JS_FLAGS: &str = "--js-flags=--min-semi-space-size=16";

/// Firefox's window, as Chromium's `--window-size` (its `-width`/`-height` set the same outer
/// size in headless mode).
const FIREFOX_ARGS: &[&str] = &["-headless", "-width", "1280", "-height", "800"];

/// Preferences that keep headless Firefox quiet on a machine without outside network: no
/// updates, telemetry, first-run or what's-new pages, Safe Browsing or remote settings
/// downloads, captive portal or connectivity probes. `remote.prefs.recommended` stays at its
/// default (on): the remote agent adds its own automation preferences. Pop-ups a page opens
/// are allowed, as chromedriver allows them (`--disable-popup-blocking`).
pub const FIREFOX_PREFS: &[(&str, PrefValue)] = &[
    // SpiderMonkey's nursery starts at 16 MB (256 KB by default), as Chromium's young
    // generation does (JS_FLAGS): mixed-10000's first snapshot in a new Firefox 180.6 ->
    // 163.6 ms, the second 146.7 -> 133.0 (14 fresh sessions each, interleaved); content
    // process private memory +5.7-7.5 MB
    (
        "javascript.options.mem.nursery.min_kb",
        PrefValue::Int(16384),
    ),
    ("app.update.auto", PrefValue::Bool(false)),
    ("app.update.disabledForTesting", PrefValue::Bool(true)),
    ("app.normandy.enabled", PrefValue::Bool(false)),
    ("app.shield.optoutstudies.enabled", PrefValue::Bool(false)),
    (
        "messaging-system.rsexperimentloader.enabled",
        PrefValue::Bool(false),
    ),
    ("browser.shell.checkDefaultBrowser", PrefValue::Bool(false)),
    (
        "browser.startup.homepage_override.mstone",
        PrefValue::Str("ignore"),
    ),
    ("browser.startup.page", PrefValue::Int(0)),
    (
        "startup.homepage_welcome_url",
        PrefValue::Str("about:blank"),
    ),
    (
        "startup.homepage_welcome_url.additional",
        PrefValue::Str(""),
    ),
    ("browser.aboutwelcome.enabled", PrefValue::Bool(false)),
    (
        "trailhead.firstrun.didSeeAboutWelcome",
        PrefValue::Bool(true),
    ),
    (
        "datareporting.policy.dataSubmissionEnabled",
        PrefValue::Bool(false),
    ),
    (
        "datareporting.healthreport.uploadEnabled",
        PrefValue::Bool(false),
    ),
    ("toolkit.telemetry.enabled", PrefValue::Bool(false)),
    ("toolkit.telemetry.unified", PrefValue::Bool(false)),
    ("toolkit.telemetry.server", PrefValue::Str("")),
    ("browser.ping-centre.telemetry", PrefValue::Bool(false)),
    ("browser.newtabpage.enabled", PrefValue::Bool(false)),
    (
        "browser.newtabpage.activity-stream.feeds.telemetry",
        PrefValue::Bool(false),
    ),
    (
        "browser.newtabpage.activity-stream.telemetry",
        PrefValue::Bool(false),
    ),
    (
        "browser.safebrowsing.malware.enabled",
        PrefValue::Bool(false),
    ),
    (
        "browser.safebrowsing.phishing.enabled",
        PrefValue::Bool(false),
    ),
    (
        "browser.safebrowsing.downloads.enabled",
        PrefValue::Bool(false),
    ),
    (
        "browser.safebrowsing.blockedURIs.enabled",
        PrefValue::Bool(false),
    ),
    (
        "browser.safebrowsing.update.enabled",
        PrefValue::Bool(false),
    ),
    (
        "services.settings.server",
        PrefValue::Str("data:,#remote-settings-dummy/v1"),
    ),
    ("extensions.update.enabled", PrefValue::Bool(false)),
    ("extensions.getAddons.cache.enabled", PrefValue::Bool(false)),
    (
        "network.captive-portal-service.enabled",
        PrefValue::Bool(false),
    ),
    (
        "network.connectivity-service.enabled",
        PrefValue::Bool(false),
    ),
    ("network.dns.disablePrefetch", PrefValue::Bool(true)),
    ("network.prefetch-next", PrefValue::Bool(false)),
    ("browser.search.update", PrefValue::Bool(false)),
    ("browser.discovery.enabled", PrefValue::Bool(false)),
    ("dom.disable_open_during_load", PrefValue::Bool(false)),
];

/// The value of one Firefox preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrefValue {
    Bool(bool),
    Int(i64),
    Str(&'static str),
}

impl PrefValue {
    fn json(self) -> serde_json::Value {
        match self {
            PrefValue::Bool(b) => b.into(),
            PrefValue::Int(i) => i.into(),
            PrefValue::Str(s) => s.into(),
        }
    }
}

/// Which browser a session runs: the kind decides the driver, the capabilities and which
/// Chromium-only speed-ups (DevTools) may be tried (docs/reference/browsers.md#devtools-as-a-speed-up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BrowserKind {
    /// Chromium (or Chrome) through chromedriver.
    #[default]
    Chromium,
    /// Firefox through geckodriver.
    Firefox,
}

impl BrowserKind {
    /// The kind a `--browser` value names, and the binary it names when it is a path:
    /// `chromium` and `firefox` are kinds (binary found on PATH); a path whose file name
    /// contains "firefox" is Firefox, any other path Chromium.
    pub fn of_choice(choice: Option<&Path>) -> (BrowserKind, Option<PathBuf>) {
        let Some(p) = choice else {
            return (BrowserKind::Chromium, None);
        };
        match p.to_str() {
            Some("chromium") => (BrowserKind::Chromium, None),
            Some("firefox") => (BrowserKind::Firefox, None),
            _ => {
                let firefox = p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().to_ascii_lowercase().contains("firefox"));
                let kind = if firefox {
                    BrowserKind::Firefox
                } else {
                    BrowserKind::Chromium
                };
                (kind, Some(p.to_path_buf()))
            }
        }
    }

    /// The kind a driver reports in its capabilities' `browserName` ("firefox", or
    /// "chrome"/"chromium"/"chrome-headless-shell"...).
    pub fn of_browser_name(name: &str) -> BrowserKind {
        if name.to_ascii_lowercase().contains("firefox") {
            BrowserKind::Firefox
        } else {
            BrowserKind::Chromium
        }
    }

    /// The name users give it (`--browser`).
    pub fn name(self) -> &'static str {
        match self {
            BrowserKind::Chromium => "chromium",
            BrowserKind::Firefox => "firefox",
        }
    }

    /// Whether Chromium's DevTools commands (through chromedriver's `goog/cdp/execute`, or
    /// its DevTools HTTP endpoint) may exist at all.
    pub fn has_devtools(self) -> bool {
        self == BrowserKind::Chromium
    }

    fn browser_candidates(self) -> &'static [&'static str] {
        match self {
            BrowserKind::Chromium => &[
                "chromium",
                "chromium-browser",
                "google-chrome",
                "google-chrome-stable",
                "chrome",
            ],
            BrowserKind::Firefox => &["firefox-esr", "firefox"],
        }
    }

    fn driver_candidates(self) -> Vec<String> {
        match self {
            BrowserKind::Chromium => vec![
                "chromedriver".into(),
                "/usr/lib/chromium/chromedriver".into(),
                "/usr/bin/chromedriver".into(),
            ],
            BrowserKind::Firefox => {
                let mut v = vec!["geckodriver".to_string()];
                if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
                    v.push(
                        PathBuf::from(h)
                            .join(".cargo/bin/geckodriver")
                            .display()
                            .to_string(),
                    );
                }
                v
            }
        }
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let p = PathBuf::from(name);
        return p.is_file().then_some(p);
    }
    which::which(name).ok()
}

/// The Chromium binary: `explicit`, else the first of the usual names on PATH.
pub fn find_browser(explicit: Option<&Path>) -> Result<PathBuf> {
    find_browser_for(BrowserKind::Chromium, explicit)
}

/// The chromedriver binary: `explicit`, else the usual names and places.
pub fn find_driver(explicit: Option<&Path>) -> Result<PathBuf> {
    find_driver_for(BrowserKind::Chromium, explicit)
}

/// Starts chromedriver (see [`start_driver_for`]).
pub async fn start_driver(driver: &Path, log: &Path) -> Result<Driver> {
    start_driver_for(BrowserKind::Chromium, driver, log).await
}

/// The browser binary of `kind`: `explicit`, else the first of the usual names on PATH.
pub fn find_browser_for(kind: BrowserKind, explicit: Option<&Path>) -> Result<PathBuf> {
    let what = match kind {
        BrowserKind::Chromium => "browser (Chromium)",
        BrowserKind::Firefox => "browser (Firefox)",
    };
    find(what, explicit, kind.browser_candidates())
}

/// The driver binary of `kind` (chromedriver, geckodriver): `explicit`, else the usual
/// names and places.
pub fn find_driver_for(kind: BrowserKind, explicit: Option<&Path>) -> Result<PathBuf> {
    let what = match kind {
        BrowserKind::Chromium => "driver (chromedriver)",
        BrowserKind::Firefox => "driver (geckodriver)",
    };
    let names = kind.driver_candidates();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    find(what, explicit, &names)
}

fn find(what: &'static str, explicit: Option<&Path>, names: &[&str]) -> Result<PathBuf> {
    if let Some(p) = explicit {
        return if p.is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(Error::MissingBinary {
                what,
                tried: Some(p.display().to_string()),
            })
        };
    }
    names
        .iter()
        .find_map(|n| on_path(n))
        .ok_or_else(|| Error::MissingBinary {
            what,
            tried: Some(names.join(", ")),
        })
}

/// Stack limit given to the browser's processes (bytes).
pub const RENDERER_STACK: libc::rlim_t = 512 * 1024 * 1024;

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> Result<u16> {
    let l = TcpListener::bind("127.0.0.1:0")
        .map_err(|e| Error::Browser(format!("no free local port: {e}")))?;
    Ok(l.local_addr()
        .map_err(|e| Error::Browser(e.to_string()))?
        .port())
}

/// A started driver: where it listens and its process id.
#[derive(Debug, Clone)]
pub struct Driver {
    pub url: String,
    pub pid: u32,
}

/// Starts the driver of `kind` (chromedriver, geckodriver) in its own process group on
/// 127.0.0.1, logging to `log`, and waits (without blocking the runtime) until it accepts
/// connections.
pub async fn start_driver_for(kind: BrowserKind, driver: &Path, log: &Path) -> Result<Driver> {
    start_driver_to(kind, driver, log, None).await
}

/// Starts the driver of `kind` as [`start_driver_for`] does; with `marionette` (a running
/// Firefox's Marionette `host:port`, `--attach`), geckodriver connects to that Firefox
/// instead of starting one (`--connect-existing`).
pub async fn start_driver_to(
    kind: BrowserKind,
    driver: &Path,
    log: &Path,
    marionette: Option<(&str, u16)>,
) -> Result<Driver> {
    use std::os::unix::process::CommandExt;
    let port = free_port()?;
    let logf = std::fs::File::create(log).map_err(|e| Error::io("create", log, e))?;
    let logf2 = logf.try_clone().map_err(|e| Error::io("open", log, e))?;
    let mut cmd = Command::new(driver);
    match (kind, marionette) {
        (BrowserKind::Chromium, _) => {
            cmd.arg(format!("--port={port}"))
                .arg("--allowed-ips=127.0.0.1");
        }
        (BrowserKind::Firefox, Some((host, mport))) => {
            // (geckodriver takes the remote agent's address from the running Firefox)
            cmd.args(["--host", "127.0.0.1", "--port", &port.to_string()])
                .args(["--connect-existing", "--marionette-host", host])
                .args(["--marionette-port", &mport.to_string()]);
        }
        (BrowserKind::Firefox, None) => {
            // --websocket-port 0: each geckodriver gives its Firefox a free port for the
            // remote agent (the default, 9222, would be shared by every session)
            cmd.args(["--host", "127.0.0.1", "--port", &port.to_string()])
                .args(["--websocket-port", "0"]);
        }
    }
    cmd.stdin(Stdio::null())
        .stdout(logf)
        .stderr(logf2)
        .process_group(0);
    // Chromium lays out nested blocks recursively on the renderer's main thread, whose stack
    // is bounded by RLIMIT_STACK (8 MiB by default): a few thousand nested <div>s crash the
    // tab. The driver, the browser and its renderers inherit a larger limit from here.
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: RENDERER_STACK,
                rlim_max: libc::RLIM_INFINITY,
            };
            let mut cur = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::getrlimit(libc::RLIMIT_STACK, &mut cur) == 0 {
                let want = libc::rlimit {
                    rlim_cur: if cur.rlim_max == libc::RLIM_INFINITY {
                        lim.rlim_cur
                    } else {
                        lim.rlim_cur.min(cur.rlim_max)
                    },
                    rlim_max: cur.rlim_max,
                };
                libc::setrlimit(libc::RLIMIT_STACK, &want);
            }
            Ok(())
        });
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| Error::Browser(format!("could not start {}: {e}", driver.display())))?;
    let pid = child.id();
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(Ok(_)) = tokio::time::timeout(
            Duration::from_millis(200),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        {
            break;
        }
        if let Ok(Some(status)) = child.try_wait() {
            let tail = std::fs::read_to_string(log).unwrap_or_default();
            return Err(Error::Browser(format!(
                "{} exited at start ({status}): {}",
                driver.display(),
                tail.lines().last().unwrap_or("")
            )));
        }
        if Instant::now() > deadline {
            tokio::task::spawn_blocking(move || kill_group(pid))
                .await
                .ok();
            return Err(Error::Browser(format!(
                "{} did not listen on port {port} within 20 s",
                driver.display()
            )));
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    // The driver must outlive this process: forget the handle without waiting.
    std::mem::forget(child);
    Ok(Driver {
        url: format!("http://127.0.0.1:{port}"),
        pid,
    })
}

/// WebDriver capabilities for headless Chromium with our flags and a private profile.
pub fn chrome_capabilities(
    browser: &Path,
    user_data_dir: &Path,
) -> serde_json::Map<String, serde_json::Value> {
    let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", user_data_dir.display()));
    let caps = serde_json::json!({
        "browserName": "chrome",
        "pageLoadStrategy": "normal",
        "webSocketUrl": true,
        // a page's beforeunload never holds a navigation (docs/reference/faults.md#dialogs): the browser leaves the
        // page, as chromedriver's classic sessions did; other dialogs are ours to answer
        "unhandledPromptBehavior": {"default": "ignore", "beforeUnload": "accept"},
        "goog:chromeOptions": {
            "binary": browser.display().to_string(),
            "args": args,
            "excludeSwitches": ["enable-automation"],
        },
    });
    match caps {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    }
}

/// Turns off the browser's speculative connections (preconnect, DNS prefetch, prefetch of
/// predicted pages) for a session whose policy confines origins: a preconnect opens a
/// connection to an origin before any request is made, so the guard, which holds requests,
/// would never see it; measured: Chromium opened an empty connection to a blocked origin's
/// server under `ariasnap mcp --block-origin`. Chromium: the `net.network_prediction_options`
/// preference at 2 (never); Firefox: its speculative-connection, predictor and prefetch
/// preferences.
pub fn quiet_predictions(caps: &mut serde_json::Map<String, serde_json::Value>) {
    use serde_json::json;
    if let Some(o) = caps
        .get_mut("goog:chromeOptions")
        .and_then(|o| o.as_object_mut())
    {
        o.insert(
            "prefs".into(),
            json!({"net": {"network_prediction_options": 2}}),
        );
    }
    if let Some(prefs) = caps
        .get_mut("moz:firefoxOptions")
        .and_then(|o| o.get_mut("prefs"))
        .and_then(|p| p.as_object_mut())
    {
        for (k, v) in [
            ("network.http.speculative-parallel-limit", json!(0)),
            ("network.predictor.enabled", json!(false)),
            ("network.prefetch-next", json!(false)),
            ("network.dns.disablePrefetch", json!(true)),
        ] {
            prefs.insert(k.into(), v);
        }
    }
}

/// WebDriver capabilities for headless Firefox with our preferences and a private profile
/// (geckodriver uses a `-profile` directory given in the arguments as it is, and writes the
/// preferences into it).
pub fn firefox_capabilities(
    browser: &Path,
    profile: &Path,
) -> serde_json::Map<String, serde_json::Value> {
    let mut args: Vec<String> = FIREFOX_ARGS.iter().map(|s| s.to_string()).collect();
    args.push("-profile".into());
    args.push(profile.display().to_string());
    let caps = serde_json::json!({
        "browserName": "firefox",
        "pageLoadStrategy": "normal",
        "webSocketUrl": true,
        // a page's beforeunload never holds a navigation (docs/reference/faults.md#dialogs): the browser leaves the
        // page, as chromedriver's classic sessions did; other dialogs are ours to answer
        "unhandledPromptBehavior": {"default": "ignore", "beforeUnload": "accept"},
        "moz:firefoxOptions": {
            "binary": browser.display().to_string(),
            "args": args,
            "prefs": firefox_prefs(),
        },
    });
    match caps {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    }
}

/// [`FIREFOX_PREFS`] as the `prefs` object of `moz:firefoxOptions`.
pub fn firefox_prefs() -> serde_json::Value {
    FIREFOX_PREFS
        .iter()
        .map(|(k, v)| (k.to_string(), v.json()))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// Capabilities asking a WebDriver endpoint we did not start (`--webdriver URL`, a grid)
/// for a headless browser of `kind`.
pub fn remote_capabilities(kind: BrowserKind) -> serde_json::Map<String, serde_json::Value> {
    let mut caps = serde_json::Map::new();
    // docs/reference/browsers.md#without-bidi: the page channel is BiDi; a grid or driver without it answers without a
    // webSocketUrl and the engine then runs in the page's realm
    caps.insert("webSocketUrl".into(), true.into());
    caps.insert(
        "unhandledPromptBehavior".into(),
        serde_json::json!({"default": "ignore", "beforeUnload": "accept"}),
    );
    match kind {
        BrowserKind::Chromium => {
            caps.insert("browserName".into(), "chrome".into());
            caps.insert(
                "goog:chromeOptions".into(),
                serde_json::json!({"args": CHROMIUM_FLAGS}),
            );
        }
        BrowserKind::Firefox => {
            caps.insert("browserName".into(), "firefox".into());
            caps.insert(
                "moz:firefoxOptions".into(),
                serde_json::json!({"args": FIREFOX_ARGS, "prefs": firefox_prefs()}),
            );
        }
    }
    caps
}

/// What the command line of a session's browser processes holds, to find them by
/// ([`kill_matching`], [`pids_matching`]): Chromium names its profile in every process's
/// flags (`--user-data-dir=DIR`); Firefox's main process has `-profile DIR` (its content
/// processes end with it).
pub fn profile_needle(kind: BrowserKind, profile: &Path) -> String {
    match kind {
        BrowserKind::Chromium => format!("--user-data-dir={}", profile.display()),
        BrowserKind::Firefox => profile.display().to_string(),
    }
}

/// True while a process with this pid exists.
pub fn alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: kill with signal 0 only checks for existence.
    unsafe { libc::kill(pid, 0) == 0 }
}

/// Ends a process group (the driver and any browser it started in it). Blocks up to 3 s:
/// async code runs it on the blocking pool.
pub fn kill_group(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else { return };
    // SAFETY: plain signal delivery to a process group we created.
    unsafe {
        libc::kill(-pid, libc::SIGTERM);
    }
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline && alive(pid as u32) {
        reap(pid);
        std::thread::sleep(Duration::from_millis(20));
    }
    if alive(pid as u32) {
        // SAFETY: as above.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        reap(pid);
    }
}

fn reap(pid: i32) {
    // A driver started by this very process would stay a zombie without this.
    // SAFETY: non-blocking wait on a pid; harmless when it is not our child.
    unsafe {
        libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
    }
}

/// Ends every process whose command line names `needle` (the browser processes of one
/// private profile), so closing a session leaves nothing behind even when the driver did not
/// clean up.
pub fn kill_matching(needle: &str) -> usize {
    let mut killed = 0;
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let me = std::process::id();
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd);
        if cmd.contains(needle) {
            // SAFETY: signal to a process we identified by its command line.
            unsafe {
                libc::kill(pid as i32, libc::SIGKILL);
            }
            reap(pid as i32);
            killed += 1;
        }
    }
    killed
}

/// Pids of processes whose command line names `needle`.
pub fn pids_matching(needle: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            // zombies have an empty command line
            if !cmd.is_empty() && String::from_utf8_lossy(&cmd).contains(needle) {
                out.push(pid);
            }
        }
    }
    out
}
