//! WebDriver BiDi as the page channel (issue 14), probed on a real browser: each test starts
//! its own driver and browser with `webSocketUrl: true` (Chromium through chromedriver, or
//! Firefox through geckodriver with `ARIASNAP_TEST_BROWSER=firefox`) and drives it with
//! `engine::bidi`. Findings that decide the design are printed as `bidi-finding:` lines.

use crate::common::{Ctx, Test};
use ariasnap::browser::launch;
use ariasnap::engine::bidi::{
    AddPreloadScript, Bidi, CallFunction, Event, GetTree, HandleUserPrompt, KeyAction, LocalValue,
    Navigate, PerformActions, PointerAction, Readiness, ReleaseActions, RemoteValue,
    RemovePreloadScript, SerializationOptions, SourceActions, Subscribe, Target, Unsubscribe,
};
use fantoccini::elements::{Element, ElementRef};
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use serde::Deserialize;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn tests() -> Vec<Test> {
    trials![
        preload_runs_first_in_a_sandbox_in_every_frame,
        sandbox_is_untouched_by_a_hostile_page,
        shared_ids_cross_to_classic_webdriver,
        input_actions_at_an_element_origin,
        events_arrive_after_subscribing,
        a_second_connection_to_the_session,
        round_trip_costs
    ]
}

/// The sandbox the engine will live in.
const SANDBOX: &str = "ariasnap";

/// Records, in the sandbox, what the document looked like when the preload script ran.
const PRELOAD: &str = "() => { window.__ariasnapProbe = { readyState: document.readyState, \
    scripts: document.scripts.length, url: location.href }; \
    window.__ariaRefs = { sandbox: true }; }";

/// What [`PRELOAD`] saw.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Probe {
    ready_state: String,
    scripts: u32,
    url: String,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Chromium,
    Firefox,
}

/// A driver, a browser and a classic session with BiDi; ended on drop.
struct Browser {
    kind: Kind,
    client: Client,
    ws: String,
    driver_pid: u32,
    /// geckodriver, waited for after it is ended.
    gecko: Option<std::process::Child>,
    profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        launch::kill_group(self.driver_pid);
        if let Some(mut g) = self.gecko.take() {
            let _ = g.wait();
        }
        launch::kill_matching(&self.profile.path().display().to_string());
    }
}

fn kind() -> Kind {
    match std::env::var("ARIASNAP_TEST_BROWSER").as_deref() {
        Ok("firefox") => Kind::Firefox,
        _ => Kind::Chromium,
    }
}

/// Starts geckodriver on a free port in its own process group.
async fn start_geckodriver(log: &std::path::Path) -> (String, std::process::Child) {
    use std::os::unix::process::CommandExt;
    let port = launch::free_port().unwrap();
    let logf = std::fs::File::create(log).unwrap();
    let gecko = launch::find_driver_for(launch::BrowserKind::Firefox, None).expect("geckodriver");
    let child = Command::new(gecko)
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--websocket-port", "0"])
        .stdin(Stdio::null())
        .stdout(logf.try_clone().unwrap())
        .stderr(logf)
        .process_group(0)
        .spawn()
        .expect("geckodriver");
    let deadline = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "geckodriver did not listen");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    (format!("http://127.0.0.1:{port}"), child)
}

impl Browser {
    async fn start() -> Browser {
        let kind = kind();
        let profile = tempfile::Builder::new()
            .prefix("ariasnap-bidi-profile-")
            .tempdir()
            .unwrap();
        let log = profile.path().join("driver.log");
        let (url, pid, gecko, mut caps) = match kind {
            Kind::Chromium => {
                let driver = launch::find_driver(None).unwrap();
                let d = launch::start_driver(&driver, &log).await.unwrap();
                let browser = launch::find_browser(None).unwrap();
                let caps = launch::chrome_capabilities(&browser, profile.path());
                (d.url, d.pid, None, caps)
            }
            Kind::Firefox => {
                let (url, child) = start_geckodriver(&log).await;
                let firefox =
                    launch::find_browser_for(launch::BrowserKind::Firefox, None).expect("Firefox");
                let caps = serde_json::json!({
                    "browserName": "firefox",
                    "moz:firefoxOptions": {
                        "binary": firefox.display().to_string(),
                        "args": ["-headless", "-profile", profile.path().display().to_string()],
                    },
                    "unhandledPromptBehavior": {"default": "ignore"},
                });
                let serde_json::Value::Object(m) = caps else {
                    unreachable!()
                };
                (url, child.id(), Some(child), m)
            }
        };
        caps.insert("webSocketUrl".into(), true.into());
        let mut http = hyper_util::client::legacy::connect::HttpConnector::new();
        http.set_nodelay(true);
        let client = ClientBuilder::new(http)
            .capabilities(caps)
            .connect(&url)
            .await
            .expect("a WebDriver session with BiDi");
        let ws = ariasnap::engine::bidi::websocket_url(client.capabilities().expect("caps"))
            .expect("the driver returned a webSocketUrl");
        Browser {
            kind,
            client,
            ws,
            driver_pid: pid,
            gecko,
            profile,
        }
    }

