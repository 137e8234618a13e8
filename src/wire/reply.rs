//! The replies of the engine's entry points: the one [`Reply`] enum tagged by `kind`, the
//! payload of each method's success, and the WebDriver references the element helpers take
//! and return.
//!
//! Owns: those shapes and the fast decode of successes. Must not: turn failures into errors
//! (the engine does).

use super::Tri;
use serde::de::{self, DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};

/// A reply of an engine entry point, tagged by `kind`: `ok` (and the other successes:
/// `snapshot`, `stats`, `paint`, `pong`) with the method's own payload `T`, or one of the
/// expected failures the page reports as a tagged value (never an exception). The replies
/// of `since` and `fingerprint` carry no `kind`: they are always `Ok` ([`decode_reply`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reply<T> {
    #[serde(alias = "snapshot", alias = "stats", alias = "paint", alias = "pong")]
    Ok(T),
    /// A ref never issued in this document.
    Unknown { r#ref: String },
    /// The ref's element left the document (or is hidden now).
    Gone {
        r#ref: String,
        role: String,
        name: String,
    },
    /// The ref's element has another role, or a name not similar to the old one.
    Changed {
        r#ref: String,
        was: (String, String),
        now: (String, String),
    },
    /// The page rewrote the ref's entry in `window.__ariaRefs`.
    Tampered {
        r#ref: String,
        role: String,
        name: String,
    },
    /// Other elements lie over every point of the ref's element a user could see (`point`).
    Covered(Covered),
    /// No part of the ref's element is in sight, even scrolled into view: a container whose
    /// overflow is hidden cuts it off (`point`; `by` is that container).
    Clipped(Covered),
    /// The ref's element has no size (`point`).
    Invisible(Target),
    /// The ref's element refused focus (`focus`).
    NotFocusable(Target),
    /// `select` on an element that is not a native `<select>`.
    NotSelect(Target),
    /// `select`: values no option has, and the options there are (at most 50).
    NoOption {
        #[serde(default)]
        r#ref: String,
        missing: Vec<String>,
        available: Vec<String>,
    },
    /// `setDirect` on an element that is not a date, time, colour or range input.
    NotSettable(Target),
    /// `comboOption`: no option of the combobox's popup matches (the options shown, at
    /// most 30).
    NoComboOption {
        #[serde(default)]
        r#ref: String,
        value: String,
        available: Vec<String>,
        /// The element looked in: "combobox" (its popup) or "listbox" (itself).
        #[serde(default)]
        what: String,
        /// It takes typed text (an editable combobox: free text is `fill`'s).
        #[serde(default)]
        typed: bool,
    },
    /// `select` of several values in a single select.
    NotMultiple {
        #[serde(default)]
        r#ref: String,
    },
    /// `snapshot`: the root (`role=...` or a selector) matches nothing.
    NoRoot { root: String },
    /// A selector the page's `querySelectorAll` refuses: the snapshot's root, or the
    /// `selector` of a condition.
    BadSelector {
        root: Option<String>,
        selector: Option<String>,
    },
    /// A regular expression JavaScript refuses (`search`, `condition`).
    BadPattern { pattern: String },
    /// `get` of something the engine cannot read.
    BadWhat { what: String },
    /// The engine threw (a bug, or a page that broke what the engine relies on).
    Exception { message: Option<String> },
    /// `submit`: the ref or selector is neither a form nor inside one.
    NoForm(Target),
    /// `submit`: the selector matches nothing.
    NoMatch { selector: String },
    /// `selectText`: end before start.
    BadRange {
        #[serde(default)]
        r#ref: String,
        start: u64,
        end: u64,
        length: u64,
    },
    /// `selectText` offsets on an input type without the selection API (email, number).
    NoSelectionApi {
        #[serde(default)]
        r#ref: String,
        #[serde(default)]
        role: String,
        #[serde(default)]
        name: String,
        #[serde(default, rename = "type")]
        kind: String,
    },
    /// An entry point this engine does not have.
    BadMethod {
        #[serde(default)]
        method: String,
    },
}

/// The kinds of successful replies: their payload is decoded straight into the method's
/// type (the tagged enum would buffer a whole snapshot before decoding it).
const SUCCESS_KINDS: &[&str] = &["ok", "snapshot", "stats", "paint", "pong"];

