//! The page channel: where engine calls go (docs/reference/browsers.md#the-page-channel-webdriver-bidi). With WebDriver BiDi, every call runs in
//! the sandbox realm `ariasnap` of a browsing context (`script.callFunction`), which page
//! scripts can neither see nor change; the tab's top-level document and every frame
//! WebDriver has switched into are addressed by their BiDi context ids, kept here as a
//! stack that follows the classic frame switches. Without BiDi (an old grid), calls go
//! through classic Execute Script in the page's own realm, and snapshots say so.
//!
//! Owns: the BiDi connection of this process, the context stack, the sandbox realm ids
//! (Chromium's DevTools reach a sandbox by them: `Runtime.evaluate` with `uniqueContextId`,
//! the speed-up for large replies), the conversion of script arguments and results between
//! classic WebDriver's JSON (`{"element-6066-…": id}`) and BiDi's values (shared ids; in
//! page/values.rs), and the read-only main-world mirror of the ref map. Must not: know the
//! engine's methods (`engine.rs` does) or decide what a reply means.

use super::bidi::{
    self, Bidi, CallFunction, Event, LocalValue, RemoteValue, ResultOwnership, ScriptResult,
    SerializationOptions, Target,
};
use super::session::Connection;
use crate::error::{Error, Result};
use fantoccini::Client;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tracing::debug;
use values::{json_of, local_of};

mod input;
mod values;
pub(super) use values::SHADOW_KEY;

/// A DevTools connection to a page target, opened on first use (or ahead).
pub use super::cdp::direct::Slot as DevtoolsSlot;

/// How long an engine call waits before checking whether a dialog holds it.
const DIALOG_PROBE: std::time::Duration = std::time::Duration::from_millis(400);

/// The sandbox realm the engine lives in, in every document.
pub const SANDBOX: &str = "ariasnap";

/// Where engine calls go for one command: the WebDriver client (from a [`Connection`]) and,
/// when the driver speaks BiDi, the connection and the browsing context WebDriver is in.
/// Classic commands are its typed methods (classic.rs); the client itself never leaves
/// `engine/`.
pub struct Page {
    client: Client,
    bidi: Option<Arc<Bidi>>,
    /// BiDi context of the tab's top-level document.
    top: Mutex<Option<String>>,
    /// BiDi contexts of the frames WebDriver switched into, innermost last.
    frames: Mutex<Vec<String>>,
    /// Sandbox realm ids by context.
    realms: Mutex<HashMap<String, String>>,
    /// The connection's events since it opened (dialogs that open between calls: Firefox
    /// runs sandbox calls while a dialog is open, so no call fails on it).
    events: tokio::sync::Mutex<Option<bidi::Events>>,
    /// Chromium's DevTools HTTP address, for a browser ariasnap launched on this machine:
    /// engine calls in the tab's top-level document then go straight to its page target.
    devtools: Option<String>,
    /// The DevTools connection to the tab's page target, opened on first use.
    direct: super::cdp::direct::Slot,
    /// True while the connection still has to subscribe to the events actions follow (see
    /// [`Page::subscribe_when_needed`]).
    subscription: tokio::sync::Mutex<bool>,
    /// The BiDi user context of an agent of a shared browser (`ariasnap mcp --http`): its
    /// subscriptions, preloads, new tabs, cookies and downloads stay inside it.
    user_context: Option<String>,
    /// The current window of a WebDriver session agents share (see [`WindowTurn`]), and
    /// this page's hold on it: how many of its classic commands run, and the lock.
    turn: Option<WindowTurn>,
    held: Mutex<TurnHold>,
    /// When the tab's document last answered a call in its main world (the work hook's), so
    /// that a step right after it need not probe the page again.
    answered: Mutex<Option<std::time::Instant>>,
}

/// The current window of a WebDriver session shared by the agents of `mcp --http` (one
/// per browser): the window handle classic commands go to now, locked by the agent whose
/// classic command runs. A WebDriver session has one current window (and frame), so an
/// agent's classic command switches to its own tab first when another agent's moved it;
/// its BiDi and DevTools calls name their browsing context and need no turn.
pub type WindowTurn = Arc<tokio::sync::Mutex<String>>;

/// A page's hold on its session's [`WindowTurn`].
#[derive(Default)]
struct TurnHold {
    /// Its classic commands running now ([`Classic`] guards alive).
    commands: usize,
    lock: Option<tokio::sync::OwnedMutexGuard<String>>,
}

