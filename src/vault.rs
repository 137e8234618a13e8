//! The values of the operator's named secrets in this process (docs/reference/policy.md#secrets),
//! and their masking out of everything the process writes: a secret is typed into a page by
//! name, and its value, wherever the page or a reply would show it, is written
//! `[secret:NAME]` instead. A value the agent typed into a password field is masked the same
//! way, written `••••` (as the engine writes a password field's value): see [`remember_typed`].
//!
//! Owns: the process's table of values (registered when a session with secrets opens, or
//! typed into a password field in this process or, by the session's watcher, before it), the
//! forms a value is looked for in (as typed, JSON-escaped, URL-encoded, HTML-escaped), the
//! masking of text and JSON values, and reading a secrets file (dotenv). Must not: import
//! anything from the crate (a leaf: output, spills, the MCP server, logs and `main` mask
//! through it), or write a value anywhere.

use std::borrow::Cow;
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// The fewest characters a secret's value may have: a shorter one would hide the same
/// letters wherever any text shows them.
pub const MIN_LEN: usize = 4;

/// One registered secret: its name and the forms its value may be written in, longest
/// first.
struct Entry {
    name: String,
    value: String,
    forms: Vec<String>,
    /// What the value is written as: `[secret:NAME]`, or `••••` for a typed password.
    label: String,
    /// A value typed into a password field rather than a named secret.
    typed: bool,
}

/// What a typed password is written as: the engine's own mask for a password field's value
/// (docs/reference/output.md#secrets).
pub const TYPED_LABEL: &str = "••••";

static TABLE: RwLock<Vec<Entry>> = RwLock::new(Vec::new());
/// Whether any value is registered: masking costs nothing in a process without one.
static ANY: AtomicBool = AtomicBool::new(false);

/// What a masked value is written as.
pub fn label(name: &str) -> String {
    format!("[secret:{name}]")
}

/// Why `value` cannot be a secret's value, or None: too short to mask, or holding a line
/// break or another control character (a secret is typed key by key, and a line break is
/// Enter).
pub fn unusable(value: &str) -> Option<String> {
    let n = value.chars().count();
    if n < MIN_LEN {
        return Some(format!(
            "its value is {n} characters long: too short to be masked in replies without hiding the same letters everywhere (at least {MIN_LEN})"
        ));
    }
    if value.chars().any(char::is_control) {
        return Some(
            "its value holds a line break or another control character: a secret is typed as keys, and a line break would press Enter".into(),
        );
    }
    None
}

/// The forms `value` may be written in by a page or a reply: as it is, escaped inside a
/// JSON string, URL-encoded (a form's query string: `+` for spaces; a URI component:
/// `%20`), HTML-escaped (an attribute's markup).
fn forms(value: &str) -> Vec<String> {
    let mut out = vec![value.to_string()];
    let json = serde_json::to_string(value).unwrap_or_default();
    out.push(json[1..json.len().saturating_sub(1)].to_string());
    // JSON as the strict escaper writes it (non-ASCII as \u escapes)
    let ascii: String = value
        .chars()
        .map(|c| {
            if c.is_ascii() {
                let s = serde_json::to_string(&c.to_string()).unwrap_or_default();
                s[1..s.len().saturating_sub(1)].to_string()
            } else {
                let mut buf = [0u16; 2];
                c.encode_utf16(&mut buf)
                    .iter()
                    .map(|u| format!("\\u{u:04x}"))
                    .collect()
            }
        })
        .collect();
    out.push(ascii);
    let form: String = url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
    out.push(form.clone());
    let component = form.replace('+', "%20");
    out.push(component.clone());
    // encodeURIComponent leaves ! ' ( ) ~ as they are
    let mut js = component;
    for (enc, c) in [
        ("%21", "!"),
        ("%27", "'"),
        ("%28", "("),
        ("%29", ")"),
        ("%7E", "~"),
    ] {
        js = js.replace(enc, c);
    }
    out.push(js);
    let html = value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;");
    out.push(html);
    out.sort_by_key(|f| std::cmp::Reverse(f.len()));
    out.dedup();
    out.retain(|f| !f.is_empty());
    out
}

