//! Artifacts: output over the inline limit goes to a private file (SPEC 3).
//!
//! Owns: where artifacts go and how they are created: a 0700 directory with a random name
//! (or the user's --artifacts DIR), files created exclusively with random names and mode
//! 0600, so a planted symlink is never followed. Must not: decide what the reply says.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Default inline limit in bytes.
pub const DEFAULT_INLINE_LIMIT: usize = 9000;

/// A file written by [`write_artifact`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Artifact {
    pub path: PathBuf,
    pub bytes: usize,
}

fn artifacts_dir(chosen: Option<&Path>) -> Result<PathBuf> {
    match chosen {
        Some(d) => {
            match std::fs::symlink_metadata(d) {
                Ok(m) if m.file_type().is_symlink() => {
                    return Err(Error::Usage(format!(
                        "--artifacts {} is a symbolic link: give a real directory",
                        d.display()
                    )));
                }
                Ok(m) if !m.is_dir() => {
                    return Err(Error::Usage(format!(
                        "--artifacts {} is not a directory",
                        d.display()
                    )));
                }
                Ok(_) => {}
                Err(_) => crate::browser::session::make_private_dir(d)?,
            }
            Ok(d.to_path_buf())
        }
        None => {
            use std::os::unix::fs::PermissionsExt;
            let d = tempfile::Builder::new()
                .prefix("ariasnap-")
                .permissions(std::fs::Permissions::from_mode(0o700))
                .tempdir()
                .map_err(|e| Error::io("create artifact directory in", std::env::temp_dir(), e))?;
            Ok(d.keep())
        }
    }
}

/// Writes `body` to a new private file named `<stem>-<random><ext>` and returns it.
pub fn write_artifact(body: &[u8], stem: &str, ext: &str, dir: Option<&Path>) -> Result<Artifact> {
    let dir = artifacts_dir(dir)?;
    // tempfile opens with O_CREAT|O_EXCL and mode 0600: an existing name or a planted
    // symlink makes it pick another name rather than write through it.
    use std::os::unix::fs::PermissionsExt;
    let mut f = tempfile::Builder::new()
        .permissions(std::fs::Permissions::from_mode(0o600))
        .prefix(&format!("{stem}-"))
        .suffix(ext)
        .tempfile_in(&dir)
        .map_err(|e| Error::io("create artifact in", &dir, e))?;
    f.write_all(body)
        .map_err(|e| Error::io("write", f.path().to_path_buf(), e))?;
    let (_, path) = f
        .keep()
        .map_err(|e| Error::io("keep", dir.clone(), e.error))?;
    Ok(Artifact {
        path,
        bytes: body.len(),
    })
}

/// Writes `body` to exactly `path` (the user's --file), refusing to follow a symlink there.
pub fn write_user_file(path: &Path, body: &[u8]) -> Result<()> {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(Error::Usage(format!(
            "{} is a symbolic link: give a regular file path",
            path.display()
        )));
    }
    std::fs::write(path, body).map_err(|e| Error::io("write", path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn artifacts_are_private_and_never_follow_symlinks() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("victim");
        std::fs::write(&target, b"keep").unwrap();
        let a = write_artifact(b"hello", "snapshot", ".txt", Some(tmp.path())).unwrap();
        let mode = std::fs::metadata(&a.path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(std::fs::read(&a.path).unwrap(), b"hello");
        // a symlink planted as --artifacts is refused
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(tmp.path(), &link).unwrap();
        assert!(write_artifact(b"x", "s", ".txt", Some(&link)).is_err());
        // default dir is 0700
        let b = write_artifact(b"x", "s", ".txt", None).unwrap();
        let dmode = std::fs::metadata(b.path.parent().unwrap())
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(dmode, 0o700);
        std::fs::remove_dir_all(b.path.parent().unwrap()).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
    }
}
