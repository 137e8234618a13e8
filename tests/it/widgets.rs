//! Widgets of the WAI-ARIA Authoring Practices (issue 42): ARIA sliders and spin buttons set
//! with the keys a user presses, SVG content in the tree, select-only and date-picker
//! comboboxes, ARIA listboxes, sorted headers, icon-font glyphs that leave refs alone, and
//! tri-state checkboxes, toggle buttons and menu items. Fixtures: fixtures/html/widgets/.

use crate::common::{Ctx, Test, Text, eval, line_with, ref_of};
use serde_json::{Value, json};
use std::time::Instant;

pub fn tests() -> Vec<Test> {
    trials![
        aria_sliders_are_set_with_keys,
        spin_buttons_are_set_with_keys,
        svg_content_is_walked_as_chromium_shows_it,
        select_only_combobox_shows_and_sets_its_value,
        date_picker_combobox_keeps_the_typed_date,
        listboxes_are_set_by_option_names,
        sort_is_shown_on_headers,
        icon_glyphs_keep_refs,
        tri_state_toggles_and_menu_items_are_set
    ]
}

/// `set REF VALUE` on the command line: the step's output, or its error.
fn set(c: &Ctx, r: &str, value: &str) -> Result<Value, String> {
    let o = c.run(&["set", r, value]);
    let res: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "set {r} {value}: result JSON ({e}): {}\nstderr: {}",
            o.stdout_text(),
            o.stderr_text()
        )
    });
    let step = &res["steps"][0];
    if step["status"] == "ok" {
        assert!(o.status.success(), "{res:#}");
        Ok(step["output"].clone())
    } else {
        assert!(!o.status.success(), "{res:#}");
        Err(step["error"].as_str().unwrap_or_default().to_string())
    }
}

fn set_ok(c: &Ctx, r: &str, value: &str) -> Value {
    let out = set(c, r, value).unwrap_or_else(|e| panic!("set {r} {value}: {e}"));
    with_value(out, value)
}

/// `set`'s output without its `value` means the control read back what was sent
/// (docs/reference/replies.md: no echo); the value is put back here, as sent, so each case
/// states what the control holds.
fn with_value(out: Value, sent: &str) -> Value {
    let mut m = match out {
        Value::Object(m) => m,
        Value::Null => serde_json::Map::new(),
        other => return other,
    };
    if !m.contains_key("value") {
        let v = match sent {
            "true" => json!(true),
            "false" => json!(false),
            s if s.starts_with('[') => serde_json::from_str(s).unwrap_or(json!(s)),
            s => json!(s),
        };
        m.insert("value".into(), v);
    }
    Value::Object(m)
}

fn set_err(c: &Ctx, r: &str, value: &str) -> String {
    match set(c, r, value) {
        Ok(v) => panic!("set {r} {value} should fail, it gave {v}"),
        Err(e) => e,
    }
}

/// The keys the page saw on element `id` since it loaded (the fixture logs them).
fn keys_on(c: &Ctx, id: &str) -> Vec<String> {
    let v = eval(c, "JSON.stringify(window.keysSeen)");
    let all: Vec<String> = serde_json::from_str(v.as_str().unwrap()).unwrap();
    let prefix = format!("{id}:");
    all.into_iter()
        .filter_map(|k| k.strip_prefix(&prefix).map(str::to_string))
        .collect()
}

/// What the page recorded (`window.picked` of pickers.html).
fn picked(c: &Ctx) -> Value {
    let v = eval(c, "JSON.stringify(window.picked)");
    serde_json::from_str(v.as_str().unwrap()).unwrap()
}

