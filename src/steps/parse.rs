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
    // Actions without arguments accept null and {} alike.
    let arg = match (&arg, key.as_str()) {
        (Value::Null, "reload" | "back" | "forward" | "listTabs" | "getUrl" | "getTitle") => {
            Value::Object(Default::default())
        }
        (Value::Object(m), "newTab" | "closeTab") if m.is_empty() => Value::Null,
        _ => arg,
    };
    let mut one = serde_json::Map::new();
    one.insert(key.clone(), arg);
    match serde_json::from_value::<Action>(Value::Object(one)) {
        Ok(action) => Ok(Step { action, optional }),
        Err(e) => Err(vec![format!(
            "step {n} ({key}): {}",
            explain(key, &e.to_string())
        )]),
    }
}

fn explain(action: &str, serde_msg: &str) -> String {
    let hint = match action {
        "click" | "hover" | "check" | "uncheck" => {
            "expected a ref like \"s1e4\" or {\"ref\": \"s1e4\"}"
        }
        "fill" => "expected {\"ref\": \"s1e2\", \"value\": \"text\"}",
        "type" => "expected {\"text\": \"...\", \"ref\"?: \"s1e2\", \"submit\"?: true}",
        "press" => "expected a key like \"Enter\" or {\"key\": \"Control+a\", \"ref\"?: \"s1e2\"}",
        "goto" => "expected a URL string or {\"url\": \"...\"}",
        "select" => "expected {\"ref\": \"s1e3\", \"values\": \"blue\" or [\"a\", \"b\"]}",
        "sleep" => "expected a number of milliseconds",
        "eval" => "expected an expression string or {\"expression\": \"...\"}",
        _ => "see the step file format in the README",
    };
    // serde's untagged-enum message says nothing useful: keep only the hint then.
    if serde_msg.starts_with("data did not match any variant") {
        hint.to_string()
    } else {
        format!("{serde_msg}; {hint}")
    }
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
}
