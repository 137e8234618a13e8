//! Opening a session for one command: its lock taken, its record read, the browser attached
//! to (or started, or restarted when a page holds Firefox's driver), and its page channel
//! (BiDi, DevTools, classic WebDriver) opened; and ending a session.
//!
//! Owns: the order of those steps within the command's deadline, what a dead or closed
//! session leaves behind (cleanup), the note of a session without BiDi, and `--state`: a
//! saved state restored by the command that starts a session (a note on a running one). Must not: make
//! WebDriver sessions or their client itself (`engine::Connection` does), or choose
//! capabilities and processes (launch.rs does).

use super::session::{self, SessionRecord, TabRecord};
use super::{Browser, BrowserOptions, launch};
use crate::engine::Connection;
use crate::error::{Error, Result};
use tracing::{Instrument, debug, info_span};

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Attaches to a kept session. A cheap command proves it alive while the page channel's
/// connections open beside it, not before them (start to an open channel 0.3-0.4 ms
/// sooner on every command); when it is not alive, they are dropped.
async fn attach(rec: &SessionRecord) -> Result<(Connection, Channels)> {
    let connection = Connection::attach(&rec.webdriver, &rec.session_id).await?;
    let (alive, channels) = tokio::join!(connection.alive(), Channels::open(rec));
    alive?;
    Ok((connection, channels))
}

/// What attaching to a session, or starting one, gives: the WebDriver connection, the
/// session's record, a note for the reply (a browser restarted), and the page channel's
/// connections when attaching opened them already.
type Attached = (Connection, SessionRecord, Option<String>, Option<Channels>);

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
        let Some(url) = rec.bidi.as_ref().filter(|_| super::bidi_wanted()) else {
            return Channels {
                bidi: None,
                devtools: None,
                direct: Default::default(),
            };
        };
        let devtools = rec.debugger.clone().filter(|_| devtools_direct_wanted());
        let chromium = rec.browser == launch::BrowserKind::Chromium;
        let top = rec.current_handle();
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

/// Cleans up what a dead or closed session left (see [`cleanup_blocking`]), on the blocking
/// pool: ending processes waits for them.
async fn cleanup(rec: &SessionRecord) {
    let rec = rec.clone();
    let _ = tokio::task::spawn_blocking(move || cleanup_blocking(&rec)).await;
}

/// Cleans up what a dead or closed session left: browser processes of its profile, the
/// driver's process group, the profile directory and the record.
fn cleanup_blocking(rec: &SessionRecord) {
    end_processes(rec);
    forget(rec);
}

