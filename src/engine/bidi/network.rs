//! The BiDi network module's commands and the one event ariasnap reads from it
//! (WebDriver BiDi, "The network module"): intercepts that hold a request before it is sent,
//! and the three answers to a held request (continue it, fail it, or answer it without the
//! network).
//!
//! Owns: method and field names on the wire. Must not: send anything (bidi.rs does) or
//! decide which request goes through (the policy guard and the state restore do).

use super::types::{Command, Empty};
use serde::{Deserialize, Serialize};

/// `network.addIntercept`: hold every request of `phases` (in `contexts`, top-level ones,
/// or everywhere when None) until a client answers it. `url_patterns` empty: every URL.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AddIntercept {
    /// `beforeRequestSent`, `responseStarted` or `authRequired`.
    pub phases: Vec<String>,
    /// Only these top-level contexts (and their frames).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contexts: Option<Vec<String>>,
    /// `network.UrlPattern`s (strings of the `string` kind here); all URLs when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub url_patterns: Vec<UrlPattern>,
}

impl AddIntercept {
    /// Every request, before it is sent, in every context (or in `contexts`).
    pub fn before_request(contexts: Option<Vec<String>>) -> AddIntercept {
        AddIntercept {
            phases: vec!["beforeRequestSent".into()],
            contexts,
            url_patterns: Vec::new(),
        }
    }
}

impl Command for AddIntercept {
    const METHOD: &'static str = "network.addIntercept";
    type Reply = AddInterceptReply;
}

/// `network.UrlPattern` of the `string` kind: a URL matched as the spec parses it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum UrlPattern {
    /// `{type: "string", pattern}`.
    String {
        /// The URL.
        pattern: String,
    },
}

/// What `network.addIntercept` answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct AddInterceptReply {
    /// The intercept's id, listed in the `intercepts` of the requests it holds.
    pub intercept: String,
}

/// `network.removeIntercept`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RemoveIntercept {
    /// The id `network.addIntercept` gave.
    pub intercept: String,
}

impl Command for RemoveIntercept {
    const METHOD: &'static str = "network.removeIntercept";
    type Reply = Empty;
}

/// `network.continueRequest`: a held request goes on to the network unchanged.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContinueRequest {
    /// The request's id (`network.RequestData.request`).
    pub request: String,
}

impl Command for ContinueRequest {
    const METHOD: &'static str = "network.continueRequest";
    type Reply = Empty;
}

/// `network.failRequest`: a held request ends with a network error; nothing is sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FailRequest {
    /// The request's id.
    pub request: String,
}

impl Command for FailRequest {
    const METHOD: &'static str = "network.failRequest";
    type Reply = Empty;
}

/// `network.provideResponse`: a held request is answered by the client; nothing is sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProvideResponse {
    /// The request's id.
    pub request: String,
    /// HTTP status (200 when None).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_code: Option<u16>,
    /// Response headers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<Header>,
    /// The body, as a `network.BytesValue` of the `string` kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<BytesValue>,
}

impl Command for ProvideResponse {
    const METHOD: &'static str = "network.provideResponse";
    type Reply = Empty;
}

/// `network.Header` with a string value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub name: String,
    pub value: BytesValue,
}

/// `network.BytesValue`: text (`string`) or bytes (`base64`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum BytesValue {
    String { value: String },
    Base64 { value: String },
}

impl BytesValue {
    /// A text value.
    pub fn text(s: &str) -> BytesValue {
        BytesValue::String { value: s.into() }
    }
}

/// `network.beforeRequestSent` parameters (the fields ariasnap reads).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BeforeRequestSent {
    /// The context the request belongs to (None for a worker's, in some browsers).
    #[serde(default)]
    pub context: Option<String>,
    /// The navigation this request loads, when it is a navigation's.
    #[serde(default)]
    pub navigation: Option<String>,
    /// Set when an intercept holds the request: it waits for an answer.
    #[serde(default)]
    pub is_blocked: bool,
    /// The intercepts that hold it.
    #[serde(default)]
    pub intercepts: Vec<String>,
    /// How many redirects led here.
    #[serde(default)]
    pub redirect_count: u32,
    /// The request.
    pub request: RequestData,
    /// What started it (`parser`, `script`, `preflight`, `other`), when the browser says.
    #[serde(default)]
    pub initiator: Option<Initiator>,
}

/// `network.RequestData` (the fields ariasnap reads).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestData {
    /// The request's id, for the answers above.
    pub request: String,
    /// Its URL.
    pub url: String,
    /// Its method.
    #[serde(default)]
    pub method: String,
    /// The Fetch destination (`document`, `iframe`, `image`, `script`, "" for fetch/XHR),
    /// when the browser gives it.
    #[serde(default)]
    pub destination: Option<String>,
    /// The Resource Timing initiator type (`fetch`, `xmlhttprequest`, `img`, `script`...),
    /// when the browser gives it.
    #[serde(default)]
    pub initiator_type: Option<String>,
}

/// `network.Initiator` (the field ariasnap reads).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Initiator {
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn commands_are_spelled_as_the_spec() {
        let a = AddIntercept::before_request(None);
        assert_eq!(
            serde_json::to_value(&a).unwrap(),
            json!({"phases": ["beforeRequestSent"]})
        );
        let a = AddIntercept::before_request(Some(vec!["C".into()]));
        assert_eq!(serde_json::to_value(&a).unwrap()["contexts"], json!(["C"]));
        let p = ProvideResponse {
            request: "r1".into(),
            status_code: Some(200),
            headers: vec![Header {
                name: "content-type".into(),
                value: BytesValue::text("text/html"),
            }],
            body: Some(BytesValue::text("")),
        };
        assert_eq!(
            serde_json::to_value(&p).unwrap(),
            json!({"request": "r1", "statusCode": 200,
                   "headers": [{"name": "content-type", "value": {"type": "string", "value": "text/html"}}],
                   "body": {"type": "string", "value": ""}})
        );
    }

    #[test]
    fn a_held_request_decodes() {
        let e: BeforeRequestSent = serde_json::from_value(json!({
            "context": "C", "navigation": null, "isBlocked": true, "intercepts": ["I"],
            "redirectCount": 0, "timestamp": 1,
            "request": {"request": "7", "url": "http://a.test/x", "method": "POST",
                        "headers": [], "cookies": [], "headersSize": 0, "bodySize": 0,
                        "destination": "", "initiatorType": "fetch", "timings": {}},
            "initiator": {"type": "script"}
        }))
        .unwrap();
        assert!(e.is_blocked);
        assert_eq!(e.intercepts, vec!["I".to_string()]);
        assert_eq!(e.request.url, "http://a.test/x");
        assert_eq!(e.request.method, "POST");
        assert_eq!(e.initiator.and_then(|i| i.kind).as_deref(), Some("script"));
    }
}
