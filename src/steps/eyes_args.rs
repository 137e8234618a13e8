//! The arguments of the steps that see and point where the accessibility tree is blind
//! (issue 16): `elementsAt`, coordinates for `click` / `hover` / `drag`, `pdf` and the site
//! notes. Part of the one step schema (see `steps/mod.rs`).
//!
//! Owns: these argument types, their short forms and their checks (a ref or coordinates,
//! not both). Must not: run anything (steps/eyes.rs does).

use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

// A point of the viewport, CSS pixels from its top-left corner (no doc comment: schemars
// would repeat it wherever a point is taken).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// `X,Y` on the command line.
pub(super) fn point_arg(s: &str) -> std::result::Result<Point, String> {
    super::parse_xy(s).map(|[x, y]| Point { x, y })
}

/// The checks of a point given as `x` and `y` beside a ref (click, hover): one of the two,
/// both coordinates, finite and not negative. `what` names the action in messages.
pub fn check_target(
    what: &str,
    r: Option<&str>,
    x: Option<f64>,
    y: Option<f64>,
) -> std::result::Result<Option<Point>, String> {
    match (r, x, y) {
        (Some(_), None, None) => Ok(None),
        (Some(_), _, _) => Err(format!(
            "give a ref or coordinates (x and y), not both: {what} acts on one of them"
        )),
        (None, Some(x), Some(y)) => check_point(Point { x, y }).map(Some),
        (None, None, None) => Err(format!(
            "{what} needs a ref (\"s1e4\") or a point ({{\"x\": 120, \"y\": 80}}, CSS pixels of the viewport)"
        )),
        (None, _, _) => Err("x and y go together: give both coordinates of the point".into()),
    }
}

/// A point's coordinates must be finite and not negative (the viewport's own bounds are
/// checked in the page, where they are known).
pub fn check_point(p: Point) -> std::result::Result<Point, String> {
    if p.x.is_finite() && p.y.is_finite() && p.x >= 0.0 && p.y >= 0.0 {
        Ok(p)
    } else {
        Err(format!(
            "point ({}, {}) is outside the viewport: coordinates are CSS pixels from its top-left corner, 0 or more",
            p.x, p.y
        ))
    }
}

/// `hover`: a ref, or a point of the viewport.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct HoverArgs {
    /// The element's ref (or give x and y).
    #[serde(rename = "ref", default)]
    #[arg(id = "ref", value_name = "REF", required_unless_present = "x", conflicts_with_all = ["x", "y"])]
    pub ref_: Option<String>,
    /// A point instead of a ref: x in CSS pixels of the viewport.
    #[serde(default)]
    #[arg(long, requires = "y")]
    pub x: Option<f64>,
    /// y in CSS pixels of the viewport.
    #[serde(default)]
    #[arg(long, requires = "x")]
    pub y: Option<f64>,
}

impl From<String> for HoverArgs {
    fn from(r: String) -> Self {
        HoverArgs {
            ref_: Some(r),
            x: None,
            y: None,
        }
    }
}

// One end of a drag: a ref or a point {x, y} (no doc comment: schemars would repeat it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DragEnd {
    Ref(String),
    Point(Point),
}

/// A drag end on the command line: `X,Y` is a point, anything else a ref.
fn drag_end(s: &str) -> std::result::Result<DragEnd, String> {
    if s.contains(',') {
        return point_arg(s).map(DragEnd::Point);
    }
    Ok(DragEnd::Ref(s.to_string()))
}

/// `drag`: press on one ref or point, move to another, release.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct DragArgs {
    /// The ref to pick up, or a point {x, y} (command line: X,Y).
    #[arg(value_parser = drag_end)]
    pub from: DragEnd,
    /// The ref to drop it on, or a point {x, y}.
    #[arg(value_parser = drag_end)]
    pub to: DragEnd,
}

