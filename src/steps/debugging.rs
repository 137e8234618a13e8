//! Debugging a page (docs/reference/network.md): `network` (the requests since the last call,
//! one request whole, a HAR file), `route` and `unroute` (requests answered without the
//! network), and `console` (level, text, where and the stack, since the last call). What
//! they show comes from the session's watcher (browser/watch), which records between
//! commands too.
//!
//! Owns: these steps' arguments, their words, secrets masked by shape in what they print
//! (snapshot/secrets.rs, and credential headers), and the cursors of "since the last call".
//! Must not: record or hold requests (the watcher does).

use super::act::{Act, Core, Cx, Info, Kind, row};
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::browser::routes::{self, Route};
use crate::browser::watch::ipc::{self, Body, Query, Reply};
use crate::browser::watch::store::{ConsoleEntry, Request};
use crate::engine::entry;
use crate::error::{Error, Result};
use crate::wire::ConsoleReply;
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::time::Duration;

/// How long a command waits for the watcher's reply (bodies are read from the browser).
const ASK: Duration = Duration::from_secs(20);

/// The longest body text `network ID` prints (the rest is counted).
const BODY_SHOWN: usize = 4000;

/// `network`: the requests of the current tab since the last `network` (or since its page
/// loaded), one request whole (`network r12`), or a HAR file of the page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct NetworkArgs {
    /// One request whole (headers, bodies): its id from the list (r12).
    #[serde(default)]
    #[arg(value_name = "ID")]
    pub id: Option<String>,
    /// Only URLs matching this glob (`*`, `**`; a leading `/` matches the path) or text.
    #[serde(default)]
    #[arg(long)]
    pub url: Option<String>,
    /// Only these statuses: 404, 4xx, 5xx, failed, ok.
    #[serde(default)]
    #[arg(long)]
    pub status: Option<String>,
    /// Only these types (comma-separated): document, script, stylesheet, image, font,
    /// fetch, xhr, media, frame, other.
    #[serde(default, rename = "type")]
    #[arg(long = "type")]
    pub kind: Option<String>,
    /// Every request of the page kept, not only those since the last call.
    #[serde(default)]
    #[arg(long)]
    pub all: bool,
    /// Write the page's requests as a HAR 1.2 file.
    #[serde(default)]
    #[arg(long, value_name = "FILE")]
    pub har: Option<String>,
    /// With har: the response bodies too.
    #[serde(default)]
    #[arg(long)]
    pub bodies: bool,
}

impl From<String> for NetworkArgs {
    fn from(id: String) -> Self {
        NetworkArgs {
            id: Some(id),
            ..Default::default()
        }
    }
}

/// `route`: requests whose URL matches a pattern are answered without the network (a
/// status, headers and a body), delayed, or failed, while the session lives.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RouteArgs {
    /// A glob over the URL (`*`: no `/`; `**`: anything); a leading `/` matches the path.
    #[arg(value_name = "PATTERN")]
    pub pattern: String,
    /// HTTP status of the answer (200 with a body).
    #[serde(default)]
    #[arg(long)]
    pub status: Option<u16>,
    /// Response headers, "Name: value".
    #[serde(default)]
    #[arg(long = "header", alias = "headers", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// The body, as text.
    #[serde(default)]
    #[arg(long)]
    pub body: Option<String>,
    /// The body, from a file.
    #[serde(default)]
    #[arg(long, value_name = "FILE")]
    pub body_file: Option<String>,
    /// Its Content-Type (default: from the file's name, JSON for a body that parses).
    #[serde(default)]
    #[arg(long)]
    pub content_type: Option<String>,
    /// Milliseconds the answer (or, alone, the request) waits.
    #[serde(default)]
    #[arg(long)]
    pub delay: Option<u64>,
    /// The request fails with a network error.
    #[serde(default)]
    #[arg(long)]
    pub fail: bool,
}

impl From<String> for RouteArgs {
    fn from(pattern: String) -> Self {
        RouteArgs {
            pattern,
            ..Default::default()
        }
    }
}

