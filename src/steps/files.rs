//! Files a step writes or reads: screenshots (annotated or not), `pdf`, and site notes
//! (with the line `goto` adds when the new page's site has some).
//!
//! Owns: these steps' arguments and outputs. Must not: draw (annotate.rs) or keep notes on
//! disk (notes.rs).

use super::act::{Act, Cx, Info, Kind, row};
use super::options::RunOptions;
use crate::actions::Outcome;
use crate::browser::Browser;
use crate::capture::{CaptureOptions, capture};
use crate::engine::{call_for_ref, entry, frame_chain_of_ref};
use crate::error::{Error, Result};
use crate::wire::points::RefBoxesReply;
use crate::{actions, annotate, notes, spill};
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};

/// `screenshot`: a PNG of the viewport (or of a ref), written to `path` or an artifact.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ScreenshotArgs {
    /// File to write (default: an artifact file).
    #[serde(default)]
    #[arg(long)]
    pub path: Option<String>,
    /// Only this element.
    #[serde(rename = "ref", default)]
    #[arg(long = "ref", id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// Outline every ref's box and label it with its ref (the refs drawn are listed).
    #[serde(default)]
    #[arg(long)]
    pub annotate: bool,
}

/// Writes a file the step made: to `path`, or a private artifact.
fn save(
    body: &[u8],
    path: Option<&str>,
    stem: &str,
    ext: &str,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<String> {
    let path = match path {
        Some(p) => {
            let to = opts.user_path(ext, p)?;
            spill::write_user_file(&to, body)?;
            to.display().to_string()
        }
        None => spill::write_artifact(body, stem, ext, opts.output.artifacts.as_deref())?
            .path
            .display()
            .to_string(),
    };
    artifacts.push(path.clone());
    Ok(path)
}

/// The boxes of `refs` in top-level viewport CSS pixels: one engine call per document
/// (refs of a cross-origin frame are answered there and moved by the frame's offset).
async fn boxes_of(b: &Browser, refs: &[String]) -> Result<(Vec<Option<[f64; 4]>>, [f64; 2])> {
    let mut groups: Vec<(Vec<u32>, Vec<usize>)> = Vec::new();
    for (i, r) in refs.iter().enumerate() {
        let chain = frame_chain_of_ref(r);
        match groups.iter_mut().find(|(c, _)| *c == chain) {
            Some((_, ix)) => ix.push(i),
            None => groups.push((chain, vec![i])),
        }
    }
    let mut boxes = vec![None; refs.len()];
    let mut viewport = [0.0, 0.0];
    for (chain, ix) in groups {
        let method = entry::RefBoxes {
            refs: ix.iter().map(|&i| refs[i].clone()).collect(),
        };
        let (r, (dx, dy)): (RefBoxesReply, _) = call_for_ref(&b.page, method).await?;
        if chain.is_empty() {
            viewport = r.viewport;
        }
        for (&i, bx) in ix.iter().zip(r.boxes) {
            boxes[i] = bx.map(|[x, y, w, h]| [x + dx, y + dy, w, h]);
        }
    }
    if viewport == [0.0, 0.0] {
        let [w, h] = crate::engine::viewport_size(&b.page).await?;
        viewport = [w as f64, h as f64];
    }
    Ok((boxes, viewport))
}

/// The device pixel ratio a screenshot was taken at: its width over the CSS width it
/// shows, to the nearest quarter (a scrollbar's few pixels do not count).
fn scale_of(png_width: u32, css_width: f64) -> f64 {
    if css_width <= 0.0 {
        return 1.0;
    }
    ((f64::from(png_width) / css_width * 4.0).round() / 4.0).max(0.25)
}

/// `screenshot` with `annotate`: the viewport (or the ref's element) with every ref in it
/// outlined and labelled; the refs drawn are listed with their boxes (CSS pixels of the
/// viewport).
pub async fn annotated_screenshot(
    b: &mut Browser,
    s: &ScreenshotArgs,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    let png = match &s.ref_ {
        Some(r) => {
            let id = actions::element(b, r).await?;
            b.page.element_screenshot(&id).await?
        }
        None => b.page.screenshot().await?,
    };
    // the refs of what is on screen now (a viewport snapshot mints them)
    let snap = capture(
        b,
        &CaptureOptions {
            viewport: true,
            no_cache: true,
            max_nodes: 0,
            root: s.ref_.clone(),
            ..Default::default()
        },
    )
    .await?;
    let mut refs: Vec<String> = snap.nodes.iter().filter_map(|n| n.ref_.clone()).collect();
    if let Some(r) = &s.ref_ {
        refs.retain(|x| x != r);
        refs.insert(0, crate::refs::parse_ref(r)?);
    }
    let (boxes, viewport) = boxes_of(b, &refs).await?;
    let width = image_width(&png)?;
    // the image's origin and the CSS width it shows: the viewport, or the element's box
    let (origin, css_width) = match (&s.ref_, boxes.first().copied().flatten()) {
        (Some(_), Some([x, y, w, _])) => ((x.max(0.0), y.max(0.0)), w.min(viewport[0])),
        _ => ((0.0, 0.0), viewport[0]),
    };
    let scale = scale_of(width, css_width);
    let mut marks = Vec::new();
    let mut drawn = Vec::new();
    for (r, bx) in refs.iter().zip(&boxes) {
        let Some([x, y, w, h]) = *bx else { continue };
        if s.ref_
            .as_deref()
            .is_some_and(|root| crate::refs::parse_ref(root).is_ok_and(|p| &p == r))
        {
            // the element itself is the whole image
            continue;
        }
        marks.push(annotate::Mark {
            label: r.clone(),
            rect: [x - origin.0, y - origin.1, w, h],
        });
        drawn.push((r.clone(), [x, y, w, h]));
    }
    let (png, placed) = annotate::annotate(&png, &marks, scale)?;
    let listed: Vec<Value> = drawn
        .iter()
        .zip(&placed)
        .filter(|(_, p)| p.is_some())
        .map(|((r, bx), _)| json!({"ref": r, "box": bx.map(|v| v.round() as i64)}))
        .collect();
    let path = save(
        &png,
        s.path.as_deref(),
        "screenshot",
        ".png",
        opts,
        artifacts,
    )?;
    Ok(Outcome::with(json!({
        "path": path,
        "bytes": png.len(),
        "scale": scale,
        "refs": listed,
    })))
}

/// The width of a PNG from its header (IHDR), without decoding it.
fn image_width(png: &[u8]) -> Result<u32> {
    match png.get(16..20) {
        Some(w) if png.starts_with(b"\x89PNG") => Ok(u32::from_be_bytes([w[0], w[1], w[2], w[3]])),
        _ => Err(Error::Engine(
            "the browser's screenshot is not a PNG".into(),
        )),
    }
}

/// A PDF's object text: the file itself, then its compressed object streams inflated (PDF
/// 1.5 `/Type /ObjStm`, where Firefox's PDFs keep their page objects), so page objects and
/// their `/MediaBox` can be read.
pub fn pdf_object_text(pdf: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = pdf.to_vec();
    let Ok(re) = regex::bytes::Regex::new(r"stream\r?\n") else {
        return out;
    };
    let has = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
    for m in re.find_iter(pdf) {
        if m.start() >= 3 && &pdf[m.start() - 3..m.start()] == b"end" {
            continue;
        }
        // the stream's dictionary: from its object's header on (a few hundred bytes back)
        let lo = m.start().saturating_sub(512);
        let from = pdf[lo..m.start()]
            .windows(3)
            .rposition(|w| w == b"obj")
            .map_or(lo, |i| lo + i);
        let dict = &pdf[from..m.start()];
        if !has(dict, b"/ObjStm") || !has(dict, b"/FlateDecode") {
            continue;
        }
        let mut inflated = Vec::new();
        let mut d = flate2::read::ZlibDecoder::new(&pdf[m.end()..]).take(16 << 20);
        if d.read_to_end(&mut inflated).is_ok() {
            out.push(b'\n');
            out.extend(inflated);
        }
    }
    out
}

/// How many pages a PDF has: its page objects (`/Type /Page`, not `/Pages`), in the file
/// or its object streams. None when none is found.
pub fn pdf_pages(pdf: &[u8]) -> Option<usize> {
    let re = regex::bytes::Regex::new(r"/Type\s*/Page\b").ok()?;
    let n = re.find_iter(&pdf_object_text(pdf)).count();
    (n > 0).then_some(n)
}

/// `pdf`: the page through WebDriver Print Page (W3C WebDriver 18.1), saved to `path` or an
/// artifact.
pub async fn pdf(
    b: &mut Browser,
    p: &PdfArgs,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    p.check().map_err(Error::Usage)?;
    let mut params = serde_json::Map::new();
    params.insert(
        "orientation".into(),
        json!(if p.landscape { "landscape" } else { "portrait" }),
    );
    params.insert("background".into(), json!(p.print_background));
    if let Some(s) = p.scale {
        params.insert("scale".into(), json!(s));
    }
    if let Some(r) = &p.page_ranges {
        // single pages as numbers, ranges as strings (the spec's two forms)
        let list: Vec<Value> = r
            .iter()
            .map(|s| s.parse::<u64>().map_or_else(|_| json!(s), |n| json!(n)))
            .collect();
        params.insert("pageRanges".into(), Value::Array(list));
    }
    let body = crate::engine::print_page(&b.page, Value::Object(params)).await?;
    if !body.starts_with(b"%PDF") {
        return Err(Error::Engine(
            "WebDriver Print Page did not answer a PDF".into(),
        ));
    }
    let path = save(&body, p.path.as_deref(), "page", ".pdf", opts, artifacts)?;
    let mut o = json!({"path": path, "bytes": body.len()});
    if let Some(n) = pdf_pages(&body) {
        o["pages"] = json!(n);
    }
    Ok(Outcome::with(o))
}

/// The domain a notes step is about: the one given, or the current page's host.
async fn notes_domain(b: &Browser, given: Option<&str>) -> Result<String> {
    match given {
        Some(d) => notes::domain(d),
        None => notes::domain_of_url(&b.url().await),
    }
}

/// `readSiteNotes`: the notes of a site (empty when it has none).
pub async fn read_notes(b: &mut Browser, a: &ReadNotesArgs, opts: &RunOptions) -> Result<Outcome> {
    let d = notes_domain(b, a.domain.as_deref()).await?;
    let text = notes::read(&d, opts.notes_dir().as_deref())?;
    Ok(Outcome::with(json!({
        "domain": d,
        "notes": text.unwrap_or_default(),
    })))
}

/// `writeSiteNotes`: appends to (or with `replace`, replaces) a site's notes.
pub async fn write_notes(
    b: &mut Browser,
    a: &WriteNotesArgs,
    opts: &RunOptions,
) -> Result<Outcome> {
    let d = notes_domain(b, a.domain.as_deref()).await?;
    let now = notes::write(&d, &a.notes, a.replace, opts.notes_dir().as_deref())?;
    Ok(Outcome::with(json!({
        "domain": d,
        "chars": now.chars().count(),
    })))
}

/// What `goto` says when the new page's site has notes: their size and how to read them.
pub fn notes_hint(url: &str, opts: &RunOptions) -> Option<Value> {
    let d = notes::domain_of_url(url).ok()?;
    let n = notes::chars(&d, opts.notes_dir().as_deref())?;
    Some(json!(format!(
        "{n} chars of notes for {d}: read them with readSiteNotes"
    )))
}

// `pdf`'s page ranges: "1-3,5" or a list ["1-3", "5"].
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
enum Ranges {
    One(String),
    Many(Vec<String>),
}

fn ranges<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<Vec<String>>, D::Error> {
    let list = match Option::<Ranges>::deserialize(d)? {
        None => return Ok(None),
        Some(Ranges::One(s)) => vec![s],
        Some(Ranges::Many(v)) => v,
    };
    Ok(Some(split_ranges(&list)))
}

/// Page ranges as WebDriver Print Page takes them: one entry per range, whitespace gone.
fn split_ranges(list: &[String]) -> Vec<String> {
    list.iter()
        .flat_map(|s| s.split(','))
        .map(|s| s.split_whitespace().collect::<String>())
        .filter(|s| !s.is_empty())
        .collect()
}

/// One page range on the command line (`--page-ranges 1-3,5` is split at the commas).
fn range_arg(s: &str) -> std::result::Result<String, String> {
    Ok(s.split_whitespace().collect())
}

/// `pdf`: the page printed to PDF (WebDriver Print Page), to `path` or an artifact.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PdfArgs {
    /// File to write (default: an artifact file).
    #[serde(default)]
    #[arg(long)]
    pub path: Option<String>,
    /// Landscape pages (default portrait).
    #[serde(default)]
    #[arg(long)]
    pub landscape: bool,
    /// Print background colours and images.
    #[serde(default)]
    #[arg(long)]
    pub print_background: bool,
    /// Scale, 0.1 to 2 (default 1).
    #[serde(default)]
    #[arg(long)]
    pub scale: Option<f64>,
    /// Pages to print: "1-3,5" or ["1-3", "5"] (default all).
    #[serde(default, deserialize_with = "ranges")]
    #[schemars(with = "Option<Ranges>")]
    #[arg(long, value_name = "RANGES", value_delimiter = ',', value_parser = range_arg)]
    pub page_ranges: Option<Vec<String>>,
}

