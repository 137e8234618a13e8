//! Hostile pages: a page that replaced the built-ins an injected script would use, and then
//! polluted the prototypes the engine's own replies inherit from, still gets a faithful
//! snapshot, and its refs still act.

use crate::common::{Ctx, Test, Text, normalize_refs, ref_of};
use serde_json::Value;

pub fn tests() -> Vec<Test> {
    trials![
        replaced_builtins_and_polluted_prototypes,
        page_scripts_run_after_the_engine,
        tampered_twin_gives_the_same_lines,
        rewritten_mirror_cannot_redirect_a_click,
        the_mirror_maps_refs_in_every_tree,
        without_bidi_the_snapshot_says_so
    ]
}

const EARLY: &str = r#"- document "Hostile from the first script":
  - heading "Still faithful" [level=1]
  - button "Pay" [ref=*]
  - link "Next page" [ref=*]:
    - /url: /next
"#;

/// The engine runs in its sandbox realm of each new document before the page's scripts
/// (docs/reference/browsers.md#the-page-channel-webdriver-bidi): a page that takes the engine's global name first (it gets it: the engine is
/// not in its realm), breaks the DOM methods a fresh realm needs and fakes getAttribute and
/// getComputedStyle is still read faithfully, and its console messages from the first
/// script on are kept.
fn page_scripts_run_after_the_engine(c: &Ctx) {
    let t = c.snapshot("html/hostile/early.html");
    assert_eq!(normalize_refs(&t), EARLY);
    let pay = ref_of(&t, "button \"Pay\"");
    c.ok(&["click", &pay]);
    let con: Value = serde_json::from_str(&c.ok(&["console"])).unwrap();
    let msgs = con["steps"][0]["output"].to_string();
    assert!(msgs.contains("early-script: ran"), "{con}");
    assert!(!msgs.contains("__ariaRefs was taken"), "{con}");
    c.ok(&["goto", &c.url("html/basic/page.html")]);
}

const LINES: &str = r#"- document "Hostile globals":
  - heading "Still readable" [level=1]
  - text: Query
  - textbox "Query" [ref=*]
  - button "Labelled by id" [ref=*]
  - text: Labelled by id
  - link "Next page" [ref=*]:
    - /url: /next
"#;

fn replaced_builtins_and_polluted_prototypes(c: &Ctx) {
    // JSON.stringify, Array.prototype.push/join, String.prototype.trim, getElementById,
    // getAttribute, getComputedStyle, Map/WeakMap get replaced; `ref` and `u` getters on
    // Object.prototype (they would answer for every absent field)
    let t = c.snapshot("html/hostile/globals.html");
    assert_eq!(normalize_refs(&t), LINES);
    // a real click still lands (the driver's own scripts break on this page: DevTools input)
    let button = ref_of(&t, "button \"Labelled by id\"");
    let r: Value = serde_json::from_str(&c.ok(&["click", &button])).unwrap();
    assert_eq!(r["changes"]["added"][0]["text"], "Clicked", "{r}");
    let field = ref_of(&t, "textbox \"Query\"");
    c.ok(&["fill", &field, "still typed"]);
    // now the page puts toJSON on the prototypes of the engine's own objects and arrays
    c.ok(&[
        "eval",
        "(Object.prototype.toJSON = function () { return 'PWNED-TOJSON' }, Array.prototype.toJSON = function () { return 'PWNED-TOJSON' }, 1)",
    ]);
    let j = c.ok(&["snapshot", "--format", "json", "--no-cache"]);
    assert!(!j.contains("PWNED"), "{j}");
    let v: Value = serde_json::from_str(&j).unwrap();
    assert_eq!(v["children"][0]["name"], "Still readable");
    assert_eq!(v["children"][2]["props"]["value"], "still typed", "{j}");
    let text = c.ok(&["snapshot", "--no-cache"]);
    assert!(
        text.contains("- paragraph: Clicked") && !text.contains("PWNED"),
        "{text}"
    );
    // leave a clean page for the next test
    c.ok(&["goto", &c.url("html/basic/page.html")]);
}

