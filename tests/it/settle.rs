//! Settling on the work an action started (docs/reference/replies.md#settling): the reply
//! waits for what the action scheduled (a submenu's hover timer, an autocomplete's debounce
//! and its request), names what a re-render replaced with the new refs, neither waits for
//! nor reports the page's own background work (a poll), follows the agent's script (`eval`)
//! as it follows input, and follows a navigation it started to the new document. Asserted
//! on what the reply says, never on how long it took.

use crate::common::{Ctx, Test, ref_of};
use serde_json::Value;

pub fn tests() -> Vec<Test> {
    trials![
        a_hover_names_the_submenu_its_timer_opens,
        typing_names_the_suggestions_its_debounce_brings,
        a_re_rendered_calendar_is_named_with_its_new_refs,
        a_click_does_not_report_the_pages_own_poll,
        an_agents_script_is_followed_as_input_is,
        a_form_posted_to_a_slow_server_replies_on_its_answer,
        a_page_that_loads_its_content_by_a_request_is_read_with_it
    ]
}

fn json(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn summary(r: &Value) -> String {
    r["changes"]["summary"].as_str().unwrap_or("").to_string()
}

/// The first ref after `label` (`menuitem "Shoes" s3e4`) in a summary.
fn ref_after(summary: &str, label: &str) -> String {
    let at = summary
        .find(label)
        .unwrap_or_else(|| panic!("no {label} in: {summary}"));
    summary[at + label.len()..]
        .split([',', ')', '.', ' '])
        .find(|w| w.starts_with('s') && w.contains('e'))
        .unwrap_or_else(|| panic!("no ref after {label} in: {summary}"))
        .to_string()
}

/// The submenu opens 300 ms after the pointer rests on its item: `hover` replies with the
/// menu and its items' refs (before, it replied "No change"), and a ref from the reply works.
fn a_hover_names_the_submenu_its_timer_opens(c: &Ctx) {
    let t = c.snapshot("html/settle/hover-menu.html");
    let women = ref_of(&t, "menuitem \"Women\"");
    let r = json(&c.ok(&["hover", &women]));
    let s = summary(&r);
    assert!(s.contains("Opened menu \"Women\""), "{s}");
    let shoes = ref_after(&s, "menuitem \"Shoes\"");
    let r = json(&c.ok(&["click", &shoes]));
    assert_eq!(r["status"], "ok", "{r:#}");
}

/// The suggestions come 400 ms after the last key, from a request: typing replies with the
/// listbox and its options' refs.
fn typing_names_the_suggestions_its_debounce_brings(c: &Ctx) {
    let t = c.snapshot("html/settle/autocomplete.html");
    let q = ref_of(&t, "combobox \"Station\"");
    let r = json(&c.ok(&["type", "Pa", "--ref", &q]));
    let s = summary(&r);
    assert!(s.contains("Opened listbox \"Stations\""), "{s}");
    let parma = ref_after(&s, "option \"Parma\"");
    let got = json(&c.ok(&["get", &parma]));
    assert_eq!(got["steps"][0]["output"], "Parma", "{got:#}");
    assert!(!s.contains("Victoria"), "{s}");
}

/// "Next month" re-renders the whole grid: February and March 2026 both start on a Sunday,
/// so the first weeks are new elements with the same roles and names. The reply names the
/// new days with their refs, and one of them picks the day (the old refs are gone).
fn a_re_rendered_calendar_is_named_with_its_new_refs(c: &Ctx) {
    let t = c.snapshot("html/settle/calendar.html");
    let next = ref_of(&t, "button \"Next month\"");
    let old8 = ref_of(&t, "link \"8\"");
    let r = json(&c.ok(&["click", &next]));
    let s = summary(&r);
    assert!(s.contains("Re-rendered grid \"March 2026\""), "{s}");
    let days = r["changes"]["rerendered"][0]["controls"]
        .as_array()
        .unwrap_or_else(|| panic!("no rerendered controls: {r:#}"));
    let day8 = days
        .iter()
        .find(|d| d["role"] == "link" && d["name"] == "8")
        .unwrap_or_else(|| panic!("no link \"8\": {r:#}"));
    let new8 = day8["ref"].as_str().unwrap().to_string();
    assert_ne!(new8, old8);
    let r = json(&c.ok(&["click", &new8]));
    assert!(summary(&r).contains("Picked March 8, 2026"), "{r:#}");
    // the short reply an agent reads (--format text) names every new day with its ref too
    let t = c.snapshot("html/settle/calendar.html");
    let next = ref_of(&t, "button \"Next month\"");
    let text = c.ok(&["--format", "text", "click", &next]);
    let day20 = text
        .split("link \"20\" ")
        .nth(1)
        .and_then(|rest| rest.split([',', ')', ';']).next())
        .unwrap_or_else(|| panic!("no day 20 with its ref in: {text}"))
        .to_string();
    let r = json(&c.ok(&["click", &day20]));
    assert!(summary(&r).contains("Picked March 20, 2026"), "{r:#}");
}

/// The page polls every 500 ms and rewrites two paragraphs each time; a click adds a note
/// at once. Over several clicks (each a chance for a poll to land while it settles), every
/// reply names the note and nothing of the poll.
fn a_click_does_not_report_the_pages_own_poll(c: &Ctx) {
    let t = c.snapshot("html/settle/poll.html");
    let add = ref_of(&t, "button \"Add a note\"");
    for i in 1..=8 {
        let r = json(&c.ok(&["click", &add]));
        let s = summary(&r);
        assert!(s.contains(&format!("Note {i}")), "{s}");
        assert!(!s.contains("Checked") && !s.contains("tick"), "{s}");
        assert!(!r.to_string().contains("Order 1042"), "{r:#}");
    }
}

/// The agent's own script is followed as input is: an `eval` that sets a timer (300 ms) or
/// starts a request replies once that work has run, so the next step reads what it made
/// (before, an `eval` settled on 120 ms of quiet, and the timer had not run by its reply).
/// The page's own poll runs meanwhile, as in the test above.
fn an_agents_script_is_followed_as_input_is(c: &Ctx) {
    c.snapshot("html/settle/poll.html");
    let read = |what: &str| -> Value {
        let r = json(&c.ok(&["eval", what]));
        r["steps"][0]["output"].clone()
    };
    for i in 1..=3 {
        let timer = format!(
            "(setTimeout(function () {{ var li = document.createElement('li'); \
             li.textContent = 'Scripted {i}'; document.getElementById('notes').appendChild(li); }}, 300), 1)"
        );
        c.ok(&["eval", &timer]);
        let notes = read("document.getElementById('notes').textContent");
        assert!(
            notes
                .as_str()
                .is_some_and(|t| t.contains(&format!("Scripted {i}"))),
            "the eval replied before its timer ran: {notes}"
        );
    }
    let request = "(fetch('poll.json?scripted').then(function (r) { return r.json(); }) \
         .then(function (d) { document.body.dataset.scripted = d.latest; }), 1)";
    c.ok(&["eval", request]);
    let got = read("document.body.dataset.scripted || null");
    assert!(
        got.is_string(),
        "the eval replied before its request's answer: {got}"
    );
}

/// A server whose form posts to `/sent`, answered 700 ms later (far longer than any quiet
/// period), and whose link `/empty` is answered 204 (No Content) 100 ms later: a navigation
/// that ends without a new document.
fn slow_form_server() -> crate::common::HttpServer {
    use crate::common::Answer;
    crate::common::HttpServer::start(|r| match r.path.as_str() {
        "/" => Answer::html(
            "<!doctype html><title>Form</title><form method=\"post\" action=\"/sent\">\
             <label>Name <input name=\"name\" value=\"Ada\"></label>\
             <button>Send</button></form><a href=\"/empty\">Check</a>",
        ),
        "/sent" => {
            std::thread::sleep(std::time::Duration::from_millis(700));
            Answer::html("<!doctype html><title>Sent</title><h1>Thanks, Ada</h1>")
        }
        "/empty" => {
            std::thread::sleep(std::time::Duration::from_millis(100));
            Answer::new("204 No Content", "text/plain", "")
        }
        _ => Answer::not_found(),
    })
}

/// A click whose form posts to a slow server replies on the answer's page, so the next
/// command reads the new document, not the old one that stays shown while the request is
/// out (the page's `navigate` event said a navigation left it). A link answered 204 starts
/// a navigation that never gets a document: its click replies on the same page, and the
/// page still works.
fn a_form_posted_to_a_slow_server_replies_on_its_answer(c: &Ctx) {
    let server = slow_form_server();
    let t = c.ok(&["snapshot", &server.url("/"), "--detail", "interactive"]);
    let r = json(&c.ok(&["click", &ref_of(&t, "button \"Send\"")]));
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["context"]["url"], server.url("/sent"), "{r:#}");
    let title = json(&c.ok(&["eval", "document.title"]));
    assert_eq!(title["steps"][0]["output"], "Sent", "{title:#}");
    assert!(server.paths().iter().any(|p| p == "/sent"));

    // what the reply waits on: the work hook sees the navigation in the page, where it
    // begins, even when the form's navigation task runs after the host's first poll closed
    // the action's window (the browser's own event reaches the host 15 to 25 ms later)
    c.ok(&["goto", &server.url("/")]);
    let probe = "(async () => { const w = window[Symbol.for('ariasnap.work')]; \
                 w('begin', 'probe', true, true); w('poll', 'probe'); \
                 document.forms[0].requestSubmit(); \
                 await new Promise((r) => setTimeout(r, 50)); \
                 return JSON.parse(w('poll', 'probe')); })()";
    let polled = json(&c.ok(&["eval", probe]));
    let p = &polled["steps"][0]["output"];
    assert_eq!(
        (&p["navs"], &p["nav"]),
        (&Value::Bool(true), &Value::Bool(true)),
        "{polled:#}"
    );

    let t = c.ok(&["snapshot", &server.url("/"), "--detail", "interactive"]);
    let r = json(&c.ok(&["click", &ref_of(&t, "link \"Check\"")]));
    assert_eq!(r["status"], "ok", "{r:#}");
    assert_eq!(r["context"]["url"], server.url("/"), "{r:#}");
    assert!(r["steps"][0]["effects"]["download"].is_null(), "{r:#}");
    assert!(server.paths().iter().any(|p| p == "/empty"));
    let t = c.ok(&["snapshot", "--detail", "interactive"]);
    assert!(t.contains("button \"Send\""), "{t}");
    drop(server);
}

