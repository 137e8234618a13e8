//! The agent skills the binary serves (docs/reference/cli.md#skills) and `ariasnap doctor`
//! (docs/reference/cli.md#doctor).
//!
//! Every example of every skill is run, in order, against the fixture pages: a skill's
//! `https://example.com/PATH` is `fixtures/html/skills/PATH.html` here, and the output is
//! read back the other way before it is compared with the skill's excerpts. Each skill runs
//! in a state directory and a working directory of its own (so its sessions are fresh and
//! its `--session` names its own), closed at the end. The rules a skill is written to are in
//! `src/skills/examples.rs`.

use crate::common::{Ctx, Test, Text, browser};
use ariasnap::skills::examples::{Block, Command, blocks};
use regex::Regex;
use std::collections::HashMap;
use std::path::Path;

pub fn tests() -> Vec<Test> {
    trials![
        main_skill_examples_run,
        step_files_skill_examples_run,
        forms_skill_examples_run,
        debugging_skill_examples_run,
        saved_logins_skill_examples_run,
        skills_are_listed_printed_kept_and_installed,
        doctor_says_all_is_well_here,
        doctor_names_a_missing_driver_and_its_fix
    ]
}

fn main_skill_examples_run(c: &Ctx) {
    run_skill(c, "ariasnap");
}

fn step_files_skill_examples_run(c: &Ctx) {
    run_skill(c, "ariasnap-step-files");
}

fn forms_skill_examples_run(c: &Ctx) {
    run_skill(c, "ariasnap-forms");
}

fn debugging_skill_examples_run(c: &Ctx) {
    run_skill(c, "ariasnap-debugging");
}

fn saved_logins_skill_examples_run(c: &Ctx) {
    run_skill(c, "ariasnap-saved-logins");
}

/// One skill's examples, run in order in a state directory and a working directory of
/// their own.
struct SkillRun<'a> {
    c: &'a Ctx,
    name: &'static str,
    home: tempfile::TempDir,
    work: tempfile::TempDir,
    /// The skill's refs and the real refs they stand for.
    refs: HashMap<String, String>,
    /// Step files: name, text as the skill gives it, and whether a command ran it.
    files: Vec<(String, String, bool)>,
}

impl Drop for SkillRun<'_> {
    /// Every session the examples started is closed, whatever happened.
    fn drop(&mut self) {
        let list = self.command(&["session", "list"]).output();
        let names = list.map(|o| o.stdout_text()).unwrap_or_default();
        for n in names.lines().filter(|n| !n.trim().is_empty()) {
            let _ = self.command(&["session", "close", n.trim()]).output();
        }
    }
}

