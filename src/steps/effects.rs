//! Effects (docs/reference/replies.md#effects): what an action did besides changing the tree, reported on its step
//! result so that the agent needs no second call to learn it: text announced by live
//! regions while it ran (even a toast gone before it ended), a navigation with its HTTP
//! status, tabs the page opened, files it downloaded (moved into the artifacts directory),
//! HTTP errors of the requests it caused and console errors. Dialogs are reported as the
//! step's `dialogs`.
//!
//! Owns: taking the "before" of an action and turning the page's answers into the
//! `effects` object and its summary words. Must not: act on the page.

use super::options::DocMark;
use crate::actions::ask;
use crate::browser::Browser;
use crate::engine::bidi::{DownloadEnd, DownloadWillBegin, Event, Events, LogEntry};
use crate::engine::entry;
use crate::safe::quote;
use crate::wire::{EffectsReply, HttpError};
use console::{console_errors, console_in_flight};
use serde::Serialize;
use std::path::Path;
use std::time::{Duration, Instant};

mod console;

/// How long an action's effects wait for the downloads it started to end.
const DOWNLOAD_WAIT: Duration = Duration::from_secs(10);
/// How long a navigation that left the tab on its document is given to turn into a download.
const DOWNLOAD_DECIDED: Duration = Duration::from_secs(2);
/// How long after the browser said that navigation failed (Chromium says so a few ms before
/// `downloadWillBegin` when the response is a file; a 204 answer or a network error has none).
const DOWNLOAD_AFTER_FAILED: Duration = Duration::from_millis(150);

/// What is known before an action: where the page was and which windows were open.
#[derive(Debug, Default)]
pub struct Before {
    /// The page's clock when recording started; None when the engine could not watch.
    since: Option<f64>,
    /// The document's time origin (0 when unknown).
    origin: f64,
    url: String,
    windows: Vec<String>,
    /// The BiDi events from before the action (downloads, console entries).
    events: Option<Events>,
    /// Downloads are followed (the browser saves them in the session's folder).
    downloads: bool,
    /// The watcher's last seq, when the session has routes (what they answered during the
    /// action is reported).
    routes_from: Option<u64>,
}

impl Before {
    /// The BiDi events heard since before the action (the settle looks at them; what it
    /// looked at stays for the effects).
    pub fn events(&mut self) -> Option<&mut Events> {
        self.events.as_mut()
    }

    /// Which document was shown before the action (`waitForNavigation`).
    pub fn mark(&self) -> DocMark {
        DocMark {
            origin: self.origin,
            url: self.url.clone(),
        }
    }
}

/// A navigation the action caused. Its URL is said once in a reply
/// (docs/reference/replies.md#navigation-and-new-tabs): `to` is left out of the JSON when the
/// run ended there (the run's `context.url` says it), and `from` always (the run's
/// `changes.navigated.from`, or the step before).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Navigation {
    #[serde(skip)]
    pub from: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub to: String,
    /// The new document's HTTP status (None when the browser has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
}

/// A tab the page opened during the action (now part of the session).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NewTab {
    pub alias: String,
    pub url: String,
}

/// A file the action downloaded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Download {
    /// The file name the browser was given (the server's or the link's `download`).
    pub file: String,
    /// The URL downloaded.
    pub url: String,
    /// `complete`, `canceled`, or `in progress` when it had not ended 10 s after the action.
    pub status: String,
    /// Where the file is now: in the artifacts directory (or, for a remote browser, the
    /// path on the browser's machine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<usize>,
}

/// A console error logged during the action (`console.error`, an uncaught exception or an
/// unhandled rejection).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConsoleError {
    pub text: String,
    /// Where: `URL:LINE:COLUMN`, when the browser gave a stack.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// A step's `effects`: only what happened is present.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Effects {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub announced: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub navigation: Option<Navigation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub new_tab: Vec<NewTab>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub download: Vec<Download>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub http_errors: Vec<HttpError>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub console_errors: Vec<ConsoleError>,
    /// Requests the operator's policy refused (docs/reference/policy.md): the page's,
    /// the action's navigation, a tab it opened.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocked: Vec<crate::browser::guard::Refused>,
    /// Requests a route of the session answered (docs/reference/network.md#routes):
    /// `GET http://x/api/items (route /api/items)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub routed: Vec<String>,
}

impl Effects {
    pub fn is_empty(&self) -> bool {
        *self == Effects::default()
    }

