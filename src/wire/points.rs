//! Replies of the engine's seeing and pointing entry points (js/src/65_points.js):
//! `elementsAt` and `refBoxes`.

use super::SearchMatch;
use serde::{Deserialize, Serialize};

/// `elementsAt`: the viewport's size and one answer per point asked.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ElementsAtReply {
    /// [width, height] in CSS pixels.
    pub viewport: [f64; 2],
    pub points: Vec<PointAt>,
}

/// What is at (or near) one point. Passed on to the step's output as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointAt {
    pub x: serde_json::Number,
    pub y: serde_json::Number,
    /// The point is outside the viewport (the host refuses it).
    #[serde(default, skip_serializing)]
    pub outside: bool,
    /// Nothing is at the point (no element: outside the document).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<bool>,
    /// The element an action at the point reaches (the hit, or its nearest control
    /// ancestor), with a ref to act on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A nameless generic's words (its content, not a name: docs/reference/output.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// [x, y, width, height] in top-level viewport CSS pixels.
    #[serde(default, rename = "box", skip_serializing_if = "Option::is_none")]
    pub bbox: Option<[i64; 4]>,
    /// The deepest element at the point, when it is not the one named above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit: Option<Hit>,
    /// The point is over a cross-origin frame the engine cannot look into.
    #[serde(
        default,
        rename(serialize = "crossOrigin", deserialize = "crossOrigin"),
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub cross_origin: bool,
    /// With a radius: the elements near the point, nearest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<SearchMatch>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
}

/// The deepest element at a point: role (or `generic`), name and tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    pub role: String,
    pub name: String,
    /// A nameless generic's words, as for [`PointAt::text`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    pub tag: String,
}

/// `refBoxes`: one box per ref asked ([x, y, width, height] in top-level viewport CSS
/// pixels; null for refs that do not resolve or have no size), and the viewport's size.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RefBoxesReply {
    pub boxes: Vec<Option<[f64; 4]>>,
    pub viewport: [f64; 2],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_decode_and_pass_on_what_was_found() {
        let raw = r#"{"viewport":[800,600],"points":[
            {"x":10,"y":20,"found":true,"ref":"s2e1","role":"generic","name":"","tag":"canvas","box":[0,0,300,150]},
            {"x":900,"y":1,"outside":true}]}"#;
        let r: ElementsAtReply = serde_json::from_str(raw).unwrap();
        assert_eq!(r.viewport, [800.0, 600.0]);
        assert!(r.points[1].outside && !r.points[0].outside);
        let out = serde_json::to_value(&r.points[0]).unwrap();
        assert_eq!(out["ref"], "s2e1");
        assert_eq!(out["box"], serde_json::json!([0, 0, 300, 150]));
        assert_eq!(out["x"], 10);
        assert!(out.get("outside").is_none() && out.get("crossOrigin").is_none());
    }
}
