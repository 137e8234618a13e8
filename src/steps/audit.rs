//! `audit` (docs/reference/audit.md): the page's accessibility problems in the words of the
//! snapshot. axe-core (vendored, run in the engine's sandbox of every frame:
//! engine/audit.rs) finds rule violations; each element it names is given with its ref,
//! role, name and its line in the snapshot the audit takes first (the refs are live: act
//! on them). Then what axe does not check, from what the engine knows: elements the page
//! makes clickable that a keyboard cannot use (js/src/85_audit.js), and focus that Tab
//! cannot move out of a region (a Tab walk with real key presses).
//!
//! Owns: the audit's arguments and words. Must not: run axe or read the page itself (the
//! engine does).

use super::act::{Act, Core, Cx, Info, Kind, row};
use crate::actions::{Outcome, ask};
use crate::browser::Browser;
use crate::engine::entry;
use crate::error::Result;
use crate::wire::audit::{AuditKeyboardReply, AuditNode};
use clap::Args;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// `audit`: accessibility violations by rule, each element with its ref and snapshot line,
/// and keyboard problems axe does not check.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AuditArgs {
    /// Only these axe-core rules (comma-separated ids: button-name,color-contrast).
    #[serde(default)]
    #[arg(long)]
    pub rules: Option<String>,
    /// Without the Tab walk (it presses Tab to find focus traps, and moves focus).
    #[serde(default)]
    #[arg(long)]
    pub no_tab: bool,
}

/// The most Tab presses of a walk.
const TAB_MAX: usize = 60;

/// `WCAG 4.1.2` from axe-core's tags (`wcag412`), the criteria a rule maps to; else
/// `best practice`.
fn wcag_of(tags: &[Value]) -> String {
    let mut out: Vec<String> = Vec::new();
    for t in tags.iter().filter_map(Value::as_str) {
        let Some(d) = t.strip_prefix("wcag") else {
            continue;
        };
        if d.len() < 3 || !d.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let (a, b, c) = (&d[..1], &d[1..2], &d[2..]);
        let s = format!("WCAG {a}.{b}.{c}");
        if !out.contains(&s) {
            out.push(s);
        }
    }
    if out.is_empty() {
        "best practice".into()
    } else {
        out.join(", ")
    }
}

/// The line of the snapshot's text that shows `r` (1-based).
fn line_of(text: &str, r: &str) -> Option<usize> {
    let needle = format!("[ref={r}]");
    text.lines()
        .position(|l| l.contains(&needle))
        .map(|i| i + 1)
}

/// One element as the audit names it: `button s3e4 "Save" (line 12)`, or by its selector
/// when the snapshot gave it no ref.
fn node_words(n: &AuditNode, selector: &str, text: &str) -> String {
    let role = n.role.clone().unwrap_or_else(|| n.tag.clone());
    let role = if role.is_empty() {
        "element".into()
    } else {
        role
    };
    let name = if n.name.is_empty() {
        String::new()
    } else {
        format!(" {}", crate::safe::quote(&n.name))
    };
    match &n.ref_ {
        Some(r) => match line_of(text, r) {
            Some(l) => format!("{role} {r}{name} (line {l})"),
            None => format!("{role} {r}{name}"),
        },
        None => format!(
            "{role}{name} {} (no ref)",
            crate::snapshot::render::cut(selector, 120)
        ),
    }
}

/// The selector axe gives an element, as text (its last part; a shadow path joined).
fn selector_text(target: &Value) -> String {
    let last = target.as_array().and_then(|a| a.last()).unwrap_or(target);
    match last {
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" >>> "),
        other => other.to_string(),
    }
}

fn impact_rank(i: &str) -> u8 {
    match i {
        "critical" => 0,
        "serious" => 1,
        "moderate" => 2,
        "minor" => 3,
        _ => 4,
    }
}

