//! Moving on the page: `scroll` (a ref into view, a ref's scroll container, the page) and
//! `drag` (between refs, points and locators along a pointer path).
//!
//! Owns: these steps' arguments, their checks and their words. Must not: send input other
//! than through `actions`.

use super::act::{Act, Cx, Info, Kind, row};
use super::args::parse_xy;
use super::points::{Point, check_point, look_at, point_arg};
use crate::actions;
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::engine::ScrollTo;
use crate::error::{Error, Result};
use crate::refs::parse_ref;
use crate::safe::quote;
use crate::wire::ScrollReply;
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// `scroll`: a ref into view, a ref's scroll container in a direction, or the page by a
/// delta / to a position / in a direction.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ScrollArgs {
    /// A ref to bring into view; with a direction, the element (or its nearest ancestor)
    /// that scrolls that way is scrolled instead: a scrolling list, a text area.
    #[serde(rename = "ref", default)]
    #[arg(id = "ref", value_name = "REF")]
    pub ref_: Option<String>,
    /// up, down, left, right (the page: 600 CSS pixels; a ref's scroll container: 85% of
    /// what it shows).
    #[serde(default)]
    #[arg(long)]
    pub direction: Option<String>,
    /// How far to scroll in the direction, in CSS pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(long, requires = "direction")]
    pub amount: Option<f64>,
    /// Horizontal delta in CSS pixels.
    #[serde(default)]
    #[arg(long, allow_hyphen_values = true)]
    pub dx: Option<f64>,
    /// Vertical delta in CSS pixels.
    #[serde(default)]
    #[arg(long, allow_hyphen_values = true)]
    pub dy: Option<f64>,
    /// Absolute position [x, y].
    #[serde(default)]
    #[arg(long, value_name = "X,Y", value_parser = parse_xy)]
    pub to: Option<[f64; 2]>,
}

// One end of a drag: a ref, a point {x, y} or a locator (docs/reference/step-files.md#locators)
// (no doc comment: schemars would repeat it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DragEnd {
    Ref(String),
    Point(Point),
    Locator(super::locate::Locator),
}

/// A drag end on the command line: `X,Y` is a point, `role "name"` or a locator's JSON
/// (`{"role": "option", "name": "Apples"}`) a locator, anything else a ref.
fn drag_end(s: &str) -> std::result::Result<DragEnd, String> {
    let t = s.trim();
    if t.starts_with('{') {
        let l: super::locate::Locator =
            serde_json::from_str(t).map_err(|e| format!("a locator: {e}"))?;
        l.check()?;
        return Ok(DragEnd::Locator(l));
    }
    if let Some((role, name)) = t.split_once(' ')
        && let Ok(name) = serde_json::from_str::<String>(name.trim())
    {
        return Ok(DragEnd::Locator(super::locate::Locator {
            role: Some(role.to_string()),
            name: Some(name),
            ..Default::default()
        }));
    }
    if t.contains(',') {
        return point_arg(t).map(DragEnd::Point);
    }
    Ok(DragEnd::Ref(s.to_string()))
}

/// `drag`: press on one ref or point, move to another, release.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct DragArgs {
    /// The ref to pick up, a point {x, y} (command line: X,Y), or a locator {"role",
    /// "name", ...} (command line: `role "name"` or its JSON).
    #[arg(value_parser = drag_end)]
    pub from: DragEnd,
    /// The ref to drop it on, a point {x, y}, or a locator.
    #[arg(value_parser = drag_end)]
    pub to: DragEnd,
}

/// `drag`: between refs and/or points along a pointer path; points are named in the
/// output. On a ref, the drag starts at the point of it a hit test reaches and ends past the
/// middle of the target in the direction of travel (`actions::drop_point`).
pub async fn drag(b: &mut Browser, d: &DragArgs) -> Result<Outcome> {
    let mut named = serde_json::Map::new();
    let unresolved = || {
        Error::Usage("drag: a locator end was not resolved (run it as a step, not through the library's drag)".into())
    };
    let from = match &d.from {
        DragEnd::Locator(_) => return Err(unresolved()),
        DragEnd::Ref(r) => actions::drag_point(b, r).await?,
        DragEnd::Point(p) => {
            let p = check_point(*p).map_err(Error::Usage)?;
            let what = look_at(b, &[p], None, None).await?;
            named.insert("from".into(), json!(what.first()));
            (p.x, p.y)
        }
    };
    let to = match &d.to {
        DragEnd::Locator(_) => return Err(unresolved()),
        DragEnd::Ref(r) => actions::drop_point(b, r, from).await?,
        DragEnd::Point(p) => {
            let p = check_point(*p).map_err(Error::Usage)?;
            let what = look_at(b, &[p], None, None).await?;
            named.insert("to".into(), json!(what.first()));
            (p.x, p.y)
        }
    };
    // bringing the target into view may have scrolled the start away: both again, once
    let (from, to) = match (&d.from, &d.to) {
        (DragEnd::Ref(a), DragEnd::Ref(z)) => {
            let again = actions::drag_point(b, a).await?;
            if again == from {
                (from, to)
            } else {
                (again, actions::drop_point(b, z, again).await?)
            }
        }
        _ => (from, to),
    };
    let warnings = actions::drag_points(b, from, to).await?;
    Ok(Outcome {
        output: (!named.is_empty()).then_some(Value::Object(named)),
        warnings,
        ..Outcome::default()
    })
}