    async fn connect(&self) -> Bidi {
        Bidi::connect(&self.ws).await.expect("BiDi connection")
    }
}

/// Runs `f` against a fresh browser on the suite's runtime; the browser ends afterwards,
/// also on a panic.
fn with_browser<F>(c: &Ctx, f: F)
where
    F: for<'a> FnOnce(&'a Browser) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + 'a>>,
{
    let b = c.rt.block_on(Browser::start());
    c.rt.block_on(f(&b));
    c.rt.block_on(async {
        let _ = b.client.clone().close().await;
    });
}

/// The first top-level context.
async fn top(bidi: &Bidi) -> String {
    let tree = bidi.send(&GetTree::default()).await.unwrap();
    tree.contexts[0].context.clone()
}

async fn goto(bidi: &Bidi, context: &str, url: &str) {
    bidi.send(&Navigate {
        context: context.into(),
        url: url.into(),
        wait: Some(Readiness::Complete),
    })
    .await
    .unwrap();
}

/// Calls `f` with `args` in `target` and returns its value (an exception fails the test).
async fn call(bidi: &Bidi, target: Target, f: &str, args: Vec<LocalValue>) -> RemoteValue {
    let mut cmd = CallFunction::new(f, target, args);
    cmd.serialization_options = Some(SerializationOptions {
        max_dom_depth: Some(0),
        ..Default::default()
    });
    bidi.send(&cmd).await.unwrap().into_value().unwrap()
}

/// A string `f` returns in the sandbox of `context`.
async fn sandbox_text(bidi: &Bidi, context: &str, f: &str) -> String {
    let v = call(bidi, Target::sandbox(context, SANDBOX), f, vec![]).await;
    v.into_string()
        .unwrap_or_else(|| panic!("{f} returned no string"))
}

/// What the preload script saw in `context`, or None when it did not run there.
async fn probe(bidi: &Bidi, context: &str) -> Option<Probe> {
    let t = sandbox_text(
        bidi,
        context,
        "() => JSON.stringify(window.__ariasnapProbe || null)",
    )
    .await;
    serde_json::from_str(&t).unwrap()
}

async fn add_preload(bidi: &Bidi) -> String {
    let reply = bidi
        .send(&AddPreloadScript {
            function_declaration: PRELOAD.into(),
            contexts: None,
            user_contexts: None,
            sandbox: Some(SANDBOX.into()),
        })
        .await
        .unwrap();
    reply.script
}

/// (a) + (d): the preload script runs in the sandbox before the page's scripts in every new
/// document, in frames of both origins; the page's realm cannot see it; getTree lists the
/// frames and the sandbox answers in each.
fn preload_runs_first_in_a_sandbox_in_every_frame(c: &Ctx) {
    let base = c.url("html/bidi/");
    with_browser(c, |b| {
        Box::pin(async move {
            let bidi = b.connect().await;
            let top = top(&bidi).await;
            let script = add_preload(&bidi).await;
            goto(&bidi, &top, &format!("{base}frames.html")).await;
            let p = probe(&bidi, &top)
                .await
                .expect("preload ran in the top document");
            assert_eq!((p.ready_state.as_str(), p.scripts), ("loading", 0), "{p:?}");
            let page = call(
                &bidi,
                Target::page(&top),
                "() => window.__ariasnapProbe",
                vec![],
            );
            assert_eq!(page.await.as_str(), Some("page's own"));
            let page_refs = "() => typeof window.__ariaRefs";
            let refs = call(&bidi, Target::page(&top), page_refs, vec![]).await;
            assert_eq!(refs.as_str(), Some("undefined"));
            frames_have_the_sandbox(b, &bidi, &top).await;
            late_frames(b, &bidi, &top).await;
            // a new document of the same tab gets it again
            goto(&bidi, &top, &format!("{base}child.html")).await;
            let p = probe(&bidi, &top)
                .await
                .expect("preload ran after navigating");
            assert!(p.url.ends_with("child.html") && p.scripts == 0, "{p:?}");
            bidi.send(&RemovePreloadScript { script }).await.unwrap();
            goto(&bidi, &top, &format!("{base}frames.html")).await;
            assert!(
                probe(&bidi, &top).await.is_none(),
                "removed preload still ran"
            );
        })
    });
}

