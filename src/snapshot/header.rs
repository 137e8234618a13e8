//! The page header of a snapshot (docs/reference/output.md#page-header): which document this is, the HTTP status of its
//! response, its ready state, and whether it is a wall (a login form, a captcha, a block or
//! an error page) rather than the content the agent asked for, so that a wall is never
//! taken for an empty or finished page.
//!
//! Owns: the signals the engine reports (`PageSignals`) and the wall rules. Must not: talk
//! to the browser or print (render/header.rs prints the header through `safe`).

use super::guarded::{Guarded, guarded};
pub use crate::wire::PageSignals;
use serde::Serialize;

/// The kinds of wall of docs/reference/output.md#page-header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WallKind {
    Login,
    Captcha,
    Blocked,
    Error,
}

impl WallKind {
    pub fn as_str(self) -> &'static str {
        match self {
            WallKind::Login => "login",
            WallKind::Captcha => "captcha",
            WallKind::Blocked => "blocked",
            WallKind::Error => "error",
        }
    }
}

/// A wall and the evidence for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Wall {
    pub kind: WallKind,
    /// What gave it away: `HTTP 404`, `reCAPTCHA widget`, `password field, URL /login`...
    pub why: String,
}

/// The header of one snapshot (JSON: `page: {url, status, ready, wall?}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PageHeader {
    pub url: String,
    /// None when the browser knows no HTTP status for the document.
    pub status: Option<u16>,
    pub ready: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall: Option<Wall>,
    /// The operator's policy of the session, in words (docs/reference/policy.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
}

/// The page facts the rules read besides the engine's signals.
#[derive(Debug, Clone, Default)]
pub struct PageFacts<'a> {
    pub url: &'a str,
    pub title: &'a str,
    /// Text fields in the snapshot (textbox nodes, password fields included).
    pub text_fields: usize,
}

/// A path or title naming a sign-in step (login, log-in, signin, sign-in, sign_in, auth, sso).
static SIGN_IN: Guarded = guarded!(
    fold: &["log", "sign", "auth", "sso", "session/new"],
    r"(?i)\b(log[-_ ]?in|sign[-_ ]?in|auth|sso|session/new)\b"
);
/// A path or title naming a step that sets a password (sign up, register, join, create an
/// account): the page asked for, not a wall.
static SIGN_UP: Guarded = guarded!(
    fold: &["sign", "regist", "join", "account"],
    r"(?i)\b(sign[-_ ]?up|register|registration|join|create[-_ ]?(an[-_ ]?)?account|new[-_ ]?account)\b"
);
/// A query parameter that carries where the user was going before a sign-in step sent them
/// here (`?next=/orders`, `?return_to=`, `?ReturnUrl=`, `?redirect=`, `?continue=`,
/// `?callbackUrl=`): a redirect to a sign-in page.
static RETURN_TO: Guarded = guarded!(
    fold: &["next", "return", "redirect", "continue", "callback", "dest", "from", "back"],
    r"(?i)[?&](next|return_?to|returnurl|return_?path|redirect(_?ur[il]|_?to)?|continue|callback_?url|dest(ination)?|from|back_?url)="
);
/// A title that says the page is an error (a "soft" 404 served with status 200).
static ERROR_TITLE: Guarded = guarded!(
    fold: &[
        "400",
        "404",
        "410",
        "500",
        "502",
        "503",
        "not found",
        "internal server error",
        "service unavailable",
        "exist",
    ],
    r"(?i)^\s*(error\s*)?(400|404|410|500|502|503)\b|\bnot found\s*($|[-|:–—])|\binternal server error\b|\bservice unavailable\b|\bpage (does not|doesn't) exist\b"
);
/// A title that says the request was refused (Cloudflare, Akamai and common WAF pages).
static BLOCKED_TITLE: Guarded = guarded!(
    fold: &[
        "access denied",
        "attention required",
        "you have been blocked",
        "request blocked",
        "too many requests",
        "rate limit",
    ],
    r"(?i)\baccess denied\b|\battention required\b|\byou have been blocked\b|\brequest blocked\b|\btoo many requests\b|\brate limit"
);
/// Cloudflare's interstitial challenge page ("Just a moment...").
static CHALLENGE_TITLE: Guarded = guarded!(
    fold: &["just a moment", "human"],
    r"(?i)^\s*just a moment\b|\bverify(ing)? you are (a )?human\b"
);

