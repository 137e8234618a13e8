//! `set` on ARIA sliders and spin buttons (docs/reference/actions.md#set; WAI-ARIA APG slider, multi-thumb slider
//! and spinbutton patterns): the value is reached with the keys a user presses (arrows,
//! Page Up / Page Down, Home / End) and read back from `aria-valuenow` / `aria-valuetext`.
//!
//! Owns: the key plan (which key moves the value which way and by how much, learnt from the
//! control itself) and the range's read-back errors. Must not: write the value into the page
//! (only key input reaches it, so the page's own handlers decide, as for a user).

use super::{Outcome, Target, Value, json, quote, value_text};
use crate::actions::{focus, press_times};
use crate::engine::Key;
use crate::error::{Error, Result};
use crate::wire::{ControlReply, RangeState};
use std::time::Duration;

/// The most single steps a text target (an `aria-valuetext` such as "Tuesday") is looked
/// for, one key press and one read each.
const SCAN_MAX: usize = 400;
/// Corrections after the planned presses (a page whose steps are uneven).
const ROUNDS: usize = 8;

/// Which way a key moves the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    Up,
    Down,
}

/// The keys that move an APG range one step up or down, in the order tried: ArrowUp and
/// ArrowDown work on sliders of both orientations and on spin buttons; ArrowRight and
/// ArrowLeft are the horizontal slider's other pair.
fn arrows(way: Way) -> [char; 2] {
    match way {
        Way::Up => [Key::Up.into(), Key::Right.into()],
        Way::Down => [Key::Down.into(), Key::Left.into()],
    }
}

fn page_key(way: Way) -> char {
    match way {
        Way::Up => Key::PageUp.into(),
        Way::Down => Key::PageDown.into(),
    }
}

/// A number as a page writes it in aria-valuenow: no `.0` for whole numbers, and no
/// binary rounding noise (a step of 0.1 learnt from 22.3 - 22.2 is not 0.0999999...).
pub(super) fn number_text(n: f64) -> String {
    let n = if n.abs() < 1e6 {
        (n * 1e9).round() / 1e9
    } else {
        n
    };
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// Two numbers equal up to the rounding of decimal steps (0.1 + 0.2).
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// White space collapsed and lower-cased: how a value text is compared.
fn fold(s: &str) -> String {
    super::norm_ws(s).to_lowercase()
}

/// Whether the range holds what was asked: `aria-valuenow` equal to it as a number, or
/// `aria-valuetext` equal to it, case and white space aside.
pub(super) fn holds(s: &RangeState, want: &str) -> bool {
    if let (Some(now), Ok(w)) = (s.now, want.trim().parse::<f64>())
        && same(now, w)
    {
        return true;
    }
    !s.text.is_empty() && fold(&s.text) == fold(want)
}

/// The first number written in a text ("25.0 degrees Celsius" -> 25, "-5 °C" -> -5), if any.
pub(super) fn first_number(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let digit = b[i].is_ascii_digit();
        let signed = b[i] == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        if digit || signed {
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            return s[start..i].trim_end_matches('.').parse().ok();
        }
        i += 1;
    }
    None
}

/// How many steps of `step` go from `from` to `to` (rounded), and whether `to` lies on that
/// grid.
pub(super) fn steps_between(from: f64, to: f64, step: f64) -> (usize, bool) {
    let n = ((to - from) / step).abs();
    let whole = n.round();
    (whole as usize, same(whole * step, (to - from).abs()))
}

/// What the range holds, for messages: its number and, when it has one, its value text.
fn shown(s: &RangeState) -> String {
    match (s.now, s.text.is_empty()) {
        (Some(n), true) => number_text(n),
        (Some(n), false) => format!("{} ({})", number_text(n), s.text),
        (None, _) => s.text.clone(),
    }
}

/// What a message says of its range and step: " (it takes 0 to 250 and moves in steps of
/// 5)", or "" when nothing is known.
fn limits(s: &RangeState, step: Option<f64>) -> String {
    let mut parts = Vec::new();
    match (s.min, s.max) {
        (Some(a), Some(b)) => {
            parts.push(format!("it takes {} to {}", number_text(a), number_text(b)))
        }
        (Some(a), None) => parts.push(format!("it takes {} or more", number_text(a))),
        (None, Some(b)) => parts.push(format!("it takes up to {}", number_text(b))),
        (None, None) => {}
    }
    if let Some(st) = step {
        parts.push(format!("moves in steps of {}", number_text(st)));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(" and "))
    }
}

