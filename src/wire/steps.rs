//! The replies of the step vocabulary's entry points (js/src/80_steps.js): `submit`,
//! `selectText`, `queryAll`, `inspect` and `docState`.
//!
//! Owns: those shapes. Must not: turn failures into errors (the engine does).

use serde::{Deserialize, Serialize};

/// An element named in a reply: its ref (none when hidden), role and name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Named {
    #[serde(default)]
    pub r#ref: Option<String>,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub name: String,
    /// A selector match's text when it has no name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The browser's validation message (`submit`'s invalid fields).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// A match's value (`queryAll` role groups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// `submit`: the form, whether it was valid, submitted, and is navigating.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SubmitReply {
    pub form: Named,
    pub valid: bool,
    pub submitted: bool,
    #[serde(default)]
    pub navigating: bool,
    #[serde(default)]
    pub invalid: Vec<Named>,
    #[serde(default)]
    pub novalidate: bool,
}

/// `consentTarget`: what acting on an element would do, for the operator's consent rules.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct ConsentReply {
    /// The element the action lands on (a link or button around what was named).
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub name: String,
    /// The URL a link there follows ("" when none).
    #[serde(default)]
    pub href: String,
    /// The link has a `download` attribute.
    #[serde(default)]
    pub download: bool,
    /// The form the action would submit.
    #[serde(default)]
    pub form: Option<FormPreview>,
    /// The URL of the element's document.
    #[serde(default)]
    pub doc: String,
}

/// A form about to be sent: where, how, and its fields as a person reads them.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, serde::Serialize)]
pub struct FormPreview {
    pub action: String,
    pub method: String,
    #[serde(default)]
    pub fields: Vec<FieldPreview>,
}

/// One field of a [`FormPreview`]: its label (or name) and value (passwords as ••••).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, serde::Serialize)]
pub struct FieldPreview {
    pub name: String,
    pub value: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
}

/// `selectText`: the selected text and its offsets in the element's text.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SelectTextReply {
    pub text: String,
    pub start: u64,
    pub end: u64,
    pub length: u64,
}

/// One group of `queryAll`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct QueryGroupReply {
    pub label: String,
    #[serde(default)]
    pub error: Option<String>,
    pub matches: Vec<Named>,
    pub total: u64,
}

/// `queryAll`: the groups in the order asked.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct QueryAllReply {
    pub groups: Vec<QueryGroupReply>,
}

/// A container of a located element: its role and name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Container {
    pub role: String,
    #[serde(default)]
    pub name: String,
}

/// One element a locator names (or one near it): ref, role, name, landmark path, container.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Located {
    pub r#ref: Option<String>,
    pub role: String,
    #[serde(default)]
    pub name: String,
    /// A nameless generic's words (`Node::words`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default)]
    pub path: String,
    #[serde(default)]
    pub container: Option<Container>,
    /// A near candidate inside the locator's `within`.
    #[serde(default)]
    pub inside: bool,
}

/// `locate`: the matches (at most 20) and their total; with none, the elements of the role.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LocateReply {
    pub matches: Vec<Located>,
    pub total: u64,
    #[serde(default)]
    pub near: Vec<Located>,
}

/// `describe`: a ref's locator as it stands.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DescribeReply {
    pub role: String,
    #[serde(default)]
    pub name: String,
    /// A nameless generic's words (`Node::words`): it is located by this text.
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub path: String,
    #[serde(default)]
    pub container: Option<Container>,
    #[serde(default)]
    pub nth: Option<u64>,
    #[serde(default)]
    pub count: u64,
    /// A password field (or one marked for a password or a one-time code).
    #[serde(default)]
    pub secret: bool,
    /// What a Playwright export needs beyond the locator (the element's tag, a CSS path for
    /// an element without name or words, a covered centre's reachable point): kept in the
    /// journal line, read by `journal::playwright`.
    #[serde(default)]
    pub el: Option<serde_json::Value>,
}

/// One form of `inspect`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InspectForm {
    pub name: String,
    pub fields: u64,
    pub required: u64,
    pub method: String,
    pub action: String,
}

/// `inspect`: a map of the page, passed on to the step's output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InspectReply {
    pub url: String,
    pub title: String,
    pub elements: u64,
    pub interactive: u64,
    pub roles: serde_json::Map<String, serde_json::Value>,
    pub tags: serde_json::Map<String, serde_json::Value>,
    pub forms: Vec<InspectForm>,
    pub frames: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreadable_frames: Option<u64>,
    pub headings: Vec<String>,
    pub refs: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<serde_json::Map<String, serde_json::Value>>,
}

/// `docState`: which document is shown (its time origin), its URL and ready state.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct DocStateReply {
    #[serde(default)]
    pub origin: f64,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub ready: String,
}
