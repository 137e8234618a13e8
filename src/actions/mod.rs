//! Acting by ref: the engine resolves the ref (exists, connected, same document, same role
//! and name), scrolls it into view and checks what is at its centre; the host then sends
//! real input (pointer and keys) through WebDriver BiDi `input.performActions`, or classic
//! WebDriver actions on a driver without BiDi (docs/reference/browsers.md#without-bidi).
//!
//! Owns: input dispatch and key-chord parsing (input.rs), settling after an action, dialogs.
//! Must not: decide what a step's result looks like (the runner does), or reach the page
//! other than through `engine` (typed methods and replies; input is `Page::perform_input`,
//! DevTools input `engine::dispatch_mouse`).

use crate::browser::Browser;
use crate::engine::bidi::{Event, Events};
use crate::engine::{self, Condition, Entry, Key, entry};
use crate::error::{Error, Result};
use crate::refs::parse_ref;
use crate::wire::{ActivityReply, CheckedReply, FocusReply, GetReply, PointReply, SelectReply};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

mod input;
mod secret;
mod set;
pub use input::parse_chord;
use input::{
    Gesture, button_code, click_at, drag_path, input_frame_of, leave_input_frame, move_to, perform,
    press_chord, press_times, type_text,
};
pub use secret::secret_value;
pub use set::set;

/// What an action reports besides success: notes for the step's `warning`.
#[derive(Debug, Default, Clone)]
pub struct Outcome {
    pub output: Option<Value>,
    pub warnings: Vec<String>,
    /// What a snapshot cost (snapshot steps): the step result's `stats`.
    pub stats: Option<Value>,
}

impl Outcome {
    /// An outcome that is only its output.
    pub fn with(output: Value) -> Self {
        Outcome {
            output: Some(output),
            warnings: vec![],
            stats: None,
        }
    }
}

