//! Locators (docs/reference/step-files.md#locators): a step's target named by role and name,
//! label or text instead of a ref, resolved in the page by the snapshot's own role and name
//! computation (the engine's `locate`), healed when the page drifted (one best candidate of
//! the same role, said in the reply and a note), and the locator of a ref as the journal
//! records it (the engine's `describe`).
//!
//! Owns: the locator's form, lifting it out of a step's argument, its words, resolving and
//! healing. Must not: send input (the step's own handler acts on the ref it resolves to).

use crate::actions::ask;
use crate::browser::Browser;
use crate::engine::entry;
use crate::error::{Error, Result};
use crate::safe::quote;
use crate::wire::{DescribeReply, LocateReply, Located};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The ref a step carries while its locator is unresolved (snapshot 0 is never minted).
pub const PLACEHOLDER_REF: &str = "s0e0";

/// The keys of a locator, accepted among the options of an action that takes a ref (those
/// the action does not take itself: `type`'s `text` is what it types).
pub const LOCATOR_KEYS: &[&str] = &["role", "name", "label", "text", "exact", "within", "nth"];

/// A step's target by what a user sees: role and accessible name, a field's label, or text,
/// within a container, the nth of several.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Locator {
    /// ARIA role, as the snapshot shows it (button, link, textbox, checkbox...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Accessible name, as the snapshot shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A form field by its label (its accessible name; any field role).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The element holding this text (search's text match).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Whole name (default true; case and runs of white space aside), or false: a part of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    /// Inside a container: a ref, a landmark role (`main`), a container's name, `role "name"`
    /// (`region "Shipping"`), or {"role", "name"}.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<Within>,
    /// The nth (from 0) of several matches, in document order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nth: Option<u64>,
}

/// A locator's container: written as text, or as a role and name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Within {
    Text(String),
    Named {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
}

// Roles `within` takes as a bare word: landmarks, dialogs, named groups.
const CONTAINER_ROLES: &[&str] = &[
    "banner",
    "main",
    "navigation",
    "contentinfo",
    "complementary",
    "search",
    "form",
    "region",
    "dialog",
    "alertdialog",
    "group",
];

impl Within {
    /// What the engine's `locate` takes: {ref} or {role?, name?}.
    fn engine(&self) -> Value {
        match self {
            Within::Named { role, name } => json!({"role": role, "name": name}),
            Within::Text(t) => {
                let t = t.trim();
                if crate::refs::is_ref(t) || t.starts_with('@') {
                    return json!({"ref": crate::refs::parse_ref(t).unwrap_or_else(|_| t.into())});
                }
                if CONTAINER_ROLES.contains(&t) {
                    return json!({"role": t});
                }
                if let Some((role, rest)) = t.split_once(' ')
                    && CONTAINER_ROLES.contains(&role)
                    && let Ok(name) = serde_json::from_str::<String>(rest.trim())
                {
                    return json!({"role": role, "name": name});
                }
                json!({"name": t})
            }
        }
    }

    /// Its words: `region "Shipping"`, `main`, `s1e4`.
    pub fn words(&self) -> String {
        match self {
            Within::Text(t) => t.clone(),
            Within::Named { role, name } => match (role, name) {
                (Some(r), Some(n)) => format!("{r} {}", quote(n)),
                (Some(r), None) => r.clone(),
                (None, Some(n)) => quote(n),
                (None, None) => "anything".into(),
            },
        }
    }
}

impl Locator {
    /// What makes it name something: a role, a name, a label or a text.
    pub fn check(&self) -> std::result::Result<(), String> {
        if self.role.is_none() && self.name.is_none() && self.label.is_none() && self.text.is_none()
        {
            return Err("a locator names a role, a name, a label or a text: {\"role\": \"button\", \"name\": \"Pay\"}".into());
        }
        if self.label.is_some() && self.name.is_some() {
            return Err(
                "a locator takes a label or a name, not both (a field's label is its name)".into(),
            );
        }
        Ok(())
    }

    fn exact(&self) -> bool {
        self.exact.unwrap_or(true)
    }

    /// Its words: `button "Pay" in region "Checkout"`, `textbox labelled "Email"`.
    pub fn words(&self) -> String {
        let mut s = self.role.clone().unwrap_or_default();
        let part = if self.exact() { "" } else { "containing " };
        if let Some(n) = &self.name {
            s = format!(
                "{} {part}{}",
                if s.is_empty() { "element" } else { &s },
                quote(n)
            );
        }
        if let Some(l) = &self.label {
            s = format!(
                "{} labelled {part}{}",
                if s.is_empty() { "field" } else { &s },
                quote(l)
            );
        }
        if let Some(t) = &self.text {
            s = format!(
                "{} with text {part}{}",
                if s.is_empty() { "element" } else { &s },
                quote(t)
            );
        }
        if let Some(w) = &self.within {
            s = format!("{s} in {}", w.words());
        }
        if let Some(n) = self.nth {
            s = format!("{s} (nth {n})");
        }
        s.trim().to_string()
    }

