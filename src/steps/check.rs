//! The checks serde cannot make (which option goes with which), run on every step before
//! any step runs, and the keys a step may carry besides its action.

use super::action::Action;
use super::navigation::WAIT_UNTIL;
use super::shared::looks_like_ref;
use super::waiting::hook_problems;

/// What serde cannot check about an action's options (which go together, allowed words),
/// in the words of step files; empty when the action is well formed.
pub fn problems(action: &Action) -> Vec<String> {
    let mut out = Vec::new();
    match action {
        Action::Fill(f) => match (&f.ref_, f.value.is_some() || f.secret.is_some(), &f.fields) {
            (Some(_), true, None) if f.value.is_some() && f.secret.is_some() => {
                out.push("give value or secret, not both".into())
            }
            (Some(_), true, None) => {}
            (None, false, Some(m)) => {
                if m.is_empty() {
                    out.push("fields is empty: give at least one ref and its value".into());
                }
                for (k, v) in m {
                    if !looks_like_ref(k) {
                        out.push(format!(
                            "fields: {k:?} is not a ref (expected s<n>e<m> from a snapshot)"
                        ));
                    }
                    let secret = v.as_object().is_some_and(|o| {
                        o.len() == 1 && o.get("secret").is_some_and(|s| s.is_string())
                    });
                    if v.is_null() || (v.is_object() && !secret) {
                        out.push(format!(
                            "fields: the value of {k} must be text, a number, true/false, a list or {{\"secret\": \"NAME\"}}"
                        ));
                    }
                }
            }
            (Some(r), false, None) => out.push(format!(
                "missing field `value` (the text {r} gets) or `secret` (the name of a secret)"
            )),
            (None, true, None) => out.push("missing field `ref` (the field to fill)".into()),
            _ => out.push("give either ref and value, or fields (not both)".into()),
        },
        Action::Type(t) => match (&t.text, &t.secret, &t.ref_) {
            (Some(_), Some(_), _) => out.push("give text or secret, not both".into()),
            (None, None, _) => out.push("missing field `text` (or `secret`)".into()),
            (None, Some(_), None) => out.push(
                "a secret is typed into a field named by ref, never into whatever has focus: give ref".into(),
            ),
            _ => {}
        },
        Action::Set(s) => match (&s.value, &s.secret) {
            (Some(_), Some(_)) => out.push("give value or secret, not both".into()),
            (None, None) => out.push(format!(
                "missing field `value` (what {} is set to) or `secret`",
                s.ref_
            )),
            _ => {}
        },
        Action::Submit(s) => match (&s.ref_, &s.selector) {
            (Some(_), None) | (None, Some(_)) => {}
            (None, None) => out.push("give the form's ref or a CSS selector".into()),
            (Some(_), Some(_)) => out.push("give ref or selector, not both".into()),
        },
        Action::WaitForNavigation(w) => {
            if let Some(u) = &w.wait_until
                && !WAIT_UNTIL.contains(&u.as_str())
            {
                out.push(format!(
                    "waitUntil {u:?}: use load, domcontentloaded or commit"
                ));
            }
        }
        Action::Poll(p) => out.extend(hook_problems("poll", p)),
        Action::QueryAll(q) => {
            if q.queries.0.is_empty() {
                out.push(
                    "no queries: give named groups such as {\"buttons\": {\"role\": \"button\"}}"
                        .into(),
                );
            }
            for (label, spec) in &q.queries.0 {
                if spec.role.is_none() && spec.name.is_none() && spec.selector.is_none() {
                    out.push(format!("query \"{label}\" needs role, name or selector"));
                }
                if spec.limit == Some(0) || spec.limit.is_some_and(|l| l > 100) {
                    out.push(format!("query \"{label}\": limit must be 1..100"));
                }
            }
            if q.limit == Some(0) || q.limit.is_some_and(|l| l > 100) {
                out.push("limit must be 1..100".into());
            }
        }
        _ => {}
    }
    out
}

/// Step keys beside the action (docs/reference/step-files.md#optional-steps `optional`, and the hooks).
pub const STEP_KEYS: &[&str] = &["optional", "readyWhen", "settledWhen", "observe", "target"];
