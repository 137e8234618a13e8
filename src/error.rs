//! The library's error type. Every message names the thing, the cause and the next action;
//! `hint()` gives the line `main` prints after `hint:`. Exit codes follow SPEC 5.

use std::path::PathBuf;

/// Result alias for the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong, grouped by who must act.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bad command-line input or option values.
    #[error("{0}")]
    Usage(String),
    /// A step file that cannot be used (syntax or schema); every problem is listed.
    #[error("invalid step file {path}:\n{problems}")]
    StepFile { path: String, problems: String },
    /// No browser or driver binary could be found.
    #[error("{what} not found{}", .tried.as_ref().map(|t| format!(" (looked for {t})")).unwrap_or_default())]
    MissingBinary {
        what: &'static str,
        tried: Option<String>,
    },
    /// The driver or the browser failed to start or died.
    #[error("browser failure: {0}")]
    Browser(String),
    /// A WebDriver command failed.
    #[error("webdriver command failed: {0}")]
    WebDriver(Box<fantoccini::error::CmdError>),
    /// Creating a WebDriver session failed.
    #[error("could not start a WebDriver session: {0}")]
    NewSession(Box<fantoccini::error::NewSessionError>),
    /// The injected engine returned something unexpected or threw.
    #[error("page engine error: {0}")]
    Engine(String),
    /// A ref that cannot be used (unknown, malformed, gone, changed, covered).
    #[error("{message}")]
    Ref { message: String },
    /// A step that failed in the page (assertion, missing element...).
    #[error("{0}")]
    Step(String),
    /// Waiting ran past its limit.
    #[error("timed out: {0}")]
    Timeout(String),
    /// A file could not be read or written.
    #[error("{action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// JSON that could not be decoded.
    #[error("invalid JSON from {what}: {source}")]
    Json {
        what: &'static str,
        #[source]
        source: serde_json::Error,
    },
}

impl From<fantoccini::error::CmdError> for Error {
    fn from(e: fantoccini::error::CmdError) -> Self {
        Error::WebDriver(Box::new(e))
    }
}

impl From<fantoccini::error::NewSessionError> for Error {
    fn from(e: fantoccini::error::NewSessionError) -> Self {
        Error::NewSession(Box::new(e))
    }
}

impl Error {
    /// Process exit code for this error (SPEC 5: 1 step failed, 2 bad input, 3 browser or
    /// driver failure, 4 timeout).
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) | Error::StepFile { .. } => 2,
            Error::MissingBinary { .. }
            | Error::Browser(_)
            | Error::WebDriver(_)
            | Error::NewSession(_) => 3,
            Error::Timeout(_) => 4,
            Error::Engine(_) | Error::Ref { .. } | Error::Step(_) => 1,
            Error::Io { .. } | Error::Json { .. } => 1,
        }
    }

    /// True for errors caused by the browser or driver (dead session, crash).
    pub fn is_browser(&self) -> bool {
        self.exit_code() == 3
    }

    /// True for errors in the user's input.
    pub fn is_usage(&self) -> bool {
        self.exit_code() == 2
    }

    /// The next action for the user, printed after `hint:`.
    pub fn hint(&self) -> Option<String> {
        match self {
            Error::MissingBinary { what, .. } => Some(format!(
                "install one with `sudo apt-get install -y chromium chromium-driver`, or point ariasnap at another {what}: --browser PATH, --driver PATH (or ARIASNAP_BROWSER / ARIASNAP_DRIVER), or --webdriver URL for a running WebDriver server"
            )),
            Error::Browser(_) | Error::WebDriver(_) | Error::NewSession(_) => Some(
                "run `ariasnap session close` and try again; `RUST_LOG=debug` shows the driver's replies".into(),
            ),
            Error::Ref { .. } => Some("take a new snapshot and use the refs it prints".into()),
            Error::Timeout(_) => Some("raise the limit with --timeout MS (or \"timeout\" in the step file)".into()),
            _ => None,
        }
    }

    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Self {
        Error::Io {
            action,
            path: path.into(),
            source,
        }
    }
}
