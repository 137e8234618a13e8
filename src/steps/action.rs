//! The list of every step action: the `actions!` rows make the `Action` enum (the schema of
//! step files, MCP tools and CLI commands, docs/reference/actions.md) and its dispatch to
//! each action's declaration, the [`Act`] impl of its argument type in its concept module
//! (act.rs). The step keys beside an action, `Step`, `StepFile` and their JSON schema.
//!
//! Owns: the action list, `Step`, `StepFile` and the JSON schema. Must not: hold an
//! action's own facts or code (its declaration does).

use super::act::{Act, Core, Cx, Gate, Info, Kind};
use super::args::{Form, NoArgs, bare_or};
use super::audit::AuditArgs;
use super::debugging::{ConsoleArgs, NetworkArgs, RouteArgs, UnrouteArgs};
use super::files::{PdfArgs, ReadNotesArgs, ScreenshotArgs, WriteNotesArgs};
use super::forms::{SelectTextArgs, SubmitArgs};
use super::input::{
    CheckArgs, FillArgs, FocusArgs, HoverArgs, PressArgs, RefOnly, SelectArgs, SetArgs, TargetArgs,
    TypeArgs, UncheckArgs, UploadArgs,
};
use super::looking::{GetArgs, QueryArgs, SearchArgs, SnapshotArgs};
use super::mapping::{InspectArgs, QueryAllArgs, QueryAllForm, QueryGroups};
use super::moving::{DragArgs, ScrollArgs};
use super::navigation::{
    BackArgs, CloseTabArgs, ForwardArgs, FrameArg, FrameArgs, GotoArgs, ListTabsArgs, NewTabArgs,
    ReloadArgs, TabArgs, WaitForNavigationArgs,
};
use super::points::{ElementsAtArgs, ElementsAtForm, points_or_args};
use super::settings::{
    CookiesArgs, EvalArgs, GetTitleArgs, GetUrlArgs, LoadStateArgs, SaveStateArgs, SecretsArgs,
    ViewportArgs,
};
use super::waiting::{AssertArgs, Hooks, PollArgs, SleepArgs, WaitArgs};
use crate::actions::Outcome;
use crate::error::Result;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use strum::{EnumDiscriminants, EnumIter, EnumString, IntoEnumIterator, IntoStaticStr};

/// The list of actions: one row per action, its variant and argument type with the forms
/// serde and schemars read (`bare_or`: a short form beside the object) and its doc comment
/// (the help of the command, the tool and the step). It makes [`Action`], [`ActionKind`]
/// with each action's facts, and [`Action`]'s dispatch to its [`Act`] declaration.
macro_rules! actions {
    ($( $(#[$m:meta])* $V:ident ( $(#[$fm:meta])* $T:ty $(,)? ), )*) => {
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
            $( $(#[$m])* $V( $(#[$fm])* $T ), )*
        }

        impl ActionKind {
            /// The action's facts (its declaration's [`Act::INFO`]).
            pub const fn info(self) -> Info {
                match self { $( ActionKind::$V => <$T as Act>::INFO, )* }
            }
            /// Its place in the MCP core set ([`Act::CORE`]).
            pub const fn core(self) -> Option<Core> {
                match self { $( ActionKind::$V => <$T as Act>::CORE, )* }
            }
            /// The option a locator's ref goes into ([`Act::LOCATED_BY`]).
            pub const fn located_by(self) -> Option<&'static str> {
                match self { $( ActionKind::$V => <$T as Act>::LOCATED_BY, )* }
            }
            /// The Playwright call it exports as ([`Act::PLAYWRIGHT`]).
            pub const fn playwright(self) -> Option<&'static str> {
                match self { $( ActionKind::$V => <$T as Act>::PLAYWRIGHT, )* }
            }
        }

        impl Action {
            /// What serde cannot check ([`Act::problems`]); empty when well formed.
            pub fn problems(&self) -> Vec<String> {
                match self { $( Action::$V(a) => a.problems(), )* }
            }
            /// The ref of the element it acts on ([`Act::target`]).
            pub fn target_ref(&self) -> Option<&str> {
                match self { $( Action::$V(a) => a.target(), )* }
            }
            /// Puts a locator's ref where it takes its target ([`Act::set_target`]).
            pub fn set_target_ref(&mut self, r: String) -> bool {
                match self { $( Action::$V(a) => a.set_target(r), )* }
            }
            /// Its policy class ([`Act::gate`]).
            pub fn gate(&self) -> Gate<'_> {
                match self { $( Action::$V(a) => a.gate(), )* }
            }
            /// How long its effects are followed at least ([`Act::tail`]).
            pub fn tail(&self) -> Option<Duration> {
                match self { $( Action::$V(a) => a.tail(), )* }
            }
            /// Runs it ([`Act::run`]).
            pub async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
                match self { $( Action::$V(a) => a.run(cx).await, )* }
            }
        }
    };
}

