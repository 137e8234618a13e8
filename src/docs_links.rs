//! The docs hold together: every relative link in README.md, BENCHMARKS.md, docs/ and bench/
//! reaches a file, every `#anchor` a heading of that file (GitHub's slug rule: lower case,
//! punctuation other than `-` and `_` dropped, spaces to hyphens, repeats numbered `-1`,
//! `-2`...), and every `docs/....md#anchor` the code cites (src/, js/src/, scripts/) exists.

use regex::Regex;
use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_under(dir: &Path, ext: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, ext, out);
        } else if p
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| ext.contains(&x))
        {
            out.push(p);
        }
    }
}

/// GitHub's anchor for a heading's text.
fn slug(heading: &str) -> String {
    let lower = heading.trim().to_lowercase();
    let kept: String = lower
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .collect();
    kept.replace(' ', "-")
}

/// The anchors of a Markdown file's headings (outside code fences), repeats numbered.
fn anchors(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out = BTreeSet::new();
    let mut fence = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#'));
        let mut a = base.clone();
        let mut n = 0;
        while out.contains(&a) {
            n += 1;
            a = format!("{base}-{n}");
        }
        out.insert(a);
    }
    out
}

/// `base/link` with `.` and `..` folded, without touching the file system.
fn join(base: &Path, link: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for c in base.join(link).components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The problem with a link to `target#frag` from a file in `dir`, if any.
fn check(dir: &Path, from: &Path, link: &str) -> Option<String> {
    let (target, frag) = link.split_once('#').unwrap_or((link, ""));
    let path = if target.is_empty() {
        from.to_path_buf()
    } else {
        join(dir, target)
    };
    if !path.exists() {
        return Some(format!("no file {}", path.display()));
    }
    if !frag.is_empty() && path.is_file() && !anchors(&path).contains(frag) {
        return Some(format!("no heading #{frag} in {}", path.display()));
    }
    None
}

fn markdown_files() -> Vec<PathBuf> {
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("BENCHMARKS.md")];
    files_under(&root.join("docs"), &["md"], &mut files);
    files_under(&root.join("bench"), &["md"], &mut files);
    files
}

#[test]
fn every_docs_link_reaches_a_file_and_heading() {
    let code_span = Regex::new(r"(?s)```.*?```|`[^`\n]*`").unwrap();
    let link = Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    let scheme = Regex::new(r"^[a-z]+:").unwrap();
    let mut bad = Vec::new();
    let files = markdown_files();
    assert!(
        files.len() > 10,
        "the docs are where docs/contributing.md says"
    );
    let mut seen = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let text = code_span.replace_all(&text, "");
        for m in link.captures_iter(&text) {
            let l = &m[1];
            if scheme.is_match(l) {
                continue;
            }
            seen += 1;
            assert!(!l.starts_with('/'), "{}: absolute link {l}", f.display());
            if let Some(p) = check(f.parent().unwrap(), f, l) {
                bad.push(format!("{}: {l}: {p}", f.display()));
            }
        }
    }
    assert!(seen > 50, "links were read ({seen})");
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn every_docs_citation_in_the_code_exists() {
    let cite = Regex::new(r"docs/[A-Za-z0-9_/.-]+\.md(#[A-Za-z0-9_-]+)?").unwrap();
    let root = root();
    let mut code = Vec::new();
    for d in ["src", "js/src", "scripts", "tests"] {
        files_under(&root.join(d), &["rs", "js", "sh"], &mut code);
    }
    let mut bad = Vec::new();
    let mut seen = 0;
    for f in &code {
        let text = std::fs::read_to_string(f).unwrap();
        for m in cite.find_iter(&text) {
            let c = m.as_str();
            // this file's own examples
            if f.ends_with("docs_links.rs") {
                continue;
            }
            seen += 1;
            if let Some(p) = check(&root, f, c) {
                bad.push(format!("{}: {c}: {p}", f.display()));
            }
        }
    }
    assert!(seen > 20, "citations were read ({seen})");
    assert!(
        bad.is_empty(),
        "citations to missing docs:\n{}",
        bad.join("\n")
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug(" How the walk stays cheap"),
        "how-the-walk-stays-cheap"
    );
    assert_eq!(slug("Refs: `s<n>e<m>` (versioned)"), "refs-snem-versioned");
    assert_eq!(slug("Exit codes & faults"), "exit-codes--faults");
}
