//! Steps: the one schema shared by step files, CLI commands and MCP tools (SPEC 5).
//!
//! Owns: the `Action` enum (externally tagged: `{"click": ...}`), argument types with their
//! shorthand forms, and the JSON schema. Must not: run anything (runner.rs does).

pub mod look;
pub mod parse;
pub mod runner;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An argument that may be absent, `null` or `{}` (actions without arguments).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// A ref, given as a bare string or `{"ref": ...}` with options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Target {
    /// `"s1e4"`
    Ref(String),
    /// `{"ref": "s1e4", ...}`
    Full(TargetArgs),
}

/// A target with options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TargetArgs {
    /// The element's ref (`s1e4`, `@s1e4`, `[ref=s1e4]`).
    #[serde(rename = "ref")]
    pub ref_: String,
    /// Mouse button: left (default), middle, right.
    #[serde(default)]
    pub button: Option<String>,
    /// Double click.
    #[serde(default)]
    pub double: bool,
    /// Act even when another element covers the target's centre.
    #[serde(default)]
    pub force: bool,
}

impl Target {
    /// The ref as given.
    pub fn ref_str(&self) -> &str {
        match self {
            Target::Ref(r) => r,
            Target::Full(t) => &t.ref_,
        }
    }
    /// Options (defaults for the bare form).
    pub fn args(&self) -> TargetArgs {
        match self {
            Target::Ref(r) => TargetArgs {
                ref_: r.clone(),
                button: None,
                double: false,
                force: false,
            },
            Target::Full(t) => t.clone(),
        }
    }
}

/// A ref with no options (hover, check, uncheck), bare or as `{"ref": ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RefArg {
    /// `"s1e4"`
    Ref(String),
    /// `{"ref": "s1e4"}`
    Full(RefOnly),
}

/// `{"ref": "s1e4"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefOnly {
    /// The element's ref (`s1e4`, `@s1e4`, `[ref=s1e4]`).
    #[serde(rename = "ref")]
    pub ref_: String,
}

impl RefArg {
    /// The ref as given.
    pub fn ref_str(&self) -> &str {
        match self {
            RefArg::Ref(r) => r,
            RefArg::Full(t) => &t.ref_,
        }
    }
}

/// A URL, bare or with options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum UrlArg {
    Url(String),
    Full {
        /// Address to open.
        url: String,
        /// Take a snapshot once loaded and return it (omit to stay silent).
        #[serde(default)]
        snapshot: Option<SnapshotArgs>,
    },
}

impl UrlArg {
    pub fn url(&self) -> &str {
        match self {
            UrlArg::Url(u) | UrlArg::Full { url: u, .. } => u,
        }
    }

    /// Snapshot options of a navigation that also returns the page.
    pub fn snapshot(&self) -> Option<&SnapshotArgs> {
        match self {
            UrlArg::Full { snapshot, .. } => snapshot.as_ref(),
            UrlArg::Url(_) => None,
        }
    }
}

/// `fill`: clear a field and type a value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FillArgs {
    #[serde(rename = "ref")]
    pub ref_: String,
    pub value: String,
}

/// `type`: type text into a ref (or the focused element), without clearing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypeArgs {
    #[serde(rename = "ref", default)]
    pub ref_: Option<String>,
    pub text: String,
    /// Press Enter afterwards.
    #[serde(default)]
    pub submit: bool,
}

/// `press`: a key or chord (`Enter`, `Control+a`, `Shift+Tab`), optionally on a ref.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum PressArg {
    Key(String),
    Full {
        key: String,
        #[serde(rename = "ref", default)]
        ref_: Option<String>,
    },
}

/// `select`: choose options of a select by value or visible text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectArgs {
    #[serde(rename = "ref")]
    pub ref_: String,
    /// One value or several (multiple selects).
    pub values: OneOrMany,
}

/// A string or a list of strings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub fn to_vec(&self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

