//! Hostile pages: a page that replaced the built-ins an injected script would use, and then
//! polluted the prototypes the engine's own replies inherit from, still gets a faithful
//! snapshot, and its refs still act.

use crate::common::{Ctx, Test, normalize_refs, ref_of};
use serde_json::Value;

pub fn tests() -> Vec<Test> {
    vec![
        (
            "hostile::replaced_builtins_and_polluted_prototypes",
            replaced_builtins,
        ),
        (
            "hostile::page_scripts_run_after_the_engine",
            engine_before_page_scripts,
        ),
    ]
}

const EARLY: &str = r#"- document "Hostile from the first script":
  - heading "Still faithful" [level=1]
  - button "Pay" [ref=*]
  - link "Next page" [ref=*]:
    - /url: /next
"#;

/// The engine runs in each new document of a tab before the page's scripts (goto registers
/// it): a page that takes the engine's global name first, breaks the DOM methods a fresh
/// realm needs and fakes getAttribute and getComputedStyle is still read faithfully, and
/// its console messages from the first script on are kept.
fn engine_before_page_scripts(c: &Ctx) {
    let t = c.snapshot("html/hostile/early.html");
    assert_eq!(normalize_refs(&t), EARLY);
    let pay = ref_of(&t, "button \"Pay\"");
    c.ok(&["click", &pay]);
    let con: Value = serde_json::from_str(&c.ok(&["console"])).unwrap();
    let msgs = con["steps"][0]["output"].to_string();
    assert!(
        msgs.contains("early-script: ran")
            && msgs.contains("early-script: __ariaRefs was taken: TypeError"),
        "{con}"
    );
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

fn replaced_builtins(c: &Ctx) {
    // JSON.stringify, Array.prototype.push/join, String.prototype.trim, getElementById,
    // getAttribute, getComputedStyle, Map/WeakMap get replaced; `ref` and `u` getters on
    // Object.prototype (they would answer for every absent field)
    let t = c.snapshot("html/hostile/globals.html");
    assert_eq!(normalize_refs(&t), LINES);
    // a real click still lands (the driver's own scripts break on this page: DevTools input)
    let button = ref_of(&t, "button \"Labelled by id\"");
    let r: Value = serde_json::from_str(&c.ok(&["click", &button])).unwrap();
    assert_eq!(r["changes"]["added"][1]["text"], "Clicked", "{r}");
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
