//! Real input sent to the page: a gesture (a mouse's actions or a keyboard's) through
//! WebDriver BiDi `input.performActions`, else classic WebDriver actions, a click through
//! DevTools when the driver's own input fails; clicks at a point, the pointer path of a drag,
//! key chords parsed and pressed, text typed, each in the frame of the ref it is for
//! (Firefox). Knows nothing of refs beyond their frames: the actions (src/actions/mod.rs)
//! resolve refs to points and say what the input did.

use crate::browser::Browser;
use crate::engine::bidi::{KeyAction, PointerAction, SourceActions};
use crate::engine::{self, Key, Mouse};
use crate::error::{Error, Result};
use crate::refs::parse_ref;
use tracing::debug;

/// A mouse button's number in WebDriver input (0 main, 1 middle, 2 secondary).
pub(super) fn button_code(name: Option<&str>) -> Result<u32> {
    match name.unwrap_or("left") {
        "left" => Ok(0),
        "middle" => Ok(1),
        "right" => Ok(2),
        other => Err(Error::Usage(format!(
            "unknown mouse button {other:?}: use left, middle or right"
        ))),
    }
}

/// A real click at (x, y) of the tab's viewport, in the document of ref `r` (its frame on
/// Firefox; the tab's document without a ref): `clicks` presses of mouse button `btn`.
pub(super) async fn click_at(
    b: &Browser,
    r: Option<&str>,
    x: f64,
    y: f64,
    btn: u32,
    clicks: u32,
) -> Result<()> {
    let inside = input_frame_of(b, r).await?;
    let (sx, sy) = inside.map_or((0.0, 0.0), |i| i.offset);
    let mut m = vec![move_to(x - sx, y - sy, None)];
    for _ in 0..clicks {
        m.push(PointerAction::PointerDown { button: btn });
        m.push(PointerAction::PointerUp { button: btn });
    }
    let done = perform(b, Gesture::Mouse(m)).await;
    leave_input_frame(b, inside).await?;
    if let Err(e) = done {
        // Without BiDi, the driver dispatches input with its own page scripts, which a page
        // that replaced built-ins (JSON.stringify...) breaks; DevTools input events need no
        // page script.
        let name = match btn {
            1 => "middle",
            2 => "right",
            _ => "left",
        };
        if !cdp_click(b, x, y, name, clicks).await {
            return Err(e);
        }
        debug!("click dispatched through DevTools after the driver failed: {e}");
    }
    Ok(())
}

/// One input gesture: a mouse's actions or a keyboard's.
pub(super) enum Gesture {
    Mouse(Vec<PointerAction>),
    Keys(Vec<KeyAction>),
}

/// A pointer move to (x, y) of the current context's viewport.
pub(super) fn move_to(x: f64, y: f64, duration: Option<u64>) -> PointerAction {
    PointerAction::PointerMove {
        x,
        y,
        duration,
        origin: None,
    }
}

/// Sends a gesture as real input in the current context, then releases what is still
/// pressed: through the DevTools page connection when it can go that way
/// (`Page::mouse_direct`, `Page::keys_direct`), else through BiDi (dispatched by the browser, no page script
/// involved), else through classic WebDriver actions.
pub(super) async fn perform(b: &Browser, g: Gesture) -> Result<()> {
    // a gesture without pacing goes as DevTools events sent together when the tab's page
    // connection is open (Chromium launched here): one round trip, where the driver waits
    // for each event's answer before the next
    let direct = match &g {
        Gesture::Mouse(a) => b.page.mouse_direct(a).await,
        Gesture::Keys(a) => b.page.keys_direct(a).await,
    };
    if let Some(r) = direct {
        return r;
    }
    let source = match &g {
        Gesture::Mouse(a) => SourceActions::Pointer {
            id: "mouse".into(),
            actions: a.clone(),
        },
        Gesture::Keys(a) => SourceActions::Key {
            id: "keyboard".into(),
            actions: a.clone(),
        },
    };
    match b.page.perform_input(vec![source]).await {
        Ok(()) => return Ok(()),
        Err(Some(e)) => return Err(e),
        Err(None) => {}
    }
    match g {
        Gesture::Mouse(a) => b.page.perform_mouse(&a).await,
        Gesture::Keys(a) => b.page.perform_keys(&a).await,
    }
}