/// The header of a snapshot of `facts.url` from the engine's `signals`.
pub fn header(signals: &PageSignals, facts: &PageFacts<'_>) -> PageHeader {
    PageHeader {
        url: facts.url.to_string(),
        status: (signals.status > 0).then_some(signals.status),
        ready: if signals.ready.is_empty() {
            "unknown".into()
        } else {
            signals.ready.clone()
        },
        wall: wall(signals, facts),
        policy: None,
    }
}

fn wall_of(kind: WallKind, why: impl Into<String>) -> Option<Wall> {
    Some(Wall {
        kind,
        why: why.into(),
    })
}

/// The path of an http(s) URL (what the sign-in rule reads), else the whole URL.
fn path_of(url: &str) -> &str {
    match url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => url,
    }
}

/// The path of a URL without its query.
fn bare_path(url: &str) -> &str {
    let p = path_of(url);
    p.split(['?', '#']).next().unwrap_or(p)
}

/// A sign-in form that is not the page asked for (docs/reference/output.md#page-header),
/// with the evidence. A sign-in form: a password field a user sees, for a password being
/// entered, not set (HTML's autofill tokens: `new-password` asks for one being set; so does
/// a password with its confirmation, and a step named sign-up or register), on a page that
/// is a sign-in step (named so by its path or title, or a form with no more than two other
/// text fields: user name, one-time code; a checkout form with an optional password is
/// not). Not asked for: the tab landed there from another URL its navigation asked for (a
/// redirect), the request was redirected, or the URL carries where the user was going
/// (`?next=`); or the form is at a URL that names something else (a link to "Orders" that
/// shows only a sign-in form). A sign-in page the agent navigated to is the page.
fn login_wall(s: &PageSignals, f: &PageFacts<'_>) -> Option<String> {
    let path = path_of(f.url);
    if s.new_passwords > 0
        || s.passwords >= 2
        || SIGN_UP.is_match(bare_path(f.url))
        || SIGN_UP.is_match(f.title)
    {
        return None;
    }
    let others = f.text_fields.saturating_sub(s.passwords as usize);
    let named = SIGN_IN.is_match(path) || SIGN_IN.is_match(f.title);
    if others > 2 && !named {
        return None;
    }
    match s.asked.as_deref() {
        Some(asked) if bare_path(asked) != bare_path(f.url) => {
            return Some(format!(
                "password field, redirected from {}",
                path_of(asked)
            ));
        }
        // where the agent's own navigation asked to go
        Some(_) => {}
        None if s.redirects > 0 => {
            return Some(format!("password field, redirected to {path}"));
        }
        None if RETURN_TO.is_match(path) => {
            return Some(format!("password field, URL {path}"));
        }
        None => {}
    }
    (!SIGN_IN.is_match(bare_path(f.url))).then(|| "password field".to_string())
}

