//! The BiDi log module's one event (WebDriver BiDi, "The log module"): `log.entryAdded`, a
//! console call or an uncaught error of a realm, with its stack when the browser gives one.
//!
//! Owns: its field names on the wire. Must not: decide what an entry means for a reply.

use serde::Deserialize;
use serde_json::Value;

/// `script.StackFrame`: 0-based line and column.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StackFrame {
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub function_name: String,
    #[serde(default)]
    pub line_number: u64,
    #[serde(default)]
    pub column_number: u64,
}

/// `script.StackTrace`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StackTrace {
    #[serde(default)]
    pub call_frames: Vec<StackFrame>,
}

/// `script.Source`: the realm an entry came from and its context.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Source {
    #[serde(default)]
    pub realm: String,
    #[serde(default)]
    pub context: Option<String>,
}

/// `log.entryAdded` parameters: a `console` entry (`method`: log, warn, error...; `args`:
/// the values logged) or a `javascript` one (an uncaught exception or unhandled rejection).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    /// `console` or `javascript` (others: `generic`).
    #[serde(rename = "type", default)]
    pub kind: String,
    /// `debug`, `info`, `warn` or `error`.
    #[serde(default)]
    pub level: String,
    #[serde(default)]
    pub source: Source,
    #[serde(default)]
    pub text: Option<String>,
    /// Milliseconds since the epoch.
    #[serde(default)]
    pub timestamp: f64,
    #[serde(default)]
    pub stack_trace: Option<StackTrace>,
    /// The console method (`log`, `warn`, `error`, `debug`, `info`, `assert`, `trace`...).
    #[serde(default)]
    pub method: Option<String>,
    /// The values logged (`script.RemoteValue`s), for a console entry.
    #[serde(default)]
    pub args: Vec<Value>,
}
