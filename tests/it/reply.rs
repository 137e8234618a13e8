//! The reply after an action (docs/reference/replies.md#changes, "Changes are the page's changes"): what the page did,
//! wherever it is, and nothing else. Content that only scrolled into or out of view is no
//! change, a scroll is one fact, a dialog is named with its text, a widget's new state leads,
//! new controls come with their refs, a changed text run is one change, a live region showing
//! its old text again announces nothing, and a failed step claims no change. On pages shaped
//! like real ones: a long shop page with a sticky header, a docs page around widgets.

use crate::common::{Ctx, Test, Text, ref_of};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

pub fn tests() -> Vec<Test> {
    trials![
        an_alert_below_the_fold_is_its_text_and_a_scroll,
        the_mcp_reply_to_that_click_is_under_200_bytes,
        scrolling_a_widget_into_view_is_no_change,
        widget_states_lead_and_new_controls_come_with_refs,
        dialogs_open_with_their_text_and_old_text_is_no_news,
        new_items_and_changed_text_are_one_entry_each,
        a_failed_step_claims_no_change
    ]
}

const SHOP: &str = "html/reply/long-shop.html";
const DOCS: &str = "html/reply/docs-widgets.html";

fn json(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

/// Runs an action command and returns its result.
fn act(c: &Ctx, args: &[&str]) -> Value {
    json(&c.ok(args))
}

fn summary(r: &Value) -> String {
    r["changes"]["summary"].as_str().unwrap_or("").to_string()
}

fn entries(r: &Value, key: &str) -> Vec<Value> {
    r["changes"][key].as_array().cloned().unwrap_or_default()
}

/// The issue's long shop page: a click whose only effect is an alert, on a button far below
/// the fold behind a sticky header, replied `Clicked. 27 added (...), 286 removed (...)`.
fn an_alert_below_the_fold_is_its_text_and_a_scroll(c: &Ctx) {
    let t = c.ok(&[
        "snapshot",
        &c.url(SHOP),
        "--detail",
        "interactive",
        "--inline-limit",
        "0",
    ]);
    let r = act(c, &["click", &ref_of(&t, "button \"Returns policy\"")]);
    let s = summary(&r);
    let scroll = r["context"]["scroll"][1].as_i64().unwrap();
    assert!(scroll > 1000, "the button is far below the fold: {r}");
    assert_eq!(
        s,
        format!(
            "Clicked. Dialog \"Returns are accepted within 30 days of delivery.\" dismissed. Scrolled to 0,{scroll}."
        ),
        "{r:#}"
    );
    assert!(s.len() <= 200, "{}", s.len());
    for key in ["added", "removed", "changed"] {
        assert!(entries(&r, key).is_empty(), "{key}: {r:#}");
    }
    assert_eq!(r["changes"]["scrolled"]["to"][1], scroll, "{r:#}");
}

/// The same click through `ariasnap mcp`: the text an agent reads is the summary alone.
fn the_mcp_reply_to_that_click_is_under_200_bytes(c: &Ctx) {
    let cmd = crate::mcp::stdio_server(c, &[]);
    let url = c.url(SHOP);
    c.rt.block_on(async move {
        let client = ()
            .serve(TokioChildProcess::new(cmd).expect("spawn ariasnap mcp"))
            .await
            .expect("initialize");
        let text = crate::mcp::text_of;
        let call = |name: &'static str, v: Value| {
            let params = CallToolRequestParams::new(name)
                .with_arguments(v.as_object().cloned().unwrap_or_default());
            client.call_tool(params)
        };
        let r = call("browser_navigate", json!({"url": url})).await.unwrap();
        assert_eq!(r.is_error, Some(false), "{r:?}");
        let r = call(
            "browser_search",
            json!({"text": "Returns policy", "role": "button"}),
        )
        .await
        .unwrap();
        let found = text(&r);
        let at = found.find("[ref=").expect("a ref") + 5;
        let rf = &found[at..at + found[at..].find(']').unwrap()];
        let r = call("browser_click", json!({"ref": rf})).await.unwrap();
        let t = text(&r);
        assert!(t.len() <= 200, "{} bytes: {t}", t.len());
        assert!(
            t.starts_with(
                "Clicked. Dialog \"Returns are accepted within 30 days of delivery.\" dismissed. Scrolled to 0,"
            ),
            "{t}"
        );
        client.cancel().await.expect("disconnect");
    });
}

