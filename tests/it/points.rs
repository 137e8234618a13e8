//! Seeing and pointing where the accessibility tree is blind (issue 16): `elementsAt`,
//! clicks, hovers and drags at points of a canvas, annotated screenshots, `pdf`, site notes,
//! and a step file with all of them.

use crate::common::{Ctx, Test, Text, eval};
use serde_json::{Value, json};

pub fn tests() -> Vec<Test> {
    trials![
        elements_at_names_what_is_there_with_refs_to_act_on,
        click_hover_and_drag_at_points_reach_a_canvas,
        annotated_screenshot_labels_every_ref_inside_its_box,
        click_at_a_point_without_bidi_uses_classic_actions,
        pdf_through_webdriver_print_page,
        site_notes_per_domain_and_goto_mentions_them,
        more_steps_b_step_file_end_to_end
    ]
}

const PAGE: &str = "html/points/canvas.html";

/// Runs a command that is one step; returns that step's output.
fn output(c: &Ctx, args: &[&str]) -> Value {
    let r: Value = serde_json::from_str(&c.ok(args)).expect("run result");
    assert_eq!(r["steps"][0]["status"], "ok", "{r:#}");
    r["steps"][0]["output"].clone()
}

/// Runs a step file given as JSON through stdin; returns (exit code, result, stderr).
fn run(c: &Ctx, steps: &Value) -> (i32, Value, String) {
    run_with(c.cmd(), steps)
}

