//! The policy guard (docs/reference/policy.md#how-requests-are-held): how the session's
//! watcher process (browser/watch) judges the requests it holds when the session's policy
//! confines origins. Every request of the browser is held before it is sent (DevTools'
//! Fetch domain on a Chromium ariasnap started, engine/hold.rs; WebDriver BiDi
//! `network.addIntercept` elsewhere) and answered: on to the network when the policy allows
//! its URL, failed (nothing leaves the browser) when it does not, with a line in the
//! session's log of refusals that the next reply reports. Navigation, a page's fetch, an
//! image, a form post, a frame and a new tab all go through it, whoever started them (the
//! agent, the page, a redirect, a route's answer).
//!
//! Owns: the policy's judgement of a held request, its words (`kind_of`) and its log. Must
//! not: decide what a policy allows (policy.rs does) or hold requests itself (the watcher
//! does).

use super::session;
use crate::error::Result;
use crate::policy::{Policy, Switch};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::PathBuf;

/// One request the guard refused, as its log keeps it (one JSON object per line).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Refused {
    /// What it was: `navigation`, `frame`, `new tab`, `form post`, `fetch`, `image`...
    pub kind: String,
    /// Its URL.
    pub url: String,
    /// Why (the policy's words).
    pub why: String,
}

impl Refused {
    /// One line for a reply: `fetch http://x/y: http://x is not an allowed origin (...)`.
    pub fn line(&self) -> String {
        let url: String = if self.url.chars().count() > 120 {
            self.url.chars().take(119).chain(['…']).collect()
        } else {
            self.url.clone()
        };
        format!("{} {}: {}", self.kind, crate::safe::quote(&url), self.why)
    }
}

/// Whether a policy needs the guard process (browser/guard.rs): origins confined, downloads
/// or foreign tabs off.
pub fn needed(p: &crate::policy::Policy) -> bool {
    use crate::policy::Switch;
    p.confines_origins() || !p.allows(Switch::Downloads) || !p.allows(Switch::ForeignTabs)
}

/// The log of refused requests of session `name`.
pub fn log_path(name: &str) -> Result<PathBuf> {
    Ok(session::sessions_dir()?.join(format!("{name}.policy.jsonl")))
}

/// The refusals logged after byte `from` of the session's log, and the log's length.
pub fn refusals_since(name: &str, from: u64) -> (Vec<Refused>, u64) {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(p) = log_path(name) else {
        return (Vec::new(), from);
    };
    let Ok(mut f) = std::fs::File::open(&p) else {
        return (Vec::new(), from);
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    // a log shorter than what was reported was started afresh
    let from = if from > len { 0 } else { from };
    if f.seek(SeekFrom::Start(from)).is_err() {
        return (Vec::new(), from);
    }
    let mut text = String::new();
    let _ = f.read_to_string(&mut text);
    // a line being written (no newline yet) waits for the next reader
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    let out = text[..whole]
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    (out, from + whole as u64)
}

/// What a request held over DevTools is, in a reply's words.
pub fn devtools_kind(h: &crate::engine::Held) -> &'static str {
    if h.top_navigation && h.opener_url.is_some() {
        "new tab"
    } else if h.top_navigation && h.method.eq_ignore_ascii_case("POST") {
        "form post"
    } else if h.top_navigation {
        "navigation"
    } else if h.subframe {
        "frame"
    } else {
        match h.resource_type.as_str() {
            "Image" => "image",
            "Fetch" => "fetch",
            "XHR" => "fetch",
            "Script" => "script",
            "Stylesheet" => "stylesheet",
            "Font" => "font",
            "Ping" => "beacon",
            "WebSocket" => "websocket",
            "EventSource" => "event stream",
            "Media" => "media",
            _ => "request",
        }
    }
}

/// The policy and the log of its refusals.
pub struct Judge {
    pub policy: Policy,
    pub log: PathBuf,
}

impl Judge {
    /// The judge of session `name`'s policy.
    pub fn of(name: &str, policy: Policy) -> Result<Judge> {
        // the URLs it logs may carry a secret the page sent (docs/reference/policy.md#secrets):
        // masked, as everything ariasnap writes (the watcher has the environment of the
        // command that started it, which read the values already)
        policy.unlock_secrets()?;
        Ok(Judge {
            policy,
            log: log_path(name)?,
        })
    }

    /// Why a request (of this kind; a new tab's first page: with its opener's origin) is
    /// refused, logged; None when it goes on.
    pub fn judge(&self, url: &str, kind: &str, opener: Option<&str>) -> Option<String> {
        let mut why = self.policy.refusal(url);
        if why.is_none()
            && !self.policy.allows(Switch::ForeignTabs)
            && let Some(opener) = opener
            && !url.starts_with("about:")
            && origin_of(url) != opener
        {
            why = Some(format!(
                "a new tab on another origin than {opener} (--deny foreignTabs)"
            ));
        }
        if let Some(why) = &why {
            self.record(&Refused {
                kind: kind.to_string(),
                url: url.to_string(),
                why: why.clone(),
            });
        }
        why
    }

    fn record(&self, r: &Refused) {
        if let Ok(line) = serde_json::to_string(r)
            && let Ok(mut f) = crate::private::append_file(&self.log)
        {
            let line = crate::vault::mask(&line);
            let _ = f.write_all(format!("{line}\n").as_bytes());
        }
    }
}

/// What a request is, in a reply's words.
pub fn kind_of(r: &crate::engine::bidi::BeforeRequestSent, popup: bool) -> String {
    let dest = r.request.destination.as_deref().unwrap_or("");
    let nav = r.navigation.is_some() || dest == "document" || dest == "iframe";
    let post = r.request.method.eq_ignore_ascii_case("POST");
    let k = match dest {
        "iframe" | "frame" => "frame",
        "document" if popup => "new tab",
        _ if nav && popup => "new tab",
        _ if nav && post => "form post",
        "document" => "navigation",
        _ if nav => "navigation",
        "image" => "image",
        "script" => "script",
        "style" => "stylesheet",
        "font" => "font",
        "" => match r.request.initiator_type.as_deref() {
            Some("fetch") => "fetch",
            Some("xmlhttprequest") => "fetch",
            Some("beacon") => "beacon",
            Some("img" | "image") => "image",
            Some("script") => "script",
            _ => "request",
        },
        other => return other.to_string(),
    };
    k.to_string()
}

/// The origin of a URL as `scheme://host[:port]` ("" when it has none).
pub fn origin_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => u.origin().ascii_serialization(),
        Err(_) => String::new(),
    }
}
