//! Shared test context: the binary, a private ARIASNAP_HOME, the fixture server, and helpers
//! to run commands against the suite's session; a test's own HTTP server (`HttpServer`),
//! a free port, and a command's output as text (`Text`).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;

/// A test: its name (`module::function`, made by `trials!`) and a function that panics on
/// failure.
pub type Test = (&'static str, fn(&Ctx));

pub struct Ctx {
    pub bin: PathBuf,
    pub home: tempfile::TempDir,
    pub base: String,
    pub fixtures: PathBuf,
    /// Sessions made by tests besides the shared one, closed at the end.
    pub extra_sessions: Mutex<Vec<String>>,
    /// The suite's async runtime (fixture server; async clients in tests).
    pub rt: tokio::runtime::Runtime,
}

/// The shared session's name.
pub const SESSION: &str = "it";

/// The browser the suite runs on: `ARIASNAP_TEST_BROWSER` (chromium, the default, or
/// firefox), given to every command as `ARIASNAP_BROWSER`.
pub fn browser() -> &'static str {
    static B: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    B.get_or_init(|| match std::env::var("ARIASNAP_TEST_BROWSER") {
        Ok(b) if !b.trim().is_empty() => b.trim().to_string(),
        _ => "chromium".to_string(),
    })
}

/// Where scripts/setup.sh installs the widget libraries the fixture pages load from
/// `/vendor/` (jQuery, jQuery UI, Bootstrap, Vue; their versions in scripts/npm-pins.sh):
/// `ARIASNAP_VENDOR`, else `~/.cache/ariasnap/vendor` (or under `XDG_CACHE_HOME`).
pub fn vendor_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("ARIASNAP_VENDOR") {
        return d.into();
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache"));
    cache.join("ariasnap/vendor")
}

/// Fails the test, saying how to install them, when the widget libraries a fixture loads
/// from `/vendor/` are missing: `packages` are npm names (`jquery-ui`).
pub fn need_vendor(packages: &[&str]) {
    for p in packages {
        let f = vendor_dir()
            .join("node_modules")
            .join(p)
            .join("package.json");
        assert!(
            f.is_file(),
            "the widget library {p} is not at {} (bash scripts/setup.sh installs the libraries \
             pinned in scripts/npm-pins.sh, or set ARIASNAP_VENDOR)",
            f.display()
        );
    }
}

/// Whether the suite runs on Firefox.
pub fn firefox() -> bool {
    browser() == "firefox"
}

impl Ctx {
    pub fn start() -> Ctx {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        // /vendor/ is the widget libraries' npm folder, outside the repository
        // (docs/contributing.md#widget-libraries)
        let lookup = ariasnap::serve::mounted_lookup(
            fixtures.clone(),
            vec![("vendor/".into(), vendor_dir().join("node_modules"))],
        );
        let server = rt
            .block_on(ariasnap::serve::serve(lookup, 0))
            .expect("fixture server");
        let base = server.url();
        Ctx {
            // ARIASNAP_TEST_BIN: another build's binary (to see a new test fail on the old one)
            bin: std::env::var_os("ARIASNAP_TEST_BIN")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_ariasnap"))),
            home: tempfile::tempdir().unwrap(),
            base,
            fixtures,
            extra_sessions: Mutex::new(Vec::new()),
            rt,
        }
    }

    /// URL of a fixture file, e.g. `html/basic/page.html`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// A command for the binary with the suite's home and session.
    pub fn cmd(&self) -> Command {
        let mut c = Command::new(&self.bin);
        c.env("ARIASNAP_HOME", self.home.path())
            .env("ARIASNAP_SESSION", SESSION)
            .env_remove("ARIASNAP_WEBDRIVER")
            .env_remove("ARIASNAP_DRIVER")
            .env("ARIASNAP_BROWSER", browser())
            .env("NO_COLOR", "1")
            .stdin(Stdio::null());
        c
    }