/// ARIA sliders (APG slider, multi-thumb slider): `set` reaches the value with the keys a
/// user presses (the page's own key handlers move it; arrows, Page Up/Down for long ways,
/// Home/End for the ends), reads it back from aria-valuenow or aria-valuetext, and names
/// what was asked and what the slider holds when it cannot get there. An SVG thumb in an
/// `<svg role="none">`, a slider that takes only the horizontal arrows and one that shows
/// its value a frame late are set alike.
fn aria_sliders_are_set_with_keys(c: &Ctx) {
    let t = c.snapshot("html/widgets/ranges.html");
    let r = |needle: &str| ref_of(&t, needle);
    let volume = r("slider \"Volume\"");
    assert_eq!(set_ok(c, &volume, "85"), json!({"value": "85"}));
    let keys = keys_on(c, "volume");
    assert!(keys.contains(&"PageUp".to_string()), "{keys:?}");
    assert!(keys.len() < 8, "a long way takes few keys: {keys:?}");
    assert_eq!(set_ok(c, &volume, "0"), json!({"value": "0"}));
    assert_eq!(
        keys_on(c, "volume").last().map(String::as_str),
        Some("Home")
    );
    // off the step grid: the nearest value, and an error naming both
    let e = set_err(c, &volume, "52");
    assert!(
        e.contains("asked for \"52\"")
            && e.contains("now holds \"50\"")
            && e.contains("steps of 5"),
        "{e}"
    );
    // out of range: no key is pressed
    let before = keys_on(c, "volume").len();
    let e = set_err(c, &volume, "120");
    assert!(
        e.contains("asked for \"120\"") && e.contains("it takes 0 to 100"),
        "{e}"
    );
    assert_eq!(keys_on(c, "volume").len(), before);

    // the SVG thermostat: by number and by value text
    let heat = r("slider \"Heating\"");
    assert_eq!(
        set_ok(c, &heat, "25.5"),
        json!({"value": "25.5", "valuetext": "25.5 degrees"})
    );
    assert_eq!(
        set_ok(c, &heat, "12 DEGREES"),
        json!({"value": "12", "valuetext": "12 degrees"})
    );
    let now = c.ok(&["snapshot", "--no-cache"]);
    let line = line_with(&now, "slider \"Heating\"");
    assert!(line.ends_with(&format!("[ref={heat}]:")), "{now}");
    assert!(now.contains("- /value: 12 degrees\n"), "{now}");

    // two thumbs of one range: each stops at the other
    let (low, high) = (r("slider \"Lowest price\""), r("slider \"Highest price\""));
    assert_eq!(set_ok(c, &low, "250"), json!({"value": "250"}));
    let e = set_err(c, &high, "200");
    assert!(e.contains("it takes 250 to 400"), "{e}");
    assert_eq!(set_ok(c, &high, "260"), json!({"value": "260"}));

    // value texts: found by stepping; one never shown is an error, the slider back as it was
    let day = r("slider \"Delivery day\"");
    assert_eq!(
        set_ok(c, &day, "thursday"),
        json!({"value": "3", "valuetext": "Thursday"})
    );
    let e = set_err(c, &day, "Funday");
    assert!(
        e.contains("asked for \"Funday\"")
            && e.contains("now holds \"3 (Thursday)\"")
            && e.contains("from \"Monday\" to \"Sunday\""),
        "{e}"
    );

    // left and right arrows only; a value shown a frame after its key
    let balance = r("slider \"Balance\"");
    assert_eq!(set_ok(c, &balance, "-7"), json!({"value": "-7"}));
    assert!(
        keys_on(c, "balance")
            .iter()
            .all(|k| k == "ArrowLeft" || k == "ArrowRight"),
        "{:?}",
        keys_on(c, "balance")
    );
    // a first step that snaps to the grid is shorter than the others
    let light = r("slider \"Brightness\"");
    assert_eq!(set_ok(c, &light, "80"), json!({"value": "80"}));
    assert!(keys_on(c, "light").len() <= 8, "{:?}", keys_on(c, "light"));
    let zoom = r("slider \"Zoom\"");
    assert_eq!(set_ok(c, &zoom, "150"), json!({"value": "150"}));
    assert_eq!(set_ok(c, &zoom, "50"), json!({"value": "50"}));
}

/// ARIA spin buttons (APG spinbutton): numbers and value texts by their keys, a month that
/// wraps around from December to January included, and errors that name both values.
fn spin_buttons_are_set_with_keys(c: &Ctx) {
    let t = c.snapshot("html/widgets/ranges.html");
    let guests = ref_of(&t, "spinbutton \"Guests\"");
    assert_eq!(set_ok(c, &guests, "7"), json!({"value": "7"}));
    let e = set_err(c, &guests, "9");
    assert!(
        e.contains("asked for \"9\"") && e.contains("now holds \"7\"") && e.contains("1 to 8"),
        "{e}"
    );
    let month = ref_of(&t, "spinbutton \"Month\"");
    assert_eq!(
        set_ok(c, &month, "October"),
        json!({"value": "10", "valuetext": "October"})
    );
    assert_eq!(
        set_ok(c, &month, "march"),
        json!({"value": "3", "valuetext": "March"})
    );
    let start = Instant::now();
    let e = set_err(c, &month, "Smarch");
    assert!(
        e.contains("from \"January\" to \"December\"") && e.contains("now holds \"3 (March)\""),
        "{e}"
    );
    assert!(
        start.elapsed().as_secs() < 10,
        "the wrap-around ends the search"
    );
    let keys = keys_on(c, "month");
    assert!(
        keys.iter()
            .all(|k| k.starts_with("Arrow") || k == "Home" || k == "End" || k.starts_with("Page")),
        "{keys:?}"
    );
}

