//! The engine's entry points (the ENTRY table of js/src/90_api.js) as one typed enum: each
//! variant carries its arguments under the names the page reads.
//!
//! Owns: the method names and the JSON of their arguments. Must not: call the page
//! (engine.rs does) or know the replies (wire.rs does).

use crate::near::Near;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// One call of the engine: the entry point and its arguments. The entry point's name is the
/// variant's, in camelCase (`CheckedAfter` is `checkedAfter` in the engine's `ENTRY` table of
/// js/src/90_api.js; a unit test holds the two lists equal).
#[derive(Debug, Clone, PartialEq, Serialize, strum::EnumDiscriminants)]
#[serde(untagged)]
#[strum_discriminants(
    name(MethodKind),
    derive(strum::EnumIter, strum::IntoStaticStr),
    strum(serialize_all = "camelCase")
)]
pub enum Method {
    /// Walk the document (reply: `wire::WireSnapshot`).
    Snapshot(Walk),
    /// Forget the short-lived snapshot cache (`wire::Ack`).
    #[serde(serialize_with = "no_args")]
    Invalidate,
    /// Walks and cache hits of this document (`wire::EngineStats`).
    #[serde(serialize_with = "no_args")]
    Stats,
    /// Is the page as it was at snapshot `n`? (`wire::WireSince`)
    Since { n: u64 },
    /// The page fingerprint now (`wire::Fingerprint`).
    #[serde(serialize_with = "no_args")]
    Fingerprint,
    /// Text / pattern / role / near search; matches get refs of snapshot `n`
    /// (`wire::SearchReply`).
    Search(SearchQuery),
    /// Where to act on a ref, after scrolling it into view; with `check`, what is at that
    /// point must be the element (`wire::PointReply`).
    Point { r#ref: String, check: bool },
    /// Focus a ref, selecting its content with `select` (`wire::FocusReply`).
    Focus { r#ref: String, select: bool },
    /// Read `what` of a ref: text, value, name, role, html, box, attr:NAME
    /// (`wire::GetReply`).
    Get { r#ref: String, what: String },
    /// The checked state of a checkbox-like ref (`wire::CheckedReply`).
    Checked { r#ref: String },
    /// The same, of a ref that may be hidden now: a menu item checked by a click that closed
    /// its menu (`wire::CheckedReply`).
    CheckedAfter { r#ref: String },
    /// Select options of a native select by value or text (`wire::SelectReply`).
    Select { r#ref: String, values: Vec<String> },
    /// What kind of control a ref is for `set`, and its value (`wire::ControlReply`).
    Control { r#ref: String },
    /// Write a date/time/month/week/datetime-local/colour/range input's value with the
    /// events of a user's edit (`wire::ValueReply`).
    SetDirect { r#ref: String, value: String },
    /// The option of an ARIA combobox's popup matching `value`, or with `within` the option
    /// of an ARIA listbox itself (`wire::OptionPoint`).
    ComboOption {
        r#ref: String,
        value: String,
        within: bool,
    },
    /// Scroll a ref into view, a ref's scroll container in a direction, or the window
    /// (`wire::ScrollReply`).
    Scroll(ScrollTo),
    /// Before a drag's pointer gesture: the draggable element at its start (a point of the
    /// top-level viewport), watched for the browser's own drag and drop
    /// (`wire::DragStartReply`).
    DragStart { at: [f64; 2] },
    /// After it: HTML drag and drop's events when the browser fired none, dropped at `at`
    /// (`wire::DragEndReply`).
    DragEnd { at: [f64; 2] },
    /// One check of a `wait` / `assert` condition (`wire::ConditionReply`).
    Condition(Condition),
    /// Ready state, DOM quiet time and new resources, for settling (`wire::ActivityReply`).
    /// `quiet` is the DOM quiet time (ms) the host waits for and `poll` how long it sleeps
    /// before asking again when the page is not there yet (0: it will not ask again); the
    /// engine's warm-up may use that sleep.
    Activity { quiet: f64, poll: u64 },
    /// Start recording what the next action does (`wire::WatchReply`).
    #[serde(serialize_with = "no_args")]
    Watch,
    /// What happened since `Watch`: announced text, HTTP errors, the document's status
    /// (`wire::EffectsReply`).
    #[serde(serialize_with = "no_args")]
    Effects,
    /// Count rendered frames (`wire::PaintReply`).
    Paint(Paint),
    /// The console messages captured, emptying the log with `clear` (`wire::ConsoleReply`).
    Console { clear: bool },
    /// What is at points of the top-level viewport, or near them with `radius`; refs minted
    /// for what is found get snapshot `n` (`wire::ElementsAtReply`).
    ElementsAt {
        points: Vec<[f64; 2]>,
        n: u64,
        radius: Option<f64>,
        limit: usize,
    },
    /// The boxes of refs in top-level viewport CSS pixels (`wire::RefBoxesReply`); all the
    /// refs belong to one document (the first one's).
    RefBoxes { refs: Vec<String> },
    /// Is the engine there, and which build (`wire::Pong`).
    #[serde(serialize_with = "no_args")]
    Ping,
    /// Validate the form of a ref or selector and submit it as a user would; refs of its
    /// invalid fields belong to snapshot `n` (`wire::SubmitReply`).
    Submit {
        r#ref: Option<String>,
        selector: Option<String>,
        n: u64,
        report: bool,
    },
    /// What acting on a ref, a selector's element, the focused element (none of them) or the
    /// element at point (x, y) would do, for the operator's consent rules: `enter` for the
    /// Enter key in it, `submit` for the `submit` step (`wire::ConsentReply`).
    ConsentTarget {
        r#ref: Option<String>,
        selector: Option<String>,
        x: Option<f64>,
        y: Option<f64>,
        enter: bool,
        submit: bool,
    },
    /// Select characters [start, end) of a ref's text (`wire::SelectTextReply`).
    SelectText {
        r#ref: String,
        start: Option<u64>,
        end: Option<u64>,
    },
    /// Named groups of role / name / selector queries; matches get refs of snapshot `n`
    /// (`wire::QueryAllReply`).
    QueryAll { groups: Vec<QueryGroup>, n: u64 },
    /// The elements a locator names; matches get refs of snapshot `n`, and with none the
    /// elements of its role (`wire::LocateReply`).
    Locate { locator: serde_json::Value, n: u64 },
    /// The locator of a ref as it stands now (`wire::DescribeReply`).
    Describe { r#ref: String },
    /// A small map of the page; counts of `selectors` too (`wire::InspectReply`).
    Inspect { selectors: Vec<String> },
    /// The document's time origin, URL and ready state (`wire::DocStateReply`).
    #[serde(serialize_with = "no_args")]
    DocState,
    /// The refs, roles and names of the elements axe-core targets name
    /// (`wire::AuditRefsReply`).
    AuditRefs { targets: serde_json::Value },
    /// The clickable elements a keyboard user cannot use (`wire::AuditKeyboardReply`).
    #[serde(serialize_with = "no_args")]
    AuditKeyboard,
    /// Where focus is now, for a Tab walk (`wire::FocusStepReply`).
    #[serde(serialize_with = "no_args")]
    FocusStep,
    /// The region holding the elements focus cycled through (`wire::AuditNode`).
    TrapRegion { ids: Vec<u64> },
}

/// One group of `queryAll`: a label and a role / name or selector query.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct QueryGroup {
    pub label: String,
    pub role: Option<String>,
    pub name: Option<String>,
    pub exact: bool,
    pub selector: Option<String>,
    pub limit: usize,
}

fn no_args<S: Serializer>(s: S) -> Result<S::Ok, S::Error> {
    s.serialize_map(Some(0))?.end()
}

impl Method {
    /// The entry point's name in the page.
    pub fn name(&self) -> &'static str {
        MethodKind::from(self).into()
    }

    /// The arguments as the JSON text the entry point parses.
    pub fn args_json(&self) -> String {
        // plain structs of strings, numbers and booleans: serializing cannot fail
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }

    /// The ref the call is about, if any: such calls run in the document that minted it.
    pub fn target_ref(&self) -> Option<&str> {
        match self {
            Method::Point { r#ref, .. }
            | Method::Focus { r#ref, .. }
            | Method::Get { r#ref, .. }
            | Method::Checked { r#ref }
            | Method::CheckedAfter { r#ref }
            | Method::Select { r#ref, .. }
            | Method::Control { r#ref }
            | Method::SetDirect { r#ref, .. }
            | Method::ComboOption { r#ref, .. }
            | Method::SelectText { r#ref, .. }
            | Method::Submit {
                r#ref: Some(r#ref), ..
            }
            | Method::ConsentTarget {
                r#ref: Some(r#ref), ..
            }
            | Method::Scroll(ScrollTo::Ref { r#ref })
            | Method::Scroll(ScrollTo::Within { r#ref, .. })
            | Method::Condition(Condition::Ref { r#ref, .. }) => Some(r#ref),
            Method::RefBoxes { refs } => refs.first().map(String::as_str),
            _ => None,
        }
    }
}

/// `snapshot` options.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Walk {
    /// The snapshot number new refs get (`s<n>e<m>`).
    pub n: u64,
    /// Stop after this many nodes (0 = no limit).
    pub max_nodes: u64,
    /// Refs for every candidate (no compact refs above 100).
    pub all_refs: bool,
    pub verbose: bool,
    /// Only nodes that intersect the viewport.
    pub viewport: bool,
    /// Scope: a ref, a CSS selector or `role=ROLE`.
    pub root: Option<String>,
    /// Boxes for every node.
    pub boxes: bool,
    /// Refs for every element node (docs/reference/detail.md#budgets budgets: elided subtrees expand with --root).
    pub container_refs: bool,
    /// Neither read nor replace the short-lived snapshot cache.
    pub no_cache: bool,
    /// The cross-origin frame being read (0 for the tab's document): its refs get `f<k>`.
    pub frame: u32,
    /// Each element node's identity (`ids`), for comparing two snapshots element by element.
    pub ids: bool,
}

/// `search` arguments (docs/reference/search.md#search).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SearchQuery {
    /// Visible text (case-insensitive substring, or the whole name with `exact`).
    pub text: Option<String>,
    pub exact: bool,
    /// A JavaScript regular expression over names and values.
    pub pattern: Option<String>,
    pub role: Option<String>,
    pub near: Option<Near>,
    /// At most this many matches.
    pub limit: usize,
    /// The snapshot number refs minted for matches get.
    pub n: u64,
}

/// What `scroll` scrolls.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ScrollTo {
    /// A ref's scroll container (the ref's element or its nearest ancestor that scrolls that
    /// way) in a direction, by `amount` CSS pixels (default: most of what it shows).
    Within {
        r#ref: String,
        direction: String,
        amount: Option<f64>,
    },
    /// A ref into view.
    Ref { r#ref: String },
    /// The window to a point.
    Point { to: [f64; 2] },
    /// The window by a delta.
    By { dx: f64, dy: f64 },
}

/// A `wait` / `assert` condition; `hidden` waits for it to stop holding.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Condition {
    /// Visible text on the page (case-insensitive).
    Text { text: String, hidden: bool },
    /// A CSS selector matching a visible element.
    Selector { selector: String, hidden: bool },
    /// A ref that still resolves.
    Ref { r#ref: String, hidden: bool },
    /// The URL contains `url` (or matches it as a regular expression).
    Url {
        url: String,
        #[serde(rename = "urlRegex")]
        regex: bool,
    },
    /// The title contains `title`.
    Title { title: String },
}

/// `paint`: start counting two rendered frames, or ask whether those of `token` were.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    Start,
    Poll { token: u64 },
}

impl Serialize for Paint {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        match self {
            Paint::Start => m.serialize_entry("start", &true)?,
            Paint::Poll { token } => m.serialize_entry("token", token)?,
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_use_the_names_the_page_reads() {
        let cases = [
            (Method::Invalidate, "invalidate", "{}"),
            (Method::Since { n: 3 }, "since", r#"{"n":3}"#),
            (
                Method::Point {
                    r#ref: "s1e2".into(),
                    check: true,
                },
                "point",
                r#"{"ref":"s1e2","check":true}"#,
            ),
            (
                Method::Snapshot(Walk {
                    n: 2,
                    max_nodes: 5,
                    ..Walk::default()
                }),
                "snapshot",
                r#"{"n":2,"maxNodes":5,"allRefs":false,"verbose":false,"viewport":false,"root":null,"boxes":false,"containerRefs":false,"noCache":false,"frame":0,"ids":false}"#,
            ),
            (
                Method::Condition(Condition::Url {
                    url: "x".into(),
                    regex: true,
                }),
                "condition",
                r#"{"url":"x","urlRegex":true}"#,
            ),
            (
                Method::Scroll(ScrollTo::By { dx: 0.0, dy: 600.0 }),
                "scroll",
                r#"{"dx":0.0,"dy":600.0}"#,
            ),
            (
                Method::Scroll(ScrollTo::Within {
                    r#ref: "s1e3".into(),
                    direction: "down".into(),
                    amount: None,
                }),
                "scroll",
                r#"{"ref":"s1e3","direction":"down","amount":null}"#,
            ),
            (
                Method::DragEnd { at: [10.0, 20.0] },
                "dragEnd",
                r#"{"at":[10.0,20.0]}"#,
            ),
            (
                Method::Activity {
                    quiet: 120.0,
                    poll: 30,
                },
                "activity",
                r#"{"quiet":120.0,"poll":30}"#,
            ),
            (Method::Paint(Paint::Start), "paint", r#"{"start":true}"#),
            (
                Method::ComboOption {
                    r#ref: "s1e2".into(),
                    value: "Vegan".into(),
                    within: true,
                },
                "comboOption",
                r#"{"ref":"s1e2","value":"Vegan","within":true}"#,
            ),
            (
                Method::CheckedAfter {
                    r#ref: "s1e3".into(),
                },
                "checkedAfter",
                r#"{"ref":"s1e3"}"#,
            ),
            (
                Method::Paint(Paint::Poll { token: 4 }),
                "paint",
                r#"{"token":4}"#,
            ),
        ];
        for (m, name, args) in cases {
            assert_eq!(m.name(), name);
            assert_eq!(m.args_json(), args, "{m:?}");
        }
        let get = Method::Get {
            r#ref: "f2s1e3".into(),
            what: "value".into(),
        };
        assert_eq!(get.target_ref(), Some("f2s1e3"));
        assert_eq!(Method::Stats.target_ref(), None);
    }
}

#[cfg(test)]
mod entry_tests {
    use super::MethodKind;
    use strum::IntoEnumIterator;

    /// Every method the host can call is an entry point of the engine, and every entry point
    /// is a method: the names in `ENTRY` (js/src/90_api.js) are the variants' names.
    #[test]
    fn every_method_is_an_engine_entry_and_back() {
        let js = include_str!("../../js/src/90_api.js");
        let start = js.find("const ENTRY = {").expect("the ENTRY table");
        let end = start + js[start..].find("\n};").expect("its end");
        let key = regex::Regex::new(r"(?m)^  (\w+):").unwrap();
        let mut entries: Vec<String> = key
            .captures_iter(&js[start..end])
            .map(|c| c[1].to_string())
            .collect();
        entries.sort();
        let mut methods: Vec<String> = MethodKind::iter()
            .map(|m| <&str>::from(m).to_string())
            .collect();
        methods.sort();
        assert_eq!(methods, entries);
    }
}
