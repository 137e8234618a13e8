//! What a user can click besides controls (docs/behaviour.md#what-a-user-can-click), text
//! anywhere on the page for search and select-text, inline text as it reads, cut lines that
//! say how to read the rest, and icon hints (docs/reference/output.md#icon-hints), on the
//! fixtures of `fixtures/html/clickables/` (and Bootstrap's modal of `html/pointer/`, whose
//! backdrop is a clickable without words).

use crate::common::{Ctx, line_with, need_vendor, ref_of, words_ref};
use serde_json::{Value, json};

pub fn tests() -> Vec<crate::common::Test> {
    trials![
        cards_listened_by_script_are_clickables,
        href_less_links_with_listeners_are_links_as_in_chromium,
        spans_of_a_tab_strip_take_clicks,
        a_start_overlay_is_clicked_away,
        a_div_submit_with_an_onclick_property_submits,
        an_onclick_attribute_the_page_policy_refused_is_no_clickable,
        a_react_root_is_no_clickable_its_handlers_are,
        icon_only_controls_get_a_hint_never_a_name,
        long_text_says_what_its_cut_left_and_short_text_is_whole,
        inline_boxes_read_joined_blocks_apart,
        search_finds_text_under_the_body_and_select_text_takes_it,
        search_hands_over_the_controls_of_the_match_card,
        an_added_clickable_without_words_is_counted_as_one
    ]
}

const DIR: &str = "html/clickables/";

fn page(c: &Ctx, name: &str) -> String {
    c.snapshot(&format!("{DIR}{name}"))
}

/// The text of the page's status line (`role=status`), read with `get`.
fn status(c: &Ctx) -> String {
    let t = c.ok(&["snapshot", "--inline-limit", "0"]);
    let l = line_with(&t, "- status");
    l.split_once(": ")
        .map(|(_, v)| v.to_string())
        .unwrap_or_default()
}

fn run_json(c: &Ctx, args: &[&str]) -> Value {
    serde_json::from_str(&c.ok(args)).expect("JSON output")
}

/// Whether a clickable generic shows `words` as its content on its own line (`- generic
/// [clickable] [ref=s1e5]: Security`): a generic is never named by its text (WAI-ARIA 1.2,
/// generic: name prohibited; Chromium's and Firefox's trees hold no name for it).
fn shows_as_content(t: &str, words: &str) -> bool {
    let tail = format!("]: {words}");
    t.lines().any(|l| {
        l.trim_start().starts_with("- generic [clickable] [ref=")
            && l.ends_with(&tail)
            && crate::common::refs_in(l).len() == 1
    })
}

/// Cards made clickable by `addEventListener` and tiles by a pointer cursor are lines with
/// refs; cards that hold a button of their own are containers (the button is the target).
fn cards_listened_by_script_are_clickables(c: &Ctx) {
    let t = page(c, "cards.html");
    // no generic is named by its text: a card's words are the lines under it, a tile's its
    // line's text
    assert!(!t.contains("- generic \""), "{t}");
    for words in ["Basic $4/month 1 user 10 GB", "Pro $12/month 5 users 1 TB"] {
        let r = words_ref(&t, "generic", words);
        assert!(
            t.contains(&format!("- generic [clickable] [ref={r}]:\n")),
            "{r} in\n{t}"
        );
    }
    assert!(shows_as_content(&t, "Desk lamp"), "{t}");
    // the list inside a card is the card's content, not a clickable of its own
    assert!(t.contains("      - listitem: 5 users\n"), "{t}");
    // a card holding its own button is no clickable: the button is what a user clicks
    assert!(!t.contains("\"Monitor $149"), "{t}");
    assert_eq!(t.matches("button \"Add to cart\" [ref=").count(), 2, "{t}");
    // JSON: no name, the text in its children; the words are the ref's identity, so the
    // same card keeps its ref in the next snapshot
    let pro = words_ref(&t, "generic", "Pro ");
    let j = run_json(c, &["snapshot", "--format", "json", "--inline-limit", "0"]);
    let card = find_ref(&j, &pro).unwrap_or_else(|| panic!("{pro} kept in {j}"));
    assert_eq!(card["name"], "", "{card}");
    assert_eq!(card["props"]["clickable"], true, "{card}");
    assert_eq!(card["children"][0]["role"], "heading", "{card}");
    // what is at a point of the card says the same: no name, its words as text
    let at = run_json(
        c,
        &[
            "eval",
            "(() => { const r = document.querySelector('.plan[data-plan=Pro] .price').getBoundingClientRect(); return Math.round(r.left + 2) + ',' + Math.round(r.top + 2); })()",
        ],
    );
    let xy = at["steps"][0]["output"].as_str().unwrap().to_string();
    let at = run_json(c, &["elements-at", &xy]);
    let p = &at["steps"][0]["output"]["points"][0];
    assert_eq!(
        (&p["role"], &p["name"]),
        (&json!("generic"), &json!("")),
        "{p}"
    );
    assert!(
        p["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("Pro $12/month")),
        "{p}"
    );
    assert_eq!(p["hit"]["name"], "", "{p}");
    c.ok(&["click", &pro]);
    assert_eq!(status(c), "Chosen plan: Pro");
    c.ok(&["click", &words_ref(&t, "generic", "Desk lamp")]);
    assert_eq!(status(c), "Opened Desk lamp");
}

/// The node of a JSON snapshot with ref `r`.
fn find_ref<'a>(v: &'a Value, r: &str) -> Option<&'a Value> {
    if v["ref"] == r {
        return Some(v);
    }
    v["children"]
        .as_array()?
        .iter()
        .find_map(|k| find_ref(k, r))
}

