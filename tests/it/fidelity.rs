//! Fidelity: one fixture per rule family (roles, names, hidden, shadow DOM, frames), each
//! asserting the exact lines (checked against Chromium's own accessibility tree when written),
//! and hidden content never reaching any output.

use crate::common::{Ctx, SESSION, Test, Text, ref_of};
use serde_json::Value;

pub fn tests() -> Vec<Test> {
    trials![
        roles_exact_lines,
        aria_disabled_inherits_as_the_browser,
        expanded_only_where_the_browser_has_it,
        states_only_where_the_browser_has_them,
        aria_owns_exact_lines,
        names_exact_lines,
        names_from_content_as_chromium,
        scoped_styles_exact_lines,
        hidden_exact_lines,
        shadow_exact_lines,
        frames_exact_lines_and_frame_refs_act,
        hidden_markers_in_no_output,
        closed_shadow_roots_read_and_reported,
        cross_origin_frames_read_by_frame_switching,
        unread_frames_are_named,
        controls_inside_their_own_label_as_the_browser,
        names_of_embedded_controls_as_the_browser,
        names_from_image_titles_as_the_browser,
        names_follow_accname_rules_as_the_browser
    ]
}

/// Refs vary with the snapshot number: `[ref=s3e1]` -> `[ref=*]`, `[ref=f1s3e2]` -> `[ref=f1*]`;
/// the page header (with the fixture server's port) is left out.
fn normalize(t: &str) -> String {
    let t = crate::common::body(t);
    let re = regex::Regex::new(r"\[ref=(f\d+)?s\d+e\d+\]").unwrap();
    re.replace_all(t, "[ref=$1*]").into_owned()
}

pub(crate) fn check(c: &Ctx, path: &str, want: &str) {
    let got = normalize(&c.snapshot(path));
    if got != want {
        let diff = similar::TextDiff::from_lines(want, got.as_str());
        panic!(
            "{path} differs (- expected, + got):\n{}",
            diff.unified_diff()
        );
    }
}

const ROLES: &str = r#"- document "Implicit roles":
  - banner:
    - link "Home" [ref=*]:
      - /url: /
  - navigation "Site":
    - list:
      - listitem:
        - link "A" [ref=*]:
          - /url: /a
      - listitem: Plain item
  - main:
    - text: Unnamed section
    - region "Named section":
      - paragraph: In a region
    - article:
      - sectionheader: Article header
      - sectionfooter: Article footer
    - complementary "Related": Aside text
    - form "Search form":
      - searchbox "Query" [ref=*]
    - text: Anchor without href
    - img "Logo"
    - checkbox "Agree" [ref=*]
    - radio "Pick" [ref=*]
    - slider "Volume" [ref=*]: 30
    - spinbutton "Count" [ref=*]: 3
    - textbox "Mail" [ref=*]
    - combobox "With list" [ref=*]
    - listbox "Multi" [ref=*]:
      - option "M1" [ref=*]
      - option "M2" [selected] [ref=*]
    - status: 42
    - progressbar "Progress": 3
    - separator
    - dialog "Note": Dialog body
    - table "Data":
      - caption: Data
      - row:
        - columnheader "Col"
        - rowheader "Row"
      - row:
        - cell "Cell"
        - cell "Cell 2"
  - contentinfo: Page footer
"#;
const NAMES: &str = r#"- document "Names":
  - text: Billing
  - textbox "Billing address" [ref=*]
  - text: Quantity
  - spinbutton "Quantity items Buy quantity" [ref=*]: 2
  - text: items
  - button "Buy quantity" [ref=*]
  - button "Close dialog" [ref=*]
  - button "★ Starred" [ref=*]
  - link "News (new)" [ref=*]:
    - /url: /html/names/accname.html#
  - button "Save draft" [ref=*]
  - group "Delivery":
    - text: Delivery
    - radio "Fast" [ref=*]
  - figure:
    - img "Chart"
    - text: Sales in 2026
  - button "Submit" [ref=*]
  - button "Reset" [ref=*]
  - button "Submit" [ref=*]
  - textbox "Title only" [ref=*]
  - textbox "Placeholder only" [ref=*]
  - link "Tooltip link" [ref=*]:
    - /url: /html/names/accname.html#
  - button "Delete" [ref=*]
  - paragraph: Cannot be undone
  - button "How long do refunds take?" [ref=*]
  - button "Favourite Fave" [ref=*]
  - button "a-b" [ref=*]
