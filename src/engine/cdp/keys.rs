//! A key gesture as DevTools input events (`Input.dispatchKeyEvent`), for the page
//! connection to send together (one round trip for a whole typed value: the driver's
//! `input.performActions` waits for each key's answer, and for a timer, before the next).
//!
//! The events are the ones ChromeDriver's BiDi mapper (chromium-bidi's action dispatcher)
//! sends for the same sequence, on a US keyboard:
//! - a key's `key` is its WebDriver normalized key value (WebDriver 2 §17.4.2 "Keyboard
//!   actions": `\u{E007}` is "Enter"), its `code` the physical key of the spec's code table
//!   (`a` and `A` are "KeyA", `!` is "Digit1", Control is "ControlLeft"), its
//!   `windowsVirtualKeyCode` the US layout's key code;
//! - a key with text (a character; Enter is "\r") goes down as `keyDown` with `text` and
//!   `unmodifiedText` (upper case with Shift held); one without as `rawKeyDown`; with
//!   Control held the text is the control character of letters and a few signs (Ctrl+A is
//!   U+0001) or none; with Alt held, none;
//! - `modifiers` is the mask of the modifiers held (Alt 1, Control 2, Meta 4, Shift 8), the
//!   left modifiers' location 1;
//! - Escape also cancels a drag in progress (`Input.cancelDragging`), except with Alt held;
//! - on macOS, Meta with A, C, V, X, Z names its editing command (the renderer does not map
//!   those chords there).
//!
//! Owns: the translation. Must not: send anything, or take a key it has no row for (a
//! WebDriver key code other than the ones ariasnap presses, a control character): the
//! driver gets that gesture whole.

use crate::engine::bidi::KeyAction;
use fantoccini::key::Key;
use serde_json::{Map, Value, json};

/// A named key: its normalized key value, code, US key code, and whether it is a left
/// modifier (location 1).
struct Named {
    key: &'static str,
    code: &'static str,
    key_code: u32,
    modifier: bool,
}

const fn named(key: &'static str, code: &'static str, key_code: u32) -> Named {
    Named {
        key,
        code,
        key_code,
        modifier: false,
    }
}

/// A left modifier key (location 1).
const fn modifier(key: &'static str, code: &'static str, key_code: u32) -> Named {
    Named {
        modifier: true,
        ..named(key, code, key_code)
    }
}

/// The WebDriver key codes ariasnap presses (`actions::input::key_for`), by code point.
fn named_key(c: char) -> Option<Named> {
    let k = |key: Key| char::from(key);
    let n = match c {
        _ if c == k(Key::Enter) => named("Enter", "Enter", 13),
        _ if c == k(Key::Tab) => named("Tab", "Tab", 9),
        _ if c == k(Key::Escape) => named("Escape", "Escape", 27),
        _ if c == k(Key::Backspace) => named("Backspace", "Backspace", 8),
        _ if c == k(Key::Delete) => named("Delete", "Delete", 46),
        _ if c == k(Key::Up) => named("ArrowUp", "ArrowUp", 38),
        _ if c == k(Key::Down) => named("ArrowDown", "ArrowDown", 40),
        _ if c == k(Key::Left) => named("ArrowLeft", "ArrowLeft", 37),
        _ if c == k(Key::Right) => named("ArrowRight", "ArrowRight", 39),
        _ if c == k(Key::Home) => named("Home", "Home", 36),
        _ if c == k(Key::End) => named("End", "End", 35),
        _ if c == k(Key::PageUp) => named("PageUp", "PageUp", 33),
        _ if c == k(Key::PageDown) => named("PageDown", "PageDown", 34),
        _ if c == k(Key::Insert) => named("Insert", "Insert", 45),
        _ if c == k(Key::Shift) => modifier("Shift", "ShiftLeft", 16),
        _ if c == k(Key::Control) => modifier("Control", "ControlLeft", 17),
        _ if c == k(Key::Alt) => modifier("Alt", "AltLeft", 18),
        _ if c == k(Key::Meta) => modifier("Meta", "MetaLeft", 91),
        _ => {
            // F1 to F12 are consecutive code points (U+E031 to U+E03C)
            let f1 = k(Key::F1) as u32;
            let i = (c as u32).checked_sub(f1).filter(|i| *i < 12)?;
            const F: [&str; 12] = [
                "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
            ];
            named(F[i as usize], F[i as usize], 112 + i)
        }
    };
    Some(n)
}

