//! What an action is, apart from which: the [`Act`] trait an action's argument type
//! implements in its concept module (its declaration: facts, checks, target, policy class,
//! run), the facts' types, and what a run gives an action to run with.
//!
//! Owns: `Act`, `Info`, `Kind`, `Core`, `Gate`, `Cx`. Must not: name any action (action.rs
//! lists them; each concept module declares its own).

use super::options::{DocMark, RunOptions};
use crate::actions::Outcome;
use crate::browser::Browser;
use crate::error::Result;
use crate::policy::Switch;
use std::time::Duration;

/// What running an action may do to the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Changes what is on screen: the reply's diff spans the first to the last of these
    /// (and a whole-page capture is taken before the first).
    Visual,
    /// May change the page without being input (navigation, scripts, settings): drops the
    /// snapshot cache, and the page's reaction is settled before the step ends.
    ChangesPage,
    /// Reads, waits or writes files; the page is as it was.
    Reads,
}

/// The facts of one action, beside its argument type in [`Action`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Info {
    pub kind: Kind,
    /// The reply's first word ("Clicked. ..."); "Done" for actions that are not input.
    pub verb: &'static str,
    /// The MCP tool that stands for it (names of Playwright MCP where it has the action).
    pub tool: &'static str,
    /// The field an MCP tool names the short form with, when the action has no object form.
    pub scalar: &'static str,
    /// A short example of the argument, for messages and the reference.
    pub example: &'static str,
}

/// An [`Info`] in one line, for declarations.
pub const fn row(
    kind: Kind,
    verb: &'static str,
    tool: &'static str,
    scalar: &'static str,
    example: &'static str,
) -> Info {
    Info {
        kind,
        verb,
        tool,
        scalar,
        example,
    }
}

/// What an action may be refused by, before any of it runs (docs/reference/policy.md#actions-off).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate<'a> {
    /// Nothing of the policy's applies.
    Open,
    /// Runs only when the policy leaves this switch on.
    Off(Switch),
    /// A new tab at this URL: refused on another origin than the current tab's when the
    /// policy denies foreign tabs.
    NewTab(&'a str),
}

/// Where an action is in the MCP core set (`--tools core`, docs/reference/mcp.md#tool-sets):
/// its place in the listing, the description it has there (`None`: the action's own) and the
/// properties it shows, each with the short words it gets there ("" for none). Whatever it
/// does not list it still takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Core {
    pub rank: u8,
    pub description: Option<&'static str>,
    pub props: &'static [(&'static str, &'static str)],
}

/// What a step's action runs with: the session, the run's options, the files the run wrote,
/// and the document the previous action began on (`waitForNavigation`).
pub struct Cx<'a> {
    pub b: &'a mut Browser,
    pub opts: &'a RunOptions,
    pub artifacts: &'a mut Vec<String>,
    pub prev_doc: Option<DocMark>,
}

/// One action's declaration, implemented by its argument type in its concept module: its
/// facts, its checks, the element it acts on, its policy class and its run. [`actions!`]
/// makes the dispatch from it, the MCP tools and the core set, the action reference and
/// the checks.
pub trait Act {
    /// Kind, reply verb, MCP tool, short form, example.
    const INFO: Info;
    /// Its place in the MCP core set, if it has one.
    const CORE: Option<Core> = None;
    /// The option a locator's ref goes into when a locator names its target
    /// (docs/reference/step-files.md#locators): `ref` (`frame`: `target`, its iframe); `None`:
    /// it takes no target, and a step of it with a locator is refused. Its `set_target` puts
    /// the ref there.
    const LOCATED_BY: Option<&'static str> = None;
    /// The Playwright call it exports as (`session export --as playwright`) when its target
    /// is a locator, `{loc}` standing for the locator (`"await {loc}.focus();"`); `None`:
    /// journal/playwright.rs writes it (or says it is not exported).
    const PLAYWRIGHT: Option<&'static str> = None;
    /// What serde cannot check (which options go together, bounds, allowed words), in the
    /// words of step files: a bad step is refused before any step runs.
    fn problems(&self) -> Vec<String> {
        Vec::new()
    }
    /// The ref of the element it acts on, when it names one (docs/reference/replies.md#the-summary:
    /// a reply leads with that element's new state or value).
    fn target(&self) -> Option<&str> {
        None
    }
    /// Puts the ref a locator resolved to where it takes its target; false when it takes
    /// none.
    fn set_target(&mut self, _r: String) -> bool {
        false
    }
    /// Its policy class.
    fn gate(&self) -> Gate<'_> {
        Gate::Open
    }
    /// How long its effects are followed at least when the page reacted (see
    /// [`ANSWER_TAIL`]); `None`: it settles on quiet alone.
    fn tail(&self) -> Option<Duration> {
        None
    }
    /// Runs it.
    fn run(&self, cx: &mut Cx<'_>) -> impl Future<Output = Result<Outcome>> + Send;
}

/// How long an action's effects are followed at least when the page reacted to it (its DOM
/// changed: a button disabled, a spinner shown), however quiet the page is then: a click or
/// a key press often starts a request whose answer brings the page's reaction (a toast, an
/// error message, the new total) a few hundred ms later, with nothing changing in the DOM
/// meanwhile; 500 ms, the settle time Playwright MCP gives every action, catches a typical
/// API call's answer. A click the page shows no reaction to settles on quiet alone, as do
/// other actions (fill, set, hover, scroll...) (docs/reference/replies.md#effects effects). Typing with `submit`
/// presses Enter: it gets the tail too. An action's [`Act::tail`] says whether it has one.
pub const ANSWER_TAIL: Duration = Duration::from_millis(500);
