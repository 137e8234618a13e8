//! `set` (docs/reference/actions.md#set): any control to a value in one call, with the value read back.
//!
//! Owns: which input each kind of control gets and the read-back check. Must not: reach the
//! page other than through the engine's methods and the input helpers of `actions`.

use super::{Outcome, ask, click, click_at, fill, point, quote, select, set_checked};
use crate::browser::Browser;
use crate::engine::entry;
use crate::error::{Error, Result};
use crate::refs::parse_ref;
use crate::wire::{ControlReply, OptionPoint, ValueReply};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

mod range;

/// The expected spelling of a value the browser sanitizes (HTML's value sanitization
/// algorithms), for the read-back error.
fn value_format(control: &str) -> &'static str {
    match control {
        "date" => " (dates are YYYY-MM-DD)",
        "time" => " (times are HH:MM or HH:MM:SS)",
        "month" => " (months are YYYY-MM)",
        "week" => " (weeks are YYYY-Www)",
        "datetime-local" => " (local date-times are YYYY-MM-DDTHH:MM)",
        "color" => " (colours are #rrggbb)",
        "range" => " (a range clamps to its min and max and rounds to its step)",
        _ => "",
    }
}

/// `set`'s value as text: strings as they are, numbers and booleans in JSON.
fn value_text(v: &Value) -> Result<String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        other => Err(Error::Usage(format!(
            "set: this control takes one value (a string or a number), not {other}"
        ))),
    }
}

/// `set`'s value for a checkbox, radio, switch, toggle button or option.
fn value_bool(v: &Value) -> Result<bool> {
    let s = match v {
        Value::Bool(b) => return Ok(*b),
        Value::String(s) => s.trim().to_ascii_lowercase(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    match s.as_str() {
        "true" | "on" | "yes" | "checked" | "1" => Ok(true),
        "false" | "off" | "no" | "unchecked" | "0" => Ok(false),
        _ => Err(Error::Usage(format!(
            "set: a checkbox, radio, switch, toggle button or option takes true or false, not {v}"
        ))),
    }
}

/// How long a control may take to show an option's click ([`Target::read_updated`]).
const UPDATE_LIMIT: Duration = Duration::from_millis(150);

/// One `set` call: the session, the ref and what the control is.
struct Target<'a> {
    b: &'a Browser,
    r: &'a str,
    rr: String,
    c: ControlReply,
}

impl Target<'_> {
    /// `role "name"` of the control, for messages.
    fn what(&self) -> String {
        format!("{} {}", self.c.role, quote(&self.c.name))
    }

    /// The control as it is now.
    async fn read(&self) -> Result<ControlReply> {
        ask(
            self.b,
            entry::Control {
                r#ref: self.rr.clone(),
            },
        )
        .await
    }

    /// The control read now, and again every `every` while `holds` says it does not show
    /// what the input asked for yet, until `limit` has passed (the last read either way): the
    /// reply waits for the page's update itself rather than a fixed time.
    async fn read_until(
        &self,
        holds: impl Fn(&ControlReply) -> bool,
        limit: Duration,
        every: Duration,
    ) -> Result<ControlReply> {
        let start = Instant::now();
        loop {
            let now = self.read().await?;
            if holds(&now) || start.elapsed() >= limit {
                return Ok(now);
            }
            tokio::time::sleep(every).await;
        }
    }

    /// The control after an option's click, read until `holds` says it shows what was asked
    /// or [`UPDATE_LIMIT`] has passed: a framework updates the control in the click's
    /// handler, on the next task after it or a frame later.
    async fn read_updated(&self, holds: impl Fn(&ControlReply) -> bool) -> Result<ControlReply> {
        self.read_until(holds, UPDATE_LIMIT, Duration::from_millis(10))
            .await
    }

    /// The read-back error: what was asked and what the control holds.
    fn differs(&self, asked: &str, got: &str, hint: &str) -> Error {
        Error::Step(format!(
            "set {}: asked for {}, the {} now holds {}{hint}",
            self.rr,
            quote(asked),
            self.what(),
            quote(got)
        ))
    }
}

