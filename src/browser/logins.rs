//! Saved logins (docs/guide.md#saved-logins): a session's cookies and its origins'
//! localStorage (and sessionStorage) written to a file in Playwright's storageState format,
//! and read back into a session, through WebDriver BiDi.
//!
//! Saving reads every cookie of the session (`storage.getCookies`, no filter) and the
//! storage of every http(s) document open in the session's tabs and their frames
//! (`browsingContext.getTree`, and `engine::storage`'s script in each). Restoring sets each
//! cookie (`storage.setCookie`), then has `engine::storage` fill each origin's localStorage
//! in a temporary tab no request leaves, and the current tab's sessionStorage.
//!
//! Owns: the file's format (Playwright's field names; unknown fields ignored, missing ones
//! defaulted as Playwright does) and its errors, which cookies and origins are saved and
//! restored, and the replies' sentences. Must not: print a value (the file holds secrets:
//! replies give counts and the path), or run a page script (`engine::storage` does).

use super::Browser;
use crate::engine::bidi::{
    Bidi, BytesValue, ContextInfo, GetCookies, GetTree, PartialCookie, Partition, SameSite,
    SetCookie,
};
use crate::engine::storage::{
    Pair, document_storage, fill_local_storage, restore_session_storage, storage_channel,
};
use crate::error::{Error, Result};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::Path;
use std::time::{Duration, Instant};
use tracing::debug;

/// A saved state: Playwright's `storageState` (cookies, then origins with their
/// localStorage), with each origin's sessionStorage as an extra array when it was saved.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StorageState {
    #[serde(default)]
    pub cookies: Vec<StateCookie>,
    #[serde(default)]
    pub origins: Vec<OriginState>,
}

/// A cookie as Playwright writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StateCookie {
    pub name: String,
    pub value: String,
    /// A host for a host-only cookie, `.example.org` for a domain cookie.
    pub domain: String,
    #[serde(default = "root_path")]
    pub path: String,
    /// Seconds since the epoch; -1 for a session cookie.
    #[serde(default = "session_cookie", serialize_with = "whole_when_whole")]
    pub expires: f64,
    #[serde(default)]
    pub http_only: bool,
    #[serde(default)]
    pub secure: bool,
    #[serde(default)]
    pub same_site: SameSiteName,
}

fn root_path() -> String {
    "/".into()
}

fn session_cookie() -> f64 {
    -1.0
}

/// `-1` and `1767225600` rather than `-1.0` (Playwright writes whole numbers bare).
fn whole_when_whole<S: Serializer>(v: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        s.serialize_i64(*v as i64)
    } else {
        s.serialize_f64(*v)
    }
}

/// Playwright's `sameSite`: `Strict`, `Lax` or `None` (read in any case; Lax when absent).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub enum SameSiteName {
    Strict,
    #[default]
    Lax,
    None,
}

impl<'de> Deserialize<'de> for SameSiteName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        match s.to_ascii_lowercase().as_str() {
            "strict" => Ok(SameSiteName::Strict),
            "lax" => Ok(SameSiteName::Lax),
            "none" => Ok(SameSiteName::None),
            _ => Err(serde::de::Error::custom(format!(
                "sameSite {s:?} is not Strict, Lax or None"
            ))),
        }
    }
}

/// One origin's storage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OriginState {
    /// `https://example.org` (scheme, host and port when not the default).
    pub origin: String,
    #[serde(default)]
    pub local_storage: Vec<Item>,
    /// Saved only when asked for (`sessionStorage: true`); Playwright ignores it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub session_storage: Vec<Item>,
}

/// A storage item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub name: String,
    pub value: String,
}

/// The fix every state-file error ends with.
const STATE_FIX: &str = "give a file written by `ariasnap state save FILE` (or by Playwright's storageState: {\"cookies\": [...], \"origins\": [...]})";

fn state_file_error(path: &Path, problem: String) -> Error {
    Error::StateFile {
        path: path.display().to_string(),
        problem,
        fix: STATE_FIX,
    }
}

