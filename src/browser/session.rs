//! Named sessions on disk: a browser that outlives the command (docs/reference/cli.md#sessions).
//!
//! Owns: the session record (`sessions-v1/<name>.json`), where it lives, and its life
//! cycle (create, reattach, close). Must not: talk to pages (engine.rs does).

use super::launch::BrowserKind;
use crate::error::{Error, Result};
use crate::private::{home, make_dir};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One tab of a session: its alias and WebDriver window handle.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TabRecord {
    pub alias: String,
    pub handle: String,
    /// The engine build registered to run in this tab's new documents, and DevTools'
    /// identifier of that registration (see `engine::preload`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preload: Option<Preload>,
    /// The URL the last `goto` of this tab asked for and the URL it landed on: a page that
    /// is not the one asked for may be a wall (docs/reference/output.md#page-header).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<Asked>,
}

/// A navigation's asked-for URL and where it landed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Asked {
    pub url: String,
    pub landed: String,
}

/// An engine registered with DevTools' `Page.addScriptToEvaluateOnNewDocument`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Preload {
    pub hash: String,
    pub id: String,
}

/// What a session keeps on disk between commands.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SessionRecord {
    pub name: String,
    /// WebDriver endpoint.
    pub webdriver: String,
    pub session_id: String,
    /// The browser, as the driver's capabilities name it (`browserName`); records written
    /// before Firefox was supported are Chromium.
    #[serde(default)]
    pub browser: BrowserKind,
    /// Set when ariasnap started the driver (and so must stop it).
    pub driver_pid: Option<u32>,
    /// The private browser profile ariasnap made, removed on close.
    pub user_data_dir: Option<PathBuf>,
    pub tabs: Vec<TabRecord>,
    /// Alias of the current tab.
    pub current: String,
    pub next_tab: u32,
    /// Snapshot counter per tab alias: the n of `s<n>e<m>`.
    #[serde(default)]
    pub snapshots: BTreeMap<String, u64>,
    /// Unix time of creation.
    pub created: u64,
    /// Chromium's DevTools HTTP address (`goog:chromeOptions.debuggerAddress`), used to
    /// replace a tab whose page stopped answering without going through the driver, whose
    /// queue that page blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debugger: Option<String>,
    /// Alias of a tab whose last command ran out of time: the next command checks that its
    /// page still answers, and replaces the tab when it does not (docs/reference/faults.md#deadlines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspect: Option<String>,
    /// The script and page-load limits (ms) last given to the driver.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver_timeout_ms: Option<u64>,
    /// The session's WebDriver BiDi address (`webSocketUrl`), when the driver speaks BiDi:
    /// the engine then runs in its sandbox realm (docs/reference/browsers.md#the-page-channel-webdriver-bidi).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bidi: Option<String>,
    /// The engine build registered with BiDi's `script.addPreloadScript` for every
    /// document of the session, and the registrations' ids (engine, console hook),
    /// separated by a space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox_preload: Option<Preload>,
    /// Set once the session subscribed to dialog events, on browsers where a subscription
    /// serves every later connection (Firefox).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bidi_subscribed: bool,
    /// The engine's sandbox realm in the current tab's document as the last command found
    /// it: the next command calls it without asking the driver for it first (the realm of a
    /// document that has gone since is refused, and then asked for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_realm: Option<TopRealm>,
    /// The operator's policy, fixed when the session started (docs/reference/policy.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<crate::policy::Policy>,
    /// The session's watcher process (browser/watch), which records requests and console
    /// entries and holds requests for the policy and routes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard_pid: Option<u32>,
    /// The routes this session added (docs/reference/network.md#routes), in force while it
    /// lives.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<super::routes::Route>,
    /// The last request and console seq `network` and `console` listed (each lists what
    /// came after).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub network_seen: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub console_seen: u64,
    /// How many bytes of the guard's log of refused requests earlier commands reported.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub policy_reported: u64,
    /// Set on an agent of a shared browser (`ariasnap mcp --http`, browser/shared.rs): the
    /// session whose browser it shares and its user context there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared: Option<SharedIn>,
    /// Set on a session attached to a browser someone else started (`--attach ADDR`,
    /// browser/attach.rs): the address it was attached at. Its tabs are the session's own;
    /// closing it detaches and leaves the browser running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached: Option<String>,
}

/// Where an agent of a shared browser lives: the session that owns the browser (its driver,
/// profile and WebDriver session) and the BiDi user context that holds the agent's tabs,
/// cookies and storage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedIn {
    /// The owning session's name.
    pub owner: String,
    /// The agent's user context (`browser.createUserContext`).
    pub user_context: String,
    /// True when ariasnap started the owner's browser on this machine.
    pub local: bool,
}

impl SessionRecord {
    /// The current tab's record.
    pub fn current_tab(&self) -> Option<&TabRecord> {
        self.tabs.iter().find(|t| t.alias == self.current)
    }

    /// The window handle of the current tab ("" when the record has none).
    pub fn current_handle(&self) -> String {
        self.current_tab()
            .map(|t| t.handle.clone())
            .unwrap_or_default()
    }

    /// The agent's user context, for an agent of a shared browser.
    pub fn user_context(&self) -> Option<&str> {
        self.shared.as_ref().map(|s| s.user_context.as_str())
    }