    /// Adds another step's effects to these (a run's effects, in step order; a text
    /// announced twice is said once; the last navigation stands).
    pub fn merge(&mut self, o: Effects) {
        for t in o.announced {
            if !self.announced.contains(&t) {
                self.announced.push(t);
            }
        }
        if o.navigation.is_some() {
            self.navigation = o.navigation;
        }
        self.new_tab.extend(o.new_tab);
        self.download.extend(o.download);
        self.http_errors.extend(o.http_errors);
        self.console_errors.extend(o.console_errors);
        self.blocked.extend(o.blocked);
        self.routed.extend(o.routed);
    }

    /// The words the changes summary adds for these effects (docs/reference/replies.md#effects), page text quoted.
    pub fn summary(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(b) = blocked_words(&self.blocked) {
            out.push(b);
        }
        if let Some(n) = &self.navigation {
            let status = n.status.map(|s| format!(" ({s})")).unwrap_or_default();
            out.push(format!("Navigated to {}{status}.", quote(&n.to)));
        }
        for t in &self.new_tab {
            out.push(format!("New tab {} ({}).", t.alias, quote(&t.url)));
        }
        for d in &self.download {
            let name = quote(&crate::snapshot::render::cut(&d.file, 80));
            match (d.status.as_str(), d.bytes) {
                ("complete", Some(n)) => out.push(format!("Downloaded {name} ({n} bytes).")),
                ("complete", None) => out.push(format!("Downloaded {name}.")),
                (s, _) => out.push(format!("Download {name} {s}.")),
            }
        }
        if !self.announced.is_empty() {
            let texts: Vec<String> = self
                .announced
                .iter()
                .take(3)
                .map(|t| quote(&crate::snapshot::render::cut(t, 80)))
                .collect();
            out.push(format!("Announced {}.", texts.join(", ")));
        }
        if !self.http_errors.is_empty() {
            let e: Vec<String> = self
                .http_errors
                .iter()
                .take(3)
                .map(|e| format!("{} {}", e.status, quote(&short(&e.url))))
                .collect();
            out.push(format!("HTTP errors: {}.", e.join(", ")));
        }
        if !self.routed.is_empty() {
            let r: Vec<String> = self.routed.iter().take(3).map(|r| quote(r)).collect();
            let more = match self.routed.len() {
                n if n > 3 => format!(" and {} more", n - 3),
                _ => String::new(),
            };
            out.push(format!("Routed: {}{more}.", r.join(", ")));
        }
        if !self.console_errors.is_empty() {
            out.push(format!(
                "{} console error{} ({}).",
                self.console_errors.len(),
                if self.console_errors.len() == 1 {
                    ""
                } else {
                    "s"
                },
                quote(&crate::snapshot::render::cut(
                    &self.console_errors[0].text,
                    80
                ))
            ));
        }
        out
    }
}

/// The summary's words for requests the policy refused: the first three, how many more, and
/// why the first was.
pub fn blocked_words(blocked: &[crate::browser::guard::Refused]) -> Option<String> {
    let first = blocked.first()?;
    let named: Vec<String> = blocked
        .iter()
        .take(3)
        .map(|r| {
            format!(
                "{} {}",
                r.kind,
                quote(&crate::snapshot::render::cut(&r.url, 100))
            )
        })
        .collect();
    let more = match blocked.len() {
        n if n > 3 => format!(" and {} more", n - 3),
        _ => String::new(),
    };
    Some(format!(
        "Blocked by policy: {}{more} ({}).",
        named.join(", "),
        first.why
    ))
}

/// A URL without its scheme and host when it has a path (the summary is short).
fn short(url: &str) -> String {
    match url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or(url, |i| &rest[i..]).to_string(),
        None => url.to_string(),
    }
}

fn strip_fragment(u: &str) -> &str {
    u.split('#').next().unwrap_or(u)
}

/// Before an action: starts the page's recording, notes the URL and the open windows.
pub async fn before(b: &Browser) -> Before {
    // the action's dialogs, downloads and navigations are heard from here on: the stream
    // opens once the subscription is answered (Chromium replays the console entries of the
    // page's past before that answer: they are not the action's). The subscription, the
    // download folder, the page's recording and the windows are asked together: none depends
    // on another, and all are done before the action.
    let (events, downloads, watch, windows) = tokio::join!(
        async {
            b.page.events_ready().await;
            b.page.bidi().map(|bidi| bidi.events())
        },
        async { b.page.bidi().is_some() && b.prepare_downloads().await },
        async { ask(b, entry::Watch {}).await.ok() },
        b.window_handles(),
    );
    let url = match &watch {
        Some(w) if !w.url.is_empty() => w.url.clone(),
        _ => b.url().await,
    };
    Before {
        since: watch.as_ref().map(|w| w.since),
        origin: watch.map_or(0.0, |w| w.origin),
        url,
        windows,
        events,
        downloads,
        routes_from: routes_mark(b).await,
    }
}

