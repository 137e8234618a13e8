//! MCP server over stdio (`ariasnap mcp`): the step actions as tools.
//!
//! Owns: the protocol side. Tools come from the step schema (tools.rs); calls run through
//! the same step runner as step files and the CLI. stdout carries protocol messages only.

pub mod tools;