/// A real mouse click at (x, y) through DevTools, which needs no page script.
async fn cdp_click(b: &Browser, x: f64, y: f64, button: &str, clicks: u32) -> bool {
    if !engine::dispatch_mouse(&b.page, Mouse::Moved, x, y).await {
        return false;
    }
    for c in 1..=clicks {
        for event in [
            Mouse::Pressed { button, clicks: c },
            Mouse::Released { button, clicks: c },
        ] {
            if !engine::dispatch_mouse(&b.page, event, x, y).await {
                return false;
            }
        }
    }
    true
}

/// The pointer path of a drag from one point of the viewport to another, as a user's hand
/// makes it: press, a pause, a first move of a few pixels (libraries start a drag after a
/// small distance: jQuery UI's `distance`, dnd-kit's activation constraint), moves along the
/// way (one every 40 CSS pixels, 4 to 16 of them, 20 ms each: a library that reorders as
/// the pointer crosses items sees it cross them), a pause over the target, release.
/// Points are whole CSS pixels (classic WebDriver's pointer moves take integers).
pub(super) fn drag_path((x1, y1): (f64, f64), (x2, y2): (f64, f64)) -> Vec<PointerAction> {
    let left = 0;
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = dx.hypot(dy);
    // the first move: 6 px towards the target (to the right for a drag that goes nowhere)
    let (ux, uy) = if len >= 1.0 {
        (dx / len, dy / len)
    } else {
        (1.0, 0.0)
    };
    let nudge = 6.0;
    let steps = ((len / 40.0).ceil() as usize).clamp(4, 16);
    let mut m = vec![
        move_to(x1.round(), y1.round(), None),
        PointerAction::PointerDown { button: left },
        PointerAction::Pause { duration: Some(50) },
        move_to(
            (x1 + ux * nudge).round(),
            (y1 + uy * nudge).round(),
            Some(20),
        ),
    ];
    for i in 1..=steps {
        let t = i as f64 / steps as f64;
        m.push(move_to(
            (x1 + dx * t).round(),
            (y1 + dy * t).round(),
            Some(20),
        ));
    }
    m.push(PointerAction::Pause {
        duration: Some(100),
    });
    m.push(PointerAction::PointerUp { button: left });
    m
}

fn key_for(name: &str) -> Option<char> {
    let k = match name.to_ascii_lowercase().as_str() {
        "enter" | "return" => Key::Enter,
        "tab" => Key::Tab,
        "escape" | "esc" => Key::Escape,
        "backspace" => Key::Backspace,
        "delete" | "del" => Key::Delete,
        "space" => return Some(' '),
        "arrowup" | "up" => Key::Up,
        "arrowdown" | "down" => Key::Down,
        "arrowleft" | "left" => Key::Left,
        "arrowright" | "right" => Key::Right,
        "home" => Key::Home,
        "end" => Key::End,
        "pageup" => Key::PageUp,
        "pagedown" => Key::PageDown,
        "insert" => Key::Insert,
        "control" | "ctrl" => Key::Control,
        "shift" => Key::Shift,
        "alt" => Key::Alt,
        "meta" | "command" | "cmd" => Key::Meta,
        "f1" => Key::F1,
        "f2" => Key::F2,
        "f3" => Key::F3,
        "f4" => Key::F4,
        "f5" => Key::F5,
        "f6" => Key::F6,
        "f7" => Key::F7,
        "f8" => Key::F8,
        "f9" => Key::F9,
        "f10" => Key::F10,
        "f11" => Key::F11,
        "f12" => Key::F12,
        _ => {
            let mut cs = name.chars();
            return match (cs.next(), cs.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            };
        }
    };
    Some(k.into())
}