/// Setting a combobox far down a docs page scrolls it into view: the reply is its new value
/// and the scroll, not the headings, links and text that moved in and out of the viewport.
fn scrolling_a_widget_into_view_is_no_change(c: &Ctx) {
    let t = c.snapshot(DOCS);
    let state = ref_of(&t, "combobox \"State\"");
    let r = act(c, &["set", &state, "Alaska"]);
    let s = summary(&r);
    assert!(
        s.starts_with(&format!(
            "Set combobox \"State\" {state}: value \"Alaska\"."
        )),
        "{r:#}"
    );
    assert!(s.contains(" Scrolled to 0,"), "{s}");
    assert!(entries(&r, "added").is_empty(), "{r:#}");
    assert!(entries(&r, "removed").is_empty(), "{r:#}");
    let changed = entries(&r, "changed");
    assert_eq!(changed.len(), 1, "{r:#}");
    assert_eq!(
        changed[0],
        json!({"role": "combobox", "name": "State", "ref": state, "field": "value", "from": null, "to": "Alaska"})
    );
}

/// The acted element's new state leads; what opened comes with its controls' refs (a menu
/// whose items open below the fold too); the effect elsewhere comes with its value.
fn widget_states_lead_and_new_controls_come_with_refs(c: &Ctx) {
    let t = c.snapshot(DOCS);
    // accordion: the header expanded, its panel's fields to fill
    let billing = ref_of(&t, "button \"Billing address\"");
    let r = act(c, &["click", &billing]);
    let s = summary(&r);
    assert!(
        s.starts_with(&format!(
            "Clicked button \"Billing address\" {billing}: expanded. Added region \"Billing address\" (textbox \"Street\" "
        )),
        "{s}"
    );
    let added = entries(&r, "added");
    assert_eq!(added.len(), 1, "{r:#}");
    assert_eq!(added[0]["controls"].as_array().unwrap().len(), 3, "{r:#}");
    assert_eq!(entries(&r, "changed").len(), 1, "{r:#}");
    // listbox: the option clicked is selected, the one before is not
    let am = ref_of(&t, "option \"Americium\"");
    let ne = ref_of(&t, "option \"Neptunium\"");
    let s = summary(&act(c, &["click", &am]));
    assert!(
        s.starts_with(&format!(
            "Clicked option \"Americium\" {am}: selected. Changed option \"Neptunium\" {ne} unselected."
        )),
        "{s}"
    );
    // menu button: the menu opens (its items have refs to act on at once), an item's effect
    // is named with its value
    let actions = ref_of(&t, "button \"Actions\"");
    let r = act(c, &["click", &actions]);
    let s = summary(&r);
    assert!(
        s.starts_with(&format!(
            "Clicked button \"Actions\" {actions}: expanded. Opened menu \"Actions\": menuitem \"Action 1\" "
        )),
        "{s}"
    );
    let menu = &entries(&r, "added")[0];
    let items = menu["controls"].as_array().unwrap();
    assert_eq!(items.len(), 4, "{r:#}");
    let three = items[2]["ref"].as_str().unwrap().to_string();
    assert!(s.contains(&format!("menuitem \"Action 3\" {three}")), "{s}");
    let s = summary(&act(c, &["click", &three]));
    assert!(s.contains("Closed menu \"Actions\"."), "{s}");
    assert!(
        s.contains("textbox \"Last action\" ") && s.contains(" value \"Action 3\""),
        "{s}"
    );
    // sortable table: the rows a sort moved are one change
    let nights = ref_of(&t, "button \"Nights\"");
    let r = act(c, &["click", &nights]);
    assert!(
        summary(&r).contains("table \"Guests\" rows reordered"),
        "{r:#}"
    );
    assert!(entries(&r, "added").is_empty() && entries(&r, "removed").is_empty());
}