"#;
const HIDDEN: &str = r#"# closed shadow roots: 1 read (closed-host)
- document "Hiding techniques":
  - paragraph: Shown text
  - button "Back in sight" [ref=*]
  - group:
    - button "Open me" [collapsed] [ref=*]
  - button "Contents child" [ref=*]
  - button "by hidden label" [ref=*]
  - text: Closed shown
  - iframe "Other origin":
    - paragraph: Frame shown
"#;
const SHADOW: &str = r#"- document "Shadow DOM":
  - heading "Card title" [level=2]
  - paragraph: Light paragraph
  - button "Shadow action" [ref=*]
  - heading [level=3]
  - link "Deep link" [ref=*]:
    - /url: /html/shadow/slots.html#deep
  - text: User name
  - textbox "User name" [ref=*]
"#;
const FRAMES: &str = r#"- document "Frames":
  - button "Top button" [ref=*]
  - iframe "Payment":
    - text: Card number
    - textbox "Card number" [ref=f1*]
    - button "Pay in frame" [ref=f1*]
"#;

fn roles_exact_lines(c: &Ctx) {
    check(c, "html/roles/implicit.html", ROLES);
}

/// Disabled as Chromium's tree has it (`disabled` of each node in Accessibility.getFullAXTree,
/// checked for every line here): an element's own aria-disabled ("true" or "false", any
/// case, spaces around) decides for any role; an ancestor's reaches focusable elements only
/// (CORE-AAM), the nearest one with a valid value deciding (empty or misspelt values are
/// passed over), along the flat tree (into shadow roots, through slots); a disabled fieldset
/// makes its controls disabled, not its own group node.
const DISABLED: &str = r#"- document "Disabled states":
  - main:
    - button "Inside true" [disabled] [ref=*]
    - group "Nearer false":
      - button "Inside false under true" [ref=*]
    - link "Deep link" [disabled] [ref=*]:
      - /url: /deep
    - button "Upper case" [disabled] [ref=*]
    - button "Own true" [disabled] [ref=*]
    - button "Own false" [ref=*]
    - group "Set":
      - text: Set
      - button "In disabled fieldset" [disabled] [ref=*]
    - button "Plain" [ref=*]
    - heading "Heading below" [level=2]
    - tab "Tab not focusable" [ref=*]
    - tab "Tab focusable" [disabled] [ref=*]
    - button "Div button" [ref=*]
    - text: Anchor without href
    - button "Below an empty value" [disabled] [ref=*]
    - button "Below a misspelt value" [disabled] [ref=*]
    - heading "Own heading" [disabled] [level=2]
    - button "Spaced true" [disabled] [ref=*]
    - button "In a shadow root below true" [disabled] [ref=*]
    - button "Slotted below true" [disabled] [ref=*]
    - button "Slotted below false" [ref=*]
"#;

fn aria_disabled_inherits_as_the_browser(c: &Ctx) {
    check(c, "html/roles/disabled.html", DISABLED);
}

/// aria-expanded shows on the roles Chromium's tree gives an expanded state (links, buttons,
/// tree items, comboboxes...), not on a list, a region or a listbox that carry the attribute
/// (each line checked against Accessibility.getFullAXTree).
const EXPANDED: &str = r#"- document "Expanded states":
  - link "Menu link" [collapsed] [ref=*]:
    - /url: /html/roles/expanded.html#menu
  - button "Open button" [expanded] [ref=*]
  - list "Sub list":
    - listitem: Item
  - region "Panel": Panel text
  - listbox "Choices":
    - option "First" [ref=*]
  - tree "Files":
    - treeitem "Folder" [collapsed] [ref=*]
  - group:
    - button "More" [collapsed] [ref=*]
  - combobox "City" [collapsed] [ref=*]
"#;