/// `scroll`: a ref into view, or the page by a delta / to a position / in a direction.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScrollArgs {
    #[serde(rename = "ref", default)]
    pub ref_: Option<String>,
    /// up, down, left, right (one viewport less a margin).
    #[serde(default)]
    pub direction: Option<String>,
    #[serde(default)]
    pub dx: Option<f64>,
    #[serde(default)]
    pub dy: Option<f64>,
    /// Absolute position [x, y].
    #[serde(default)]
    pub to: Option<[f64; 2]>,
}

/// `drag`: press on one ref, move to another, release.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DragArgs {
    pub from: String,
    pub to: String,
}

/// `upload`: files for a file input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UploadArgs {
    #[serde(rename = "ref")]
    pub ref_: String,
    pub files: OneOrMany,
}

/// `wait`: until a condition holds (or `hidden`: until it stops holding), bounded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitArgs {
    /// Visible text on the page (case-insensitive substring).
    #[serde(default)]
    pub text: Option<String>,
    /// A ref that must resolve (still there, same role and name).
    #[serde(rename = "ref", default)]
    pub ref_: Option<String>,
    /// A CSS selector matching a visible element.
    #[serde(default)]
    pub selector: Option<String>,
    /// The URL contains this (or matches it with `regex: true`).
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub regex: bool,
    /// Wait for the condition to stop holding.
    #[serde(default)]
    pub hidden: bool,
    /// Limit in ms (default: the step file's timeout).
    #[serde(default)]
    pub timeout: Option<u64>,
}

/// `assert`: fails the step when the condition does not hold now.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AssertArgs {
    #[serde(default)]
    pub text: Option<String>,
    #[serde(rename = "ref", default)]
    pub ref_: Option<String>,
    #[serde(default)]
    pub selector: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    /// The ref's value equals this.
    #[serde(default)]
    pub value: Option<String>,
    /// The ref is checked (true) or not (false).
    #[serde(default)]
    pub checked: Option<bool>,
    /// Assert the condition does not hold.
    #[serde(default)]
    pub not: bool,
}

/// `get`: something about a ref, uncut: text (default), value, name, role, html, box, attr:NAME.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum GetArg {
    Ref(String),
    Full {
        #[serde(rename = "ref")]
        ref_: String,
        #[serde(default)]
        what: Option<String>,
    },
}

/// `eval`: a JavaScript expression (its JSON value is the output).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum EvalArg {
    Expr(String),
    Full {
        expression: String,
        /// Page through a large result (arrays and strings).
        #[serde(default)]
        offset: Option<usize>,
        #[serde(default)]
        limit: Option<usize>,
    },
}

/// `viewport`: the window's inner size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewportArgs {
    pub width: u32,
    pub height: u32,
}

/// `frame`: which frame later steps act in: `"main"`, an index, or an iframe ref.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FrameArg {
    Index(u16),
    Name(String),
}

/// `cookies`: list (default), set or clear.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CookiesArgs {
    /// list | set | clear
    #[serde(default)]
    pub action: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub value: Option<String>,
}

/// `console`: messages logged by the page since the engine was installed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConsoleArgs {
    #[serde(default)]
    pub clear: bool,
}

/// `screenshot`: a PNG of the viewport (or of a ref), written to `path` or an artifact.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScreenshotArgs {
    #[serde(default)]
    pub path: Option<String>,
    #[serde(rename = "ref", default)]
    pub ref_: Option<String>,
}

/// `snapshot` options (SPEC 3/4).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SnapshotArgs {
    /// full (default), interactive, summary.
    #[serde(default)]
    pub detail: Option<String>,
    #[serde(default)]
    pub all_refs: bool,
    /// Answer `{"unchanged": true}` when nothing changed since this snapshot (e.g. "s3").
    #[serde(default)]
    pub since: Option<String>,
    #[serde(default)]
    pub viewport: bool,
    /// A ref, a CSS selector or role=ROLE.
    #[serde(default)]
    pub root: Option<String>,
    #[serde(default)]
    pub max_nodes: Option<u64>,
    /// text (default) or json.
    #[serde(default, rename = "output_format", alias = "format")]
    pub format: Option<String>,
    #[serde(default)]
    pub verbose: bool,
    /// Capture without returning the tree.
    #[serde(default, rename = "silent_mode", alias = "silent")]
    pub silent: bool,
    /// JMESPath query over the snapshot.
    #[serde(default, rename = "jmespath_query", alias = "query")]
    pub query: Option<String>,
    /// Query the flattened node list (`_depth`, `_parent_role`, `_index`).
    #[serde(default)]
    pub flatten: bool,
    /// Page size of a query result (1..10000).
    #[serde(default)]
    pub limit: Option<usize>,
    #[serde(default)]
    pub offset: Option<usize>,
    /// Cache key of an earlier paged result.
    #[serde(default, rename = "cache_key")]
    pub cache_key: Option<String>,
}

