//! The BiDi storage module's cookie commands (WebDriver BiDi, "The storage module") and the
//! network module's cookie type they carry: every cookie of the session read at once
//! (classic WebDriver gives only the current page's), and a cookie set for any domain
//! without loading a page of it.
//!
//! Owns: method and field names on the wire. Must not: send anything (bidi.rs does) or
//! decide which cookies are saved or restored (browser/logins.rs does).

use super::network::BytesValue;
use super::types::Command;
use serde::{Deserialize, Serialize};

/// `storage.getCookies` without a filter: every cookie of the default user context's
/// partition, or of the user context `partition` names.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GetCookies {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<Partition>,
}

/// `storage.StorageKeyPartitionDescriptor` naming a user context only (an agent of a
/// shared browser): the partition of that user context.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Partition {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub user_context: String,
}

impl Partition {
    /// The partition of user context `uc`, when given (the default one otherwise).
    pub fn of(uc: Option<&str>) -> Option<Partition> {
        uc.map(|u| Partition {
            kind: "storageKey",
            user_context: u.to_string(),
        })
    }
}

impl Command for GetCookies {
    const METHOD: &'static str = "storage.getCookies";
    type Reply = GetCookiesReply;
}

/// What `storage.getCookies` answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetCookiesReply {
    /// The cookies.
    pub cookies: Vec<Cookie>,
}

/// `network.Cookie`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cookie {
    pub name: String,
    pub value: BytesValue,
    /// The cookie's domain: a host for a host-only cookie, `.example.org` for a domain
    /// cookie (as each browser stores it).
    pub domain: String,
    pub path: String,
    #[serde(default)]
    pub http_only: bool,
    #[serde(default)]
    pub secure: bool,
    /// `strict`, `lax`, `none` or `default` (no SameSite attribute).
    #[serde(default)]
    pub same_site: Option<SameSite>,
    /// Seconds since the epoch; None for a session cookie.
    #[serde(default)]
    pub expiry: Option<u64>,
}

/// `network.SameSite`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SameSite {
    Strict,
    Lax,
    None,
    /// The cookie had no SameSite attribute (drivers that know this value).
    Default,
}

/// `storage.setCookie`: one cookie, in the default user context's partition or the one
/// `partition` names.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SetCookie {
    pub cookie: PartialCookie,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<Partition>,
}

impl Command for SetCookie {
    const METHOD: &'static str = "storage.setCookie";
    type Reply = SetCookieReply;
}

/// `storage.PartialCookie`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PartialCookie {
    pub name: String,
    pub value: BytesValue,
    pub domain: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http_only: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secure: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_site: Option<SameSite>,
    /// Seconds since the epoch; a session cookie when None.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expiry: Option<u64>,
}

/// What `storage.setCookie` answers (its `partitionKey`, unread).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SetCookieReply {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cookies_are_spelled_as_the_spec() {
        assert_eq!(
            serde_json::to_value(GetCookies::default()).unwrap(),
            json!({})
        );
        let c: Cookie = serde_json::from_value(json!({
            "name": "sid", "value": {"type": "string", "value": "v"}, "domain": "127.0.0.1",
            "path": "/", "size": 4, "httpOnly": true, "secure": false, "sameSite": "lax",
            "expiry": 1900000000
        }))
        .unwrap();
        assert_eq!(c.same_site, Some(SameSite::Lax));
        assert!(c.http_only && !c.secure);
        assert_eq!(c.expiry, Some(1_900_000_000));
        let s = SetCookie {
            cookie: PartialCookie {
                name: "sid".into(),
                value: BytesValue::text("v"),
                domain: "127.0.0.1".into(),
                path: Some("/".into()),
                http_only: Some(true),
                secure: None,
                same_site: Some(SameSite::None),
                expiry: None,
            },
            partition: None,
        };
        assert_eq!(
            serde_json::to_value(&s).unwrap(),
            json!({"cookie": {"name": "sid", "value": {"type": "string", "value": "v"},
                   "domain": "127.0.0.1", "path": "/", "httpOnly": true, "sameSite": "none"}})
        );
        // an agent of a shared browser: its user context's partition
        // (storage.StorageKeyPartitionDescriptor)
        let get = GetCookies {
            partition: Partition::of(Some("uc1")),
        };
        assert_eq!(
            serde_json::to_value(&get).unwrap(),
            json!({"partition": {"type": "storageKey", "userContext": "uc1"}})
        );
        assert_eq!(Partition::of(None), None);
    }
}
