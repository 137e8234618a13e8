//! The one definition of every step action: the `Action` enum (the schema of step files,
//! MCP tools and CLI commands, docs/reference/actions.md) and, in `Action::info`, one row per
//! action with its kind, verb, example and MCP shape.
//!
//! Owns: the action list, `Step`, `StepFile` and the JSON schema. Must not: run anything
//! (runner.rs dispatches to the concept modules).

use super::audit::AuditArgs;
use super::debugging::{NetworkArgs, RouteArgs, UnrouteArgs};
use super::files::{PdfArgs, ReadNotesArgs, ScreenshotArgs, WriteNotesArgs};
use super::input::{
    DragArgs, DragEnd, FillArgs, HoverArgs, PressArgs, RefOnly, ScrollArgs, SelectArgs,
    SelectTextArgs, SetArgs, SubmitArgs, TargetArgs, TypeArgs, UploadArgs,
};
use super::looking::{
    GetArgs, InspectArgs, QueryAllArgs, QueryAllForm, QueryArgs, QueryGroups, SearchArgs,
    SnapshotArgs,
};
use super::navigation::{
    CloseTabArgs, FrameArg, FrameArgs, GotoArgs, NewTabArgs, TabArgs, WaitForNavigationArgs,
};
use super::page::{ConsoleArgs, CookiesArgs, EvalArgs, LoadStateArgs, SaveStateArgs, ViewportArgs};
use super::points::{ElementsAtArgs, ElementsAtForm, check_point, check_target, points_or_args};
use super::shared::{Form, NoArgs, bare_or};
use super::waiting::{AssertArgs, Hooks, PollArgs, SleepArgs, WaitArgs};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use strum::{EnumDiscriminants, EnumIter, EnumString, IntoEnumIterator, IntoStaticStr};

