//! Entry points of the search / query / detail-level capability, called by the runner.

use super::{QueryArgs, SearchArgs, SnapshotArgs};
use crate::browser::Browser;
use crate::error::{Error, Result};
use serde_json::Value;

/// `search` step.
pub async fn search(_b: &mut Browser, _a: &SearchArgs) -> Result<Value> {
    Err(Error::Step(
        "search is not available in this build yet".into(),
    ))
}

/// `query` step.
pub async fn query(_b: &mut Browser, _a: &QueryArgs) -> Result<Value> {
    Err(Error::Step(
        "query is not available in this build yet".into(),
    ))
}

/// `snapshot` with a detail level other than full.
pub async fn snapshot_detail(_b: &mut Browser, a: &SnapshotArgs) -> Result<Value> {
    Err(Error::Step(format!(
        "snapshot detail {:?} is not available in this build yet: use \"full\"",
        a.detail.as_deref().unwrap_or("")
    )))
}

/// `snapshot` with a JMESPath query, flattening or pagination.
pub async fn snapshot_query(_b: &mut Browser, _a: &SnapshotArgs) -> Result<Value> {
    Err(Error::Step("snapshot queries (jmespath_query, flatten, limit, offset, cache_key) are not available in this build yet".into()))
}