/// `unroute`: removes the session's routes of a pattern (all of them when none is given).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct UnrouteArgs {
    /// The pattern `route` was given.
    #[serde(default)]
    #[arg(value_name = "PATTERN")]
    pub pattern: Option<String>,
}

impl From<String> for UnrouteArgs {
    fn from(pattern: String) -> Self {
        UnrouteArgs {
            pattern: Some(pattern),
        }
    }
}

/// The session whose watcher serves this one (an agent of a shared browser: its owner's).
fn watcher_of(b: &Browser) -> Result<String> {
    if b.record.bidi.is_none() || !b.page.isolated() {
        return Err(Error::Usage(
            "network, route and console stacks need WebDriver BiDi (this session runs without it: ARIASNAP_BIDI=0, or a driver without BiDi)".into(),
        ));
    }
    Ok(match &b.record.shared {
        Some(s) => s.owner.clone(),
        None => b.record.name.clone(),
    })
}

/// The request id `r12` as its seq.
fn seq_of(id: &str) -> Result<u64> {
    id.trim()
        .strip_prefix('r')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| {
            Error::Usage(format!(
                "{id:?} is not a request id: ids are r followed by a number, as `network` lists them (r12)"
            ))
        })
}

/// `network`.
pub(super) async fn network(
    b: &mut Browser,
    a: &NetworkArgs,
    opts: &super::RunOptions,
) -> Result<Outcome> {
    let name = watcher_of(b)?;
    if let Some(id) = &a.id {
        let seq = seq_of(id)?;
        let r = ipc::ask(&name, &Query::Request { seq, bodies: true }, ASK).await?;
        return Ok(Outcome::with(detail(&r, seq)?));
    }
    let tab = b.record.current_handle();
    if let Some(file) = &a.har {
        let to = opts.user_path("network --har", file)?;
        let q = Query::Har {
            tab: tab.clone(),
            after: 0,
            bodies: a.bodies,
        };
        let r = ipc::ask(&name, &q, ASK).await?;
        let page: Vec<Request> = r
            .requests
            .iter()
            .filter(|q| q.seq >= r.page_start)
            .cloned()
            .collect();
        let har = super::har::build(&page, &r.bodies, &b.url().await, &b.title().await);
        // a secret the page sent or echoed never reaches the file (docs/reference/policy.md#secrets)
        let text = serde_json::to_string_pretty(&har).unwrap_or_default();
        let text = crate::vault::mask(&text);
        crate::private::write_file(&to, text.as_bytes())?;
        let with = if a.bodies { " with their bodies" } else { "" };
        return Ok(Outcome::with(json!(format!(
            "HAR 1.2 of {} requests{with} written to {file} ({} bytes)",
            page.len(),
            text.len()
        ))));
    }
    let after = if a.all { 0 } else { b.record.network_seen };
    let r = ipc::ask(&name, &Query::Network { tab, after }, ASK).await?;
    // since the last call, within the current page
    let list: Vec<&Request> = r
        .requests
        .iter()
        .filter(|q| q.seq >= r.page_start)
        .collect();
    b.record.network_seen = r.last;
    crate::browser::session::save(&b.record)?;
    let page = b.url().await;
    let shown: Vec<Value> = list
        .iter()
        .filter(|q| keep(q, a))
        .map(|q| json!(line(q, &page)))
        .collect();
    let mut out = json!({ "requests": shown });
    let left = list.len() - shown.len();
    if left > 0 {
        out["filteredOut"] = json!(left);
    }
    if !r.routes.is_empty() {
        out["routes"] = routes_of(&r, b);
    }
    let mut o = Outcome::with(out);
    if list.is_empty() && r.last > 0 {
        o.warnings.push(
            "no new request since the last call: --all lists every request of the page".into(),
        );
    }
    Ok(o)
}

/// The routes of this session (its own, for an agent of a shared browser), described.
fn routes_of(r: &Reply, b: &Browser) -> Value {
    let mine: Vec<String> = r
        .routes
        .iter()
        .filter(|x| x.owner == b.record.name)
        .map(Route::describe)
        .collect();
    json!(mine)
}