/// The physical key and US key code of a character of the US layout; ("", 0) for a
/// character it has no key for (typed as text alone, as the driver does).
fn char_key(c: char) -> (String, u32) {
    let sign = |code: &str, key_code: u32| (code.to_string(), key_code);
    match c {
        'a'..='z' => (
            format!("Key{}", c.to_ascii_uppercase()),
            c.to_ascii_uppercase() as u32,
        ),
        'A'..='Z' => (format!("Key{c}"), c as u32),
        '0'..='9' => (format!("Digit{c}"), c as u32),
        ')' => sign("Digit0", 48),
        '!' => sign("Digit1", 49),
        '@' => sign("Digit2", 50),
        '#' => sign("Digit3", 51),
        '$' => sign("Digit4", 52),
        '%' => sign("Digit5", 53),
        '^' => sign("Digit6", 54),
        '&' => sign("Digit7", 55),
        '*' => sign("Digit8", 56),
        '(' => sign("Digit9", 57),
        ' ' => sign("Space", 32),
        ';' | ':' => sign("Semicolon", 186),
        '=' | '+' => sign("Equal", 187),
        ',' | '<' => sign("Comma", 188),
        '-' | '_' => sign("Minus", 189),
        '.' | '>' => sign("Period", 190),
        '/' | '?' => sign("Slash", 191),
        '`' | '~' => sign("Backquote", 192),
        '[' | '{' => sign("BracketLeft", 219),
        '\\' | '|' => sign("Backslash", 220),
        ']' | '}' => sign("BracketRight", 221),
        '\'' | '"' => sign("Quote", 222),
        _ => (String::new(), 0),
    }
}

/// The text Control makes with a key (its control character, or none).
fn control_text(code: &str, shift: bool) -> &'static str {
    const LETTERS: [&str; 26] = [
        "\u{1}", "\u{2}", "\u{3}", "\u{4}", "\u{5}", "\u{6}", "\u{7}", "\u{8}", "\u{9}", "\u{a}",
        "\u{b}", "\u{c}", "\u{d}", "\u{e}", "\u{f}", "\u{10}", "\u{11}", "\u{12}", "\u{13}",
        "\u{14}", "\u{15}", "\u{16}", "\u{17}", "\u{18}", "\u{19}", "\u{1a}",
    ];
    if let Some(l) = code.strip_prefix("Key").and_then(|l| l.bytes().next()) {
        return LETTERS[(l - b'A') as usize];
    }
    match code {
        "Digit2" if shift => "\u{0}",
        "Digit6" if shift => "\u{1e}",
        "BracketLeft" => "\u{1b}",
        "Backslash" => "\u{1c}",
        "BracketRight" => "\u{1d}",
        "Minus" => "\u{1f}",
        _ => "",
    }
}

/// The modifiers held.
#[derive(Default)]
struct Held {
    alt: bool,
    ctrl: bool,
    meta: bool,
    shift: bool,
}

impl Held {
    fn mask(&self) -> u32 {
        u32::from(self.alt)
            | u32::from(self.ctrl) << 1
            | u32::from(self.meta) << 2
            | u32::from(self.shift) << 3
    }

    fn set(&mut self, key: &str, down: bool) {
        match key {
            "Alt" => self.alt = down,
            "Control" => self.ctrl = down,
            "Meta" => self.meta = down,
            "Shift" => self.shift = down,
            _ => {}
        }
    }
}

