//! Script values across BiDi: [`RemoteValue`], what a script returns (typed by the spec's
//! `type` tag), and [`LocalValue`], what a script is given (primitives, arrays, objects and
//! references to nodes by shared id).
//!
//! Owns: the JSON form of both. Must not: run scripts.

use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A value a script returned (`script.RemoteValue`). Objects and collections carry their
/// contents up to the call's `maxObjectDepth`; past it, or for what BiDi does not
/// serialize (functions, promises, errors...), only the type and a handle, if owned.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[non_exhaustive]
pub enum RemoteValue {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// A string.
    String {
        /// Its text.
        value: String,
    },
    /// A number.
    Number {
        /// Its value.
        value: Number,
    },
    /// A boolean.
    Boolean {
        /// Its value.
        value: bool,
    },
    /// A BigInt.
    Bigint {
        /// Its decimal digits.
        value: String,
    },
    /// An array.
    Array {
        /// Its items, within the depth asked for.
        #[serde(default)]
        value: Option<Vec<RemoteValue>>,
        /// Its handle, when owned.
        #[serde(default)]
        handle: Option<String>,
    },
    /// A plain object.
    Object {
        /// Its own enumerable properties, within the depth asked for.
        #[serde(default)]
        value: Option<Vec<(Key, RemoteValue)>>,
        /// Its handle, when owned.
        #[serde(default)]
        handle: Option<String>,
    },
    /// A Map.
    Map {
        /// Its entries.
        #[serde(default)]
        value: Option<Vec<(Key, RemoteValue)>>,
        /// Its handle, when owned.
        #[serde(default)]
        handle: Option<String>,
    },
    /// A Set.
    Set {
        /// Its items.
        #[serde(default)]
        value: Option<Vec<RemoteValue>>,
        /// Its handle, when owned.
        #[serde(default)]
        handle: Option<String>,
    },
    /// A NodeList.
    Nodelist {
        /// Its nodes.
        #[serde(default)]
        value: Option<Vec<RemoteValue>>,
    },
    /// An HTMLCollection.
    Htmlcollection {
        /// Its elements.
        #[serde(default)]
        value: Option<Vec<RemoteValue>>,
    },
    /// A DOM node.
    Node(NodeValue),
    /// A window proxy: a browsing context.
    Window(WindowValue),
    /// A Date.
    Date {
        /// Its ISO text.
        value: String,
    },
    /// Anything else (function, promise, error, regexp, symbol, typed arrays...).
    #[serde(other)]
    Other,
}

impl RemoteValue {
    /// The text of a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            RemoteValue::String { value } => Some(value),
            _ => None,
        }
    }

    /// The text of a string, taken out.
    pub fn into_string(self) -> Option<String> {
        match self {
            RemoteValue::String { value } => Some(value),
            _ => None,
        }
    }

    /// The value of a finite number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            RemoteValue::Number {
                value: Number::Finite(n),
            } => Some(*n),
            _ => None,
        }
    }

    /// The value of a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            RemoteValue::Boolean { value } => Some(*value),
            _ => None,
        }
    }

    /// The shared id of a node (what classic WebDriver takes as an element reference).
    pub fn shared_id(&self) -> Option<&str> {
        match self {
            RemoteValue::Node(n) => n.shared_id.as_deref(),
            _ => None,
        }
    }

    /// The items of an array, set, NodeList or HTMLCollection.
    pub fn items(&self) -> Option<&[RemoteValue]> {
        match self {
            RemoteValue::Array { value, .. }
            | RemoteValue::Set { value, .. }
            | RemoteValue::Nodelist { value }
            | RemoteValue::Htmlcollection { value } => value.as_deref(),
            _ => None,
        }
    }

    /// The property `name` of an object or the entry of a map under a string key.
    pub fn get(&self, name: &str) -> Option<&RemoteValue> {
        match self {
            RemoteValue::Object { value, .. } | RemoteValue::Map { value, .. } => value
                .as_ref()?
                .iter()
                .find(|(k, _)| matches!(k, Key::String(s) if s == name))
                .map(|(_, v)| v),
            _ => None,
        }
    }
}

/// A number as BiDi writes it: finite, or one of `NaN`, `-0`, `Infinity`, `-Infinity`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Number {
    /// A finite number.
    Finite(f64),
    /// A special value, by its name.
    Special(String),
}

/// An object's or map's key: a string, or any value for a map.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Key {
    /// A string key.
    String(String),
    /// A map key that is not a string.
    Value(RemoteValue),
}

/// A node (`script.NodeRemoteValue`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeValue {
    /// Its shared id: the same node for every realm of its document, and for classic
    /// WebDriver commands.
    #[serde(default)]
    pub shared_id: Option<String>,
    /// Its handle, when owned.
    #[serde(default)]
    pub handle: Option<String>,
    /// Its properties, down to the call's `maxDomDepth`.
    #[serde(default)]
    pub value: Option<NodeProperties>,
}

