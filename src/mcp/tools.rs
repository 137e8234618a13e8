//! MCP tool definitions derived from the step schema, so tools, step files and the CLI can
//! never drift apart (docs/reference/mcp.md#tools-are-steps).
//!
//! Owns: the tool name of each step action, turning the Step JSON schema (one variant per
//! action, `{"<action>": <argument>}`) into tool input schemas, the core set's listing
//! (`core_tools`), and turning a tool call back into a step. Must not: run anything.

use crate::steps::ActionKind;
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
    match ActionKind::from_name(action) {
        Some(k) => k.info().tool.to_string(),
        None => action.to_string(),
    }
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
        if crate::steps::targeted().contains(&action.as_str()) {
            with_target(&mut input_schema);
        }
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

/// A tool whose action takes a ref takes a `target` instead (docs/reference/mcp.md, the
/// locator of docs/reference/step-files.md#locators): the ref is then not required.
fn with_target(schema: &mut Map<String, Value>) {
    let loc = serde_json::to_value(schemars::schema_for!(crate::steps::locate::Locator))
        .unwrap_or_default();
    let mut loc = inline(&loc, &loc, 0);
    if let Value::Object(m) = &mut loc {
        m.remove("$schema");
        m.remove("title");
        m.insert(
            "description".into(),
            "The target by role and name, label or text instead of a ref: {\"role\": \"button\", \"name\": \"Pay\"}".into(),
        );
    }
    if let Some(Value::Object(p)) = schema.get_mut("properties") {
        // (frame's own target, its iframe, takes a locator too)
        let loc = match p.remove("target") {
            Some(own) => json!({"anyOf": [own, loc]}),
            None => loc,
        };
        p.insert("target".into(), loc);
    }
    if let Some(Value::Array(r)) = schema.get_mut("required") {
        r.retain(|x| x != "ref");
    }
}

/// Which tools `tools/list` offers (`ariasnap mcp --tools core|all`, docs/reference/mcp.md#tool-sets: small tool
/// definitions, since every agent turn pays for them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ToolSet {
    /// The tools of an agent's loop; every other tool stays callable by name, and every action reachable through `browser_run_steps`.
    #[default]
    Core,
    /// One tool per step action, and `browser_run_steps` with the whole step schema.
    All,
}

/// One tool the core set lists: which tool of the whole set, the description `tools/list`
/// gives it there (`None`: the action's own), and the properties it shows, each with the
/// short description it gets there ("" for none: its name and type say enough). Whatever a
/// core tool does not list it still takes, and a tool the core set does not list is still
/// callable by name: the listing is what an agent pays for on every turn (docs/reference/mcp.md#tool-sets), the call
/// is the whole set's.
#[derive(Debug, Clone, Copy)]
pub struct CoreTool {
    pub tool: &'static str,
    pub description: Option<&'static str>,
    pub props: &'static [(&'static str, &'static str)],
}

/// The core set (`--tools core`, the default): an agent's loop of open, look, find, act on
/// refs (`set` covers every control, text fields included), keys, tabs and script, and
/// `browser_run_steps` as the way to every other action. An action is in it when its
/// declaration says where (`Act::CORE`); `browser_run_steps` comes last.
pub fn core_tools() -> Vec<CoreTool> {
    let mut ranked: Vec<(u8, CoreTool)> = ActionKind::all()
        .filter_map(|k| {
            let c = k.core()?;
            let tool = k.info().tool;
            Some((
                c.rank,
                CoreTool {
                    tool,
                    description: c.description,
                    props: c.props,
                },
            ))
        })
        .collect();
    ranked.sort_by_key(|(rank, _)| *rank);
    let mut tools: Vec<CoreTool> = ranked.into_iter().map(|(_, t)| t).collect();
    tools.push(CoreTool {
        tool: "browser_run_steps",
        description: Some(
            "Run steps in order in one call; stops at the first failing step without \
             \"optional\": true.",
        ),
        props: &[("steps", "")],
    });
    tools
}

/// What the core `browser_run_steps` says of a step, before the list of every action.
const CORE_STEP_FORM: &str = "{\"<action>\": argument}, e.g. {\"fill\": {\"ref\": \"s1e5\", \
     \"value\": \"Ada\"}}, {\"click\": \"s1e4\"}; beside it, hooks readyWhen/settledWhen (page \
     functions polled before/after) and observe. Every action is also a tool taking its \
     argument, callable though not listed (browser_fill...).";

/// The tools of a set: compacted schemas (no null defaults, no `["T", "null"]` unions, no
/// repeated descriptions). `All` lists one tool per action; `Core` lists the tools of
/// [`core_tools`] as that table shows them (see [`core_listing`]).
pub fn tool_set(step_schema: &Value, step_file_schema: &Value, set: ToolSet) -> Vec<ToolDef> {
    let mut tools = tools_from_schema(step_schema, step_file_schema);
    for t in &mut tools {
        t.input_schema.remove("description");
        let mut v = Value::Object(std::mem::take(&mut t.input_schema));
        compact(&mut v);
        if let Value::Object(m) = v {
            t.input_schema = m;
        }
    }
    point_to_other_tools(&mut tools);
    match set {
        ToolSet::All => tools,
        ToolSet::Core => {
            let actions: Vec<String> = actions_in_schema(step_schema)
                .into_iter()
                .map(|(a, _, _)| a)
                .collect();
            core_tools()
                .iter()
                .filter_map(|c| {
                    let t = tools.iter().find(|t| t.name == c.tool)?;
                    Some(core_listing(t, c, &actions))
                })
                .collect()
        }
    }
}

