//! The `ariasnap` binary: parse, run, print `error:` / `caused by:` / `hint:`, exit code.

mod app;
mod cli;
mod demo;

use clap::Parser;
use cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // --help, --version
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // SPEC 9: one `error:` line and a `hint:` line, not clap's usage block
            let text = e.render().to_string();
            // the first paragraph: "the following required arguments were not provided:"
            // goes on with the arguments' names on lines of their own
            let first: Vec<&str> = text
                .lines()
                .skip_while(|l| l.trim().is_empty())
                .take_while(|l| !l.trim().is_empty() && !l.starts_with("Usage:"))
                .map(str::trim)
                .collect();
            let first = first.join(" ");
            let first = first.strip_prefix("error: ").unwrap_or(&first);
            let first = if first.is_empty() {
                "invalid arguments"
            } else {
                first
            };
            eprintln!("error: {}", ariasnap::error::one_line(first));
            let tip = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("tip: "))
                .map(|t| format!("{}; ", ariasnap::error::one_line(t)))
                .unwrap_or_default();
            eprintln!(
                "hint: {tip}`ariasnap --help` lists the commands and options, `ariasnap COMMAND --help` one command's"
            );
            return ExitCode::from(2);
        }
    };
    init_tracing();
    // The main thread's stack, not a worker's: renderings of deep pages are iterative, but
    // serde and the driver are not ours.
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: could not start the async runtime: {e}");
            return ExitCode::from(3);
        }
    };
    match rt.block_on(app::run(cli)) {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(e) => {
            // SPEC 9: one line of `error:`, then optionally `caused by:` and `hint:`
            use ariasnap::error::one_line;
            eprintln!("error: {}", one_line(&e.to_string()));
            let mut src = std::error::Error::source(&e);
            while let Some(s) = src {
                eprintln!("caused by: {}", one_line(&s.to_string()));
                src = s.source();
            }
            if let Some(h) = e.hint() {
                eprintln!("hint: {}", one_line(&h));
            }
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1))
        }
    }
}

fn init_tracing() {
    use tracing_subscriber::EnvFilter;
    use tracing_subscriber::filter::LevelFilter;
    // span closings carry their duration (time.busy), so RUST_LOG=ariasnap=info shows where
    // a slow call went: browser_initialize, capture_snapshot, format_snapshot
    let fmt = tracing_subscriber::fmt()
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_writer(std::io::stderr)
        .with_ansi(
            std::env::var_os("NO_COLOR").is_none()
                && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        );
    // Without RUST_LOG, a plain level: an EnvFilter compiles regexes, which cost every
    // command about a millisecond of start-up
    let _ = match std::env::var_os("RUST_LOG").filter(|v| !v.is_empty()) {
        Some(_) => fmt
            .with_env_filter(EnvFilter::from_default_env())
            .try_init(),
        None => fmt.with_max_level(LevelFilter::WARN).try_init(),
    };
}