/// The `kind` of a reply, when the reply starts with it (the engine writes `kind` first).
pub fn reply_kind(raw: &str) -> Option<&str> {
    let rest = raw.strip_prefix("{\"kind\":\"")?;
    rest.find('"').map(|end| &rest[..end])
}

/// True for the kind of a successful reply.
pub fn is_success(kind: &str) -> bool {
    SUCCESS_KINDS.contains(&kind)
}

/// Decodes the JSON text of an engine reply: a success (or an untagged reply) into
/// `Reply::Ok` with `T` read straight from the text, anything else through the tag.
pub fn decode_reply<T: DeserializeOwned>(raw: &str) -> serde_json::Result<Reply<T>> {
    match reply_kind(raw) {
        Some(kind) if !is_success(kind) => serde_json::from_str(raw),
        // the wire is flat (a node list with parent indexes): serde_json's depth limit holds
        _ => serde_json::from_str(raw).map(Reply::Ok),
    }
}

/// The element a failure is about: its ref, role and name.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Target {
    #[serde(default)]
    pub r#ref: String,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub name: String,
}

/// `covered`: the ref's element, and what covers it (the highest ancestor of what is at its
/// centre that does not contain it).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Covered {
    #[serde(default)]
    pub r#ref: String,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub by: Cover,
}

/// What covers an element: role (or tag) and name.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Cover {
    #[serde(default = "element")]
    pub role: String,
    #[serde(default)]
    pub name: String,
}

fn element() -> String {
    "element".into()
}

impl Default for Cover {
    fn default() -> Self {
        Cover {
            role: element(),
            name: String::new(),
        }
    }
}

/// A reply whose payload is not read (`invalidate`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
pub struct Ack {}

/// `here`: where the tab's document is, read in the engine's realm (the reply's `context`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Here {
    pub url: String,
    pub title: String,
    pub scroll: [i64; 2],
}

/// `stats`: the engine's walks and snapshot cache hits in this document.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
pub struct EngineStats {
    pub walks: u64,
    pub cache_hits: u64,
}

/// `ping`: the engine's build.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Pong {
    pub hash: String,
}

/// Reply of `since`.
#[derive(Debug, Clone, Deserialize)]
pub struct WireSince {
    pub unchanged: bool,
    pub known: bool,
}

/// `point`: where to act on a ref, in top-level viewport CSS pixels, after scrolling it into
/// view.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct PointReply {
    #[serde(default, deserialize_with = "number_or_zero")]
    pub x: f64,
    #[serde(default, deserialize_with = "number_or_zero")]
    pub y: f64,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub name: String,
    /// The name changed a little since the snapshot (the element is used as it is now).
    #[serde(default)]
    pub minor: bool,
    #[serde(default)]
    pub tag: String,
    /// The visible part of its box [x, y, w, h] (the tab's viewport, CSS pixels).
    #[serde(default)]
    pub r#box: Option<[f64; 4]>,
    /// Without the check: what lies over every visible point of it, so the input at its
    /// centre goes there (the host says so).
    #[serde(default)]
    pub cover: Option<Cover>,
}

/// `focus`: the focused element and its value.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct FocusReply {
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub minor: bool,
    #[serde(default)]
    pub tag: String,
    pub value: Option<String>,
    /// An `<input type=password>`: what is typed there is remembered and masked
    /// (docs/reference/policy.md#typed-passwords).
    #[serde(default)]
    pub password: bool,
}

/// `get`: what was read (uncut), or nothing (an absent attribute).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GetReply {
    pub value: Option<GetValue>,
}

/// A value `get` read: text, or a box `[x, y, w, h]` in CSS pixels (numbers as the page
/// wrote them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GetValue {
    Text(String),
    Box([Option<serde_json::Number>; 4]),
}

impl GetValue {
    /// The text read, when it is text.
    pub fn text(&self) -> Option<&str> {
        match self {
            GetValue::Text(s) => Some(s),
            GetValue::Box(_) => None,
        }
    }
}

/// `checked`: the checked state of a checkbox-like ref.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CheckedReply {
    /// true, false or "mixed".
    pub checked: Tri,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub name: String,
}