/// `elementsAt`: what is at points of the viewport (with refs minted for it), or what is
/// near them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ElementsAtArgs {
    /// x of one point, CSS pixels of the viewport.
    #[serde(default)]
    #[arg(long, requires = "y")]
    pub x: Option<f64>,
    /// y of that point.
    #[serde(default)]
    #[arg(long, requires = "x")]
    pub y: Option<f64>,
    /// Several points: [{x, y}, ...] (command line: X,Y ...).
    #[serde(default)]
    #[arg(value_name = "POINTS", value_parser = point_arg)]
    pub points: Vec<Point>,
    /// The elements within this many CSS pixels of each point, nearest first, instead of
    /// the one at it.
    #[serde(default)]
    #[arg(long)]
    pub radius: Option<f64>,
    /// Most elements per point with radius (default 10).
    #[serde(default)]
    #[arg(long)]
    pub limit: Option<usize>,
}

/// `elementsAt`'s bare form: one point or a list of points.
pub(super) fn points_or_args<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<ElementsAtArgs, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum F {
        Many(Vec<Point>),
        Args(ElementsAtArgs),
    }
    Ok(match F::deserialize(d)? {
        F::Many(points) => ElementsAtArgs {
            points,
            ..Default::default()
        },
        F::Args(a) => a,
    })
}

// The forms `elementsAt` takes, for the schema.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub(super) enum ElementsAtForm {
    Many(Vec<Point>),
    Args(ElementsAtArgs),
}

impl ElementsAtArgs {
    /// The points asked about: `x`/`y` and `points`, checked (at least one, at most 100,
    /// coordinates finite and not negative, radius and limit sensible).
    pub fn all_points(&self) -> std::result::Result<Vec<Point>, String> {
        let mut out = Vec::new();
        match (self.x, self.y) {
            (Some(x), Some(y)) => out.push(Point { x, y }),
            (None, None) => {}
            _ => return Err("x and y go together: give both coordinates of the point".into()),
        }
        out.extend(self.points.iter().copied());
        if out.is_empty() {
            return Err(
                "elementsAt needs a point: {\"x\": 120, \"y\": 80} or a list of them".into(),
            );
        }
        if out.len() > 100 {
            return Err(format!(
                "elementsAt takes at most 100 points, got {}",
                out.len()
            ));
        }
        if let Some(r) = self.radius
            && !(r.is_finite() && r >= 0.0)
        {
            return Err(format!(
                "radius {r}: give a distance in CSS pixels, 0 or more"
            ));
        }
        if let Some(l) = self.limit
            && !(1..=crate::query::MAX_LIMIT).contains(&l)
        {
            return Err(format!(
                "limit {l}: it must be between 1 and {}",
                crate::query::MAX_LIMIT
            ));
        }
        out.into_iter().map(check_point).collect()
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ref_or_a_point_not_both() {
        assert_eq!(check_target("click", Some("s1e4"), None, None), Ok(None));
        assert_eq!(
            check_target("click", None, Some(3.0), Some(4.0)),
            Ok(Some(Point { x: 3.0, y: 4.0 }))
        );
        let both = check_target("click", Some("s1e4"), Some(1.0), Some(2.0)).unwrap_err();
        assert!(both.contains("not both"), "{both}");
        let none = check_target("hover", None, None, None).unwrap_err();
        assert!(none.starts_with("hover needs a ref"), "{none}");
        let half = check_target("click", None, Some(1.0), None).unwrap_err();
        assert!(half.contains("x and y go together"), "{half}");
        let neg = check_target("click", None, Some(-1.0), Some(2.0)).unwrap_err();
        assert!(neg.contains("outside the viewport"), "{neg}");
    }

    #[test]
    fn elements_at_points_and_limits() {
        let a = ElementsAtArgs {
            x: Some(1.0),
            y: Some(2.0),
            points: vec![Point { x: 5.0, y: 6.0 }],
            ..Default::default()
        };
        assert_eq!(a.all_points().unwrap().len(), 2);
        assert!(ElementsAtArgs::default().all_points().is_err());
        let far = ElementsAtArgs {
            x: Some(1.0),
            y: Some(1.0),
            radius: Some(f64::NAN),
            ..Default::default()
        };
        assert!(far.all_points().unwrap_err().contains("radius"));
    }

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
}
