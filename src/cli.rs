//! Command-line syntax (clap derive). No logic: `app` turns this into work.

use ariasnap::steps::Action;
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
    /// The target by locator (`--role`, `--name`, `--label`, `--text`, `--within`, `--nth`,
    /// `--substring`), read from the command's own matches by [`parse`].
    #[arg(skip)]
    pub target: Option<ariasnap::steps::locate::Locator>,
}

// docs/reference/cli.md#locators: the locator's flags, on every command whose step takes a
// ref (ids of their own: `search --role` is search's).
const LOCATOR_FLAGS: &[(&str, &str, &str)] = &[
    (
        "loc-role",
        "role",
        "The target by ARIA role (with --name: by role and accessible name), instead of a ref",
    ),
    (
        "loc-name",
        "name",
        "The target's accessible name (whole, case aside; --substring for a part)",
    ),
    ("loc-label", "label", "The target field by its label"),
    ("loc-text", "text", "The target by the text it holds"),
    (
        "loc-within",
        "within",
        "Only inside this container: a ref, a landmark role (main), or role \"name\" (region \"Cart\")",
    ),
    ("loc-nth", "nth", "The nth (from 0) of several matches"),
];

/// The clap command of `ariasnap`: the derived one, with the locator flags added to every
/// command that takes a ref.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    for action in ariasnap::steps::targeted() {
        let name = kebab_case(action);
        cmd = cmd.mut_subcommand(name, |mut c| {
            let own: Vec<String> = c
                .get_arguments()
                .filter_map(|a| a.get_long().map(String::from))
                .collect();
            for (id, long, help) in LOCATOR_FLAGS {
                if own.iter().any(|o| o == long) {
                    continue;
                }
                let mut a = clap::Arg::new(*id)
                    .long(*long)
                    .help(*help)
                    .value_name(value_name(long));
                if *id == "loc-nth" {
                    a = a.value_parser(clap::value_parser!(u64));
                }
                c = c.arg(a);
            }
            c = c.arg(
                clap::Arg::new("loc-substring")
                    .long("substring")
                    .action(clap::ArgAction::SetTrue)
                    .help(
                        "--name, --label or --text match a part of the name (default: the whole)",
                    ),
            );
            // (the ref keeps its place among the positionals: `mut_arg` would move it last;
            // `parse` puts the placeholder ref where the locator stands for it)
            c
        });
    }
    cmd
}

fn value_name(long: &str) -> &'static str {
    match long {
        "role" => "ROLE",
        "name" => "NAME",
        "label" => "LABEL",
        "text" => "TEXT",
        "within" => "CONTAINER",
        _ => "N",
    }
}

fn kebab_case(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Parses the command line ([`command`]), with the step's locator from its flags.
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::FromArgMatches;
    let cmd = command();
    let args = with_placeholder(&cmd, args.into_iter().map(Into::into).collect());
    let mut m = cmd.try_get_matches_from(args)?;
    let target = m.subcommand().and_then(|(_, sub)| locator_of(sub));
    let mut cli = Cli::from_arg_matches_mut(&mut m)?;
    cli.target = target;
    Ok(cli)
}

/// The arguments with the placeholder ref where a command's locator flags stand for its ref
/// (`fill --label Email ada` is `fill s0e0 ada` with a locator), so that the positional
/// arguments after the ref keep their places; the step's ref is the locator's target.
fn with_placeholder(
    cmd: &clap::Command,
    mut args: Vec<std::ffi::OsString>,
) -> Vec<std::ffi::OsString> {
    use ariasnap::steps::locate::PLACEHOLDER_REF;
    use ariasnap::steps::targeted;
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let Some((i, sub)) = words.iter().enumerate().skip(1).find_map(|(i, w)| {
        targeted()
            .iter()
            .any(|t| kebab_case(t) == *w)
            .then(|| cmd.find_subcommand(w).map(|c| (i, c)))
            .flatten()
    }) else {
        return args;
    };
    let flag = |w: &str| {
        LOCATOR_FLAGS.iter().any(|(id, long, _)| {
            !matches!(*id, "loc-within" | "loc-nth")
                && sub.get_arguments().any(|a| a.get_id() == *id)
                && (w == format!("--{long}") || w.starts_with(&format!("--{long}=")))
        })
    };
    let rest = &words[i + 1..];
    if !rest.iter().any(|w| flag(w))
        || rest
            .iter()
            .any(|w| ariasnap::refs::is_ref(w.trim_start_matches('@')))
    {
        return args;
    }
    // (frame takes its iframe's ref as its positional target)
    let ref_id = if sub.get_name() == "frame" {
        "target"
    } else {
        "ref"
    };
    match sub.get_arguments().find(|a| a.get_id() == ref_id) {
        Some(r) if r.is_positional() => args.insert(i + 1, PLACEHOLDER_REF.into()),
        Some(r) => {
            let long = r.get_long().unwrap_or("ref");
            args.insert(i + 1, format!("--{long}").into());
            args.insert(i + 2, PLACEHOLDER_REF.into());
        }
        None => {}
    }
    args
}

