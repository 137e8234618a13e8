//! A small static HTTP server on 127.0.0.1 for the demo page and the test fixtures.
//!
//! Owns: serving files from a lookup function (bundled or on disk) with a content type.
//! Must not: serve anything outside what the lookup returns, or listen beyond loopback.

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;

/// Returns the bytes of a path (without the leading `/`, query removed), or None for 404.
pub type Lookup = Arc<dyn Fn(&str) -> Option<Vec<u8>> + Send + Sync>;

/// Content type from a file name.
pub fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit('.').next().unwrap_or("");
    match ext {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// A running server: its address; it stops when the runtime ends or the task is aborted.
pub struct Server {
    pub addr: SocketAddr,
    pub task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// The base URL, ending with `/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

/// Serves `lookup` on 127.0.0.1:`port` (0 = any free port).
pub async fn serve(lookup: Lookup, port: u16) -> std::io::Result<Server> {
    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    let addr = listener.local_addr()?;
    let task = tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let lookup = lookup.clone();
            tokio::spawn(async move {
                let svc = service_fn(move |req: Request<hyper::body::Incoming>| {
                    let lookup = lookup.clone();
                    async move { Ok::<_, Infallible>(respond(&lookup, &req)) }
                });
                let _ = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), svc)
                    .await;
            });
        }
    });
    Ok(Server { addr, task })
}

fn respond(lookup: &Lookup, req: &Request<hyper::body::Incoming>) -> Response<Full<Bytes>> {
    let raw = req.uri().path();
    let mut path = raw.trim_start_matches('/').to_string();
    if path.is_empty() || path.ends_with('/') {
        path.push_str("index.html");
    }
    let found = if path.split('/').any(|seg| seg == "..") {
        None
    } else {
        lookup(&path)
    };
    let mut resp = match found {
        Some(body) => {
            let mut r = Response::new(Full::new(Bytes::from(body)));
            if let Ok(v) = content_type(&path).parse() {
                r.headers_mut().insert(hyper::header::CONTENT_TYPE, v);
            }
            r
        }
        None => {
            let mut r = Response::new(Full::new(Bytes::from_static(b"not found")));
            *r.status_mut() = StatusCode::NOT_FOUND;
            r
        }
    };
    if let Ok(v) = "no-store".parse() {
        resp.headers_mut().insert(hyper::header::CACHE_CONTROL, v);
    }
    resp
}

/// A lookup over a directory on disk.
pub fn dir_lookup(root: std::path::PathBuf) -> Lookup {
    Arc::new(move |p: &str| std::fs::read(root.join(p)).ok())
}

/// A lookup over several directories on disk: a path that starts with one of `mounts`'
/// prefixes (`"vendor/"`) is read from that mount's directory without the prefix, any other
/// from `root`. The test fixture server serves the widget libraries installed outside the
/// repository this way (docs/contributing.md#widget-libraries).
pub fn mounted_lookup(
    root: std::path::PathBuf,
    mounts: Vec<(String, std::path::PathBuf)>,
) -> Lookup {
    Arc::new(move |p: &str| {
        for (prefix, dir) in &mounts {
            if let Some(rest) = p.strip_prefix(prefix.as_str()) {
                return std::fs::read(dir.join(rest)).ok();
            }
        }
        std::fs::read(root.join(p)).ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mounts_take_their_prefix_and_the_root_the_rest() {
        let root = tempfile::tempdir().unwrap();
        let lib = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("page.html"), "page").unwrap();
        std::fs::write(lib.path().join("lib.js"), "lib").unwrap();
        std::fs::create_dir(root.path().join("vendor")).unwrap();
        std::fs::write(root.path().join("vendor/lib.js"), "shadowed").unwrap();
        let l = mounted_lookup(
            root.path().to_path_buf(),
            vec![("vendor/".into(), lib.path().to_path_buf())],
        );
        assert_eq!(l("page.html").as_deref(), Some(&b"page"[..]));
        assert_eq!(l("vendor/lib.js").as_deref(), Some(&b"lib"[..]));
        assert_eq!(l("vendor/page.html"), None);
        assert_eq!(content_type("x/y.png"), "image/png");
    }
}