/// SVG content is in the tree as Chromium's is (SVG-AAM): an svg with nothing inside for
/// the tree is an image named by its title; one with text, a link or named parts is a
/// graphics document holding them, its never-rendered and aria-hidden parts left out; the
/// widgets of an `<svg role="none">` (a `<g role="slider">`...) are there with refs.
fn svg_content_is_walked_as_chromium_shows_it(c: &Ctx) {
    let t = c.snapshot("html/widgets/svg.html");
    for line in [
        "  - img \"Settings\"\n",
        "  - graphics-document \"Sales by quarter\":\n",
        "    - text: Quarter one Quarter two\n",
        "    - graphics-symbol \"Q1: 40 units\"\n",
        "    - group \"Legend\"\n",
    ] {
        assert!(t.contains(line), "no {line:?} in:\n{t}");
    }
    line_with(&t, "    - link \"Details\" [ref=");
    line_with(&t, "  - button \"Zoom in\" [ref=");
    line_with(&t, "  - checkbox \"Show grid\" [checked] [ref=");
    let slider = line_with(&t, "  - slider \"Opacity\" [ref=");
    assert!(slider.ends_with(':'), "{t}");
    assert!(
        t.contains("- /value: 80\n") && t.contains("- text: 80%\n"),
        "{t}"
    );
    for hidden in [
        "never shown",
        "hidden note",
        "Hidden slider",
        "A bar per quarter",
    ] {
        assert!(!t.contains(hidden), "{hidden:?} in:\n{t}");
    }
    // the link inside the svg is followed like any
    let link = ref_of(&t, "link \"Details\"");
    let res = c.ok(&["click", &link]);
    assert!(res.contains("\"status\":\"ok\""), "{res}");
    let url = c.ok(&["get-url"]);
    assert!(url.contains("svg.html#details"), "{url}");
}

/// A select-only combobox (APG combobox-select-only: a focusable div whose text is the
/// option it holds) shows that value as Chromium's tree does, in every detail level and in
/// JSON; `set` opens it, clicks the option by name and reads it back; an option it does not
/// have fails at once (the list is all there) and leaves it closed.
fn select_only_combobox_shows_and_sets_its_value(c: &Ctx) {
    let t = c.snapshot("html/widgets/pickers.html");
    let seat = ref_of(&t, "combobox \"Seat class\"");
    assert!(
        line_with(&t, "combobox \"Seat class\"").ends_with(&format!("[ref={seat}]: Economy")),
        "{t}"
    );
    let i = c.ok(&["snapshot", "--detail", "interactive"]);
    assert!(
        line_with(&i, "combobox \"Seat class\"").ends_with(": Economy"),
        "{i}"
    );
    let j: Value =
        serde_json::from_str(&c.ok(&["snapshot", "--format", "json", "--inline-limit", "0"]))
            .unwrap();
    let flat = j.to_string();
    assert!(
        flat.contains(&format!(
            "\"role\":\"combobox\",\"name\":\"Seat class\",\"ref\":\"{seat}\",\"props\":{{\"expanded\":false,\"value\":\"Economy\"}},\"children\":[]"
        )),
        "{j:#}"
    );
    assert_eq!(
        set_ok(c, &seat, "business"),
        json!({"value": "Business", "option": "Business"})
    );
    assert_eq!(picked(c)["seat"], "Business");
    let start = Instant::now();
    let e = set_err(c, &seat, "Cargo");
    assert!(
        e.contains("\"Cargo\"") && e.contains("Premium economy") && !e.contains("free text"),
        "{e}"
    );
    assert!(
        start.elapsed().as_millis() < 2500,
        "a list that is all there is not waited for"
    );
    let after = c.ok(&["snapshot", "--no-cache"]);
    assert!(
        line_with(&after, "combobox \"Seat class\"").contains("[collapsed]"),
        "{after}"
    );
}