/// The session's watcher (an agent's: its owner's) and the current tab, when the session
/// has routes.
fn routes_watch(b: &Browser) -> Option<(String, String)> {
    if b.record.routes.is_empty() {
        return None;
    }
    let name = match &b.record.shared {
        Some(s) => s.owner.clone(),
        None => b.record.name.clone(),
    };
    let tab = b.record.current_tab()?.handle.clone();
    Some((name, tab))
}

/// The watcher's last seq before an action, when the session has routes.
async fn routes_mark(b: &Browser) -> Option<u64> {
    use crate::browser::watch::ipc::{Query, ask};
    let (name, _) = routes_watch(b)?;
    ask(&name, &Query::Hello, Duration::from_secs(5))
        .await
        .ok()
        .map(|r| r.last)
}

/// The requests a route answered since `from`, in the current tab.
async fn routed_since(b: &Browser, from: u64) -> Vec<String> {
    use crate::browser::watch::ipc::{Query, ask};
    let Some((name, tab)) = routes_watch(b) else {
        return Vec::new();
    };
    let q = Query::Network { tab, after: from };
    let Ok(r) = ask(&name, &q, Duration::from_secs(5)).await else {
        return Vec::new();
    };
    r.requests
        .iter()
        .filter_map(|q| {
            let by = q.answered_by.as_deref()?.strip_prefix("route ")?;
            let url = crate::snapshot::render::cut(&q.url, 200);
            Some(format!("{} {url} (route {by})", q.method))
        })
        .take(10)
        .collect()
}

fn same_download(b: &DownloadWillBegin, e: &DownloadEnd) -> bool {
    match (&b.navigation, &e.navigation) {
        (Some(x), Some(y)) => x == y,
        _ => b.url == e.url && b.context == e.context,
    }
}

/// The downloads that began during the action, each waited for up to [`DOWNLOAD_WAIT`]
/// (BiDi `downloadWillBegin` / `downloadEnd`), completed files moved into the artifacts
/// directory under the name the browser was given, made safe.
async fn downloads(
    events: &mut Events,
    logs: &mut Vec<LogEntry>,
    artifacts: Option<&Path>,
    b: &Browser,
    before_url: &str,
    page: &EffectsReply,
) -> Vec<Download> {
    let mut begun = Vec::new();
    let mut ended = Vec::new();
    let tab = b.page.context();
    let mut navigated = false;
    let mut failed = false;
    let take = |e: Event, begun: &mut Vec<DownloadWillBegin>, ended: &mut Vec<DownloadEnd>| match e
    {
        Event::DownloadWillBegin(d) => begun.push(d),
        Event::DownloadEnd(d) => ended.push(d),
        _ => {}
    };
    for e in events.drain() {
        let ours = e.context() == tab.as_deref();
        navigated |= ours && matches!(e, Event::NavigationStarted(_));
        failed |= ours && e.is_navigation_end();
        match e {
            Event::LogEntry(l) => logs.push(*l),
            e => take(e, &mut begun, &mut ended),
        }
    }
    // A navigation of the tab that began during the action and left it on its document may
    // still become a download: the browser says so only once the response is in, which can
    // be after a click that changed nothing in the page has settled (a link to a file). So
    // may a followed download link (`<a download>`), which starts no navigation at all.
    // A navigation that committed a new document (the page says its document is newer than
    // the action: a `goto` or `reload` of the same URL) did not become one.
    let stayed = begun.is_empty()
        && (navigated || page.download_link)
        && !page.fresh
        && strip_fragment(&b.url().await) == strip_fragment(before_url);
    let decided = |e: &Event| matches!(e, Event::DownloadWillBegin(_));
    let within = if failed {
        DOWNLOAD_AFTER_FAILED
    } else {
        DOWNLOAD_DECIDED
    };
    if stayed && let Some(e) = next_keeping_logs(events, within, decided, logs).await {
        take(e, &mut begun, &mut ended);
    }
    let until = Instant::now() + DOWNLOAD_WAIT;
    while begun
        .iter()
        .any(|b| !ended.iter().any(|e| same_download(b, e)))
    {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let want = |e: &Event| matches!(e, Event::DownloadWillBegin(_) | Event::DownloadEnd(_));
        match next_keeping_logs(events, left, want, logs).await {
            Some(e) => take(e, &mut begun, &mut ended),
            None => break,
        }
    }
    let mut out = Vec::new();
    for b in &begun {
        let end = ended.iter().find(|e| same_download(b, e));
        out.push(finish(
            b.suggested_filename.clone(),
            b.url.clone(),
            end,
            artifacts,
        ));
    }
    // ends whose beginning came before the action's recording started
    for e in ended
        .iter()
        .filter(|e| !begun.iter().any(|b| same_download(b, e)))
    {
        // finish names it after the file the browser saved
        out.push(finish(String::new(), e.url.clone(), Some(e), artifacts));
    }
    out
}