/// Sets any control to `value` in one call (docs/reference/actions.md#set): text fields and contenteditable
/// by real keys, date/time/month/week/colour/range inputs through their value setter with
/// the events of a user's edit, native selects by value or label, checkboxes, radios and
/// switches by a real click when they differ, ARIA comboboxes by typing (or opening) and
/// clicking the matching option. Returns the value read back; a read-back that differs from
/// what was asked is an error naming both.
pub async fn set(b: &Browser, r: &str, value: &Value) -> Result<Outcome> {
    let rr = parse_ref(r)?;
    let c: ControlReply = ask(b, entry::Control { r#ref: rr.clone() }).await?;
    if c.password
        && let Some(p) = b.policy()
    {
        p.check(crate::policy::Switch::PasswordSet, &format!("set {r}"))?;
    }
    if c.password
        && let Value::String(v) = value
    {
        b.remember_typed(v).await;
    }
    let t = Target { b, r, rr, c };
    let what = t.what();
    let rr = &t.rr;
    if t.c.disabled {
        return Err(Error::Step(format!(
            "{what} ({rr}) is disabled: it cannot be set"
        )));
    }
    if t.c.readonly {
        return Err(Error::Step(format!(
            "{what} ({rr}) is read-only: it cannot be set"
        )));
    }
    let password = t.c.password;
    let out = match t.c.control.as_str() {
        "checkbox" | "radio" | "switch" | "toggle" => set_checkable(&t, value).await,
        "option" => set_option(&t, value).await,
        "listbox" => set_listbox(&t, value).await,
        "aria-range" if t.c.editable => set_spin_field(&t, value).await,
        "aria-range" => range::set_range(&t, value).await,
        "position" => set_position(&t, value).await,
        "select" | "select-multiple" => set_select(&t, value).await,
        "date" | "time" | "month" | "week" | "datetime-local" | "color" | "range" => {
            set_direct(&t, value).await
        }
        "text" | "contenteditable" => set_text(&t, value).await,
        "combobox" => set_combobox(&t, value).await,
        "file" => Err(Error::Usage(format!(
            "{what} ({rr}) is a file input: use upload with the file paths"
        ))),
        _ => Err(Error::Step(format!(
            "{what} ({rr}) is not a control set can fill (text field, date/time, colour, \
             range, slider, spin button, select, listbox, option, checkbox, radio, switch, \
             combobox or contenteditable): click it instead"
        ))),
    };
    out.map(|o| without_echo(o, value, password))
}

/// A value as the words an echo would repeat: a string trimmed, a number or boolean as
/// written, a list of one as its item; None for anything else.
fn echo_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Array(a) if a.len() == 1 => echo_text(&a[0]),
        _ => None,
    }
}

/// An outcome without the value the agent sent (docs/reference/replies.md#changes): the
/// read-back is said only where it tells something new (an option's label for a value, a
/// slider's text), never for a password field (what the agent typed there is masked
/// everywhere: docs/reference/policy.md#typed-passwords). The change list says what changed.
fn without_echo(mut o: Outcome, sent: &Value, password: bool) -> Outcome {
    if let Some(Value::Object(m)) = &mut o.output {
        let echo = m.get("value").is_some_and(|v| {
            password || v == sent || echo_text(v).is_some_and(|t| Some(t) == echo_text(sent))
        });
        if echo {
            m.remove("value");
        }
        if m.is_empty() {
            o.output = None;
        }
    }
    o
}

/// A text field that is a spin button (a library's spinner: jQuery UI's): stepped with its
/// keys as an ARIA spin button, its value read back from the field; typed instead when its
/// keys do not move it or it holds no number yet.
async fn set_spin_field(t: &Target<'_>, value: &Value) -> Result<Outcome> {
    match range::set_range(t, value).await {
        Err(Error::Step(m))
            if range::is_unmoved(&m) || t.c.range.as_ref().is_none_or(|r| r.now.is_none()) =>
        {
            set_text(t, value).await
        }
        r => r,
    }
}

