//! The operator's named secrets (docs/reference/policy.md#secrets): where each value is read
//! (an environment variable, or a secrets file in dotenv form) and the origins it may be
//! typed on. The record of a session keeps these, never a value: each command reads the
//! values from their sources and registers them for masking (`vault`).
//!
//! Owns: `--secret NAME[@ORIGIN,...]=ENV_VAR`, `--secrets FILE`, the policy file's
//! `secrets`, reading the values, and the words of a secret used where it is not bound.

use super::OriginPattern;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where one secret's value is read, and where it may be used.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SecretSpec {
    /// The environment variable holding the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
    /// A secrets file (dotenv) holding the value under the secret's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// The origins the secret may be typed on (none: any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<OriginPattern>,
}

/// Reads `NAME[@ORIGIN,...]` into the name and its origin patterns (`what`: the option, for
/// errors).
fn name_and_origins(key: &str, what: &str) -> Result<(String, Vec<OriginPattern>)> {
    let (name, origins) = match key.split_once('@') {
        Some((n, o)) => (n.trim(), o),
        None => (key.trim(), ""),
    };
    if !crate::vault::valid_name(name) {
        return Err(Error::Usage(format!(
            "{what}: {name:?} is not a secret's name: use letters, digits and _ (not starting with a digit), as in SHOP_PASSWORD"
        )));
    }
    let origins = patterns(origins.split(','), what)?;
    Ok((name.to_string(), origins))
}

fn patterns<'a>(list: impl Iterator<Item = &'a str>, what: &str) -> Result<Vec<OriginPattern>> {
    list.map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            OriginPattern::parse(p).map_err(|e| {
                Error::Usage(format!(
                    "{what}: {e}; a secret is bound to origins as NAME@https://shop.example (several: NAME@https://a.example,https://b.example)"
                ))
            })
        })
        .collect()
}

/// `--secret NAME[@ORIGIN,...]=ENV_VAR`.
pub fn from_flag(s: &str) -> Result<(String, SecretSpec)> {
    let what = format!("--secret {s:?}");
    let Some((key, env)) = s.rsplit_once('=') else {
        return Err(Error::Usage(format!(
            "{what}: write NAME=ENV_VAR (the environment variable holding the value; never the value itself), or NAME@https://origin=ENV_VAR"
        )));
    };
    let env = env.trim();
    if !crate::vault::valid_name(env) {
        return Err(Error::Usage(format!(
            "{what}: {env:?} is not an environment variable's name: --secret names the variable that holds the value, never the value"
        )));
    }
    let (name, origins) = name_and_origins(key, &what)?;
    Ok((
        name,
        SecretSpec {
            env: Some(env.to_string()),
            file: None,
            origins,
        },
    ))
}

/// `--secrets FILE`: every secret of a dotenv file (`NAME=value`, `NAME@ORIGIN=value`),
/// read now so that a bad file costs no browser; the file is kept by its absolute path and
/// read again by each command.
pub fn from_file(path: &Path) -> Result<Vec<(String, SecretSpec)>> {
    let what = format!("--secrets {}", path.display());
    let abs = std::fs::canonicalize(path).map_err(|e| {
        Error::Usage(format!(
            "{what}: {e}; give a readable secrets file (NAME=value lines)"
        ))
    })?;
    let entries = read_dotenv(&abs)?;
    let mut out = Vec::new();
    for e in entries {
        let origins = patterns(e.origins.iter().map(String::as_str), &what)?;
        if let Some(why) = crate::vault::unusable(&e.value) {
            return Err(Error::Usage(format!(
                "{what}: line {}: secret {}: {why}",
                e.line, e.name
            )));
        }
        out.push((
            e.name,
            SecretSpec {
                env: None,
                file: Some(abs.clone()),
                origins,
            },
        ));
    }
    Ok(out)
}

/// A secrets file's entries, its errors naming the file.
fn read_dotenv(path: &Path) -> Result<Vec<crate::vault::FileEntry>> {
    let what = format!("secrets file {}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::Usage(format!(
            "{what}: {e}; give a readable file of NAME=value lines"
        ))
    })?;
    crate::vault::parse_dotenv(&text).map_err(|e| {
        Error::Usage(format!(
            "{what}: {e}; the file holds NAME=value lines (dotenv), NAME@https://origin=value for a secret bound to origins"
        ))
    })
}

impl SecretSpec {
    /// Checks a policy file's entry for secret `name`: a name, exactly one source; a
    /// relative `file` is taken from the policy file's folder (`base`).
    pub(super) fn checked(mut self, name: &str, base: Option<&Path>) -> Result<SecretSpec> {
        let what = format!("policy file: secret {name:?}");
        if !crate::vault::valid_name(name) {
            return Err(Error::Usage(format!(
                "{what}: not a secret's name: use letters, digits and _"
            )));
        }
        match (&self.env, &self.file) {
            (Some(_), None) | (None, Some(_)) => {}
            _ => {
                return Err(Error::Usage(format!(
                    "{what}: give one source, \"env\" (the environment variable holding the value) or \"file\" (a secrets file holding it)"
                )));
            }
        }
        if let (Some(f), Some(b)) = (&self.file, base)
            && f.is_relative()
        {
            self.file = Some(b.join(f));
        }
        Ok(self)
    }

