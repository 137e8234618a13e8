//! The session's watcher (docs/reference/network.md#how-it-is-recorded): a small process per
//! session with WebDriver BiDi, started by the command that starts the session (or by the
//! next command when it is found dead), that lives as long as the browser. It is a
//! WebDriver BiDi client of its own that records, between commands too, what the page
//! requested (`network.beforeRequestSent`, `responseStarted`, `responseCompleted`,
//! `fetchError`) and logged (`log.entryAdded`), keeps request and response bodies in the
//! browser (`network.addDataCollector`, read back with `network.getData` when asked), and
//! holds requests while the operator's policy confines origins (browser/guard.rs judges
//! them) or a route exists (routes.rs), answering each one: the policy first, then the
//! newest matching route.
//!
//! Why a process: each CLI command is a process of its own, and a page requests and logs
//! between commands (timers, polling, a page loading after `goto` returned); a held request
//! waits for an answer from a live client. A session process that keeps the page connection
//! between commands (issue 54) would host [`Watcher`] in-process and answer the same
//! queries (`ipc::Query`) without the socket.
//!
//! Owns: starting, finding and stopping the process, its loop, its socket. Must not: decide
//! what a policy allows (policy.rs), or how records are shown (steps/debugging.rs).

mod hold;
pub mod ipc;
pub mod store;

use super::launch;
use super::routes::Route;
use super::session::{self, SessionRecord};
use crate::engine::bidi::{
    AddDataCollector, Bidi, DownloadBehavior, Event, GetTree, RemoveDataCollector, RemoveIntercept,
    SetDownloadBehavior, Subscribe,
};
use crate::error::{Error, Result};
use ipc::{Query, Reply};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::Store;
use tracing::debug;

/// The hidden subcommand that runs the watcher (`ariasnap session-watch NAME`).
pub const SUBCOMMAND: &str = "session-watch";

/// The largest body the browser keeps for each request (`maxEncodedDataSize`).
const KEEP_BODY: u64 = 10 << 20;

/// Where the watcher keeps the ids it made in the browser, which outlive its connection (a
/// new watcher removes a dead one's: an intercept would hold every request until removed).
fn state_path(name: &str) -> Result<PathBuf> {
    Ok(session::sessions_dir()?.join(format!("{name}.watch.state")))
}

#[derive(Default, Serialize, Deserialize)]
struct WatchState {
    pid: u32,
    #[serde(default)]
    intercept: Option<String>,
    #[serde(default)]
    collector: Option<String>,
}

impl WatchState {
    fn save(&self, name: &str) {
        if let Ok(p) = state_path(name) {
            let _ = crate::private::write_file(&p, &serde_json::to_vec(self).unwrap_or_default());
        }
    }
}

/// Whether the session needs a watcher: it has WebDriver BiDi (and ariasnap may use it, or
/// its policy needs requests held), and is not an agent of a shared browser (its owner's
/// watcher serves it).
pub fn wanted(rec: &SessionRecord) -> bool {
    let policy = rec.policy.as_ref().is_some_and(super::guard::needed);
    rec.bidi.is_some() && rec.shared.is_none() && (super::bidi_wanted() || policy)
}

/// Whether the watcher recorded for the session is running (its process is alive and is a
/// watcher of this session: a reused pid is not).
pub fn running(rec: &SessionRecord) -> bool {
    let Some(pid) = rec.guard_pid else {
        return false;
    };
    if !launch::alive(pid) {
        return false;
    }
    match std::fs::read(format!("/proc/{pid}/cmdline")) {
        Ok(cmd) => {
            let args: Vec<&[u8]> = cmd.split(|b| *b == 0).collect();
            args.contains(&SUBCOMMAND.as_bytes()) && args.contains(&rec.name.as_bytes())
        }
        // no /proc: the pid's liveness is all there is to go by
        Err(_) => true,
    }
}