/// A slider drawn without ARIA (docs/behaviour.md#sliders-drawn-without-aria): its value is
/// where its handle stands on its track, in percent (`50` or `50%`), reached with the keys a
/// user presses and read back from the handle's position.
async fn set_position(t: &Target<'_>, value: &Value) -> Result<Outcome> {
    let want = value_text(value)?;
    let bare = want.trim().trim_end_matches('%').trim();
    if bare.parse::<f64>().is_err() {
        return Err(Error::Usage(format!(
            "set {}: the {} is a slider without a value of its own: give where its handle \
             should stand, in percent of its track (0 to 100, as 50 or 50%), not {}",
            t.rr,
            t.what(),
            quote(&want)
        )));
    }
    let mut out = range::set_range(t, &Value::String(bare.to_string())).await?;
    if let Some(Value::Object(o)) = &mut out.output
        && let Some(Value::String(v)) = o.get_mut("value")
    {
        v.push('%');
    }
    Ok(out)
}

fn read_back(v: Value) -> Outcome {
    Outcome::with(json!({ "value": v }))
}

/// Checkboxes, radios, switches and toggle buttons: a real click when the state differs (a tri-state
/// checkbox that says "mixed" is neither true nor false: clicked until it is as asked).
async fn set_checkable(t: &Target<'_>, value: &Value) -> Result<Outcome> {
    let want = value_bool(value)?;
    if t.c.control == "radio" && !want && t.c.checked.as_ref().is_some_and(|c| c.is_true()) {
        return Err(Error::Step(format!(
            "{} ({}) is a radio button: a user cannot uncheck it; set another radio of its \
             group instead",
            t.what(),
            t.rr
        )));
    }
    let done = set_checked(t.b, t.r, want).await?;
    let after = entry::CheckedAfter {
        r#ref: t.rr.clone(),
    };
    let now = ask(t.b, after).await?.checked;
    if !now.is(want) {
        return Err(t.differs(&want.to_string(), &now.to_string(), ""));
    }
    Ok(Outcome {
        warnings: done.warnings,
        ..read_back(json!(want))
    })
}

/// An option of an ARIA listbox, like a checkbox: true selects it, false unselects it (a
/// real click when its selection differs). In a single-select listbox a user cannot unselect
/// the selected option: select another one instead.
async fn set_option(t: &Target<'_>, value: &Value) -> Result<Outcome> {
    let want = value_bool(value)?;
    let on = t.c.checked.as_ref().is_some_and(|c| c.is_true());
    if !want && on && !t.c.multiple {
        return Err(Error::Step(format!(
            "{} ({}) is the selected option of a single-select listbox: a user cannot \
             unselect it; set another option (or the listbox) instead",
            t.what(),
            t.rr
        )));
    }
    set_checkable(t, value).await
}

/// The names of the options a listbox has selected, white space collapsed.
fn selection(c: &ControlReply) -> Vec<String> {
    c.selected
        .iter()
        .flatten()
        .map(|o| norm_ws(&o.label))
        .collect()
}

/// Whether `wanted` names exactly the options of `got` (case and white space aside).
fn same_options(wanted: &[String], got: &[String]) -> bool {
    let key = |s: &String| norm_ws(s).to_lowercase();
    let mut w: Vec<String> = wanted.iter().map(key).collect();
    let mut g: Vec<String> = got.iter().map(key).collect();
    w.sort();
    w.dedup();
    g.sort();
    g.dedup();
    w == g
}