/// Ends a session's processes (the driver's process group, the guard, the browser
/// processes of its profile) and removes its profile directory. Blocks while they end.
fn end_processes(rec: &SessionRecord) {
    if let Some(pid) = rec.driver_pid {
        launch::kill_group(pid);
    }
    super::watch::stop(rec);
    if let Some(dir) = &rec.user_data_dir {
        launch::kill_matching(&launch::profile_needle(rec.browser, dir));
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Removes what a session keeps under its name: its record, logs, policy log and downloads
/// folder (a new session of that name may start at once).
fn forget(rec: &SessionRecord) {
    if let Ok(dir) = session::sessions_dir() {
        let _ = std::fs::remove_file(dir.join(format!("{}.driver.log", rec.name)));
        let _ = std::fs::remove_file(dir.join(format!("{}.guard.log", rec.name)));
        let _ = std::fs::remove_file(dir.join(format!("{}.policy.jsonl", rec.name)));
        let _ = std::fs::remove_dir_all(dir.join(format!("{}.downloads", rec.name)));
    }
    let _ = session::remove(&rec.name);
}

/// The hidden command that ends a closed session's processes behind `session close`
/// (docs/reference/cli.md#sessions).
pub const REAPER: &str = "session-reaper";

/// Ends, behind the command that closed it, the processes of a session whose record is
/// gone already: a process of its own (in its own process group, so that the closing
/// command's end does not reach it) runs [`reap`] with the record, passed on its standard
/// input. False when it could not be started (the caller ends them itself).
fn reap_behind(rec: &SessionRecord) -> bool {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let Ok(exe) = std::env::current_exe() else {
        return false;
    };
    let Ok(json) = serde_json::to_vec(rec) else {
        return false;
    };
    let mut cmd = Command::new(exe);
    cmd.arg(REAPER)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    let Ok(mut child) = cmd.spawn() else {
        return false;
    };
    let sent = child
        .stdin
        .take()
        .is_some_and(|mut i| i.write_all(&json).is_ok());
    // the reaper lives on alone; the kernel's init adopts it when this process ends
    std::mem::forget(child);
    sent
}

/// The reaper's work: the record of a closed session on standard input; its WebDriver
/// session ended (on a remote endpoint, politely; a local driver and browser are ended
/// with their process group), its processes and profile gone.
pub async fn reap() -> Result<()> {
    use tokio::io::AsyncReadExt;
    let mut json = Vec::new();
    tokio::io::stdin()
        .read_to_end(&mut json)
        .await
        .map_err(|e| Error::Usage(format!("{REAPER}: reading the record: {e}")))?;
    let rec: SessionRecord = serde_json::from_slice(&json)
        .map_err(|e| Error::Usage(format!("{REAPER}: not a session record: {e}")))?;
    if rec.driver_pid.is_none() {
        Connection::end(
            &rec.webdriver,
            &rec.session_id,
            std::time::Duration::from_secs(10),
        )
        .await;
    }
    let _ = tokio::task::spawn_blocking(move || end_processes(&rec)).await;
    Ok(())
}

/// The page channel of a session: BiDi when its driver gave a `webSocketUrl` (a new
/// connection per command costs a few ms: 2-4 ms measured on both drivers), classic
/// WebDriver otherwise, with a note saying the engine then runs in the page's realm.
async fn page_channel(
    connection: Connection,
    rec: &mut SessionRecord,
    deadline: std::time::Duration,
    channels: Option<Channels>,
) -> (crate::engine::Page, Option<String>) {
    use crate::engine::Page;
    let top = rec.current_handle();
    // opened already when the session was attached (attach), else now
    let channels = match channels {
        Some(c) => c,
        None => Channels::open(rec).await,
    };
    let Some(connected) = channels.bidi else {
        // an attached Chromium runs without BiDi by choice (browser/attach.rs)
        let note = if rec.attached.is_some() {
            NO_BIDI_ATTACHED
        } else {
            NO_BIDI
        };
        return (Page::classic(connection), Some(note.into()));
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
            if once
                && !rec.bidi_subscribed
                && crate::engine::subscribe(&b, rec.user_context()).await
            {
                rec.bidi_subscribed = true;
                if let Err(e) = session::save(rec) {
                    debug!(error = %e, "session record not saved");
                }
            }
            let mut page = Page::with_bidi(connection, b, &top)
                .with_devtools(devtools)
                .with_direct(direct)
                .in_user_context(rec.user_context().map(str::to_string));
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
            (Page::classic(connection), Some(NO_BIDI.into()))
        }
    }
}

/// False when `ARIASNAP_DEVTOOLS_DIRECT=0` asks engine calls to go through the driver's
/// DevTools passthrough (`goog/cdp/execute`) instead of a connection of their own to the
/// tab's page target (for comparing the two).
fn devtools_direct_wanted() -> bool {
    std::env::var("ARIASNAP_DEVTOOLS_DIRECT").map_or(true, |v| v != "0")
}

/// A Chromium behind `--webdriver` cannot have the guard (engine/hold.rs: chromedriver's BiDi
/// answers held requests only after the command that waits on them, and a remote Chromium's
/// DevTools socket is not ours to reach).
fn remote_chromium_policy(name: &str) -> Error {
    Error::Usage(format!(
        "session {name:?}: this policy needs a Chromium that ariasnap starts (its DevTools socket holds the page's requests); with --webdriver, use --browser firefox, or give only --deny eval, uploads or passwordSet"
    ))
}

/// The note of a session without WebDriver BiDi (docs/reference/browsers.md#without-bidi).
const NO_BIDI: &str = "no WebDriver BiDi on this driver: the engine runs in the page's own realm, where page scripts can reach it";

/// The note of a Chromium attached to (docs/reference/browsers.md#your-own-browser): its
/// driver would move one of the user's tabs to start BiDi, so the session does without.
const NO_BIDI_ATTACHED: &str = "no WebDriver BiDi in a Chromium attached to (starting it would move one of your tabs): the engine runs in the page's own realm, where page scripts can reach it";

impl Browser {
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
        if started
            && opts.webdriver.is_some()
            && opts.kind().0 == launch::BrowserKind::Chromium
            && opts.policy.as_ref().is_some_and(super::guard::needed)
        {
            return Err(remote_chromium_policy(name));
        }
        // --state: read before a browser starts, so that a bad file costs none
        let state = match opts.state.as_deref().filter(|_| started) {
            Some(p) => Some((p, super::logins::read_file(p)?)),
            None => None,
        };
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
                let client = client.taking_turns(opts.window_turn.clone());
                let mut b = Browser {
                    page: client,
                    record,
                    notes: restarted.into_iter().collect(),
                    timeout: deadline,
                    started,
                    downloads_ready: Default::default(),
                    _lock: lock,
                };
                b.notes.extend(bidi_note);
                b.apply_policy(opts.policy.as_ref(), deadline).await?;
                b.unlock_secrets()?;
                b.driver_timeouts(deadline).await?;
                b.check_suspect().await?;
                if b.page.isolated() && b.record.browser == launch::BrowserKind::Firefox {
                    // Firefox runs sandbox calls while a dialog is open, so none fails on a
                    // dialog the page left open: answer it now, by the --dialog policy
                    // (Chromium's calls wait on it and answer it then; its driver's alert
                    // commands would wait on a page stuck in a loop)
                    b.page.answer_open().await;
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
        let mut b = match opened {
            Ok(r) => r?,
            Err(_) => {
                return Err(Error::Timeout(format!(
                    "session {name:?} did not answer within {} ms (its browser may be busy with a page that stopped answering; the next command replaces that tab)",
                    deadline.as_millis()
                )));
            }
        };
        b.apply_state_option(opts, state).await?;
        Ok(b)
    }

    /// `--state FILE` (docs/guide.md#saved-logins): restored by the command that started the
    /// session (`state`: the file read), before any page loads, with a note saying so; on a
    /// session that was running, a note says it was not applied and what to do instead.
    async fn apply_state_option(
        &mut self,
        opts: &BrowserOptions,
        state: Option<(&std::path::Path, super::logins::StorageState)>,
    ) -> Result<()> {
        let name = self.record.name.clone();
        match (state, &opts.state) {
            (Some((path, state)), _) => {
                let shown = path.display().to_string();
                let done = self.restore_state(&state, self.timeout).await.map_err(|e| {
                    Error::Step(format!(
                        "--state {shown}: {} (session {name:?} was started without it: `ariasnap state load {shown}` tries again)",
                        crate::error::one_line(&e.to_string())
                    ))
                })?;
                self.notes
                    .push(format!("--state: {}", done.sentence(&shown)));
                if !done.skipped.is_empty() {
                    self.notes
                        .push(format!("--state: left out {}", done.skipped.join(", ")));
                }
            }
            (None, Some(path)) => {
                let shown = path.display().to_string();
                self.notes.push(format!(
                    "--state {shown} was not applied: session {name:?} was already running, and a saved state is restored only by the command that starts a session; `ariasnap state load {shown}` restores it into this session (or `ariasnap session close {name}` and start it again with --state)"
                ));
            }
            (None, None) => {}
        }
        Ok(())
    }

    /// The session's connection and record, a note when the browser had to be restarted (see
    /// [`Browser::unblock_firefox`]), and the page channel's connections when attaching
    /// opened them. kept: the session's record as the command found it (None: a new session).
    async fn attach_or_start(
        name: &str,
        opts: &BrowserOptions,
        kept: Option<SessionRecord>,
    ) -> Result<Attached> {
        let mut kind = None;
        if let Some(rec) = kept.as_ref().filter(|r| r.shared.is_some()) {
            // an agent of a shared browser never starts one of its own (browser/shared.rs)
            return match attach(rec).await {
                Ok((client, channels)) => {
                    crate::engine::allow_devtools(rec.browser.has_devtools());
                    Ok((client, rec.clone(), None, Some(channels)))
                }
                Err(e) => Err(super::shared::browser_lost(
                    name,
                    &crate::error::one_line(&e.to_string()),
                )),
            };
        }
        if let Some(rec) = &kept {
            super::attach::check_kept(name, opts, rec)?;
        }
        if let Some((rec, addr)) = kept
            .as_ref()
            .and_then(|r| r.attached.clone().map(|a| (r, a)))
        {
            // the user's browser: never replaced by one of ariasnap's (browser/attach.rs)
            return match attach(rec).await {
                Ok((client, channels)) => {
                    crate::engine::allow_devtools(rec.browser.has_devtools());
                    Ok((client, rec.clone(), None, Some(channels)))
                }
                Err(e) => {
                    cleanup(rec).await;
                    Err(super::attach::lost(
                        name,
                        &addr,
                        &crate::error::one_line(&e.to_string()),
                    ))
                }
            };
        }
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

    /// Fixes the policy of a session this command started, or checks that a running session
    /// was started with the policy this command was given (a policy cannot be changed while
    /// a session runs: no command loosens it); then makes sure the guard that holds the
    /// page's requests runs (docs/reference/policy.md#how-requests-are-held).
    async fn apply_policy(
        &mut self,
        given: Option<&crate::policy::Policy>,
        deadline: std::time::Duration,
    ) -> Result<()> {
        let name = self.record.name.clone();
        if self.started {
            if let Some(p) = given {
                self.record.policy = Some(p.clone());
                // refusals are counted from the session's start
                if let Ok(log) = super::guard::log_path(&name) {
                    let _ = std::fs::remove_file(log);
                }
                session::save(&self.record)?;
            }
        } else if let Some(p) = given
            && self.record.policy.as_ref() != Some(p)
        {
            let now = match &self.record.policy {
                Some(k) => format!("runs under another policy ({})", k.summary()),
                None => "was started without a policy".to_string(),
            };
            return Err(Error::Usage(format!(
                "session {name:?} {now}: a policy is fixed when a session starts; end it with `ariasnap session close {name}` and start it again with this policy"
            )));
        }
        if let Some(p) = self.record.policy.clone()
            && super::guard::needed(&p)
            && self.record.shared.is_none()
        {
            if self.record.bidi.is_none() {
                return Err(Error::Browser(format!(
                    "session {name:?} has a policy but its driver has no WebDriver BiDi, which the policy needs to hold the page's requests: use a driver with BiDi (chromedriver, geckodriver) or start the session without a policy"
                )));
            }
            if self.record.browser == launch::BrowserKind::Chromium
                && self.record.debugger.is_none()
            {
                // engine/hold.rs: chromedriver's BiDi would answer held requests only after
                // the command that waits on them, and a remote Chromium's DevTools socket is
                // not ours
                return Err(remote_chromium_policy(&name));
            }
        }
        self.ensure_watcher(deadline).await
    }

    /// Makes sure the session's watcher runs (browser/watch: it records the page's requests
    /// and console entries between commands, and holds requests for the policy and
    /// routes); a watcher found dead is started again, with a note saying what it missed.
    async fn ensure_watcher(&mut self, deadline: std::time::Duration) -> Result<()> {
        if !super::watch::wanted(&self.record) {
            self.recall_typed().await;
            return Ok(());
        }
        if super::watch::running(&self.record) {
            self.recall_typed().await;
            return Ok(());
        }
        let name = self.record.name.clone();
        let had = self.record.guard_pid.is_some();
        let pid = super::watch::start(&self.record, deadline).await?;
        self.record.guard_pid = Some(pid);
        session::save(&self.record)?;
        if had {
            self.notes.push(format!(
                "the watcher of session {name:?} had stopped and was started again: the requests and console messages in between were not recorded"
            ));
        }
        Ok(())
    }

    /// Gives the driver this script and page-load limit (once per change: the record keeps
    /// the last one), so the driver itself never waits on a page longer than a step may.
    pub async fn driver_timeouts(&mut self, limit: std::time::Duration) -> Result<()> {
        let ms = limit.as_millis() as u64;
        if self.record.driver_timeout_ms == Some(ms) {
            return Ok(());
        }
        self.page.set_timeouts(limit).await?;
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

    /// Starts a browser for session `name`: of the kind `--browser` names, else of `kind`
    /// (a session started afresh keeps its browser), else Chromium.
    async fn start(
        name: &str,
        opts: &BrowserOptions,
        kept: Option<launch::BrowserKind>,
    ) -> Result<(Connection, SessionRecord)> {
        if let Some(addr) = &opts.attach {
            return super::attach::start(name, opts, addr).await;
        }
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
                let mut caps = match kind {
                    launch::BrowserKind::Chromium => {
                        launch::chrome_capabilities(&browser, &profile)
                    }
                    launch::BrowserKind::Firefox => {
                        launch::firefox_capabilities(&browser, &profile)
                    }
                };
                if opts.policy.as_ref().is_some_and(|p| p.confines_origins()) {
                    launch::quiet_predictions(&mut caps);
                }
                (d.url, Some(d.pid), Some(profile), caps)
            }
        };
        let connection = match Connection::create(&webdriver, caps).await {
            Ok(c) => c,
            Err(e) => {
                if let Some(pid) = driver_pid {
                    let _ = tokio::task::spawn_blocking(move || launch::kill_group(pid)).await;
                }
                if let Some(d) = &user_data_dir {
                    let _ = std::fs::remove_dir_all(d);
                }
                return Err(match &opts.webdriver {
                    Some(url) => e.at_endpoint(url, kind.name()),
                    None => e.into(),
                });
            }
        };
        let new = connection.started().await?;
        // docs/reference/browsers.md#chromium-and-firefox: the kind is what the driver says it started (a grid may differ)
        let browser = new
            .browser_name
            .as_deref()
            .map(launch::BrowserKind::of_browser_name)
            .unwrap_or(kind);
        crate::engine::allow_devtools(browser.has_devtools());
        let debugger = new
            .devtools
            .filter(|_| opts.webdriver.is_none() && browser.has_devtools());
        let rec = SessionRecord {
            name: name.to_string(),
            webdriver,
            session_id: new.session_id,
            browser,
            driver_pid,
            user_data_dir,
            tabs: vec![TabRecord {
                alias: "t1".into(),
                handle: new.window,
                preload: None,
                asked: None,
            }],
            current: "t1".into(),
            next_tab: 2,
            snapshots: Default::default(),
            created: now_secs(),
            debugger,
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
            attached: None,
        };
        session::save(&rec)?;
        Ok((connection, rec))
    }

    /// Ends session `name`: the browser, the driver, the profile and the record. Returns
    /// false when there was no such session.
    pub async fn close_session(name: &str, deadline: std::time::Duration) -> Result<bool> {
        let _lock = session::lock(name, std::time::Instant::now() + deadline).await?;
        let Some(rec) = session::load(name)? else {
            return Ok(false);
        };
        if rec.shared.is_some() {
            super::shared::end_agent(&rec).await;
            return Ok(true);
        }
        if rec.attached.is_some() {
            // the user's browser and tabs stay (browser/attach.rs)
            super::attach::detach(&rec).await;
            forget(&rec);
            return Ok(true);
        }
        // docs/reference/cli.md#sessions: the session is gone for the next command at once;
        // its browser and driver are ended behind this command
        forget(&rec);
        if !reap_behind(&rec) {
            if rec.driver_pid.is_none_or(launch::alive) {
                let limit = std::time::Duration::from_secs(10);
                Connection::end(&rec.webdriver, &rec.session_id, limit).await;
            }
            cleanup(&rec).await;
        }
        Ok(true)
    }
}
