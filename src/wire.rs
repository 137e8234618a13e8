//! Serde mirrors of what the page engine returns: the only place that knows the wire shape
//! (short keys keep the page's reply small).
//!
//! Owns: the snapshot's compact node list, the payload of every entry point's reply, the
//! one [`Reply`] enum tagged by `kind` (success or an expected failure), the WebDriver
//! references the element helpers pass, and mending lone surrogates before decoding. Must
//! not: call the page or turn failures into errors (the engine does both).

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

pub mod audit;
pub mod points;
mod reply;
mod steps;

pub use reply::{
    Ack, ActivityReply, CheckedReply, ConditionReply, ConsoleMessage, ConsoleReply, ControlReply,
    Cover, Covered, DragEndReply, DragStartReply, EffectsReply, EngineStats, FocusReply, GetReply,
    GetValue, Here, HttpError, OptionPoint, OptionValue, PaintReply, PointReply, PollReply, Pong,
    RangeState, Reply, ScrollReply, SearchControl, SearchMatch, SearchReply, SelectReply, Target,
    ValueReply, WatchReply, WebRef, WireRoute, WireSince, decode_reply, is_success, reply_kind,
};
pub use steps::{
    ConsentReply, Container, DescribeReply, DocStateReply, FieldPreview, FormPreview, InspectForm,
    InspectReply, LocateReply, Located, Named, QueryAllReply, QueryGroupReply, SelectTextReply,
    SubmitReply,
};

/// A tri-state flag: `true` or `"mixed"`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Tri {
    /// true / false
    Bool(bool),
    /// "mixed" (or another token the page used)
    Token(String),
}

impl Tri {
    /// Whether the flag is set at all.
    pub fn is_on(&self) -> bool {
        !matches!(self, Tri::Bool(false))
    }

    /// Whether the flag is exactly `true` (not "mixed").
    pub fn is_true(&self) -> bool {
        matches!(self, Tri::Bool(true))
    }

    /// Whether the flag is exactly `want`: "mixed" is neither true nor false.
    pub fn is(&self, want: bool) -> bool {
        matches!(self, Tri::Bool(b) if *b == want)
    }
}

/// As JSON: `true`, `false`, `"mixed"`.
impl fmt::Display for Tri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tri::Bool(b) => write!(f, "{b}"),
            Tri::Token(t) => write!(f, "{}", serde_json::Value::from(t.as_str())),
        }
    }
}

/// States and properties; only meaningful values are present.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct WireStates {
    pub checked: Option<Tri>,
    #[serde(default)]
    pub disabled: bool,
    pub expanded: Option<bool>,
    #[serde(default)]
    pub selected: bool,
    pub pressed: Option<Tri>,
    #[serde(default)]
    pub required: bool,
    #[serde(default)]
    pub readonly: bool,
    #[serde(default)]
    pub invalid: bool,
    #[serde(default)]
    pub focused: bool,
    pub level: Option<u32>,
    /// aria-sort of a column or row header: ascending, descending or other.
    pub sort: Option<String>,
    pub current: Option<String>,
    #[serde(default)]
    pub modal: bool,
    pub haspopup: Option<String>,
    #[serde(default)]
    pub multiselectable: bool,
    pub orientation: Option<String>,
    /// docs/reference/output.md#unseen-text: present for assistive technology, not painted: clipped, offscreen,
    /// transparent, tiny, camouflaged or covered.
    pub unseen: Option<String>,
    /// docs/reference/output.md#flags: an element a user can click that is no control (a
    /// listener of the click family, a pointer cursor of its own: docs/behaviour.md).
    #[serde(default)]
    pub clickable: bool,
    /// docs/reference/output.md#icon-hints: the words an unnamed control's icon carries in
    /// its markup (checked again by the host: lower-case ASCII words only).
    pub icon: Option<String>,
    /// A generic element with a ref and no name (focusable, clickable, draggable): the words
    /// of its content, which are its ref's identity (docs/reference/refs.md#stability) and
    /// name it in replies, but are no accessible name (WAI-ARIA 1.2: generic is "name
    /// prohibited"); the snapshot shows them as the text under it. `Node::words` reads it.
    pub words: Option<String>,
    /// A text run the text view cuts: the ref of the element that holds it, to read it
    /// whole with `get` (docs/reference/output.md#text-format).
    pub read: Option<String>,
    /// A control that shows its icon in sight (js/src/42_unseen.js `controlShowsIcon`): the
    /// unseen text that names it does not make its line unseen.
    #[serde(default)]
    pub painted: bool,
    /// A text run's text-level spans (docs/behaviour.md#text-level-semantics): the role of
    /// a strong, code, deletion... element and the part of the run's text it holds.
    pub marks: Option<Vec<Mark>>,
}