/// ARIA listboxes (APG listbox): the options named (one, or a list for a multi-select
/// listbox) become the selection, each by a real click on the option when its selection
/// differs (a click selects an option of a single-select listbox and toggles one of a
/// multi-select listbox, as the APG examples do); the selection is read back.
async fn set_listbox(t: &Target<'_>, value: &Value) -> Result<Outcome> {
    let wanted: Vec<String> = match value {
        Value::Array(a) => a.iter().map(value_text).collect::<Result<_>>()?,
        v => vec![value_text(v)?],
    };
    if !t.c.multiple && wanted.len() != 1 {
        return Err(Error::Usage(format!(
            "set: {} ({}) selects one option: give one name, not {}",
            t.what(),
            t.rr,
            wanted.len()
        )));
    }
    let wait = Duration::ZERO;
    let mut names = Vec::new();
    for w in &wanted {
        let o = find_option(t, w, true, wait, true).await?;
        if !o.selected {
            click_at(t.b, Some(t.r), o.x, o.y, 0, 1).await?;
        }
        names.push(o.name);
    }
    if t.c.multiple {
        // options selected before and not asked for are clicked off
        for extra in selection(&t.read().await?) {
            let key = norm_ws(&extra).to_lowercase();
            if names.iter().any(|n| norm_ws(n).to_lowercase() == key) {
                continue;
            }
            let o = find_option(t, &extra, true, wait, true).await?;
            if o.selected {
                click_at(t.b, Some(t.r), o.x, o.y, 0, 1).await?;
            }
        }
    }
    let got = selection(
        &t.read_updated(|c| same_options(&names, &selection(c)))
            .await?,
    );
    if !same_options(&names, &got) {
        return Err(t.differs(&names.join(", "), &got.join(", "), ""));
    }
    Ok(read_back(if t.c.multiple {
        json!(got)
    } else {
        json!(got.into_iter().next().unwrap_or_default())
    }))
}

/// Native selects: options by value or label (a list for multiple selects).
async fn set_select(t: &Target<'_>, value: &Value) -> Result<Outcome> {
    let wanted: Vec<String> = match value {
        Value::Array(a) => a.iter().map(value_text).collect::<Result<_>>()?,
        v => vec![value_text(v)?],
    };
    select(t.b, t.r, &wanted).await?;
    let sel = t.read().await?.selected.unwrap_or_default();
    let all_there = wanted.len() == sel.len()
        && wanted.iter().all(|w| {
            sel.iter()
                .any(|o| o.value == *w || norm_ws(&o.label) == norm_ws(w))
        });
    if !all_there {
        let got: Vec<&str> = sel.iter().map(|o| o.label.as_str()).collect();
        return Err(t.differs(&wanted.join(", "), &got.join(", "), ""));
    }
    let labels: Vec<String> = sel.into_iter().map(|o| o.label).collect();
    Ok(read_back(if t.c.control == "select" {
        json!(labels.into_iter().next().unwrap_or_default())
    } else {
        json!(labels)
    }))
}

/// Date, time, month, week, datetime-local, colour and range inputs: the value setter.
async fn set_direct(t: &Target<'_>, value: &Value) -> Result<Outcome> {
    let want = value_text(value)?;
    point(t.b, t.r, false).await?;
    let set = entry::SetDirect {
        r#ref: t.rr.clone(),
        value: want.clone(),
    };
    let got: ValueReply = ask(t.b, set).await?;
    let same = got.value == want
        || (t.c.control == "color" && got.value.eq_ignore_ascii_case(&want))
        || (t.c.control == "range" && same_number(&got.value, &want));
    if !same {
        return Err(t.differs(&want, &got.value, value_format(&t.c.control)));
    }
    Ok(read_back(json!(got.value)))
}

/// Text fields and contenteditable: cleared and typed with real keys.
async fn set_text(t: &Target<'_>, value: &Value) -> Result<Outcome> {
    let want = value_text(value)?;
    fill(t.b, t.r, &want).await?;
    let now = t.read().await?.value;
    let same = if t.c.control == "contenteditable" {
        norm_ws(&now) == norm_ws(&want)
    } else {
        now == want
    };
    if !same {
        return Err(t.differs(&want, &now, ""));
    }
    Ok(read_back(json!(now)))
}

/// How long `set` waits for a combobox's options to show: a listbox popup (the default,
/// WAI-ARIA 1.2) is waited for up to 3 s (suggestions may come from a server); a grid, tree
/// or dialog popup briefly, since a date picker's dialog has no options at all and its
/// field already holds what was typed.
fn options_wait(popup: Option<&str>) -> Duration {
    match popup {
        None | Some("listbox") => Duration::from_millis(3000),
        Some(_) => Duration::from_millis(300),
    }
}