/// Registers secret `name` with `value` for this process (again: the value is replaced).
pub fn register(name: &str, value: &str) {
    let Ok(mut t) = TABLE.write() else { return };
    t.retain(|e| e.name != name);
    t.push(Entry {
        name: name.to_string(),
        value: value.to_string(),
        forms: forms(value),
        label: label(name),
        typed: false,
    });
    // longest values first: a secret inside another is masked after it
    t.sort_by_key(|e| std::cmp::Reverse(e.value.len()));
    ANY.store(true, Ordering::Release);
}

/// Remembers `value`, typed into a password field, for this process: from now on it is
/// masked as `••••` wherever a named secret would be (docs/reference/policy.md#typed-passwords).
/// Why: a password the agent typed leaves the field as soon as the form is sent (a GET
/// form's URL, a request's body, a page that echoes it), and from there reaches replies,
/// the journal, network listings, HAR files and logs; the engine's `••••` covers only the
/// field itself. True when the value is new; false when it is too short to mask without
/// hiding the same letters everywhere ([`unusable`]), or already known (a named secret's
/// value keeps its name).
pub fn remember_typed(value: &str) -> bool {
    if unusable(value).is_some() {
        return false;
    }
    let Ok(mut t) = TABLE.write() else {
        return false;
    };
    if t.iter().any(|e| e.value == value) {
        return false;
    }
    t.push(Entry {
        name: String::new(),
        value: value.to_string(),
        forms: forms(value),
        label: TYPED_LABEL.to_string(),
        typed: true,
    });
    t.sort_by_key(|e| std::cmp::Reverse(e.value.len()));
    ANY.store(true, Ordering::Release);
    true
}

/// The values typed into password fields that this process knows (to hand to the session's
/// watcher, which keeps them in memory for the session's next commands).
pub fn typed() -> Vec<String> {
    let Ok(t) = TABLE.read() else {
        return Vec::new();
    };
    t.iter()
        .filter(|e| e.typed)
        .map(|e| e.value.clone())
        .collect()
}

/// The value of registered secret `name`.
pub fn value(name: &str) -> Option<String> {
    let t = TABLE.read().ok()?;
    t.iter()
        .find(|e| !e.typed && e.name == name)
        .map(|e| e.value.clone())
}

/// Forgets every registered value (a test's end).
pub fn clear() {
    if let Ok(mut t) = TABLE.write() {
        t.clear();
    }
    ANY.store(false, Ordering::Release);
}

/// Whether any secret is registered in this process.
pub fn active() -> bool {
    ANY.load(Ordering::Acquire)
}

/// `s` with every registered secret's value, in any of its forms, written `[secret:NAME]`.
pub fn mask(s: &str) -> Cow<'_, str> {
    if !active() {
        return Cow::Borrowed(s);
    }
    let Ok(t) = TABLE.read() else {
        return Cow::Borrowed(s);
    };
    let mut out = Cow::Borrowed(s);
    for e in t.iter() {
        for f in &e.forms {
            if out.contains(f.as_str()) {
                out = Cow::Owned(out.replace(f.as_str(), &e.label));
            }
        }
    }
    out
}

/// Masks `s` in place; true when something was masked.
pub fn mask_in_place(s: &mut String) -> bool {
    match mask(s) {
        Cow::Owned(m) => {
            *s = m;
            true
        }
        Cow::Borrowed(_) => false,
    }
}