/// (d): getTree lists both iframes (one cross-origin); the sandbox answers in each, and the
/// preload ran there first (Firefox: not in same-origin frames, reported).
async fn frames_have_the_sandbox(b: &Browser, bidi: &Bidi, top: &str) {
    let tree = bidi
        .send(&GetTree {
            max_depth: None,
            root: Some(top.into()),
        })
        .await
        .unwrap();
    // children carry no `parent`: the tree says it
    let kids: Vec<_> = tree.contexts[0].children.iter().flatten().collect();
    assert_eq!(
        (tree.contexts[0].context.as_str(), kids.len()),
        (top, 2),
        "{tree:?}"
    );
    let cross = kids.iter().find(|k| k.url.contains("//localhost:"));
    let same = kids.iter().find(|k| k.url.contains("//127.0.0.1:"));
    let (cross, same) = (
        cross.expect("cross-origin frame"),
        same.expect("same-origin"),
    );
    for (name, frame) in [("cross-origin", cross), ("same-origin", same)] {
        let who = "() => document.getElementById('who').textContent + ' ' + location.host";
        let text = sandbox_text(bidi, &frame.context, who).await;
        assert!(text.starts_with("child "), "{name}: {text}");
        let p = probe(bidi, &frame.context).await;
        eprintln!("bidi-finding: {:?} preload in {name} iframe: {p:?}", b.kind);
        match (b.kind, name, p) {
            (Kind::Firefox, "same-origin", None) => {
                eprintln!(
                    "bidi-finding: Firefox did not run the sandboxed preload in the same-origin iframe"
                );
            }
            (_, _, Some(p)) => assert_eq!(p.scripts, 0, "{name}: {p:?}"),
            (_, _, None) => panic!("no preload in the {name} iframe"),
        }
    }
}

/// Frames the page adds after load, same-origin by src and about:blank filled by script:
/// does the preload run there? (reported; Chromium must)
async fn late_frames(b: &Browser, bidi: &Bidi, top: &str) {
    let add = "() => new Promise((done) => { \
        const f = document.createElement('iframe'); f.src = 'child.html'; \
        f.onload = () => { const g = document.createElement('iframe'); \
          document.body.appendChild(g); \
          g.contentDocument.body.innerHTML = '<p id=\"who\">blank</p>'; done(); }; \
        document.body.appendChild(f); })";
    call(bidi, Target::page(top), add, vec![]).await;
    let tree = bidi
        .send(&GetTree {
            max_depth: None,
            root: Some(top.into()),
        })
        .await
        .unwrap();
    let kids: Vec<_> = tree.contexts[0].children.iter().flatten().collect();
    assert_eq!(kids.len(), 4, "{tree:?}");
    for (name, frame) in [
        ("late same-origin", kids[2]),
        ("script-filled about:blank", kids[3]),
    ] {
        let who = "() => document.getElementById('who').textContent";
        let text = sandbox_text(bidi, &frame.context, who).await;
        let p = probe(bidi, &frame.context).await;
        eprintln!(
            "bidi-finding: {:?} {name} iframe ({}): sandbox reads {text:?}; preload: {p:?}",
            b.kind, frame.url
        );
        if b.kind == Kind::Chromium && name == "late same-origin" {
            assert!(p.is_some(), "no preload in the {name} iframe");
        }
    }
}

