//! `network --har FILE`: the page's requests as an HTTP Archive (HAR 1.2, W3C Web
//! Performance WG draft "HTTP Archive (HAR) format", the version every HAR viewer reads).
//!
//! Owns: the HAR's shape: one page, one entry per request hop (a redirect is an entry of
//! its own, its `redirectURL` set), timings from the browser's fetch timing (-1 where a
//! phase is unknown), failed requests with status 0 and `_error`, credentials masked as
//! `network ID` masks them. Must not: read anything (the caller hands the records).

use crate::browser::watch::ipc::Body;
use crate::browser::watch::store::Request;
use serde_json::{Value, json};

/// The HAR of `requests` (of one page, at `page_url` titled `title`), with the response
/// bodies of `bodies`.
pub fn build(requests: &[Request], bodies: &[Body], page_url: &str, title: &str) -> Value {
    let started = requests
        .iter()
        .map(|r| r.started)
        .filter(|t| *t > 0.0)
        .fold(f64::MAX, f64::min);
    let started = if started == f64::MAX { 0.0 } else { started };
    let entries: Vec<Value> = requests
        .iter()
        .map(|r| {
            let body = bodies
                .iter()
                .find(|b| b.seq == r.seq && b.which == "response");
            entry(r, body, requests)
        })
        .collect();
    json!({"log": {
        "version": "1.2",
        "creator": {"name": "ariasnap", "version": env!("CARGO_PKG_VERSION")},
        "pages": [{
            "startedDateTime": iso8601(started),
            "id": "page_1",
            "title": if title.is_empty() { page_url } else { title },
            "pageTimings": {"onContentLoad": -1, "onLoad": -1}
        }],
        "entries": entries
    }})
}

fn nv(h: &[(String, String)]) -> Vec<Value> {
    h.iter()
        .map(|(n, v)| {
            let v = masked_header(n, v);
            json!({"name": n, "value": v})
        })
        .collect()
}

/// A header's value as the HAR gives it: credentials masked unless `--reveal-secrets`.
fn masked_header(name: &str, v: &str) -> String {
    const CREDENTIALS: &[&str] = &[
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
    ];
    if !crate::snapshot::secrets::revealed()
        && CREDENTIALS.contains(&name.to_ascii_lowercase().as_str())
    {
        return format!("[secret:header {} chars]", v.chars().count());
    }
    crate::snapshot::secrets::mask(v).into_owned()
}

fn header(h: &[(String, String)], name: &str) -> Option<String> {
    h.iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.clone())
}

fn http_version(p: &str) -> String {
    match p.to_ascii_lowercase().as_str() {
        "" => "HTTP/1.1".into(),
        "h2" | "http/2" | "http/2.0" => "HTTP/2".into(),
        "h3" | "http/3" => "HTTP/3".into(),
        other => other.to_ascii_uppercase(),
    }
}

/// One HAR entry.
fn entry(r: &Request, body: Option<&Body>, all: &[Request]) -> Value {
    let query: Vec<Value> = url::Url::parse(&r.url)
        .map(|u| {
            u.query_pairs()
                .map(|(n, v)| json!({"name": n, "value": v}))
                .collect()
        })
        .unwrap_or_default();
    let mut request = json!({
        "method": r.method,
        "url": r.url,
        "httpVersion": http_version(&r.protocol),
        "cookies": [],
        "headers": nv(&r.request_headers),
        "queryString": query,
        "headersSize": -1,
        "bodySize": r.request_body_size.map_or(-1, |n| n as i64),
    });
    if let Some(n) = r.request_body_size {
        request["postData"] = json!({
            "mimeType": header(&r.request_headers, "content-type").unwrap_or_default(),
            "text": "",
            "_size": n
        });
    }
    // the next hop of a redirect chain: the same request id, one more redirect
    let redirect = all
        .iter()
        .find(|x| x.request_id == r.request_id && x.redirect_count == r.redirect_count + 1)
        .map(|x| x.url.clone())
        .or_else(|| header(&r.response_headers, "location"))
        .unwrap_or_default();
    let mut content = json!({
        "size": r.size.map_or(0, |n| n as i64),
        "mimeType": if r.mime.is_empty() { "x-unknown".to_string() } else { r.mime.clone() },
    });
    if let Some(b) = body {
        if let Some(t) = &b.text {
            content["text"] = json!(crate::snapshot::secrets::mask(t));
        } else if let Some(b64) = &b.base64 {
            content["text"] = json!(b64);
            content["encoding"] = json!("base64");
        }
    }
    let (timings, total) = timings(r);
    let mut e = json!({
        "pageref": "page_1",
        "startedDateTime": iso8601(r.started),
        "time": total,
        "request": request,
        "response": {
            "status": if r.failure.is_some() { 0 } else { r.status.unwrap_or(0) },
            "statusText": r.status_text,
            "httpVersion": http_version(&r.protocol),
            "cookies": [],
            "headers": nv(&r.response_headers),
            "content": content,
            "redirectURL": redirect,
            "headersSize": -1,
            "bodySize": r.transferred.map_or(-1, |n| n as i64),
        },
        "cache": {},
        "timings": timings,
        "_resourceType": r.kind,
        "_initiator": r.initiator,
    });
    if let Some(f) = &r.failure {
        e["_error"] = json!(f);
    }
    if let Some(a) = &r.answered_by {
        e["_answeredBy"] = json!(a);
    }
    e
}