/// One `set` on an ARIA range: the target, and the keys learnt so far.
struct Ranger<'a, 'b> {
    t: &'a Target<'b>,
    /// The key that moves the value up, and down, once found.
    up: Option<char>,
    down: Option<char>,
    /// The value one arrow press moves, once seen.
    step: Option<f64>,
}

impl Ranger<'_, '_> {
    /// The range's state now, read again (every 30 ms, up to about 1 s) while it still
    /// equals `before`: a page may update aria-valuenow a frame after the key, and a frame
    /// of a busy machine can take longer than 300 ms (seen: a probe that waited 300 ms took
    /// the late update for no move, pressed the other arrow too, and the slider ended a step
    /// past the value asked for). Only a key that moves nothing (the range's end) waits it
    /// all.
    async fn read_after(&self, before: Option<f64>) -> Result<RangeState> {
        let moved = |c: &ControlReply| c.range.as_ref().and_then(|r| r.now) != before;
        let c = self
            .t
            .read_until(
                moved,
                Duration::from_millis(1100),
                Duration::from_millis(30),
            )
            .await?;
        Ok(c.range.unwrap_or_default())
    }

    async fn press(&self, key: char, times: usize) -> Result<()> {
        press_times(self.t.b, Some(self.t.r), key, times).await
    }

    /// One arrow press `way`: learns which key moves the value that way and by how much.
    /// The state after it, unchanged when no arrow key moves it (at its end, or a control
    /// that takes no keys).
    async fn probe(&mut self, way: Way, s: &RangeState) -> Result<RangeState> {
        let known = match way {
            Way::Up => self.up,
            Way::Down => self.down,
        };
        let keys: Vec<char> = match known {
            Some(k) => vec![k],
            None => arrows(way).to_vec(),
        };
        for k in keys {
            self.press(k, 1).await?;
            let after = self.read_after(s.now).await?;
            let (Some(a), Some(b)) = (s.now, after.now) else {
                return Ok(after);
            };
            if same(a, b) {
                continue;
            }
            // the key moved it: which way, by how much (a page may map a key the other way)
            let went = if b > a { Way::Up } else { Way::Down };
            match went {
                Way::Up => self.up = Some(k),
                Way::Down => self.down = Some(k),
            }
            // the largest single move seen: a first press from a value off the grid may snap
            // to it and move less than a step
            let d = (b - a).abs();
            self.step = Some(self.step.map_or(d, |st| st.max(d)));
            return Ok(after);
        }
        Ok(s.clone())
    }

    /// Moves from `s` towards the number `target`: a probe for the step, Page Up / Down once
    /// for a long way when they move further, arrows for the rest, then corrections. The
    /// state reached.
    async fn reach(&mut self, target: f64, mut s: RangeState) -> Result<RangeState> {
        let mut paged = false;
        let mut confirmed = false;
        for _ in 0..ROUNDS {
            let Some(now) = s.now else { return Ok(s) };
            if same(now, target) {
                return Ok(s);
            }
            if self
                .step
                .is_some_and(|st| steps_between(now, target, st).0 == 0)
            {
                // off the grid by less than a step: nothing a key press can mend
                return Ok(s);
            }
            let way = if target > now { Way::Up } else { Way::Down };
            let key = match way {
                Way::Up => self.up,
                Way::Down => self.down,
            };
            let (Some(key), Some(step)) = (key, self.step) else {
                s = self.probe(way, &s).await?;
                if s.now == Some(now) {
                    // no key moves it that way: at its end
                    return Ok(s);
                }
                continue;
            };
            let (n, _) = steps_between(now, target, step);
            if n >= 2 && !confirmed {
                // a second single press, from a value on the grid, confirms the step
                confirmed = true;
                s = self.probe(way, &s).await?;
                continue;
            }
            if n >= 10 && !paged {
                paged = true;
                s = self.pages(way, target, step, s).await?;
                continue;
            }
            self.press(key, n).await?;
            s = self.read_after(Some(now)).await?;
            let Some(moved) = s.now else { return Ok(s) };
            if same(moved, now) {
                // at its end: the page goes no further
                return Ok(s);
            }
            let (went, _) = steps_between(now, moved, step);
            if n > 1 && went < n && (target - moved) * (target - now) > 0.0 {
                // fewer steps than keys: the page reads its value back between keys later
                // than they come (it renders a frame after each), so one key at a time
                return self.one_by_one(target, s).await;
            }
        }
        Ok(s)
    }

