//! The house rules that are not about code structure, held by tests (issue 56): every source
//! file is named in docs/contributing.md's layout and every file the layout names exists; a
//! comment that cites a file of the repository cites one that exists; no source file is over
//! 800 lines.

use regex::Regex;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Files under `dir` (relative to the repository), recursively, whose names end with one of
/// `ends` (all files when it is empty), as paths relative to the repository.
fn files(dir: &str, ends: &[&str]) -> Vec<String> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(d) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join(dir), &mut out);
    let mut names: Vec<String> = out
        .iter()
        .map(|p| {
            p.strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|p| ends.is_empty() || ends.iter().any(|e| p.ends_with(e)))
        .collect();
    names.sort();
    names
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// docs/contributing.md's layout: the code block under `## Layout`.
fn layout_block() -> String {
    let doc = read("docs/contributing.md");
    let from = doc.find("## Layout").expect("a Layout section");
    let rest = &doc[from..];
    let start = rest.find("```\n").expect("the layout's code block") + 4;
    let len = rest[start..]
        .find("```")
        .expect("the end of the layout block");
    rest[start..start + len].to_string()
}

/// One entry of the layout: the paths in its first column and its whole text.
struct Entry {
    key: String,
    text: String,
}

/// The layout's entries: a line that starts in the first column opens one, indented lines
/// continue it. Its key is the first column (up to two spaces in a row).
fn entries(block: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for line in block.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            let key = line.split("  ").next().unwrap_or("").trim().to_string();
            out.push(Entry {
                key,
                text: line.to_string(),
            });
        } else if let Some(e) = out.last_mut() {
            e.text.push('\n');
            e.text.push_str(line);
        }
    }
    out
}

/// The entry whose key names the top-level directory `dir` of src/ (`src/steps/`, or
/// `engine/` after `src/engine.rs, `).
fn entry_of<'a>(entries: &'a [Entry], dir: &str) -> Option<&'a Entry> {
    entries.iter().find(|e| {
        e.key.starts_with("src/")
            && e.key
                .split([',', ' '])
                .map(|k| k.trim().trim_start_matches("src/"))
                .any(|k| k == format!("{dir}/"))
    })
}

fn has_word(text: &str, word: &str) -> bool {
    Regex::new(&format!(
        r"(^|[^A-Za-z0-9_]){}($|[^A-Za-z0-9_])",
        regex::escape(word)
    ))
    .unwrap()
    .is_match(text)
}

/// Why a source file is not named in the layout, if it is not: a top-level file by its path
/// (`src/NAME.rs`, or `NAME.rs` in a key that starts with `src/`), a file or folder deeper down by
/// its module's name in the entry of its top-level folder.
fn unnamed(block: &str, entries: &[Entry], file: &str) -> Option<String> {
    let rel = file.trim_start_matches("src/");
    let parts: Vec<&str> = rel.split('/').collect();
    if parts.len() == 1 {
        let in_key = entries
            .iter()
            .any(|e| e.key.starts_with("src/") && e.key.split([',', ' ']).any(|k| k == rel));
        return (!has_word(block, file) && !in_key).then(|| format!("{file}: not in the layout"));
    }
    let Some(entry) = entry_of(entries, parts[0]) else {
        return Some(format!("{file}: no layout entry for src/{}/", parts[0]));
    };
    // every module on the way down: src/steps/changes/words.rs needs `changes` and `words`
    for (i, part) in parts.iter().enumerate().skip(1) {
        let module = part.trim_end_matches(".rs");
        let last = i == parts.len() - 1;
        if last && (module == "mod" || module == "tests") {
            // a folder's own module, or the unit tests beside the code (## Tests says so)
            continue;
        }
        if !has_word(&entry.text, module) {
            return Some(format!(
                "{file}: `{module}` is not named in the layout's entry for src/{}/",
                parts[0]
            ));
        }
    }
    None
}

