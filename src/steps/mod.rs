//! Steps: what an agent asks of a page, as step files (`ariasnap run`), CLI commands and MCP
//! tools, all made from one schema (docs/reference/actions.md, docs/reference/step-files.md).
//!
//! The modules, from the leaf up (none names one above it; `lib.rs` checks it):
//! - `ask`: a question for a person and who asks it (the terminal; mcp/ gives another).
//! - `shared`: argument forms, run options, deadlines.
//! - the concepts, each with its arguments and how its steps run: `navigation`, `looking`,
//!   `input`, `waiting`, `page`, `files`.
//! - `action`: the `Action` enum and its one table of facts per action; `check` and `parse`
//!   read step files into it.
//! - `effects` and `changes`: what an action did (navigations, dialogs, downloads...) and
//!   the words of the reply; `reply` takes the captures they compare.
//! - `consent`: what a step would do in the operator's `--confirm` rules' terms, and the
//!   person's answer before it runs.
//! - `locate`: a step's target by role and name, label or text (resolved and healed);
//!   `journal`: what a session did, and the step file or spec exported from it.
//! - `runner`: runs a step file, dispatching each step to its concept.

mod action;
mod ask;
mod audit;
pub mod changes;
mod check;
pub mod consent;
mod debugging;
pub mod effects;
mod explain;
mod files;
mod har;
mod input;
pub mod journal;
pub mod locate;
pub mod looking;
mod navigation;
mod page;
pub mod parse;
mod points;
mod reply;
mod result;
pub mod runner;
mod shared;
mod waiting;

pub use action::{Action, ActionKind, Info, Kind, Step, StepFile, step_schema, steps_schema};
pub use audit::AuditArgs;
pub use debugging::{NetworkArgs, RouteArgs, UnrouteArgs};
pub use files::{PdfArgs, ReadNotesArgs, ScreenshotArgs, WriteNotesArgs, pdf_object_text};
pub use input::{
    DragArgs, DragEnd, FillArgs, HoverArgs, PressArgs, RefOnly, ScrollArgs, SelectArgs,
    SelectTextArgs, SetArgs, SubmitArgs, TargetArgs, TypeArgs, UploadArgs,
};
pub use looking::{
    GetArgs, InspectArgs, QueryAllArgs, QueryArgs, QueryGroups, QuerySpec, SearchArgs, SnapshotArgs,
};
pub use navigation::WaitForNavigationArgs;
pub use navigation::{CloseTabArgs, FrameArg, FrameArgs, GotoArgs, NewTabArgs, TabArgs};
pub use page::{ConsoleArgs, CookiesArgs, EvalArgs, LoadStateArgs, SaveStateArgs, ViewportArgs};
pub use points::{ElementsAtArgs, Point};
pub use result::{RunResult, StepResult};
pub use shared::{NoArgs, RunOptions};
pub use waiting::{AssertArgs, Hooks, PollArgs, SleepArgs, WaitArgs};
