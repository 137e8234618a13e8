//! What the session's watcher keeps: the page's requests and console entries, folded from
//! WebDriver BiDi events as they come, numbered in one sequence (a request is `r<seq>`), and
//! bounded (the newest [`KEPT`] of each).
//!
//! Owns: the records (sent to commands as they are, over the watcher's socket), how events
//! become them (out of order too: Chromium sends a document's `responseStarted` before its
//! `beforeRequestSent`), which tab each belongs to, and where each tab's current page began.
//! Must not: talk to the browser (the watcher does) or decide how a record is shown
//! (steps/debugging.rs does; secrets are masked there).

use crate::engine::bidi::{
    BeforeRequestSent, ContextInfo, FetchError, FetchTimings, Header, LogEntry, RequestData,
    ResponseEvent, StackTrace,
};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};

/// How many requests, and how many console entries, the watcher keeps (the oldest go first).
pub const KEPT: usize = 3000;

/// One request (one hop of a redirect chain: each hop is a request of its own, as in HAR).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub seq: u64,
    /// The browser's id of the request (shared by the hops of a redirect chain).
    pub request_id: String,
    pub redirect_count: u32,
    /// The context (tab or frame) that made it; None for a worker's.
    pub context: Option<String>,
    /// The tab it belongs to (the top of its context).
    pub tab: Option<String>,
    /// Set for a request that loads a document of its context (a navigation).
    pub navigation: bool,
    pub method: String,
    pub url: String,
    /// What it is: `document`, `frame`, `script`, `stylesheet`, `image`, `font`, `media`,
    /// `fetch`, `xhr`, `beacon`, `preflight`, `worker`, `other`...
    pub kind: String,
    /// Who started it: `parser`, `script`, `preflight`, `redirect`, `other`.
    pub initiator: String,
    /// Where, when a script or the parser did: `URL:LINE:COLUMN` (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiator_at: Option<String>,
    /// When it started, ms since the epoch.
    pub started: f64,
    pub request_headers: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_body_size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    #[serde(default)]
    pub status_text: String,
    #[serde(default)]
    pub mime: String,
    #[serde(default)]
    pub protocol: String,
    #[serde(default)]
    pub from_cache: bool,
    #[serde(default)]
    pub response_headers: Vec<(String, String)>,
    /// Bytes received (headers and encoded body).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transferred: Option<u64>,
    /// The decoded body's size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timings: Option<FetchTimings>,
    /// When it ended (response complete or failed), ms since the epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<f64>,
    /// Why it failed (the browser's words: `net::ERR_FAILED`, `NS_ERROR_...`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// Who answered it instead of the network: `route PATTERN`, `policy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<String>,
}

impl Request {
    /// `pending`, `done` or `failed`.
    pub fn state(&self) -> &'static str {
        match (&self.failure, self.ended) {
            (Some(_), _) => "failed",
            (None, Some(_)) => "done",
            _ => "pending",
        }
    }

    /// How long it took, in ms (None while pending): from the browser's fetch timing when
    /// it has one (`responseEnd` less `requestTime`: both relative to `timeOrigin` on
    /// Chromium, since the epoch on Firefox), else between its events.
    pub fn duration(&self) -> Option<f64> {
        let end = self.ended?;
        if let Some(t) = self.timings.filter(|t| t.response_end > 0.0)
            && t.response_end >= t.request_time
        {
            return Some(t.response_end - t.request_time);
        }
        Some((end - self.started).max(0.0))
    }
}

/// One frame of a stack (1-based line and column).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub url: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub function: String,
    pub line: u64,
    pub column: u64,
}

impl Frame {
    /// `URL:LINE:COLUMN`.
    pub fn at(&self) -> String {
        format!("{}:{}:{}", self.url, self.line, self.column)
    }
}

/// One console entry: a console call or an uncaught error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConsoleEntry {
    pub seq: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<String>,
    /// `debug`, `info`, `warn` or `error`.
    pub level: String,
    /// `console` (a console call; `method` says which) or `uncaught` (an exception or a
    /// rejected promise no one handled).
    pub kind: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub method: String,
    pub text: String,
    /// The frames of its stack, innermost first (empty when the browser gives none).
    #[serde(default)]
    pub stack: Vec<Frame>,
    /// ms since the epoch.
    pub time: f64,
}

