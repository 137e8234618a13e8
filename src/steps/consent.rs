//! Consent the model cannot give (docs/reference/policy.md#consent): before a step does what
//! the operator's `--confirm` rules name (clicks something whose name matches, submits a form
//! to a matching URL, navigates to a matching origin, downloads), a person is asked through
//! the surface the agent came by: the MCP client's user through elicitation, or the
//! controlling terminal of a command. No answer, a no, or no one to ask: the step fails with
//! exit 5 and nothing of it ran. Every question and its answer go to the session's consent
//! log (`sessions-v1/NAME.consent.jsonl`, 0600), which the session's journal will take in.
//!
//! Owns: what a step would do in the rules' terms (asking the engine about its target), the
//! question's preview, and the log. Must not: ask an MCP client itself (mcp/ gives an
//! [`Asker`]; ask.rs holds the question and the terminal's way of asking), or act.

use super::action::{Action, Step};
pub use super::ask::{Answer, Asker, AskerRef, Question, Terminal, WAIT};
use super::ask::{cut, masked};
use super::options::RunOptions;
use crate::actions::ask;
use crate::browser::Browser;
use crate::engine::entry;
use crate::error::{Error, Result};
use crate::wire::{ConsentReply, FormPreview};
use serde_json::json;

/// What a step would do, in the rules' terms.
#[derive(Debug, Default)]
struct Intent {
    /// The element it acts on, and how the step named it (`s3e12`, a point, the focused
    /// element).
    target: Option<(ConsentReply, String)>,
    /// A navigation the agent asked for (goto, newTab).
    to: Option<String>,
    /// The agent's script (eval, poll, hooks).
    script: Option<String>,
}

/// The engine's view of an action's target.
/// (`ask` runs a call about a ref in the frame that minted it, any other in the tab's document.)
async fn target(
    b: &Browser,
    m: entry::ConsentTarget,
    named: String,
) -> Result<Option<(ConsentReply, String)>> {
    Ok(Some((ask(b, m).await?, named)))
}

fn consent_method(r: Option<&str>, enter: bool, submit: bool) -> Result<entry::ConsentTarget> {
    Ok(entry::ConsentTarget {
        r#ref: r.map(crate::refs::parse_ref).transpose()?,
        selector: None,
        x: None,
        y: None,
        enter,
        submit,
    })
}

/// What `step` would do, asking the engine only when a rule could care.
async fn intent(b: &Browser, step: &Step, scripts: bool) -> Result<Intent> {
    let mut i = Intent::default();
    let named = |r: Option<&str>| r.unwrap_or("the focused element").to_string();
    match &step.action {
        Action::Click(a) => match (&a.ref_, a.x, a.y) {
            (Some(r), _, _) => {
                i.target = target(b, consent_method(Some(r), false, false)?, r.clone()).await?
            }
            (None, Some(x), Some(y)) => {
                let m = entry::ConsentTarget {
                    r#ref: None,
                    selector: None,
                    x: Some(x),
                    y: Some(y),
                    enter: false,
                    submit: false,
                };
                i.target = target(b, m, format!("the point ({x}, {y})")).await?;
            }
            _ => {}
        },
        Action::Check(_) | Action::Uncheck(_) => {
            let r = step.action.target_ref().unwrap_or_default();
            i.target = target(b, consent_method(Some(r), false, false)?, r.to_string()).await?;
        }
        Action::Press(p) if matches!(p.key.as_str(), "Enter" | "NumpadEnter" | " " | "Space") => {
            let enter = p.key.ends_with("Enter");
            let m = consent_method(p.ref_.as_deref(), enter, false)?;
            i.target = target(b, m, named(p.ref_.as_deref())).await?;
        }
        Action::Type(t) if t.submit => {
            let m = consent_method(t.ref_.as_deref(), true, false)?;
            i.target = target(b, m, named(t.ref_.as_deref())).await?;
        }
        Action::Submit(s) => {
            let m = entry::ConsentTarget {
                r#ref: s.ref_.as_deref().map(crate::refs::parse_ref).transpose()?,
                selector: s.selector.clone(),
                x: None,
                y: None,
                enter: false,
                submit: true,
            };
            let n = s.ref_.clone().or(s.selector.clone()).unwrap_or_default();
            i.target = target(b, m, n).await?;
        }
        Action::Goto(g) => i.to = Some(crate::browser::normalize_url(&g.url)?),
        Action::NewTab(t) => {
            if let Some(u) = &t.url {
                i.to = Some(crate::browser::normalize_url(u)?);
            }
        }
        Action::Eval(e) if scripts => i.script = Some(e.expression.clone()),
        Action::Poll(p) if scripts => i.script = Some(p.fn_.clone()),
        _ => {}
    }
    if scripts && i.script.is_none() && !step.hooks.is_empty() {
        let h = &step.hooks;
        let parts: Vec<String> = [
            h.ready_when
                .as_ref()
                .map(|p| format!("readyWhen: {}", p.fn_)),
            h.settled_when
                .as_ref()
                .map(|p| format!("settledWhen: {}", p.fn_)),
            h.observe.as_ref().map(|p| format!("observe: {}", p.fn_)),
        ]
        .into_iter()
        .flatten()
        .collect();
        i.script = Some(parts.join("; "));
    }
    Ok(i)
}

