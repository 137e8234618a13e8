//! Classic WebDriver commands of a page, typed: history, windows and tabs, the viewport,
//! screenshots, cookies, user prompts, actions, timeouts and element commands. Nothing
//! outside `engine/` holds the WebDriver client; every call into the browser is one of these
//! methods or an engine call (`engine.rs`).
//!
//! Owns: the mapping of WebDriver errors to `crate::Error`, and keeping the page channel's
//! context stack right across window and frame switches. Must not: decide what a step does
//! with the answer.

use super::page::Page;
use crate::error::Result;
use fantoccini::actions::{KeyActions, MouseActions};
use fantoccini::cookies::Cookie;
use fantoccini::elements::Element;
use fantoccini::wd::{TimeoutConfiguration, WindowHandle};
use std::time::Duration;

impl Page {
    /// Reload (WebDriver Refresh).
    pub async fn refresh(&self) -> Result<()> {
        Ok(self.client().refresh().await?)
    }

    /// History back.
    pub async fn back(&self) -> Result<()> {
        Ok(self.client().back().await?)
    }

    /// History forward.
    pub async fn forward(&self) -> Result<()> {
        Ok(self.client().forward().await?)
    }

    /// Navigate the current tab and wait for the load WebDriver waits for.
    pub async fn navigate(&self, url: &str) -> Result<()> {
        Ok(self.client().goto(url).await?)
    }

    /// The current tab's URL.
    pub async fn current_url(&self) -> Result<url::Url> {
        Ok(self.client().current_url().await?)
    }

    /// The current tab's title.
    pub async fn title(&self) -> Result<String> {
        Ok(self.client().title().await?)
    }

    /// Resize the window (outer size, CSS pixels).
    pub async fn set_window_size(&self, width: u32, height: u32) -> Result<()> {
        Ok(self.client().set_window_size(width, height).await?)
    }

    /// A PNG of the viewport.
    pub async fn screenshot(&self) -> Result<Vec<u8>> {
        Ok(self.client().screenshot().await?)
    }

    /// A PNG of one element (by its WebDriver element id, in the current context).
    pub async fn element_screenshot(&self, id: &str) -> Result<Vec<u8>> {
        Ok(self.element(id).screenshot().await?)
    }

    /// Types text into an element by its WebDriver element id (a file input takes paths).
    pub async fn send_keys_to(&self, id: &str, text: &str) -> Result<()> {
        Ok(self.element(id).send_keys(text).await?)
    }

    /// Switches into the iframe element `id` of the current context, followed by engine
    /// calls.
    pub async fn enter_frame_element(&self, id: &str) -> Result<()> {
        self.entering_frame(id).await?;
        if let Err(e) = self.element(id).enter_frame().await {
            self.left_frame();
            return Err(e.into());
        }
        Ok(())
    }

    /// The cookies the current document sees.
    pub async fn cookies(&self) -> Result<Vec<Cookie<'static>>> {
        Ok(self.client().get_all_cookies().await?)
    }

    /// Adds a cookie for the current document.
    pub async fn add_cookie(&self, cookie: Cookie<'static>) -> Result<()> {
        Ok(self.client().add_cookie(cookie).await?)
    }

    /// Deletes every cookie the current document sees.
    pub async fn delete_all_cookies(&self) -> Result<()> {
        Ok(self.client().delete_all_cookies().await?)
    }

    /// Opens a new tab (not switched to) and returns its handle.
    pub async fn new_tab(&self) -> Result<WindowHandle> {
        Ok(self.client().new_window(true).await?.handle)
    }

    /// Closes the current tab.
    pub async fn close_window(&self) -> Result<()> {
        Ok(self.client().close_window().await?)
    }

    /// The handles of every open tab.
    pub async fn windows(&self) -> Result<Vec<WindowHandle>> {
        Ok(self.client().windows().await?)
    }

    /// The driver's own limits: script and page-load timeouts, no implicit wait.
    pub async fn set_timeouts(&self, limit: Duration) -> Result<()> {
        let t = TimeoutConfiguration::new(Some(limit), Some(limit), Some(Duration::from_secs(0)));
        Ok(self.client().update_timeouts(t).await?)
    }

    /// Mouse input through classic WebDriver actions, released after.
    pub async fn perform_mouse(&self, actions: MouseActions) -> Result<()> {
        let r = self.client().perform_actions(actions).await;
        let _ = self.client().release_actions().await;
        Ok(r?)
    }

    /// Key input through classic WebDriver actions, released after.
    pub async fn perform_keys(&self, actions: KeyActions) -> Result<()> {
        let r = self.client().perform_actions(actions).await;
        let _ = self.client().release_actions().await;
        Ok(r?)
    }

    /// The text of the open user prompt (alert, confirm, prompt), if one is open.
    pub async fn prompt_text(&self) -> Option<String> {
        self.client().get_alert_text().await.ok()
    }

    /// Answers the open user prompt: OK (`accept`) or Cancel.
    pub async fn answer_prompt(&self, accept: bool) -> Result<()> {
        if accept {
            Ok(self.client().accept_alert().await?)
        } else {
            Ok(self.client().dismiss_alert().await?)
        }
    }

    /// Answers every user prompt open in the current tab by the `--dialog` policy (at most
    /// 10 in a row: a page that opens a new one from each answer is stopped there) and logs
    /// them for the step's result (`crate::dialogs`). Returns how many.
    pub async fn answer_open(&self) -> usize {
        let mut n = 0;
        for _ in 0..10 {
            let Some(text) = self.prompt_text().await else {
                break;
            };
            let accept = crate::dialogs::policy() == crate::dialogs::Policy::Accept;
            if self.answer_prompt(accept).await.is_err() {
                break;
            }
            crate::dialogs::log(&text);
            n += 1;
        }
        n
    }

    fn element(&self, id: &str) -> Element {
        Element::from_element_id(self.client().clone(), id.to_string().into())
    }
}