/// The frames of a BiDi stack trace with a URL (the browser's own frames have none),
/// 1-based.
pub fn frames(st: Option<&StackTrace>) -> Vec<Frame> {
    st.map(|s| {
        s.call_frames
            .iter()
            .filter(|f| !f.url.is_empty())
            .map(|f| Frame {
                url: f.url.clone(),
                function: f.function_name.clone(),
                line: f.line_number + 1,
                column: f.column_number + 1,
            })
            .collect()
    })
    .unwrap_or_default()
}

/// The watcher's records.
#[derive(Debug, Default)]
pub struct Store {
    next: u64,
    requests: VecDeque<Request>,
    console: VecDeque<ConsoleEntry>,
    /// (request id, redirect count) -> seq.
    by_id: HashMap<(String, u32), u64>,
    /// Context -> its parent (frames).
    parents: HashMap<String, String>,
    /// Context -> its user context.
    user_contexts: HashMap<String, String>,
    /// Tab -> seq of the request that loaded its current page.
    loads: HashMap<String, u64>,
    /// Request id -> who answered it (noted by the holder before its events come).
    answered: HashMap<String, String>,
}

impl Store {
    /// The last seq given (0: none yet).
    pub fn last(&self) -> u64 {
        self.next
    }

    fn take_seq(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// A context that appeared (or was there when the watcher started).
    pub fn context(&mut self, c: &ContextInfo) {
        if let Some(p) = &c.parent {
            self.parents.insert(c.context.clone(), p.clone());
        }
        if let Some(u) = &c.user_context {
            self.user_contexts.insert(c.context.clone(), u.clone());
        }
        for child in c.children.iter().flatten() {
            let mut child = child.clone();
            child.parent = Some(c.context.clone());
            if child.user_context.is_none() {
                child.user_context = c.user_context.clone();
            }
            self.context(&child);
        }
    }

    /// The tab (top-level context) of a context.
    pub fn tab_of(&self, context: &str) -> String {
        let mut c = context;
        for _ in 0..64 {
            match self.parents.get(c) {
                Some(p) => c = p,
                None => break,
            }
        }
        c.to_string()
    }

    /// The user context of a context, when known.
    pub fn user_context_of(&self, context: &str) -> Option<&str> {
        self.user_contexts
            .get(&self.tab_of(context))
            .or_else(|| self.user_contexts.get(context))
            .map(String::as_str)
    }

    /// Notes who answered a held request (its events come after).
    pub fn answered(&mut self, request_id: &str, by: &str) {
        if self.answered.len() > KEPT {
            self.answered.clear();
        }
        self.answered.insert(request_id.to_string(), by.to_string());
    }

    /// The record of a request's hop, made when its first event comes.
    fn hop(
        &mut self,
        data: &RequestData,
        redirects: u32,
        context: &Option<String>,
    ) -> &mut Request {
        let key = (data.request.clone(), redirects);
        let seq = match self.by_id.get(&key).copied() {
            Some(s) if self.requests.iter().any(|r| r.seq == s) => s,
            _ => {
                let seq = self.take_seq();
                let tab = context.as_deref().map(|c| self.tab_of(c));
                self.requests.push_back(Request {
                    seq,
                    request_id: data.request.clone(),
                    redirect_count: redirects,
                    context: context.clone(),
                    tab,
                    method: data.method.clone(),
                    url: data.url.clone(),
                    kind: kind_of(data),
                    initiator: if redirects > 0 { "redirect" } else { "other" }.into(),
                    ..Default::default()
                });
                self.by_id.insert(key, seq);
                while self.requests.len() > KEPT {
                    if let Some(old) = self.requests.pop_front() {
                        self.by_id.remove(&(old.request_id, old.redirect_count));
                    }
                }
                seq
            }
        };
        let i = self
            .requests
            .iter()
            .rposition(|r| r.seq == seq)
            .unwrap_or(self.requests.len() - 1);
        &mut self.requests[i]
    }

    /// `network.beforeRequestSent`.
    pub fn before_request(&mut self, e: &BeforeRequestSent) {
        let answered = self.answered.get(&e.request.request).cloned();
        let r = self.hop(&e.request, e.redirect_count, &e.context);
        r.started = e.timestamp;
        r.navigation = e.navigation.is_some();
        r.request_headers = headers(&e.request.headers);
        r.request_body_size = e.request.body_size.filter(|n| *n > 0);
        if let Some(i) = e.initiator.as_ref().filter(|_| e.redirect_count == 0) {
            r.initiator = i.kind.clone().unwrap_or_else(|| "other".into());
            let top = frames(i.stack_trace.as_ref()).into_iter().next();
            r.initiator_at = top.map(|f| f.at()).or_else(|| {
                i.line_number.map(|l| {
                    let url = r.request_headers_referer();
                    format!("{url}:{}:{}", l + 1, i.column_number.unwrap_or(0) + 1)
                })
            });
        }
        if r.answered_by.is_none() {
            r.answered_by = answered;
        }
        let (seq, nav, tab, ctx) = (r.seq, r.navigation, r.tab.clone(), r.context.clone());
        if nav && tab.is_some() && tab == ctx && e.redirect_count == 0 {
            self.loads.insert(tab.unwrap_or_default(), seq);
        }
    }

    /// `network.responseStarted` and `network.responseCompleted`.
    pub fn response(&mut self, e: &ResponseEvent, completed: bool) {
        let answered = self.answered.get(&e.request.request).cloned();
        let r = self.hop(&e.request, e.redirect_count, &e.context);
        if r.started == 0.0 {
            r.started = e.timestamp;
        }
        if e.navigation.is_some() {
            r.navigation = true;
        }
        let p = &e.response;
        r.status = Some(p.status);
        r.status_text = p.status_text.clone();
        r.mime = p.mime_type.clone();
        r.protocol = p.protocol.clone();
        r.from_cache = p.from_cache;
        r.response_headers = headers(&p.headers);
        if r.request_headers.is_empty() {
            r.request_headers = headers(&e.request.headers);
        }
        r.timings = e.request.timings.or(r.timings);
        if completed {
            r.ended = Some(e.timestamp.max(r.started));
            r.transferred = Some(p.bytes_received);
            let decoded = p.content.map(|c| c.size).filter(|n| *n > 0);
            r.size = decoded.or(p.body_size);
        }
        if r.answered_by.is_none() {
            r.answered_by = answered;
        }
        let (seq, nav, tab, ctx) = (r.seq, r.navigation, r.tab.clone(), r.context.clone());
        if nav && tab.is_some() && tab == ctx && e.redirect_count == 0 {
            self.loads.entry(tab.unwrap_or_default()).or_insert(seq);
        }
    }

    /// `network.fetchError`.
    pub fn failed(&mut self, e: &FetchError) {
        let answered = self.answered.get(&e.request.request).cloned();
        let r = self.hop(&e.request, e.redirect_count, &e.context);
        if r.started == 0.0 {
            r.started = e.timestamp;
        }
        r.ended = Some(e.timestamp.max(r.started));
        r.failure = Some(if e.error_text.is_empty() {
            "failed".into()
        } else {
            e.error_text.clone()
        });
        if r.answered_by.is_none() {
            r.answered_by = answered;
        }
    }

    /// `log.entryAdded`.
    pub fn log(&mut self, e: &LogEntry) {
        if e.kind == "javascript" {
            self.cors_failure(e.text.as_deref().unwrap_or(""));
        }
        let seq = self.take_seq();
        let uncaught = e.kind == "javascript";
        let text = match (uncaught, e.args.is_empty()) {
            (false, false) => console_text(&e.args),
            _ => e.text.clone().unwrap_or_default(),
        };
        let tab = e.source.context.as_deref().map(|c| self.tab_of(c));
        self.console.push_back(ConsoleEntry {
            seq,
            context: e.source.context.clone(),
            tab,
            level: if e.level.is_empty() {
                "info".into()
            } else {
                e.level.clone()
            },
            kind: if uncaught { "uncaught" } else { "console" }.into(),
            method: e.method.clone().unwrap_or_default(),
            text,
            stack: frames(e.stack_trace.as_ref()),
            time: e.timestamp,
        });
        while self.console.len() > KEPT {
            self.console.pop_front();
        }
    }

    /// Firefox reports a request CORS refused to the page with its response (a 200) and no
    /// `fetchError`, and says why in the page's console ("Cross-Origin Request Blocked: ...
    /// the remote resource at URL. (Reason: ...)"): the newest request of that URL is marked
    /// failed with that reason, as Chromium's `fetchError` marks it.
    fn cors_failure(&mut self, text: &str) {
        let Some(rest) = text.strip_prefix("Cross-Origin Request Blocked: ") else {
            return;
        };
        let Some(at) = rest.find("remote resource at ") else {
            return;
        };
        let tail = &rest[at + "remote resource at ".len()..];
        let Some(end) = tail.find(". (Reason: ") else {
            return;
        };
        let url = &tail[..end];
        let reason = tail[end + ". (Reason: ".len()..]
            .split(')')
            .next()
            .unwrap_or("");
        if let Some(r) = self
            .requests
            .iter_mut()
            .rev()
            .find(|r| r.url == url && r.failure.is_none())
        {
            r.failure = Some(format!("CORS: {reason}"));
        }
    }

    /// Where tab `tab`'s current page began (the seq of its document's request; 0: unknown).
    pub fn page_start(&self, tab: &str) -> u64 {
        self.loads.get(tab).copied().unwrap_or(0)
    }

    /// The requests of tab `tab` after seq `after` (all tabs when `tab` is empty).
    pub fn requests(&self, tab: &str, after: u64) -> Vec<Request> {
        self.requests
            .iter()
            .filter(|r| r.seq > after && (tab.is_empty() || r.tab.as_deref() == Some(tab)))
            .cloned()
            .collect()
    }

    /// One request by its seq.
    pub fn request(&self, seq: u64) -> Option<&Request> {
        self.requests.iter().find(|r| r.seq == seq)
    }

    /// The console entries of tab `tab` after seq `after`.
    pub fn console(&self, tab: &str, after: u64) -> Vec<ConsoleEntry> {
        self.console
            .iter()
            .filter(|c| c.seq > after && (tab.is_empty() || c.tab.as_deref() == Some(tab)))
            .cloned()
            .collect()
    }
}

impl Request {
    /// The page URL a parser-started request came from (its Referer), for its position.
    fn request_headers_referer(&self) -> String {
        self.request_headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("referer"))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }
}