/// A modal dialog opens with its text and first field (focused), and the page it makes inert
/// behind it is one word ("modal"), not the page removed; when it closes, the status region
/// it hid shows its old text again: no announcement. Saving changes that text: one.
fn dialogs_open_with_their_text_and_old_text_is_no_news(c: &Ctx) {
    let t = c.snapshot(DOCS);
    let open = ref_of(&t, "button \"Add delivery address\"");
    let r = act(c, &["click", &open]);
    let s = summary(&r);
    assert!(
        s.starts_with(
            "Clicked. Opened modal dialog \"Add delivery address\": \"Where should we deliver?\"; textbox \"Street\" "
        ),
        "{s}"
    );
    // the inert page behind: no banner, navigation or main removed (only the status region
    // the page really hid)
    assert!(
        !s.contains("banner") && !s.contains("main") && !s.contains("navigation"),
        "{s}"
    );
    assert_eq!(entries(&r, "removed").len(), 1, "{r:#}");
    let focused = regex::Regex::new(r#"textbox "Street" s\d+e\d+ \(focused\)"#).unwrap();
    assert!(focused.is_match(&s), "{s}");
    let dialog = &entries(&r, "added")[0];
    let cancel = dialog["controls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Cancel")
        .unwrap()["ref"]
        .as_str()
        .unwrap()
        .to_string();
    let r = act(c, &["click", &cancel]);
    let s = summary(&r);
    assert!(s.contains("Closed dialog \"Add delivery address\"."), "{s}");
    assert_eq!(
        entries(&r, "added").len(),
        1,
        "only the status region: {r:#}"
    );
    assert!(!s.contains("Announced"), "old text announced again: {r:#}");
    assert!(r["steps"][0].get("effects").is_none(), "{r:#}");
    // once more, saving this time
    let r = act(c, &["click", &open]);
    let save = entries(&r, "added")[0]["controls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Save")
        .unwrap()["ref"]
        .as_str()
        .unwrap()
        .to_string();
    let r = act(c, &["click", &save]);
    assert!(
        summary(&r).contains("Announced \"Saved addresses: 1\"."),
        "{r:#}"
    );
}

/// New items are one entry each with their controls' refs (the first two in view with the
/// start of their text); the count above them, one changed run cut to what changed; a button
/// renamed by its click leads under its new name.
fn new_items_and_changed_text_are_one_entry_each(c: &Ctx) {
    let t = c.ok(&[
        "snapshot",
        &c.url(SHOP),
        "--detail",
        "interactive",
        "--inline-limit",
        "0",
    ]);
    let more = ref_of(&t, "button \"Load more tents\"");
    let r = act(c, &["click", &more]);
    let added = entries(&r, "added");
    assert_eq!(added.len(), 6, "{r:#}");
    assert!(added.iter().all(|a| a["role"] == "article"), "{r:#}");
    let first = added[0]["controls"][0]["ref"].as_str().unwrap();
    let s = summary(&r);
    assert!(
        s.starts_with(&format!(
            "Clicked button \"Load more tents\" {more}: disabled. Added article \"Ridgeline 49 tent\": \"Sleeps 2, 6.1 kg $472.00\" (button \"Add to cart\" {first})"
        )),
        "{s}"
    );
    let changed = entries(&r, "changed");
    let text: Vec<&Value> = changed.iter().filter(|c| c["field"] == "text").collect();
    assert_eq!(text.len(), 1, "{r:#}");
    assert_eq!(text[0]["from"], "Showing 48 of 54 tents.");
    assert_eq!(text[0]["to"], "Showing 54 of 54 tents.");
    assert_eq!(text[0]["size"], 23);
    assert!(entries(&r, "removed").is_empty(), "{r:#}");
    // a card's button: renamed and disabled by its click; the cart status announces
    let r = act(c, &["click", first]);
    let s = summary(&r);
    assert!(
        s.starts_with("Clicked button \"In cart\" ")
            && s.contains(": renamed from \"Add to cart\", disabled.")
            && s.contains("Announced \"Cart: 1 item\"."),
        "{r:#}"
    );
}

/// A step that fails reports its error; the reply claims no "No change" for it.
fn a_failed_step_claims_no_change(c: &Ctx) {
    c.snapshot(DOCS);
    let o = c.run(&["click", "s9999e1"]);
    assert!(!o.status.success());
    let r = json(&o.stdout_text());
    assert_eq!(r["steps"][0]["status"], "error", "{r:#}");
    assert!(r.get("changes").is_none(), "{r:#}");
}