/// `select`: the select's value after the change (the selected options' text).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SelectReply {
    pub value: Option<String>,
}

/// `control`: what kind of control a ref is for `set` (docs/reference/actions.md), and its value now.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ControlReply {
    /// text, date, time, month, week, datetime-local, color, range, select,
    /// select-multiple, checkbox, radio, switch, toggle (a button with aria-pressed),
    /// combobox, aria-range (ARIA sliders and spin buttons), listbox and option (ARIA ones),
    /// contenteditable, file or other.
    pub control: String,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub name: String,
    /// Takes typed text (text fields, editable comboboxes, contenteditable).
    #[serde(default)]
    pub editable: bool,
    #[serde(default)]
    pub disabled: bool,
    #[serde(default)]
    pub readonly: bool,
    /// An `<input type=password>` (the operator's policy may turn typing into it off).
    #[serde(default)]
    pub password: bool,
    /// The URL of the document the control is in (its origin decides where a secret may be
    /// typed: docs/reference/policy.md#secrets).
    #[serde(default)]
    pub doc: String,
    /// The value as the page holds it (selects: the selected options' text).
    #[serde(default)]
    pub value: String,
    /// Selects: the selected options.
    #[serde(default)]
    pub selected: Option<Vec<OptionValue>>,
    /// Checkboxes, radios, switches and options (their selection).
    #[serde(default)]
    pub checked: Option<Tri>,
    /// ARIA sliders and spin buttons (`aria-range`): their range properties.
    #[serde(default)]
    pub range: Option<RangeState>,
    /// Comboboxes: what their popup is (listbox, grid, tree, dialog or menu), and whether
    /// it is open (aria-expanded).
    #[serde(default)]
    pub popup: Option<String>,
    #[serde(default)]
    pub expanded: bool,
    /// ARIA listboxes and their options: whether several options may be selected.
    #[serde(default)]
    pub multiple: bool,
}

/// What an ARIA slider or spin button holds (WAI-ARIA 1.2 range properties); numbers are
/// absent when the attribute is, or is not a number.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct RangeState {
    pub now: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// aria-valuetext ("" when absent).
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub vertical: bool,
}

/// A selected option of a native select: its value and its label.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct OptionValue {
    pub value: String,
    pub label: String,
}

/// `setDirect`: the input's value after the write (the browser may have sanitized it).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ValueReply {
    pub value: String,
}

/// `comboOption`: where the matching option is, its name, and whether it is selected.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OptionPoint {
    pub x: f64,
    pub y: f64,
    pub name: String,
    #[serde(default)]
    pub selected: bool,
}

/// `scroll`: the scroll position afterwards (the window's, or with a ref and a direction
/// that of the element that scrolled), and for a scroll in a direction how far it moved,
/// whether it is at its end that way and what scrolled.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ScrollReply {
    pub scroll: [i64; 2],
    #[serde(default)]
    pub by: Option<[i64; 2]>,
    #[serde(default)]
    pub end: Option<bool>,
    #[serde(default)]
    pub scroller: Option<Cover>,
    /// The element scrolled is the document.
    #[serde(default)]
    pub page: bool,
}

/// `dragStart`: whether the drag starts on an element with draggable="true".
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
pub struct DragStartReply {
    #[serde(default)]
    pub draggable: bool,
}

/// `dragEnd`: whether the engine fired HTML drag and drop's events (the browser did not),
/// whether the target took the drop, and whether the browser ran its own drag.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
pub struct DragEndReply {
    #[serde(default)]
    pub fired: bool,
    #[serde(default)]
    pub dropped: bool,
    #[serde(default)]
    pub native: bool,
}

/// `condition`: whether it holds now.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct ConditionReply {
    #[serde(default)]
    pub met: bool,
    /// Ref conditions: how the ref resolved (`ok`, `gone`, `changed`...).
    pub state: Option<String>,
    /// URL conditions: the document's URL.
    pub url: Option<String>,
}

/// `activity`: what settling after an action waits on.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct ActivityReply {
    /// The document's `readyState`.
    #[serde(default)]
    pub ready: String,
    /// Milliseconds since the last DOM mutation.
    #[serde(default, deserialize_with = "number_or_zero")]
    pub quiet_ms: f64,
    /// Resources loaded since the last call.
    #[serde(default)]
    pub new_resources: bool,
    #[serde(default)]
    pub url: String,
}

