//! Chromium's DevTools HTTP endpoint (`/json/new`, `/json/close/ID`, `/json/list`): tabs made
//! and closed by the browser process itself. Used to replace a tab whose page stopped
//! answering (the driver runs one command at a time per session, and a page in an endless
//! loop holds that queue, while the browser process still answers here), and to list a tab's
//! out-of-process frames (capture.rs asks each whether its document failed to load). A
//! speed-up on Chromium, never required: without it the driver's own commands are used.
//!
//! Owns: those calls. Must not: touch pages (engine.rs does).

use crate::error::{Error, Result};
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use serde::Deserialize;
use std::time::Duration;

/// A target (tab) as `/json/new` and `/json/list` describe it: the fields read.
#[derive(Debug, Deserialize)]
struct Target {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    title: Option<String>,
}

fn decode<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T> {
    serde_json::from_slice(body).map_err(|source| Error::Json {
        what: "the DevTools endpoint",
        source,
    })
}

async fn request(addr: &str, method: http::Method, path: &str) -> Result<Vec<u8>> {
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build_http::<Empty<Bytes>>();
    let uri: http::Uri = format!("http://{addr}{path}")
        .parse()
        .map_err(|e| Error::Browser(format!("bad DevTools address {addr:?}: {e}")))?;
    let req = http::Request::builder()
        .method(method)
        .uri(uri)
        .body(Empty::new())
        .map_err(|e| Error::Browser(format!("DevTools request: {e}")))?;
    let fut = async {
        let res = client
            .request(req)
            .await
            .map_err(|e| Error::Browser(format!("DevTools endpoint {addr}: {e}")))?;
        let status = res.status();
        let body = res
            .into_body()
            .collect()
            .await
            .map_err(|e| Error::Browser(format!("DevTools endpoint {addr}: {e}")))?
            .to_bytes()
            .to_vec();
        if !status.is_success() {
            return Err(Error::Browser(format!(
                "DevTools endpoint {addr}{path}: HTTP {status}"
            )));
        }
        Ok(body)
    };
    tokio::time::timeout(Duration::from_secs(5), fut)
        .await
        .map_err(|_| Error::Browser(format!("DevTools endpoint {addr} did not answer")))?
}

/// The browser's own DevTools socket (`/json/version`'s `webSocketDebuggerUrl`), on the
/// loopback address.
pub async fn browser_socket(addr: &str) -> Result<String> {
    #[derive(Deserialize)]
    struct Version {
        #[serde(rename = "webSocketDebuggerUrl")]
        ws: String,
    }
    let addr = addr.replacen("localhost:", "127.0.0.1:", 1);
    let v: Version = decode(&request(&addr, http::Method::GET, "/json/version").await?)?;
    Ok(v.ws.replacen("ws://localhost:", "ws://127.0.0.1:", 1))
}

/// Opens a blank tab; returns its target id (which is also its WebDriver window handle in
/// chromedriver).
pub async fn new_tab(addr: &str) -> Result<String> {
    let body = request(addr, http::Method::PUT, "/json/new?about:blank").await?;
    let made: Target = decode(&body)?;
    made.id
        .ok_or_else(|| Error::Browser("the DevTools endpoint made a tab without an id".into()))
}

/// Closes the tab with this target id, whatever its page is doing.
pub async fn close_tab(addr: &str, id: &str) -> Result<()> {
    if !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(Error::Browser(format!("not a DevTools target id: {id:?}")));
    }
    request(addr, http::Method::GET, &format!("/json/close/{id}")).await?;
    Ok(())
}

/// The out-of-process frames under page target `page` (`"type": "iframe"` targets, nested
/// ones too: cross-site frames under site isolation), their target ids.
pub async fn frame_targets(addr: &str, page: &str) -> Result<Vec<String>> {
    #[derive(Deserialize)]
    struct Listed {
        id: String,
        #[serde(rename = "type", default)]
        kind: String,
        #[serde(rename = "parentId", default)]
        parent: Option<String>,
    }
    let listed: Vec<Listed> = decode(&request(addr, http::Method::GET, "/json/list").await?)?;
    let mut under = vec![page.to_string()];
    let mut out: Vec<String> = Vec::new();
    loop {
        let found = listed.iter().find(|t| {
            t.kind == "iframe"
                && t.parent.as_ref().is_some_and(|p| under.contains(p))
                && !out.contains(&t.id)
        });
        let Some(t) = found else {
            return Ok(out);
        };
        out.push(t.id.clone());
        under.push(t.id.clone());
    }
}

/// The URL and title of the tab with this target id, as the browser process knows them
/// (no page script runs).
pub async fn tab_info(addr: &str, id: &str) -> Result<(String, String)> {
    let body = request(addr, http::Method::GET, "/json/list").await?;
    let targets: Vec<Target> = decode(&body)?;
    targets
        .into_iter()
        .find(|t| t.id.as_deref() == Some(id))
        .map(|t| (t.url.unwrap_or_default(), t.title.unwrap_or_default()))
        .ok_or_else(|| Error::Browser(format!("no DevTools target {id}")))
}
