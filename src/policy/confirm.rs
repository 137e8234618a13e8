//! What needs a person's yes (docs/reference/policy.md#consent): `--confirm RULE` and the
//! policy file's `confirm`. A rule names what an action would do: click something whose
//! accessible name matches (`click:Pay*`), submit a form to a matching URL
//! (`form:https://shop.example/checkout*`), navigate to a matching origin
//! (`origin:*.bank.example`), or download a file (`download`).
//!
//! Owns: the rules' syntax and how each matches. Must not: ask anyone (steps/consent.rs
//! does, through the surface the agent came by) or talk to the page.

use super::OriginPattern;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One rule of `--confirm`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ConfirmRule {
    text: String,
    kind: RuleKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum RuleKind {
    /// A click (or Enter / Space) on an element whose accessible name matches.
    Click(String),
    /// A form submitted to a URL matching the glob.
    Form(String),
    /// A navigation to an origin matching the pattern.
    Origin(OriginPattern),
    /// A download.
    Download,
}

impl TryFrom<String> for ConfirmRule {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        ConfirmRule::parse(&s)
    }
}

impl From<ConfirmRule> for String {
    fn from(r: ConfirmRule) -> String {
        r.text
    }
}

impl fmt::Display for ConfirmRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The rule kinds, for messages.
pub const KINDS: &str = "click:NAME (a click on something whose accessible name matches; * for any run), form:URL (a form submitted to a matching URL; * for any run), origin:PATTERN (a navigation to a matching origin), download";

impl ConfirmRule {
    /// Reads a rule; the error says what is wrong and what rules look like.
    pub fn parse(s: &str) -> Result<ConfirmRule, String> {
        let text = s.trim().to_string();
        if text == "download" || text == "downloads" {
            return Ok(ConfirmRule {
                text: "download".into(),
                kind: RuleKind::Download,
            });
        }
        let Some((k, arg)) = text.split_once(':') else {
            return Err(format!("{text:?} is not a rule: write one of {KINDS}"));
        };
        let arg = arg.trim();
        if arg.is_empty() {
            return Err(format!("{text:?}: the rule names nothing after {k}:"));
        }
        let kind = match k.trim() {
            "click" => RuleKind::Click(arg.to_string()),
            "form" => RuleKind::Form(arg.to_string()),
            "origin" => {
                RuleKind::Origin(OriginPattern::parse(arg).map_err(|e| format!("{text:?}: {e}"))?)
            }
            other => {
                return Err(format!(
                    "{text:?}: {other:?} is not a kind of rule: write one of {KINDS}"
                ));
            }
        };
        Ok(ConfirmRule { text, kind })
    }

    /// Whether a click on (or Enter on) an element named `name` needs a yes.
    pub fn matches_click(&self, name: &str) -> bool {
        match &self.kind {
            RuleKind::Click(p) => name_regex(p).is_match(name.trim()),
            _ => false,
        }
    }

    /// Whether a form submitted to `url` needs a yes.
    pub fn matches_form(&self, url: &str) -> bool {
        match &self.kind {
            RuleKind::Form(p) => url_regex(p).is_match(url),
            _ => false,
        }
    }

    /// Whether a navigation to `url` needs a yes (its origin matches).
    pub fn matches_navigation(&self, url: &str) -> bool {
        let RuleKind::Origin(p) = &self.kind else {
            return false;
        };
        url::Url::parse(url).ok().is_some_and(|u| {
            let host = u.host_str().unwrap_or("");
            !host.is_empty() && p.matches(u.scheme(), host, u.port_or_known_default())
        })
    }

    /// Whether the rule is `download`.
    pub fn is_download(&self) -> bool {
        self.kind == RuleKind::Download
    }

    /// Whether the rule guards what the agent's scripts could do past it (a click, a form,
    /// a navigation: a script can do each; a download only follows from them).
    pub fn guards_scripts(&self) -> bool {
        !self.is_download()
    }
}

/// A name pattern as a regex: case-insensitive, `*` any run of characters, white space any
/// run of white space, and a word boundary at an end that is a word character (`Pay` is
/// not in `Display` or `PayPal`; `Pay*` is in `PayPal`).
fn name_regex(p: &str) -> regex::Regex {
    let mut re = String::from("(?is)^.*?");
    let t = p.trim();
    if t.chars().next().is_some_and(|c| c.is_alphanumeric()) {
        re.push_str(r"\b");
    }
    let mut space = false;
    for c in t.chars() {
        if c.is_whitespace() {
            if !space {
                re.push_str(r"\s+");
            }
            space = true;
            continue;
        }
        space = false;
        if c == '*' {
            re.push_str(".*");
        } else {
            re.push_str(&regex::escape(&c.to_string()));
        }
    }
    if t.chars().last().is_some_and(|c| c.is_alphanumeric()) {
        re.push_str(r"\b");
    }
    re.push_str(".*$");
    regex::Regex::new(&re).unwrap_or_else(|_| regex::Regex::new("^$").expect("empty regex"))
}

/// A URL glob as a regex: the whole URL, case-insensitive, `*` any run of characters.
fn url_regex(p: &str) -> regex::Regex {
    let body: Vec<String> = p.trim().split('*').map(regex::escape).collect();
    let re = format!("(?is)^{}$", body.join(".*"));
    regex::Regex::new(&re).unwrap_or_else(|_| regex::Regex::new("^$").expect("empty regex"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> ConfirmRule {
        ConfirmRule::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn click_rules_match_names_by_words() {
        let pay = r("click:Pay");
        for yes in ["Pay", "pay now", "Pay €20.00", "Confirm and pay"] {
            assert!(pay.matches_click(yes), "{yes}");
        }
        for no in ["Display", "PayPal", "Repay", ""] {
            assert!(!pay.matches_click(no), "{no}");
        }
        assert!(r("click:Pay*").matches_click("PayPal"));
        assert!(r("click:*delete*").matches_click("Undelete all"));
        assert!(r("click:Place  order").matches_click("Place\norder now"));
        assert!(!r("click:Place order").matches_click("Place your order"));
        assert!(!pay.matches_form("https://x/pay") && !pay.is_download());
    }

    #[test]
    fn form_origin_and_download_rules() {
        let f = r("form:https://shop.example/checkout*");
        assert!(f.matches_form("https://shop.example/checkout/pay?x=1"));
        assert!(f.matches_form("HTTPS://SHOP.EXAMPLE/checkout"));
        assert!(!f.matches_form("https://shop.example/cart"));
        assert!(r("form:*").matches_form("http://127.0.0.1:9/x"));
        let o = r("origin:*.bank.example");
        assert!(o.matches_navigation("https://www.bank.example/transfer"));
        assert!(!o.matches_navigation("https://bank.example.evil/"));
        assert!(!o.matches_navigation("about:blank"));
        let d = r("downloads");
        assert!(d.is_download() && !d.guards_scripts());
        assert_eq!(d.to_string(), "download");
        for (bad, says) in [
            ("pay", "not a rule"),
            ("click:", "names nothing"),
            ("tap:Pay", "not a kind of rule"),
            ("origin:http://a/b", "no path"),
        ] {
            let e = ConfirmRule::parse(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
        // the session record keeps rules as their text
        let back: ConfirmRule = serde_json::from_str(&serde_json::to_string(&f).unwrap()).unwrap();
        assert_eq!(back, f);
    }
}