/// pressed, checked, selected, required, readonly and level show on the roles Chromium's tree
/// gives them, and an attribute on another role shows nothing (each line checked against
/// Accessibility.getFullAXTree): aria-pressed on buttons only, aria-checked on options and
/// tree items too, no aria-selected on a table's cell, aria-required and aria-readonly on
/// fields and grid parts, not on a region or a checkbox.
const STATES: &str = r#"- document "States by role":
  - button "Bold" [pressed] [ref=*]
  - heading "Not pressable" [level=2]
  - listbox "Toppings":
    - option "Cheese" [checked] [ref=*]
    - option "Olives" [selected] [ref=*]
  - tree "Tasks":
    - treeitem "Done task" [checked] [level=2] [ref=*]
  - table:
    - row:
      - columnheader "Name"
    - row:
      - cell "Cell not selectable"
  - grid "Sheet":
    - row "Locked" [ref=*]:
      - gridcell "Locked" [selected] [readonly] [ref=*]
  - region "Not requirable": r
  - textbox "Note" [required] [readonly] [ref=*]
  - checkbox "Not readonly here" [ref=*]
  - list:
    - listitem [level=3]: Third level item
"#;

fn states_only_where_the_browser_has_them(c: &Ctx) {
    check(c, "html/roles/states.html", STATES);
}

fn expanded_only_where_the_browser_has_it(c: &Ctx) {
    check(c, "html/roles/expanded.html", EXPANDED);
}

fn names_exact_lines(c: &Ctx) {
    check(c, "html/names/accname.html", NAMES);
}

/// Name from content as Chromium composes it (each name checked with
/// Accessibility.getFullAXTree): landmarks, articles, figures and groups give nothing to an
/// ancestor's name unless a labelledby traversal reads them; rows of grids are named from
/// their cells, rows of tables are not; an li under an element with another role is no list
/// item; a label element names its control even when empty or hidden (no placeholder
/// fallback); no title names a paragraph.
const CONTENT: &str = r#"- document "Names from content as Chromium composes them":
  - link [ref=*]:
    - /url: /story
    - article:
      - heading "Story headline" [level=2]
  - link "Photo caption" [ref=*]:
    - /url: /photo
    - figure:
      - img "Harbour at dawn"
    - text: Photo caption
  - link "after nav" [ref=*]:
    - /url: /nav
    - navigation: Inside nav
    - text: after nav
  - button "Ungrouped" [ref=*]:
    - group: Grouped
    - text: Ungrouped
  - link "Listed" [ref=*]:
    - /url: /list
    - list:
      - listitem: Listed
  - link "Footer text" [ref=*]:
    - /url: /foot
    - contentinfo: Footer text
  - article: Read by labelledby
  - button "Read by labelledby" [ref=*]
  - grid "Orders":
    - row "Order 7 Shipped" [ref=*]:
      - gridcell "Order 7" [ref=*]
      - gridcell "Shipped" [ref=*]
  - table "Prices":
    - row:
      - columnheader "Item"
    - row:
      - cell "Tea"
  - tablist "Views": Not an item
  - listitem: Still an item
  - textbox [ref=*]
  - textbox [ref=*]
  - textbox "Unlabelled keeps its placeholder" [ref=*]
  - paragraph: Body text
"#;

fn names_from_content_as_chromium(c: &Ctx) {
    check(c, "html/names/content.html", CONTENT);
}

fn hidden_exact_lines(c: &Ctx) {
    check(c, "html/hidden/markers.html", HIDDEN);
}

fn shadow_exact_lines(c: &Ctx) {
    check(c, "html/shadow/slots.html", SHADOW);
}

fn frames_exact_lines_and_frame_refs_act(c: &Ctx) {
    check(c, "html/frames/same-origin.html", FRAMES);
    let t = c.ok(&["snapshot"]);
    let pay = ref_of(&t, "button \"Pay in frame\"");
    assert!(pay.starts_with("f1s"), "{pay}");
    c.ok(&["click", &pay]);
    let out: Value = serde_json::from_str(&c.ok(&[
        "eval",
        "document.querySelector('iframe').contentDocument.title",
    ]))
    .unwrap();
    assert_eq!(out["steps"][0]["output"], "paid in frame");
}

