//! Tests of both renderings, and page text that tries to forge lines ([`HOSTILE`]), which
//! the text and JSON tests here and other modules' tests (`safe`, `detail`) feed through.

use super::*;
use crate::snapshot::Snapshot;
use crate::snapshot::tests::snap;
use crate::wire::Tri;

#[test]
fn long_names_are_cut_with_dots_and_text_says_what_its_cut_left() {
    let long = "x".repeat(150);
    let s = snap(&[
        (-1, "document", "", None, None),
        (0, "button", &long, Some("s1e1"), None),
        (0, "text", "", None, Some(&long)),
    ]);
    let t = to_text(&s, &RenderOptions::default());
    assert!(t.contains(&format!("\"{}...\"", "x".repeat(100))), "{t}");
    // text up to TEXT_KEEP characters is never cut (an instruction reads whole)
    assert!(t.contains(&format!("- text: {long}\n")), "{t}");
    // a longer run is cut there, and says how much is left and which ref reads it whole
    let longer = "y".repeat(TEXT_KEEP + 1234);
    let mut s = snap(&[
        (-1, "document", "", None, None),
        (0, "text", "", None, Some(&longer)),
        (0, "paragraph", "", None, None),
        (2, "text", "", None, Some(&longer)),
        (0, "textbox", "Notes", Some("s1e3"), Some(&longer)),
        (0, "text", "", None, Some(&longer)),
    ]);
    s.nodes[1].states.read = Some("s1e7".into());
    s.nodes[3].states.read = Some("s1e8".into());
    let t = to_text(&s, &RenderOptions::default());
    let kept = format!("{}...", "y".repeat(TEXT_KEEP));
    assert!(
        t.contains(&format!("  - text [cut: +1234 chars, get s1e7]: {kept}\n")),
        "{t}"
    );
    assert!(
        t.contains(&format!(
            "  - paragraph [cut: +1234 chars, get s1e8]: {kept}\n"
        )),
        "{t}"
    );
    assert!(
        t.contains(&format!(
            "  - textbox \"Notes\" [cut: +1234 chars, get s1e3 --what value] [ref=s1e3]: {kept}\n"
        )),
        "{t}"
    );
    // without a ref to read it by, the cut still says how much it left
    assert!(
        t.contains(&format!("  - text [cut: +1234 chars]: {kept}\n")),
        "{t}"
    );
    // JSON keeps the full text
    let j = to_json(&s, &RenderOptions::default(), false);
    assert!(j.contains(&longer));
}

#[test]
fn clickables_and_icon_hints_show_beside_the_ref_never_as_a_name() {
    let mut s = snap(&[
        (-1, "document", "", None, None),
        (0, "button", "", Some("s1e2"), None),
        (0, "listitem", "", Some("s1e3"), None),
        (0, "button", "Delete", Some("s1e4"), None),
        (0, "button", "", Some("s1e5"), None),
        (0, "generic", "", Some("s1e1"), None),
        (5, "text", "", None, Some("Start")),
    ]);
    s.nodes[1].states.icon = Some("trash".into());
    s.nodes[2].states.clickable = true;
    // a named control gets no hint: a hint is never a name
    s.nodes[3].states.icon = Some("trash".into());
    // words only, none of them a ref: anything else the wire carried is not printed
    s.nodes[4].states.icon = Some("x] [ref=s9e9".into());
    // a clickable generic: its words are its content and its ref's identity, never its name
    s.nodes[5].states.clickable = true;
    s.nodes[5].states.words = Some("Start".into());
    let t = to_text(&s, &RenderOptions::default());
    assert!(
        t.contains("  - generic [clickable] [ref=s1e1]: Start\n"),
        "{t}"
    );
    assert_eq!(s.nodes[5].words(), Some("Start"));
    assert!(t.contains("  - button [ref=s1e2] [icon: trash]\n"), "{t}");
    assert!(t.contains("  - listitem [clickable] [ref=s1e3]\n"), "{t}");
    assert!(t.contains("  - button \"Delete\" [ref=s1e4]\n"), "{t}");
    assert!(t.contains("  - button [ref=s1e5]\n"), "{t}");
    s.nodes[4].states.icon = Some("reply s9e9".into());
    assert!(icon(&s.nodes[4]).is_none());
    s.nodes[4].states.icon = Some("a b c d e".into());
    assert!(icon(&s.nodes[4]).is_none());
    s.nodes[4].states.icon = Some("arrow left 2".into());
    assert!(icon(&s.nodes[4]).is_none());
    s.nodes[4].states.icon = Some("arrow left h2".into());
    assert_eq!(icon(&s.nodes[4]), Some("arrow left h2"));
    s.nodes[4].states.icon = Some("x] [ref=s9e9".into());
    crate::safe::check::unforgeable(&t, 6, &["s1e2", "s1e3", "s1e4", "s1e5", "s1e1"]);
    let j: serde_json::Value =
        serde_json::from_str(&to_json(&s, &RenderOptions::default(), false)).unwrap();
    let kids = j["children"].as_array().unwrap();
    assert_eq!(kids[0]["name"], "");
    assert_eq!(kids[0]["props"]["icon"], "trash");
    assert_eq!(kids[1]["props"]["clickable"], true);
    assert!(kids[2]["props"].get("icon").is_none(), "{}", kids[2]);
    assert!(kids[3]["props"].get("icon").is_none(), "{}", kids[3]);
    // JSON: no name, the words as its text child (as any nameless node's text)
    assert_eq!(kids[4]["name"], "", "{}", kids[4]);
    assert_eq!(kids[4]["props"]["clickable"], true);
    assert_eq!(kids[4]["children"], serde_json::json!(["Start"]));
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
