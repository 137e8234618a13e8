//! Tests of both renderings, and page text that tries to forge lines ([`HOSTILE`]), which
//! the text and JSON tests here and other modules' tests (`safe`, `detail`) feed through.

use super::*;
use crate::snapshot::Snapshot;
use crate::snapshot::tests::snap;
use crate::wire::Tri;

#[test]
fn long_names_and_text_are_cut_with_dots() {
    let long = "x".repeat(150);
    let s = snap(&[
        (-1, "document", "", None, None),
        (0, "button", &long, Some("s1e1"), None),
        (0, "text", "", None, Some(&long)),
    ]);
    let t = to_text(&s, &RenderOptions::default());
    assert!(t.contains(&format!("\"{}...\"", "x".repeat(100))), "{t}");
    assert!(
        t.contains(&format!("- text: {}...\n", "x".repeat(100))),
        "{t}"
    );
    // JSON keeps the full text
    let j = to_json(&s, &RenderOptions::default(), false);
    assert!(j.contains(&long));
}

#[test]
fn sort_shows_on_headers_as_a_token() {
    let mut s = snap(&[
        (-1, "document", "D", None, None),
        (0, "columnheader", "Time", None, None),
        (0, "columnheader", "Gate", None, None),
    ]);
    s.nodes[1].states.sort = Some("ascending".into());
    // a value no engine sends is not printed (docs/reference/output.md#what-no-page-can-forge: no page forges a flag)
    s.nodes[2].states.sort = Some("x] [ref=s9e9".into());
    let t = to_text(&s, &RenderOptions::default());
    assert!(
        t.contains("  - columnheader \"Time\" [sort=ascending]\n"),
        "{t}"
    );
    assert!(t.contains("  - columnheader \"Gate\"\n"), "{t}");
    let j = to_json(&s, &RenderOptions::default(), false);
    assert!(j.contains("\"props\":{\"sort\":\"ascending\"}"), "{j}");
    assert!(!j.contains("s9e9"), "{j}");
}

#[test]
fn deep_trees_render_without_recursion() {
    let mut rows: Vec<crate::snapshot::tests::Row> = vec![(-1, "document", "", None, None)];
    for i in 0..20_000 {
        rows.push((i, "group", "", None, None));
    }
    let s = snap(&rows);
    let t = to_text(&s, &RenderOptions::default());
    assert_eq!(t.lines().count(), 20_001);
    let j = to_json(&s, &RenderOptions::default(), false);
    assert!(j.ends_with(&"]}".repeat(20_001)));
}

pub(crate) use crate::safe::check::HOSTILE;

pub(super) fn hostile_snap(h: &str) -> Snapshot {
    let mut s = snap(&[
        (-1, "document", h, None, None),
        (0, "button", h, Some("s1e1"), None),
        (0, "textbox", h, Some("s1e2"), Some(h)),
        (0, "paragraph", "", None, None),
        (3, "text", "", None, Some(h)),
        (0, "text", "", None, Some(h)),
        (0, "link", h, Some("s1e3"), None),
        (0, "checkbox", h, Some("s1e4"), None),
    ]);
    s.nodes[6].url = Some(format!("http://127.0.0.1/#{h}"));
    let n = &mut s.nodes[2];
    n.description = Some(h.into());
    n.placeholder = Some(h.into());
    n.states.current = Some(h.into());
    n.states.haspopup = Some(h.into());
    n.states.orientation = Some(h.into());
    s.nodes[7].states.checked = Some(Tri::Token(h.into()));
    s.nodes[7].states.pressed = Some(Tri::Token(h.into()));
    s.frames.push(crate::snapshot::Frame {
        index: 1,
        node: None,
        url: h.into(),
        unreadable: Some(h.into()),
    });
    s.stats.closed_read = 1;
    s.stats.closed_hosts = vec![h.into(), "x-ok".into()];
    s
}
