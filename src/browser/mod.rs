//! The browser: attaching to (or starting) a named session, tabs, navigation.
//!
//! Owns: the fantoccini client of one command and the session record it works on. Must not:
//! interpret pages (engine.rs and snapshot/ do), or run a page script or a DevTools command
//! itself (`engine` does: navigation by DevTools, paint polling, preload, history).

pub mod devtools;
pub mod launch;
pub mod session;

use crate::error::{Error, Result};
use fantoccini::wd::WindowHandle;
use fantoccini::{Client, ClientBuilder};
use session::{SessionRecord, TabRecord};
use std::path::PathBuf;
use tracing::{Instrument, debug, info_span};

/// How to reach a browser.
#[derive(Debug, Clone, Default)]
pub struct BrowserOptions {
    /// Session name (default "default").
    pub session: String,
    /// Use this WebDriver endpoint instead of starting a driver.
    pub webdriver: Option<String>,
    /// `--browser`: `chromium` (the default), `firefox`, or a browser binary (Firefox when
    /// its file name contains "firefox", else Chromium); see [`BrowserOptions::kind`].
    pub browser: Option<PathBuf>,
    /// Driver binary (default: chromedriver or geckodriver, by the browser's kind).
    pub driver: Option<PathBuf>,
    /// Deadline of each step (docs/reference/faults.md#deadlines; default 30 s): also the driver's script and page-load
    /// limits, and how long opening the session may wait for its lock.
    pub timeout: Option<std::time::Duration>,
}

/// The default deadline of a step (docs/reference/faults.md#deadlines).
pub const DEFAULT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

impl BrowserOptions {
    /// The browser kind `--browser` asks for, and its binary when a path was given
    /// (`chromium`, the default, and `firefox` are found on PATH).
    pub fn kind(&self) -> (launch::BrowserKind, Option<PathBuf>) {
        launch::BrowserKind::of_choice(self.browser.as_deref())
    }

    /// The deadline of one step.
    pub fn deadline(&self) -> std::time::Duration {
        self.timeout.unwrap_or(DEFAULT_TIMEOUT)
    }
}