/// The locator the flags of a command's matches name, if any.
fn locator_of(m: &clap::ArgMatches) -> Option<ariasnap::steps::locate::Locator> {
    use ariasnap::steps::locate::{Locator, Within};
    let get = |id: &str| m.try_get_one::<String>(id).ok().flatten().cloned();
    let l = Locator {
        role: get("loc-role"),
        name: get("loc-name"),
        label: get("loc-label"),
        text: get("loc-text"),
        exact: m
            .try_get_one::<bool>("loc-substring")
            .ok()
            .flatten()
            .and_then(|s| s.then_some(false)),
        within: get("loc-within").map(Within::Text),
        nth: m.try_get_one::<u64>("loc-nth").ok().flatten().copied(),
    };
    (l.role.is_some() || l.name.is_some() || l.label.is_some() || l.text.is_some()).then_some(l)
}

impl Command {
    /// A process that lives on after its first reply: the MCP servers, the policy guard,
    /// the reaper of a closed session.
    pub fn long_lived(&self) -> bool {
        matches!(
            self,
            Command::Mcp { .. } | Command::SessionWatch { .. } | Command::SessionReaper
        )
    }
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
    /// Use this W3C WebDriver endpoint instead of starting a driver (e.g. a Selenium Grid); it
    /// is asked for the browser --browser names (chromium by default).
    #[arg(long, global = true, env = "ARIASNAP_WEBDRIVER", value_name = "URL")]
    pub webdriver: Option<String>,
    /// Browser of a new session: chromium (default: chromium, google-chrome... on PATH),
    /// firefox (firefox-esr, firefox on PATH), or a binary's path (Firefox when its file name
    /// contains "firefox", else Chromium). A running session keeps its browser.
    #[arg(
        long,
        global = true,
        env = "ARIASNAP_BROWSER",
        value_name = "chromium|firefox|PATH"
    )]
    pub browser: Option<PathBuf>,
    /// Driver binary (default: chromedriver for Chromium; geckodriver on PATH, then
    /// ~/.cargo/bin/geckodriver, for Firefox).
    #[arg(long, global = true, env = "ARIASNAP_DRIVER", value_name = "PATH")]
    pub driver: Option<PathBuf>,
    /// Tab alias to act on (t1, t2...).
    #[arg(long, global = true, value_name = "ALIAS")]
    pub tab: Option<String>,
    /// Output format: a snapshot is text by default; an action's reply (a run result) is
    /// JSON by default, and `text` prints its short form, the summary
    /// (docs/reference/replies.md#the-short-reply).
    #[arg(
        long,
        global = true,
        visible_alias = "output-format",
        value_enum,
        env = "ARIASNAP_FORMAT"
    )]
    pub format: Option<Format>,
    /// Indent JSON output.
    #[arg(long, global = true)]
    pub pretty: bool,
    /// Show values, descriptions, URLs, placeholders and all states.
    #[arg(long, global = true)]
    pub verbose: bool,
    /// Print values shaped like secrets (JWTs, API keys, long base64 or hex runs) instead of
    /// `[secret:KIND N chars]`. Password values are never printed.
    #[arg(long, global = true)]
    pub reveal_secrets: bool,
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
    /// Operator's policy: only origins matching a PATTERN may be reached, by navigation or by
    /// the page's own requests (repeatable; scheme://host[:port], host, *.host). Fixed when
    /// the session starts.
    #[arg(long = "allow-origin", global = true, value_name = "PATTERN")]
    pub allow_origin: Vec<String>,
    /// Operator's policy: origins matching a PATTERN may never be reached (repeatable; wins
    /// over --allow-origin).
    #[arg(long = "block-origin", global = true, value_name = "PATTERN")]
    pub block_origin: Vec<String>,
    /// Operator's policy: actions turned off (repeatable or comma-separated): eval,
    /// downloads, uploads, passwordSet, foreignTabs.
    #[arg(long, global = true, value_name = "ACTION", value_delimiter = ',')]
    pub deny: Vec<String>,
    /// Operator's policy: a secret an agent types by name and never sees (repeatable):
    /// NAME=ENV_VAR (the variable holding the value), NAME@https://origin=ENV_VAR to bind it
    /// to origins. Replies show it as [secret:NAME].
    #[arg(long, global = true, value_name = "NAME[@ORIGIN]=ENV_VAR")]
    pub secret: Vec<String>,
    /// Operator's policy: a secrets file of NAME=value lines (dotenv; NAME@https://origin=value
    /// binds one to origins), read by each command (repeatable).
    #[arg(long, global = true, value_name = "FILE")]
    pub secrets: Vec<PathBuf>,
    /// Operator's policy: what needs a person's yes before it happens (repeatable):
    /// click:NAME (a click on something whose name matches, * for any run), form:URL (a form
    /// submitted to a matching URL), origin:PATTERN (a navigation there), download.
    #[arg(long, global = true, value_name = "RULE")]
    pub confirm: Vec<String>,
    /// Operator's policy file (JSON: allowOrigins, blockOrigins, deny, secrets, confirm); with
    /// the flags above, their lists together.
    #[arg(long, global = true, env = "ARIASNAP_POLICY", value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Start the session in a tab of its own in a browser you started, instead of starting
    /// one: ADDR is a Chromium's remote debugging address (--remote-debugging-port=9222:
    /// 127.0.0.1:9222) or a Firefox's Marionette address (--marionette: 127.0.0.1:2828).
    /// `session close` leaves that browser and its tabs as they were.
    #[arg(long, global = true, env = "ARIASNAP_ATTACH", value_name = "ADDR")]
    pub attach: Option<String>,
    /// Restore cookies and storage saved by `state save` (or Playwright's storageState)
    /// when this command starts the session, before any page loads; a running session is
    /// left as it is, with a note (`state load FILE` restores into it).
    #[arg(long, global = true, value_name = "FILE")]
    pub state: Option<PathBuf>,
}