    fn engine(&self, n: u64) -> entry::Locate {
        let mut v = json!({"exact": self.exact()});
        for (k, x) in [
            ("role", &self.role),
            ("name", &self.name),
            ("label", &self.label),
            ("text", &self.text),
        ] {
            if let Some(x) = x {
                v[k] = json!(x);
            }
        }
        if let Some(w) = &self.within {
            v["within"] = w.engine();
        }
        if let Some(nth) = self.nth {
            v["nth"] = json!(nth);
        }
        entry::Locate { locator: v, n }
    }

    /// The locator a ref had when it ran (the journal's): role and name, its container,
    /// `nth` when that is not unique there.
    pub fn of_described(d: &DescribeReply) -> Locator {
        Locator {
            role: Some(d.role.clone()),
            name: (!d.name.is_empty()).then(|| d.name.clone()),
            // a nameless generic is found by its words (docs/reference/refs.md#stability)
            text: d
                .text
                .clone()
                .filter(|t| d.name.is_empty() && !t.is_empty()),
            within: d.container.as_ref().map(|c| Within::Named {
                role: Some(c.role.clone()),
                name: (!c.name.is_empty()).then(|| c.name.clone()),
            }),
            nth: d.nth,
            ..Default::default()
        }
    }
}

/// Takes a step's locator out of its action's argument: a `target` object, or the locator's
/// keys among the options (those the action does not take itself), leaving the placeholder
/// ref in their place. None when the step names no locator. `key`: the option a locator's
/// ref goes into (`ActionKind::located_by`; None: the action takes no target).
pub fn lift(
    key: Option<&str>,
    arg: &mut Value,
    own: &[String],
) -> std::result::Result<Option<Locator>, String> {
    // (the options of other actions are their own: queryAll's groups may be named "text")
    let Value::Object(m) = arg else {
        return Ok(None);
    };
    let Some(key) = key else {
        return Ok(None);
    };
    let mut loc = serde_json::Map::new();
    // (frame's own `target` is its iframe: a locator there names the iframe)
    let owns_target = own.iter().any(|o| o == "target")
        && !(key == "target" && m.get("target").is_some_and(Value::is_object));
    let given = if owns_target {
        None
    } else {
        m.shift_remove("target")
    };
    if let Some(t) = given {
        match t {
            Value::Object(o) => loc = o,
            Value::String(s) if crate::refs::is_ref(s.trim()) => {
                m.insert("ref".into(), Value::String(s));
            }
            other => {
                return Err(format!(
                    "target takes a locator such as {{\"role\": \"button\", \"name\": \"Pay\"}} or a ref, got {other}"
                ));
            }
        }
    }
    for k in LOCATOR_KEYS {
        if own.iter().any(|o| o == k) {
            continue;
        }
        if let Some(v) = m.shift_remove(*k) {
            if loc.contains_key(*k) {
                return Err(format!(
                    "\"{k}\" is given twice (in target and among the options): keep one"
                ));
            }
            loc.insert((*k).into(), v);
        }
    }
    if loc.is_empty() {
        return Ok(None);
    }
    let l: Locator =
        serde_json::from_value(Value::Object(loc)).map_err(|e| format!("locator: {e}"))?;
    l.check()?;
    if m.contains_key(key) {
        return Err(format!("a {key} or a locator, not both"));
    }
    if m.contains_key("fields") {
        return Err("a fields map or a locator, not both".into());
    }
    m.insert(key.into(), json!(PLACEHOLDER_REF));
    Ok(Some(l))
}

/// A locator resolved: the ref to act on, and what was healed when the page drifted.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub r#ref: String,
    pub healed: Option<String>,
}

