//! Private places on disk: the directory holding ariasnap's state, directories only the user
//! can enter (0700) and files only the user can read (0600), written whole.
//!
//! Owns: where the state directory is ($ARIASNAP_HOME...), making a directory private, and
//! writing a private file atomically. Sessions, the paging cache, site notes and artifacts
//! keep their files under it. Must not: import anything from the crate (a leaf, so that
//! `query/` and the notes need not reach `browser/` for a directory: `layering` checks it);
//! its failures become `Error::Io` through `From`.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A step on disk that failed: what was being done, to which path, and why.
#[derive(Debug)]
pub struct Failed {
    pub action: &'static str,
    pub path: PathBuf,
    pub source: std::io::Error,
}

fn failed(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Failed {
    Failed {
        action,
        path: path.into(),
        source,
    }
}

/// The directory holding ariasnap's state: $ARIASNAP_HOME, else $XDG_STATE_HOME/ariasnap,
/// else ~/.local/state/ariasnap, else the temp dir.
pub fn home() -> PathBuf {
    if let Some(h) = std::env::var_os("ARIASNAP_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(h);
    }
    if let Some(x) = std::env::var_os("XDG_STATE_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(x).join("ariasnap");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(h).join(".local/state/ariasnap");
    }
    std::env::temp_dir().join("ariasnap")
}

/// Creates `d` and makes it 0700; the parents it had to create are made 0700 too (an
/// agent's folder `agents-v1/<agent>/` made in one go left `agents-v1` at the umask's mode,
/// which `ariasnap doctor` rightly called not private).
pub fn make_dir(d: &Path) -> Result<(), Failed> {
    use std::os::unix::fs::PermissionsExt;
    let missing: Vec<&Path> = d.ancestors().take_while(|a| !a.exists()).collect();
    std::fs::create_dir_all(d).map_err(|e| failed("create directory", d, e))?;
    for a in missing.iter().skip(1) {
        std::fs::set_permissions(a, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| failed("set permissions of", a, e))?;
    }
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o700))
        .map_err(|e| failed("set permissions of", d, e))?;
    Ok(())
}

/// Writes `body` to `path` atomically: a new file beside it (created 0600 with O_EXCL by
/// tempfile), renamed into place, so that the rename replaces whatever was at the name (a
/// planted link included) without following it.
pub fn write_file(path: &Path, body: &[u8]) -> Result<(), Failed> {
    let dir = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir);
    let mut tmp =
        tempfile::NamedTempFile::new_in(&dir).map_err(|e| failed("create temp file in", dir, e))?;
    tmp.write_all(body)
        .map_err(|e| failed("write", tmp.path(), e))?;
    tmp.persist(path)
        .map_err(|e| failed("write", path, e.error))?;
    Ok(())
}

/// Opens `path` for appending, creating it 0600 (a log the user alone may read), without
/// following a link planted at the name.
pub fn append_file(path: &Path) -> Result<std::fs::File, Failed> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        // (readable too: the journal reads its last line through it)
        .read(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| failed("open", path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn directories_and_files_are_private() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path().join("a/b");
        make_dir(&d).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&d), 0o700);
        // the parent it made is private too, whatever the umask
        assert_eq!(mode(&tmp.path().join("a")), 0o700);
        // an existing directory is made private too
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
        make_dir(&d).unwrap();
        assert_eq!(mode(&d), 0o700);
        // a planted link is replaced, not written through
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        let f = d.join("f.json");
        std::os::unix::fs::symlink(&victim, &f).unwrap();
        write_file(&f, b"{}").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"{}");
        assert_eq!(mode(&f), 0o600);
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        // failures say what was done, where
        let e = write_file(&tmp.path().join("none/f"), b"x").unwrap_err();
        assert_eq!(e.action, "create temp file in");
        assert_eq!(e.path, tmp.path().join("none"));
    }
}