/// Calls the engine's `method` and returns its typed reply; the page's tagged failures are
/// typed errors (docs/reference/refs.md#before-an-action messages). A call about a ref runs in the document that minted it:
/// refs of cross-origin frames (`f<k>` with k read by frame switching) are resolved inside
/// their frame.
pub async fn ask<E: Entry>(b: &Browser, call: E) -> Result<E::Reply> {
    Ok(crate::engine::call_for_ref(&b.page, call).await?.0)
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The note a step gets when its ref's element changed since the snapshot and its current state
/// was used.
pub fn minor_note(minor: bool) -> Vec<String> {
    if minor {
        vec!["Note: element may have changed; used its current state.".into()]
    } else {
        vec![]
    }
}

/// Resolves a ref to the point to act on (after scrolling and the covered check), in the
/// tab's viewport (points of cross-origin frames are moved by the frame's offset).
async fn point(b: &Browser, r: &str, check: bool) -> Result<PointReply> {
    let r = parse_ref(r)?;
    let method = entry::Point { r#ref: r, check };
    let (mut p, (dx, dy)) = crate::engine::call_for_ref(&b.page, method).await?;
    p.x += dx;
    p.y += dy;
    Ok(p)
}

/// Clicks a ref with real pointer input.
pub async fn click(
    b: &Browser,
    r: &str,
    button: Option<&str>,
    double: bool,
    force: bool,
) -> Result<Outcome> {
    let btn = button_code(button)?;
    let p = point(b, r, !force).await?;
    click_at(b, Some(r), p.x, p.y, btn, if double { 2 } else { 1 }).await?;
    let mut warnings = minor_note(p.minor);
    warnings.extend(cover_note(&p, "click"));
    Ok(Outcome {
        output: None,
        warnings,
        stats: None,
    })
}

/// What `--force` did when no point of the target was in reach: the input went to the
/// element over its centre (never silently: docs/behaviour.md#where-pointer-input-goes).
fn cover_note(p: &PointReply, what: &str) -> Vec<String> {
    match &p.cover {
        Some(c) => vec![format!(
            "the {what} went to {} {}, which lies over every visible point of {} {} (--force)",
            c.role,
            quote(&c.name),
            p.role,
            quote(&p.name)
        )],
        None => vec![],
    }
}

/// Clicks at a point of the tab's viewport (CSS pixels) with real pointer input, through
/// the same input path as clicks on refs (issue 16: canvas and custom-drawn widgets).
pub async fn click_point(
    b: &Browser,
    x: f64,
    y: f64,
    button: Option<&str>,
    double: bool,
) -> Result<()> {
    let btn = button_code(button)?;
    click_at(b, None, x, y, btn, if double { 2 } else { 1 }).await
}

/// Moves the pointer to a point of the tab's viewport.
pub async fn hover_point(b: &Browser, x: f64, y: f64) -> Result<()> {
    perform(b, Gesture::Mouse(vec![move_to(x, y, None)])).await
}

/// Drags between two points of the tab's viewport along a pointer path (`drag_path`). A
/// drag that starts on an element with draggable="true" is HTML drag and drop: when the
/// browser fires none of its events for WebDriver input (Chromium), the engine fires them
/// (js/src/56_pointer.js `dragEnd`). A note when the element at the drop point did not
/// take the drop.
pub async fn drag_points(
    b: &Browser,
    (x1, y1): (f64, f64),
    (x2, y2): (f64, f64),
) -> Result<Vec<String>> {
    let start: crate::wire::DragStartReply = engine::call(
        &b.page,
        entry::DragStart {
            at: [x1.round(), y1.round()],
        },
    )
    .await?;
    perform(b, Gesture::Mouse(drag_path((x1, y1), (x2, y2)))).await?;
    if !start.draggable {
        return Ok(vec![]);
    }
    let end: crate::wire::DragEndReply = engine::call(
        &b.page,
        entry::DragEnd {
            at: [x2.round(), y2.round()],
        },
    )
    .await?;
    if end.fired && !end.dropped {
        return Ok(vec![
            "the element at the drop point did not take the drop (HTML drag and drop: its \
             dragover was not cancelled)"
                .into(),
        ]);
    }
    Ok(vec![])
}

/// Where a drag starts on a ref: the point a hit test reaches (after scrolling it into
/// view; the start must not be covered), in the tab's viewport.
pub async fn drag_point(b: &Browser, r: &str) -> Result<(f64, f64)> {
    let p = point(b, r, true).await?;
    Ok((p.x, p.y))
}

/// Where a drag onto ref `r` from `from` ends: past the middle of its visible part in the
/// direction of travel, by a quarter of its size on each axis the drag moves along, so that
/// the dragged item takes the target's place in a list that reorders as the pointer crosses
/// an item's middle (jQuery UI sortable: an item moving down goes after one whose lower half
/// the pointer is in, moving up before one whose upper half it is in), and it is still
/// inside the target for a drop zone.
pub async fn drop_point(b: &Browser, r: &str, from: (f64, f64)) -> Result<(f64, f64)> {
    let p = point(b, r, false).await?;
    let Some([x, y, w, h]) = p.r#box.filter(|b| b[2] >= 1.0 && b[3] >= 1.0) else {
        return Ok((p.x, p.y));
    };
    Ok(past_middle(from, [x, y, w, h]))
}

/// The point of box [x, y, w, h] a quarter of its size past its middle, on each axis the
/// travel from `from` moves along by more than 2 px, kept a pixel inside it.
fn past_middle((fx, fy): (f64, f64), [x, y, w, h]: [f64; 4]) -> (f64, f64) {
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let ahead = |from: f64, c: f64, size: f64| {
        let d = c - from;
        if d.abs() <= 2.0 {
            c
        } else {
            c + d.signum() * size / 4.0
        }
    };
    let clamp = |v: f64, lo: f64, size: f64| v.clamp(lo + 1.0, (lo + size - 1.0).max(lo + 1.0));
    (clamp(ahead(fx, cx, w), x, w), clamp(ahead(fy, cy, h), y, h))
}

/// Moves the pointer over a ref.
pub async fn hover(b: &Browser, r: &str) -> Result<Outcome> {
    let p = point(b, r, true).await?;
    let inside = input_frame_of(b, Some(r)).await?;
    let (sx, sy) = inside.map_or((0.0, 0.0), |i| i.offset);
    let done = perform(b, Gesture::Mouse(vec![move_to(p.x - sx, p.y - sy, None)])).await;
    leave_input_frame(b, inside).await?;
    done?;
    Ok(Outcome {
        output: None,
        warnings: minor_note(p.minor),
        stats: None,
    })
}

/// Focuses a ref (optionally selecting its content).
async fn focus(b: &Browser, r: &str, select: bool) -> Result<FocusReply> {
    let r = parse_ref(r)?;
    ask(b, entry::Focus { r#ref: r, select }).await
}

/// Refuses typing into a password field when the operator's policy turns that off
/// (docs/reference/policy.md#actions-off). `r`: the field's ref; None: the element that has
/// focus. Asks the page only when the policy has the switch off.
pub async fn refuse_password(b: &Browser, r: Option<&str>, verb: &str) -> Result<()> {
    use crate::policy::Switch;
    let Some(p) = b.policy().filter(|p| !p.allows(Switch::PasswordSet)) else {
        return Ok(());
    };
    let c: crate::wire::ControlReply = match r {
        Some(r) => {
            ask(
                b,
                entry::Control {
                    r#ref: parse_ref(r)?,
                },
            )
            .await?
        }
        None => {
            engine::call(
                &b.page,
                entry::Control {
                    r#ref: String::new(),
                },
            )
            .await?
        }
    };
    if c.password {
        p.check(
            Switch::PasswordSet,
            &format!("{verb} {}", r.unwrap_or("into the focused password field")),
        )?;
    }
    Ok(())
}

/// Clears a field and types `value` (real key input, so framework state follows).
pub async fn fill(b: &Browser, r: &str, value: &str) -> Result<Outcome> {
    refuse_password(b, Some(r), "fill").await?;
    let pv = point(b, r, true).await?;
    let v = focus(b, r, true).await?;
    if v.password {
        b.remember_typed(value).await;
    }
    // Select everything with the keyboard too (inputs without a selection API), then delete.
    press_chord(b, Some(r), &[Key::Control.into(), 'a']).await?;
    press_chord(b, Some(r), &[Key::Backspace.into()]).await?;
    type_text(b, Some(r), value).await?;
    let get = entry::Get {
        r#ref: parse_ref(r)?,
        what: "value".into(),
    };
    let after: GetReply = ask(b, get).await?;
    let mut out = Outcome {
        output: None,
        warnings: minor_note(pv.minor),
        stats: None,
    };
    out.warnings.extend(minor_note(v.minor));
    let got = after.value.as_ref().and_then(|v| v.text()).unwrap_or("");
    if got != value {
        out.warnings.push(format!(
            "the field now holds {} (the page changed what was typed)",
            quote(got)
        ));
    }
    Ok(out)
}

/// Types text into a ref (or the focused element), optionally pressing Enter.
pub async fn type_into(b: &Browser, r: Option<&str>, text: &str, submit: bool) -> Result<Outcome> {
    refuse_password(b, r, "type").await?;
    let mut out = Outcome::default();
    let password = if let Some(r) = r {
        point(b, r, true).await?;
        let v = focus(b, r, false).await?;
        out.warnings.extend(minor_note(v.minor));
        v.password
    } else if crate::vault::unusable(text).is_none() {
        // typing into whatever has focus: whether it is a password field
        let c: Result<crate::wire::ControlReply> = engine::call(
            &b.page,
            entry::Control {
                r#ref: String::new(),
            },
        )
        .await;
        c.is_ok_and(|c| c.password)
    } else {
        false
    };
    if password {
        b.remember_typed(text).await;
    }
    type_text(b, r, text).await?;
    if submit {
        press_chord(b, r, &[Key::Enter.into()]).await?;
    }
    Ok(out)
}

/// Presses a key or chord, on a ref when given.
pub async fn press(b: &Browser, key: &str, r: Option<&str>) -> Result<Outcome> {
    let keys = parse_chord(key)?;
    // a key that moves focus or submits types nothing into the field
    if !matches!(key, "Enter" | "Tab" | "Shift+Tab" | "Escape") {
        refuse_password(b, r, "press").await?;
    }
    if let Some(r) = r {
        focus(b, r, false).await?;
    }
    press_chord(b, r, &keys).await?;
    Ok(Outcome::default())
}

/// Makes a checkbox-like ref checked (or unchecked) with a real click, when it is not
/// already. A tri-state checkbox (APG checkbox-mixed) cycles through mixed, checked and
/// unchecked, so it is clicked again (up to three clicks) until it is as asked, unless a
/// click changes nothing or the cycle comes back to where it began.
pub async fn set_checked(b: &Browser, r: &str, want: bool) -> Result<Outcome> {
    let rr = parse_ref(r)?;
    let checked = || entry::Checked { r#ref: rr.clone() };
    let st: CheckedReply = ask(b, checked()).await?;
    if st.checked.is(want) {
        return Ok(Outcome::with(json!({"checked": want, "changed": false})));
    }
    let mut out = Outcome::default();
    let mut last = st.checked.clone();
    // read where it is, hidden or not: a menu closes on the click that checks its item
    let after_click = || entry::CheckedAfter { r#ref: rr.clone() };
    for _ in 0..3 {
        let done = click(b, r, None, false, false).await?;
        out.warnings.extend(done.warnings);
        let after: Result<CheckedReply> = ask(b, after_click()).await;
        match after {
            Ok(a) if a.checked.is(want) => break,
            Ok(a) if a.checked == last || a.checked == st.checked => {
                out.warnings.push(format!(
                    "after the click the element is checked={}",
                    a.checked
                ));
                break;
            }
            Ok(a) => last = a.checked,
            Err(_) => {
                out.warnings
                    .push("the element changed after the click; take a new snapshot".into());
                break;
            }
        }
    }
    out.warnings.dedup();
    out.output = Some(json!({"checked": want, "changed": true}));
    Ok(out)
}

/// Selects options of a native select.
pub async fn select(b: &Browser, r: &str, values: &[String]) -> Result<Outcome> {
    point(b, r, true).await?;
    let select = entry::Select {
        r#ref: parse_ref(r)?,
        values: values.to_vec(),
    };
    let v: SelectReply = ask(b, select).await?;
    Ok(Outcome::with(json!({"value": v.value})))
}

/// Sets the files of a file input: BiDi `input.setFiles`, or classic Element Send Keys with
/// the paths on a driver without BiDi.
pub async fn upload(b: &Browser, r: &str, files: &[String]) -> Result<Outcome> {
    let mut abs = Vec::new();
    for f in files {
        let p = std::path::Path::new(f);
        let a = std::fs::canonicalize(p)
            .map_err(|e| Error::Usage(format!("upload: cannot read {f}: {e}")))?;
        abs.push(a.display().to_string());
    }
    let id = element(b, r).await?;
    match b.page.set_files(&id, abs.clone()).await {
        Ok(()) => {}
        Err(Some(e)) => return Err(e),
        Err(None) => b.page.send_keys_to(&id, &abs.join("\n")).await?,
    }
    Ok(Outcome::with(json!({"files": abs})))
}

/// The WebDriver element id behind a ref (resolved with the engine's checks), for the
/// element commands of `engine` (upload, element screenshots, entering a frame).
pub async fn element(b: &Browser, r: &str) -> Result<String> {
    let rr = parse_ref(r)?;
    if !crate::engine::frame_chain_of_ref(&rr).is_empty() {
        // WebDriver element references are only valid in their own browsing context
        let inside = crate::engine::enter_ref_frame(&b.page, &rr).await?;
        crate::engine::leave_frames(&b.page, inside).await?;
        if inside.entered > 0 {
            return Err(Error::Step(format!(
                "{rr} is inside a cross-origin frame: upload and element screenshots work only \
                 on elements of the page or of same-origin frames (take a page screenshot instead)"
            )));
        }
    }
    // Resolve first for a precise error message.
    let resolve = entry::Point {
        r#ref: rr.clone(),
        check: false,
    };
    ask(b, resolve).await?;
    let id = engine::element(&b.page, &rr)
        .await?
        .ok_or_else(|| Error::Ref {
            kind: crate::error::RefProblem::Unknown,
            message: format!("unknown ref {rr:?}: take a new snapshot"),
        })?;
    Ok(id)
}

/// Answers open dialogs by the `--dialog` policy; they are logged for the step's result
/// (`crate::dialogs::drain`).
pub async fn handle_dialogs(b: &Browser) {
    b.page.answer_open().await;
}

fn is_transient(e: &Error) -> bool {
    if e.is_dialog() {
        return true;
    }
    let s = e.to_string();
    s.contains("context")
        || s.contains("detached")
        || s.contains("navigat")
        || s.contains("alert")
        || s.contains("unload")
}

/// The page is loaded and has had no DOM mutation and no new resource for `quiet_ms`.
fn quiet_for(a: &ActivityReply, quiet_ms: f64) -> bool {
    a.ready == "complete" && a.quiet_ms >= quiet_ms && !a.new_resources
}

/// Waits until the page is quiet: loaded, no DOM mutation and no new resource for
/// `quiet_ms`, at most `max` (then it just goes on). With `tail` `(since, min)`: when the
/// DOM changed after `since` (the page reacted to the action), also until `min` has gone by
/// from the start of the wait. Dialogs met on the way are handled.
pub async fn settle(b: &Browser, quiet_ms: f64, tail: Option<(Instant, Duration)>, max: Duration) {
    const POLL: Duration = Duration::from_millis(30);
    let start = Instant::now();
    let mut reacted = false;
    loop {
        // the page is told how long the host sleeps after a "not yet" (its warm-up may use
        // that time), unless this is the last poll
        let poll = if start.elapsed() + POLL < max {
            POLL.as_millis() as u64
        } else {
            0
        };
        let asked = entry::Activity {
            quiet: quiet_ms,
            poll,
        };
        match ask(b, asked).await {
            Ok(a) => {
                if let Some((since, _)) = tail {
                    // the last mutation is more recent than the action's start
                    reacted |= a.quiet_ms < since.elapsed().as_secs_f64() * 1000.0;
                }
                let tail_done = match tail {
                    Some((_, min)) if reacted => start.elapsed() >= min,
                    _ => true,
                };
                if quiet_for(&a, quiet_ms) && tail_done {
                    break;
                }
            }
            Err(e) if is_transient(&e) => {
                handle_dialogs(b).await;
            }
            Err(_) => break,
        }
        if start.elapsed() >= max {
            break;
        }
        tokio::time::sleep(POLL).await;
    }
}

/// How long a document a navigation loaded must have been quiet (no DOM mutation, no new
/// network resource) once its start-up work is done (docs/reference/replies.md#settling).
pub const LOADED_QUIET_MS: f64 = 40.0;

/// Settles a document a navigation loaded (docs/reference/replies.md#settling): its load
/// event (HTML "completely finish loading": `readyState` complete), the start-up work its
/// page began (timers due within a second, requests begun within the last second: the work
/// hook's `Symbol.for('ariasnap.timers')`), then [`LOADED_QUIET_MS`] without a DOM mutation
/// or a new network resource; at most `max`. A document without the work hook settles on
/// 120 ms of quiet, with `tail` as [`settle`] has it.
pub async fn settle_loaded(b: &Browser, tail: Option<(Instant, Duration)>, max: Duration) {
    const HORIZON_MS: u64 = 1000;
    let start = Instant::now();
    loop {
        // ms until the start-up work is done (0: done); None: the document could not be asked
        let work = match engine::startup_work(&b.page, HORIZON_MS).await {
            Ok(None) => return settle(b, 120.0, tail, max.saturating_sub(start.elapsed())).await,
            // the document is not there yet (a navigation in flight) or a dialog holds it
            Err(_) => {
                handle_dialogs(b).await;
                None
            }
            Ok(Some(s)) if s.timer >= 0.0 => Some(s.timer + 1.0),
            Ok(Some(s)) if s.ready != "complete" || s.requests > 0 => Some(10.0),
            Ok(Some(_)) => Some(0.0),
        };
        let mut need = work.unwrap_or(10.0);
        if work.is_some() {
            // the quiet after what the start-up work changed and loaded; the page is told
            // how long the host sleeps if it is not there yet (its warm-up uses that time)
            let sleep = need.clamp(10.0, 50.0);
            let poll = if start.elapsed() + Duration::from_millis(sleep as u64) < max {
                sleep as u64
            } else {
                0
            };
            let asked = entry::Activity {
                quiet: LOADED_QUIET_MS,
                poll,
            };
            match ask(b, asked).await {
                Ok(a) if quiet_for(&a, LOADED_QUIET_MS) => {
                    if need <= 0.0 {
                        return;
                    }
                }
                Ok(a) => need = need.max((LOADED_QUIET_MS - a.quiet_ms).max(10.0)),
                Err(e) if is_transient(&e) => {
                    handle_dialogs(b).await;
                    need = need.max(10.0);
                }
                Err(_) => return,
            }
        }
        if start.elapsed() >= max {
            return;
        }
        let wait = Duration::from_micros((need.clamp(2.0, 50.0) * 1000.0) as u64);
        tokio::time::sleep(wait.min(max.saturating_sub(start.elapsed()))).await;
    }
}

/// How long an action's work must have been quiet for its reply when the page has rendered a
/// frame since and the hook sees the document's navigations (docs/reference/replies.md#settling):
/// the tasks a framework runs right after the work it follows (a render batched in a message
/// task, a microtask chain deeper than the hook follows) come within a few ms, and before the
/// next frame; a frame is 16.7 ms at 60 Hz.
pub const FRAME_QUIET_MS: f64 = 20.0;

/// How long it must have been quiet when no frame is rendered (a hidden tab), or when the hook
/// cannot see navigations (no Navigation API): then it also covers a navigation the action
/// started (a form's submit) until the new document commits on a fast server, which 20 ms
/// did not (`trust::a_typed_password_is_never_written`, once in CI).
pub const WORK_QUIET_MS: f64 = 40.0;

/// How a settled action ended (what the caller reports of its wait).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    /// The work the action started ended, then its quiet time went by.
    Work,
    /// The action replaced the document (a navigation): settled as a load.
    Navigated,
    /// No work hook in the document (a classic session, a document older than the session's
    /// preload): settled on the page's quiet alone, as before the hook.
    Quiet,
}

/// Settles after an action begun with the work hook's `token` (docs/reference/replies.md#settling):
/// until the work the action started has ended (its timers due within the horizon, its
/// requests, its animation frames and animations, the DOM changes they make) and has then
/// been quiet for [`FRAME_QUIET_MS`] with a frame rendered since ([`WORK_QUIET_MS`] without
/// one, or where the hook cannot see navigations), and a navigation it started has left the
/// document, at most `max`. The page's own background work (polls,
/// tickers) is not waited for. A document without the hook settles on quiet (with `tail`
/// as [`settle`] has it); a document the action replaced, as a load.
///
/// With `idle_ends` (the agent's script, `eval`, whose work ran before its reply came):
/// an action that started nothing at all (no DOM change, no timer, request, frame,
/// animation or navigation) by the first poll is settled then, with no quiet time: input
/// still has events on their way when that poll comes, a script that returned does not.
pub async fn settle_action(
    b: &Browser,
    token: &str,
    tail: Option<(Instant, Duration)>,
    max: Duration,
    mut events: Option<&mut Events>,
    idle_ends: bool,
) -> Settled {
    let start = Instant::now();
    let Some(mut p) = engine::work_poll(&b.page, token).await else {
        settle(b, 120.0, tail, max).await;
        return Settled::Quiet;
    };
    if idle_ends && !p.fresh && p.idle() {
        return Settled::Work;
    }
    let tab = b.page.context();
    // the browser said a navigation of the tab ended without a new document (a 204, a
    // download, an error, another navigation): the one in flight is not awaited any more
    let nav_ended = |events: &mut Option<&mut Events>| {
        events.as_mut().is_some_and(|ev| {
            ev.seen(|e| {
                e.context() == tab.as_deref()
                    && (e.is_navigation_end() || matches!(e, Event::DownloadWillBegin(_)))
            })
        })
    };
    loop {
        if p.fresh {
            settle_loaded(b, None, max.saturating_sub(start.elapsed())).await;
            return Settled::Navigated;
        }
        let mut need: f64 = 0.0;
        if p.timer >= 0.0 {
            need = need.max(p.timer + 1.0);
        }
        if p.anims > 0.0 {
            need = need.max(p.anims + 1.0);
        }
        if p.frames > 0 || p.requests > 0 || p.ready != "complete" {
            need = need.max(10.0);
        }
        // a navigation the action started leaves this document: the reply waits for the
        // next one (as Playwright's actions wait for the navigation they start to commit)
        if p.nav && !nav_ended(&mut events) {
            need = need.max(10.0);
        }
        if !p.navs {
            if p.quiet < WORK_QUIET_MS {
                need = need.max(WORK_QUIET_MS - p.quiet);
            }
        } else if p.quiet < FRAME_QUIET_MS {
            need = need.max(FRAME_QUIET_MS - p.quiet);
        } else if !p.framed && p.quiet < WORK_QUIET_MS {
            // quiet long enough, and a frame asked for: it comes within a few ms
            need = need.max((WORK_QUIET_MS - p.quiet).min(4.0));
        }
        if need <= 0.0 || start.elapsed() >= max {
            return Settled::Work;
        }
        let wait = Duration::from_micros((need.clamp(2.0, 50.0) * 1000.0) as u64);
        tokio::time::sleep(wait.min(max.saturating_sub(start.elapsed()))).await;
        match engine::work_poll(&b.page, token).await {
            Some(next) => p = next,
            None => {
                // the document is going (a navigation in flight) or a dialog holds it
                handle_dialogs(b).await;
                settle_loaded(b, None, max.saturating_sub(start.elapsed())).await;
                return Settled::Navigated;
            }
        }
    }
}

/// Polls a `wait` condition until it holds or `limit` passes.
pub async fn wait_for(
    b: &Browser,
    cond: Condition,
    limit: Duration,
    what: &str,
) -> Result<Outcome> {
    let start = Instant::now();
    loop {
        match ask(b, cond.clone()).await {
            Ok(v) if v.met => {
                return Ok(Outcome::with(
                    json!({"waited_ms": start.elapsed().as_millis() as u64}),
                ));
            }
            Ok(_) => {}
            Err(e) if e.is_usage() || e.is_gone() => return Err(e),
            Err(e) if is_transient(&e) => {
                handle_dialogs(b).await;
            }
            Err(_) => {}
        }
        if start.elapsed() >= limit {
            return Err(Error::Timeout(format!(
                "{what} did not happen within {} ms",
                limit.as_millis()
            )));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bidi::PointerAction;

    fn c(k: Key) -> char {
        k.into()
    }

    #[test]
    fn drags_end_past_the_middle_and_move_in_steps() {
        // down a list onto an item 40 px high: a quarter past its middle
        assert_eq!(
            past_middle((101.0, 10.0), [0.0, 100.0, 200.0, 40.0]),
            (100.0, 130.0)
        );
        // up onto it: a quarter above its middle
        assert_eq!(
            past_middle((99.0, 300.0), [0.0, 100.0, 200.0, 40.0]),
            (100.0, 110.0)
        );
        // down and to the right: past the middle on both axes
        assert_eq!(
            past_middle((0.0, 0.0), [0.0, 100.0, 200.0, 40.0]),
            (150.0, 130.0)
        );
        // straight across: the middle of the axis it does not move along
        assert_eq!(
            past_middle((-100.0, 120.0), [0.0, 100.0, 200.0, 40.0]),
            (150.0, 120.0)
        );
        let p = drag_path((10.0, 10.0), (10.0, 410.0));
        let moves: Vec<(f64, f64)> = p
            .iter()
            .filter_map(|a| match a {
                PointerAction::PointerMove { x, y, .. } => Some((*x, *y)),
                _ => None,
            })
            .collect();
        // the press point, a 6 px nudge, then ten steps of 40 px
        assert_eq!(moves.len(), 12, "{moves:?}");
        assert_eq!(moves[1], (10.0, 16.0));
        assert_eq!(moves[2], (10.0, 50.0));
        assert_eq!(*moves.last().unwrap(), (10.0, 410.0));
        assert!(matches!(p[1], PointerAction::PointerDown { button: 0 }));
        assert!(matches!(
            p.last(),
            Some(PointerAction::PointerUp { button: 0 })
        ));
    }

    #[test]
    fn chords_parse_modifiers_and_named_keys() {
        assert_eq!(parse_chord("Enter").unwrap(), vec![c(Key::Enter)]);
        assert_eq!(
            parse_chord("Control+a").unwrap(),
            vec![c(Key::Control), 'a']
        );
        assert_eq!(
            parse_chord("Shift+Tab").unwrap(),
            vec![c(Key::Shift), c(Key::Tab)]
        );
        assert_eq!(parse_chord("+").unwrap(), vec!['+']);
        let e = parse_chord("Control+Bogus").unwrap_err();
        assert!(e.to_string().contains("unknown key \"Bogus\""), "{e}");
        assert_eq!(e.exit_code(), 2);
    }
}
