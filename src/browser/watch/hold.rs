//! Holding the browser's requests while the session needs it (its policy confines origins,
//! or a route exists), and answering each one: the operator's policy first (a refused
//! request is refused, whatever a route says: a route never reaches around the policy), then
//! the newest route that meets it, else on to the network.
//!
//! Two channels: on a Chromium ariasnap started, the browser's own DevTools socket
//! (engine/hold.rs says why: chromedriver answers a request held over BiDi only after the
//! classic command that waits on it, measured for routes too: a `goto` whose document was
//! held timed out); elsewhere (Firefox, a remote endpoint), WebDriver BiDi's
//! `network.addIntercept`, answered with `continueRequest`, `failRequest` or
//! `provideResponse`.
//!
//! Owns: when requests are held and the answer to each. Must not: judge the policy itself
//! (guard.rs) or match routes itself (routes.rs).

use super::super::guard::{self, Judge};
use super::super::launch::BrowserKind;
use super::super::routes::{self, Answer};
use super::super::session::SessionRecord;
use super::{WatchState, Watcher, lock};
use crate::engine::bidi::{
    AddIntercept, BeforeRequestSent, Bidi, BytesValue, ContextInfo, ContinueRequest, FailRequest,
    GetTree, Header, ProvideResponse, RemoveIntercept,
};
use crate::engine::{Held, Judged, Verdict};
use crate::error::{Error, Result};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tracing::debug;

/// How a held request is answered, and who answered it (for its record).
struct Decision {
    verdict: Verdict,
    delay: Duration,
    by: Option<String>,
}

/// The policy, then the routes.
fn decide(
    judge: Option<&Judge>,
    w: &Watcher,
    url: &str,
    kind: &str,
    opener: Option<&str>,
    uc: Option<&str>,
) -> Decision {
    if let Some(j) = judge
        && j.judge(url, kind, opener).is_some()
    {
        return Decision {
            verdict: Verdict::Refuse,
            delay: Duration::ZERO,
            by: Some("policy".into()),
        };
    }
    let all = w.routes();
    let Some(r) = routes::route_for(&all, url, uc) else {
        return Decision {
            verdict: Verdict::Continue,
            delay: Duration::ZERO,
            by: None,
        };
    };
    let verdict = match r.answer() {
        Answer::Continue => Verdict::Continue,
        Answer::Fail => Verdict::Fail,
        Answer::Respond(s, h, b) => Verdict::Fulfill(s, h, b),
    };
    Decision {
        verdict,
        delay: Duration::from_millis(r.delay_ms),
        by: Some(format!("route {}", r.pattern)),
    }
}

/// The holder of one watcher.
pub struct Holder {
    name: String,
    w: Arc<Watcher>,
    judge: Option<Arc<Judge>>,
    /// The Chromium's DevTools address, when requests are held there.
    devtools: Option<String>,
    /// The DevTools holding task, while it runs.
    task: Option<tokio::task::JoinHandle<()>>,
    /// The BiDi intercept, while it holds.
    intercept: Option<String>,
    /// Tabs the page opened, with the origin of the tab that opened them (BiDi).
    popups: HashMap<String, String>,
}

impl Holder {
    pub fn new(rec: &SessionRecord, w: Arc<Watcher>) -> Result<Holder> {
        let judge = match &rec.policy {
            Some(p) if guard::needed(p) => Some(Arc::new(Judge::of(&rec.name, p.clone())?)),
            _ => None,
        };
        let devtools = match (&rec.debugger, rec.browser) {
            (Some(addr), BrowserKind::Chromium) => Some(addr.clone()),
            _ => None,
        };
        Ok(Holder {
            name: rec.name.clone(),
            w,
            judge,
            devtools,
            task: None,
            intercept: None,
            popups: HashMap::new(),
        })
    }

    fn needed(&self) -> bool {
        self.judge.is_some() || !self.w.routes().is_empty()
    }

    fn holding(&self) -> bool {
        self.task.as_ref().is_some_and(|t| !t.is_finished()) || self.intercept.is_some()
    }

    /// Holds requests when the session needs it, lets them go when it no longer does;
    /// returns once that is in force.
    pub async fn ensure(&mut self, state: &mut WatchState) -> Result<()> {
        match (self.needed(), self.holding()) {
            (true, false) => self.start().await?,
            (false, true) => self.stop().await,
            _ => {}
        }
        state.intercept = self.intercept.clone();
        Ok(())
    }

    async fn start(&mut self) -> Result<()> {
        match self.devtools.clone() {
            Some(addr) => self.start_devtools(&addr).await,
            None => {
                let own = self
                    .w
                    .bidi
                    .send(&AddIntercept::before_request(None))
                    .await?
                    .intercept;
                self.intercept = Some(own);
                Ok(())
            }
        }
    }

    async fn stop(&mut self) {
        if let Some(t) = self.task.take() {
            // the socket closes: Chromium lets go of what the holder held
            t.abort();
        }
        if let Some(intercept) = self.intercept.take() {
            let _ = self.w.bidi.send(&RemoveIntercept { intercept }).await;
        }
    }

