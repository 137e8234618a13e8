//! The session's journal (docs/reference/step-files.md#the-journal): every step an agent ran
//! on a session, through the CLI, a step file or MCP, one JSON line each, with the locator
//! of its target as it was when it ran, its values (a password's or a secret's as a
//! placeholder), and what the run's reply said changed; and what is made of it: a step file
//! with locators, waits and checks (`session export`), or a `@playwright/test` spec.
//!
//! Owns: the journal's file and lines, and both exports. Must not: act on the page (it
//! reads the locators the runner took) or print (the caller does).

use super::action::{Action, Step};
use super::locate::Locator;
use super::result::StepResult;
use crate::browser::Browser;
use crate::error::{Error, Result};
use crate::wire::DescribeReply;
use serde_json::{Map, Value, json};
use std::io::Write;
use std::path::PathBuf;

mod playwright;
pub use playwright::export_playwright;

/// What a secret's value is written as, in the journal and in exports.
pub const SECRET: &str = "[secret]";

/// The journal of session `name`: `journals-v1/<name>.jsonl` in the state directory (0600,
/// its folder 0700).
pub fn path(name: &str) -> PathBuf {
    crate::private::home()
        .join("journals-v1")
        .join(format!("{name}.jsonl"))
}

/// Whether a step goes into the journal: what acts on the page or waits on it, and what
/// changes the tab the next steps act on (looking and reading steps do not change what a
/// replay must do).
/// (`frame` changes where the next steps act; a screenshot of an element is kept with its
/// locator.)
pub(super) fn journaled(a: &Action) -> bool {
    a.modifies_page()
        || matches!(
            a,
            Action::Wait(_)
                | Action::Assert(_)
                | Action::WaitForNavigation(_)
                | Action::NewTab(_)
                | Action::SwitchTab(_)
                | Action::CloseTab(_)
                | Action::Frame(_)
        )
        || matches!(a, Action::Screenshot(s) if s.ref_.is_some())
}

/// The locators of a step's targets, taken before it acts (the journal's): its target's,
/// a drag's ends' (by `from` and `to`), a fields map's fields' (by ref).
#[derive(Debug, Default)]
pub struct Seen {
    target: Option<DescribeReply>,
    more: Vec<(String, Option<DescribeReply>)>,
}

impl Seen {
    fn of(&self, k: &str) -> Option<&DescribeReply> {
        self.more
            .iter()
            .find(|(x, _)| x == k)
            .and_then(|(_, d)| d.as_ref())
    }
}

/// Takes the locators of what a journaled step is about to act on ([`Seen`]).
pub async fn seen(b: &Browser, a: &Action) -> Seen {
    use super::locate::describe;
    use super::moving::DragEnd;
    let mut s = Seen::default();
    if !journaled(a) {
        return s;
    }
    if let Some(r) = a.target_ref() {
        s.target = describe(b, r).await;
    }
    match a {
        Action::Drag(d) => {
            for (k, e) in [("from", &d.from), ("to", &d.to)] {
                if let DragEnd::Ref(r) = e {
                    s.more.push((k.into(), describe(b, r).await));
                }
            }
        }
        Action::Fill(f) => {
            for r in f.fields.iter().flat_map(|m| m.keys()) {
                s.more.push((r.clone(), describe(b, r).await));
            }
        }
        _ => {}
    }
    s
}

fn append(b: &Browser, mut line: Value) {
    let p = path(&b.record.name);
    let mut write = || -> std::result::Result<(), crate::private::Failed> {
        if let Some(d) = p.parent() {
            crate::private::make_dir(d)?;
        }
        let mut f = crate::private::append_file(&p)?;
        line["n"] = json!(last_n(&mut f).unwrap_or(0) + 1);
        // an operator's secret (docs/reference/policy.md#secrets) never reaches the file
        let text = line.to_string();
        let _ = writeln!(f, "{}", crate::vault::mask(&text));
        Ok(())
    };
    // the journal is a record, never a reason for a step to fail
    if let Err(e) = write() {
        tracing::debug!("journal: {} {}: {}", e.action, e.path.display(), e.source);
    }
}

