//! Pointer actions that reach what a user would (issue 53): the visible point of a partly
//! covered target, scroll containers brought into view, `scroll REF --direction`, drags
//! along a pointer path (a jQuery UI sortable list, HTML drag and drop), sliders and spinners
//! of widget libraries set with keys, an icon close button that is not unseen, and pages built
//! on Bootstrap and Vue; clicks and keys that make the events a user's hand makes, whichever
//! way the input goes. Fixtures: fixtures/html/pointer/ (the libraries from /vendor/:
//! docs/contributing.md#widget-libraries).

use crate::common::{Ctx, Test, Text, eval, line_with, need_vendor, ref_of};
use serde_json::Value;

pub fn tests() -> Vec<Test> {
    trials![
        a_covered_centre_is_clicked_where_the_target_shows,
        force_never_clicks_another_element_silently,
        targets_in_scroll_containers_are_scrolled_into_view,
        scroll_in_a_direction_scrolls_the_refs_container,
        options_below_a_listboxs_fold_are_set,
        sortable_items_take_the_place_of_the_item_dropped_on,
        html_drag_and_drop_moves_a_draggable_item,
        library_slider_and_spinner_are_set_with_keys,
        an_icon_close_button_is_seen,
        bootstrap_widgets_work_by_ref,
        a_vue_app_works_by_ref,
        clicks_make_the_events_a_users_hand_makes,
        keys_make_the_events_a_users_hand_makes
    ]
}

/// Runs a command; the run result JSON, whatever the exit code.
fn result(c: &Ctx, args: &[&str]) -> Value {
    let o = c.run(args);
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: result JSON ({e}): {}\nstderr: {}",
            o.stdout_text(),
            o.stderr_text()
        )
    })
}