/// `[role, start, end]`: a text-level element's role and its span of a text run's text, in
/// UTF-16 code units (the engine's string offsets), start before end.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Mark(pub String, pub u32, pub u32);

/// One node of the flat list, in document (pre-)order.
#[derive(Debug, Clone, Deserialize)]
pub struct WireNode {
    /// Parent index, -1 for the document.
    pub p: i64,
    /// Role ("text" for text runs).
    pub r: String,
    /// Accessible name.
    pub n: Option<String>,
    /// Value (controls) or text (text runs).
    pub v: Option<String>,
    /// Boxed: most nodes have none, and a node list of a large page is megabytes.
    pub s: Option<Box<WireStates>>,
    /// Link URL.
    pub u: Option<String>,
    /// Description.
    pub d: Option<String>,
    /// Placeholder.
    pub ph: Option<String>,
    /// Box [x, y, w, h] in CSS pixels.
    pub b: Option<[f64; 4]>,
    #[serde(rename = "ref")]
    pub ref_: Option<String>,
    /// The element's identity for the document's life (0: a text run, the document, or a
    /// snapshot taken without `ids`); see `identityOf` in js/src/88_snapshot.js.
    #[serde(skip)]
    pub id: u64,
}

/// A frame met during the walk.
#[derive(Debug, Clone, Deserialize)]
pub struct WireFrame {
    /// Frame index (the `f<k>` of its refs).
    pub k: u32,
    /// Index of the iframe node in the list.
    pub i: i64,
    pub url: String,
    /// Why it could not be read, when it could not.
    pub unreadable: Option<String>,
}

/// Costs measured in the page.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct WireStats {
    pub walk_ms: f64,
    pub refs_ms: f64,
    pub elements: u64,
    pub nodes: u64,
    pub refs: u64,
    pub withheld_refs: u64,
    pub left_out: u64,
    /// The --max-nodes the walk ran with (0 = no limit).
    #[serde(default)]
    pub max_nodes: u64,
    pub interactive: u64,
    /// Closed shadow roots walked (handed over through WebDriver).
    #[serde(default)]
    pub closed_read: u64,
    /// Custom elements whose closed shadow roots the WebDriver endpoint could not return.
    #[serde(default)]
    pub closed_unread: u64,
    /// Custom elements not yet checked for a closed shadow root.
    #[serde(default)]
    pub closed_pending: u64,
    /// Tags of the closed-root hosts (read or not), a few distinct ones.
    #[serde(default)]
    pub closed_hosts: Vec<String>,
    /// A walk for a diff (`ids`) walked content the page hid (inert, aria-hidden) only
    /// around an open modal dialog.
    #[serde(default)]
    pub behind_modal: bool,
}

/// Page fingerprint (docs/reference/detail.md#unchanged).
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
pub struct Fingerprint {
    pub url: String,
    pub scroll: [i64; 2],
    pub dom: u64,
    pub interactive: i64,
    pub epoch: i64,
}

