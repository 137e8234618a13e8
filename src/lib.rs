//! ariasnap: faithful, compact, actionable accessibility snapshots of web pages for AI agents.
//!
//! Two halves meet at one boundary: a JavaScript engine injected into the page (built from
//! `js/src` by build.rs, reached only through [`engine`]) walks the DOM and computes roles,
//! names and refs; this crate drives the browser over WebDriver, renders, diffs, spills and
//! runs steps.

pub mod actions;
pub mod app;
pub mod browser;
pub mod capture;
pub mod cli;
pub mod demo;
pub mod dialogs;
pub mod engine;
pub mod error;
pub mod mcp;
pub mod output;
pub mod query;
pub mod refs;
pub mod serve;
pub mod snapshot;
pub mod spill;
pub mod steps;
pub mod wire;

pub use error::{Error, Result};
