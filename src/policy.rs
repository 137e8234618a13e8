//! The operator's policy (docs/reference/policy.md): which origins a session may reach,
//! which actions are off, the secrets an agent may type by name (secret.rs) and what needs
//! a person's yes (confirm.rs). Set when a session starts (`--allow-origin`,
//! `--block-origin`, `--deny`, `--secret`, `--secrets`, `--confirm`, `--policy FILE`,
//! `ARIASNAP_POLICY`) and kept in its record; no step, MCP call or page can change it.
//!
//! Owns: the policy's syntax (flags and file), origin patterns and how a URL is judged, the
//! actions it turns off, and the words of a refusal. Must not: talk to the browser (the
//! guard in browser/guard.rs holds the page's requests; steps ask [`Policy::check_url`] and
//! [`Policy::allows`] before acting).

pub mod confirm;
pub mod secret;

use crate::error::{Error, Result};
pub use confirm::ConfirmRule;
pub use secret::SecretSpec;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// An action the operator can turn off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Switch {
    /// Scripts given by the agent: `eval`, `poll` and the `readyWhen` / `settledWhen` /
    /// `observe` hooks of a step.
    Eval,
    /// Files the page downloads: refused by the browser (`browser.setDownloadBehavior`).
    Downloads,
    /// `upload`: files of the agent's machine given to the page.
    Uploads,
    /// `set`, `fill`, `type` on a password field.
    PasswordSet,
    /// A new tab on another origin than the tab it comes from: `newTab URL` and the
    /// page's own `window.open` / `target=_blank`.
    ForeignTabs,
}

impl Switch {
    /// Every switch, in the order the docs list them.
    pub const ALL: [Switch; 5] = [
        Switch::Eval,
        Switch::Downloads,
        Switch::Uploads,
        Switch::PasswordSet,
        Switch::ForeignTabs,
    ];

    /// The name in flags and files.
    pub fn name(self) -> &'static str {
        match self {
            Switch::Eval => "eval",
            Switch::Downloads => "downloads",
            Switch::Uploads => "uploads",
            Switch::PasswordSet => "passwordSet",
            Switch::ForeignTabs => "foreignTabs",
        }
    }

    fn parse(s: &str) -> Result<Switch> {
        let t = s.trim();
        Switch::ALL
            .into_iter()
            .find(|w| w.name().eq_ignore_ascii_case(t) || kebab(w.name()) == t)
            .ok_or_else(|| {
                Error::Usage(format!(
                    "--deny {t:?}: not an action the policy can turn off; give one of {}",
                    Switch::ALL.map(Switch::name).join(", ")
                ))
            })
    }
}

fn kebab(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// An origin pattern: `*`; a host (`example.com`: any scheme and port); `*.example.com`
/// (the host and its subdomains); with a scheme (`https://example.com`: that scheme, its
/// default port); with a port (`http://127.0.0.1:8080`, `http://127.0.0.1:*`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct OriginPattern {
    text: String,
    scheme: Option<String>,
    /// Lower-case host; None: any.
    host: Option<String>,
    /// The host's subdomains match too.
    subdomains: bool,
    /// None: any port (a pattern without a scheme, or `:*`).
    port: Option<u16>,
}

impl TryFrom<String> for OriginPattern {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Self, String> {
        OriginPattern::parse(&s)
    }
}

impl From<OriginPattern> for String {
    fn from(p: OriginPattern) -> String {
        p.text
    }
}

