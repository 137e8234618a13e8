//! The one door into the page: installs the bundled engine when the page lacks this exact
//! build, calls its entry points and decodes the JSON string each one returns.
//!
//! Owns: ENGINE_JS, ENGINE_HASH and `call`. Must not: know what the replies mean (wire.rs
//! and the callers do). The realm the engine runs in can change here and nowhere else.

use crate::error::{Error, Result};
use fantoccini::Client;
use fantoccini::wd::WebDriverCompatibleCommand;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, Ordering};
use tracing::debug;

/// The injected engine: `js/src/*.js` joined by build.rs.
pub const ENGINE_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/engine.js"));
/// First 16 hex digits of the SHA-256 of the engine bundle.
pub const ENGINE_HASH: &str = include_str!(concat!(env!("OUT_DIR"), "/engine_hash.txt"));

const FAST_PATH: &str = "var a = window.__ariaRefs; \
     if (!a || a.hash !== arguments[0] || typeof a.call !== 'function') return null; \
     return a.call(arguments[1], arguments[2]);";

fn install_script() -> String {
    format!(
        "{ENGINE_JS}\nvar a = window.__ariaRefs; \
         if (!a || a.hash !== arguments[0]) return '__blocked__:' + (a && typeof a.hash === 'string' ? a.hash : ''); \
         return a.call(arguments[1], arguments[2]);"
    )
}

/// Calls `method` of the engine in the tab's top-level document with `args`, installing the
/// engine first when needed. Returns the decoded reply.
pub async fn call<T: DeserializeOwned>(client: &Client, method: &str, args: &Value) -> Result<T> {
    let raw = call_raw_top(client, method, args).await?;
    tracing::trace!(method, reply = %raw, "engine reply");
    decode(&raw)
}

/// Like [`call`], in the browsing context WebDriver is switched to (a frame): only the
/// script endpoint reaches it.
pub async fn call_in_frame<T: DeserializeOwned>(
    client: &Client,
    method: &str,
    args: &Value,
) -> Result<T> {
    let raw = call_raw(client, method, args).await?;
    tracing::trace!(method, reply = %raw, "engine reply");
    decode(&raw)
}

/// Like [`call`], but returns the reply as the JSON text the page produced. A page dialog
/// that blocks the call is answered (by the `--dialog` policy) and the call made again.
pub async fn call_raw(client: &Client, method: &str, args: &Value) -> Result<String> {
    let mut tries = 0;
    loop {
        match call_raw_once(client, method, args).await {
            Err(e) if e.is_dialog() && tries < 3 => {
                tries += 1;
                crate::dialogs::answer_open(client).await;
            }
            r => return r,
        }
    }
}

async fn call_raw_once(client: &Client, method: &str, args: &Value) -> Result<String> {
    let params = vec![json!(ENGINE_HASH), json!(method), json!(args.to_string())];
    let reply = client.execute(FAST_PATH, params.clone()).await?;
    let reply = match reply {
        Value::Null => {
            debug!(method, "engine missing in this document: installing");
            client.execute(&install_script(), params).await?
        }
        other => other,
    };
    interpret(reply)
}

/// A reply of the fast path or the installer: the JSON text, or why there is none.
fn interpret(reply: Value) -> Result<String> {
    match reply {
        Value::String(s) if s.starts_with("__blocked__:") => {
            let other = &s["__blocked__:".len()..];
            Err(Error::Engine(if other.is_empty() {
                "the page blocks the engine (window.__ariaRefs was defined by the page and cannot be replaced)".into()
            } else {
                format!(
                    "this page holds the engine of another ariasnap build ({other}); reload the page (ariasnap reload) to install this one ({ENGINE_HASH})"
                )
            }))
        }
        Value::String(s) => Ok(s),
        other => Err(Error::Engine(format!(
            "unexpected reply from the page: {other}"
        ))),
    }
}

/// Chromium's driver runs DevTools commands for us (`goog/cdp/execute`); its script endpoint
/// moves large replies about twice as slowly (it re-serializes them in the page and again
/// in the driver). Cleared for the process when the endpoint is not Chromium's driver.
static CDP_OK: AtomicBool = AtomicBool::new(true);