/// Every step action (docs/reference/step-files.md): the one schema of step files, MCP tools and the command
/// line. Serialized externally tagged (`{"click": "s1e4"}`); each variant's argument type
/// derives serde (step files and tools, with the short form where one exists), schemars
/// (the schema the tools are made from) and clap (`ariasnap click REF --double`). Doc
/// comments are the help of all three.
#[derive(
    Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, clap::Subcommand, EnumDiscriminants,
)]
#[serde(rename_all = "camelCase")]
#[strum_discriminants(
    name(ActionKind),
    derive(EnumIter, IntoStaticStr, EnumString, Hash),
    strum(serialize_all = "camelCase")
)]
pub enum Action {
    /// Open a URL in the current tab and wait for it to load.
    Goto(
        #[serde(deserialize_with = "bare_or::<_, String, GotoArgs>")]
        #[schemars(with = "Form<String, GotoArgs>")]
        GotoArgs,
    ),
    /// Reload the page.
    Reload(NoArgs),
    /// Go back in history.
    Back(NoArgs),
    /// Go forward in history.
    Forward(NoArgs),
    /// Open a new tab (optionally at a URL) and make it current.
    #[command(alias = "newTab")]
    NewTab(
        #[serde(deserialize_with = "bare_or::<_, String, NewTabArgs>")]
        #[schemars(with = "Form<String, NewTabArgs>")]
        NewTabArgs,
    ),
    /// Make a tab (t1, t2...) current.
    #[command(alias = "switchTab")]
    SwitchTab(
        #[serde(deserialize_with = "bare_or::<_, String, TabArgs>")]
        #[schemars(with = "Form<String, TabArgs>")]
        TabArgs,
    ),
    /// Close a tab (default: the current one).
    #[command(alias = "closeTab")]
    CloseTab(
        #[serde(deserialize_with = "bare_or::<_, String, CloseTabArgs>")]
        #[schemars(with = "Form<String, CloseTabArgs>")]
        CloseTabArgs,
    ),
    /// List tabs with their URLs and titles.
    #[command(name = "tabs", alias = "list-tabs", alias = "listTabs")]
    ListTabs(NoArgs),
    /// Take a snapshot of the current page.
    Snapshot(SnapshotArgs),
    /// Find elements by text, regex, role or position; matches carry refs.
    Search(SearchArgs),
    /// JMESPath query over the snapshot.
    Query(QueryArgs),
    /// Click an element by ref (real pointer input at the point of it in sight nearest its
    /// centre), or a point {x, y} of the viewport (canvas, custom-drawn widgets).
    Click(
        #[serde(deserialize_with = "bare_or::<_, String, TargetArgs>")]
        #[schemars(with = "Form<String, TargetArgs>")]
        TargetArgs,
    ),
    /// Clear a field and type a value (real key input).
    Fill(FillArgs),
    /// Type text into a field (or the focused element) without clearing it.
    Type(TypeArgs),
    /// Press a key or chord (Enter, Control+a, Shift+Tab).
    Press(
        #[serde(deserialize_with = "bare_or::<_, String, PressArgs>")]
        #[schemars(with = "Form<String, PressArgs>")]
        PressArgs,
    ),
    /// Move the pointer over an element, or to a point {x, y} of the viewport.
    Hover(
        #[serde(deserialize_with = "bare_or::<_, String, HoverArgs>")]
        #[schemars(with = "Form<String, HoverArgs>")]
        HoverArgs,
    ),
    /// Choose options of a select by value or visible text.
    Select(SelectArgs),
    /// Set any control in one call (text, date/time, colour, range, slider, spin button,
    /// a library's slider handle in percent of its track, select, listbox, checkbox, radio,
    /// switch, ARIA combobox, contenteditable); returns the value read back.
    Set(SetArgs),
    /// Make a checkbox, radio or switch checked (no-op when it is).
    Check(
        #[serde(deserialize_with = "bare_or::<_, String, RefOnly>")]
        #[schemars(with = "Form<String, RefOnly>")]
        RefOnly,
    ),
    /// Make a checkbox or switch unchecked (no-op when it is).
    Uncheck(
        #[serde(deserialize_with = "bare_or::<_, String, RefOnly>")]
        #[schemars(with = "Form<String, RefOnly>")]
        RefOnly,
    ),
    /// Scroll a ref into view, a ref's scroll container (with a direction), or the page
    /// (direction, dx/dy, to); says how far it moved and whether it reached the end.
    Scroll(ScrollArgs),
    /// Drag one element (or point) onto another along a pointer path (HTML drag and drop
    /// too).
    Drag(DragArgs),
    /// Set the files of a file input.
    Upload(UploadArgs),
    /// Wait for text, a ref, a selector or a URL (or, with hidden, for them to go away).
    Wait(WaitArgs),
    /// Pause for a number of milliseconds.
    Sleep(
        #[serde(deserialize_with = "bare_or::<_, u64, SleepArgs>")]
        #[schemars(with = "Form<u64, SleepArgs>")]
        SleepArgs,
    ),
    /// Evaluate a JavaScript expression in the page; its JSON value is the output.
    Eval(
        #[serde(deserialize_with = "bare_or::<_, String, EvalArgs>")]
        #[schemars(with = "Form<String, EvalArgs>")]
        EvalArgs,
    ),
    /// Check a condition now; the step fails when it does not hold.
    Assert(AssertArgs),
    /// Read text, value, name, role, html, box or attr:NAME of a ref, uncut.
    Get(
        #[serde(deserialize_with = "bare_or::<_, String, GetArgs>")]
        #[schemars(with = "Form<String, GetArgs>")]
        GetArgs,
    ),
    /// The current URL.
    #[command(alias = "getUrl")]
    GetUrl(NoArgs),
    /// The current title.
    #[command(alias = "getTitle")]
    GetTitle(NoArgs),
    /// Resize the viewport.
    Viewport(ViewportArgs),
    /// Act in a frame: "main", an index, or an iframe ref.
    Frame(
        #[serde(deserialize_with = "bare_or::<_, FrameArg, FrameArgs>")]
        #[schemars(with = "Form<FrameArg, FrameArgs>")]
        FrameArgs,
    ),
    /// List, set or clear cookies.
    Cookies(CookiesArgs),
    /// Save the session's cookies and each open origin's localStorage (sessionStorage with
    /// the flag) to a file, in Playwright's storageState format: 0600, never printed.
    #[command(alias = "saveState")]
    SaveState(
        #[serde(deserialize_with = "bare_or::<_, String, SaveStateArgs>")]
        #[schemars(with = "Form<String, SaveStateArgs>")]
        SaveStateArgs,
    ),
    /// Restore cookies and localStorage (and sessionStorage) from a file saveState or
    /// Playwright wrote; no request reaches the sites.
    #[command(alias = "loadState")]
    LoadState(
        #[serde(deserialize_with = "bare_or::<_, String, LoadStateArgs>")]
        #[schemars(with = "Form<String, LoadStateArgs>")]
        LoadStateArgs,
    ),
    /// The names of the secrets the operator gave the session (never their values) and the
    /// origins each may be typed on; fill, type and set take one by name.
    Secrets(NoArgs),
    /// The page's console since the last call: level, text, where and the stack of each
    /// message, uncaught errors and rejections; level filters.
    Console(ConsoleArgs),
    /// Save a PNG screenshot (of the viewport or a ref); annotate outlines and labels refs.
    Screenshot(ScreenshotArgs),
    /// What is at points of the viewport (role, name, box, a ref to act on), or near them
    /// with radius.
    #[command(alias = "elementsAt")]
    ElementsAt(
        #[serde(deserialize_with = "points_or_args")]
        #[schemars(with = "ElementsAtForm")]
        ElementsAtArgs,
    ),
    /// Print the page to a PDF file (WebDriver Print Page).
    Pdf(PdfArgs),
    /// Read the notes kept for a site (default: the current page's).
    #[command(alias = "readSiteNotes")]
    ReadSiteNotes(
        #[serde(deserialize_with = "bare_or::<_, String, ReadNotesArgs>")]
        #[schemars(with = "Form<String, ReadNotesArgs>")]
        ReadNotesArgs,
    ),
    /// Add to (or replace) the notes kept for a site; goto says when a site has notes.
    #[command(alias = "writeSiteNotes")]
    WriteSiteNotes(
        #[serde(deserialize_with = "bare_or::<_, String, WriteNotesArgs>")]
        #[schemars(with = "Form<String, WriteNotesArgs>")]
        WriteNotesArgs,
    ),
    /// Submit a form (by ref, or a control in it, or CSS selector) as a user would, after
    /// the browser's validation: an invalid form is not submitted and the step fails with
    /// each field's validation message.
    Submit(
        #[serde(deserialize_with = "bare_or::<_, String, SubmitArgs>")]
        #[schemars(with = "Form<String, SubmitArgs>")]
        SubmitArgs,
    ),
    /// Select text of a ref (an input's or textarea's value, or any element's text),
    /// optionally characters start..end; returns the selected text.
    #[command(alias = "selectText")]
    SelectText(
        #[serde(deserialize_with = "bare_or::<_, String, SelectTextArgs>")]
        #[schemars(with = "Form<String, SelectTextArgs>")]
        SelectTextArgs,
    ),
    /// Wait until the page is replaced by a new document (or its URL changes) and loads:
    /// the navigation an earlier step started.
    #[command(alias = "waitForNavigation")]
    WaitForNavigation(WaitForNavigationArgs),
    /// Run a page function until it returns a truthy value (host timers, never the
    /// page's); returns the value and the attempts.
    Poll(
        #[serde(deserialize_with = "bare_or::<_, String, PollArgs>")]
        #[schemars(with = "Form<String, PollArgs>")]
        PollArgs,
    ),
    /// Named groups of role/name or selector queries in one call; matches carry refs.
    #[command(alias = "queryAll")]
    QueryAll(
        #[serde(deserialize_with = "bare_or::<_, QueryGroups, QueryAllArgs>")]
        #[schemars(with = "QueryAllForm")]
        QueryAllArgs,
    ),
    /// A map of the page in a few hundred bytes: counts of roles and tags, forms, frames,
    /// headings, refs.
    Inspect(InspectArgs),
    /// The tab's requests since the last call (method, status, type, size, time, initiator;
    /// filters), one request whole with its bodies (an id: r12), or a HAR file (har).
    Network(
        #[serde(deserialize_with = "bare_or::<_, String, NetworkArgs>")]
        #[schemars(with = "Form<String, NetworkArgs>")]
        NetworkArgs,
    ),
    /// Answer requests matching a URL pattern without the network (status, headers, body or
    /// a file), delay them, or fail them, while the session lives.
    Route(RouteArgs),
    /// Remove the session's routes of a pattern (all without one).
    Unroute(
        #[serde(deserialize_with = "bare_or::<_, String, UnrouteArgs>")]
        #[schemars(with = "Form<String, UnrouteArgs>")]
        UnrouteArgs,
    ),
    /// Accessibility audit in snapshot terms: axe-core's violations by rule, each element
    /// with its ref and line; clickables a keyboard cannot use; focus traps (Tab walk).
    Audit(AuditArgs),
}

