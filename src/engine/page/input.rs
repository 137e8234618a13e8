//! Real input on the page channel (src/engine/page.rs): a gesture through the DevTools page
//! connection when it can go that way (cdp/mouse.rs, cdp/keys.rs say it as DevTools events),
//! else through BiDi `input.performActions`.
//!
//! Owns: which way input goes and what its failures say. Must not: say what a gesture is
//! (actions/input.rs builds it).

use super::Page;
use crate::engine::bidi;
use crate::error::{Error, Result};
use serde_json::Value;

impl Page {
    /// Real mouse input through the DevTools page connection, for a gesture that
    /// `cdp::mouse::mouse_events` can say as DevTools events ([`Page::input_direct`]).
    pub async fn mouse_direct(&self, actions: &[bidi::PointerAction]) -> Option<Result<()>> {
        if !self.direct_input() {
            return None;
        }
        let events = crate::engine::cdp::mouse::mouse_events(actions)?;
        let cmds = events
            .into_iter()
            .map(|e| ("Input.dispatchMouseEvent", e))
            .collect();
        self.input_direct(cmds, "mouse").await
    }

    /// Real key input through the DevTools page connection, for a gesture that
    /// `cdp::keys::key_events` can say as DevTools events ([`Page::input_direct`]).
    pub async fn keys_direct(&self, actions: &[bidi::KeyAction]) -> Option<Result<()>> {
        if !self.direct_input() {
            return None;
        }
        let cmds = crate::engine::cdp::keys::key_events(actions)?;
        self.input_direct(cmds, "key").await
    }

    /// Whether input may go through the DevTools page connection: DevTools allowed, the
    /// tab's top-level context current (a frame entered takes the driver's input there).
    fn direct_input(&self) -> bool {
        crate::engine::cdp::enabled() && self.at_top()
    }

    /// Sends input events through the DevTools page connection, in the tab's top-level
    /// context (keys go to the focused frame, the pointer through the whole tab, as with
    /// the driver): the events go out together and the browser handles them in turn, one
    /// round trip for the gesture (the driver's `input.performActions` waits for each
    /// event's answer, and a timer, before the next). Dialogs the input opens are answered
    /// as during any call. None when nothing was sent (no DevTools connection): the
    /// caller sends it through the driver.
    async fn input_direct(&self, cmds: Vec<(&str, Value)>, what: &str) -> Option<Result<()>> {
        use crate::engine::cdp::direct::Sent;
        let (addr, target) = self.direct_target()?;
        match self
            .answering_dialogs(self.direct.commands(addr, &target, &cmds))
            .await
        {
            Sent::Done => Some(Ok(())),
            Sent::Unreachable => None,
            Sent::Refused(m) => Some(Err(Error::Step(format!(
                "the browser refused the {what} input: {m}"
            )))),
            Sent::Lost => Some(Err(Error::Step(format!(
                "the connection to the tab was lost during the {what} input: whether it reached the page is unknown; take a snapshot to see"
            )))),
        }
    }

    /// Real input through BiDi `input.performActions` in the current context (the tab, or
    /// the innermost frame entered), with points in that context's viewport; the driver
    /// dispatches it from the browser, so no page script is involved (chromedriver's
    /// classic actions run helper scripts in the page's main world, which a page that
    /// replaced built-ins breaks). Every button and key pressed is released: by the
    /// sequence itself, or by `input.releaseActions` when it was cut part way.
    /// A dialog the input opens is answered by the `--dialog` policy. Err(None) without
    /// BiDi: the caller uses classic actions.
    pub async fn perform_input(
        &self,
        actions: Vec<bidi::SourceActions>,
    ) -> std::result::Result<(), Option<Error>> {
        let (Some(bidi), Some(context)) = (&self.bidi, self.context()) else {
            return Err(None);
        };
        let r = self
            .send_answering_dialogs(
                bidi,
                &bidi::PerformActions {
                    context: context.clone(),
                    actions,
                },
            )
            .await;
        // every sequence the actions build lets go of what it presses (a pointerUp for each
        // pointerDown, a keyUp for each keyDown), so a sequence that ran whole left nothing
        // pressed; one cut part way (an error, a dialog) may have: release it then
        if let Err(e) = r {
            let _ = self
                .send_answering_dialogs(bidi, &bidi::ReleaseActions { context })
                .await;
            return Err(Some(e));
        }
        Ok(())
    }
}
