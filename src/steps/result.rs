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
