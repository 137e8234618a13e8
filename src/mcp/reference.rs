//! The action reference (docs/reference/actions.md), generated from the one definition of
//! each action: its doc comment and options (the step schema, as MCP tools get it), and its
//! row of `steps::Action::info` (kind, reply verb, tool, example). A unit test fails when the
//! file and the code drift; `ARIASNAP_BLESS=1 cargo test --lib reference` rewrites it.
//!
//! Owns: the layout of that page. Must not: state anything the code does not hold.

use super::tool_defs;
use super::tools::{ToolDef, ToolSet};
use crate::steps::{ActionKind, Kind};
use serde_json::Value;

/// The path of the generated page, from the repository's root.
pub const PATH: &str = "docs/reference/actions.md";

/// A schema's type in a few words (`text`, `number`, `list of text`, `one of "a", "b"`).
fn type_words(v: &Value) -> String {
    if let Some(e) = v.get("enum").and_then(Value::as_array) {
        let words: Vec<String> = e.iter().map(|x| x.to_string()).collect();
        return format!("one of {}", words.join(", "));
    }
    if let Some(forms) = v
        .get("anyOf")
        .or_else(|| v.get("oneOf"))
        .and_then(Value::as_array)
    {
        let mut words: Vec<String> = forms.iter().map(type_words).collect();
        words.dedup();
        return words.join(" or ");
    }
    let one = |t: &str| match t {
        "string" => "text".to_string(),
        "integer" => "whole number".to_string(),
        "number" => "number".to_string(),
        "boolean" => "true/false".to_string(),
        "object" => "object".to_string(),
        "array" => match v.get("items") {
            Some(i) => format!("list of {}", type_words(i)),
            None => "list".to_string(),
        },
        "null" => "null".to_string(),
        other => other.to_string(),
    };
    match v.get("type") {
        Some(Value::String(t)) => one(t),
        Some(Value::Array(ts)) => {
            let words: Vec<String> = ts
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .map(one)
                .collect();
            words.join(" or ")
        }
        _ => "any".to_string(),
    }
}

/// A table cell: one line, pipes escaped.
fn cell(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

fn kind_words(k: Kind) -> &'static str {
    match k {
        Kind::Visual => "changes what is on screen (the reply says what changed)",
        Kind::ChangesPage => "changes the page (the snapshot cache is dropped)",
        Kind::Reads => "reads (the page is left as it was)",
    }
}

fn section(out: &mut String, k: ActionKind, tool: &ToolDef, cli: &str) {
    let info = k.info();
    out.push_str(&format!(
        "## {}\n\n{}\n\n",
        k.name(),
        tool.description.trim()
    ));
    out.push_str(&format!(
        "- Kind: {}; reply verb: {}\n- MCP tool: `{}`\n- CLI: `ariasnap {}`\n- In a step file, `{}` takes: `{}`\n\n",
        kind_words(info.kind),
        info.verb,
        info.tool,
        cli,
        k.name(),
        info.example,
    ));
    let props = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object);
    let required: Vec<&str> = tool
        .input_schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    match props {
        Some(p) if !p.is_empty() => {
            out.push_str("| option | takes | |\n| --- | --- | --- |\n");
            for (name, v) in p {
                let desc = v.get("description").and_then(Value::as_str).unwrap_or("");
                let need = if required.contains(&name.as_str()) {
                    "**required.** "
                } else {
                    ""
                };
                out.push_str(&format!(
                    "| `{name}` | {} | {need}{} |\n",
                    cell(&type_words(v)),
                    cell(desc)
                ));
            }
            out.push('\n');
        }
        _ => out.push_str("No options.\n\n"),
    }
}

/// Each action's subcommand name as clap derives it from the same enum (kebab-case;
/// `listTabs` is `tabs`), in the enum's order.
fn cli_names() -> Vec<String> {
    use clap::Subcommand;
    crate::steps::Action::augment_subcommands(clap::Command::new("ariasnap"))
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

/// The whole page.
pub fn markdown() -> String {
    let tools = tool_defs(ToolSet::All);
    let mut out = String::from(
        "# Actions\n\n\
         <!-- Generated from src/steps/action.rs by src/mcp/reference.rs: do not edit by hand;\n\
         `ARIASNAP_BLESS=1 cargo test --lib reference` rewrites it. -->\n\n\
         Every action is a step (`{\"click\": \"s1e4\"}` in a step file, see\n\
         [step-files.md](step-files.md)), a command (`ariasnap click s1e4`, options in\n\
         kebab-case) and an MCP tool (`browser_click {\"ref\": \"s1e4\"}`, see [mcp.md](mcp.md)).\n\
         The options below are the tool's; a step takes the same object, or the short form of\n\
         the example.\n\n",
    );
    let mut index = Vec::new();
    for k in ActionKind::all() {
        index.push(format!("[{0}](#{1})", k.name(), k.name().to_lowercase()));
    }
    out.push_str(&index.join(" · "));
    out.push_str("\n\n");
    let cli = cli_names();
    assert_eq!(
        cli.len(),
        ActionKind::all().count(),
        "a subcommand per action"
    );
    for (k, cli) in ActionKind::all().zip(&cli) {
        let tool = tools
            .iter()
            .find(|t| t.action.as_deref() == Some(k.name()))
            .expect("every action is a tool");
        section(&mut out, k, tool, cli);
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page in the repository is what the code generates.
    #[test]
    fn the_action_reference_is_generated_from_the_code() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PATH);
        let want = markdown();
        if std::env::var_os("ARIASNAP_BLESS").is_some() {
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "{PATH} differs from the action definitions: run `ARIASNAP_BLESS=1 cargo test --lib \
             reference` and commit it"
        );
        for k in ActionKind::all() {
            assert!(want.contains(&format!("\n## {}\n", k.name())));
        }
    }
}
