//! Reading step files: JSON syntax errors with line and column, then every step validated
//! before anything runs, with all problems listed (SPEC 5).

use super::{ACTIONS, Action, Step, StepFile};
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
    let keys: Vec<&String> = obj.keys().filter(|k| k.as_str() != "optional").collect();
    if keys.is_empty() {
        problems.push(format!(
            "step {n}: no action (expected one of: {})",
            ACTIONS.join(", ")
        ));
        return Err(problems);
    }
    let mut known = Vec::new();
    for k in &keys {
        if ACTIONS.contains(&k.as_str()) {
            known.push(*k);
        } else {
            match suggest(k, ACTIONS) {
                Some(s) => problems.push(format!(
                    "step {n}: unknown action \"{k}\" (did you mean \"{s}\"?)"
                )),
                None => problems.push(format!(
                    "step {n}: unknown action \"{k}\" (expected one of: {})",
                    ACTIONS.join(", ")
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
    let arg = obj.get(key).cloned().unwrap_or(Value::Null);
    let arg = match short_form(key, arg) {
        Ok(a) => a,
        Err(why) => return Err(vec![format!("step {n} ({key}): {why}")]),
    };
    let mut one = serde_json::Map::new();
    one.insert(key.clone(), arg.clone());
    match serde_json::from_value::<Action>(Value::Object(one)) {
        Ok(action) => match action.check() {
            Ok(()) => Ok(Step { action, optional }),
            Err(why) => Err(vec![format!("step {n} ({key}): {why}")]),
        },
        Err(e) => Err(vec![format!(
            "step {n} ({key}): {}",
            explain(key, &arg, &e.to_string())
        )]),
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

/// SPEC 5 short forms: an action whose options are all optional also takes `true`, `null`
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
    Ok(arg)
}

/// A short example of each action's argument, for messages.
fn example(action: &str) -> Option<&'static str> {
    Some(match action {
        "goto" | "newTab" => "\"http://127.0.0.1:8080/\"",
        "reload" | "back" | "forward" | "listTabs" | "getUrl" | "getTitle" => "true",
        "switchTab" | "closeTab" => "\"t2\"",
        "snapshot" => "true, \"interactive\" or {\"detail\": \"interactive\"}",
        "search" => "{\"text\": \"order placed\", \"role\": \"heading\"}",
        "query" => "{\"query\": \"[?role=='button'].name\"}",
        "click" | "hover" => "\"s1e4\", {\"ref\": \"s1e4\"} or {\"x\": 120, \"y\": 80}",
        "check" | "uncheck" => "\"s1e4\" or {\"ref\": \"s1e4\"}",
        "fill" => "{\"ref\": \"s1e2\", \"value\": \"text\"}",
        "type" => "{\"text\": \"...\", \"ref\": \"s1e2\", \"submit\": true}",
        "press" => "\"Enter\" or {\"key\": \"Control+a\", \"ref\": \"s1e2\"}",
        "select" => "{\"ref\": \"s1e3\", \"values\": [\"a\", \"b\"]}",
        "set" => "{\"ref\": \"s1e3\", \"value\": \"2026-05-01\"} (or true, or [\"a\", \"b\"])",
        "scroll" => "{\"direction\": \"down\"} or {\"ref\": \"s1e9\"}",
        "drag" => "{\"from\": \"s1e1\", \"to\": \"s1e2\"} (or points {\"x\": 10, \"y\": 20})",
        "upload" => "{\"ref\": \"s1e5\", \"files\": [\"a.pdf\"]}",
        "wait" => "{\"text\": \"Saved\"}",
        "sleep" => "500 (milliseconds)",
        "eval" => "\"document.title\" or {\"expression\": \"...\"}",
        "assert" => "{\"text\": \"Saved\"}",
        "get" => "\"s1e4\" or {\"ref\": \"s1e4\", \"what\": \"value\"}",
        "viewport" => "{\"width\": 1280, \"height\": 800}",
        "frame" => "\"main\", 0 or \"s1e5\"",
        "cookies" => "{\"action\": \"list\"}",
        "console" => "true or {\"clear\": true}",
        "screenshot" => "true or {\"path\": \"page.png\", \"annotate\": true}",
        "elementsAt" => {
            "{\"x\": 120, \"y\": 80}, [{\"x\": 1, \"y\": 2}, ...] or {\"x\": 120, \"y\": 80, \"radius\": 40}"
        }
        "pdf" => "{\"path\": \"page.pdf\", \"landscape\": true}",
        "readSiteNotes" => "true or \"example.org\"",
        "writeSiteNotes" => {
            "\"text to remember\" or {\"notes\": \"...\", \"domain\": \"example.org\", \"replace\": true}"
        }
        _ => return None,
    })
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

/// The option names an action's object form takes, read from the step schema (the same
/// schema the MCP tools are made from): `$ref`s resolved, `anyOf`/`oneOf` forms merged.
fn option_names(action: &str) -> Vec<String> {
    static SCHEMA: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let root = SCHEMA.get_or_init(super::step_schema);
    let resolve = |v: &Value| -> Value {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) => r
                .strip_prefix("#/")
                .map(|p| format!("/{p}"))
                .and_then(|p| root.pointer(&p).cloned())
                .unwrap_or(Value::Null),
            None => v.clone(),
        }
    };
    // find the variant whose properties hold `action`
    let mut stack = vec![resolve(root)];
    let mut arg = None;
    while let Some(v) = stack.pop() {
        if let Some(a) = v.get("properties").and_then(|p| p.get(action)) {
            arg = Some(resolve(a));
            break;
        }
        for k in ["oneOf", "anyOf", "allOf"] {
            if let Some(list) = v.get(k).and_then(Value::as_array) {
                stack.extend(list.iter().map(&resolve));
            }
        }
    }
    let mut names = Vec::new();
    let mut forms = vec![arg.unwrap_or(Value::Null)];
    while let Some(f) = forms.pop() {
        if let Some(p) = f.get("properties").and_then(Value::as_object) {
            names.extend(p.keys().cloned());
        }
        for k in ["oneOf", "anyOf", "allOf"] {
            if let Some(list) = f.get(k).and_then(Value::as_array) {
                forms.extend(list.iter().map(&resolve));
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// serde's message in the words of step files (SPEC 5: steps and options, never the
/// program's type names), with an example of what the action takes.
fn explain(action: &str, arg: &Value, serde_msg: &str) -> String {
    let takes = match example(action) {
        Some(e)
            if empty_form(action).is_some() && action != "snapshot" && !e.starts_with("true") =>
        {
            format!("true or {e}")
        }
        Some(e) => e.to_string(),
        None => "see the step file format in the README".to_string(),
    };
    let expected = format!("expected {takes}");
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
        for a in ACTIONS {
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
}
