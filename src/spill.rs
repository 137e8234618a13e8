//! Artifacts: output over the inline limit goes to a private file (docs/reference/detail.md#spill).
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
                Err(_) => crate::private::make_dir(d)?,
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
    // docs/reference/policy.md#secrets: no file ariasnap writes holds a secret's value
    let body = &*crate::vault::mask_bytes(body);
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

/// A file name a page or a server proposed (a download's), made safe to create in the
/// artifacts directory: its last path component only, without control characters, path
/// separators or a leading dot, at most 120 characters; `download` when nothing is left.
pub fn safe_file_name(proposed: &str) -> String {
    let last = proposed.rsplit(['/', '\\']).next().unwrap_or("");
    let mut name: String = last
        .chars()
        .map(|c| if c.is_control() || c == ':' { '_' } else { c })
        .take(120)
        .collect();
    name = name.trim().trim_start_matches('.').to_string();
    if name.is_empty() {
        name = "download".to_string();
    }
    name
}

/// Moves a file the browser saved (a download, in the session's private downloads folder)
/// into the artifacts directory under `name` made safe ([`safe_file_name`]): created
/// exclusively with mode 0600 (`name (2)`... when taken), copied, then the original removed.
pub fn adopt_file(src: &Path, name: &str, dir: Option<&Path>) -> Result<Artifact> {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = artifacts_dir(dir)?;
    let name = safe_file_name(name);
    let (stem, ext) = match name.rfind('.') {
        Some(i) if i > 0 => (&name[..i], &name[i..]),
        _ => (name.as_str(), ""),
    };
    let mut from = std::fs::File::open(src).map_err(|e| Error::io("open", src, e))?;
    for k in 1..=100 {
        let path = if k == 1 {
            dir.join(&name)
        } else {
            dir.join(format!("{stem} ({k}){ext}"))
        };
        let mut to = match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
        {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Error::io("create", path, e)),
        };
        let bytes = std::io::copy(&mut from, &mut to).map_err(|e| Error::io("write", &path, e))?;
        let _ = std::fs::remove_file(src);
        return Ok(Artifact {
            path,
            bytes: bytes as usize,
        });
    }
    Err(Error::Usage(format!(
        "{} holds 100 files named like {name:?}: give another --artifacts directory",
        dir.display()
    )))
}

/// Writes `body` to exactly `path` (the user's --file), refusing to follow a symlink there.
pub fn write_user_file(path: &Path, body: &[u8]) -> Result<()> {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(Error::Usage(format!(
            "{} is a symbolic link: give a regular file path",
            path.display()
        )));
    }
    std::fs::write(path, crate::vault::mask_bytes(body)).map_err(|e| Error::io("write", path, e))
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

    #[test]
    fn download_names_stay_inside_the_artifacts_directory() {
        assert_eq!(safe_file_name("report.csv"), "report.csv");
        assert_eq!(safe_file_name("../../etc/passwd"), "passwd");
        assert_eq!(safe_file_name("..\\x\\evil.bat"), "evil.bat");
        assert_eq!(safe_file_name(".bashrc"), "bashrc");
        assert_eq!(safe_file_name("a\nb\u{7}.txt"), "a_b_.txt");
        assert_eq!(safe_file_name(".."), "download");
        assert_eq!(safe_file_name(""), "download");
        assert_eq!(safe_file_name(&"x".repeat(500)).len(), 120);
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        let out = tmp.path().join("out");
        std::fs::write(&src, b"a,b\n").unwrap();
        let a = adopt_file(&src, "../r.csv", Some(&out)).unwrap();
        assert_eq!(a.path, out.join("r.csv"));
        assert_eq!(a.bytes, 4);
        assert!(!src.exists());
        let mode = std::fs::metadata(&a.path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        std::fs::write(&src, b"again").unwrap();
        let b = adopt_file(&src, "r.csv", Some(&out)).unwrap();
        assert_eq!(b.path, out.join("r (2).csv"));
        assert_eq!(std::fs::read(&a.path).unwrap(), b"a,b\n");
    }
}