    /// Holds every request through the browser's DevTools socket (engine/hold.rs).
    async fn start_devtools(&mut self, addr: &str) -> Result<()> {
        let ws = super::super::devtools::browser_socket(addr).await?;
        let (ready_tx, ready) = tokio::sync::oneshot::channel();
        let (w, judge) = (self.w.clone(), self.judge.clone());
        let task = tokio::spawn(async move {
            let said = move || {
                let _ = ready_tx.send(());
            };
            let r = crate::engine::hold_requests(&ws, said, move |h: &Held| -> Judged {
                let opener = h
                    .opener_url
                    .as_deref()
                    .filter(|_| h.top_navigation)
                    .map(guard::origin_of);
                let kind = guard::devtools_kind(h);
                let uc = h.browser_context.as_deref();
                let d = decide(judge.as_deref(), &w, &h.url, kind, opener.as_deref(), uc);
                if let Some(by) = &d.by {
                    lock(&w.store).answered(&h.network_id, by);
                }
                (d.verdict, d.delay)
            })
            .await;
            if let Err(e) = r {
                eprintln!("requests are no longer held: {e}");
            }
        });
        match tokio::time::timeout(Duration::from_secs(10), ready).await {
            Ok(Ok(())) => {
                self.task = Some(task);
                Ok(())
            }
            _ => {
                task.abort();
                Err(Error::Browser(format!(
                    "session {:?}: the browser's DevTools socket did not hold its requests",
                    self.name
                )))
            }
        }
    }

    /// A new top-level context opened by a page: its opener's origin, for the policy's
    /// foreign tabs (BiDi).
    pub async fn created(&mut self, c: &ContextInfo) {
        if self.intercept.is_none() {
            return;
        }
        let Some(opener) = c.original_opener.as_ref().filter(|_| c.parent.is_none()) else {
            return;
        };
        let tree = self
            .w
            .bidi
            .send(&GetTree {
                max_depth: Some(0),
                root: Some(opener.clone()),
            })
            .await;
        let origin = tree
            .ok()
            .and_then(|t| t.contexts.first().map(|c| guard::origin_of(&c.url)))
            .unwrap_or_default();
        self.popups.insert(c.context.clone(), origin);
    }

    /// A request held by the BiDi intercept: answered by the policy, then the routes.
    pub async fn answer_bidi(&mut self, r: &BeforeRequestSent) {
        let Some(own) = &self.intercept else { return };
        if !r.intercepts.contains(own) {
            return;
        }
        // held by another client's intercept too (ariasnap's own restore of saved logins,
        // limited to a tab of its own): that client answers it, without the network
        if r.intercepts.iter().any(|i| i != own) {
            return;
        }
        let url = &r.request.url;
        let opener = r
            .context
            .as_ref()
            .and_then(|c| self.popups.get(c))
            .filter(|_| r.navigation.is_some())
            .cloned();
        let kind = guard::kind_of(r, opener.is_some());
        let uc = r
            .context
            .as_deref()
            .and_then(|c| lock(&self.w.store).user_context_of(c).map(str::to_string));
        let d = decide(
            self.judge.as_deref(),
            &self.w,
            url,
            &kind,
            opener.as_deref(),
            uc.as_deref(),
        );
        let request = r.request.request.clone();
        if let Some(by) = &d.by {
            lock(&self.w.store).answered(&request, by);
        }
        let bidi = self.w.bidi.clone();
        let url = url.clone();
        // answered on a task of its own: a delay holds this request only
        tokio::spawn(async move {
            tokio::time::sleep(d.delay).await;
            if let Err(e) = answer_held(&bidi, request, d.verdict).await {
                // a request that ended meanwhile (its tab closed) cannot be answered
                debug!(error = %e, url, "request not answered");
            }
        });
    }
}

/// Sends the BiDi answer to a held request.
async fn answer_held(bidi: &Bidi, request: String, verdict: Verdict) -> Result<()> {
    match verdict {
        Verdict::Continue => bidi.send(&ContinueRequest { request }).await.map(|_| ()),
        Verdict::Refuse | Verdict::Fail => bidi.send(&FailRequest { request }).await.map(|_| ()),
        Verdict::Fulfill(status, headers, body) => {
            use base64::Engine;
            let p = ProvideResponse {
                request,
                status_code: Some(status),
                reason_phrase: Some(reason(status).into()),
                headers: headers
                    .iter()
                    .map(|(n, v)| Header {
                        name: n.clone(),
                        value: BytesValue::text(v),
                    })
                    .collect(),
                body: Some(BytesValue::Base64 {
                    value: base64::engine::general_purpose::STANDARD.encode(body),
                }),
            };
            bidi.send(&p).await.map(|_| ())
        }
    }
}

/// The reason phrase of a status (RFC 9110's), "" for others.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        409 => "Conflict",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}