    /// Where the value is read from, for messages (`the environment variable SHOP_PW`).
    pub fn source(&self) -> String {
        match (&self.env, &self.file) {
            (Some(e), _) => format!("the environment variable {e}"),
            (None, Some(f)) => format!("the secrets file {}", f.display()),
            (None, None) => "no source".into(),
        }
    }

    /// Reads the value of secret `name` from its source; the error says what is missing and
    /// how to give it.
    pub fn read(&self, name: &str) -> Result<String> {
        let value = match (&self.env, &self.file) {
            (Some(var), _) => std::env::var(var).map_err(|_| {
                Error::Usage(format!(
                    "secret {name}: its value is read from the environment variable {var}, which this command's environment does not have: set it (the session's replies could not mask the secret without it)"
                ))
            })?,
            (None, Some(f)) => read_dotenv(f)?
                .into_iter()
                .find(|e| e.name == name)
                .map(|e| e.value)
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "secret {name}: the secrets file {} no longer holds it",
                        f.display()
                    ))
                })?,
            (None, None) => {
                return Err(Error::Usage(format!("secret {name}: no source")));
            }
        };
        if let Some(why) = crate::vault::unusable(&value) {
            return Err(Error::Usage(format!(
                "secret {name} (from {}): {why}",
                self.source()
            )));
        }
        Ok(value)
    }

    /// Why the secret may not be typed on `origin` (`scheme://host[:port]`, or "null" for an
    /// opaque one), or None when it may.
    pub fn refusal(&self, origin: &str) -> Option<String> {
        if self.origins.is_empty() {
            return None;
        }
        let bound = self
            .origins
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let matches = url::Url::parse(origin).ok().is_some_and(|u| {
            let host = u.host_str().unwrap_or("");
            !host.is_empty()
                && self
                    .origins
                    .iter()
                    .any(|p| p.matches(u.scheme(), host, u.port_or_known_default()))
        });
        (!matches).then(|| {
            let shown = if origin.is_empty() || origin == "null" {
                "a page without an origin of its own (about:, data:, a sandboxed frame)".to_string()
            } else {
                origin.to_string()
            };
            format!("{shown} is not an origin it is bound to (@{bound})")
        })
    }
}

/// Reads every secret's value and registers it for masking (`vault`); the first that
/// cannot be read is the error.
pub fn unlock(secrets: &BTreeMap<String, SecretSpec>) -> Result<()> {
    for (name, spec) in secrets {
        let v = spec.read(name)?;
        crate::vault::register(name, &v);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_name_a_variable_and_origins() {
        let (n, s) =
            from_flag("SHOP_PASSWORD@https://shop.example,*.shop.example=SHOP_PW").unwrap();
        assert_eq!(n, "SHOP_PASSWORD");
        assert_eq!(s.env.as_deref(), Some("SHOP_PW"));
        assert_eq!(s.origins.len(), 2);
        assert_eq!(s.refusal("https://shop.example"), None);
        assert_eq!(s.refusal("https://www.shop.example"), None);
        let why = s.refusal("https://evil.example").unwrap();
        assert!(
            why.contains("https://evil.example is not an origin it is bound to (@https://shop.example,*.shop.example)"),
            "{why}"
        );
        assert!(s.refusal("null").unwrap().contains("without an origin"));
        let (_, any) = from_flag("TOKEN=T").unwrap();
        assert_eq!(any.refusal("null"), None);
        for bad in ["NOVALUE", "1X=Y", "X=not a var", "X@http://a/b=Y"] {
            let e = from_flag(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}: {e}");
        }
    }

    #[test]
    fn values_come_from_their_source() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.env");
        std::fs::write(&f, "A@https://a.example=alpha-1\nB=bravo-22\n").unwrap();
        let got = from_file(&f).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1.origins.len(), 1);
        assert_eq!(got[1].1.read("B").unwrap(), "bravo-22");
        std::fs::write(&f, "A=abc\n").unwrap();
        assert!(from_file(&f).unwrap_err().to_string().contains("too short"));
        let spec = SecretSpec {
            env: Some("ARIASNAP_TEST_NO_SUCH_VAR_X".into()),
            ..Default::default()
        };
        let e = spec.read("X").unwrap_err().to_string();
        assert!(e.contains("ARIASNAP_TEST_NO_SUCH_VAR_X"), "{e}");
    }
}
