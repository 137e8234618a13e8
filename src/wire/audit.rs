//! Replies of the engine's audit entry points (js/src/85_audit.js): `auditRefs`,
//! `auditKeyboard`, `focusStep` and `trapRegion`.

use serde::{Deserialize, Serialize};

/// An element as the audit names it: its ref (when the snapshot gave it one), role, name
/// and tag; for `auditRefs`, where its target crosses into a cross-origin frame or that
/// nothing matched; for `auditKeyboard`, its problem; for `focusStep`, its identity.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AuditNode {
    #[serde(default, rename = "ref")]
    pub ref_: Option<String>,
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub tag: String,
    #[serde(default, rename = "crossAt")]
    pub cross_at: Option<usize>,
    #[serde(default)]
    pub missing: bool,
    #[serde(default)]
    pub problem: Option<String>,
    /// focusStep: focus is on no element (the document, or out of the page).
    #[serde(default)]
    pub none: bool,
    #[serde(default)]
    pub id: u64,
    /// focusStep: the element is inside an open modal dialog.
    #[serde(default)]
    pub modal: bool,
}

/// `auditRefs`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct AuditRefsReply {
    pub nodes: Vec<AuditNode>,
}

/// `auditKeyboard`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct AuditKeyboardReply {
    pub problems: Vec<AuditNode>,
}
