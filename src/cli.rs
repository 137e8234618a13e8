//! Command-line syntax (clap derive). No logic: `app` turns this into work.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (engine ",
    env!("ARIASNAP_ENGINE_HASH"),
    ")"
);

/// Faithful, compact, actionable accessibility snapshots of web pages, for AI agents.
#[derive(Debug, Parser)]
#[command(name = "ariasnap", version = VERSION, about, long_about = None)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    /// Indented text (Playwright-style).
    #[default]
    Text,
    /// One JSON document.
    Json,
    /// YAML (query results, detail levels, the tree).
    Yaml,
}

/// `X,Y` as two numbers (CSS pixels).
fn parse_xy(s: &str) -> Result<[f64; 2], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [x, y] => match (x.parse::<f64>(), y.parse::<f64>()) {
            (Ok(x), Ok(y)) => Ok([x, y]),
            _ => Err(format!("expected two numbers X,Y such as 0,800, got {s:?}")),
        },
        _ => Err(format!("expected two numbers X,Y such as 0,800, got {s:?}")),
    }
}

impl Format {
    /// The output format as views know it.
    pub fn view(self) -> ariasnap::query::view::ViewFormat {
        use ariasnap::query::view::ViewFormat;
        match self {
            Format::Text => ViewFormat::Text,
            Format::Json => ViewFormat::Json,
            Format::Yaml => ViewFormat::Yaml,
        }
    }
}

/// Options accepted before or after the subcommand.
#[derive(Debug, Clone, Args)]
pub struct Global {
    /// Named browser session that outlives the command.
    #[arg(
        long,
        global = true,
        env = "ARIASNAP_SESSION",
        default_value = "default"
    )]
    pub session: String,
    /// Use this W3C WebDriver endpoint instead of starting chromedriver (e.g. a Selenium Grid).
    #[arg(long, global = true, env = "ARIASNAP_WEBDRIVER", value_name = "URL")]
    pub webdriver: Option<String>,
    /// Browser binary (default: chromium, google-chrome... on PATH).
    #[arg(long, global = true, env = "ARIASNAP_BROWSER", value_name = "PATH")]
    pub browser: Option<PathBuf>,
    /// chromedriver binary (default: chromedriver on PATH).
    #[arg(long, global = true, env = "ARIASNAP_DRIVER", value_name = "PATH")]
    pub driver: Option<PathBuf>,
    /// Tab alias to act on (t1, t2...).
    #[arg(long, global = true, value_name = "ALIAS")]
    pub tab: Option<String>,
    /// Output format.
    #[arg(long, global = true, alias = "output-format", value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Indent JSON output.
    #[arg(long, global = true)]
    pub pretty: bool,
    /// Show values, descriptions, URLs, placeholders and all states.
    #[arg(long, global = true)]
    pub verbose: bool,
    /// Write the output to this file instead of stdout.
    #[arg(long, global = true, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// Replies over this many bytes go to an artifact file (0 = never).
    #[arg(long, global = true, value_name = "BYTES", default_value_t = ariasnap::spill::DEFAULT_INLINE_LIMIT)]
    pub inline_limit: usize,
    /// Deadline in ms of each step (a single command is one step; for `run` this overrides
    /// the file's "timeout"). Default 30000. A page that blocks gets exit 4 within it.
    #[arg(long, global = true, env = "ARIASNAP_TIMEOUT", value_name = "MS")]
    pub timeout: Option<u64>,
    /// How page dialogs (alert, confirm, prompt, beforeunload) are answered.
    #[arg(long, global = true, env = "ARIASNAP_DIALOG", value_enum, default_value_t = ariasnap::dialogs::Policy::Dismiss)]
    pub dialog: ariasnap::dialogs::Policy,
    /// Directory for artifact files (default: a private directory under the temp dir).
    #[arg(long, global = true, value_name = "DIR")]
    pub artifacts: Option<PathBuf>,
}

/// Snapshot options.
#[derive(Debug, Clone, Args, Default)]
pub struct SnapshotArgs {
    /// Open this URL first (default: the session's current page).
    pub url: Option<String>,
    /// Stop after this many nodes (0 = no limit).
    #[arg(long, default_value_t = 10_000)]
    pub max_nodes: u64,
    /// Give refs to every interactive element, even above 100 of them.
    #[arg(long)]
    pub all_refs: bool,
    /// Always walk the page (skip the 5-second snapshot cache).
    #[arg(long)]
    pub no_cache: bool,
    /// full (default), interactive (elements with refs and their landmark path), summary.
    #[arg(long, value_parser = ["full", "interactive", "summary"])]
    pub detail: Option<String>,
    /// Only what intersects the viewport.
    #[arg(long)]
    pub viewport: bool,
    /// Scope the snapshot: a ref, a CSS selector or role=ROLE.
    #[arg(long)]
    pub root: Option<String>,
    /// Answer {"unchanged": true} when nothing changed since this snapshot (e.g. s3).
    #[arg(long)]
    pub since: Option<String>,
    /// JMESPath query over the JSON tree (or the flattened list with --flatten).
    #[arg(long, alias = "jmespath-query")]
    pub query: Option<String>,
    /// Query the depth-first node list (_depth, _parent_role, _index) instead of the tree.
    #[arg(long)]
    pub flatten: bool,
    /// Page size (1..10000) of a list result.
    #[arg(long)]
    pub limit: Option<usize>,
    /// First item of the page.
    #[arg(long)]
    pub offset: Option<usize>,
    /// Page through an earlier result without walking the page again.
    #[arg(long)]
    pub cache_key: Option<String>,
    /// Capture (and mint refs) without printing the tree.
    #[arg(long, alias = "silent-mode")]
    pub silent: bool,
}

/// Commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the accessibility snapshot of the current page (or of URL).
    Snapshot(SnapshotArgs),
    /// Run a step file (`-` reads standard input) and print the result JSON.
    Run {
        /// Step file path, or - for stdin.
        #[arg(value_name = "FILE")]
        steps: String,
    },
    /// Open URL in the current tab.
    Goto {
        /// Address to open.
        url: String,
        /// Take a snapshot once loaded and print it in the result (optionally at a detail
        /// level: full, interactive, summary).
        #[arg(long, num_args = 0..=1, value_name = "DETAIL")]
        snapshot: Option<Option<String>>,
    },
    /// Reload the page.
    Reload,
    /// Go back in history.
    Back,
    /// Go forward in history.
    Forward,
    /// Open a new tab (optionally at URL) and make it current.
    #[command(alias = "newTab")]
    NewTab { url: Option<String> },
    /// Make a tab current (t1, t2...).
    #[command(alias = "switchTab")]
    SwitchTab { tab: String },
    /// Close a tab (default: the current one).
    #[command(alias = "closeTab")]
    CloseTab { tab: Option<String> },
    /// List tabs.
    #[command(alias = "listTabs", alias = "list-tabs")]
    Tabs,
    /// Find elements by text, regex, role or position; matches carry refs.
    Search {
        /// Text to find (case-insensitive substring of name or value).
        text: Option<String>,
        /// Whole-name match instead of substring.
        #[arg(long)]
        exact: bool,
        /// Regular expression on name or value.
        #[arg(long)]
        pattern: Option<String>,
        /// Only this role.
        #[arg(long)]
        role: Option<String>,
        /// X,Y[,RADIUS] in CSS pixels: nearest first.
        #[arg(long)]
        near: Option<String>,
        /// Most matches (default 10).
        #[arg(long)]
        limit: Option<usize>,
    },
    /// JMESPath query over the snapshot (see snapshot --query).
    Query {
        /// JMESPath expression.
        #[arg(value_name = "EXPR")]
        query: String,
        #[arg(long)]
        flatten: bool,
        #[arg(long)]
        limit: Option<usize>,
        #[arg(long)]
        offset: Option<usize>,
        #[arg(long)]
        cache_key: Option<String>,
    },
    /// Click an element by ref.
    Click {
        #[arg(value_name = "REF")]
        target: String,
        /// Double click.
        #[arg(long)]
        double: bool,
        /// left, middle or right.
        #[arg(long)]
        button: Option<String>,
        /// Click even when another element covers the target.
        #[arg(long)]
        force: bool,
    },
    /// Clear a field and type VALUE.
    Fill {
        #[arg(value_name = "REF")]
        target: String,
        value: String,
    },
    /// Type TEXT (into --ref, or the focused element).
    Type {
        text: String,
        #[arg(long = "ref", value_name = "REF")]
        target: Option<String>,
        /// Press Enter afterwards.
        #[arg(long)]
        submit: bool,
    },
    /// Press a key or chord (Enter, Control+a...).
    Press {
        key: String,
        #[arg(long = "ref", value_name = "REF")]
        target: Option<String>,
    },
    /// Move the pointer over an element.
    Hover {
        #[arg(value_name = "REF")]
        target: String,
    },
    /// Choose options of a select by value or text.
    Select {
        #[arg(value_name = "REF")]
        target: String,
        #[arg(required = true)]
        values: Vec<String>,
    },
    /// Check a checkbox, radio or switch.
    Check {
        #[arg(value_name = "REF")]
        target: String,
    },
    /// Uncheck a checkbox or switch.
    Uncheck {
        #[arg(value_name = "REF")]
        target: String,
    },
    /// Scroll a ref into view, or the page (--direction, --dx/--dy).
    Scroll {
        #[arg(value_name = "REF")]
        target: Option<String>,
        #[arg(long)]
        direction: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        dx: Option<f64>,
        #[arg(long, allow_hyphen_values = true)]
        dy: Option<f64>,
        /// Absolute position X,Y in CSS pixels.
        #[arg(long, value_name = "X,Y", value_parser = parse_xy)]
        to: Option<[f64; 2]>,
    },
    /// Drag one element onto another.
    Drag { from: String, to: String },
    /// Set the files of a file input.
    Upload {
        #[arg(value_name = "REF")]
        target: String,
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Wait for text, a ref, a selector or a URL (--hidden: for it to go away).
    Wait {
        #[arg(long)]
        text: Option<String>,
        #[arg(long = "ref", value_name = "REF")]
        target: Option<String>,
        #[arg(long)]
        selector: Option<String>,
        #[arg(long)]
        url: Option<String>,
        /// --url is a regular expression.
        #[arg(long)]
        regex: bool,
        #[arg(long)]
        hidden: bool,
    },
    /// Pause for MS milliseconds.
    Sleep { ms: u64 },
    /// Check a condition; exit 1 when it does not hold.
    Assert {
        #[arg(long)]
        text: Option<String>,
        #[arg(long = "ref", value_name = "REF")]
        target: Option<String>,
        #[arg(long)]
        selector: Option<String>,
        #[arg(long)]
        url: Option<String>,
        #[arg(long)]
        title: Option<String>,
        #[arg(long)]
        value: Option<String>,
        #[arg(long)]
        checked: Option<bool>,
        #[arg(long)]
        not: bool,
    },
    /// Read text, value, name, role, html, box or attr:NAME of a ref (uncut).
    Get {
        #[arg(value_name = "REF")]
        target: String,
        #[arg(long, default_value = "text")]
        what: String,
    },
    /// Print the current URL.
    #[command(alias = "getUrl")]
    GetUrl,
    /// Print the current title.
    #[command(alias = "getTitle")]
    GetTitle,
    /// Resize the viewport.
    Viewport { width: u32, height: u32 },
    /// Act in a frame: main, an index, or an iframe ref.
    Frame {
        /// main, an index, or an iframe's ref.
        #[arg(value_name = "TARGET")]
        value: String,
    },
    /// List, set or clear cookies.
    Cookies {
        /// list, set or clear
        #[arg(default_value = "list")]
        action: String,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        value: Option<String>,
    },
    /// Console messages of the page.
    Console {
        #[arg(long)]
        clear: bool,
    },
    /// Save a PNG screenshot (of the viewport or --ref).
    Screenshot {
        #[arg(long)]
        path: Option<String>,
        #[arg(long = "ref", value_name = "REF")]
        target: Option<String>,
    },
    /// Evaluate a JavaScript expression in the page and print its JSON value.
    Eval {
        /// Expression (its value is returned; use an IIFE for statements).
        #[arg(value_name = "EXPR")]
        expression: String,
        /// First item of a large array or string result.
        #[arg(long)]
        offset: Option<usize>,
        /// Page size of a large array or string result.
        #[arg(long)]
        limit: Option<usize>,
    },
    /// Manage named sessions.
    Session {
        #[command(subcommand)]
        action: SessionAction,
    },
    /// Serve MCP on stdio: every step action as a tool (stdout carries protocol only).
    Mcp,
    /// Serve a bundled demo page on 127.0.0.1 and print its snapshot.
    Demo {
        /// Keep the demo's browser session open afterwards (session "demo").
        #[arg(long)]
        keep: bool,
    },
}

