//! ariasnap: faithful, compact, actionable accessibility snapshots of web pages for AI agents.
//!
//! Two halves meet at one boundary: a JavaScript engine injected into the page (built from
//! `js/src` by build.rs, reached only through [`engine`]) walks the DOM and computes roles,
//! names and refs; this crate drives the browser over WebDriver, renders, diffs, spills and
//! runs steps. The command line (`cli`, `app`, `demo`) lives in the binary, not here.

pub mod actions;
pub mod browser;
pub mod capture;
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

#[cfg(test)]
mod layering {
    //! The module graph has no circles (issue 13, ARCHITECTURE): each top-level module's
    //! `crate::X` references, read from the sources, form an acyclic graph.

    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                sources(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    #[test]
    fn top_level_modules_form_no_circle() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let re = regex::Regex::new(r"\bcrate::([a-z_]+)").unwrap();
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for f in files {
            let rel = f.strip_prefix(&src).unwrap().to_string_lossy().to_string();
            // the binary's own modules (main.rs, app, cli, demo) are not the library's
            if ["main.rs", "app.rs", "cli.rs", "demo.rs", "lib.rs"].contains(&rel.as_str()) {
                continue;
            }
            let module = rel
                .split('/')
                .next()
                .unwrap()
                .trim_end_matches(".rs")
                .to_string();
            let text = std::fs::read_to_string(&f).unwrap();
            let deps = graph.entry(module.clone()).or_default();
            for c in re.captures_iter(&text) {
                if c[1] != module {
                    deps.insert(c[1].to_string());
                }
            }
        }
        // depth-first search for a back edge
        fn visit(
            m: &str,
            g: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
        ) {
            if done.contains(m) {
                return;
            }
            if let Some(i) = path.iter().position(|p| p == m) {
                panic!("module circle: {} -> {m}", path[i..].join(" -> "));
            }
            path.push(m.to_string());
            for d in g.get(m).into_iter().flatten() {
                visit(d, g, path, done);
            }
            path.pop();
            done.insert(m.to_string());
        }
        let mut done = BTreeSet::new();
        for m in graph.keys() {
            visit(m, &graph, &mut Vec::new(), &mut done);
        }
        for banned in ["app", "cli", "demo"] {
            for (m, deps) in &graph {
                assert!(
                    !deps.contains(banned),
                    "library module {m} uses the binary's {banned}"
                );
            }
        }
    }
}