/// Headers as (name, value), each once (Chromium lists some request headers twice: as the
/// page set them and as they were sent, differing only in case).
fn headers(h: &[Header]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for h in h {
        let v = h.text();
        if !out
            .iter()
            .any(|(n, x)| n.eq_ignore_ascii_case(&h.name) && *x == v)
        {
            out.push((h.name.clone(), v));
        }
    }
    out
}

/// What a request is, from its Fetch destination (Fetch, "destination"), else its Resource
/// Timing initiator type, else Chromium's resource type.
pub fn kind_of(d: &RequestData) -> String {
    let dest = d.destination.as_deref().unwrap_or("");
    let k = match dest {
        "document" => "document",
        "iframe" | "frame" | "embed" | "object" => "frame",
        "image" => "image",
        "script" | "paintworklet" | "audioworklet" => "script",
        "style" | "xslt" => "stylesheet",
        "font" => "font",
        "audio" | "video" | "track" => "media",
        "manifest" => "manifest",
        "worker" | "sharedworker" | "serviceworker" => "worker",
        "report" => "report",
        _ => "",
    };
    if !k.is_empty() {
        return k.into();
    }
    let by_type = match d.initiator_type.as_deref().unwrap_or("") {
        "fetch" => "fetch",
        "xmlhttprequest" => "xhr",
        "beacon" => "beacon",
        "img" | "image" | "input" => "image",
        "script" => "script",
        "link" | "css" => "stylesheet",
        "video" | "audio" | "track" => "media",
        _ => "",
    };
    if !by_type.is_empty() {
        return by_type.into();
    }
    match d.goog_resource_type.as_deref().unwrap_or("") {
        "Fetch" => "fetch",
        "XHR" => "xhr",
        "Ping" => "beacon",
        "Preflight" => "preflight",
        "Document" => "document",
        "Image" => "image",
        "Script" => "script",
        "Stylesheet" => "stylesheet",
        "Font" => "font",
        "Media" => "media",
        "WebSocket" => "websocket",
        "EventSource" => "eventsource",
        _ => "other",
    }
    .into()
}

