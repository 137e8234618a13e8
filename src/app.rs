//! Runs one parsed command: the glue between the CLI, the browser, the engine and output.

use crate::browser::{Browser, BrowserOptions};
use crate::capture::{CaptureOptions, capture};
use crate::cli::{Cli, Command, Format, SessionAction, SnapshotArgs};
use crate::error::{Error, Result};
use crate::output::{OutputOptions, deliver, print_stdout};
use crate::snapshot::Snapshot;
use crate::snapshot::render::{self, RenderOptions};
use tracing::info_span;

/// Runs the command; returns the process exit code for successful runs.
pub async fn run(cli: Cli) -> Result<i32> {
    let g = &cli.global;
    let bopts = BrowserOptions {
        session: g.session.clone(),
        webdriver: g.webdriver.clone(),
        browser: g.browser.clone(),
        driver: g.driver.clone(),
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
            b.use_tab(g.tab.as_deref()).await?;
            let r = snapshot_cmd(&mut b, &args, g.verbose).await;
            let snap = crash_guard(&mut b, r).await?;
            emit_snapshot(&snap, g.format, g.pretty, &ropts, &oopts)?;
            Ok(0)
        }
        Command::Goto { url } => {
            let mut b = Browser::open(&bopts).await?;
            b.use_tab(g.tab.as_deref()).await?;
            b.goto(&url).await?;
            let cur = b.client.current_url().await?;
            let title = b.client.title().await.unwrap_or_default();
            let v = serde_json::json!({"status": "ok", "tab": b.tab(), "url": cur.as_str(), "title": title});
            print_stdout(&v.to_string())?;
            Ok(0)
        }
        Command::Eval { expr } => {
            let mut b = Browser::open(&bopts).await?;
            b.use_tab(g.tab.as_deref()).await?;
            let v = b
                .client
                .execute(&format!("return ({expr});"), vec![])
                .await?;
            print_stdout(&v.to_string())?;
            Ok(0)
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
                if Browser::close_session(&name).await? {
                    eprintln!("session {name:?} closed");
                    Ok(0)
                } else {
                    eprintln!("no session named {name:?}");
                    Ok(0)
                }
            }
        },
        Command::Demo { keep } => {
            crate::demo::run(&bopts, keep, g.format, g.pretty, &ropts, &oopts).await
        }
    }
}

/// Passes `r` through; when the page crashed its tab, replaces the tab so the session stays
/// usable, and says so.
pub async fn crash_guard<T>(b: &mut Browser, r: Result<T>) -> Result<T> {
    match r {
        Err(e) if e.to_string().contains("tab crashed") => {
            let alias = b.tab().to_string();
            b.replace_crashed_tab().await?;
            Err(Error::Browser(format!(
                "the page crashed its browser tab; tab {alias} was replaced by a fresh, blank one (the page is lost: open it again)"
            )))
        }
        other => other,
    }
}

async fn snapshot_cmd(b: &mut Browser, args: &SnapshotArgs, verbose: bool) -> Result<Snapshot> {
    if let Some(u) = &args.url {
        b.goto(u).await?;
    }
    let opts = CaptureOptions {
        max_nodes: args.max_nodes,
        all_refs: args.all_refs,
        no_cache: args.no_cache,
        verbose,
        ..Default::default()
    };
    capture(b, &opts).await
}

/// Renders and delivers a snapshot (spilling when over the inline limit).
pub fn emit_snapshot(
    snap: &Snapshot,
    format: Format,
    pretty: bool,
    ropts: &RenderOptions,
    oopts: &OutputOptions,
) -> Result<()> {
    let body = {
        let _span = info_span!("format_snapshot", nodes = snap.nodes.len()).entered();
        match format {
            Format::Text => render::to_text(snap, ropts),
            Format::Json => render::to_json(snap, ropts, pretty),
        }
    };
    let refs = snap.ref_count();
    let nodes = snap.nodes.len();
    deliver(&body, &format!("snapshot-s{}", snap.number), oopts, |a| match format {
        Format::Json => serde_json::json!({
            "spilled": {"path": a.path, "bytes": a.bytes, "nodes": nodes, "refs": refs},
            "url": snap.url, "title": snap.title, "snapshot": snap.number,
            "hint": "the full snapshot is in the file; narrow it with --detail interactive, --root or search",
        })
        .to_string(),
        Format::Text => format!(
            "# snapshot s{} of {} is {} bytes, over the inline limit: written to {}\n# {} nodes, {} refs. Read the file, or narrow it with --detail interactive, --root or search.\n{}",
            snap.number,
            snap.url,
            a.bytes,
            a.path.display(),
            nodes,
            refs,
            render::head(&snap.nodes[0], false)
        ),
    })
    .map(|_| ())
}

/// Errors in argument values found after parsing.
pub fn usage(msg: impl Into<String>) -> Error {
    Error::Usage(msg.into())
}
