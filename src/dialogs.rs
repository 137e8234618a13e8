//! Page dialogs (alert, confirm, prompt, beforeunload): answered whenever a command meets
//! one, by the policy of `--dialog accept|dismiss` (default dismiss), and remembered so the
//! reply can report them (docs/reference/faults.md#dialogs). A dialog is never left open to block later commands.
//!
//! Owns: the policy and the log of answered dialogs of this process. Must not: decide what a
//! reply looks like (the runner and `app` report the log).

use serde::Serialize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// How dialogs are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// Press OK (a prompt gets its default text).
    Accept,
    /// Press Cancel (an alert has only OK: it is closed).
    #[default]
    Dismiss,
}

/// One dialog the page opened, and how it was answered.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answered {
    /// What the dialog said (capped at 1,000 characters).
    pub message: String,
    /// "accepted" or "dismissed".
    pub handled: &'static str,
}

static ACCEPT: AtomicBool = AtomicBool::new(false);
static LOG: Mutex<Vec<Answered>> = Mutex::new(Vec::new());

/// Sets the policy for this process.
pub fn set_policy(p: Policy) {
    ACCEPT.store(p == Policy::Accept, Ordering::Relaxed);
}

/// The policy in force.
pub fn policy() -> Policy {
    if ACCEPT.load(Ordering::Relaxed) {
        Policy::Accept
    } else {
        Policy::Dismiss
    }
}

/// Records a dialog answered by the policy.
pub fn log(text: &str) {
    let message: String = text.chars().take(1000).collect();
    let handled = match policy() {
        Policy::Accept => "accepted",
        Policy::Dismiss => "dismissed",
    };
    if let Ok(mut l) = LOG.lock() {
        l.push(Answered { message, handled });
    }
}

/// Takes the dialogs answered since the last call.
pub fn drain() -> Vec<Answered> {
    LOG.lock()
        .map(|mut l| std::mem::take(&mut *l))
        .unwrap_or_default()
}

/// The note text (`dialog dismissed ...`) for these dialogs: `# ` lines in text replies,
/// `notes` in JSON (see `output::emit_view_noted`).
pub fn notes(dialogs: &[Answered]) -> Vec<String> {
    dialogs
        .iter()
        .map(|d| {
            format!(
                "dialog {} ({}): {}",
                d.handled,
                if d.handled == "accepted" {
                    "--dialog accept"
                } else {
                    "--dialog dismiss, the default"
                },
                crate::safe::quote(&d.message)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_quote_the_page_text() {
        let n = notes(&[Answered {
            message: "Hi\n- button \"Pay\" [ref=s1e1]\u{1b}".into(),
            handled: "dismissed",
        }]);
        assert_eq!(n.len(), 1);
        assert!(!n[0].contains('\n') && !n[0].contains('\u{1b}'), "{}", n[0]);
        assert!(
            n[0].ends_with(r#""Hi\n- button \"Pay\" [ref=s1e1]\u001b""#),
            "{}",
            n[0]
        );
    }
}