/// (b): a page that replaced built-ins and defined `__ariaRefs` does not reach the sandbox.
fn sandbox_is_untouched_by_a_hostile_page(c: &Ctx) {
    let url = c.url("html/bidi/hostile.html");
    with_browser(c, |b| {
        Box::pin(async move {
            let bidi = b.connect().await;
            let top = top(&bidi).await;
            add_preload(&bidi).await;
            goto(&bidi, &top, &url).await;
            let read = "() => { const a = []; a.push('p'); \
                const go = document.getElementById('go'); \
                return JSON.stringify({ push: a.length, attr: go.getAttribute('id'), \
                  refs: window.__ariaRefs.sandbox === true, \
                  h1: document.querySelector('h1').textContent }); }";
            let t = sandbox_text(&bidi, &top, read).await;
            assert_eq!(t, r#"{"push":1,"attr":"go","refs":true,"h1":"Hostile"}"#);
            // the page's own realm is as hostile as it says
            let page = "() => Element.prototype.getAttribute.call(document.body, 'x') + ' ' + window.__ariaRefs.hash";
            let v = call(&bidi, Target::page(&top), page, vec![]).await;
            assert_eq!(v.as_str(), Some("forged forged"));
        })
    });
}

/// (c): a node from the sandbox is a classic element reference, and a classic element id is
/// a shared id the sandbox takes.
fn shared_ids_cross_to_classic_webdriver(c: &Ctx) {
    // not the hostile page: chromedriver's classic commands use the page's JSON.stringify
    let url = c.url("html/bidi/child.html");
    with_browser(c, |b| {
        Box::pin(async move {
            let bidi = b.connect().await;
            let top = top(&bidi).await;
            goto(&bidi, &top, &url).await;
            let tap = "() => document.getElementById('tap')";
            let node = call(&bidi, Target::sandbox(&top, SANDBOX), tap, vec![]).await;
            let id = node
                .shared_id()
                .expect("a node with a sharedId")
                .to_string();
            eprintln!("bidi-finding: {:?} sharedId looks like {id:?}", b.kind);
            let el = Element::from_element_id(b.client.clone(), ElementRef::from(id.clone()));
            el.click().await.expect("classic click on a shared id");
            let text = "() => document.getElementById('tap').textContent";
            assert_eq!(sandbox_text(&bidi, &top, text).await, "tapped");
            let who = b.client.find(Locator::Css("#who")).await.unwrap();
            let wid = who.element_id().to_string();
            let f = "(el) => el.id + '|' + el.localName";
            let v = call(
                &bidi,
                Target::sandbox(&top, SANDBOX),
                f,
                vec![LocalValue::shared(&wid)],
            );
            assert_eq!(v.await.as_str(), Some("who|p"));
            let same = b.client.find(Locator::Css("#tap")).await.unwrap();
            eprintln!(
                "bidi-finding: {:?} classic id of the same element is the shared id: {}",
                b.kind,
                same.element_id().to_string() == id
            );
        })
    });
}

/// (e): pointer actions at an element origin (by shared id) and key actions on the hostile
/// page.
fn input_actions_at_an_element_origin(c: &Ctx) {
    let url = c.url("html/bidi/hostile.html");
    with_browser(c, |b| {
        Box::pin(async move {
            let bidi = b.connect().await;
            let top = top(&bidi).await;
            goto(&bidi, &top, &url).await;
            let sandbox = Target::sandbox(&top, SANDBOX);
            let go = call(
                &bidi,
                sandbox.clone(),
                "() => document.getElementById('go')",
                vec![],
            );
            let go = go.await.shared_id().unwrap().to_string();
            let q = call(&bidi, sandbox, "() => document.getElementById('q')", vec![]);
            let q = q.await.shared_id().unwrap().to_string();
            let mut clicks = PointerAction::click(&go);
            clicks.extend(PointerAction::click(&go));
            clicks.extend(PointerAction::click(&q));
            let keys = [
                vec![KeyAction::Pause { duration: None }; 9],
                KeyAction::type_text("ab"),
            ]
            .concat();
            let actions = vec![
                SourceActions::Pointer {
                    id: "mouse".into(),
                    actions: clicks,
                },
                SourceActions::Key {
                    id: "keyboard".into(),
                    actions: keys,
                },
            ];
            let cmd = PerformActions {
                context: top.clone(),
                actions,
            };
            bidi.send(&cmd).await.unwrap();
            bidi.send(&ReleaseActions {
                context: top.clone(),
            })
            .await
            .unwrap();
            let read = "() => document.getElementById('go').textContent + '|' + document.getElementById('q').value";
            assert_eq!(sandbox_text(&bidi, &top, read).await, "clicked 2|ab");
        })
    });
}

/// (f): contextCreated and userPromptOpened arrive after subscribing, and stop after
/// unsubscribing.
fn events_arrive_after_subscribing(c: &Ctx) {
    let url = c.url("html/bidi/frames.html");
    with_browser(c, |b| {
        Box::pin(async move {
            let bidi = b.connect().await;
            let top = top(&bidi).await;
            let mut ev = bidi.events();
            let names = [
                Event::CONTEXT_CREATED,
                Event::USER_PROMPT_OPENED,
                Event::LOAD,
            ];
            let sub = bidi.send(&Subscribe::to(&names)).await.unwrap();
            goto(&bidi, &top, &url).await;
            let within = Duration::from_secs(5);
            let is_frame = |e: &Event| matches!(e, Event::ContextCreated(i) if i.parent.as_deref() == Some(&*top));
            ev.wait_for(within, is_frame)
                .await
                .expect("a frame's contextCreated");
            let alert = "() => { setTimeout(() => alert('probe'), 0); }";
            call(&bidi, Target::page(&top), alert, vec![]).await;
            let prompt = ev
                .wait_for(within, |e| matches!(e, Event::UserPromptOpened(_)))
                .await
                .unwrap();
            let Event::UserPromptOpened(p) = prompt else {
                unreachable!()
            };
            assert_eq!((p.kind.as_str(), p.message.as_str()), ("alert", "probe"));
            let answer = HandleUserPrompt {
                context: top.clone(),
                accept: Some(true),
                user_text: None,
            };
            bidi.send(&answer).await.unwrap();
            let unsub = match sub.subscription {
                Some(id) => Unsubscribe::Ids {
                    subscriptions: vec![id],
                },
                None => Unsubscribe::Events {
                    events: names.iter().map(|s| s.to_string()).collect(),
                },
            };
            bidi.send(&unsub).await.unwrap();
            ev.drain();
            goto(&bidi, &top, &url).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            let late: Vec<Event> = ev.drain();
            assert!(late.is_empty(), "events after unsubscribing: {late:?}");
        })
    });
}

/// Point 4 of issue 14: a later connection (as a later CLI process makes) to the same
/// session: allowed? do the first one's preload scripts stay? are subscriptions per
/// connection? Two connections at once?
fn a_second_connection_to_the_session(c: &Ctx) {
    let url = c.url("html/bidi/frames.html");
    with_browser(c, |b| {
        Box::pin(async move {
            let first = b.connect().await;
            let top = top(&first).await;
            add_preload(&first).await;
            let sub = first
                .send(&Subscribe::to(&[Event::CONTEXT_CREATED]))
                .await
                .unwrap();
            first.close().await.unwrap();
            tokio::time::sleep(Duration::from_millis(200)).await;
            let second = Bidi::connect(&b.ws).await;
            eprintln!(
                "bidi-finding: {:?} reconnect after a polite close: {:?}",
                b.kind,
                second.as_ref().map(|_| "ok")
            );
            let second = second.expect("a second connection after the first closed");
            let mut ev = second.events();
            goto(&second, &top, &url).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            let inherited = ev.drain().len();
            let kept = probe(&second, &top).await;
            eprintln!(
                "bidi-finding: {:?} first connection's preload kept: {}; events without subscribing: {inherited}",
                b.kind,
                kept.is_some()
            );
            assert!(
                kept.is_some(),
                "the first connection's preload script is gone"
            );
            // Chromium: subscriptions are the connection's; Firefox: the session's
            match b.kind {
                Kind::Chromium => assert_eq!(inherited, 0, "a subscription reached the second"),
                Kind::Firefox => assert!(inherited > 0, "Firefox kept no subscription"),
            }
            let ids = Unsubscribe::Ids {
                subscriptions: sub.subscription.into_iter().collect(),
            };
            let dropped = second.send(&ids).await;
            eprintln!(
                "bidi-finding: {:?} unsubscribing the first connection's id from the second: {:?}",
                b.kind,
                dropped.map_err(|e| e.to_string())
            );
            goto(&second, &top, &url).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert_eq!(ev.drain().len(), 0, "events after unsubscribing");
            second
                .send(&Subscribe::to(&[Event::CONTEXT_CREATED]))
                .await
                .unwrap();
            goto(&second, &top, &url).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert!(!ev.drain().is_empty(), "no events after subscribing");
            // a third connection while the second is open, then the second dropped abruptly
            let third = Bidi::connect(&b.ws).await;
            let both = match &third {
                Ok(t) => {
                    t.send(&GetTree::default()).await.is_ok()
                        && second.send(&GetTree::default()).await.is_ok()
                }
                Err(_) => false,
            };
            eprintln!(
                "bidi-finding: {:?} two connections at once: {:?}, both answer: {both}",
                b.kind,
                third.as_ref().map(|_| "ok")
            );
            drop(third);
            drop(second);
            tokio::time::sleep(Duration::from_millis(200)).await;
            let fourth = b.connect().await;
            assert!(fourth.send(&GetTree::default()).await.is_ok());
            assert!(
                b.client.title().await.is_ok(),
                "classic WebDriver still answers"
            );
            eprintln!(
                "bidi-finding: {:?} reconnect after an abrupt drop: ok",
                b.kind
            );
        })
    });
}

/// `goog/cdp/execute` for DevTools' Runtime.evaluate (Chromium's driver only).
#[derive(Debug)]
struct CdpEvaluate(String);

impl WebDriverCompatibleCommand for CdpEvaluate {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({"cmd": "Runtime.evaluate",
            "params": {"expression": self.0, "returnByValue": true}});
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Median of `n` timed runs of `f`, in milliseconds.
async fn median_ms<F, Fut>(n: usize, mut f: F) -> f64
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = usize>,
{
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        let len = f().await;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(len > 0);
    }
    times.sort_by(f64::total_cmp);
    times[n / 2]
}

/// Point 4: one small and one 1 MB round trip: BiDi callFunction in the sandbox, classic
/// Execute Script, and (Chromium) DevTools Runtime.evaluate through the driver. Also: a
/// page that replaced JSON.stringify breaks classic Execute Script (reported), not BiDi.
fn round_trip_costs(c: &Ctx) {
    let hostile = c.url("html/bidi/hostile.html");
    let url = c.url("html/bidi/child.html");
    with_browser(c, |b| {
        Box::pin(async move {
            let bidi = b.connect().await;
            let top = top(&bidi).await;
            goto(&bidi, &top, &hostile).await;
            let classic = b.client.execute("return 'ok';", vec![]).await;
            eprintln!(
                "bidi-finding: {:?} classic Execute Script on the hostile page: {:?}",
                b.kind,
                classic.map_err(|e| ariasnap::engine::webdriver_message(&e))
            );
            assert_eq!(sandbox_text(&bidi, &top, "() => 'ok'").await, "ok");
            goto(&bidi, &top, &url).await;
            let connect_ms = median_ms(10, || async {
                let again = b.connect().await;
                again
                    .send(&GetTree::default())
                    .await
                    .unwrap()
                    .contexts
                    .len()
            })
            .await;
            eprintln!(
                "bidi-finding: {:?} a new connection and its first command (getTree), median of 10: {connect_ms:.2} ms",
                b.kind
            );
            // a 1 MB round trip costs 0.1-0.3 s: 15 of each give the median (50 of each took
            // some 25 s of the suite)
            for (size, expr, n) in [("small", "'ok'", 50), ("1 MB", "'x'.repeat(1 << 20)", 15)] {
                let f = format!("() => {expr}");
                let bidi_ms =
                    median_ms(n, || async { sandbox_text(&bidi, &top, &f).await.len() }).await;
                let script = format!("return {expr};");
                let classic_ms = median_ms(n, || async {
                    let v = b.client.execute(&script, vec![]).await.unwrap();
                    v.as_str().map_or(0, str::len)
                })
                .await;
                let cdp = match b.kind {
                    Kind::Chromium => {
                        let ms = median_ms(n, || async {
                            let v = b.client.issue_cmd(CdpEvaluate(expr.into())).await.unwrap();
                            v.to_string().len()
                        })
                        .await;
                        format!("{ms:.2} ms")
                    }
                    Kind::Firefox => "n/a".into(),
                };
                if size == "1 MB" {
                    let chunks = "() => Array.from({ length: 16 }, () => 'x'.repeat(1 << 16))";
                    let chunked_ms = median_ms(n, || async {
                        let v = call(&bidi, Target::sandbox(&top, SANDBOX), chunks, vec![]);
                        v.await.items().map_or(0, <[RemoteValue]>::len)
                    })
                    .await;
                    eprintln!(
                        "bidi-finding: {:?} 1 MB as 16 strings of 64 KB, BiDi callFunction, median of {n}: {chunked_ms:.2} ms",
                        b.kind
                    );
                }
                eprintln!(
                    "bidi-finding: {:?} {size} round trip, median of {n}: BiDi callFunction {bidi_ms:.2} ms; classic Execute Script {classic_ms:.2} ms; DevTools Runtime.evaluate {cdp}",
                    b.kind
                );
            }
        })
    });
}
