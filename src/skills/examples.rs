//! The examples of a skill, read the way the tests run them. A skill is written to these
//! rules, so that every example in it is run against the product (`tests/it/skills.rs`) and
//! checked against the command line (`cli::tests`):
//!
//! - A ` ```sh ` block holds `ariasnap ...` commands, one a line (a line ending in `\`
//!   goes on on the next), each run in order in the skill's one session. `#` starts a
//!   comment; a comment `# exit N` says the command exits with N (otherwise it must exit 0).
//! - A ` ```json ` block that is a step file (an array, or an object with `steps`) is the
//!   file that the line before it names in backticks (`` `checkout.json`: ``), and an
//!   `ariasnap run FILE` line runs it. Other JSON blocks are shown, not run.
//! - A block without a language right after a ` ```sh ` block (blank lines between at most)
//!   is an excerpt of what the block's last command printed (stdout, then stderr): each of
//!   its lines is in the output, in order; `...` stands for any text on a line, and a ref
//!   for the ref the real output has there (the same real ref wherever the skill uses it).
//! - Addresses are `https://example.com/PATH`: the tests serve `fixtures/html/skills/PATH.html`
//!   there (`https://example.com` alone is that server's origin; other hosts are not served).
//! - The commands' environment has [`SECRET_VAR`] set, the variable an operator's
//!   `--secret NAME=SHOP_PW` names (docs/reference/policy.md#secrets); no value is shown.

/// The environment variable the examples' `--secret` names; the tests set it.
pub const SECRET_VAR: &str = "SHOP_PW";

/// A fenced block of a skill, in the order of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A ` ```sh ` block's commands.
    Commands(Vec<Command>),
    /// A step file: the file name the line before it gave, and its text.
    StepFile { name: String, text: String },
    /// A JSON block that is not a step file.
    Json(String),
    /// What the last command of the ` ```sh ` block before it printed, in part.
    Excerpt(String),
}

/// One command of a ` ```sh ` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The command without its comment, continuation lines joined.
    pub line: String,
    /// Its words, as a shell splits them (`ariasnap` first).
    pub words: Vec<String>,
    /// The exit code its comment says (`# exit 1`), else 0.
    pub exit: i32,
}

/// The text after the front matter (the whole text when there is none).
pub fn body(text: &str) -> &str {
    text.strip_prefix("---\n")
        .and_then(|r| r.find("\n---\n").map(|i| &r[i + 5..]))
        .unwrap_or(text)
}

/// The fenced blocks of a skill, read by the rules above; what breaks them is an error that
/// names the line.
pub fn blocks(text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = body(text).lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    // the last non-blank line outside blocks, and whether a sh block came right before
    let mut before = "";
    let mut after_sh = false;
    while i < lines.len() {
        let line = lines[i];
        let Some(lang) = line.trim_start().strip_prefix("```") else {
            if !line.trim().is_empty() {
                before = line;
                after_sh = false;
            }
            i += 1;
            continue;
        };
        let start = i + 1;
        let end = (start..lines.len())
            .find(|&j| lines[j].trim_start().starts_with("```"))
            .ok_or_else(|| format!("line {i}: a block that does not end"))?;
        let inner = lines[start..end].join("\n");
        let at = format!("block at line {}", i + 1);
        match lang.trim() {
            "sh" => {
                out.push(Block::Commands(
                    commands(&inner).map_err(|e| format!("{at}: {e}"))?,
                ));
                after_sh = true;
            }
            "json" => {
                out.push(json_block(&inner, before).map_err(|e| format!("{at}: {e}"))?);
                after_sh = false;
            }
            "" | "text" => {
                if !after_sh {
                    return Err(format!(
                        "{at}: a block without a language is the output of the sh block right before it, and there is none"
                    ));
                }
                out.push(Block::Excerpt(inner));
                after_sh = false;
            }
            other => return Err(format!("{at}: language {other:?}: use sh, json or none")),
        }
        i = end + 1;
    }
    Ok(out)
}

fn json_block(inner: &str, before: &str) -> Result<Block, String> {
    let v: serde_json::Value = serde_json::from_str(inner).map_err(|e| format!("not JSON: {e}"))?;
    let step_file = v.is_array() || v.get("steps").is_some();
    if !step_file {
        return Ok(Block::Json(inner.to_string()));
    }
    let name = before
        .split('`')
        .skip(1)
        .step_by(2)
        .find(|s| s.ends_with(".json") && !s.contains(' '))
        .ok_or_else(|| {
            format!("a step file whose line before names no `FILE.json` (it says {before:?})")
        })?;
    Ok(Block::StepFile {
        name: name.to_string(),
        text: inner.to_string(),
    })
}

fn commands(inner: &str) -> Result<Vec<Command>, String> {
    let mut out = Vec::new();
    let mut pending = String::new();
    for raw in inner.lines() {
        if let Some(head) = raw.strip_suffix('\\') {
            pending.push_str(head);
            continue;
        }
        pending.push_str(raw);
        let whole = std::mem::take(&mut pending);
        let (words, comment_at) = split_at(&whole)?;
        let comment = comment_at.map(|at| &whole[at..]);
        if words.is_empty() {
            continue;
        }
        if words[0] != "ariasnap" {
            return Err(format!(
                "{whole:?}: a sh block holds ariasnap commands only"
            ));
        }
        let exit = comment
            .and_then(|c| c.trim_start_matches('#').trim().strip_prefix("exit "))
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        let line = &whole[..comment_at.unwrap_or(whole.len())];
        out.push(Command {
            line: line.trim().to_string(),
            words,
            exit,
        });
    }
    Ok(out)
}