    /// One key press at a time towards `target`, each read back before the next, until it
    /// is there, goes no further or passes it: for a page that takes a frame to show each
    /// value. At most SCAN_MAX presses.
    async fn one_by_one(&mut self, target: f64, mut s: RangeState) -> Result<RangeState> {
        for _ in 0..SCAN_MAX {
            let Some(now) = s.now else { break };
            if same(now, target) {
                break;
            }
            let way = if target > now { Way::Up } else { Way::Down };
            let key = match way {
                Way::Up => self.up,
                Way::Down => self.down,
            };
            let Some(key) = key else {
                s = self.probe(way, &s).await?;
                if s.now == Some(now) {
                    break;
                }
                continue;
            };
            self.press(key, 1).await?;
            s = self.read_after(Some(now)).await?;
            let Some(moved) = s.now else { break };
            if same(moved, now) || (target - moved) * (target - now) < 0.0 {
                break;
            }
        }
        Ok(s)
    }

    /// Page Up / Page Down towards `target` as many times as they fit, when one press moves
    /// the value further than an arrow (APG: "a larger amount"); else nothing.
    async fn pages(
        &mut self,
        way: Way,
        target: f64,
        step: f64,
        s: RangeState,
    ) -> Result<RangeState> {
        let Some(now) = s.now else { return Ok(s) };
        self.press(page_key(way), 1).await?;
        let after = self.read_after(Some(now)).await?;
        let Some(moved) = after.now else {
            return Ok(after);
        };
        let page = (moved - now).abs();
        let right_way = (moved > now) == (way == Way::Up);
        if !right_way || page <= step * 1.5 || (target - moved) * (target - now) < 0.0 {
            // no page key, or it jumped past the target: arrows from where it is
            return Ok(after);
        }
        let more = ((target - moved).abs() / page).floor() as usize;
        if more == 0 {
            return Ok(after);
        }
        self.press(page_key(way), more).await?;
        self.read_after(Some(moved)).await
    }

    /// Home or End when the target is the range's minimum or maximum (one key, APG): the
    /// state after, or None when the target is neither or the key did nothing.
    async fn ends(&self, target: f64, s: &RangeState) -> Result<Option<RangeState>> {
        let key: char = match (s.min, s.max) {
            (Some(a), _) if same(a, target) => Key::Home.into(),
            (_, Some(b)) if same(b, target) => Key::End.into(),
            _ => return Ok(None),
        };
        self.press(key, 1).await?;
        let after = self.read_after(s.now).await?;
        Ok((after.now != s.now).then_some(after))
    }

    /// Steps one value at a time from the minimum until `want` is the value text: for text
    /// targets whose number is not known ("Tuesday"). The state where it stopped, and the
    /// first and last value texts met.
    async fn scan(&mut self, want: &str, s: RangeState) -> Result<(RangeState, String, String)> {
        let mut s = s;
        // to the lowest value: Home, else arrows down until it stops
        if let Some(min) = s.min {
            if let Some(a) = self.ends(min, &s).await? {
                s = a;
            }
            if s.now.is_some_and(|n| !same(n, min)) {
                s = self.reach(min, s).await?;
            }
        }
        let first = s.text.clone();
        let mut last = first.clone();
        if holds(&s, want) {
            return Ok((s, first.clone(), first));
        }
        for _ in 0..SCAN_MAX {
            let before = s.now;
            s = match self.up {
                Some(k) => {
                    self.press(k, 1).await?;
                    self.read_after(before).await?
                }
                None => self.probe(Way::Up, &s).await?,
            };
            // at the top, or back at the bottom (a spin button that wraps around)
            let wrapped = matches!((before, s.now), (Some(a), Some(b)) if b < a);
            if s.now == before || wrapped {
                break;
            }
            last = s.text.clone();
            if holds(&s, want) {
                break;
            }
        }
        Ok((s, first, last))
    }
}