/// Whether a request passes the filters.
fn keep(r: &Request, a: &NetworkArgs) -> bool {
    if let Some(u) = &a.url {
        let hit = if u.contains('*') || u.starts_with('/') {
            routes::matches(u, &r.url)
        } else {
            r.url.contains(u.as_str())
        };
        if !hit {
            return false;
        }
    }
    if let Some(k) = &a.kind
        && !k.split(',').any(|k| k.trim().eq_ignore_ascii_case(&r.kind))
    {
        return false;
    }
    if let Some(s) = &a.status {
        return s.split(',').any(|s| status_is(r, s.trim()));
    }
    true
}

/// `404`, `4xx`, `failed`, `ok` (below 400 and not failed), `pending`.
fn status_is(r: &Request, want: &str) -> bool {
    match want.to_ascii_lowercase().as_str() {
        "failed" => r.failure.is_some(),
        "pending" => r.state() == "pending",
        "ok" => r.failure.is_none() && r.status.is_some_and(|s| s < 400),
        w if w.len() == 3 && w.ends_with("xx") => {
            let d = w.as_bytes()[0];
            r.status.is_some_and(|s| (s / 100) as u8 + b'0' == d)
        }
        w => w.parse::<u16>().ok().is_some_and(|n| r.status == Some(n)),
    }
}

/// A URL as the list shows it: its path when it is on the page's origin.
fn short_url(url: &str, page: &str) -> String {
    let origin = crate::browser::guard::origin_of(page);
    match url.strip_prefix(&origin) {
        Some(rest) if !origin.is_empty() && origin != "null" && rest.starts_with('/') => {
            rest.to_string()
        }
        _ => url.to_string(),
    }
}

/// A size in words: `705 B`, `12.4 kB`.
fn size_words(n: u64) -> String {
    if n < 1000 {
        format!("{n} B")
    } else if n < 1_000_000 {
        format!("{:.1} kB", n as f64 / 1000.0)
    } else {
        format!("{:.1} MB", n as f64 / 1_000_000.0)
    }
}

/// One request's line: `r5 GET 404 image /missing.png 335 B 4 ms (parser /:4:6)`.
pub fn line(r: &Request, page: &str) -> String {
    let status = match (&r.failure, r.status) {
        (Some(_), _) => "failed".to_string(),
        (None, Some(s)) => s.to_string(),
        (None, None) => "pending".to_string(),
    };
    let url = crate::snapshot::render::cut(&short_url(&r.url, page), 200);
    let mut out = format!(
        "r{} {} {status} {} {}",
        r.seq,
        r.method,
        r.kind,
        crate::snapshot::secrets::mask(&url)
    );
    if let Some(f) = &r.failure {
        out.push_str(&format!(" {f}"));
    }
    if let Some(s) = r.size.filter(|_| r.failure.is_none()) {
        out.push_str(&format!(" {}", size_words(s)));
    }
    if r.from_cache {
        out.push_str(" (cache)");
    }
    if let Some(d) = r.duration() {
        out.push_str(&format!(" {} ms", d.round() as u64));
    }
    let by = match &r.initiator_at {
        Some(at) => format!("{} {}", r.initiator, short_url(at, page)),
        None => r.initiator.clone(),
    };
    if by != "other" {
        out.push_str(&format!(" ({by})"));
    }
    if let Some(a) = &r.answered_by {
        out.push_str(&format!(" [{a}]"));
    }
    out
}

/// Header names whose values are credentials: masked whatever their shape.
const CREDENTIAL_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
    "x-api-key",
    "x-auth-token",
    "x-csrf-token",
];

/// Headers as `Name: value` lines, credentials and secret shapes masked.
fn header_lines(h: &[(String, String)]) -> Vec<String> {
    let reveal = crate::snapshot::secrets::revealed();
    h.iter()
        .map(|(n, v)| {
            let v = if !reveal && CREDENTIAL_HEADERS.contains(&n.to_ascii_lowercase().as_str()) {
                format!("[secret:header {} chars]", v.chars().count())
            } else {
                crate::snapshot::secrets::mask(v).into_owned()
            };
            format!("{n}: {v}")
        })
        .collect()
}