impl fmt::Display for OriginPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl OriginPattern {
    /// Reads a pattern; the error says what is wrong with it.
    pub fn parse(s: &str) -> std::result::Result<OriginPattern, String> {
        let text = s.trim().to_string();
        if text.is_empty() {
            return Err("an empty origin pattern".into());
        }
        if text == "*" {
            return Ok(OriginPattern {
                text,
                scheme: None,
                host: None,
                subdomains: false,
                port: None,
            });
        }
        let (scheme, rest) = match text.split_once("://") {
            Some((s, r)) => (Some(s.to_ascii_lowercase()), r),
            None => (None, text.as_str()),
        };
        if let Some(s) = &scheme
            && (s.is_empty()
                || !s
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)))
        {
            return Err(format!("{text:?}: {s:?} is not a URL scheme"));
        }
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        if rest.contains('/') || rest.contains('?') || rest.contains('#') {
            return Err(format!(
                "{text:?}: an origin has no path (write scheme://host[:port])"
            ));
        }
        // host[:port], an IPv6 host in brackets
        let (host, port) = if let Some(close) = rest.find(']').filter(|_| rest.starts_with('[')) {
            let (h, after) = rest.split_at(close + 1);
            match after.strip_prefix(':') {
                Some(p) => (h.to_string(), Some(p)),
                None if after.is_empty() => (h.to_string(), None),
                None => return Err(format!("{text:?}: {after:?} after the host")),
            }
        } else if rest.matches(':').count() > 1 {
            return Err(format!("{text:?}: write an IPv6 host in brackets, [::1]"));
        } else {
            match rest.split_once(':') {
                Some((h, p)) => (h.to_string(), Some(p)),
                None => (rest.to_string(), None),
            }
        };
        let port =
            match port {
                None => match scheme.as_deref() {
                    Some(s) => default_port(s),
                    None => None,
                },
                Some("*") => None,
                Some(p) => Some(p.parse::<u16>().map_err(|_| {
                    format!("{text:?}: {p:?} is not a port (a number, or * for any)")
                })?),
            };
        let (subdomains, host) = match host.strip_prefix("*.") {
            Some(h) => (true, h.to_string()),
            None => (false, host),
        };
        let host = if host == "*" {
            None
        } else {
            if host.is_empty() || host.contains('*') {
                return Err(format!(
                    "{text:?}: a host is a name (example.com), *.name or *, with no other *"
                ));
            }
            Some(normal_host(&host).ok_or_else(|| format!("{text:?}: {host:?} is not a host"))?)
        };
        Ok(OriginPattern {
            text,
            scheme,
            host,
            subdomains,
            port,
        })
    }

    /// Whether the origin (scheme, host, port) matches.
    pub fn matches(&self, scheme: &str, host: &str, port: Option<u16>) -> bool {
        if self.scheme.as_deref().is_some_and(|s| s != scheme) {
            return false;
        }
        if let Some(p) = self.port
            && Some(p) != port
        {
            return false;
        }
        match &self.host {
            None => true,
            Some(h) => {
                host == h
                    || (self.subdomains
                        && host.len() > h.len()
                        && host.ends_with(h.as_str())
                        && host.as_bytes()[host.len() - h.len() - 1] == b'.')
            }
        }
    }
}

/// The port a scheme uses when a URL names none (the URL Standard's special schemes).
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        "ftp" => Some(21),
        _ => None,
    }
}

/// A host as the URL parser writes it (lower case, IDNA, IP addresses normalized).
fn normal_host(h: &str) -> Option<String> {
    let u = url::Url::parse(&format!("http://{h}/")).ok()?;
    u.host_str().map(str::to_string)
}

/// The policy: origins allowed (none listed: all) and blocked (blocked wins), and actions off.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Policy {
    /// Only these origins may be reached (none listed: every origin not blocked).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow_origins: Vec<OriginPattern>,
    /// These origins may never be reached.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub block_origins: Vec<OriginPattern>,
    /// Actions turned off.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub deny: BTreeSet<Switch>,
    /// Secrets an agent types by name, never seeing their values (docs/reference/policy.md#secrets):
    /// where each value is read, and the origins it may be typed on.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub secrets: BTreeMap<String, SecretSpec>,
    /// What needs a person's yes (docs/reference/policy.md#consent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confirm: Vec<ConfirmRule>,
}

/// What the command line and the environment say of the policy, before it is read.
#[derive(Debug, Clone, Default)]
pub struct PolicySources {
    pub allow: Vec<String>,
    pub block: Vec<String>,
    pub deny: Vec<String>,
    /// `--secret NAME[@ORIGIN,...]=ENV_VAR` (repeatable).
    pub secret: Vec<String>,
    /// `--secrets FILE` (repeatable): secrets files in dotenv form.
    pub secrets_files: Vec<std::path::PathBuf>,
    /// `--confirm RULE` (repeatable).
    pub confirm: Vec<String>,
    /// `--policy FILE`, else `ARIASNAP_POLICY`.
    pub file: Option<std::path::PathBuf>,
}

