//! Runs one parsed command: the glue between the CLI, the browser, the engine and output.

use crate::cli::{Cli, Command, Format, SessionAction, SnapshotArgs};
use ariasnap::browser::{Browser, BrowserOptions};
use ariasnap::capture::CaptureOptions;
use ariasnap::error::{Error, Result};
use ariasnap::output::{OutputOptions, print_stdout};
use ariasnap::snapshot::render::RenderOptions;

/// Runs the command; returns the process exit code for successful runs.
pub async fn run(cli: Cli) -> Result<i32> {
    let g = &cli.global;
    ariasnap::dialogs::set_policy(g.dialog);
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
    };
    let oopts = OutputOptions {
        file: g.file.clone(),
        inline_limit: g.inline_limit,
        artifacts: g.artifacts.clone(),
    };
    let ropts = RenderOptions { verbose: g.verbose };
    match cli.command {
        Command::Snapshot(args) => snapshot_command(&bopts, &args, g, &ropts, &oopts).await,
        Command::Run { steps } => {
            let steps = ariasnap::steps::parse::read_file(&steps)?;
            let mut b = Browser::open(&bopts).await?;
            b.use_tab(g.tab.as_deref()).await?;
            run_and_print(&mut b, &steps, g.timeout, g, &oopts).await
        }
        Command::Session { action } => match action {
            SessionAction::List => {
                let names = ariasnap::browser::session::list()?;
                if g.format == Format::Json {
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
        },
        Command::Mcp => {
            let mut bopts = bopts.clone();
            // Without an explicit --session the server gets a private session it closes at exit.
            if std::env::var_os("ARIASNAP_SESSION").is_none() && !session_flag_given() {
                bopts.session.clear();
            }
            let ropts = ariasnap::steps::runner::RunOptions {
                output: oopts.clone(),
                verbose: g.verbose,
                timeout: bopts.deadline(),
                ..Default::default()
            };
            ariasnap::mcp::serve(bopts, ropts).await?;
            Ok(0)
        }
        Command::Demo { keep } => {
            crate::demo::run(&bopts, keep, g.format, g.pretty, &ropts, &oopts).await
        }
        other => {
            let Some(step) = command_step(&other) else {
                return Err(Error::Usage("this command is not a step".into()));
            };
            let parsed =
                ariasnap::steps::parse::parse_step(&step, 0).map_err(|p| Error::StepFile {
                    path: "<command line>".into(),
                    problems: p.join("; "),
                })?;
            let file = ariasnap::steps::StepFile {
                tab: None,
                timeout: None,
                steps: vec![parsed],
            };
            let mut b = Browser::open(&bopts).await?;
            b.use_tab(g.tab.as_deref()).await?;
            run_and_print(&mut b, &file, g.timeout, g, &oopts).await
        }
    }
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
    let mut notes = std::mem::take(&mut b.notes);
    let dialogs = ariasnap::dialogs::drain();
    notes.extend(ariasnap::dialogs::notes(&dialogs));
    ariasnap::output::emit_view_noted(&v, g.format.view(), g.pretty, ropts, oopts, &notes)?;
    Ok(0)
}

async fn run_and_print(
    b: &mut Browser,
    file: &ariasnap::steps::StepFile,
    timeout: Option<u64>,
    g: &crate::cli::Global,
    oopts: &OutputOptions,
) -> Result<i32> {
    let mut ropts = ariasnap::steps::runner::RunOptions {
        output: oopts.clone(),
        verbose: g.verbose,
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
    // the strict escaper: page text in step outputs carries no raw C1 or bidi controls
    let body =
        ariasnap::snapshot::safe::to_json(&result, g.pretty).map_err(|source| Error::Json {
            what: "a run result",
            source,
        })?;
    for s in &result.steps {
        if let Some(e) = &s.error {
            eprintln!(
                "error: step {} failed: {}",
                s.action,
                ariasnap::error::one_line(e)
            );
        }
    }
    print_stdout(&body)?;
    Ok(result.exit_code)
}

/// The step a single-action command stands for (SPEC 6: same code path as step files).
pub fn command_step(c: &Command) -> Option<serde_json::Value> {
    use serde_json::json;
    let v = match c {
        Command::Goto { url, snapshot } => match snapshot {
            None => json!({"goto": url}),
            Some(None) => json!({"goto": {"url": url, "snapshot": {}}}),
            Some(Some(detail)) => json!({"goto": {"url": url, "snapshot": {"detail": detail}}}),
        },
        Command::Reload => json!({"reload": {}}),
        Command::Back => json!({"back": {}}),
        Command::Forward => json!({"forward": {}}),
        Command::NewTab { url } => json!({"newTab": url}),
        Command::SwitchTab { tab } => json!({"switchTab": tab}),
        Command::CloseTab { tab } => json!({"closeTab": tab}),
        Command::Tabs => json!({"listTabs": {}}),
        Command::Search {
            text,
            exact,
            pattern,
            role,
            near,
            limit,
        } => json!({"search": {
            "text": text, "exact": exact, "pattern": pattern, "role": role, "near": near, "limit": limit}}),
        Command::Query {
            query,
            flatten,
            limit,
            offset,
            cache_key,
        } => json!({"query": {
            "query": query, "flatten": flatten, "limit": limit, "offset": offset, "cache_key": cache_key}}),
        Command::Click {
            target,
            double,
            button,
            force,
        } => {
            json!({"click": {"ref": target, "double": double, "button": button, "force": force}})
        }
        Command::Fill { target, value } => json!({"fill": {"ref": target, "value": value}}),
        Command::Type {
            text,
            target,
            submit,
        } => json!({"type": {"text": text, "ref": target, "submit": submit}}),
        Command::Press { key, target } => json!({"press": {"key": key, "ref": target}}),
        Command::Hover { target } => json!({"hover": target}),
        Command::Select { target, values } => json!({"select": {"ref": target, "values": values}}),
        Command::Check { target } => json!({"check": target}),
        Command::Uncheck { target } => json!({"uncheck": target}),
        Command::Scroll {
            target,
            direction,
            dx,
            dy,
            to,
        } => {
            json!({"scroll": {"ref": target, "direction": direction, "dx": dx, "dy": dy, "to": to}})
        }
        Command::Drag { from, to } => json!({"drag": {"from": from, "to": to}}),
        Command::Upload { target, files } => json!({"upload": {"ref": target, "files": files}}),
        Command::Wait {
            text,
            target,
            selector,
            url,
            regex,
            hidden,
        } => json!({"wait": {
            "text": text, "ref": target, "selector": selector, "url": url, "regex": regex, "hidden": hidden}}),
        Command::Sleep { ms } => json!({"sleep": ms}),
        Command::Eval {
            expression,
            offset,
            limit,
        } => {
            if offset.is_none() && limit.is_none() {
                json!({"eval": expression})
            } else {
                json!({"eval": {"expression": expression, "offset": offset, "limit": limit}})
            }
        }
        Command::Assert {
            text,
            target,
            selector,
            url,
            title,
            value,
            checked,
            not,
        } => json!({"assert": {
            "text": text, "ref": target, "selector": selector, "url": url, "title": title,
            "value": value, "checked": checked, "not": not}}),
        Command::Get { target, what } => json!({"get": {"ref": target, "what": what}}),
        Command::GetUrl => json!({"getUrl": {}}),
        Command::GetTitle => json!({"getTitle": {}}),
        Command::Viewport { width, height } => {
            json!({"viewport": {"width": width, "height": height}})
        }
        Command::Frame { value } => match value.parse::<u16>() {
            Ok(i) => json!({"frame": i}),
            Err(_) => json!({"frame": value}),
        },
        Command::Cookies {
            action,
            name,
            value,
        } => json!({"cookies": {"action": action, "name": name, "value": value}}),
        Command::Console { clear } => json!({"console": {"clear": clear}}),
        Command::Screenshot { path, target } => {
            json!({"screenshot": {"path": path, "ref": target}})
        }
        _ => return None,
    };
    // Optional flags map to absent fields (top-level nulls stay: `{"newTab": null}`).
    Some(match v {
        serde_json::Value::Object(m) => {
            serde_json::Value::Object(m.into_iter().map(|(k, v)| (k, strip_nulls(v))).collect())
        }
        other => other,
    })
}

/// Drops null fields, so optional CLI flags map to absent step fields.
fn strip_nulls(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => serde_json::Value::Object(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, strip_nulls(v)))
                .collect(),
        ),
        other => other,
    }
}