/// The option of ref `rr` matching `value` (of its popup, or with `within` of the listbox
/// itself), waiting up to `wait` for one to show; its point is in the tab's viewport. With
/// `fixed`, options shown that do not match end the wait (a list that is all there, not
/// suggestions still coming).
async fn find_option(
    t: &Target<'_>,
    value: &str,
    within: bool,
    wait: Duration,
    fixed: bool,
) -> Result<OptionPoint> {
    let pick = entry::ComboOption {
        r#ref: t.rr.clone(),
        value: value.to_string(),
        within,
    };
    let deadline = Instant::now() + wait;
    loop {
        match crate::engine::call_for_ref(&t.b.page, pick.clone()).await {
            Ok((mut p, (dx, dy))) => {
                p.x += dx;
                p.y += dy;
                return Ok(p);
            }
            // no matching option yet: the list may still be loading
            Err(e @ Error::Step(_))
                if Instant::now() < deadline
                    && !(fixed && crate::engine::options_were_shown(&e)) =>
            {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => return Err(e),
        }
    }
}

/// ARIA comboboxes: typed into (or opened with a click), then the matching option clicked.
/// An editable combobox whose popup is not a listbox (a date picker's dialog, APG
/// combobox-datepicker) keeps what was typed: when no option shows, the field read back is
/// the result.
async fn set_combobox(t: &Target<'_>, value: &Value) -> Result<Outcome> {
    let want = value_text(value)?;
    if t.c.editable {
        fill(t.b, t.r, &want).await?;
    } else if !t.c.expanded {
        // a select-only combobox opens on a click (one already open would close)
        click(t.b, t.r, None, false, false).await?;
    }
    // the popup may open (and its options load) a moment after the input
    let popup = t.c.popup.as_deref();
    let free = t.c.editable && !matches!(popup, None | Some("listbox"));
    let opt = match find_option(t, &want, false, options_wait(popup), !t.c.editable).await {
        Ok(o) => o,
        Err(Error::Step(_)) if free => {
            let now = t.read().await?.value;
            if now != want {
                return Err(t.differs(&want, &now, ""));
            }
            return Ok(read_back(json!(now)));
        }
        Err(e) => {
            if !t.c.editable {
                // leave it closed, as it was (APG: Escape closes the popup)
                let _ = super::press(t.b, "Escape", Some(t.r)).await;
            }
            return Err(e);
        }
    };
    click_at(t.b, Some(t.r), opt.x, opt.y, 0, 1).await?;
    let shows = |value: &str| {
        norm_ws(value)
            .to_lowercase()
            .contains(&norm_ws(&opt.name).to_lowercase())
    };
    let now = t.read_updated(|c| shows(&c.value)).await?.value;
    if !shows(&now) {
        return Err(t.differs(&opt.name, &now, ""));
    }
    Ok(Outcome::with(json!({"value": now, "option": opt.name})))
}

fn norm_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Two spellings of the same number ("50" and "50.0").
fn same_number(a: &str, b: &str) -> bool {
    matches!((a.trim().parse::<f64>(), b.trim().parse::<f64>()), (Ok(x), Ok(y)) if x == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(v: Value) -> Outcome {
        Outcome::with(json!({ "value": v }))
    }

    #[test]
    fn a_read_back_is_said_only_when_it_tells_something_new() {
        // echoes of what was sent: left out (the change list says what the field holds)
        for (got, sent) in [
            (json!("Ada"), json!(" Ada ")),
            (json!("55"), json!(55)),
            (json!(true), json!(true)),
            (json!(["Olives"]), json!("Olives")),
        ] {
            assert!(without_echo(out(got), &sent, false).output.is_none());
        }
        // a list read back in other words than sent: kept (neither is one echo text)
        let list = without_echo(
            out(json!(["Cheese", "Olives"])),
            &json!(["Cheese", "olives"]),
            false,
        );
        assert_eq!(list.output, Some(json!({"value": ["Cheese", "Olives"]})));
        // what the agent did not send: kept
        let kept = without_echo(out(json!("Prague")), &json!("prague"), false);
        assert_eq!(kept.output, Some(json!({"value": "Prague"})));
        let range = Outcome::with(json!({"value": "50", "valuetext": "half"}));
        assert_eq!(
            without_echo(range, &json!("50"), false).output,
            Some(json!({"valuetext": "half"}))
        );
        // a password field's: never
        assert!(
            without_echo(out(json!("x")), &json!("y"), true)
                .output
                .is_none()
        );
    }
}