/// Resolves a locator in the page to one ref. Several matches, or none, are errors naming
/// them (or the nearest names of the role); with `heal`, a locator that no longer matches
/// takes the one best candidate of its role ([`heal`]).
pub async fn resolve(b: &mut Browser, loc: &Locator, heal_ok: bool) -> Result<Resolved> {
    let r = probe(b, loc).await?;
    if unique(loc, &r) {
        let m = &r.matches[0];
        return m
            .r#ref
            .clone()
            .map(|r| Resolved {
                r#ref: r,
                healed: None,
            })
            .ok_or_else(|| {
                Error::Step(format!(
                    "{} has no ref (a cross-origin frame?): take a snapshot and use its ref",
                    loc.words()
                ))
            });
    }
    if let Some(e) = several(loc, &r) {
        return Err(e);
    }
    match heal(loc, &r.near) {
        Heal::One(c, why) if heal_ok => Ok(Resolved {
            r#ref: c.r#ref.clone().unwrap_or_default(),
            healed: Some(why),
        }),
        Heal::One(c, _) => Err(Error::Step(format!(
            "no {} (not healed: --strict, or a single command; the one candidate is {} {})",
            loc.words(),
            c.role,
            located(c)
        ))),
        Heal::Several(cs) => Err(Error::Step(format!(
            "no {}; {} candidates of that role are as near, not healed: {}; update the step",
            loc.words(),
            cs.len(),
            list(&cs.into_iter().cloned().collect::<Vec<_>>())
        ))),
        Heal::None => Err(Error::Step(none_words(loc, &r))),
    }
}

/// The elements a locator names in the page now, with the near candidates of its role
/// (refs minted for a new snapshot).
pub async fn probe(b: &mut Browser, loc: &Locator) -> Result<LocateReply> {
    let n = b.next_snapshot()?;
    ask(b, loc.engine(n)).await
}

/// Whether a probe found the one element the locator names.
pub fn unique(loc: &Locator, r: &LocateReply) -> bool {
    r.total == 1 || (loc.nth.is_some() && r.matches.len() == 1)
}

/// The error of a probe that found several elements (or too few for its `nth`): each named
/// with its ref and where it is. None when it found one or none.
pub fn several(loc: &Locator, r: &LocateReply) -> Option<Error> {
    if let Some(nth) = loc.nth.filter(|_| r.total > 0 && r.matches.is_empty()) {
        return Some(Error::Step(format!(
            "nth {nth} of {}: only {} match (nth counts from 0)",
            loc.words(),
            r.total
        )));
    }
    (r.total > 1 && !unique(loc, r)).then(|| {
        Error::Step(format!(
            "{} elements match {}: {}{}; add \"within\" (a container) or \"nth\" (from 0), or use a ref",
            r.total,
            loc.words(),
            list(&r.matches),
            if r.total as usize > r.matches.len() {
                ", ..."
            } else {
                ""
            }
        ))
    })
}

/// The words of a probe that found nothing: the locator and the nearest names of its role.
pub fn none_words(loc: &Locator, r: &LocateReply) -> String {
    format!("no {}{}", loc.words(), nearest(loc, &r.near))
}

/// `"Pay now" s3e4`; a nameless generic by its words after its ref: `s3e4 "Stove"`
fn located(c: &Located) -> String {
    let r = c.r#ref.as_deref().unwrap_or("(no ref)");
    match c.text.as_deref().filter(|_| c.name.is_empty()) {
        Some(t) => format!("{r} {}", quote(t)),
        None => format!("{} {r}", quote(&c.name)),
    }
}

