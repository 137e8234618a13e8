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
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
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
    #[arg(long, global = true, value_name = "BYTES", default_value_t = crate::spill::DEFAULT_INLINE_LIMIT)]
    pub inline_limit: usize,
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
}

/// Commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the accessibility snapshot of the current page (or of URL).
    Snapshot(SnapshotArgs),
    /// Open URL in the current tab.
    Goto {
        /// Address to open.
        url: String,
    },
    /// Evaluate a JavaScript expression in the page and print its JSON value.
    Eval {
        /// Expression (its value is returned; use an IIFE for statements).
        expr: String,
    },
    /// Manage named sessions.
    Session {
        #[command(subcommand)]
        action: SessionAction,
    },
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
}