/// Reads a state file. A file with nothing in it (empty, or no cookies and no origins) is
/// an empty state; a missing, unreadable or malformed one is [`Error::StateFile`].
pub fn read_file(path: &Path) -> Result<StorageState> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        let problem = match e.kind() {
            std::io::ErrorKind::NotFound => "does not exist".to_string(),
            _ => format!("could not be read ({e})"),
        };
        state_file_error(path, problem)
    })?;
    parse(&text).map_err(|e| state_file_error(path, format!("is not a saved state ({e})")))
}

/// A state from its JSON text (blank text: the empty state); the error says what is wrong
/// and where.
pub fn parse(text: &str) -> std::result::Result<StorageState, String> {
    let t = text.trim_start();
    if t.is_empty() {
        return Ok(StorageState::default());
    }
    // (serde would take a list for the struct's fields in order)
    if !t.starts_with('{') {
        return Err("it is not a JSON object".into());
    }
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// Writes a state file whole (atomically) and private (0600): it holds secrets.
pub fn write_file(path: &Path, state: &StorageState) -> Result<()> {
    let body = serde_json::to_vec_pretty(state).map_err(|source| Error::Json {
        what: "a storage state",
        source,
    })?;
    crate::private::write_file(path, &body)?;
    Ok(())
}

/// `1 cookie`, `2 cookies`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

impl StorageState {
    /// The origins with something in them.
    fn stored_origins(&self) -> usize {
        self.origins
            .iter()
            .filter(|o| !o.local_storage.is_empty() || !o.session_storage.is_empty())
            .count()
    }

    /// Masks the operator's secrets (`vault`) in every value; returns what held one
    /// (`cookie "sid"`, `localStorage "pw" of https://a.test`).
    pub fn mask_secrets(&mut self) -> Vec<String> {
        let mut held = Vec::new();
        for c in &mut self.cookies {
            if crate::vault::mask_in_place(&mut c.value) {
                held.push(format!("cookie {:?}", c.name));
            }
        }
        for o in &mut self.origins {
            for (what, items) in [
                ("localStorage", &mut o.local_storage),
                ("sessionStorage", &mut o.session_storage),
            ] {
                for i in items.iter_mut() {
                    if crate::vault::mask_in_place(&mut i.value) {
                        held.push(format!("{what} {:?} of {}", i.name, o.origin));
                    }
                }
            }
        }
        held
    }

    /// What a `saveState` reply says: `saved 3 cookies and 2 origins to FILE`.
    pub fn saved_sentence(&self, path: &str) -> String {
        format!(
            "saved {} and {} to {path}",
            count(self.cookies.len(), "cookie"),
            count(self.stored_origins(), "origin")
        )
    }
}

/// What a restore did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Restored {
    pub cookies: usize,
    pub origins: usize,
    /// What was left out, and why (expired cookies, origins that are not http(s)).
    pub skipped: Vec<String>,
}

impl Restored {
    /// What a `loadState` reply says: `restored 3 cookies and 2 origins from FILE`, or that
    /// the file held nothing.
    pub fn sentence(&self, path: &str) -> String {
        if self.cookies == 0 && self.origins == 0 && self.skipped.is_empty() {
            return format!("restored nothing from {path}: it holds no cookies and no origins");
        }
        format!(
            "restored {} and {} from {path}",
            count(self.cookies, "cookie"),
            count(self.origins, "origin")
        )
    }
}

fn now_secs() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

impl StateCookie {
    /// A cookie the browser gave (a value in bytes is read as UTF-8, lossily).
    fn from_bidi(c: crate::engine::bidi::Cookie) -> StateCookie {
        use base64::Engine;
        let value = match c.value {
            BytesValue::String { value } => value,
            BytesValue::Base64 { value } => base64::engine::general_purpose::STANDARD
                .decode(value.as_bytes())
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default(),
        };
        StateCookie {
            name: c.name,
            value,
            domain: c.domain,
            path: c.path,
            expires: c.expiry.map_or(-1.0, |e| e as f64),
            http_only: c.http_only,
            secure: c.secure,
            // no SameSite attribute: Lax, as browsers treat it by default (and Playwright
            // writes it on Chromium). chromedriver reports such a cookie as `none`, but
            // neither browser keeps a SameSite=None cookie that is not Secure: one reported
            // so had no attribute
            same_site: match c.same_site {
                Some(SameSite::Strict) => SameSiteName::Strict,
                Some(SameSite::None) if c.secure => SameSiteName::None,
                _ => SameSiteName::Lax,
            },
        }
    }

