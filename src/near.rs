//! The `near` of `search` (docs/reference/search.md#search): a point of the viewport and a
//! radius, in CSS pixels.
//!
//! Owns: the type both sides share: `query::search` reads it from the user's two spellings,
//! the engine sends it to the page in `Method::Search`. Must not: import anything from the
//! crate (a leaf, so that `query/` need not reach the engine for it: `layering` checks it).

use serde::Serialize;

/// A point and a radius in CSS pixels (`near` of `search`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Near {
    pub x: f64,
    pub y: f64,
    pub radius: f64,
}
