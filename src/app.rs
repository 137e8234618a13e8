//! Runs one parsed command: the glue between the CLI, the browser, the engine and output.

use crate::cli::{Cli, Command, Format, McpHttp, SessionAction, SkillsAction};
use ariasnap::browser::{Browser, BrowserOptions};
use ariasnap::capture::CaptureOptions;
use ariasnap::error::{Error, Result};
use ariasnap::output::{OutputOptions, print_stdout};
use ariasnap::snapshot::render::RenderOptions;
use ariasnap::steps::{Action, SnapshotArgs, Step, StepFile};

/// Runs the command; returns the process exit code for successful runs.
pub async fn run(cli: Cli) -> Result<i32> {
    let g = &cli.global;
    ariasnap::dialogs::set_policy(g.dialog);
    ariasnap::snapshot::secrets::set_reveal(g.reveal_secrets);
    if g.timeout == Some(0) {
        return Err(usage(
            "--timeout 0: give the deadline of each step in milliseconds (default 30000)",
        ));
    }
    let bopts = BrowserOptions {
        session: g.session.clone(),
        webdriver: g.webdriver.clone(),
        browser: g.browser.clone(),
        driver: g.driver.clone(),
        timeout: g.timeout.map(std::time::Duration::from_millis),
        policy: g.policy()?,
        state: g.state.clone(),
        window_turn: None,
        attach: g.attach.clone().filter(|a| !a.trim().is_empty()),
    };
    // a secret whose value cannot be read fails the command before any browser starts
    if let Some(p) = &bopts.policy {
        p.unlock_secrets()?;
    }
    let oopts = OutputOptions {
        file: g.file.clone(),
        inline_limit: g.inline_limit,
        artifacts: g.artifacts.clone(),
    };
    let ropts = RenderOptions { verbose: g.verbose };
    match cli.command {
        Command::Step(Action::Snapshot(args)) => {
            snapshot_command(&bopts, &args, g, &ropts, &oopts).await
        }
        Command::Run { steps, strict } => {
            let steps = ariasnap::steps::parse::read_file(&steps)?;
            let mut b = Browser::open(&bopts).await?;
            b.use_tab(g.tab.as_deref()).await?;
            run_and_print(&mut b, &steps, g.timeout, g, &oopts, strict).await
        }
        Command::Session { action } => session_command(action, &bopts, g).await,
        Command::Mcp {
            tools,
            structured,
            http,
        } if http.http.is_some() => mcp_http(&bopts, g, &oopts, tools, structured, http).await,
        Command::Mcp {
            tools, structured, ..
        } => {
            let mut bopts = bopts.clone();
            // Without an explicit --session the server gets a private session it closes at exit.
            if std::env::var_os("ARIASNAP_SESSION").is_none() && !session_flag_given() {
                bopts.session.clear();
            }
            let ropts = ariasnap::steps::RunOptions {
                output: oopts.clone(),
                verbose: g.verbose,
                timeout: bopts.deadline(),
                journal: true,
                ..Default::default()
            };
            ariasnap::mcp::serve(bopts, ropts, tools, structured).await?;
            Ok(0)
        }
        Command::SessionWatch { name } => {
            ariasnap::browser::watch::run(&name).await?;
            Ok(0)
        }
        Command::SessionReaper => {
            ariasnap::browser::reap().await?;
            Ok(0)
        }
        Command::Demo { keep } => {
            crate::demo::run(
                &bopts,
                keep,
                g.format.unwrap_or_default(),
                g.pretty,
                &ropts,
                &oopts,
            )
            .await
        }
        Command::State { action } => {
            // `state save FILE` is the step saveState, `state load FILE` loadState
            step_command(&bopts, action.action(), g, &oopts, None).await
        }
        Command::Skills { action } => skills_command(action.unwrap_or(SkillsAction::List), g),
        Command::Doctor => {
            let report = ariasnap::doctor::run(&bopts).await;
            for line in &report.lines {
                print_stdout(line)?;
            }
            Ok(if report.all_well() { 0 } else { 3 })
        }
        Command::Step(action) => step_command(&bopts, action, g, &oopts, cli.target.clone()).await,
    }
}

