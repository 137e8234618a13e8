//! The words of a step-file error below the top: an option's path (`queryAll.b.role`), what
//! it takes, read from the step schema (its type, or the few words it accepts), and the
//! nearest known option for a misspelt one. `parse.rs` asks here once serde has refused a
//! step, so nothing here can turn away a step that parses.
//!
//! Owns: reading the step schema for messages. Must not: parse step files (parse.rs).

use serde_json::Value;

pub(super) fn suggest(word: &str, options: &[&str]) -> Option<String> {
    options
        .iter()
        .map(|o| {
            (
                strsim::jaro_winkler(&word.to_lowercase(), &o.to_lowercase()),
                *o,
            )
        })
        .filter(|(s, _)| *s >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, o)| o.to_string())
}

/// JSON's word for what a value is.
pub(super) fn what(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!(
            "the string {}",
            serde_json::to_string(s).unwrap_or_default()
        ),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// The step schema (the one the MCP tools are made from).
pub(super) fn schema() -> &'static Value {
    static SCHEMA: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    SCHEMA.get_or_init(super::step_schema)
}

/// A schema node with its `$ref` followed, and the name of the definition it refers to.
fn resolve(v: &'static Value) -> (&'static Value, Option<&'static str>) {
    static NULL: Value = Value::Null;
    match v.get("$ref").and_then(Value::as_str) {
        Some(r) => (
            r.strip_prefix('#')
                .and_then(|p| schema().pointer(p))
                .unwrap_or(&NULL),
            r.strip_prefix("#/$defs/"),
        ),
        None => (v, None),
    }
}

/// The schema of an action's argument (all its forms).
fn action_schema(action: &str) -> Option<&'static Value> {
    let mut stack = vec![resolve(schema()).0];
    while let Some(v) = stack.pop() {
        if let Some(a) = v.get("properties").and_then(|p| p.get(action)) {
            return Some(a);
        }
        for k in ["oneOf", "anyOf", "allOf"] {
            if let Some(list) = v.get(k).and_then(Value::as_array) {
                stack.extend(list.iter().map(|f| resolve(f).0));
            }
        }
    }
    None
}

