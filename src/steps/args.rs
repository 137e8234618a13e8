//! The forms of actions' arguments: an argument written bare or as an object, one value or
//! a list, none at all (one type per action that takes none), points and refs as written.
//!
//! Owns: these forms and their parsing. Must not: name any other step module (a leaf of
//! `steps/`).

use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

// docs/reference/step-files.md#short-forms short forms: an action's argument written bare (`"s1e4"`, `500`, `"Enter"`)
// stands for its object form with one field set. Only step files and MCP tools see this;
// the command line takes the object form's fields as arguments. (No doc comments here:
// schemars would repeat them in every tool's schema.)
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub(super) enum Form<B, F> {
    Bare(B),
    Full(F),
}

/// Deserializes an argument in its short or its object form (see [`Form`]).
pub(super) fn bare_or<'de, D, B, F>(d: D) -> std::result::Result<F, D::Error>
where
    D: Deserializer<'de>,
    B: Deserialize<'de>,
    F: Deserialize<'de> + From<B>,
{
    Ok(match Form::<B, F>::deserialize(d)? {
        Form::Bare(b) => F::from(b),
        Form::Full(f) => f,
    })
}

/// `X,Y` as two numbers (CSS pixels), for `scroll --to` on the command line.
pub(super) fn parse_xy(s: &str) -> std::result::Result<[f64; 2], String> {
    let bad = || format!("expected two numbers X,Y such as 0,800, got {s:?}");
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [x, y] => match (x.parse::<f64>(), y.parse::<f64>()) {
            (Ok(x), Ok(y)) => Ok([x, y]),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

/// An argument that may be absent, `null` or `{}` (actions without arguments).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

// A string or a list of strings (the step file's spellings of a list).
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub(super) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// Deserializes one string or a list of strings as a list.
pub(super) fn one_or_many<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Vec<String>, D::Error> {
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

/// True for text written as a ref (`s1e4`, `f1s2e3`, `@s1e4`, `[ref=s1e4]`).
pub fn looks_like_ref(s: &str) -> bool {
    crate::refs::parse_ref(s).is_ok()
}

/// JSON truthiness of a page value (JavaScript's: null, false, 0, "" are falsy; every
/// object and list is truthy).
pub fn truthy(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Null => false,
        serde_json::Value::Bool(b) => *b,
        serde_json::Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0 && !x.is_nan()),
        serde_json::Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// Argument types of actions that take none, one per action (each carries its action's
/// declaration, `Act`); their schema is [`NoArgs`]'s.
macro_rules! no_args {
    ($($(#[$m:meta])* $T:ident),* $(,)?) => {$(
        $(#[$m])*
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize, clap::Args)]
        #[serde(deny_unknown_fields)]
        pub struct $T {}
    )*};
}
pub(super) use no_args;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn truthiness_is_javascripts() {
        for v in [json!(null), json!(false), json!(0), json!(0.0), json!("")] {
            assert!(!truthy(&v), "{v}");
        }
        for v in [json!(true), json!(1), json!("0"), json!([]), json!({})] {
            assert!(truthy(&v), "{v}");
        }
    }
}
