//! Asking a person (docs/reference/policy.md#consent): the question a step the operator's
//! `--confirm` rules name raises, a person's answer, and who asks (an [`Asker`]: the MCP
//! client's user through elicitation, mcp/elicit.rs, or the command's terminal,
//! [`Terminal`]).
//!
//! Owns: the question's words (secrets masked), the terminal's way of asking. Must not:
//! decide what needs asking (consent.rs) or act.

use crate::wire::FormPreview;
use futures_util::future::BoxFuture;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
/// How long a question waits for its answer.
pub const WAIT: Duration = Duration::from_secs(300);

/// A person's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// They allowed it.
    Allowed,
    /// Not allowed, and why: they said no, gave no answer, or could not be asked.
    Refused(String),
}

/// Who asks a person: the surface the agent came by.
pub trait Asker: Send + Sync {
    /// How the question goes, for the log and the messages ("MCP elicitation", "terminal").
    fn how(&self) -> &'static str;
    /// Asks `q` and waits (at most [`WAIT`]) for the answer.
    fn ask<'a>(&'a self, q: &'a Question) -> BoxFuture<'a, Answer>;
}

/// An [`Asker`] in [`RunOptions`].
#[derive(Clone)]
pub struct AskerRef(pub Arc<dyn Asker>);

impl std::fmt::Debug for AskerRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Asker({})", self.0.how())
    }
}

/// A question for a person: what the agent is about to do, the rules that ask, and a
/// preview (the page, the element's line, the form's values with secrets masked).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Question {
    /// The step as the agent gave it (`click s3e12`).
    pub action: String,
    /// What it would do, in words (`click button "Pay now"`).
    pub what: String,
    /// The rules that ask (`click:Pay*`).
    pub rules: Vec<String>,
    /// The page's title and URL.
    pub page: String,
    /// The element's line, as a snapshot shows it.
    pub element: Option<String>,
    /// The form that would be sent.
    pub form: Option<FormPreview>,
    /// Where a navigation would go.
    pub to: Option<String>,
    /// The agent's script.
    pub script: Option<String>,
}

impl Question {
    /// The question as a person reads it, secrets masked.
    pub fn text(&self) -> String {
        let mut t = format!(
            "An AI agent using ariasnap wants to {}.\nThe operator asks a person first ({}).\nPage: {}\n",
            self.what,
            self.rules
                .iter()
                .map(|r| format!("--confirm {r}"))
                .collect::<Vec<_>>()
                .join(", "),
            self.page
        );
        if let Some(e) = &self.element {
            t.push_str(&format!("Element: {e}\n"));
        }
        if let Some(to) = &self.to {
            t.push_str(&format!("Goes to: {to}\n"));
        }
        if let Some(f) = &self.form {
            t.push_str(&format!("Form: {} {}\n", f.method.to_uppercase(), f.action));
            for fl in &f.fields {
                let hidden = if fl.hidden { " (hidden)" } else { "" };
                t.push_str(&format!("  {}{hidden}: {}\n", fl.name, fl.value));
            }
        }
        if let Some(s) = &self.script {
            t.push_str(&format!("Script: {}\n", cut(s, 600)));
        }
        masked(&t)
    }

    /// The question for the consent log.
    pub(super) fn log_json(&self) -> serde_json::Value {
        json!({
            "action": self.action,
            "what": self.what,
            "rules": self.rules,
            "page": self.page,
            "element": self.element,
            "to": self.to,
            "form": self.form,
            "script": self.script.as_deref().map(|s| cut(s, 2000)),
        })
    }
}

/// `s` cut to `max` characters.
pub(super) fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut c: String = s.chars().take(max).collect();
    c.push('…');
    c
}

/// Text with the operator's secrets and secret-shaped values masked.
pub(super) fn masked(s: &str) -> String {
    let named = crate::vault::mask(s);
    crate::snapshot::secrets::mask(&named).into_owned()
}

/// Asks on the controlling terminal (`/dev/tty`, never standard input, which an agent may
/// write): a command run by a person at a terminal gets the question there; one without a
/// terminal (an agent's tool, a pipe, a service) is refused.
pub struct Terminal;

impl Asker for Terminal {
    fn how(&self) -> &'static str {
        "terminal"
    }

    fn ask<'a>(&'a self, q: &'a Question) -> BoxFuture<'a, Answer> {
        let text = q.text();
        Box::pin(async move {
            let asked = tokio::task::spawn_blocking(move || ask_tty(&text));
            match tokio::time::timeout(WAIT, asked).await {
                Ok(Ok(a)) => a,
                Ok(Err(_)) => Answer::Refused("the terminal could not be read".into()),
                Err(_) => Answer::Refused(format!("no answer came within {} s", WAIT.as_secs())),
            }
        })
    }
}

/// One question on `/dev/tty`: `y` or `yes` allows, anything else refuses.
fn ask_tty(text: &str) -> Answer {
    use std::io::{BufRead, Write};
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty");
    let Ok(mut tty) = tty else {
        return Answer::Refused(
            "this command has no terminal to ask a person on (an agent's command, a pipe or a service has none; over MCP the client asks its user)".into(),
        );
    };
    let _ = write!(tty, "\n{text}Allow it? [y/N] ");
    let _ = tty.flush();
    let mut line = String::new();
    let mut r = std::io::BufReader::new(&tty);
    if r.read_line(&mut line).is_err() {
        return Answer::Refused("the terminal could not be read".into());
    }
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Answer::Allowed,
        "" => {
            Answer::Refused("the person at the terminal gave no answer (the default is no)".into())
        }
        _ => Answer::Refused("the person at the terminal said no".into()),
    }
}