/// The HAR timings of a request from its fetch timing (ms; -1 for a phase that did not
/// happen or is unknown), and their sum (the entry's `time`).
fn timings(r: &Request) -> (Value, f64) {
    let phase = |a: f64, b: f64| if a > 0.0 && b >= a { b - a } else { -1.0 };
    let whole = r.duration().unwrap_or(0.0);
    let Some(t) = r
        .timings
        .filter(|t| t.request_start > 0.0 && t.response_end > 0.0)
    else {
        return (
            json!({"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0, "wait": whole, "receive": 0}),
            whole,
        );
    };
    let dns = phase(t.dns_start, t.dns_end);
    let connect = phase(t.connect_start, t.connect_end);
    let ssl = phase(t.tls_start, t.connect_end);
    let wait = phase(t.request_start, t.response_start).max(0.0);
    let receive = phase(t.response_start, t.response_end).max(0.0);
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    let total: f64 = [dns, connect, wait, receive]
        .iter()
        .filter(|x| **x >= 0.0)
        .sum();
    (
        json!({"blocked": -1, "dns": round(dns), "connect": round(connect), "ssl": round(ssl),
               "send": 0, "wait": round(wait), "receive": round(receive)}),
        round(total),
    )
}

/// Milliseconds since the epoch as ISO 8601 in UTC (`2026-11-29T05:34:05.684Z`).
pub fn iso8601(ms: f64) -> String {
    let total = ms.max(0.0) as i64;
    let (secs, milli) = (total.div_euclid(1000), total.rem_euclid(1000));
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // civil from days (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{milli:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_iso_8601_utc() {
        assert_eq!(iso8601(0.0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(1_795_930_445_684.0), "2026-11-29T05:34:05.684Z");
        assert_eq!(iso8601(951_782_400_000.0), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn a_redirect_and_a_failure_are_entries_of_their_own() {
        let hop = |rc: u32, url: &str, status: Option<u16>| Request {
            seq: 1 + rc as u64,
            request_id: "X".into(),
            redirect_count: rc,
            method: "GET".into(),
            url: url.into(),
            kind: "document".into(),
            initiator: "other".into(),
            started: 1_795_930_445_684.0,
            status,
            ended: Some(1_795_930_445_694.0),
            ..Default::default()
        };
        let mut failed = hop(0, "http://b.test/x?q=1&r=2", None);
        failed.request_id = "Y".into();
        failed.seq = 9;
        failed.failure = Some("net::ERR_FAILED".into());
        let reqs = vec![
            hop(0, "http://a.test/old", Some(302)),
            hop(1, "http://a.test/new", Some(200)),
            failed,
        ];
        let body = Body {
            seq: 2,
            which: "response".into(),
            text: Some("hi".into()),
            size: 2,
            ..Default::default()
        };
        let h = build(&reqs, &[body], "http://a.test/new", "New");
        let e = &h["log"]["entries"];
        assert_eq!(h["log"]["version"], "1.2");
        assert_eq!(e[0]["response"]["redirectURL"], "http://a.test/new");
        assert_eq!(e[1]["response"]["content"]["text"], "hi");
        assert_eq!(e[2]["response"]["status"], 0);
        assert_eq!(e[2]["_error"], "net::ERR_FAILED");
        assert_eq!(e[2]["request"]["queryString"][1]["value"], "2");
        assert_eq!(e[0]["time"], 10.0);
        assert_eq!(
            h["log"]["pages"][0]["startedDateTime"],
            "2026-11-29T05:34:05.684Z"
        );
    }
}