/// A body as `network ID` shows it: text cut at [`BODY_SHOWN`] characters with its size,
/// secrets masked; binary as its size.
fn body_value(b: &Body) -> Value {
    if let Some(m) = &b.missing {
        return json!({ "missing": m });
    }
    match &b.text {
        Some(t) => {
            let masked = crate::snapshot::secrets::mask(t);
            let n = masked.chars().count();
            let mut v = json!({ "size": b.size });
            if n > BODY_SHOWN {
                let cut: String = masked.chars().take(BODY_SHOWN).collect();
                v["text"] = json!(cut);
                v["cut"] = json!(format!("first {BODY_SHOWN} of {n} characters"));
            } else {
                v["text"] = json!(masked);
            }
            v
        }
        None => json!({ "size": b.size, "binary": true }),
    }
}

/// `network ID`: the request whole.
fn detail(r: &Reply, seq: u64) -> Result<Value> {
    let q = r
        .requests
        .first()
        .ok_or_else(|| Error::Usage(format!("no request r{seq} is kept")))?;
    let mut v = json!({
        "id": format!("r{}", q.seq),
        "method": q.method,
        "url": crate::snapshot::secrets::mask(&q.url),
        "type": q.kind,
        "state": q.state(),
        "initiator": q.initiator,
        "requestHeaders": header_lines(&q.request_headers),
    });
    let set = |v: &mut Value, k: &str, x: Value| {
        if !x.is_null() {
            v[k] = x;
        }
    };
    set(&mut v, "initiatorAt", json!(q.initiator_at));
    set(&mut v, "status", json!(q.status));
    if !q.status_text.is_empty() {
        v["statusText"] = json!(q.status_text);
    }
    set(&mut v, "failure", json!(q.failure));
    set(&mut v, "answeredBy", json!(q.answered_by));
    set(&mut v, "ms", json!(q.duration().map(|d| d.round() as u64)));
    set(&mut v, "transferred", json!(q.transferred));
    set(&mut v, "size", json!(q.size));
    if !q.mime.is_empty() {
        v["mimeType"] = json!(q.mime);
    }
    if q.status.is_some() {
        v["responseHeaders"] = json!(header_lines(&q.response_headers));
    }
    for b in &r.bodies {
        let key = if b.which == "request" {
            "requestBody"
        } else {
            "responseBody"
        };
        v[key] = body_value(b);
    }
    if q.request_body_size.is_some() && v.get("requestBody").is_none() {
        v["requestBody"] = json!({"size": q.request_body_size, "missing": "not kept"});
    }
    Ok(v)
}

/// `route`: the session's routes with this one (a route of the same pattern replaced).
pub(super) async fn route(
    b: &mut Browser,
    a: &RouteArgs,
    opts: &super::RunOptions,
) -> Result<Outcome> {
    let name = watcher_of(b)?;
    if b.record.browser == crate::browser::launch::BrowserKind::Chromium
        && b.record.debugger.is_none()
    {
        return Err(Error::Usage(
            "route needs a Chromium that ariasnap starts (its DevTools socket holds the requests: chromedriver's BiDi answers a held request only after the command that waits on it), or Firefox".into(),
        ));
    }
    let r = make_route(a, opts)?;
    let said = r.describe();
    let mut mine = b.record.routes.clone();
    mine.retain(|x| x.pattern != r.pattern);
    mine.push(r);
    set_routes(b, &name, mine).await?;
    Ok(Outcome::with(json!({
        "routed": said,
        "routes": b.record.routes.iter().map(Route::describe).collect::<Vec<_>>()
    })))
}