impl PolicySources {
    /// The policy these sources make (None when they give none): the file's lists and the
    /// flags', together.
    pub fn read(&self) -> Result<Option<Policy>> {
        if self.allow.is_empty()
            && self.block.is_empty()
            && self.deny.is_empty()
            && self.secret.is_empty()
            && self.secrets_files.is_empty()
            && self.confirm.is_empty()
            && self.file.is_none()
        {
            return Ok(None);
        }
        let mut p = match &self.file {
            Some(f) => Policy::read_file(f)?,
            None => Policy::default(),
        };
        let pattern = |flag: &str, s: &str| {
            OriginPattern::parse(s).map_err(|e| {
                Error::Usage(format!(
                    "{flag} {s:?}: {e}; an origin pattern is scheme://host[:port], a host, *.host or *"
                ))
            })
        };
        for a in &self.allow {
            p.allow_origins.push(pattern("--allow-origin", a)?);
        }
        for b in &self.block {
            p.block_origins.push(pattern("--block-origin", b)?);
        }
        for d in self.deny.iter().flat_map(|d| d.split(',')) {
            p.deny.insert(Switch::parse(d)?);
        }
        let named = self
            .secret
            .iter()
            .map(|s| secret::from_flag(s))
            .collect::<Result<Vec<_>>>()?;
        let filed = self
            .secrets_files
            .iter()
            .map(|f| secret::from_file(f))
            .collect::<Result<Vec<_>>>()?;
        for (name, spec) in named.into_iter().chain(filed.into_iter().flatten()) {
            if p.secrets.contains_key(&name) {
                return Err(Error::Usage(format!(
                    "secret {name} is given twice (--secret, --secrets and the policy file together): give each name once"
                )));
            }
            p.secrets.insert(name, spec);
        }
        for c in &self.confirm {
            p.confirm.push(
                ConfirmRule::parse(c).map_err(|e| Error::Usage(format!("--confirm {c:?}: {e}")))?,
            );
        }
        Ok(Some(p))
    }
}