/// A session attached for the length of one command (or one MCP server).
pub struct Browser {
    /// The page channel: classic WebDriver, and BiDi when the session has it (the engine's
    /// calls go to its sandbox realm then); classic commands are its typed methods.
    pub client: crate::engine::Page,
    pub record: SessionRecord,
    /// What the reply must tell besides its data (a tab replaced after it stopped
    /// answering...), as `#` note text without the `# `.
    pub notes: Vec<String>,
    /// Deadline of each step.
    pub timeout: std::time::Duration,
    /// This command started the session (there was none by its name): its tab is blank
    /// until something loads a page.
    pub started: bool,
    /// Set once this command asked the browser to save downloads in the session's folder.
    downloads_ready: std::sync::atomic::AtomicBool,
    /// Held while this command uses the session (docs/reference/faults.md#one-command-at-a-time).
    _lock: session::SessionLock,
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Connects to an existing WebDriver session. Plain-HTTP endpoints (the local driver) skip TLS
/// set-up, which costs milliseconds per command (the system's root certificates are read).
async fn connect_existing(webdriver: &str, session_id: &str) -> Result<Client> {
    let client = if webdriver.starts_with("https:") {
        Client::with_existing_session(webdriver, session_id, https_connector()?).await?
    } else {
        Client::with_existing_session(webdriver, session_id, http_connector()).await?
    };
    Ok(client)
}

fn http_connector() -> hyper_util::client::legacy::connect::HttpConnector {
    let mut http = hyper_util::client::legacy::connect::HttpConnector::new();
    http.set_nodelay(true);
    http
}

/// An `https:` endpoint's connector: rustls with the system's root certificates. Rustls is
/// built into the binary, so a command loads no TLS library: the OpenSSL libraries native-tls
/// linked cost every command about 0.8 ms of start-up, used or not (`ariasnap --version`
/// 2.8 -> 1.9 ms; start to an open page channel 6.1 -> 4.7 ms).
fn https_connector()
-> Result<hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>> {
    let builder = hyper_rustls::HttpsConnectorBuilder::new()
        .with_native_roots()
        .map_err(|e| {
            Error::Browser(format!(
                "no TLS root certificates for an https endpoint: {e}"
            ))
        })?;
    // the TLS layer takes the https: URLs, so its TCP connector must not refuse them
    let mut tcp = http_connector();
    tcp.enforce_http(false);
    Ok(builder.https_or_http().enable_http1().wrap_connector(tcp))
}

/// Attaches to a kept session. A cheap command proves it alive while the page channel's
/// connections open beside it, not before them (start to an open channel 0.3-0.4 ms
/// sooner on every command); when it is not alive, they are dropped.
async fn attach(rec: &SessionRecord) -> Result<(Client, Channels)> {
    let client = connect_existing(&rec.webdriver, &rec.session_id).await?;
    // Dropping this client must not end the browser: it belongs to the session.
    client.persist().await?;
    let (alive, channels) = tokio::join!(client.windows(), Channels::open(rec));
    alive?;
    Ok((client, channels))
}

/// What attaching to a session, or starting one, gives: the WebDriver client, the session's
/// record, a note for the reply (a browser restarted), and the page channel's connections
/// when attaching opened them already.
type Attached = (Client, SessionRecord, Option<String>, Option<Channels>);

/// The connections of a session's page channel (see [`page_channel`]): BiDi's, and on
/// Chromium the tab's own DevTools connection, opened side by side.
struct Channels {
    /// None: the session has no BiDi (or `ARIASNAP_BIDI=0`): classic WebDriver only.
    bidi: Option<Result<crate::engine::bidi::Bidi>>,
    /// The tab's DevTools address, unless `ARIASNAP_DEVTOOLS_DIRECT=0`.
    devtools: Option<String>,
    direct: crate::engine::DevtoolsSlot,
}

impl Channels {
    async fn open(rec: &SessionRecord) -> Channels {
        use crate::engine::{Page, bidi};
        let Some(url) = rec.bidi.as_ref().filter(|_| bidi_wanted()) else {
            return Channels {
                bidi: None,
                devtools: None,
                direct: Default::default(),
            };
        };
        let devtools = rec.debugger.clone().filter(|_| devtools_direct_wanted());
        let chromium = rec.browser == launch::BrowserKind::Chromium;
        let top = top_handle(rec);
        let (connected, direct) = tokio::join!(
            bidi::Bidi::connect(url),
            Page::devtools_ahead(devtools.as_deref().filter(|_| chromium), &top)
        );
        Channels {
            bidi: Some(connected),
            devtools,
            direct,
        }
    }
}

/// The window handle of the session's current tab ("" when the record has none).
fn top_handle(rec: &SessionRecord) -> String {
    rec.tabs
        .iter()
        .find(|t| t.alias == rec.current)
        .map(|t| t.handle.clone())
        .unwrap_or_default()
}

/// Cleans up what a dead or closed session left (see [`cleanup_blocking`]), on the blocking
/// pool: ending processes waits for them.
async fn cleanup(rec: &SessionRecord) {
    let rec = rec.clone();
    let _ = tokio::task::spawn_blocking(move || cleanup_blocking(&rec)).await;
}

/// Cleans up what a dead or closed session left: browser processes of its profile, the
/// driver's process group, the profile directory and the record.
fn cleanup_blocking(rec: &SessionRecord) {
    if let Some(pid) = rec.driver_pid {
        launch::kill_group(pid);
    }
    if let Some(dir) = &rec.user_data_dir {
        launch::kill_matching(&launch::profile_needle(rec.browser, dir));
        let _ = std::fs::remove_dir_all(dir);
    }
    if let Ok(dir) = session::sessions_dir() {
        let _ = std::fs::remove_file(dir.join(format!("{}.driver.log", rec.name)));
        let _ = std::fs::remove_dir_all(dir.join(format!("{}.downloads", rec.name)));
    }
    let _ = session::remove(&rec.name);
}

/// The page channel of a session: BiDi when its driver gave a `webSocketUrl` (a new
/// connection per command costs a few ms: 2-4 ms measured on both drivers), classic
/// WebDriver otherwise, with a note saying the engine then runs in the page's realm.
async fn page_channel(
    client: Client,
    rec: &mut SessionRecord,
    deadline: std::time::Duration,
    channels: Option<Channels>,
) -> (crate::engine::Page, Option<String>) {
    use crate::engine::Page;
    let top = top_handle(rec);
    // opened already when the session was attached (attach), else now
    let channels = match channels {
        Some(c) => c,
        None => Channels::open(rec).await,
    };
    let Some(connected) = channels.bidi else {
        return (Page::classic(client), Some(NO_BIDI.into()));
    };
    let (devtools, direct) = (channels.devtools, channels.direct);
    let chromium = rec.browser == launch::BrowserKind::Chromium;
    match connected {
        Ok(b) => {
            let b = b.with_deadline(deadline);
            // dialogs that open during an engine call are answered while it waits. BiDi
            // subscriptions belong to the session and reach all its connections on Firefox,
            // so one suffices there (a subscription costs Firefox a round trip through its
            // content processes, slow when a page is busy); Chromium's reach only the
            // connection that made them, so each command that acts makes its own
            let once = rec.browser == launch::BrowserKind::Firefox;
            let b = std::sync::Arc::new(b);
            if once && !rec.bidi_subscribed && crate::engine::subscribe(&b).await {
                rec.bidi_subscribed = true;
                if let Err(e) = session::save(rec) {
                    debug!(error = %e, "session record not saved");
                }
            }
            let mut page = Page::with_bidi(client, b, &top)
                .with_devtools(devtools)
                .with_direct(direct);
            if !once {
                page = page.subscribe_when_needed();
            }
            // (only DevTools calls reach a realm by its id; Firefox never has one kept)
            if let Some(r) = rec.top_realm.as_ref().filter(|_| chromium) {
                page.know_top_realm(&r.context, &r.realm);
            }
            (page, None)
        }
        Err(e) => {
            debug!(error = %e, "BiDi connection failed: classic WebDriver only");
            (Page::classic(client), Some(NO_BIDI.into()))
        }
    }
}

/// False when `ARIASNAP_DEVTOOLS_DIRECT=0` asks engine calls to go through the driver's
/// DevTools passthrough (`goog/cdp/execute`) instead of a connection of their own to the
/// tab's page target (for comparing the two).
fn devtools_direct_wanted() -> bool {
    std::env::var("ARIASNAP_DEVTOOLS_DIRECT").map_or(true, |v| v != "0")
}

/// False when `ARIASNAP_BIDI=0` asks for classic WebDriver only (what a driver without
/// BiDi gives: the engine in the page's realm).
fn bidi_wanted() -> bool {
    std::env::var("ARIASNAP_BIDI").map_or(true, |v| v != "0")
}

/// The note of a session without WebDriver BiDi (docs/reference/browsers.md#without-bidi).
const NO_BIDI: &str = "no WebDriver BiDi on this driver: the engine runs in the page's own realm, where page scripts can reach it";

impl Browser {
    /// Makes the browser save downloads into the session's private folder (0700, beside its
    /// record), where the effects of an action find them (docs/reference/replies.md#effects), once per command. Only
    /// for a browser ariasnap started: a remote one's folders are on another machine, and it
    /// keeps its own setting. False when downloads cannot be followed (no BiDi, or a driver
    /// without `browser.setDownloadBehavior`).
    pub async fn prepare_downloads(&self) -> bool {
        use std::sync::atomic::Ordering;
        let Some(bidi) = self.client.bidi() else {
            return false;
        };
        if self.downloads_ready.load(Ordering::Relaxed) || self.record.driver_pid.is_none() {
            return true;
        }
        let Ok(dir) =
            session::sessions_dir().map(|d| d.join(format!("{}.downloads", self.record.name)))
        else {
            return false;
        };
        if crate::private::make_dir(&dir).is_err() {
            return false;
        }
        let set = crate::engine::bidi::SetDownloadBehavior {
            download_behavior: Some(crate::engine::bidi::DownloadBehavior::Allowed {
                destination_folder: dir.display().to_string(),
            }),
        };
        match bidi.send(&set).await {
            Ok(_) => {
                self.downloads_ready.store(true, Ordering::Relaxed);
                true
            }
            Err(e) => {
                debug!(error = %e, "downloads not followed");
                false
            }
        }
    }