/// The classic WebDriver client for one command (or a few in a row): with the session's
/// window turn held, when agents share the session, and the window switched to this
/// page's tab. Kept while a frame is entered (the session's current frame is this page's
/// until it leaves it, or its call ends: [`Page::end_turn`]).
pub(super) struct Classic<'a> {
    page: &'a Page,
}

impl std::ops::Deref for Classic<'_> {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.page.client
    }
}

impl Classic<'_> {
    /// The session's current window is now `handle` ("" when it was closed).
    pub(super) fn window_now(&self, handle: &str) {
        if let Some(l) = lock(&self.page.held).lock.as_mut() {
            **l = handle.to_string();
        }
    }
}

impl Drop for Classic<'_> {
    fn drop(&mut self) {
        if self.page.turn.is_none() {
            return;
        }
        let mut h = lock(&self.page.held);
        h.commands = h.commands.saturating_sub(1);
        if h.commands == 0 && lock(&self.page.frames).is_empty() {
            h.lock = None;
        }
    }
}

impl std::fmt::Debug for Page {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Page")
            .field("bidi", &self.bidi.is_some())
            .field("top", &self.top)
            .finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Page {
    /// Calls through classic WebDriver only (the engine in the page's realm).
    pub fn classic(connection: Connection) -> Page {
        Page {
            client: connection.into_client(),
            bidi: None,
            top: Mutex::new(None),
            frames: Mutex::new(Vec::new()),
            realms: Mutex::new(HashMap::new()),
            events: tokio::sync::Mutex::new(None),
            devtools: None,
            direct: Default::default(),
            subscription: Default::default(),
            user_context: None,
            turn: None,
            held: Default::default(),
            answered: Mutex::new(None),
        }
    }

    /// Notes that the tab's top-level document just answered a call.
    pub(super) fn note_answered(&self) {
        *lock(&self.answered) = Some(std::time::Instant::now());
    }

    /// The tab's top-level document answered a call within `d`.
    pub(super) fn answered_within(&self, d: std::time::Duration) -> bool {
        lock(&self.answered).is_some_and(|t| t.elapsed() <= d)
    }

    /// Takes turns with other agents on the session's current window (`ariasnap mcp
    /// --http`, see [`WindowTurn`]).
    pub fn taking_turns(mut self, turn: Option<WindowTurn>) -> Page {
        self.turn = turn;
        self
    }

    /// The tab's BiDi context, for an agent taking turns on a shared session's window
    /// (None otherwise): its navigation and URL go through BiDi by that id.
    pub(super) fn own_tab(&self) -> Option<String> {
        self.turn.as_ref()?;
        self.bidi.as_ref()?;
        lock(&self.top).clone()
    }

    /// The end of an agent's call: its hold on the window turn released. A frame it was
    /// still in is forgotten, and the session's window marked unknown, so that the next
    /// classic command of any agent switches (which leaves the frame) first.
    pub fn end_turn(&self) {
        let in_frame = !lock(&self.frames).is_empty();
        lock(&self.frames).clear();
        let mut h = lock(&self.held);
        if in_frame && let Some(l) = h.lock.as_mut() {
            l.clear();
        }
        *h = TurnHold::default();
    }

    /// Keeps this command inside user context `uc` (an agent of a shared browser).
    pub fn in_user_context(mut self, uc: Option<String>) -> Page {
        self.user_context = uc;
        self
    }

    /// The user context this command stays in, for an agent of a shared browser.
    pub fn user_context(&self) -> Option<&str> {
        self.user_context.as_deref()
    }

    /// The connection subscribes to the events actions follow (dialogs, downloads,
    /// navigations) only when an action is about to run ([`Page::events_ready`]): a command
    /// that only reads the page makes no subscription. On Chromium a subscription reaches
    /// only the connection that made it, so each command would make one: a round trip
    /// through chromedriver's BiDi mapper while the command runs (a `mixed-1000` snapshot
    /// process, `perf stat -r 30`, three alternating pairs: 1.3-2.2 ms less without it). A
    /// dialog that holds an engine call is still found by the call's own probe.
    pub fn subscribe_when_needed(self) -> Page {
        Page {
            subscription: tokio::sync::Mutex::new(true),
            ..self
        }
    }

    /// Subscribes the connection to the events actions follow, if it has not yet (see
    /// [`Page::subscribe_when_needed`]).
    pub async fn events_ready(&self) {
        let mut pending = self.subscription.lock().await;
        if std::mem::take(&mut *pending)
            && let Some(b) = &self.bidi
        {
            subscribe(b, self.user_context()).await;
        }
    }

    /// The sandbox realm of the tab's top-level document as this command knows it:
    /// (context, realm), for the session record ([`Page::know_top_realm`] next time).
    pub fn top_realm_known(&self) -> Option<(String, String)> {
        let top = lock(&self.top).clone()?;
        let realm = lock(&self.realms).get(&top).cloned()?;
        Some((top, realm))
    }

    /// Takes the top-level document's sandbox realm from an earlier command (saves a
    /// `script.getRealms` round trip). A realm whose document has gone since is found out by
    /// the first call to it, and asked for again ([`Page::forget_realm`]).
    pub fn know_top_realm(&self, context: &str, realm: &str) {
        if lock(&self.top).as_deref() == Some(context) {
            lock(&self.realms).insert(context.to_string(), realm.to_string());
        }
    }

    /// Engine calls in the tab's top-level document go through DevTools address `addr`
    /// (`goog:chromeOptions.debuggerAddress` of a Chromium ariasnap launched) when given.
    pub fn with_devtools(mut self, addr: Option<String>) -> Page {
        self.devtools = addr;
        self
    }

    /// Opens the DevTools connection to page target `top` at DevTools address `addr` (when
    /// DevTools may be used), for [`Page::with_direct`]: a caller opens it alongside the
    /// BiDi connection, both being round trips.
    pub async fn devtools_ahead(addr: Option<&str>, top: &str) -> DevtoolsSlot {
        let slot = DevtoolsSlot::default();
        if let Some(addr) = addr
            && super::cdp::enabled()
            && !top.is_empty()
        {
            slot.open(addr, top).await;
        }
        slot
    }

    /// The DevTools connection opened by [`Page::devtools_ahead`].
    pub fn with_direct(mut self, direct: DevtoolsSlot) -> Page {
        self.direct = direct;
        self
    }

    /// Calls through BiDi `bidi`, starting in the tab whose context (window handle) is `top`.
    pub fn with_bidi(connection: Connection, bidi: Arc<Bidi>, top: &str) -> Page {
        let p = Page::classic(connection);
        Page {
            events: tokio::sync::Mutex::new(Some(bidi.events())),
            bidi: Some(bidi),
            top: Mutex::new(Some(top.to_string())),
            ..p
        }
    }

    /// The classic WebDriver client: engine/ only (classic.rs types its commands). When
    /// agents share the session, it waits for the window turn and switches the session to
    /// this page's tab when another agent's command moved it.
    pub(super) async fn client(&self) -> Result<Classic<'_>> {
        let Some(turn) = &self.turn else {
            return Ok(Classic { page: self });
        };
        {
            let mut h = lock(&self.held);
            if h.lock.is_some() {
                h.commands += 1;
                return Ok(Classic { page: self });
            }
        }
        let mut l = turn.clone().lock_owned().await;
        let top = lock(&self.top).clone().unwrap_or_default();
        debug!(switch = *l != top, "window turn taken");
        if *l != top && !top.is_empty() {
            let w = fantoccini::wd::WindowHandle::try_from(top.clone())
                .map_err(|_| Error::Browser("bad window handle".into()))?;
            self.client.switch_to_window(w).await?;
            *l = top;
        }
        let mut h = lock(&self.held);
        if h.lock.is_none() {
            h.lock = Some(l);
        }
        h.commands += 1;
        Ok(Classic { page: self })
    }

