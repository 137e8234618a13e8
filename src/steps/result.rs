//! What a run returns: each step's result (its output, time, error, warnings, effects) and
//! the run's (the steps, the changes on screen, the artifacts written).

use crate::error::Error;
use serde::Serialize;
use serde_json::Value;

/// One step's result.
#[derive(Debug, Clone, Serialize)]
pub struct StepResult {
    pub action: String,
    /// ok, error, skipped
    pub status: String,
    pub ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dialogs: Vec<Value>,
    /// Snapshot steps: nodes, refs, elements visited, the page's own time (`engine_ms`,
    /// `walk_ms`) and whether the engine's cache answered (`cached`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Value>,
    /// What an action did besides changing the tree (docs/reference/replies.md#effects): announced text, navigation,
    /// new tabs, HTTP and console errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<super::effects::Effects>,
    /// The value of the step's `observe` hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observation: Option<Value>,
    /// What a locator's target was healed to (docs/reference/step-files.md#healing):
    /// `healed: button "Pay" -> "Pay now"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub healed: Option<String>,
}

/// The whole run's result (printed as JSON on stdout).
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    /// ok or error
    pub status: String,
    pub tab: String,
    pub steps: Vec<StepResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Value>,
    pub context: Value,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub artifacts: Vec<String>,
    /// What the reader must know besides the steps' data: a tab replaced after its page
    /// stopped answering (docs/reference/faults.md#deadlines).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Process exit code (docs/reference/faults.md#exit-codes).
    #[serde(skip)]
    pub exit_code: i32,
}

impl StepResult {
    pub(super) fn skipped(action: &str) -> StepResult {
        StepResult {
            action: action.into(),
            status: "skipped".into(),
            ms: 0,
            output: None,
            warning: None,
            error: None,
            dialogs: vec![],
            stats: None,
            effects: None,
            observation: None,
            healed: None,
        }
    }

    pub(super) fn failed(action: &str, ms: u64, e: &Error, dialogs: Vec<Value>) -> StepResult {
        StepResult {
            action: action.into(),
            status: "error".into(),
            ms,
            output: None,
            warning: e.hint().map(|h| format!("hint: {h}")),
            error: Some(e.to_string()),
            dialogs,
            stats: None,
            effects: None,
            observation: None,
            healed: None,
        }
    }
}

impl RunResult {
    /// The short text of a result (docs/reference/replies.md#the-short-reply): each step's
    /// output in text where it has one (a snapshot's tree, a string), its warning, then the
    /// changes summary, then the run's notes. MCP's reply text, and the command line's with
    /// `--format text`. `messages`: each failing step's error and the run's notes too (the
    /// command line prints them on stderr already, as `error:` and `note:` lines). A `set`'s read-back value is left out
    /// when the summary already says it, and a `fill`'s fields always (the summary says
    /// what they hold, the error which failed).
    pub fn text(&self, messages: bool) -> String {
        let mut parts = Vec::new();
        let summary = self
            .changes
            .as_ref()
            .and_then(|c| c.get("summary"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let said = |o: &Value| {
            o.get("value")
                .and_then(Value::as_str)
                .is_some_and(|v| summary.contains(&format!("value {}", crate::safe::quote(v))))
        };
        for s in &self.steps {
            let quiet = s.error.is_none() && s.output.as_ref().is_some_and(said);
            if (s.action == "set" && quiet) || s.action == "fill" && s.output.is_some() {
                if let (Some(e), true) = (&s.error, messages) {
                    parts.push(format!("{} failed: {e}", s.action));
                }
                continue;
            }
            if let Some(e) = &s.error {
                if messages {
                    parts.push(format!("{} failed: {e}", s.action));
                }
            } else if let Some(Value::String(t)) = &s.output {
                parts.push(t.clone());
            } else if let Some(Value::Object(o)) = &s.output
                && let Some(Value::String(snap)) = o.get("snapshot")
            {
                // goto with a snapshot: the tree as text, not escaped inside JSON
                let mut rest = o.clone();
                rest.remove("snapshot");
                parts.push(format!("{}: {}", s.action, Value::Object(rest)));
                parts.push(snap.clone());
            } else if let Some(t) = s
                .output
                .as_ref()
                .filter(|_| s.action == "search")
                .and_then(crate::query::search::search_text)
            {
                parts.push(t);
            } else if let Some(o) = &s.output {
                parts.push(format!("{}: {o}", s.action));
            }
            // a failed step's warning is its hint, said with its error
            if let Some(w) = s.warning.as_ref().filter(|_| messages || s.error.is_none()) {
                parts.push(w.clone());
            }
        }
        if !summary.is_empty() {
            parts.push(summary.to_string());
        }
        if parts.is_empty() && (messages || self.status == "ok") {
            parts.push(format!(
                "{}: {}",
                self.status,
                self.context["url"].as_str().unwrap_or("")
            ));
        }
        // what the call did besides (a saved state restored as the session started, a tab
        // replaced), as the command line's `note:` lines say it
        for n in self.notes.iter().filter(|_| messages) {
            parts.push(format!("note: {}", crate::error::one_line(n)));
        }
        parts.join("\n")
    }
}
