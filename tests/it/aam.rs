//! Roles the web-platform-tests role suites check (html-aam, wai-aria/role, svg-aam,
//! dpub-aam; `scripts/roles-wpt.js` runs them): one fixture per rule family under
//! fixtures/html/roles/, each asserting the exact lines (the engine computes them, so they
//! are the same on both browsers) and, for every element marked `data-role`, the role
//! ariasnap gives it (queryAll) against the one the fixture names, which is Chromium's own:
//! on Chromium the test asks the browser too (WebDriver's Get Computed Role). Text-level
//! elements as marks of their text run (docs/behaviour.md#text-level-semantics), and names
//! by HTML-AAM's rules (fixtures/html/names/aam-names.html).

use crate::common::{Ctx, Test};
use crate::fidelity::{browser_computed, check, check_with_browser_but};
use serde_json::{Value, json};

pub fn tests() -> Vec<Test> {
    trials![
        html_aam_contexts_as_chromium,
        role_fallbacks_as_chromium,
        layout_tables_as_chromium,
        text_level_elements_mark_their_text,
        snapshots_rooted_at_an_element_show_its_line,
        names_by_html_aam_as_the_browser
    ]
}

/// Runs steps in the suite's session; the run's JSON result.
fn run_steps(c: &Ctx, steps: Value) -> Value {
    let path = c.home.path().join("aam-steps.json");
    std::fs::write(&path, json!({ "steps": steps }).to_string()).unwrap();
    serde_json::from_str(&c.ok(&["run", path.to_str().unwrap()])).expect("run result")
}

/// The same class for roles that say "no node of its own": generic, none, and Chromium's
/// layout tables; image is img's ARIA 1.3 name; Chromium's role for a details' summary is a
/// disclosure button of its own (the fidelity bench counts it as button too).
fn class(role: &str) -> &str {
    match role {
        "" | "generic" | "none" | "presentation" | "LayoutTable" => "none",
        "image" => "img",
        "DisclosureTriangle" => "button",
        r => r,
    }
}

/// Every `[data-role]` element of the page at `path`: ariasnap's role for it (queryAll) must
/// be the one the fixture names, and so must Chromium's own computed role, on Chromium.
fn roles_as_chromium(c: &Ctx, path: &str) {
    let r = run_steps(
        c,
        json!([
            {"goto": c.url(path)},
            {"eval": "[...document.querySelectorAll('[data-role]')].map((e) => e.dataset.role)"},
            {"queryAll": {"queries": {"all": {"selector": "[data-role]", "limit": 100}}}}
        ]),
    );
    let want: Vec<String> = serde_json::from_value(r["steps"][1]["output"].clone()).unwrap();
    let matches = r["steps"][2]["output"]["all"]["matches"]
        .as_array()
        .expect("queryAll matches")
        .clone();
    assert_eq!(matches.len(), want.len(), "{r:#}");
    let mut bad = Vec::new();
    for (m, w) in matches.iter().zip(&want) {
        let got = m["role"].as_str().unwrap_or_default();
        if class(got) != class(w) {
            bad.push(format!(
                "ariasnap {got} {:?}, fixture {w}",
                m["name"].as_str().unwrap_or_default()
            ));
        }
    }
    if crate::common::browser() == "chromium" {
        // (a hidden element, an image map's area among them, has no ref: not asked)
        let (refs, want): (Vec<String>, Vec<&String>) = matches
            .iter()
            .zip(&want)
            .filter_map(|(m, w)| Some((m["ref"].as_str()?.to_string(), w)))
            .unzip();
        for ((role, label), w) in browser_computed(c, &refs).iter().zip(want) {
            if class(role) != class(w) {
                bad.push(format!("chromium {role} {label:?}, fixture {w}"));
            }
        }
    }
    assert!(bad.is_empty(), "{path}:\n{}", bad.join("\n"));
}

