//! Debugging a web app (docs/reference/network.md, docs/reference/audit.md): a fixture app of
//! 20+ requests of every kind, served with its API by a server of this test and a second
//! origin beside it; `network` lists every request Chromium's own DevTools record has, with
//! the same statuses; the HAR passes a HAR 1.2 schema and a HAR reader's parser; a route
//! mocks the API and the page shows it, and never reaches around the policy; console
//! stacks name the file and line; `audit` names axe-core's violations by ref and finds the
//! keyboard problems, and none on a page a keyboard user can use, and gets through what real
//! pages have: a frame whose sandbox never answers, text axe cuts mid surrogate pair.

use crate::common::{Answer, Ctx, HttpServer, Request, Test, Text, firefox};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub fn tests() -> Vec<Test> {
    trials![
        network_lists_every_request_with_its_status,
        a_request_whole_and_the_har_of_the_page,
        a_route_mocks_the_api_and_the_page_shows_it,
        a_route_never_reaches_around_the_policy,
        console_gives_levels_and_stacks_since_the_last_call,
        audit_names_violations_by_ref_and_keyboard_problems,
        audit_survives_a_frame_that_never_answers_and_cut_surrogates
    ]
}

/// The app's servers: its own origin (the fixture files and the API) and a second origin
/// (one file that allows other origins, one that does not); every request each one got.
struct App {
    own: HttpServer,
    other: HttpServer,
}

impl App {
    fn start(c: &Ctx) -> App {
        let other = HttpServer::start(|r| {
            let a = Answer::new("200 OK", "application/json", "{\"other\": true}");
            if r.path.starts_with("/cors-ok") {
                a.with("Access-Control-Allow-Origin", "*")
            } else {
                a
            }
        });
        let other_origin = other.origin();
        let dir = c.fixtures.join("html/debug");
        let own = HttpServer::start(move |r| serve_app(&dir, &other_origin, r));
        App { own, other }
    }

    /// Every request of the app's own origin, as `METHOD /path`.
    fn hits(&self) -> Vec<String> {
        let all = self.own.requests();
        all.iter()
            .map(|r| format!("{} {}", r.method, r.path))
            .collect()
    }

    fn url(&self, path: &str) -> String {
        self.own.url(path)
    }

    fn other_origin(&self) -> String {
        self.other.origin()
    }
}

/// The app's origin: its files, and its API.
fn serve_app(dir: &std::path::Path, other: &str, r: &Request) -> Answer {
    let json = |status: &str, body: &str| Answer::new(status, "application/json", body);
    match (r.method.as_str(), r.route()) {
        ("GET", "/api/items") => json(
            "200 OK",
            r#"[{"name": "Real apple"}, {"name": "Real pear"}]"#,
        ),
        ("GET", "/api/redirect") => {
            Answer::new("302 Found", "text/plain", "").with("Location", "/api/redirected")
        }
        ("GET", "/api/redirected" | "/api/page" | "/api/xhr") => json("200 OK", "{\"ok\": true}"),
        ("GET", "/api/broken") => json("500 Internal Server Error", "{\"error\": \"broken\"}"),
        ("POST", "/api/order") => json(
            "201 Created",
            &format!("{{\"id\": 7, \"got\": {}}}", r.body),
        ),
        ("GET", p) if !p.contains("..") && !p.starts_with("/api/") => {
            let file = dir.join(p.trim_start_matches('/'));
            match std::fs::read(&file) {
                Ok(mut b) => {
                    if p.ends_with(".html") {
                        b = String::from_utf8_lossy(&b)
                            .replace("OTHER_ORIGIN", other)
                            .into_bytes();
                    }
                    Answer::new("200 OK", ariasnap::serve::content_type(p), b)
                }
                Err(_) => Answer::not_found(),
            }
        }
        _ => Answer::not_found(),
    }
}

