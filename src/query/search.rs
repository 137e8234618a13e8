//! `search`: text / exact / regex / role / near queries answered in the page (SPEC 4).

use crate::actions::engine_ok;
use crate::browser::Browser;
use crate::error::{Error, Result};
use crate::steps::SearchArgs;
use serde_json::{Value, json};

/// Runs a search in the current tab; matches carry ref, role, name, landmark path and box.
pub async fn search(b: &mut Browser, a: &SearchArgs) -> Result<Value> {
    if a.text.is_none() && a.pattern.is_none() && a.role.is_none() && a.near.is_none() {
        return Err(Error::Usage(
            "search needs text, pattern, role or near".into(),
        ));
    }
    if let Some(p) = &a.pattern {
        // Rust's regex syntax is close to JavaScript's for what agents write; reject early
        // what neither accepts.
        if regex::Regex::new(p).is_err() && !p.contains("(?<") {
            return Err(Error::Usage(format!(
                "invalid pattern {p:?}: not a regular expression"
            )));
        }
    }
    let near = match &a.near {
        None => Value::Null,
        Some(v) => parse_near(v)?,
    };
    let limit = a.limit.unwrap_or(10);
    if !(1..=crate::query::MAX_LIMIT).contains(&limit) {
        return Err(Error::Usage(format!(
            "invalid limit {limit}: it must be between 1 and {}",
            crate::query::MAX_LIMIT
        )));
    }
    // Matches may mint refs: they belong to a new snapshot number.
    let n = b.next_snapshot()?;
    let v = engine_ok(
        b,
        "search",
        json!({"text": a.text, "exact": a.exact, "pattern": a.pattern, "role": a.role, "near": near, "limit": limit, "n": n}),
    )
    .await?;
    Ok(json!({"matches": v["matches"], "total": v["total"]}))
}

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