/// The first step's error of a command that must fail.
fn step_error(c: &Ctx, args: &[&str]) -> String {
    let r = result(c, args);
    assert_eq!(r["status"], "error", "{args:?}: {r:#}");
    r["steps"][0]["error"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The first step of a command that must succeed.
fn step_ok(c: &Ctx, args: &[&str]) -> Value {
    let r = result(c, args);
    assert_eq!(r["status"], "ok", "{args:?}: {r:#}");
    r["steps"][0].clone()
}

/// What the overlap fixture logged: one line per click, with the element it reached.
fn clicks(c: &Ctx) -> Vec<String> {
    let v = eval(
        c,
        "JSON.stringify([...document.querySelectorAll('#log li')].map((l) => l.textContent))",
    );
    serde_json::from_str(v.as_str().unwrap()).unwrap()
}

/// The text of an element of the page, by id.
fn text_of(c: &Ctx, id: &str) -> String {
    let v = eval(
        c,
        &format!("document.getElementById('{id}').textContent.trim()"),
    );
    v.as_str().unwrap_or_default().to_string()
}

/// A button whose centre lies under an overlapping sibling is clicked on the part of it that
/// shows (before: refused as covered by that sibling); a link that wraps, whose bounding
/// box's middle is the paragraph's text, is clicked on one of its lines (before: covered by
/// the paragraph); a button with no point in sight is refused, naming what covers it.
fn a_covered_centre_is_clicked_where_the_target_shows(c: &Ctx) {
    let t = c.snapshot("html/pointer/overlap.html");
    let one = ref_of(&t, "button \"ONE\"");
    step_ok(c, &["click", &one]);
    assert_eq!(clicks(c), ["click one trusted"]);
    let link = ref_of(&t, "link \"the release notes\"");
    step_ok(c, &["click", &link]);
    assert_eq!(clicks(c)[1], "click more trusted");
    let three = ref_of(&t, "button \"THREE\"");
    assert_eq!(
        step_error(c, &["click", &three]),
        format!("button \"THREE\" (ref {three}) is covered by note \"Notice\": dismiss it first")
    );
    assert_eq!(clicks(c).len(), 2, "nothing was clicked");
}

/// `--force` on a partly covered button clicks that button where it shows (before: its
/// centre, which the sibling over it got); on a button with no point in sight it clicks its
/// centre, and the step's warning names what got the click.
fn force_never_clicks_another_element_silently(c: &Ctx) {
    let t = c.snapshot("html/pointer/overlap.html");
    let one = ref_of(&t, "button \"ONE\"");
    let s = step_ok(c, &["click", &one, "--force"]);
    assert!(s["warning"].is_null(), "{s}");
    assert_eq!(clicks(c), ["click one trusted"]);
    let three = ref_of(&t, "button \"THREE\"");
    let s = step_ok(c, &["click", &three, "--force"]);
    assert_eq!(
        s["warning"],
        "the click went to note \"Notice\", which lies over every visible point of button \
         \"THREE\" (--force)"
    );
    assert_eq!(clicks(c)[1], "click notice trusted");
}

/// A button below the fold of a scrolling div (inside the viewport's bounds, clipped by two
/// scroll containers) and one right of a horizontally scrolling strip are scrolled into view
/// and clicked (before: "covered by html"); a link cut off by a strip that clips and never
/// scrolls is refused, naming the strip.
fn targets_in_scroll_containers_are_scrolled_into_view(c: &Ctx) {
    let t = c.snapshot("html/pointer/scroll-box.html");
    let accept = ref_of(&t, "button \"I accept\"");
    step_ok(c, &["click", &accept]);
    assert_eq!(text_of(c, "status"), "Accepted (trusted)");
    let reset = ref_of(&t, "button \"Reset filters\"");
    step_ok(c, &["click", &reset]);
    assert_eq!(text_of(c, "status"), "Filters reset");
    let slide = ref_of(&t, "link \"Slide 3\"");
    assert_eq!(
        step_error(c, &["click", &slide]),
        format!(
            "link \"Slide 3\" (ref {slide}) is out of sight, cut off by region \"Slides\" (its \
             overflow is hidden and does not scroll to it): show it with the page's own \
             controls first"
        )
    );
}

/// `scroll REF --direction down` scrolls the ref's own container: a disabled text area to
/// its end (the page then enables the box to tick), saying how far it moved and whether it
/// reached the end; a button's ref scrolls the box around it (before: the direction was
/// ignored, `"scroll": [0, 0]`).
fn scroll_in_a_direction_scrolls_the_refs_container(c: &Ctx) {
    let t = c.snapshot("html/pointer/scroll-box.html");
    let licence = ref_of(&t, "textbox \"Licence\"");
    assert!(
        line_with(&t, "I have read the licence").contains("[disabled]"),
        "{t}"
    );
    let s = step_ok(c, &["scroll", &licence, "--direction", "down"]);
    let o = &s["output"];
    assert_eq!(o["scrolled"], "textbox \"Licence\"", "{s}");
    assert_eq!(o["end"], false, "{s}");
    let first = o["by"][1].as_i64().unwrap();
    assert!(first > 40 && o["by"][0] == 0, "{s}");
    let s = step_ok(
        c,
        &[
            "scroll",
            &licence,
            "--direction",
            "down",
            "--amount",
            "5000",
        ],
    );
    let o = &s["output"];
    assert_eq!(o["end"], true, "{s}");
    let top = o["scroll"][1].as_i64().unwrap();
    assert_eq!(top, first + o["by"][1].as_i64().unwrap(), "{s}");
    assert_eq!(
        eval(
            c,
            "(() => { const t = document.getElementById('licence'); \
             return t.scrollTop + t.clientHeight >= t.scrollHeight - 2; })()"
        ),
        true
    );
    // the page saw it: Chromium fires `scroll` at the text area; Firefox fires no `scroll`
    // event at a disabled form control (seen with Firefox 153), so its page never knows
    if !crate::common::firefox() {
        let after = c.ok(&["snapshot"]);
        assert!(
            !line_with(&after, "I have read the licence").contains("[disabled]"),
            "{after}"
        );
    }
    // at the end: no move, still the end
    let s = step_ok(c, &["scroll", &licence, "--direction", "down"]);
    assert_eq!(
        (&s["output"]["by"][1], &s["output"]["end"]),
        (&0.into(), &true.into()),
        "{s}"
    );
    // a button's ref: the box that scrolls it, upwards
    let accept = ref_of(&t, "button \"I accept\"");
    step_ok(c, &["scroll", &accept]);
    let s = step_ok(
        c,
        &["scroll", &accept, "--direction", "up", "--amount", "30"],
    );
    assert_eq!(s["output"]["by"][1], -30, "{s}");
    assert!(
        s["output"]["scrolled"]
            .as_str()
            .unwrap()
            .contains("Clause 1 to 40"),
        "{s}"
    );
    // bad input
    let o = c.run(&["scroll", &licence, "--direction", "down", "--amount", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stderr_text().contains("scroll amount 0"), "{o:?}");
}

/// `set` on an ARIA listbox whose option lies below the list's own fold (inside the
/// viewport's bounds, clipped by the list) scrolls the list and clicks the option (before:
/// the click went to the option's centre, outside the list's visible part).
fn options_below_a_listboxs_fold_are_set(c: &Ctx) {
    let t = c.snapshot("html/pointer/listbox.html");
    let list = ref_of(&t, "listbox \"Fly from\"");
    let s = step_ok(c, &["set", &list, "Porto"]);
    // the option read back is what was asked: not echoed
    assert!(s["output"].is_null(), "{s}");
    assert_eq!(text_of(c, "picked"), "Flying from Porto");
}

/// The order a jQuery UI sortable list shows, from its status line.
fn order(c: &Ctx) -> String {
    text_of(c, "order")
}

/// The ref `search` gives (or mints for) the first element of `role` with `text`.
fn found(c: &Ctx, text: &str, role: &str) -> String {
    let r = result(c, &["search", text, "--role", role]);
    r["steps"][0]["output"]["matches"][0]["ref"]
        .as_str()
        .unwrap_or_else(|| panic!("no {role} {text:?}: {r}"))
        .to_string()
}

/// The ref of a list item of the sortable list.
fn item(c: &Ctx, text: &str) -> String {
    found(c, text, "listitem")
}

/// `drag A B` on a jQuery UI sortable list puts A where B was, dragged down or up (before:
/// a drop at B's middle reached by two moves left an item dragged up after B, or where it
/// was).
fn sortable_items_take_the_place_of_the_item_dropped_on(c: &Ctx) {
    need_vendor(&["jquery", "jquery-ui"]);
    c.snapshot("html/pointer/sortable.html");
    assert_eq!(order(c), "Order: Arrival, The harbour, Storm, Departure");
    let (storm, harbour) = (item(c, "Storm"), item(c, "The harbour"));
    let s = step_ok(c, &["drag", &storm, &harbour]);
    assert!(s["warning"].is_null(), "{s}");
    assert_eq!(order(c), "Order: Arrival, Storm, The harbour, Departure");
    let (departure, arrival) = (item(c, "Departure"), item(c, "Arrival"));
    step_ok(c, &["drag", &departure, &arrival]);
    assert_eq!(order(c), "Order: Departure, Arrival, Storm, The harbour");
    let (arrival, harbour) = (item(c, "Arrival"), item(c, "The harbour"));
    step_ok(c, &["drag", &arrival, &harbour]);
    assert_eq!(order(c), "Order: Departure, Storm, The harbour, Arrival");
}

/// An element with draggable="true" (a div: a group, HTML-AAM's minimum role) has a ref, and `drag` onto a drop zone runs HTML drag
/// and drop: the page's dragstart fills the data transfer and its drop reads it (Firefox
/// fires no drop for WebDriver input: the engine completes the drag there).
fn html_drag_and_drop_moves_a_draggable_item(c: &Ctx) {
    let t = c.snapshot("html/pointer/dnd.html");
    let stove = ref_of(&t, "]: Stove");
    let zone = found(c, "Rucksack", "region");
    let s = step_ok(c, &["drag", &stove, &zone]);
    assert!(s["warning"].is_null(), "{s}");
    assert_eq!(text_of(c, "status"), "Stove moved to Rucksack");
    assert_eq!(
        eval(c, "document.getElementById('stove').parentElement.id"),
        "pack"
    );
    // a drop on something that does not take it: the reply says so
    let tent = ref_of(&t, "]: Tent");
    let title = found(c, "Packing list", "heading");
    let s = step_ok(c, &["drag", &tent, &title]);
    if !crate::common::firefox() {
        // Chromium runs its own drag: nothing to warn of, nothing dropped
        assert!(s["warning"].is_null(), "{s}");
    } else {
        assert_eq!(
            s["warning"],
            "the element at the drop point did not take the drop (HTML drag and drop: its \
             dragover was not cancelled)"
        );
    }
    assert_eq!(
        eval(c, "document.getElementById('tent').parentElement.id"),
        "home"
    );
}

/// A jQuery UI slider (a focusable handle, no ARIA) shows where its handle stands and is set
/// with keys, read back from the handle; a jQuery UI spinner is stepped with its keys (its own
/// spin events tell the page at once) within its bounds (before: `set` refused the slider,
/// and typed into the spinner, which told the page nothing until it lost focus).
fn library_slider_and_spinner_are_set_with_keys(c: &Ctx) {
    need_vendor(&["jquery", "jquery-ui"]);
    let t = c.snapshot("html/pointer/jquery-ui.html");
    let handle = ref_of(&t, "generic [ref=");
    assert!(line_with(&t, &handle).ends_with(": 20%"), "{t}");
    let s = step_ok(c, &["set", &handle, "50"]);
    assert_eq!(s["output"]["value"], "50%", "{s}");
    assert_eq!(text_of(c, "volume-shown"), "50");
    let s = step_ok(c, &["set", &handle, "100%"]);
    assert!(s["output"].is_null(), "an echo: {s}");
    assert_eq!(text_of(c, "volume-shown"), "100");
    let e = step_error(c, &["set", &handle, "loud"]);
    assert!(e.contains("in percent of its track"), "{e}");
    let nights = ref_of(&t, "spinbutton \"Nights\"");
    let s = step_ok(c, &["set", &nights, "5"]);
    assert!(s["output"].is_null(), "an echo: {s}");
    assert_eq!(text_of(c, "nights-shown"), "5 nights");
    let e = step_error(c, &["set", &nights, "20"]);
    assert_eq!(
        e,
        format!(
            "set {nights}: asked for \"20\", the spinbutton \"Nights\" now holds \"5\" (it takes 1 to 14)"
        )
    );
    let after = c.ok(&["snapshot"]);
    assert!(line_with(&after, &handle).ends_with(": 100%"), "{after}");
}

/// A jQuery UI dialog's close button shows its icon (its text is pushed off-screen by
/// text-indent): it is seen, not `[unseen=offscreen]`; a heading whose words are pushed out
/// the same way with no image still is.
fn an_icon_close_button_is_seen(c: &Ctx) {
    need_vendor(&["jquery", "jquery-ui"]);
    let t = c.snapshot("html/pointer/jquery-ui.html");
    step_ok(c, &["click", &ref_of(&t, "button \"Show the terms\"")]);
    let d = c.ok(&["snapshot"]);
    let close = line_with(&d, "button \"Close\"");
    assert!(!close.contains("[unseen"), "{d}");
    step_ok(c, &["click", &ref_of(&d, "button \"Close\"")]);
    assert_eq!(text_of(c, "dialog-state"), "Terms closed");
    let u = c.snapshot("html/agent/unseen.html");
    assert!(
        line_with(&u, "heading \"Indented logo text\"").contains("[unseen=offscreen]"),
        "{u}"
    );
}

/// Bootstrap's dropdown, tabs, collapse and modal, by ref (the library served from /vendor/).
fn bootstrap_widgets_work_by_ref(c: &Ctx) {
    need_vendor(&["bootstrap"]);
    let t = c.snapshot("html/pointer/bootstrap.html");
    step_ok(c, &["click", &ref_of(&t, "button \"Sort by\"")]);
    let m = c.ok(&["snapshot"]);
    step_ok(c, &["click", &ref_of(&m, "button \"Nearest to the lake\"")]);
    assert_eq!(text_of(c, "sorted"), "Sorted by: Nearest to the lake");
    step_ok(c, &["click", &ref_of(&t, "tab \"House rules\"")]);
    let tabs = c.ok(&["snapshot"]);
    assert!(
        line_with(&tabs, "tabpanel \"House rules\"").contains("Quiet hours run from 10pm"),
        "{tabs}"
    );
    step_ok(c, &["click", &ref_of(&t, "button \"Show extras\"")]);
    let x = c.ok(&["snapshot"]);
    assert!(x.contains("Canoe hire is 25 euros a day."), "{x}");
    step_ok(c, &["click", &ref_of(&t, "button \"Book this cabin\"")]);
    let d = c.ok(&["snapshot"]);
    assert!(d.contains("dialog \"Confirm your booking\""), "{d}");
    step_ok(c, &["click", &ref_of(&d, "button \"Confirm booking\"")]);
    assert_eq!(text_of(c, "booked"), "Booked: reference LK-2048");
}

/// A Vue app (its template compiled in the browser): a new item typed and added, a count
/// stepped, an item ticked off, by ref.
fn a_vue_app_works_by_ref(c: &Ctx) {
    need_vendor(&["vue"]);
    let t = c.snapshot("html/pointer/vue-app.html");
    step_ok(
        c,
        &["fill", &ref_of(&t, "textbox \"New item\""), "oat milk"],
    );
    step_ok(c, &["click", &ref_of(&t, "button \"Add\"")]);
    let a = c.ok(&["snapshot"]);
    step_ok(c, &["click", &ref_of(&a, "button \"More oat milk\"")]);
    step_ok(c, &["set", &ref_of(&a, "checkbox \"Got bread\""), "true"]);
    let b = c.ok(&["snapshot"]);
    assert!(
        line_with(&b, "generic \"Quantity of oat milk\"").ends_with(": 2"),
        "{b}"
    );
    assert!(b.contains("status: 2 of 3 items left to get"), "{b}");
}

/// The logged mouse events of the events fixture.
fn mouse_log(c: &Ctx) -> Vec<String> {
    let v = eval(
        c,
        "JSON.stringify([...document.querySelectorAll('#log li')].map((l) => l.textContent))",
    );
    serde_json::from_str(v.as_str().unwrap()).unwrap()
}

/// A click is the events a user's hand makes, whichever way the input goes (DevTools events
/// sent together on Chromium, the driver's `input.performActions` on Firefox): a double
/// click counts its presses in `detail` and ends with `dblclick`; a right click presses and
/// releases button 2 with its mask and opens the context menu; a dialog opened on
/// `mousedown` is answered and the release still comes; a target below the fold is
/// scrolled to and gets the same events. Every event is the browser's own (`isTrusted`).
fn clicks_make_the_events_a_users_hand_makes(c: &Ctx) {
    let t = c.snapshot("html/pointer/events.html");
    let one = ref_of(&t, "button \"Log me\"");
    step_ok(c, &["click", &one, "--double"]);
    assert_eq!(
        mouse_log(c),
        [
            "one mousedown b0 m1 d1",
            "one mouseup b0 m0 d1",
            "one click b0 m0 d1",
            "one mousedown b0 m1 d2",
            "one mouseup b0 m0 d2",
            "one click b0 m0 d2",
            "one dblclick b0 m0 d2",
        ]
    );
    eval(c, "document.getElementById('log').textContent = ''");
    step_ok(c, &["click", &one, "--button", "right"]);
    let log = mouse_log(c);
    let at = |e: &str| log.iter().position(|l| l.starts_with(e));
    let (down, up) = (at("one mousedown"), at("one mouseup"));
    assert_eq!(log[down.unwrap()], "one mousedown b2 m2 d1", "{log:?}");
    assert_eq!(log[up.unwrap()], "one mouseup b2 m0 d1", "{log:?}");
    assert!(down < up, "{log:?}");
    assert!(at("one contextmenu").is_some(), "{log:?}");
    assert!(
        !log.iter()
            .any(|l| l.contains("untrusted") || l.contains(" click ")),
        "{log:?}"
    );

    eval(c, "document.getElementById('log').textContent = ''");
    let ask = ref_of(&t, "button \"Ask first\"");
    let r = result(c, &["click", &ask]);
    assert_eq!(r["status"], "ok", "{r:#}");
    assert!(
        r.to_string().contains("Sure?"),
        "the reply names the dialog: {r:#}"
    );
    assert_eq!(
        mouse_log(c),
        [
            "ask mousedown b0 m1 d1",
            "ask mouseup b0 m0 d1",
            "ask click b0 m0 d1"
        ]
    );

    eval(c, "document.getElementById('log').textContent = ''");
    let far = ref_of(&t, "button \"Far below\"");
    step_ok(c, &["click", &far]);
    assert_eq!(
        mouse_log(c),
        [
            "far mousedown b0 m1 d1",
            "far mouseup b0 m0 d1",
            "far click b0 m0 d1"
        ]
    );
}

/// Empties the fixture's event log.
fn clear_log(c: &Ctx) {
    eval(c, "document.getElementById('log').textContent = ''");
}

/// The value of a field of the page, by id.
fn value_of(c: &Ctx, id: &str) -> String {
    let v = eval(c, &format!("document.getElementById('{id}').value"));
    v.as_str().unwrap_or_default().to_string()
}

/// Keys are the events a user's hand makes, whichever way the input goes (DevTools events
/// sent together on Chromium, the driver's `input.performActions` on Firefox): typed
/// characters carry their key, physical code and key code; a chord holds its modifier over
/// the key (Control+a selects all, and Backspace then empties the field); Shift+Tab moves
/// the focus back; Enter in a text area is a new line; characters off the US layout and
/// shifted ones are typed as they are. Every event is the browser's own (`isTrusted`).
fn keys_make_the_events_a_users_hand_makes(c: &Ctx) {
    let t = c.snapshot("html/pointer/keys.html");
    let name = ref_of(&t, "textbox \"Name\"");
    step_ok(c, &["type", "hi 7", "--ref", &name]);
    assert_eq!(
        mouse_log(c),
        [
            "name keydown \"h\" KeyH 72 -",
            "name keyup \"h\" KeyH 72 -",
            "name keydown \"i\" KeyI 73 -",
            "name keyup \"i\" KeyI 73 -",
            "name keydown \" \" Space 32 -",
            "name keyup \" \" Space 32 -",
            "name keydown \"7\" Digit7 55 -",
            "name keyup \"7\" Digit7 55 -",
        ]
    );
    assert_eq!(value_of(c, "name"), "hi 7");

    clear_log(c);
    step_ok(c, &["press", "Control+a", "--ref", &name]);
    assert_eq!(
        mouse_log(c),
        [
            "name keydown \"Control\" ControlLeft 17 C",
            "name keydown \"a\" KeyA 65 C",
            "name keyup \"a\" KeyA 65 C",
            "name keyup \"Control\" ControlLeft 17 -",
        ]
    );
    step_ok(c, &["press", "Backspace"]);
    assert_eq!(value_of(c, "name"), "", "Control+a selected all of it");

    let after = ref_of(&t, "button \"After\"");
    clear_log(c);
    step_ok(c, &["press", "Shift+Tab", "--ref", &after]);
    let focused = eval(c, "document.activeElement.id");
    assert_eq!(focused, "notes", "Shift+Tab went back");
    assert_eq!(
        mouse_log(c),
        [
            "after keydown \"Shift\" ShiftLeft 16 S",
            "after keydown \"Tab\" Tab 9 S",
            "notes keyup \"Tab\" Tab 9 S",
            "notes keyup \"Shift\" ShiftLeft 16 -",
        ]
    );

    let notes = ref_of(&t, "textbox \"Notes\"");
    step_ok(c, &["type", "one\ntwo", "--ref", &notes]);
    assert_eq!(value_of(c, "notes"), "one\ntwo");
    step_ok(c, &["fill", &name, "Ada Lovelace! Ünïcode é 😀 {x}"]);
    assert_eq!(value_of(c, "name"), "Ada Lovelace! Ünïcode é 😀 {x}");
    assert!(!mouse_log(c).iter().any(|l| l.contains("untrusted")));
}
