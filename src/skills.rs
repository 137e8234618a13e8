//! Agent skills built into the binary (docs/reference/cli.md#skills): the `SKILL.md` files
//! that teach coding agents (Claude Code, Codex, Cursor, Copilot) to use ariasnap, served by
//! `ariasnap skills` so that the text an agent reads is the one of the binary it runs.
//!
//! Owns: the embedded `skills/<name>/SKILL.md` files and their front matter, the copies kept
//! under the state directory (`skills path`) and the copies written into a project
//! (`skills install`). Must not: reach the browser. The conventions of a skill's examples,
//! which the tests run, are in [`examples`].

pub mod examples;

use crate::error::{Error, Result};
use include_dir::{Dir, include_dir};
use std::path::{Path, PathBuf};

static DIR: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/skills");

/// The SHA-256 (first 16 hex digits) of the files under `skills/` (build.rs).
pub const HASH: &str = env!("ARIASNAP_SKILLS_HASH");

/// The skill that teaches the loop; the others are named after it (`ariasnap-forms`).
pub const MAIN: &str = "ariasnap";

/// Where coding agents look for a project's skills, each as `<layout>/<name>/SKILL.md`:
/// Claude Code's, and the one Codex, Cursor and Copilot share.
pub const LAYOUTS: [&str; 2] = [".claude/skills", ".agents/skills"];

/// One embedded skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// Its directory's name, which its front matter's `name` repeats.
    pub name: String,
    /// The front matter's `description`: one line saying when to use it.
    pub description: String,
    /// The whole `SKILL.md`, front matter included.
    pub text: &'static str,
}

/// The front matter the agents read: exactly these two keys.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    name: String,
    description: String,
}

/// The `name` and `description` of a `SKILL.md`: YAML between a first line `---` and the next
/// `---` line, with exactly those two keys, a name of lower-case letters, digits and dashes,
/// and a description on one line.
pub fn front_matter(text: &str) -> std::result::Result<(String, String), String> {
    let rest = text
        .strip_prefix("---\n")
        .ok_or("a SKILL.md starts with a line `---`")?;
    let end = rest
        .find("\n---\n")
        .ok_or("the front matter ends with a line `---`")?;
    let fm: FrontMatter = serde_norway::from_str(&rest[..end])
        .map_err(|e| format!("front matter is not YAML with name and description: {e}"))?;
    let name_ok = !fm.name.is_empty()
        && fm
            .name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !name_ok {
        return Err(format!(
            "name {:?}: lower-case letters, digits and dashes",
            fm.name
        ));
    }
    if fm.description.trim().is_empty() || fm.description.contains('\n') {
        return Err(format!("{}: the description is one line", fm.name));
    }
    Ok((fm.name, fm.description))
}

/// Every skill, the main one first, then by name. A skill whose front matter does not parse
/// still has its directory's name (the tests refuse it).
pub fn all() -> Vec<Skill> {
    let mut out: Vec<Skill> = DIR
        .dirs()
        .filter_map(|d| {
            let name = d.path().file_name()?.to_str()?.to_string();
            let text = d.get_file(d.path().join("SKILL.md"))?.contents_utf8()?;
            let description = front_matter(text).map(|(_, d)| d).unwrap_or_default();
            Some(Skill {
                name,
                description,
                text,
            })
        })
        .collect();
    out.sort_by(|a, b| (a.name != MAIN, &a.name).cmp(&(b.name != MAIN, &b.name)));
    out
}

/// The skill called `name`; an unknown name is bad input that lists the names.
pub fn get(name: &str) -> Result<Skill> {
    let skills = all();
    skills
        .iter()
        .find(|s| s.name == name)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
            Error::Usage(format!(
                "no skill named {name:?}: the skills are {}",
                names.join(", ")
            ))
        })
}

/// The directory holding this binary's skills as files (`<name>/SKILL.md`) under the state
/// directory, keyed by version and content (`skills-v1/0.1.0-<hash>/`), written on first use
/// (private, like all state) and left as they are afterwards; with `name`, that skill's
/// directory.
pub fn path(name: Option<&str>) -> Result<PathBuf> {
    let skills = match name {
        Some(n) => vec![get(n)?],
        None => all(),
    };
    let layout = crate::private::home().join("skills-v1");
    let root = layout.join(format!("{}-{HASH}", env!("CARGO_PKG_VERSION")));
    for d in [&layout, &root] {
        if !d.is_dir() {
            crate::private::make_dir(d)?;
        }
    }
    for s in &skills {
        let dir = root.join(&s.name);
        let file = dir.join("SKILL.md");
        if std::fs::read(&file).is_ok_and(|b| b == s.text.as_bytes()) {
            continue;
        }
        crate::private::make_dir(&dir)?;
        crate::private::write_file(&file, s.text.as_bytes())?;
    }
    Ok(match name {
        Some(n) => root.join(n),
        None => root,
    })
}

/// What `install` did to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// There was none.
    New,
    /// An older copy was replaced.
    Replaced,
    /// The copy there was this one.
    Unchanged,
}