fn list(cs: &[Located]) -> String {
    cs.iter()
        .map(|c| {
            let path = if c.path.is_empty() {
                String::new()
            } else {
                format!(" in {}", c.path)
            };
            format!("{} {}{path}", c.role, located(c))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// "; nearest buttons: "Save" s1e4, "Cancel" s1e5" (by name), or what the page lacks.
fn nearest(loc: &Locator, near: &[Located]) -> String {
    let want = loc.name.as_deref().or(loc.label.as_deref()).unwrap_or("");
    let mut ranked: Vec<(f64, &Located)> = near
        .iter()
        .map(|c| (similarity(want, &c.name), c))
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let role = loc.role.as_deref().unwrap_or("field");
    if ranked.is_empty() {
        if loc.role.is_some() || loc.label.is_some() {
            return format!("; the page has no {role} at all");
        }
        return "; search the page (`search`) or take a snapshot".into();
    }
    let names: Vec<String> = ranked
        .iter()
        .take(5)
        .map(|(_, c)| format!("{} {}", c.role, located(c)))
        .collect();
    format!("; nearest of that role: {}", names.join(", "))
}

/// What healing found: one candidate (and the words of the heal), several as near, none.
#[derive(Debug, PartialEq)]
pub enum Heal<'a> {
    One(&'a Located, String),
    Several(Vec<&'a Located>),
    None,
}

/// Collapsed white space, lower case.
fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// How alike two names are, 0 to 1: equal 1; one holding the other as whole words 0.8 (a
/// renamed "Pay" -> "Pay now"); else the words they share over the words of the longer
/// (Jaccard on words), or the share of a common prefix and suffix of their characters,
/// whichever is more (the engine's `similarNames` for a ref's minor renames).
pub fn similarity(a: &str, b: &str) -> f64 {
    let (a, b) = (norm(a), norm(b));
    if a == b {
        return 1.0;
    }
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let wa: Vec<&str> = a.split(' ').collect();
    let wb: Vec<&str> = b.split(' ').collect();
    let holds = |x: &[&str], y: &[&str]| x.windows(y.len()).any(|w| w == y);
    if (wa.len() > wb.len() && holds(&wa, &wb)) || (wb.len() > wa.len() && holds(&wb, &wa)) {
        return 0.8;
    }
    let shared = wa.iter().filter(|w| wb.contains(w)).count() as f64;
    let words = shared / (wa.len().max(wb.len()) as f64);
    let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let pre = ca.iter().zip(&cb).take_while(|(x, y)| x == y).count();
    let suf = ca[pre..]
        .iter()
        .rev()
        .zip(cb[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let chars = (pre + suf) as f64 / (ca.len().max(cb.len()) as f64);
    words.max(chars)
}

/// The least similarity a renamed element may have to be taken for the one a locator named.
pub const HEAL_MIN: f64 = 0.6;

/// Healing a locator that matches nothing (docs/reference/step-files.md#healing): only a
/// locator with a role, only candidates of that role (`near`: the page's elements of it,
/// those inside the locator's container marked). First an element of that role with the
/// very name elsewhere (a field moved into another container); else, inside the container
/// (or anywhere without one), the one element whose name is most like the locator's, at
/// least [`HEAL_MIN`] alike and strictly nearer than the next (a renamed button). Two as
/// near: several, never a guess.
pub fn heal<'a>(loc: &Locator, near: &'a [Located]) -> Heal<'a> {
    let (Some(role), Some(want)) = (loc.role.as_deref(), loc.name.as_deref()) else {
        return Heal::None;
    };
    let near: Vec<&Located> = near
        .iter()
        .filter(|c| c.role == role && c.r#ref.is_some())
        .collect();
    if loc.within.is_some() {
        let moved: Vec<&Located> = near
            .iter()
            .copied()
            .filter(|c| !c.inside && norm(&c.name) == norm(want))
            .collect();
        match moved.as_slice() {
            [one] => {
                let to = one.container.as_ref().map_or("the page".to_string(), |c| {
                    format!("{} {}", c.role, quote(&c.name))
                });
                let from = loc.within.as_ref().map(Within::words).unwrap_or_default();
                return Heal::One(
                    one,
                    format!("healed: {role} {} moved from {from} to {to}", quote(want)),
                );
            }
            [] => {}
            more => return Heal::Several(more.to_vec()),
        }
    }
    let mut ranked: Vec<(f64, &Located)> = near
        .iter()
        .filter(|c| loc.within.is_none() || c.inside)
        .map(|c| (similarity(want, &c.name), *c))
        .filter(|(s, _)| *s >= HEAL_MIN)
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    match ranked.as_slice() {
        [] => Heal::None,
        [(_, one)] => Heal::One(one, renamed(role, want, one)),
        [(s0, one), (s1, _), ..] if s0 > s1 => Heal::One(one, renamed(role, want, one)),
        [(s0, _), ..] => Heal::Several(
            ranked
                .iter()
                .filter(|(s, _)| s == s0)
                .map(|(_, c)| *c)
                .collect(),
        ),
    }
}

fn renamed(role: &str, want: &str, c: &Located) -> String {
    format!("healed: {role} {} -> {}", quote(want), quote(&c.name))
}

/// The locator of a ref as it stands now (the journal records it before the action runs):
/// None for a ref the engine cannot describe (another frame's, gone).
pub async fn describe(b: &Browser, r: &str) -> Option<DescribeReply> {
    let r = crate::refs::parse_ref(r).ok()?;
    if r.starts_with('f') {
        return None;
    }
    ask(b, entry::Describe { r#ref: r }).await.ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(role: &str, name: &str, inside: bool, container: Option<(&str, &str)>) -> Located {
        Located {
            r#ref: Some(format!("s1e{}", name.len())),
            role: role.into(),
            name: name.into(),
            text: None,
            path: String::new(),
            container: container.map(|(r, n)| crate::wire::Container {
                role: r.into(),
                name: n.into(),
            }),
            inside,
        }
    }

    fn loc(v: Value) -> Locator {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn similar_names() {
        assert_eq!(similarity("Pay", "pay"), 1.0);
        assert!(similarity("Pay", "Pay now") >= HEAL_MIN);
        assert!(similarity("Pay", "Cancel") < HEAL_MIN);
        assert!(similarity("Email address", "E-mail address") >= HEAL_MIN);
        assert!(similarity("Save", "Delete") < HEAL_MIN);
        assert!(similarity("Remove", "Rename") < HEAL_MIN);
        assert!(similarity("Restor", "Restore") >= HEAL_MIN);
    }

    #[test]
    fn healing_takes_one_candidate_of_the_role_or_none() {
        let l = loc(json!({"role": "button", "name": "Pay"}));
        let near = vec![
            c("button", "Pay now", true, None),
            c("button", "Cancel", true, None),
            c("link", "Pay", true, None),
        ];
        match heal(&l, &near) {
            Heal::One(x, why) => {
                assert_eq!(x.name, "Pay now");
                assert_eq!(why, "healed: button \"Pay\" -> \"Pay now\"");
            }
            other => panic!("{other:?}"),
        }
        // never another role: a link named "Pay" is no button
        let only_link = vec![c("link", "Pay", true, None)];
        assert_eq!(heal(&l, &only_link), Heal::None);
        // two as near: no guess
        let twins = vec![
            c("button", "Pay now", true, None),
            c("button", "Pay later", true, None),
        ];
        assert!(matches!(heal(&l, &twins), Heal::Several(v) if v.len() == 2));
        // no role: no healing
        assert_eq!(heal(&loc(json!({"label": "Pay"})), &near), Heal::None);
    }

    #[test]
    fn a_moved_field_heals_by_its_very_name() {
        let l = loc(
            json!({"role": "textbox", "name": "Email", "within": {"role": "region", "name": "Contact"}}),
        );
        let near = vec![
            c("textbox", "Name", true, Some(("region", "Contact"))),
            c("textbox", "Email", false, Some(("region", "Account"))),
        ];
        match heal(&l, &near) {
            Heal::One(x, why) => {
                assert_eq!(x.name, "Email");
                assert_eq!(
                    why,
                    "healed: textbox \"Email\" moved from region \"Contact\" to region \"Account\""
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn locators_lift_out_of_arguments() {
        let own = |_: &str| vec!["ref".to_string(), "text".to_string(), "submit".to_string()];
        let mut a = json!({"role": "button", "name": "Pay"});
        let l = lift(Some("ref"), &mut a, &[]).unwrap().unwrap();
        assert_eq!(l.role.as_deref(), Some("button"));
        assert_eq!(a, json!({"ref": PLACEHOLDER_REF}));
        // type's own text stays the text typed
        let mut a = json!({"label": "Email", "text": "ada"});
        let l = lift(Some("ref"), &mut a, &own("type")).unwrap().unwrap();
        assert_eq!(l.label.as_deref(), Some("Email"));
        assert_eq!(a, json!({"text": "ada", "ref": PLACEHOLDER_REF}));
        let mut a = json!({"target": {"text": "Gift wrap"}, "value": "x"});
        assert!(lift(Some("ref"), &mut a, &[]).unwrap().is_some());
        let mut a = json!({"ref": "s1e2", "role": "button"});
        assert!(
            lift(Some("ref"), &mut a, &[])
                .unwrap_err()
                .contains("not both")
        );
        // other actions' options are their own (queryAll's groups may be named "text")
        let mut a = json!({"text": {"selector": "p"}, "name": {"role": "textbox"}});
        assert_eq!(lift(None, &mut a, &[]).unwrap(), None);
        assert_eq!(
            a,
            json!({"text": {"selector": "p"}, "name": {"role": "textbox"}})
        );
        let mut a = json!({"exact": false});
        assert!(
            lift(Some("ref"), &mut a, &[])
                .unwrap_err()
                .contains("names a role")
        );
        assert_eq!(
            loc(json!({"role": "button", "name": "Pay", "within": "region \"Cart\"", "nth": 1}))
                .words(),
            "button \"Pay\" in region \"Cart\" (nth 1)"
        );
        assert_eq!(
            Within::Text("region \"Cart\"".into()).engine(),
            json!({"role": "region", "name": "Cart"})
        );
        assert_eq!(
            Within::Text("main".into()).engine(),
            json!({"role": "main"})
        );
        assert_eq!(
            Within::Text("@s2e5".into()).engine(),
            json!({"ref": "s2e5"})
        );
    }
}