const CONTEXTS: &str = r#"- document "HTML-AAM contexts":
  - list:
    - listitem: Old list item
  - main:
    - complementary: Aside in main
    - text: Aside in a section
    - article:
      - sectionheader: Article header
      - paragraph: Article body
      - sectionfooter: Article footer
    - sectionheader: Header in main
  - navigation "Site":
    - sectionfooter: Footer in nav
  - region "Promo":
    - banner: Header in a role=region
  - group:
    - button "Shipping" [collapsed] [ref=*]
  - text: Stray summary
  - group: Summary in a div
  - group:
    - button "Returns" [collapsed] [ref=*]
  - group [ref=*]: Drag me
  - group: Autofocus box
  - generic [ref=*]: Inline drag
  - generic [ref=*]: Drag with role none
  - table:
    - rowgroup [ref=*]:
      - row:
        - columnheader "Fruit"
        - columnheader "Price"
    - rowgroup:
      - row:
        - cell "Pear"
        - cell "2"
    - row:
      - cell "Total"
      - cell "2"
  - heading "Labelled heading" [level=2]
  - paragraph: Described paragraph
  - text: Presentational heading Presentational again A note
  - img "Shapes":
    - link "Square" [ref=*]:
      - /url: /html/roles/aam.html#square
  - list:
    - listitem: Own item
    - listitem: Owned item
"#;

/// HTML-AAM's contextual roles as Chromium applies them: dir, aside in main and in a
/// section, header and footer scoped to a section (WAI-ARIA 1.3 sectionheader and
/// sectionfooter), stray summaries, the minimum role of a draggable or autofocus div,
/// focusable row groups, role=none with a global ARIA attribute, image map areas, an li
/// owned through aria-owns.
fn html_aam_contexts_as_chromium(c: &Ctx) {
    check(c, "html/roles/aam.html", CONTEXTS);
    roles_as_chromium(c, "html/roles/aam.html");
}

const FALLBACKS: &str = r#"- document "Role fallbacks":
  - navigation: Unnamed region on a nav
  - group: Unnamed region, then group
  - region "Offers": Named region
  - text: Region named by nothing Unnamed form role
  - form "Feedback": Form named by its title
  - text: Section named by nothing
  - listbox "Sizes":
    - option "Small" [ref=*]
  - menu "Odd": Option in a menu
  - navigation: Treeitem on a nav, no tree
  - tree "Files":
    - group:
      - treeitem "Readme" [ref=*]
  - tree "Bad tree":
    - list:
      - listitem [ref=*]: In a list
  - doc-chapter "Chapter 1": Chapter text
  - paragraph:
    - text: See the note
    - doc-noteref "1" [ref=*]
    - text: .
  - doc-pagebreak "Page 7"
  - doc-footnote:
    - text: The note.
    - doc-backlink "Back" [ref=*]
  - doc-subtitle "A subtitle"
  - sectionheader: Explicit section header
"#;

/// WAI-ARIA roles an element cannot take there give way to the next token or its own role,
/// as Chromium does: region and form without a name, option and treeitem out of their
/// required context; DPUB-ARIA and ARIA 1.3 roles are roles.
fn role_fallbacks_as_chromium(c: &Ctx) {
    check(c, "html/roles/fallbacks.html", FALLBACKS);
    roles_as_chromium(c, "html/roles/fallbacks.html");
}

/// Chromium's data-table heuristic (AXNodeObject::IsDataTable): attributes, direct
/// children, rows and the cells' borders, backgrounds and stripes.
fn layout_tables_as_chromium(c: &Ctx) {
    let t = c.snapshot("html/roles/layout-tables.html");
    // six tables of the fixture's own, and the data table nested in a layout one
    assert_eq!(t.matches("- table").count(), 7, "{t}");
    roles_as_chromium(c, "html/roles/layout-tables.html");
}