actions! {
    /// Open a URL in the current tab and wait for it to load.
    Goto(
        #[serde(deserialize_with = "bare_or::<_, String, GotoArgs>")]
        #[schemars(with = "Form<String, GotoArgs>")]
        GotoArgs,
    ),
    /// Reload the page.
    Reload(#[schemars(with = "NoArgs")] ReloadArgs),
    /// Go back in history.
    Back(#[schemars(with = "NoArgs")] BackArgs),
    /// Go forward in history.
    Forward(#[schemars(with = "NoArgs")] ForwardArgs),
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
    ListTabs(#[schemars(with = "NoArgs")] ListTabsArgs),
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
        #[serde(deserialize_with = "bare_or::<_, String, CheckArgs>")]
        #[schemars(with = "Form<String, RefOnly>")]
        CheckArgs,
    ),
    /// Make a checkbox or switch unchecked (no-op when it is).
    Uncheck(
        #[serde(deserialize_with = "bare_or::<_, String, UncheckArgs>")]
        #[schemars(with = "Form<String, RefOnly>")]
        UncheckArgs,
    ),
    /// Move focus to an element without pointer input (its focus handlers run; a field a
    /// click would open a picker on, a widget driven by keys next).
    Focus(
        #[serde(deserialize_with = "bare_or::<_, String, FocusArgs>")]
        #[schemars(with = "Form<String, RefOnly>")]
        FocusArgs,
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
    GetUrl(#[schemars(with = "NoArgs")] GetUrlArgs),
    /// The current title.
    #[command(alias = "getTitle")]
    GetTitle(#[schemars(with = "NoArgs")] GetTitleArgs),
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
    Secrets(#[schemars(with = "NoArgs")] SecretsArgs),
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

impl ActionKind {
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
}

/// The actions whose target a locator may name (docs/reference/step-files.md#locators):
/// those whose declaration says where its ref goes (`Act::LOCATED_BY`), in the list's order.
pub fn targeted() -> &'static [&'static str] {
    static NAMES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        ActionKind::all()
            .filter(|k| k.located_by().is_some())
            .map(|k| k.name())
            .collect()
    });
    &NAMES
}

/// The option of `action` a resolved locator's ref goes into: `frame` takes its iframe's
/// ref as its `target`, every other action as its `ref`.
pub fn ref_key(action: &str) -> &'static str {
    ActionKind::from_name(action)
        .and_then(|k| k.located_by())
        .unwrap_or("ref")
}

/// Step keys beside the action (docs/reference/step-files.md#optional-steps `optional`, and the hooks).
pub const STEP_KEYS: &[&str] = &["optional", "readyWhen", "settledWhen", "observe", "target"];

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
        for k in ActionKind::all() {
            assert_eq!(ActionKind::from_name(k.name()), Some(k));
        }
    }

    /// A locator's ref goes where the action takes its element: the `ref` of its schema
    /// (`frame`: its `target`), for every action whose schema has one, and for no other.
    #[test]
    fn the_located_actions_are_those_with_a_ref() {
        let schema = step_schema();
        let refs = regex::Regex::new(r#"#/(?:\$defs|definitions)/([\w-]+)"#).unwrap();
        for one in schema["oneOf"].as_array().into_iter().flatten() {
            let name = one["required"][0].as_str().unwrap();
            let k = ActionKind::from_name(name).unwrap();
            let defs = schema.get("$defs").unwrap_or(&schema["definitions"]);
            // the argument's own properties, through its $refs and its short forms
            let mut seen = vec![one["properties"][name].clone()];
            let mut has_ref = false;
            for _ in 0..4 {
                let text: String = seen.iter().map(|v| v.to_string()).collect();
                has_ref |= seen.iter().any(|v| v["properties"].get("ref").is_some());
                seen = refs
                    .captures_iter(&text)
                    .map(|c| defs[&c[1]].clone())
                    .collect();
            }
            // (assert's ref is one of its conditions, checked as given, not a target)
            let want = if name == "frame" {
                Some("target")
            } else if name == "assert" {
                None
            } else {
                has_ref.then_some("ref")
            };
            assert_eq!(k.located_by(), want, "{name}");
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
        assert!(!Action::GetUrl(GetUrlArgs {}).modifies_page());
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
        assert_eq!(r.action, Action::Reload(ReloadArgs {}));
    }
}