/// The `n` of the journal's last line, read from the end of the file (a step's cost does
/// not grow with the journal); None for an empty file. A last line that does not parse (a
/// write cut short) is passed over: the count of whole lines before it is its `n`.
fn last_n(f: &mut std::fs::File) -> Option<u64> {
    use std::io::{Read, Seek, SeekFrom};
    let len = f.seek(SeekFrom::End(0)).ok()?;
    let mut tail: Vec<u8> = Vec::new();
    let mut at = len;
    // the last line ends at the file's last newline; it starts after the one before
    loop {
        let body = tail.strip_suffix(b"\n").unwrap_or(&tail);
        if let Some(i) = body.iter().rposition(|&c| c == b'\n') {
            return n_of(&body[i + 1..]).or_else(|| count_lines(f));
        }
        if at == 0 {
            return if body.is_empty() {
                None
            } else {
                n_of(body).or_else(|| count_lines(f))
            };
        }
        let step = at.min(4096);
        at -= step;
        let mut chunk = vec![0; step as usize];
        f.seek(SeekFrom::Start(at)).ok()?;
        f.read_exact(&mut chunk).ok()?;
        chunk.extend_from_slice(&tail);
        tail = chunk;
    }
}

fn n_of(line: &[u8]) -> Option<u64> {
    serde_json::from_slice::<Value>(line).ok()?["n"].as_u64()
}

/// The whole lines of the file (the slow way, for a journal whose last line is cut).
fn count_lines(f: &mut std::fs::File) -> Option<u64> {
    use std::io::{Read, Seek, SeekFrom};
    f.seek(SeekFrom::Start(0)).ok()?;
    let mut t = Vec::new();
    f.read_to_end(&mut t).ok()?;
    Some(t.iter().filter(|&&c| c == b'\n').count() as u64)
}