/// `<a>` without href but with a click or mousedown listener is a link, in ariasnap's lines
/// and in the browser's own tree (Chromium: Get Computed Role on every ref); one without a
/// listener stays text.
fn href_less_links_with_listeners_are_links_as_in_chromium(c: &Ctx) {
    let t = page(c, "contacts.html");
    for want in [
        "- link \"814-904-8272\" [ref=",
        "- link \"503-555-0142\" [ref=",
        "- link \"lia@example.org\" [ref=",
    ] {
        assert!(t.contains(want), "{want} in\n{t}");
    }
    assert!(t.contains("- text: Show more contacts"), "{t}");
    assert!(!t.contains("link \"Show more"), "{t}");
    let refs: Vec<String> = t
        .lines()
        .filter(|l| l.trim_start().starts_with("- link "))
        .map(|l| crate::common::refs_in(l).remove(0))
        .collect();
    assert_eq!(refs.len(), 4, "{t}");
    if !crate::common::firefox() {
        // Chromium's own tree: every new link line is a link there too
        for (r, (role, label)) in refs.iter().zip(crate::fidelity::browser_computed(c, &refs)) {
            assert_eq!(role, "link", "{r} ({label}) in Chromium's tree");
            assert!(
                t.contains(&format!("link \"{label}\" [ref={r}]")),
                "{r} {label}"
            );
        }
    }
    c.ok(&["click", &ref_of(&t, "link \"814-904-8272\"")]);
    assert_eq!(status(c), "Calling 814-904-8272");
}

/// A tab strip of spans (a pointer cursor and a listener each), and one whose spans take
/// their clicks through one delegated listener on the strip: every span is a target.
fn spans_of_a_tab_strip_take_clicks(c: &Ctx) {
    let t = page(c, "tabs.html");
    for tab in ["Profile", "Security", "Billing", "Day", "Week", "Month"] {
        assert!(shows_as_content(&t, tab), "{tab} in\n{t}");
    }
    // the strips themselves are containers, not clickables
    assert!(!t.contains("\"ProfileSecurity"), "{t}");
    assert!(!t.contains("\"Profile Security"), "{t}");
    c.ok(&["click", &words_ref(&t, "generic", "Security")]);
    let after = c.ok(&["snapshot", "--inline-limit", "0"]);
    assert!(
        after.contains("paragraph: \"Security: password and two-factor sign-in.\"")
            || after.contains("paragraph: Security: password and two-factor sign-in."),
        "{after}"
    );
    c.ok(&["click", &words_ref(&t, "generic", "Week")]);
    let after = c.ok(&["snapshot", "--inline-limit", "0"]);
    assert!(after.contains("paragraph: Showing one week."), "{after}");
}

/// A full-page "start" overlay (a div with a listener) has a ref; clicking it starts the task.
fn a_start_overlay_is_clicked_away(c: &Ctx) {
    let t = page(c, "overlay.html");
    assert!(shows_as_content(&t, "START"), "{t}");
    let start = words_ref(&t, "generic", "START");
    let r = run_json(c, &["click", &start]);
    // the reply names it by its words after its ref, where no name goes; its entry has no
    // name and its words as text
    let summary = r["changes"]["summary"].as_str().unwrap_or_default();
    assert!(
        summary.contains(&format!("Removed generic {start} \"START\".")),
        "{r}"
    );
    let gone = &r["changes"]["removed"][0];
    assert_eq!(
        (&gone["name"], &gone["text"], &gone["ref"]),
        (&json!(""), &json!("START"), &json!(start)),
        "{r}"
    );
    let after = c.ok(&["snapshot", "--inline-limit", "0"]);
    assert!(!after.contains("START"), "{after}");
    assert!(after.contains("(timer started)"), "{after}");
}