/// Masks every string (and object key) of a JSON value in place.
pub fn mask_json(v: &mut serde_json::Value) {
    if !active() {
        return;
    }
    match v {
        serde_json::Value::String(s) => {
            mask_in_place(s);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(mask_json),
        serde_json::Value::Object(o) => {
            let keys: Vec<String> = o.keys().cloned().collect();
            for k in keys {
                let masked = mask(&k).into_owned();
                if let Some(mut inner) = o.remove(&k) {
                    mask_json(&mut inner);
                    o.insert(masked, inner);
                }
            }
        }
        _ => {}
    }
}

/// Masks bytes that are UTF-8 text (a reply, a log line, a spilled file); anything else
/// (an image) is left as it is.
pub fn mask_bytes(b: &[u8]) -> Cow<'_, [u8]> {
    if !active() {
        return Cow::Borrowed(b);
    }
    match std::str::from_utf8(b) {
        Ok(s) => match mask(s) {
            Cow::Owned(m) => Cow::Owned(m.into_bytes()),
            Cow::Borrowed(_) => Cow::Borrowed(b),
        },
        Err(_) => Cow::Borrowed(b),
    }
}

/// One entry of a secrets file: `NAME=value`, or `NAME@ORIGIN[,ORIGIN...]=value` for a
/// secret bound to origins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    pub name: String,
    /// The origin patterns after `@` (unparsed), none when unbound.
    pub origins: Vec<String>,
    pub value: String,
    pub line: usize,
}

/// Whether `name` is a secret's name: a letter or `_`, then letters, digits and `_` (an
/// environment variable's name), at most 64.
pub fn valid_name(name: &str) -> bool {
    let mut c = name.chars();
    name.len() <= 64
        && c.next()
            .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// Reads a secrets file in dotenv form: `NAME=value` lines (`export ` before the name
/// allowed), blank lines and `#` comments skipped; a value in single quotes is taken as it
/// is, in double quotes with `\"`, `\\` and `\n` escapes, bare with its surrounding spaces
/// and a trailing ` # comment` dropped. The error names the line and what is wrong.
pub fn parse_dotenv(text: &str) -> Result<Vec<FileEntry>, String> {
    let mut out: Vec<FileEntry> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let l = l.strip_prefix("export ").map_or(l, str::trim_start);
        let Some((key, rest)) = l.split_once('=') else {
            return Err(format!(
                "line {line}: no `=` (write NAME=value, or NAME@https://origin=value)"
            ));
        };
        let key = key.trim();
        let (name, origins) = match key.split_once('@') {
            Some((n, o)) => (
                n.trim(),
                o.split(',')
                    .map(|p| p.trim().to_string())
                    .filter(|p| !p.is_empty())
                    .collect(),
            ),
            None => (key, Vec::new()),
        };
        if !valid_name(name) {
            return Err(format!(
                "line {line}: {name:?} is not a secret's name (letters, digits and _, not starting with a digit)"
            ));
        }
        let value = dotenv_value(rest.trim_start()).map_err(|e| format!("line {line}: {e}"))?;
        if out.iter().any(|e| e.name == name) {
            return Err(format!("line {line}: {name} is given twice"));
        }
        out.push(FileEntry {
            name: name.to_string(),
            origins,
            value,
            line,
        });
    }
    Ok(out)
}