fn hidden_markers_in_no_output(c: &Ctx) {
    let url = c.url("html/hidden/markers.html");
    let mut outputs = vec![c.ok(&["snapshot", &url, "--inline-limit", "0"])];
    for args in [
        vec!["snapshot", "--format", "json", "--inline-limit", "0"],
        vec![
            "snapshot",
            "--format",
            "json",
            "--verbose",
            "--inline-limit",
            "0",
            "--no-cache",
        ],
        vec!["snapshot", "--format", "yaml", "--inline-limit", "0"],
        vec!["snapshot", "--detail", "interactive"],
        vec!["snapshot", "--detail", "summary"],
        vec!["snapshot", "--flatten", "--query", "[].name"],
        vec!["search", "HIDDEN-M"],
        vec!["search", "--pattern", "M[0-9]+"],
    ] {
        outputs.push(c.ok(&args));
    }
    // the hidden markers were within reach: the closed root and the cross-origin frame
    // around them were read
    assert!(
        outputs[0].contains("Closed shown") && outputs[0].contains("Frame shown"),
        "{}",
        outputs[0]
    );
    for (i, o) in outputs.iter().enumerate() {
        assert!(
            !o.contains("HIDDEN-M"),
            "output {i} leaks hidden text:\n{o}"
        );
    }
    // the searches found nothing at all
    let s: Value = serde_json::from_str(&outputs[7]).unwrap();
    assert_eq!(s["steps"][0]["output"]["total"], 0);
}

const CLOSED: &str = r#"# closed shadow roots: 2 read (pay-widget, login-box)
- document "Closed shadow roots":
  - button "Pay now" [ref=*]
  - paragraph: Light label
  - heading "Sign in" [level=2]
  - button "Continue" [ref=*]
  - link "Plain link" [ref=*]:
    - /url: /html/shadow/closed.html#plain
"#;

fn closed_shadow_roots_read_and_reported(c: &Ctx) {
    check(c, "html/shadow/closed.html", CLOSED);
    // once read, a closed root stays readable without probing again
    let again = normalize(&c.ok(&["snapshot", "--no-cache", "--inline-limit", "0"]));
    assert_eq!(again, CLOSED);
    // and its refs act like any other
    let t = c.ok(&["snapshot"]);
    let pay = ref_of(&t, "button \"Pay now\"");
    c.ok(&["click", &pay]);
}

/// The fixture server listens on 127.0.0.1; `localhost` on the same port is another
/// origin, so the frame is out of the page's reach and is read by frame switching.
const CROSS: &str = r#"- document "Cross-origin frames":
  - button "Top button" [ref=*]
  - iframe "Checkout":
    - text: Email
    - textbox "Email" [ref=f1*]
    - button "Order" [ref=f1*]
    - iframe "Back home":
      - link "Help" [ref=f1001*]:
        - /url: /html/frames/grandchild.html#help
"#;

