//! MCP tool definitions derived from the step schema, so tools, step files and the CLI can
//! never drift apart (SPEC 6).
//!
//! Owns: the tool name of each step action, turning the Step JSON schema (one variant per
//! action, `{"<action>": <argument>}`) into tool input schemas, and turning a tool call back
//! into a step. Must not: run anything.

use serde_json::{Map, Value, json};

/// One MCP tool.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDef {
    /// Tool name, e.g. `browser_click`.
    pub name: String,
    /// The step action it runs (`click`), or `None` for `browser_run_steps`.
    pub action: Option<String>,
    pub description: String,
    /// JSON schema of the tool's arguments (always an object schema).
    pub input_schema: Map<String, Value>,
    /// When the step argument is not an object (e.g. `{"click": "s1e4"}`), the name of the
    /// tool property that carries it.
    pub scalar_arg: Option<String>,
}

/// The tool name of a step action: the names agents know from other browser servers where
/// one exists, `browser_<snake_case>` otherwise.
pub fn tool_name(action: &str) -> String {
    let known = match action {
        "goto" => Some("browser_navigate"),
        "press" => Some("browser_press_key"),
        "select" => Some("browser_select_option"),
        "listTabs" => Some("browser_tabs"),
        "eval" => Some("browser_evaluate"),
        "back" => Some("browser_navigate_back"),
        "forward" => Some("browser_navigate_forward"),
        "screenshot" => Some("browser_take_screenshot"),
        _ => None,
    };
    if let Some(k) = known {
        return k.to_string();
    }
    let mut out = String::from("browser_");
    for c in action.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn resolve<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    let mut cur = schema;
    for _ in 0..16 {
        match cur.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let name = r.rsplit('/').next().unwrap_or("");
                let defs = root.get("$defs").or_else(|| root.get("definitions"));
                match defs.and_then(|d| d.get(name)) {
                    Some(next) => cur = next,
                    None => return cur,
                }
            }
            None => return cur,
        }
    }
    cur
}

/// Copies `schema` with every `$ref` replaced by its definition (tool schemas must stand
/// alone), to a bounded depth.
fn inline(schema: &Value, root: &Value, depth: usize) -> Value {
    if depth > 24 {
        return json!({});
    }
    let s = resolve(schema, root);
    match s {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, v) in m {
                if k == "$defs" || k == "definitions" || k == "$schema" {
                    continue;
                }
                out.insert(k.clone(), inline(v, root, depth + 1));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(|v| inline(v, root, depth + 1)).collect()),
        other => other.clone(),
    }
}

fn variants(schema: &Value) -> Vec<&Value> {
    for key in ["oneOf", "anyOf"] {
        if let Some(a) = schema.get(key).and_then(Value::as_array) {
            return a.iter().collect();
        }
    }
    vec![schema]
}

fn is_object_schema(s: &Value) -> bool {
    s.get("type").and_then(Value::as_str) == Some("object") || s.get("properties").is_some()
}