/// A console call's text from its arguments (`script.RemoteValue`s): strings as they are,
/// other values as JSON-like text (objects and arrays to a depth of 3), separated by
/// spaces, as a console shows them.
pub fn console_text(args: &[serde_json::Value]) -> String {
    let parts: Vec<String> = args
        .iter()
        .map(|a| match a["type"].as_str() {
            Some("string") => a["value"].as_str().unwrap_or("").to_string(),
            _ => remote_text(a, 0),
        })
        .collect();
    parts.join(" ")
}

/// One remote value as text.
fn remote_text(v: &serde_json::Value, depth: usize) -> String {
    use serde_json::Value;
    let val = &v["value"];
    match v["type"].as_str().unwrap_or("") {
        "string" => serde_json::to_string(val.as_str().unwrap_or("")).unwrap_or_default(),
        "number" => match val {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        },
        "boolean" => val.to_string(),
        "undefined" => "undefined".into(),
        "null" => "null".into(),
        "bigint" => format!("{}n", val.as_str().unwrap_or("")),
        "array" | "set" if depth < 3 => {
            let items: Vec<String> = val
                .as_array()
                .into_iter()
                .flatten()
                .map(|i| remote_text(i, depth + 1))
                .collect();
            format!("[{}]", items.join(","))
        }
        "object" | "map" if depth < 3 => {
            let items: Vec<String> = val
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|pair| {
                    let k = match &pair[0] {
                        Value::String(s) => s.clone(),
                        other => remote_text(other, depth + 1),
                    };
                    Some(format!(
                        "{}:{}",
                        serde_json::to_string(&k).ok()?,
                        remote_text(&pair[1], depth + 1)
                    ))
                })
                .collect();
            format!("{{{}}}", items.join(","))
        }
        "error" => "Error".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn req(id: &str, url: &str, extra: serde_json::Value) -> serde_json::Value {
        let mut r = json!({"request": id, "url": url, "method": "GET", "headers": [],
                           "cookies": [], "headersSize": 0, "bodySize": 0, "timings": {}});
        if let (Some(o), Some(x)) = (r.as_object_mut(), extra.as_object()) {
            o.extend(x.clone());
        }
        r
    }

    #[test]
    fn events_fold_into_requests_in_any_order_and_redirects_are_hops() {
        let mut s = Store::default();
        s.context(
            &serde_json::from_value(json!({"context": "T", "url": "", "userContext": "default",
            "children": [{"context": "F", "url": "", "children": []}]}))
            .unwrap(),
        );
        // Chromium: the document's response before its request
        let resp: ResponseEvent = serde_json::from_value(json!({"context": "T", "navigation": "N",
            "redirectCount": 0, "timestamp": 100,
            "request": req("D", "http://a.test/", json!({"destination": "document"})),
            "response": {"url": "http://a.test/", "protocol": "http/1.1", "status": 200,
                         "statusText": "OK", "fromCache": false, "headers": [], "mimeType": "text/html",
                         "bytesReceived": 0, "headersSize": 0, "bodySize": 0, "content": {"size": 0}}})).unwrap();
        s.response(&resp, false);
        let before: BeforeRequestSent =
            serde_json::from_value(json!({"context": "T", "navigation": "N",
            "redirectCount": 0, "timestamp": 90, "isBlocked": false,
            "request": req("D", "http://a.test/", json!({"destination": "document"})),
            "initiator": {"type": "other"}}))
            .unwrap();
        s.before_request(&before);
        let all = s.requests("T", 0);
        assert_eq!(all.len(), 1, "{all:?}");
        assert_eq!(
            (all[0].status, all[0].kind.as_str()),
            (Some(200), "document")
        );
        assert_eq!(s.page_start("T"), all[0].seq);
        // a fetch in the frame, redirected once, then failed
        let f = |rc: u32, ts: f64| -> BeforeRequestSent {
            serde_json::from_value(json!({"context": "F", "redirectCount": rc, "timestamp": ts,
                "isBlocked": false, "request": req("X", "http://a.test/r", json!({"destination": "", "initiatorType": "fetch"})),
                "initiator": {"type": "script", "stackTrace": {"callFrames": [
                    {"url": "http://a.test/app.js", "functionName": "load", "lineNumber": 4, "columnNumber": 2}]}}})).unwrap()
        };
        s.before_request(&f(0, 200.0));
        s.before_request(&f(1, 210.0));
        let err: FetchError = serde_json::from_value(json!({"context": "F", "redirectCount": 1,
            "timestamp": 250, "errorText": "net::ERR_FAILED",
            "request": req("X", "http://a.test/r", json!({}))}))
        .unwrap();
        s.failed(&err);
        let all = s.requests("T", 0);
        assert_eq!(all.len(), 3, "{all:?}");
        assert_eq!(
            all[1].initiator_at.as_deref(),
            Some("http://a.test/app.js:5:3")
        );
        assert_eq!(all[1].kind, "fetch");
        assert_eq!(all[1].tab.as_deref(), Some("T"));
        assert_eq!(all[2].initiator, "redirect");
        assert_eq!((all[2].state(), all[2].duration()), ("failed", Some(40.0)));
        assert_eq!(all[1].state(), "pending");
        assert!(s.requests("OTHER", 0).is_empty());
        assert_eq!(s.requests("T", all[1].seq).len(), 1);
    }

    #[test]
    fn console_entries_keep_level_text_and_stack() {
        let mut s = Store::default();
        let e: LogEntry = serde_json::from_value(json!({"type": "console", "method": "log",
            "level": "info", "text": "hello Object(1)", "timestamp": 1,
            "source": {"realm": "R", "context": "T"},
            "args": [{"type": "string", "value": "hello"},
                     {"type": "object", "value": [["a", {"type": "number", "value": 1}],
                                                   ["b", {"type": "array", "value": [{"type": "string", "value": "x"}]}]]}],
            "stackTrace": {"callFrames": [{"url": "", "functionName": "hook", "lineNumber": 0, "columnNumber": 9},
                                          {"url": "http://a.test/", "functionName": "", "lineNumber": 6, "columnNumber": 8}]}}))
            .unwrap();
        s.log(&e);
        let u: LogEntry = serde_json::from_value(json!({"type": "javascript", "level": "error",
            "text": "Error: boom", "timestamp": 2, "source": {"realm": "R", "context": "T"}}))
        .unwrap();
        s.log(&u);
        let c = s.console("T", 0);
        assert_eq!(c[0].text, r#"hello {"a":1,"b":["x"]}"#);
        assert_eq!(
            c[0].stack.len(),
            1,
            "frames without a URL are the browser's"
        );
        assert_eq!(c[0].stack[0].at(), "http://a.test/:7:9");
        assert_eq!(
            (c[1].kind.as_str(), c[1].level.as_str()),
            ("uncaught", "error")
        );
        assert_eq!(s.console("T", c[0].seq).len(), 1);
    }

    #[test]
    fn kinds_come_from_the_destination_then_the_initiator_type() {
        let d = |dest: &str, it: &str| -> RequestData {
            serde_json::from_value(
                json!({"request": "1", "url": "u", "destination": dest, "initiatorType": it}),
            )
            .unwrap()
        };
        assert_eq!(kind_of(&d("style", "link")), "stylesheet");
        assert_eq!(kind_of(&d("", "xmlhttprequest")), "xhr");
        assert_eq!(kind_of(&d("", "fetch")), "fetch");
        assert_eq!(kind_of(&d("", "")), "other");
    }
}