fn session_flag_given() -> bool {
    std::env::args().any(|a| a == "--session" || a.starts_with("--session="))
}

fn snapshot_args(args: &SnapshotArgs, verbose: bool) -> ariasnap::steps::SnapshotArgs {
    ariasnap::steps::SnapshotArgs {
        detail: args.detail.clone(),
        all_refs: args.all_refs,
        since: args.since.clone(),
        viewport: args.viewport,
        root: args.root.clone(),
        max_nodes: Some(args.max_nodes),
        format: None,
        verbose,
        silent: args.silent,
        query: args.query.clone(),
        flatten: args.flatten,
        limit: args.limit,
        offset: args.offset,
        cache_key: args.cache_key.clone(),
    }
}

async fn snapshot_cmd(
    b: &mut Browser,
    args: &SnapshotArgs,
    verbose: bool,
) -> Result<ariasnap::query::view::View> {
    if let Some(u) = &args.url {
        b.goto(u).await?;
    }
    let extra = CaptureOptions {
        no_cache: args.no_cache,
        verbose,
        ..Default::default()
    };
    ariasnap::steps::look::view(b, &snapshot_args(args, verbose), &extra).await
}

/// Errors in argument values found after parsing.
pub fn usage(msg: impl Into<String>) -> Error {
    Error::Usage(msg.into())
}
