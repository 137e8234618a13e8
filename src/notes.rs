//! Site notes (issue 16): what an agent learnt about a site (where the login is, which
//! widget is a canvas, what to dismiss), kept per domain in the state directory so the next
//! run can read it. `goto` says when the page's domain has notes.
//!
//! Owns: the notes directory (`site-notes-v1` under the state directory, 0700), domain
//! names (a strict host charset, so no name can leave that directory), and what a file
//! holds (written 0600 and atomically by `private`). Must not: reach the browser (the
//! runner gives the domain).

use crate::error::{Error, Result};
use crate::private;
use std::path::{Path, PathBuf};

/// The most a site's notes may hold, in bytes (they are read into an agent's context).
pub const MAX_BYTES: usize = 64 * 1024;

/// Checks a domain and returns the form notes are kept under: a host name or IPv4
/// address, lowercased, without a trailing dot; letters, digits, `-`, `_` and `.` only,
/// labels not empty, at most 253 characters. Anything else (`/`, `..`, NUL, a port, spaces)
/// is refused, so a name can never reach outside the notes directory.
pub fn domain(raw: &str) -> Result<String> {
    let d = raw.trim().trim_end_matches('.').to_ascii_lowercase();
    let ok = !d.is_empty()
        && d.len() <= 253
        && d.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        });
    if ok {
        Ok(d)
    } else {
        Err(Error::Usage(format!(
            "invalid domain {raw:?}: give a host name such as \"example.org\" (letters, digits, '-', '_' and dots; no scheme, port or path)"
        )))
    }
}

/// The domain of a page's URL (its host), for notes; an error for URLs without a host
/// (about:blank, data:, file:) or with an IPv6 host.
pub fn domain_of_url(url: &str) -> Result<String> {
    let host = url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .filter(|h| !h.is_empty());
    match host {
        Some(h) => domain(&h),
        None => Err(Error::Usage(format!(
            "the current page ({url}) has no host name to keep notes for: give domain"
        ))),
    }
}

/// The folder notes are kept in: `$ARIASNAP_HOME/site-notes-v1`, or `own` (an agent of
/// `mcp --http` keeps its own, docs/reference/mcp.md#files).
fn folder(own: Option<&Path>) -> PathBuf {
    match own {
        Some(d) => d.to_path_buf(),
        None => private::home().join("site-notes-v1"),
    }
}

fn dir(own: Option<&Path>) -> Result<PathBuf> {
    let d = folder(own);
    private::make_dir(&d)?;
    Ok(d)
}

fn file_of(dir: &Path, domain: &str) -> PathBuf {
    dir.join(format!("{domain}.md"))
}

/// The notes of `domain` (checked), if any. A symbolic link planted in their place is
/// refused, not followed.
pub fn read(domain_name: &str, own: Option<&Path>) -> Result<Option<String>> {
    let d = domain(domain_name)?;
    read_in(&dir(own)?, &d)
}

fn read_in(dir: &Path, d: &str) -> Result<Option<String>> {
    let p = file_of(dir, d);
    match std::fs::symlink_metadata(&p) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io("read", &p, e)),
        Ok(m) if !m.file_type().is_file() => {
            return Err(Error::Usage(format!(
                "{} is not a regular file: remove it to keep notes for {d}",
                p.display()
            )));
        }
        Ok(_) => {}
    }
    std::fs::read_to_string(&p)
        .map(Some)
        .map_err(|e| Error::io("read", &p, e))
}

/// How many characters of notes `domain` has (None when it has none or its name is not
/// one notes are kept under).
pub fn chars(domain_name: &str, own: Option<&Path>) -> Option<usize> {
    let d = domain(domain_name).ok()?;
    let p = file_of(&folder(own), &d);
    if !std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_file()) {
        return None;
    }
    let n = std::fs::read_to_string(&p).ok()?.chars().count();
    (n > 0).then_some(n)
}

/// Appends `text` as a new line to the notes of `domain` (or replaces them with
/// `replace`); returns the notes now kept. Written to a new 0600 file renamed into place.
pub fn write(domain_name: &str, text: &str, replace: bool, own: Option<&Path>) -> Result<String> {
    let d = domain(domain_name)?;
    write_in(&dir(own)?, &d, text, replace)
}

fn write_in(dir: &Path, d: &str, text: &str, replace: bool) -> Result<String> {
    let mut body = if replace {
        String::new()
    } else {
        read_in(dir, d)?.unwrap_or_default()
    };
    let add = text.trim_end_matches('\n');
    if !add.is_empty() {
        if !body.is_empty() && !body.ends_with('\n') {
            body.push('\n');
        }
        body.push_str(add);
        body.push('\n');
    }
    if body.len() > MAX_BYTES {
        return Err(Error::Usage(format!(
            "the notes of {d} would be {} bytes, over the {MAX_BYTES}-byte limit: write them again shorter with replace",
            body.len()
        )));
    }
    let p = file_of(dir, d);
    if body.is_empty() {
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io("remove", &p, e)),
        }
        return Ok(body);
    }
    // a new 0600 file renamed into place: a planted link is replaced, not followed
    private::write_file(&p, body.as_bytes())?;
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn domains_cannot_leave_the_notes_directory() {
        assert_eq!(domain("Example.ORG.").unwrap(), "example.org");
        assert_eq!(domain(" 127.0.0.1 ").unwrap(), "127.0.0.1");
        assert_eq!(domain("my_host-1.local").unwrap(), "my_host-1.local");
        for bad in [
            "",
            ".",
            "..",
            "../etc",
            "a/b",
            "a\\b",
            "a\0b",
            "example.org:8080",
            "a..b",
            ".hidden",
            "sp ace",
            "https://example.org",
            "é.example",
            &"a".repeat(300),
        ] {
            let e = domain(bad).unwrap_err();
            assert!(e.to_string().contains("invalid domain"), "{bad:?}: {e}");
            assert_eq!(e.exit_code(), 2);
        }
        assert_eq!(
            domain_of_url("http://WWW.Example.org:8080/a?b").unwrap(),
            "www.example.org"
        );
        assert!(domain_of_url("about:blank").is_err());
        assert!(domain_of_url("data:text/html,x").is_err());
    }

    #[test]
    fn notes_append_replace_and_stay_private() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        assert_eq!(read_in(d, "example.org").unwrap(), None);
        assert_eq!(
            write_in(d, "example.org", "login is under Account", false).unwrap(),
            "login is under Account\n"
        );
        let both = write_in(d, "example.org", "map is a canvas\n", false).unwrap();
        assert_eq!(both, "login is under Account\nmap is a canvas\n");
        assert_eq!(read_in(d, "example.org").unwrap().as_deref(), Some(&*both));
        let mode = std::fs::metadata(d.join("example.org.md"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(
            write_in(d, "example.org", "fresh", true).unwrap(),
            "fresh\n"
        );
        let big = "x".repeat(MAX_BYTES);
        assert!(write_in(d, "example.org", &big, false).is_err());
        // a link planted at a name is refused on read and replaced (not followed) on write
        let victim = d.join("victim");
        std::fs::write(&victim, "keep").unwrap();
        std::os::unix::fs::symlink(&victim, d.join("evil.example.md")).unwrap();
        assert!(read_in(d, "evil.example").is_err());
        write_in(d, "evil.example", "n", true).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        // replacing with nothing removes them
        assert_eq!(write_in(d, "example.org", "", true).unwrap(), "");
        assert_eq!(read_in(d, "example.org").unwrap(), None);
    }
}