/// `unroute`.
pub(super) async fn unroute(b: &mut Browser, a: &UnrouteArgs) -> Result<Outcome> {
    let name = watcher_of(b)?;
    let before = b.record.routes.len();
    let mut mine = b.record.routes.clone();
    match &a.pattern {
        Some(p) => mine.retain(|x| &x.pattern != p),
        None => mine.clear(),
    }
    if mine.len() == before {
        let known: Vec<&str> = b.record.routes.iter().map(|r| r.pattern.as_str()).collect();
        return Err(Error::Usage(format!(
            "no route {:?} to remove; this session's routes: {}",
            a.pattern.as_deref().unwrap_or(""),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        )));
    }
    set_routes(b, &name, mine).await?;
    Ok(Outcome::with(json!({
        "removed": before - b.record.routes.len(),
        "routes": b.record.routes.iter().map(Route::describe).collect::<Vec<_>>()
    })))
}

/// Hands the watcher this session's routes and keeps them in its record.
async fn set_routes(b: &mut Browser, watcher: &str, mine: Vec<Route>) -> Result<()> {
    let q = Query::Routes {
        owner: b.record.name.clone(),
        user_context: b.record.user_context().map(str::to_string),
        routes: mine.clone(),
    };
    ipc::ask(watcher, &q, ASK).await?;
    b.record.routes = mine;
    crate::browser::session::save(&b.record)
}

/// A route from `route`'s arguments (its body file read here, inside an HTTP agent's
/// folder).
fn make_route(a: &RouteArgs, opts: &super::RunOptions) -> Result<Route> {
    use base64::Engine;
    if a.pattern.trim().is_empty() {
        return Err(Error::Usage(
            "route needs a URL pattern: route '/api/*' --body '[]'".into(),
        ));
    }
    let body: Option<Vec<u8>> = match (&a.body, &a.body_file) {
        (Some(_), Some(_)) => {
            return Err(Error::Usage(
                "route: give --body or --body-file, not both".into(),
            ));
        }
        (Some(t), None) => Some(t.as_bytes().to_vec()),
        (None, Some(f)) => {
            let p = opts.user_path("route --body-file", f)?;
            Some(std::fs::read(&p).map_err(|e| Error::io("read", &p, e))?)
        }
        (None, None) => None,
    };
    let given = a.status.is_some() || body.is_some() || !a.headers.is_empty();
    if a.fail && given {
        return Err(Error::Usage(
            "route: --fail makes the request fail; it takes no status, header or body".into(),
        ));
    }
    if !a.fail && !given && a.delay.is_none() {
        return Err(Error::Usage(
            "route needs what to answer: --status, --header, --body or --body-file, --delay MS, or --fail".into(),
        ));
    }
    let mut headers = Vec::new();
    for h in &a.headers {
        let (n, v) = h.split_once(':').ok_or_else(|| {
            Error::Usage(format!("route --header {h:?}: write it as \"Name: value\""))
        })?;
        headers.push((n.trim().to_string(), v.trim().to_string()));
    }
    let has_type = headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
    if !has_type && let Some(b) = &body {
        let ty = a
            .content_type
            .clone()
            .unwrap_or_else(|| match &a.body_file {
                Some(f) => crate::serve::content_type(f).to_string(),
                None if serde_json::from_slice::<Value>(b).is_ok() => "application/json".into(),
                None => "text/plain; charset=utf-8".into(),
            });
        headers.push(("Content-Type".into(), ty));
    }
    if let Some(s) = a.status
        && !(100..=599).contains(&s)
    {
        return Err(Error::Usage(format!(
            "route --status {s}: an HTTP status is 100 to 599"
        )));
    }
    Ok(Route {
        pattern: a.pattern.trim().to_string(),
        status: a.status.or(body.as_ref().map(|_| 200)),
        headers,
        body: body.map(|b| base64::engine::general_purpose::STANDARD.encode(b)),
        delay_ms: a.delay.unwrap_or(0),
        fail: a.fail,
        ..Default::default()
    })
}

/// The levels, lowest first.
const LEVELS: [&str; 4] = ["debug", "info", "warn", "error"];

/// The rank of a level name (`log` is `info`, `warning` is `warn`).
fn rank(level: &str) -> Option<usize> {
    let l = match level.to_ascii_lowercase().as_str() {
        "log" => "info".to_string(),
        "warning" => "warn".to_string(),
        l => l.to_string(),
    };
    LEVELS.iter().position(|x| *x == l)
}