impl PdfArgs {
    /// Checks the options against WebDriver Print Page's bounds (scale 0.1..=2, ranges of
    /// page numbers `N` or `N-M`).
    pub fn check(&self) -> std::result::Result<(), String> {
        if let Some(s) = self.scale
            && !(0.1..=2.0).contains(&s)
        {
            return Err(format!("scale {s}: WebDriver Print Page takes 0.1 to 2"));
        }
        let range = regex::Regex::new(r"^(\d+)?(-(\d+)?)?$").ok();
        for r in self.page_ranges.iter().flatten() {
            if r == "-" || !range.as_ref().is_some_and(|re| re.is_match(r)) {
                return Err(format!(
                    "page range {r:?}: use page numbers and ranges such as \"1-3,5\""
                ));
            }
        }
        Ok(())
    }
}

/// `readSiteNotes`: the notes kept for a site.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ReadNotesArgs {
    /// The site's host (default: the current page's).
    #[serde(default)]
    pub domain: Option<String>,
}

impl From<String> for ReadNotesArgs {
    fn from(domain: String) -> Self {
        ReadNotesArgs {
            domain: Some(domain),
        }
    }
}

/// `writeSiteNotes`: adds to (or replaces) the notes kept for a site.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct WriteNotesArgs {
    /// What to remember about the site (appended as a new line).
    pub notes: String,
    /// The site's host (default: the current page's).
    #[serde(default)]
    #[arg(long)]
    pub domain: Option<String>,
    /// Replace the site's notes instead of appending.
    #[serde(default)]
    #[arg(long)]
    pub replace: bool,
}