/// A value as the journal keeps it: a secret field's (or a secret-shaped text's) replaced.
fn scrub(v: &mut Value, secret: bool) {
    match v {
        Value::String(s) => {
            let mut t = s.clone();
            if secret || crate::snapshot::secrets::mask_in_place(&mut t) {
                *s = SECRET.into();
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| scrub(x, secret)),
        _ => {}
    }
}

/// The action's options without nulls and unset flags.
fn options(a: &Action) -> (String, Map<String, Value>) {
    let v = serde_json::to_value(a).unwrap_or(Value::Null);
    let Some((k, arg)) = v.as_object().and_then(|m| m.iter().next()) else {
        return (a.name().into(), Map::new());
    };
    let mut m = match arg {
        Value::Object(m) => m.clone(),
        Value::Null => Map::new(),
        other => Map::from_iter([(
            super::action::ActionKind::from_name(k)
                .map_or("value", |x| x.info().scalar)
                .to_string(),
            other.clone(),
        )]),
    };
    // (a false `value` or `checked` is a value: set's unchecking)
    let unset =
        |k: &str, v: &Value| v.is_null() || (v == &json!(false) && k != "value" && k != "checked");
    m.retain(|k, v| !unset(k, v));
    (k.clone(), m)
}

/// Records a step that ran (`seen`: its targets' locators taken before it acted).
pub fn record(b: &Browser, step: &Step, seen: &Seen, res: &StepResult) {
    if !journaled(&step.action) {
        return;
    }
    if let Action::Fill(f) = &step.action
        && let Some(fields) = &f.fields
    {
        // one line per field, each with its own locator
        for (r, v) in fields {
            let d = seen.of(r);
            let mut args = Map::from_iter([("value".to_string(), v.clone())]);
            if d.is_none() {
                args.insert("ref".into(), json!(r));
            }
            let mut v = Value::Object(args);
            scrub(&mut v["value"], d.is_some_and(|d| d.secret));
            append(b, line("fill", v, d, None, res));
        }
        return;
    }
    let (name, mut args) = options(&step.action);
    let target = seen.target.as_ref();
    let secret = target.is_some_and(|d| d.secret);
    // the values a step types or sets (type's `text` is what it types)
    let typed = matches!(step.action, Action::Type(_));
    for k in ["value", "values", "text"] {
        if k == "text" && !typed {
            continue;
        }
        if let Some(v) = args.get_mut(k) {
            scrub(v, secret);
        }
    }
    if target.is_some() {
        args.remove(super::action::ref_key(&name));
    }
    // a drag's ends by their locators
    for k in ["from", "to"] {
        if let (Some(d), true) = (seen.of(k), matches!(step.action, Action::Drag(_))) {
            args.insert(k.into(), json!(Locator::of_described(d)));
        }
    }
    // a wait on a locator keeps it as it was given
    let given = match &step.action {
        Action::Wait(w) => w.locator.as_ref(),
        _ => None,
    };
    append(b, line(&name, Value::Object(args), target, given, res));
}

fn line(
    name: &str,
    args: Value,
    seen: Option<&DescribeReply>,
    given: Option<&Locator>,
    res: &StepResult,
) -> Value {
    let mut l = json!({"kind": "step", "action": name, "args": args, "status": res.status});
    if let Some(d) = seen {
        l["target"] = json!(Locator::of_described(d));
        if !d.path.is_empty() {
            l["path"] = json!(d.path);
        }
        // what the Playwright export needs beyond the locator (journal/playwright.rs)
        if let Some(e) = hints(d) {
            l["el"] = e;
        }
    } else if let Some(g) = given {
        l["target"] = json!(g);
    }
    if let Some(h) = &res.healed {
        l["healed"] = json!(h);
    }
    // the option an ARIA combobox's `set` picked (a Playwright export clicks it)
    if let Some(o) = res.output.as_ref().and_then(|o| o.get("option")) {
        l["option"] = o.clone();
    }
    if let Some(e) = &res.error {
        l["error"] = json!(e);
    }
    l
}

/// The element hints of a target for the Playwright export, without a CSS path shaped like
/// a secret: the path is made of the page's ids and classes, and a token in an id is left
/// out as values are masked.
fn hints(d: &DescribeReply) -> Option<Value> {
    let mut e = d.el.clone()?;
    let secret = e["css"].as_str().is_some_and(|c| {
        let mut c = c.to_string();
        crate::snapshot::secrets::mask_in_place(&mut c)
    });
    if secret && let Some(m) = e.as_object_mut() {
        m.remove("css");
    }
    Some(e)
}

/// Records what a run's reply said changed (the checks an export writes after its steps).
pub fn record_changes(b: &Browser, changes: Option<&Value>, context: &Value) {
    let Some(c) = changes else { return };
    let mut l = json!({"kind": "changes", "url": context["url"], "title": context["title"]});
    if let Some(s) = c.get("summary") {
        l["summary"] = s.clone();
    }
    if let Some(n) = c.get("navigated") {
        l["navigated"] = n.clone();
    }
    let added: Vec<Value> = c
        .get("added")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .take(8)
        .map(|a| {
            let mut e = json!({"role": a["role"], "name": a["name"], "text": a["text"]});
            // an item's controls, by role and name: the export's check for an item with them
            let controls: Vec<Value> = a["controls"]
                .as_array()
                .into_iter()
                .flatten()
                .take(4)
                .map(|c| json!({"role": c["role"], "name": c["name"]}))
                .collect();
            if !controls.is_empty() {
                e["controls"] = json!(controls);
            }
            e
        })
        .collect();
    if !added.is_empty() {
        l["added"] = json!(added);
    }
    append(b, l);
}

/// The journal's lines of session `name`, from line `from` on (1 is the first).
pub fn read(name: &str, from: u64) -> Result<Vec<Value>> {
    let p = path(name);
    let text = std::fs::read_to_string(&p).map_err(|e| {
        Error::Usage(format!(
            "session {name:?} has no journal ({}: {e}): its steps are recorded as they run; run some first",
            p.display()
        ))
    })?;
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["n"].as_u64().unwrap_or(0) >= from)
        .collect())
}

