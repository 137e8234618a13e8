//! WebDriver's errors as the crate's: a failed classic command sorted by who must act (the
//! page stopped answering, a dialog is open, the browser or driver is gone, or a plain
//! command error), a failed New Session, and the refusal of a `--webdriver` endpoint.
//!
//! Owns: reading fantoccini's error types (`Error` only ever holds their one-line text).
//! Must not: decide what a step does about an error (callers do), or word the hints
//! (`crate::error` does).

use crate::error::{EndpointProblem, Error, one_line};
use fantoccini::error::{CmdError, NewSessionError};

impl From<CmdError> for Error {
    /// Sorts WebDriver failures by who must act: the page stopped answering (timeout, exit 4),
    /// a dialog is open, the browser or driver is gone (exit 3), or a plain command error.
    fn from(e: CmdError) -> Self {
        use CmdError as C;
        if e.is_timeout() || e.is_script_timeout() {
            return Error::Timeout(format!(
                "the page did not answer in time ({})",
                webdriver_message(&e)
            ));
        }
        if e.is_unexpected_alert_open() {
            /// The error data of "unexpected alert open": the dialog's text.
            #[derive(serde::Deserialize)]
            struct Alert {
                #[serde(default)]
                text: Option<String>,
            }
            let text = match &e {
                C::Standard(w) => w
                    .data
                    .clone()
                    .and_then(|d| serde_json::from_value::<Alert>(d).ok())
                    .and_then(|a| a.text)
                    .unwrap_or_default(),
                _ => String::new(),
            };
            return Error::Dialog { text };
        }
        let gone = match &e {
            C::Failed(_) | C::FailedC(_) | C::Lost(_) => true,
            C::Standard(w) => {
                let m = w.message.to_ascii_lowercase();
                e.is_invalid_session_id()
                    || m.contains("not reachable")
                    || m.contains("disconnected")
                    || m.contains("session deleted")
                    || m.contains("no such execution context") && m.contains("target closed")
            }
            _ => false,
        };
        if gone {
            return Error::Browser(format!(
                "the browser or its driver stopped answering ({})",
                webdriver_message(&e)
            ));
        }
        Error::WebDriver(webdriver_message(&e))
    }
}

impl From<NewSessionError> for Error {
    fn from(e: NewSessionError) -> Self {
        Error::NewSession(e.to_string())
    }
}

/// A WebDriver error in one line: the error code and the first line of the driver's
/// message (drivers add session info and stack traces on further lines).
pub fn webdriver_message(e: &CmdError) -> String {
    use CmdError as C;
    let s = match e {
        C::Standard(w) => {
            let first = w.message.lines().next().unwrap_or("").trim();
            let code = w.error();
            if first.starts_with(&code) {
                first.to_string()
            } else {
                format!("{code}: {first}")
            }
        }
        C::Failed(_) | C::FailedC(_) | C::Lost(_) => {
            format!(
                "{e}: {}",
                std::error::Error::source(e)
                    .map(|s| s.to_string())
                    .unwrap_or_default()
            )
        }
        other => other.to_string(),
    };
    one_line(&s)
}

/// Why an endpoint could not be reached, with the connection's own error.
fn unreachable(cause: &dyn std::fmt::Display) -> String {
    format!("it could not be reached ({cause})")
}

/// `e`, the failure of asking the endpoint `url` (`--webdriver`) for a `browser` session,
/// as [`Error::Endpoint`].
pub(super) fn endpoint(url: &str, browser: &'static str, e: NewSessionError) -> Error {
    use NewSessionError as N;
    let (problem, reason) = match &e {
        N::BadWebdriverUrl(p) => (EndpointProblem::Unreachable, format!("not a URL ({p})")),
        N::Failed(c) => (EndpointProblem::Unreachable, unreachable(c)),
        N::FailedC(c) => (EndpointProblem::Unreachable, unreachable(c)),
        N::Lost(c) => (EndpointProblem::Unreachable, unreachable(c)),
        // a grid appends lines of host, build and system info to the reason
        N::SessionNotCreated(w) => {
            let m = w.message.split("Host info:").next().unwrap_or("");
            let m = m.trim_end_matches(|c: char| c.is_whitespace() || c == ';');
            (EndpointProblem::Refused, m.to_string())
        }
        other => (EndpointProblem::Refused, other.to_string()),
    };
    Error::Endpoint {
        url: url.to_string(),
        browser,
        problem,
        reason: one_line(&reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_that_refuses_is_named_with_its_reason_and_the_fix() {
        use fantoccini::error::{ErrorStatus, WebDriver};
        let grid = "http://127.0.0.1:4444";
        // a grid started with --reject-unsupported-caps, without a Firefox node
        let refused = endpoint(
            grid,
            "firefox",
            NewSessionError::SessionNotCreated(WebDriver::new(
                ErrorStatus::SessionNotCreated,
                "Could not start a new session. No nodes support the capabilities in the request\nHost info: host: 'vm', ip: '127.0.0.1'\nBuild info: version: '4.48.0'",
            )),
        );
        assert_eq!(
            refused.to_string(),
            "the WebDriver endpoint http://127.0.0.1:4444 did not start a firefox session: Could not start a new session. No nodes support the capabilities in the request"
        );
        assert_eq!(refused.exit_code(), 3);
        let hint = refused.hint().unwrap();
        assert!(
            hint.contains("add a node with firefox and its driver")
                && hint.contains("browserName \"firefox\"")
                && hint.contains("--grid-url http://127.0.0.1:4444")
                && hint.contains("--browser chromium"),
            "{hint}"
        );
    }
}