/// The first event `want` accepts within `within`, keeping the console entries met on the
/// way (the others are dropped).
async fn next_keeping_logs(
    events: &mut Events,
    within: Duration,
    want: impl Fn(&Event) -> bool,
    logs: &mut Vec<LogEntry>,
) -> Option<Event> {
    let until = tokio::time::Instant::now() + within;
    loop {
        let e = tokio::time::timeout_at(until, events.next()).await.ok()??;
        match e {
            Event::LogEntry(l) => logs.push(*l),
            e if want(&e) => return Some(e),
            _ => {}
        }
    }
}

fn finish(
    file: String,
    url: String,
    end: Option<&DownloadEnd>,
    artifacts: Option<&Path>,
) -> Download {
    let mut d = Download {
        file,
        url,
        status: end.map_or("in progress".to_string(), |e| e.status.clone()),
        path: None,
        bytes: None,
    };
    if let Some(src) = end.and_then(|e| e.filepath.as_deref()) {
        let src = Path::new(src);
        if d.file.is_empty() {
            d.file = src
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
        }
        if src.is_file() {
            match crate::spill::adopt_file(src, &d.file, artifacts) {
                Ok(a) => {
                    d.path = Some(a.path.display().to_string());
                    d.bytes = Some(a.bytes);
                }
                Err(e) => {
                    tracing::debug!(error = %e, "download not moved");
                    d.path = Some(src.display().to_string());
                }
            }
        } else {
            // a remote browser's file system
            d.path = Some(src.display().to_string());
        }
    }
    d
}

