//! Classic WebDriver commands of a page, typed: history, windows and tabs, the viewport,
//! screenshots, cookies, user prompts, actions, timeouts and element commands. Nothing
//! outside `engine/` holds the WebDriver client; every call into the browser is one of these
//! methods or an engine call (`engine.rs`). Window handles cross as strings, input as the
//! BiDi action types (classic actions are built from them here), cookies as [`Cookie`].
//!
//! Owns: the mapping of WebDriver errors to `crate::Error` (through `errors`), and keeping
//! the page channel's context stack right across window and frame switches. Must not:
//! decide what a step does with the answer.

use super::bidi::{KeyAction, PointerAction};
use super::page::Page;
use crate::error::{Error, Result};
use fantoccini::actions::{KeyActions, MouseActions};
use fantoccini::elements::Element;
use fantoccini::wd::{TimeoutConfiguration, WindowHandle};
use std::time::Duration;

/// WebDriver's key codes (the private-use characters of the spec's keyboard table), for
/// BiDi and classic key input alike: `char::from(Key::Enter)`.
pub use fantoccini::key::Key;

/// A cookie the current document sees, as `cookies` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cookie {
    pub name: String,
    pub value: String,
    pub domain: Option<String>,
    pub path: Option<String>,
}

impl Page {
    /// Reload (WebDriver Refresh).
    pub async fn refresh(&self) -> Result<()> {
        Ok(self.client().await?.refresh().await?)
    }

    /// History back.
    pub async fn back(&self) -> Result<()> {
        Ok(self.client().await?.back().await?)
    }

    /// History forward.
    pub async fn forward(&self) -> Result<()> {
        Ok(self.client().await?.forward().await?)
    }

    /// Navigate the current tab and wait for the load WebDriver waits for. An agent of a
    /// shared browser navigates its tab by BiDi (`browsingContext.navigate`, waiting for
    /// `complete`, its dialogs answered meanwhile): classic Navigate To would hold the
    /// driver's command queue, which every agent of the browser shares, for the whole load.
    pub async fn navigate(&self, url: &str) -> Result<()> {
        if let (Some(tab), Some(bidi)) = (self.own_tab(), self.bidi()) {
            let go = super::bidi::Navigate {
                context: tab,
                url: url.to_string(),
                wait: Some(super::bidi::Readiness::Complete),
            };
            return self.answering_dialogs(bidi.send(&go)).await.map(|_| ());
        }
        Ok(self.client().await?.goto(url).await?)
    }

    /// The current tab's URL (an agent of a shared browser reads its tab's by BiDi, without
    /// the window turn).
    pub async fn current_url(&self) -> Result<url::Url> {
        if let (Some(tab), Some(bidi)) = (self.own_tab(), self.bidi()) {
            let get = super::bidi::GetTree {
                max_depth: Some(0),
                root: Some(tab),
            };
            let tree = bidi.send(&get).await?;
            if let Some(u) = tree
                .contexts
                .first()
                .and_then(|c| url::Url::parse(&c.url).ok())
            {
                return Ok(u);
            }
        }
        Ok(self.client().await?.current_url().await?)
    }

    /// The current tab's title. An agent of a shared browser at its tab's top-level document
    /// reads `document.title` in the engine's sandbox (what Get Title reads, and which the
    /// page's own scripts cannot redefine there), without the window turn.
    pub async fn title(&self) -> Result<String> {
        if self.own_tab().is_some() && self.at_top() {
            let read = self
                .call_sandbox("function(){ return document.title; }", vec![], None)
                .await;
            if let Some(t) = read.ok().and_then(|v| v.into_string()) {
                return Ok(t);
            }
        }
        Ok(self.client().await?.title().await?)
    }

    /// Resize the window (outer size, CSS pixels).
    pub async fn set_window_size(&self, width: u32, height: u32) -> Result<()> {
        Ok(self.client().await?.set_window_size(width, height).await?)
    }

    /// A PNG of the viewport.
    pub async fn screenshot(&self) -> Result<Vec<u8>> {
        Ok(self.client().await?.screenshot().await?)
    }

    /// A PNG of one element (by its WebDriver element id, in the current context).
    pub async fn element_screenshot(&self, id: &str) -> Result<Vec<u8>> {
        let (e, _turn) = self.element(id).await?;
        Ok(e.screenshot().await?)
    }

    /// Types text into an element by its WebDriver element id (a file input takes paths).
    pub async fn send_keys_to(&self, id: &str, text: &str) -> Result<()> {
        let (e, _turn) = self.element(id).await?;
        Ok(e.send_keys(text).await?)
    }

    /// Switches into the iframe element `id` of the current context, followed by engine
    /// calls.
    pub async fn enter_frame_element(&self, id: &str) -> Result<()> {
        self.entering_frame(id).await?;
        let (el, _turn) = match self.element(id).await {
            Ok(e) => e,
            Err(e) => {
                self.left_frame();
                return Err(e);
            }
        };
        if let Err(e) = el.enter_frame().await {
            self.left_frame();
            return Err(e.into());
        }
        Ok(())
    }

    /// The cookies the current document sees.
    pub async fn cookies(&self) -> Result<Vec<Cookie>> {
        let all = self.client().await?.get_all_cookies().await?;
        Ok(all
            .iter()
            .map(|k| Cookie {
                name: k.name().to_string(),
                value: k.value().to_string(),
                domain: k.domain().map(str::to_string),
                path: k.path().map(str::to_string),
            })
            .collect())
    }

