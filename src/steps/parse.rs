//! Reading step files: JSON syntax errors with line and column, then every step validated
//! before anything runs, with all problems listed (docs/reference/step-files.md#validation-and-errors).

use super::check::STEP_KEYS;
use super::shared::looks_like_ref;
use super::waiting::hook_from;
use super::{Action, ActionKind, Hooks, Step, StepFile};
use crate::error::{Error, Result};
use serde_json::Value;

const ALLOWED_TOP: &[&str] = &["tab", "timeout", "steps"];

fn suggest(word: &str, options: &[&str]) -> Option<String> {
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

/// Validates one step value; returns the step or the problems found.
pub fn parse_step(v: &Value, index: usize) -> std::result::Result<Step, Vec<String>> {
    let n = index + 1;
    let Some(obj) = v.as_object() else {
        return Err(vec![format!(
            "step {n}: expected an object like {{\"click\": \"s1e4\"}}, got {}",
            kind(v)
        )]);
    };
    let mut problems = Vec::new();
    let mut optional = false;
    if let Some(o) = obj.get("optional") {
        match o.as_bool() {
            Some(b) => optional = b,
            None => problems.push(format!(
                "step {n}: \"optional\" must be true or false, got {}",
                kind(o)
            )),
        }
    }
    let keys: Vec<&String> = obj
        .keys()
        .filter(|k| !STEP_KEYS.contains(&k.as_str()))
        .collect();
    if keys.is_empty() {
        problems.push(format!(
            "step {n}: no action (expected one of: {})",
            ActionKind::names().join(", ")
        ));
        return Err(problems);
    }
    let mut known = Vec::new();
    let words: Vec<&str> = ActionKind::names()
        .iter()
        .chain(STEP_KEYS)
        .copied()
        .collect();
    for k in &keys {
        if ActionKind::names().contains(&k.as_str()) {
            known.push(*k);
        } else {
            match suggest(k, &words) {
                Some(s) if STEP_KEYS.contains(&s.as_str()) => problems.push(format!(
                    "step {n}: unknown key \"{k}\" (did you mean \"{s}\"?)"
                )),
                Some(s) => problems.push(format!(
                    "step {n}: unknown action \"{k}\" (did you mean \"{s}\"?)"
                )),
                None => problems.push(format!(
                    "step {n}: unknown action \"{k}\" (expected one of: {})",
                    ActionKind::names().join(", ")
                )),
            }
        }
    }
    if known.len() > 1 {
        let names: Vec<String> = known.iter().map(|k| format!("\"{k}\"")).collect();
        problems.push(format!(
            "step {n}: one action per step, found {}",
            names.join(" and ")
        ));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let key = known[0];
    let mut arg = obj.get(key).cloned().unwrap_or(Value::Null);
    let hooks = lift_hooks(n, key, obj, &mut arg)?;
    let arg = match short_form(key, arg) {
        Ok(a) => a,
        Err(why) => return Err(vec![format!("step {n} ({key}): {why}")]),
    };
    let mut one = serde_json::Map::new();
    one.insert(key.clone(), arg.clone());
    match serde_json::from_value::<Action>(Value::Object(one)) {
        Ok(action) => {
            let mut more = super::check::problems(&action);
            if let Err(why) = action.check() {
                more.push(why);
            }
            // a word that is none of an option's choices (the schema takes any text)
            if let Some(p) = nested_problem(key, &arg).filter(|p| p.wrong == Wrong::Choice) {
                more.push(p.text);
            }
            if more.is_empty() {
                Ok(Step {
                    action,
                    optional,
                    hooks,
                })
            } else {
                let e = example(key)
                    .map(|e| format!("; expected {e}"))
                    .unwrap_or_default();
                Err(more
                    .into_iter()
                    .map(|p| format!("step {n} ({key}): {p}{e}"))
                    .collect())
            }
        }
        Err(e) => Err(vec![format!(
            "step {n} ({key}): {}",
            explain(key, &arg, &e.to_string())
        )]),
    }
}

/// The step's hooks, beside the action or (cdp-skill's spelling) among its options, taken
/// out of the action's argument.
fn lift_hooks(
    n: usize,
    key: &str,
    obj: &serde_json::Map<String, Value>,
    arg: &mut Value,
) -> std::result::Result<Hooks, Vec<String>> {
    let mut problems = Vec::new();
    let mut hooks = Hooks::default();
    for h in ["readyWhen", "settledWhen", "observe"] {
        let inside = match arg {
            Value::Object(m) => m.shift_remove(h),
            _ => None,
        };
        let v = match (obj.get(h), inside) {
            (Some(_), Some(_)) => {
                problems.push(format!(
                    "step {n} ({key}): \"{h}\" is given twice (beside the action and among its options): keep one"
                ));
                continue;
            }
            (Some(v), None) => v.clone(),
            (None, Some(v)) => v,
            (None, None) => continue,
        };
        match hook_from(h, &v) {
            Ok(p) => match h {
                "readyWhen" => hooks.ready_when = Some(p),
                "settledWhen" => hooks.settled_when = Some(p),
                _ => hooks.observe = Some(p),
            },
            Err(why) => {
                // what is wrong inside its object form, by the schema (a hook is an
                // option of the step: depth 1)
                let inside = schema()
                    .pointer(&format!("/properties/{h}"))
                    .and_then(|s| check(&v, s, h, 1, None))
                    .filter(|p| p.depth > 1);
                problems.push(match inside {
                    Some(p) => format!(
                        "step {n} ({key}): {}; expected a page expression or function source, or {{\"fn\": \"...\", \"timeout\": 5000}}",
                        p.text
                    ),
                    None => format!("step {n} ({key}): {why}"),
                })
            }
        }
    }
    if problems.is_empty() {
        Ok(hooks)
    } else {
        Err(problems)
    }
}

/// The form an action's argument takes when no option is given (`{}` or `null`), when it
/// can run with no options at all (all of them optional); None otherwise.
fn empty_form(action: &str) -> Option<Value> {
    let parses = |v: &Value| {
        let mut one = serde_json::Map::new();
        one.insert(action.to_string(), v.clone());
        serde_json::from_value::<Action>(Value::Object(one)).is_ok_and(|a| a.check().is_ok())
    };
    [Value::Object(Default::default()), Value::Null]
        .into_iter()
        .find(parses)
}

/// docs/reference/step-files.md#short-forms short forms: an action whose options are all optional also takes `true`, `null`
/// and `{}`; `snapshot` takes its detail level bare (`{"snapshot": "interactive"}`).
/// Returns the argument in its long form.
fn short_form(action: &str, arg: Value) -> std::result::Result<Value, String> {
    let empty = match &arg {
        Value::Null | Value::Bool(true) => true,
        Value::Object(m) => m.is_empty(),
        _ => false,
    };
    if empty && let Some(form) = empty_form(action) {
        return Ok(form);
    }
    if arg == Value::Bool(false) {
        return Err(format!(
            "false runs nothing: write true (or an object of options), or leave the step out{}",
            example(action)
                .map(|e| format!("; e.g. {{\"{action}\": {e}}}"))
                .unwrap_or_default()
        ));
    }
    if action == "snapshot"
        && let Value::String(detail) = &arg
    {
        return Ok(serde_json::json!({ "detail": detail }));
    }
    // cdp-skill's batch fill: the fields map given bare ({"s1e3": "x", "s1e5": "y"})
    if action == "fill"
        && let Value::Object(m) = &arg
        && !m.is_empty()
        && m.keys().all(|k| looks_like_ref(k))
    {
        return Ok(serde_json::json!({ "fields": arg }));
    }
    Ok(arg)
}

/// A short example of each action's argument, for messages (the action table's).
fn example(action: &str) -> Option<&'static str> {
    ActionKind::from_name(action).map(|k| k.info().example)
}

/// JSON's word for what a value is.
fn what(v: &Value) -> String {
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
fn schema() -> &'static Value {
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
fn option_names(action: &str) -> Vec<String> {
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
/// (`waitUntil` is checked with the vocabulary, `check::problems`.)
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
enum Wrong {
    /// of the wrong type, or out of bounds
    Kind,
    /// a word that is none of the option's choices
    Choice,
    Unknown,
    Missing,
}

#[derive(Debug)]
struct Problem {
    /// 0: the argument itself; 1: one of its options; 2: an option of an option...
    depth: usize,
    wrong: Wrong,
    /// in plain words, naming the option's path (`snapshot.detail`)
    text: String,
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
fn check(
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
fn nested_problem(action: &str, arg: &Value) -> Option<Problem> {
    check(arg, action_schema(action)?, action, 0, None).filter(|p| p.depth > 0)
}

/// serde's message in the words of step files (docs/reference/step-files.md#validation-and-errors: steps and options, never the
/// program's type names), with an example of what the action takes.
fn explain(action: &str, arg: &Value, serde_msg: &str) -> String {
    let takes = match example(action) {
        Some(e)
            if empty_form(action).is_some() && action != "snapshot" && !e.starts_with("true") =>
        {
            format!("true or {e}")
        }
        Some(e) => e.to_string(),
        None => "see the step file format in docs/reference/step-files.md".to_string(),
    };
    let expected = format!("expected {takes}");
    // what is wrong inside the argument, at any depth, by the schema
    if let Some(p) = nested_problem(action, arg) {
        return format!("{}; {expected}", p.text);
    }
    // an option the action does not take: name it (with a suggestion)
    if let Value::Object(m) = arg {
        let known = option_names(action);
        if !known.is_empty()
            && let Some(bad) = m.keys().find(|k| !known.contains(k))
        {
            let names: Vec<&str> = known.iter().map(String::as_str).collect();
            let hint = match suggest(bad, &names) {
                Some(s) => format!(" (did you mean \"{s}\"?)"),
                None => format!(" (it takes: {})", names.join(", ")),
            };
            return format!("unknown option \"{bad}\"{hint}; {expected}");
        }
    }
    // keep serde's message where it speaks of fields (missing, unknown, or a field's bad
    // value in plain words), drop it where it names the program's types
    let rust_type = regex::Regex::new(
        r"\b(struct|enum|variant|untagged|u8|u16|u32|u64|usize|i32|i64|f32|f64|sequence|map)\b",
    )
    .map(|r| r.is_match(serde_msg))
    .unwrap_or(true);
    let top_level = !arg.is_object() && serde_msg.starts_with("invalid type");
    if rust_type || top_level || serde_msg.starts_with("data did not match") {
        return format!("{expected}, got {}", what(arg));
    }
    format!("{}; {expected}", serde_msg.trim_end_matches('.'))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses step-file text (`origin` names it in messages). All problems are collected.
pub fn parse_text(text: &str, origin: &str) -> Result<StepFile> {
    let v: Value = serde_json::from_str(text).map_err(|e| Error::StepFile {
        path: origin.to_string(),
        problems: format!(
            "  JSON syntax error at line {}, column {}: {}",
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        ),
    })?;
    parse_value(&v, origin)
}

fn strip_position(msg: &str) -> String {
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// Validates a parsed step file value (object with `steps`, or a bare array).
pub fn parse_value(v: &Value, origin: &str) -> Result<StepFile> {
    let mut problems = Vec::new();
    let (tab, timeout, steps_v) = match v {
        Value::Array(a) => (None, None, a.clone()),
        Value::Object(m) => {
            for k in m.keys() {
                if !ALLOWED_TOP.contains(&k.as_str()) {
                    match suggest(k, ALLOWED_TOP) {
                        Some(s) => {
                            problems.push(format!("unknown field \"{k}\" (did you mean \"{s}\"?)"))
                        }
                        None => problems.push(format!(
                            "unknown field \"{k}\" (expected tab, timeout, steps)"
                        )),
                    }
                }
            }
            let tab = match m.get("tab") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(other) => {
                    problems.push(format!(
                        "\"tab\" must be a tab alias like \"t1\", got {}",
                        kind(other)
                    ));
                    None
                }
            };
            let timeout = match m.get("timeout") {
                None | Some(Value::Null) => None,
                Some(t) => match t.as_u64() {
                    Some(ms) if ms > 0 => Some(ms),
                    _ => {
                        problems.push(format!(
                            "\"timeout\" must be a positive number of milliseconds, got {t}"
                        ));
                        None
                    }
                },
            };
            let steps = match m.get("steps") {
                Some(Value::Array(a)) => a.clone(),
                Some(other) => {
                    problems.push(format!("\"steps\" must be an array, got {}", kind(other)));
                    vec![]
                }
                None => {
                    problems.push(
                        "missing \"steps\": expected {\"steps\": [...]} or a bare array of steps"
                            .into(),
                    );
                    vec![]
                }
            };
            (tab, timeout, steps)
        }
        other => {
            return Err(Error::StepFile {
                path: origin.into(),
                problems: format!(
                    "  expected an object with \"steps\" or an array of steps, got {}",
                    kind(other)
                ),
            });
        }
    };
    let mut steps = Vec::new();
    for (i, s) in steps_v.iter().enumerate() {
        match parse_step(s, i) {
            Ok(step) => steps.push(step),
            Err(p) => problems.extend(p),
        }
    }
    if !problems.is_empty() {
        return Err(Error::StepFile {
            path: origin.into(),
            problems: problems.join("; "),
        });
    }
    Ok(StepFile {
        tab,
        timeout,
        steps,
    })
}

/// Reads and validates a step file; `-` reads standard input.
pub fn read_file(path: &str) -> Result<StepFile> {
    let text = if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| Error::io("read", "stdin", e))?;
        s
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| Error::Usage(format!("cannot read step file {path}: {e}")))?
    };
    parse_text(&text, if path == "-" { "<stdin>" } else { path })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_name_line_and_column() {
        let e = parse_text(
            "{\"steps\": [\n  {\"click\": \"s1e1\"},\n  {\"click\" \"s1e2\"}\n]}",
            "f.json",
        )
        .unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("f.json") && m.contains("line 3, column 12"),
            "{m}"
        );
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn every_problem_is_listed() {
        let e = parse_text(
            r#"{"steps": [{"clik": "s1e1"}, {"fill": {"ref": "s1e2"}}, {"sleep": "soon"}, {"click": "s1e1", "goto": "x"}, 7], "tiemout": 5}"#,
            "f.json",
        )
        .unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("step 1: unknown action \"clik\" (did you mean \"click\"?)"),
            "{m}"
        );
        assert!(m.contains("step 2 (fill): missing field `value`"), "{m}");
        assert!(m.contains("step 3 (sleep)"), "{m}");
        assert!(m.contains("step 4: one action per step"), "{m}");
        assert!(m.contains("step 5: expected an object"), "{m}");
        assert!(
            m.contains("unknown field \"tiemout\" (did you mean \"timeout\"?)"),
            "{m}"
        );
    }

    #[test]
    fn bare_arrays_and_shorthands_are_accepted() {
        let f = parse_text(r#"[{"goto": "http://a/"}, {"reload": null}, {"listTabs": {}}, {"click": "@s1e4", "optional": true}]"#, "x").unwrap();
        assert_eq!(f.steps.len(), 4);
        assert!(f.steps[3].optional);
    }

    #[test]
    fn short_forms_of_spec_5() {
        // true, null and {} for every action whose options are all optional
        for a in [
            "reload",
            "back",
            "forward",
            "listTabs",
            "getUrl",
            "getTitle",
            "snapshot",
            "newTab",
            "closeTab",
            "console",
            "screenshot",
        ] {
            for v in [serde_json::json!(true), Value::Null, serde_json::json!({})] {
                let step = serde_json::json!({ a: v });
                assert!(
                    parse_step(&step, 0).is_ok(),
                    "{step}: {:?}",
                    parse_step(&step, 0).err()
                );
            }
        }
        // the detail level bare
        let s = parse_step(&serde_json::json!({"snapshot": "interactive"}), 0).unwrap();
        match s.action {
            Action::Snapshot(a) => assert_eq!(a.detail.as_deref(), Some("interactive")),
            other => panic!("{other:?}"),
        }
        // false is refused in plain words
        let e = parse_step(&serde_json::json!({"reload": false}), 1).unwrap_err();
        assert!(
            e[0].starts_with("step 2 (reload): false runs nothing"),
            "{e:?}"
        );
    }

    #[test]
    fn errors_speak_of_steps_and_options_not_types() {
        let bad = [
            serde_json::json!(42),
            serde_json::json!([1]),
            serde_json::json!("x"),
            serde_json::json!({"nope": 1}),
            serde_json::json!(false),
        ];
        for a in ActionKind::names() {
            for v in &bad {
                let step = serde_json::json!({ *a: v });
                if let Err(problems) = parse_step(&step, 0) {
                    for p in problems {
                        for word in [
                            "struct", "enum", "variant", "Args", "Arg`", "untagged", "u64", "usize",
                        ] {
                            assert!(!p.contains(word), "{step}: {p}");
                        }
                        assert!(p.starts_with(&format!("step 1 ({a}): ")), "{p}");
                    }
                }
            }
        }
        let e = parse_step(
            &serde_json::json!({"hover": {"ref": "s1e1", "force": true}}),
            0,
        )
        .unwrap_err();
        assert!(
            e[0].starts_with("step 1 (hover): unknown option \"force\" (it takes: ref, x, y)"),
            "{e:?}"
        );
        let e = parse_step(
            &serde_json::json!({"click": {"ref": "s1e1", "dubble": true}}),
            0,
        )
        .unwrap_err();
        assert!(
            e[0].contains("unknown option \"dubble\" (did you mean \"double\"?)"),
            "{e:?}"
        );
        let e = parse_step(&serde_json::json!({"snapshot": 5}), 1).unwrap_err();
        assert_eq!(
            e[0],
            "step 2 (snapshot): expected true, \"interactive\" or {\"detail\": \"interactive\"}, got the number 5"
        );
    }

    #[test]
    fn hooks_beside_the_action_or_among_its_options() {
        let s = parse_step(
            &serde_json::json!({"click": "s1e4", "readyWhen": "() => !document.querySelector('.spinner')",
                "settledWhen": {"fn": "window.done", "timeout": 2000}, "optional": true}),
            0,
        )
        .unwrap();
        assert!(s.optional);
        assert_eq!(
            s.hooks.ready_when.as_ref().unwrap().fn_,
            "() => !document.querySelector('.spinner')"
        );
        assert_eq!(s.hooks.settled_when.as_ref().unwrap().timeout, Some(2000));
        // cdp-skill writes them among the action's options: taken out of them
        let s = parse_step(
            &serde_json::json!({"click": {"ref": "s1e4", "observe": "location.href"}}),
            0,
        )
        .unwrap();
        assert_eq!(
            s.action,
            Action::Click(super::super::TargetArgs::from("s1e4".to_string()))
        );
        assert_eq!(s.hooks.observe.unwrap().fn_, "location.href");
        // given twice, mistyped, or of the wrong kind: named
        let e = parse_step(
            &serde_json::json!({"click": {"ref": "s1e4", "observe": "a"}, "observe": "b"}),
            2,
        )
        .unwrap_err();
        assert!(
            e[0].starts_with("step 3 (click): \"observe\" is given twice"),
            "{e:?}"
        );
        let e = parse_step(&serde_json::json!({"click": "s1e4", "readyWen": "x"}), 0).unwrap_err();
        assert_eq!(
            e,
            ["step 1: unknown key \"readyWen\" (did you mean \"readyWhen\"?)"]
        );
        let e = parse_step(&serde_json::json!({"click": "s1e4", "settledWhen": 5}), 0).unwrap_err();
        assert!(
            e[0].starts_with("step 1 (click): \"settledWhen\" must be a page expression"),
            "{e:?}"
        );
        let e = parse_step(
            &serde_json::json!({"click": "s1e4", "readyWhen": {"fn": "x", "every": 5}}),
            0,
        )
        .unwrap_err();
        assert!(
            e[0].contains(
                "unknown option \"every\" in readyWhen (it takes: fn, interval, timeout)"
            ),
            "{e:?}"
        );
        let e = parse_step(
            &serde_json::json!({"click": "s1e4", "observe": {"fn": 5}}),
            0,
        )
        .unwrap_err();
        assert!(
            e[0].starts_with("step 1 (click): observe.fn takes text, got the number 5; expected a page expression"),
            "{e:?}"
        );
        let e = parse_step(&serde_json::json!({"click": "s1e4", "readyWhen": " "}), 0).unwrap_err();
        assert!(e[0].contains("readyWhen: the function is empty"), "{e:?}");
        // a step of hooks only has no action
        let e = parse_step(&serde_json::json!({"observe": "1"}), 0).unwrap_err();
        assert!(e[0].starts_with("step 1: no action"), "{e:?}");
    }

    #[test]
    fn fill_takes_a_map_of_fields() {
        for v in [
            serde_json::json!({"fields": {"s1e3": "ada@example.org", "s1e5": "Berlin", "s1e7": true}}),
            serde_json::json!({"s1e3": "ada@example.org", "s1e5": "Berlin", "s1e7": true}),
        ] {
            let s = parse_step(&serde_json::json!({ "fill": v }), 0).unwrap();
            let Action::Fill(f) = s.action else { panic!() };
            let keys: Vec<&String> = f.fields.as_ref().unwrap().keys().collect();
            assert_eq!(keys, ["s1e3", "s1e5", "s1e7"], "written order kept");
            assert!(f.ref_.is_none() && f.value.is_none());
        }
        // the single form still works
        let s = parse_step(
            &serde_json::json!({"fill": {"ref": "s1e2", "value": "x"}}),
            0,
        )
        .unwrap();
        let Action::Fill(f) = s.action else { panic!() };
        assert_eq!(
            (f.ref_.as_deref(), f.value.as_deref()),
            (Some("s1e2"), Some("x"))
        );
        for (v, want) in [
            (
                serde_json::json!({"fields": {"email": "x"}}),
                "fields: \"email\" is not a ref",
            ),
            (serde_json::json!({"fields": {}}), "fields is empty"),
            (
                serde_json::json!({"fields": {"s1e3": null}}),
                "the value of s1e3 must be",
            ),
            (
                serde_json::json!({"ref": "s1e2", "value": "x", "fields": {"s1e3": "y"}}),
                "not both",
            ),
            (serde_json::json!({"value": "x"}), "missing field `ref`"),
        ] {
            let e = parse_step(&serde_json::json!({ "fill": v }), 1).unwrap_err();
            assert!(
                e[0].starts_with("step 2 (fill): ") && e[0].contains(want),
                "{v}: {e:?}"
            );
        }
    }

    #[test]
    fn the_vocabulary_of_issue_16_in_its_short_forms() {
        let ok = |v: serde_json::Value| -> Action {
            parse_step(&v, 0)
                .unwrap_or_else(|e| panic!("{v}: {e:?}"))
                .action
        };
        match ok(serde_json::json!({"submit": "s1e4"})) {
            Action::Submit(a) => assert_eq!(a.ref_.as_deref(), Some("s1e4")),
            o => panic!("{o:?}"),
        }
        match ok(serde_json::json!({"submit": "form#signup"})) {
            Action::Submit(a) => assert_eq!(a.selector.as_deref(), Some("form#signup")),
            o => panic!("{o:?}"),
        }
        match ok(serde_json::json!({"submit": {"ref": "s1e4", "reportValidity": true}})) {
            Action::Submit(a) => assert!(a.report_validity),
            o => panic!("{o:?}"),
        }
        match ok(serde_json::json!({"selectText": {"ref": "s1e4", "start": 2, "end": 5}})) {
            Action::SelectText(a) => assert_eq!((a.start, a.end), (Some(2), Some(5))),
            o => panic!("{o:?}"),
        }
        let sel = ok(serde_json::json!({"selectText": "s1e4"}));
        assert!(matches!(sel, Action::SelectText(_)));
        // the page hears of a selection from queued events: settled, but no viewport diff
        assert!(sel.modifies_page() && !sel.is_visual());
        assert!(matches!(
            ok(serde_json::json!({"waitForNavigation": true})),
            Action::WaitForNavigation(_)
        ));
        match ok(serde_json::json!({"poll": "() => window.ready"})) {
            Action::Poll(p) => assert_eq!(p.fn_, "() => window.ready"),
            o => panic!("{o:?}"),
        }
        match ok(serde_json::json!({"poll": {"fn": "x", "interval": 50, "timeout": 900}})) {
            Action::Poll(p) => assert_eq!((p.interval, p.timeout), (Some(50), Some(900))),
            o => panic!("{o:?}"),
        }
        for v in [
            serde_json::json!({"queryAll": {"queries": {"buttons": {"role": "button"}, "rows": "table tr"}, "limit": 3}}),
            serde_json::json!({"queryAll": {"buttons": {"role": "button"}, "rows": "table tr"}}),
        ] {
            match ok(v.clone()) {
                Action::QueryAll(q) => {
                    assert_eq!(q.queries.0.len(), 2, "{v}");
                    assert_eq!(q.queries.0[1].1.selector.as_deref(), Some("table tr"));
                }
                o => panic!("{o:?}"),
            }
        }
        assert!(matches!(
            ok(serde_json::json!({"inspect": true})),
            Action::Inspect(_)
        ));
        let bad = |v: serde_json::Value, want: &str| {
            let e = parse_step(&v, 0).unwrap_err();
            assert!(e.iter().any(|p| p.contains(want)), "{v}: {e:?}");
        };
        bad(
            serde_json::json!({"submit": {}}),
            "give the form's ref or a CSS selector",
        );
        bad(
            serde_json::json!({"waitForNavigation": {"waitUntil": "idle"}}),
            "waitUntil \"idle\": use load",
        );
        bad(
            serde_json::json!({"poll": {"fn": "x", "interval": 0}}),
            "poll: interval must be at least 1 ms",
        );
        bad(
            serde_json::json!({"queryAll": {"x": {"exact": true}}}),
            "query \"x\" needs role, name or selector",
        );
        bad(serde_json::json!({"queryAll": {}}), "step 1 (queryAll)");
        bad(
            serde_json::json!({"selectText": {"ref": "s1e1", "begin": 1}}),
            "unknown option \"begin\"",
        );
    }

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
            "step 1 (fill): fill.fields takes an object whose values are texts, numbers, true/false values or lists of texts, got a list; expected",
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
