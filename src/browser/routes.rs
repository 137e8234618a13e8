//! Routes (docs/reference/network.md#routes): requests answered without the network, by a
//! URL pattern, with a status, headers and a body, a delay, or a failure. The watcher holds
//! requests while a route exists and answers each one: the operator's policy first (a
//! refused request is refused, whatever a route says), then the newest matching route.
//!
//! Owns: a route's shape, its pattern language and which route a request meets. Must not:
//! hold or answer requests (the watcher's holder does, browser/watch/hold.rs).

use serde::{Deserialize, Serialize};

/// One route, as `route` adds it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Route {
    /// A glob over the whole URL (`*`: any text without `/`; `**`: any text), or over the
    /// path and query when it starts with `/`.
    pub pattern: String,
    /// HTTP status of the answer (200 when a body or headers are given without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<(String, String)>,
    /// The body, base64 (a file's bytes, or the text given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// Milliseconds the answer (or the request, when it goes on) waits.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub delay_ms: u64,
    /// The request fails with a network error instead.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fail: bool,
    /// The session (an agent of a shared browser: its own) that added it.
    #[serde(default)]
    pub owner: String,
    /// The user context it is limited to (an agent of a shared browser).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_context: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a route does to a request it meets.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Goes on to the network (after the delay).
    Continue,
    /// Fails with a network error.
    Fail,
    /// Answered: status, headers, body bytes.
    Respond(u16, Vec<(String, String)>, Vec<u8>),
}

impl Route {
    /// What it does to the requests it meets.
    pub fn answer(&self) -> Answer {
        if self.fail {
            return Answer::Fail;
        }
        if self.status.is_none() && self.body.is_none() && self.headers.is_empty() {
            return Answer::Continue;
        }
        use base64::Engine;
        let body = self
            .body
            .as_deref()
            .map(|b| {
                base64::engine::general_purpose::STANDARD
                    .decode(b)
                    .unwrap_or_default()
            })
            .unwrap_or_default();
        Answer::Respond(self.status.unwrap_or(200), self.headers.clone(), body)
    }

    /// Whether it meets a request for `url` from user context `uc` (a route of an agent of
    /// a shared browser meets its own user context's requests only).
    pub fn meets(&self, url: &str, uc: Option<&str>) -> bool {
        if self.user_context.is_some() && self.user_context.as_deref() != uc {
            return false;
        }
        matches(&self.pattern, url)
    }

    /// How `network` and a reply name it: `/api/* -> 200 (24 bytes)`, `-> failure`.
    pub fn describe(&self) -> String {
        let what = match self.answer() {
            Answer::Fail => "failure".to_string(),
            Answer::Continue => "network".to_string(),
            Answer::Respond(s, _, b) => format!("{s} ({} bytes)", b.len()),
        };
        let delay = if self.delay_ms > 0 {
            format!(" after {} ms", self.delay_ms)
        } else {
            String::new()
        };
        format!("{} -> {what}{delay}", self.pattern)
    }
}

/// The newest route that meets the request (later routes take precedence, as in
/// Playwright).
pub fn route_for<'a>(routes: &'a [Route], url: &str, uc: Option<&str>) -> Option<&'a Route> {
    routes.iter().rev().find(|r| r.meets(url, uc))
}

/// Whether glob `pattern` matches `url` (its fragment left out): the whole URL, or, for a
/// pattern that starts with `/`, its path and query on any origin.
pub fn matches(pattern: &str, url: &str) -> bool {
    let url = url.split('#').next().unwrap_or(url);
    let subject = if pattern.starts_with('/') {
        match url::Url::parse(url) {
            Ok(u) => match u.query() {
                Some(q) => format!("{}?{q}", u.path()),
                None => u.path().to_string(),
            },
            Err(_) => return false,
        }
    } else {
        url.to_string()
    };
    glob(pattern.as_bytes(), subject.as_bytes())
}

/// `*` matches any run of bytes without `/`, `**` any run; everything else is itself.
fn glob(p: &[u8], s: &[u8]) -> bool {
    // iterative with backtracking over the last star (each star tried in order)
    let (mut pi, mut si) = (0, 0);
    let mut stars: Vec<(usize, usize, bool)> = Vec::new();
    loop {
        if pi < p.len() && p[pi] == b'*' {
            let double = p.get(pi + 1) == Some(&b'*');
            let next = if double { pi + 2 } else { pi + 1 };
            stars.push((next, si, double));
            pi = next;
            continue;
        }
        if pi < p.len() && si < s.len() && p[pi] == s[si] {
            pi += 1;
            si += 1;
            continue;
        }
        if pi == p.len() && si == s.len() {
            return true;
        }
        // backtrack: the last star takes one more byte, if it may
        loop {
            let Some((next, from, double)) = stars.pop() else {
                return false;
            };
            if from < s.len() && (double || s[from] != b'/') {
                stars.push((next, from + 1, double));
                pi = next;
                si = from + 1;
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_documented() {
        assert!(matches("http://a.test/api/*", "http://a.test/api/items"));
        assert!(!matches("http://a.test/api/*", "http://a.test/api/items/1"));
        assert!(matches("http://a.test/api/**", "http://a.test/api/items/1"));
        assert!(matches("**/api/items", "http://a.test/api/items"));
        assert!(matches("/api/items", "http://b.test:8080/api/items#top"));
        assert!(!matches("/api/items", "http://b.test/api/items?x=1"));
        assert!(matches("/api/items?*", "http://b.test/api/items?x=1"));
        assert!(matches("**/*.png", "http://a.test/img/logo.png"));
        assert!(!matches("*.png", "http://a.test/img/logo.png"));
        assert!(matches("**", "http://a.test/"));
        assert!(!matches("/a", "not a url"));
    }

    #[test]
    fn the_newest_route_of_the_right_user_context_answers() {
        use base64::Engine;
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        let routes = vec![
            Route {
                pattern: "/api/*".into(),
                body: Some(b64("[1]")),
                ..Default::default()
            },
            Route {
                pattern: "/api/items".into(),
                status: Some(500),
                ..Default::default()
            },
            Route {
                pattern: "/api/*".into(),
                fail: true,
                user_context: Some("U".into()),
                ..Default::default()
            },
        ];
        let r = route_for(&routes, "http://a.test/api/items", None).unwrap();
        assert_eq!(r.answer(), Answer::Respond(500, vec![], vec![]));
        let r = route_for(&routes, "http://a.test/api/other", None).unwrap();
        assert_eq!(r.answer(), Answer::Respond(200, vec![], b"[1]".to_vec()));
        assert_eq!(r.describe(), "/api/* -> 200 (3 bytes)");
        let r = route_for(&routes, "http://a.test/api/other", Some("U")).unwrap();
        assert_eq!(r.answer(), Answer::Fail);
        assert!(route_for(&routes, "http://a.test/x", None).is_none());
        let delay = Route {
            pattern: "**".into(),
            delay_ms: 300,
            ..Default::default()
        };
        assert_eq!(delay.answer(), Answer::Continue);
        assert_eq!(delay.describe(), "** -> network after 300 ms");
    }
}