/// A date picker combobox (APG combobox-datepicker: an input whose popup is a dialog with a
/// calendar grid, never a list of options) keeps the date typed: `set` reads the field back
/// without waiting for options that never come, and never takes another list's option for
/// one of its own.
fn date_picker_combobox_keeps_the_typed_date(c: &Ctx) {
    let t = c.snapshot("html/widgets/pickers.html");
    let depart = ref_of(&t, "combobox \"Departure\"");
    let start = Instant::now();
    assert_eq!(
        set_ok(c, &depart, "14/05/2026"),
        json!({"value": "14/05/2026"})
    );
    assert!(
        start.elapsed().as_millis() < 2500,
        "took {:?}",
        start.elapsed()
    );
    assert_eq!(picked(c)["depart"], "14/05/2026");
    // the options of other lists on the page are none of its own
    assert_eq!(set_ok(c, &depart, "Vegan"), json!({"value": "Vegan"}));
    assert_eq!(picked(c)["meal"], Value::Null, "{}", picked(c));
}

/// ARIA listboxes (APG listbox): `set` on the listbox takes an option's name (a list of
/// names for a multi-select one, which becomes exactly the selection), by real clicks on
/// the options; `set` on an option takes true or false like a checkbox, and the selected
/// option of a single-select listbox cannot be unselected by a user.
fn listboxes_are_set_by_option_names(c: &Ctx) {
    let t = c.snapshot("html/widgets/pickers.html");
    let r = |needle: &str| ref_of(&t, needle);
    let meal = r("listbox \"Meal\"");
    assert_eq!(set_ok(c, &meal, "vegan"), json!({"value": "Vegan"}));
    assert_eq!(picked(c)["meal"], json!(["Vegan"]));
    let e = set_err(c, &meal, r#"["Vegan","Standard"]"#);
    assert!(e.contains("selects one option"), "{e}");
    let e = set_err(c, &meal, "Halal");
    assert!(
        e.contains("no option of listbox") && e.contains("Gluten free"),
        "{e}"
    );
    assert_eq!(
        set_ok(c, &r("option \"Standard\""), "true"),
        json!({"value": true})
    );
    let e = set_err(c, &r("option \"Standard\""), "false");
    assert!(e.contains("cannot unselect"), "{e}");
    assert_eq!(picked(c)["meal"], json!(["Standard"]));

    let extras = r("listbox \"Extras\"");
    assert_eq!(
        set_ok(c, &extras, r#"["lounge access", "Checked bag"]"#),
        json!({"value": ["Lounge access", "Checked bag"]})
    );
    assert_eq!(picked(c)["extras"], json!(["Lounge access", "Checked bag"]));
    assert_eq!(
        set_ok(c, &r("option \"Checked bag\""), "false"),
        json!({"value": false})
    );
    assert_eq!(
        set_ok(c, &r("option \"Extra legroom\""), "true"),
        json!({"value": true})
    );
    assert_eq!(
        picked(c)["extras"],
        json!(["Extra legroom", "Lounge access"])
    );
    let now = c.ok(&["snapshot", "--no-cache"]);
    assert!(
        line_with(&now, "option \"Extra legroom\"").contains("[selected]"),
        "{now}"
    );
    assert!(
        !line_with(&now, "option \"Priority boarding\"").contains("[selected]"),
        "{now}"
    );
}

/// aria-sort (WAI-ARIA 1.2) shows as `[sort=ascending|descending|other]` on column and row
/// headers, as Chromium's tree has it (other for an unknown value, nothing for none or an
/// empty value, nothing on cells or buttons), in every detail level and in JSON, and follows
/// the page when a click sorts another column.
fn sort_is_shown_on_headers(c: &Ctx) {
    let t = c.snapshot("html/widgets/tables.html");
    for (needle, flag) in [
        ("columnheader \"Time\"", Some("[sort=ascending]")),
        ("columnheader \"Destination\"", None),
        ("columnheader \"Gate\"", None),
        ("columnheader \"Loud\"", Some("[sort=descending]")),
        ("columnheader \"Custom\"", Some("[sort=other]")),
        ("columnheader \"Empty\"", None),
        ("rowheader \"Row head\"", Some("[sort=descending]")),
        ("cell \"Cell\"", None),
        ("columnheader \"Seat\"", Some("[sort=other]")),
        ("button \"Not a header\"", None),
    ] {
        let line = line_with(&t, needle);
        match flag {
            Some(f) => assert!(line.contains(f), "{line}"),
            None => assert!(!line.contains("[sort"), "{line}"),
        }
    }
    let i = c.ok(&["snapshot", "--detail", "interactive"]);
    assert!(
        i.contains("- columnheader \"Time\" [sort=ascending]\n"),
        "{i}"
    );
    assert!(i.contains("- columnheader \"Seat\" [sort=other]\n"), "{i}");
    let s = c.ok(&["snapshot", "--detail", "summary"]);
    assert!(
        s.contains("- columnheader \"Time\" [sort=ascending]\n"),
        "{s}"
    );
    let j = c.ok(&["snapshot", "--format", "json", "--inline-limit", "0"]);
    assert!(
        j.contains(
            "\"role\":\"columnheader\",\"name\":\"Time\",\"props\":{\"sort\":\"ascending\"}"
        ),
        "{j}"
    );
    let ij = c.ok(&["snapshot", "--detail", "interactive", "--format", "json"]);
    assert!(
        ij.contains("{\"role\":\"columnheader\",\"name\":\"Time\",\"sort\":\"ascending\""),
        "{ij}"
    );
    c.ok(&["click", &ref_of(&t, "button \"Destination\"")]);
    let t = c.ok(&["snapshot", "--no-cache"]);
    assert!(
        line_with(&t, "columnheader \"Destination\"").contains("[sort=ascending]"),
        "{t}"
    );
    assert!(
        !line_with(&t, "columnheader \"Time\"").contains("[sort"),
        "{t}"
    );
}

/// An icon font's glyph (a Private Use Area character from ::before or ::after content) that
/// changes with an element's state changes its name but not its ref: a folder that opens, a
/// star that fills. The name shown is still the browser's, glyph included.
fn icon_glyphs_keep_refs(c: &Ctx) {
    let t = c.snapshot("html/widgets/tree.html");
    let folder = ref_of(&t, "Invoices\" [collapsed]");
    let star = ref_of(&t, "button \"Favourite");
    assert!(
        t.contains("treeitem \"\u{e900}\u{a0}Invoices\" [collapsed]"),
        "{t}"
    );
    c.ok(&["click", &folder]);
    let t = c.ok(&["snapshot", "--no-cache"]);
    let line = line_with(&t, "Invoices\"");
    assert!(
        line.contains("treeitem \"\u{e901}\u{a0}Invoices\" [expanded]")
            && line.contains(&format!("[ref={folder}]")),
        "{t}"
    );
    // a ref of the first snapshot acts, and keeps, though its glyph flips
    assert_eq!(set_ok(c, &star, "true"), json!({"value": true}));
    let t = c.ok(&["snapshot", "--no-cache"]);
    let line = line_with(&t, "button \"Favourite");
    assert!(
        line.contains("\u{f006}\" [pressed]") && line.contains(&format!("[ref={star}]")),
        "{t}"
    );
}

/// Two-state and three-state controls by `set` (APG checkbox-mixed, button, switch,
/// menubar): a tri-state checkbox is clicked until it is as asked ("mixed" is neither), a
/// toggle button (aria-pressed) and a switch made of a button take true and false, and a
/// menu item checked by a click that closes its menu is read back where it is.
fn tri_state_toggles_and_menu_items_are_set(c: &Ctx) {
    let t = c.snapshot("html/widgets/toggles.html");
    let r = |needle: &str| ref_of(&t, needle);
    let all = r("checkbox \"All toppings\" [checked=mixed]");
    assert_eq!(set_ok(c, &all, "false"), json!({"value": false}));
    let now = c.ok(&["snapshot", "--no-cache"]);
    for topping in ["Olives", "Basil", "Chili"] {
        assert!(
            !line_with(&now, &format!("checkbox \"{topping}\"")).contains("[checked]"),
            "{now}"
        );
    }
    assert_eq!(set_ok(c, &all, "true"), json!({"value": true}));
    let now = c.ok(&["snapshot", "--no-cache"]);
    assert!(
        line_with(&now, "checkbox \"Basil\"").contains("[checked]"),
        "{now}"
    );
    assert_eq!(
        set_ok(c, &r("button \"Extra cheese\""), "yes"),
        json!({"value": true})
    );
    assert_eq!(
        set_ok(c, &r("switch \"Stone oven\""), "false"),
        json!({"value": false})
    );
    let now = c.ok(&["snapshot", "--no-cache"]);
    assert!(
        line_with(&now, "button \"Extra cheese\"").contains("[pressed]"),
        "{now}"
    );
    assert!(
        !line_with(&now, "switch \"Stone oven\"").contains("[checked]"),
        "{now}"
    );
    c.ok(&["click", &r("button \"Options\"")]);
    let open = c.ok(&["snapshot", "--no-cache"]);
    let gluten = ref_of(&open, "menuitemcheckbox \"Gluten free\"");
    assert_eq!(set_ok(c, &gluten, "true"), json!({"value": true}));
    let state = eval(
        c,
        "document.getElementById('gluten').getAttribute('aria-checked')",
    );
    assert_eq!(state, "true");
}
