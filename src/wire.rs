//! Serde mirrors of what the page engine returns: the only place that knows the wire shape
//! (short keys keep the page's reply small).

use serde::Deserialize;

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
    pub current: Option<String>,
    #[serde(default)]
    pub modal: bool,
    pub haspopup: Option<String>,
    #[serde(default)]
    pub multiselectable: bool,
    pub orientation: Option<String>,
}

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
    pub s: Option<WireStates>,
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
}

/// Page fingerprint (SPEC 3).
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
pub struct Fingerprint {
    pub url: String,
    pub scroll: [i64; 2],
    pub dom: u64,
    pub interactive: i64,
    pub epoch: i64,
}

/// The reply of `snapshot`.
#[derive(Debug, Clone, Deserialize)]
pub struct WireSnapshot {
    pub url: String,
    pub title: String,
    pub snapshot: u64,
    pub nodes: Vec<WireNode>,
    #[serde(default)]
    pub frames: Vec<WireFrame>,
    pub viewport: [f64; 2],
    pub stats: WireStats,
    pub fingerprint: Fingerprint,
    #[serde(default)]
    pub engine_ms: f64,
    /// Served from the engine's short-lived snapshot cache (no walk).
    #[serde(default)]
    pub cached: bool,
}

/// Replies that are not a snapshot: tagged by `kind`.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WireSnapshotOrError {
    Snapshot(Box<WireSnapshot>),
    NoRoot {
        root: String,
    },
    BadSelector {
        root: String,
    },
    Unknown {
        r#ref: String,
    },
    Gone {
        r#ref: String,
        role: String,
        name: String,
    },
    Changed {
        r#ref: String,
        was: (String, String),
        now: (String, String),
    },
    Tampered {
        r#ref: String,
        role: String,
        name: String,
    },
}

/// Reply of `since`.
#[derive(Debug, Clone, Deserialize)]
pub struct WireSince {
    pub unchanged: bool,
    pub known: bool,
}