fn log(c: &Ctx) -> String {
    eval(c, "document.getElementById('log').textContent")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn elements_at_names_what_is_there_with_refs_to_act_on(c: &Ctx) {
    c.ok(&["goto", &c.url(PAGE)]);
    // the text inside a button, a button in an open shadow root, a button in a same-origin
    // frame, the canvas
    let pts = output(c, &["elements-at", "430,85", "430,225", "90,310", "70,90"]);
    let pts = pts["points"].as_array().unwrap();
    assert_eq!(pts.len(), 4, "{pts:#?}");
    let (pay, dial, inside, map) = (&pts[0], &pts[1], &pts[2], &pts[3]);
    assert_eq!(
        (&pay["role"], &pay["name"]),
        (&json!("button"), &json!("Pay now")),
        "{pay}"
    );
    // the deepest element was the span: named, the button is what an action reaches
    assert_eq!(pay["hit"]["tag"], "span", "{pay}");
    assert_eq!(pay["box"], json!([360, 60, 140, 50]), "{pay}");
    assert_eq!(
        (&dial["role"], &dial["name"]),
        (&json!("button"), &json!("Dial")),
        "{dial}"
    );
    assert_eq!(
        (&inside["role"], &inside["name"]),
        (&json!("button"), &json!("Inside"))
    );
    assert!(inside["ref"].as_str().unwrap().starts_with('f'), "{inside}");
    assert_eq!(inside["box"], json!([30, 290, 120, 40]), "{inside}");
    assert_eq!(
        (&map["role"], &map["name"], &map["tag"]),
        (&json!("img"), &json!("Map"), &json!("canvas"))
    );
    // the refs minted on the way are refs like any other: the next steps act on them
    for (p, word) in [(pay, "pay"), (dial, "dial"), (inside, "inside")] {
        c.ok(&["click", p["ref"].as_str().unwrap()]);
        assert!(log(c).contains(word), "{word}: {}", log(c));
    }
    // with a radius: what is near, nearest first (8 px from Pay, 12 px from More)
    let near = output(
        c,
        &[
            "elements-at",
            "--x",
            "430",
            "--y",
            "118",
            "--radius",
            "30",
            "--limit",
            "2",
        ],
    );
    let m = near["points"][0]["matches"].as_array().unwrap();
    assert_eq!(m.len(), 2, "{near:#}");
    assert_eq!(
        (&m[0]["name"], &m[1]["name"]),
        (&json!("Pay now"), &json!("More")),
        "{near:#}"
    );
    assert!(m[0]["ref"].is_string());
    // a point outside the viewport is refused, naming the viewport
    let o = c.run(&["elements-at", "5000,10"]);
    assert_eq!(o.status.code(), Some(2));
    let err = o.stderr_text();
    assert!(err.contains("outside the viewport"), "{err}");
}

fn click_hover_and_drag_at_points_reach_a_canvas(c: &Ctx) {
    c.ok(&["goto", &c.url(PAGE)]);
    // the canvas is at (20, 60): (70, 90) is (50, 30) on it, inside its drawn "Zoom in"
    let at = output(c, &["click", "--x", "70", "--y", "90"]);
    assert_eq!(
        (&at["at"]["role"], &at["at"]["name"]),
        (&json!("img"), &json!("Map")),
        "{at}"
    );
    assert!(at["at"]["ref"].is_string(), "{at}");
    assert!(log(c).contains("click 50,30 zoom trusted"), "{}", log(c));
    c.ok(&["hover", "--x", "5", "--y", "5"]);
    let h = output(c, &["hover", "--x", "100", "--y", "150"]);
    assert_eq!(h["at"]["tag"], "canvas", "{h}");
    assert!(log(c).contains("hover 80,90"), "{}", log(c));
    let d = output(c, &["drag", "40,160", "200,190"]);
    assert_eq!(d["from"]["tag"], "canvas", "{d}");
    assert!(log(c).contains("drag 20,100 to 180,130"), "{}", log(c));
    // a ref and a point at once, half a point, a point off screen: bad input (exit 2)
    let (code, _, err) = run(c, &json!([{"click": {"ref": "s1e1", "x": 1, "y": 2}}]));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("step 1 (click): give a ref or coordinates (x and y), not both"),
        "{err}"
    );
    let (code, _, err) = run(c, &json!([{"hover": {"x": 1}}]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("x and y go together"), "{err}");
    let (code, r, _) = run(c, &json!([{"click": {"x": 99999, "y": 2}}]));
    assert_eq!(code, 2, "{r:#}");
    assert!(
        r["steps"][0]["error"]
            .as_str()
            .unwrap()
            .contains("outside the viewport"),
        "{r:#}"
    );
}

fn click_at_a_point_without_bidi_uses_classic_actions(c: &Ctx) {
    const S: &str = "points-nobidi";
    c.track_session(S);
    let run = |args: &[&str]| {
        let o = c
            .cmd()
            .env("ARIASNAP_BIDI", "0")
            .args(["--session", S])
            .args(args)
            .output()
            .expect("run ariasnap");
        assert!(o.status.success(), "{args:?}: {o:?}");
        serde_json::from_slice::<Value>(&o.stdout).unwrap()
    };
    run(&["goto", &c.url(PAGE)]);
    let r = run(&["click", "--x", "70", "--y", "90"]);
    assert_eq!(r["steps"][0]["output"]["at"]["tag"], "canvas", "{r:#}");
    let r = run(&["eval", "document.getElementById('log').textContent"]);
    let text = r["steps"][0]["output"].as_str().unwrap_or_default();
    assert!(text.contains("click 50,30 zoom trusted"), "{text}");
    c.ok(&["session", "close", S]);
}

fn annotated_screenshot_labels_every_ref_inside_its_box(c: &Ctx) {
    use image::Rgba;
    const MARK: Rgba<u8> = Rgba([255, 0, 255, 255]);
    const TEXT: Rgba<u8> = Rgba([255, 255, 255, 255]);
    c.ok(&["goto", &c.url(PAGE)]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("annotated.png");
    let o = output(
        c,
        &["screenshot", "--annotate", "--path", path.to_str().unwrap()],
    );
    let img = image::open(&path).unwrap().to_rgba8();
    let s = o["scale"].as_f64().unwrap();
    let refs = o["refs"].as_array().unwrap();
    let names: Vec<&str> = refs.iter().map(|r| r["ref"].as_str().unwrap()).collect();
    // the button, the link, the shadow root's button, the frame's button, and the canvas,
    // which takes clicks (an image with listeners: docs/behaviour.md#what-a-user-can-click)
    assert_eq!(refs.len(), 5, "{o:#}");
    assert!(names.iter().any(|n| n.starts_with("f1")), "{names:?}");
    let px = |v: &Value| (v.as_f64().unwrap() * s) as u32;
    let mut allowed = Vec::new();
    for r in refs {
        let b = &r["box"];
        let (x, y, w, h) = (px(&b[0]), px(&b[1]), px(&b[2]), px(&b[3]));
        let [label_w, label_h] =
            ariasnap::annotate::label_size(r["ref"].as_str().unwrap().len(), s);
        let label = (x, y, label_w, label_h);
        allowed.push((x, y, w, h));
        allowed.push(label);
        // the label is drawn at the box's top-left corner, inside it: its colour and its
        // text's colour are there
        let (mut mark, mut text) = (0, 0);
        for yy in y..y + label_h.min(h) {
            for xx in x..x + label_w.min(w) {
                match *img.get_pixel(xx, yy) {
                    p if p == MARK => mark += 1,
                    p if p == TEXT => text += 1,
                    _ => {}
                }
            }
        }
        assert!(
            mark > 20 && text > 5,
            "{r}: {mark} label pixels, {text} text pixels"
        );
    }
    // and nowhere else: no label colour outside the boxes and labels drawn
    let inside = |xx: u32, yy: u32| {
        allowed
            .iter()
            .any(|&(x, y, w, h)| xx + 1 >= x && xx <= x + w && yy + 1 >= y && yy <= y + h)
    };
    let stray = img
        .enumerate_pixels()
        .filter(|(xx, yy, p)| **p == MARK && !inside(*xx, *yy))
        .count();
    assert_eq!(stray, 0, "label colour outside the boxes of {names:?}");
    // the canvas's box is outlined, its middle is as drawn
    assert_ne!(*img.get_pixel(px(&json!(170)), px(&json!(135))), MARK);
    // one element (the box around the right column, given a ref by elementsAt): its image,
    // with the refs inside labelled where they are in it
    let at = output(c, &["elements-at", "510,120"]);
    let tools = at["points"][0]["ref"].as_str().unwrap().to_string();
    assert_eq!(at["points"][0]["box"], json!([360, 60, 160, 190]), "{at}");
    let part = dir.path().join("part.png");
    let o = output(
        c,
        &[
            "screenshot",
            "--annotate",
            "--ref",
            &tools,
            "--path",
            part.to_str().unwrap(),
        ],
    );
    let img = image::open(&part).unwrap().to_rgba8();
    assert_eq!(img.width(), px(&json!(160)), "{o}");
    let drawn = o["refs"].as_array().unwrap();
    assert_eq!(drawn.len(), 3, "{o:#}");
    for (r, top) in drawn.iter().zip([0, 70, 140]) {
        // boxes stay in viewport pixels; in the image they start at the element's corner
        assert_eq!(r["box"][1], 60 + top, "{r}");
        let [lw, lh] = ariasnap::annotate::label_size(r["ref"].as_str().unwrap().len(), s);
        let y0 = px(&json!(top));
        let text = (y0..y0 + lh)
            .flat_map(|y| (0..lw).map(move |x| (x, y)))
            .filter(|&(x, y)| *img.get_pixel(x, y) == TEXT)
            .count();
        assert!(
            text > 5,
            "{r}: {text} label text pixels at the image's (0, {y0})"
        );
    }
    assert_ne!(*img.get_pixel(px(&json!(150)), px(&json!(60))), MARK);
}

/// The page box of the first page: [width, height] of its /MediaBox.
fn media_box(pdf: &[u8]) -> (f64, f64) {
    let re = regex::bytes::Regex::new(
        r"/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]",
    )
    .unwrap();
    // Firefox keeps page objects in compressed object streams
    let text = ariasnap::steps::pdf_object_text(pdf);
    let m = re.captures(&text).expect("a /MediaBox");
    let n = |i: usize| -> f64 { std::str::from_utf8(&m[i]).unwrap().parse().unwrap() };
    (n(3) - n(1), n(4) - n(2))
}

fn pdf_through_webdriver_print_page(c: &Ctx) {
    c.ok(&["goto", &c.url(PAGE)]);
    let dir = tempfile::tempdir().unwrap();
    let portrait = dir.path().join("portrait.pdf");
    let o = output(c, &["pdf", "--path", portrait.to_str().unwrap()]);
    let body = std::fs::read(&portrait).unwrap();
    assert!(body.starts_with(b"%PDF"), "{o}");
    assert_eq!(o["bytes"].as_u64(), Some(body.len() as u64));
    let (w, h) = media_box(&body);
    assert!(h > w, "portrait page box {w} x {h}");
    assert_eq!(o["pages"], 1, "{o}");
    // landscape turns the page box; the artifact is private
    let o = output(
        c,
        &[
            "pdf",
            "--landscape",
            "--print-background",
            "--page-ranges",
            "1",
        ],
    );
    let path = o["path"].as_str().unwrap();
    let body = std::fs::read(path).unwrap();
    assert!(body.starts_with(b"%PDF"));
    let (w, h) = media_box(&body);
    assert!(w > h, "landscape page box {w} x {h}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    std::fs::remove_file(path).unwrap();
    let o = c.run(&["pdf", "--scale", "5"]);
    assert_eq!(o.status.code(), Some(2));
}

fn site_notes_per_domain_and_goto_mentions_them(c: &Ctx) {
    // `localhost`: a domain of its own, so the suite's other pages (127.0.0.1) get no notes
    let url = c.url(PAGE).replace("127.0.0.1", "localhost");
    let first = output(c, &["goto", &url]);
    assert!(first.get("siteNotes").is_none(), "{first}");
    let w = output(
        c,
        &[
            "write-site-notes",
            "the map is a canvas: click it at points",
            "--replace",
        ],
    );
    assert_eq!(w["domain"], "localhost");
    output(c, &["write-site-notes", "Pay is top right"]);
    // goto says the site has notes; reading them gives both lines
    let again = output(c, &["goto", &url]);
    let hint = again["siteNotes"].as_str().unwrap_or_default();
    assert!(
        hint.contains("chars of notes for localhost") && hint.contains("readSiteNotes"),
        "{again}"
    );
    let r = output(c, &["read-site-notes"]);
    assert_eq!(
        r["notes"],
        "the map is a canvas: click it at points\nPay is top right\n"
    );
    let file = c.home.path().join("site-notes-v1/localhost.md");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let dir = file.parent().unwrap();
    assert_eq!(
        std::fs::metadata(dir).unwrap().permissions().mode() & 0o777,
        0o700
    );
    // other domains are apart; names that would leave the directory are refused
    assert_eq!(output(c, &["read-site-notes", "example.org"])["notes"], "");
    for bad in ["../escape", "a/b", "example.org:80"] {
        let o = c.run(&["read-site-notes", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(o.stderr_text().contains("invalid domain"));
    }
    assert!(!c.home.path().join("escape.md").exists());
    // replacing with nothing removes them
    output(c, &["write-site-notes", "", "--replace"]);
    assert!(!file.exists());
    assert!(output(c, &["goto", &url]).get("siteNotes").is_none());
}

fn more_steps_b_step_file_end_to_end(c: &Ctx) {
    let text = std::fs::read_to_string(c.fixtures.join("steps/more-steps-b.json")).unwrap();
    // the example file's server is the suite's fixture server
    let text = text.replace("http://127.0.0.1:8080/", &c.base);
    let steps: Value = serde_json::from_str(&text).unwrap();
    // the run's artifacts go to a directory of the test
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = c.cmd();
    cmd.args(["--artifacts", dir.path().to_str().unwrap()]);
    let (code, r, err) = run_with(cmd, &steps);
    assert_eq!(code, 0, "{r:#}\n{err}");
    let s = r["steps"].as_array().unwrap();
    let names: Vec<&str> = s.iter().map(|x| x["action"].as_str().unwrap()).collect();
    for a in [
        "elementsAt",
        "click",
        "hover",
        "drag",
        "screenshot",
        "pdf",
        "writeSiteNotes",
        "readSiteNotes",
    ] {
        assert!(
            names.contains(&a),
            "{a} missing from the step file: {names:?}"
        );
    }
    for x in s {
        assert_eq!(x["status"], "ok", "{x:#}");
    }
    let by = |a: &str| s.iter().find(|x| x["action"] == a).unwrap();
    assert_eq!(by("elementsAt")["output"]["points"][0]["name"], "Map");
    assert!(by("screenshot")["output"]["refs"].as_array().unwrap().len() >= 4);
    assert!(by("pdf")["output"]["bytes"].as_u64().unwrap() > 100);
    assert!(
        by("readSiteNotes")["output"]["notes"]
            .as_str()
            .unwrap()
            .contains("canvas")
    );
    let last = s.last().unwrap()["output"].as_str().unwrap_or_default();
    for word in [
        "click 50,30 zoom trusted",
        "hover",
        "drag 20,20 to 180,90",
        "pay",
    ] {
        assert!(last.contains(word), "{word}: {last}");
    }
    // every file the run wrote is listed among its artifacts
    assert!(r["artifacts"].as_array().unwrap().len() >= 2, "{r:#}");
}

fn run_with(mut cmd: std::process::Command, steps: &Value) -> (i32, Value, String) {
    use std::io::Write;
    let mut child = cmd
        .args(["run", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(steps.to_string().as_bytes()).unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    let v = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
    (o.status.code().unwrap_or(-1), v, o.stderr_text())
}
