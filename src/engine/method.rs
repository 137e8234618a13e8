//! The engine's entry points (the ENTRY table of js/src/90_api.js), one row each in
//! [`methods!`]: its arguments under the names the page reads and the type of its reply.
//!
//! Owns: the method names, the JSON of their arguments, which reply each gives. Must not:
//! call the page (engine.rs does) or decode replies (reply.rs does; wire.rs has their types).

use crate::near::Near;
use crate::wire;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde::ser::{SerializeMap, Serializer};

/// A call of one entry point, typed with the reply that entry point gives: `engine::call`
/// with an [`entry::Point`] returns a `wire::PointReply`, and a caller cannot ask for another
/// type. Each row of [`methods!`] implements it; so do the argument types of the entry points
/// that take one whole (`Walk` is the `snapshot` call).
pub trait Entry: Into<Method> {
    /// What the page replies.
    type Reply: DeserializeOwned;
}

/// The one list of the engine's entry points: a row per entry point, `Name {arguments} ->
/// reply` (or `Name(ArgumentType) -> reply`). It makes the [`Method`] enum (its name and the
/// JSON of its arguments), a struct per braced row in [`entry`] (`entry::Point { r#ref,
/// check }`), and the [`Entry`] impl that ties each call to its reply type.
macro_rules! methods {
    ($( $(#[$doc:meta])* $V:ident $({ $($f:ident : $t:ty),* $(,)? })? $(( $inner:ty ))? -> $R:ty; )*) => {
        /// One call of the engine: the entry point and its arguments. The entry point's name
        /// is the variant's, in camelCase (`CheckedAfter` is `checkedAfter` in the engine's
        /// `ENTRY` table of js/src/90_api.js; a unit test holds the two lists equal).
        #[derive(Debug, Clone, PartialEq, Serialize, strum::EnumDiscriminants)]
        #[serde(untagged)]
        #[strum_discriminants(
            name(MethodKind),
            derive(strum::EnumIter, strum::IntoStaticStr),
            strum(serialize_all = "camelCase")
        )]
        pub enum Method {
            $( $(#[$doc])* $V $({ $($f: $t),* })? $(($inner))?, )*
        }

        /// The calls of the entry points that take named arguments, one struct each, with
        /// the reply type of its row.
        pub mod entry {
            #[allow(unused_imports)]
            use super::*;
            $( methods!(@entry $(#[$doc])* $V $({ $($f : $t),* })? $(( $inner ))? -> $R); )*
        }
    };
    (@entry $(#[$doc:meta])* $V:ident { $($f:ident : $t:ty),* } -> $R:ty) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $V { $(pub $f: $t),* }
        impl From<$V> for Method {
            fn from(c: $V) -> Method {
                let $V { $($f),* } = c;
                Method::$V { $($f),* }
            }
        }
        impl Entry for $V {
            type Reply = $R;
        }
    };
    (@entry $(#[$doc:meta])* $V:ident ( $inner:ty ) -> $R:ty) => {
        impl From<$inner> for Method {
            fn from(c: $inner) -> Method {
                Method::$V(c)
            }
        }
        impl Entry for $inner {
            type Reply = $R;
        }
    };
}

methods! {
    /// Walk the document.
    Snapshot(Walk) -> wire::WireSnapshot;
    /// Forget the short-lived snapshot cache.
    Invalidate {} -> wire::Ack;
    /// Walks and cache hits of this document.
    Stats {} -> wire::EngineStats;
    /// Is the page as it was at snapshot `n`?
    Since { n: u64 } -> wire::WireSince;
    /// The page fingerprint now.
    Fingerprint {} -> wire::Fingerprint;
    /// The document's URL, title and scroll (a reply's `context`).
    Here {} -> wire::Here;
    /// Text / pattern / role / near search; matches get refs of snapshot `n`.
    Search(SearchQuery) -> wire::SearchReply;
    /// Where to act on a ref, after scrolling it into view; with `check`, what is at that point
    /// must be the element.
    Point { r#ref: String, check: bool } -> wire::PointReply;
    /// Focus a ref, selecting its content with `select`.
    Focus { r#ref: String, select: bool } -> wire::FocusReply;
    /// Read `what` of a ref: text, value, name, role, html, box, attr:NAME.
    Get { r#ref: String, what: String } -> wire::GetReply;
    /// The checked state of a checkbox-like ref.
    Checked { r#ref: String } -> wire::CheckedReply;
    /// The same, of a ref that may be hidden now: a menu item checked by a click that closed
    /// its menu.
    CheckedAfter { r#ref: String } -> wire::CheckedReply;
    /// Select options of a native select by value or text.
    Select { r#ref: String, values: Vec<String> } -> wire::SelectReply;
    /// What kind of control a ref is for `set`, and its value.
    Control { r#ref: String } -> wire::ControlReply;
    /// Write a date/time/month/week/datetime-local/colour/range input's value with the events
    /// of a user's edit.
    SetDirect { r#ref: String, value: String } -> wire::ValueReply;
    /// The option of an ARIA combobox's popup matching `value`, or with `within` the option of
    /// an ARIA listbox itself.
    ComboOption { r#ref: String, value: String, within: bool } -> wire::OptionPoint;
    /// Scroll a ref into view, a ref's scroll container in a direction, or the window.
    Scroll(ScrollTo) -> wire::ScrollReply;
    /// Before a drag's pointer gesture: the draggable element at its start (a point of the top-
    /// level viewport), watched for the browser's own drag and drop.
    DragStart { at: [f64; 2] } -> wire::DragStartReply;
    /// After it: HTML drag and drop's events when the browser fired none, dropped at `at`.
    DragEnd { at: [f64; 2] } -> wire::DragEndReply;
    /// One check of a `wait` / `assert` condition.
    Condition(Condition) -> wire::ConditionReply;
    /// Ready state, DOM quiet time and new resources, for settling. `quiet` is the DOM quiet
    /// time (ms) the host waits for and `poll` how long it sleeps before asking again when the
    /// page is not there yet (0: it will not ask again); the engine's warm-up may use that
    /// sleep.
    Activity { quiet: f64, poll: u64 } -> wire::ActivityReply;
    /// Start recording what the next action does.
    Watch {} -> wire::WatchReply;
    /// What happened since `Watch`: announced text, HTTP errors, the document's status.
    Effects {} -> wire::EffectsReply;
    /// Count rendered frames.
    Paint(Paint) -> wire::PaintReply;
    /// The console messages captured, emptying the log with `clear`.
    Console { clear: bool } -> wire::ConsoleReply;
    /// What is at points of the top-level viewport, or near them with `radius`; refs minted for
    /// what is found get snapshot `n`.
    ElementsAt { points: Vec<[f64; 2]>, n: u64, radius: Option<f64>, limit: usize } -> wire::points::ElementsAtReply;
    /// The boxes of refs in top-level viewport CSS pixels; all the refs belong to one document
    /// (the first one's).
    RefBoxes { refs: Vec<String> } -> wire::points::RefBoxesReply;
    /// Is the engine there, and which build.
    Ping {} -> wire::Pong;
    /// Validate the form of a ref or selector and submit it as a user would; refs of its
    /// invalid fields belong to snapshot `n`.
    Submit { r#ref: Option<String>, selector: Option<String>, n: u64, report: bool } -> wire::SubmitReply;
    /// What acting on a ref, a selector's element, the focused element (none of them) or the
    /// element at point (x, y) would do, for the operator's consent rules: `enter` for the
    /// Enter key in it, `submit` for the `submit` step.
    ConsentTarget { r#ref: Option<String>, selector: Option<String>, x: Option<f64>, y: Option<f64>, enter: bool, submit: bool } -> wire::ConsentReply;
    /// Select characters [start, end) of a ref's text.
    SelectText { r#ref: String, start: Option<u64>, end: Option<u64> } -> wire::SelectTextReply;
    /// Named groups of role / name / selector queries; matches get refs of snapshot `n`.
    QueryAll { groups: Vec<QueryGroup>, n: u64 } -> wire::QueryAllReply;
    /// The elements a locator names; matches get refs of snapshot `n`, and with none the
    /// elements of its role.
    Locate { locator: serde_json::Value, n: u64 } -> wire::LocateReply;
    /// The locator of a ref as it stands now.
    Describe { r#ref: String } -> wire::DescribeReply;
    /// A small map of the page; counts of `selectors` too.
    Inspect { selectors: Vec<String> } -> wire::InspectReply;
    /// The document's time origin, URL and ready state.
    DocState {} -> wire::DocStateReply;
    /// The refs, roles and names of the elements axe-core targets name.
    AuditRefs { targets: serde_json::Value } -> wire::audit::AuditRefsReply;
    /// The clickable elements a keyboard user cannot use.
    AuditKeyboard {} -> wire::audit::AuditKeyboardReply;
    /// Where focus is now, for a Tab walk.
    FocusStep {} -> wire::audit::AuditNode;
    /// The region holding the elements focus cycled through.
    TrapRegion { ids: Vec<u64> } -> wire::audit::AuditNode;
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
    /// It is read from the arguments the page gets (a `ref`, or the first of `refs`), so a
    /// new entry point about a ref is routed to its frame without a list to keep.
    pub fn target_ref(&self) -> Option<String> {
        target_ref_in(&serde_json::to_value(self).ok()?)
    }

    /// The arguments as JSON text and the ref the call is about, from one serialization (a
    /// call about a ref is routed by it, then sent).
    pub fn args_and_target(&self) -> (String, Option<String>) {
        match serde_json::to_value(self) {
            Ok(v) => (v.to_string(), target_ref_in(&v)),
            Err(_) => ("{}".into(), None),
        }
    }
}

/// A call's `ref`, or the first of its `refs`.
fn target_ref_in(v: &serde_json::Value) -> Option<String> {
    let r = v
        .get("ref")
        .or_else(|| v.get("refs").and_then(|r| r.get(0)))?;
    r.as_str().map(str::to_string)
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
    /// With `no_cache`: the engine's last walk may serve when the page has not changed
    /// since it (js/src/72_memo.js); without, `no_cache` always walks.
    pub reuse: bool,
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
            (Method::Invalidate {}, "invalidate", "{}"),
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
                r#"{"n":2,"maxNodes":5,"allRefs":false,"verbose":false,"viewport":false,"root":null,"boxes":false,"containerRefs":false,"noCache":false,"reuse":false,"frame":0,"ids":false}"#,
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
        assert_eq!(get.target_ref().as_deref(), Some("f2s1e3"));
        assert_eq!(Method::Stats {}.target_ref(), None);
        let boxes = Method::RefBoxes {
            refs: vec!["f1s2e3".into(), "f1s2e4".into()],
        };
        assert_eq!(boxes.target_ref().as_deref(), Some("f1s2e3"));
        let submit = Method::Submit {
            r#ref: None,
            selector: Some("form".into()),
            n: 1,
            report: false,
        };
        assert_eq!(submit.target_ref(), None);
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
