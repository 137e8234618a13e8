//! Tabs that stopped answering or crashed: a command that ran out of time marks its tab, the
//! next command checks it and replaces it with a blank one when its page no longer answers;
//! a crashed tab is replaced at once. On Chromium the new tab is made and the old one closed
//! through the browser's DevTools HTTP endpoint (devtools.rs), which a page in an endless
//! loop does not block; otherwise through the driver.
//!
//! Owns: the record's `suspect` mark and the notes a replaced tab leaves. Must not: restart
//! the browser (open.rs does, for Firefox) or probe the page other than through `engine`.

use super::session;
use super::{Browser, devtools, launch};
use crate::error::{Error, Result};

impl Browser {
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
                crate::engine::answers(&self.page),
            )
            .await
            {
                Ok(Ok(())) => {
                    alive = true;
                    break;
                }
                Ok(Err(e)) if e.is_dialog() => {
                    self.page.answer_open().await;
                }
                _ => break,
            }
        }
        if !alive {
            if self.record.browser == launch::BrowserKind::Firefox && !self.page.isolated() {
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
        // (DevTools' /json/new opens tabs in the default user context: an agent of a shared
        // browser opens its own through the driver)
        let by_devtools = match self
            .record
            .debugger
            .as_ref()
            .filter(|_| self.record.shared.is_none())
        {
            Some(addr) => devtools::new_tab(addr).await.ok(),
            None => None,
        };
        let handle = match by_devtools {
            Some(h) => h,
            None => self.page.new_tab().await?,
        };
        self.page.switch_to_window(&handle).await?;
        if let Some(old) = old {
            let closed = match &self.record.debugger {
                Some(addr) => devtools::close_tab(addr, &old).await.is_ok(),
                None => false,
            };
            if !closed {
                if self.page.switch_to_window(&old).await.is_ok() {
                    let _ = self.page.close_window().await;
                }
                self.page.switch_to_window(&handle).await?;
            }
        }
        for t in &mut self.record.tabs {
            if t.alias == alias {
                t.handle = handle.clone();
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
}