/// `audit`.
pub(super) async fn audit(b: &mut Browser, a: &AuditArgs) -> Result<Outcome> {
    use crate::query::view::{View, ViewFormat, render_view};
    // a snapshot first: the refs the audit names are its refs, its lines their lines
    let args = super::SnapshotArgs {
        all_refs: true,
        ..Default::default()
    };
    let v = super::looking::view(b, &args, &Default::default()).await?;
    let number = match &v {
        View::Tree(s, _) | View::Budgeted(s, _) => s.number,
        View::Data(_) => 0,
    };
    let text = render_view(&v, ViewFormat::Text, false, false)?;
    let tab = b.record.current_handle();
    let run = crate::engine::audit::run_axe(&b.page, &tab).await?;
    let wanted: Option<Vec<&str>> = a
        .rules
        .as_deref()
        .map(|r| r.split(',').map(str::trim).collect());
    let mut rules: Vec<&Value> = run
        .violations
        .iter()
        .filter(|v| {
            wanted
                .as_ref()
                .is_none_or(|w| w.contains(&v["id"].as_str().unwrap_or("")))
        })
        .collect();
    rules.sort_by_key(|v| impact_rank(v["impact"].as_str().unwrap_or("")));
    let targets: Vec<Value> = rules
        .iter()
        .flat_map(|v| v["nodes"].as_array().into_iter().flatten())
        .map(|n| n["target"].clone())
        .collect();
    let named = crate::engine::audit::name_targets(&b.page, &run, &targets).await;
    let mut violations = Map::new();
    let (mut k, mut elements) = (0, 0);
    for v in &rules {
        let key = format!(
            "{} ({}, {}): {}",
            v["id"].as_str().unwrap_or(""),
            v["impact"].as_str().unwrap_or("?"),
            wcag_of(v["tags"].as_array().map(Vec::as_slice).unwrap_or(&[])),
            v["help"].as_str().unwrap_or("")
        );
        let mut lines = Vec::new();
        for n in v["nodes"].as_array().into_iter().flatten() {
            let node = named.get(k).cloned().unwrap_or_default();
            lines.push(json!(node_words(
                &node,
                &selector_text(&n["target"]),
                &text
            )));
            k += 1;
            elements += 1;
        }
        violations.insert(key, Value::Array(lines));
    }
    let keyboard = keyboard_problems(b, a, &text).await?;
    let mut out = json!({
        "axe": crate::engine::audit::axe_version(),
        "snapshot": format!("s{number}"),
        "violations": violations,
        "keyboard": keyboard,
        "summary": format!(
            "{} rule{} violated on {elements} element{}; {} keyboard problem{}; {} check{} for a person to review (axe's incomplete)",
            rules.len(), plural(rules.len()), plural(elements), keyboard.len(), plural(keyboard.len()),
            run.incomplete, plural(run.incomplete)
        ),
    });
    if run.frames_failed > 0 {
        out["framesNotChecked"] = json!(run.frames_failed);
    }
    Ok(Outcome::with(out))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The keyboard problems: clickable elements a keyboard cannot use, and focus traps.
async fn keyboard_problems(b: &Browser, a: &AuditArgs, text: &str) -> Result<Vec<Value>> {
    let kb: AuditKeyboardReply = ask(b, entry::AuditKeyboard {}).await?;
    let mut out: Vec<Value> = kb
        .problems
        .iter()
        .map(|p| {
            json!(format!(
                "{}: {}",
                node_words(p, &p.tag, text),
                p.problem.clone().unwrap_or_default()
            ))
        })
        .collect();
    if !a.no_tab
        && let Some(t) = focus_trap(b, text).await?
    {
        out.push(json!(t));
    }
    Ok(out)
}

/// Presses Tab up to [`TAB_MAX`] times and watches where focus goes: focus that comes back
/// to an element it was on without having left the page's elements (the document, or the
/// browser's own UI, between the last element and the first) and without having visited
/// every element a keyboard can reach is trapped, unless the cycle is inside an open modal
/// dialog (WAI-ARIA APG, dialog (modal): Tab is meant to stay in it).
async fn focus_trap(b: &Browser, text: &str) -> Result<Option<String>> {
    let mut seen: Vec<u64> = Vec::new();
    let mut left_page = false;
    for _ in 0..TAB_MAX {
        crate::actions::press(b, "Tab", None).await?;
        let f: AuditNode = ask(b, entry::FocusStep {}).await?;
        if f.none {
            left_page = true;
            continue;
        }
        if let Some(i) = seen.iter().position(|x| *x == f.id) {
            if left_page {
                return Ok(None);
            }
            let cycle: Vec<u64> = seen[i..].to_vec();
            if f.modal {
                return Ok(None);
            }
            let region: AuditNode = ask(b, entry::TrapRegion { ids: cycle.clone() }).await?;
            return Ok(Some(format!(
                "{}: focus cannot leave it with Tab (it cycles through {} element{})",
                node_words(&region, &region.tag, text),
                cycle.len(),
                plural(cycle.len())
            )));
        }
        seen.push(f.id);
    }
    Ok(None)
}

// The declarations of these actions (docs/contributing.md#adding-an-action).

impl Act for AuditArgs {
    #[rustfmt::skip]
    const INFO: Info = row(Kind::ChangesPage, "Done", "browser_audit", "value", r#"true or {"rules": "button-name,color-contrast", "noTab": true}"#);
    const CORE: Option<Core> = Some(Core {
        rank: 11,
        description: Some(
            "Accessibility audit (axe-core, keyboard): violations by rule, each element by ref.",
        ),
        props: &[("rules", "")],
    });
    async fn run(&self, cx: &mut Cx<'_>) -> Result<Outcome> {
        audit(cx.b, self).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wcag_criteria_come_from_axe_tags() {
        let t = |v: &[&str]| wcag_of(&v.iter().map(|s| json!(s)).collect::<Vec<_>>());
        assert_eq!(
            t(&["cat.name-role-value", "wcag2a", "wcag412"]),
            "WCAG 4.1.2"
        );
        assert_eq!(t(&["wcag2aa", "wcag143"]), "WCAG 1.4.3");
        assert_eq!(t(&["wcag21aa", "wcag1412"]), "WCAG 1.4.12");
        assert_eq!(t(&["best-practice"]), "best practice");
    }

    #[test]
    fn elements_are_named_by_ref_and_line_or_by_selector() {
        let text = "- main:\n  - button [ref=s3e4]\n";
        let n = AuditNode {
            ref_: Some("s3e4".into()),
            role: Some("button".into()),
            ..Default::default()
        };
        assert_eq!(node_words(&n, "#x", text), "button s3e4 (line 2)");
        let img = AuditNode {
            tag: "img".into(),
            ..Default::default()
        };
        assert_eq!(node_words(&img, "img.logo", text), "img img.logo (no ref)");
        assert_eq!(
            selector_text(&json!(["iframe", ["#host", "button"]])),
            "#host >>> button"
        );
    }
}