    /// The BiDi connection, when the session has one.
    pub fn bidi(&self) -> Option<&Bidi> {
        self.bidi.as_deref()
    }

    /// True when the engine runs in its sandbox realm (BiDi), false when in the page's realm.
    pub fn isolated(&self) -> bool {
        self.bidi.is_some()
    }

    /// WebDriver switched to the tab whose window handle (its BiDi context) is `handle`.
    pub fn switched_to_tab(&self, handle: &str) {
        *lock(&self.top) = Some(handle.to_string());
        lock(&self.frames).clear();
    }

    /// The BiDi context engine calls go to now (the innermost frame entered, else the tab).
    pub fn context(&self) -> Option<String> {
        self.bidi.as_ref()?;
        if let Some(f) = lock(&self.frames).last() {
            return Some(f.clone());
        }
        lock(&self.top).clone()
    }

    /// True when no frame is entered (calls go to the tab's top-level document).
    pub fn at_top(&self) -> bool {
        lock(&self.frames).is_empty()
    }

    /// Before classic WebDriver switches into the frame of iframe element `id` (an element
    /// of the current context): learns the frame's BiDi context from the sandbox, where the
    /// iframe's `contentWindow` serializes as its context id (cross-origin ones too).
    pub async fn entering_frame(&self, id: &str) -> Result<()> {
        if self.bidi.is_none() {
            return Ok(());
        }
        let v = self
            .call_sandbox(
                "function(el){ return el ? el.contentWindow : null; }",
                vec![LocalValue::shared(id)],
                None,
            )
            .await?;
        match v {
            RemoteValue::Window(w) => {
                lock(&self.frames).push(w.value.context);
                Ok(())
            }
            _ => Err(Error::Engine(
                "the frame has no browsing context (it is gone)".into(),
            )),
        }
    }