/// Issue 56: every source file under src/, js/src/ and js/hooks/ is named in the layout of
/// docs/contributing.md (js/src/ in the table of the engine's files).
#[test]
fn every_source_file_is_in_the_layout() {
    let block = layout_block();
    let entries = entries(&block);
    let mut missing: Vec<String> = files("src", &[".rs"])
        .iter()
        .filter_map(|f| unnamed(&block, &entries, f))
        .collect();
    let doc = read("docs/contributing.md");
    for f in files("js/src", &[".js"]) {
        let name = f.trim_start_matches("js/src/");
        if !doc.contains(&format!("| `{name}` |")) {
            missing.push(format!("{f}: no row in the table of the engine's files"));
        }
    }
    for f in files("js/hooks", &[]) {
        let name = f.trim_start_matches("js/hooks/");
        if !has_word(&block, name) {
            missing.push(format!("{f}: not in the layout's js/hooks/ entry"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/contributing.md#layout leaves out:\n{}",
        missing.join("\n")
    );
    // the check can fail: a made-up file is not named
    assert!(unnamed(&block, &entries, "src/steps/nowhere.rs").is_some());
}

/// Does `name` (a file or a folder ending in `/`) exist under `dir` or any folder below it?
fn exists_below(dir: &Path, name: &str) -> bool {
    if dir.join(name).exists() {
        return true;
    }
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| e.path().is_dir() && exists_below(&e.path(), name))
}

/// Issue 56: every file and folder the layout names exists: paths from the repository's
/// root (`src/...`, `js/...`, `fixtures/...`), file and folder names in the entries of
/// src/ (under the entry's folder or src/), and the engine table's files.
#[test]
fn every_file_the_layout_names_exists() {
    let block = layout_block();
    let mut gone = Vec::new();
    let rooted = Regex::new(
        r"(?:^|[\s(,;])((?:src|js|tests|fixtures|scripts|docs)/[A-Za-z0-9_./-]*|build\.rs)",
    )
    .unwrap();
    let named = Regex::new(r"(?:^|[\s(,;])([a-z_][a-z0-9_/]*(?:\.rs|/))(?:[\s),;:]|$)").unwrap();
    for e in entries(&block) {
        let here = e
            .key
            .split([',', ' '])
            .find_map(|k| k.strip_prefix("src/").filter(|k| k.ends_with('/')))
            .map(|d| root().join("src").join(d));
        for line in e.text.lines() {
            for c in rooted.captures_iter(line) {
                let p = c[1].trim_end_matches(['.', ':']);
                if !root().join(p).exists() {
                    gone.push(format!("{p} (in {:?})", e.key));
                }
            }
            if !e.key.starts_with("src/") {
                continue;
            }
            for c in named.captures_iter(line) {
                let p = &c[1];
                let start = c.get(1).unwrap().start();
                if line[..start].ends_with("src/") || p.starts_with("src/") {
                    continue;
                }
                let found = here.as_ref().is_some_and(|d| exists_below(d, p))
                    || root().join("src").join(p).exists();
                if !found {
                    gone.push(format!("{p} (in {:?})", e.key));
                }
            }
        }
    }
    let doc = read("docs/contributing.md");
    for c in Regex::new(r"\| `([0-9]{2}_[a-z_]+\.js)` \|")
        .unwrap()
        .captures_iter(&doc)
    {
        if !root().join("js/src").join(&c[1]).exists() {
            gone.push(format!("js/src/{} (in the engine's table)", &c[1]));
        }
    }
    assert!(
        gone.is_empty(),
        "docs/contributing.md#layout names what does not exist:\n{}",
        gone.join("\n")
    );
}

/// Paths a comment cites that are not this repository's: files of Playwright's checkout that
/// the accname script reads.
const FOREIGN: &[&str] = &["tests/assets/wpt", "tests/library/"];

/// Words that stand for a part of a path in a comment (`fixtures/html/skills/PATH.html`).
const PLACEHOLDERS: &[&str] = &["NAME", "PATH", "N"];

/// The comment lines of a source file: `//`, `/*`, `*` lines of Rust and JavaScript, `#`
/// lines of shell scripts (a comment after code on the same line is not read).
fn comment_lines(file: &str, text: &str) -> Vec<(usize, String)> {
    let shell = file.ends_with(".sh") || file == ".ci/run";
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let t = l.trim_start();
            let is = if shell {
                t.starts_with('#') && !t.starts_with("#!")
            } else {
                t.starts_with("//") || t.starts_with("/*") || t.starts_with("* ")
            };
            is.then(|| (i + 1, t.to_string()))
        })
        .collect()
}

/// The repository paths a comment line cites (`src/...`, `docs/...#anchor` without its
/// anchor), leaving out patterns (`*`, `<name>`, `NAME`, `...`).
fn cited(line: &str) -> Vec<String> {
    static RE: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(
            r"(?:^|[^A-Za-z0-9_./@-])((?:src|js|docs|tests|scripts|fixtures)/[A-Za-z0-9_./*<>{}-]*)",
        )
        .unwrap()
    });
    RE.captures_iter(line)
        .map(|c| c[1].trim_end_matches(['.', ',', ':', ')']).to_string())
        .filter(|p| {
            !p.contains(['*', '<', '{'])
                && !p.contains("..")
                && !p.split(['/', '.', '-']).any(|w| PLACEHOLDERS.contains(&w))
                && !FOREIGN.iter().any(|f| p.starts_with(f))
        })
        .collect()
}