/// A node's serialized properties.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeProperties {
    /// DOM nodeType (1 element, 3 text, 9 document...).
    pub node_type: u32,
    /// How many children it has.
    #[serde(default)]
    pub child_node_count: u32,
    /// Its local name, for an element.
    #[serde(default)]
    pub local_name: Option<String>,
    /// Its attributes, for an element.
    #[serde(default)]
    pub attributes: Option<BTreeMap<String, String>>,
    /// Its value, for text and comments.
    #[serde(default)]
    pub node_value: Option<String>,
    /// Its children, within the depth asked for.
    #[serde(default)]
    pub children: Option<Vec<RemoteValue>>,
    /// Its shadow root, when serialized.
    #[serde(default)]
    pub shadow_root: Option<Box<RemoteValue>>,
}

/// A window proxy (`script.WindowProxyRemoteValue`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct WindowValue {
    /// The browsing context it stands for.
    pub value: WindowProperties,
    /// Its handle, when owned.
    #[serde(default)]
    pub handle: Option<String>,
}

/// A window proxy's properties.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct WindowProperties {
    /// Its browsing context's id.
    pub context: String,
}

/// A value given to a script (`script.LocalValue`).
#[derive(Debug, Clone, PartialEq)]
pub enum LocalValue {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// A string.
    String(String),
    /// A finite number.
    Number(f64),
    /// A boolean.
    Boolean(bool),
    /// An array.
    Array(Vec<LocalValue>),
    /// A plain object with string keys.
    Object(Vec<(String, LocalValue)>),
    /// A node by shared id (a classic WebDriver element id works too).
    Shared(String),
    /// A value by the handle an owned result gave.
    Handle(String),
}

impl LocalValue {
    /// A string argument.
    pub fn string(s: impl Into<String>) -> LocalValue {
        LocalValue::String(s.into())
    }

    /// A node argument by shared id.
    pub fn shared(id: impl Into<String>) -> LocalValue {
        LocalValue::Shared(id.into())
    }
}

/// A `{type, value}` pair.
struct Typed<'a, T: Serialize + ?Sized>(&'static str, &'a T);

impl<T: Serialize + ?Sized> Serialize for Typed<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("type", self.0)?;
        m.serialize_entry("value", self.1)?;
        m.end()
    }
}

/// An object's entries as `[[key, value], ...]`.
struct Entries<'a>(&'a [(String, LocalValue)]);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for (k, v) in self.0 {
            seq.serialize_element(&(k, v))?;
        }
        seq.end()
    }
}

impl Serialize for LocalValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let one = |s: S, k: &'static str, v: &str| {
            let mut m = s.serialize_map(Some(1))?;
            m.serialize_entry(k, v)?;
            m.end()
        };
        match self {
            LocalValue::Undefined => one(s, "type", "undefined"),
            LocalValue::Null => one(s, "type", "null"),
            LocalValue::String(v) => Typed("string", v).serialize(s),
            LocalValue::Number(v) if v.is_finite() => Typed("number", v).serialize(s),
            LocalValue::Number(v) if v.is_nan() => Typed("number", "NaN").serialize(s),
            LocalValue::Number(v) if *v > 0.0 => Typed("number", "Infinity").serialize(s),
            LocalValue::Number(_) => Typed("number", "-Infinity").serialize(s),
            LocalValue::Boolean(v) => Typed("boolean", v).serialize(s),
            LocalValue::Array(v) => Typed("array", v).serialize(s),
            LocalValue::Object(v) => Typed("object", &Entries(v)).serialize(s),
            LocalValue::Shared(id) => one(s, "sharedId", id),
            LocalValue::Handle(h) => one(s, "handle", h),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn remote_values_decode_by_type() {
        let v: RemoteValue = serde_json::from_value(json!({"type": "array", "value": [
            {"type": "node", "sharedId": "s1", "value": {"nodeType": 1, "childNodeCount": 0,
             "localName": "button", "attributes": {"id": "b"}}},
            {"type": "window", "value": {"context": "C"}},
            {"type": "number", "value": "-0"},
            {"type": "object", "value": [["a", {"type": "null"}]]},
            {"type": "map", "value": [[{"type": "number", "value": 1}, {"type": "undefined"}]]},
            {"type": "function"},
            {"type": "string", "value": "x"}]}))
        .unwrap();
        let items = v.items().unwrap();
        assert_eq!(items[0].shared_id(), Some("s1"));
        assert!(matches!(&items[1], RemoteValue::Window(w) if w.value.context == "C"));
        assert!(
            matches!(&items[2], RemoteValue::Number { value: Number::Special(s) } if s == "-0")
        );
        assert_eq!(items[3].get("a"), Some(&RemoteValue::Null));
        assert!(matches!(&items[4], RemoteValue::Map { value: Some(e), .. } if e.len() == 1));
        assert_eq!(items[5], RemoteValue::Other);
        assert_eq!(items[6].as_str(), Some("x"));
    }

    #[test]
    fn local_values_are_written_as_the_spec_names_them() {
        let v = LocalValue::Array(vec![
            LocalValue::string("a"),
            LocalValue::Number(f64::NAN),
            LocalValue::Object(vec![("k".into(), LocalValue::Boolean(true))]),
            LocalValue::shared("e1"),
            LocalValue::Undefined,
        ]);
        assert_eq!(
            serde_json::to_value(&v).unwrap(),
            json!({"type": "array", "value": [
                {"type": "string", "value": "a"},
                {"type": "number", "value": "NaN"},
                {"type": "object", "value": [["k", {"type": "boolean", "value": true}]]},
                {"sharedId": "e1"},
                {"type": "undefined"}]})
        );
    }
}