    /// Runs the binary with `args`; returns the output whatever the exit code.
    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().expect("run ariasnap")
    }

    /// Runs the binary with `args` (a `run -` among them) and the step file `steps` on its
    /// standard input; returns the exit code, the result JSON and stderr. Panics, with both
    /// streams, when stdout is no JSON.
    pub fn run_steps(
        &self,
        args: &[&str],
        steps: &serde_json::Value,
    ) -> (i32, serde_json::Value, String) {
        use std::io::Write;
        let mut child = self
            .cmd()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run ariasnap");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(steps.to_string().as_bytes())
            .expect("write the steps");
        let o = child.wait_with_output().expect("wait for ariasnap");
        let v = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
            panic!(
                "result JSON ({e}): {}\nstderr: {}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )
        });
        (
            o.status.code().unwrap_or(-1),
            v,
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    /// Runs and asserts success; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let o = self.run(args);
        assert!(
            o.status.success(),
            "ariasnap {args:?} failed ({}):\nstdout: {}\nstderr: {}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).expect("utf-8 stdout")
    }

    /// Opens a fixture and returns its text snapshot.
    pub fn snapshot(&self, path: &str) -> String {
        self.ok(&["snapshot", &self.url(path), "--inline-limit", "0"])
    }

    /// Opens a fixture and returns its JSON snapshot.
    pub fn snapshot_json(&self, path: &str) -> serde_json::Value {
        let s = self.ok(&[
            "snapshot",
            &self.url(path),
            "--format",
            "json",
            "--inline-limit",
            "0",
        ]);
        serde_json::from_str(&s).expect("JSON snapshot")
    }

    /// Remembers a session to close at the end.
    pub fn track_session(&self, name: &str) {
        self.extra_sessions.lock().unwrap().push(name.to_string());
    }

    pub fn shutdown(&self) {
        let mut names = vec![SESSION.to_string()];
        names.extend(self.extra_sessions.lock().unwrap().drain(..));
        for n in names {
            let _ = self.run(&["session", "close", &n]);
        }
    }
}

/// A text snapshot without its page header (`# page:` and `# wall:` lines, docs/reference/output.md#page-header), for
/// comparisons that are about the tree.
pub fn body(t: &str) -> &str {
    let mut rest = t;
    for prefix in ["# page: ", "# wall: ", "# policy: "] {
        if rest.starts_with(prefix) {
            rest = rest.find('\n').map_or("", |i| &rest[i + 1..]);
        }
    }
    rest
}

/// Pulls every `[ref=...]` out of a text snapshot.
pub fn refs_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in text.split("[ref=").skip(1) {
        if let Some(end) = part.find(']') {
            out.push(part[..end].to_string());
        }
    }
    out
}

/// Refs vary with the snapshot number: the refs a snapshot gave (a node's last flag, before
/// `:`, an icon hint or the end of the line) become `[ref=*]`; refs inside quoted page text
/// stay as they are.
pub fn normalize_refs(t: &str) -> String {
    regex::Regex::new(r"(?m) \[ref=s\d+e\d+\]( \[icon: [a-z0-9 ]+\])?(:|$)")
        .unwrap()
        .replace_all(body(t), " [ref=*]$1$2")
        .into_owned()
}

/// The first line of `text` containing `needle`.
pub fn line_with<'a>(text: &'a str, needle: &str) -> &'a str {
    text.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{text}"))
}

