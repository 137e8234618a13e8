//! The watcher's socket (`<session>.watch.sock` in the private sessions folder): one JSON
//! query per connection, one JSON reply. Commands ask the watcher of their session (an agent
//! of a shared browser: its owner's) what it recorded, and hand it their routes.
//!
//! This is the seam a long-lived session process would take over: it would answer the same
//! queries in-process (docs/reference/network.md#how-it-is-recorded).
//!
//! Owns: the queries, the reply and the client. Must not: record or hold anything.

use super::super::routes::Route;
use super::store::{ConsoleEntry, Request};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

/// The protocol's version: a watcher of another build is restarted.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "/watch-2");

/// What a command asks the watcher.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Query {
    /// Its version and the last seq given.
    Hello,
    /// The requests of `tab` after seq `after`, and where the tab's page began.
    Network { tab: String, after: u64 },
    /// One request, with its bodies when `bodies`.
    Request { seq: u64, bodies: bool },
    /// The requests of `tab` after `after`, with their response bodies when `bodies`.
    Har {
        tab: String,
        after: u64,
        bodies: bool,
    },
    /// The console entries of `tab` after seq `after`.
    Console { tab: String, after: u64 },
    /// Replaces the routes of session `owner` (its user context's, for an agent of a
    /// shared browser); the reply comes once they hold requests.
    Routes {
        owner: String,
        user_context: Option<String>,
        routes: Vec<Route>,
    },
    /// Adds `values`, typed into password fields by a command, to the session's typed
    /// passwords, which the watcher keeps in memory only; the reply lists them all, for the
    /// command to mask (docs/reference/policy.md#typed-passwords).
    Remember { values: Vec<String> },
}

/// A body the browser kept (`network.getData`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Body {
    pub seq: u64,
    /// `request` or `response`.
    pub which: String,
    /// The body as text, when it is UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The body as base64, when it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base64: Option<String>,
    /// Its size in bytes.
    pub size: u64,
    /// Why there is none (the browser kept none, it was evicted...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
}

/// The watcher's reply: what the query asked for, or an error.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default)]
    pub version: String,
    /// The last seq given.
    #[serde(default)]
    pub last: u64,
    /// Where the tab's current page began (seq of its document's request; 0: unknown).
    #[serde(default)]
    pub page_start: u64,
    #[serde(default)]
    pub requests: Vec<Request>,
    #[serde(default)]
    pub console: Vec<ConsoleEntry>,
    #[serde(default)]
    pub bodies: Vec<Body>,
    /// Every route in force (all owners').
    #[serde(default)]
    pub routes: Vec<Route>,
    /// False when the browser keeps no bodies (no `network.addDataCollector`).
    #[serde(default)]
    pub bodies_kept: bool,
    /// The session's typed passwords (`remember` only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remembered: Vec<String>,
}

/// The socket of session `name`'s watcher.
pub fn socket_path(name: &str) -> Result<PathBuf> {
    Ok(super::super::session::sessions_dir()?.join(format!("{name}.watch.sock")))
}

/// Asks the watcher of session `name`, waiting at most `within`.
pub async fn ask(name: &str, q: &Query, within: Duration) -> Result<Reply> {
    let path = socket_path(name)?;
    let talk = async {
        let mut s = tokio::net::UnixStream::connect(&path).await?;
        let mut line = serde_json::to_vec(q).map_err(std::io::Error::other)?;
        line.push(b'\n');
        s.write_all(&line).await?;
        let mut r = tokio::io::BufReader::new(s);
        let mut out = String::new();
        r.read_line(&mut out).await?;
        Ok::<_, std::io::Error>(out)
    };
    let text = match tokio::time::timeout(within, talk).await {
        Ok(Ok(t)) if !t.is_empty() => t,
        Ok(Ok(_)) => return Err(lost(name, "it closed the connection")),
        Ok(Err(e)) => return Err(lost(name, &e.to_string())),
        Err(_) => {
            return Err(Error::Timeout(format!(
                "the watcher of session {name:?} did not answer within {} ms",
                within.as_millis()
            )));
        }
    };
    let reply: Reply = serde_json::from_str(&text).map_err(|source| Error::Json {
        what: "the session watcher's reply",
        source,
    })?;
    match &reply.error {
        Some(e) => Err(Error::Browser(format!(
            "the watcher of session {name:?}: {e}"
        ))),
        None => Ok(reply),
    }
}

fn lost(name: &str, why: &str) -> Error {
    Error::Browser(format!(
        "the watcher of session {name:?} could not be reached ({why}); the next command starts it again"
    ))
}

/// Reads one query from a connection and writes `answer`'s reply.
pub async fn serve_one<F, Fut>(s: tokio::net::UnixStream, answer: F)
where
    F: FnOnce(Query) -> Fut,
    Fut: std::future::Future<Output = Reply>,
{
    let (rd, mut wr) = s.into_split();
    let mut r = tokio::io::BufReader::new(rd);
    let mut line = String::new();
    if r.read_line(&mut line).await.is_err() {
        return;
    }
    let reply = match serde_json::from_str::<Query>(&line) {
        Ok(q) => answer(q).await,
        Err(e) => Reply {
            error: Some(format!("unreadable query: {e}")),
            ..Default::default()
        },
    };
    let mut out = serde_json::to_vec(&reply).unwrap_or_default();
    out.push(b'\n');
    let _ = wr.write_all(&out).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_travel_as_tagged_json() {
        let q = Query::Network {
            tab: "T".into(),
            after: 4,
        };
        let s = serde_json::to_string(&q).unwrap();
        assert_eq!(s, r#"{"op":"network","tab":"T","after":4}"#);
        assert_eq!(serde_json::from_str::<Query>(&s).unwrap(), q);
        let r: Reply = serde_json::from_str(r#"{"version": "x"}"#).unwrap();
        assert!(r.requests.is_empty() && r.error.is_none());
    }
}