/// `paint`: whether the frames counted from `start` were rendered, and the token to poll.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct PaintReply {
    #[serde(default = "yes")]
    pub done: bool,
    pub token: Option<u64>,
}

fn yes() -> bool {
    true
}

/// `console`: the messages captured since install (or the last clear).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ConsoleReply {
    pub messages: Vec<ConsoleMessage>,
}

/// One console message, passed on to the step's output as the page recorded it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConsoleMessage {
    pub level: String,
    pub text: String,
    /// `performance.now()` when it was logged.
    pub at: serde_json::Number,
}

/// One run of a `poll`, `wait` or step hook function in the page's main world
/// (`engine::poll_once`): its value (a promise's, awaited), or what it threw.
#[derive(Debug, Clone, PartialEq)]
pub enum PollReply {
    Value(serde_json::Value),
    Threw(String),
}

impl From<serde_json::Value> for PollReply {
    /// The wrapper's `{"ok": v}` or `{"threw": message}`.
    fn from(v: serde_json::Value) -> Self {
        if let Some(t) = v.get("threw") {
            return PollReply::Threw(t.as_str().unwrap_or_default().to_string());
        }
        PollReply::Value(v.get("ok").cloned().unwrap_or(serde_json::Value::Null))
    }
}

/// `watch`: recording started at the page's `performance.now()` `since`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct WatchReply {
    #[serde(default, deserialize_with = "number_or_zero")]
    pub since: f64,
    /// The document's time origin (a new document has a later one).
    #[serde(default, deserialize_with = "number_or_zero")]
    pub origin: f64,
    /// The document's URL.
    #[serde(default)]
    pub url: String,
}

/// `effects`: what the page showed and fetched during an action (docs/reference/replies.md#effects).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct EffectsReply {
    /// Text live regions showed, in order, without repeats.
    #[serde(default)]
    pub announced: Vec<String>,
    /// Resources fetched meanwhile that answered 400 or more.
    #[serde(default)]
    pub http_errors: Vec<HttpError>,
    /// The document's HTTP status (0: unknown).
    #[serde(default)]
    pub status: u16,
    #[serde(default)]
    pub url: String,
    /// The document is newer than the `watch` call (the action navigated).
    #[serde(default)]
    pub fresh: bool,
    /// A click followed a download link (`<a download>`) and the page did not cancel it:
    /// a download is on its way even if the browser has not announced it yet.
    #[serde(default)]
    pub download_link: bool,
}

/// One failed request (Resource Timing: no method is known).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HttpError {
    pub url: String,
    pub status: u16,
    /// How it was fetched (`fetch`, `xmlhttprequest`, `img`, `script`...).
    #[serde(default)]
    pub kind: String,
}

/// `search`: the first matches and how many there were.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SearchReply {
    pub matches: Vec<SearchMatch>,
    pub total: u64,
}

/// One search match, passed on to the step's output in the page's field order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchMatch {
    pub r#ref: Option<String>,
    pub role: String,
    pub name: String,
    /// A nameless generic's words (`Node::words`), or the text of the nameless element that
    /// holds a text match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Landmarks and dialogs around it (`main > form "Checkout"`).
    pub path: String,
    #[serde(rename = "box")]
    pub bbox: Option<[Option<serde_json::Number>; 4]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Distance from the `near` point, CSS pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<serde_json::Number>,
    /// The text of the item (list item, article, row...) or the small block around the
    /// match, at most 200 characters, told once per item (docs/reference/search.md#search).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// The controls of the nearest container around the match (a card, row, list item,
    /// article, region), with their refs: told once per container, cut to a byte cap by the
    /// host (docs/reference/search.md#search).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controls: Vec<SearchControl>,
    /// How many more controls that container holds than `controls` lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more_controls: Option<u64>,
}

/// One control of a search match's container.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchControl {
    pub r#ref: String,
    pub role: String,
    pub name: String,
    /// A nameless generic's words (`Node::words`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A WebDriver reference to an element or a shadow root, as scripts return and take them:
/// a one-entry object (`{"element-6066-…": id}`, `{"shadow-6066-…": id}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebRef {
    /// The WebDriver identifier key (element or shadow root).
    pub key: String,
    pub id: String,
}