    /// Attaches to the named session, or starts a new browser for it. Waits for the
    /// session's lock (another command may be using it) and for the browser, both within the
    /// deadline; a tab whose last command ran out of time is checked, and replaced when its
    /// page no longer answers.
    pub async fn open(opts: &BrowserOptions) -> Result<Browser> {
        let name = if opts.session.is_empty() {
            "default"
        } else {
            opts.session.as_str()
        };
        session::validate_name(name)?;
        let deadline = opts.deadline();
        let lock = session::lock(name, std::time::Instant::now() + deadline).await?;
        // the session's record, read once: none means this command starts the session
        let kept = session::load(name)?;
        let started = kept.is_none();
        // the browser a remote endpoint is asked for, as start() chooses it
        let remote = opts.webdriver.as_ref().map(|url| {
            let kind = kept
                .as_ref()
                .map(|r| r.browser)
                .filter(|_| opts.browser.is_none());
            (url.clone(), kind.unwrap_or(opts.kind().0))
        });
        let opened = tokio::time::timeout(
            deadline,
            async {
                let (client, record, restarted, channels) =
                    Self::attach_or_start(name, opts, kept).await?;
                let mut record = record;
                let (client, bidi_note) =
                    page_channel(client, &mut record, deadline, channels).await;
                let mut b = Browser {
                    client,
                    record,
                    notes: restarted.into_iter().collect(),
                    timeout: deadline,
                    started,
                    downloads_ready: Default::default(),
                    _lock: lock,
                };
                b.notes.extend(bidi_note);
                b.driver_timeouts(deadline).await?;
                b.check_suspect().await?;
                if b.client.isolated() && b.record.browser == launch::BrowserKind::Firefox {
                    // Firefox runs sandbox calls while a dialog is open, so none fails on a
                    // dialog the page left open: answer it now, by the --dialog policy
                    // (Chromium's calls wait on it and answer it then; its driver's alert
                    // commands would wait on a page stuck in a loop)
                    b.client.answer_open().await;
                }
                Ok::<_, Error>(b)
            }
            .instrument(info_span!("browser_initialize", session = name)),
        )
        .await;
        // no record: the endpoint never gave a session (a grid queues the request)
        if opened.is_err()
            && let Some((url, kind)) = remote
            && matches!(session::load(name), Ok(None))
        {
            return Err(Error::endpoint_no_answer(&url, kind.name(), deadline));
        }
        match opened {
            Ok(r) => r,
            Err(_) => Err(Error::Timeout(format!(
                "session {name:?} did not answer within {} ms (its browser may be busy with a page that stopped answering; the next command replaces that tab)",
                deadline.as_millis()
            ))),
        }
    }

    /// The session's client and record, a note when the browser had to be restarted (see
    /// [`Browser::unblock_firefox`]), and the page channel's connections when attaching
    /// opened them. kept: the session's record as the command found it (None: a new session).
    async fn attach_or_start(
        name: &str,
        opts: &BrowserOptions,
        kept: Option<SessionRecord>,
    ) -> Result<Attached> {
        let mut kind = None;
        if let Some(rec) = kept {
            let driver_dead = rec.driver_pid.is_some_and(|p| !launch::alive(p));
            if !driver_dead
                && rec.suspect.is_some()
                && rec.browser == launch::BrowserKind::Firefox
                && let Some(r) = Self::unblock_firefox(name, opts, &rec).await?
            {
                return Ok(r);
            }
            // a session started afresh keeps its browser unless --browser says otherwise
            kind = Some(rec.browser);
            if !driver_dead {
                match attach(&rec).await {
                    Ok((client, channels)) => {
                        debug!(session = name, browser = rec.browser.name(), "reattached");
                        crate::engine::allow_devtools(rec.browser.has_devtools());
                        return Ok((client, rec, None, Some(channels)));
                    }
                    Err(e) => eprintln!(
                        "note: session {name:?} lost its browser ({}); starting a new one",
                        crate::error::one_line(&e.to_string())
                    ),
                }
            } else {
                eprintln!("note: session {name:?} lost its driver; starting a new browser");
            }
            cleanup(&rec).await;
        }
        let (client, rec) = Self::start(name, opts, kind).await?;
        Ok((client, rec, None, None))
    }

