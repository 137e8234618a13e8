//! The one door into the page: installs the bundled engine when the page lacks this exact
//! build, calls its entry points and decodes the JSON string each one returns.
//!
//! Owns: ENGINE_JS, ENGINE_HASH and `call`. Must not: know what the replies mean (wire.rs
//! and the callers do). The realm the engine runs in can change here and nowhere else.

use crate::error::{Error, Result};
use fantoccini::Client;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
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

/// Calls `method` of the engine in the current browsing context with `args`, installing the
/// engine first when needed. Returns the decoded reply.
pub async fn call<T: DeserializeOwned>(client: &Client, method: &str, args: &Value) -> Result<T> {
    let raw = call_raw(client, method, args).await?;
    tracing::trace!(method, reply = %raw, "engine reply");
    decode(&raw)
}

/// Like [`call`], but returns the reply as the JSON text the page produced.
pub async fn call_raw(client: &Client, method: &str, args: &Value) -> Result<String> {
    let params = vec![json!(ENGINE_HASH), json!(method), json!(args.to_string())];
    let reply = client.execute(FAST_PATH, params.clone()).await?;
    let reply = match reply {
        Value::Null => {
            debug!(method, "engine missing in this document: installing");
            client.execute(&install_script(), params).await?
        }
        other => other,
    };
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

/// Decodes an engine reply, turning `{kind: "exception"}` into an error.
pub fn decode<T: DeserializeOwned>(raw: &str) -> Result<T> {
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

    #[test]
    fn exceptions_become_errors() {
        let r: Result<Value> = decode(r#"{"kind":"exception","message":"boom"}"#);
        let e = r.unwrap_err();
        assert!(e.to_string().contains("boom"), "{e}");
    }
}