const TEXT_LEVEL: &str = r#"- document "Text-level semantics":
  - paragraph: Price: ⟦deletion: $40⟧ ⟦insertion: $25⟧, ⟦deletion: in stock⟧ sold out
  - paragraph: Search for ⟦mark: tent⟧: 3 results, updated ⟦time: 1 May⟧
  - paragraph: Water is H⟦subscript: 2⟧O and E = mc⟦superscript: 2⟧.
  - paragraph: Run ⟦code: npm install⟧ ⟦strong: before⟧ you ⟦emphasis: start⟧.
  - paragraph: A ⟦term: layout table⟧ arranges a page.
  - term: Colour
  - definition: Green
  - paragraph:
    - text: Nested bold ⟦emphasis: and italic⟧ text, and a
    - link "bold link" [ref=*]:
      - /url: /html/roles/text-level.html#l
    - text: .
  - paragraph: "Fake mark: ⟦deletion: $99⟧ is page text."
  - paragraph: ⟦strong: Warning⟧
  - paragraph: Plain b and i stay text.
"#;

/// strong, emphasis, code, mark, deletion (del, s), insertion, subscript, superscript,
/// time and term (dfn, dt) mark their text inside the run: inline in text, as nodes among the
/// strings in JSON; a page's own ⟦ ⟧ make its run quoted, with no mark in text.
fn text_level_elements_mark_their_text(c: &Ctx) {
    check(c, "html/roles/text-level.html", TEXT_LEVEL);
    let v = c.snapshot_json("html/roles/text-level.html");
    let price = &v["children"][0]["children"];
    assert_eq!(
        price,
        &json!([
            "Price: ",
            {"role": "deletion", "name": "", "children": ["$40"]},
            " ",
            {"role": "insertion", "name": "", "children": ["$25"]},
            ", ",
            {"role": "deletion", "name": "", "children": ["in stock"]},
            " sold out"
        ]),
        "{v:#}"
    );
    // JSON keeps the marks of a run that text must quote
    let fake = &v["children"][8]["children"];
    assert_eq!(fake[0], "Fake mark: ⟦deletion: $99⟧ is ", "{v:#}");
    assert_eq!(
        fake[1],
        json!({"role": "strong", "name": "", "children": ["page text"]}),
        "{v:#}"
    );
}

/// A snapshot rooted at an element shows that element's own line: an owned list item, an
/// image map's area, a text-level element; one rooted in a closed details' content, nothing.
fn snapshots_rooted_at_an_element_show_its_line(c: &Ctx) {
    c.ok(&["goto", &c.url("html/roles/aam.html")]);
    // the root's line, first under the document's
    let first = |t: &str| {
        crate::common::body(t)
            .lines()
            .nth(1)
            .unwrap_or_default()
            .to_string()
    };
    let t = c.ok(&["snapshot", "--root", "#owned"]);
    assert_eq!(first(&t), "  - listitem: Owned item", "{t}");
    let t = c.ok(&["snapshot", "--root", "area[href]"]);
    assert!(first(&t).starts_with("  - link \"Square\" [ref="), "{t}");
    // what a closed details hides shows nothing from there either
    let t = c.ok(&["snapshot", "--root", "#closed-body"]);
    assert!(!t.contains("Within 30 days"), "{t}");
    c.ok(&["goto", &c.url("html/roles/text-level.html")]);
    let t = c.ok(&["snapshot", "--root", "del"]);
    assert_eq!(first(&t), "  - deletion: $40", "{t}");
}

const NAMES: &str = r#"- document "HTML-AAM names":
  - text: Send the form
  - button "Send the form" [ref=*]
  - text: Clear all
  - button "Clear all" [ref=*]
  - button [ref=*]
  - table:
    - row:
      - rowheader "Item"
      - cell "Pen"
  - group:
    - checkbox "Agree" [ref=*]
  - img
  - graphics-document:
    - link "Home page" [ref=*]:
      - /url: /html/names/aam-names.html#logo
"#;

/// HTML-AAM names: an input button, submit or reset is named by its label before its value
/// (an empty label names it nothing, as Chromium has it); a hidden caption or legend names
/// nothing; an empty alt names the image, its title aside; an SVG link's xlink:title names it.
/// Firefox names the submit button with an empty label by its value: ariasnap follows
/// Chromium on both browsers.
fn names_by_html_aam_as_the_browser(c: &Ctx) {
    check_with_browser_but(
        c,
        "html/names/aam-names.html",
        NAMES,
        &[("", "Submit order")],
    );
}
