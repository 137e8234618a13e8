//! Where a reply goes: stdout, the user's --file, or an artifact when it is over the inline
//! limit (SPEC 3). stdout is data only.

use crate::error::{Error, Result};
use crate::query::view::ViewFormat;
use crate::spill;
use std::io::Write;
use std::path::PathBuf;
use tracing::info_span;

/// Output settings shared by every command.
#[derive(Debug, Clone)]
pub struct OutputOptions {
    pub file: Option<PathBuf>,
    pub inline_limit: usize,
    pub artifacts: Option<PathBuf>,
    pub json: bool,
}

/// What happened to a reply.
#[derive(Debug, Clone, PartialEq)]
pub enum Delivered {
    Stdout,
    File(PathBuf),
    Spilled(spill::Artifact),
}

/// Writes `body` to stdout, or to --file, or to an artifact when it is over the limit; for a
/// spill, `summary(path, bytes)` makes the short reply printed instead.
pub fn deliver(
    body: &str,
    stem: &str,
    opts: &OutputOptions,
    summary: impl FnOnce(&spill::Artifact) -> String,
) -> Result<Delivered> {
    if let Some(f) = &opts.file {
        spill::write_user_file(f, body.as_bytes())?;
        eprintln!("wrote {} bytes to {}", body.len(), f.display());
        return Ok(Delivered::File(f.clone()));
    }
    if opts.inline_limit > 0 && body.len() > opts.inline_limit {
        let ext = if opts.json { ".json" } else { ".txt" };
        let a = spill::write_artifact(body.as_bytes(), stem, ext, opts.artifacts.as_deref())?;
        print_stdout(&summary(&a))?;
        return Ok(Delivered::Spilled(a));
    }
    print_stdout(body)?;
    Ok(Delivered::Stdout)
}

/// Prints to stdout, adding a final newline; a closed pipe is not an error worth a panic.
pub fn print_stdout(s: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let r = out
        .write_all(s.as_bytes())
        .and_then(|_| {
            if s.ends_with('\n') {
                Ok(())
            } else {
                out.write_all(b"\n")
            }
        })
        .and_then(|_| out.flush());
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Error::io("write", "stdout", e)),
    }
}

/// Renders and delivers a view (spilling when over the inline limit).
pub fn emit_view(
    v: &crate::query::view::View,
    format: ViewFormat,
    pretty: bool,
    ropts: &crate::snapshot::render::RenderOptions,
    oopts: &OutputOptions,
) -> Result<()> {
    emit_view_noted(v, format, pretty, ropts, oopts, &[])
}

/// Like [`emit_view`], with notes for the reader first: `# ` lines in text, a `notes` list
/// in JSON (a tab replaced, dialogs answered: SPEC 9), `note:` lines on stderr.
pub fn emit_view_noted(
    v: &crate::query::view::View,
    format: ViewFormat,
    pretty: bool,
    ropts: &crate::snapshot::render::RenderOptions,
    oopts: &OutputOptions,
    notes: &[String],
) -> Result<()> {
    let notes: Vec<String> = notes.iter().map(|n| crate::error::one_line(n)).collect();
    for n in &notes {
        eprintln!("note: {n}");
    }
    use crate::query::view::{self, View};
    let fmt = format;
    let mut body = {
        let _span = info_span!("format_snapshot").entered();
        view::render_view(v, fmt, ropts.verbose, pretty)?
    };
    if !notes.is_empty() {
        match format {
            ViewFormat::Json if body.starts_with('{') => {
                let list =
                    crate::snapshot::safe::to_json(&notes, false).unwrap_or_else(|_| "[]".into());
                let sep = if body[1..].trim_start().starts_with('}') {
                    ""
                } else {
                    ","
                };
                body = format!("{{\"notes\":{list}{sep}{}", &body[1..]);
            }
            ViewFormat::Text => {
                let mut head = String::new();
                for n in &notes {
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
        ViewFormat::Json | ViewFormat::Yaml => crate::snapshot::safe::to_json(&serde_json::json!({
            "spilled": {"path": a.path, "bytes": a.bytes, "nodes": nodes, "refs": refs, "refs_file": refs_file},
            "url": snap.url, "title": snap.title, "snapshot": snap.number,
            "summary": crate::snapshot::detail::summary_json(snap),
            "hint": "the full snapshot is in the file; narrow it with --detail interactive, --root, --viewport or search",
        }), false)
        .unwrap_or_default(),
        ViewFormat::Text => format!(
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
    snap: &crate::snapshot::Snapshot,
    format: ViewFormat,
    pretty: bool,
    ropts: &crate::snapshot::render::RenderOptions,
    oopts: &OutputOptions,
) -> Result<()> {
    let v =
        crate::query::view::View::Tree(Box::new(snap.clone()), crate::query::view::Detail::Full);
    emit_view(&v, format, pretty, ropts, oopts)
}