    /// Classic WebDriver did not enter the frame [`Page::entering_frame`] prepared for.
    pub fn left_frame(&self) {
        lock(&self.frames).pop();
    }

    /// Classic Switch To Parent Frame, followed by engine calls.
    pub async fn enter_parent_frame(&self) -> Result<()> {
        self.client().await?.enter_parent_frame().await?;
        lock(&self.frames).pop();
        Ok(())
    }

    /// Classic Switch To Frame by index (`window.frames[i]`), followed by engine calls.
    pub async fn enter_frame(&self, index: u16) -> Result<()> {
        if self.bidi.is_some() {
            let v = self
                .call_sandbox(
                    "function(i){ return window.frames[i] || null; }",
                    vec![LocalValue::Number(f64::from(index))],
                    None,
                )
                .await?;
            let RemoteValue::Window(w) = v else {
                return Err(Error::Usage(format!("this document has no frame {index}")));
            };
            let c = self.client().await?;
            c.enter_frame(index).await?;
            lock(&self.frames).push(w.value.context);
            return Ok(());
        }
        self.client().await?.enter_frame(index).await?;
        Ok(())
    }

    /// Runs script `body` (a function body reading `arguments`, as for Execute Script) in
    /// the engine's realm of the current context, with classic-style JSON arguments and
    /// result (element and shadow root references as WebDriver writes them).
    pub async fn execute(&self, body: &str, args: Vec<Value>) -> Result<Value> {
        if self.bidi.is_none() {
            return Ok(self.client().await?.execute(body, args).await?);
        }
        let f = format!("function(){{{body}\n}}");
        let args = args.iter().map(local_of).collect();
        let v = self.call_sandbox(&f, args, None).await?;
        Ok(json_of(v))
    }

    /// `script.callFunction` of `function` in the sandbox of the current context; results'
    /// nodes are serialized as shared ids only, or with `serialization` when given. A page
    /// dialog that opens meanwhile is answered by the `--dialog` policy while the call waits.
    pub(super) async fn call_sandbox(
        &self,
        function: &str,
        args: Vec<LocalValue>,
        serialization: Option<SerializationOptions>,
    ) -> Result<RemoteValue> {
        let (bidi, ctx) = match (&self.bidi, self.context()) {
            (Some(b), Some(c)) => (b, c),
            _ => return Err(Error::Engine("no WebDriver BiDi channel".into())),
        };
        let mut call = CallFunction::new(function, Target::sandbox(&ctx, SANDBOX), args);
        call.await_promise = false;
        call.result_ownership = Some(ResultOwnership::None);
        call.serialization_options = Some(serialization.unwrap_or(SerializationOptions {
            max_dom_depth: Some(0),
            max_object_depth: None,
            include_shadow_tree: None,
        }));
        let r = self.send_answering_dialogs(bidi, &call).await?;
        match r {
            ScriptResult::Success { result, realm } => {
                lock(&self.realms).insert(ctx, realm);
                Ok(result)
            }
            other => other.into_value(),
        }
    }

    /// Sends `cmd`, answering page dialogs that open before its reply (a dialog holds a
    /// script call until it is answered).
    async fn send_answering_dialogs<C: bidi::Command>(
        &self,
        bidi: &Bidi,
        call: &C,
    ) -> Result<C::Reply> {
        self.answering_dialogs(bidi.send(call)).await
    }

    /// Readies the channel an engine call in the tab's document takes (the sandbox's realm
    /// id, the DevTools connection), so that a caller can have it done alongside its other
    /// calls before the engine call.
    pub async fn ready_top_call(&self) {
        if !super::cdp::enabled() || !self.at_top() {
            return;
        }
        // the realm id and the connection are independent round trips: both at once
        let open = async {
            if let Some((addr, target)) = self.direct_target() {
                self.direct.open(addr, &target).await;
            }
        };
        tokio::join!(self.top_realm(), open);
    }

