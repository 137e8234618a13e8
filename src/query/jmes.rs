//! JMESPath over snapshots, with the functions docs/reference/search.md#jmespath-queries adds: `nvl(v, d)`, `int(v)`, `str(v)`,
//! `regex_replace(pattern, replacement, v)`.

use crate::error::{Error, Result};
use jmespath::functions::{ArgumentType, CustomFunction, Signature};
use jmespath::{Context, ErrorReason, JmespathError, Rcvar, Runtime, Variable};
use serde_json::Value;

fn runtime() -> Runtime {
    let mut rt = Runtime::new();
    rt.register_builtin_functions();
    rt.register_function(
        "nvl",
        Box::new(CustomFunction::new(
            Signature::new(vec![ArgumentType::Any, ArgumentType::Any], None),
            Box::new(|args: &[Rcvar], _: &mut Context<'_>| {
                Ok(if args[0].is_null() {
                    args[1].clone()
                } else {
                    args[0].clone()
                })
            }),
        )),
    );
    rt.register_function(
        "int",
        Box::new(CustomFunction::new(
            Signature::new(vec![ArgumentType::Any], None),
            Box::new(|args: &[Rcvar], _: &mut Context<'_>| {
                let v: Option<f64> = match &*args[0] {
                    Variable::Number(n) => n.as_f64(),
                    Variable::String(s) => s.trim().parse::<f64>().ok(),
                    Variable::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
                    _ => None,
                };
                Ok(Rcvar::new(match v {
                    Some(f) if f.is_finite() => {
                        Variable::Number(serde_json::Number::from(f.trunc() as i64))
                    }
                    _ => Variable::Null,
                }))
            }),
        )),
    );
    rt.register_function(
        "str",
        Box::new(CustomFunction::new(
            Signature::new(vec![ArgumentType::Any], None),
            Box::new(|args: &[Rcvar], _: &mut Context<'_>| {
                let s = match &*args[0] {
                    Variable::String(s) => s.clone(),
                    Variable::Null => String::new(),
                    other => serde_json::to_string(other).unwrap_or_default(),
                };
                Ok(Rcvar::new(Variable::String(s)))
            }),
        )),
    );
    rt.register_function(
        "regex_replace",
        Box::new(CustomFunction::new(
            Signature::new(
                vec![
                    ArgumentType::String,
                    ArgumentType::String,
                    ArgumentType::Any,
                ],
                None,
            ),
            Box::new(|args: &[Rcvar], ctx: &mut Context<'_>| {
                let (Some(p), Some(r)) = (args[0].as_string(), args[1].as_string()) else {
                    return Ok(Rcvar::new(Variable::Null));
                };
                let re = regex::Regex::new(p).map_err(|e| {
                    JmespathError::from_ctx(
                        ctx,
                        ErrorReason::Parse(format!("regex_replace: invalid pattern: {e}")),
                    )
                })?;
                Ok(Rcvar::new(match &*args[2] {
                    Variable::String(s) => {
                        Variable::String(re.replace_all(s, r.as_str()).into_owned())
                    }
                    Variable::Null => Variable::Null,
                    other => {
                        let s = serde_json::to_string(other).unwrap_or_default();
                        Variable::String(re.replace_all(&s, r.as_str()).into_owned())
                    }
                }))
            }),
        )),
    );
    rt
}

/// Runs a JMESPath expression over `data`.
pub fn search(expr: &str, data: &Value) -> Result<Value> {
    let rt = runtime();
    let compiled = rt
        .compile(expr)
        .map_err(|e| Error::Usage(format!("invalid JMESPath query: {}", reason(&e))))?;
    let out = compiled
        .search(data)
        .map_err(|e| Error::Usage(format!("invalid JMESPath query: {}", reason(&e))))?;
    serde_json::to_value(&*out).map_err(|source| Error::Json {
        what: "a JMESPath result",
        source,
    })
}

fn reason(e: &JmespathError) -> String {
    // The library's Display spans several lines with a caret: keep it on one line.
    e.to_string()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn custom_functions_work() {
        let d =
            json!([{"name": "Pay", "n": "12", "v": null}, {"name": "Save 2", "n": 3.7, "v": "x"}]);
        assert_eq!(
            search("[].nvl(v, 'none')", &d).unwrap(),
            json!(["none", "x"])
        );
        assert_eq!(search("[].int(n)", &d).unwrap(), json!([12, 3]));
        assert_eq!(search("[].str(n)", &d).unwrap(), json!(["12", "3.7"]));
        assert_eq!(
            search("[].regex_replace('[0-9]+', '#', name)", &d).unwrap(),
            json!(["Pay", "Save #"])
        );
        assert_eq!(
            search(
                "[?role == 'button'].name",
                &json!([{"role": "button", "name": "A"}, {"role": "link", "name": "B"}])
            )
            .unwrap(),
            json!(["A"])
        );
    }

    #[test]
    fn invalid_queries_say_why() {
        let e = search("[?role ==", &json!([])).unwrap_err();
        assert!(e.to_string().starts_with("invalid JMESPath query: "), "{e}");
        assert_eq!(e.exit_code(), 2);
        let e = search("regex_replace('(', 'x', name)", &json!({"name": "a"})).unwrap_err();
        assert!(e.to_string().contains("invalid pattern"), "{e}");
    }
}
