//! Runs one parsed command: the glue between the CLI, the browser, the engine and output.

use crate::browser::{Browser, BrowserOptions};
use crate::capture::CaptureOptions;
use crate::cli::{Cli, Command, Format, SessionAction, SnapshotArgs};
use crate::error::{Error, Result};
use crate::output::{OutputOptions, deliver, print_stdout};
use crate::snapshot::Snapshot;
use crate::snapshot::render::RenderOptions;
use tracing::info_span;

/// Runs the command; returns the process exit code for successful runs.
pub async fn run(cli: Cli) -> Result<i32> {
    let g = &cli.global;
    crate::dialogs::set_policy(g.dialog);
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
        json: g.format == Format::Json,
    };
    let ropts = RenderOptions { verbose: g.verbose };
    match cli.command {
        Command::Snapshot(args) => {
            let mut b = Browser::open(&bopts).await?;
            let limit = b.timeout;
            let r = tokio::time::timeout(limit, async {
                b.use_tab(g.tab.as_deref()).await?;
                snapshot_cmd(&mut b, &args, g.verbose).await
            })
            .await;
            let r = match r {
                Ok(r) => r,
                Err(_) => Err(b.timed_out(limit)),
            };
            if r.as_ref().is_err_and(Error::is_timeout) {
                b.timed_out(limit);
            }
            let v = crash_guard(&mut b, r).await?;
            let mut notes = std::mem::take(&mut b.notes);
            let dialogs = crate::dialogs::drain();
            notes.extend(
                crate::dialogs::notes(&dialogs)
                    .into_iter()
                    .map(|n| n.trim_start_matches("# ").to_string()),
            );
            emit_view_noted(&v, g.format, g.pretty, &ropts, &oopts, &notes)?;
            Ok(0)
        }
        Command::Run { steps } => {
            let steps = crate::steps::parse::read_file(&steps)?;
            let mut b = Browser::open(&bopts).await?;
            b.use_tab(g.tab.as_deref()).await?;
            run_and_print(&mut b, &steps, g.timeout, g, &oopts).await
        }
        Command::Session { action } => match action {
            SessionAction::List => {
                let names = crate::browser::session::list()?;
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
                crate::browser::session::validate_name(&name)?;
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
            let ropts = crate::steps::runner::RunOptions {
                output: oopts.clone(),
                verbose: g.verbose,
                timeout: bopts.deadline(),
                ..Default::default()
            };
            crate::mcp::serve(bopts, ropts).await?;
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
                crate::steps::parse::parse_step(&step, 0).map_err(|p| Error::StepFile {
                    path: "<command line>".into(),
                    problems: p.join("; "),
                })?;
            let file = crate::steps::StepFile {
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

async fn run_and_print(
    b: &mut Browser,
    file: &crate::steps::StepFile,
    timeout: Option<u64>,
    g: &crate::cli::Global,
    oopts: &OutputOptions,
) -> Result<i32> {
    let mut ropts = crate::steps::runner::RunOptions {
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
    let result = crate::steps::runner::run(b, &file, &ropts).await;
    // the strict escaper: page text in step outputs carries no raw C1 or bidi controls
    let body = crate::snapshot::safe::to_json(&result, g.pretty).map_err(|source| Error::Json {
        what: "a run result",
        source,
    })?;
    for s in &result.steps {
        if let Some(e) = &s.error {
            eprintln!(
                "error: step {} failed: {}",
                s.action,
                crate::error::one_line(e)
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
        Command::Goto { url } => json!({"goto": url}),
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
            expr,
            flatten,
            limit,
            offset,
            cache_key,
        } => json!({"query": {
            "query": expr, "flatten": flatten, "limit": limit, "offset": offset, "cache_key": cache_key}}),
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
        } => {
            json!({"scroll": {"ref": target, "direction": direction, "dx": dx, "dy": dy}})
        }
        Command::Drag { from, to } => json!({"drag": {"from": from, "to": to}}),
        Command::Upload { target, files } => json!({"upload": {"ref": target, "files": files}}),
        Command::Wait {
            text,
            target,
            selector,
            url,
            hidden,
        } => json!({"wait": {
            "text": text, "ref": target, "selector": selector, "url": url, "hidden": hidden}}),
        Command::Sleep { ms } => json!({"sleep": ms}),
        Command::Eval { expr } => json!({"eval": expr}),
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
        Command::Frame { target } => match target.parse::<u16>() {
            Ok(i) => json!({"frame": i}),
            Err(_) => json!({"frame": target}),
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

/// Passes `r` through; when the page crashed its tab, replaces the tab so the session stays
/// usable, and says so.
pub async fn crash_guard<T>(b: &mut Browser, r: Result<T>) -> Result<T> {
    match r {
        Err(e) if e.is_tab_crash() => {
            let alias = b.tab().to_string();
            b.replace_tab().await?;
            Err(Error::Browser(format!(
                "the page crashed its browser tab; tab {alias} was replaced by a fresh, blank one (the page is lost: open it again)"
            )))
        }
        other => other,
    }
}

fn snapshot_args(args: &SnapshotArgs, verbose: bool) -> crate::steps::SnapshotArgs {
    crate::steps::SnapshotArgs {
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
) -> Result<crate::query::view::View> {
    if let Some(u) = &args.url {
        b.goto(u).await?;
    }
    let extra = CaptureOptions {
        no_cache: args.no_cache,
        verbose,
        ..Default::default()
    };
    crate::query::view::view(b, &snapshot_args(args, verbose), &extra).await
}

/// Like [`emit_view`], with notes for the reader first: `# ` lines in text, a `notes` list
/// in JSON (a tab replaced, dialogs answered: SPEC 9), `note:` lines on stderr.
pub fn emit_view_noted(
    v: &crate::query::view::View,
    format: Format,
    pretty: bool,
    ropts: &RenderOptions,
    oopts: &OutputOptions,
    notes: &[String],
) -> Result<()> {
    let notes: Vec<String> = notes.iter().map(|n| crate::error::one_line(n)).collect();
    for n in &notes {
        eprintln!("note: {n}");
    }
    emit(v, format, pretty, ropts, oopts, &notes)
}

/// Renders and delivers a view (spilling when over the inline limit).
pub fn emit_view(
    v: &crate::query::view::View,
    format: Format,
    pretty: bool,
    ropts: &RenderOptions,
    oopts: &OutputOptions,
) -> Result<()> {
    emit(v, format, pretty, ropts, oopts, &[])
}

fn emit(
    v: &crate::query::view::View,
    format: Format,
    pretty: bool,
    ropts: &RenderOptions,
    oopts: &OutputOptions,
    notes: &[String],
) -> Result<()> {
    use crate::query::view::{self, View, ViewFormat};
    let fmt = match format {
        Format::Text => ViewFormat::Text,
        Format::Json => ViewFormat::Json,
        Format::Yaml => ViewFormat::Yaml,
    };
    let mut body = {
        let _span = info_span!("format_snapshot").entered();
        view::render_view(v, fmt, ropts.verbose, pretty)?
    };
    if !notes.is_empty() {
        match format {
            Format::Json if body.starts_with('{') => {
                let list =
                    crate::snapshot::safe::to_json(notes, false).unwrap_or_else(|_| "[]".into());
                let sep = if body[1..].trim_start().starts_with('}') {
                    ""
                } else {
                    ","
                };
                body = format!("{{\"notes\":{list}{sep}{}", &body[1..]);
            }
            Format::Text => {
                let mut head = String::new();
                for n in notes {
                    head.push_str("# ");
                    head.push_str(n);
                    head.push('\n');
                }
                body.insert_str(0, &head);
            }
            _ => {}
        }
    }
    let View::Tree(snap, _) = v else {
        return deliver(&body, "query", oopts, |a| {
            serde_json::json!({"spilled": {"path": a.path, "bytes": a.bytes}, "hint": "the full result is in the file; page it with --limit/--offset"}).to_string()
        })
        .map(|_| ());
    };
    let refs = snap.ref_count();
    let nodes = snap.nodes.len();
    let mut refs_file = None;
    if oopts.file.is_none()
        && oopts.inline_limit > 0
        && body.len() > oopts.inline_limit
        && refs > view::REFS_FILE_OVER
    {
        let map = view::refs_map(snap).to_string();
        refs_file = Some(
            crate::spill::write_artifact(
                map.as_bytes(),
                &format!("snapshot-s{}.refs", snap.number),
                ".json",
                oopts.artifacts.as_deref(),
            )?
            .path,
        );
    }
    deliver(&body, &format!("snapshot-s{}", snap.number), oopts, |a| match format {
        Format::Json | Format::Yaml => crate::snapshot::safe::to_json(&serde_json::json!({
            "spilled": {"path": a.path, "bytes": a.bytes, "nodes": nodes, "refs": refs, "refs_file": refs_file},
            "url": snap.url, "title": snap.title, "snapshot": snap.number,
            "summary": crate::snapshot::detail::summary_json(snap),
            "hint": "the full snapshot is in the file; narrow it with --detail interactive, --root, --viewport or search",
        }), false)
        .unwrap_or_default(),
        Format::Text => format!(
            "# snapshot s{} of {} is {} bytes, over the inline limit: written to {}\n# {} nodes, {} refs{}. Read the file, or narrow it with --detail interactive, --root, --viewport or search.\n{}",
            snap.number,
            crate::snapshot::safe::text(&crate::snapshot::render::cut(&snap.url, 200)),
            a.bytes,
            a.path.display(),
            nodes,
            refs,
            refs_file.as_ref().map(|p| format!(" (refs map: {})", p.display())).unwrap_or_default(),
            crate::snapshot::detail::summary_text(snap)
        ),
    })
    .map(|_| ())
}

/// Renders and delivers a full snapshot (spilling when over the inline limit).
pub fn emit_snapshot(
    snap: &Snapshot,
    format: Format,
    pretty: bool,
    ropts: &RenderOptions,
    oopts: &OutputOptions,
) -> Result<()> {
    let v =
        crate::query::view::View::Tree(Box::new(snap.clone()), crate::query::view::Detail::Full);
    emit_view(&v, format, pretty, ropts, oopts)
}

/// Errors in argument values found after parsing.
pub fn usage(msg: impl Into<String>) -> Error {
    Error::Usage(msg.into())
}