impl From<String> for WriteNotesArgs {
    fn from(notes: String) -> Self {
        WriteNotesArgs {
            notes,
            ..Default::default()
        }
    }
}

/// `screenshot`: a PNG of the page or of one ref, to `path` or an artifact.
pub(super) async fn screenshot(
    b: &mut Browser,
    s: &super::ScreenshotArgs,
    opts: &RunOptions,
    artifacts: &mut Vec<String>,
) -> Result<Outcome> {
    let png = match &s.ref_ {
        Some(r) => {
            let id = actions::element(b, r).await?;
            b.page.element_screenshot(&id).await?
        }
        None => b.page.screenshot().await?,
    };
    let path = match &s.path {
        Some(p) => {
            let to = opts.user_path("screenshot", p)?;
            spill::write_user_file(&to, &png)?;
            to.display().to_string()
        }
        None => {
            let a = spill::write_artifact(
                &png,
                "screenshot",
                ".png",
                opts.output.artifacts.as_deref(),
            )?;
            a.path.display().to_string()
        }
    };
    artifacts.push(path.clone());
    Ok(Outcome::with(json!({"path": path, "bytes": png.len()})))
}

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for ScreenshotArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_take_screenshot", "value", r#"true or {"path": "page.png", "annotate": true}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        self.ref_.as_deref()
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = Some(r);
        true
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        if self.annotate {
            annotated_screenshot(cx.b, self, cx.opts, cx.artifacts).await
        } else {
            screenshot(cx.b, self, cx.opts, cx.artifacts).await
        }
    }
}