/// Starts the watcher of the session (its record saved, with its policy) and waits, up to
/// `within`, until it records and holds what it must. Returns its pid.
pub async fn start(rec: &SessionRecord, within: Duration) -> Result<u32> {
    use std::process::Stdio;
    use tokio::io::AsyncBufReadExt;
    let exe = std::env::current_exe().map_err(|e| {
        Error::Browser(format!(
            "cannot find ariasnap's own binary to start the session's watcher: {e}"
        ))
    })?;
    let log = session::sessions_dir()?.join(format!("{}.watch.log", rec.name));
    let err = crate::private::append_file(&log)?;
    let mut cmd = tokio::process::Command::new(exe);
    cmd.arg(SUBCOMMAND)
        .arg(&rec.name)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(err))
        .kill_on_drop(false);
    // its own process group: a signal to the command's group (Ctrl-C) leaves it running
    cmd.process_group(0);
    let mut child = cmd
        .spawn()
        .map_err(|e| Error::Browser(format!("could not start the session's watcher: {e}")))?;
    let pid = child.id().unwrap_or(0);
    let out = child.stdout.take();
    let ready = async {
        let mut lines = tokio::io::BufReader::new(out?).lines();
        while let Ok(Some(l)) = lines.next_line().await {
            if l.starts_with("ready") {
                return Some(());
            }
        }
        None
    };
    match tokio::time::timeout(within, ready).await {
        Ok(Some(())) => {
            // it lives on; nothing waits for it (the session's end stops it)
            std::mem::forget(child);
            Ok(pid)
        }
        _ => {
            let _ = child.start_kill();
            let why = std::fs::read_to_string(&log)
                .ok()
                .and_then(|t| {
                    t.lines()
                        .rev()
                        .find(|l| !l.trim().is_empty())
                        .map(str::to_string)
                })
                .unwrap_or_else(|| "it did not say it was ready".into());
            Err(Error::Browser(format!(
                "the watcher of session {:?} did not start: {}",
                rec.name,
                crate::error::one_line(&why)
            )))
        }
    }
}

/// The mark that session `name` typed a password its watcher keeps (an empty file: the
/// value is only in the watcher's memory), so that its next commands know to ask.
fn typed_mark(name: &str) -> Result<PathBuf> {
    Ok(session::sessions_dir()?.join(format!("{name}.watch.typed")))
}

/// Hands `value`, typed into a password field by a command of session `name`, to the
/// watcher of session `watcher` (docs/reference/policy.md#typed-passwords).
pub async fn remember(watcher: &str, name: &str, value: &str) {
    let q = Query::Remember {
        values: vec![value.to_string()],
    };
    if ipc::ask(watcher, &q, Duration::from_secs(2)).await.is_ok()
        && let Ok(mark) = typed_mark(name)
        && !mark.exists()
    {
        let _ = crate::private::write_file(&mark, b"");
    }
}

/// Masks, in this process, the passwords the commands of session `name` typed before it,
/// which the watcher of session `watcher` keeps; asks only when one was typed.
pub async fn recall(watcher: &str, name: &str) {
    if !typed_mark(name).is_ok_and(|m| m.exists()) {
        return;
    }
    let q = Query::Remember { values: Vec::new() };
    if let Ok(r) = ipc::ask(watcher, &q, Duration::from_secs(2)).await {
        for v in &r.remembered {
            crate::vault::remember_typed(v);
        }
    }
}

/// Stops the watcher of a session that ends, and removes its files.
pub fn stop(rec: &SessionRecord) {
    if running(rec)
        && let Some(pid) = rec.guard_pid
    {
        launch::kill_group(pid);
    }
    for p in [
        state_path(&rec.name),
        ipc::socket_path(&rec.name),
        typed_mark(&rec.name),
    ]
    .into_iter()
    .flatten()
    {
        let _ = std::fs::remove_file(p);
    }
    if let Ok(d) = session::sessions_dir() {
        let _ = std::fs::remove_file(d.join(format!("{}.watch.log", rec.name)));
    }
}

/// The routes of every session whose requests this watcher holds: its own session's and
/// its agents' (a shared browser's), by owner.
fn saved_routes(name: &str) -> BTreeMap<String, Vec<Route>> {
    let mut out = BTreeMap::new();
    for n in session::list().unwrap_or_default() {
        let Ok(Some(r)) = session::load(&n) else {
            continue;
        };
        let mine = n == name || r.shared.as_ref().is_some_and(|s| s.owner == name);
        if mine && !r.routes.is_empty() {
            out.insert(n, r.routes.clone());
        }
    }
    out
}

/// What the loop and the socket's handlers share.
pub struct Watcher {
    pub store: Mutex<Store>,
    bidi: Arc<Bidi>,
    collector: Option<String>,
    /// Routes by the session that added them.
    routes: Mutex<BTreeMap<String, Vec<Route>>>,
}

