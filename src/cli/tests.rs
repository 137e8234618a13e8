//! The command line's unit tests (src/cli.rs): clap's own checks, locators and global
//! options, every command against its step (the same `Action` value), the command line
//! against the step schema and the MCP tools, and the commands the skills name.

use super::*;
use clap::CommandFactory;

#[test]
fn cli_is_well_formed() {
    Cli::command().debug_assert();
}

/// docs/reference/cli.md#locators: the locator's flags stand for the ref, and the
/// positional arguments after the ref keep their places.
#[test]
fn locator_flags_stand_for_the_ref() {
    use ariasnap::steps::locate::PLACEHOLDER_REF;
    let p = |argv: &[&str]| {
        parse(std::iter::once("ariasnap").chain(argv.iter().copied()))
            .unwrap_or_else(|e| panic!("{argv:?}: {e}"))
    };
    let a = p(&[
        "--session",
        "x",
        "fill",
        "--label",
        "Email",
        "ada@example.org",
    ]);
    match a.command {
        Command::Step(Action::Fill(f)) => {
            assert_eq!(f.ref_.as_deref(), Some(PLACEHOLDER_REF));
            assert_eq!(f.value.as_deref(), Some("ada@example.org"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(a.target.unwrap().label.as_deref(), Some("Email"));
    let a = p(&["fill", "s1e1", "ada@example.org"]);
    assert!(a.target.is_none());
    match a.command {
        Command::Step(Action::Fill(f)) => assert_eq!(f.ref_.as_deref(), Some("s1e1")),
        other => panic!("{other:?}"),
    }
    let a = p(&[
        "select", "--label", "Country", "Germany", "--within", "main",
    ]);
    let t = a.target.unwrap();
    assert_eq!(
        t.within,
        Some(ariasnap::steps::locate::Within::Text("main".into()))
    );
    match a.command {
        Command::Step(Action::Select(s)) => assert_eq!(s.values, vec!["Germany".to_string()]),
        other => panic!("{other:?}"),
    }
    let a = p(&[
        "type",
        "hello",
        "--role",
        "textbox",
        "--nth",
        "1",
        "--name",
        "Q",
        "--substring",
    ]);
    let t = a.target.unwrap();
    assert_eq!((t.nth, t.exact), (Some(1), Some(false)));
    // search keeps its own --role and --text
    let a = p(&["search", "x", "--role", "heading"]);
    assert!(a.target.is_none());
    assert!(parse(["ariasnap", "check"]).is_err());
}

#[test]
fn global_options_go_before_or_after_the_subcommand() {
    let a = Cli::try_parse_from(["ariasnap", "--session", "x", "snapshot", "--format", "json"])
        .unwrap();
    assert_eq!(a.global.session, "x");
    assert_eq!(a.global.format, Some(Format::Json));
    let b = Cli::try_parse_from(["ariasnap", "snapshot", "http://a/", "--session", "y"]).unwrap();
    assert_eq!(b.global.session, "y");
    match b.command {
        Command::Step(Action::Snapshot(s)) => assert_eq!(s.url.as_deref(), Some("http://a/")),
        _ => panic!("not a snapshot"),
    }
}

/// docs/reference/cli.md#commands: a command is the step of the same name: the command line and the step file
/// give the same `Action` value (one type behind both, no translation in between).
#[test]
fn commands_and_steps_give_the_same_action() {
    use serde_json::json;
    let cases: Vec<(Vec<&str>, serde_json::Value)> = vec![
        (
            vec!["click", "s1e4", "--double"],
            json!({"click": {"ref": "s1e4", "double": true}}),
        ),
        (vec!["click", "s1e4"], json!({"click": "s1e4"})),
        (vec!["goto", "http://x/"], json!({"goto": "http://x/"})),
        (
            vec!["goto", "http://x/", "--snapshot"],
            json!({"goto": {"url": "http://x/", "snapshot": {}}}),
        ),
        (
            vec!["goto", "http://x/", "--snapshot", "interactive"],
            json!({"goto": {"url": "http://x/", "snapshot": "interactive"}}),
        ),
        (vec!["sleep", "500"], json!({"sleep": 500})),
        (vec!["frame", "2"], json!({"frame": 2})),
        (vec!["frame", "main"], json!({"frame": "main"})),
        (
            vec!["select", "s1e3", "a", "b"],
            json!({"select": {"ref": "s1e3", "values": ["a", "b"]}}),
        ),
        (
            vec!["set", "s1e3", "2026-05-01"],
            json!({"set": {"ref": "s1e3", "value": "2026-05-01"}}),
        ),
        (
            vec!["set", "s1e3", "007"],
            json!({"set": {"ref": "s1e3", "value": "007"}}),
        ),
        (
            vec!["set", "s1e3", "true"],
            json!({"set": {"ref": "s1e3", "value": true}}),
        ),
        (
            vec!["set", "s1e3", r#"["a","b"]"#],
            json!({"set": {"ref": "s1e3", "value": ["a", "b"]}}),
        ),
        (
            vec!["select", "s1e3", "a"],
            json!({"select": {"ref": "s1e3", "values": "a"}}),
        ),
        (
            vec!["scroll", "--to", "0,800"],
            json!({"scroll": {"to": [0, 800]}}),
        ),
        (
            vec!["scroll", "--dy", "-200"],
            json!({"scroll": {"dy": -200}}),
        ),
        (
            vec!["search", "Save", "--near", "10,20"],
            json!({"search": {"text": "Save", "near": "10,20"}}),
        ),
        (vec!["tabs"], json!({"listTabs": true})),
        (vec!["list-tabs"], json!({"listTabs": {}})),
        (vec!["eval", "1+1"], json!({"eval": "1+1"})),
        (
            vec!["eval", "[1]", "--limit", "5"],
            json!({"eval": {"expression": "[1]", "limit": 5}}),
        ),
        (
            vec!["wait", "--text", "Saved", "--hidden"],
            json!({"wait": {"text": "Saved", "hidden": true}}),
        ),
        (
            vec!["press", "Enter", "--ref", "s1e2"],
            json!({"press": {"key": "Enter", "ref": "s1e2"}}),
        ),
        (vec!["press", "Tab"], json!({"press": "Tab"})),
        (vec!["new-tab"], json!({"newTab": null})),
        (vec!["newTab", "http://x/"], json!({"newTab": "http://x/"})),
        (vec!["close-tab", "t2"], json!({"closeTab": "t2"})),
        (vec!["switch-tab", "t2"], json!({"switchTab": "t2"})),
        (
            vec!["snapshot", "--detail", "summary"],
            json!({"snapshot": "summary"}),
        ),
        (
            vec!["snapshot", "--silent-mode", "--no-cache"],
            json!({"snapshot": {"silent_mode": true, "noCache": true}}),
        ),
        (
            vec!["get", "s1e4", "--what", "value"],
            json!({"get": {"ref": "s1e4", "what": "value"}}),
        ),
        (
            vec!["assert", "--checked", "false", "--ref", "s1e4"],
            json!({"assert": {"ref": "s1e4", "checked": false}}),
        ),
        (vec!["cookies"], json!({"cookies": true})),
        (
            vec!["upload", "s1e5", "a.pdf"],
            json!({"upload": {"ref": "s1e5", "files": "a.pdf"}}),
        ),
        (
            vec!["viewport", "800", "600"],
            json!({"viewport": {"width": 800, "height": 600}}),
        ),
    ];
    same_action(cases);
}

/// Issue 16: points, PDF, annotated screenshots and site notes on the command line.
#[test]
fn point_commands_and_steps_give_the_same_action() {
    use serde_json::json;
    let cases = vec![
        (
            vec!["click", "--x", "120", "--y", "80", "--double"],
            json!({"click": {"x": 120, "y": 80, "double": true}}),
        ),
        (
            vec!["hover", "--x", "5", "--y", "6"],
            json!({"hover": {"x": 5, "y": 6}}),
        ),
        (
            vec!["drag", "10,20", "s1e4"],
            json!({"drag": {"from": {"x": 10, "y": 20}, "to": "s1e4"}}),
        ),
        (
            vec!["elements-at", "10,20", "30,40", "--radius", "25"],
            json!({"elementsAt": {"points": [{"x": 10, "y": 20}, {"x": 30, "y": 40}], "radius": 25}}),
        ),
        (
            vec!["elementsAt", "--x", "1", "--y", "2"],
            json!({"elementsAt": {"x": 1, "y": 2}}),
        ),
        (
            vec![
                "pdf",
                "--landscape",
                "--page-ranges",
                "1-2,4",
                "--print-background",
            ],
            json!({"pdf": {"landscape": true, "pageRanges": "1-2, 4", "printBackground": true}}),
        ),
        (
            vec!["screenshot", "--annotate"],
            json!({"screenshot": {"annotate": true}}),
        ),
        (
            vec!["read-site-notes", "example.org"],
            json!({"readSiteNotes": "example.org"}),
        ),
        (
            vec!["write-site-notes", "map is a canvas", "--replace"],
            json!({"writeSiteNotes": {"notes": "map is a canvas", "replace": true}}),
        ),
    ];
    same_action(cases);
}

/// Each command line gives the action of its step-file form.
fn same_action(cases: Vec<(Vec<&str>, serde_json::Value)>) {
    for (args, step) in cases {
        let argv = std::iter::once("ariasnap").chain(args.iter().copied());
        let cli = Cli::try_parse_from(argv).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let Command::Step(from_cli) = cli.command else {
            panic!("{args:?} is not a step");
        };
        let from_file = ariasnap::steps::parse::parse_step(&step, 0)
            .unwrap_or_else(|p| panic!("{step}: {p:?}"))
            .action;
        assert_eq!(from_cli, from_file, "{args:?} vs {step}");
    }
}

/// The step vocabulary of issue 16 as commands (docs/reference/cli.md#commands).
#[test]
fn vocabulary_commands_and_steps_give_the_same_action() {
    use serde_json::json;
    let cases: Vec<(Vec<&str>, serde_json::Value)> = vec![
        (
            vec!["fill", "s1e2", "x"],
            json!({"fill": {"ref": "s1e2", "value": "x"}}),
        ),
        (
            vec!["fill", "--fields", r#"{"s1e3": "a", "s1e5": true}"#],
            json!({"fill": {"s1e3": "a", "s1e5": true}}),
        ),
        (vec!["submit", "s1e4"], json!({"submit": "s1e4"})),
        (
            vec!["submit", "--selector", "form#signup", "--report-validity"],
            json!({"submit": {"selector": "form#signup", "reportValidity": true}}),
        ),
        (
            vec!["select-text", "s1e4", "--start", "2"],
            json!({"selectText": {"ref": "s1e4", "start": 2}}),
        ),
        (
            vec!["waitForNavigation", "--wait-until", "commit"],
            json!({"waitForNavigation": {"waitUntil": "commit"}}),
        ),
        (
            vec!["poll", "() => window.ready", "--interval", "50"],
            json!({"poll": {"fn": "() => window.ready", "interval": 50}}),
        ),
        (
            vec![
                "query-all",
                "--queries",
                r#"{"b": {"role": "button"}, "rows": "tr"}"#,
            ],
            json!({"queryAll": {"b": {"role": "button"}, "rows": "tr"}}),
        ),
        (
            vec!["inspect", "--selectors", ".card"],
            json!({"inspect": {"selectors": [".card"]}}),
        ),
    ];
    same_action(cases);
}

/// Saved logins (issue 45): `save-state`/`load-state` are the steps' commands, `state
/// save`/`state load` the same steps under the issue's names, and `--state` a global
/// option before or after any command.
#[test]
fn state_commands_are_the_state_steps() {
    use serde_json::json;
    same_action(vec![
        (vec!["save-state", "s.json"], json!({"saveState": "s.json"})),
        (
            vec!["saveState", "s.json", "--session-storage"],
            json!({"saveState": {"path": "s.json", "sessionStorage": true}}),
        ),
        (vec!["load-state", "s.json"], json!({"loadState": "s.json"})),
        (
            vec!["loadState", "s.json"],
            json!({"loadState": {"path": "s.json"}}),
        ),
    ]);
    let parse = |argv: &[&str]| -> Cli {
        Cli::try_parse_from(std::iter::once("ariasnap").chain(argv.iter().copied()))
            .unwrap_or_else(|e| panic!("{argv:?}: {e}"))
    };
    let step = |v: serde_json::Value| ariasnap::steps::parse::parse_step(&v, 0).unwrap().action;
    for (argv, want) in [
        (
            &["state", "save", "s.json", "--session-storage"][..],
            json!({"saveState": {"path": "s.json", "sessionStorage": true}}),
        ),
        (
            &["state", "save", "s.json"][..],
            json!({"saveState": "s.json"}),
        ),
        (
            &["state", "load", "s.json"][..],
            json!({"loadState": "s.json"}),
        ),
    ] {
        match parse(argv).command {
            Command::State { action } => assert_eq!(action.action(), step(want), "{argv:?}"),
            other => panic!("{argv:?}: {other:?}"),
        }
    }
    let a = parse(&[
        "--session",
        "fresh",
        "--state",
        "s.json",
        "goto",
        "http://x/",
    ]);
    assert_eq!(a.global.state, Some(PathBuf::from("s.json")));
    assert!(matches!(a.command, Command::Step(Action::Goto(_))));
    let b = parse(&["mcp", "--state", "s.json"]);
    assert_eq!(b.global.state, Some(PathBuf::from("s.json")));
    assert!(Cli::try_parse_from(["ariasnap", "state", "save"]).is_err());
}

/// kebab-case of a step name or option (`newTab` -> `new-tab`, `cache_key` -> `cache-key`).
fn kebab(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else if c == '_' {
            out.push('-');
        } else {
            out.push(c);
        }
    }
    out
}

/// docs/reference/cli.md#commands / issue 13: every step action is a subcommand, and every option of a step (as
/// the step file and the MCP tool take it) exists on that subcommand under the same name
/// (kebab-case), as a flag or as a positional argument of that name.
#[test]
fn cli_step_file_and_mcp_tools_agree() {
    use ariasnap::steps::{step_schema, steps_schema};
    // the command with its locator flags: a tool's `target` is `--role` and its kin
    let cli = command();
    let defs = ariasnap::mcp::tools::tools_from_schema(&step_schema(), &steps_schema());
    let mut drift = Vec::new();
    for d in &defs {
        let Some(action) = &d.action else { continue };
        // the CLI's name for it (docs/reference/cli.md#commands spells listTabs `tabs`)
        let sub = match action.as_str() {
            "listTabs" => "tabs".to_string(),
            a => kebab(a),
        };
        let Some(cmd) = cli.find_subcommand(&sub) else {
            drift.push(format!("step {action:?} has no subcommand {sub:?}"));
            continue;
        };
        let props = d
            .input_schema
            .get("properties")
            .and_then(|p| p.as_object())
            .cloned()
            .unwrap_or_default();
        for opt in props.keys() {
            let want = if opt == "target" && ariasnap::steps::targeted().contains(&action.as_str())
            {
                "role".to_string()
            } else {
                kebab(opt)
            };
            let found = cmd.get_arguments().chain(cli.get_arguments()).any(|a| {
                a.get_long() == Some(want.as_str())
                    || a.get_all_aliases()
                        .is_some_and(|al| al.contains(&want.as_str()))
                    || (a.is_positional() && kebab(a.get_id().as_str()) == want)
                    || a.get_value_names()
                        .is_some_and(|v| v.iter().any(|n| kebab(&n.to_lowercase()) == want))
            });
            if !found {
                drift.push(format!(
                    "step {action:?} option {opt:?}: no --{want} (or positional {want}) on `ariasnap {sub}`"
                ));
            }
        }
    }
    assert!(
        drift.is_empty(),
        "the CLI drifted from the step schema:\n{}",
        drift.join("\n")
    );
}

/// Issue 43: every property of every MCP tool (the whole set the server takes calls
/// for, `tool_defs(All)`) is accepted by the subcommand of the same action, under the
/// property's name in kebab-case: as a long option (or one of its aliases, hidden ones
/// included) of the subcommand or of the global options, or as a positional argument of
/// that name. (Value names do not count: `--max-nodes N` is no option `n`.)
#[test]
fn every_mcp_tool_property_is_a_cli_option() {
    // the command with its locator flags: a tool's `target` is `--role` and its kin
    let cli = command();
    let mut gaps = Vec::new();
    let tools = ariasnap::mcp::tool_defs(ariasnap::mcp::tools::ToolSet::All);
    assert!(tools.len() > 40, "{} tools", tools.len());
    for t in &tools {
        let Some(action) = &t.action else { continue };
        let sub = match action.as_str() {
            "listTabs" => "tabs".to_string(),
            a => kebab(a),
        };
        let Some(cmd) = cli.find_subcommand(&sub) else {
            gaps.push(format!("{}: no subcommand {sub:?}", t.name));
            continue;
        };
        let props = t.input_schema.get("properties").and_then(|p| p.as_object());
        for prop in props.into_iter().flat_map(|p| p.keys()) {
            // a secret by name is --use-secret: the global --secret gives one
            // (docs/reference/policy.md#secrets); a target is its locator's flags
            let want = match prop.as_str() {
                "secret" => "use-secret".to_string(),
                "target" if ariasnap::steps::targeted().contains(&action.as_str()) => {
                    "role".to_string()
                }
                p => kebab(p),
            };
            let taken = cmd.get_arguments().chain(cli.get_arguments()).any(|a| {
                if a.is_positional() {
                    return kebab(a.get_id().as_str()) == want;
                }
                a.get_long() == Some(want.as_str())
                    || a.get_all_aliases()
                        .is_some_and(|al| al.contains(&want.as_str()))
            });
            if !taken {
                gaps.push(format!(
                    "{} takes {prop:?}: `ariasnap {sub}` has no --{want}",
                    t.name
                ));
            }
        }
    }
    assert!(gaps.is_empty(), "CLI gaps:\n{}", gaps.join("\n"));
}

/// The options issue 43 found missing, given on the command line, make the step the MCP
/// tool's call makes.
#[test]
fn mcp_only_options_on_the_command_line() {
    use serde_json::json;
    let parse = |argv: &[&str]| -> Cli {
        Cli::try_parse_from(std::iter::once("ariasnap").chain(argv.iter().copied()))
            .unwrap_or_else(|e| panic!("{argv:?}: {e}"))
    };
    let step = |v: serde_json::Value| ariasnap::steps::parse::parse_step(&v, 0).unwrap().action;
    let a = parse(&[
        "snapshot",
        "--jmespath-query",
        "length(children)",
        "--silent-mode",
    ]);
    match a.command {
        Command::Step(Action::Snapshot(s)) => {
            let want = step(
                json!({"snapshot": {"jmespath_query": "length(children)", "silent_mode": true}}),
            );
            assert_eq!(Action::Snapshot(s), want);
        }
        other => panic!("{other:?}"),
    }
    let a = parse(&["snapshot", "--output-format", "json"]);
    assert_eq!(a.global.format, Some(Format::Json));
    for argv in [
        &["eval", "--expression", "document.title"][..],
        &["eval", "document.title"][..],
    ] {
        match parse(argv).command {
            Command::Step(e) => assert_eq!(
                e,
                step(json!({"eval": {"expression": "document.title"}})),
                "{argv:?}"
            ),
            other => panic!("{other:?}"),
        }
    }
}

/// Whether `name` (`--opt`, a subcommand) is an option or subcommand anywhere in `cmd`.
fn named_anywhere(cmd: &clap::Command, name: &str) -> bool {
    let found = match name.strip_prefix("--") {
        Some(long) => cmd.get_arguments().any(|a| {
            a.get_long() == Some(long) || a.get_all_aliases().is_some_and(|al| al.contains(&long))
        }),
        None => cmd.get_subcommands().any(|c| c.get_name() == name),
    };
    found || cmd.get_subcommands().any(|c| named_anywhere(c, name))
}

/// The words of a command named in passing (`ariasnap snapshot --budget N`): each
/// subcommand is one, and each option one of that subcommand or a global one. Upper-case
/// words are placeholders.
fn names_in_passing(cli: &clap::Command, words: &[String]) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut cmd = cli;
    let mut it = words.iter().skip(1).peekable();
    while let Some(w) = it.next() {
        if let Some(opt) = w.strip_prefix("--") {
            let long = opt.split('=').next().unwrap_or(opt);
            let arg = cmd
                .get_arguments()
                .chain(cli.get_arguments())
                .find(|a| a.get_long() == Some(long));
            match arg {
                Some(a) if a.get_action().takes_values() && !opt.contains('=') => {
                    it.next();
                }
                Some(_) => {}
                None => wrong.push(format!("no option {w} on `{}`", cmd.get_name())),
            }
        } else if cmd.has_subcommands() && w.chars().any(|c| c.is_ascii_lowercase()) {
            match cmd.find_subcommand(w) {
                Some(sub) => cmd = sub,
                None => {
                    wrong.push(format!("no command {w:?} in `{}`", cmd.get_name()));
                    return wrong;
                }
            }
        }
    }
    wrong
}

/// Issue 45: the skills (skills/*/SKILL.md) name only what the binary has. Every example
/// command parses as its command line (or exits 2 as its comment says); every command,
/// subcommand and option named in passing exists; every step file parses with the
/// step-file parser (except one an example runs to show exit 2, which must not), and
/// every step written as JSON in passing is a step of the schema.
#[test]
fn skills_name_only_what_exists() {
    use ariasnap::skills::examples::{Block, blocks, inline_code, split};
    let mut cli = command();
    // with the --help and --version clap adds
    cli.build();
    let mut wrong = Vec::new();
    let opts = regex::Regex::new(r"(^|\s)(--[a-z][a-z0-9-]*)").unwrap();
    for s in ariasnap::skills::all() {
        let blocks = blocks(s.text).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        let mut bad_files = Vec::new();
        for b in &blocks {
            let Block::Commands(cmds) = b else { continue };
            for c in cmds {
                // a command shown to exit 2 may be refused by the parser itself
                if let Err(e) = parse(&c.words)
                    && c.exit != 2
                {
                    wrong.push(format!("{}: `{}`: {}", s.name, c.line, e.kind()));
                }
                wrong.extend(
                    names_in_passing(&cli, &c.words)
                        .into_iter()
                        .map(|w| format!("{}: `{}`: {w}", s.name, c.line)),
                );
                if c.exit == 2 {
                    let run = c.words.windows(2).filter(|w| w[0] == "run");
                    bad_files.extend(run.map(|w| w[1].clone()));
                }
            }
        }
        for b in &blocks {
            let Block::StepFile { name, text } = b else {
                continue;
            };
            let parsed = ariasnap::steps::parse::parse_text(text, name);
            match (parsed, bad_files.contains(name)) {
                (Err(e), false) => wrong.push(format!("{}: {name}: {e}", s.name)),
                (Ok(_), true) => wrong.push(format!(
                    "{}: {name} is run to show exit 2, and it parses",
                    s.name
                )),
                _ => {}
            }
        }
        for span in inline_code(s.text) {
            if span.starts_with("ariasnap ") {
                match split(&span) {
                    Ok((words, _)) => wrong.extend(
                        names_in_passing(&cli, &words)
                            .into_iter()
                            .map(|w| format!("{}: `{span}`: {w}", s.name)),
                    ),
                    Err(e) => wrong.push(format!("{}: {e}", s.name)),
                }
            }
            for m in opts.captures_iter(&span) {
                let o = &m[2];
                if !named_anywhere(&cli, o) {
                    wrong.push(format!("{}: `{span}`: no option {o}", s.name));
                }
            }
            // a step: one key besides `optional` and the hooks (not a hook's own object,
            // `{"fn", "interval", "timeout"}`)
            let json: Option<serde_json::Map<String, serde_json::Value>> =
                serde_json::from_str(&span).ok();
            let hooks = ["optional", "readyWhen", "settledWhen", "observe"];
            let keys: Vec<String> = (json.iter().flat_map(|m| m.keys()))
                .filter(|k| !hooks.contains(&k.as_str()))
                .cloned()
                .collect();
            if let (Some(m), [_]) = (json, keys.as_slice()) {
                let v = serde_json::Value::Object(m);
                if let Err(p) = ariasnap::steps::parse::parse_step(&v, 0) {
                    wrong.push(format!("{}: `{span}`: {p:?}", s.name));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the skills drifted:\n{}",
        wrong.join("\n")
    );
}
