//! `search` arguments (docs/reference/search.md#search): the `near` point in both spellings. The search itself runs
//! in the page (`steps::looking::search`).

use crate::error::{Error, Result};
use crate::near::Near;
use serde::Deserialize;
use serde_json::Value;

/// `near` as an object: `radius` is optional (and ignored when it is not a number).
#[derive(Deserialize)]
struct NearObject {
    x: f64,
    y: f64,
    #[serde(default, deserialize_with = "number_or_none")]
    radius: Option<f64>,
}

fn number_or_none<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(Value::deserialize(d)?.as_f64())
}

/// `near` as `{x, y, radius?}` or `"x,y[,r]"` (radius 50 by default).
pub fn parse_near(v: &Value) -> Result<Near> {
    let bad = || {
        Error::Usage(format!(
            "invalid near {v}: expected {{\"x\": 100, \"y\": 200, \"radius\": 50}} or \"X,Y[,R]\""
        ))
    };
    match v {
        Value::Object(_) => {
            let n = NearObject::deserialize(v).map_err(|_| bad())?;
            Ok(Near {
                x: n.x,
                y: n.y,
                radius: n.radius.unwrap_or(50.0),
            })
        }
        Value::String(s) => {
            let parts: Vec<f64> = s
                .split(',')
                .map(|p| p.trim().parse::<f64>())
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| bad())?;
            match *parts.as_slice() {
                [x, y] => Ok(Near { x, y, radius: 50.0 }),
                [x, y, radius] => Ok(Near { x, y, radius }),
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn near_accepts_both_spellings() {
        let near = |x, y, radius| Near { x, y, radius };
        assert_eq!(parse_near(&json!("10,20")).unwrap(), near(10.0, 20.0, 50.0));
        assert_eq!(
            parse_near(&json!("10, 20, 5")).unwrap(),
            near(10.0, 20.0, 5.0)
        );
        assert_eq!(
            parse_near(&json!({"x": 1, "y": 2})).unwrap(),
            near(1.0, 2.0, 50.0)
        );
        assert!(parse_near(&json!("a,b")).is_err());
        assert!(parse_near(&json!({"x": 1})).is_err());
    }
}
