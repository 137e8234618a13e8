//! `search` arguments (SPEC 4): the `near` point in both spellings. The search itself runs
//! in the page (`steps::look::search`).

use crate::error::{Error, Result};
use serde_json::{Value, json};

/// `near` as `{x, y, radius?}` or `"x,y[,r]"`.
pub fn parse_near(v: &Value) -> Result<Value> {
    let bad = || {
        Error::Usage(format!(
            "invalid near {v}: expected {{\"x\": 100, \"y\": 200, \"radius\": 50}} or \"X,Y[,R]\""
        ))
    };
    match v {
        Value::Object(m) => {
            let x = m.get("x").and_then(Value::as_f64).ok_or_else(bad)?;
            let y = m.get("y").and_then(Value::as_f64).ok_or_else(bad)?;
            let r = m.get("radius").and_then(Value::as_f64).unwrap_or(50.0);
            Ok(json!({"x": x, "y": y, "radius": r}))
        }
        Value::String(s) => {
            let parts: Vec<f64> = s
                .split(',')
                .map(|p| p.trim().parse::<f64>())
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| bad())?;
            match parts.as_slice() {
                [x, y] => Ok(json!({"x": x, "y": y, "radius": 50.0})),
                [x, y, r] => Ok(json!({"x": x, "y": y, "radius": r})),
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_accepts_both_spellings() {
        assert_eq!(
            parse_near(&json!("10,20")).unwrap(),
            json!({"x": 10.0, "y": 20.0, "radius": 50.0})
        );
        assert_eq!(
            parse_near(&json!("10, 20, 5")).unwrap(),
            json!({"x": 10.0, "y": 20.0, "radius": 5.0})
        );
        assert_eq!(
            parse_near(&json!({"x": 1, "y": 2})).unwrap()["radius"],
            50.0
        );
        assert!(parse_near(&json!("a,b")).is_err());
        assert!(parse_near(&json!({"x": 1})).is_err());
    }
}