/// `search` (SPEC 4).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub exact: bool,
    #[serde(default)]
    pub pattern: Option<String>,
    #[serde(default)]
    pub role: Option<String>,
    /// {x, y, radius} in CSS pixels.
    #[serde(default)]
    pub near: Option<serde_json::Value>,
    #[serde(default)]
    pub limit: Option<usize>,
}

/// `query`: JMESPath over the snapshot (SPEC 4).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueryArgs {
    pub query: String,
    #[serde(default)]
    pub flatten: bool,
    #[serde(default)]
    pub limit: Option<usize>,
    #[serde(default)]
    pub offset: Option<usize>,
    #[serde(default)]
    pub cache_key: Option<String>,
}

/// Every step action (SPEC 5). Serialized externally tagged: `{"click": "s1e4"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Action {
    /// Open a URL in the current tab and wait for it to load.
    Goto(UrlArg),
    /// Reload the page.
    Reload(NoArgs),
    /// Go back in history.
    Back(NoArgs),
    /// Go forward in history.
    Forward(NoArgs),
    /// Open a new tab (optionally at a URL) and make it current.
    NewTab(Option<UrlArg>),
    /// Make tab t<N> current.
    SwitchTab(String),
    /// Close a tab (default: the current one).
    CloseTab(Option<String>),
    /// List tabs with their URLs and titles.
    ListTabs(NoArgs),
    /// Take a snapshot of the current page.
    Snapshot(SnapshotArgs),
    /// Find elements by text, regex, role or position.
    Search(SearchArgs),
    /// JMESPath query over the snapshot.
    Query(QueryArgs),
    /// Click an element by ref (real pointer input, after a covered-target check).
    Click(Target),
    /// Clear a field and type a value (real key input).
    Fill(FillArgs),
    /// Type text into a field (or the focused element) without clearing it.
    Type(TypeArgs),
    /// Press a key or chord.
    Press(PressArg),
    /// Move the pointer over an element.
    Hover(RefArg),
    /// Choose options of a select.
    Select(SelectArgs),
    /// Make a checkbox, radio or switch checked (no-op when it is).
    Check(RefArg),
    /// Make a checkbox or switch unchecked (no-op when it is).
    Uncheck(RefArg),
    /// Scroll a ref into view or the page.
    Scroll(ScrollArgs),
    /// Drag one element onto another.
    Drag(DragArgs),
    /// Set the files of a file input.
    Upload(UploadArgs),
    /// Wait for text, a ref, a selector or a URL (or for them to go away).
    Wait(WaitArgs),
    /// Pause for a number of milliseconds.
    Sleep(u64),
    /// Evaluate JavaScript in the page.
    Eval(EvalArg),
    /// Check a condition now; the step fails when it does not hold.
    Assert(AssertArgs),
    /// Read text, value, name, role, html, box or attr:NAME of a ref, uncut.
    Get(GetArg),
    /// The current URL.
    GetUrl(NoArgs),
    /// The current title.
    GetTitle(NoArgs),
    /// Resize the viewport.
    Viewport(ViewportArgs),
    /// Act in a frame: "main", an index, or an iframe ref.
    Frame(FrameArg),
    /// List, set or clear cookies.
    Cookies(CookiesArgs),
    /// Console messages of the page.
    Console(ConsoleArgs),
    /// A PNG screenshot.
    Screenshot(ScreenshotArgs),
}