/// The actions of a Step schema: each variant is an object with one required property (the
/// action) besides `optional`.
pub fn actions_in_schema(step_schema: &Value) -> Vec<(String, Value, String)> {
    let root = step_schema;
    let top = resolve(step_schema, root);
    let mut out = Vec::new();
    let mut stack: Vec<&Value> = variants(top);
    while let Some(v) = stack.pop() {
        let v = resolve(v, root);
        if v.get("oneOf").is_some() || v.get("anyOf").is_some() {
            stack.extend(variants(v));
            continue;
        }
        let Some(props) = v.get("properties").and_then(Value::as_object) else {
            continue;
        };
        for (k, arg) in props {
            if k == "optional" || k == "timeout" {
                continue;
            }
            let desc = v
                .get("description")
                .or_else(|| arg.get("description"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            out.push((k.clone(), inline(arg, root, 0), desc));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// Builds the tool list: one tool per step action plus `browser_run_steps`.
pub fn tools_from_schema(step_schema: &Value, step_file_schema: &Value) -> Vec<ToolDef> {
    let mut tools = Vec::new();
    for (action, arg, desc) in actions_in_schema(step_schema) {
        // An argument may be a shorthand scalar or an object (anyOf); tools take the object
        // form and name the scalar form's field when there is no object form.
        let forms = variants(&arg);
        let object = forms
            .iter()
            .find(|f| is_object_schema(f))
            .map(|f| (*f).clone());
        let (input_schema, scalar_arg) = match object {
            Some(Value::Object(m)) => (m, None),
            _ => {
                let field = scalar_field(&action);
                let scalar = forms.first().map(|f| (*f).clone()).unwrap_or(json!({}));
                let is_null = scalar.get("type").and_then(Value::as_str) == Some("null");
                let mut m = Map::new();
                m.insert("type".into(), "object".into());
                if is_null {
                    m.insert("properties".into(), json!({}));
                    (m, None)
                } else {
                    m.insert("properties".into(), json!({ field.clone(): scalar }));
                    m.insert("required".into(), json!([field]));
                    (m, Some(field))
                }
            }
        };
        let mut input_schema = input_schema;
        input_schema
            .entry("type")
            .or_insert_with(|| "object".into());
        let description = if desc.is_empty() {
            format!("Runs the `{action}` step (see the step file format).")
        } else {
            desc
        };
        tools.push(ToolDef {
            name: tool_name(&action),
            action: Some(action),
            description,
            input_schema,
            scalar_arg,
        });
    }
    let mut run = Map::new();
    run.insert("type".into(), "object".into());
    // each action's own tool describes its fields; here the shape is enough
    let mut file = inline(step_file_schema, step_file_schema, 0);
    strip_field_docs(&mut file);
    run.insert("properties".into(), json!({ "steps": file }));
    run.insert("required".into(), json!(["steps"]));
    tools.push(ToolDef {
        name: "browser_run_steps".into(),
        action: None,
        description: "Runs a whole step list in one call (the step file format): steps run in order, the run stops at the first failing step that is not optional, and the result carries what changed.".into(),
        input_schema: run,
        scalar_arg: None,
    });
    tools
}

/// Drops the descriptions of fields (kept: those of the actions themselves, which sit
/// beside a `required` list of one action name).
fn strip_field_docs(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let is_action = m
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.len() == 1)
                && m.get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| p.len() == 1);
            if !is_action {
                m.remove("description");
            }
            m.values_mut().for_each(strip_field_docs);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_field_docs),
        _ => {}
    }
}

fn scalar_field(action: &str) -> String {
    match action {
        "goto" | "newTab" => "url",
        "click" | "hover" | "check" | "uncheck" => "ref",
        "press" => "key",
        "eval" => "expression",
        "sleep" => "ms",
        "switchTab" | "closeTab" => "tab",
        "search" => "text",
        "query" => "query",
        _ => "value",
    }
    .to_string()
}

/// Turns a tool call into the step it stands for.
pub fn step_from_call(tool: &ToolDef, args: Map<String, Value>) -> Value {
    let Some(action) = &tool.action else {
        return Value::Object(args);
    };
    let arg = match &tool.scalar_arg {
        Some(field) => args.get(field).cloned().unwrap_or(Value::Null),
        None if tool
            .input_schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.is_empty()) =>
        {
            Value::Object(Map::new())
        }
        None => Value::Object(args),
    };
    json!({ action.clone(): arg })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_schema() -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "oneOf": [
                {"type": "object", "properties": {"goto": {"type": "string"}, "optional": {"type": "boolean"}}, "required": ["goto"], "description": "Open a URL."},
                {"type": "object", "properties": {"click": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Target"}]}}, "required": ["click"]},
                {"type": "object", "properties": {"listTabs": {"type": "null"}}, "required": ["listTabs"]},
                {"type": "object", "properties": {"newTab": {"type": "string"}}, "required": ["newTab"]}
            ],
            "$defs": {"Target": {"type": "object", "properties": {"ref": {"type": "string"}}, "required": ["ref"]}}
        })
    }

    #[test]
    fn tool_names_follow_known_servers() {
        assert_eq!(tool_name("goto"), "browser_navigate");
        assert_eq!(tool_name("click"), "browser_click");
        assert_eq!(tool_name("press"), "browser_press_key");
        assert_eq!(tool_name("select"), "browser_select_option");
        assert_eq!(tool_name("newTab"), "browser_new_tab");
        assert_eq!(tool_name("getUrl"), "browser_get_url");
    }

    #[test]
    fn every_action_becomes_a_standalone_tool() {
        let s = sample_schema();
        let tools = tools_from_schema(&s, &json!({"type": "array"}));
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "browser_click",
                "browser_navigate",
                "browser_tabs",
                "browser_new_tab",
                "browser_run_steps"
            ]
        );
        let click = &tools[0];
        assert_eq!(click.input_schema["properties"]["ref"]["type"], "string");
        assert!(
            !serde_json::to_string(&click.input_schema)
                .unwrap()
                .contains("$ref")
        );
        let nav = &tools[1];
        assert_eq!(nav.scalar_arg.as_deref(), Some("url"));
        assert_eq!(nav.description, "Open a URL.");
    }

    #[test]
    fn calls_turn_back_into_steps() {
        let s = sample_schema();
        let tools = tools_from_schema(&s, &json!({"type": "array"}));
        let by = |n: &str| tools.iter().find(|t| t.name == n).unwrap().clone();
        let mut a = Map::new();
        a.insert("url".into(), "http://x/".into());
        assert_eq!(
            step_from_call(&by("browser_navigate"), a),
            json!({"goto": "http://x/"})
        );
        let mut a = Map::new();
        a.insert("ref".into(), "s1e2".into());
        assert_eq!(
            step_from_call(&by("browser_click"), a),
            json!({"click": {"ref": "s1e2"}})
        );
        assert_eq!(
            step_from_call(&by("browser_tabs"), Map::new()),
            json!({"listTabs": {}})
        );
    }
}
