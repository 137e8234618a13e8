//! The page side of saved logins (browser/logins.rs): a document's localStorage and
//! sessionStorage read, and an origin's storage written back, through WebDriver BiDi.
//!
//! localStorage needs a document of its origin, and loading one must not reach the site:
//! as Playwright does, a temporary background tab is opened (`browsingContext.create`), an
//! intercept of our own limited to that tab holds its requests (`network.addIntercept` with
//! `contexts`), and each held request is answered by us (`network.provideResponse`: the
//! origin's root with a 200 text/html document empty but for a `data:` icon, so that
//! Chromium asks the site for no favicon; anything else an empty 404), never continued to
//! the network. The tab is closed, then the intercept and the subscription removed, on
//! every path. sessionStorage belongs to a tab: it is restored into the current tab, by a
//! preload script of that tab (its next documents) and the same script in its open ones.
//!
//! Owns: those scripts (run in the `ariasnap` sandbox, out of the page's reach), the
//! temporary tab's life. Must not: decide what is saved or restored, read or write files,
//! or print a value (browser/logins.rs does the first two; nothing does the last).

use super::bidi::{
    AddIntercept, AddPreloadScript, Bidi, BytesValue, CallFunction, CloseContext, CreateContext,
    Event, Events, GetTree, Header, LocalValue, Navigate, ProvideResponse, Readiness,
    RemoveIntercept, Subscribe, Target, Unsubscribe,
};
use super::page::{Page, SANDBOX};
use crate::error::{Error, Result};
use serde::Deserialize;
use std::time::Duration;
use tracing::debug;

/// The key a restored tab's sessionStorage keeps, so that the restore happens once per
/// origin (a key the page removes later stays removed); never saved.
const RESTORED_MARK: &str = "__ariasnap_restored__";

/// A storage item: name and value.
pub type Pair = (String, String);

/// What one document's storage holds.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DocStorage {
    /// `location.origin` of the document (`null` for an opaque one).
    pub origin: String,
    /// Its localStorage.
    #[serde(default)]
    pub local: Vec<Pair>,
    /// Its sessionStorage, when asked for.
    #[serde(default)]
    pub session: Vec<Pair>,
}

/// Reads a document's origin and storage. Storage a document may not use (an opaque
/// origin, storage turned off) reads as empty.
const READ_STORAGE: &str = r#"(withSession, mark) => {
  const read = (s) => {
    const out = [];
    for (let i = 0; i < s.length; i++) {
      const k = s.key(i);
      if (k !== null && k !== mark) out.push([k, s.getItem(k)]);
    }
    return out;
  };
  const r = { origin: String(location.origin), local: [], session: [] };
  try { r.local = read(window.localStorage); } catch (e) {}
  if (withSession) { try { r.session = read(window.sessionStorage); } catch (e) {} }
  return JSON.stringify(r);
}"#;

/// The document the temporary tab gets for an origin's root: empty but for an icon of its
/// own, because Chromium fetches `/favicon.ico` of a page without one from the browser
/// process, where no intercept of the tab holds it: that request would reach the site.
const BLANK_DOCUMENT: &str = "<!doctype html><link rel=icon href=\"data:,\">";

/// Sets localStorage items (a JSON list of [name, value]); returns the document's origin.
const WRITE_LOCAL: &str = r#"(json) => {
  const items = JSON.parse(json);
  for (const [k, v] of items) window.localStorage.setItem(k, v);
  return String(location.origin);
}"#;

/// The session's BiDi connection, which saved logins need (`what`: the step, for the
/// error without one).
pub fn storage_channel<'a>(page: &'a Page, what: &str) -> Result<&'a Bidi> {
    page.bidi().ok_or_else(|| {
        Error::Step(format!(
            "{what} needs WebDriver BiDi, which this session does not have (docs/reference/browsers.md#without-bidi): start the session on a driver that offers it (chromedriver, geckodriver), without ARIASNAP_BIDI=0"
        ))
    })
}

/// How long reading one document's storage may take.
const READ_LIMIT: Duration = Duration::from_secs(5);

