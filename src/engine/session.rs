//! WebDriver sessions: asking an endpoint for a new one (New Session with the capabilities
//! browser/ chose), attaching to a kept one, ending one, and what a new session's
//! capabilities say. The classic client is made here, and handed to the page channel
//! ([`super::Page`]) inside a [`Connection`]: it never leaves `engine/`.
//!
//! Owns: the HTTP connectors (plain TCP for a local driver, rustls for `https:` endpoints),
//! the client's `persist` (dropping a client does not end the browser: it belongs to the
//! session), the generous first timeouts of a new session, and the reading of its
//! capabilities (id, first window, BiDi socket, browser name, DevTools address). Must not:
//! start or end processes, choose capabilities or keep session records (browser/ does).

use super::{bidi, cdp, errors};
use crate::error::{Error, Result};
use fantoccini::error::NewSessionError;
use fantoccini::{Client, ClientBuilder};
use serde_json::{Map, Value};
use std::time::Duration;

/// The classic WebDriver connection to one session, before it becomes a page channel
/// (`Page::classic`, `Page::with_bidi`).
pub struct Connection {
    client: Client,
}

/// What a session the endpoint just created says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    pub session_id: String,
    /// The window handle of its first tab.
    pub window: String,
    /// Its WebDriver BiDi socket (`webSocketUrl`), when the driver gave one.
    pub bidi: Option<String>,
    /// The browser the driver says it started (`browserName`: "chrome", "firefox"...).
    pub browser_name: Option<String>,
    /// The `host:port` of the browser's DevTools HTTP endpoint, as Chromium's driver
    /// reports it (`goog:chromeOptions.debuggerAddress`).
    pub devtools: Option<String>,
}

/// Why an endpoint gave no session ([`Connection::create`]): as an error of its own
/// (`Error::from`), or as the failure of a `--webdriver` endpoint ([`Refused::at_endpoint`]).
#[derive(Debug)]
pub struct Refused(Why);

#[derive(Debug)]
enum Why {
    /// No connector for the endpoint (an `https:` one without root certificates).
    Connector(Error),
    /// New Session failed.
    Session(NewSessionError),
}

impl From<Refused> for Error {
    fn from(r: Refused) -> Error {
        match r.0 {
            Why::Connector(e) => e,
            Why::Session(e) => e.into(),
        }
    }
}

impl Refused {
    /// The refusal of endpoint `url` (`--webdriver`), asked for a `browser` session, as
    /// `Error::Endpoint`: unreachable or refused, in the endpoint's own words.
    pub fn at_endpoint(self, url: &str, browser: &'static str) -> Error {
        match self.0 {
            Why::Connector(e) => e,
            Why::Session(e) => errors::endpoint(url, browser, e),
        }
    }
}

impl Connection {
    /// Asks endpoint `webdriver` for a new session with capabilities `caps`.
    pub async fn create(
        webdriver: &str,
        caps: Map<String, Value>,
    ) -> std::result::Result<Connection, Refused> {
        let connected = if webdriver.starts_with("https:") {
            let connector = https_connector().map_err(|e| Refused(Why::Connector(e)))?;
            ClientBuilder::new(connector)
                .capabilities(caps)
                .connect(webdriver)
                .await
        } else {
            ClientBuilder::new(http_connector())
                .capabilities(caps)
                .connect(webdriver)
                .await
        };
        match connected {
            Ok(client) => Ok(Connection { client }),
            Err(e) => Err(Refused(Why::Session(e))),
        }
    }

