//! The BiDi network module's commands and events (WebDriver BiDi, "The network module"):
//! intercepts that hold a request before it is sent, the three answers to a held request
//! (continue it, fail it, or answer it without the network), the events of a request's life
//! (`beforeRequestSent`, `responseStarted`, `responseCompleted`, `fetchError`) and the data
//! collectors that keep request and response bodies for `network.getData`.
//!
//! Owns: method and field names on the wire. Must not: send anything (bidi.rs does) or
//! decide which request goes through (the session's watcher, browser/watch, and the state
//! restore do).

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
    /// The status line's reason phrase (`OK`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason_phrase: Option<String>,
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
    /// Milliseconds since the epoch.
    #[serde(default)]
    pub timestamp: f64,
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
    /// Its headers as sent.
    #[serde(default)]
    pub headers: Vec<Header>,
    /// Its body's size in bytes (None: no body, or unknown).
    #[serde(default)]
    pub body_size: Option<u64>,
    /// Fetch timing (`network.FetchTimingInfo`): ms, relative to `timeOrigin` on Chromium,
    /// since the epoch on Firefox (whose `timeOrigin` is 0).
    #[serde(default)]
    pub timings: Option<FetchTimings>,
    /// Chromium's resource type (`Fetch`, `XHR`, `Script`...), an extension field.
    #[serde(rename = "goog:resourceType", default)]
    pub goog_resource_type: Option<String>,
}

/// `network.FetchTimingInfo` (every field in ms; 0 when the phase did not happen).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FetchTimings {
    pub time_origin: f64,
    pub request_time: f64,
    pub redirect_start: f64,
    pub redirect_end: f64,
    pub fetch_start: f64,
    pub dns_start: f64,
    pub dns_end: f64,
    pub connect_start: f64,
    pub connect_end: f64,
    pub tls_start: f64,
    pub request_start: f64,
    pub response_start: f64,
    pub response_end: f64,
}

/// `network.Initiator`: what started a request, and where when a script or the parser did.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Initiator {
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    /// The parser's position (0-based), for a request the parser started.
    #[serde(default)]
    pub line_number: Option<u64>,
    #[serde(default)]
    pub column_number: Option<u64>,
    /// The script's stack, for a request a script started.
    #[serde(default)]
    pub stack_trace: Option<super::log::StackTrace>,
}

/// `network.ResponseData` (the fields ariasnap reads).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResponseData {
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub protocol: String,
    #[serde(default)]
    pub status: u16,
    #[serde(default)]
    pub status_text: String,
    #[serde(default)]
    pub from_cache: bool,
    #[serde(default)]
    pub headers: Vec<Header>,
    #[serde(default)]
    pub mime_type: String,
    /// Bytes received on the wire (headers and encoded body).
    #[serde(default)]
    pub bytes_received: u64,
    #[serde(default)]
    pub headers_size: Option<u64>,
    /// The encoded body's size.
    #[serde(default)]
    pub body_size: Option<u64>,
    /// `content.size`: the decoded body's size.
    #[serde(default)]
    pub content: Option<ResponseContent>,
}

/// `network.ResponseContent`.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct ResponseContent {
    #[serde(default)]
    pub size: u64,
}

/// `network.responseStarted` and `network.responseCompleted` parameters.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResponseEvent {
    #[serde(default)]
    pub context: Option<String>,
    #[serde(default)]
    pub navigation: Option<String>,
    #[serde(default)]
    pub redirect_count: u32,
    pub request: RequestData,
    #[serde(default)]
    pub timestamp: f64,
    pub response: ResponseData,
    #[serde(default)]
    pub is_blocked: bool,
}

/// `network.fetchError` parameters.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FetchError {
    #[serde(default)]
    pub context: Option<String>,
    #[serde(default)]
    pub navigation: Option<String>,
    #[serde(default)]
    pub redirect_count: u32,
    pub request: RequestData,
    #[serde(default)]
    pub timestamp: f64,
    #[serde(default)]
    pub error_text: String,
}

/// `network.addDataCollector`: the browser keeps the bodies of requests and responses
/// (`dataTypes`: `request`, `response`) up to `maxEncodedDataSize` bytes each, for
/// `network.getData`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AddDataCollector {
    pub data_types: Vec<String>,
    pub max_encoded_data_size: u64,
    /// Only the contexts of these user contexts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_contexts: Option<Vec<String>>,
}

impl Command for AddDataCollector {
    const METHOD: &'static str = "network.addDataCollector";
    type Reply = AddDataCollectorReply;
}

/// What `network.addDataCollector` answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct AddDataCollectorReply {
    pub collector: String,
}

/// `network.removeDataCollector`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RemoveDataCollector {
    pub collector: String,
}

impl Command for RemoveDataCollector {
    const METHOD: &'static str = "network.removeDataCollector";
    type Reply = Empty;
}

/// `network.getData`: a body a collector kept (`dataType`: `request` or `response`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetData {
    pub data_type: String,
    pub request: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collector: Option<String>,
}

impl Command for GetData {
    const METHOD: &'static str = "network.getData";
    type Reply = GetDataReply;
}

/// What `network.getData` answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GetDataReply {
    pub bytes: BytesValue,
}

impl Header {
    /// The header's value as text (a base64 value decoded, lossily).
    pub fn text(&self) -> String {
        match &self.value {
            BytesValue::String { value } => value.clone(),
            BytesValue::Base64 { value } => {
                use base64::Engine;
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(value)
                    .unwrap_or_default();
                String::from_utf8_lossy(&bytes).into_owned()
            }
        }
    }
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
            reason_phrase: None,
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