    /// The cookie to set. `SameSite=None` without `Secure` is set as Lax: no browser keeps
    /// such a cookie from a site (Chromium drops it even when set this way, and says
    /// nothing), so a file that says it (Firefox's older reports, chromedriver's) means a
    /// cookie without the attribute, which browsers treat as Lax.
    fn to_bidi(&self) -> PartialCookie {
        let same_site = match self.same_site {
            SameSiteName::None if !self.secure => SameSiteName::Lax,
            s => s,
        };
        PartialCookie {
            name: self.name.clone(),
            value: BytesValue::text(&self.value),
            domain: self.domain.clone(),
            path: Some(self.path.clone()),
            http_only: Some(self.http_only),
            secure: Some(self.secure),
            same_site: Some(match same_site {
                SameSiteName::Strict => SameSite::Strict,
                SameSiteName::Lax => SameSite::Lax,
                SameSiteName::None => SameSite::None,
            }),
            expiry: (self.expires >= 0.0).then_some(self.expires as u64),
        }
    }

    /// Past its expiry (a session cookie never is).
    fn expired(&self, now: f64) -> bool {
        self.expires >= 0.0 && self.expires < now
    }
}

/// `https://a.test` of an http(s) URL or origin; None for anything else.
fn http_origin(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    matches!(u.scheme(), "http" | "https").then(|| u.origin().ascii_serialization())
}

impl Browser {
    /// The session's cookies and the storage of every http(s) document open in its tabs and
    /// their frames (top-level documents first: an origin's localStorage is the first
    /// document's of it; sessionStorage, a tab's own, is merged key by key), and the
    /// documents whose storage could not be read (a page that does not answer), by URL.
    pub async fn save_state(&self, session_storage: bool) -> Result<(StorageState, Vec<String>)> {
        let bidi = storage_channel(&self.page, "saveState")?;
        let uc = self.page.user_context();
        let get = GetCookies {
            partition: Partition::of(uc),
        };
        let cookies = bidi.send(&get).await?.cookies;
        let tree = bidi.send(&GetTree::default()).await?;
        // an agent of a shared browser saves its own tabs' documents only
        let tops: Vec<&ContextInfo> = tree
            .contexts
            .iter()
            .filter(|c| uc.is_none() || c.user_context.as_deref() == uc)
            .collect();
        let frames = tree
            .flatten()
            .into_iter()
            .filter(|c| !tops.iter().any(|t| t.context == c.context));
        let mut origins: Vec<OriginState> = Vec::new();
        let mut unread = Vec::new();
        for ctx in tops.iter().copied().chain(frames) {
            let Some(at) = http_origin(&ctx.url) else {
                continue;
            };
            let doc = match document_storage(bidi, &ctx.context, session_storage).await {
                Ok(d) => d,
                Err(e) => {
                    debug!(context = ctx.context, error = %e, "storage not read");
                    // a frame gone since the tree was read is no loss; a page that does
                    // not answer is said (by its origin: a URL may carry secrets)
                    if e.bidi_code() != Some("no such frame") && !unread.contains(&at) {
                        unread.push(at);
                    }
                    continue;
                }
            };
            let Some(origin) = http_origin(&doc.origin) else {
                continue;
            };
            let items = |v: Vec<Pair>| -> Vec<Item> {
                v.into_iter()
                    .map(|(name, value)| Item { name, value })
                    .collect()
            };
            match origins.iter_mut().find(|o| o.origin == origin) {
                Some(o) => {
                    for it in items(doc.session) {
                        if !o.session_storage.iter().any(|s| s.name == it.name) {
                            o.session_storage.push(it);
                        }
                    }
                }
                None => origins.push(OriginState {
                    origin,
                    local_storage: items(doc.local),
                    session_storage: items(doc.session),
                }),
            }
        }
        origins.retain(|o| !o.local_storage.is_empty() || !o.session_storage.is_empty());
        let state = StorageState {
            cookies: cookies.into_iter().map(StateCookie::from_bidi).collect(),
            origins,
        };
        Ok((state, unread))
    }