impl Watcher {
    /// Every route in force, oldest owner first, in the order each owner added them.
    pub fn routes(&self) -> Vec<Route> {
        lock(&self.routes).values().flatten().cloned().collect()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn say_ready() {
    println!("ready");
    let _ = std::io::stdout().flush();
}

/// The watcher's process: runs until the browser's connection ends.
pub async fn run(name: &str) -> Result<()> {
    session::validate_name(name)?;
    let rec =
        session::load(name)?.ok_or_else(|| Error::Usage(format!("no session named {name:?}")))?;
    let url = rec.bidi.clone().ok_or_else(|| {
        Error::Browser(format!("session {name:?} has no WebDriver BiDi to watch"))
    })?;
    let bidi = Arc::new(
        Bidi::connect(&url)
            .await?
            .with_deadline(Duration::from_secs(10)),
    );
    let mut events = bidi.events();
    let mut state = WatchState {
        pid: std::process::id(),
        ..Default::default()
    };
    forget_dead_watcher(name, &bidi).await;
    bidi.send(&Subscribe::to(&[
        Event::BEFORE_REQUEST_SENT,
        Event::RESPONSE_STARTED,
        Event::RESPONSE_COMPLETED,
        Event::FETCH_ERROR,
        Event::LOG_ENTRY,
        Event::CONTEXT_CREATED,
    ]))
    .await?;
    let keep = AddDataCollector {
        data_types: vec!["request".into(), "response".into()],
        max_encoded_data_size: KEEP_BODY,
        user_contexts: None,
    };
    state.collector = match bidi.send(&keep).await {
        Ok(c) => Some(c.collector),
        Err(e) => {
            eprintln!("bodies are not kept (network.addDataCollector: {e})");
            None
        }
    };
    let w = Arc::new(Watcher {
        store: Mutex::new(Store::default()),
        bidi: bidi.clone(),
        collector: state.collector.clone(),
        routes: Mutex::new(saved_routes(name)),
    });
    if let Ok(tree) = bidi.send(&GetTree::default()).await {
        let mut s = lock(&w.store);
        for c in &tree.contexts {
            s.context(c);
        }
    }
    let mut holder = hold::Holder::new(&rec, w.clone())?;
    if rec
        .policy
        .as_ref()
        .is_some_and(|p| !p.allows(crate::policy::Switch::Downloads))
    {
        deny_downloads(&bidi).await;
    }
    holder.ensure(&mut state).await?;
    state.save(name);
    let sock = ipc::socket_path(name)?;
    let _ = std::fs::remove_file(&sock);
    let listener = tokio::net::UnixListener::bind(&sock)
        .map_err(|e| Error::io("listen on", sock.clone(), e))?;
    let (to_loop, mut asks) = tokio::sync::mpsc::unbounded_channel::<Routed>();
    say_ready();
    loop {
        tokio::select! {
            e = events.next() => match e {
                Some(e) => on_event(&w, &mut holder, e).await,
                None => break,
            },
            Ok((s, _)) = listener.accept() => {
                let (w, to_loop) = (w.clone(), to_loop.clone());
                tokio::spawn(ipc::serve_one(s, move |q| answer(w, q, to_loop)));
            }
            Some((owner, uc, routes, done)) = asks.recv() => {
                set_routes(&w, &owner, uc, routes);
                let r = holder.ensure(&mut state).await;
                state.save(name);
                let _ = done.send(r.err().map(|e| e.to_string()));
            }
        }
    }
    let _ = std::fs::remove_file(&sock);
    debug!(
        session = name,
        "the browser's connection ended: the watcher stops"
    );
    Ok(())
}

/// A route change handed to the loop (it holds requests), and where its outcome goes.
type Routed = (
    String,
    Option<String>,
    Vec<Route>,
    tokio::sync::oneshot::Sender<Option<String>>,
);

fn set_routes(w: &Watcher, owner: &str, uc: Option<String>, routes: Vec<Route>) {
    let routes: Vec<Route> = routes
        .into_iter()
        .map(|mut r| {
            r.owner = owner.to_string();
            r.user_context = uc.clone();
            r
        })
        .collect();
    let mut all = lock(&w.routes);
    if routes.is_empty() {
        all.remove(owner);
    } else {
        all.insert(owner.to_string(), routes);
    }
}

/// Removes what a watcher that died left in the browser.
async fn forget_dead_watcher(name: &str, bidi: &Bidi) {
    let Ok(old) = std::fs::read(state_path(name).unwrap_or_default()) else {
        return;
    };
    let Ok(old) = serde_json::from_slice::<WatchState>(&old) else {
        return;
    };
    if let Some(intercept) = old.intercept {
        let _ = bidi.send(&RemoveIntercept { intercept }).await;
    }
    if let Some(collector) = old.collector {
        let _ = bidi.send(&RemoveDataCollector { collector }).await;
    }
}

/// Makes the browser refuse downloads (the policy's `downloads` off).
async fn deny_downloads(bidi: &Bidi) {
    let deny = SetDownloadBehavior {
        download_behavior: Some(DownloadBehavior::Denied),
        user_contexts: None,
    };
    if let Err(e) = bidi.send(&deny).await {
        eprintln!("downloads could not be refused: {e}");
    }
}

/// One event: recorded, and a request held by the watcher's intercept answered.
async fn on_event(w: &Arc<Watcher>, holder: &mut hold::Holder, e: Event) {
    match e {
        Event::BeforeRequestSent(r) => {
            lock(&w.store).before_request(&r);
            if r.is_blocked {
                holder.answer_bidi(&r).await;
            }
        }
        Event::ResponseStarted(r) => lock(&w.store).response(&r, false),
        Event::ResponseCompleted(r) => lock(&w.store).response(&r, true),
        Event::FetchError(f) => lock(&w.store).failed(&f),
        Event::LogEntry(l) => lock(&w.store).log(&l),
        Event::ContextCreated(c) => {
            lock(&w.store).context(&c);
            holder.created(&c).await;
        }
        _ => {}
    }
}

/// The reply to one query.
async fn answer(
    w: Arc<Watcher>,
    q: Query,
    to_loop: tokio::sync::mpsc::UnboundedSender<Routed>,
) -> Reply {
    let mut reply = Reply {
        version: ipc::VERSION.into(),
        bodies_kept: w.collector.is_some(),
        ..Default::default()
    };
    match q {
        Query::Hello => {}
        Query::Network { tab, after } => {
            let s = lock(&w.store);
            reply.requests = s.requests(&tab, after);
            reply.page_start = s.page_start(&tab);
        }
        Query::Console { tab, after } => {
            let s = lock(&w.store);
            reply.console = s.console(&tab, after);
            reply.page_start = s.page_start(&tab);
        }
        Query::Request { seq, bodies } => {
            let found = lock(&w.store).request(seq).cloned();
            let Some(r) = found else {
                reply.error = Some(format!("no request r{seq} is kept"));
                return reply;
            };
            if bodies {
                reply.bodies = read_bodies(&w, &r, true).await;
            }
            reply.requests = vec![r];
        }
        Query::Har { tab, after, bodies } => {
            let (list, start) = {
                let s = lock(&w.store);
                (s.requests(&tab, after), s.page_start(&tab))
            };
            if bodies {
                for r in &list {
                    reply.bodies.extend(read_bodies(&w, r, false).await);
                }
            }
            reply.requests = list;
            reply.page_start = start;
        }
        Query::Routes {
            owner,
            user_context,
            routes,
        } => {
            let (done, outcome) = tokio::sync::oneshot::channel();
            let _ = to_loop.send((owner, user_context, routes, done));
            if let Ok(Some(e)) = outcome.await {
                reply.error = Some(e);
            }
        }
        Query::Remember { values } => {
            // the process's own vault is the session's memory: nothing is written, and the
            // watcher's own log lines are masked by it too
            for v in &values {
                crate::vault::remember_typed(v);
            }
            reply.remembered = crate::vault::typed();
        }
    }
    reply.last = lock(&w.store).last();
    reply.routes = w.routes();
    reply
}

/// The bodies the browser kept for a request: its response's (a completed request's), and
/// its own when `request` and it had one.
async fn read_bodies(w: &Watcher, r: &store::Request, request: bool) -> Vec<ipc::Body> {
    use crate::engine::bidi::{BytesValue, GetData};
    let mut out = Vec::new();
    let mut which = Vec::new();
    if request && r.request_body_size.is_some() {
        which.push("request");
    }
    // (a redirect's hop shares its request id with the next hop: its body is the next's)
    let redirect = r
        .status
        .is_some_and(|s| (300..400).contains(&s) && s != 304);
    if r.ended.is_some() && r.failure.is_none() && !redirect {
        which.push("response");
    }
    for kind in which {
        let mut b = ipc::Body {
            seq: r.seq,
            which: kind.into(),
            ..Default::default()
        };
        if w.collector.is_none() {
            b.missing = Some("this browser keeps no bodies (no network.addDataCollector)".into());
            out.push(b);
            continue;
        }
        let get = GetData {
            data_type: kind.into(),
            request: r.request_id.clone(),
            collector: w.collector.clone(),
        };
        match w.bidi.send_within(&get, Duration::from_secs(5)).await {
            Ok(d) => match d.bytes {
                BytesValue::String { value } => {
                    b.size = value.len() as u64;
                    b.text = Some(value);
                }
                BytesValue::Base64 { value } => {
                    use base64::Engine;
                    let bytes = base64::engine::general_purpose::STANDARD
                        .decode(&value)
                        .unwrap_or_default();
                    b.size = bytes.len() as u64;
                    match String::from_utf8(bytes) {
                        Ok(t) => b.text = Some(t),
                        Err(_) => b.base64 = Some(value),
                    }
                }
            },
            Err(e) => b.missing = Some(crate::error::one_line(&e.to_string())),
        }
        out.push(b);
    }
    out
}
