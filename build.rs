//! Joins `js/src/*.js` in file-name order into one injected script and stamps it with the
//! SHA-256 of its content (`ENGINE_HASH`), and stamps the agent skills under `skills/` (which
//! `src/skills.rs` embeds) with the SHA-256 of theirs (`SKILLS_HASH`). No node is needed to
//! build.
use sha2::{Digest, Sha256};
use std::{env, fs, path::PathBuf};

fn main() {
    let dir = PathBuf::from("js/src");
    println!("cargo:rerun-if-changed=js/src");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("js/src must exist")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "js"))
        .collect();
    files.sort();
    let mut body = String::new();
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let text = fs::read_to_string(f).expect("readable engine source");
        body.push_str(&format!(
            "// ---- {} ----\n",
            f.file_name().unwrap().to_string_lossy()
        ));
        body.push_str(&text);
        body.push('\n');
    }
    let hash = Sha256::digest(body.as_bytes());
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    let short = &hex[..16];
    // The engine is one IIFE; the hash lets the host tell whether a page already holds
    // this exact engine.
    let script =
        format!("(function(){{\"use strict\";\nconst ENGINE_HASH = \"{short}\";\n{body}\n}})();\n");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    fs::write(out.join("engine.js"), script).unwrap();
    fs::write(out.join("engine_hash.txt"), short).unwrap();
    println!("cargo:rustc-env=ARIASNAP_ENGINE_HASH={short}");
    skills_hash();
}

/// `ARIASNAP_SKILLS_HASH`: the SHA-256 of every file under `skills/` (its path and its
/// bytes, in path order), so that `ariasnap skills path` keys its copies by content. The
/// directory is watched too: include_dir! does not make a change of the skills rebuild the
/// crate on a stable compiler, a new hash does.
fn skills_hash() {
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for e in fs::read_dir(dir).expect("skills/ must exist").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    println!("cargo:rerun-if-changed=skills");
    let mut files = Vec::new();
    walk(std::path::Path::new("skills"), &mut files);
    files.sort();
    let mut h = Sha256::new();
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        h.update(f.to_string_lossy().as_bytes());
        h.update([0]);
        h.update(fs::read(f).expect("readable skill file"));
        h.update([0]);
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=ARIASNAP_SKILLS_HASH={}", &hex[..16]);
}