/// The rules `i` falls under, and what it would do in words.
fn matched(
    rules: &[crate::policy::ConfirmRule],
    i: &Intent,
    scripts: bool,
) -> (Vec<String>, String) {
    let mut hit = Vec::new();
    let mut what = String::new();
    if let Some((t, named)) = &i.target {
        let el = format!("{} {}", t.role, crate::safe::quote(&t.name));
        what = match &t.form {
            Some(f) => format!("submit a form to {} (by {el}, {named})", f.action),
            None => format!("activate {el} ({named})"),
        };
        for r in rules {
            let by_name = r.matches_click(&t.name);
            let by_form = t
                .form
                .as_ref()
                .is_some_and(|f| r.matches_form(&f.action) || r.matches_navigation(&f.action));
            let by_link = !t.href.is_empty() && r.matches_navigation(&t.href);
            let by_download = t.download && r.is_download();
            if by_name || by_form || by_link || by_download {
                hit.push(r.to_string());
            }
        }
    }
    if let Some(to) = &i.to {
        what = format!("open {to}");
        hit.extend(
            rules
                .iter()
                .filter(|r| r.matches_navigation(to))
                .map(ToString::to_string),
        );
    }
    if let Some(s) = &i.script
        && scripts
    {
        what = format!("run a script in the page: {}", cut(s, 200));
        hit.push("scripts (they could click, submit or navigate past the rules: --deny eval refuses them instead)".into());
    }
    hit.dedup();
    (hit, masked(&what))
}

/// Asks a person before `step` when the session's rules name what it would do; Err (exit
/// 5) when no person allowed it. Nothing of the step has run yet.
pub(super) async fn gate(b: &Browser, step: &Step, opts: &RunOptions) -> Result<()> {
    let Some(p) = b.policy().filter(|p| p.asks()) else {
        return Ok(());
    };
    // a script could do what the rules guard; with eval off it is refused anyway
    let scripts =
        p.allows(crate::policy::Switch::Eval) && p.confirm.iter().any(|r| r.guards_scripts());
    let i = intent(b, step, scripts).await?;
    let (rules, what) = matched(&p.confirm, &i, scripts);
    if rules.is_empty() {
        return Ok(());
    }
    let action = format!(
        "{} {}",
        step.action.name(),
        i.target
            .as_ref()
            .map(|t| t.1.as_str())
            .or(i.to.as_deref())
            .unwrap_or("")
    );
    let q = Question {
        action: action.trim().to_string(),
        what,
        rules,
        page: format!("{} ({})", b.title().await, b.url().await),
        element: i.target.as_ref().map(|(t, named)| {
            let r = if crate::refs::parse_ref(named).is_ok() {
                format!(" [ref={named}]")
            } else {
                String::new()
            };
            format!("- {} {}{r}", t.role, crate::safe::quote(&t.name))
        }),
        form: i
            .target
            .as_ref()
            .and_then(|t| t.0.form.clone())
            .map(mask_form),
        to: i.to.clone().or_else(|| {
            i.target
                .as_ref()
                .map(|t| t.0.href.clone())
                .filter(|h| !h.is_empty())
        }),
        script: i.script.clone(),
    };
    decide(b, &q, opts).await
}

/// The form's values with the operator's secrets and secret-shaped values masked.
fn mask_form(mut f: FormPreview) -> FormPreview {
    for fl in &mut f.fields {
        fl.value = masked(&fl.value);
        fl.name = masked(&fl.name);
    }
    f.action = masked(&f.action);
    f
}