/// A command line's words as a POSIX shell splits them (quotes, backslashes), and its
/// comment (from a `#` that starts a word). `$`, backquotes, pipes and redirections are
/// refused: an example is one plain command.
pub fn split(line: &str) -> Result<(Vec<String>, Option<String>), String> {
    let (words, at) = split_at(line)?;
    Ok((words, at.map(|at| line[at..].to_string())))
}

/// [`split`], with the comment as the byte offset where it starts.
fn split_at(line: &str) -> Result<(Vec<String>, Option<usize>), String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '#' if word.is_none() => return Ok((words, Some(at))),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some((_, '\'')) => break,
                        Some((_, ch)) => w.push(ch),
                        None => return Err(format!("{line:?}: a quote that does not end")),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, ch @ ('"' | '\\' | '$' | '`'))) => w.push(ch),
                            Some((_, ch)) => {
                                w.push('\\');
                                w.push(ch);
                            }
                            None => return Err(format!("{line:?}: a quote that does not end")),
                        },
                        Some((_, '$' | '`')) => {
                            return Err(format!("{line:?}: no expansions in examples"));
                        }
                        Some((_, ch)) => w.push(ch),
                        None => return Err(format!("{line:?}: a quote that does not end")),
                    }
                }
            }
            '\\' => {
                if let Some((_, ch)) = chars.next() {
                    word.get_or_insert_with(String::new).push(ch);
                }
            }
            '$' | '`' | '|' | '>' | '<' | ';' | '&' => {
                return Err(format!(
                    "{line:?}: {c:?}: an example is one plain command (no expansions, pipes, redirections or lists)"
                ));
            }
            ch => word.get_or_insert_with(String::new).push(ch),
        }
    }
    if let Some(w) = word {
        words.push(w);
    }
    Ok((words, None))
}

/// The inline code spans of the prose (outside fenced blocks): what a skill names in
/// passing (`` `ariasnap snapshot --budget N` ``, `` `{"saveState": "FILE"}` ``).
pub fn inline_code(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in body(text).lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(open) = rest.find('`') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('`') else { break };
            if close > 0 {
                out.push(after[..close].to_string());
            }
            rest = &after[close + 1..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_as_a_shell_splits_them() {
        let (w, c) =
            split(r#"ariasnap fill --fields '{"s1e3": "a b"}' "x \"y\"" z\ z # exit 1"#).unwrap();
        assert_eq!(
            w,
            [
                "ariasnap",
                "fill",
                "--fields",
                r#"{"s1e3": "a b"}"#,
                r#"x "y""#,
                "z z"
            ]
        );
        assert_eq!(c.as_deref(), Some("# exit 1"));
        assert_eq!(split("ariasnap eval 'a#b'").unwrap().0[2], "a#b");
        for bad in [
            "ariasnap x | y",
            "ariasnap $HOME",
            "ariasnap 'open",
            "a > f",
        ] {
            assert!(split(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn blocks_follow_the_rules() {
        let text = "---\nname: x\ndescription: y\n---\n# X\n\n```sh\nariasnap snapshot \\\n  https://example.com/  # the page\nariasnap click s1e4   # exit 1: gone\n```\n\n```\nerror: ...\n```\n\nSave as `flow.json`:\n\n```json\n[{\"click\": \"s1e4\"}]\n```\n\n```json\n{\"mcpServers\": {}}\n```\n";
        let b = blocks(text).unwrap();
        assert_eq!(b.len(), 4, "{b:?}");
        let Block::Commands(c) = &b[0] else { panic!() };
        assert_eq!(c[0].line, "ariasnap snapshot   https://example.com/");
        assert_eq!(c[0].exit, 0);
        assert_eq!(c[1].words, ["ariasnap", "click", "s1e4"]);
        assert_eq!(c[1].exit, 1);
        assert_eq!(b[1], Block::Excerpt("error: ...".into()));
        assert!(matches!(&b[2], Block::StepFile { name, .. } if name == "flow.json"));
        assert!(matches!(&b[3], Block::Json(_)));
        // an output block with no command before it, a step file without a name, a shell
        // line that is not ariasnap, another language
        for bad in [
            "Text\n\n```\nout\n```\n",
            "```sh\nariasnap tabs\n```\nSee:\n```\nout\n```\n",
            "Run it:\n```json\n{\"steps\": []}\n```\n",
            "```sh\nls -l\n```\n",
            "```python\nx\n```\n",
        ] {
            assert!(blocks(bad).is_err(), "{bad}");
        }
        assert_eq!(
            inline_code("Use `a` and `--b N`.\n```sh\nariasnap `x`\n```\n`c`"),
            ["a", "--b N", "c"]
        );
    }
}
