//! Big pages and targeted views: detail levels, spilling, search, JMESPath, flatten and
//! pagination served from the cache.

use crate::common::{Ctx, Test, Text, eval, refs_in, walks};
use serde_json::{Value, json};

pub fn tests() -> Vec<Test> {
    trials![
        viewport_root_max_nodes_and_silent,
        big_page_detail_levels_and_spill,
        search_by_text_regex_role_near,
        search_matches_carry_their_items_text,
        flatten_query_and_cached_pages,
        bad_queries_and_paging_values,
        planted_symlink_is_not_followed
    ]
}

fn big_page_detail_levels_and_spill(c: &Ctx) {
    let url = c.url("html/big/generated.html?n=50000");
    let arts = tempfile::tempdir().unwrap();
    let arts_s = arts.path().to_str().unwrap();
    // what the page holds
    c.ok(&["goto", &url]);
    let elements = eval(c, "document.getElementsByTagName('*').length")
        .as_u64()
        .unwrap();
    assert!(elements >= 50_000, "{elements}");
    let interactive = eval(
        c,
        "document.querySelectorAll('a[href], button, input').length",
    )
    .as_u64()
    .unwrap() as usize;
    // full: spills to a private file whose path is in the reply
    let reply = c.ok(&["snapshot", "--max-nodes", "0", "--artifacts", arts_s]);
    assert!(reply.starts_with("# snapshot s"), "{reply}");
    let path = reply
        .split("written to ")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .trim()
        .to_string();
    let meta = std::fs::metadata(&path).unwrap();
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    let full = std::fs::read_to_string(&path).unwrap();
    assert!(full.len() > 9000);
    assert!(
        reply.contains("refs map: "),
        "over 1000 refs: their own .refs.json: {reply}"
    );
    // interactive: every interactive element with a ref, far smaller (each level walks the
    // page afresh, as it did when an eval dropped the cache before it)
    let inter = c.ok(&[
        "snapshot",
        "--detail",
        "interactive",
        "--max-nodes",
        "0",
        "--inline-limit",
        "0",
        "--no-cache",
    ]);
    let refs = refs_in(&inter);
    assert_eq!(
        refs.len(),
        interactive,
        "every interactive element has a ref"
    );
    // at most half the full tree: refs, landmarks and the context lines docs/reference/detail.md#nothing-is-dropped-silently keeps (one
    // heading per section on this page)
    assert!(
        inter.len() * 2 <= full.len(),
        "interactive {} vs full {}",
        inter.len(),
        full.len()
    );
    assert!(crate::common::body(&inter).starts_with("- document \"Generated page\"\n- banner:\n  - heading \"Generated page\" [level=1]\n  - navigation \"Top\":\n    - link \"Alpha\" [ref="), "{}", &inter[..300]);
    // summary: small
    let summary = c.ok(&[
        "snapshot",
        "--detail",
        "summary",
        "--max-nodes",
        "0",
        "--no-cache",
    ]);
    // 30 landmarks, 10 headings, totals and the left-out footer
    assert!(summary.len() < 3000, "{} bytes:\n{summary}", summary.len());
    assert!(
        summary.contains(&format!("{interactive} interactive")),
        "{summary}"
    );
}

fn search(c: &Ctx, args: &[&str]) -> Vec<Value> {
    let mut a = vec!["search"];
    a.extend_from_slice(args);
    let out: Value = serde_json::from_str(&c.ok(&a)).unwrap();
    out["steps"][0]["output"]["matches"]
        .as_array()
        .unwrap()
        .clone()
}

fn search_by_text_regex_role_near(c: &Ctx) {
    c.snapshot("html/search/page.html");
    let m = search(c, &["download"]);
    assert_eq!(m[0]["role"], "button");
    assert_eq!(m[0]["name"], "Download invoice");
    assert_eq!(m[0]["path"], "main");
    assert_eq!(m[0]["box"].as_array().unwrap().len(), 4);
    let download = m[0]["ref"].as_str().unwrap().to_string();
    let m = search(c, &["--pattern", "Orders \\d{4}"]);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0]["name"], "Orders 2026");
    assert_eq!(m[0]["path"], "navigation \"Main\"");
    let m = search(c, &["--role", "heading"]);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0]["name"], "Order history");
    assert!(
        m[0]["ref"].as_str().is_some(),
        "a ref is minted for an element without one"
    );
    // exact: the whole name
    assert!(search(c, &["Download", "--exact"]).is_empty());
    assert_eq!(search(c, &["download invoice", "--exact"]).len(), 1);
    // near: nearest first, within the radius
    let mid = search(
        c,
        &["--role", "button", "--limit", "1", "--near", "0,0,10000"],
    );
    let tl = mid[0]["box"].as_array().unwrap().clone();
    let (x, y) = (tl[0].as_f64().unwrap() + 5.0, tl[1].as_f64().unwrap() + 5.0);
    let _ = (x, y);
    let grid: Value = eval(
        c,
        "(function(){ var b = document.querySelector('.grid button:nth-child(2)').getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; })()",
    );
    let (gx, gy) = (grid[0].as_f64().unwrap(), grid[1].as_f64().unwrap());
    let near = search(
        c,
        &["--near", &format!("{gx},{gy},400"), "--role", "button"],
    );
    assert_eq!(near[0]["name"], "Middle", "{near:?}");
    assert_eq!(near[0]["distance"], 0);
    let d: Vec<f64> = near
        .iter()
        .map(|m| m["distance"].as_f64().unwrap())
        .collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]), "nearest first: {d:?}");
    assert!(
        near.iter()
            .all(|m| m["name"] != "Bottom right" || m["distance"].as_f64().unwrap() <= 400.0)
    );
    // a returned ref can be clicked
    c.ok(&["click", &download]);
    assert_eq!(eval(c, "document.title"), json!("downloaded"));
}