impl Policy {
    /// Reads a policy file (JSON: `allowOrigins`, `blockOrigins`, `deny`); an error names
    /// the file, the line and column, and the fix.
    pub fn read_file(path: &std::path::Path) -> Result<Policy> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::Usage(format!(
                "policy file {}: {e}; give a readable JSON file (--policy FILE or ARIASNAP_POLICY)",
                path.display()
            ))
        })?;
        let p: Policy = serde_json::from_str(&text).map_err(|e| {
            Error::Usage(format!(
                "policy file {}: line {}, column {}: {}; the file is JSON with \"allowOrigins\", \"blockOrigins\" (origin patterns), \"deny\" ({}), \"secrets\" ({{\"NAME\": {{\"env\": \"VAR\", \"origins\": [...]}}}}) and \"confirm\" (rules)",
                path.display(),
                e.line(),
                e.column(),
                strip_position(&e.to_string()),
                Switch::ALL.map(Switch::name).join(", ")
            ))
        })?;
        let base = std::fs::canonicalize(path)
            .ok()
            .and_then(|a| a.parent().map(std::path::Path::to_path_buf));
        let mut secrets = BTreeMap::new();
        for (name, spec) in p.secrets {
            let spec = spec
                .checked(&name, base.as_deref())
                .map_err(|e| Error::Usage(format!("{} ({})", e, path.display())))?;
            secrets.insert(name, spec);
        }
        Ok(Policy { secrets, ..p })
    }

    /// Reads the values of the policy's secrets from their sources and registers them for
    /// masking in everything this process writes (`vault`).
    pub fn unlock_secrets(&self) -> Result<()> {
        secret::unlock(&self.secrets)
    }

    /// The secret named `name`, or the error that lists the names there are.
    pub fn secret(&self, name: &str) -> Result<&SecretSpec> {
        self.secrets.get(name).ok_or_else(|| {
            Error::Usage(format!(
                "no secret named {name:?} in this session: {}",
                self.secret_names()
            ))
        })
    }

    /// `it has SHOP_USER, SHOP_PASSWORD`, or that it has none, for messages.
    pub fn secret_names(&self) -> String {
        if self.secrets.is_empty() {
            return "it has none (the operator gives them with --secret NAME=ENV_VAR or --secrets FILE when the session starts)".into();
        }
        format!(
            "it has {} (`secrets` lists them)",
            self.secrets.keys().cloned().collect::<Vec<_>>().join(", ")
        )
    }

    /// Whether anything needs a person's yes.
    pub fn asks(&self) -> bool {
        !self.confirm.is_empty()
    }

    /// Whether an action is on.
    pub fn allows(&self, s: Switch) -> bool {
        !self.deny.contains(&s)
    }

    /// Whether the policy confines origins at all (the guard holds requests only then).
    pub fn confines_origins(&self) -> bool {
        !self.allow_origins.is_empty() || !self.block_origins.is_empty()
    }

    /// Why `url` may not be reached, or None when it may. URLs that load nothing from a
    /// network (`about:`, `data:`, `blob:` of an allowed origin, `javascript:`) are judged
    /// by what they load: nothing, or their origin's; `file:` URLs count as the origin
    /// `file://` (allowed only when a pattern names the scheme `file` or an allow list is
    /// absent).
    pub fn refusal(&self, url: &str) -> Option<String> {
        if !self.confines_origins() {
            return None;
        }
        let Ok(u) = url::Url::parse(url) else {
            return Some(format!("{url:?} is not a URL the policy can judge"));
        };
        let inner;
        let u = match u.scheme() {
            "about" | "data" | "javascript" => return None,
            "blob" => match url::Url::parse(u.path()) {
                Ok(i) => {
                    inner = i;
                    &inner
                }
                Err(_) => return None,
            },
            _ => &u,
        };
        let scheme = u.scheme();
        let host = u.host_str().unwrap_or("");
        let port = u.port_or_known_default();
        let origin = origin_text(scheme, host, u.port());
        if let Some(b) = self
            .block_origins
            .iter()
            .find(|p| p.matches(scheme, host, port))
        {
            return Some(format!("{origin} is blocked (--block-origin {b})"));
        }
        if !self.allow_origins.is_empty()
            && !self
                .allow_origins
                .iter()
                .any(|p| p.matches(scheme, host, port))
        {
            return Some(format!(
                "{origin} is not an allowed origin (--allow-origin {})",
                self.allow_origins
                    .iter()
                    .map(|p| p.text.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        None
    }

    /// Refuses `url` with the policy's error, when it is refused.
    pub fn check_url(&self, what: &str, url: &str) -> Result<()> {
        match self.refusal(url) {
            Some(why) => Err(Error::Policy(format!("{what} {url}: {why}"))),
            None => Ok(()),
        }
    }

    /// Refuses an action that is off.
    pub fn check(&self, s: Switch, what: &str) -> Result<()> {
        if self.allows(s) {
            Ok(())
        } else {
            Err(Error::Policy(format!(
                "{what}: the operator turned off {} (--deny {})",
                describe_switch(s),
                s.name()
            )))
        }
    }

    /// The page header's words (`# policy: 2 origins allowed, 1 blocked; eval off`).
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        let n = |k: usize, one: &str| {
            if k == 1 {
                format!("1 {one}")
            } else {
                format!("{k} {one}s")
            }
        };
        if !self.allow_origins.is_empty() {
            parts.push(format!("{} allowed", n(self.allow_origins.len(), "origin")));
        }
        if !self.block_origins.is_empty() {
            let b = if self.allow_origins.is_empty() {
                format!("{} blocked", n(self.block_origins.len(), "origin"))
            } else {
                format!("{} blocked", self.block_origins.len())
            };
            parts.push(b);
        }
        let mut s = parts.join(", ");
        let mut part = |p: String| {
            if !s.is_empty() {
                s.push_str("; ");
            }
            s.push_str(&p);
        };
        if !self.deny.is_empty() {
            let off: Vec<&str> = self.deny.iter().map(|d| d.name()).collect();
            part(format!("{} off", off.join(", ")));
        }
        if !self.secrets.is_empty() {
            let names: Vec<&str> = self.secrets.keys().map(String::as_str).collect();
            part(format!(
                "{} {}",
                if names.len() == 1 {
                    "secret"
                } else {
                    "secrets"
                },
                names.join(", ")
            ));
        }
        if !self.confirm.is_empty() {
            let rules: Vec<String> = self.confirm.iter().map(ToString::to_string).collect();
            part(format!("asks a person before {}", rules.join(", ")));
        }
        s
    }
}

/// `scheme://host[:port]`, the port only when the URL gave one.
fn origin_text(scheme: &str, host: &str, port: Option<u16>) -> String {
    match port {
        Some(p) => format!("{scheme}://{host}:{p}"),
        None => format!("{scheme}://{host}"),
    }
}

fn describe_switch(s: Switch) -> &'static str {
    match s {
        Switch::Eval => "scripts from the agent (eval, poll, hooks)",
        Switch::Downloads => "downloads",
        Switch::Uploads => "file uploads",
        Switch::PasswordSet => "typing into password fields",
        Switch::ForeignTabs => "new tabs on other origins",
    }
}

/// serde_json's message without its " at line L column C" (the caller says it first).
fn strip_position(m: &str) -> &str {
    m.rsplit_once(" at line ").map_or(m, |(a, _)| a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> OriginPattern {
        OriginPattern::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn patterns_match_origins() {
        assert!(p("*").matches("https", "a.test", Some(443)));
        assert!(p("example.com").matches("http", "example.com", Some(8080)));
        assert!(!p("example.com").matches("http", "www.example.com", Some(80)));
        assert!(p("*.example.com").matches("https", "www.example.com", Some(443)));
        assert!(p("*.example.com").matches("https", "example.com", Some(443)));
        assert!(!p("*.example.com").matches("https", "badexample.com", Some(443)));
        assert!(p("https://example.com").matches("https", "example.com", Some(443)));
        assert!(!p("https://example.com").matches("https", "example.com", Some(8443)));
        assert!(!p("https://example.com").matches("http", "example.com", Some(80)));
        assert!(p("http://127.0.0.1:*").matches("http", "127.0.0.1", Some(5000)));
        assert!(p("http://127.0.0.1:5000").matches("http", "127.0.0.1", Some(5000)));
        assert!(!p("http://127.0.0.1:5000").matches("http", "127.0.0.1", Some(5001)));
        assert!(p("EXAMPLE.com").matches("http", "example.com", Some(80)));
        assert!(p("http://[::1]:80").matches("http", "[::1]", Some(80)));
    }

    #[test]
    fn bad_patterns_say_why() {
        for (s, says) in [
            ("", "empty"),
            ("http://a.test/path", "no path"),
            ("http://a.test:x", "not a port"),
            ("a*.test", "no other *"),
            ("ht tp://a", "not a URL scheme"),
        ] {
            let e = OriginPattern::parse(s).unwrap_err();
            assert!(e.contains(says), "{s:?}: {e}");
        }
    }

    #[test]
    fn block_wins_and_allow_confines() {
        let pol = PolicySources {
            allow: vec!["http://127.0.0.1:*".into(), "*.example.com".into()],
            block: vec!["http://127.0.0.1:9".into()],
            deny: vec!["eval,downloads".into()],
            ..Default::default()
        }
        .read()
        .unwrap()
        .unwrap();
        assert_eq!(pol.refusal("http://127.0.0.1:8000/x"), None);
        assert_eq!(pol.refusal("https://www.example.com/"), None);
        let why = pol.refusal("http://127.0.0.1:9/").unwrap();
        assert!(
            why.contains("blocked (--block-origin http://127.0.0.1:9)"),
            "{why}"
        );
        let why = pol.refusal("https://evil.test/steal?x=1").unwrap();
        assert!(
            why.starts_with("https://evil.test is not an allowed origin"),
            "{why}"
        );
        assert_eq!(pol.refusal("about:blank"), None);
        assert_eq!(pol.refusal("data:text/html,hi"), None);
        assert!(pol.refusal("blob:https://evil.test/123").is_some());
        assert!(pol.refusal("file:///etc/passwd").is_some());
        assert!(!pol.allows(Switch::Eval) && !pol.allows(Switch::Downloads));
        assert!(pol.allows(Switch::Uploads));
        assert_eq!(
            pol.summary(),
            "2 origins allowed, 1 blocked; eval, downloads off"
        );
        let e = pol.check(Switch::Eval, "eval").unwrap_err();
        assert_eq!(e.exit_code(), 5);
        assert!(
            e.to_string().starts_with("blocked by policy: eval: "),
            "{e}"
        );
    }

    #[test]
    fn no_sources_no_policy_and_bad_switches_are_named() {
        assert_eq!(PolicySources::default().read().unwrap(), None);
        let e = PolicySources {
            deny: vec!["evil".into()],
            ..Default::default()
        }
        .read()
        .unwrap_err();
        assert!(e.to_string().contains("give one of eval, downloads"), "{e}");
        let ok = PolicySources {
            deny: vec!["password-set".into(), "foreignTabs".into()],
            ..Default::default()
        }
        .read()
        .unwrap()
        .unwrap();
        assert!(!ok.allows(Switch::PasswordSet) && !ok.allows(Switch::ForeignTabs));
    }

    #[test]
    fn files_are_read_and_their_errors_located() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("p.json");
        std::fs::write(
            &f,
            r#"{"allowOrigins": ["https://app.test"], "deny": ["uploads"]}"#,
        )
        .unwrap();
        let pol = PolicySources {
            file: Some(f.clone()),
            block: vec!["ads.test".into()],
            ..Default::default()
        }
        .read()
        .unwrap()
        .unwrap();
        assert_eq!(pol.allow_origins.len(), 1);
        assert_eq!(pol.block_origins.len(), 1);
        assert!(!pol.allows(Switch::Uploads));
        // it round-trips through the session record
        let back: Policy = serde_json::from_str(&serde_json::to_string(&pol).unwrap()).unwrap();
        assert_eq!(back, pol);
        std::fs::write(&f, "{\n  \"allowOrigin\": []\n}").unwrap();
        let e = Policy::read_file(&f).unwrap_err().to_string();
        assert!(e.contains("line 2, column"), "{e}");
        assert!(e.contains("unknown field `allowOrigin`"), "{e}");
        std::fs::write(&f, r#"{"allowOrigins": ["http://x/y"]}"#).unwrap();
        let e = Policy::read_file(&f).unwrap_err().to_string();
        assert!(e.contains("no path"), "{e}");
    }

    #[test]
    fn secrets_and_confirm_rules_come_from_flags_and_files() {
        let dir = tempfile::tempdir().unwrap();
        let env = dir.path().join("shop.env");
        std::fs::write(&env, "SHOP_TOKEN@https://shop.example=tok-123456\n").unwrap();
        let f = dir.path().join("p.json");
        std::fs::write(
            &f,
            r#"{"secrets": {"SHOP_PASSWORD": {"env": "SHOP_PW", "origins": ["https://shop.example"]},
                "API": {"file": "shop.env"}},
               "confirm": ["click:Pay*", "download"]}"#,
        )
        .unwrap();
        let pol = PolicySources {
            file: Some(f.clone()),
            secrets_files: vec![env.clone()],
            secret: vec!["SHOP_USER=SHOP_USER_VAR".into()],
            confirm: vec!["form:https://shop.example/checkout*".into()],
            ..Default::default()
        }
        .read()
        .unwrap()
        .unwrap();
        let names: Vec<&str> = pol.secrets.keys().map(String::as_str).collect();
        assert_eq!(names, ["API", "SHOP_PASSWORD", "SHOP_TOKEN", "SHOP_USER"]);
        // a relative file in the policy file is the policy file's neighbour
        assert_eq!(
            pol.secrets["API"].file.as_deref(),
            Some(
                std::fs::canonicalize(dir.path())
                    .unwrap()
                    .join("shop.env")
                    .as_path()
            )
        );
        assert_eq!(pol.confirm.len(), 3);
        assert!(!pol.confines_origins() && pol.asks());
        assert_eq!(
            pol.summary(),
            "secrets API, SHOP_PASSWORD, SHOP_TOKEN, SHOP_USER; asks a person before click:Pay*, download, form:https://shop.example/checkout*"
        );
        let back: Policy = serde_json::from_str(&serde_json::to_string(&pol).unwrap()).unwrap();
        assert_eq!(back, pol);
        assert!(
            pol.secret("NOPE")
                .unwrap_err()
                .to_string()
                .contains("it has API, SHOP_PASSWORD")
        );
        // a secret given twice, a rule that is not one, a policy secret with two sources
        let twice = PolicySources {
            secret: vec!["A=X".into(), "A=Y".into()],
            ..Default::default()
        };
        assert!(
            twice
                .read()
                .unwrap_err()
                .to_string()
                .contains("given twice")
        );
        let bad = PolicySources {
            confirm: vec!["pay".into()],
            ..Default::default()
        };
        assert!(
            bad.read()
                .unwrap_err()
                .to_string()
                .starts_with("--confirm \"pay\"")
        );
        std::fs::write(&f, r#"{"secrets": {"A": {"env": "X", "file": "y"}}}"#).unwrap();
        let e = Policy::read_file(&f).unwrap_err().to_string();
        assert!(e.contains("give one source"), "{e}");
    }
}