/// After an action (and its settling): what it did.
pub async fn after(b: &mut Browser, before: Before, artifacts: Option<&Path>) -> Effects {
    let mut out = Effects::default();
    // first: the page says whether a download link was followed
    let reply: EffectsReply = ask(b, entry::Effects {}).await.unwrap_or_default();
    let mut logs = Vec::new();
    let listened = before.events.is_some();
    if let Some(mut ev) = before.events {
        if before.downloads {
            out.download = downloads(&mut ev, &mut logs, artifacts, b, &before.url, &reply).await;
        }
        for e in ev.drain() {
            if let Event::LogEntry(l) = e {
                logs.push(*l);
            }
        }
        if !reply.fresh
            && let Some(since) = before.since
        {
            console_in_flight(b, &mut ev, &mut logs, since).await;
        }
        // docs/reference/policy.md#actions-off: the browser canceled it for the operator
        if !b
            .policy()
            .is_none_or(|p| p.allows(crate::policy::Switch::Downloads))
        {
            for d in out.download.iter_mut().filter(|d| d.status == "canceled") {
                d.status = "refused by policy (--deny downloads)".into();
            }
        }
    }
    let url = if reply.url.is_empty() {
        b.url().await
    } else {
        reply.url.clone()
    };
    if !before.url.is_empty() && strip_fragment(&url) != strip_fragment(&before.url) {
        out.navigation = Some(Navigation {
            from: before.url.clone(),
            to: url.clone(),
            status: (reply.status > 0).then_some(reply.status),
        });
    }
    // the announcements of a document that is gone went with it
    out.announced = reply.announced;
    out.http_errors = reply.http_errors;
    if listened {
        // the console entries the browser sent while the action ran (log.entryAdded)
        out.console_errors = console_errors(b, logs).await;
    } else if let Ok(c) = crate::engine::console_messages(&b.page, false).await {
        // no BiDi: the engine's own capture, since recording started (all of a new
        // document's)
        let since = if reply.fresh { None } else { before.since };
        out.console_errors = c
            .messages
            .into_iter()
            .filter(|m| m.level == "error")
            .filter(|m| since.is_none_or(|s| m.at.as_f64().unwrap_or(0.0) >= s))
            .take(5)
            .map(|m| ConsoleError {
                text: crate::snapshot::render::cut(&m.text, 300),
                at: None,
            })
            .collect();
    }
    if !before.windows.is_empty() {
        for h in b.window_handles().await {
            if before.windows.contains(&h) {
                continue;
            }
            // a tab opened for a link shows its initial about:blank until its navigation
            // starts (Firefox reports it then): give it a moment to name its URL
            let mut url = b.url_of_window(&h).await;
            for _ in 0..15 {
                if url != "about:blank" {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                url = b.url_of_window(&h).await;
            }
            if let Ok(alias) = b.adopt_tab(&h).await {
                out.new_tab.push(NewTab { alias, url });
            }
        }
    }
    if let Some(from) = before.routes_from {
        out.routed = routed_since(b, from).await;
    }
    // last: a new tab's first page, refused, is known once its tab is (above)
    out.blocked = b.policy_refusals();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_words_name_each_effect() {
        let e = Effects {
            announced: vec!["Coupon SAVE10 applied".into()],
            navigation: Some(Navigation {
                from: "http://a.test/".into(),
                to: "http://a.test/done".into(),
                status: Some(404),
            }),
            new_tab: vec![NewTab {
                alias: "t2".into(),
                url: "http://a.test/help".into(),
            }],
            download: vec![Download {
                file: "report \"q3\".csv".into(),
                url: "http://a.test/r.csv".into(),
                status: "complete".into(),
                path: Some("/tmp/x/report.csv".into()),
                bytes: Some(42),
            }],
            http_errors: vec![HttpError {
                url: "http://a.test/api/cart?x=1".into(),
                status: 500,
                kind: "fetch".into(),
            }],
            console_errors: vec![ConsoleError {
                text: "boom".into(),
                at: None,
            }],
            blocked: vec![],
            routed: vec![],
        };
        assert_eq!(
            e.summary().join(" "),
            "Navigated to \"http://a.test/done\" (404). New tab t2 (\"http://a.test/help\"). \
             Downloaded \"report \\\"q3\\\".csv\" (42 bytes). Announced \"Coupon SAVE10 applied\". HTTP errors: 500 \"/api/cart?x=1\". \
             1 console error (\"boom\")."
        );
        assert!(Effects::default().is_empty());
        assert!(Effects::default().summary().is_empty());
        let j = serde_json::to_value(&e).unwrap();
        assert_eq!(j["newTab"][0]["alias"], "t2");
        assert_eq!(j["download"][0]["path"], "/tmp/x/report.csv");
        assert_eq!(j["httpErrors"][0]["status"], 500);
        assert_eq!(j["consoleErrors"][0]["text"], "boom");
    }

    #[test]
    fn refused_requests_come_first_and_are_counted() {
        use crate::browser::guard::Refused;
        let r = |kind: &str, url: &str| Refused {
            kind: kind.into(),
            url: url.into(),
            why: "http://x.test is not an allowed origin (--allow-origin http://a.test)".into(),
        };
        let e = Effects {
            blocked: vec![
                r("fetch", "http://x.test/api"),
                r("image", "http://x.test/i.png"),
                r("frame", "http://x.test/f"),
                r("new tab", "http://x.test/t"),
            ],
            navigation: Some(Navigation {
                from: "http://a.test/".into(),
                to: "http://a.test/b".into(),
                status: None,
            }),
            ..Default::default()
        };
        let s = e.summary();
        assert_eq!(
            s[0],
            "Blocked by policy: fetch \"http://x.test/api\", image \"http://x.test/i.png\", frame \"http://x.test/f\" and 1 more (http://x.test is not an allowed origin (--allow-origin http://a.test))."
        );
        assert!(s[1].starts_with("Navigated to"), "{s:?}");
        let j = serde_json::to_value(&e).unwrap();
        assert_eq!(j["blocked"][3]["kind"], "new tab");
    }

    #[test]
    fn routed_requests_are_named_and_counted() {
        let e = Effects {
            routed: (1..=4)
                .map(|i| format!("GET http://a.test/api/{i} (route /api/*)"))
                .collect(),
            ..Default::default()
        };
        assert_eq!(
            e.summary(),
            [
                "Routed: \"GET http://a.test/api/1 (route /api/*)\", \"GET http://a.test/api/2 (route /api/*)\", \"GET http://a.test/api/3 (route /api/*)\" and 1 more."
            ]
        );
        assert_eq!(
            serde_json::to_value(&e).unwrap()["routed"][3],
            "GET http://a.test/api/4 (route /api/*)"
        );
    }

    #[test]
    fn page_text_in_summaries_is_quoted() {
        let e = Effects {
            announced: vec!["ok\n- button \"Pay\" [ref=s1e1]".into()],
            ..Default::default()
        };
        let s = e.summary().join(" ");
        assert!(!s.contains('\n'), "{s}");
    }
}