/// A WebDriver command fantoccini has no method for: `method` on `session/{id}/{path}`,
/// with the reply kept raw (e.g. chromedriver's `goog/cdp/execute`, or Get Element Shadow
/// Root, whose reference fantoccini keeps private).
#[derive(Debug)]
pub struct RawCommand {
    pub method: http::Method,
    /// The path after `session/{id}/`.
    pub path: String,
    pub body: Option<Value>,
}

impl WebDriverCompatibleCommand for RawCommand {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> std::result::Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/{}",
            session_id.unwrap_or_default(),
            self.path
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (
            self.method.clone(),
            self.body.as_ref().map(Value::to_string),
        )
    }
}

/// chromedriver's `POST /session/{id}/goog/cdp/execute` for one DevTools command.
fn cdp_command(cmd: &str, params: Value) -> RawCommand {
    RawCommand {
        method: http::Method::POST,
        path: "goog/cdp/execute".into(),
        body: Some(json!({"cmd": cmd, "params": params})),
    }
}

/// Like [`call_raw`], for the tab's top-level document only (not a frame WebDriver switched
/// into): the call goes through DevTools' `Runtime.evaluate` in the page's main world when
/// the endpoint offers it, which moves large replies (snapshots) at about twice the speed.
/// Anything unexpected (engine not installed yet, another driver, a dialog) falls back to
/// [`call_raw`], which installs the engine and reports errors as usual.
pub async fn call_raw_top(client: &Client, method: &str, args: &Value) -> Result<String> {
    if CDP_OK.load(Ordering::Relaxed) {
        let call = format!(
            "var a = window.__ariaRefs; \
             if (!a || a.hash !== {h} || typeof a.call !== 'function') return {missing}; \
             return a.call({m}, {a});",
            h = json!(ENGINE_HASH),
            m = json!(method),
            a = json!(args.to_string()),
            missing = "null",
        );
        match evaluate(client, &format!("(function(){{{call}}})()")).await {
            Some(Value::Null) => {
                debug!(method, "engine missing in this document: installing");
                let install = format!(
                    "(function(){{{ENGINE_JS}\nvar a = window.__ariaRefs; \
                     if (!a || a.hash !== {h}) return '__blocked__:' + (a && typeof a.hash === 'string' ? a.hash : ''); \
                     return a.call({m}, {a});}})()",
                    h = json!(ENGINE_HASH),
                    m = json!(method),
                    a = json!(args.to_string()),
                );
                if let Some(v @ Value::String(_)) = evaluate(client, &install).await {
                    return interpret(v);
                }
            }
            Some(v @ Value::String(_)) => return interpret(v),
            _ => {}
        }
        debug!(
            method,
            "engine not reachable through DevTools: script endpoint"
        );
    }
    call_raw(client, method, args).await
}

/// The line of the prelude that says whether the engine was preloaded (see [`preload`]).
const PRELOADED_FALSE: &str = "const PRELOADED = false;";

/// Registers the engine to run in every new top-level document of the current tab before
/// the page's scripts (DevTools' `Page.addScriptToEvaluateOnNewDocument`), replacing the
/// registration `old` (an older build's). There the page's realm is still pristine, so the
/// engine captures its built-ins in place (no fresh-realm frame is made). Returns the new
/// registration's identifier; None without a DevTools passthrough.
pub async fn preload(client: &Client, old: Option<&str>) -> Option<String> {
    if !CDP_OK.load(Ordering::Relaxed) {
        return None;
    }
    if let Some(id) = old {
        let _ = cdp(
            client,
            "Page.removeScriptToEvaluateOnNewDocument",
            json!({"identifier": id}),
        )
        .await;
    }
    debug_assert!(ENGINE_JS.contains(PRELOADED_FALSE));
    let source = format!(
        "if (window === window.top) {}",
        ENGINE_JS.replacen(PRELOADED_FALSE, "const PRELOADED = true;", 1)
    );
    let v = cdp(
        client,
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": source}),
    )
    .await?;
    let id = v.get("identifier")?.as_str()?.to_string();
    debug!(id, "engine preloaded in new documents");
    Some(id)
}

/// Runs one DevTools command through the driver; None without a passthrough or on failure.
pub async fn cdp(client: &Client, cmd: &str, params: Value) -> Option<Value> {
    if !CDP_OK.load(Ordering::Relaxed) {
        return None;
    }
    client
        .issue_cmd(cdp_command(cmd, params))
        .await
        .map_err(|e| debug!(error = %e, cmd, "DevTools command failed"))
        .ok()
}