/// Names of all actions, in SPEC order.
pub const ACTIONS: &[&str] = &[
    "goto",
    "reload",
    "back",
    "forward",
    "newTab",
    "switchTab",
    "closeTab",
    "listTabs",
    "snapshot",
    "search",
    "query",
    "click",
    "fill",
    "type",
    "press",
    "hover",
    "select",
    "check",
    "uncheck",
    "scroll",
    "drag",
    "upload",
    "wait",
    "sleep",
    "eval",
    "assert",
    "get",
    "getUrl",
    "getTitle",
    "viewport",
    "frame",
    "cookies",
    "console",
    "screenshot",
];

impl Action {
    /// The action's name as written in step files.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Goto(_) => "goto",
            Action::Reload(_) => "reload",
            Action::Back(_) => "back",
            Action::Forward(_) => "forward",
            Action::NewTab(_) => "newTab",
            Action::SwitchTab(_) => "switchTab",
            Action::CloseTab(_) => "closeTab",
            Action::ListTabs(_) => "listTabs",
            Action::Snapshot(_) => "snapshot",
            Action::Search(_) => "search",
            Action::Query(_) => "query",
            Action::Click(_) => "click",
            Action::Fill(_) => "fill",
            Action::Type(_) => "type",
            Action::Press(_) => "press",
            Action::Hover(_) => "hover",
            Action::Select(_) => "select",
            Action::Check(_) => "check",
            Action::Uncheck(_) => "uncheck",
            Action::Scroll(_) => "scroll",
            Action::Drag(_) => "drag",
            Action::Upload(_) => "upload",
            Action::Wait(_) => "wait",
            Action::Sleep(_) => "sleep",
            Action::Eval(_) => "eval",
            Action::Assert(_) => "assert",
            Action::Get(_) => "get",
            Action::GetUrl(_) => "getUrl",
            Action::GetTitle(_) => "getTitle",
            Action::Viewport(_) => "viewport",
            Action::Frame(_) => "frame",
            Action::Cookies(_) => "cookies",
            Action::Console(_) => "console",
            Action::Screenshot(_) => "screenshot",
        }
    }

    /// Actions that change what is on screen: the diff spans the first to the last of them.
    pub fn is_visual(&self) -> bool {
        matches!(
            self,
            Action::Click(_)
                | Action::Fill(_)
                | Action::Type(_)
                | Action::Press(_)
                | Action::Hover(_)
                | Action::Select(_)
                | Action::Check(_)
                | Action::Uncheck(_)
                | Action::Scroll(_)
                | Action::Drag(_)
                | Action::Goto(_)
        )
    }

    /// Actions that may change the page (they drop the snapshot cache).
    pub fn modifies_page(&self) -> bool {
        self.is_visual()
            || matches!(
                self,
                Action::Reload(_)
                    | Action::Back(_)
                    | Action::Forward(_)
                    | Action::Upload(_)
                    | Action::Eval(_)
                    | Action::Viewport(_)
                    | Action::Cookies(_)
            )
    }
}

/// One step: an action, maybe optional.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Step {
    #[serde(flatten)]
    pub action: Action,
    /// A failing optional step does not stop the run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
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
    fn every_action_is_in_the_list_and_the_schema() {
        let schema = step_schema().to_string();
        for a in ACTIONS {
            assert!(
                schema.contains(&format!("\"{a}\"")),
                "{a} missing from the schema"
            );
        }
        assert_eq!(ACTIONS.len(), 34);
    }

    #[test]
    fn steps_round_trip_in_their_file_form() {
        let s: Step = serde_json::from_str(r#"{"click": "s1e4", "optional": true}"#).unwrap();
        assert_eq!(s.action, Action::Click(Target::Ref("s1e4".into())));
        assert!(s.optional);
        assert_eq!(s.action.name(), "click");
        let f: Step = serde_json::from_str(r#"{"fill": {"ref": "s1e2", "value": "x"}}"#).unwrap();
        assert!(matches!(f.action, Action::Fill(_)));
        let r: Step = serde_json::from_str(r#"{"reload": {}}"#).unwrap();
        assert_eq!(r.action, Action::Reload(NoArgs {}));
    }
}