/// The storage of the document of `context` (a tab or a frame), read in the sandbox
/// within a few seconds.
pub async fn document_storage(bidi: &Bidi, context: &str, session: bool) -> Result<DocStorage> {
    let call = CallFunction::new(
        READ_STORAGE,
        Target::sandbox(context, SANDBOX),
        vec![
            LocalValue::Boolean(session),
            LocalValue::String(RESTORED_MARK.into()),
        ],
    );
    // a page that stopped answering holds the call: it is left out after a few seconds
    let v = bidi.send_within(&call, READ_LIMIT).await?.into_value()?;
    let text = v
        .as_str()
        .ok_or_else(|| Error::Engine("the storage script returned no text".into()))?;
    serde_json::from_str(text).map_err(|source| Error::Json {
        what: "a document's storage",
        source,
    })
}

/// The preload (and immediate) sessionStorage restore: a document of an origin in `map`
/// (origin to a list of [name, value]) gets the items it lacks, once per origin in the tab.
fn session_restore_script(map: &serde_json::Value) -> String {
    format!(
        r#"() => {{
  const data = {map};
  const mark = {mark};
  let items;
  try {{ items = Object.prototype.hasOwnProperty.call(data, location.origin) ? data[location.origin] : null; }} catch (e) {{ return; }}
  if (!items) return;
  try {{
    const s = window.sessionStorage;
    if (s.getItem(mark) !== null) return;
    for (const [k, v] of items) if (s.getItem(k) === null) s.setItem(k, v);
    s.setItem(mark, "1");
  }} catch (e) {{}}
}}"#,
        mark = serde_json::Value::from(RESTORED_MARK)
    )
}

/// sessionStorage into tab `tab` (its BiDi context): `map` gives each origin's items. A
/// preload script of the tab sets them in the documents it loads next, and the same script
/// runs now in its open http(s) documents.
pub async fn restore_session_storage(
    bidi: &Bidi,
    tab: &str,
    map: &serde_json::Value,
) -> Result<()> {
    let script = session_restore_script(map);
    let preload = AddPreloadScript {
        function_declaration: script.clone(),
        contexts: Some(vec![tab.to_string()]),
        sandbox: Some(SANDBOX.to_string()),
        user_contexts: None,
    };
    bidi.send(&preload).await?;
    let tree = bidi
        .send(&GetTree {
            max_depth: None,
            root: Some(tab.to_string()),
        })
        .await?;
    for ctx in tree.flatten() {
        if !(ctx.url.starts_with("http://") || ctx.url.starts_with("https://")) {
            continue;
        }
        let call = CallFunction::new(&script, Target::sandbox(&ctx.context, SANDBOX), vec![]);
        if let Err(e) = bidi.send(&call).await.and_then(|r| r.into_value()) {
            debug!(context = ctx.context, error = %e, "sessionStorage not set now");
        }
    }
    Ok(())
}

/// What the temporary tab holds until it is closed: the intercept and the subscription to
/// remove after it.
#[derive(Default)]
struct TabSetup {
    intercept: Option<String>,
    subscription: Option<String>,
}

/// Fills each origin's localStorage (`origins`: an http(s) origin such as
/// `https://a.test` and its items) in a temporary background tab, within `limit`. The tab
/// is closed, then its intercept and subscription removed, whatever happened (the tab
/// first: a request still held then goes nowhere).
pub async fn fill_local_storage(
    bidi: &Bidi,
    origins: &[(String, Vec<Pair>)],
    limit: Duration,
    uc: Option<&str>,
) -> Result<()> {
    let tab = bidi
        .send(&CreateContext::background_tab().within(uc))
        .await?
        .context;
    let mut held = TabSetup::default();
    // the rest of the deadline, less what closing the tab may take
    let work = limit
        .saturating_sub(Duration::from_secs(2))
        .max(Duration::from_secs(1));
    let filled = tokio::time::timeout(work, fill_origins(bidi, &tab, origins, &mut held))
        .await
        .unwrap_or_else(|_| {
            Err(Error::Timeout(format!(
                "restoring localStorage took over {} ms",
                work.as_millis()
            )))
        });
    let quick = Duration::from_secs(5);
    if let Err(e) = bidi
        .send_within(&CloseContext { context: tab }, quick)
        .await
    {
        debug!(error = %e, "the temporary tab was not closed");
    }
    if let Some(intercept) = held.intercept {
        let _ = bidi
            .send_within(&RemoveIntercept { intercept }, quick)
            .await;
    }
    if let Some(id) = held.subscription {
        let un = Unsubscribe::Ids {
            subscriptions: vec![id],
        };
        let _ = bidi.send_within(&un, quick).await;
    }
    filled
}