/// docs/reference/browsers.md#the-page-channel-webdriver-bidi (issue 14): the engine runs in its sandbox realm, so a page whose first inline
/// script replaces Array, JSON, getAttribute and querySelectorAll and takes
/// `window.__ariaRefs` gives the same lines as its untampered twin, and its refs act.
fn tampered_twin_gives_the_same_lines(c: &Ctx) {
    let plain = c.snapshot("html/twin/plain.html");
    let tampered = c.snapshot("html/twin/tampered.html");
    assert!(!tampered.contains("PWNED"), "{tampered}");
    assert!(tampered.contains("button \"Pay\""), "{tampered}");
    // clickables made by script are seen whatever the page did to the built-ins after the
    // listener hook took them (docs/behaviour.md#what-a-user-can-click)
    // (their words are their content, never a name: words_ref fails without them)
    for words in ["Open details", "Tip of the day"] {
        crate::common::words_ref(&tampered, "generic", words);
    }
    assert!(!tampered.contains("- generic \""), "{tampered}");
    assert_eq!(normalize_refs(&tampered), normalize_refs(&plain));
    let j = c.ok(&["snapshot", "--format", "json", "--no-cache"]);
    assert!(!j.contains("PWNED"), "{j}");
    // its refs act with real input (BiDi input: no page script takes part, where
    // chromedriver's classic actions run helpers that the replaced built-ins break)
    let email = ref_of(&tampered, "textbox \"Email\"");
    c.ok(&["fill", &email, "ada@example.org"]);
    c.ok(&["press", "Shift+Tab", "--ref", &email]);
    let gift = ref_of(&tampered, "checkbox \"Gift wrap\"");
    c.ok(&["check", &gift]);
    let pay = ref_of(&tampered, "button \"Pay\"");
    c.ok(&["hover", &pay]);
    assert_eq!(
        crate::common::eval(c, "document.querySelector('#pay:hover') !== null"),
        serde_json::json!(true)
    );
    c.ok(&["click", &pay]);
    let after = c.ok(&["snapshot", "--no-cache"]);
    assert!(after.contains("button \"Paid\""), "{after}");
    assert!(after.contains("button \"Cancel\""), "{after}");
    assert!(
        after.contains(&format!("textbox \"Email\" [ref={email}]: ada@example.org")),
        "{after}"
    );
    assert!(
        after.contains("checkbox \"Gift wrap\" [checked]"),
        "{after}"
    );
}

/// The main world's mirror (docs/reference/browsers.md#the-ref-mirror) maps each ref of the document to its element, whether
/// that element is in the document's own tree, in an open shadow tree or in a closed one
/// (the elements of the document's tree cross as events dispatched on them, those in shadow
/// trees by shared id); it has as many entries as the snapshot has refs, and the update
/// leaves nothing on the window. On a page whose `addEventListener` does nothing, no event
/// is caught, and every element crosses by shared id instead: the same mirror.
fn the_mirror_maps_refs_in_every_tree(c: &Ctx) {
    let pages: [(&str, &[(&str, &str)]); 3] = [
        (
            "html/twin/plain.html",
            &[
                ("link \"Home\"", "Home"),
                ("link \"Docs\"", "Docs"),
                ("button \"Pay\"", "Pay"),
                ("button \"Cancel\"", "Cancel"),
            ],
        ),
        (
            "html/shadow/closed.html",
            &[
                ("button \"Pay now\"", "Pay now"),
                ("button \"Continue\"", "Continue"),
                ("link \"Plain link\"", "Plain link"),
            ],
        ),
        (
            "html/shadow/slots.html",
            &[
                ("button \"Shadow action\"", "Shadow action"),
                ("link \"Deep link\"", "Deep link"),
            ],
        ),
    ];
    for silenced in [false, true] {
        for (page, wanted) in pages {
            let t = c.snapshot(page);
            if silenced {
                crate::common::eval(
                    c,
                    "(EventTarget.prototype.addEventListener = function () {}, 1)",
                );
            }
            let all = crate::common::refs_in(&t);
            let keys = crate::common::eval(c, "Object.keys(window.__ariaRefs).sort()");
            let mut want_keys = all.clone();
            want_keys.sort();
            assert_eq!(
                keys,
                serde_json::json!(want_keys),
                "{page} (silenced {silenced})\n{t}"
            );
            for (line, text) in wanted {
                let r = ref_of(&t, line);
                let got =
                    crate::common::eval(c, &format!("window.__ariaRefs['{r}'].textContent.trim()"));
                assert_eq!(got, *text, "{page} {r} (silenced {silenced})");
            }
            let left = crate::common::eval(
                c,
                "Object.getOwnPropertyNames(window).filter(function (k) { return k.indexOf('ariasnap') >= 0; }).length",
            );
            assert_eq!(left, 0, "{page} (silenced {silenced})");
        }
    }
}