    /// The DevTools address and the tab's page target, when direct calls may go there.
    pub fn devtools_target(&self) -> Option<(String, String)> {
        self.direct_target().map(|(a, t)| (a.to_string(), t))
    }

    /// The DevTools address and page target a direct call goes to, when it may go there.
    fn direct_target(&self) -> Option<(&str, String)> {
        let target = lock(&self.top).clone()?;
        let addr = self.devtools.as_deref()?;
        // the driver is the session's life line: once its BiDi socket closed (the driver
        // died), calls go its way again, so that a dead driver is reported as one rather
        // than the browser behind it serving on
        self.bidi
            .as_ref()
            .is_some_and(|b| b.is_open())
            .then_some((addr, target))
    }

    /// Evaluates `expr` in the main world of the tab's top-level document straight through
    /// its DevTools page target; None when that path is closed (no DevTools address, a
    /// frame entered) or the page threw.
    pub(super) async fn evaluate_main_direct(&self, expr: &str) -> Option<Value> {
        if !super::cdp::enabled() || !self.at_top() {
            return None;
        }
        let (addr, target) = self.direct_target()?;
        match self
            .answering_dialogs(self.direct.evaluate_main(addr, &target, expr))
            .await
        {
            super::cdp::direct::Evaluation::Answered(v) => v,
            _ => None,
        }
    }

    /// Engine call `expr` in sandbox realm `realm` of the tab's top-level document straight
    /// through its DevTools page target, answering dialogs as BiDi calls do; Unreachable
    /// when the session has no DevTools address or no connection could be made.
    pub(super) async fn evaluate_direct(
        &self,
        expr: &str,
        realm: &str,
    ) -> super::cdp::direct::Evaluation {
        use super::cdp::direct::Evaluation;
        let Some((addr, target)) = self.direct_target() else {
            return Evaluation::Unreachable;
        };
        self.answering_dialogs(self.direct.evaluate_in(addr, &target, expr, realm))
            .await
    }

    /// Runs `work` (a call into the page), answering page dialogs that open before it ends.
    pub(super) async fn answering_dialogs<T>(
        &self,
        work: impl std::future::Future<Output = T>,
    ) -> T {
        let mut guard = self.events.lock().await;
        let Some(events) = guard.as_mut() else {
            return work.await;
        };
        // a dialog that opened since the last call (during a click, a navigation) is
        // answered first: the page behind it is what the call is about
        if events
            .drain()
            .iter()
            .any(|e| matches!(e, Event::UserPromptOpened(_)))
        {
            debug!("a dialog opened since the last engine call: answering it");
            self.answer_open().await;
        }
        tokio::pin!(work);
        // a dialog that opened before this call (during a click, or before this process
        // connected) sends no event now: a call that takes long checks for one
        let mut probe =
            tokio::time::interval_at(tokio::time::Instant::now() + DIALOG_PROBE, DIALOG_PROBE);
        loop {
            tokio::select! {
                r = &mut work => return r,
                e = events.next() => match e {
                    Some(Event::UserPromptOpened(_)) => {
                        debug!("a dialog opened during an engine call: answering it");
                        self.answer_open().await;
                    }
                    Some(_) => {}
                    None => return (&mut work).await,
                },
                _ = probe.tick() => {
                    if self.answer_open().await > 0 {
                        debug!("an open dialog held an engine call: answered");
                    }
                }
            }
        }
    }

    /// Sets the files of file input `element` (a shared id) in the current context through
    /// BiDi `input.setFiles`, which fires `input` and `change` as a user's pick does.
    /// Err(None) without BiDi: the caller types the paths with classic Element Send Keys.
    pub async fn set_files(
        &self,
        element: &str,
        files: Vec<String>,
    ) -> std::result::Result<(), Option<Error>> {
        let (Some(bidi), Some(context)) = (&self.bidi, self.context()) else {
            return Err(None);
        };
        let cmd = bidi::SetFiles {
            context,
            element: bidi::SharedReference {
                shared_id: element.to_string(),
            },
            files,
        };
        bidi.send(&cmd).await.map(|_| ()).map_err(Some)
    }