/// The current tab's URL and title from its navigation history (DevTools), which no page
/// script can tamper with; None without a DevTools passthrough. For pages whose tampering
/// breaks the driver's own script-based answers.
pub async fn history_entry(client: &Client) -> Option<(String, String)> {
    if !CDP_OK.load(Ordering::Relaxed) {
        return None;
    }
    let v = client
        .issue_cmd(cdp_command("Page.getNavigationHistory", json!({})))
        .await
        .ok()?;
    let i = v.get("currentIndex")?.as_u64()? as usize;
    let e = v.get("entries")?.get(i)?;
    Some((
        e.get("url")?.as_str()?.to_string(),
        e.get("title")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
    ))
}

/// Evaluates `expr` in the top-level document's main world through DevTools. None when the
/// endpoint has no DevTools passthrough, the call failed or the page threw.
async fn evaluate(client: &Client, expr: &str) -> Option<Value> {
    let cmd = cdp_command(
        "Runtime.evaluate",
        json!({"expression": expr, "returnByValue": true, "awaitPromise": false}),
    );
    match client.issue_cmd(cmd).await {
        Ok(mut v) => {
            if v.get("exceptionDetails").is_some() {
                debug!(details = %v["exceptionDetails"], "page threw under Runtime.evaluate");
                return None;
            }
            v.pointer_mut("/result/value").map(Value::take)
        }
        Err(e) if e.is_unknown_command() || e.is_unknown_method() => {
            debug!(error = %e, "no DevTools passthrough: script endpoint from now on");
            CDP_OK.store(false, Ordering::Relaxed);
            None
        }
        Err(e) => {
            debug!(error = %e, "DevTools call failed: script endpoint");
            None
        }
    }
}

/// The engine's element helpers on `window.__ariaRefs`: their arguments and results are
/// WebDriver element references, which the JSON entry point (`call`) cannot carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Helper {
    /// The element behind a ref (resolved with the same checks as every action), or null.
    Element,
    /// Custom elements the last walk could not look into (closed shadow root candidates).
    ClosedCandidates,
    /// Hands the shadow roots WebDriver found back to the engine: (hosts, roots, failed).
    AdoptClosedRoots,
    /// Routes (iframe chains) to every cross-origin frame of the last walk.
    FrameRoutes,
    /// The route to cross-origin frame k of the last walk.
    FrameRoute,
}

impl Helper {
    fn script(self) -> &'static str {
        match self {
            Helper::Element => {
                "var a = window.__ariaRefs; return a && a.element ? a.element(arguments[0]) : null;"
            }
            Helper::ClosedCandidates => {
                "var a = window.__ariaRefs; return a && a.closedCandidates ? a.closedCandidates() : [];"
            }
            Helper::AdoptClosedRoots => {
                "var a = window.__ariaRefs; return a && a.adoptClosedRoots ? a.adoptClosedRoots(arguments[0], arguments[1], arguments[2]) : 0;"
            }
            Helper::FrameRoutes => {
                "var a = window.__ariaRefs; return a && a.frameRoutes ? a.frameRoutes() : [];"
            }
            Helper::FrameRoute => {
                "var a = window.__ariaRefs; return a && a.frameRoute ? a.frameRoute(arguments[0]) : null;"
            }
        }
    }
}

/// Calls an element helper of the engine in the current browsing context (top document or
/// the frame WebDriver is switched to).
pub async fn helper(client: &Client, h: Helper, args: Vec<Value>) -> Result<Value> {
    Ok(client.execute(h.script(), args).await?)
}

/// Evaluates a user's expression (`eval` steps) in the page's main world and returns its
/// value. The driver's script endpoint first; on a page whose replaced built-ins break the
/// driver's own wrapper, DevTools' `Runtime.evaluate` (awaiting a promise result).
pub async fn evaluate_user(client: &Client, expr: &str) -> Result<Value> {
    match client.execute(&format!("return ({expr});"), vec![]).await {
        Ok(v) => Ok(v),
        Err(err) if err.is_javascript_error() => Err(Error::Step(format!(
            "eval failed in the page: {}",
            crate::error::webdriver_message(&err)
        ))),
        Err(err) => {
            let r = cdp(
                client,
                "Runtime.evaluate",
                json!({"expression": format!("({expr})"), "returnByValue": true, "awaitPromise": true}),
            )
            .await;
            match r {
                Some(r) if r.get("exceptionDetails").is_none() => {
                    Ok(r.pointer("/result/value").cloned().unwrap_or(Value::Null))
                }
                _ => Err(err.into()),
            }
        }
    }
}