    /// A Firefox session whose last command ran out of time. geckodriver runs one command at
    /// a time, and Firefox's classic WebDriver (Marionette) waits on the page's content
    /// process for a script however long it takes: a page in an endless loop holds every
    /// later command of the session for good, New Window and Close Window included. Chromium
    /// has its DevTools HTTP endpoint for this; Firefox has none on the classic path. So when
    /// the driver does not answer within 1.5 s and ariasnap started this browser, the
    /// browser is restarted (the note says what was lost). A remote endpoint's browser is not
    /// ours to restart: the command then fails at its deadline.
    async fn unblock_firefox(
        name: &str,
        opts: &BrowserOptions,
        rec: &SessionRecord,
    ) -> Result<Option<Attached>> {
        let probe = std::time::Duration::from_millis(1500);
        match tokio::time::timeout(probe, attach(rec)).await {
            Ok(Ok((client, channels))) => {
                crate::engine::allow_devtools(false);
                return Ok(Some((client, rec.clone(), None, Some(channels))));
            }
            Ok(Err(_)) => return Ok(None),
            Err(_) if rec.driver_pid.is_none() => return Ok(None),
            Err(_) => {}
        }
        let alias = rec.suspect.clone().unwrap_or_else(|| rec.current.clone());
        debug!(
            session = name,
            "Firefox's driver is held by a page: restarting the browser"
        );
        cleanup(rec).await;
        let (client, new) = Self::start(name, opts, Some(rec.browser)).await?;
        let lost = if rec.tabs.len() > 1 {
            "the session's other tabs, cookies and storage are gone"
        } else {
            "cookies and storage are gone"
        };
        let note = format!(
            "tab {alias} was replaced by a blank tab: its page stopped answering after the last command ran out of time, and held Firefox's driver, so the browser was restarted ({lost}; the session's one tab is t1)"
        );
        Ok(Some((client, new, Some(note), None)))
    }

    /// Gives the driver this script and page-load limit (once per change: the record keeps
    /// the last one), so the driver itself never waits on a page longer than a step may.
    pub async fn driver_timeouts(&mut self, limit: std::time::Duration) -> Result<()> {
        let ms = limit.as_millis() as u64;
        if self.record.driver_timeout_ms == Some(ms) {
            return Ok(());
        }
        self.client.set_timeouts(limit).await?;
        self.record.driver_timeout_ms = Some(ms);
        session::save(&self.record)
    }

    /// The note for a command that read a blank tab because it started its session: a
    /// session's first command starts its browser, so a mistyped `--session` name would
    /// otherwise look like an empty page (and leave a browser running).
    pub fn note_blank_start(&mut self) {
        let name = &self.record.name;
        self.notes.push(format!(
            "session {name:?} was started by this command, so its tab is blank: load a page (`goto URL`, `snapshot URL`), or check the session's name (`ariasnap session list`; `ariasnap session close {name}` ends this one)"
        ));
    }

    /// Records that the current tab's command ran out of time: the next command checks the
    /// tab ([`Browser::check_suspect`]).
    pub fn mark_suspect(&mut self) {
        self.record.suspect = Some(self.record.current.clone());
        let _ = session::save(&self.record);
    }

    /// After a command ran out of time: does the tab's page still answer? When it does not
    /// (an endless loop, a stuck renderer), the tab is replaced by a blank one with the same
    /// alias, and a note says so.
    pub async fn check_suspect(&mut self) -> Result<()> {
        let Some(alias) = self.record.suspect.clone() else {
            return Ok(());
        };
        let current = self.record.current.clone();
        if !self.record.tabs.iter().any(|t| t.alias == alias) {
            self.record.suspect = None;
            return session::save(&self.record);
        }
        if alias != current {
            self.use_tab(Some(&alias)).await?;
        }
        let probe = std::time::Duration::from_millis(1500);
        self.driver_timeouts(probe).await?;
        let mut alive = false;
        for _ in 0..4 {
            match tokio::time::timeout(
                probe + std::time::Duration::from_millis(500),
                crate::engine::answers(&self.client),
            )
            .await
            {
                Ok(Ok(())) => {
                    alive = true;
                    break;
                }
                Ok(Err(e)) if e.is_dialog() => {
                    self.client.answer_open().await;
                }
                _ => break,
            }
        }
        if !alive {
            if self.record.browser == launch::BrowserKind::Firefox && !self.client.isolated() {
                // the probe's classic script now holds geckodriver: only a restart frees it
                // (see unblock_firefox), which the next command makes; with BiDi the probe
                // ran in the sandbox and the tab is replaced like Chromium's
                self.record.suspect = Some(alias.clone());
                session::save(&self.record)?;
                return Err(Error::Timeout(format!(
                    "the page of tab {alias} stopped answering and holds Firefox's driver: the next command restarts the browser"
                )));
            }
            self.replace_tab().await?;
            self.notes.push(format!(
                "tab {alias} was replaced by a blank tab: its page stopped answering after the last command ran out of time (open the page again)"
            ));
        }
        self.record.suspect = None;
        session::save(&self.record)?;
        self.driver_timeouts(self.timeout).await?;
        if alias != current {
            self.use_tab(Some(&current)).await?;
        }
        Ok(())
    }