/// A Submit drawn as a div whose `onclick` is set from script (not an attribute) has a ref,
/// as the one with an `onclick` attribute does.
fn a_div_submit_with_an_onclick_property_submits(c: &Ctx) {
    let t = page(c, "form.html");
    assert!(shows_as_content(&t, "Submit"), "{t}");
    let submit = words_ref(&t, "generic", "Submit");
    assert!(shows_as_content(&t, "Clear"), "{t}");
    c.ok(&["fill", &ref_of(&t, "textbox \"Name\""), "Ada"]);
    c.ok(&["click", &submit]);
    assert_eq!(status(c), "Thanks, Ada!");
}

/// `onclick` attributes under a Content-Security-Policy that forbids inline scripts make no
/// handler (the browser registers none): no clickable, no link, as in Chromium's tree.
fn an_onclick_attribute_the_page_policy_refused_is_no_clickable(c: &Ctx) {
    let t = page(c, "csp.html");
    assert!(!t.contains("[ref="), "{t}");
    assert!(
        t.contains("- paragraph: Share it: Share on Facebook Share via Email\n"),
        "{t}"
    );
    assert!(t.contains("- text: More options\n"), "{t}");
}

/// React-style delegation: every listener on the root container (both phases), `onclick =
/// noop` on each element with an onClick. The root is no clickable; the todos are.
fn a_react_root_is_no_clickable_its_handlers_are(c: &Ctx) {
    let t = page(c, "react.html");
    for todo in ["Buy milk", "Call the bank", "Book the trip", "Clear all"] {
        assert!(shows_as_content(&t, todo), "{todo} in\n{t}");
    }
    assert_eq!(t.matches("[clickable]").count(), 4, "{t}");
    assert!(
        !t.contains("\"Todos Click"),
        "the root is a clickable:\n{t}"
    );
    c.ok(&["click", &words_ref(&t, "generic", "Call the bank")]);
    let after = c.ok(&["snapshot", "--inline-limit", "0"]);
    assert!(after.contains("paragraph: 1 of 3 done"), "{after}");
}

/// Unnamed icon-only controls say their icon's words as a hint after the ref, never as a
/// name; no words, no hint; a named control gets none.
fn icon_only_controls_get_a_hint_never_a_name(c: &Ctx) {
    let t = page(c, "icons.html");
    for hint in [
        "trash can",
        "star",
        "pencil",
        "reply",
        "forward",
        "archive box",
        "print",
    ] {
        let want = format!("] [icon: {hint}]");
        let l = line_with(&t, &want);
        assert!(l.trim_start().starts_with("- button [ref="), "{l}");
    }
    assert!(t.contains("- generic [clickable] [ref="), "{t}");
    assert!(t.contains("[icon: bell]"), "{t}");
    assert!(t.contains("- button \"Settings\" [ref="), "{t}");
    assert!(!line_with(&t, "\"Settings\"").contains("[icon:"), "{t}");
    // the wordless one: a button line with nothing after its ref
    let bare = t
        .lines()
        .filter(|l| l.trim_start().starts_with("- button [ref=") && !l.contains("[icon:"))
        .count();
    assert_eq!(bare, 1, "{t}");
    // JSON: the hint is a prop, the name stays empty
    let j = c.snapshot_json(&format!("{DIR}icons.html"));
    let mut hints = Vec::new();
    fn walk(v: &Value, out: &mut Vec<(String, String)>) {
        if let Some(h) = v["props"]["icon"].as_str() {
            out.push((v["name"].as_str().unwrap_or("?").to_string(), h.to_string()));
        }
        for k in v["children"].as_array().into_iter().flatten() {
            walk(k, out);
        }
    }
    walk(&j, &mut hints);
    assert_eq!(hints.len(), 8, "{hints:?}");
    assert!(hints.iter().all(|(name, _)| name.is_empty()), "{hints:?}");
}

/// An instruction under 300 characters reads whole, even in a run with a layout table after
/// it (a long run splits at its blocks, short blocks together, up to 600 characters, the rest
/// cut with the ref of what holds the run); a paragraph longer than 300 is cut there, with how
/// much is left and the ref that reads it whole.
fn long_text_says_what_its_cut_left_and_short_text_is_whole(c: &Ctx) {
    let t = page(c, "long.html");
    let instruction = line_with(&t, "To finish this task");
    assert!(
        instruction
            .ends_with("and only then press the button labelled Done at the bottom of the page."),
        "{t}"
    );
    // the first cells of the layout table read whole, the rest is one cut line
    assert!(
        line_with(&t, "Notice 1: Each row").contains("Notice 2: Each row"),
        "{t}"
    );
    let re = regex::Regex::new(r"\[cut: \+(\d+) chars, get ((?:f\d+)?s\d+e\d+)\]: ").unwrap();
    let rest = line_with(&t, "Notice 3: Each row");
    let m = re
        .captures(rest)
        .unwrap_or_else(|| panic!("no cut flag: {rest}"));
    let whole = run_json(c, &["get", &m[2]]);
    let whole = whole["steps"][0]["output"].as_str().unwrap_or_default();
    assert!(whole.contains("Notice 12: Each row"), "{whole}");
    // a long paragraph: cut at 300, the count is what the line left out, its ref reads it
    let l = line_with(&t, "- paragraph [cut: +");
    let m = re.captures(l).unwrap_or_else(|| panic!("no cut flag: {l}"));
    let left: usize = m[1].parse().unwrap();
    let whole = run_json(c, &["get", &m[2]]);
    let whole = whole["steps"][0]["output"].as_str().unwrap_or_default();
    assert!(
        whole.starts_with("Terms of use.") && whole.ends_with("END-OF-TERMS"),
        "{whole}"
    );
    let shown = l.split_once("]: ").unwrap().1;
    assert!(
        shown.starts_with("Terms of use.") && shown.ends_with("..."),
        "{shown}"
    );
    assert_eq!(shown.chars().count() - 3, 300, "{shown}");
    assert_eq!(300 + left, whole.chars().count(), "{whole}");
}