/// Writes every skill into the project at `dir` for the agents that look there
/// ([`LAYOUTS`]): `dir/.claude/skills/<name>/SKILL.md` and `dir/.agents/skills/<name>/SKILL.md`,
/// replacing older copies of ariasnap's skills (each file swapped whole, a link at its name
/// replaced rather than followed) and touching no other skill. Returns each file and what
/// was done.
pub fn install(dir: &Path) -> Result<Vec<(PathBuf, Written)>> {
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
            "--dir {}: no such directory (give the project's directory)",
            dir.display()
        )));
    }
    let mut done = Vec::new();
    for layout in LAYOUTS {
        for s in all() {
            let d = dir.join(layout).join(&s.name);
            let file = d.join("SKILL.md");
            let how = match std::fs::read(&file) {
                Ok(b) if b == s.text.as_bytes() => Written::Unchanged,
                Ok(_) => Written::Replaced,
                Err(_) => Written::New,
            };
            if how != Written::Unchanged {
                std::fs::create_dir_all(&d).map_err(|e| Error::io("create directory", &d, e))?;
                write_shared(&file, s.text.as_bytes())?;
            }
            done.push((file, how));
        }
    }
    Ok(done)
}

/// Writes a file others may read (0644: a project's skills are committed and shared), whole:
/// a new file beside it renamed into place.
fn write_shared(path: &Path, body: &[u8]) -> Result<()> {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp =
        tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io("create a file in", dir, e))?;
    tmp.write_all(body)
        .map_err(|e| Error::io("write", tmp.path(), e))?;
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644))
        .map_err(|e| Error::io("set permissions of", tmp.path(), e))?;
    tmp.persist(path)
        .map_err(|e| Error::io("write", path, e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every embedded skill has front matter the agents can read, named as its directory, and
    /// the main one comes first.
    #[test]
    fn every_skill_has_its_front_matter() {
        let skills = all();
        assert!(skills.len() >= 5, "{skills:?}");
        assert_eq!(skills[0].name, MAIN);
        // the main skill is read whole at the start of a task: under 2,500 tokens (4 bytes each)
        assert!(
            skills[0].text.len() < 10_000,
            "{} bytes",
            skills[0].text.len()
        );
        for s in &skills {
            let (name, description) =
                front_matter(s.text).unwrap_or_else(|e| panic!("{}: {e}", s.name));
            assert_eq!(name, s.name, "the front matter names its directory");
            assert_eq!(description, s.description);
            assert!(
                s.name == MAIN || s.name.starts_with("ariasnap-"),
                "{}: ariasnap's skills are named ariasnap-*, so install knows its own",
                s.name
            );
        }
    }

    #[test]
    fn front_matter_is_strict() {
        let ok = "---\nname: a-b\ndescription: Use it.\n---\n# A\n";
        assert_eq!(front_matter(ok).unwrap(), ("a-b".into(), "Use it.".into()));
        for (bad, why) in [
            ("name: a\n", "starts with"),
            ("---\nname: a\ndescription: b\n", "ends with"),
            ("---\nname: a\n---\n", "not YAML"),
            (
                "---\nname: a\ndescription: b\nlicense: x\n---\n",
                "not YAML",
            ),
            ("---\nname: A b\ndescription: b\n---\n", "lower-case"),
            // a colon and a space in a plain scalar is not YAML: quote such a description
            ("---\nname: a\ndescription: do: this\n---\n", "not YAML"),
        ] {
            let e = front_matter(bad).unwrap_err();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
    }

    #[test]
    fn unknown_names_list_the_skills() {
        let e = get("nope").unwrap_err();
        assert_eq!(e.exit_code(), 2);
        let m = e.to_string();
        assert!(m.starts_with("no skill named \"nope\": the skills are ariasnap, "));
        for s in all() {
            assert!(m.contains(&s.name), "{m}");
        }
    }

    /// Other skills are left alone, older copies of ours replaced, links at a file's name
    /// replaced and not written through.
    #[test]
    fn install_writes_both_layouts_and_only_ours() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let other = tmp.path().join(".claude/skills/theirs/SKILL.md");
        std::fs::create_dir_all(other.parent().unwrap()).unwrap();
        std::fs::write(&other, "keep").unwrap();
        let old = tmp.path().join(".agents/skills/ariasnap/SKILL.md");
        std::fs::create_dir_all(old.parent().unwrap()).unwrap();
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "keep too").unwrap();
        std::os::unix::fs::symlink(&victim, &old).unwrap();
        let done = install(tmp.path()).unwrap();
        assert_eq!(done.len(), 2 * all().len());
        assert!(done.contains(&(old.clone(), Written::Replaced)), "{done:?}");
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep too");
        for s in all() {
            for layout in LAYOUTS {
                let f = tmp.path().join(layout).join(&s.name).join("SKILL.md");
                assert_eq!(std::fs::read_to_string(&f).unwrap(), s.text);
                let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
                assert_eq!(mode, 0o644);
            }
        }
        let again = install(tmp.path()).unwrap();
        assert!(again.iter().all(|(_, w)| *w == Written::Unchanged));
        assert_eq!(
            install(&tmp.path().join("none")).unwrap_err().exit_code(),
            2
        );
    }
}