    /// True when the browser runs on this machine, started by ariasnap (its download folder
    /// is ours to choose).
    pub fn local(&self) -> bool {
        // (a browser attached to is the user's: its settings are not ours to change)
        self.attached.is_none()
            && (self.driver_pid.is_some() || self.shared.as_ref().is_some_and(|s| s.local))
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A sandbox realm id and the browsing context (tab) whose document it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopRealm {
    pub context: String,
    pub realm: String,
}

/// The session's lock: held for the whole command (docs/reference/faults.md#one-command-at-a-time: one command at a time per
/// session). An advisory lock (`flock`) on `<name>.lock`, released by the kernel when the
/// process ends, however it ends; the file itself stays (removing it would let two
/// processes lock two different files).
#[derive(Debug)]
pub struct SessionLock {
    _file: std::fs::File,
}

/// Takes the lock of session `name`, waiting at most until `deadline`.
pub async fn lock(name: &str, deadline: std::time::Instant) -> Result<SessionLock> {
    use std::fs::TryLockError;
    validate_name(name)?;
    let p = sessions_dir()?.join(format!("{name}.lock"));
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&p)
            .map_err(|e| Error::io("open", &p, e))?
    };
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(SessionLock { _file: file }),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => return Err(Error::io("lock", &p, e)),
        }
        if std::time::Instant::now() >= deadline {
            return Err(Error::Busy {
                session: name.to_string(),
            });
        }
        tokio::time::sleep(std::time::Duration::from_millis(15)).await;
    }
}

/// The sessions directory (versioned layout), created private (0700).
pub fn sessions_dir() -> Result<PathBuf> {
    let d = home().join("sessions-v1");
    make_dir(&d)?;
    Ok(d)
}

/// Checks a session name: letters, digits, `-`, `_`, `.`, at most 64 characters.
pub fn validate_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.');
    if ok {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "invalid session name {name:?}: use letters, digits, '-', '_' or '.' (at most 64)"
        )))
    }
}

fn record_path(name: &str) -> Result<PathBuf> {
    validate_name(name)?;
    Ok(sessions_dir()?.join(format!("{name}.json")))
}

/// Reads the record of session `name`, if any.
pub fn load(name: &str) -> Result<Option<SessionRecord>> {
    let p = record_path(name)?;
    match std::fs::read_to_string(&p) {
        Ok(s) => match serde_json::from_str(&s) {
            Ok(r) => Ok(Some(r)),
            Err(e) => {
                tracing::warn!("ignoring unreadable session record {}: {e}", p.display());
                Ok(None)
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io("read", p, e)),
    }
}

/// Writes the record atomically (temp file + rename), mode 0600.
pub fn save(rec: &SessionRecord) -> Result<()> {
    use std::io::Write;
    let p = record_path(&rec.name)?;
    let dir = p
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir);
    let mut tmp = tempfile::NamedTempFile::new_in(&dir)
        .map_err(|e| Error::io("create temp file in", &dir, e))?;
    let body = serde_json::to_vec_pretty(rec).map_err(|source| Error::Json {
        what: "a session record",
        source,
    })?;
    tmp.write_all(&body)
        .map_err(|e| Error::io("write", tmp.path().to_path_buf(), e))?;
    tmp.persist(&p)
        .map_err(|e| Error::io("write", &p, e.error))?;
    Ok(())
}

/// Removes the record of session `name`.
pub fn remove(name: &str) -> Result<()> {
    let p = record_path(name)?;
    match std::fs::remove_file(&p) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io("remove", p, e)),
    }
}

/// Names of all recorded sessions.
pub fn list() -> Result<Vec<String>> {
    let d = sessions_dir()?;
    let mut out = Vec::new();
    for e in std::fs::read_dir(&d)
        .map_err(|e| Error::io("read", &d, e))?
        .flatten()
    {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "json")
            && let Some(stem) = p.file_stem().and_then(|s| s.to_str())
        {
            out.push(stem.to_string());
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_without_a_browser_are_chromium() {
        let old = r#"{"name": "a", "webdriver": "http://127.0.0.1:1", "session_id": "x",
            "driver_pid": null, "user_data_dir": null, "tabs": [], "current": "t1",
            "next_tab": 2, "created": 0}"#;
        let r: SessionRecord = serde_json::from_str(old).unwrap();
        assert_eq!(r.browser, BrowserKind::Chromium);
        let mut r2 = r.clone();
        r2.browser = BrowserKind::Firefox;
        let back: SessionRecord =
            serde_json::from_str(&serde_json::to_string(&r2).unwrap()).unwrap();
        assert_eq!(back.browser, BrowserKind::Firefox);
        assert!(
            serde_json::to_string(&r2)
                .unwrap()
                .contains(r#""browser":"firefox""#)
        );
    }

    #[test]
    fn session_names_are_checked() {
        assert!(validate_name("default").is_ok());
        assert!(validate_name("it-42.a_b").is_ok());
        for bad in ["", "../x", "a/b", ".hidden", "sp ace"] {
            let e = validate_name(bad).unwrap_err();
            assert!(e.to_string().contains("invalid session name"), "{e}");
            assert_eq!(e.exit_code(), 2);
        }
    }
}
