//! Where a reply goes: stdout, the user's --file, or an artifact when it is over the inline
//! limit (docs/reference/detail.md#spill). stdout is data only. The spill is decided here and nowhere else
//! (`spill_if_over`), for the command line and the step runner (and so MCP) alike.

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
}

/// A reply written to artifacts because it was over the inline limit (docs/reference/detail.md#spill).
#[derive(Debug, Clone)]
pub struct Spilled {
    /// The whole reply.
    pub body: spill::Artifact,
    /// The refs map of a snapshot with more than `REFS_FILE_OVER` refs.
    pub refs_file: Option<PathBuf>,
}

/// The one place that decides a spill (docs/reference/detail.md#spill): when `body` (view `v` rendered in `fmt`) is
/// over `inline_limit` bytes (0: never), it goes to a private artifact named after the
/// snapshot (or `query`), with the refs map of a big snapshot beside it. None: print it.
pub fn spill_if_over(
    body: &str,
    v: &crate::query::view::View,
    fmt: ViewFormat,
    inline_limit: usize,
    dir: Option<&std::path::Path>,
) -> Result<Option<Spilled>> {
    use crate::query::view::{self, View};
    if inline_limit == 0 || body.len() <= inline_limit {
        return Ok(None);
    }
    let ext = match fmt {
        ViewFormat::Json => ".json",
        ViewFormat::Yaml => ".yaml",
        ViewFormat::Text => ".txt",
    };
    let stem = match v {
        View::Tree(s, _) | View::Budgeted(s, _) => format!("snapshot-s{}", s.number),
        View::Data(_) => "query".to_string(),
    };
    let art = spill::write_artifact(body.as_bytes(), &stem, ext, dir)?;
    let refs_file = match v {
        View::Tree(s, _) | View::Budgeted(s, _) if s.ref_count() > view::REFS_FILE_OVER => {
            let map = view::refs_map(s).to_string();
            Some(spill::write_artifact(map.as_bytes(), &format!("{stem}.refs"), ".json", dir)?.path)
        }
        _ => None,
    };
    Ok(Some(Spilled {
        body: art,
        refs_file,
    }))
}

/// Prints to stdout, adding a final newline; a closed pipe is not an error worth a panic.
pub fn print_stdout(s: &str) -> Result<()> {
    // docs/reference/policy.md#secrets: a secret's value is never printed
    let s = &*crate::vault::mask(s);
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
/// in JSON (a tab replaced, dialogs answered: docs/reference/faults.md#dialogs), `note:` lines on stderr.
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
    let mut body = {
        let _span = info_span!("format_snapshot").entered();
        view::render_view(v, format, ropts.verbose, pretty)?
    };
    if !notes.is_empty() {
        match format {
            ViewFormat::Json if body.starts_with('{') => {
                let list = crate::safe::to_json(&notes, false).unwrap_or_else(|_| "[]".into());
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
                // after the page header (docs/reference/output.md#page-header: every snapshot starts with it)
                let mut at = 0;
                for prefix in ["# page: ", "# wall: ", "# policy: "] {
                    if body[at..].starts_with(prefix) {
                        at += body[at..].find('\n').map_or(body.len() - at, |i| i + 1);
                    }
                }
                body.insert_str(at, &head);
            }
            _ => {}
        }
    }
    if let Some(f) = &oopts.file {
        spill::write_user_file(f, body.as_bytes())?;
        eprintln!("wrote {} bytes to {}", body.len(), f.display());
        return Ok(());
    }
    if let View::Budgeted(s, _) = v {
        // docs/reference/detail.md#budgets: a budgeted snapshot is printed, never a file pointer
        let (body, _) =
            budgeted_inline(s, body, format, ropts.verbose, oopts.artifacts.as_deref())?;
        return print_stdout(&body);
    }
    let Some(sp) = spill_if_over(
        &body,
        v,
        format,
        oopts.inline_limit,
        oopts.artifacts.as_deref(),
    )?
    else {
        return print_stdout(&body);
    };
    let a = &sp.body;
    let View::Tree(snap, _) = v else {
        return print_stdout(
            &serde_json::json!({"spilled": {"path": a.path, "bytes": a.bytes}, "hint": "the full result is in the file; page it with --limit/--offset"}).to_string(),
        );
    };
    let (refs, nodes, refs_file) = (snap.ref_count(), snap.nodes.len(), &sp.refs_file);
    print_stdout(&match format {
        ViewFormat::Json | ViewFormat::Yaml => crate::safe::to_json(&serde_json::json!({
            "spilled": {"path": a.path, "bytes": a.bytes, "nodes": nodes, "refs": refs, "refs_file": refs_file},
            "url": snap.url, "title": snap.title, "snapshot": snap.number,
            "summary": crate::snapshot::detail::summary_json(snap),
            "hint": "the full snapshot is in the file; narrow it with --detail interactive, --root, --viewport or search",
        }), false)
        .unwrap_or_default(),
        ViewFormat::Text => format!(
            "# snapshot s{} of {} is {} bytes, over the inline limit: written to {}\n# {} nodes, {} refs{}. Read the file, or narrow it with --detail interactive, --root, --viewport or search.\n{}",
            snap.number,
            crate::safe::text(&crate::snapshot::render::cut(&snap.url, 200)),
            a.bytes,
            a.path.display(),
            nodes,
            refs,
            refs_file.as_ref().map(|p| format!(" (refs map: {})", p.display())).unwrap_or_default(),
            crate::snapshot::detail::summary_text(snap)
        ),
    })
}

/// A budgeted snapshot's body as delivered (docs/reference/detail.md#budgets): when parts were elided, the whole tree
/// goes to a file named on a last `# whole tree:` line (text) or in `wholeTree` (JSON).
/// Returns the body and the file written, if any.
pub fn budgeted_inline(
    s: &crate::snapshot::Snapshot,
    body: String,
    fmt: ViewFormat,
    verbose: bool,
    dir: Option<&std::path::Path>,
) -> Result<(String, Option<std::path::PathBuf>)> {
    use crate::query::view::{self, View};
    let elided = match fmt {
        ViewFormat::Text => body.contains("\n# elided: "),
        _ => body.contains("\"elided\":{"),
    };
    if !elided {
        return Ok((body, None));
    }
    let whole = View::Tree(Box::new(s.clone()), view::Detail::Full);
    let full = view::render_view(&whole, fmt, verbose, false)?;
    let ext = if fmt == ViewFormat::Text {
        ".txt"
    } else {
        ".json"
    };
    let file = spill::write_artifact(
        full.as_bytes(),
        &format!("snapshot-s{}", s.number),
        ext,
        dir,
    )?;
    let body = match fmt {
        ViewFormat::Text => format!(
            "{body}# whole tree: {} ({} bytes)\n",
            crate::safe::text(&file.path.display().to_string()),
            file.bytes
        ),
        _ => {
            let mut v: serde_json::Value =
                serde_json::from_str(&body).map_err(|source| crate::error::Error::Json {
                    what: "a rendered snapshot",
                    source,
                })?;
            if let Some(m) = v.as_object_mut() {
                m.insert(
                    "wholeTree".into(),
                    serde_json::json!({"path": file.path, "bytes": file.bytes}),
                );
            }
            crate::safe::to_json(&v, false).unwrap_or_default()
        }
    };
    Ok((body, Some(file.path)))
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