impl Global {
    /// The operator's policy these options give (None: none).
    pub fn policy(&self) -> ariasnap::Result<Option<ariasnap::policy::Policy>> {
        ariasnap::policy::PolicySources {
            allow: self.allow_origin.clone(),
            block: self.block_origin.clone(),
            deny: self.deny.clone(),
            secret: self.secret.clone(),
            secrets_files: self.secrets.clone(),
            confirm: self.confirm.clone(),
            file: self.policy.clone().filter(|p| !p.as_os_str().is_empty()),
        }
        .read()
    }
}

/// Commands: every step action (the step schema's own subcommands, [`Action`]) and the
/// commands that are not steps.
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)] // one value per process, parsed once
pub enum Command {
    #[command(flatten)]
    Step(Action),
    /// Run a step file (`-` reads standard input) and print the result JSON.
    Run {
        /// Step file path, or - for stdin.
        #[arg(value_name = "FILE")]
        steps: String,
        /// A locator that no longer matches fails instead of being healed (taking the one
        /// best candidate of its role, said in a note).
        #[arg(long)]
        strict: bool,
    },
    /// Manage named sessions.
    Session {
        #[command(subcommand)]
        action: SessionAction,
    },
    /// Saved logins: save the session's cookies and storage to a file, or restore them
    /// (the steps saveState and loadState).
    State {
        #[command(subcommand)]
        action: StateAction,
    },
    /// Serve MCP on stdio (stdout carries protocol only), or over HTTP with --http: step
    /// actions as tools.
    Mcp {
        #[command(flatten)]
        http: McpHttp,
        /// Which tools tools/list offers. core: the thirteen tools of an agent's loop (every
        /// other tool is still callable by name, every action through browser_run_steps);
        /// all: one tool per step action.
        #[arg(long, value_enum, default_value = "core")]
        tools: ariasnap::mcp::tools::ToolSet,
        /// Also send each result's step result JSON as structuredContent, for programs.
        /// Off by default: some clients (Claude Code) give the model structuredContent
        /// instead of the text, and the JSON is several times longer.
        #[arg(long)]
        structured: bool,
    },
    /// The watcher of a session (started by the session's first command; not for use by
    /// hand): records the page's requests and console entries, and holds its requests for
    /// the session's policy and routes.
    #[command(name = "session-watch", hide = true)]
    SessionWatch {
        /// Session name.
        name: String,
    },
    /// Ends the processes of a session `session close` closed (started by it, with the
    /// session's record on standard input; not for use by hand).
    #[command(name = "session-reaper", hide = true)]
    SessionReaper,
    /// Serve a bundled demo page on 127.0.0.1 and print its snapshot.
    Demo {
        /// Keep the demo's browser session open afterwards (session "demo").
        #[arg(long)]
        keep: bool,
    },
    /// Agent skills built into this binary (SKILL.md files that teach coding agents to use
    /// ariasnap): list them (the default), print one, or install them into a project.
    Skills {
        #[command(subcommand)]
        action: Option<SkillsAction>,
    },
    /// Check the set-up: the browser --browser selects and its driver (found, versions,
    /// matching), the state directory, and a WebDriver endpoint when --webdriver gives one.
    /// One line per check, `ok ...` or `problem ...: fix: ...`; exit 3 when a check fails.
    Doctor,
}