fn cross_origin_frames_read_by_frame_switching(c: &Ctx) {
    let url = c.url("html/frames/cross-origin.html");
    c.ok(&["goto", &url]);
    // the frames load after the page: wait for the innermost one
    let mut got = String::new();
    for _ in 0..50 {
        got = normalize(&c.ok(&["snapshot", "--no-cache", "--inline-limit", "0"]));
        if got.contains("Help") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(got, CROSS);
    // the refs inside carry the frame's prefix and the JSON keeps them
    let j: Value =
        serde_json::from_str(&c.ok(&["snapshot", "--format", "json", "--inline-limit", "0"]))
            .unwrap();
    let frame = &j["children"][1];
    assert_eq!(frame["role"], "iframe");
    let order = &frame["children"][2];
    assert_eq!(order["name"], "Order");
    assert!(order["ref"].as_str().unwrap().starts_with("f1s"), "{order}");
    // the snapshot left the browsing context where it was: top-level commands still work
    let title: Value = serde_json::from_str(&c.ok(&["eval", "document.title"])).unwrap();
    assert_eq!(title["steps"][0]["output"], "Cross-origin frames");
    // refs inside the cross-origin frame act: real keys reach its field, a real click its button
    let t = c.ok(&["snapshot"]);
    let email = ref_of(&t, "textbox \"Email\"");
    let order = ref_of(&t, "button \"Order\"");
    assert!(email.starts_with("f1s") && order.starts_with("f1s"), "{t}");
    let filled: Value = serde_json::from_str(&c.ok(&["fill", &email, "a@b.example"])).unwrap();
    assert_eq!(
        filled["changes"]["changed"][0]["to"], "a@b.example",
        "{filled}"
    );
    let clicked: Value = serde_json::from_str(&c.ok(&["click", &order])).unwrap();
    assert_eq!(
        clicked["changes"]["added"][0]["text"], "Ordered for a@b.example",
        "{clicked}"
    );
    // element references do not cross browsing contexts: a clear refusal, not a wrong element
    let o = c.run(&["screenshot", "--ref", &order]);
    let err = o.stderr_text();
    assert!(
        !o.status.success() && err.contains("inside a cross-origin frame"),
        "{err}"
    );
}

fn unread_frames_are_named(c: &Ctx) {
    let url = c.url("html/frames/cross-origin.html");
    c.ok(&["goto", &url]);
    let t = c.ok(&["snapshot", "--max-nodes", "4", "--no-cache"]);
    let note = crate::common::line_with(&t, "# frame f1 (");
    assert!(
        note.contains("localhost")
            && note.contains("could not be read: cross-origin, not read: --max-nodes reached"),
        "{t}"
    );
    // a frame showing the browser's error page is named, not entered; a live one beside it
    // is still read
    let url = c.url("html/frames/failed.html");
    c.ok(&["goto", &url]);
    let mut t = String::new();
    for _ in 0..50 {
        t = c.ok(&["snapshot", "--no-cache", "--inline-limit", "0"]);
        // both frames settle on their own: the live one loads, the broken one shows the
        // error page once the connection is refused (Firefox may still hold its initial
        // about:blank when the other is done)
        if t.contains("button \"Order\"")
            && t.contains("# frame f1 (")
            && t.contains("# frame f3 (")
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let note = crate::common::line_with(&t, "# frame f1 (");
    assert!(
        note.contains("(http://127.0.0.1:9/widget.html#x) could not be read: it did not load"),
        "{t}"
    );
    assert!(!t.contains("# frame f2"), "{t}");
    // a failed frame of another site is named the same way, and not entered either
    let far = crate::common::line_with(&t, "# frame f3 (");
    assert!(
        far.contains("(http://localhost:9/far.html) could not be read: it did not load"),
        "{t}"
    );
    let tree: Vec<&str> = t.lines().filter(|l| !l.starts_with('#')).collect();
    let broken = tree
        .iter()
        .position(|l| l.trim_start() == "- iframe \"Broken\"")
        .unwrap_or_else(|| panic!("{t}"));
    // nothing of the error page under it
    assert!(
        tree[broken + 1]
            .trim_start()
            .starts_with("- iframe \"Checkout\""),
        "{t}"
    );
    assert!(t.contains("button \"Order\" [ref=f2s"), "{t}");
    let far = tree
        .iter()
        .position(|l| l.trim_start() == "- iframe \"Far\"")
        .unwrap_or_else(|| panic!("{t}"));
    let depth = |l: &str| l.len() - l.trim_start().len();
    assert!(
        tree.get(far + 1)
            .is_none_or(|l| depth(l) <= depth(tree[far])),
        "nothing of the error page under it: {t}"
    );
}

/// aria-owns as Chromium's tree has it (checked with Accessibility.getFullAXTree): owned
/// elements move under their owner after its own children, in aria-owns order; a second
/// owner, owning an ancestor and owning a hidden element change nothing.
const OWNS: &str = r#"- document "Owned elements":
  - combobox "City" [expanded] [ref=*]:
    - listbox "Cities":
      - option "Paris" [ref=*]
      - option "Rome" [ref=*]
  - paragraph: Between
  - menu "File":
    - menuitem "New" [ref=*]
    - menuitem "Open" [ref=*]
    - menuitem "Close" [ref=*]
  - group "Second owner"
  - group "Outer":
    - group "Inner"
  - group "Box"
"#;

fn aria_owns_exact_lines(c: &Ctx) {
    check(c, "html/roles/owns.html", OWNS);
    // an owned element's ref acts where the element really is
    let t = c.ok(&["snapshot"]);
    let rome = ref_of(&t, "option \"Rome\"");
    c.ok(&["click", &rome]);
    let all = c.ok(&["snapshot", "--format", "json", "--no-cache"]);
    assert!(!all.contains("HIDDEN-OWNED"), "{all}");
}

/// The engine skips style reads a tree scope's sheets cannot need; what only a style
/// attribute, hidden=until-found, a shadow root's own sheet or an adopted sheet sets must
/// still count (checked with Accessibility.getFullAXTree).
const SCOPED: &str = r#"- document "Scoped styles":
  - paragraph:
    - link "SHOUT" [ref=*]:
      - /url: /html/names/scoped-styles.html#s
  - button "Shown again" [ref=*]
  - button "Go now" [ref=*]
  - iframe "Adopted":
    - button "Plain adopted" [ref=f1*]
"#;

fn scoped_styles_exact_lines(c: &Ctx) {
    check(c, "html/names/scoped-styles.html", SCOPED);
    let j = c.ok(&["snapshot", "--format", "json", "--no-cache"]);
    assert!(!j.contains("HIDDEN-"), "{j}");
}

/// WebDriver's Get Computed Role / Get Computed Label of an element (`what` is the endpoint).
#[derive(Debug)]
struct Computed(String, &'static str);

impl fantoccini::wd::WebDriverCompatibleCommand for Computed {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/element/{}/{}",
            session.unwrap_or_default(),
            self.0,
            self.1
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::GET, None)
    }
}

/// The browser's own computed role and label of the element behind each ref of the session's
/// current page, asked through the suite's WebDriver session (the ref map is the page's
/// `window.__ariaRefs`, ref -> element: the engine's own on the classic path, else its
/// read-only mirror, which an `eval` step that names it brings up to date).
pub(crate) fn browser_computed(c: &Ctx, refs: &[String]) -> Vec<(String, String)> {
    crate::common::eval(c, "typeof window.__ariaRefs");
    let rec: Value = serde_json::from_str(
        &std::fs::read_to_string(
            c.home
                .path()
                .join("sessions-v1")
                .join(format!("{SESSION}.json")),
        )
        .expect("session record"),
    )
    .expect("session record JSON");
    let wd = rec["webdriver"]
        .as_str()
        .expect("webdriver URL")
        .to_string();
    let id = rec["session_id"].as_str().expect("session id").to_string();
    let refs = refs.to_vec();
    c.rt.block_on(async move {
        let client = fantoccini::Client::with_existing_session(
            &wd,
            &id,
            hyper_util::client::legacy::connect::HttpConnector::new(),
        )
        .await
        .expect("attach to the suite's session");
        // the session belongs to the suite: dropping this client must not end it
        client.persist().await.expect("persist");
        let mut out = Vec::new();
        for r in refs {
            let el = client
                .execute(
                    "return window.__ariaRefs[arguments[0]];",
                    vec![Value::String(r.clone())],
                )
                .await
                .expect("ref lookup");
            let eid = el
                .as_object()
                .and_then(|o| o.values().next())
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("no element for ref {r}: {el}"))
                .to_string();
            let mut got = Vec::new();
            for what in ["computedrole", "computedlabel"] {
                let v = client
                    .issue_cmd(Computed(eid.clone(), what))
                    .await
                    .unwrap_or_else(|e| panic!("{what} of {r}: {e}"));
                got.push(v.as_str().unwrap_or_default().to_string());
            }
            out.push((got[0].clone(), got[1].clone()));
        }
        out
    })
}

