//! A mouse gesture as DevTools input events (`Input.dispatchMouseEvent`), for the page
//! connection to send together: the browser handles them in the order sent, so the gesture
//! costs one round trip instead of one per event (docs/reference/replies.md#settling "What
//! a reply costs").
//!
//! The events are the ones ChromeDriver's BiDi mapper (chromium-bidi's action dispatcher)
//! sends for the same `input.performActions` sequence: a move is `mouseMoved` with the
//! button held (or "none") and the `buttons` mask; a press and a release name their button,
//! the mask after them, and the click count; the count grows for presses of one button at
//! one point (within 2 CSS pixels) in one gesture, as the mapper counts presses within its
//! double-click interval and distance.
//!
//! Owns: the translation. Must not: send anything (cdp/direct.rs does), or take a gesture
//! that needs pacing (a move with a duration, a pause) or a point it does not know (a move
//! from an element or from the pointer): those go through the driver, which paces them and
//! knows where its pointer is.

use crate::engine::bidi::PointerAction;
use serde_json::{Value, json};

/// How far apart (CSS pixels, each axis) two presses may be and still count as one
/// multiple click (chromium-bidi's `ClickContext`: 2 px).
const CLICK_SLOP: f64 = 2.0;

/// DevTools' name and `buttons` bit of a WebDriver button number (0 main, 1 middle, 2
/// secondary, 3 back, 4 forward; W3C UI Events `MouseEvent.buttons`).
fn button(n: u32) -> Option<(&'static str, u32)> {
    match n {
        0 => Some(("left", 1)),
        1 => Some(("middle", 4)),
        2 => Some(("right", 2)),
        3 => Some(("back", 8)),
        4 => Some(("forward", 16)),
        _ => None,
    }
}

/// The `Input.dispatchMouseEvent` parameters of a gesture, in order; None when the gesture
/// does not start with a move to a point of the viewport, or has a paced move, a pause, a
/// move from an element or the pointer, or an unknown button.
pub fn mouse_events(actions: &[PointerAction]) -> Option<Vec<Value>> {
    let mut at: Option<(f64, f64)> = None;
    let mut mask = 0u32;
    let mut held: Vec<u32> = Vec::new();
    // the last press of each button: where, and its count
    let mut last: Vec<(u32, (f64, f64), u32)> = Vec::new();
    let mut out = Vec::with_capacity(actions.len());
    for a in actions {
        match a {
            PointerAction::PointerMove {
                x,
                y,
                duration,
                origin,
            } => {
                if duration.is_some_and(|d| d > 0) || origin.is_some() {
                    return None;
                }
                at = Some((*x, *y));
                let name = held
                    .first()
                    .and_then(|b| button(*b))
                    .map_or("none", |b| b.0);
                out.push(json!({
                    "type": "mouseMoved", "x": x, "y": y, "button": name, "buttons": mask,
                    "pointerType": "mouse",
                }));
            }
            PointerAction::PointerDown { button: b } => {
                let (x, y) = at?;
                let (name, bit) = button(*b)?;
                if held.contains(b) {
                    continue; // pressed already: the mapper sends nothing either
                }
                held.push(*b);
                mask |= bit;
                let count = match last.iter().position(|l| l.0 == *b) {
                    Some(i) => {
                        let (_, (px, py), c) = last[i];
                        let near = (px - x).abs() <= CLICK_SLOP && (py - y).abs() <= CLICK_SLOP;
                        let c = if near { c + 1 } else { 1 };
                        last[i] = (*b, (x, y), c);
                        c
                    }
                    None => {
                        last.push((*b, (x, y), 1));
                        1
                    }
                };
                out.push(json!({
                    "type": "mousePressed", "x": x, "y": y, "button": name, "buttons": mask,
                    "clickCount": count, "pointerType": "mouse",
                }));
            }
            PointerAction::PointerUp { button: b } => {
                let (x, y) = at?;
                let (name, bit) = button(*b)?;
                let Some(i) = held.iter().position(|h| h == b) else {
                    continue; // not pressed: nothing to release
                };
                held.remove(i);
                mask &= !bit;
                let count = last.iter().find(|l| l.0 == *b).map_or(1, |l| l.2);
                out.push(json!({
                    "type": "mouseReleased", "x": x, "y": y, "button": name, "buttons": mask,
                    "clickCount": count, "pointerType": "mouse",
                }));
            }
            PointerAction::Pause { duration } => {
                if duration.is_some_and(|d| d > 0) {
                    return None;
                }
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bidi::Origin;

    fn mv(x: f64, y: f64) -> PointerAction {
        PointerAction::PointerMove {
            x,
            y,
            duration: None,
            origin: None,
        }
    }

    fn kinds(v: &[Value]) -> Vec<(String, u64, u64)> {
        v.iter()
            .map(|e| {
                (
                    e["type"].as_str().unwrap().to_string(),
                    e["buttons"].as_u64().unwrap(),
                    e["clickCount"].as_u64().unwrap_or(0),
                )
            })
            .collect()
    }

    #[test]
    fn a_double_click_counts_its_presses_and_masks_its_button() {
        let down = PointerAction::PointerDown { button: 0 };
        let up = PointerAction::PointerUp { button: 0 };
        let ev = mouse_events(&[mv(10.5, 20.0), down.clone(), up.clone(), down, up]).unwrap();
        assert_eq!(
            kinds(&ev),
            [
                ("mouseMoved".into(), 0, 0),
                ("mousePressed".into(), 1, 1),
                ("mouseReleased".into(), 0, 1),
                ("mousePressed".into(), 1, 2),
                ("mouseReleased".into(), 0, 2),
            ]
        );
        assert_eq!(ev[1]["x"], 10.5);
        assert_eq!(ev[1]["button"], "left");
        assert_eq!(ev[0]["button"], "none");
    }

    #[test]
    fn a_move_with_a_button_held_names_it_and_a_far_press_counts_one() {
        let ev = mouse_events(&[
            mv(0.0, 0.0),
            PointerAction::PointerDown { button: 2 },
            mv(50.0, 0.0),
            PointerAction::PointerUp { button: 2 },
            PointerAction::PointerDown { button: 2 },
            PointerAction::PointerUp { button: 2 },
        ])
        .unwrap();
        assert_eq!(ev[2]["button"], "right");
        assert_eq!(ev[2]["buttons"], 2);
        assert_eq!(ev[4]["clickCount"], 1, "pressed 50 px from the first press");
    }

    #[test]
    fn gestures_that_need_pacing_or_an_unknown_point_are_left_to_the_driver() {
        let paced = PointerAction::PointerMove {
            x: 1.0,
            y: 1.0,
            duration: Some(20),
            origin: None,
        };
        let from_element = PointerAction::PointerMove {
            x: 0.0,
            y: 0.0,
            duration: None,
            origin: Some(Origin::Element("e".into())),
        };
        let pause = PointerAction::Pause { duration: Some(50) };
        assert!(mouse_events(&[paced]).is_none());
        assert!(mouse_events(&[from_element]).is_none());
        assert!(mouse_events(&[mv(0.0, 0.0), pause]).is_none());
        // a press before any move: where the pointer is, only the driver knows
        assert!(mouse_events(&[PointerAction::PointerDown { button: 0 }]).is_none());
        assert!(mouse_events(&[mv(0.0, 0.0), PointerAction::PointerDown { button: 9 }]).is_none());
    }
}