/// `skills` subcommands.
#[derive(Debug, Clone, Subcommand)]
pub enum SkillsAction {
    /// Each skill's name and when to use it.
    List,
    /// Print a skill's SKILL.md.
    Get {
        /// The skill's name (`ariasnap skills list`).
        name: String,
    },
    /// Print the directory holding the skills as files (`NAME/SKILL.md`, kept under the
    /// state directory for this version), or one skill's directory.
    Path {
        /// One skill's name.
        name: Option<String>,
    },
    /// Write every skill into a project for coding agents: DIR/.claude/skills/NAME/SKILL.md
    /// and DIR/.agents/skills/NAME/SKILL.md (older copies of ariasnap's skills are replaced,
    /// other skills left alone).
    Install {
        /// The project's directory (default: the current directory).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// `mcp --http` and its options.
#[derive(Debug, Clone, Args)]
pub struct McpHttp {
    /// Serve MCP's streamable HTTP transport at ADDR (default 127.0.0.1:8931), path /mcp,
    /// instead of stdio: each MCP session is an agent, in a user context of its own in a
    /// shared browser.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = ariasnap::mcp::http::DEFAULT_ADDR)]
    pub http: Option<String>,
    /// With --http: a file holding the bearer token every request must carry (required
    /// when ADDR is not a loopback address; never given on the command line).
    #[arg(long, value_name = "FILE", requires = "http")]
    pub token_file: Option<PathBuf>,
    /// With --http: a Host header value accepted besides the loopback names and ADDR
    /// (repeatable; the DNS-rebinding defence).
    #[arg(long, value_name = "HOST", requires = "http")]
    pub http_host: Vec<String>,
    /// With --http: an Origin accepted from browsers (repeatable, scheme://host:port);
    /// without any, a request carrying an Origin header is refused (403).
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    pub http_origin: Vec<String>,
    /// With --http: at most N agents share one browser (each in a user context of its
    /// own); more agents start more browsers.
    #[arg(long, value_name = "N", default_value_t = 16, requires = "http")]
    pub max_agents: usize,
    /// With --http: at most N browsers at once (with --browser-per-agent, at most N agents).
    #[arg(long, value_name = "N", default_value_t = 16, requires = "http")]
    pub max_browsers: usize,
    /// With --http: a browser of its own for each agent (process isolation, at the memory
    /// of a browser per agent) instead of a user context in a shared browser.
    #[arg(long, requires = "http")]
    pub browser_per_agent: bool,
    /// With --http: an agent idle this many seconds is closed (its browser too).
    #[arg(long, value_name = "SECS", default_value_t = 300, requires = "http")]
    pub idle_timeout: u64,
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
    /// Write what a session did (its journal) as a step file with locators, waits and
    /// checks, or with --as playwright as a @playwright/test spec: `session export [NAME]
    /// FILE` (NAME: default --session; FILE - for stdout).
    Export {
        /// [NAME] FILE.
        #[arg(value_name = "NAME FILE", num_args = 1..=2, required = true)]
        args: Vec<String>,
        /// From the journal's line N on (`--from 1`: all; the default).
        #[arg(long, value_name = "N", default_value_t = 1)]
        from: u64,
        /// `steps` (default) or `playwright`.
        #[arg(long = "as", value_name = "FORMAT", default_value = "steps", value_parser = ["steps", "playwright"])]
        export_as: String,
    },
}

/// `state` subcommands: the steps `saveState` and `loadState` under the names.
#[derive(Debug, Subcommand)]
pub enum StateAction {
    /// Save the session's cookies and each open origin's localStorage to FILE (Playwright's
    /// storageState JSON, 0600, never printed): the step saveState.
    Save(ariasnap::steps::SaveStateArgs),
    /// Restore cookies and storage from FILE: the step loadState.
    Load(ariasnap::steps::LoadStateArgs),
}

impl StateAction {
    /// The step it is.
    pub fn action(self) -> Action {
        match self {
            StateAction::Save(a) => Action::SaveState(a),
            StateAction::Load(a) => Action::LoadState(a),
        }
    }
}

#[cfg(test)]
mod tests;