/// What a nameless node's line and the lines under it show, as one line: the text after its
/// `: `, and each line's quoted name and text below it (links' `/url` lines aside).
pub fn shown_words(text: &str, line: usize) -> String {
    // a JSON string at the start of s: its value and the rest after it
    fn quoted(s: &str) -> Option<(String, &str)> {
        let b = s.as_bytes();
        let mut i = 1;
        while i < b.len() && b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        let v = serde_json::from_str(s.get(..=i)?).ok()?;
        Some((v, &s[i + 1..]))
    }
    fn said(l: &str, parts: &mut Vec<String>) {
        let bare = l.trim_start().trim_start_matches("- ");
        let mut rest = bare;
        if let Some(q) = bare.find(" \"").filter(|&q| !bare[..q].contains(':'))
            && let Some((name, after)) = quoted(&bare[q + 1..])
        {
            parts.push(name);
            rest = after;
        }
        if let Some((_, t)) = rest.split_once(": ") {
            parts.push(quoted(t).map(|(v, _)| v).unwrap_or_else(|| t.to_string()));
        }
    }
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let head = lines[line];
    let mut parts: Vec<String> = Vec::new();
    said(head, &mut parts);
    for l in lines[line + 1..]
        .iter()
        .take_while(|l| indent(l) > indent(head))
    {
        if !l.trim_start().starts_with("- /url:") {
            said(l, &mut parts);
        }
    }
    parts
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The ref of the first nameless `- ROLE` line with a ref whose shown words
/// ([`shown_words`]) start with `words`: a generic's text is its content, never its name
/// (`- generic [clickable] [ref=s1e5]: Stove`, or a card's lines under it).
pub fn words_ref(text: &str, role: &str, words: &str) -> String {
    let head = format!("- {role} [");
    for (i, l) in text.lines().enumerate() {
        if !l.trim_start().starts_with(&head) || !l.contains("[ref=") {
            continue;
        }
        if shown_words(text, i).starts_with(words) {
            return refs_in(l).remove(0);
        }
    }
    panic!("no nameless {role} showing {words:?} in:\n{text}")
}

/// The ref on the first line containing `needle`.
pub fn ref_of(text: &str, needle: &str) -> String {
    let l = line_with(text, needle);
    refs_in(l)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no ref on line {l:?}"))
}

/// Runs an `eval` step and returns its output value.
pub fn eval(c: &Ctx, expr: &str) -> serde_json::Value {
    let out: serde_json::Value = serde_json::from_str(&c.ok(&["eval", expr])).expect("run result");
    out["steps"][0]["output"].clone()
}

/// How many walks the page's engine has made (its `stats` counter, which the page's
/// mirror of the ref map carries). Reading it runs an `eval` step, which drops the snapshot
/// cache like any action.
pub fn walks(c: &Ctx) -> u64 {
    eval(c, "JSON.parse(window.__ariaRefs.stats)")["walks"]
        .as_u64()
        .expect("walk counter")
}

/// A tiny seeded generator (no dependency): the same strings on every run.
pub struct Lcg(pub u64);
impl Lcg {
    pub fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.next(xs.len() as u64) as usize]
    }
}

