//! Where a reply goes: stdout, the user's --file, or an artifact when it is over the inline
//! limit (SPEC 3). stdout is data only.

use crate::error::{Error, Result};
use crate::spill;
use std::io::Write;
use std::path::PathBuf;

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