/// Roles whose name is their text on the page: an added one is a check `assert` can make.
/// Not the live regions (`status`, `alert`, `log`): their messages are announcements a page
/// may take away at any moment (a toast shown for 700 ms; WAI-ARIA 1.2 `status`: "advisory
/// information"), no state that still holds when the next step runs.
const TEXT_ROLES: &[&str] = &[
    "heading",
    "paragraph",
    "text",
    "listitem",
    "cell",
    "link",
    "button",
    "strong",
];

/// The check a run's reply gives (docs/reference/step-files.md#export): where it navigated,
/// else the first text it added.
fn check_of(changes: &Value) -> Option<Value> {
    // where it navigated: the journal line's `url` (the run's context.url); `navigated.to`
    // in journals written before replies said it once
    let to = changes["navigated"]["to"]
        .as_str()
        .or_else(|| changes.get("navigated").and(changes["url"].as_str()));
    if let Some(to) = to {
        return Some(json!({"wait": {"url": url_tail(to)}}));
    }
    let added = changes["added"].as_array()?;
    added.iter().find_map(|a| {
        let role = a["role"].as_str()?;
        if !TEXT_ROLES.contains(&role) {
            return None;
        }
        let words = a["text"].as_str().filter(|t| !t.is_empty());
        let controls = a["controls"].as_array().filter(|c| !c.is_empty());
        if let (Some(_), Some(controls)) = (words, controls) {
            // An item's words are its pieces joined around its controls (a card's brand, then
            // its price, with the title link between them; a part named by its aria-label), so
            // the page shows no such run of text for `assert` to find. Its check is the first
            // of its controls no other added item has, found by role and name.
            return controls
                .iter()
                .find(|c| unique_control(added, c))
                .map(|c| json!({"wait": {"role": c["role"], "name": c["name"]}}));
        }
        let t = words.or(a["name"].as_str())?.trim();
        (!t.is_empty() && t != SECRET && !t.contains('\u{2026}'))
            .then(|| json!({"assert": {"text": cut_words(t, 60)}}))
    })
}

/// Whether control `c` (role and name) has a name and is the only one of its kind among the
/// controls of the items a reply added (twenty cards' "Add to basket" buttons are no check).
fn unique_control(added: &[Value], c: &Value) -> bool {
    let key = |c: &Value| {
        (
            c["role"].as_str().map(str::to_owned),
            c["name"].as_str().map(str::to_owned),
        )
    };
    let name = c["name"].as_str().unwrap_or("");
    !name.is_empty()
        && name != SECRET
        && !name.contains('\u{2026}')
        && added
            .iter()
            .filter_map(|a| a["controls"].as_array())
            .flatten()
            .filter(|o| key(o) == key(c))
            .count()
            == 1
}

/// A URL without its origin (a replay may run on another host or port).
fn url_tail(u: &str) -> String {
    match u
        .find("://")
        .and_then(|i| u[i + 3..].find('/').map(|j| i + 3 + j))
    {
        Some(j) => u[j..].to_string(),
        None => u.to_string(),
    }
}

/// At most `max` characters, cut at a word.
fn cut_words(t: &str, max: usize) -> String {
    if t.chars().count() <= max {
        return t.to_string();
    }
    let cut: String = t.chars().take(max).collect();
    cut.rsplit_once(' ')
        .map_or(cut.clone(), |(a, _)| a.to_string())
}

