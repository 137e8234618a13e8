//! ariasnap: faithful, compact, actionable accessibility snapshots of web pages for AI agents.
//!
//! Two halves meet at one boundary: a JavaScript engine injected into the page (built from
//! `js/src` by build.rs, reached only through [`engine`]) walks the DOM and computes roles,
//! names and refs; this crate drives the browser over WebDriver, renders, diffs, spills and
//! runs steps. The command line (`cli`, `app`, `demo`) lives in the binary, not here.

pub mod actions;
pub mod annotate;
pub mod browser;
pub mod capture;
pub mod dialogs;
pub mod doctor;
pub mod engine;
pub mod error;
pub mod mcp;
pub mod near;
pub mod notes;
pub mod output;
pub mod policy;
pub mod private;
pub mod query;
pub mod refs;
pub mod safe;
pub mod serve;
pub mod skills;
pub mod snapshot;
pub mod spill;
pub mod steps;
pub mod vault;
pub mod wire;

pub use error::{Error, Result};

#[cfg(test)]
mod docs_links;

#[cfg(test)]
mod rules;

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

    /// `text` with comments and the contents of string and character literals blanked
    /// (newlines kept), so braces can be counted: Rust (raw strings, lifetimes) and the
    /// engine's JavaScript (template literals; it writes no regular expression literals).
    fn code_only(text: &str) -> String {
        let c: Vec<char> = text.chars().collect();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
        let at = |i: usize| c.get(i).copied().unwrap_or('\0');
        while i < c.len() {
            if c[i] == '/' && at(i + 1) == '/' {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            } else if c[i] == '/' && at(i + 1) == '*' {
                i += 2;
                while i < c.len() && !(c[i] == '*' && at(i + 1) == '/') {
                    out.push(blank(c[i]));
                    i += 1;
                }
                i += 2;
            } else if c[i] == 'r' && (at(i + 1) == '"' || at(i + 1) == '#') && {
                let mut k = 1;
                while at(i + k) == '#' {
                    k += 1;
                }
                at(i + k) == '"'
            } {
                // raw string r#"..."#
                let mut hashes = 0;
                i += 1;
                while c[i] == '#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1;
                out.push_str("\"\"");
                loop {
                    if i >= c.len() {
                        break;
                    }
                    if c[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    out.push(blank(c[i]));
                    i += 1;
                }
            } else if c[i] == '"' || c[i] == '`' || (c[i] == '\'' && is_char_literal(&c, i)) {
                let q = c[i];
                i += 1;
                out.push_str("\"\"");
                while i < c.len() && c[i] != q {
                    if c[i] == '\\' {
                        i += 1;
                    }
                    if i < c.len() {
                        out.push(blank(c[i]));
                    }
                    i += 1;
                }
                i += 1;
            } else {
                out.push(c[i]);
                i += 1;
            }
        }
        out
    }

    /// A quote at `i` opens a character (Rust) or string (JS) literal, not a lifetime.
    fn is_char_literal(c: &[char], i: usize) -> bool {
        let at = |k: usize| c.get(i + k).copied().unwrap_or('\0');
        at(1) == '\\' || at(2) == '\'' || !(at(1).is_alphanumeric() || at(1) == '_')
    }

    /// Functions longer than `max` lines (from the line that declares them to their closing
    /// brace, nested functions included) in Rust and JS sources.
    fn long_functions(path: &Path, max: usize) -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        let code = code_only(&text);
        let lines: Vec<&str> = code.lines().collect();
        let start = regex::Regex::new(
            r"^\s*(pub(\([^)]*\))?\s+)?((async|const|unsafe|extern)\s+)*fn\s+(\w+)|^\s*(async\s+)?function\s*\*?\s*(\w*)\s*\(|^\s*(\w+)\s*:\s*function\b",
        )
        .unwrap();
        let mut out = Vec::new();
        for (n, line) in lines.iter().enumerate() {
            let Some(m) = start.captures(line) else {
                continue;
            };
            let name = [5, 7, 8]
                .iter()
                .find_map(|&g| m.get(g).map(|x| x.as_str()))
                .unwrap_or("?");
            let mut depth = 0i64;
            let mut opened = false;
            'scan: for (k, l) in lines.iter().enumerate().skip(n) {
                for ch in l.chars() {
                    match ch {
                        '{' => {
                            depth += 1;
                            opened = true;
                        }
                        '}' => depth -= 1,
                        ';' if !opened && depth == 0 => break 'scan,
                        _ => {}
                    }
                    if opened && depth == 0 {
                        let len = k - n + 1;
                        if len > max {
                            out.push(format!(
                                "{}:{} {name}: {len} lines",
                                path.file_name().unwrap_or_default().to_string_lossy(),
                                n + 1
                            ));
                        }
                        break 'scan;
                    }
                }
            }
        }
        out
    }

    /// Issue 13: no function over 120 lines, in Rust (library, binary, build script) or in
    /// the engine's JavaScript.
    #[test]
    fn no_function_over_120_lines() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        sources(&root.join("src"), &mut files);
        files.push(root.join("build.rs"));
        for e in std::fs::read_dir(root.join("js/src")).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "js") {
                files.push(e.path());
            }
        }
        let long: Vec<String> = files.iter().flat_map(|f| long_functions(f, 120)).collect();
        assert!(
            long.is_empty(),
            "functions over 120 lines:\n{}",
            long.join("\n")
        );
        // the scanner finds what it must: this very test module's functions
        let me = long_functions(&root.join("src/lib.rs"), 10);
        assert!(me.iter().any(|l| l.contains("code_only")), "{me:?}");
    }

    /// A module's path (`["steps", "input"]`) from its file under src/.
    fn module_path(rel: &str) -> Vec<String> {
        let mut segs: Vec<String> = rel
            .trim_end_matches(".rs")
            .split('/')
            .map(String::from)
            .collect();
        if segs.last().is_some_and(|s| s == "mod") {
            segs.pop();
        }
        segs
    }

    /// The paths a source names through `crate::`, `super::` and `self::` (braced groups
    /// expanded one level: `super::{self, a, b::c}` names `super`, `super::a` and
    /// `super::b`), made absolute from `module`, the module the source is.
    fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
        let re =
            regex::Regex::new(r"\b((?:crate|super|self)(?:::(?:super|\w+))*)::(\{[^}]*\}|\w+)")
                .unwrap();
        let mut out = Vec::new();
        for c in re.captures_iter(code) {
            let head: Vec<&str> = c[1].split("::").collect();
            let mut base: Vec<String> = Vec::new();
            for (i, s) in head.iter().enumerate() {
                match *s {
                    "crate" if i == 0 => base.clear(),
                    "self" if i == 0 => base = module.to_vec(),
                    "super" => {
                        if i == 0 {
                            base = module.to_vec();
                        }
                        base.pop();
                    }
                    s => base.push(s.to_string()),
                }
            }
            let tail = &c[2];
            let items: Vec<String> = if let Some(inner) = tail.strip_prefix('{') {
                inner
                    .trim_end_matches('}')
                    .split(',')
                    .filter_map(|x| x.trim().split("::").next().map(str::to_string))
                    .filter(|x| !x.is_empty())
                    .collect()
            } else {
                vec![tail.to_string()]
            };
            for it in items {
                // `a::{self, b}` names `a` itself
                let mut p = base.clone();
                if it != "self" {
                    p.push(it);
                }
                if !p.is_empty() {
                    out.push(p);
                }
            }
        }
        out
    }

    /// The circles of a module graph, each once, as `a -> b -> a`.
    fn circles_in(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
        fn visit(
            m: &str,
            g: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
            circles: &mut Vec<String>,
        ) {
            if done.contains(m) {
                return;
            }
            if let Some(i) = path.iter().position(|p| p == m) {
                circles.push(format!("{} -> {m}", path[i..].join(" -> ")));
                return;
            }
            path.push(m.to_string());
            for d in g.get(m).into_iter().flatten() {
                visit(d, g, path, done, circles);
            }
            path.pop();
            done.insert(m.to_string());
        }
        let mut done = BTreeSet::new();
        let mut found = Vec::new();
        for m in g.keys() {
            visit(m, g, &mut Vec::new(), &mut done, &mut found);
        }
        found
    }

    /// Submodules form no circle either (issue 43): inside each module with children
    /// (`steps/`, `snapshot/`, `engine/`...), the children's references to one another
    /// (`super::x`, `crate::steps::x`, or an item the parent re-exports from `x`) are
    /// acyclic. The parent's own code counts as a node ("mod"); its `mod` and `pub use`
    /// lines, which only declare and re-export, do not. Unit tests are left out.
    #[test]
    fn submodules_form_no_circle() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let rel = |f: &Path| f.strip_prefix(&src).unwrap().to_string_lossy().to_string();
        // each parent's children, and the items it re-exports from them
        let mut children: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
        for f in &files {
            let m = module_path(&rel(f));
            if m.len() > 1 {
                let (parent, child) = m.split_at(m.len() - 1);
                children
                    .entry(parent.to_vec())
                    .or_default()
                    .insert(child[0].clone());
            }
        }
        let reexport = regex::Regex::new(r"(?m)^pub use (\w+)::(\{[^}]*\}|\w+);").unwrap();
        let mut owner: BTreeMap<(Vec<String>, String), String> = BTreeMap::new();
        let mut codes = Vec::new();
        for f in &files {
            let r = rel(f);
            if ["main.rs", "app.rs", "cli.rs", "demo.rs", "lib.rs"].contains(&r.as_str()) {
                continue;
            }
            let m = module_path(&r);
            let text = std::fs::read_to_string(f).unwrap();
            let text = match text.find("#[cfg(test)]\nmod tests") {
                Some(i) => text[..i].to_string(),
                None => text,
            };
            for c in reexport.captures_iter(&text) {
                for item in c[2].trim_matches(|ch| ch == '{' || ch == '}').split(',') {
                    let item = item.trim().rsplit(' ').next().unwrap_or("").to_string();
                    if !item.is_empty() {
                        owner.insert((m.clone(), item), c[1].to_string());
                    }
                }
            }
            let code: String = code_only(&text)
                .lines()
                .filter(|l| {
                    !(l.starts_with("pub use ")
                        || l.starts_with("mod ")
                        || l.starts_with("pub mod "))
                })
                .collect::<Vec<_>>()
                .join("\n");
            codes.push((m, code));
        }
        let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        for (m, code) in &codes {
            for p in named_paths(code, m) {
                // the deepest parent both sit under, where they part
                let common = m.iter().zip(&p).take_while(|(a, b)| a == b).count();
                let parent = p[..common].to_vec();
                let Some(kids) = children.get(&parent) else {
                    continue;
                };
                let from = m.get(common).cloned().unwrap_or_else(|| "mod".into());
                let Some(next) = p.get(common) else {
                    continue;
                };
                let to = if kids.contains(next) {
                    next.clone()
                } else {
                    owner
                        .get(&(parent.clone(), next.clone()))
                        .cloned()
                        .unwrap_or_else(|| "mod".into())
                };
                if from != to && !parent.is_empty() {
                    graphs
                        .entry(parent)
                        .or_default()
                        .entry(from)
                        .or_default()
                        .insert(to);
                }
            }
        }
        let mut circles = Vec::new();
        for (parent, g) in &graphs {
            circles.extend(
                circles_in(g)
                    .into_iter()
                    .map(|c| format!("{}: {c}", parent.join("/"))),
            );
        }
        assert!(
            circles.is_empty(),
            "submodule circles:\n{}",
            circles.join("\n")
        );
        // the test sees what it must: steps/ has its concept modules and their edges
        let steps = &graphs[&vec!["steps".to_string()]];
        assert!(steps["action"].contains("input"), "{steps:?}");
        assert!(steps["input"].contains("points"), "{steps:?}");
    }

    /// The one door (ARCHITECTURE): only src/engine.rs and src/engine/ name the WebDriver
    /// client, so every call into the browser goes through `engine` with a typed reply, and
    /// its types (the client, its errors, window handles, cookies, actions) stay behind it.
    /// Comments count too.
    #[test]
    fn only_the_engine_names_the_webdriver_client() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        // (spelt in two halves, so that this file does not name it)
        let client = ["fanto", "ccini"].concat();
        let mut inside = 0;
        let mut outside = Vec::new();
        for f in files {
            let rel = f.strip_prefix(&src).unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&f).unwrap();
            let names = text.matches(&client).count();
            if rel == "engine.rs" || rel.starts_with("engine/") {
                inside += names;
            } else if names > 0 {
                outside.push(rel);
            }
        }
        outside.sort();
        assert!(
            outside.is_empty(),
            "files outside src/engine.rs and src/engine/ that name {client}: {}",
            outside.join(", ")
        );
        // the test reads what it must: the engine does name it
        assert!(inside > 0);
    }

    /// The library's top-level modules and the ones each names (`crate::x`, `crate::{x, y}`,
    /// `super::x` from a top-level file, or an item lib.rs re-exports from `x`), read from
    /// the code (comments and strings left out), unit tests included. The binary's own
    /// modules (main.rs, app, cli, demo) are not the library's.
    fn top_level_graph() -> BTreeMap<String, BTreeSet<String>> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let binary = ["main.rs", "app.rs", "cli.rs", "demo.rs"];
        let rel = |f: &Path| f.strip_prefix(&src).unwrap().to_string_lossy().to_string();
        let top = |r: &str| {
            r.split('/')
                .next()
                .unwrap()
                .trim_end_matches(".rs")
                .to_string()
        };
        let modules: BTreeSet<String> = files
            .iter()
            .map(|f| rel(f))
            .filter(|r| !binary.contains(&r.as_str()) && r != "lib.rs")
            .map(|r| top(&r))
            .collect();
        // what lib.rs re-exports (`pub use error::{Error, Result}`): `crate::Error` is error's
        let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
        let reexport = regex::Regex::new(r"(?m)^pub use (\w+)::(\{[^}]*\}|\w+);").unwrap();
        let mut owner: BTreeMap<String, String> = BTreeMap::new();
        for c in reexport.captures_iter(&lib) {
            for item in c[2].trim_matches(|ch| ch == '{' || ch == '}').split(',') {
                let item = item.trim().rsplit(' ').next().unwrap_or("").to_string();
                owner.insert(item, c[1].to_string());
            }
        }
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for f in &files {
            let r = rel(f);
            if binary.contains(&r.as_str()) || r == "lib.rs" {
                continue;
            }
            let m = module_path(&r);
            let code = code_only(&std::fs::read_to_string(f).unwrap());
            let deps = graph.entry(m[0].clone()).or_default();
            for p in named_paths(&code, &m) {
                let to = if modules.contains(&p[0]) {
                    Some(&p[0])
                } else {
                    owner.get(&p[0])
                };
                if let Some(to) = to.filter(|t| **t != m[0]) {
                    deps.insert(to.clone());
                }
            }
        }
        graph
    }

    #[test]
    fn top_level_modules_form_no_circle() {
        let graph = top_level_graph();
        let circles = circles_in(&graph);
        assert!(
            circles.is_empty(),
            "module circles:\n{}",
            circles.join("\n")
        );
        for banned in ["app", "cli", "demo"] {
            for (m, deps) in &graph {
                assert!(
                    !deps.contains(banned),
                    "library module {m} uses the binary's {banned}"
                );
            }
        }
    }

    /// Small shared things every layer may use, importing nothing from the crate: the
    /// `near` of search, private places on disk, the one escaper.
    const LEAVES: &[&str] = &["near", "private", "safe", "vault"];

    /// Modules and what they must never reach through any chain of imports: views of a
    /// snapshot (`query`) drive no browser and pass no door; the browser's modules do not
    /// bring in the snapshot model.
    const NEVER_REACHES: &[(&str, &[&str])] = &[
        ("query", &["browser", "engine"]),
        ("browser", &["snapshot"]),
    ];

    /// Every module `m` reaches in `g`, through any chain of imports.
    fn reach(g: &BTreeMap<String, BTreeSet<String>>, m: &str) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![m.to_string()];
        while let Some(x) = todo.pop() {
            for d in g.get(&x).into_iter().flatten() {
                if seen.insert(d.clone()) {
                    todo.push(d.clone());
                }
            }
        }
        seen
    }

    /// The layering rules `g` breaks: a leaf that imports from the crate, `error` importing
    /// more than leaves (everything uses it: it must bring nothing else in), a module that
    /// reaches what [`NEVER_REACHES`] forbids it.
    fn broken_layers(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
        let mut out = Vec::new();
        let deps = |m: &str| g.get(m).cloned().unwrap_or_default();
        for leaf in LEAVES {
            if !deps(leaf).is_empty() {
                out.push(format!("leaf {leaf} imports {:?}", deps(leaf)));
            }
        }
        for d in deps("error") {
            if !LEAVES.contains(&d.as_str()) {
                out.push(format!("error imports {d}, not a leaf"));
            }
        }
        for (m, banned) in NEVER_REACHES {
            let r = reach(g, m);
            for b in banned.iter().filter(|b| r.contains(**b)) {
                let via: Vec<String> = deps(m)
                    .into_iter()
                    .filter(|d| d == b || reach(g, d).contains(*b))
                    .collect();
                out.push(format!("{m} reaches {b} (through {via:?})"));
            }
        }
        out
    }

    /// The "house" issue: the leaves import nothing, `error` only leaves, `query/` reaches
    /// neither the browser nor the door (engine), `browser/` not the snapshot model.
    #[test]
    fn leaves_and_reach_hold() {
        let g = top_level_graph();
        let broken = broken_layers(&g);
        assert!(broken.is_empty(), "layering:\n{}", broken.join("\n"));
        // the test sees what it must: every leaf is a module, a braced `use crate::{..}` is
        // read (steps/files.rs), chains are followed
        for leaf in LEAVES {
            assert!(g.contains_key(*leaf), "no module {leaf}: {g:?}");
        }
        assert!(g["steps"].contains("notes"), "{:?}", g["steps"]);
        assert!(reach(&g, "steps").contains("snapshot"));
        // and it fails when a rule is broken: query using steps (which drives the browser),
        // error using the snapshot model, a leaf using error
        let mut bad = g.clone();
        bad.get_mut("query").unwrap().insert("steps".into());
        bad.get_mut("error").unwrap().insert("snapshot".into());
        bad.get_mut("safe").unwrap().insert("error".into());
        let found = broken_layers(&bad);
        for expect in [
            "query reaches browser",
            "query reaches engine",
            "browser reaches snapshot",
            "error imports snapshot",
            "leaf safe imports",
        ] {
            assert!(
                found.iter().any(|f| f.contains(expect)),
                "{expect}: {found:?}"
            );
        }
    }
}