/// Inline boxes without white space read joined (a captcha of inline-block letters, spans
/// of a code), block and flex boxes and spaced inline-blocks read apart.
fn inline_boxes_read_joined_blocks_apart(c: &Ctx) {
    let t = page(c, "inline.html");
    assert!(t.contains("qKKo"), "{t}");
    assert!(!t.contains("q K K o"), "{t}");
    assert!(t.contains("Code: X7yQ"), "{t}");
    assert!(t.contains("New Sale"), "{t}");
    assert!(t.contains("Left Right"), "{t}");
}

/// Text straight under the body is found, with the nearest element that holds it (a ref
/// minted for it), and `select-text` takes it.
fn search_finds_text_under_the_body_and_select_text_takes_it(c: &Ctx) {
    c.snapshot(&format!("{DIR}contacts.html"));
    let r = run_json(c, &["search", "811-282-9499"]);
    let out = &r["steps"][0]["output"];
    assert_eq!(out["total"], 1, "{r}");
    let m = &out["matches"][0];
    let reference = m["ref"].as_str().unwrap_or_else(|| panic!("no ref: {r}"));
    assert!(
        m["context"]
            .as_str()
            .unwrap_or_default()
            .contains("811-282-9499"),
        "{r}"
    );
    let sel = run_json(c, &["select-text", reference]);
    let text = sel["steps"][0]["output"].to_string();
    assert!(text.contains("811-282-9499"), "{sel}");
    // a plain div paragraph is an element of its own
    c.snapshot(&format!("{DIR}long.html"));
    let r = run_json(c, &["search", "recovery codes"]);
    let m = &r["steps"][0]["output"]["matches"][0];
    assert_eq!(m["role"], "generic", "{r}");
    let reference = m["ref"].as_str().unwrap();
    let sel = run_json(c, &["select-text", reference]);
    let text = sel["steps"][0]["output"].to_string();
    assert!(
        text.contains("To finish this task") && !text.contains("Notice"),
        "{sel}"
    );
}

/// `search "Product 137"` hands over the card's "Add to cart" ref (issue 54), and that ref
/// adds product 137.
fn search_hands_over_the_controls_of_the_match_card(c: &Ctx) {
    c.snapshot(&format!("{DIR}shop.html"));
    let r = run_json(c, &["search", "Product 137", "--exact"]);
    let out = &r["steps"][0]["output"];
    let m = &out["matches"][0];
    assert_eq!(m["name"], "Product 137", "{r}");
    let controls = m["controls"].as_array().unwrap_or_else(|| panic!("{r}"));
    assert_eq!(controls.len(), 1, "{r}");
    assert_eq!(controls[0]["name"], "Add to cart", "{r}");
    assert!(m.get("more_controls").is_none(), "{r}");
    c.ok(&["click", controls[0]["ref"].as_str().unwrap()]);
    assert_eq!(status(c), "Cart: Product 137");
}

/// A clickable with no name and no text that an action adds (Bootstrap's modal backdrop,
/// which closes the modal on mousedown) is counted in the summary as what its line says it
/// is, a clickable, not as a focusable element (it takes no focus).
fn an_added_clickable_without_words_is_counted_as_one(c: &Ctx) {
    need_vendor(&["bootstrap"]);
    let t = c.snapshot("html/pointer/bootstrap.html");
    let r = run_json(c, &["click", &ref_of(&t, "button \"Book this cabin\"")]);
    let summary = r["changes"]["summary"].as_str().unwrap_or_default();
    assert!(summary.contains("dialog \"Confirm your booking\""), "{r:#}");
    assert!(
        summary.contains("Added 1 unnamed clickable element."),
        "{r:#}"
    );
    assert!(!summary.contains("focusable"), "{r:#}");
}