impl<'de> Deserialize<'de> for WebRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let m = std::collections::BTreeMap::<String, String>::deserialize(d)?;
        let mut it = m.into_iter();
        match (it.next(), it.next()) {
            (Some((key, id)), None) => Ok(WebRef { key, id }),
            _ => Err(de::Error::custom("a web reference has exactly one entry")),
        }
    }
}

impl Serialize for WebRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(&self.key, &self.id)?;
        m.end()
    }
}

/// How to reach a cross-origin frame of the last walk (`frameRoute`, `frameRoutes`): the
/// iframe elements from the current document down, and the frame's content origin in the
/// current document's viewport.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct WireRoute {
    /// The frame's index (`frameRoutes` only).
    pub k: Option<u32>,
    #[serde(default, deserialize_with = "refs_or_skip")]
    pub chain: Vec<WebRef>,
    #[serde(default, deserialize_with = "number_or_zero")]
    pub x: f64,
    #[serde(default, deserialize_with = "number_or_zero")]
    pub y: f64,
}

/// A number, or 0 for null (JSON has no NaN: the page writes null for it).
fn number_or_zero<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(0.0))
}

/// Web references, skipping entries that are not one (a null for a vanished element).
fn refs_or_skip<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<WebRef>, D::Error> {
    let all = Option::<Vec<serde_json::Value>>::deserialize(d)?.unwrap_or_default();
    Ok(all
        .into_iter()
        .filter_map(|v| serde_json::from_value(v).ok())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_tagged_by_kind() {
        // successes of every kind decode straight into the method's payload
        let pong: Reply<Pong> =
            decode_reply(r#"{"kind":"pong","hash":"abc","engine_ms":0}"#).unwrap();
        assert!(matches!(pong, Reply::Ok(Pong { hash }) if hash == "abc"));
        // and through the tag alike
        let stats: Reply<EngineStats> =
            serde_json::from_str(r#"{"walks":2,"cache_hits":1,"kind":"stats"}"#).unwrap();
        assert!(matches!(
            stats,
            Reply::Ok(EngineStats {
                walks: 2,
                cache_hits: 1
            })
        ));
        // untagged replies are payloads
        let since: Reply<WireSince> = decode_reply(r#"{"unchanged":false,"known":false}"#).unwrap();
        assert!(matches!(since, Reply::Ok(WireSince { known: false, .. })));
        // failures are variants, whatever the payload type
        let covered: Reply<PointReply> = decode_reply(
            r#"{"kind":"covered","x":1,"y":2,"role":"button","name":"Pay","minor":false,"tag":"button","ref":"s1e2","by":{"role":"dialog","name":"Cookies"}}"#,
        )
        .unwrap();
        let Reply::Covered(c) = covered else {
            panic!("{covered:?}")
        };
        assert_eq!((c.r#ref.as_str(), c.by.role.as_str()), ("s1e2", "dialog"));
        assert_eq!(reply_kind(r#"{"kind":"gone","ref":"s1e1"}"#), Some("gone"));
        assert_eq!(reply_kind(r#"{"url":"x"}"#), None);
        // numbers the page wrote are passed on as written
        let g: GetReply = serde_json::from_str(r#"{"kind":"ok","value":[1,2.5,null,4]}"#).unwrap();
        assert_eq!(serde_json::to_string(&g.value).unwrap(), "[1,2.5,null,4]");
    }

    #[test]
    fn web_references_round_trip() {
        let key = "element-6066-11e4-a52e-4f735466cecf";
        let raw = format!(r#"{{"{key}":"abc"}}"#);
        let r: WebRef = serde_json::from_str(&raw).unwrap();
        assert_eq!((r.key.as_str(), r.id.as_str()), (key, "abc"));
        assert_eq!(serde_json::to_string(&r).unwrap(), raw);
        let route: WireRoute = serde_json::from_str(&format!(
            r#"{{"chain":[{raw},null],"x":null,"y":7.5,"k":3}}"#
        ))
        .unwrap();
        assert_eq!(
            (route.chain.len(), route.x, route.y, route.k),
            (1, 0.0, 7.5, Some(3))
        );
    }
}
