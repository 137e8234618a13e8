//! Renderings of a snapshot: Playwright-style indented text (docs/reference/output.md#text-format) and JSON.
//!
//! Owns: line format, flags, text cutting, which text children are implied by a name. Must
//! not: recurse (iterative with explicit stacks; trees can be thousands of levels deep), or
//! print page text other than through `safe` (docs/reference/output.md#what-no-page-can-forge: names quoted, values bare only when
//! unambiguous, tokens checked).
//!
//! The parts: the options and limits (here); one node's line, its flags and cutting
//! (`line`); which children a rendering shows (`shown`); the `# ...` lines above the tree
//! (`header`); the indented text (`text`); the JSON document (`json`); the text-level marks
//! of a text run in both (`marks`); page text that tries to forge lines, shared with other
//! modules' tests (`tests`).

mod header;
mod json;
mod line;
mod marks;
mod shown;
mod text;

pub use header::{header_json, header_lines, notes};
pub use json::to_json;
pub use line::{
    UNSEEN_KINDS, before_ref, cut, cut_flag, flags, head, icon, icon_suffix, kept, short_url, sort,
    unseen,
};
pub use shown::{collapsed_options, shown_children};
pub use text::to_text;

/// Names longer than this are cut with `...` in text output (`get REF --what name` reads them
/// whole).
pub const TEXT_CUT: usize = 100;
/// Text runs and values up to this many characters print whole in text output (an
/// instruction, a message); a longer one is cut here, and its line says how much is left and
/// how to read it (docs/reference/output.md#text-format).
pub const TEXT_KEEP: usize = 300;
/// Hard cap for strings in JSON output.
pub const JSON_CAP: usize = 10_000;

/// Options for rendering.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Show value, description, url, placeholder and the rarer states.
    pub verbose: bool,
}

#[cfg(test)]
mod reviewed;
#[cfg(test)]
pub(crate) mod tests;