/// A match inside a list item, article or row carries the item's text (docs/reference/search.md#search), once per
/// item: the price on a product card of a 180-product catalogue is in the search reply.
/// A match on a run of text in a bigger block carries the text from that run on.
fn search_matches_carry_their_items_text(c: &Ctx) {
    c.snapshot("html/tasks/catalogue.html");
    let m = search(c, &["Aether 30L Duffel"]);
    assert_eq!(m.len(), 3, "image, heading and link: {m:?}");
    let ctx = m[0]["context"].as_str().unwrap_or_else(|| panic!("{m:?}"));
    assert!(ctx.contains("$220.99"), "{ctx}");
    assert!(ctx.contains("4.8 out of 5 stars"), "{ctx}");
    assert!(ctx.len() <= 203, "{ctx}");
    // the same card is told once
    assert!(
        m[1].get("context").is_none() && m[2].get("context").is_none(),
        "{m:?}"
    );
    // a heading outside any item: no context beyond its own name
    let h = search(c, &["Backpacks and bags", "--role", "heading"]);
    assert!(h[0].get("context").is_none(), "{h:?}");
    // a run of text in an order summary: the text from the run on
    c.snapshot("html/tasks/cart.html");
    let t = search(c, &["Subtotal"]);
    let ctx = t[0]["context"].as_str().unwrap_or_else(|| panic!("{t:?}"));
    assert!(ctx.starts_with("Subtotal $310.00"), "{ctx}");
    assert!(ctx.contains("Total $310.00"), "{ctx}");
}

fn snapshot_json(c: &Ctx, args: &[&str]) -> Value {
    let mut a = vec!["snapshot", "--inline-limit", "0"];
    a.extend_from_slice(args);
    serde_json::from_str(&c.ok(&a)).unwrap()
}

fn flatten_query_and_cached_pages(c: &Ctx) {
    c.snapshot("html/big/generated.html?n=2000");
    let names = snapshot_json(c, &["--flatten", "--query", "[?role == 'button'].name"]);
    let buttons = eval(
        c,
        "Array.from(document.querySelectorAll('button')).map(b => b.textContent)",
    );
    assert_eq!(names, buttons, "exactly the buttons");
    // page through [?_depth < `3`] 20 at a time
    let first = snapshot_json(
        c,
        &["--flatten", "--query", "[?_depth < `3`]", "--limit", "20"],
    );
    let key = first["cache_key"].as_str().unwrap().to_string();
    let total = first["total_items"].as_u64().unwrap() as usize;
    assert!(total > 40, "{total}");
    let mut items: Vec<Value> = first["items"].as_array().unwrap().clone();
    let before = walks(c);
    // the page changes between two pages of one cache_key: the pages still come from the cache
    eval(
        c,
        "(document.querySelector('h1').textContent = 'Changed heading', 1)",
    );
    let mut offset = 20;
    loop {
        let p = snapshot_json(
            c,
            &[
                "--cache-key",
                &key,
                "--limit",
                "20",
                "--offset",
                &offset.to_string(),
            ],
        );
        assert_eq!(p["cache_key"], key.as_str());
        assert_eq!(p["total_items"], total);
        items.extend(p["items"].as_array().unwrap().iter().cloned());
        if p["has_more"] == false {
            break;
        }
        offset += 20;
    }
    assert_eq!(items.len(), total);
    assert_eq!(
        walks(c),
        before,
        "later pages came from the cache, not from a walk"
    );
    assert!(items.iter().all(|i| i["_depth"].as_u64().unwrap() < 3));
    assert!(
        !serde_json::to_string(&items)
            .unwrap()
            .contains("Changed heading")
    );
    let idx: Vec<u64> = items
        .iter()
        .map(|i| i["_index"].as_u64().unwrap())
        .collect();
    assert!(
        idx.windows(2).all(|w| w[0] < w[1]),
        "depth-first order kept"
    );
}