/// `session list | close [NAME] | export ...`.
async fn session_command(
    action: SessionAction,
    bopts: &BrowserOptions,
    g: &crate::cli::Global,
) -> Result<i32> {
    match action {
        SessionAction::List => {
            let names = ariasnap::browser::session::list()?;
            if g.format == Some(Format::Json) {
                print_stdout(&serde_json::to_string(&names).unwrap_or_default())?;
            } else {
                for n in names {
                    print_stdout(&n)?;
                }
            }
            Ok(0)
        }
        SessionAction::Close { name } => {
            let name = name.unwrap_or_else(|| g.session.clone());
            ariasnap::browser::session::validate_name(&name)?;
            if Browser::close_session(&name, bopts.deadline()).await? {
                eprintln!("session {name:?} closed");
                Ok(0)
            } else {
                eprintln!("no session named {name:?}");
                Ok(0)
            }
        }
        SessionAction::Export {
            args,
            from,
            export_as,
        } => export(g, &args, from, &export_as),
    }
}

/// `session export [NAME] FILE [--from N] [--as steps|playwright]`: the journal as a step
/// file with locators (docs/reference/step-files.md#export) or a Playwright spec.
fn export(g: &crate::cli::Global, args: &[String], from: u64, format: &str) -> Result<i32> {
    let (name, file) = match args {
        [file] => (g.session.clone(), file),
        [name, file] => (name.clone(), file),
        _ => return Err(usage("session export [NAME] FILE: give the file to write")),
    };
    ariasnap::browser::session::validate_name(&name)?;
    let lines = ariasnap::steps::journal::read(&name, from)?;
    let (steps, notes) = ariasnap::steps::journal::export_steps(&lines);
    let body = if format == "playwright" {
        ariasnap::steps::journal::export_playwright(&lines, &format!("ariasnap session {name}"))
    } else {
        serde_json::to_string_pretty(&steps).unwrap_or_default() + "\n"
    };
    if file == "-" {
        print_stdout(body.trim_end())?;
    } else {
        std::fs::write(file, &body).map_err(|e| Error::Io {
            action: "write",
            path: file.into(),
            source: e,
        })?;
    }
    for n in notes {
        eprintln!("note: {n}");
    }
    let n = steps["steps"].as_array().map_or(0, Vec::len);
    eprintln!("exported {n} steps of session {name:?} to {file}");
    Ok(0)
}

/// A command that is one step: docs/reference/cli.md#commands, a command is the step of the
/// same name, run on the same code path.
async fn step_command(
    bopts: &BrowserOptions,
    action: Action,
    g: &crate::cli::Global,
    oopts: &OutputOptions,
    target: Option<ariasnap::steps::locate::Locator>,
) -> Result<i32> {
    let mut step = Step::of(action);
    if target.is_some() {
        use ariasnap::steps::locate::PLACEHOLDER_REF;
        if step
            .action
            .target_ref()
            .is_some_and(|r| r != PLACEHOLDER_REF)
        {
            return Err(usage(
                "a ref or a locator (--role, --name, --label, --text), not both",
            ));
        }
        step.action.set_target_ref(PLACEHOLDER_REF.into());
        step.target = target;
    }
    let file = StepFile {
        tab: None,
        timeout: None,
        steps: vec![step],
    };
    let mut b = Browser::open(bopts).await?;
    b.use_tab(g.tab.as_deref()).await?;
    // a single command acts on what its locator names exactly: no healing (a step file's
    // run heals, and says so)
    run_and_print(&mut b, &file, g.timeout, g, oopts, true).await
}