/// The Rust files a comment line names without a root (`steps/runner.rs`, `runner.rs`).
fn cited_modules(line: &str) -> Vec<String> {
    static RE: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r"(?:^|[^A-Za-z0-9_./@-])([a-z_][a-z0-9_/]*\.rs)\b").unwrap()
    });
    RE.captures_iter(line)
        .map(|c| c[1].to_string())
        .filter(|p| !p.starts_with("src/") && !p.starts_with("tests/"))
        .collect()
}

/// Is the Rust file `p`, named in a comment of `file`, there: beside `file` or above it, under
/// src/, or by its file name anywhere under src/ and tests/?
fn module_exists(file: &str, p: &str, names: &BTreeSet<String>) -> bool {
    let mut dir = root().join(file);
    while dir.pop() {
        if dir.join(p).exists() {
            return true;
        }
        if dir == root() {
            break;
        }
    }
    let base = p.rsplit('/').next().unwrap_or(p);
    root().join("src").join(p).exists() || (!p.contains('/') && names.contains(base))
}

/// Issue 56: a comment that cites a file or folder of the repository (src/, js/, docs/,
/// tests/, scripts/, fixtures/) cites one that exists, and so does a Rust or JavaScript
/// comment that names a Rust file without its root (`steps/runner.rs`, `runner.rs`).
#[test]
fn comments_cite_files_that_exist() {
    let mut all = files("src", &[".rs"]);
    all.extend(files("js/src", &[".js"]));
    all.extend(files("js/hooks", &[".js"]));
    all.extend(files("tests", &[".rs", ".js", ".mjs"]));
    all.extend(files("scripts", &[".sh", ".js", ".mjs"]));
    all.extend(["build.rs".to_string(), ".ci/run".to_string()]);
    let rust = files("src", &[".rs"])
        .into_iter()
        .chain(files("tests", &[".rs"]));
    let names: BTreeSet<String> = rust
        .map(|f| f.rsplit('/').next().unwrap_or_default().to_string())
        .collect();
    let mut stale = BTreeSet::new();
    for f in &all {
        for (n, line) in comment_lines(f, &read(f)) {
            for p in cited(&line) {
                if !root().join(&p).exists() {
                    stale.insert(format!("{f}:{n}: {p}"));
                }
            }
            let code = f.ends_with(".rs") || f.ends_with(".js") || f.ends_with(".mjs");
            for p in cited_modules(&line).into_iter().filter(|_| code) {
                if !module_exists(f, &p, &names) {
                    stale.insert(format!("{f}:{n}: {p}"));
                }
            }
        }
    }
    assert!(
        stale.is_empty(),
        "comments cite files that do not exist:\n{}",
        stale.into_iter().collect::<Vec<_>>().join("\n")
    );
    // the reading can fail: a cited path is found with its anchor and full stop dropped
    assert_eq!(
        cited("// see docs/reference/replies.md#changes."),
        ["docs/reference/replies.md"]
    );
    assert!(!module_exists("src/steps/reply.rs", "changes.rs", &names));
    assert!(module_exists(
        "src/steps/reply.rs",
        "changes/mod.rs",
        &names
    ));
}

/// The longest a source file may be.
const MAX_LINES: usize = 800;

/// The source files (src/, js/src/, js/hooks/) over `max` lines, with their lengths.
fn over_lines(max: usize) -> Vec<String> {
    let mut all = files("src", &[".rs"]);
    all.extend(files("js/src", &[".js"]));
    all.extend(files("js/hooks", &[".js"]));
    all.iter()
        .map(|f| (f, read(f).lines().count()))
        .filter(|(_, n)| *n > max)
        .map(|(f, n)| format!("{f}: {n} lines"))
        .collect()
}

/// Issue 56: no source file (src/, js/src/, js/hooks/) is over 800 lines. The six that were
/// when the rule came in were split along what their parts own; there are no exceptions.
#[test]
fn no_source_file_over_800_lines() {
    let long = over_lines(MAX_LINES);
    assert!(
        long.is_empty(),
        "split these (no source file over {MAX_LINES} lines):\n{}",
        long.join("\n")
    );
    // the check can fail: it reads the real files, and some are over half the limit
    assert!(!over_lines(MAX_LINES / 2).is_empty());
}

/// Issue 56: every module of the end-to-end suite opens with a `//!` line that says what it
/// covers (ripgrep's tests do the same), so a name in a CI log leads to its subject.
#[test]
fn every_test_module_says_what_it_covers() {
    let silent: Vec<String> = files("tests/it", &[".rs"])
        .into_iter()
        .filter(|f| !read(f).starts_with("//! "))
        .collect();
    assert!(
        silent.is_empty(),
        "test modules without a `//!` line on top: {silent:?}"
    );
}