/// The temporary tab's work: its intercept, then each origin's root answered by us and
/// its items set.
async fn fill_origins(
    bidi: &Bidi,
    tab: &str,
    origins: &[(String, Vec<Pair>)],
    held: &mut TabSetup,
) -> Result<()> {
    let mut events = bidi.events();
    let sub = Subscribe {
        events: vec![Event::BEFORE_REQUEST_SENT.to_string()],
        contexts: Some(vec![tab.to_string()]),
        user_contexts: None,
    };
    held.subscription = bidi.send(&sub).await?.subscription;
    let intercept = bidi
        .send(&AddIntercept::before_request(Some(vec![tab.to_string()])))
        .await?
        .intercept;
    held.intercept = Some(intercept.clone());
    for (origin, items) in origins {
        load_answered(bidi, &mut events, tab, &intercept, origin).await?;
        let json = serde_json::to_string(items).unwrap_or_else(|_| "[]".into());
        let call = CallFunction::new(
            WRITE_LOCAL,
            Target::sandbox(tab, SANDBOX),
            vec![LocalValue::String(json)],
        );
        let at = bidi.send(&call).await?.into_value()?;
        if at.as_str() != Some(origin.as_str()) {
            return Err(Error::Step(format!(
                "localStorage of {origin} was not restored: the temporary tab's document is of {}",
                at.as_str().unwrap_or("no origin")
            )));
        }
    }
    Ok(())
}

/// Loads `origin`'s root in `tab`, answering every request of the tab that `intercept`
/// holds ourselves: the document with [`BLANK_DOCUMENT`] (200 text/html), anything else
/// with an empty 404.
async fn load_answered(
    bidi: &Bidi,
    events: &mut Events,
    tab: &str,
    intercept: &str,
    origin: &str,
) -> Result<()> {
    let go = Navigate {
        context: tab.to_string(),
        url: format!("{origin}/"),
        wait: Some(Readiness::Complete),
    };
    let nav = bidi.send(&go);
    tokio::pin!(nav);
    loop {
        tokio::select! {
            r = &mut nav => return r.map(|_| ()),
            e = events.next() => {
                let Some(e) = e else {
                    return Err(Error::Browser(
                        "the WebDriver BiDi connection closed while restoring localStorage".into(),
                    ));
                };
                let Event::BeforeRequestSent(req) = e else { continue };
                if req.context.as_deref() != Some(tab)
                    || !req.is_blocked
                    || !req.intercepts.iter().any(|i| i == intercept)
                {
                    continue;
                }
                let document = req.navigation.is_some();
                let answer = ProvideResponse {
                    request: req.request.request.clone(),
                    status_code: Some(if document { 200 } else { 404 }),
                    reason_phrase: None,
                    headers: vec![Header {
                        name: "content-type".into(),
                        value: BytesValue::text("text/html; charset=utf-8"),
                    }],
                    body: Some(BytesValue::text(if document { BLANK_DOCUMENT } else { "" })),
                };
                bidi.send(&answer).await?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_restore_script_carries_its_map_as_json() {
        let map = serde_json::json!({"http://a.test": [["k", "v\u{2028}\"</script>"]]});
        let s = session_restore_script(&map);
        assert!(s.contains(r#"const data = {"http://a.test":[["k","#), "{s}");
        assert!(
            s.contains(r#"const mark = "__ariasnap_restored__";"#),
            "{s}"
        );
        let doc: DocStorage =
            serde_json::from_str(r#"{"origin": "null", "local": [["a", "b"]]}"#).unwrap();
        assert_eq!(doc.local, vec![("a".to_string(), "b".to_string())]);
        assert!(doc.session.is_empty());
    }
}