/// Parses `Control+Shift+a` into key code points (modifiers first).
pub fn parse_chord(chord: &str) -> Result<Vec<char>> {
    if chord == "+" {
        return Ok(vec!['+']);
    }
    let parts: Vec<&str> = chord.split('+').collect();
    let mut out = Vec::new();
    for p in parts {
        let k = key_for(p.trim()).ok_or_else(|| {
            Error::Usage(format!(
                "unknown key {p:?} in {chord:?}: use a single character or Enter, Tab, Escape, Backspace, Delete, Space, ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown, F1-F12, with Control+, Shift+, Alt+, Meta+"
            ))
        })?;
        out.push(k);
    }
    Ok(out)
}

/// Presses a chord: all keys down in order, then up in reverse. `to`: the ref that has
/// the focus, when known (see [`input_frame_of`]).
pub(super) async fn press_chord(b: &Browser, to: Option<&str>, keys: &[char]) -> Result<()> {
    let key = |c: char| c.to_string();
    let mut k: Vec<KeyAction> = keys
        .iter()
        .map(|&c| KeyAction::KeyDown { value: key(c) })
        .collect();
    k.extend(
        keys.iter()
            .rev()
            .map(|&c| KeyAction::KeyUp { value: key(c) }),
    );
    let inside = input_frame_of(b, to).await?;
    let r = perform(b, Gesture::Keys(k)).await;
    leave_input_frame(b, inside).await?;
    r
}

/// Presses one key `times` times (down and up each time) in as few input actions as fit,
/// to the focused element; `to`: its ref, when known (see [`input_frame_of`]). The keys a
/// user presses to move a slider or spin button (`set`).
pub(super) async fn press_times(
    b: &Browser,
    to: Option<&str>,
    key: char,
    times: usize,
) -> Result<()> {
    let inside = input_frame_of(b, to).await?;
    let mut r = Ok(());
    let mut left = times;
    while left > 0 && r.is_ok() {
        let n = left.min(200);
        left -= n;
        let mut k = Vec::with_capacity(n * 2);
        for _ in 0..n {
            k.push(KeyAction::KeyDown {
                value: key.to_string(),
            });
            k.push(KeyAction::KeyUp {
                value: key.to_string(),
            });
        }
        r = perform(b, Gesture::Keys(k)).await;
    }
    leave_input_frame(b, inside).await?;
    r
}

/// Types text with real key events (one down/up per character; newlines press Enter).
/// `to`: the ref that has the focus, when known (see [`input_frame_of`]).
pub(super) async fn type_text(b: &Browser, to: Option<&str>, text: &str) -> Result<()> {
    let chars: Vec<char> = text.chars().collect();
    let inside = input_frame_of(b, to).await?;
    let mut r = Ok(());
    for chunk in chars.chunks(200) {
        let text: String = chunk
            .iter()
            .map(|&c| if c == '\n' { Key::Enter.into() } else { c })
            .collect();
        r = perform(b, Gesture::Keys(KeyAction::type_text(&text))).await;
        if r.is_err() {
            break;
        }
    }
    leave_input_frame(b, inside).await?;
    r
}

/// Firefox's driver dispatches input in the browsing context WebDriver is switched to:
/// keys go to that context's focused element and the pointer stays in its viewport, so
/// neither reaches a cross-origin frame (another process) from the top-level context, where
/// chromedriver sends keys to the focused frame and the pointer through the whole tab. On
/// Firefox, input for a ref inside a cross-origin frame is sent from inside that frame (at
/// points moved back by the frame's offset). Returns the frames entered, to leave with
/// [`leave_input_frame`].
pub(super) async fn input_frame_of(
    b: &Browser,
    to: Option<&str>,
) -> Result<Option<crate::engine::FrameRoute>> {
    let Some(r) = to else { return Ok(None) };
    if b.record.browser != crate::browser::launch::BrowserKind::Firefox {
        return Ok(None);
    }
    let rr = parse_ref(r)?;
    if crate::engine::frame_chain_of_ref(&rr).is_empty() {
        return Ok(None);
    }
    Ok(Some(crate::engine::enter_ref_frame(&b.page, &rr).await?))
}

pub(super) async fn leave_input_frame(
    b: &Browser,
    inside: Option<crate::engine::FrameRoute>,
) -> Result<()> {
    match inside {
        Some(i) => crate::engine::leave_frames(&b.page, i).await,
        None => Ok(()),
    }
}
