//! Steps: what an agent asks of a page, as step files (`ariasnap run`), CLI commands and MCP
//! tools, all made from one schema (docs/reference/actions.md, docs/reference/step-files.md).
//!
//! The modules, from the leaf up (none names one above it; `lib.rs` checks it):
//! - `ask`: a question for a person and who asks it (the terminal; mcp/ gives another).
//! - `args` and `options`: the forms of arguments; the run's options and the limits of waits.
//! - `act`: what an action is: the `Act` trait (an action's declaration) and its facts' types.
//! - the concepts, each with its actions' arguments and their declarations (`impl Act`):
//!   `navigation`, `looking`, `mapping`, `points`, `input`, `moving`, `forms`, `waiting`,
//!   `settings`, `files`, `debugging`, `audit`.
//! - `action`: the list of actions (`actions!`: the `Action` enum and its dispatch to each
//!   declaration); `parse` reads step files into it.
//! - `effects` and `changes`: what an action did (navigations, dialogs, downloads...) and
//!   the words of the reply; `reply` takes the captures they compare.
//! - `consent`: what a step would do in the operator's `--confirm` rules' terms, and the
//!   person's answer before it runs.
//! - `locate`: a step's target by role and name, label or text (resolved and healed);
//!   `journal`: what a session did, and the step file or spec exported from it.
//! - `runner`: runs a step file, each step's action through its declaration.

mod act;
mod action;
mod args;
mod ask;
mod audit;
pub mod changes;
pub mod consent;
mod debugging;
pub mod effects;
mod explain;
mod files;
mod forms;
mod har;
mod input;
pub mod journal;
pub mod locate;
pub mod looking;
mod mapping;
mod moving;
mod navigation;
mod options;
pub mod parse;
mod points;
mod reply;
mod result;
pub mod runner;
mod settings;
mod waiting;

pub use act::{Core, Info, Kind};
pub use action::{Action, ActionKind, Step, StepFile, step_schema, steps_schema, targeted};
pub use args::NoArgs;
pub use audit::AuditArgs;
pub use debugging::{ConsoleArgs, NetworkArgs, RouteArgs, UnrouteArgs};
pub use files::{PdfArgs, ReadNotesArgs, ScreenshotArgs, WriteNotesArgs, pdf_object_text};
pub use input::{
    CheckArgs, FillArgs, HoverArgs, PressArgs, RefOnly, SelectArgs, SetArgs, TargetArgs, TypeArgs,
    UncheckArgs, UploadArgs,
};
pub use looking::{GetArgs, QueryArgs, SearchArgs, SnapshotArgs};
pub use mapping::{InspectArgs, QueryAllArgs, QueryGroups, QuerySpec};
pub use moving::{DragArgs, DragEnd, ScrollArgs};
pub use navigation::WaitForNavigationArgs;
pub use navigation::{CloseTabArgs, FrameArg, FrameArgs, GotoArgs, NewTabArgs, TabArgs};
pub use options::{RunOptions, SETTLE_MAX};
pub use points::{ElementsAtArgs, Point};
pub use result::{RunResult, StepResult};
pub use settings::{CookiesArgs, EvalArgs, LoadStateArgs, SaveStateArgs, ViewportArgs};
pub use waiting::{AssertArgs, Hooks, PollArgs, SleepArgs, WaitArgs};