/// The editing command of a Meta chord on macOS.
fn mac_command(code: &str, shift: bool) -> Option<&'static str> {
    if !cfg!(target_os = "macos") {
        return None;
    }
    Some(match code {
        "KeyA" => "SelectAll",
        "KeyC" => "Copy",
        "KeyV" if shift => "PasteAndMatchStyle",
        "KeyV" => "Paste",
        "KeyX" => "Cut",
        "KeyZ" if shift => "Redo",
        "KeyZ" => "Undo",
        _ => return None,
    })
}

/// The DevTools commands (method, parameters) of a key gesture, in order; None when it has
/// a pause, a value that is not one character, or a key without a row here.
pub fn key_events(actions: &[KeyAction]) -> Option<Vec<(&'static str, Value)>> {
    let mut held = Held::default();
    let mut pressed: Vec<String> = Vec::new();
    let mut out = Vec::with_capacity(actions.len());
    for a in actions {
        let (value, down) = match a {
            KeyAction::KeyDown { value } => (value, true),
            KeyAction::KeyUp { value } => (value, false),
            KeyAction::Pause { duration } => {
                if duration.is_some_and(|d| d > 0) {
                    return None;
                }
                continue;
            }
        };
        let mut cs = value.chars();
        let (Some(c), None) = (cs.next(), cs.next()) else {
            return None;
        };
        let (key, code, key_code, location, mut unmodified) = match named_key(c) {
            Some(n) => {
                let unmodified = (n.key == "Enter").then(|| "\r".to_string());
                let location = u32::from(n.modifier);
                (
                    n.key.to_string(),
                    n.code.to_string(),
                    n.key_code,
                    location,
                    unmodified,
                )
            }
            None if c.is_control() || ('\u{e000}'..='\u{f8ff}').contains(&c) => return None,
            None => {
                let (code, key_code) = char_key(c);
                (c.to_string(), code, key_code, 0, Some(c.to_string()))
            }
        };
        if down {
            if pressed.contains(&key) {
                return None; // a key pressed twice without its release: the driver's repeat
            }
            pressed.push(key.clone());
        } else {
            let Some(i) = pressed.iter().position(|p| *p == key) else {
                continue; // not pressed: nothing to release
            };
            pressed.remove(i);
        }
        held.set(&key, down);
        if held.shift
            && let Some(u) = unmodified.as_mut()
            && u.chars().count() == 1
            && u != "\r"
        {
            *u = u.to_uppercase();
        }
        let text = if held.ctrl {
            Some(control_text(&code, held.shift).to_string())
        } else if held.alt {
            Some(String::new())
        } else {
            unmodified.clone()
        };
        let has_text = text.as_deref().is_some_and(|t| !t.is_empty());
        let kind = match (down, has_text) {
            (false, _) => "keyUp",
            (true, true) => "keyDown",
            (true, false) => "rawKeyDown",
        };
        let mut p = Map::new();
        p.insert("type".into(), json!(kind));
        p.insert("windowsVirtualKeyCode".into(), json!(key_code));
        p.insert("key".into(), json!(key));
        p.insert("code".into(), json!(code));
        if let Some(t) = &text {
            p.insert("text".into(), json!(t));
        }
        if let Some(u) = &unmodified {
            p.insert("unmodifiedText".into(), json!(u));
        }
        p.insert("location".into(), json!(location));
        p.insert("isKeypad".into(), json!(false));
        if held.alt {
            p.insert("isSystemKey".into(), json!(true));
        }
        p.insert("modifiers".into(), json!(held.mask()));
        if down
            && held.meta
            && let Some(cmd) = mac_command(&code, held.shift)
        {
            p.insert("commands".into(), json!([cmd]));
        }
        out.push(("Input.dispatchKeyEvent", Value::Object(p)));
        if down && key == "Escape" && !held.alt {
            out.push(("Input.cancelDragging", json!({})));
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn down(c: char) -> KeyAction {
        KeyAction::KeyDown {
            value: c.to_string(),
        }
    }

    fn up(c: char) -> KeyAction {
        KeyAction::KeyUp {
            value: c.to_string(),
        }
    }

    #[test]
    fn typed_characters_carry_their_key_code_and_text() {
        let ev = key_events(&KeyAction::type_text("aZ!é")).unwrap();
        let p = |i: usize| &ev[i].1;
        assert_eq!(ev.len(), 8);
        assert_eq!(
            (
                p(0)["type"].as_str(),
                p(0)["code"].as_str(),
                p(0)["text"].as_str()
            ),
            (Some("keyDown"), Some("KeyA"), Some("a"))
        );
        assert_eq!(p(0)["windowsVirtualKeyCode"], 65);
        assert_eq!(p(1)["type"], "keyUp");
        assert_eq!(
            (p(2)["code"].as_str(), p(2)["text"].as_str()),
            (Some("KeyZ"), Some("Z"))
        );
        assert_eq!(
            (
                p(4)["code"].as_str(),
                p(4)["windowsVirtualKeyCode"].as_u64()
            ),
            (Some("Digit1"), Some(49))
        );
        // a character off the US layout: text alone
        assert_eq!(
            (p(6)["code"].as_str(), p(6)["text"].as_str()),
            (Some(""), Some("é"))
        );
        assert!(ev.iter().all(|(_, p)| p["modifiers"] == 0));
    }

    #[test]
    fn chords_hold_their_modifiers_and_control_makes_control_text() {
        let ctrl = char::from(Key::Control);
        let shift = char::from(Key::Shift);
        let tab = char::from(Key::Tab);
        let ev = key_events(&[down(ctrl), down('a'), up('a'), up(ctrl)]).unwrap();
        assert_eq!(ev[0].1["type"], "rawKeyDown");
        assert_eq!(ev[0].1["code"], "ControlLeft");
        assert_eq!(ev[0].1["location"], 1);
        assert_eq!(ev[0].1["modifiers"], 2);
        assert_eq!(ev[1].1["text"], "\u{1}");
        assert_eq!(ev[1].1["type"], "keyDown");
        assert_eq!(ev[3].1["modifiers"], 0, "released");
        let ev = key_events(&[down(shift), down(tab), up(tab), up(shift)]).unwrap();
        assert_eq!(ev[1].1["type"], "rawKeyDown");
        assert_eq!(ev[1].1["key"], "Tab");
        assert_eq!(ev[1].1["modifiers"], 8);
        let ev = key_events(&[down(shift), down('a'), up('a'), up(shift)]).unwrap();
        assert_eq!(ev[1].1["text"], "A", "Shift makes the upper case");
    }

    #[test]
    fn enter_types_a_return_and_escape_cancels_a_drag() {
        let enter = char::from(Key::Enter);
        let esc = char::from(Key::Escape);
        let ev = key_events(&[down(enter), up(enter), down(esc), up(esc)]).unwrap();
        assert_eq!(ev[0].1["text"], "\r");
        assert_eq!(ev[0].1["windowsVirtualKeyCode"], 13);
        assert_eq!(ev[2].1["type"], "rawKeyDown");
        assert_eq!(ev[3].0, "Input.cancelDragging");
        assert_eq!(ev[4].1["type"], "keyUp");
    }

    #[test]
    fn keys_without_a_row_are_left_to_the_driver() {
        assert!(key_events(&[down('\u{e040}')]).is_none(), "ZenkakuHankaku");
        assert!(key_events(&[down('\t')]).is_none(), "a control character");
        let pause = KeyAction::Pause { duration: Some(10) };
        assert!(key_events(&[pause]).is_none());
        let two = KeyAction::KeyDown { value: "ab".into() };
        assert!(key_events(&[two]).is_none());
    }
}