/// The window's inner size `[width, height]` in CSS pixels.
pub async fn viewport_size(client: &Client) -> Result<Value> {
    Ok(client
        .execute("return [window.innerWidth, window.innerHeight]", vec![])
        .await?)
}

/// Sets a host-only cookie for the current page, as the page itself would (WebDriver's Add
/// Cookie wants a domain, which Chromium refuses for IP hosts).
pub async fn set_page_cookie(client: &Client, name: &str, value: &str) -> Result<()> {
    client
        .execute(
            "document.cookie = arguments[0] + '=' + arguments[1] + '; path=/'; return document.cookie.indexOf(arguments[0] + '=') >= 0;",
            vec![json!(name), json!(value)],
        )
        .await?;
    Ok(())
}

/// Does the page answer a trivial script? (its main thread is not stuck)
pub async fn answers(client: &Client) -> Result<()> {
    client.execute("return 1", vec![]).await?;
    Ok(())
}

/// The current document's `readyState`.
pub async fn ready_state(client: &Client) -> Result<String> {
    let v = client.execute("return document.readyState", vec![]).await?;
    Ok(v.as_str().unwrap_or("").to_string())
}

/// `readyState` and `timeOrigin` of the top-level document through DevTools (a new document
/// has a new time origin), for navigation on pages that break the driver's scripts. Empty
/// when DevTools cannot say.
pub async fn document_state(client: &Client) -> String {
    evaluate(client, "document.readyState + ' ' + performance.timeOrigin")
        .await
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Decodes an engine reply, turning `{kind: "exception"}` into an error.
pub fn decode<T: DeserializeOwned>(raw: &str) -> Result<T> {
    let raw = &*crate::wire::mend_surrogates(raw);
    if raw.starts_with("{\"kind\":\"exception\"") || raw.starts_with("{\"kind\":\"bad_method\"") {
        let v: Value = serde_json::from_str(raw).map_err(|source| Error::Json {
            what: "the page engine",
            source,
        })?;
        let msg = v
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("unknown failure");
        return Err(Error::Engine(format!(
            "the engine threw in the page: {msg}"
        )));
    }
    // The wire is flat (a node list with parent indexes), so serde_json's depth limit holds.
    serde_json::from_str(raw).map_err(|source| Error::Json {
        what: "the page engine",
        source,
    })
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn engine_layers_and_globals() {
        // js/README's rules, checked over the sources the bundle is made of:
        // 1. a file uses only what files with a lower number (or itself) define at top level;
        // 2. outside 00_prelude.js no name reaches a page global (everything is captured
        //    there), and no `.call`/`.apply`/`.bind` goes through the page's
        //    Function.prototype.
        let files = engine_files();
        let top = regex::Regex::new(r"(?m)^(?:function\s+|(?:const|let|var)\s+)([A-Za-z_$][\w$]*)")
            .unwrap();
        let any_decl = regex::Regex::new(
            r"(?:function\s+([A-Za-z_$][\w$]*))|(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*))|(?:catch\s*\(\s*([A-Za-z_$][\w$]*))|(?:([A-Za-z_$][\w$]*)\s*=>)",
        )
        .unwrap();
        let params =
            regex::Regex::new(r"function\s*[\w$]*\s*\(([^)]*)\)|\(([^()]*)\)\s*=>").unwrap();
        let id = regex::Regex::new(r"[A-Za-z_$][\w$]*").unwrap();
        let mut owner: std::collections::HashMap<String, String> = Default::default();
        let mut declared: std::collections::HashSet<String> = Default::default();
        for (file, code) in &files {
            for c in top.captures_iter(code) {
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
        let mut problems = Vec::new();
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

    #[test]
    fn exceptions_become_errors() {
        let r: Result<Value> = decode(r#"{"kind":"exception","message":"boom"}"#);
        let e = r.unwrap_err();
        assert!(e.to_string().contains("boom"), "{e}");
    }
}