/// The page's main world gets a read-only mirror of the ref map for `eval` steps (docs/reference/browsers.md#the-ref-mirror);
/// a page that rewrites its entries, or replaces it, cannot redirect a click: actions
/// resolve refs in the engine's sandbox only.
fn rewritten_mirror_cannot_redirect_a_click(c: &Ctx) {
    let t = c.snapshot("html/twin/plain.html");
    let pay = ref_of(&t, "button \"Pay\"");
    // the mirror holds the ref's element, frozen
    let seen = crate::common::eval(
        c,
        &format!(
            "[window.__ariaRefs['{pay}'] === document.getElementById('pay'), Object.isFrozen(window.__ariaRefs)]"
        ),
    );
    assert_eq!(seen, serde_json::json!([true, true]));
    // rewrite the entry (ignored: frozen), then replace the whole mirror
    crate::common::eval(
        c,
        &format!(
            "(function () {{ var cancel = document.getElementById('cancel'); \
             try {{ window.__ariaRefs['{pay}'] = cancel; }} catch (e) {{}} \
             var fake = {{}}; fake['{pay}'] = cancel; \
             Object.defineProperty(window, '__ariaRefs', {{ value: fake }}); \
             return window.__ariaRefs['{pay}'] === cancel; }})()"
        ),
    );
    c.ok(&["click", &pay]);
    assert_eq!(
        crate::common::eval(c, "window.clicked"),
        serde_json::json!(["pay"])
    );
}

/// A session without WebDriver BiDi (an old grid; `ARIASNAP_BIDI=0` asks for that) still
/// works, with the engine in the page's realm, and its snapshots say so (docs/reference/browsers.md#without-bidi); there a
/// ref the page rewrote in `window.__ariaRefs` is refused, never followed.
fn without_bidi_the_snapshot_says_so(c: &Ctx) {
    const S: &str = "nobidi";
    c.track_session(S);
    let run = |args: &[&str]| {
        c.cmd()
            .env("ARIASNAP_BIDI", "0")
            .args(["--session", S])
            .args(args)
            .output()
            .expect("run ariasnap")
    };
    let url = c.url("html/twin/plain.html");
    let o = run(&["snapshot", &url, "--inline-limit", "0"]);
    assert!(o.status.success(), "{o:?}");
    let t = o.stdout_text();
    assert!(
        t.contains("# no WebDriver BiDi on this driver: the engine runs in the page's own realm"),
        "{t}"
    );
    let pay = ref_of(&t, "button \"Pay\"");
    let o = run(&[
        "eval",
        &format!("(window.__ariaRefs['{pay}'] = document.getElementById('cancel'), 1)"),
    ]);
    assert!(o.status.success(), "{o:?}");
    let o = run(&["click", &pay]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let out = o.stdout_text();
    assert!(out.contains("rewritten by the page"), "{out}");
    // the suite's own session has BiDi: no such note
    let with = c.ok(&["snapshot", &url, "--inline-limit", "0"]);
    assert!(!with.contains("WebDriver BiDi"), "{with}");
}