/// The value part of a dotenv line.
fn dotenv_value(v: &str) -> Result<String, String> {
    if let Some(body) = v.strip_prefix('\'') {
        return match body.find('\'') {
            Some(end) => Ok(body[..end].to_string()),
            None => Err("a single-quoted value has no closing quote".into()),
        };
    }
    if let Some(body) = v.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = body.chars();
        while let Some(c) = chars.next() {
            match c {
                '"' => return Ok(out),
                '\\' => match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some(o) => {
                        out.push('\\');
                        out.push(o);
                    }
                    None => break,
                },
                o => out.push(o),
            }
        }
        return Err("a double-quoted value has no closing quote".into());
    }
    let bare = match v.find(" #") {
        Some(i) => &v[..i],
        None => v,
    };
    Ok(bare.trim().to_string())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The table is the process's: tests that register values take turns.
    pub(crate) static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

    #[test]
    fn values_are_masked_in_every_form_they_are_written_in() {
        let _t = TURN.lock().unwrap_or_else(|e| e.into_inner());
        clear();
        assert_eq!(mask("nothing registered"), "nothing registered");
        register("SHOP_PASSWORD", "p@ss w\"rd&é!");
        register("API", "tok_12345");
        let v = "p@ss w\"rd&é!";
        for written in [
            v.to_string(),
            serde_json::to_string(v).unwrap(),
            "p%40ss+w%22rd%26%C3%A9%21".to_string(),
            "p%40ss%20w%22rd%26%C3%A9!".to_string(),
            "p@ss w&quot;rd&amp;é!".to_string(),
            "p@ss w\\\"rd&\\u00e9!".to_string(),
        ] {
            let s = format!("<{written}> and tok_12345");
            let m = mask(&s);
            assert!(
                m.contains("[secret:SHOP_PASSWORD]") && m.contains("[secret:API]"),
                "{written}: {m}"
            );
            assert!(!m.contains("ss w"), "{m}");
        }
        let mut j = serde_json::json!({"a": ["x tok_12345 y"], "tok_12345": 1});
        mask_json(&mut j);
        assert_eq!(
            j,
            serde_json::json!({"a": ["x [secret:API] y"], "[secret:API]": 1})
        );
        assert_eq!(
            &*mask_bytes(b"\x89PNG tok_12345\xff"),
            b"\x89PNG tok_12345\xff"
        );
        assert_eq!(value("API").as_deref(), Some("tok_12345"));
        clear();
        assert_eq!(mask("tok_12345"), "tok_12345");
    }

    #[test]
    fn typed_passwords_are_masked_in_their_forms() {
        let _t = TURN.lock().unwrap_or_else(|e| e.into_inner());
        clear();
        register("API", "tok_12345");
        assert!(!remember_typed("abc"), "too short to mask");
        assert!(
            !remember_typed("tok_12345"),
            "a named secret keeps its name"
        );
        assert!(remember_typed("correct horse&9!"));
        assert!(!remember_typed("correct horse&9!"), "known already");
        assert_eq!(typed(), vec!["correct horse&9!".to_string()]);
        let url =
            "http://x/welcome.html?pw=correct+horse%269%21&b=correct%20horse%269!&k=tok_12345";
        assert_eq!(
            mask(url),
            "http://x/welcome.html?pw=••••&b=••••&k=[secret:API]"
        );
        assert_eq!(mask("said \"correct horse&9!\""), "said \"••••\"");
        assert_eq!(value(""), None, "a typed value has no name to ask it by");
        clear();
        assert!(typed().is_empty());
    }

    #[test]
    fn short_or_multi_line_values_are_refused() {
        assert!(unusable("abc").unwrap().contains("at least 4"));
        assert!(unusable("ab\ncd").unwrap().contains("Enter"));
        assert!(unusable("abcd").is_none());
    }

    #[test]
    fn dotenv_files_are_read_and_their_errors_located() {
        let text = "# shop\nexport SHOP_USER=ada@example.org\nSHOP_PASSWORD@https://shop.example,https://*.shop.example='s3cr3t #1'\nTOKEN=\"a\\\"b\\\\c\" # note\nPLAIN = bare value # comment\n\n";
        let e = parse_dotenv(text).unwrap();
        let got: Vec<(&str, &str, usize)> = e
            .iter()
            .map(|x| (x.name.as_str(), x.value.as_str(), x.origins.len()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("SHOP_USER", "ada@example.org", 0),
                ("SHOP_PASSWORD", "s3cr3t #1", 2),
                ("TOKEN", "a\"b\\c", 0),
                ("PLAIN", "bare value", 0)
            ]
        );
        assert_eq!(e[1].origins[1], "https://*.shop.example");
        assert!(
            parse_dotenv("A=1\nnope\n")
                .unwrap_err()
                .starts_with("line 2: no `=`")
        );
        assert!(
            parse_dotenv("1A=x")
                .unwrap_err()
                .contains("not a secret's name")
        );
        assert!(parse_dotenv("A='x").unwrap_err().contains("closing quote"));
        assert!(parse_dotenv("A=x\nA=y").unwrap_err().contains("twice"));
    }
}