    /// Keeps a session [`Connection::create`] made past this process, gives the driver
    /// generous script and page-load limits (steps have their own), and reads what the
    /// session says about itself.
    pub async fn started(&self) -> Result<NewSession> {
        let client = &self.client;
        client.persist().await?;
        // Walks of very large pages take longer than WebDriver's default 30 s script limit on
        // their first pass; steps have their own limits.
        client
            .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
                Some(Duration::from_secs(600)),
                Some(Duration::from_secs(300)),
                Some(Duration::from_secs(0)),
            ))
            .await?;
        let session_id = client
            .session_id()
            .await?
            .ok_or_else(|| Error::Browser("the driver returned no session id".into()))?;
        let window = String::from(client.window().await?);
        Ok(NewSession {
            session_id,
            window,
            bidi: client.capabilities().and_then(bidi::websocket_url),
            browser_name: cdp::browser_name(client),
            devtools: cdp::devtools_address(client),
        })
    }

    /// Attaches to kept session `session_id` at endpoint `webdriver`; dropping the
    /// connection does not end the session.
    pub async fn attach(webdriver: &str, session_id: &str) -> Result<Connection> {
        let client = connect_existing(webdriver, session_id).await?;
        // Dropping this client must not end the browser: it belongs to the session.
        client.persist().await?;
        Ok(Connection { client })
    }

    /// Opens a tab of the session's own (New Window) and makes it current; its handle. A
    /// session attached to someone's browser works there, never in their tabs.
    pub async fn own_tab(&self) -> Result<String> {
        let w = self.client.new_window(true).await?.handle;
        self.client.switch_to_window(w.clone()).await?;
        Ok(String::from(w))
    }

    /// Leaves session `session_id` at `webdriver` attached to someone's browser, within
    /// `limit`: the session's own tabs `tabs` closed (unless no other tab is left, which would
    /// end the browser), then Delete Session, which ends the driver's hold on the browser and
    /// leaves it running with its other tabs. Nothing when the session cannot be reached.
    pub async fn detach(webdriver: &str, session_id: &str, tabs: &[String], limit: Duration) {
        let work = async {
            let Ok(client) = connect_existing(webdriver, session_id).await else {
                return;
            };
            let all: Vec<String> = client
                .windows()
                .await
                .map(|w| w.into_iter().map(String::from).collect())
                .unwrap_or_default();
            let others = all.iter().filter(|h| !tabs.contains(h)).count();
            if others > 0 {
                for t in tabs.iter().filter(|t| all.contains(t)) {
                    if let Ok(h) = fantoccini::wd::WindowHandle::try_from(t.clone())
                        && client.switch_to_window(h).await.is_ok()
                    {
                        let _ = client.close_window().await;
                    }
                }
            }
            let _ = client.close().await;
        };
        let _ = tokio::time::timeout(limit, work).await;
    }

    /// A cheap command (Get Window Handles) that proves the session alive.
    pub async fn alive(&self) -> Result<()> {
        self.client.windows().await?;
        Ok(())
    }

    /// Ends kept session `session_id` at endpoint `webdriver` (Delete Session), waiting at
    /// most `limit`; nothing when it cannot be reached.
    pub async fn end(webdriver: &str, session_id: &str, limit: Duration) {
        if let Ok(client) = connect_existing(webdriver, session_id).await {
            let _ = tokio::time::timeout(limit, client.close()).await;
        }
    }

    /// The client, for the page channel.
    pub(super) fn into_client(self) -> Client {
        self.client
    }
}

/// Connects to an existing WebDriver session. Plain-HTTP endpoints (the local driver) skip TLS
/// set-up, which costs milliseconds per command (the system's root certificates are read).
async fn connect_existing(webdriver: &str, session_id: &str) -> Result<Client> {
    let client = if webdriver.starts_with("https:") {
        Client::with_existing_session(webdriver, session_id, https_connector()?).await?
    } else {
        Client::with_existing_session(webdriver, session_id, http_connector()).await?
    };
    Ok(client)
}

