//! Seeing and pointing where the accessibility tree is blind: points of the viewport for
//! `click`, `hover` and `drag` (a ref or a point, not both), and `elementsAt` (what is at
//! points, or near them, with a ref to act on).
//!
//! Owns: points and their checks, and `elementsAt`'s output. Must not: send input (input.rs
//! and `actions` do).

use super::act::{Act, Cx, Info, Kind, row};
use super::args::parse_xy;
use crate::actions::Outcome;
use crate::browser::Browser;
use crate::engine::entry;
use crate::error::{Error, Result};
use crate::wire::points::{ElementsAtReply, PointAt};
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::json;

/// What is at (or near) `points`, refs minted for what is found. A point outside the
/// viewport is refused: input there would reach nothing (WebDriver refuses pointer moves
/// outside the viewport, "move target out of bounds").
pub(super) async fn look_at(
    b: &mut Browser,
    points: &[Point],
    radius: Option<f64>,
    limit: Option<usize>,
) -> Result<Vec<PointAt>> {
    let n = b.next_snapshot()?;
    let method = entry::ElementsAt {
        points: points.iter().map(|p| [p.x, p.y]).collect(),
        n,
        radius,
        limit: limit.unwrap_or(10),
    };
    let r: ElementsAtReply = crate::engine::call(&b.page, method).await?;
    if let Some(p) = r.points.iter().find(|p| p.outside) {
        let [w, h] = r.viewport;
        return Err(Error::Usage(format!(
            "point ({}, {}) is outside the viewport ({w} x {h} CSS pixels): give x from 0 to {} and y from 0 to {}, or scroll first",
            p.x,
            p.y,
            w - 1.0,
            h - 1.0
        )));
    }
    Ok(r.points)
}

/// `elementsAt`: what is at each point (the element an action there reaches, with a ref),
/// or with `radius` the elements near each point, nearest first.
pub async fn elements_at(b: &mut Browser, a: &ElementsAtArgs) -> Result<Outcome> {
    let points = a.all_points().map_err(Error::Usage)?;
    let found = look_at(b, &points, a.radius, a.limit).await?;
    Ok(Outcome::with(json!({ "points": found })))
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
    parse_xy(s).map(|[x, y]| Point { x, y })
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

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for ElementsAtArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Reads, "Done", "browser_elements_at", "value", r#"{"x": 120, "y": 80}, [{"x": 1, "y": 2}, ...] or {"x": 120, "y": 80, "radius": 40}"#);
    fn problems(&self) -> Vec<String> {
        self.all_points().err().into_iter().collect()
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        elements_at(cx.b, self).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