/// `ariasnap snapshot [URL]`: within the deadline, with the notes the reader must see (a
/// tab replaced, dialogs answered) first.
async fn snapshot_command(
    bopts: &BrowserOptions,
    args: &SnapshotArgs,
    g: &crate::cli::Global,
    ropts: &RenderOptions,
    oopts: &OutputOptions,
) -> Result<i32> {
    let mut b = Browser::open(bopts).await?;
    let limit = b.timeout;
    let r = tokio::time::timeout(limit, async {
        b.use_tab(g.tab.as_deref()).await?;
        snapshot_cmd(&mut b, args, g.verbose).await
    })
    .await;
    let r = r.unwrap_or_else(|_| {
        Err(Error::Timeout(format!(
            "the command did not finish within {} ms (--timeout)",
            limit.as_millis()
        )))
    });
    if r.as_ref().is_err_and(Error::is_timeout) {
        b.mark_suspect();
    }
    let v = b.crash_guard(r).await?;
    b.remember_realm();
    ariasnap::steps::runner::note_refusals(&mut b);
    let mut notes = std::mem::take(&mut b.notes);
    let dialogs = ariasnap::dialogs::drain();
    notes.extend(ariasnap::dialogs::notes(&dialogs));
    ariasnap::output::emit_view_noted(
        &v,
        g.format.unwrap_or_default().view(),
        g.pretty,
        ropts,
        oopts,
        &notes,
    )?;
    // the process ends here: a large page's tree is not freed node by node first
    std::mem::forget(v);
    Ok(0)
}

async fn run_and_print(
    b: &mut Browser,
    file: &StepFile,
    timeout: Option<u64>,
    g: &crate::cli::Global,
    oopts: &OutputOptions,
    strict: bool,
) -> Result<i32> {
    let mut ropts = ariasnap::steps::RunOptions {
        output: oopts.clone(),
        verbose: g.verbose,
        // docs/reference/policy.md#consent: a person at the command's terminal, if any
        asker: Some(ariasnap::steps::consent::AskerRef(std::sync::Arc::new(
            ariasnap::steps::consent::Terminal,
        ))),
        strict,
        journal: true,
        ..Default::default()
    };
    if let Some(t) = timeout {
        ropts.timeout = std::time::Duration::from_millis(t);
    }
    let mut file = file.clone();
    if timeout.is_some() {
        file.timeout = timeout;
    }
    let result = ariasnap::steps::runner::run(b, &file, &ropts).await;
    b.remember_realm();
    // the strict escaper: page text in step outputs carries no raw C1 or bidi controls
    let body = ariasnap::safe::to_json(&result, g.pretty).map_err(|source| Error::Json {
        what: "a run result",
        source,
    })?;
    // the notes are messages too (as a snapshot's are): stderr as well as the result
    for n in &result.notes {
        eprintln!("note: {}", ariasnap::error::one_line(n));
    }
    for s in &result.steps {
        if let Some(e) = &s.error {
            eprintln!(
                "error: step {} failed: {}",
                s.action,
                ariasnap::error::one_line(e)
            );
        }
    }
    if g.format == Some(Format::Text) {
        // docs/reference/replies.md#the-short-reply: what MCP's reply says; the errors and
        // notes are on stderr above, and a failed step's hint after its error
        for w in result
            .steps
            .iter()
            .filter(|s| s.error.is_some())
            .filter_map(|s| s.warning.as_deref())
        {
            eprintln!("{w}");
        }
        let text = result.text(false);
        if !text.is_empty() {
            print_stdout(&text)?;
        }
        return Ok(result.exit_code);
    }
    print_stdout(&body)?;
    Ok(result.exit_code)
}