    /// Restores `state` into the session: its cookies, each origin's localStorage (in a
    /// temporary tab that no request leaves) and sessionStorage (into the current tab),
    /// within `limit`.
    pub async fn restore_state(&self, state: &StorageState, limit: Duration) -> Result<Restored> {
        let t0 = Instant::now();
        let bidi = storage_channel(&self.page, "loadState")?;
        let uc = self.page.user_context();
        let mut done = Restored::default();
        let now = now_secs();
        let mut set = Vec::new();
        for c in &state.cookies {
            if c.expired(now) {
                done.skipped.push(format!("cookie {:?} (expired)", c.name));
                continue;
            }
            set_cookie(bidi, c, uc).await?;
            set.push(c);
        }
        if !set.is_empty() {
            let dropped = not_kept(bidi, &set, uc).await?;
            for c in &dropped {
                done.skipped.push(format!(
                    "cookie {:?} of {} (the browser did not keep it)",
                    c.name, c.domain
                ));
            }
            done.cookies = set.len() - dropped.len();
        }
        let mut local: Vec<(String, Vec<Pair>)> = Vec::new();
        let mut session = serde_json::Map::new();
        let mut restored: Vec<String> = Vec::new();
        for o in &state.origins {
            if o.local_storage.is_empty() && o.session_storage.is_empty() {
                continue;
            }
            let Some(origin) = http_origin(&o.origin) else {
                done.skipped
                    .push(format!("origin {:?} (not http or https)", o.origin));
                continue;
            };
            let pairs = |items: &[Item]| -> Vec<Pair> {
                items
                    .iter()
                    .map(|i| (i.name.clone(), i.value.clone()))
                    .collect()
            };
            if !o.local_storage.is_empty() {
                local.push((origin.clone(), pairs(&o.local_storage)));
            }
            if !o.session_storage.is_empty() {
                session.insert(origin.clone(), serde_json::json!(pairs(&o.session_storage)));
            }
            if !restored.contains(&origin) {
                restored.push(origin);
            }
        }
        if !local.is_empty() {
            let left = limit.saturating_sub(t0.elapsed());
            fill_local_storage(bidi, &local, left, uc).await?;
        }
        if !session.is_empty() {
            let tab = self.record.current_handle();
            restore_session_storage(bidi, &tab, &serde_json::Value::Object(session)).await?;
        }
        done.origins = restored.len();
        Ok(done)
    }
}

/// Sets one cookie; a refusal is the step's error, naming the cookie (never its value).
async fn set_cookie(bidi: &Bidi, c: &StateCookie, uc: Option<&str>) -> Result<()> {
    let set = SetCookie {
        cookie: c.to_bidi(),
        partition: Partition::of(uc),
    };
    bidi.send(&set).await.map(|_| ()).map_err(|e| {
        Error::Step(format!(
            "the browser refused cookie {:?} of {}: {}",
            c.name,
            c.domain,
            crate::error::one_line(&e.to_string())
        ))
    })
}