/// A server on 127.0.0.1 for one test: each connection it accepts goes to `serve`, on the
/// server's thread, until the server is dropped or `until` has passed. Ending drops `serve`
/// and whatever it kept (connections it held are closed).
pub struct LocalServer {
    pub addr: std::net::SocketAddr,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl LocalServer {
    pub fn start(
        until: std::time::Duration,
        mut serve: impl FnMut(std::net::TcpStream) + Send + 'static,
    ) -> LocalServer {
        use std::sync::atomic::{AtomicBool, Ordering};
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        l.set_nonblocking(true).unwrap();
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            let start = std::time::Instant::now();
            while start.elapsed() < until && !stopped.load(Ordering::SeqCst) {
                match l.accept() {
                    Ok((sock, _)) => serve(sock),
                    Err(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
                }
            }
        });
        LocalServer {
            addr,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A free port on 127.0.0.1, as the library finds one for a driver (bound, read and let
/// go: a server started on it right after gets it).
pub fn free_port() -> u16 {
    ariasnap::browser::launch::free_port().expect("a free port on 127.0.0.1")
}

/// A command's output as text: `o.stdout_text()` rather than `String::from_utf8_lossy`.
pub trait Text {
    /// Standard output, invalid UTF-8 replaced.
    fn stdout_text(&self) -> String;
    /// Standard error, invalid UTF-8 replaced.
    fn stderr_text(&self) -> String;
}

impl Text for Output {
    fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

/// One request an `HttpServer` got.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    /// The path as asked, query included (`/api/items?x=1`).
    pub path: String,
    /// The request line and headers, as sent.
    pub head: String,
    /// The body (`Content-Length` bytes), invalid UTF-8 replaced.
    pub body: String,
}

impl Request {
    /// The path without its query.
    pub fn route(&self) -> &str {
        self.path.split('?').next().unwrap_or("")
    }

    /// A header's value (the name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// What an `HttpServer` answers: a status (`200 OK`), headers and a body. Every answer also
/// says `Content-Length`, `Cache-Control: no-store` and `Connection: close`.
pub struct Answer {
    pub status: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn new(status: &str, content_type: &str, body: impl Into<Vec<u8>>) -> Answer {
        Answer {
            status: status.to_string(),
            headers: vec![("Content-Type".to_string(), content_type.to_string())],
            body: body.into(),
        }
    }

    /// `200 OK`, an HTML page.
    pub fn html(body: impl Into<Vec<u8>>) -> Answer {
        Answer::new("200 OK", "text/html; charset=utf-8", body)
    }

    /// `404 Not Found`.
    pub fn not_found() -> Answer {
        Answer::new("404 Not Found", "text/plain", "not found")
    }

    /// The answer with one more header.
    pub fn with(mut self, name: &str, value: &str) -> Answer {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }
}

/// Reads one request from `sock`: its head, then `Content-Length` bytes of body. None when
/// the client sent nothing (a browser opens connections it never uses).
fn read_request(sock: &mut std::net::TcpStream) -> Option<Request> {
    use std::io::Read;
    let _ = sock.set_nonblocking(false);
    let _ = sock.set_read_timeout(Some(std::time::Duration::from_secs(10)));
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = sock.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut req = Request {
        method: head.split_whitespace().next()?.to_string(),
        path: head.split_whitespace().nth(1)?.to_string(),
        head,
        body: String::new(),
    };
    let len: usize = req
        .header("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + len {
        match sock.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    req.body = String::from_utf8_lossy(&buf[head_end..]).into_owned();
    Some(req)
}

fn respond(sock: &mut std::net::TcpStream, a: &Answer) {
    use std::io::Write;
    let mut head = format!(
        "HTTP/1.1 {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n",
        a.status,
        a.body.len()
    );
    for (k, v) in &a.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = sock.write_all(head.as_bytes());
    let _ = sock.write_all(&a.body);
}

/// An HTTP/1.1 server on 127.0.0.1 for one test, on an origin of its own: each request is
/// kept (`requests`) and answered by the handler on a thread of its own (a slow answer, a
/// handler that sleeps, holds up no other request), one request a connection. It stops when
/// dropped.
pub struct HttpServer {
    pub addr: std::net::SocketAddr,
    requests: std::sync::Arc<Mutex<Vec<Request>>>,
    _server: LocalServer,
}

impl HttpServer {
    pub fn start(handler: impl Fn(&Request) -> Answer + Send + Sync + 'static) -> HttpServer {
        let handler = std::sync::Arc::new(handler);
        let requests = std::sync::Arc::new(Mutex::new(Vec::new()));
        let kept = requests.clone();
        let server = LocalServer::start(std::time::Duration::from_secs(600), move |mut sock| {
            let (handler, kept) = (handler.clone(), kept.clone());
            std::thread::spawn(move || {
                let Some(req) = read_request(&mut sock) else {
                    return;
                };
                kept.lock().unwrap().push(req.clone());
                respond(&mut sock, &handler(&req));
            });
        });
        HttpServer {
            addr: server.addr,
            requests,
            _server: server,
        }
    }

    /// `http://127.0.0.1:PORT`
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The URL of `path` (with or without its leading `/`).
    pub fn url(&self, path: &str) -> String {
        format!("{}/{}", self.origin(), path.trim_start_matches('/'))
    }

    /// Every request so far, in the order they came.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }

    /// The path of every request so far (queries included).
    pub fn paths(&self) -> Vec<String> {
        self.requests().into_iter().map(|r| r.path).collect()
    }
}