/// Asks `q` through the run's asker, logs question and answer, and turns a refusal into
/// the step's error.
async fn decide(b: &Browser, q: &Question, opts: &RunOptions) -> Result<()> {
    let (how, answer) = match &opts.asker {
        Some(a) => {
            let answer = tokio::select! {
                a = a.0.ask(q) => a,
                _ = opts.until_cancelled() => Answer::Refused("the agent's call was cancelled while the question waited".into()),
            };
            (a.0.how(), answer)
        }
        None => (
            "nobody",
            Answer::Refused("there is no one to ask here".into()),
        ),
    };
    log(b, q, how, &answer);
    match answer {
        Answer::Allowed => Ok(()),
        Answer::Refused(why) => Err(Error::Consent(format!(
            "{}: the operator's rule {} asks a person first, and {why}; nothing of it was done",
            q.what,
            q.rules
                .iter()
                .map(|r| format!("--confirm {r}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// After a step: a download it started that no question covered (the page decided it,
/// by its server's answer or a script) is asked about now; refused, the file is deleted and
/// the step fails.
pub(super) async fn after_downloads(
    b: &Browser,
    step: &Step,
    files: &[String],
    opts: &RunOptions,
) -> Result<()> {
    let Some(p) = b.policy() else { return Ok(()) };
    let Some(rule) = p.confirm.iter().find(|r| r.is_download()) else {
        return Ok(());
    };
    if files.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            std::path::Path::new(f)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect();
    let q = Question {
        action: step.action.name().to_string(),
        what: masked(&format!(
            "keep the file the page downloaded after a {} ({})",
            step.action.name(),
            names.join(", ")
        )),
        rules: vec![rule.to_string()],
        page: format!("{} ({})", b.title().await, b.url().await),
        ..Question::default()
    };
    let r = decide(b, &q, opts).await;
    if r.is_err() {
        for f in files {
            let _ = std::fs::remove_file(f);
        }
    }
    r.map_err(|e| match e {
        Error::Consent(m) => {
            Error::Consent(m.replace("nothing of it was done", "the downloaded file was deleted"))
        }
        e => e,
    })
}

/// Appends the question and its answer to the session's consent log (0600), masked.
fn log(b: &Browser, q: &Question, how: &str, answer: &Answer) {
    let Ok(dir) = crate::browser::session::sessions_dir() else {
        return;
    };
    let at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut line = json!({
        "at": at,
        "session": b.record.name,
        "sessionStarted": b.record.created,
        "question": q.log_json(),
        "asked": how,
        "answer": match answer {
            Answer::Allowed => "allowed".to_string(),
            Answer::Refused(why) => format!("refused: {why}"),
        },
    });
    crate::vault::mask_json(&mut line);
    let path = log_path(&dir, &b.record.name);
    if let Ok(mut f) = crate::private::append_file(&path) {
        use std::io::Write;
        let _ = writeln!(f, "{line}");
    }
}

/// The consent log of session `name` in the sessions directory `dir`.
pub fn log_path(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    dir.join(format!("{name}.consent.jsonl"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::ConfirmRule;

    fn rules(r: &[&str]) -> Vec<ConfirmRule> {
        r.iter().map(|s| ConfirmRule::parse(s).unwrap()).collect()
    }

    fn on(role: &str, name: &str) -> Intent {
        Intent {
            target: Some((
                ConsentReply {
                    role: role.into(),
                    name: name.into(),
                    ..Default::default()
                },
                "s1e4".into(),
            )),
            ..Default::default()
        }
    }

    #[test]
    fn rules_match_what_a_step_would_do() {
        let r = rules(&[
            "click:Pay*",
            "form:https://shop.example/checkout*",
            "origin:bank.example",
            "download",
        ]);
        let (hit, what) = matched(&r, &on("button", "Pay now"), false);
        assert_eq!(hit, ["click:Pay*"]);
        assert_eq!(what, "activate button \"Pay now\" (s1e4)");
        assert!(matched(&r, &on("button", "Save"), false).0.is_empty());
        let mut form = on("button", "Continue");
        if let Some((t, _)) = &mut form.target {
            t.form = Some(FormPreview {
                action: "https://shop.example/checkout/confirm".into(),
                method: "post".into(),
                fields: vec![],
            });
        }
        let (hit, what) = matched(&r, &form, false);
        assert_eq!(hit, ["form:https://shop.example/checkout*"]);
        assert!(
            what.starts_with("submit a form to https://shop.example/checkout/confirm"),
            "{what}"
        );
        let mut link = on("link", "Statements");
        if let Some((t, _)) = &mut link.target {
            t.href = "https://bank.example/statements.pdf".into();
            t.download = true;
        }
        assert_eq!(
            matched(&r, &link, false).0,
            ["origin:bank.example", "download"]
        );
        let nav = Intent {
            to: Some("https://bank.example/".into()),
            ..Default::default()
        };
        assert_eq!(matched(&r, &nav, false).0, ["origin:bank.example"]);
        let script = Intent {
            script: Some("document.querySelector('#pay').click()".into()),
            ..Default::default()
        };
        assert!(matched(&r, &script, false).0.is_empty());
        assert!(matched(&r, &script, true).0[0].starts_with("scripts"));
    }

    #[test]
    fn the_question_previews_with_secrets_masked() {
        let _t = crate::vault::tests::TURN
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        crate::vault::register("CARD_PIN", "8642-1357");
        let q = Question {
            action: "click s1e4".into(),
            what: "activate button \"Pay now\" (s1e4)".into(),
            rules: vec!["click:Pay*".into()],
            page: "Checkout (https://shop.example/checkout)".into(),
            element: Some("- button \"Pay now\" [ref=s1e4]".into()),
            form: Some(mask_form(FormPreview {
                action: "https://shop.example/pay".into(),
                method: "post".into(),
                fields: vec![crate::wire::FieldPreview {
                    name: "PIN".into(),
                    value: "8642-1357".into(),
                    hidden: false,
                }],
            })),
            ..Default::default()
        };
        let t = q.text();
        crate::vault::clear();
        assert!(
            t.contains("wants to activate button \"Pay now\" (s1e4)"),
            "{t}"
        );
        assert!(t.contains("(--confirm click:Pay*)"), "{t}");
        assert!(
            t.contains("Form: POST https://shop.example/pay\n  PIN: [secret:CARD_PIN]\n"),
            "{t}"
        );
        assert!(!t.contains("8642"), "{t}");
    }
}