/// The wall rules, most specific first. Each names its evidence.
fn wall(s: &PageSignals, f: &PageFacts<'_>) -> Option<Wall> {
    // the browser's own error page (Chromium: chrome-error://chromewebdata/; Firefox:
    // about:neterror, about:certerror) replaces a document that could not be loaded
    if f.url.starts_with("chrome-error:")
        || f.url.starts_with("about:neterror")
        || f.url.starts_with("about:certerror")
    {
        return wall_of(WallKind::Error, "the browser could not load the page");
    }
    if !s.captcha.is_empty() {
        return wall_of(WallKind::Captcha, format!("{} widget", s.captcha));
    }
    if CHALLENGE_TITLE.is_match(f.title) {
        return wall_of(WallKind::Captcha, format!("title {:?}", f.title));
    }
    // RFC 9110 15.5.2 (401) and 15.5.8 (407): the resource needs credentials
    if matches!(s.status, 401 | 407) {
        return wall_of(WallKind::Login, format!("HTTP {}", s.status));
    }
    // 403 Forbidden, 429 Too Many Requests (RFC 6585), 451 Unavailable For Legal Reasons
    // (RFC 7725): the server refused this client
    if matches!(s.status, 403 | 429 | 451) {
        return wall_of(WallKind::Blocked, format!("HTTP {}", s.status));
    }
    if BLOCKED_TITLE.is_match(f.title) {
        return wall_of(WallKind::Blocked, format!("title {:?}", f.title));
    }
    if s.passwords > 0
        && let Some(why) = login_wall(s, f)
    {
        return wall_of(WallKind::Login, why);
    }
    if s.status >= 400 {
        return wall_of(WallKind::Error, format!("HTTP {}", s.status));
    }
    if ERROR_TITLE.is_match(f.title) {
        return wall_of(WallKind::Error, format!("title {:?}", f.title));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_matches_only_text_holding_one_of_its_guards() {
        // every alternative of every pattern, in ASCII text of mixed case: the guard lets
        // it through and the pattern matches; text without a guard is never run
        for (g, texts) in [
            (
                &SIGN_IN,
                &[
                    "/LogIn",
                    "/log-in",
                    "Sign_In",
                    "/AUTH/x",
                    "sso",
                    "/Session/New",
                ][..],
            ),
            (
                &SIGN_UP,
                &[
                    "/Sign-Up",
                    "/signup",
                    "Register",
                    "registration",
                    "Join us",
                    "Create an account",
                    "/create_account",
                    "New account",
                ][..],
            ),
            (
                &RETURN_TO,
                &[
                    "/login?next=/",
                    "/l?return_to=x",
                    "/l?ReturnUrl=x",
                    "/l?a=1&redirect=x",
                    "/l?redirect_uri=x",
                    "/l?continue=x",
                    "/l?callbackUrl=x",
                    "/l?destination=x",
                    "/l?from=x",
                    "/l?back_url=x",
                ][..],
            ),
            (
                &ERROR_TITLE,
                &[
                    "Error 404",
                    "  503 Service",
                    "410",
                    "Page Not Found",
                    "Internal Server Error",
                    "Service Unavailable",
                    "This page doesn't exist",
                    "Page does not exist",
                ][..],
            ),
            (
                &BLOCKED_TITLE,
                &[
                    "Access Denied",
                    "Attention Required! | Cloudflare",
                    "You have been blocked",
                    "Request Blocked",
                    "429 Too Many Requests",
                    "Rate limited",
                ][..],
            ),
            (
                &CHALLENGE_TITLE,
                &[
                    "Just a moment...",
                    "Verify you are human",
                    "Verifying you are a human",
                ][..],
            ),
        ] {
            for t in texts {
                assert!(g.re.is_match(t), "{t}");
                assert!(g.is_match(t), "{t}");
            }
        }
        // non-ASCII text always runs the pattern: the Kelvin sign folds to k
        let kelvin = "You have been bloc\u{212A}ed";
        assert!(BLOCKED_TITLE.re.is_match(kelvin));
        assert!(BLOCKED_TITLE.is_match(kelvin));
        assert!(!CHALLENGE_TITLE.is_match("Shop"));
    }

    fn sig(status: u16) -> PageSignals {
        PageSignals {
            status,
            ready: "complete".into(),
            ..Default::default()
        }
    }

    fn facts<'a>(url: &'a str, title: &'a str, text_fields: usize) -> PageFacts<'a> {
        PageFacts {
            url,
            title,
            text_fields,
        }
    }

    fn kind(s: &PageSignals, f: &PageFacts<'_>) -> Option<WallKind> {
        header(s, f).wall.map(|w| w.kind)
    }

    #[test]
    fn an_ordinary_page_is_no_wall() {
        let h = header(&sig(200), &facts("https://a.test/shop", "Shop", 3));
        assert_eq!(h.status, Some(200));
        assert_eq!(h.ready, "complete");
        assert_eq!(h.wall, None);
        // no status known (about:blank, file:)
        let h = header(&sig(0), &facts("about:blank", "", 0));
        assert_eq!(h.status, None);
    }

    #[test]
    fn statuses_name_their_wall() {
        let f = facts("https://a.test/x", "Something", 0);
        assert_eq!(kind(&sig(404), &f), Some(WallKind::Error));
        assert_eq!(kind(&sig(500), &f), Some(WallKind::Error));
        assert_eq!(kind(&sig(401), &f), Some(WallKind::Login));
        assert_eq!(kind(&sig(403), &f), Some(WallKind::Blocked));
        assert_eq!(kind(&sig(429), &f), Some(WallKind::Blocked));
        assert_eq!(kind(&sig(302), &f), None);
        assert_eq!(header(&sig(404), &f).wall.unwrap().why, "HTTP 404");
    }

    #[test]
    fn titles_tell_soft_errors_and_blocks() {
        let s = sig(200);
        for t in [
            "404 Not Found",
            "Page not found - Shop",
            "Error 500",
            "Internal Server Error",
        ] {
            assert_eq!(
                kind(&s, &facts("https://a.test/", t, 0)),
                Some(WallKind::Error),
                "{t}"
            );
        }
        for t in [
            "Access Denied",
            "Attention Required! | Cloudflare",
            "Too Many Requests",
        ] {
            assert_eq!(
                kind(&s, &facts("https://a.test/", t, 0)),
                Some(WallKind::Blocked),
                "{t}"
            );
        }
        assert_eq!(
            kind(&s, &facts("https://a.test/", "Just a moment...", 0)),
            Some(WallKind::Captcha)
        );
        // words that only look alike
        for t in [
            "Top 500 companies",
            "Found: 3 results",
            "Not found yet? Ask us",
        ] {
            assert_eq!(kind(&s, &facts("https://a.test/", t, 0)), None, "{t}");
        }
    }

    #[test]
    fn a_sign_in_form_is_a_wall_when_it_is_not_the_page_asked_for() {
        let mut s = sig(200);
        s.passwords = 1;
        // a short sign-in form at a URL that names something else
        assert_eq!(
            kind(&s, &facts("https://a.test/", "Welcome", 2)),
            Some(WallKind::Login)
        );
        // a long form (sign-up, checkout) with a password is not a wall...
        assert_eq!(kind(&s, &facts("https://a.test/register", "Join", 8)), None);
        // ...unless its title says it is a sign-in step at a URL that names something else
        assert_eq!(
            kind(&s, &facts("https://a.test/x", "Sign in to Shop", 8)),
            Some(WallKind::Login)
        );
        // sent there: the URL says where the user was going
        let w = header(
            &s,
            &facts("https://a.test/account/login?next=/", "Welcome", 8),
        )
        .wall
        .unwrap();
        assert_eq!(w.kind, WallKind::Login);
        assert_eq!(w.why, "password field, URL /account/login?next=/");
        // a sign-in page the agent navigated to is the page
        assert_eq!(kind(&s, &facts("https://a.test/login", "Sign in", 1)), None);
        // ...unless its navigation asked for another one (a redirect)
        s.asked = Some("https://a.test/orders".into());
        let w = header(&s, &facts("https://a.test/login", "Sign in", 1))
            .wall
            .unwrap();
        assert_eq!(w.why, "password field, redirected from /orders");
        s.asked = Some("https://a.test/login".into());
        assert_eq!(kind(&s, &facts("https://a.test/login", "Sign in", 1)), None);
        s.asked = None;
        s.redirects = 1;
        assert_eq!(
            header(&s, &facts("https://a.test/login", "Sign in", 1))
                .wall
                .unwrap()
                .why,
            "password field, redirected to /login"
        );
        s.redirects = 0;
        // setting a password is a sign-up: by its autofill token, its confirmation field,
        // its URL or title
        s.new_passwords = 1;
        assert_eq!(kind(&s, &facts("https://a.test/", "Welcome", 2)), None);
        s.new_passwords = 0;
        s.passwords = 2;
        assert_eq!(kind(&s, &facts("https://a.test/", "Welcome", 3)), None);
        s.passwords = 1;
        assert_eq!(kind(&s, &facts("https://a.test/signup", "Shop", 2)), None);
        assert_eq!(
            kind(&s, &facts("https://a.test/", "Create an account", 2)),
            None
        );
        // no password field a user sees: no login wall
        s.passwords = 0;
        assert_eq!(kind(&s, &facts("https://a.test/", "Welcome", 2)), None);
    }

    #[test]
    fn captcha_widgets_and_browser_error_pages() {
        let mut s = sig(200);
        s.captcha = "reCAPTCHA".into();
        let w = header(&s, &facts("https://a.test/", "Shop", 0))
            .wall
            .unwrap();
        assert_eq!(
            (w.kind, w.why.as_str()),
            (WallKind::Captcha, "reCAPTCHA widget")
        );
        let e = header(&sig(0), &facts("chrome-error://chromewebdata/", "", 0));
        assert_eq!(e.wall.unwrap().kind, WallKind::Error);
    }
}