    /// The sandbox realm id of the current context when it is the tab's top-level
    /// document, known from an earlier call or asked with `script.getRealms` (None when the
    /// sandbox does not exist yet).
    pub(super) async fn top_realm(&self) -> Option<String> {
        let bidi = self.bidi.as_ref()?;
        if !self.at_top() {
            return None;
        }
        let ctx = self.context()?;
        if let Some(r) = lock(&self.realms).get(&ctx) {
            return Some(r.clone());
        }
        let reply = bidi
            .send(&GetRealms {
                context: ctx.clone(),
                r#type: "window",
            })
            .await
            .ok()?;
        let realm = reply
            .realms
            .into_iter()
            .find(|r| r.sandbox.as_deref() == Some(SANDBOX))?
            .realm;
        lock(&self.realms).insert(ctx, realm.clone());
        Some(realm)
    }

    /// The shadow root of host element `host` (a shared id), closed ones included, through
    /// BiDi node serialization, as a shared id; None when it has none.
    pub async fn closed_shadow_root(&self, host: &str) -> Result<Option<String>> {
        let v = self
            .call_sandbox(
                "function(h){ return h; }",
                vec![LocalValue::shared(host)],
                Some(SerializationOptions {
                    max_dom_depth: Some(1),
                    max_object_depth: None,
                    include_shadow_tree: Some(bidi::ShadowTree::All),
                }),
            )
            .await?;
        Ok(match v {
            RemoteValue::Node(n) => n
                .value
                .and_then(|p| p.shadow_root)
                .and_then(|r| r.shared_id().map(str::to_string)),
            _ => None,
        })
    }

    /// Forgets the top-level sandbox realm id (its document went away).
    pub(super) fn forget_realm(&self) {
        if let Some(ctx) = self.context() {
            lock(&self.realms).remove(&ctx);
        }
    }

    /// Runs `function` (a function declaration) in the page's own realm of the current
    /// context with `args`, awaiting a promise result, and returns its value as JSON.
    pub async fn call_main_world(&self, function: &str, args: Vec<LocalValue>) -> Result<Value> {
        let (bidi, ctx) = match (&self.bidi, self.context()) {
            (Some(b), Some(c)) => (b, c),
            _ => return Err(Error::Engine("no WebDriver BiDi channel".into())),
        };
        let mut call = CallFunction::new(function, Target::page(&ctx), args);
        call.result_ownership = Some(ResultOwnership::None);
        call.serialization_options = Some(SerializationOptions {
            max_dom_depth: Some(0),
            max_object_depth: None,
            include_shadow_tree: None,
        });
        let v = self
            .send_answering_dialogs(bidi, &call)
            .await?
            .into_value()?;
        Ok(json_of(v))
    }
}

/// `script.getRealms`.
#[derive(Debug, Serialize)]
struct GetRealms {
    context: String,
    #[serde(rename = "type")]
    r#type: &'static str,
}

#[derive(Debug, Deserialize)]
struct GetRealmsReply {
    realms: Vec<RealmInfo>,
}

#[derive(Debug, Deserialize)]
struct RealmInfo {
    realm: String,
    #[serde(default)]
    sandbox: Option<String>,
}

impl bidi::Command for GetRealms {
    const METHOD: &'static str = "script.getRealms";
    type Reply = GetRealmsReply;
}

/// Subscribes connection `b` to the events commands follow: dialogs, which are answered
/// while an engine call waits, and downloads and navigations for the effects of actions
/// (docs/reference/replies.md#effects). A driver that does not know the download events refuses the whole
/// subscription: dialogs alone then. False when not even those were taken.
pub async fn subscribe(b: &Bidi, uc: Option<&str>) -> bool {
    let all = [
        Event::USER_PROMPT_OPENED,
        Event::DOWNLOAD_WILL_BEGIN,
        Event::DOWNLOAD_END,
        // a navigation that may still become a download
        Event::NAVIGATION_STARTED,
        // the console errors an action caused (its effects)
        Event::LOG_ENTRY,
        // a navigation the action started that ended without a new document (a 204, a
        // download, an error): its reply stops waiting for one (actions::settle_action)
        Event::NAVIGATION_FAILED,
        Event::NAVIGATION_ABORTED,
    ];
    // a driver that does not know an event refuses the whole list: fewer, then dialogs alone
    for n in [all.len(), all.len() - 2, 1] {
        match b.send(&bidi::Subscribe::to(&all[..n]).within(uc)).await {
            Ok(_) => return true,
            Err(e) => debug!(error = %e, events = n, "subscription refused"),
        }
    }
    false
}