/// Every ref of a JSON snapshot: (ref, role, name).
fn refs_of(v: &Value, out: &mut Vec<(String, String, String)>) {
    if let Some(r) = v["ref"].as_str() {
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        out.push((r.to_string(), s("role"), s("name")));
    }
    for ch in v["children"].as_array().into_iter().flatten() {
        refs_of(ch, out);
    }
}

/// For every element with a ref in a fixture, ariasnap's role and name against the browser's
/// own (Get Computed Role / Label; white space collapsed, as
/// ariasnap writes names). The fixtures hold cases where Chromium and Firefox agree, so this
/// runs unchanged on both. Then the fixture's exact lines.
pub(crate) fn check_with_browser(c: &Ctx, path: &str, want: &str) {
    check_with_browser_but(c, path, want, &[]);
}

/// check_with_browser, where Firefox's own label is known to differ from Chromium's (whose
/// tree ariasnap follows on both browsers): on Firefox, a ref named `ours` must have the
/// label `firefox` there, so a change on either side still fails.
pub(crate) fn check_with_browser_but(c: &Ctx, path: &str, want: &str, firefox: &[(&str, &str)]) {
    let snap = c.snapshot_json(path);
    let mut refs = Vec::new();
    refs_of(&snap, &mut refs);
    assert!(!refs.is_empty(), "{path}: no refs");
    let ids: Vec<String> = refs.iter().map(|r| r.0.clone()).collect();
    let browser = browser_computed(c, &ids);
    // names collapse ASCII white space only: a no-break space stays, in the browsers too
    let ws = regex::Regex::new(r"[ \t\n\r\x0c]+").unwrap();
    let mut bad = Vec::new();
    for ((r, role, name), (brole, blabel)) in refs.iter().zip(&browser) {
        let blabel = ws.replace_all(blabel, " ").trim_matches(' ').to_string();
        let known = firefox.iter().find(|(ours, _)| ours == name);
        if let (Some((_, theirs)), "firefox") = (known, crate::common::browser()) {
            if blabel != *theirs {
                bad.push(format!(
                    "{r}: firefox now labels it {blabel:?}, not {theirs:?}"
                ));
            }
            continue;
        }
        if role != brole || *name != blabel {
            bad.push(format!(
                "{r}: ariasnap {role} {name:?}, {} {brole} {blabel:?}",
                crate::common::browser()
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{path}: roles and names differ from the browser's own:\n{}",
        bad.join("\n")
    );
    check(c, path, want);
}

/// accname 1.2 2C: a control embedded in the content of an element named from its content
/// (a button, a link) or in a label element gives its value; one with no value gives its own
/// name. Chromium and Firefox agree on every line.
const EMBEDDED: &str = r#"- document "Embedded controls":
  - button "100.00% Mute" [ref=*]:
    - slider "volume level" [ref=*]: 100.00%
    - text: Mute
  - button "40 Dim" [ref=*]:
    - slider "Level" [ref=*]: 40
    - text: Dim
  - link "Go abc now" [ref=*]:
    - /url: /html/names/embedded.html#go
    - text: Go
    - textbox "Field" [ref=*]: abc
    - text: now
  - link "Note typed text" [ref=*]:
    - /url: /html/names/embedded.html#note
    - text: Note
    - textbox "Body" [ref=*]: typed text
  - button "Size Large" [ref=*]:
    - text: Size
    - combobox "Size choice" [options=2] [ref=*]: Large
  - button "Query tea" [ref=*]:
    - text: Query
    - searchbox [ref=*]: tea
  - button "Volume twenty" [ref=*]:
    - text: Volume
    - slider [ref=*]: 20
  - button "Count 7" [ref=*]:
    - text: Count
    - spinbutton "How many" [ref=*]: 7
  - button "Pick First" [ref=*]:
    - text: Pick
    - listbox "Choices":
      - option "First" [selected] [ref=*]
      - option "Second" [ref=*]
  - button "draft send" [ref=*]:
    - textbox "Editor" [ref=*]
    - text: send
  - link "Find Query" [ref=*]:
    - /url: /html/names/embedded.html#find
    - text: Find
    - textbox "Query" [ref=*]
  - button "Go where" [ref=*]:
    - text: Go
    - textbox "where" [ref=*]
  - text: Search
  - textbox "Term" [ref=*]
  - text: here
  - textbox "Search Term here" [ref=*]
  - text: Search
  - textbox "Term" [ref=*]: shoes
  - text: here
  - textbox "Search shoes here" [ref=*]
  - text: Ship to
  - textbox "city" [ref=*]
  - text: now
  - textbox "Ship to city now" [ref=*]
"#;

fn names_of_embedded_controls_as_the_browser(c: &Ctx) {
    check_with_browser(c, "html/names/embedded.html", EMBEDDED);
}

/// HTML-AAM: an img with no alt attribute is named by its title, also inside a link's or a
/// button's content; alt, aria-label and the link's own title keep their precedence.
const IMG_TITLE: &str = r#"- document "Image titles":
  - link "Associated Press" [ref=*]:
    - /url: /html/names/img-title.html#ap
    - img "Associated Press"
  - button "Print page" [ref=*]:
    - img "Print"
    - text: page
  - link "Alt text" [ref=*]:
    - /url: /html/names/img-title.html#alt
    - img "Alt text"
  - link "Aria label" [ref=*]:
    - /url: /html/names/img-title.html#aria
    - img "Aria label"
  - link "Link title" [ref=*]:
    - /url: /html/names/img-title.html#own
    - img
  - img "Standalone"
"#;

fn names_from_image_titles_as_the_browser(c: &Ctx) {
    check_with_browser(c, "html/names/img-title.html", IMG_TITLE);
}

/// A control inside its own label (or inside the element its aria-labelledby points at)
/// gives nothing to its own name: the browsers' traversal starts with it visited, so a
/// select there is "Size", not "Size Small Medium".
const SELF_IN_LABEL: &str = r#"- document "Controls inside their own label":
  - text: Size
  - combobox "Size" [options=2] [ref=*]: Medium
  - text: Toppings
  - listbox "Toppings" [ref=*]:
    - option "Cheese" [selected] [ref=*]
    - option "Olives" [ref=*]
  - text: Name
  - textbox "Name" [ref=*]: Ada
  - text: Comment
  - textbox "Comment" [ref=*]: Nice stay
  - text: Volume
  - slider "Volume" [ref=*]: 30
"#;

fn controls_inside_their_own_label_as_the_browser(c: &Ctx) {
    check_with_browser(c, "html/names/self-in-label.html", SELF_IN_LABEL);
}

/// accname 1.2 rules the WPT accname suite checks, one case each (fixtures/html/names/
/// accname-rules.html says which): a no-break space kept, an element in its own
/// aria-labelledby list, a node used by aria-labelledby not read twice, embedded menus and
/// custom comboboxes in a label, aria-owns in content, a slot's own label ignored, a
/// decorative image's title ignored, block and alternative generated content, visible
/// descendants of a visibility:hidden element; and lines for what an author named (a generic,
/// a term, an abbreviation, a row group), as Chromium's tree has them. Every ref's role and
/// name is also checked against the browser's own computed role and label.
const ACCNAME_RULES: &str = r#"- document "Accname rules":
  - button "Save{NBSP}draft" [ref=*]
  - link "Open invoice 42" [ref=*]:
    - /url: /html/names/accname-rules.html#self
  - text: invoice 42
  - button "photo two three" [ref=*]:
    - link "photo" [ref=*]
    - text: two
    - img "photo"
    - text: three
  - paragraph:
    - checkbox "Repeat times" [ref=*]
    - text: Repeat
    - menu:
      - menuitem "2" [ref=*]
    - text: times
  - paragraph:
    - checkbox "Wait 5 minutes" [ref=*]
    - text: Wait
    - combobox "minutes" [ref=*]: 5
    - text: minutes
  - paragraph:
    - checkbox "Ring the bell 3 times" [ref=*]
    - text: Ring the bell
    - combobox "count" [options=2] [ref=*]: 3
    - text: times
  - button "Send now" [ref=*]
  - text: Send now
  - link "Home" [ref=*]:
    - /url: /html/names/accname-rules.html#decor
    - text: Home
    - img
  - button "Step two" [ref=*]
  - checkbox "Left Right" [ref=*]
  - button "Starred item" [ref=*]
  - button "Shown back" [ref=*]
  - generic "Card": Card text
  - term "Term label": Term
  - definition: Definition
  - paragraph:
    - text: Made by the
    - generic "World Wide Web Consortium": W3C
    - text: group
  - table:
    - rowgroup "Heads":
      - row:
        - columnheader "Col"
    - row:
      - cell "Cell"
"#;

/// Where Firefox's own labels differ (ariasnap follows Chromium there, on both browsers):
/// it reads a decorative image's title, and puts no space around a block-level or
/// alternative-text `::before` or around a control inside its own label.
const ACCNAME_RULES_FIREFOX: &[(&str, &str)] = &[
    ("Home", "Home decor"),
    ("Step two", "Steptwo"),
    ("Left Right", "LeftRight"),
    ("Starred item", "Starreditem"),
];

fn names_follow_accname_rules_as_the_browser(c: &Ctx) {
    let want = ACCNAME_RULES.replace("{NBSP}", "\u{a0}");
    check_with_browser_but(
        c,
        "html/names/accname-rules.html",
        &want,
        ACCNAME_RULES_FIREFOX,
    );
}
