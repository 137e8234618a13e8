//! 60_search.js: text / regex / role / near queries over the walk.
//!
//! Owns: matching snapshot nodes against a query. Must not: mint refs outside 50_refs.
//! (Filled in with the search capability; the walk already carries what it needs.)
