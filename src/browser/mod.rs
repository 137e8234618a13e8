//! The browser: a named session attached to (or started) for one command, its tabs, and
//! loading pages in them.
//!
//! Owns: the session record one command works on and its lock, through [`Browser`]: opening
//! and ending sessions (`open`), tabs (`tabs`), loading pages (`load`), hung and crashed tabs
//! (`recovery`, with Chromium's DevTools HTTP endpoint in `devtools`), processes and
//! capabilities (`launch`), records and locks (`session`), saved logins (`state`), the
//! session's watcher process that records requests and console entries and holds requests
//! for the policy (`guard`) and routes (`watch`). Must
//! not: name the WebDriver client (`engine::Connection` makes sessions, `engine::Page`
//! carries their commands), interpret pages (engine.rs and snapshot/ do), or run a page
//! script or a DevTools command itself (`engine` does: navigation by DevTools, paint
//! polling, preload, history, the storage of saved logins).

pub mod attach;
pub mod devtools;
pub mod guard;
pub mod launch;
mod load;
mod open;
/// The turns of the agents of one shared browser on its WebDriver session's current window
/// (mcp/fleet.rs holds one per browser).
pub use crate::engine::WindowTurn;
pub use open::{REAPER, reap};
pub mod logins;
mod recovery;
pub mod routes;
pub mod session;
pub mod shared;
mod tabs;
pub mod watch;

use crate::error::{Error, Result};
use session::SessionRecord;
use std::path::PathBuf;
use tracing::debug;

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
    /// The operator's policy this command was given (docs/reference/policy.md): a session
    /// started with it keeps it; a running session must have been started with the same.
    pub policy: Option<crate::policy::Policy>,
    /// `--state FILE`: a saved state restored by the command that starts the session
    /// (docs/guide.md#saved-logins); a running session gets a note instead.
    pub state: Option<PathBuf>,
    /// For an agent of a shared browser (`mcp --http`): the current window of the
    /// WebDriver session it shares, which its classic commands take turns on.
    pub window_turn: Option<crate::engine::WindowTurn>,
    /// `--attach ADDR`: the session starts in a tab of its own in a browser the user started
    /// (a Chromium's remote debugging address, a Firefox's Marionette address), instead of
    /// starting one (docs/reference/browsers.md#your-own-browser).
    pub attach: Option<String>,
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
    pub page: crate::engine::Page,
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

impl Browser {
    /// The session whose watcher serves this one (an agent of a shared browser: its
    /// owner's), when the session has WebDriver BiDi.
    fn watcher_name(&self) -> Option<String> {
        self.record.bidi.as_ref()?;
        Some(match &self.record.shared {
            Some(s) => s.owner.clone(),
            None => self.record.name.clone(),
        })
    }

    /// Remembers `value`, which an action is about to type into a password field, so that
    /// nothing this process or the session's next commands print or write shows it
    /// (docs/reference/policy.md#typed-passwords): this process masks it at once, and the
    /// session's watcher keeps it in memory for the commands after. It is never written to
    /// disk: a file holding it would be one more place it leaks from.
    pub async fn remember_typed(&self, value: &str) {
        if !crate::vault::remember_typed(value) {
            return;
        }
        if let Some(name) = self.watcher_name() {
            watch::remember(&name, &self.record.name, value).await;
        }
    }

    /// Masks the passwords typed in the session's earlier commands, which its watcher keeps
    /// (asked only when one was typed: other commands pay nothing).
    pub(crate) async fn recall_typed(&self) {
        if let Some(name) = self.watcher_name() {
            watch::recall(&name, &self.record.name).await;
        }
    }

    /// The session's policy (docs/reference/policy.md), when it has one.
    pub fn policy(&self) -> Option<&crate::policy::Policy> {
        self.record.policy.as_ref()
    }

    /// Reads the values of the session's secrets from their sources, for typing by name
    /// and for masking in everything this process writes (docs/reference/policy.md#secrets).
    pub fn unlock_secrets(&self) -> Result<()> {
        match self.policy() {
            Some(p) => p.unlock_secrets(),
            None => Ok(()),
        }
    }

    /// Refuses what the session's policy turns off.
    pub fn policy_check(&self, s: crate::policy::Switch, what: &str) -> Result<()> {
        match self.policy() {
            Some(p) => p.check(s, what),
            None => Ok(()),
        }
    }

    /// Refuses a URL the session's policy does not let it reach (`what`: the verb).
    pub fn policy_check_url(&self, what: &str, url: &str) -> Result<()> {
        match self.policy() {
            Some(p) => p.check_url(what, url),
            None => Ok(()),
        }
    }

    /// The page requests the policy refused (the watcher's log) since the last report (each reported
    /// once: the record keeps how far its log was read).
    pub fn policy_refusals(&mut self) -> Vec<guard::Refused> {
        if self.record.policy.is_none() {
            return Vec::new();
        }
        let (found, upto) = guard::refusals_since(&self.record.name, self.record.policy_reported);
        if upto != self.record.policy_reported {
            self.record.policy_reported = upto;
            if let Err(e) = session::save(&self.record) {
                debug!(error = %e, "session record not saved");
            }
        }
        found
    }

    /// Keeps the sandbox realm of the current tab's document that this command used in the
    /// session record, for the next command (written only when it changed). A kept realm
    /// this command found gone and could not learn again (no DevTools
    /// connection: the call went through BiDi) is dropped from the record, so that the next
    /// command does not try it first again.
    pub fn remember_realm(&mut self) {
        let known = self
            .page
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

/// False when `ARIASNAP_BIDI=0` asks for classic WebDriver only (what a driver without
/// BiDi gives: the engine in the page's realm).
pub(crate) fn bidi_wanted() -> bool {
    std::env::var("ARIASNAP_BIDI").map_or(true, |v| v != "0")
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