impl Act for PdfArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_pdf", "value", r#"{"path": "page.pdf", "landscape": true}"#);
    fn problems(&self) -> Vec<String> {
        self.check().err().into_iter().collect()
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        pdf(cx.b, self, cx.opts, cx.artifacts).await
    }
}

impl Act for ReadNotesArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_read_site_notes", "value", r#"true or "example.org""#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        read_notes(cx.b, self, cx.opts).await
    }
}

impl Act for WriteNotesArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_write_site_notes", "value", r#""text to remember" or {"notes": "...", "domain": "example.org", "replace": true}"#);
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        write_notes(cx.b, self, cx.opts).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdf_options_are_checked() {
        let ok = PdfArgs {
            scale: Some(0.5),
            page_ranges: Some(split_ranges(&["1-3, 5".into(), "7-".into()])),
            ..Default::default()
        };
        assert_eq!(ok.page_ranges.as_deref().unwrap(), ["1-3", "5", "7-"]);
        assert!(ok.check().is_ok());
        let big = PdfArgs {
            scale: Some(3.0),
            ..Default::default()
        };
        assert!(big.check().unwrap_err().contains("0.1 to 2"));
        let bad = PdfArgs {
            page_ranges: Some(vec!["one".into()]),
            ..Default::default()
        };
        assert!(bad.check().unwrap_err().contains("page range"));
    }

    #[test]
    fn scale_and_pages() {
        assert_eq!(scale_of(800, 800.0), 1.0);
        assert_eq!(scale_of(1600, 800.0), 2.0);
        assert_eq!(scale_of(785, 800.0), 1.0);
        assert_eq!(scale_of(100, 0.0), 1.0);
        let pdf = b"%PDF-1.4\n1 0 obj <</Type /Pages /Kids [2 0 R 3 0 R]>>\n2 0 obj <</Type /Page>>\n3 0 obj <</Type/Page /MediaBox [0 0 612 792]>>";
        assert_eq!(pdf_pages(pdf), Some(2));
        assert_eq!(pdf_pages(b"%PDF-1.7"), None);
        // a page kept in a compressed object stream (as Firefox writes them)
        use std::io::Write;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        // (padded so that it is compressed, not stored as it is)
        let page = format!("<</Type /Page /MediaBox [0 0 842 595]>>{}", " ".repeat(300));
        z.write_all(page.as_bytes()).unwrap();
        let mut packed =
            b"%PDF-1.7\n8 0 obj\n<< /Type /ObjStm /N 1 /Filter /FlateDecode >>\nstream\n".to_vec();
        packed.extend(z.finish().unwrap());
        packed.extend(b"\nendstream\nendobj\n");
        assert_eq!(pdf_pages(&packed), Some(1));
        let text = pdf_object_text(&packed);
        assert!(text.windows(8).any(|w| w == b"MediaBox"));
    }
}