fn run_skill(c: &Ctx, name: &'static str) {
    let skill = ariasnap::skills::get(name).expect("an embedded skill");
    let blocks = blocks(skill.text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut run = SkillRun {
        c,
        name,
        home: tempfile::tempdir().unwrap(),
        work: tempfile::tempdir().unwrap(),
        refs: HashMap::new(),
        files: Vec::new(),
    };
    // the output of the last command, for the excerpt after it
    let mut last: Option<(String, String)> = None;
    let mut ran = 0;
    for b in blocks {
        match b {
            Block::Commands(cmds) => {
                for cmd in cmds {
                    last = Some((cmd.line.clone(), run.execute(&cmd)));
                    ran += 1;
                }
            }
            // whether it parses is cli::tests::skills_name_only_what_exists's (a file may be
            // there to show exit 2): here it is run as it is
            Block::StepFile { name, text } => run.files.push((name, text, false)),
            Block::Json(_) => {}
            Block::Excerpt(excerpt) => {
                let (line, out) = last
                    .take()
                    .expect("blocks() puts an excerpt after commands");
                run.check_excerpt(&line, &excerpt, &out);
            }
        }
    }
    assert!(ran > 0, "{name}: no example to run");
    let mut moved: Vec<String> = (run.refs.iter())
        .filter(|(k, v)| k != v)
        .map(|(k, v)| format!("{k} is {v}"))
        .collect();
    moved.sort();
    if !moved.is_empty() {
        eprintln!(
            "{name}: refs of the skill that are others here: {}",
            moved.join(", ")
        );
    }
    for (file, _, was_run) in &run.files {
        assert!(
            was_run,
            "{name}: step file {file} is never run by an `ariasnap run {file}` example"
        );
    }
}

impl SkillRun<'_> {
    /// The binary in the skill's own directories, on the suite's browser.
    fn command(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = std::process::Command::new(&self.c.bin);
        cmd.args(args)
            .current_dir(self.work.path())
            .env("ARIASNAP_HOME", self.home.path())
            .env("ARIASNAP_BROWSER", browser())
            .env("NO_COLOR", "1")
            // the operator's secret of the examples (skills/examples.rs)
            .env(
                ariasnap::skills::examples::SECRET_VAR,
                "correct-horse-battery",
            )
            .env_remove("ARIASNAP_SESSION")
            .env_remove("ARIASNAP_WEBDRIVER")
            .env_remove("ARIASNAP_DRIVER")
            .stdin(std::process::Stdio::null());
        cmd
    }

    /// Runs one example with the skill's addresses and refs made real; checks its exit code;
    /// returns what it printed (stdout, then stderr).
    fn execute(&mut self, cmd: &Command) -> String {
        for (name, text, _) in &self.files {
            let real = self.real_refs(&to_fixtures(text, &self.c.base));
            std::fs::write(self.work.path().join(name), real).unwrap();
        }
        let args: Vec<String> = cmd.words[1..]
            .iter()
            .map(|w| self.real_refs(&to_fixtures(w, &self.c.base)))
            .collect();
        for (name, _, was_run) in &mut self.files {
            if cmd.words.windows(2).any(|w| w[0] == "run" && w[1] == *name) {
                *was_run = true;
            }
        }
        eprintln!("{}: {}", self.name, cmd.line);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = self.command(&args).output().expect("run ariasnap");
        let out = format!("{}{}", o.stdout_text(), o.stderr_text());
        assert_eq!(
            o.status.code(),
            Some(cmd.exit),
            "{}: `{}` exits {} in the skill; it printed:\n{out}",
            self.name,
            cmd.line,
            cmd.exit
        );
        out
    }

    /// A text with the skill's refs replaced by the real refs they stand for.
    fn real_refs(&self, text: &str) -> String {
        ref_re()
            .replace_all(text, |m: &regex::Captures| {
                self.refs
                    .get(&m[0])
                    .cloned()
                    .unwrap_or_else(|| m[0].to_string())
            })
            .into_owned()
    }

    /// Each line of `excerpt` is in the output, in order: `...` is any text on the line, and
    /// a ref is the ref it stands for, or (met for the first time) whatever ref the output has
    /// there, which it stands for from then on.
    fn check_excerpt(&mut self, line: &str, excerpt: &str, output: &str) {
        let out = from_fixtures(output, &self.c.base);
        let mut at = 0;
        for want in excerpt.lines().filter(|l| !l.trim().is_empty()) {
            let (re, unbound) = self.pattern(want);
            let Some(caps) = re.captures_at(&out, at) else {
                panic!(
                    "{}: after `{line}` the skill shows\n  {want}\nwhich is not in what it printed (from byte {at}, as the skill would write it):\n{out}",
                    self.name
                );
            };
            for (i, skill_ref) in unbound.iter().enumerate() {
                let real = caps[i + 1].to_string();
                let bound = self.refs.entry(skill_ref.clone()).or_insert(real.clone());
                assert_eq!(
                    *bound, real,
                    "{}: {skill_ref} of the skill stands for two refs on one line: {want}",
                    self.name
                );
            }
            at = caps.get(0).map_or(at, |m| m.end());
        }
    }

    /// The regex of one excerpt line, and the skill's refs it captures.
    fn pattern(&self, want: &str) -> (Regex, Vec<String>) {
        let mut re = String::new();
        let mut unbound = Vec::new();
        let mut rest = want;
        let token = Regex::new(r"\.\.\.|\b(?:f\d+)?s\d+e\d+\b").unwrap();
        while let Some(m) = token.find(rest) {
            re.push_str(&regex::escape(&rest[..m.start()]));
            let t = m.as_str();
            if t == "..." {
                re.push_str(".*?");
            } else if let Some(real) = self.refs.get(t) {
                re.push_str(&regex::escape(real));
            } else {
                re.push_str(r"((?:f\d+)?s\d+e\d+)");
                unbound.push(t.to_string());
            }
            rest = &rest[m.end()..];
        }
        re.push_str(&regex::escape(rest));
        (Regex::new(&re).unwrap(), unbound)
    }
}

