//! The pagination cache: query results kept under a cache key for 5 minutes after their last
//! use, on disk in the session's state directory so that separate CLI invocations of the
//! same session share them (`cache-v1/<session>/<key>.json`, private files).

use crate::error::{Error, Result};
use crate::private;
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// How long an entry lives after its last use.
pub const TTL: Duration = Duration::from_secs(300);

/// Cache keys: letters, digits, `-` and `_`, at most 64.
pub fn validate_key(k: &str) -> Result<()> {
    if !k.is_empty()
        && k.len() <= 64
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "invalid cache_key {k:?}: use letters, digits, '-' or '_' (at most 64)"
        )))
    }
}

fn dir(session: &str) -> Result<PathBuf> {
    // the layout directory is private as well as each session's in it (docs/reference/cli.md#sessions;
    // `ariasnap doctor` checks it): create_dir_all would make it with the umask's mode
    let top = private::home().join("cache-v1");
    private::make_dir(&top)?;
    let d = top.join(session);
    private::make_dir(&d)?;
    Ok(d)
}

/// A fresh random key.
pub fn new_key() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.write_u32(std::process::id());
    format!("q{:016x}", h.finish())
}

/// Drops entries unused for longer than the TTL.
fn expire(d: &std::path::Path) {
    let Ok(rd) = std::fs::read_dir(d) else { return };
    for e in rd.flatten() {
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age > TTL);
        if old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// The items cached under `key`, refreshing their last use; None when absent or expired.
pub fn get(session: &str, key: &str) -> Result<Option<Vec<Value>>> {
    validate_key(key)?;
    let d = dir(session)?;
    expire(&d);
    let p = d.join(format!("{key}.json"));
    let Ok(body) = std::fs::read(&p) else {
        return Ok(None);
    };
    if let Ok(f) = std::fs::File::options().append(true).open(&p) {
        let _ = f.set_modified(SystemTime::now());
    }
    Ok(serde_json::from_slice(&body).ok())
}

/// Stores `items` under `key` (a private file, written atomically).
pub fn put(session: &str, key: &str, items: &[Value]) -> Result<()> {
    validate_key(key)?;
    let d = dir(session)?;
    let body = serde_json::to_vec(items).map_err(|source| Error::Json {
        what: "a cached query result",
        source,
    })?;
    private::write_file(&d.join(format!("{key}.json")), &body)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked() {
        assert!(validate_key("q0123abc").is_ok());
        assert!(validate_key("../x").is_err());
        assert!(validate_key("").is_err());
        assert!(new_key().starts_with('q'));
        assert_ne!(new_key(), new_key());
    }
}