/// The cookies of `set` the browser did not keep (Chromium answers some it drops with
/// success): read back with `storage.getCookies`, matched by name, domain (with or without
/// its leading dot) and path.
async fn not_kept<'a>(
    bidi: &Bidi,
    set: &[&'a StateCookie],
    uc: Option<&str>,
) -> Result<Vec<&'a StateCookie>> {
    let get = GetCookies {
        partition: Partition::of(uc),
    };
    let now = bidi.send(&get).await?.cookies;
    let bare = |d: &str| d.trim_start_matches('.').to_ascii_lowercase();
    Ok(set
        .iter()
        .copied()
        .filter(|c| {
            !now.iter()
                .any(|k| k.name == c.name && bare(&k.domain) == bare(&c.domain) && k.path == c.path)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A file Playwright's `context.storageState({path})` writes.
    const PLAYWRIGHT: &str = r#"{
  "cookies": [
    {"name": "sid", "value": "abc", "domain": "127.0.0.1", "path": "/", "expires": -1,
     "httpOnly": true, "secure": false, "sameSite": "Lax"},
    {"name": "pref", "value": "dark", "domain": ".example.org", "path": "/app",
     "expires": 1767225600.519867, "httpOnly": false, "secure": true, "sameSite": "None"}
  ],
  "origins": [
    {"origin": "http://127.0.0.1:8080", "localStorage": [{"name": "user", "value": "Ada"}]}
  ]
}"#;

    #[test]
    fn playwright_files_round_trip_with_playwrights_names() {
        let s = parse(PLAYWRIGHT).unwrap();
        assert_eq!(s.cookies.len(), 2);
        let pref = &s.cookies[1];
        assert_eq!(pref.same_site, SameSiteName::None);
        assert!(pref.secure && !pref.http_only);
        assert_eq!(pref.expires, 1767225600.519867);
        assert_eq!(s.origins[0].local_storage[0].value, "Ada");
        let back = serde_json::to_value(&s).unwrap();
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(PLAYWRIGHT).unwrap()
        );
        // Playwright's field names and order; whole numbers bare
        let text = serde_json::to_string(&s.cookies[0]).unwrap();
        assert_eq!(
            text,
            r#"{"name":"sid","value":"abc","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":true,"secure":false,"sameSite":"Lax"}"#
        );
        assert_eq!(parse(&serde_json::to_string(&s).unwrap()).unwrap(), s);
    }

    #[test]
    fn session_storage_is_an_extra_array_only_when_saved() {
        let mut s = parse(PLAYWRIGHT).unwrap();
        assert!(
            !serde_json::to_string(&s)
                .unwrap()
                .contains("sessionStorage")
        );
        s.origins[0].session_storage.push(Item {
            name: "tab".into(),
            value: "1".into(),
        });
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(
            v["origins"][0]["sessionStorage"],
            json!([{"name": "tab", "value": "1"}])
        );
        assert_eq!(
            v["origins"][0]["localStorage"],
            json!([{"name": "user", "value": "Ada"}])
        );
    }

    #[test]
    fn missing_fields_take_playwrights_defaults_and_unknown_ones_are_ignored() {
        let s = parse(
            r#"{"cookies": [{"name": "a", "value": "b", "domain": "x.test", "partitionKey": "k",
                "sameSite": "strict"}],
                "origins": [{"origin": "https://x.test", "indexedDB": []}]}"#,
        )
        .unwrap();
        let c = &s.cookies[0];
        assert_eq!((c.path.as_str(), c.expires), ("/", -1.0));
        assert_eq!(c.same_site, SameSiteName::Strict);
        assert!(s.origins[0].local_storage.is_empty());
        // nothing in it: the empty state
        for empty in ["", "  \n", "{}", r#"{"cookies": [], "origins": []}"#] {
            assert_eq!(parse(empty).unwrap(), StorageState::default(), "{empty:?}");
        }
        assert!(parse(r#"{"cookies": [{"name": "a"}]}"#).is_err());
        assert!(
            parse(
                r#"{"cookies": [{"name": "a", "value": "b", "domain": "x", "sameSite": "Loose"}]}"#
            )
            .is_err()
        );
        assert!(parse("[]").is_err());
    }

    #[test]
    fn bidi_cookies_become_playwrights() {
        let c: crate::engine::bidi::Cookie = serde_json::from_value(json!({
            "name": "sid", "value": {"type": "base64", "value": "c2VjcmV0"}, "domain": "a.test",
            "path": "/", "size": 9, "httpOnly": true, "secure": false, "sameSite": "default"
        }))
        .unwrap();
        let s = StateCookie::from_bidi(c);
        assert_eq!(s.value, "secret");
        assert_eq!((s.expires, s.same_site), (-1.0, SameSiteName::Lax));
        let p = s.to_bidi();
        assert_eq!(p.expiry, None);
        assert_eq!(p.same_site, Some(SameSite::Lax));
        let later = StateCookie {
            expires: 2_000_000_000.5,
            ..s.clone()
        };
        assert_eq!(later.to_bidi().expiry, Some(2_000_000_000));
        let none = |secure: bool| StateCookie {
            same_site: SameSiteName::None,
            secure,
            ..later.clone()
        };
        assert_eq!(none(false).to_bidi().same_site, Some(SameSite::Lax));
        assert_eq!(none(true).to_bidi().same_site, Some(SameSite::None));
        assert!(!s.expired(now_secs()) && !later.expired(now_secs()));
        assert!(StateCookie { expires: 1.0, ..s }.expired(now_secs()));
        // chromedriver's `none` for a cookie without the attribute (it is not Secure)
        let bare = |secure: bool| -> crate::engine::bidi::Cookie {
            serde_json::from_value(json!({
                "name": "js", "value": {"type": "string", "value": "1"}, "domain": "a.test",
                "path": "/", "size": 3, "httpOnly": false, "secure": secure, "sameSite": "none"
            }))
            .unwrap()
        };
        assert_eq!(
            StateCookie::from_bidi(bare(false)).same_site,
            SameSiteName::Lax
        );
        assert_eq!(
            StateCookie::from_bidi(bare(true)).same_site,
            SameSiteName::None
        );
    }

    #[test]
    fn replies_count_and_never_carry_values() {
        let s = parse(PLAYWRIGHT).unwrap();
        let said = s.saved_sentence("state.json");
        assert_eq!(said, "saved 2 cookies and 1 origin to state.json");
        assert!(!said.contains("abc") && !said.contains("Ada"));
        let r = Restored {
            cookies: 1,
            origins: 2,
            skipped: vec![],
        };
        assert_eq!(
            r.sentence("s.json"),
            "restored 1 cookie and 2 origins from s.json"
        );
        assert_eq!(
            Restored::default().sentence("s.json"),
            "restored nothing from s.json: it holds no cookies and no origins"
        );
    }

    #[test]
    fn state_file_errors_name_the_file_and_the_fix() {
        let tmp = tempfile::tempdir().unwrap();
        let gone = tmp.path().join("gone.json");
        let e = read_file(&gone).unwrap_err();
        let line = e.to_string();
        assert!(
            line.starts_with(&format!("state file {} does not exist: ", gone.display())),
            "{line}"
        );
        assert!(line.contains("`ariasnap state save FILE`"), "{line}");
        assert_eq!(e.exit_code(), 2);
        let bad = tmp.path().join("bad.json");
        std::fs::write(&bad, "{\"cookies\": [oops").unwrap();
        let line = read_file(&bad).unwrap_err().to_string();
        assert!(
            line.contains("bad.json is not a saved state (expected value at line 1"),
            "{line}"
        );
        assert!(line.contains("Playwright's storageState"), "{line}");
        assert!(!line.contains('\n'));
        let line = read_file(tmp.path()).unwrap_err().to_string();
        assert!(line.contains("could not be read"), "{line}");
        let empty = tmp.path().join("empty.json");
        std::fs::write(&empty, "").unwrap();
        assert_eq!(read_file(&empty).unwrap(), StorageState::default());
    }

    #[test]
    fn state_files_are_private_and_whole() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("state.json");
        std::fs::write(&p, "old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        let s = parse(PLAYWRIGHT).unwrap();
        write_file(&p, &s).unwrap();
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(read_file(&p).unwrap(), s);
    }

    #[test]
    fn origins_are_http_ones() {
        assert_eq!(
            http_origin("http://127.0.0.1:8080/a/b?c").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(
            http_origin("https://x.test:443").as_deref(),
            Some("https://x.test")
        );
        for not in ["about:blank", "file:///a.html", "null", "data:text/html,x"] {
            assert_eq!(http_origin(not), None, "{not}");
        }
    }
}