    /// Deletes every cookie the current document sees.
    pub async fn delete_all_cookies(&self) -> Result<()> {
        Ok(self.client().await?.delete_all_cookies().await?)
    }

    /// Opens a new tab (not switched to) and returns its handle. An agent of a shared
    /// browser opens it in its own user context (BiDi `browsingContext.create`: classic New
    /// Window would open it in the default one, beside other agents' cookies).
    pub async fn new_tab(&self) -> Result<String> {
        if let (Some(uc), Some(bidi)) = (self.user_context(), self.bidi()) {
            let create = super::bidi::CreateContext::background_tab().within(Some(uc));
            return Ok(bidi.send(&create).await?.context);
        }
        Ok(String::from(
            self.client().await?.new_window(true).await?.handle,
        ))
    }

    /// Closes the current tab.
    pub async fn close_window(&self) -> Result<()> {
        let c = self.client().await?;
        c.close_window().await?;
        // (the session has no current window now: the next command switches first)
        c.window_now("");
        Ok(())
    }

    /// The handles of every open tab; for an agent of a shared browser, of the tabs of its
    /// user context only (BiDi's top-level contexts: the same ids as window handles).
    pub async fn windows(&self) -> Result<Vec<String>> {
        if let (Some(uc), Some(bidi)) = (self.user_context(), self.bidi()) {
            let get = super::bidi::GetTree {
                max_depth: Some(0),
                root: None,
            };
            let tree = bidi.send(&get).await?;
            return Ok(tree
                .contexts
                .into_iter()
                .filter(|c| c.user_context.as_deref() == Some(uc))
                .map(|c| c.context)
                .collect());
        }
        let all = self.client().await?.windows().await?;
        Ok(all.into_iter().map(String::from).collect())
    }

    /// Classic Switch To Window (tab `handle`), followed by engine calls.
    pub async fn switch_to_window(&self, handle: &str) -> Result<()> {
        let h = WindowHandle::try_from(handle.to_string())
            .map_err(|_| Error::Browser("bad window handle".into()))?;
        let c = self.client().await?;
        c.switch_to_window(h).await?;
        c.window_now(handle);
        drop(c);
        self.switched_to_tab(handle);
        Ok(())
    }

    /// The driver's own limits: script and page-load timeouts, no implicit wait.
    pub async fn set_timeouts(&self, limit: Duration) -> Result<()> {
        let t = TimeoutConfiguration::new(Some(limit), Some(limit), Some(Duration::from_secs(0)));
        Ok(self.client().await?.update_timeouts(t).await?)
    }

    /// A mouse's actions through classic WebDriver actions, released after (a driver
    /// without BiDi: [`Page::perform_input`] comes first).
    pub async fn perform_mouse(&self, actions: &[PointerAction]) -> Result<()> {
        let c = self.client().await?;
        let r = c.perform_actions(classic_mouse(actions)).await;
        let _ = c.release_actions().await;
        Ok(r?)
    }

    /// A keyboard's actions through classic WebDriver actions, released after.
    pub async fn perform_keys(&self, actions: &[KeyAction]) -> Result<()> {
        let c = self.client().await?;
        let r = c.perform_actions(classic_keys(actions)).await;
        let _ = c.release_actions().await;
        Ok(r?)
    }

    /// The text of the open user prompt (alert, confirm, prompt), if one is open.
    pub async fn prompt_text(&self) -> Option<String> {
        self.client().await.ok()?.get_alert_text().await.ok()
    }

    /// Answers the open user prompt: OK (`accept`) or Cancel.
    pub async fn answer_prompt(&self, accept: bool) -> Result<()> {
        if accept {
            Ok(self.client().await?.accept_alert().await?)
        } else {
            Ok(self.client().await?.dismiss_alert().await?)
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

    /// Element `id` of the current context, with the window turn held while it is used.
    async fn element(&self, id: &str) -> Result<(Element, super::page::Classic<'_>)> {
        let c = self.client().await?;
        Ok((
            Element::from_element_id((*c).clone(), id.to_string().into()),
            c,
        ))
    }
}

/// The classic WebDriver form of a mouse's actions.
fn classic_mouse(actions: &[PointerAction]) -> MouseActions {
    use fantoccini::actions::{InputSource, PointerAction as P};
    let mut m = MouseActions::new("mouse".into());
    for a in actions {
        m = m.then(match a {
            PointerAction::PointerMove { x, y, duration, .. } => P::MoveTo {
                duration: duration.map(Duration::from_millis),
                x: *x,
                y: *y,
            },
            PointerAction::PointerDown { button } => P::Down {
                button: u64::from(*button),
            },
            PointerAction::PointerUp { button } => P::Up {
                button: u64::from(*button),
            },
            PointerAction::Pause { duration } => P::Pause {
                duration: Duration::from_millis(duration.unwrap_or(0)),
            },
        });
    }
    m
}

/// The classic WebDriver form of a keyboard's actions.
fn classic_keys(actions: &[KeyAction]) -> KeyActions {
    use fantoccini::actions::{InputSource, KeyAction as K};
    let first = |v: &str| v.chars().next().unwrap_or('\u{E000}');
    let mut k = KeyActions::new("keyboard".into());
    for a in actions {
        k = k.then(match a {
            KeyAction::KeyDown { value } => K::Down {
                value: first(value),
            },
            KeyAction::KeyUp { value } => K::Up {
                value: first(value),
            },
            KeyAction::Pause { duration } => K::Pause {
                duration: Duration::from_millis(duration.unwrap_or(0)),
            },
        });
    }
    k
}