/// Sets an ARIA slider or spin button to `value`: a number (matched against
/// `aria-valuenow`) or a value text (matched against `aria-valuetext`, case aside), reached
/// with the keys a user presses, and read back. A value out of its range, off its step grid
/// or never shown is an error naming what was asked and what the control now holds.
pub(super) async fn set_range(t: &Target<'_>, value: &Value) -> Result<Outcome> {
    let want = value_text(value)?;
    let s0 = t.c.range.clone().unwrap_or_default();
    if s0.now.is_none() {
        return Err(Error::Step(format!(
            "set {}: the {} has no aria-valuenow, so no value can be read back: press its \
             keys instead",
            t.rr,
            t.what()
        )));
    }
    if holds(&s0, &want) {
        return Ok(done(&s0));
    }
    let number = want.trim().parse::<f64>().ok().filter(|n| n.is_finite());
    if let Some(n) = number {
        let below = s0.min.is_some_and(|m| n < m && !same(n, m));
        let above = s0.max.is_some_and(|m| n > m && !same(n, m));
        if below || above {
            return Err(t.differs(&want, &shown(&s0), &limits(&s0, None)));
        }
    }
    focus(t.b, t.r, false).await?;
    let mut r = Ranger {
        t,
        up: None,
        down: None,
        step: None,
    };
    let s = match number {
        Some(n) => match r.ends(n, &s0).await? {
            Some(s) => r.reach(n, s).await?,
            None => r.reach(n, s0.clone()).await?,
        },
        None => {
            // a value text that says its number ("30 degrees") is tried as that number first
            let mut s = s0.clone();
            if let Some(n) = first_number(&want)
                && s0.min.is_none_or(|m| n >= m)
                && s0.max.is_none_or(|m| n <= m)
            {
                s = r.reach(n, s).await?;
            }
            if holds(&s, &want) {
                s
            } else {
                let (s, first, last) = r.scan(&want, s).await?;
                if !holds(&s, &want) && r.step.is_none() && s.now == s0.now {
                    return Err(unmoved(t, &s));
                }
                if !holds(&s, &want) {
                    // never shown: the control goes back to where it was
                    let back = match s0.now {
                        Some(n) => r.reach(n, s).await?,
                        None => s,
                    };
                    return Err(t.differs(
                        &want,
                        &shown(&back),
                        &format!(
                            " (no value of it reads so: its value texts run from {} to {})",
                            quote(&first),
                            quote(&last)
                        ),
                    ));
                }
                s
            }
        }
    };
    if !holds(&s, &want) {
        if r.step.is_none() && s.now == s0.now {
            return Err(unmoved(t, &s));
        }
        return Err(t.differs(&want, &shown(&s), &limits(&s, r.step)));
    }
    Ok(done(&s))
}

/// Words of the error for a range no arrow key moved.
const UNMOVED: &str = "does not move with the arrow keys";

/// Whether a `set` error says the range did not move with its keys.
pub(super) fn is_unmoved(message: &str) -> bool {
    message.contains(UNMOVED)
}

/// The error for a range no arrow key moved.
fn unmoved(t: &Target<'_>, s: &RangeState) -> Error {
    Error::Step(format!(
        "set {}: the {} {UNMOVED} (it holds {}): click it, or press \
         its keys yourself",
        t.rr,
        t.what(),
        quote(&shown(s))
    ))
}

/// The read-back of a range: `value` is aria-valuenow, `valuetext` its text when it has one.
fn done(s: &RangeState) -> Outcome {
    let mut out = json!({ "value": s.now.map(number_text).unwrap_or_default() });
    if !s.text.is_empty() {
        out["valuetext"] = json!(s.text);
    }
    Outcome::with(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(now: f64, text: &str) -> RangeState {
        RangeState {
            now: Some(now),
            min: Some(0.0),
            max: Some(10.0),
            text: text.into(),
            vertical: false,
        }
    }

    #[test]
    fn a_range_holds_a_number_or_its_value_text() {
        assert!(holds(&state(25.0, ""), "25"));
        assert!(holds(&state(25.0, ""), " 25.0 "));
        assert!(holds(&state(0.3, ""), "0.30"));
        assert!(!holds(&state(25.0, ""), "26"));
        assert!(holds(&state(2.0, "Tuesday"), "tuesday"));
        assert!(holds(&state(50.0, "50  degrees"), "50 Degrees"));
        assert!(!holds(&state(2.0, "Tuesday"), "Wednesday"));
        // an empty value text matches nothing but a number
        assert!(!holds(&state(2.0, ""), ""));
    }

    #[test]
    fn numbers_are_read_from_value_texts() {
        assert_eq!(first_number("25.0 degrees Celsius"), Some(25.0));
        assert_eq!(first_number("-5 °C"), Some(-5.0));
        assert_eq!(first_number("Temperature 3."), Some(3.0));
        assert_eq!(first_number("1 minute 30 seconds"), Some(1.0));
        assert_eq!(first_number("Tuesday"), None);
        assert_eq!(first_number("a - b"), None);
    }

    #[test]
    fn steps_count_and_tell_the_grid() {
        assert_eq!(steps_between(0.0, 50.0, 5.0), (10, true));
        assert_eq!(steps_between(50.0, 0.0, 5.0), (10, true));
        assert_eq!(steps_between(20.0, 52.0, 5.0), (6, false));
        assert_eq!(steps_between(0.1, 0.7, 0.1), (6, true));
        assert_eq!(number_text(25.0), "25");
        assert_eq!(number_text(25.5), "25.5");
        assert_eq!(number_text(-3.0), "-3");
        assert_eq!(number_text(22.3 - 22.2), "0.1");
    }
}
