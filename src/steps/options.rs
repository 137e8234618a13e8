//! What a run gives its steps: the run's options, the limits of waits within a step's
//! deadline, and which document a tab shows (a step's mark for navigations).
//!
//! Owns: these. Must not: name any other step module (a leaf of `steps/`).

use crate::output::OutputOptions;
use crate::spill;
use std::time::Duration;

/// The default upper bound of the wait for the page to settle after an action or a
/// navigation (docs/reference/replies.md#settling).
pub const SETTLE_MAX: Duration = Duration::from_millis(3_000);

/// How a run behaves.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Limit per step (default 30 s).
    pub timeout: Duration,
    /// Where big outputs go.
    pub output: OutputOptions,
    /// Upper bound of the wait for the page to settle after an action.
    pub settle_max: Duration,
    pub verbose: bool,
    /// The folder every file a step names must be in, a relative path resolving there
    /// (docs/reference/mcp.md#files): an agent of `mcp --http` names only its own files,
    /// never the server's. None: any path (the command line, stdio MCP).
    pub files: Option<std::path::PathBuf>,
    /// Cancelled when the caller gives up on the run (an MCP client's
    /// `notifications/cancelled`, or on the 2026-07-28 HTTP protocol the call's stream closed:
    /// docs/reference/mcp.md#cancelling-a-call): the step running
    /// stops where it is, as at its deadline, and the steps after it do not run.
    pub cancel: Option<tokio_util::sync::CancellationToken>,
    /// Who asks a person before a step the operator's `--confirm` rules name
    /// (docs/reference/policy.md#consent): the MCP client's user, a terminal; None: no one,
    /// and such a step is refused.
    pub asker: Option<super::ask::AskerRef>,
    /// A locator that no longer matches fails instead of taking the one best candidate of
    /// its role (`run --strict`, docs/reference/step-files.md#healing).
    pub strict: bool,
    /// Record every step in the session's journal (docs/reference/step-files.md#the-journal).
    pub journal: bool,
}

impl RunOptions {
    /// The file a step names (`what`: the action, for the error): `given` as is, or inside
    /// [`RunOptions::files`], where it must be a relative path without `..` (the folder is
    /// made, private, on first use).
    pub fn user_path(&self, what: &str, given: &str) -> crate::error::Result<std::path::PathBuf> {
        use std::path::{Component, Path};
        let Some(root) = &self.files else {
            return Ok(Path::new(given).to_path_buf());
        };
        let p = Path::new(given);
        let inside = !given.is_empty()
            && p.components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if !inside {
            return Err(crate::error::Error::Usage(format!(
                "{what}: {given:?} is not a file of this agent: an agent over HTTP names files inside its own folder only, by a relative path without \"..\" (such as \"login.json\")"
            )));
        }
        crate::private::make_dir(root)?;
        Ok(root.join(p))
    }

    /// The folder of site notes of an agent of `mcp --http` (inside its own folder); None:
    /// the notes every session shares.
    pub fn notes_dir(&self) -> Option<std::path::PathBuf> {
        self.files.as_ref().map(|f| f.join(".site-notes"))
    }

    /// True once the caller gave up on this run ([`RunOptions::cancel`]).
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.is_cancelled())
    }

    /// Resolves when the caller gives up on this run; never without a token.
    pub async fn until_cancelled(&self) {
        match &self.cancel {
            Some(c) => c.cancelled().await,
            None => std::future::pending().await,
        }
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            timeout: Duration::from_millis(30_000),
            output: OutputOptions {
                file: None,
                inline_limit: spill::DEFAULT_INLINE_LIMIT,
                artifacts: None,
            },
            settle_max: SETTLE_MAX,
            verbose: false,
            files: None,
            cancel: None,
            asker: None,
            strict: false,
            journal: false,
        }
    }
}

pub(super) fn strip_hash(u: &str) -> &str {
    u.split('#').next().unwrap_or(u)
}

/// What a wait may take of the step's deadline: it keeps 500 ms (a quarter of short
/// deadlines) for the rest of the step, so that the wait's own message (not the deadline's)
/// is the one reported.
pub(super) fn within(deadline: Duration) -> Duration {
    deadline.saturating_sub(Duration::from_millis(500).min(deadline / 4))
}
/// The default limit of `readyWhen` and `settledWhen`.
pub(super) const HOOK_LIMIT: Duration = Duration::from_secs(10);
/// How long `submit` waits for the page a navigating form loads.
pub(super) const SUBMIT_NAV_LIMIT: Duration = Duration::from_secs(10);

/// Which document a tab shows: its time origin (a new document has another) and URL.
#[derive(Debug, Clone, PartialEq)]
pub struct DocMark {
    pub origin: f64,
    pub url: String,
}