/// What running an action may do to the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Changes what is on screen: the reply's diff spans the first to the last of these
    /// (and a whole-page capture is taken before the first).
    Visual,
    /// May change the page without being input (navigation, scripts, settings): drops the
    /// snapshot cache, and the page's reaction is settled before the step ends.
    ChangesPage,
    /// Reads, waits or writes files; the page is as it was.
    Reads,
}

/// The facts of one action, beside its argument type in [`Action`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Info {
    pub kind: Kind,
    /// The reply's first word ("Clicked. ..."); "Done" for actions that are not input.
    pub verb: &'static str,
    /// The MCP tool that stands for it (names of Playwright MCP where it has the action).
    pub tool: &'static str,
    /// The field an MCP tool names the short form with, when the action has no object form.
    pub scalar: &'static str,
    /// A short example of the argument, for messages and the reference.
    pub example: &'static str,
}

const fn row(
    kind: Kind,
    verb: &'static str,
    tool: &'static str,
    scalar: &'static str,
    example: &'static str,
) -> Info {
    Info {
        kind,
        verb,
        tool,
        scalar,
        example,
    }
}

impl ActionKind {
    /// The one table of actions: a row per action, checked complete by the compiler.
    /// `selectText` changes the page: the page hears of a new selection from events queued
    /// after it (HTML's `select` for text controls, the Selection API's `selectionchange`),
    /// and may rewrite itself then.
    #[rustfmt::skip]
    pub const fn info(self) -> Info {
        use ActionKind as A;
        use Kind::{ChangesPage as C, Reads as R, Visual as V};
        match self {
            A::Goto => row(V, "Opened", "browser_navigate", "url", r#""http://127.0.0.1:8080/""#),
            A::Reload => row(C, "Done", "browser_reload", "value", "true"),
            A::Back => row(C, "Done", "browser_navigate_back", "value", "true"),
            A::Forward => row(C, "Done", "browser_navigate_forward", "value", "true"),
            A::NewTab => row(R, "Done", "browser_new_tab", "url", r#""http://127.0.0.1:8080/""#),
            A::SwitchTab => row(R, "Done", "browser_switch_tab", "tab", r#""t2""#),
            A::CloseTab => row(R, "Done", "browser_close_tab", "tab", r#""t2""#),
            A::ListTabs => row(R, "Done", "browser_tabs", "value", "true"),
            A::Snapshot => row(R, "Done", "browser_snapshot", "value", r#"true, "interactive" or {"detail": "interactive"}"#),
            A::Search => row(R, "Done", "browser_search", "text", r#"{"text": "order placed", "role": "heading"}"#),
            A::Query => row(R, "Done", "browser_query", "query", r#"{"query": "[?role=='button'].name"}"#),
            A::Click => row(V, "Clicked", "browser_click", "ref", r#""s1e4", {"ref": "s1e4"} or {"x": 120, "y": 80}"#),
            A::Fill => row(V, "Filled", "browser_fill", "value", r#"{"ref": "s1e2", "value": "text"}, {"ref": "s1e2", "secret": "SHOP_PASSWORD"} or {"fields": {"s1e2": "text", "s1e3": "Berlin"}}"#),
            A::Type => row(V, "Typed", "browser_type", "value", r#"{"text": "...", "ref": "s1e2", "submit": true}"#),
            A::Press => row(V, "Pressed", "browser_press_key", "key", r#""Enter" or {"key": "Control+a", "ref": "s1e2"}"#),
            A::Hover => row(V, "Hovered", "browser_hover", "ref", r#""s1e4", {"ref": "s1e4"} or {"x": 120, "y": 80}"#),
            A::Select => row(V, "Selected", "browser_select_option", "value", r#"{"ref": "s1e3", "values": ["a", "b"]}"#),
            A::Set => row(V, "Set", "browser_set", "value", r#"{"ref": "s1e3", "value": "2026-05-01"} (or true, or ["a", "b"])"#),
            A::Check => row(V, "Checked", "browser_check", "ref", r#""s1e4" or {"ref": "s1e4"}"#),
            A::Uncheck => row(V, "Unchecked", "browser_uncheck", "ref", r#""s1e4" or {"ref": "s1e4"}"#),
            A::Scroll => row(V, "Scrolled", "browser_scroll", "value", r#"{"direction": "down"} or {"ref": "s1e9"}"#),
            A::Drag => row(V, "Dragged", "browser_drag", "value", r#"{"from": "s1e1", "to": "s1e2"} (or points {"x": 10, "y": 20})"#),
            A::Upload => row(C, "Done", "browser_upload", "value", r#"{"ref": "s1e5", "files": ["a.pdf"]}"#),
            A::Wait => row(R, "Done", "browser_wait", "value", r#"{"text": "Saved"}"#),
            A::Sleep => row(R, "Done", "browser_sleep", "ms", "500 (milliseconds)"),
            A::Eval => row(C, "Done", "browser_evaluate", "expression", r#""document.title" or {"expression": "..."}"#),
            A::Assert => row(R, "Done", "browser_assert", "value", r#"{"text": "Saved"}"#),
            A::Get => row(R, "Done", "browser_get", "value", r#""s1e4" or {"ref": "s1e4", "what": "value"}"#),
            A::GetUrl => row(R, "Done", "browser_get_url", "value", "true"),
            A::GetTitle => row(R, "Done", "browser_get_title", "value", "true"),
            A::Viewport => row(C, "Done", "browser_viewport", "value", r#"{"width": 1280, "height": 800}"#),
            A::Frame => row(R, "Done", "browser_frame", "value", r#""main", 0 or "s1e5""#),
            A::Cookies => row(C, "Done", "browser_cookies", "value", r#"{"action": "list"}"#),
            A::SaveState => row(R, "Done", "browser_save_state", "value", r#""state.json" or {"path": "state.json", "sessionStorage": true}"#),
            A::LoadState => row(R, "Done", "browser_load_state", "value", r#""state.json" or {"path": "state.json"}"#),
            A::Secrets => row(R, "Done", "browser_secrets", "value", "true"),
            A::Console => row(R, "Done", "browser_console", "value", r#"true or {"level": "warn"}"#),
            A::Screenshot => row(R, "Done", "browser_take_screenshot", "value", r#"true or {"path": "page.png", "annotate": true}"#),
            A::ElementsAt => row(R, "Done", "browser_elements_at", "value", r#"{"x": 120, "y": 80}, [{"x": 1, "y": 2}, ...] or {"x": 120, "y": 80, "radius": 40}"#),
            A::Pdf => row(R, "Done", "browser_pdf", "value", r#"{"path": "page.pdf", "landscape": true}"#),
            A::ReadSiteNotes => row(R, "Done", "browser_read_site_notes", "value", r#"true or "example.org""#),
            A::WriteSiteNotes => row(R, "Done", "browser_write_site_notes", "value", r#""text to remember" or {"notes": "...", "domain": "example.org", "replace": true}"#),
            A::Submit => row(V, "Submitted", "browser_submit", "value", r#""s1e4", "form#signup" or {"ref": "s1e4", "reportValidity": true}"#),
            A::SelectText => row(C, "Done", "browser_select_text", "value", r#""s1e4" or {"ref": "s1e4", "start": 0, "end": 5}"#),
            A::WaitForNavigation => row(C, "Done", "browser_wait_for_navigation", "value", r#"true or {"timeout": 10000, "waitUntil": "load"}"#),
            A::Poll => row(C, "Done", "browser_poll", "value", r#""() => window.ready" or {"fn": "() => window.ready", "interval": 100, "timeout": 5000}"#),
            A::QueryAll => row(R, "Done", "browser_query_all", "value", r#"{"buttons": {"role": "button"}, "rows": "table tr"} or {"queries": {...}, "limit": 5}"#),
            A::Inspect => row(R, "Done", "browser_inspect", "value", r#"true or {"selectors": [".card"]}"#),
            A::Network => row(R, "Done", "browser_network", "id", r#"true, "r12", {"status": "4xx", "type": "fetch"} or {"har": "page.har", "bodies": true}"#),
            A::Route => row(R, "Done", "browser_route", "value", r#"{"pattern": "/api/items", "body": "[]"}, {"pattern": "**/*.png", "fail": true}"#),
            A::Unroute => row(R, "Done", "browser_unroute", "pattern", r#""/api/items" or {} (every route)"#),
            A::Audit => row(C, "Done", "browser_audit", "value", r#"true or {"rules": "button-name,color-contrast", "noTab": true}"#),
        }
    }

    /// Its name in step files (`newTab`), from the enum (serde's and strum's camelCase).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Every action, in the enum's order.
    pub fn all() -> impl Iterator<Item = ActionKind> {
        ActionKind::iter()
    }

    /// The action of a step-file name.
    pub fn from_name(name: &str) -> Option<ActionKind> {
        name.parse().ok()
    }

    /// Every action's step-file name.
    pub fn names() -> Vec<&'static str> {
        Self::all().map(Self::name).collect()
    }
}

impl Action {
    /// Which action this is.
    pub fn kind(&self) -> ActionKind {
        self.into()
    }

    /// The action's name as written in step files.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// The action's row of facts.
    pub fn info(&self) -> Info {
        self.kind().info()
    }

    /// Changes what is on screen (see [`Kind::Visual`]).
    pub fn is_visual(&self) -> bool {
        self.info().kind == Kind::Visual
    }

    /// May change the page (see [`Kind::ChangesPage`]); visual actions do too.
    pub fn modifies_page(&self) -> bool {
        self.info().kind != Kind::Reads
    }
    /// Checks what the schema cannot say (a ref or a point, not both; bounds), so a bad
    /// step is refused before any step runs.
    pub fn check(&self) -> std::result::Result<(), String> {
        match self {
            Action::Click(a) => check_target("click", a.ref_.as_deref(), a.x, a.y).map(|_| ()),
            Action::Hover(a) => check_target("hover", a.ref_.as_deref(), a.x, a.y).map(|_| ()),
            Action::Drag(d) => [&d.from, &d.to].into_iter().try_for_each(|e| match e {
                DragEnd::Point(p) => check_point(*p).map(|_| ()),
                DragEnd::Ref(_) => Ok(()),
                DragEnd::Locator(l) => l.check(),
            }),
            Action::ElementsAt(a) => a.all_points().map(|_| ()),
            Action::Pdf(p) => p.check(),
            _ => Ok(()),
        }
    }

    /// The ref of the element an action acts on, when it names one (docs/reference/replies.md#the-summary: a reply leads
    /// with that element's new state or value). A fields map of `fill` names several: none.
    /// Puts the ref a locator resolved to where the action takes its target; false for an
    /// action that takes none.
    pub fn set_target_ref(&mut self, r: String) -> bool {
        match self {
            Action::Click(a) => a.ref_ = Some(r),
            Action::Fill(a) => a.ref_ = Some(r),
            Action::Type(a) => a.ref_ = Some(r),
            Action::Press(a) => a.ref_ = Some(r),
            Action::Hover(a) => a.ref_ = Some(r),
            Action::Select(a) => a.ref_ = r,
            Action::Set(a) => a.ref_ = r,
            Action::Check(a) | Action::Uncheck(a) => a.ref_ = r,
            Action::Scroll(a) => a.ref_ = Some(r),
            Action::Submit(a) => a.ref_ = Some(r),
            Action::Upload(a) => a.ref_ = r,
            Action::SelectText(a) => a.ref_ = r,
            Action::Get(a) => a.ref_ = r,
            Action::Wait(a) => a.ref_ = Some(r),
            Action::Screenshot(a) => a.ref_ = Some(r),
            Action::Frame(a) => a.target = super::navigation::FrameArg::Name(r),
            _ => return false,
        }
        true
    }

    pub fn target_ref(&self) -> Option<&str> {
        match self {
            Action::Click(a) => a.ref_.as_deref(),
            Action::Fill(a) => a.ref_.as_deref(),
            Action::Type(a) => a.ref_.as_deref(),
            Action::Press(a) => a.ref_.as_deref(),
            Action::Hover(a) => a.ref_.as_deref(),
            Action::Select(a) => Some(&a.ref_),
            Action::Set(a) => Some(&a.ref_),
            Action::Check(a) | Action::Uncheck(a) => Some(a.ref_str()),
            Action::Scroll(a) => a.ref_.as_deref(),
            Action::Submit(a) => a.ref_.as_deref(),
            Action::Wait(a) => a.ref_.as_deref(),
            Action::Screenshot(a) => a.ref_.as_deref(),
            Action::Frame(a) => match &a.target {
                super::navigation::FrameArg::Name(r) if crate::refs::is_ref(r.trim()) => {
                    Some(r.as_str())
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// One step: an action, maybe optional, maybe with hooks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Step {
    #[serde(flatten)]
    pub action: Action,
    /// A failing optional step does not stop the run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    #[serde(flatten)]
    pub hooks: Hooks,
    /// The target by locator instead of a ref (docs/reference/step-files.md#locators):
    /// beside the action, among its options, or as `target` in either place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<super::locate::Locator>,
}

impl Step {
    /// A required step without hooks.
    pub fn of(action: Action) -> Step {
        Step {
            action,
            optional: false,
            hooks: Hooks::default(),
            target: None,
        }
    }
}

/// A step file: `{"tab"?, "timeout"?, "steps": [...]}` or a bare array of steps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StepFile {
    /// Tab alias to start in (t1, t2...).
    #[serde(default)]
    pub tab: Option<String>,
    /// Limit per step in ms (default 30000).
    #[serde(default)]
    pub timeout: Option<u64>,
    pub steps: Vec<Step>,
}

/// JSON schema of one step.
pub fn step_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Step)).unwrap_or_default()
}

/// JSON schema of the list of steps (for `browser_run_steps`).
pub fn steps_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Vec<Step>)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_every_action_of_the_schema_and_only_those() {
        // the names serde writes (the schema's one required key per action) are strum's
        let schema = step_schema();
        let mut in_schema: Vec<String> = schema["oneOf"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v["required"].as_array())
            .flat_map(|r| r.iter().filter_map(|k| k.as_str().map(String::from)))
            .collect();
        in_schema.sort();
        let mut names: Vec<String> = ActionKind::names().into_iter().map(String::from).collect();
        names.sort();
        assert_eq!(names, in_schema);
        assert_eq!(names.len(), 52);
        for k in ActionKind::all() {
            assert_eq!(ActionKind::from_name(k.name()), Some(k));
        }
    }

    #[test]
    fn each_row_is_consistent() {
        let mut tools = std::collections::BTreeSet::new();
        for k in ActionKind::all() {
            let i = k.info();
            assert!(tools.insert(i.tool), "two actions are tool {}", i.tool);
            assert!(i.tool.starts_with("browser_"), "{}", i.tool);
            // input says what it did; the rest of the replies are "Done"
            assert_eq!(i.kind == Kind::Visual, i.verb != "Done", "{}", k.name());
            assert!(!i.example.is_empty());
        }
        let click = Action::Click(TargetArgs::from("s1e4".to_string()));
        assert!(click.is_visual() && click.modifies_page());
        assert_eq!(click.info().verb, "Clicked");
        let eval = Action::Eval(EvalArgs::from("1".to_string()));
        assert!(!eval.is_visual() && eval.modifies_page());
        assert!(!Action::GetUrl(NoArgs {}).modifies_page());
    }

    #[test]
    fn steps_round_trip_in_their_file_form() {
        let s: Step = serde_json::from_str(r#"{"click": "s1e4", "optional": true}"#).unwrap();
        assert_eq!(
            s.action,
            Action::Click(TargetArgs::from("s1e4".to_string()))
        );
        assert!(s.optional);
        assert_eq!(s.action.name(), "click");
        let f: Step = serde_json::from_str(r#"{"fill": {"ref": "s1e2", "value": "x"}}"#).unwrap();
        assert!(matches!(f.action, Action::Fill(_)));
        let r: Step = serde_json::from_str(r#"{"reload": {}}"#).unwrap();
        assert_eq!(r.action, Action::Reload(NoArgs {}));
    }
}
