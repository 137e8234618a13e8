//! `ariasnap demo`: serves the bundled demo page on 127.0.0.1 and prints its snapshot, so a
//! new user sees the whole chain work in one command.

use crate::cli::Format;
use ariasnap::browser::{Browser, BrowserOptions};
use ariasnap::capture::{CaptureOptions, capture};
use ariasnap::error::{Error, Result};
use ariasnap::output::OutputOptions;
use ariasnap::output::emit_snapshot;
use ariasnap::serve;
use ariasnap::snapshot::render::RenderOptions;
use include_dir::{Dir, include_dir};
use std::sync::Arc;

static DEMO: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/fixtures/demo");

/// Runs the demo in session "demo" (closed afterwards unless `keep`).
pub async fn run(
    bopts: &BrowserOptions,
    keep: bool,
    format: Format,
    pretty: bool,
    ropts: &RenderOptions,
    oopts: &OutputOptions,
) -> Result<i32> {
    let lookup: serve::Lookup = Arc::new(|p: &str| DEMO.get_file(p).map(|f| f.contents().to_vec()));
    let server = serve::serve(lookup, 0)
        .await
        .map_err(|e| Error::Browser(format!("demo server: {e}")))?;
    let url = server.url();
    eprintln!("demo page served at {url}");
    let mut opts = bopts.clone();
    opts.session = "demo".into();
    let mut b = Browser::open(&opts).await?;
    let result = async {
        b.goto(&url).await?;
        let snap = capture(
            &mut b,
            &CaptureOptions {
                verbose: ropts.verbose,
                ..Default::default()
            },
        )
        .await?;
        emit_snapshot(&snap, format.view(), pretty, ropts, oopts)
    }
    .await;
    if !keep {
        drop(b);
        Browser::close_session("demo", opts.deadline()).await?;
    }
    server.task.abort();
    result.map(|_| 0)
}