fn bad_queries_and_paging_values(c: &Ctx) {
    c.snapshot("html/search/page.html");
    let o = c.run(&["snapshot", "--flatten", "--query", "[?role =="]);
    assert_eq!(o.status.code(), Some(2));
    let err = o.stderr_text();
    assert!(err.contains("invalid JMESPath query: "), "{err}");
    let o = c.run(&["snapshot", "--flatten", "--limit", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        o.stderr_text()
            .contains("invalid limit 0: it must be between 1 and 10000")
    );
    let o = c.run(&["snapshot", "--cache-key", "../../etc", "--limit", "5"]);
    assert_eq!(o.status.code(), Some(2));
    let o = c.run(&["snapshot", "--query", "title", "--limit", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stderr_text().contains("pagination needs a list"));
}

fn planted_symlink_is_not_followed(c: &Ctx) {
    c.snapshot("html/big/generated.html?n=2000");
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    // the artifacts directory itself is a planted symlink: refused
    let link = dir.path().join("artifacts");
    std::os::unix::fs::symlink(dir.path(), &link).unwrap();
    let o = c.run(&["snapshot", "--artifacts", link.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", o.stderr_text());
    assert!(o.stderr_text().contains("symbolic link"));
    // --file pointing at a planted symlink: refused, the target untouched
    let flink = dir.path().join("out.txt");
    std::os::unix::fs::symlink(&victim, &flink).unwrap();
    let o = c.run(&["snapshot", "--file", flink.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
}

fn viewport_root_max_nodes_and_silent(c: &Ctx) {
    let url = c.url("html/big/generated.html?n=3000");
    let full = c.ok(&["snapshot", &url, "--inline-limit", "0", "--max-nodes", "0"]);
    assert!(full.contains("\"Section 150\""));
    // --viewport: only what intersects the viewport (the first sections)
    let vp = c.ok(&["snapshot", "--viewport", "--inline-limit", "0"]);
    assert!(vp.contains("\"Section 0\""), "{vp}");
    assert!(!vp.contains("\"Section 150\""), "far below the fold");
    assert!(vp.len() * 5 < full.len());
    // a frame far below the fold: neither it nor its document is in the viewport's snapshot
    let page = c.url("html/frames/below-fold.html");
    let whole = c.ok(&["snapshot", &page, "--inline-limit", "0"]);
    assert!(whole.contains("\"Pay in frame\""), "{whole}");
    let seen = c.ok(&["snapshot", "--viewport", "--inline-limit", "0"]);
    assert!(seen.contains("\"Visible action\""), "{seen}");
    assert!(
        !seen.contains("Pay in frame") && !seen.contains("Payment"),
        "{seen}"
    );
    // scrolled past the cookie strip: its buttons (inline onclick handlers) are out of view,
    // so they show neither as buttons nor as clickable `generic` lines (they did)
    c.ok(&["goto", &c.url("html/tasks/cart.html")]);
    let top = c.ok(&["snapshot", "--viewport", "--inline-limit", "0"]);
    assert!(top.contains("button \"Accept all\""), "{top}");
    c.ok(&["scroll", "--dy", "1200"]);
    let below = c.ok(&["snapshot", "--viewport", "--inline-limit", "0"]);
    assert!(below.contains("button \"Checkout securely\""), "{below}");
    // (text outside it stays, flattened: the diffs of actions catch messages added below
    // the fold through it)
    for gone in ["button \"Accept all\"", "generic \"Accept all\""] {
        assert!(!below.contains(gone), "{gone} is out of view:\n{below}");
    }
    c.ok(&["goto", &url]);
    // --root: a CSS selector, role=ROLE, a ref
    let r = c.ok(&[
        "snapshot",
        "--root",
        "section[aria-label='Section 7']",
        "--inline-limit",
        "0",
    ]);
    assert!(
        r.contains("- region \"Section 7\"") && !r.contains("Section 8"),
        "{r}"
    );
    let nav = c.ok(&[
        "snapshot",
        "--root",
        "role=navigation",
        "--inline-limit",
        "0",
    ]);
    assert!(
        nav.contains("- navigation \"Top\"") && !nav.contains("Section 1"),
        "{nav}"
    );
    let t = c.ok(&["snapshot", "--detail", "interactive", "--inline-limit", "0"]);
    let b3 = crate::common::ref_of(&t, "button \"Button 3\"");
    let by_ref = c.ok(&["snapshot", "--root", &b3, "--inline-limit", "0"]);
    assert!(by_ref.contains("- button \"Button 3\""), "{by_ref}");
    assert_eq!(
        c.run(&["snapshot", "--root", "#nothing-here"])
            .status
            .code(),
        Some(1)
    );
    // --max-nodes: stops and says how many were left out
    let cut = c.ok(&["snapshot", "--max-nodes", "50", "--inline-limit", "0"]);
    assert!(
        crate::common::body(&cut).starts_with("# truncated: "),
        "{}",
        &cut[..200.min(cut.len())]
    );
    assert!(
        cut.lines()
            .filter(|l| l.trim_start().starts_with("- "))
            .count()
            <= 50
    );
    // --silent: captures and mints refs, prints no tree
    let s: Value = serde_json::from_str(&c.ok(&["snapshot", "--silent"])).unwrap();
    assert!(
        s["refs"].as_u64().unwrap() > 100 && s["snapshot"].as_str().unwrap().starts_with('s'),
        "{s}"
    );
}
