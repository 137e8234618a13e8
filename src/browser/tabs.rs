//! The session's tabs: aliases (t1, t2...) kept in the session record for window handles,
//! making one current, opening, adopting (windows the page opened), closing and listing
//! them, and the current tab's URL and title.
//!
//! Owns: the record's tab list and current alias. Must not: switch windows other than
//! through the page channel's typed commands (`engine::Page`), which keep its context stack
//! right.

use super::Browser;
use super::session::{self, TabRecord};
use crate::error::{Error, Result};

impl Browser {
    /// The current tab's alias.
    pub fn tab(&self) -> &str {
        &self.record.current
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
            self.page.switch_to_window(&tab.handle).await?;
            self.record.current = tab.alias.clone();
            session::save(&self.record)?;
        }
        Ok(())
    }

    /// Opens a new tab, makes it current and returns its alias.
    pub async fn new_tab(&mut self) -> Result<String> {
        let w = self.page.new_tab().await?;
        self.page.switch_to_window(&w).await?;
        let alias = format!("t{}", self.record.next_tab);
        self.record.next_tab += 1;
        self.record.tabs.push(TabRecord {
            alias: alias.clone(),
            handle: w,
            preload: None,
            asked: None,
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
            asked: None,
        });
        session::save(&self.record)?;
        Ok(alias)
    }

    /// The windows open in the browser (their handles), or empty when the driver cannot say.
    pub async fn window_handles(&self) -> Vec<String> {
        self.page.windows().await.unwrap_or_default()
    }

    /// The URL of top-level context `handle` without switching to it (BiDi), or "".
    pub async fn url_of_window(&self, handle: &str) -> String {
        let Some(bidi) = self.page.bidi() else {
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
        self.page.close_window().await?;
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
        self.page.switch_to_window(&handle).await?;
        self.record.current = next.clone();
        session::save(&self.record)?;
        Ok(next)
    }

    /// Tabs with their URLs and titles (the current tab stays current).
    pub async fn list_tabs(&mut self) -> Result<serde_json::Value> {
        let current = self.record.current.clone();
        let live: Vec<String> = self.page.windows().await?;
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
        match self.page.current_url().await {
            Ok(u) => u.to_string(),
            // the driver answers with a script, which a hostile page can break
            Err(_) => crate::engine::history_entry(&self.page)
                .await
                .map(|e| e.0)
                .unwrap_or_default(),
        }
    }

    /// The current tab's title ("" when none can be read).
    pub async fn title(&self) -> String {
        match self.page.title().await {
            Ok(t) => t,
            Err(_) => crate::engine::history_entry(&self.page)
                .await
                .map(|e| e.1)
                .unwrap_or_default(),
        }
    }
}
