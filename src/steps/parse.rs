//! Reading step files: JSON syntax errors with line and column, then every step validated
//! before anything runs, with all problems listed (docs/reference/step-files.md#validation-and-errors).

use super::action::STEP_KEYS;
use super::args::looks_like_ref;
use super::explain::{Wrong, check, nested_problem, option_names, schema, suggest, what};
use super::waiting::hook_from;
use super::{Action, ActionKind, Hooks, Step, StepFile};
use crate::error::{Error, Result};
use serde_json::Value;

const ALLOWED_TOP: &[&str] = &["tab", "timeout", "steps"];

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
    let target = lift_target(n, key, obj, &mut arg)?;
    let arg = match short_form(key, arg) {
        Ok(a) => a,
        Err(why) => return Err(vec![format!("step {n} ({key}): {why}")]),
    };
    let mut one = serde_json::Map::new();
    one.insert(key.clone(), arg.clone());
    match serde_json::from_value::<Action>(Value::Object(one)) {
        Ok(action) => {
            let mut more = action.problems();
            // a word that is none of an option's choices (the schema takes any text)
            if let Some(p) = nested_problem(key, &arg).filter(|p| p.wrong == Wrong::Choice) {
                more.push(p.text);
            }
            if more.is_empty() {
                Ok(Step {
                    action,
                    optional,
                    hooks,
                    target,
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

/// The step's locator (docs/reference/step-files.md#locators): `target` beside the action,
/// or among its options with the locator's own keys, taken out of the action's argument
/// (the placeholder ref left in its place until the run resolves it).
fn lift_target(
    n: usize,
    key: &str,
    obj: &serde_json::Map<String, Value>,
    arg: &mut Value,
) -> std::result::Result<Option<super::locate::Locator>, Vec<String>> {
    let fail = |why: String| vec![format!("step {n} ({key}): {why}")];
    let own = option_names(key);
    if obj.contains_key("target") && !super::action::targeted().contains(&key) {
        return Err(fail(format!(
            "{key} takes no \"target\" (locators name the target of: {})",
            super::action::targeted().join(", ")
        )));
    }
    if let Some(t) = obj
        .get("target")
        .filter(|_| !own.iter().any(|o| o == "target"))
    {
        match arg {
            Value::Object(m) if m.contains_key("target") => {
                return Err(fail(
                    "\"target\" is given twice (beside the action and among its options): keep one"
                        .into(),
                ));
            }
            Value::Object(m) => {
                m.insert("target".into(), t.clone());
            }
            Value::Null => *arg = serde_json::json!({"target": t}),
            _ => {
                return Err(fail(
                    "\"target\" beside a short form: write the action's options as an object"
                        .into(),
                ));
            }
        }
    }
    super::locate::lift(
        super::ActionKind::from_name(key).and_then(|k| k.located_by()),
        arg,
        &own,
    )
    .map_err(fail)
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

/// The form an action's argument takes when no option is given (`{}` or `null`), when its
/// schema makes every option optional; None otherwise. (What the options must say together
/// is the action's `problems`, reported after, in its own words.)
fn empty_form(action: &str) -> Option<Value> {
    let parses = |v: &Value| {
        let mut one = serde_json::Map::new();
        one.insert(action.to_string(), v.clone());
        serde_json::from_value::<Action>(Value::Object(one)).is_ok()
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
    fn the_step_vocabulary_in_its_short_forms() {
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
}
