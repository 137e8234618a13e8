//! What a snapshot request returns once detail, query, flatten, paging and silence are
//! applied (docs/reference/detail.md, docs/reference/search.md), and how it renders. Captures nothing: `steps::looking` takes the
//! snapshot and builds the view.

use crate::error::{Error, Result};
use crate::snapshot::Snapshot;
use crate::snapshot::detail;
use crate::snapshot::render::{self, RenderOptions};
use serde_json::{Value, json};

/// Detail levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    Full,
    Interactive,
    Summary,
}

impl Detail {
    pub fn parse(s: Option<&str>) -> Result<Detail> {
        match s.unwrap_or("full") {
            "full" => Ok(Detail::Full),
            "interactive" => Ok(Detail::Interactive),
            "summary" => Ok(Detail::Summary),
            other => Err(Error::Usage(format!(
                "unknown detail {other:?}: use full, interactive or summary"
            ))),
        }
    }
}

/// A snapshot request's answer.
pub enum View {
    /// A tree at some detail level.
    Tree(Box<Snapshot>, Detail),
    /// The full tree made to fit a budget of tokens (docs/reference/detail.md#budgets).
    Budgeted(Box<Snapshot>, u64),
    /// Data: query results, pages, silent captures, unchanged replies.
    Data(Value),
}

/// Output formats of a view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewFormat {
    Text,
    Json,
    Yaml,
}

impl ViewFormat {
    pub fn parse(s: Option<&str>) -> Result<ViewFormat> {
        match s.unwrap_or("text") {
            "text" => Ok(ViewFormat::Text),
            "json" => Ok(ViewFormat::Json),
            "yaml" => Ok(ViewFormat::Yaml),
            other => Err(Error::Usage(format!(
                "unknown output format {other:?}: use text, json or yaml"
            ))),
        }
    }
}

/// Renders a view as the CLI prints it.
pub fn render_view(v: &View, fmt: ViewFormat, verbose: bool, pretty: bool) -> Result<String> {
    let ropts = RenderOptions { verbose };
    match v {
        View::Data(d) => super::format_value(
            d,
            fmt == ViewFormat::Yaml,
            pretty || fmt == ViewFormat::Text,
        ),
        View::Tree(s, Detail::Full) => match fmt {
            ViewFormat::Text => Ok(render::to_text(s, &ropts)),
            ViewFormat::Json => Ok(render::to_json(s, &ropts, pretty)),
            ViewFormat::Yaml => super::format_value(&super::tree_value(s)?, true, false),
        },
        View::Tree(s, Detail::Interactive) => match fmt {
            ViewFormat::Text => Ok(detail::interactive_text(s, verbose)),
            _ => super::format_value(
                &detail::interactive_json(s),
                fmt == ViewFormat::Yaml,
                pretty,
            ),
        },
        View::Budgeted(s, tokens) => budgeted(s, *tokens, fmt, &ropts, pretty),
        View::Tree(s, Detail::Summary) => match fmt {
            ViewFormat::Text => Ok(detail::summary_text(s)),
            _ => super::format_value(&detail::summary_json(s), fmt == ViewFormat::Yaml, pretty),
        },
    }
}

/// Room kept for the `# elided:` and `# whole tree:` lines.
const FOOTER_ROOM: usize = 240;

/// A snapshot within a budget: the pruned tree and the `# elided:` footer (text), or
/// `elided` beside the tree (JSON); the whole tree when it fits.
fn budgeted(
    s: &Snapshot,
    tokens: u64,
    fmt: ViewFormat,
    ropts: &RenderOptions,
    pretty: bool,
) -> Result<String> {
    use crate::snapshot::budget;
    let bytes = budget::bytes_of(tokens).saturating_sub(FOOTER_ROOM);
    match fmt {
        ViewFormat::Text => {
            let r = |x: &Snapshot| render::to_text(x, ropts);
            Ok(match budget::fit(s, bytes, &r) {
                None => r(s),
                Some((pruned, f)) => format!("{}{}\n", r(&pruned), budget::footer_line(&f)),
            })
        }
        _ => {
            let r = |x: &Snapshot| render::to_json(x, ropts, pretty);
            let (tree, f) = match budget::fit(s, bytes, &r) {
                None => (r(s), None),
                Some((pruned, f)) => (r(&pruned), Some(f)),
            };
            let mut v: Value = serde_json::from_str(&tree).map_err(|source| Error::Json {
                what: "a rendered snapshot",
                source,
            })?;
            if let (Some(f), Some(m)) = (f, v.as_object_mut()) {
                m.insert(
                    "elided".into(),
                    json!({"nodes": f.nodes, "refs": f.refs, "subtrees": f.subtrees}),
                );
            }
            super::format_value(&v, fmt == ViewFormat::Yaml, pretty)
        }
    }
}

/// The refs map of a snapshot (`ref -> {role, name}`), for the `.refs.json` artifact.
pub fn refs_map(s: &Snapshot) -> Value {
    let mut m = serde_json::Map::new();
    for n in s.nodes.iter() {
        if let Some(r) = &n.ref_ {
            let mut e = json!({"role": n.role, "name": n.name});
            if let Some(w) = n.words() {
                e["text"] = w.into();
            }
            m.insert(r.clone(), e);
        }
    }
    Value::Object(m)
}

/// Refs maps above this many entries go to their own `.refs.json` when a reply spills.
pub const REFS_FILE_OVER: usize = 1000;