/// `scroll`: a ref into view, a ref's scroll container in a direction, the page to a point,
/// or the page by a direction or delta. A scroll in a direction or by a delta says how far it
/// moved (`by`) and whether it reached the end that way (`end`); a ref's, what scrolled.
pub(super) async fn scroll(b: &mut Browser, s: &super::ScrollArgs) -> Result<Outcome> {
    if let Some(a) = s.amount
        && !(a.is_finite() && a > 0.0)
    {
        return Err(Error::Usage(format!(
            "scroll amount {a}: give a distance in CSS pixels, more than 0"
        )));
    }
    let sign = match s.direction.as_deref() {
        Some("down" | "right") => 1.0,
        Some("up" | "left") => -1.0,
        Some(other) => {
            return Err(Error::Usage(format!(
                "scroll direction {other:?}: use up, down, left or right"
            )));
        }
        None => 0.0,
    };
    let to = match (&s.ref_, s.direction.as_deref()) {
        (Some(r), Some(d)) => ScrollTo::Within {
            r#ref: parse_ref(r)?,
            direction: d.into(),
            amount: s.amount,
        },
        (Some(r), None) => ScrollTo::Ref {
            r#ref: parse_ref(r)?,
        },
        (None, _) if s.to.is_some() => ScrollTo::Point {
            to: s.to.unwrap_or_default(),
        },
        (None, d) => {
            let (mut dx, mut dy) = (s.dx.unwrap_or(0.0), s.dy.unwrap_or(0.0));
            let far = s.amount.unwrap_or(600.0) * sign;
            match d {
                Some("down" | "up") => dy = far,
                Some(_) => dx = far,
                None if s.dx.is_none() && s.dy.is_none() => dy = 600.0,
                None => {}
            }
            ScrollTo::By { dx, dy }
        }
    };
    let v: ScrollReply = ask(b, to).await?;
    let mut out = json!({"scroll": v.scroll});
    if let Some(by) = v.by {
        out["by"] = json!(by);
    }
    if let Some(end) = v.end {
        out["end"] = json!(end);
    }
    if let Some(w) = v.scroller.filter(|_| !v.page) {
        out["scrolled"] = json!(if w.name.is_empty() {
            w.role
        } else {
            format!("{} {}", w.role, quote(&w.name))
        });
    }
    Ok(Outcome::with(out))
}

/// The words of an element's scroll for the summary's lead (docs/reference/replies.md#pointer-actions):
/// `textbox "Licence" down 71 px`, `..., to its end`, or `textbox "Licence": at its end
/// already`; None for the page's scroll (its new position is said as the page's own fact).
pub(super) fn scroll_words(a: &ScrollArgs, out: &Value) -> Option<String> {
    let what = out.get("scrolled")?.as_str()?;
    let dir = a.direction.as_deref()?;
    let by = out.get("by")?;
    let moved = by[0].as_i64().unwrap_or(0).abs() + by[1].as_i64().unwrap_or(0).abs();
    let end = out.get("end").and_then(Value::as_bool) == Some(true);
    Some(match (moved, end) {
        (0, true) => format!("{what}: at its end already"),
        (n, true) => format!("{what} {dir} {n} px, to its end"),
        (n, false) => format!("{what} {dir} {n} px"),
    })
}

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for ScrollArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Scrolled", "browser_scroll", "value", r#"{"direction": "down"} or {"ref": "s1e9"}"#);
    const LOCATED_BY: Option<&'static str> = Some("ref");
    fn target(&self) -> Option<&str> {
        self.ref_.as_deref()
    }
    fn set_target(&mut self, r: String) -> bool {
        self.ref_ = Some(r);
        true
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        scroll(cx.b, self).await
    }
}

impl Act for DragArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::Visual, "Dragged", "browser_drag", "value", r#"{"from": "s1e1", "to": "s1e2"} (or points {"x": 10, "y": 20})"#);
    fn problems(&self) -> Vec<String> {
        [&self.from, &self.to]
            .into_iter()
            .filter_map(|e| match e {
                DragEnd::Point(p) => check_point(*p).err(),
                DragEnd::Ref(_) => None,
                DragEnd::Locator(l) => l.check().err(),
            })
            .collect()
    }
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        drag(cx.b, self).await
    }
}