/// The reply of `snapshot`, decoded from its compact wire form (see [`WireSnapshot`]'s
/// `Deserialize`).
#[derive(Debug, Clone)]
pub struct WireSnapshot {
    pub url: String,
    pub title: String,
    pub snapshot: u64,
    pub nodes: Vec<WireNode>,
    pub frames: Vec<WireFrame>,
    pub viewport: [f64; 2],
    pub stats: WireStats,
    pub fingerprint: Fingerprint,
    pub engine_ms: f64,
    /// Served from the engine's short-lived snapshot cache (no walk).
    pub cached: bool,
    /// What the page header reads (docs/reference/output.md#page-header); None from an engine that sends none.
    pub page: Option<PageSignals>,
    /// Budgeted walks: nodes that show an aria-live region the walk shows no node of its
    /// own for, as [index, 1 for assertive else 0] (`liveNodes` in js/src/88_snapshot.js).
    pub live: Vec<[i64; 2]>,
}

/// What the engine reads from the document for the header (`pageSignals` in
/// js/src/88_snapshot.js).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct PageSignals {
    /// Navigation Timing 2 `responseStatus` of the document's response; 0 when the browser
    /// has none (about:blank, file:, the browser's own error pages).
    #[serde(default)]
    pub status: u16,
    /// `document.readyState`.
    #[serde(default)]
    pub ready: String,
    /// Password fields a user sees.
    #[serde(default)]
    pub passwords: u32,
    /// Of those, the ones for a new password (`autocomplete="new-password"`): a sign-up
    /// or a password change, not a sign-in.
    #[serde(default)]
    pub new_passwords: u32,
    /// Navigation Timing 2 `redirectCount`: the redirects the document's request followed
    /// (same-origin ones; cross-origin ones count only with Timing-Allow-Origin).
    #[serde(default)]
    pub redirects: u32,
    /// The captcha provider whose widget the page embeds, or empty.
    #[serde(default)]
    pub captcha: String,
    /// The URL the agent's navigation asked for, when this document is where it landed
    /// (the host fills it from the tab's record, not the engine).
    #[serde(skip)]
    pub asked: Option<String>,
}

/// What the engine sends for a snapshot: a role table and one array per node (SPEC: the
/// page's reply is kept small because moving it through the WebDriver endpoint is most of
/// the host's cost). See `encodeNodes` in js/src/88_snapshot.js.
///
/// Decoded by hand so that each node goes from the text straight to its [`WireNode`]: the
/// engine writes `url`, `roles` and `count` before `nodes`, so the node list is read into a
/// list sized once, without a second list of raw nodes (at 100,000 nodes, tens of MB of
/// copies and page faults). A reply with its keys in another order still decodes, through
/// the raw nodes.
impl<'de> Deserialize<'de> for WireSnapshot {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(field_identifier, rename_all = "snake_case")]
        enum Field {
            Url,
            Title,
            Snapshot,
            Roles,
            Count,
            Nodes,
            Ids,
            Frames,
            Viewport,
            Stats,
            Fingerprint,
            EngineMs,
            Cached,
            Page,
            Live,
            #[serde(other)]
            Other,
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = WireSnapshot;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a snapshot reply")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut m: A) -> Result<WireSnapshot, A::Error> {
                let mut url: Option<String> = None;
                let mut title = None;
                let mut snapshot = None;
                let mut roles: Option<Vec<String>> = None;
                let mut count = 0usize;
                let mut nodes: Option<Vec<WireNode>> = None;
                let mut raw: Option<Vec<RawNode>> = None;
                let mut frames = Vec::new();
                let mut viewport = None;
                let mut stats = None;
                let mut fingerprint = None;
                let mut engine_ms = 0.0;
                let mut cached = false;
                let mut page = None;
                let mut ids: Option<Vec<u64>> = None;
                let mut live = Vec::new();
                while let Some(k) = m.next_key::<Field>()? {
                    match k {
                        Field::Url => url = Some(m.next_value()?),
                        Field::Title => title = Some(m.next_value()?),
                        Field::Snapshot => snapshot = Some(m.next_value()?),
                        Field::Roles => roles = Some(m.next_value()?),
                        Field::Count => count = m.next_value()?,
                        // straight into WireNodes only once what they are read with is known
                        Field::Nodes => match (&url, &roles) {
                            (Some(u), Some(r)) => {
                                nodes = Some(m.next_value_seed(NodeList {
                                    roles: r,
                                    origin: origin_of(u),
                                    count,
                                })?);
                                raw = None;
                            }
                            _ => raw = Some(m.next_value()?),
                        },
                        Field::Ids => ids = m.next_value()?,
                        Field::Frames => frames = m.next_value()?,
                        Field::Viewport => viewport = Some(m.next_value()?),
                        Field::Stats => stats = Some(m.next_value()?),
                        Field::Fingerprint => fingerprint = Some(m.next_value()?),
                        Field::EngineMs => engine_ms = m.next_value()?,
                        Field::Cached => cached = m.next_value()?,
                        Field::Page => page = m.next_value()?,
                        Field::Live => live = m.next_value()?,
                        Field::Other => {
                            m.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                let url = url.ok_or_else(|| de::Error::missing_field("url"))?;
                let roles = roles.unwrap_or_default();
                let nodes = match (nodes, raw) {
                    (_, Some(raw)) => {
                        let origin = origin_of(&url);
                        raw.into_iter()
                            .enumerate()
                            .map(|(i, n)| wire_node(i, n, &roles, origin))
                            .collect()
                    }
                    (Some(nodes), None) => nodes,
                    (None, None) => return Err(de::Error::missing_field("nodes")),
                };
                let mut nodes = nodes;
                for (n, id) in nodes.iter_mut().zip(ids.unwrap_or_default()) {
                    n.id = id;
                }
                Ok(WireSnapshot {
                    title: title.ok_or_else(|| de::Error::missing_field("title"))?,
                    snapshot: snapshot.ok_or_else(|| de::Error::missing_field("snapshot"))?,
                    nodes,
                    frames,
                    viewport: viewport.ok_or_else(|| de::Error::missing_field("viewport"))?,
                    stats: stats.ok_or_else(|| de::Error::missing_field("stats"))?,
                    fingerprint: fingerprint
                        .ok_or_else(|| de::Error::missing_field("fingerprint"))?,
                    engine_ms,
                    cached,
                    page,
                    live,
                    url,
                })
            }
        }
        d.deserialize_map(V)
    }
}