/// `ariasnap skills ...` (docs/reference/cli.md#skills): data on stdout, what `install`
/// wrote on stderr.
fn skills_command(action: SkillsAction, g: &crate::cli::Global) -> Result<i32> {
    use ariasnap::skills;
    match action {
        SkillsAction::List => {
            let all = skills::all();
            if g.format == Some(Format::Json) {
                let v: Vec<serde_json::Value> = all
                    .iter()
                    .map(|s| serde_json::json!({"name": s.name, "description": s.description}))
                    .collect();
                print_stdout(&serde_json::to_string(&v).unwrap_or_default())?;
            } else {
                let w = all.iter().map(|s| s.name.len()).max().unwrap_or(0);
                for s in &all {
                    print_stdout(&format!("{:<w$}  {}", s.name, s.description))?;
                }
            }
        }
        SkillsAction::Get { name } => print_stdout(skills::get(&name)?.text)?,
        SkillsAction::Path { name } => {
            print_stdout(&skills::path(name.as_deref())?.display().to_string())?
        }
        SkillsAction::Install { dir } => {
            let dir = dir.unwrap_or_else(|| ".".into());
            for (file, how) in skills::install(&dir)? {
                let shown = file
                    .strip_prefix(".")
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                let verb = match how {
                    skills::Written::New => "wrote",
                    skills::Written::Replaced => "replaced",
                    skills::Written::Unchanged => "unchanged",
                };
                eprintln!("{verb} {shown}");
            }
        }
    }
    Ok(0)
}

/// `ariasnap mcp --http`: MCP over streamable HTTP, an agent per MCP session.
async fn mcp_http(
    bopts: &BrowserOptions,
    g: &crate::cli::Global,
    oopts: &OutputOptions,
    tools: ariasnap::mcp::tools::ToolSet,
    structured: bool,
    McpHttp {
        http,
        token_file,
        http_host,
        http_origin,
        max_agents,
        max_browsers,
        browser_per_agent,
        idle_timeout,
    }: McpHttp,
) -> Result<i32> {
    let addr = http.unwrap_or_else(|| ariasnap::mcp::http::DEFAULT_ADDR.to_string());
    if bopts.attach.is_some() {
        return Err(usage(
            "mcp --http gives each agent a browser context of its own, which a browser you attach to cannot give without touching your own tabs: use --attach with `ariasnap mcp` (stdio) or a command-line session",
        ));
    }
    // a bad saved state costs no agent a failed first call
    if let Some(s) = &bopts.state {
        ariasnap::browser::logins::read_file(s)?;
    }
    if session_flag_given() || std::env::var_os("ARIASNAP_SESSION").is_some() {
        return Err(usage(
            "mcp --http gives each agent a browser session of its own: leave --session (and ARIASNAP_SESSION) out",
        ));
    }
    let addr = addr.parse().map_err(|e| {
        usage(format!(
            "--http {addr:?}: {e}; give an address such as 127.0.0.1:8931"
        ))
    })?;
    let token = match &token_file {
        Some(f) => Some(ariasnap::mcp::http::read_token(f)?),
        None => None,
    };
    let h = ariasnap::mcp::http::HttpOptions {
        addr,
        token,
        hosts: http_host,
        origins: http_origin,
        idle: std::time::Duration::from_secs(idle_timeout.max(1)),
        max_agents: max_agents.max(1),
        max_browsers: max_browsers.max(1),
        browser_per_agent,
    };
    let ropts = ariasnap::steps::RunOptions {
        output: oopts.clone(),
        verbose: g.verbose,
        timeout: bopts.deadline(),
        // each agent's steps go into its own session's journal
        // (docs/reference/mcp.md#each-agents-journal)
        journal: true,
        ..Default::default()
    };
    ariasnap::mcp::http::serve(bopts.clone(), ropts, tools, structured, h).await?;
    Ok(0)
}

fn session_flag_given() -> bool {
    std::env::args().any(|a| a == "--session" || a.starts_with("--session="))
}

async fn snapshot_cmd(
    b: &mut Browser,
    args: &SnapshotArgs,
    verbose: bool,
) -> Result<ariasnap::query::view::View> {
    if let Some(u) = &args.url {
        b.goto(u).await?;
        // the page as its start-up work leaves it (docs/reference/replies.md#settling)
        ariasnap::actions::settle_loaded(b, None, ariasnap::steps::SETTLE_MAX).await;
    } else if b.started {
        b.note_blank_start();
    }
    let args = SnapshotArgs {
        verbose,
        ..args.clone()
    };
    ariasnap::steps::looking::view(b, &args, &CaptureOptions::default()).await
}

/// Errors in argument values found after parsing.
pub fn usage(msg: impl Into<String>) -> Error {
    Error::Usage(msg.into())
}
