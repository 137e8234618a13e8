//! Targeted views of a snapshot (docs/reference/search.md#jmespath-queries): JMESPath queries over the tree or the flattened
//! list, pagination with a cache that outlives the command, and search.
//!
//! Order of work: cache, flatten, query, page, format. Must not: render trees (snapshot/).

pub mod cache;
pub mod jmes;
pub mod search;
pub mod view;

use crate::error::{Error, Result};
use crate::snapshot::Snapshot;
use crate::snapshot::render::{self, RenderOptions};
use serde_json::{Map, Value, json};

/// Most items in one page.
pub const MAX_LIMIT: usize = 10_000;

/// The depth-first list of nodes, each without children and with `_depth`, `_parent_role`
/// and `_index`.
pub fn flatten(snap: &Snapshot) -> Vec<Value> {
    let depths = snap.depths();
    let mut out = Vec::with_capacity(snap.nodes.len());
    for (i, n) in snap.nodes.iter().enumerate() {
        let mut m = Map::new();
        m.insert("role".into(), n.role.clone().into());
        if n.is_text() {
            m.insert("name".into(), n.value.clone().unwrap_or_default().into());
        } else {
            m.insert("name".into(), n.name.clone().into());
            // a nameless generic's words (no name: `Node::words`)
            if let Some(w) = n.words() {
                m.insert("text".into(), w.into());
            }
            if let Some(r) = &n.ref_ {
                m.insert("ref".into(), r.clone().into());
            }
            if let Some(v) = &n.value {
                m.insert("value".into(), v.clone().into());
            }
            if let Some(u) = &n.url {
                m.insert("url".into(), u.clone().into());
            }
            if let Some(l) = n.states.level {
                m.insert("level".into(), l.into());
            }
            for (k, on) in [
                (
                    "checked",
                    n.states.checked.as_ref().is_some_and(|c| c.is_on()),
                ),
                ("disabled", n.states.disabled),
                ("selected", n.states.selected),
                ("required", n.states.required),
                ("focused", n.states.focused),
            ] {
                if on {
                    m.insert(k.into(), true.into());
                }
            }
            if let Some(e) = n.states.expanded {
                m.insert("expanded".into(), e.into());
            }
        }
        m.insert("_depth".into(), depths[i].into());
        let parent_role = n.parent.map(|p| snap.nodes[p].role.clone());
        m.insert(
            "_parent_role".into(),
            parent_role.map(Value::from).unwrap_or(Value::Null),
        );
        m.insert("_index".into(), i.into());
        out.push(Value::Object(m));
    }
    out
}

/// The snapshot as a JSON tree value (what `--format json` prints).
pub fn tree_value(snap: &Snapshot) -> Result<Value> {
    let s = render::to_json(snap, &RenderOptions::default(), false);
    serde_json::from_str(&s).map_err(|e| {
        Error::Usage(format!("the page is too deep for a query over the tree ({e}): add --flatten to query the node list"))
    })
}

/// Pagination request.
#[derive(Debug, Clone, Default)]
pub struct Paging {
    pub limit: Option<usize>,
    pub offset: Option<usize>,
    pub cache_key: Option<String>,
}

impl Paging {
    pub fn active(&self) -> bool {
        self.limit.is_some() || self.offset.is_some() || self.cache_key.is_some()
    }

    /// Checks the values (docs/reference/search.md#paging).
    pub fn validate(&self) -> Result<()> {
        if let Some(l) = self.limit
            && !(1..=MAX_LIMIT).contains(&l)
        {
            return Err(Error::Usage(format!(
                "invalid limit {l}: it must be between 1 and {MAX_LIMIT}"
            )));
        }
        if let Some(k) = &self.cache_key {
            cache::validate_key(k)?;
        }
        Ok(())
    }
}

/// One page of `items`, as docs/reference/search.md#paging replies carry it.
pub fn page(items: &[Value], p: &Paging, key: &str) -> Value {
    let offset = p.offset.unwrap_or(0);
    let limit = p.limit.unwrap_or(100);
    let slice: Vec<Value> = items.iter().skip(offset).take(limit).cloned().collect();
    json!({
        "items": slice,
        "total_items": items.len(),
        "offset": offset,
        "limit": limit,
        "has_more": offset.saturating_add(limit) < items.len(),
        "cache_key": key,
    })
}

/// Formats a query result: JSON (default) or YAML.
pub fn format_value(v: &Value, yaml: bool, pretty: bool) -> Result<String> {
    if yaml {
        return serde_norway::to_string(v)
            .map_err(|e| Error::Step(format!("cannot write YAML: {e}")));
    }
    // the strict escaper: page text in results carries no raw control or bidi character
    crate::safe::to_json(v, pretty).map_err(|source| Error::Json {
        what: "a query result",
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::tests::snap;

    #[test]
    fn flatten_adds_depth_parent_and_index() {
        let s = snap(&[
            (-1, "document", "T", None, None),
            (0, "list", "", None, None),
            (1, "listitem", "", None, None),
            (2, "text", "", None, Some("one")),
            (0, "button", "Go", Some("s1e1"), None),
        ]);
        let f = flatten(&s);
        assert_eq!(f.len(), 5);
        assert_eq!(
            f[3],
            json!({"role": "text", "name": "one", "_depth": 3, "_parent_role": "listitem", "_index": 3})
        );
        assert_eq!(f[4]["ref"], "s1e1");
        assert_eq!(f[0]["_parent_role"], Value::Null);
        let q = jmes::search("[?role == 'button'].name", &Value::Array(f)).unwrap();
        assert_eq!(q, json!(["Go"]));
    }

    #[test]
    fn pages_walk_through_everything() {
        let items: Vec<Value> = (0..45).map(|i| json!(i)).collect();
        let mut seen = Vec::new();
        let mut p = Paging {
            limit: Some(20),
            offset: Some(0),
            cache_key: None,
        };
        loop {
            let v = page(&items, &p, "k");
            seen.extend(v["items"].as_array().unwrap().iter().cloned());
            if v["has_more"] == false {
                break;
            }
            p.offset = Some(p.offset.unwrap() + 20);
        }
        assert_eq!(seen, items);
        assert!(
            Paging {
                limit: Some(0),
                ..Default::default()
            }
            .validate()
            .unwrap_err()
            .to_string()
            .contains("between 1 and 10000")
        );
        assert!(
            Paging {
                limit: Some(10_001),
                ..Default::default()
            }
            .validate()
            .is_err()
        );
    }

    #[test]
    fn yaml_output() {
        let y = format_value(&json!({"items": [{"role": "button"}]}), true, false).unwrap();
        assert!(y.contains("role: button"), "{y}");
    }
}