/// The largest node count a reply's `count` may reserve room for at once (a larger list
/// grows as it is read): the count comes from the page's side of the wire.
const MAX_RESERVE: usize = 1 << 18;

/// Reads the `nodes` array straight into [`WireNode`]s, given the role table and the
/// document's origin read before it.
struct NodeList<'a> {
    roles: &'a [String],
    origin: &'a str,
    count: usize,
}

impl<'de> de::DeserializeSeed<'de> for NodeList<'_> {
    type Value = Vec<WireNode>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<WireNode>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for NodeList<'_> {
    type Value = Vec<WireNode>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of nodes")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Vec<WireNode>, A::Error> {
        let mut out = Vec::with_capacity(self.count.min(MAX_RESERVE));
        while let Some(n) = a.next_element::<RawNode>()? {
            let i = out.len();
            out.push(wire_node(i, n, self.roles, self.origin));
        }
        Ok(out)
    }
}

/// Node `i` of the list from its wire array: role from the table, the parent's distance back
/// made an index, URLs of the document's origin made whole.
fn wire_node(i: usize, n: RawNode, roles: &[String], origin: &str) -> WireNode {
    let role = roles
        .get(n.r as usize)
        .cloned()
        .unwrap_or_else(|| "generic".to_string());
    let (name, value) = if role == "text" {
        (None, n.a)
    } else {
        (n.a, n.v)
    };
    WireNode {
        // a distance back; anything else points at the document
        p: if i == 0 {
            -1
        } else if n.p >= 1 && (n.p as usize) <= i {
            i as i64 - n.p
        } else {
            0
        },
        n: name,
        v: value,
        r: role,
        s: n.s,
        u: n.u.map(|u| absolute(origin, u)),
        d: n.d,
        ph: n.ph,
        b: n.b,
        ref_: n.ref_,
        id: 0,
    }
}