fn ref_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\b(?:f\d+)?s\d+e\d+\b").unwrap())
}

/// The skill's addresses as the suite serves them: `https://example.com/PATH` is
/// `{base}html/skills/PATH.html` (a path with a file extension keeps it; `/` is the
/// directory), and the origin `https://example.com` the fixture server's.
fn to_fixtures(text: &str, base: &str) -> String {
    let re = Regex::new(r"https://example\.com(/[A-Za-z0-9_/.-]*)?").unwrap();
    re.replace_all(text, |m: &regex::Captures| {
        // the origin alone (`--allow-origin https://example.com`) is the fixture server's
        let Some(path) = m.get(1).map(|p| &p.as_str()[1..]) else {
            return base.trim_end_matches('/').to_string();
        };
        let last = path.rsplit('/').next().unwrap_or("");
        let ext = if last.is_empty() || last.contains('.') {
            ""
        } else {
            ".html"
        };
        format!("{base}html/skills/{path}{ext}")
    })
    .into_owned()
}

/// The output as the skill writes it: the fixtures' addresses back to
/// `https://example.com/PATH` (and same-origin paths, `/url: /PATH`, without the fixtures'
/// folder).
fn from_fixtures(text: &str, base: &str) -> String {
    let re = Regex::new(&format!(
        r"({}|/)html/skills/([A-Za-z0-9_/.-]*)",
        regex::escape(base)
    ))
    .unwrap();
    let text = re.replace_all(text, |m: &regex::Captures| {
        let path = m[2].strip_suffix(".html").unwrap_or(&m[2]);
        if &m[1] == "/" {
            format!("/{path}")
        } else {
            format!("https://example.com/{path}")
        }
    });
    text.replace(base.trim_end_matches('/'), "https://example.com")
}

/// `skills`, `skills list`, `get`, `path` and `install` as an agent's set-up would use them.
fn skills_are_listed_printed_kept_and_installed(c: &Ctx) {
    let all = ariasnap::skills::all();
    let list = c.ok(&["skills"]);
    assert_eq!(list, c.ok(&["skills", "list"]));
    assert_eq!(list.lines().count(), all.len(), "{list}");
    for (line, s) in list.lines().zip(&all) {
        assert!(line.starts_with(&format!("{} ", s.name)), "{line}");
        assert!(line.ends_with(&s.description), "{line}");
    }
    let forms = ariasnap::skills::get("ariasnap-forms").unwrap();
    assert_eq!(c.ok(&["skills", "get", "ariasnap-forms"]), forms.text);
    // an unknown name: one error line that lists the names, exit 2
    let o = c.run(&["skills", "get", "ariasnap-nope"]);
    assert_eq!(o.status.code(), Some(2));
    let err = o.stderr_text();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: no skill named \"ariasnap-nope\": the skills are ariasnap, "),
        "{err}"
    );
    // path: written once under the state directory, keyed by version and content
    let dir = c.ok(&["skills", "path"]).trim().to_string();
    assert!(Path::new(&dir).starts_with(c.home.path()), "{dir}");
    assert!(
        dir.ends_with(&format!("-{}", ariasnap::skills::HASH)),
        "{dir}"
    );
    for s in &all {
        let f = Path::new(&dir).join(&s.name).join("SKILL.md");
        assert_eq!(std::fs::read_to_string(&f).unwrap(), s.text);
    }
    let one = c.ok(&["skills", "path", "ariasnap"]);
    assert_eq!(
        one.trim(),
        Path::new(&dir).join("ariasnap").display().to_string()
    );
    installs_both_layouts(c);
}

