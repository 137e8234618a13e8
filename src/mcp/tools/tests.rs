//! The unit tests of the tool definitions (src/mcp/tools.rs): tool names, one tool per
//! action, calls turned back into steps, the size and contents of the core and whole sets'
//! listings, compacted schemas.

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

/// The JSON of a tool list as `tools/list` sends it (name, description, inputSchema).
fn listed(tools: &[ToolDef]) -> String {
    let v: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "inputSchema": t.input_schema}))
        .collect();
    json!({ "tools": v }).to_string()
}

/// docs/reference/mcp.md#tool-sets / issues 15 and 58: `tools/list` of the default (core) set stays under 4,500 bytes and
/// lists the agent's loop as the table says; what it leaves out stays callable (the
/// calls are the whole set's), and `all` has one tool per action with every field.
#[test]
fn core_tool_list_is_small_and_all_is_complete() {
    let (step, file) = (crate::steps::step_schema(), crate::steps::steps_schema());
    let core = tool_set(&step, &file, ToolSet::Core);
    let all = tool_set(&step, &file, ToolSet::All);
    let bytes = listed(&core).len();
    assert!(bytes < 4_500, "core tools/list is {bytes} bytes");
    let names: Vec<&str> = core.iter().map(|t| t.name.as_str()).collect();
    let table: Vec<&str> = core_tools().iter().map(|c| c.tool).collect();
    assert_eq!(
        names, table,
        "a core tool of the table is not in the whole set"
    );
    // each place of the listing is one action's
    let mut ranks: Vec<u8> = crate::steps::ActionKind::all()
        .filter_map(|k| k.core().map(|c| c.rank))
        .collect();
    let n = ranks.len();
    ranks.sort();
    ranks.dedup();
    assert_eq!(
        ranks.len(),
        n,
        "two actions claim one place of the core set"
    );
    for n in [
        "browser_fill",
        "browser_type",
        "browser_hover",
        "browser_wait",
        "browser_take_screenshot",
        "browser_select_option",
    ] {
        assert!(!names.contains(&n), "{n} listed in {names:?}");
        assert!(all.iter().any(|t| t.name == n), "{n} not callable");
    }
    for c in &core {
        let whole = all.iter().find(|t| t.name == c.name).unwrap();
        // a call through the core listing is the same step as through the whole set
        assert_eq!(
            (&c.action, &c.scalar_arg),
            (&whole.action, &whole.scalar_arg)
        );
        let props = |t: &ToolDef| {
            t.input_schema
                .get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (listed_props, all_props) = (props(c), props(whole));
        for k in listed_props.keys() {
            assert!(all_props.contains_key(k), "{}: {k} is no option", c.name);
        }
        // every required property is listed; nothing says unlisted options are refused
        if let Some(Value::Array(req)) = whole.input_schema.get("required") {
            for r in req {
                assert!(
                    listed_props.contains_key(r.as_str().unwrap()),
                    "{}: {r}",
                    c.name
                );
            }
        }
        assert!(
            c.input_schema.get("additionalProperties").is_none(),
            "{}",
            c.name
        );
        assert!(!c.description.is_empty(), "{}", c.name);
    }
    // the core snapshot lists the loop's options; the rest are options all lists
    let snap = |ts: &[ToolDef]| {
        let t = ts.iter().find(|t| t.name == "browser_snapshot").unwrap();
        t.input_schema["properties"].as_object().unwrap().clone()
    };
    let (core_snap, all_snap) = (snap(&core), snap(&all));
    for k in ["detail", "root", "budget", "since", "viewport"] {
        assert!(core_snap.contains_key(k), "{k}");
    }
    for k in [
        "jmespath_query",
        "flatten",
        "limit",
        "offset",
        "output_format",
    ] {
        assert!(!core_snap.contains_key(k), "{k}");
        assert!(all_snap.contains_key(k), "{k} in all");
    }
    // a union of forms is listed as its types (set's value: text, number, boolean, list)
    let set = core.iter().find(|t| t.name == "browser_set").unwrap();
    assert_eq!(
        set.input_schema["properties"]["value"]["type"],
        json!(["string", "number", "boolean", "array"])
    );
    if std::env::var_os("ARIASNAP_PRINT_TOOLS").is_some() {
        println!("{}", listed(&core));
    }
}

/// `all` has one tool per action, with every field of the step schema; both run_steps
/// have the step hooks, and the core one names every action.
#[test]
fn all_is_complete_and_run_steps_names_every_action() {
    let (step, file) = (crate::steps::step_schema(), crate::steps::steps_schema());
    let core = tool_set(&step, &file, ToolSet::Core);
    let all = tool_set(&step, &file, ToolSet::All);
    assert_eq!(all.len(), crate::steps::ActionKind::all().count() + 1);
    assert!(
        listed(&all).contains("the arguments of browser_snapshot"),
        "all: goto's snapshot names browser_snapshot"
    );
    // the hooks beside every action (issue 16) are in both run_steps schemas
    assert!(listed(&all).contains("\"readyWhen\""), "all: no readyWhen");
    let run = listed(&core[core.len() - 1..]);
    assert!(run.contains("settledWhen"), "core: no settledWhen");
    // the core run_steps names every action and says the others are tools too
    for a in crate::steps::ActionKind::names() {
        assert!(
            run.contains(&format!(" {a},")) || run.contains(&format!(" {a}.")),
            "{a}"
        );
    }
    assert!(run.contains("callable though not listed"), "{run}");
    // compacting never drops a field: every tool keeps its properties and required list
    let full = tools_from_schema(&step, &file);
    for (a, b) in all.iter().zip(&full) {
        let keys = |t: &ToolDef| {
            t.input_schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect::<Vec<_>>())
        };
        assert_eq!(keys(a), keys(b), "{}", a.name);
        assert_eq!(
            a.input_schema.get("required"),
            b.input_schema.get("required"),
            "{}",
            a.name
        );
    }
}

#[test]
fn compact_drops_what_says_nothing() {
    let mut v = json!({
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"], "default": null, "description": "A."},
            "n": {"type": ["integer", "null"], "format": "uint64", "minimum": 0, "default": null},
            "f": {"type": "boolean", "default": false},
            "t": {"type": "boolean", "default": true},
            "o": {"anyOf": [{"type": "string"}, {"type": "null"}]}
        }
    });
    compact(&mut v);
    assert_eq!(
        v,
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "string", "description": "A."},
                "n": {"type": "integer"},
                "f": {"type": "boolean"},
                "t": {"type": "boolean", "default": true},
                "o": {"type": "string"}
            }
        })
    );
}