/// One journal step as a step file's step: its locator in place of the ref, inline where the
/// action has no option of that name (`type`'s `text` is what it types), else as `target`.
fn export_step(l: &Value, notes: &mut Vec<String>) -> Option<Value> {
    let action = l["action"].as_str()?;
    let mut args = l["args"].as_object().cloned().unwrap_or_default();
    if let Some(t) = l["target"].as_object() {
        let own = super::explain::option_names(action);
        if t.keys().any(|k| own.contains(k)) {
            args.insert("target".into(), Value::Object(t.clone()));
        } else {
            args.extend(t.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    } else if let Some(r) = args.get("ref").and_then(Value::as_str) {
        notes.push(format!(
            "step {} ({action}) keeps ref {r}: no locator was taken (another frame's element?); replace it",
            l["n"]
        ));
    }
    if args
        .values()
        .any(|v| v == SECRET || v.as_array().is_some_and(|a| a.contains(&json!(SECRET))))
    {
        notes.push(format!("step {} ({action}) has a secret's placeholder {SECRET}: put the value in before running it", l["n"]));
    }
    Some(json!({ action: Value::Object(args) }))
}

/// The steps a journal exports (those that ran ok) with locators, each run's check after its
/// last step, each with the journal line it came from (a check has none), and notes for the
/// user.
fn exported(lines: &[Value]) -> (Vec<(Value, Option<&Value>)>, Vec<String>) {
    let mut steps = Vec::new();
    let mut notes = Vec::new();
    let mut acted = false;
    for l in lines {
        match l["kind"].as_str() {
            Some("step") if l["status"] == "ok" => {
                if let Some(s) = export_step(l, &mut notes) {
                    acted = s.get("wait").is_none() && s.get("assert").is_none();
                    steps.push((s, Some(l)));
                }
            }
            Some("changes") if acted => {
                if let Some(c) = check_of(l) {
                    steps.push((c, None));
                }
                acted = false;
            }
            _ => {}
        }
    }
    (steps, notes)
}

/// The step file a journal exports (docs/reference/step-files.md#export): its steps with
/// locators and checks. Returns the file and notes for the user.
pub fn export_steps(lines: &[Value]) -> (Value, Vec<String>) {
    let (steps, notes) = exported(lines);
    let steps: Vec<Value> = steps.into_iter().map(|(s, _)| s).collect();
    (json!({ "steps": steps }), notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_locators_checks_and_placeholders() {
        let lines = vec![
            json!({"n": 1, "kind": "step", "action": "goto", "args": {"url": "http://127.0.0.1:5/shop.html"}, "status": "ok"}),
            json!({"n": 2, "kind": "changes", "navigated": {"from": "about:blank", "to": "http://127.0.0.1:5/shop.html"}}),
            json!({"n": 3, "kind": "step", "action": "fill", "args": {"value": SECRET}, "target": {"role": "textbox", "name": "Password"}, "status": "ok"}),
            json!({"n": 4, "kind": "step", "action": "type", "args": {"text": "ada"}, "target": {"role": "textbox", "text": "x"}, "status": "ok"}),
            json!({"n": 5, "kind": "step", "action": "click", "args": {}, "target": {"role": "button", "name": "Pay", "within": {"role": "region", "name": "Cart"}}, "status": "ok"}),
            json!({"n": 6, "kind": "changes", "added": [{"role": "heading", "name": "Order placed"}]}),
            json!({"n": 7, "kind": "step", "action": "click", "args": {}, "status": "error"}),
        ];
        let (f, notes) = export_steps(&lines);
        let steps = f["steps"].as_array().unwrap();
        assert_eq!(
            steps[0],
            json!({"goto": {"url": "http://127.0.0.1:5/shop.html"}})
        );
        assert_eq!(steps[1], json!({"wait": {"url": "/shop.html"}}));
        assert_eq!(
            steps[2],
            json!({"fill": {"value": SECRET, "role": "textbox", "name": "Password"}})
        );
        assert_eq!(
            steps[3]["type"]["target"],
            json!({"role": "textbox", "text": "x"})
        );
        assert_eq!(
            steps[4]["click"]["within"],
            json!({"role": "region", "name": "Cart"})
        );
        assert_eq!(steps[5], json!({"assert": {"text": "Order placed"}}));
        assert_eq!(steps.len(), 6, "{steps:?}");
        assert!(notes.iter().any(|n| n.contains("secret")), "{notes:?}");
    }

    #[test]
    fn a_live_regions_message_is_no_check() {
        let toast = json!({"added": [{"role": "status", "name": "", "text": "Code applied"}]});
        assert_eq!(check_of(&toast), None);
        let both = json!({"added": [{"role": "status", "text": "Saved"}, {"role": "heading", "name": "Order placed"}]});
        assert_eq!(
            check_of(&both),
            Some(json!({"assert": {"text": "Order placed"}}))
        );
    }

    #[test]
    fn an_item_with_controls_is_checked_by_its_first_unique_control() {
        let card = |brand: &str, title: &str| {
            json!({"role": "listitem", "name": "", "text": format!("{brand} 4.2 out of 5 stars $19"),
                "controls": [{"role": "link", "name": title, "ref": "s3e1"},
                             {"role": "button", "name": "Add to basket", "ref": "s3e2"}]})
        };
        let two =
            json!({"added": [card("Alpenglow", "Harris Tent"), card("Scree", "Kerrera Tent")]});
        assert_eq!(
            check_of(&two),
            Some(json!({"wait": {"role": "link", "name": "Harris Tent"}}))
        );
        // a twin of every control: no check from controls, none from the joined words
        let twins = json!({"added": [card("Alpenglow", "Tent"), card("Scree", "Tent")]});
        assert_eq!(check_of(&twins), None);
        // an item without controls keeps its words
        let row = json!({"added": [{"role": "listitem", "text": "oat milk", "controls": []}]});
        assert_eq!(
            check_of(&row),
            Some(json!({"assert": {"text": "oat milk"}}))
        );
    }

    #[test]
    fn the_next_line_number_comes_from_the_last_line() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("j.jsonl");
        let mut f = crate::private::append_file(&p).unwrap();
        assert_eq!(last_n(&mut f), None);
        // a last line longer than one read from the end
        let long = "x".repeat(10_000);
        writeln!(f, "{}", json!({"n": 1, "kind": "step"})).unwrap();
        writeln!(
            f,
            "{}",
            json!({"n": 2, "kind": "step", "args": {"text": long}})
        )
        .unwrap();
        assert_eq!(last_n(&mut f), Some(2));
        writeln!(f, "{}", json!({"n": 3})).unwrap();
        assert_eq!(last_n(&mut f), Some(3));
        // a last line cut short: the whole lines before it count
        write!(f, "{{\"n\": 4, \"ki").unwrap();
        assert_eq!(last_n(&mut f), Some(3));
    }

    #[test]
    fn a_css_path_shaped_like_a_secret_is_left_out() {
        let d = |css: &str| DescribeReply {
            role: "button".into(),
            name: String::new(),
            text: None,
            path: String::new(),
            container: None,
            nth: None,
            count: 1,
            secret: false,
            el: Some(json!({"tag": "button", "css": css})),
        };
        let jwt = "#t-eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U > span";
        assert_eq!(hints(&d(jwt)), Some(json!({"tag": "button"})));
        let plain = "div.toolbar > button:nth-of-type(2)";
        assert_eq!(hints(&d(plain)).unwrap()["css"], json!(plain));
    }

    #[test]
    fn secrets_never_stay() {
        let mut v = json!("hunter2");
        scrub(&mut v, true);
        assert_eq!(v, json!(SECRET));
        let mut v = json!(
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
        );
        scrub(&mut v, false);
        assert_eq!(v, json!(SECRET));
        let mut v = json!("ada@example.org");
        scrub(&mut v, false);
        assert_eq!(v, json!("ada@example.org"));
    }
}