/// `console` through the watcher: the current tab's entries since the last call (of its
/// current page), at `level` or above.
pub(super) async fn console(b: &mut Browser, a: &ConsoleArgs) -> Result<Outcome> {
    let name = watcher_of(b)?;
    let min = match &a.level {
        Some(l) => rank(l).ok_or_else(|| {
            Error::Usage(format!(
                "console --level {l:?}: use debug, info, warn or error"
            ))
        })?,
        None => 0,
    };
    let after = if a.all { 0 } else { b.record.console_seen };
    let q = Query::Console {
        tab: b.record.current_handle(),
        after,
    };
    let r = ipc::ask(&name, &q, ASK).await?;
    b.record.console_seen = r.last;
    crate::browser::session::save(&b.record)?;
    let list: Vec<Value> = r
        .console
        .iter()
        .filter(|c| c.seq >= r.page_start)
        .filter(|c| rank(&c.level).unwrap_or(1) >= min)
        .map(entry_value)
        .collect();
    Ok(Outcome::with(json!(list)))
}

/// One console entry as `console` shows it.
fn entry_value(c: &ConsoleEntry) -> Value {
    let mut v = json!({
        "level": c.level,
        "text": crate::snapshot::secrets::mask(&crate::snapshot::render::cut(&c.text, 2000)),
    });
    if c.kind == "uncaught" {
        v["uncaught"] = json!(true);
    }
    if let Some(f) = c.stack.first() {
        v["at"] = json!(f.at());
    }
    if c.stack.len() > 1 {
        let frames: Vec<String> = c
            .stack
            .iter()
            .take(10)
            .map(|f| {
                let name = if f.function.is_empty() {
                    "(anonymous)"
                } else {
                    &f.function
                };
                format!("{name} {}", f.at())
            })
            .collect();
        v["stack"] = json!(frames);
    }
    v
}

/// `console`: the page's messages since the last call (with WebDriver BiDi; without it,
/// since the engine was installed).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ConsoleArgs {
    /// Only messages at this level or above: debug, info (log), warn, error.
    #[serde(default)]
    #[arg(long)]
    pub level: Option<String>,
    /// Every message of the page kept, not only those since the last call.
    #[serde(default)]
    #[arg(long)]
    pub all: bool,
    /// Mark every message read (without BiDi: empty the page's log) after reading it.
    #[serde(default)]
    #[arg(long)]
    pub clear: bool,
}

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for NetworkArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_network", "id", r#"true, "r12", {"status": "4xx", "type": "fetch"} or {"har": "page.har", "bodies": true}"#);
    const CORE: Option<Core> = Some(Core {
        rank: 9,
        description: Some(
            "Requests since the last call (id method status type URL size time initiator); \
             id: one whole with bodies; har: write a HAR file. Mock with browser_route.",
        ),
        props: &[
            ("id", ""),
            ("status", "404, 4xx, failed..."),
            ("type", ""),
            ("url", ""),
            ("har", ""),
        ],
    });
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        network(cx.b, self, cx.opts).await
    }
}

impl Act for RouteArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_route", "value", r#"{"pattern": "/api/items", "body": "[]"}, {"pattern": "**/*.png", "fail": true}"#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        route(cx.b, self, cx.opts).await
    }
}

impl Act for UnrouteArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_unroute", "pattern", r#""/api/items" or {} (every route)"#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        unroute(cx.b, self).await
    }
}

impl Act for ConsoleArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_console", "value", r#"true or {"level": "warn"}"#);
    const CORE: Option<Core> = Some(Core {
        rank: 10,
        description: Some("Console messages since the last call: level, text, at, stack."),
        props: &[("level", "debug, info, warn or error")],
    });
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        if cx.b.page.isolated() {
            return console(cx.b, self).await;
        }
        // without BiDi the engine's own capture (it runs in the page's realm)
        let v: ConsoleReply = ask(cx.b, entry::Console { clear: self.clear }).await?;
        Ok(Outcome::with(json!(v.messages)))
    }
}

#[cfg(test)]
mod tests;