fn installs_both_layouts(c: &Ctx) {
    let project = tempfile::tempdir().unwrap();
    let o = c.run(&[
        "skills",
        "install",
        "--dir",
        project.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    assert!(o.stdout.is_empty(), "install prints no data");
    let said = o.stderr_text();
    for layout in ariasnap::skills::LAYOUTS {
        let root = project.path().join(layout);
        let mut names: Vec<String> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        names.sort();
        let mut want: Vec<String> = ariasnap::skills::all()
            .into_iter()
            .map(|s| s.name)
            .collect();
        want.sort();
        assert_eq!(names, want, "{layout}");
        for n in &names {
            let f = root.join(n).join("SKILL.md");
            let text = std::fs::read_to_string(&f).unwrap();
            // YAML front matter (serde_norway) whose name is its directory's
            let (name, description) = ariasnap::skills::front_matter(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert_eq!(&name, n);
            assert!(!description.is_empty());
            assert!(said.contains(&format!("wrote {}", f.display())), "{said}");
        }
    }
    // again: nothing to write; an older copy is replaced
    let old = project.path().join(".claude/skills/ariasnap/SKILL.md");
    std::fs::write(&old, "---\nname: ariasnap\ndescription: old\n---\n").unwrap();
    let dir = project.path().to_str().unwrap();
    let o = c.run(&["skills", "install", "--dir", dir]);
    let said = o.stderr_text();
    assert!(
        said.contains(&format!("replaced {}", old.display())),
        "{said}"
    );
    assert_eq!(
        said.matches("unchanged ").count(),
        2 * ariasnap::skills::all().len() - 1
    );
}

/// This machine has what the suite runs on: every check is `ok` (or `info`), exit 0, with
/// the state directory as commands leave it (a paged query keeps a cache there).
fn doctor_says_all_is_well_here(c: &Ctx) {
    c.snapshot("html/skills/shop.html");
    c.ok(&[
        "snapshot",
        "--flatten",
        "--query",
        "[].role",
        "--limit",
        "2",
    ]);
    assert!(c.home.path().join("cache-v1").is_dir());
    let o = c.run(&["doctor"]);
    let out = o.stdout_text();
    assert_eq!(o.status.code(), Some(0), "{out}");
    for prefix in [
        "ok browser: ",
        "ok driver: ",
        "ok versions: ",
        "ok state directory: ",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(prefix)),
            "{prefix}: {out}"
        );
    }
    assert!(
        out.lines()
            .all(|l| l.starts_with("ok ") || l.starts_with("info ")),
        "{out}"
    );
}

/// A driver that is not there: the problem, its fix, exit 3; a WebDriver endpoint that does
/// not answer too.
fn doctor_names_a_missing_driver_and_its_fix(c: &Ctx) {
    let o = c.run(&["doctor", "--driver", "/nonexistent/chromedriver"]);
    let out = o.stdout_text();
    assert_eq!(o.status.code(), Some(3), "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("problem driver: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("not found (looked for /nonexistent/chromedriver); fix: --driver /nonexistent/chromedriver"),
        "{line}"
    );
    assert!(out.contains("ok browser: "), "{out}");
    // a port nothing listens on
    let port = crate::common::free_port();
    let url = format!("http://127.0.0.1:{port}");
    let o = c.run(&["doctor", "--webdriver", &url]);
    let out = o.stdout_text();
    assert_eq!(o.status.code(), Some(3), "{out}");
    assert!(
        out.lines().any(
            |l| l.starts_with(&format!("problem webdriver: {url}/status: "))
                && l.contains("; fix: start the driver or grid at that address")
        ),
        "{out}"
    );
}
