//! The engine bundle's own checks: one IIFE stamped with its hash, and js/README.md's rules
//! over the sources it is made of (layers, page globals, per-walk caches).

use super::*;

#[test]
fn bundle_is_one_iife_with_its_hash() {
    assert!(ENGINE_JS.starts_with("(function(){"));
    assert!(ENGINE_JS.contains(&format!("const ENGINE_HASH = \"{ENGINE_HASH}\"")));
    assert_eq!(ENGINE_HASH.len(), 16);
    // every source file is in, in order
    let a = ENGINE_JS.find("00_prelude.js").unwrap();
    let b = ENGINE_JS.find("90_api.js").unwrap();
    assert!(a < b);
}

/// js/src with comments, strings and template literals blanked (regular expressions are
/// built with `re("...")`, never written as literals).
fn engine_files() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("js/src");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".js"))
        .collect();
    names.sort();
    let strip = regex::Regex::new(
        r#"(?s)//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`"#,
    )
    .unwrap();
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(dir.join(&n)).unwrap();
            let code = strip.replace_all(&text, "\"\"").into_owned();
            (n, code)
        })
        .collect()
}

/// Identifiers used as names (not `.property`, not `key:` of an object literal).
fn names_used(code: &str) -> Vec<String> {
    let id = regex::Regex::new(r"[A-Za-z_$][\w$]*").unwrap();
    let mut out = Vec::new();
    for m in id.find_iter(code) {
        let before = code[..m.start()].trim_end();
        let after = code[m.end()..].trim_start();
        let starts_here = code[..m.start()]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '$'));
        if !starts_here || before.ends_with('.') && !before.ends_with("...") {
            continue;
        }
        if after.starts_with(':') && !after.starts_with("::") {
            // an object key (or the middle of a ternary: a false negative at worst)
            continue;
        }
        out.push(m.as_str().to_string());
    }
    out
}

/// Issue 13: per-walk caches begin and end in the top layer only (90_api.js brackets
/// every engine call), so no lower layer can keep a cache past the call that made it.
#[test]
fn per_walk_caches_begin_and_end_in_the_top_layer() {
    let call = regex::Regex::new(r"\b(beginCaches|endCaches)\s*\(").unwrap();
    let def = regex::Regex::new(r"function\s+(beginCaches|endCaches)\s*\(").unwrap();
    let mut top_calls = 0;
    for (file, code) in engine_files() {
        let calls = call.find_iter(&code).count() - def.find_iter(&code).count();
        if file == "90_api.js" {
            top_calls = calls;
        } else {
            assert_eq!(calls, 0, "{file} begins or ends the per-walk caches");
        }
    }
    assert!(
        top_calls >= 2,
        "90_api.js must bracket engine calls with the caches"
    );
}

#[test]
fn engine_layers_and_globals() {
    // js/README.md's rules, checked over the sources the bundle is made of:
    // 1. a file uses only what files with a lower number (or itself) define at top level;
    // 2. outside 00_prelude.js no name reaches a page global (everything is captured
    //    there), and no `.call`/`.apply`/`.bind` goes through the page's
    //    Function.prototype.
    let files = engine_files();
    let top =
        regex::Regex::new(r"(?m)^(?:function\s+|(?:const|let|var)\s+)([A-Za-z_$][\w$]*)").unwrap();
    let any_decl = regex::Regex::new(
        r"(?:function\s+([A-Za-z_$][\w$]*))|(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*))|(?:catch\s*\(\s*([A-Za-z_$][\w$]*))|(?:([A-Za-z_$][\w$]*)\s*=>)",
    )
    .unwrap();
    let params = regex::Regex::new(r"function\s*[\w$]*\s*\(([^)]*)\)|\(([^()]*)\)\s*=>").unwrap();
    let id = regex::Regex::new(r"[A-Za-z_$][\w$]*").unwrap();
    let mut owner: std::collections::HashMap<String, String> = Default::default();
    let mut declared: std::collections::HashSet<String> = Default::default();
    let mut problems = Vec::new();
    for (file, code) in &files {
        for c in top.captures_iter(code) {
            // one bundle, one scope: a second top-level function of the same name
            // silently replaces the first everywhere
            if let Some(first) = owner.get(&c[1]) {
                problems.push(format!("{file} defines {} again (first in {first})", &c[1]));
            }
            owner
                .entry(c[1].to_string())
                .or_insert_with(|| file.clone());
        }
        for c in any_decl.captures_iter(code) {
            for g in 1..=4 {
                if let Some(m) = c.get(g) {
                    declared.insert(m.as_str().to_string());
                }
            }
        }
        for c in params.captures_iter(code) {
            for g in 1..=2 {
                if let Some(m) = c.get(g) {
                    for p in id.find_iter(m.as_str()) {
                        declared.insert(p.as_str().to_string());
                    }
                }
            }
        }
    }
    const ALLOWED: &[&str] = &[
        "break",
        "case",
        "catch",
        "const",
        "continue",
        "default",
        "delete",
        "do",
        "else",
        "finally",
        "for",
        "function",
        "if",
        "in",
        "instanceof",
        "new",
        "return",
        "switch",
        "this",
        "throw",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "let",
        "of",
        "true",
        "false",
        "null",
        "undefined",
        "NaN",
        "Infinity",
        "arguments",
        "window",
        "document",
        "ENGINE_HASH",
    ];
    for (file, code) in &files {
        let prelude = file.starts_with("00_");
        for name in names_used(code) {
            if let Some(o) = owner.get(&name)
                && o > file
            {
                problems.push(format!("{file} uses {name} of {o} (a higher layer)"));
            }
            if !prelude && !declared.contains(&name) && !ALLOWED.contains(&name.as_str()) {
                problems.push(format!("{file} reaches the page global {name}"));
            }
        }
        if !prelude {
            for bad in [".call(", ".apply(", ".bind("] {
                if code.contains(bad) {
                    problems.push(format!(
                        "{file} calls {bad}..) through the page's Function.prototype"
                    ));
                }
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
