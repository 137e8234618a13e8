//! The values of script arguments and results on the page channel (src/engine/page.rs):
//! classic WebDriver's JSON (`{"element-6066-…": id}`) turned into BiDi's values (shared ids)
//! for `script.callFunction`, and BiDi's results turned back, so a caller of the page channel
//! sees the same JSON on both protocols.

use crate::engine::bidi::{self, LocalValue, RemoteValue};
use serde_json::{Value, json};

/// Classic WebDriver's key of an element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";
/// Classic WebDriver's key of a shadow root reference.
pub(in crate::engine) const SHADOW_KEY: &str = "shadow-6066-11e4-a52e-4f735466cecf";

/// A classic script argument as a BiDi value: element and shadow root references become
/// shared ids (the same ids on both protocols).
pub(super) fn local_of(v: &Value) -> LocalValue {
    match v {
        Value::Null => LocalValue::Null,
        Value::Bool(b) => LocalValue::Boolean(*b),
        Value::Number(n) => LocalValue::Number(n.as_f64().unwrap_or(0.0)),
        Value::String(s) => LocalValue::String(s.clone()),
        Value::Array(a) => LocalValue::Array(a.iter().map(local_of).collect()),
        Value::Object(m) => {
            if m.len() == 1
                && let Some((k, Value::String(id))) = m.iter().next()
                && (k == ELEMENT_KEY || k == SHADOW_KEY)
            {
                return LocalValue::Shared(id.clone());
            }
            LocalValue::Object(m.iter().map(|(k, v)| (k.clone(), local_of(v))).collect())
        }
    }
}

/// A BiDi result as classic JSON: nodes become element references (shadow roots shadow
/// references), window proxies their context id.
pub(super) fn json_of(v: RemoteValue) -> Value {
    match v {
        RemoteValue::Undefined | RemoteValue::Null | RemoteValue::Other => Value::Null,
        RemoteValue::String { value } => Value::String(value),
        RemoteValue::Number { value } => match value {
            // integers as integers, as classic WebDriver's JSON has them
            bidi::Number::Finite(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => json!(n as i64),
            bidi::Number::Finite(n) => json!(n),
            bidi::Number::Special(s) if s == "-0" => json!(0),
            bidi::Number::Special(_) => Value::Null,
        },
        RemoteValue::Boolean { value } => Value::Bool(value),
        RemoteValue::Bigint { value } => Value::String(value),
        RemoteValue::Date { value } => Value::String(value),
        RemoteValue::Array { value, .. }
        | RemoteValue::Set { value, .. }
        | RemoteValue::Nodelist { value }
        | RemoteValue::Htmlcollection { value } => {
            Value::Array(value.unwrap_or_default().into_iter().map(json_of).collect())
        }
        RemoteValue::Object { value, .. } | RemoteValue::Map { value, .. } => Value::Object(
            value
                .unwrap_or_default()
                .into_iter()
                .filter_map(|(k, v)| match k {
                    bidi::Key::String(k) => Some((k, json_of(v))),
                    bidi::Key::Value(_) => None,
                })
                .collect(),
        ),
        RemoteValue::Node(n) => {
            // nodeType 11 is a document fragment: a shadow root
            let key = if n.value.as_ref().map(|p| p.node_type) == Some(11) {
                SHADOW_KEY
            } else {
                ELEMENT_KEY
            };
            match n.shared_id {
                Some(id) => json!({ key: id }),
                None => Value::Null,
            }
        }
        RemoteValue::Window(w) => Value::String(w.value.context),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_references_cross_as_shared_ids() {
        let arg = json!([{ELEMENT_KEY: "a"}, {SHADOW_KEY: "b"}, {"x": 1}, "s", null]);
        let LocalValue::Array(items) = local_of(&arg) else {
            panic!()
        };
        assert_eq!(items[0], LocalValue::Shared("a".into()));
        assert_eq!(items[1], LocalValue::Shared("b".into()));
        assert_eq!(
            items[2],
            LocalValue::Object(vec![("x".into(), LocalValue::Number(1.0))])
        );
        let node: RemoteValue = serde_json::from_value(json!({"type": "node",
            "sharedId": "n1", "value": {"nodeType": 11, "childNodeCount": 0}}))
        .unwrap();
        assert_eq!(json_of(node), json!({SHADOW_KEY: "n1"}));
        let arr: RemoteValue = serde_json::from_value(json!({"type": "array", "value": [
            {"type": "node", "sharedId": "e1", "value": {"nodeType": 1, "childNodeCount": 0}},
            {"type": "object", "value": [["k", {"type": "number", "value": 3}]]},
            {"type": "window", "value": {"context": "C1"}}
        ]}))
        .unwrap();
        assert_eq!(json_of(arr), json!([{ELEMENT_KEY: "e1"}, {"k": 3}, "C1"]));
    }
}
