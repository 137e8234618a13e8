//! Budgets (docs/reference/detail.md#budgets) on a big page: what goes first (the focused element, then alerts, status
//! and error text wherever they are, then the viewport), alike runs collapsed in the
//! viewport too around the rows that matter, and alerts that alone exceed the budget.
//! Fixture: `fixtures/html/budget/cart.html` (12 alike cart rows in the viewport, row 10's
//! quantity invalid, ~20,000 elements of offers, and 40 groups deep in the footer the
//! alerts, a status, aria-live regions without a role and the quantity's error message).

use crate::common::{Ctx, Test, line_with, refs_in};

pub fn tests() -> Vec<Test> {
    trials![
        alerts_status_and_error_text_go_before_the_viewport,
        alike_rows_in_the_viewport_collapse_around_the_ones_that_matter,
        alerts_that_alone_exceed_the_budget_are_cut_in_order
    ]
}

/// Opens the cart fixture with `query` and returns its snapshot under `tokens`, checked to
/// fit, with the footer and the whole tree's file.
fn budgeted(c: &Ctx, query: &str, tokens: usize) -> String {
    c.ok(&[
        "goto",
        &c.url(&format!("html/budget/cart.html?n=20000{query}")),
    ]);
    let t = c.ok(&["snapshot", "--budget", &tokens.to_string()]);
    assert!(
        t.len() <= tokens * 4,
        "{tokens} tokens: {} bytes:\n{t}",
        t.len()
    );
    let mut last = t.lines().rev();
    assert!(last.next().unwrap().starts_with("# whole tree: "), "{t}");
    assert!(last.next().unwrap().starts_with("# elided: "), "{t}");
    t
}

/// The alert far below the fold and 40 levels deep, the status, the aria-live regions (`div`s
/// without a role: the engine marks their text and elements) and the invalid field with its
/// error message (found by the text of its aria-errormessage) are all shown, with the
/// viewport.
fn alerts_status_and_error_text_go_before_the_viewport(c: &Ctx) {
    let t = budgeted(c, "", 2000);
    for line in [
        "- alert: Payment service unavailable: try again in a few minutes",
        "- status: Prices updated 2 minutes ago",
        // (the walk joins the text of the two live regions in one run)
        "- text: 3 items saved for later",
        "Card declined.",
        "- button \"Retry payment\" [ref=",
        "- paragraph: Only 3 of Product 10 left in stock",
        "- group \"Level 39\":",
    ] {
        line_with(&t, line);
    }
    line_with(&t, "textbox \"Quantity 10\" [invalid]");
    // the viewport follows: the page's heading and the first rows
    line_with(&t, "heading \"Cart\" [level=1]");
    line_with(&t, "textbox \"Quantity 1\"");
    // JSON: the same order
    let j = c.ok(&["snapshot", "--budget", "2000", "--format", "json"]);
    assert!(j.len() <= 8000, "{} bytes", j.len());
    assert!(j.contains("Payment service unavailable"), "{j}");
    assert!(j.contains("3 items saved for later"), "{j}");
}

/// docs/reference/detail.md#budgets collapsing, in the viewport too: of the 12 alike rows, 3 stay and the others are
/// `[... N more like these]` lines; the invalid row 10 and the focused row 12 stay where
/// they are, the rows between them collapsed; the line's ref expands the list.
fn alike_rows_in_the_viewport_collapse_around_the_ones_that_matter(c: &Ctx) {
    let t = budgeted(c, "", 2000);
    line_with(&t, "textbox \"Quantity 3\"");
    assert!(!t.contains("\"Product 4\""), "{t}");
    let run = line_with(&t, "- [... 6 more like these: 18 nodes, 12 refs] (--root ");
    line_with(&t, "link \"Product 10\"");
    line_with(&t, "- [... 2 more like these: 6 nodes, 4 refs] (--root ");
    let at = |needle: &str| t.find(needle).unwrap_or_else(|| panic!("{needle}:\n{t}"));
    assert!(at("Quantity 3") < at("[... 6 more") && at("[... 6 more") < at("Quantity 10"));
    assert!(at("Quantity 10") < at("[... 2 more"), "{t}");
    // the line's ref shows the whole list
    let r = run.rsplit("--root ").next().unwrap().trim_end_matches(')');
    let list = c.ok(&["snapshot", "--root", r]);
    for k in 1..=12 {
        line_with(&list, &format!("link \"Product {k}\""));
    }
    // the focused row 12 stays too (row 11 between them is one row: shown, not a line)
    let t = budgeted(c, "&focus=12", 2000);
    line_with(&t, "textbox \"Quantity 12\" [focused]");
    line_with(&t, "textbox \"Quantity 10\" [invalid]");
    line_with(&t, "- [... 6 more like these: ");
    assert!(!t.contains("\"Product 5\""), "{t}");
}

/// 400 alerts (and the focused field) on a budget of 1,500 tokens: the budget holds, the
/// focused field is there, the alerts come in document order (the invalid field's error
/// message with its field), and those that do not fit are one counted line.
fn alerts_that_alone_exceed_the_budget_are_cut_in_order(c: &Ctx) {
    let t = budgeted(c, "&alerts=400&focus=12", 1500);
    line_with(&t, "textbox \"Quantity 12\" [focused]");
    line_with(&t, "- paragraph: Only 3 of Product 10 left in stock");
    line_with(&t, "- alert: Payment service unavailable");
    let shown = t.matches("- alert: ").count();
    assert!(shown >= 5, "{t}");
    let rest = line_with(&t, " alert, ");
    assert!(
        rest.contains(&format!("[elided: {} alert, ", 400 - shown)),
        "{rest}"
    );
    assert_eq!(refs_in(rest).len(), 0, "{rest}");
    assert!(rest.contains("(--root "), "{rest}");
}