/// A page whose script asks the server for its content when it starts, answered 400 ms
/// later (longer than any quiet period): the snapshot of its `goto` has the content, since a
/// navigation settles on the start-up requests of the document it loaded; and so does the
/// reply of a click on a link to it.
fn a_page_that_loads_its_content_by_a_request_is_read_with_it(c: &Ctx) {
    use crate::common::Answer;
    let page = "<!doctype html><title>Late</title><main><h1>Orders</h1>\
        <p id=\"st\">Loading</p></main><a href=\"/again\">Again</a>\
        <script>fetch('/data').then((r) => r.json()).then((d) => {\
        document.getElementById('st').textContent = d.text; });</script>";
    let server = crate::common::HttpServer::start(move |r| match r.path.as_str() {
        "/" | "/again" => Answer::html(page),
        "/data" => {
            std::thread::sleep(std::time::Duration::from_millis(400));
            Answer::new(
                "200 OK",
                "application/json",
                "{\"text\": \"3 orders shipped\"}",
            )
        }
        _ => Answer::not_found(),
    });
    let t = c.ok(&["snapshot", &server.url("/")]);
    assert!(t.contains("3 orders shipped"), "{t}");
    let again = ref_of(&t, "link \"Again\"");
    let r = json(&c.ok(&["click", &again]));
    assert_eq!(r["context"]["url"], server.url("/again"), "{r:#}");
    let t = c.ok(&["snapshot"]);
    assert!(t.contains("3 orders shipped"), "{t}");
    drop(server);
}
