//! Loading pages in the current tab: navigation (through DevTools when the driver's own
//! script breaks on a page), dialogs met while loading, the first rendered frames, the
//! page's start-up timers, the engine's preload, and where downloads go.
//!
//! Owns: when a load counts as done (docs/reference/faults.md#deadlines). Must not: run a
//! page script or a DevTools command itself (`engine` does).

use super::session;
use super::{Browser, normalize_url};
use crate::error::Result;
use tracing::debug;

impl Browser {
    /// Navigates the current tab and waits for the load event and the first rendered frames
    /// (style and layout done, as a user would see the page), at most 10 s for the latter.
    pub async fn goto(&mut self, url: &str) -> Result<()> {
        let url = normalize_url(url)?;
        // docs/reference/policy.md: refused here with the rule's words (the guard would
        // refuse the request too, leaving the browser's error page)
        self.policy_check_url("goto", &url)?;
        self.ensure_preload().await;
        match self.page.navigate(&url).await {
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
        self.note_asked(&url).await;
        Ok(())
    }

    /// Keeps the URL a navigation asked for, with where it landed, on the current tab's
    /// record: a sign-in form the tab landed on from another URL is a wall, one it was
    /// sent to is the page (docs/reference/output.md#page-header).
    async fn note_asked(&mut self, url: &str) {
        let landed = self.url().await;
        let current = self.record.current.clone();
        if let Some(t) = self.record.tabs.iter_mut().find(|t| t.alias == current) {
            t.asked = Some(session::Asked {
                url: url.to_string(),
                landed,
            });
            if let Err(e) = session::save(&self.record) {
                debug!(error = %e, "session record not saved after a navigation");
            }
        }
    }

    /// The URL the current tab's last navigation asked for, when it landed on `url` (the
    /// document shown now, fragment aside).
    pub fn asked_for(&self, url: &str) -> Option<String> {
        let plain = |u: &str| u.split('#').next().unwrap_or(u).to_string();
        let t = self.record.current_tab()?;
        let a = t.asked.as_ref()?;
        (plain(&a.landed) == plain(url)).then(|| a.url.clone())
    }

    /// Waits for the timers the page set while starting that are due within a second (a
    /// widget shown half a second after load, a banner: `engine::startup_timers`), so that
    /// what the page does to finish its start is in the loaded page, not in the reply to the
    /// first action after it (docs/reference/replies.md#changes: changes are the page's changes). The callbacks run
    /// when due; the caller's settling sees what they changed.
    async fn started_up(&self) {
        const HORIZON_MS: u64 = 1000;
        if let Some(ms) = crate::engine::startup_timers(&self.page, HORIZON_MS).await {
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
        if self.page.isolated() {
            // docs/reference/browsers.md#the-page-channel-webdriver-bidi: one registration serves every document and frame of the session, in
            // the engine's sandbox realm
            let key = crate::engine::preload_key();
            let old: Vec<String> = match &self.record.sandbox_preload {
                Some(p) if p.hash == key => return,
                Some(p) => p.id.split(' ').map(str::to_string).collect(),
                None => Vec::new(),
            };
            if let Some(ids) = crate::engine::preload_sandbox(&self.page, &old).await {
                self.record.sandbox_preload = Some(session::Preload {
                    hash: key,
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
        if let Some(id) = crate::engine::preload(&self.page, old.as_deref()).await {
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
        let before = document_state(&self.page).await;
        let origin_of = |s: &str| s.split(' ').nth(1).unwrap_or("").to_string();
        if !navigate(&self.page, url).await {
            return false;
        }
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_secs(30) {
            let now = document_state(&self.page).await;
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
            self.page.answer_open().await;
            match crate::engine::ready_state(&self.page).await {
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
        use crate::engine::{Paint, call};
        use crate::wire::PaintReply;
        let start = std::time::Instant::now();
        let first: Result<PaintReply> = call(&self.page, Paint::Start).await;
        let Ok(PaintReply { done: false, token }) = first else {
            return;
        };
        let poll = Paint::Poll {
            token: token.unwrap_or(0),
        };
        while start.elapsed() < std::time::Duration::from_secs(1) {
            tokio::time::sleep(std::time::Duration::from_millis(8)).await;
            let r: Result<PaintReply> = call(&self.page, poll).await;
            if !matches!(r, Ok(PaintReply { done: false, .. })) {
                return;
            }
        }
    }

    /// Makes the browser save downloads into the session's private folder (0700, beside its
    /// record), where the effects of an action find them (docs/reference/replies.md#effects), once per command. Only
    /// for a browser ariasnap started: a remote one's folders are on another machine, and it
    /// keeps its own setting. False when downloads cannot be followed (no BiDi, or a driver
    /// without `browser.setDownloadBehavior`).
    pub async fn prepare_downloads(&self) -> bool {
        use std::sync::atomic::Ordering;
        let Some(bidi) = self.page.bidi() else {
            return false;
        };
        if self.downloads_ready.load(Ordering::Relaxed) || !self.record.local() {
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
        // docs/reference/policy.md#actions-off: the operator turned downloads off
        let off = !self
            .policy()
            .is_none_or(|p| p.allows(crate::policy::Switch::Downloads));
        let set = crate::engine::bidi::SetDownloadBehavior {
            download_behavior: Some(if off {
                crate::engine::bidi::DownloadBehavior::Denied
            } else {
                crate::engine::bidi::DownloadBehavior::Allowed {
                    destination_folder: dir.display().to_string(),
                }
            }),
            // an agent of a shared browser: its own folder, for its own user context
            user_contexts: self.record.user_context().map(|u| vec![u.to_string()]),
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
}