/// A tool as the core set lists it: the table's description and properties, each property
/// its type(s) only (a union of forms becomes a list of types) and the table's words, the
/// required properties among them, and no `additionalProperties: false` (the call takes
/// every option of the whole set). `browser_run_steps` says the step form and names every
/// action instead of inlining their schemas.
fn core_listing(t: &ToolDef, c: &CoreTool, actions: &[String]) -> ToolDef {
    let all_props = t
        .input_schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut props = Map::new();
    for (name, words) in c.props {
        let mut p = Map::new();
        let whole = all_props.get(*name).cloned().unwrap_or_default();
        if let Some(types) = types_of(&whole) {
            // (clients may refuse an array without `items`: the items' type(s))
            if types == "array"
                || types
                    .as_array()
                    .is_some_and(|t| t.contains(&"array".into()))
            {
                let items = items_of(&whole).and_then(types_of);
                let items = items.map(|t| json!({ "type": t })).unwrap_or(json!({}));
                p.insert("items".into(), items);
            }
            p.insert("type".into(), types);
        }
        if let Some(e) = whole.get("enum") {
            p.insert("enum".into(), e.clone());
        }
        let words = if t.action.is_none() && *name == "steps" {
            format!("{CORE_STEP_FORM} Actions: {}.", actions.join(", "))
        } else {
            words.to_string()
        };
        if !words.is_empty() {
            p.insert("description".into(), words.into());
        }
        props.insert(name.to_string(), Value::Object(p));
    }
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(props));
    if let Some(Value::Array(req)) = t.input_schema.get("required") {
        schema.insert("required".into(), Value::Array(req.clone()));
    }
    ToolDef {
        name: t.name.clone(),
        action: t.action.clone(),
        description: c
            .description
            .map(str::to_string)
            .unwrap_or_else(|| t.description.clone()),
        input_schema: schema,
        scalar_arg: t.scalar_arg.clone(),
    }
}

/// The `items` schema of an array property, or of its array form.
fn items_of(s: &Value) -> Option<&Value> {
    if let Some(i) = s.get("items") {
        return Some(i);
    }
    let forms = s.get("anyOf").or_else(|| s.get("oneOf"))?.as_array()?;
    forms.iter().find_map(|f| f.get("items"))
}

/// The JSON type(s) of a property schema: its `type`, or the types of its forms (`anyOf`),
/// `None` when a form has no type.
fn types_of(s: &Value) -> Option<Value> {
    if let Some(t) = s.get("type") {
        return Some(t.clone());
    }
    let forms = s.get("anyOf").or_else(|| s.get("oneOf"))?.as_array()?;
    let mut out: Vec<Value> = Vec::new();
    for f in forms {
        let t = f.get("type")?;
        for t in t.as_array().cloned().unwrap_or_else(|| vec![t.clone()]) {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    Some(if out.len() == 1 {
        out.remove(0)
    } else {
        Value::Array(out)
    })
}

/// Where an argument takes another tool's whole argument object (goto's `snapshot` takes
/// the snapshot options), that form names the other tool instead of repeating its schema.
fn point_to_other_tools(tools: &mut [ToolDef]) {
    let shapes: Vec<(String, Value)> = tools
        .iter()
        .filter_map(|t| {
            let p = t.input_schema.get("properties")?;
            (p.as_object()?.len() > 2).then(|| (t.name.clone(), p.clone()))
        })
        .collect();
    for t in tools.iter_mut() {
        let Some(Value::Object(props)) = t.input_schema.get_mut("properties") else {
            continue;
        };
        for prop in props.values_mut() {
            let Some(Value::Array(forms)) = prop.get_mut("anyOf") else {
                continue;
            };
            for f in forms.iter_mut() {
                let Some(p) = f.get("properties") else {
                    continue;
                };
                if let Some((name, _)) = shapes.iter().find(|(n, s)| s == p && *n != t.name) {
                    *f = json!({"type": "object", "description": format!("the arguments of {name}")});
                }
            }
        }
    }
}

/// Drops what a JSON schema says twice or says for nothing: `default` of null, false or
/// empty, `format` and `minimum: 0` of integers, `null` in a `type` list (optional fields
/// are optional anyway), and a one-variant `anyOf`.
pub fn compact(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.get("default").is_some_and(|d| {
                d.is_null() || d == &Value::Bool(false) || d == &json!([]) || d == &json!({})
            }) {
                m.remove("default");
            }
            m.remove("format");
            if m.get("minimum") == Some(&json!(0)) || m.get("minimum") == Some(&json!(0.0)) {
                m.remove("minimum");
            }
            if let Some(Value::Array(types)) = m.get("type") {
                let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
                if rest.len() == 1 {
                    m.insert("type".into(), rest[0].clone());
                } else {
                    m.insert("type".into(), Value::Array(rest));
                }
            }
            for key in ["anyOf", "oneOf"] {
                if let Some(Value::Array(vs)) = m.get_mut(key) {
                    vs.retain(|x| x.get("type").and_then(Value::as_str) != Some("null"));
                    if vs.len() == 1 {
                        let only = vs.remove(0);
                        m.remove(key);
                        if let Value::Object(o) = only {
                            for (k, x) in o {
                                m.entry(k).or_insert(x);
                            }
                        }
                    }
                }
            }
            m.values_mut().for_each(compact);
        }
        Value::Array(a) => a.iter_mut().for_each(compact),
        _ => {}
    }
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
    ActionKind::from_name(action)
        .map_or("value", |k| k.info().scalar)
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
mod tests;