/// What a WebDriver endpoint's `/status` says (`value.ready` and `value.message`), asked
/// within `limit`: whether a new session could start there now (`ariasnap doctor`). An
/// endpoint that does not answer, or answers something else, is an error in those words.
pub async fn endpoint_status(url: &str, limit: Duration) -> Result<(bool, String)> {
    use http_body_util::{BodyExt, Empty};
    use hyper::body::Bytes;
    let status_url = format!("{}/status", url.trim_end_matches('/'));
    let uri: http::Uri = status_url
        .parse()
        .map_err(|e| Error::Usage(format!("--webdriver {url:?} is not a URL: {e}")))?;
    let builder = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new());
    let ask = async {
        let res = if url.starts_with("https:") {
            builder
                .build::<_, Empty<Bytes>>(https_connector()?)
                .get(uri)
                .await
        } else {
            builder
                .build::<_, Empty<Bytes>>(http_connector())
                .get(uri)
                .await
        }
        .map_err(|e| {
            // hyper's own words are "client error (Connect)": the causes say what happened
            let mut why = e.to_string();
            let mut src = std::error::Error::source(&e);
            while let Some(s) = src {
                why = format!("{why}: {s}");
                src = s.source();
            }
            Error::Browser(format!("{status_url}: {why}"))
        })?;
        let code = res.status();
        let body = res
            .into_body()
            .collect()
            .await
            .map_err(|e| Error::Browser(format!("{status_url}: {e}")))?
            .to_bytes();
        let v: Value = serde_json::from_slice(&body).map_err(|_| {
            Error::Browser(format!(
                "{status_url} answered HTTP {code}, not WebDriver's JSON"
            ))
        })?;
        let ready = v["value"]["ready"]
            .as_bool()
            .ok_or_else(|| Error::Browser(format!("{status_url} answered without value.ready")))?;
        let message = v["value"]["message"].as_str().unwrap_or("").to_string();
        Ok((ready, message))
    };
    tokio::time::timeout(limit, ask).await.map_err(|_| {
        Error::Browser(format!(
            "{status_url}: no answer within {} ms",
            limit.as_millis()
        ))
    })?
}

fn http_connector() -> hyper_util::client::legacy::connect::HttpConnector {
    let mut http = hyper_util::client::legacy::connect::HttpConnector::new();
    http.set_nodelay(true);
    http
}

/// An `https:` endpoint's connector: rustls with the system's root certificates. Rustls is
/// built into the binary, so a command loads no TLS library: the OpenSSL libraries native-tls
/// linked cost every command about 0.8 ms of start-up, used or not (`ariasnap --version`
/// 2.8 -> 1.9 ms; start to an open page channel 6.1 -> 4.7 ms).
fn https_connector()
-> Result<hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>> {
    let builder = hyper_rustls::HttpsConnectorBuilder::new()
        .with_native_roots()
        .map_err(|e| {
            Error::Browser(format!(
                "no TLS root certificates for an https endpoint: {e}"
            ))
        })?;
    // the TLS layer takes the https: URLs, so its TCP connector must not refuse them
    let mut tcp = http_connector();
    tcp.enforce_http(false);
    Ok(builder.https_or_http().enable_http1().wrap_connector(tcp))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An `https:` endpoint goes through rustls: its crypto provider is the one built in
    /// (rustls panics at first use when none can be chosen) and the system's root
    /// certificates load. Against a port that answers plain HTTP, the handshake fails and
    /// the command gets an error, not a panic.
    #[test]
    fn https_endpoints_fail_cleanly_on_a_plain_port() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let port = listener.local_addr().unwrap().port();
            tokio::spawn(async move {
                use tokio::io::AsyncWriteExt;
                while let Ok((mut s, _)) = listener.accept().await {
                    let _ = s
                        .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
                        .await;
                }
            });
            let client = connect_existing(&format!("https://127.0.0.1:{port}/"), "s")
                .await
                .expect("a client for an https endpoint");
            let e = client.windows().await.expect_err("no TLS on that port");
            // the handshake read the plain answer as a TLS record (rustls: InvalidContentType)
            let text = format!("{e:?}");
            assert!(text.contains("InvalidContentType"), "{text}");
        });
    }
}
