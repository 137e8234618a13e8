//! The change summary and the `changes` JSON checked against reviewed files (insta; issue
//! 56): what an agent reads after an action, worded from two snapshots and their diff. A
//! change of wording shows as a diff of the `.snap` files under `snapshots/`: review it
//! with `cargo insta review` (or `INSTA_UPDATE=always cargo test --lib reviewed` and
//! `git diff`), and commit the files with the change.

use super::tests::ids;
use super::{Effects, Run, diff, report};
use crate::snapshot::tests::snap;

/// The summary, then the whole `changes` value, as one reviewed text.
fn reviewed(r: &Run) -> String {
    let v = report(r);
    let summary = v["summary"].as_str().unwrap_or_default().to_string();
    format!("{summary}\n\n{}", serde_json::to_string_pretty(&v).unwrap())
}

/// `set` on a combobox that opens a dialog and makes a live region speak.
#[test]
fn a_set_that_opens_a_dialog() {
    let b = ids(
        snap(&[
            (-1, "document", "Shipping", None, None),
            (0, "combobox", "State", Some("s1e3"), Some("")),
            (0, "link", "Docs", Some("s1e4"), None),
        ]),
        &[0, 1, 2],
    );
    let mut a = ids(
        snap(&[
            (-1, "document", "Shipping", None, None),
            (0, "combobox", "State", Some("s1e3"), Some("Alabama")),
            (0, "link", "Docs", Some("s1e4"), None),
            (0, "dialog", "Confirm state", None, None),
            (3, "text", "", None, Some("Ship to Alabama?")),
            (3, "button", "Yes", Some("s2e1"), None),
            (3, "button", "No", Some("s2e2"), None),
        ]),
        &[0, 1, 2, 3, 0, 4, 5],
    );
    a.nodes[1].states.expanded = Some(false);
    let d = diff::diff(&b, &a);
    let e = Effects {
        announced: vec!["State saved".into()],
        ..Effects::default()
    };
    let r = Run {
        before: &b,
        after: &a,
        diff: &d,
        verb: Some("Set"),
        detail: None,
        target: Some("s1e3"),
        to_focused: false,
        effects: &e,
        dialogs: &[],
        scroll: ([0, 0], [0, 0]),
    };
    insta::assert_snapshot!(reviewed(&r));
}

/// A click that removes a cart line: the list shrinks, the total's text changes, an alert
/// and an undo button come.
#[test]
fn a_click_that_removes_a_cart_line() {
    let b = ids(
        snap(&[
            (-1, "document", "Cart", None, None),
            (0, "button", "Remove tea", Some("s1e1"), None),
            (0, "list", "Items", None, None),
            (2, "listitem", "", None, None),
            (3, "text", "", None, Some("Tea, 2 x 4.00")),
            (2, "listitem", "", None, None),
            (5, "text", "", None, Some("Cake, 1 x 6.50")),
            (0, "status", "", None, None),
            (7, "text", "", None, Some("Total: 14.50")),
        ]),
        &[0, 1, 2, 3, 0, 5, 0, 7, 0],
    );
    let a = ids(
        snap(&[
            (-1, "document", "Cart", None, None),
            (0, "list", "Items", None, None),
            (1, "listitem", "", None, None),
            (2, "text", "", None, Some("Cake, 1 x 6.50")),
            (0, "status", "", None, None),
            (4, "text", "", None, Some("Total: 6.50")),
            (0, "alert", "", None, None),
            (6, "text", "", None, Some("Tea removed.")),
            (6, "button", "Undo", Some("s2e1"), None),
        ]),
        &[0, 2, 5, 0, 7, 0, 9, 0, 10],
    );
    let d = diff::diff(&b, &a);
    let e = Effects::default();
    let r = Run {
        before: &b,
        after: &a,
        diff: &d,
        verb: Some("Clicked"),
        detail: None,
        target: Some("s1e1"),
        to_focused: false,
        effects: &e,
        dialogs: &[],
        scroll: ([0, 0], [0, 0]),
    };
    insta::assert_snapshot!(reviewed(&r));
}