/// The option names an action's object form takes, read from the step schema:
/// `$ref`s resolved, `anyOf`/`oneOf` forms merged.
pub(super) fn option_names(action: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut forms: Vec<&Value> = action_schema(action).into_iter().collect();
    while let Some(f) = forms.pop() {
        let f = resolve(f).0;
        if let Some(p) = f.get("properties").and_then(Value::as_object) {
            names.extend(p.keys().cloned());
        }
        for k in ["oneOf", "anyOf", "allOf"] {
            if let Some(list) = f.get(k).and_then(Value::as_array) {
                forms.extend(list.iter());
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

const DETAILS: &[&str] = &["full", "interactive", "summary"];

/// Text options that take one of a few words (the schema says text, and names the words in
/// the option's description), by the schema definition and the option that holds them.
/// (`waitUntil` is checked by its declaration, `Act::problems`.)
const CHOICES: &[(&str, &str, &[&str])] = &[
    ("SnapshotArgs", "detail", DETAILS),
    ("GotoArgs", "snapshot", DETAILS),
    ("SnapshotArgs", "output_format", &["text", "json", "yaml"]),
    ("ScrollArgs", "direction", &["up", "down", "left", "right"]),
    ("CookiesArgs", "action", &["list", "set", "clear"]),
    ("TargetArgs", "button", &["left", "middle", "right"]),
];

fn choices_of(def: Option<&str>, option: &str) -> Option<&'static [&'static str]> {
    CHOICES
        .iter()
        .find(|(d, o, _)| Some(*d) == def && *o == option)
        .map(|(_, _, c)| *c)
}

/// `a, b or c`.
fn join_or<S: AsRef<str>>(words: &[S]) -> String {
    match words {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} or {}", rest.join(", "), last.as_ref())
        }
    }
}

/// What a schema node takes, in plain words (`a whole number (0 or more)`, `"up", "down",
/// "left" or "right"`, `a list of 2 numbers`); `plural` for the items of a list.
fn takes(s: &'static Value, choices: Option<&[&str]>, plural: bool, depth: usize) -> String {
    let (s, _) = resolve(s);
    if depth > 3 {
        return "a value".into();
    }
    let one = |a: &str, many: &str| {
        if plural {
            many.to_string()
        } else {
            a.to_string()
        }
    };
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        let words: Vec<String> = e
            .iter()
            .filter(|v| !v.is_null())
            .map(Value::to_string)
            .collect();
        return join_or(&words);
    }
    if let Some(forms) = s
        .get("anyOf")
        .or_else(|| s.get("oneOf"))
        .and_then(Value::as_array)
    {
        let mut words: Vec<String> = Vec::new();
        for w in forms.iter().map(|f| takes(f, choices, plural, depth)) {
            if !w.is_empty() && !words.contains(&w) {
                words.push(w);
            }
        }
        return join_or(&words);
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ if s.get("properties").is_some() => vec!["object"],
        _ => vec![],
    };
    let bound = |k: &str| s.get(k).and_then(Value::as_f64);
    let words: Vec<String> = types
        .into_iter()
        .filter(|t| *t != "null")
        .map(|t| match t {
            "string" => match choices {
                Some(c) => {
                    let quoted: Vec<String> = c.iter().map(|w| format!("\"{w}\"")).collect();
                    join_or(&quoted)
                }
                None => one("text", "texts"),
            },
            "boolean" => one("true or false", "true/false values"),
            "integer" | "number" => {
                let base = match t {
                    "integer" => one("a whole number", "whole numbers"),
                    _ => one("a number", "numbers"),
                };
                match (bound("minimum"), bound("maximum")) {
                    (Some(lo), Some(hi)) => format!("{base} ({lo} to {hi})"),
                    (Some(lo), None) => format!("{base} ({lo} or more)"),
                    _ => base,
                }
            }
            "array" => {
                let items = s
                    .get("items")
                    .map(|i| takes(i, None, true, depth + 1))
                    .unwrap_or_else(|| "values".into());
                let list = one("a list", "lists");
                match (bound("minItems"), bound("maxItems")) {
                    (Some(lo), Some(hi)) if lo == hi => format!("{list} of {lo} {items}"),
                    _ => format!("{list} of {items}"),
                }
            }
            "object" => {
                let obj = one("an object", "objects");
                match (
                    s.get("properties").and_then(Value::as_object),
                    s.get("additionalProperties").filter(|a| a.is_object()),
                ) {
                    (Some(p), _) if !p.is_empty() => {
                        let names: Vec<&str> = p.keys().map(String::as_str).collect();
                        format!("{obj} with the options {}", names.join(", "))
                    }
                    (_, Some(a)) => {
                        format!("{obj} whose values are {}", takes(a, None, true, depth + 1))
                    }
                    _ => obj,
                }
            }
            other => other.to_string(),
        })
        .collect();
    join_or(&words)
}

/// What is wrong with an option (or the argument itself, at depth 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Wrong {
    /// of the wrong type, or out of bounds
    Kind,
    /// a word that is none of the option's choices
    Choice,
    Unknown,
    Missing,
}

#[derive(Debug)]
pub(super) struct Problem {
    /// 0: the argument itself; 1: one of its options; 2: an option of an option...
    pub(super) depth: usize,
    pub(super) wrong: Wrong,
    /// in plain words, naming the option's path (`snapshot.detail`)
    pub(super) text: String,
}

/// The problem that says most: a bad value before an unknown or missing option, the deeper
/// first, the first of equals.
fn best(found: Vec<Problem>) -> Option<Problem> {
    let score = |p: &Problem| (!matches!(p.wrong, Wrong::Unknown | Wrong::Missing), p.depth);
    let mut out: Option<Problem> = None;
    for p in found {
        if out.as_ref().is_none_or(|o| score(&p) > score(o)) {
            out = Some(p);
        }
    }
    out
}