/// `session` subcommands.
#[derive(Debug, Subcommand)]
pub enum SessionAction {
    /// List sessions.
    List,
    /// Close a session: browser, driver and profile (default: --session).
    Close {
        /// Session name.
        name: Option<String>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn global_options_go_before_or_after_the_subcommand() {
        let a = Cli::try_parse_from(["ariasnap", "--session", "x", "snapshot", "--format", "json"])
            .unwrap();
        assert_eq!(a.global.session, "x");
        assert_eq!(a.global.format, Format::Json);
        let b =
            Cli::try_parse_from(["ariasnap", "snapshot", "http://a/", "--session", "y"]).unwrap();
        assert_eq!(b.global.session, "y");
        match b.command {
            Command::Snapshot(s) => assert_eq!(s.url.as_deref(), Some("http://a/")),
            _ => panic!("not a snapshot"),
        }
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

    /// SPEC 6 / issue 13: every step action is a subcommand, and every option of a step (as
    /// the step file and the MCP tool take it) exists on that subcommand under the same name
    /// (kebab-case), as a flag or as a positional argument of that name.
    #[test]
    fn cli_step_file_and_mcp_tools_agree() {
        use ariasnap::steps::{step_schema, steps_schema};
        let cli = Cli::command();
        let defs = ariasnap::mcp::tools::tools_from_schema(&step_schema(), &steps_schema());
        let mut drift = Vec::new();
        for d in &defs {
            let Some(action) = &d.action else { continue };
            // the CLI's name for it (SPEC 6 spells listTabs `tabs`)
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
                let want = kebab(opt);
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
}