    /// Starts a browser for session `name`: of the kind `--browser` names, else of `kind`
    /// (a session started afresh keeps its browser), else Chromium.
    async fn start(
        name: &str,
        opts: &BrowserOptions,
        kept: Option<launch::BrowserKind>,
    ) -> Result<(Client, SessionRecord)> {
        let (mut kind, explicit) = opts.kind();
        if opts.browser.is_none()
            && let Some(k) = kept
        {
            kind = k;
        }
        let (webdriver, driver_pid, user_data_dir, caps) = match &opts.webdriver {
            Some(url) => (url.clone(), None, None, launch::remote_capabilities(kind)),
            None => {
                let browser = launch::find_browser_for(kind, explicit.as_deref())?;
                let driver = launch::find_driver_for(kind, opts.driver.as_deref())?;
                let dir = session::sessions_dir()?;
                let profile = tempfile::Builder::new()
                    .prefix(&format!("{name}-profile-"))
                    .tempdir_in(&dir)
                    .map_err(|e| Error::io("create profile in", &dir, e))?
                    .keep();
                let log = dir.join(format!("{name}.driver.log"));
                let d = launch::start_driver_for(kind, &driver, &log).await?;
                let caps = match kind {
                    launch::BrowserKind::Chromium => {
                        launch::chrome_capabilities(&browser, &profile)
                    }
                    launch::BrowserKind::Firefox => {
                        launch::firefox_capabilities(&browser, &profile)
                    }
                };
                (d.url, Some(d.pid), Some(profile), caps)
            }
        };
        let connected = if webdriver.starts_with("https:") {
            ClientBuilder::new(https_connector()?)
                .capabilities(caps)
                .connect(&webdriver)
                .await
        } else {
            ClientBuilder::new(http_connector())
                .capabilities(caps)
                .connect(&webdriver)
                .await
        };
        let client = match connected {
            Ok(c) => c,
            Err(e) => {
                if let Some(pid) = driver_pid {
                    let _ = tokio::task::spawn_blocking(move || launch::kill_group(pid)).await;
                }
                if let Some(d) = &user_data_dir {
                    let _ = std::fs::remove_dir_all(d);
                }
                return Err(match &opts.webdriver {
                    Some(url) => Error::endpoint(url, kind.name(), e),
                    None => e.into(),
                });
            }
        };
        client.persist().await?;
        // Walks of very large pages take longer than WebDriver's default 30 s script limit on
        // their first pass; steps have their own limits.
        client
            .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
                Some(std::time::Duration::from_secs(600)),
                Some(std::time::Duration::from_secs(300)),
                Some(std::time::Duration::from_secs(0)),
            ))
            .await?;
        let session_id = client
            .session_id()
            .await?
            .ok_or_else(|| Error::Browser("the driver returned no session id".into()))?;
        let handle = client.window().await?;
        let bidi = client
            .capabilities()
            .and_then(crate::engine::bidi::websocket_url);
        // docs/reference/browsers.md#chromium-and-firefox: the kind is what the driver says it started (a grid may differ)
        let browser = crate::engine::browser_name(&client)
            .map(|n| launch::BrowserKind::of_browser_name(&n))
            .unwrap_or(kind);
        crate::engine::allow_devtools(browser.has_devtools());
        let debugger = crate::engine::devtools_address(&client)
            .filter(|_| opts.webdriver.is_none() && browser.has_devtools());
        let rec = SessionRecord {
            name: name.to_string(),
            webdriver,
            session_id,
            browser,
            driver_pid,
            user_data_dir,
            tabs: vec![TabRecord {
                alias: "t1".into(),
                handle: handle_str(&handle),
                preload: None,
            }],
            current: "t1".into(),
            next_tab: 2,
            snapshots: Default::default(),
            created: now_secs(),
            debugger,
            suspect: None,
            driver_timeout_ms: Some(600_000),
            bidi,
            sandbox_preload: None,
            bidi_subscribed: false,
            top_realm: None,
        };
        session::save(&rec)?;
        Ok((client, rec))
    }

    /// Ends session `name`: the browser, the driver, the profile and the record. Returns
    /// false when there was no such session.
    pub async fn close_session(name: &str, deadline: std::time::Duration) -> Result<bool> {
        let _lock = session::lock(name, std::time::Instant::now() + deadline).await?;
        let Some(rec) = session::load(name)? else {
            return Ok(false);
        };
        if rec.driver_pid.is_none_or(launch::alive)
            && let Ok(client) = connect_existing(&rec.webdriver, &rec.session_id).await
        {
            let _ = tokio::time::timeout(std::time::Duration::from_secs(10), client.close()).await;
        }
        cleanup(&rec).await;
        Ok(true)
    }

    /// Makes tab `alias` current (t1, t2...), when given.
    pub async fn use_tab(&mut self, alias: Option<&str>) -> Result<()> {
        let Some(alias) = alias else { return Ok(()) };
        let tab = self
            .record
            .tabs
            .iter()
            .find(|t| t.alias == alias)
            .cloned()
            .ok_or_else(|| {
                let known: Vec<&str> = self.record.tabs.iter().map(|t| t.alias.as_str()).collect();
                Error::Usage(format!(
                    "unknown tab {alias:?}: this session has {}",
                    known.join(", ")
                ))
            })?;
        if self.record.current != tab.alias {
            self.client
                .switch_to_window(
                    WindowHandle::try_from(tab.handle.clone())
                        .map_err(|_| Error::Browser("bad window handle".into()))?,
                )
                .await?;
            self.record.current = tab.alias.clone();
            session::save(&self.record)?;
        }
        Ok(())
    }

    /// Replaces the current tab with a fresh, blank one (after its page crashed or stopped
    /// answering), so the session stays usable; the alias is kept. With Chromium's DevTools
    /// address known, the tab is made and closed by the browser itself, without the driver,
    /// whose command queue a page in an endless loop blocks. Firefox has no such endpoint
    /// (its remote agent speaks only WebDriver and BiDi), and needs none: geckodriver's New
    /// Window and Close Window are carried out by Firefox's parent process, which a content
    /// process stuck in a loop does not block; so do a remote endpoint's.
    pub async fn replace_tab(&mut self) -> Result<()> {
        let alias = self.record.current.clone();
        let old = self
            .record
            .tabs
            .iter()
            .find(|t| t.alias == alias)
            .map(|t| t.handle.clone());
        let by_devtools = match &self.record.debugger {
            Some(addr) => devtools::new_tab(addr).await.ok(),
            None => None,
        };
        let handle = match by_devtools {
            Some(h) => {
                WindowHandle::try_from(h).map_err(|_| Error::Browser("bad window handle".into()))?
            }
            None => self.client.new_tab().await?,
        };
        self.client.switch_to_window(handle.clone()).await?;
        if let Some(old) = old {
            let closed = match &self.record.debugger {
                Some(addr) => devtools::close_tab(addr, &old).await.is_ok(),
                None => false,
            };
            if !closed {
                if let Ok(h) = WindowHandle::try_from(old)
                    && self.client.switch_to_window(h).await.is_ok()
                {
                    let _ = self.client.close_window().await;
                }
                self.client.switch_to_window(handle.clone()).await?;
            }
        }
        for t in &mut self.record.tabs {
            if t.alias == alias {
                t.handle = handle_str(&handle);
                t.preload = None;
            }
        }
        session::save(&self.record)
    }

    /// Passes `r` through; when the page crashed its tab, replaces the tab so the session stays
    /// usable, and says so.
    pub async fn crash_guard<T>(&mut self, r: Result<T>) -> Result<T> {
        match r {
            Err(e) if e.is_tab_crash() => {
                let alias = self.tab().to_string();
                self.replace_tab().await?;
                Err(Error::Browser(format!(
                    "the page crashed its browser tab; tab {alias} was replaced by a fresh, blank one (the page is lost: open it again)"
                )))
            }
            other => other,
        }
    }

    /// Opens a new tab, makes it current and returns its alias.
    pub async fn new_tab(&mut self) -> Result<String> {
        let w = self.client.new_tab().await?;
        self.client.switch_to_window(w.clone()).await?;
        let alias = format!("t{}", self.record.next_tab);
        self.record.next_tab += 1;
        self.record.tabs.push(TabRecord {
            alias: alias.clone(),
            handle: handle_str(&w),
            preload: None,
        });
        self.record.current = alias.clone();
        session::save(&self.record)?;
        Ok(alias)
    }

    /// Takes a window the page opened (a popup, a `target=_blank` link) into the session as a
    /// tab; returns its alias. The current tab stays current.
    pub async fn adopt_tab(&mut self, handle: &str) -> Result<String> {
        if let Some(t) = self.record.tabs.iter().find(|t| t.handle == handle) {
            return Ok(t.alias.clone());
        }
        let alias = format!("t{}", self.record.next_tab);
        self.record.next_tab += 1;
        self.record.tabs.push(TabRecord {
            alias: alias.clone(),
            handle: handle.to_string(),
            preload: None,
        });
        session::save(&self.record)?;
        Ok(alias)
    }

    /// The windows open in the browser (their handles), or empty when the driver cannot say.
    pub async fn window_handles(&self) -> Vec<String> {
        match self.client.windows().await {
            Ok(w) => w.iter().map(handle_str).collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The URL of top-level context `handle` without switching to it (BiDi), or "".
    pub async fn url_of_window(&self, handle: &str) -> String {
        let Some(bidi) = self.client.bidi() else {
            return String::new();
        };
        let get = crate::engine::bidi::GetTree {
            max_depth: Some(0),
            root: Some(handle.to_string()),
        };
        match bidi.send(&get).await {
            Ok(t) => t
                .contexts
                .first()
                .map(|c| c.url.clone())
                .unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// Closes a tab (default: the current one); returns the alias now current.
    pub async fn close_tab(&mut self, alias: Option<&str>) -> Result<String> {
        let target = alias.unwrap_or(&self.record.current).to_string();
        if self.record.tabs.len() <= 1 {
            return Err(Error::Usage(format!(
                "tab {target} is the last tab of the session: close the session instead (ariasnap session close)"
            )));
        }
        self.use_tab(Some(&target)).await?;
        self.client.close_window().await?;
        self.record.tabs.retain(|t| t.alias != target);
        self.record.snapshots.remove(&target);
        let next = self
            .record
            .tabs
            .last()
            .map(|t| t.alias.clone())
            .unwrap_or_default();
        let handle = self
            .record
            .tabs
            .last()
            .map(|t| t.handle.clone())
            .unwrap_or_default();
        self.client
            .switch_to_window(
                WindowHandle::try_from(handle)
                    .map_err(|_| Error::Browser("bad window handle".into()))?,
            )
            .await?;
        self.record.current = next.clone();
        session::save(&self.record)?;
        Ok(next)
    }

    /// Tabs with their URLs and titles (the current tab stays current).
    pub async fn list_tabs(&mut self) -> Result<serde_json::Value> {
        let current = self.record.current.clone();
        let live: Vec<String> = self
            .client
            .windows()
            .await?
            .into_iter()
            .map(String::from)
            .collect();
        // Tabs the page closed by itself are dropped from the record.
        self.record.tabs.retain(|t| live.contains(&t.handle));
        let mut out = Vec::new();
        let tabs = self.record.tabs.clone();
        for t in &tabs {
            self.use_tab(Some(&t.alias)).await?;
            let url = self.url().await;
            let title = self.title().await;
            out.push(serde_json::json!({"tab": t.alias, "url": url, "title": title, "current": t.alias == current}));
        }
        if tabs.iter().any(|t| t.alias == current) {
            self.use_tab(Some(&current)).await?;
        }
        session::save(&self.record)?;
        Ok(serde_json::Value::Array(out))
    }

    /// The current tab's URL ("" when the driver cannot say).
    pub async fn url(&self) -> String {
        match self.client.current_url().await {
            Ok(u) => u.to_string(),
            // the driver answers with a script, which a hostile page can break
            Err(_) => crate::engine::history_entry(&self.client)
                .await
                .map(|e| e.0)
                .unwrap_or_default(),
        }
    }

    /// The current tab's title ("" when none can be read).
    pub async fn title(&self) -> String {
        match self.client.title().await {
            Ok(t) => t,
            Err(_) => crate::engine::history_entry(&self.client)
                .await
                .map(|e| e.1)
                .unwrap_or_default(),
        }
    }

    /// The current tab's alias.
    pub fn tab(&self) -> &str {
        &self.record.current
    }

    /// Navigates the current tab and waits for the load event and the first rendered frames
    /// (style and layout done, as a user would see the page), at most 10 s for the latter.
    pub async fn goto(&mut self, url: &str) -> Result<()> {
        let url = normalize_url(url)?;
        self.ensure_preload().await;
        match self.client.navigate(&url).await {
            Ok(()) => {}
            Err(e) if e.is_dialog() => {
                // the new page (or the one left, by beforeunload) opened a dialog while
                // loading: answer it and every next one until the page has loaded
                self.loaded_through_dialogs().await?;
            }
            Err(e) if e.is_timeout() || e.is_gone() => return Err(e),
            Err(e) => {
                // The driver runs its own script in the page it leaves, which a page that
                // replaced built-ins breaks; DevTools navigates without one.
                if !self.cdp_navigate(&url).await {
                    return Err(e);
                }
            }
        }
        self.rendered().await;
        self.started_up().await;
        Ok(())
    }

    /// Waits for the timers the page set while starting that are due within a second (a
    /// widget shown half a second after load, a banner: `engine::startup_timers`), so that
    /// what the page does to finish its start is in the loaded page, not in the reply to the
    /// first action after it (docs/reference/replies.md#changes: changes are the page's changes). The callbacks run
    /// when due; the caller's settling sees what they changed.
    async fn started_up(&self) {
        const HORIZON_MS: u64 = 1000;
        if let Some(ms) = crate::engine::startup_timers(&self.client, HORIZON_MS).await {
            debug!(ms, "waiting for the page's start-up timers");
            tokio::time::sleep(std::time::Duration::from_millis(ms + 20)).await;
        }
    }

    /// Makes the current tab run this build's engine in each new top-level document before
    /// the page's own scripts (DevTools' `Page.addScriptToEvaluateOnNewDocument`): built-ins
    /// are captured before the page can replace them, console messages are kept from the
    /// start, and the first snapshot of a page does not pay for the install. Registered once
    /// per tab (an older build's registration is replaced); without DevTools nothing
    /// changes: the engine is installed on first use, as always.
    pub async fn ensure_preload(&mut self) {
        if self.client.isolated() {
            // docs/reference/browsers.md#the-page-channel-webdriver-bidi: one registration serves every document and frame of the session, in
            // the engine's sandbox realm
            let old: Vec<String> = match &self.record.sandbox_preload {
                Some(p) if p.hash == crate::engine::ENGINE_HASH => return,
                Some(p) => p.id.split(' ').map(str::to_string).collect(),
                None => Vec::new(),
            };
            if let Some(ids) = crate::engine::preload_sandbox(&self.client, &old).await {
                self.record.sandbox_preload = Some(session::Preload {
                    hash: crate::engine::ENGINE_HASH.to_string(),
                    id: ids.join(" "),
                });
                if let Err(e) = session::save(&self.record) {
                    debug!(error = %e, "session record not saved after preload");
                }
            }
            return;
        }
        let current = self.record.current.clone();
        let Some(i) = self.record.tabs.iter().position(|t| t.alias == current) else {
            return;
        };
        let old = match &self.record.tabs[i].preload {
            Some(p) if p.hash == crate::engine::ENGINE_HASH => return,
            Some(p) => Some(p.id.clone()),
            None => None,
        };
        if let Some(id) = crate::engine::preload(&self.client, old.as_deref()).await {
            self.record.tabs[i].preload = Some(session::Preload {
                hash: crate::engine::ENGINE_HASH.to_string(),
                id,
            });
            if let Err(e) = session::save(&self.record) {
                debug!(error = %e, "session record not saved after preload");
            }
        }
    }

    /// Navigates through DevTools and waits (at most 30 s) for the new document to load.
    async fn cdp_navigate(&self, url: &str) -> bool {
        use crate::engine::{document_state, navigate};
        // a new document has a new time origin: that tells it from the one being left
        let before = document_state(&self.client).await;
        let origin_of = |s: &str| s.split(' ').nth(1).unwrap_or("").to_string();
        if !navigate(&self.client, url).await {
            return false;
        }
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_secs(30) {
            let now = document_state(&self.client).await;
            if now.starts_with("complete ") && origin_of(&now) != origin_of(&before) {
                return true;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        true
    }

    /// Answers dialogs until the current page has loaded (bounded by the step's deadline,
    /// which the caller enforces).
    async fn loaded_through_dialogs(&self) -> Result<()> {
        loop {
            self.client.answer_open().await;
            match crate::engine::ready_state(&self.client).await {
                Ok(v) if v == "complete" => return Ok(()),
                Ok(_) => {}
                Err(e) if e.is_dialog() => continue,
                Err(e) => return Err(e),
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
    }

    /// Waits for layout and two rendered frames in the current document, at most 1 s. The
    /// frames are counted in the page with the requestAnimationFrame the engine captured
    /// before page scripts ran, and polled from here: a page that replaced its timers,
    /// promises or animation frames cannot make this wait (docs/reference/faults.md#deadlines).
    pub async fn rendered(&self) {
        use crate::engine::{Method, Paint, call};
        use crate::wire::PaintReply;
        let start = std::time::Instant::now();
        let first: Result<PaintReply> = call(&self.client, Method::Paint(Paint::Start)).await;
        let Ok(PaintReply { done: false, token }) = first else {
            return;
        };
        let poll = Paint::Poll {
            token: token.unwrap_or(0),
        };
        while start.elapsed() < std::time::Duration::from_secs(1) {
            tokio::time::sleep(std::time::Duration::from_millis(8)).await;
            let r: Result<PaintReply> = call(&self.client, Method::Paint(poll)).await;
            if !matches!(r, Ok(PaintReply { done: false, .. })) {
                return;
            }
        }
    }

    /// Keeps the sandbox realm of the current tab's document that this command used in the
    /// session record, for the next command (written only when it changed). A kept realm
    /// this command found gone and could not learn again (no DevTools
    /// connection: the call went through BiDi) is dropped from the record, so that the next
    /// command does not try it first again.
    pub fn remember_realm(&mut self) {
        let known = self
            .client
            .top_realm_known()
            .map(|(context, realm)| session::TopRealm { context, realm });
        if known != self.record.top_realm {
            self.record.top_realm = known;
            if let Err(e) = session::save(&self.record) {
                debug!(error = %e, "session record not saved");
            }
        }
    }

    /// Reserves the next snapshot number of the current tab and records it.
    pub fn next_snapshot(&mut self) -> Result<u64> {
        let tab = self.record.current.clone();
        let n = self.record.snapshots.get(&tab).copied().unwrap_or(0) + 1;
        self.record.snapshots.insert(tab, n);
        session::save(&self.record)?;
        Ok(n)
    }
}

fn handle_str(h: &WindowHandle) -> String {
    String::from(h.clone())
}

/// Accepts full URLs, `about:` URLs, local file paths and bare host names.
pub fn normalize_url(s: &str) -> Result<String> {
    let t = s.trim();
    if t.is_empty() {
        return Err(Error::Usage(
            "empty URL: give an address such as http://127.0.0.1:8080/".into(),
        ));
    }
    if t.contains("://") || t.starts_with("about:") || t.starts_with("data:") {
        return Ok(t.to_string());
    }
    let p = std::path::Path::new(t);
    if p.exists() {
        let abs = std::fs::canonicalize(p).map_err(|e| Error::io("resolve", p, e))?;
        return url::Url::from_file_path(&abs)
            .map(String::from)
            .map_err(|_| Error::Usage(format!("cannot make a file URL of {}", abs.display())));
    }
    if t.contains(char::is_whitespace) {
        return Err(Error::Usage(format!("not a URL: {t:?}")));
    }
    Ok(format!("http://{t}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An `https:` endpoint goes through rustls: its crypto provider is the one built in
    /// (rustls panics at first use when none can be chosen) and the system's root
    /// certificates load. Against a port that answers plain HTTP, the handshake fails and
    /// the command gets an error, not a panic.
    #[test]
    fn https_endpoints_fail_cleanly_on_a_plain_port() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let port = listener.local_addr().unwrap().port();
            tokio::spawn(async move {
                use tokio::io::AsyncWriteExt;
                while let Ok((mut s, _)) = listener.accept().await {
                    let _ = s
                        .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
                        .await;
                }
            });
            let client = connect_existing(&format!("https://127.0.0.1:{port}/"), "s")
                .await
                .expect("a client for an https endpoint");
            let e = client.windows().await.expect_err("no TLS on that port");
            // the handshake read the plain answer as a TLS record (rustls: InvalidContentType)
            let text = format!("{e:?}");
            assert!(text.contains("InvalidContentType"), "{text}");
        });
    }

    #[test]
    fn urls_are_normalized() {
        assert_eq!(normalize_url("http://a.test/x").unwrap(), "http://a.test/x");
        assert_eq!(normalize_url("about:blank").unwrap(), "about:blank");
        assert_eq!(normalize_url("example.org").unwrap(), "http://example.org");
        assert!(normalize_url("Cargo.toml").unwrap().starts_with("file:///"));
        assert_eq!(normalize_url("  ").unwrap_err().exit_code(), 2);
        assert_eq!(normalize_url("a b").unwrap_err().exit_code(), 2);
    }
}