/// Whether a value is of a JSON schema type.
fn fits(v: &Value, t: &str) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => true,
    }
}

/// Checks a value against its schema (`path` names it: `snapshot`, `fill.fields.s1e3`,
/// `elementsAt[0].y`) and returns what is wrong with it in plain words, or None when the
/// schema takes it. Where a value may take several forms, the form of the value's own kind
/// says what is wrong inside it.
pub(super) fn check(
    v: &Value,
    s: &'static Value,
    path: &str,
    depth: usize,
    choices: Option<&'static [&'static str]>,
) -> Option<Problem> {
    let (s, def) = resolve(s);
    let kind = |wrong| Problem {
        depth,
        wrong,
        text: format!(
            "{path} takes {}, got {}",
            takes(s, choices, false, 0),
            what(v)
        ),
    };
    if let Some(forms) = s
        .get("anyOf")
        .or_else(|| s.get("oneOf"))
        .and_then(Value::as_array)
    {
        let mut found = Vec::new();
        for f in forms {
            match check(v, f, path, depth, choices) {
                None => return None,
                // a form for another kind of value
                Some(p) if p.wrong == Wrong::Kind && p.depth == depth => {}
                Some(p) => found.push(p),
            }
        }
        return Some(best(found).unwrap_or_else(|| kind(Wrong::Kind)));
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if !types.is_empty() && !types.iter().any(|t| fits(v, t)) {
        return Some(kind(Wrong::Kind));
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array)
        && !e.contains(v)
    {
        return Some(kind(Wrong::Choice));
    }
    if let (Some(c), Value::String(w)) = (choices, v)
        && !c.contains(&w.as_str())
    {
        return Some(kind(Wrong::Choice));
    }
    if let Some(n) = v.as_f64() {
        let bound = |k: &str| s.get(k).and_then(Value::as_f64);
        if bound("minimum").is_some_and(|lo| n < lo) || bound("maximum").is_some_and(|hi| n > hi) {
            return Some(kind(Wrong::Kind));
        }
    }
    let mut found = Vec::new();
    match v {
        Value::Object(m) => found = check_object(m, s, def, path, depth),
        Value::Array(items) => {
            let n = items.len() as f64;
            let bound = |k: &str| s.get(k).and_then(Value::as_f64);
            if bound("minItems").is_some_and(|lo| n < lo)
                || bound("maxItems").is_some_and(|hi| n > hi)
            {
                return Some(Problem {
                    depth,
                    wrong: Wrong::Kind,
                    text: format!(
                        "{path} takes {}, got a list of {}",
                        takes(s, choices, false, 0),
                        items.len()
                    ),
                });
            }
            if let Some(schema) = s.get("items") {
                for (i, x) in items.iter().enumerate() {
                    found.extend(check(x, schema, &format!("{path}[{i}]"), depth + 1, None));
                }
            }
        }
        _ => {}
    }
    best(found)
}

/// [`check`]'s options of an object: each option's value, unknown options (with the known
/// ones, or a did-you-mean) and missing ones.
fn check_object(
    m: &serde_json::Map<String, Value>,
    s: &'static Value,
    def: Option<&str>,
    path: &str,
    depth: usize,
) -> Vec<Problem> {
    let mut found = Vec::new();
    let props = s.get("properties").and_then(Value::as_object);
    let extra = s.get("additionalProperties");
    for (k, x) in m {
        let inner = format!("{path}.{k}");
        if let Some(p) = props.and_then(|p| p.get(k)) {
            found.extend(check(x, p, &inner, depth + 1, choices_of(def, k)));
        } else if let Some(a) = extra.filter(|a| a.is_object()) {
            found.extend(check(x, a, &inner, depth + 1, None));
        } else if extra == Some(&Value::Bool(false)) {
            let mut names: Vec<&str> = props
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            names.sort();
            let hint = match suggest(k, &names) {
                Some(s) => format!(" (did you mean \"{s}\"?)"),
                None => format!(" (it takes: {})", names.join(", ")),
            };
            let place = if depth == 0 {
                String::new()
            } else {
                format!(" in {path}")
            };
            found.push(Problem {
                depth: depth + 1,
                wrong: Wrong::Unknown,
                text: format!("unknown option \"{k}\"{place}{hint}"),
            });
        }
    }
    let required = s.get("required").and_then(Value::as_array);
    for r in required.into_iter().flatten().filter_map(Value::as_str) {
        if !m.contains_key(r) {
            let place = if depth == 0 {
                String::new()
            } else {
                format!(" in {path}")
            };
            found.push(Problem {
                depth: depth + 1,
                wrong: Wrong::Missing,
                text: format!("missing option \"{r}\"{place}"),
            });
        }
    }
    found
}

/// What is wrong with an action's argument inside it (an option, an option of an option, an
/// item of a list...), by the step schema; None when the schema takes it or when the argument
/// itself is of the wrong kind.
pub(super) fn nested_problem(action: &str, arg: &Value) -> Option<Problem> {
    check(arg, action_schema(action)?, action, 0, None).filter(|p| p.depth > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::steps::parse::parse_step;

    /// Step argument problems below the top, and how each is said.
    const NESTED: &[(&str, &str)] = &[
        // an option of the object form
        (
            r#"{"snapshot": {"detail": 5}}"#,
            "step 1 (snapshot): snapshot.detail takes \"full\", \"interactive\" or \"summary\", got the number 5; expected true, \"interactive\" or {\"detail\": \"interactive\"}",
        ),
        (
            r#"{"snapshot": {"maxNodes": -1}}"#,
            "step 1 (snapshot): snapshot.maxNodes takes a whole number (0 or more), got the number -1; expected",
        ),
        (
            r#"{"snapshot": {"allRefs": "yes"}}"#,
            "step 1 (snapshot): snapshot.allRefs takes true or false, got the string \"yes\"",
        ),
        (
            r#"{"cookies": {"action": "set", "name": 5}}"#,
            "step 1 (cookies): cookies.name takes text, got the number 5; expected",
        ),
        // a word none of an option's choices, though the schema's type is text
        (
            r#"{"scroll": {"direction": "sideways"}}"#,
            "step 1 (scroll): scroll.direction takes \"up\", \"down\", \"left\" or \"right\", got the string \"sideways\"; expected {\"direction\": \"down\"}",
        ),
        (
            r#"{"snapshot": "fancy"}"#,
            "step 1 (snapshot): snapshot.detail takes \"full\", \"interactive\" or \"summary\", got the string \"fancy\"",
        ),
        (
            r#"{"click": {"ref": "s1e1", "button": "rigth"}}"#,
            "step 1 (click): click.button takes \"left\", \"middle\" or \"right\", got the string \"rigth\"",
        ),
        (
            r#"{"cookies": {"action": "eat"}}"#,
            "step 1 (cookies): cookies.action takes \"list\", \"set\" or \"clear\", got the string \"eat\"",
        ),
        // items of list options, and the values of a map option
        (
            r#"{"fill": {"fields": [1]}}"#,
            "step 1 (fill): fill.fields takes an object whose values are texts, numbers, true/false values, lists of texts or objects with the options secret, got a list; expected",
        ),
        (
            r#"{"select": {"ref": "s1e2", "values": [1]}}"#,
            "step 1 (select): select.values[0] takes text, got the number 1; expected {\"ref\": \"s1e3\", \"values\": [\"a\", \"b\"]}",
        ),
        (
            r#"{"scroll": {"to": [1]}}"#,
            "step 1 (scroll): scroll.to takes a list of 2 numbers, got a list of 1",
        ),
        (
            r#"{"elementsAt": [{"x": 1, "y": "a"}]}"#,
            "step 1 (elementsAt): elementsAt[0].y takes a number, got the string \"a\"",
        ),
        // queryAll's groups, in both forms, three and four levels down
        (
            r#"{"queryAll": {"b": {"role": 5}}}"#,
            "step 1 (queryAll): queryAll.b.role takes text, got the number 5; expected",
        ),
        (
            r#"{"queryAll": {"queries": {"b": {"limit": "x"}}}}"#,
            "step 1 (queryAll): queryAll.queries.b.limit takes a whole number (0 or more), got the string \"x\"",
        ),
        (
            r#"{"queryAll": {"queries": {"b": 5}}}"#,
            "step 1 (queryAll): queryAll.queries.b takes text or an object with the options role, name, exact, selector, limit, got the number 5",
        ),
        // unknown options below the top say the known ones, with a did-you-mean
        (
            r#"{"queryAll": {"b": {"rol": "button"}}}"#,
            "step 1 (queryAll): unknown option \"rol\" in queryAll.b (did you mean \"role\"?); expected",
        ),
        (
            r#"{"goto": {"url": "http://a/", "snapshot": {"detal": "x"}}}"#,
            "step 1 (goto): unknown option \"detal\" in goto.snapshot (did you mean \"detail\"?)",
        ),
        (
            r#"{"elementsAt": [{"x": 1, "z": 2}]}"#,
            "step 1 (elementsAt): unknown option \"z\" in elementsAt[0] (it takes: x, y)",
        ),
        // an option of an option
        (
            r#"{"goto": {"url": "http://a/", "snapshot": {"maxNodes": "x"}}}"#,
            "step 1 (goto): goto.snapshot.maxNodes takes a whole number (0 or more), got the string \"x\"",
        ),
        (
            r#"{"drag": {"from": {"x": 1, "y": "a"}, "to": "s1e2"}}"#,
            "step 1 (drag): drag.from.y takes a number, got the string \"a\"",
        ),
        (
            r#"{"frame": {"target": -1}}"#,
            "step 1 (frame): frame.target takes a whole number (0 to 65535) or text, got the number -1",
        ),
        (
            r#"{"goto": {"snapshot": true}}"#,
            "step 1 (goto): missing option \"url\"; expected \"http://127.0.0.1:8080/\"",
        ),
    ];

    /// Issue 43: a problem inside an action's argument, at any depth, is said in plain words:
    /// the option's path, what it takes (by the step schema) and an example of the action.
    #[test]
    fn nested_options_are_named_in_plain_words() {
        let problem = |step: &str| -> String {
            let v: Value = serde_json::from_str(step).unwrap();
            let e = parse_step(&v, 0).unwrap_err();
            assert_eq!(e.len(), 1, "{step}: {e:?}");
            for word in [
                "invalid type",
                "integer `",
                "expected a string",
                "struct",
                "variant",
                "u64",
            ] {
                assert!(!e[0].contains(word), "{step}: {}", e[0]);
            }
            e[0].clone()
        };
        for (step, want) in NESTED {
            let got = problem(step);
            assert!(got.starts_with(want), "{step}:\n got  {got}\n want {want}");
        }
        // a bad value comes before an unknown name (serde's aliases are not in the schema)
        assert!(
            problem(r#"{"snapshot": {"format": "json", "detail": 5}}"#)
                .starts_with("step 1 (snapshot): snapshot.detail takes")
        );
    }

    /// The options with a few fixed words exist in the schema, and take each of them.
    #[test]
    fn choices_are_schema_options_and_taken() {
        // the choices are the schema's options
        for (def, option, _) in CHOICES {
            assert!(
                schema()
                    .pointer(&format!("/$defs/{def}/properties/{option}"))
                    .is_some(),
                "{def}.{option} is not in the step schema"
            );
        }
        // and every choice is taken
        for step in [
            r#"{"scroll": {"direction": "left"}}"#,
            r#"{"snapshot": {"detail": "summary", "output_format": "yaml"}}"#,
            r#"{"cookies": {"action": "clear"}}"#,
            r#"{"click": {"ref": "s1e1", "button": "middle"}}"#,
            r#"{"goto": {"url": "http://a/", "snapshot": "interactive"}}"#,
        ] {
            let v: Value = serde_json::from_str(step).unwrap();
            assert!(parse_step(&v, 0).is_ok(), "{step}: {:?}", parse_step(&v, 0));
        }
    }
}
