//! Input over BiDi: `input.performActions` with pointer and key sources, and
//! `input.releaseActions`. A pointer move may start at an element (by shared id), so the
//! driver computes the point in the element's frame.
//!
//! Owns: the JSON form of action sequences. Must not: send anything (bidi.rs does).

use super::types::{Command, Empty};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// `input.performActions`: the actions of each input source, tick by tick.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PerformActions {
    /// The top-level context (or a frame) the actions go to.
    pub context: String,
    /// One entry per input source.
    pub actions: Vec<SourceActions>,
}

impl Command for PerformActions {
    const METHOD: &'static str = "input.performActions";
    type Reply = Empty;
}

/// `input.releaseActions`: releases every key and button still pressed in `context`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReleaseActions {
    /// The top-level context.
    pub context: String,
}

impl Command for ReleaseActions {
    const METHOD: &'static str = "input.releaseActions";
    type Reply = Empty;
}

/// `input.setFiles`: the files of a file input, as if the user picked them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SetFiles {
    /// The context the element belongs to.
    pub context: String,
    /// The file input, by shared id.
    pub element: SharedReference,
    /// Absolute paths on the browser's machine.
    pub files: Vec<String>,
}

impl Command for SetFiles {
    const METHOD: &'static str = "input.setFiles";
    type Reply = Empty;
}

/// A node by shared id (`script.SharedReference`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SharedReference {
    /// The node's shared id (the same id classic WebDriver uses for the element).
    pub shared_id: String,
}

/// The actions of one input source.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SourceActions {
    /// A mouse.
    Pointer {
        /// The source's id (the same id keeps its state across calls).
        id: String,
        /// Its actions.
        actions: Vec<PointerAction>,
    },
    /// A keyboard.
    Key {
        /// The source's id.
        id: String,
        /// Its actions.
        actions: Vec<KeyAction>,
    },
}

/// Where a pointer move's x and y count from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The viewport's top left corner.
    Viewport,
    /// The pointer's current position.
    Pointer,
    /// The centre of an element's first box, by shared id.
    Element(String),
}

impl Serialize for Origin {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// `{sharedId}`.
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Shared<'a> {
            shared_id: &'a str,
        }
        match self {
            Origin::Viewport => s.serialize_str("viewport"),
            Origin::Pointer => s.serialize_str("pointer"),
            Origin::Element(id) => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("type", "element")?;
                m.serialize_entry("element", &Shared { shared_id: id })?;
                m.end()
            }
        }
    }
}

/// One tick of a pointer source.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum PointerAction {
    /// Move to (x, y) from `origin`, over `duration` ms.
    PointerMove {
        /// Horizontal offset in CSS pixels.
        x: f64,
        /// Vertical offset in CSS pixels.
        y: f64,
        /// How long the move takes (ms).
        #[serde(skip_serializing_if = "Option::is_none")]
        duration: Option<u64>,
        /// What x and y count from (the viewport when None).
        #[serde(skip_serializing_if = "Option::is_none")]
        origin: Option<Origin>,
    },
    /// Press a button (0 main, 1 middle, 2 secondary).
    PointerDown {
        /// The button.
        button: u32,
    },
    /// Release a button.
    PointerUp {
        /// The button.
        button: u32,
    },
    /// Do nothing for `duration` ms.
    Pause {
        /// How long.
        #[serde(skip_serializing_if = "Option::is_none")]
        duration: Option<u64>,
    },
}

impl PointerAction {
    /// Move, press and release the main button at the centre of the element `shared_id`.
    pub fn click(shared_id: &str) -> Vec<PointerAction> {
        vec![
            PointerAction::PointerMove {
                x: 0.0,
                y: 0.0,
                duration: None,
                origin: Some(Origin::Element(shared_id.to_string())),
            },
            PointerAction::PointerDown { button: 0 },
            PointerAction::PointerUp { button: 0 },
        ]
    }
}

/// One tick of a key source.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum KeyAction {
    /// Press a key: one character, or a WebDriver key code such as `\u{E007}` (Enter).
    KeyDown {
        /// The key.
        value: String,
    },
    /// Release a key.
    KeyUp {
        /// The key.
        value: String,
    },
    /// Do nothing for `duration` ms.
    Pause {
        /// How long.
        #[serde(skip_serializing_if = "Option::is_none")]
        duration: Option<u64>,
    },
}

impl KeyAction {
    /// Press and release every character of `text` in turn.
    pub fn type_text(text: &str) -> Vec<KeyAction> {
        text.chars()
            .flat_map(|c| {
                [
                    KeyAction::KeyDown {
                        value: c.to_string(),
                    },
                    KeyAction::KeyUp {
                        value: c.to_string(),
                    },
                ]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn actions_are_written_as_the_spec_names_them() {
        let a = PerformActions {
            context: "C".into(),
            actions: vec![
                SourceActions::Pointer {
                    id: "mouse".into(),
                    actions: PointerAction::click("e1"),
                },
                SourceActions::Key {
                    id: "kb".into(),
                    actions: KeyAction::type_text("a"),
                },
            ],
        };
        assert_eq!(
            serde_json::to_value(&a).unwrap(),
            json!({"context": "C", "actions": [
                {"type": "pointer", "id": "mouse", "actions": [
                    {"type": "pointerMove", "x": 0.0, "y": 0.0,
                     "origin": {"type": "element", "element": {"sharedId": "e1"}}},
                    {"type": "pointerDown", "button": 0},
                    {"type": "pointerUp", "button": 0}]},
                {"type": "key", "id": "kb", "actions": [
                    {"type": "keyDown", "value": "a"}, {"type": "keyUp", "value": "a"}]}]})
        );
    }
}