/// The step output of one command.
fn output(c: &Ctx, args: &[&str]) -> Value {
    let out: Value = serde_json::from_str(&c.ok(args)).expect("a run result");
    out["steps"][0]["output"].clone()
}

/// Opens the app and waits until it has made its requests (it titles itself then).
fn open_app(c: &Ctx, app: &App) {
    c.ok(&["goto", &app.url("app.html")]);
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        let t = output(c, &["get-title"]);
        if t == "Debug app ready" {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("the app did not title itself ready");
}

/// A listed request's status word and path, from its line (`r5 GET 404 image /x ...`).
fn listed(lines: &Value) -> Vec<(String, String, String)> {
    lines
        .as_array()
        .unwrap_or_else(|| panic!("no list: {lines}"))
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.as_str().unwrap().split_whitespace().collect();
            (w[1].to_string(), w[2].to_string(), w[4].to_string())
        })
        .collect()
}

/// Chromium's own record of the tab's requests: DevTools' Network domain on the tab's
/// page target, enabled before the page loads; each hop (url, status or "failed").
struct Devtools {
    events: Arc<Mutex<Vec<Value>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Devtools {
    fn attach(c: &Ctx) -> Devtools {
        let rec: Value = serde_json::from_str(
            &std::fs::read_to_string(c.home.path().join("sessions-v1/it.json")).unwrap(),
        )
        .unwrap();
        let addr = rec["debugger"]
            .as_str()
            .expect("a DevTools address")
            .to_string();
        let tab = rec["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["alias"] == rec["current"])
            .unwrap()["handle"]
            .as_str()
            .unwrap()
            .to_string();
        let ws = format!("ws://{addr}/devtools/page/{tab}");
        let events = Arc::new(Mutex::new(Vec::new()));
        let kept = events.clone();
        let (ready_tx, ready) = std::sync::mpsc::channel();
        let task = c.rt.spawn(async move {
            use futures_util::{SinkExt, StreamExt};
            let (mut s, _) = tokio_tungstenite::connect_async(ws)
                .await
                .expect("DevTools");
            let enable = json!({"id": 1, "method": "Network.enable", "params": {}}).to_string();
            s.send(tokio_tungstenite::tungstenite::Message::text(enable))
                .await
                .unwrap();
            while let Some(Ok(m)) = s.next().await {
                let Ok(v) = serde_json::from_str::<Value>(m.to_text().unwrap_or("")) else {
                    continue;
                };
                if v["id"] == 1 {
                    let _ = ready_tx.send(());
                }
                if v["method"]
                    .as_str()
                    .is_some_and(|m| m.starts_with("Network."))
                {
                    kept.lock().unwrap().push(v);
                }
            }
        });
        ready
            .recv_timeout(Duration::from_secs(10))
            .expect("Network.enable answered");
        Devtools { events, task }
    }

    /// Every hop DevTools saw: (url, status), "failed" for a request that failed.
    fn hops(&self) -> Vec<(String, String)> {
        let ev = self.events.lock().unwrap();
        let mut by_id: Vec<(String, String, String)> = Vec::new();
        for e in ev.iter() {
            let p = &e["params"];
            let id = p["requestId"].as_str().unwrap_or("").to_string();
            match e["method"].as_str().unwrap_or("") {
                "Network.requestWillBeSent" => {
                    // a redirect: the hop before gets its 3xx
                    if let Some(s) = p["redirectResponse"]["status"].as_u64()
                        && let Some(h) = by_id.iter_mut().rev().find(|h| h.0 == id)
                    {
                        h.2 = s.to_string();
                    }
                    let url = p["request"]["url"].as_str().unwrap_or("").to_string();
                    by_id.push((id, url, "pending".into()));
                }
                "Network.responseReceived" => {
                    if let Some(h) = by_id.iter_mut().rev().find(|h| h.0 == id) {
                        h.2 = p["response"]["status"].as_u64().unwrap_or(0).to_string();
                    }
                }
                "Network.loadingFailed" => {
                    if let Some(h) = by_id.iter_mut().rev().find(|h| h.0 == id) {
                        h.2 = "failed".into();
                    }
                }
                _ => {}
            }
        }
        by_id.into_iter().map(|(_, u, s)| (u, s)).collect()
    }
}

impl Drop for Devtools {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// `network` lists every request of the app with its status: each hop Chromium's own
/// DevTools record has (counted side by side), and on both browsers the statuses the app's
/// server gave: a redirect's two hops, the 404, the 500, the CORS failure, the POST.
fn network_lists_every_request_with_its_status(c: &Ctx) {
    let app = App::start(c);
    c.ok(&["goto", "about:blank"]);
    let devtools = (!firefox()).then(|| Devtools::attach(c));
    open_app(c, &app);
    let list = output(c, &["network"]);
    let got = listed(&list["requests"]);
    assert!(got.len() >= 20, "{} requests: {list:#}", got.len());
    let status_of = |path: &str| -> Vec<String> {
        got.iter()
            .filter(|(_, _, u)| u == path)
            .map(|(_, s, _)| s.clone())
            .collect()
    };
    assert_eq!(status_of("/app.html"), ["200"], "{list:#}");
    assert_eq!(status_of("/api/redirect"), ["302"], "{list:#}");
    assert_eq!(status_of("/api/redirected"), ["200"], "{list:#}");
    assert_eq!(status_of("/api/missing"), ["404"], "{list:#}");
    assert_eq!(status_of("/api/broken"), ["500"], "{list:#}");
    assert_eq!(status_of("/api/order"), ["201"], "{list:#}");
    let other = format!("{}/cors-denied.json", app.other_origin());
    assert_eq!(status_of(&other), ["failed"], "the CORS failure: {list:#}");
    // each request the server answered is listed, as often as it was asked (Firefox asks
    // twice for an image its preloader fetched, under Cache-Control: no-store)
    let hits = app.hits();
    for p in [
        "/app.css",
        "/app.js",
        "/logo.svg",
        "/icon-1.svg",
        "/api/xhr",
        "/api/page?n=3",
    ] {
        let asked = hits.iter().filter(|h| **h == format!("GET {p}")).count();
        assert!(asked >= 1, "{p} never asked: {hits:?}");
        // (Firefox lists the image it shows again from its image cache: "(cache)")
        let from_network: Vec<&str> = list["requests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .filter(|l| l.split_whitespace().nth(4) == Some(p) && !l.contains(" (cache)"))
            .map(|l| l.split_whitespace().nth(2).unwrap())
            .collect();
        assert_eq!(from_network, vec!["200"; asked], "{p}: {list:#} {hits:?}");
    }
    let kinds: Vec<&str> = list["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().split_whitespace().nth(3).unwrap())
        .collect();
    for k in ["document", "stylesheet", "script", "image", "fetch", "xhr"] {
        assert!(kinds.contains(&k), "no {k}: {list:#}");
    }
    // since the last call: nothing new (but the icon Firefox fetches for its tab after the
    // load, which its BiDi reports as the tab's)
    let again = output(c, &["network"]);
    assert!(
        listed(&again["requests"])
            .iter()
            .all(|(_, _, u)| u == "/favicon.ico"),
        "{again:#}"
    );
    // filters
    let errors = output(
        c,
        &["network", "--all", "--status", "4xx,5xx", "--type", "fetch"],
    );
    let paths: Vec<String> = listed(&errors["requests"])
        .into_iter()
        .map(|(_, _, u)| u)
        .collect();
    assert_eq!(paths, ["/api/missing", "/api/broken"], "{errors:#}");
    if let Some(d) = devtools {
        let mut listed_hops: Vec<(String, String)> = got
            .iter()
            .map(|(_, s, u)| {
                let full = if u.starts_with('/') {
                    format!("http://{}{u}", app.own.addr)
                } else {
                    u.clone()
                };
                (full, s.clone())
            })
            .collect();
        // Chromium fetches /favicon.ico for its own UI: DevTools lists that fetch on the page's
        // target, WebDriver BiDi does not report it, and it is not the page's request
        // (docs/reference/network.md#how-it-is-recorded)
        let icon = format!("http://{}/favicon.ico", app.own.addr);
        let hops: Vec<(String, String)> =
            d.hops().into_iter().filter(|(u, _)| *u != icon).collect();
        assert!(hops.len() >= 20, "DevTools saw {}: {hops:?}", hops.len());
        // every hop Chromium recorded is listed, with its status
        for h in &hops {
            let at = listed_hops.iter().position(|l| l == h);
            assert!(
                at.is_some(),
                "{h:?} not listed: {list:#}\nDevTools: {hops:?}"
            );
            listed_hops.remove(at.unwrap());
        }
        eprintln!(
            "network: {} requests listed, {} in Chromium's DevTools record",
            got.len(),
            hops.len()
        );
    }
}

/// `network ID` gives a request whole: the POST's JSON body and the answer's; the HAR of the
/// page passes the HAR 1.2 schema (har-validator) and opens in a HAR reader's parser
/// (pagexray), both npm packages pinned in scripts/npm-pins.sh, run by
/// scripts/har-check.js.
fn a_request_whole_and_the_har_of_the_page(c: &Ctx) {
    let app = App::start(c);
    open_app(c, &app);
    let list = output(c, &["network"]);
    let post = list["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l.as_str().unwrap().contains(" POST 201 "))
        .unwrap_or_else(|| panic!("no POST: {list:#}"));
    let id = post.as_str().unwrap().split_whitespace().next().unwrap();
    let whole = output(c, &["network", id]);
    assert_eq!(whole["method"], "POST", "{whole:#}");
    let sent: Value = serde_json::from_str(whole["requestBody"]["text"].as_str().unwrap())
        .unwrap_or_else(|e| panic!("{e}: {whole:#}"));
    assert_eq!(sent, json!({"item": "apple", "qty": 2}));
    assert!(
        whole["responseBody"]["text"]
            .as_str()
            .unwrap()
            .contains("\"id\": 7"),
        "{whole:#}"
    );
    assert!(
        whole["requestHeaders"].as_array().unwrap().iter().any(|h| h
            .as_str()
            .unwrap()
            .eq_ignore_ascii_case("content-type: application/json")),
        "{whole:#}"
    );
    let dir = tempfile::tempdir().unwrap();
    let har = dir.path().join("app.har");
    let said = output(c, &["network", "--har", har.to_str().unwrap(), "--bodies"]);
    assert!(said.as_str().unwrap().starts_with("HAR 1.2 of "), "{said}");
    let h: Value = serde_json::from_str(&std::fs::read_to_string(&har).unwrap()).unwrap();
    let entries = h["log"]["entries"].as_array().unwrap();
    assert!(entries.len() >= 20, "{} entries", entries.len());
    let items = entries
        .iter()
        .find(|e| {
            e["request"]["url"]
                .as_str()
                .unwrap()
                .ends_with("/api/items")
        })
        .unwrap();
    assert!(
        items["response"]["content"]["text"]
            .as_str()
            .unwrap()
            .contains("Real apple")
    );
    let check = har_check(&har);
    assert!(check.contains("schema: ok"), "{check}");
    assert!(check.contains("viewer: ok"), "{check}");
}

/// Runs scripts/har-check.js on a HAR file; its stdout.
fn har_check(har: &std::path::Path) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let modules = std::env::var_os("ARIASNAP_HAR_TOOLS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(std::path::PathBuf::from)
                .unwrap_or_else(|| {
                    std::path::PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache")
                });
            cache.join("ariasnap/har-tools")
        });
    assert!(
        modules.join("node_modules/har-validator").is_dir(),
        "no har-validator in {}: run `bash scripts/setup.sh` (it installs the npm packages pinned in scripts/npm-pins.sh)",
        modules.display()
    );
    let o = std::process::Command::new("node")
        .arg(root.join("scripts/har-check.js"))
        .arg(har)
        .env("NODE_PATH", modules.join("node_modules"))
        .output()
        .expect("node");
    let out = o.stdout_text();
    assert!(
        o.status.success(),
        "har-check failed: {out}\n{}",
        o.stderr_text()
    );
    out
}

/// A route answers the app's API without the network: the page shows the mocked items, the
/// server never hears of /api/items, the list and the reply name the route; after
/// `unroute` the real items come back. A route can fail requests and delay them too.
fn a_route_mocks_the_api_and_the_page_shows_it(c: &Ctx) {
    let app = App::start(c);
    let said = output(
        c,
        &[
            "route",
            "/api/items",
            "--body",
            r#"[{"name": "Mocked apple"}, {"name": "Mocked pear"}]"#,
        ],
    );
    assert_eq!(said["routed"], "/api/items -> 200 (51 bytes)", "{said}");
    output(c, &["route", "**/icon-*.svg", "--fail"]);
    open_app(c, &app);
    let snap = c.ok(&["snapshot"]);
    assert!(snap.contains("listitem: Mocked apple"), "{snap}");
    assert!(!snap.contains("Real apple"), "{snap}");
    assert!(
        !app.hits().iter().any(|h| h == "GET /api/items"),
        "the server was asked: {:?}",
        app.hits()
    );
    let list = output(c, &["network"]);
    let text = list.to_string();
    assert!(text.contains("/api/items 51 B"), "{list:#}");
    assert!(text.contains("[route /api/items]"), "{list:#}");
    assert!(text.contains("failed image /icon-1.svg"), "{list:#}");
    assert_eq!(list["routes"].as_array().unwrap().len(), 2, "{list:#}");
    let left = output(c, &["unroute"]);
    assert_eq!(left["routes"], json!([]), "{left}");
    open_app(c, &app);
    let snap = c.ok(&["snapshot"]);
    assert!(snap.contains("listitem: Real apple"), "{snap}");
    // nothing to remove is an error that names what there is
    let o = c.run(&["unroute", "/nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stderr_text().contains("no route"));
}

/// A route on an origin the operator's policy blocks answers nothing: the request is
/// refused (reported as blocked), and the blocked origin's server is never reached.
fn a_route_never_reaches_around_the_policy(c: &Ctx) {
    let app = App::start(c);
    let s = "it-route-policy";
    c.track_session(s);
    let blocked = app.other_origin();
    let on = |args: &[&str]| -> String {
        c.ok(&[&["--session", s, "--block-origin", &blocked][..], args].concat())
    };
    on(&["goto", "about:blank"]);
    on(&[
        "route",
        &format!("{blocked}/**"),
        "--body",
        "{\"mocked\": true}",
    ]);
    let r: Value = serde_json::from_str(&on(&["goto", &app.url("app.html")])).unwrap();
    let blocked_urls: Vec<String> = r["steps"][0]["effects"]["blocked"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|b| b["url"].as_str().unwrap().to_string())
        .collect();
    assert!(
        blocked_urls.iter().any(|u| u.ends_with("/cors-ok.json")),
        "{r:#}"
    );
    std::thread::sleep(Duration::from_millis(500));
    let list: Value = serde_json::from_str(&on(&["network", "--all"])).unwrap();
    let text = list.to_string();
    assert!(text.contains("[policy]"), "{list:#}");
    assert!(!text.contains("[route "), "a route answered: {list:#}");
    assert!(app.other.requests().is_empty());
    // the watcher's own files are no sessions
    let list = c.ok(&["session", "list"]);
    assert!(list.lines().any(|l| l.trim() == s), "{list}");
    assert!(!list.contains(".watch"), "{list}");
    let _ = c.run(&["session", "close", s]);
}

/// `console` gives each message its level, text, where and its stack; uncaught errors and
/// rejections are messages too; `--level` filters; each call gives what came since the last.
fn console_gives_levels_and_stacks_since_the_last_call(c: &Ctx) {
    let app = App::start(c);
    open_app(c, &app);
    let all = output(c, &["console"]);
    let msgs = all.as_array().unwrap_or_else(|| panic!("{all:#}"));
    let find = |text: &str| -> &Value {
        msgs.iter()
            .find(|m| m["text"].as_str().unwrap_or("").contains(text))
            .unwrap_or_else(|| panic!("no {text:?}: {all:#}"))
    };
    let js = app.url("app.js");
    for (text, level, line) in [
        ("debug message", "debug", 17),
        ("log message {\"n\":1}", "info", 18),
        ("info message", "info", 19),
        ("warn message", "warn", 20),
        ("error message", "error", 21),
    ] {
        let m = find(text);
        assert_eq!(m["level"], level, "{m}");
        assert_eq!(m["at"], format!("{js}:{line}:11"), "{m}");
        if !firefox() {
            // Firefox gives a console call's innermost frame only
            assert!(m["stack"][1].as_str().unwrap().starts_with("start "), "{m}");
        }
    }
    let thrown = find("exploded on purpose");
    assert_eq!(thrown["uncaught"], true);
    assert_eq!(thrown["level"], "error");
    assert!(
        thrown["at"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{js}:13:")),
        "{thrown}"
    );
    let rejected = find("rejected on purpose");
    assert_eq!(rejected["uncaught"], true, "{rejected}");
    if !firefox() {
        // Firefox gives an unhandled rejection no stack
        assert!(
            rejected["at"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{js}:38:")),
            "{rejected}"
        );
    }
    assert_eq!(output(c, &["console"]), json!([]), "since the last call");
    let warn = output(c, &["console", "--all", "--level", "warn"]);
    assert!(
        warn.as_array()
            .unwrap()
            .iter()
            .all(|m| m["level"] == "warn" || m["level"] == "error"),
        "{warn:#}"
    );
    // an action's effects name the error it caused, with where
    let t = c.ok(&["snapshot"]);
    let order = crate::common::ref_of(&t, "button \"Order\"");
    output(c, &["route", "/api/order", "--fail"]);
    let r: Value = serde_json::from_str(&c.ok(&["click", &order])).unwrap();
    assert_eq!(
        r["steps"][0]["effects"]["routed"][0],
        format!("POST {} (route /api/order)", app.url("api/order")),
        "{r:#}"
    );
    let e = &r["steps"][0]["effects"]["consoleErrors"][0];
    assert!(
        e["text"].as_str().unwrap().starts_with("order failed:"),
        "{r:#}"
    );
    assert!(
        e["at"].as_str().unwrap().starts_with(&format!("{js}:48:")),
        "{r:#}"
    );
    output(c, &["unroute"]);
}

/// The elements `audit` names under rule `id` (its group is keyed `ID (impact, tags)`).
fn violations_of(a: &Value, id: &str) -> Vec<String> {
    a["violations"]
        .as_object()
        .unwrap_or_else(|| panic!("{a:#}"))
        .iter()
        .find(|(k, _)| k.starts_with(&format!("{id} (")))
        .map(|(_, n)| {
            n.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_else(|| panic!("no {id}: {a:#}"))
}

/// `audit`: axe-core's violations grouped by rule, each element by its ref and snapshot
/// line (refs that act), and the keyboard problems axe does not check; a page a keyboard
/// user can use throughout gets no keyboard problem.
fn audit_names_violations_by_ref_and_keyboard_problems(c: &Ctx) {
    c.ok(&["goto", &c.url("html/debug/a11y.html")]);
    let a = output(c, &["audit"]);
    assert_eq!(a["axe"], "4.14.1");
    let rule = |id: &str| violations_of(&a, id);
    let button = rule("button-name");
    assert_eq!(button.len(), 1, "{a:#}");
    let re = regex::Regex::new(r"^button (s\d+e\d+) \(line (\d+)\)$").unwrap();
    let m = re
        .captures(&button[0])
        .unwrap_or_else(|| panic!("{}", button[0]));
    assert!(
        a["violations"]
            .as_object()
            .unwrap()
            .keys()
            .any(|k| k.starts_with("button-name (critical, WCAG 4.1.2): ")),
        "{a:#}"
    );
    assert_eq!(rule("image-alt"), ["img img (no ref)"]);
    assert!(rule("label")[0].starts_with("textbox s"), "{a:#}");
    // the ref acts, and the line is the snapshot's line of that ref
    let snap = a["snapshot"].as_str().unwrap();
    assert!(m[1].starts_with(snap), "{a:#}");
    let kb: Vec<&str> = a["keyboard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(kb.len(), 3, "{kb:#?}");
    assert!(
        kb[0].contains("\"Open menu\"") || kb[0].starts_with("div s"),
        "{kb:#?}"
    );
    assert!(
        kb[0].ends_with("Tab never focuses it (no tabindex)"),
        "{kb:#?}"
    );
    assert!(
        kb[1].ends_with("no key handler: Enter and Space do nothing"),
        "{kb:#?}"
    );
    assert!(
        kb[2].starts_with("region")
            && kb[2].contains("\"Newsletter\"")
            && kb[2].ends_with("focus cannot leave it with Tab (it cycles through 2 elements)"),
        "{kb:#?}"
    );
    c.ok(&["click", &m[1]]);
    // nothing a keyboard user can use is reported
    c.ok(&["goto", &c.url("html/debug/a11y-clean.html")]);
    let clean = output(c, &["audit"]);
    assert_eq!(clean["keyboard"], json!([]), "{clean:#}");
    let only = output(c, &["audit", "--rules", "button-name", "--no-tab"]);
    assert!(
        only["violations"].as_object().unwrap().is_empty(),
        "{only:#}"
    );
}

/// `audit` on what stopped it on real pages (fixtures/html/debug/a11y-frames.html): a frame
/// whose sandbox never answers (Chromium's BiDi, a `javascript:` frame the page's CSP blocks)
/// is counted as not checked, not waited for until the step's deadline (30 s: the step
/// failed with a timeout before); axe's
/// results holding half a surrogate pair (axe cuts a non-BMP attribute mid pair) are read;
/// the other frame and the page are checked and their elements named by ref.
fn audit_survives_a_frame_that_never_answers_and_cut_surrogates(c: &Ctx) {
    c.ok(&["goto", &c.url("html/debug/a11y-frames.html")]);
    let a = output(c, &["audit", "--no-tab"]);
    let rule = |id: &str| violations_of(&a, id);
    // the field whose attribute axe cut mid pair, by its ref
    let label = rule("label");
    assert_eq!(label.len(), 1, "{a:#}");
    assert!(label[0].starts_with("textbox s"), "{a:#}");
    // the frame that answers is checked: its unnamed button, by its ref (a frame's: f<n>s..)
    let button = rule("button-name");
    assert_eq!(button.len(), 1, "{a:#}");
    let re = regex::Regex::new(r"^button f\d+s\d+e\d+ \(line \d+\)$").unwrap();
    assert!(re.is_match(&button[0]), "{a:#}");
    // Chromium never answers in the blocked frame; Firefox does (an empty document)
    let not_checked = a["framesNotChecked"].as_u64().unwrap_or(0);
    if firefox() {
        assert!(not_checked <= 1, "{a:#}");
    } else {
        assert_eq!(not_checked, 1, "{a:#}");
    }
}