/// "scheme://host:port" of a URL, or "" when it has none.
fn origin_of(url: &str) -> &str {
    let Some(i) = url.find("://") else {
        return "";
    };
    match url[i + 3..].find('/') {
        Some(j) => &url[..i + 3 + j],
        None => url,
    }
}

/// The engine sends URLs of the document's own origin as a path: give them it back.
fn absolute(origin: &str, u: String) -> String {
    if !origin.is_empty() && u.starts_with('/') && !u.starts_with("//") {
        format!("{origin}{u}")
    } else {
        u
    }
}

/// One node on the wire: `[parent distance, role index, name or text, ref, value, url, states,
/// description, placeholder, box]`, 0 for an absent field, trailing absent fields left off.
#[derive(Debug)]
struct RawNode {
    p: i64,
    r: u32,
    a: Option<String>,
    ref_: Option<String>,
    v: Option<String>,
    u: Option<String>,
    s: Option<Box<WireStates>>,
    d: Option<String>,
    ph: Option<String>,
    b: Option<[f64; 4]>,
}

/// A string, or 0 / null for none.
struct OptStr(Option<String>);

impl<'de> Deserialize<'de> for OptStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OptStr;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or 0")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<OptStr, E> {
                Ok(OptStr(Some(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<OptStr, E> {
                Ok(OptStr(Some(v)))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<OptStr, E> {
                Ok(OptStr(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<OptStr, E> {
                Ok(OptStr(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<OptStr, E> {
                Ok(OptStr(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A value, or 0 / null for none (the rarer fields: states, box). Read straight from the
/// text: serde's untagged enums buffer every value first.
struct OptVal<T>(Option<T>);

impl<T> OptVal<T> {
    fn get(self) -> Option<T> {
        self.0
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OptVal<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = OptVal<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object, an array, or 0")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, a: A) -> Result<OptVal<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(a)).map(|v| OptVal(Some(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<OptVal<T>, A::Error> {
                T::deserialize(de::value::SeqAccessDeserializer::new(a)).map(|v| OptVal(Some(v)))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<OptVal<T>, E> {
                Ok(OptVal(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<OptVal<T>, E> {
                Ok(OptVal(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<OptVal<T>, E> {
                Ok(OptVal(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<OptVal<T>, E> {
                Ok(OptVal(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<OptVal<T>, E> {
                Ok(OptVal(None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<OptVal<T>, E> {
                Ok(OptVal(None))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl<'de> Deserialize<'de> for RawNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawNode;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a node array [parent distance, role, ...]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<RawNode, A::Error> {
                let p = a
                    .next_element::<i64>()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let r = a
                    .next_element::<u32>()?
                    .ok_or_else(|| de::Error::invalid_length(1, &self))?;
                let mut s = || -> Result<Option<String>, A::Error> {
                    Ok(a.next_element::<OptStr>()?.and_then(|o| o.0))
                };
                let an = s()?;
                let ref_ = s()?;
                let v = s()?;
                let u = s()?;
                let st = a
                    .next_element::<OptVal<Box<WireStates>>>()?
                    .and_then(OptVal::get);
                let mut s = || -> Result<Option<String>, A::Error> {
                    Ok(a.next_element::<OptStr>()?.and_then(|o| o.0))
                };
                let dsc = s()?;
                let ph = s()?;
                let b = a.next_element::<OptVal<[f64; 4]>>()?.and_then(OptVal::get);
                // fields a newer engine may add are skipped
                while a.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(RawNode {
                    p,
                    r,
                    a: an,
                    ref_,
                    v,
                    u,
                    s: st,
                    d: dsc,
                    ph,
                    b,
                })
            }
        }
        d.deserialize_seq(V)
    }
}

/// The engine's reply with every escaped lone surrogate (`\ud800` not followed by its low
/// half, or a low half alone) replaced by `\ufffd`. The engine makes its strings well-formed
/// before they leave the page (`clean`), but not on browsers without
/// `String.prototype.toWellFormed`, and a cap can cut a pair in two; serde_json refuses lone
/// surrogates, so without this one such string would fail the whole reply (docs/reference/output.md#what-no-page-can-forge).
pub fn mend_surrogates(raw: &str) -> Cow<'_, str> {
    if !raw.contains("\\ud") && !raw.contains("\\uD") {
        return Cow::Borrowed(raw);
    }
    fn hex4(b: &[u8], at: usize) -> Option<u32> {
        let h = b.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    }
    let b = raw.as_bytes();
    // made on the first lone half only: escaped pairs are common (the engine sends few
    // non-ASCII characters as escapes), lone halves are not
    let mut out = String::new();
    let (mut i, mut last) = (0, 0);
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        // an escape: two bytes, or six for \uXXXX (backslashes occur only in strings)
        let Some(u) = (b.get(i + 1) == Some(&b'u'))
            .then(|| hex4(b, i + 2))
            .flatten()
        else {
            i += 2;
            continue;
        };
        let high = (0xD800..0xDC00).contains(&u);
        let paired = high
            && b.get(i + 6) == Some(&b'\\')
            && b.get(i + 7) == Some(&b'u')
            && hex4(b, i + 8).is_some_and(|l| (0xDC00..0xE000).contains(&l));
        if paired {
            i += 12;
        } else if high || (0xDC00..0xE000).contains(&u) {
            if out.capacity() == 0 {
                out.reserve(raw.len());
            }
            out.push_str(&raw[last..i]);
            out.push_str("\\ufffd");
            i += 6;
            last = i;
        } else {
            i += 6;
        }
    }
    if last == 0 {
        return Cow::Borrowed(raw);
    }
    out.push_str(&raw[last..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_nodes_decode_with_roles_text_and_urls() {
        let raw = r#"{"kind":"snapshot","url":"http://h:1/a/b","title":"T","snapshot":3,
            "roles":["document","link","text","heading"],
            "nodes":[[0,0,"T"],[1,1,"Home","s3e1",0,"/x?y"],[1,2,"Home page"],
                     [3,3,"Big",0,0,0,{"level":2}],[4,1,"Out","s3e2",0,"https://o/"],
                     [5,2,"tail",0,0,0,0,0,0,0,"future"],[99,2,"bad parent"]],
            "frames":[],"viewport":[10,20],
            "stats":{"walk_ms":1,"refs_ms":0,"elements":5,"nodes":6,"refs":2,"withheld_refs":0,"left_out":0,"interactive":2},
            "fingerprint":{"url":"http://h:1/a/b","scroll":[0,0],"dom":5,"interactive":2,"epoch":0}}"#;
        let w: WireSnapshot = serde_json::from_str(raw).unwrap();
        assert_eq!(w.nodes.len(), 7);
        // parents come as distances back: the text is the link's child, the rest the document's
        let parents: Vec<i64> = w.nodes.iter().map(|n| n.p).collect();
        assert_eq!(parents, [-1, 0, 1, 0, 0, 0, 0]);
        assert_eq!(w.nodes[1].r, "link");
        assert_eq!(w.nodes[1].n.as_deref(), Some("Home"));
        assert_eq!(w.nodes[1].ref_.as_deref(), Some("s3e1"));
        assert_eq!(w.nodes[1].u.as_deref(), Some("http://h:1/x?y"));
        // text runs carry their text as the value, not a name
        assert_eq!(w.nodes[2].n, None);
        assert_eq!(w.nodes[2].v.as_deref(), Some("Home page"));
        assert_eq!(w.nodes[3].s.as_ref().unwrap().level, Some(2));
        assert_eq!(w.nodes[3].ref_, None);
        // other origins stay whole; unknown trailing fields are skipped
        assert_eq!(w.nodes[4].u.as_deref(), Some("https://o/"));
        assert_eq!(w.nodes[5].v.as_deref(), Some("tail"));
        // a bad node is an error, not a panic
        let bad = raw.replace("[0,0,\"T\"]", "[\"x\"]");
        assert!(serde_json::from_str::<WireSnapshot>(&bad).is_err());
    }

    #[test]
    fn nodes_decode_alike_whatever_the_key_order() {
        let head = r#""kind":"snapshot","url":"http://h:1/a","title":"T","snapshot":1"#;
        let roles = r#""roles":["document","link","text"]"#;
        let nodes = r#""nodes":[[0,0,"T"],[1,1,"Home","s1e1",0,"/x"],[1,2,"Home"]]"#;
        let tail = r#""viewport":[1,2],"stats":{"walk_ms":1,"refs_ms":0,"elements":2,"nodes":3,"refs":1,"withheld_refs":0,"left_out":0,"interactive":1},"fingerprint":{"url":"u","scroll":[0,0],"dom":2,"interactive":1,"epoch":0}"#;
        let summary = |raw: &str| {
            let w: WireSnapshot = serde_json::from_str(raw).unwrap();
            w.nodes
                .iter()
                .map(|n| format!("{} {} {:?} {:?} {:?}", n.p, n.r, n.n, n.v, n.u))
                .collect::<Vec<_>>()
        };
        // the engine's order: url and roles, then the count, then the nodes
        let ours = summary(&format!("{{{head},{roles},\"count\":3,{nodes},{tail}}}"));
        assert_eq!(ours[1], r#"0 link Some("Home") None Some("http://h:1/x")"#);
        assert_eq!(ours[2], r#"1 text None Some("Home") None"#);
        // nodes before the roles and the url, no count, or a count far off: the same nodes
        let late = format!(
            "{{\"kind\":\"snapshot\",{nodes},{roles},\"url\":\"http://h:1/a\",\"title\":\"T\",\"snapshot\":1,{tail}}}"
        );
        assert_eq!(summary(&late), ours);
        let roles_last = format!("{{{head},{nodes},{roles},{tail}}}");
        assert_eq!(summary(&roles_last), ours);
        assert_eq!(summary(&format!("{{{head},{roles},{nodes},{tail}}}")), ours);
        let huge = format!("{{{head},{roles},\"count\":18446744073709551615,{nodes},{tail}}}");
        assert_eq!(summary(&huge), ours);
        // a missing field is named
        let err = serde_json::from_str::<WireSnapshot>(&format!("{{{head},{roles},{tail}}}"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("missing field `nodes`"), "{err}");
    }

    #[test]
    fn origins_and_absolute_urls() {
        assert_eq!(origin_of("http://a:8/x/y"), "http://a:8");
        assert_eq!(origin_of("http://a"), "http://a");
        assert_eq!(origin_of("about:blank"), "");
        assert_eq!(absolute("http://a", "/p".into()), "http://a/p");
        assert_eq!(absolute("http://a", "//cdn/p".into()), "//cdn/p");
        assert_eq!(absolute("", "/p".into()), "/p");
    }

    #[test]
    fn lone_surrogates_are_mended_before_decoding() {
        // what JSON.stringify writes for lone surrogates: serde_json refuses it
        let raw = r#"["a\ud83d","\ude00b","\ud83d\ude00","\\ud800","x\ud800\u0041"]"#;
        assert!(serde_json::from_str::<Vec<String>>(raw).is_err());
        let fixed = mend_surrogates(raw);
        let v: Vec<String> = serde_json::from_str(&fixed).unwrap();
        assert_eq!(v, ["a\u{fffd}", "\u{fffd}b", "😀", "\\ud800", "x\u{fffd}A"]);
        // nothing to mend: the reply itself, not a copy
        assert!(matches!(
            mend_surrogates(r#"{"a":"\u00e9"}"#),
            Cow::Borrowed(_)
        ));
        // the engine's escaped non-ASCII characters (pairs included) read back as they were,
        // without a copy
        let escaped = r#"["caf\u00e9 \u6771\u4eac \ud83d\ude00"]"#;
        assert!(matches!(mend_surrogates(escaped), Cow::Borrowed(_)));
        let v: Vec<String> = serde_json::from_str(&mend_surrogates(escaped)).unwrap();
        assert_eq!(v, ["café 東京 😀"]);
    }
}
