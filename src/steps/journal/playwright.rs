//! The journal as a `@playwright/test` spec (docs/reference/step-files.md#export): each
//! exported step as the Playwright call a user would write for what ariasnap did, with
//! `getByRole` / `getByLabel` / `getByText` locators and `expect`s where the step file checks.
//!
//! Where the two differ, the spec follows what ariasnap did, read from the journal line's
//! element hints (`el`, taken with the locator before the step acted, 82_locate.js
//! `exportHints`): a native select is chosen with `selectOption`, an ARIA combobox by typing
//! or opening it and clicking the option `set` picked, a slider or spin button with the keys
//! a user presses (as `set` does: Playwright's `fill` takes only inputs), an element scrolled
//! in a direction by its nearest box that scrolls that way, a click whose element's centre is
//! covered at the point ariasnap's click reached.
//!
//! Owns: the spec's text. Must not: read the journal's file or the page.

use serde_json::{Map, Value, json};

/// A JavaScript string literal.
fn js(s: &str) -> String {
    serde_json::to_string(s)
        .unwrap_or_default()
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// The spec's helpers, written once at its top when a step uses them.
const SET_BY_KEYS: &str = r#"// ariasnap's `set` on a slider or spin button: the keys a user presses until the value reads
// as asked (aria-valuenow or aria-valuetext, or for a slider drawn without ARIA the place of
// its handle along its track, in percent); Up / Down first, Right / Left when those do not move it
const ariaValue = (e) => [e.getAttribute('aria-valuenow'), e.getAttribute('aria-valuetext')];
const handlePlace = (e) => {
  const h = e.getBoundingClientRect();
  for (let t = e.parentElement, up = 0; t && up < 3; t = t.parentElement, up++) {
    const r = t.getBoundingClientRect();
    const flat = r.width >= 3 * h.width && r.height <= 2 * h.height + 2;
    const tall = r.height >= 3 * h.height && r.width <= 2 * h.width + 2;
    if (!flat && !tall) continue;
    const len = flat ? t.clientWidth : t.clientHeight;
    const c = flat ? h.left + h.width / 2 - r.left - t.clientLeft : r.top + t.clientTop + len - h.top - h.height / 2;
    return [String(Math.round(Math.min(1, Math.max(0, c / len)) * 100)), null];
  }
  return [null, null];
};
async function setByKeys(target, want, read) {
  await target.focus();
  const goal = Number(String(want).replace(/%$/, ''));
  let keys = ['ArrowUp', 'ArrowDown'];
  let last;
  for (let i = 0; i < 400; i++) {
    const [now, text] = await target.evaluate(read);
    if (now === String(want) || text === String(want) || Number(now) === goal) return;
    if (now === last && keys[0] === 'ArrowUp') keys = ['ArrowRight', 'ArrowLeft'];
    last = now;
    const up = Number.isNaN(goal) ? i < 200 : Number(now) < goal;
    await target.press(up ? keys[0] : keys[1]);
  }
  throw new Error(`set: ${want} was not reached with the keys`);
}
"#;

const SCROLL_IN: &str = r#"// ariasnap's `scroll` of an element in a direction: its nearest box that scrolls that way
// (itself or an ancestor, else the page), by `by` pixels or 85% of that box
async function scrollIn(target, dx, dy, by) {
  await target.evaluate((e, [dx, dy, by]) => {
    const vertical = dy !== 0;
    for (let s = e; s; s = s.parentElement) {
      const st = getComputedStyle(s);
      const room = vertical ? s.scrollHeight - s.clientHeight : s.scrollWidth - s.clientWidth;
      if (/auto|scroll/.test(vertical ? st.overflowY : st.overflowX) && room > 0) {
        const n = by || Math.max(40, Math.round((vertical ? s.clientHeight : s.clientWidth) * 0.85));
        s.scrollBy({ left: dx * n, top: dy * n, behavior: 'instant' });
        return;
      }
    }
    const n = by || Math.max(40, Math.round((vertical ? innerHeight : innerWidth) * 0.85));
    scrollBy({ left: dx * n, top: dy * n, behavior: 'instant' });
  }, [dx, dy, by]);
}
"#;

const TABS: &str = r#"// ariasnap's tab aliases: t1 the test's first page, then t2, t3... in the order pages open
// (filled from the start of the test); `tabs.current` is the tab the test is on
const tabs = [];
async function tabAt(n) {
  while (tabs.length < n) await tabs[0].context().waitForEvent('page');
  const page = tabs[n - 1];
  await page.bringToFront();
  await page.waitForLoadState();
  return (tabs.current = page);
}
async function openTab(url) {
  const page = await tabs[0].context().newPage();
  if (url) await page.goto(url);
  return (tabs.current = page);
}
// after a close, the last tab left is current, as in ariasnap
async function closeTab(page) {
  await page.close();
  return (tabs.current = tabs.filter((p) => !p.isClosed()).at(-1));
}
"#;

/// A nameless container as Playwright finds it. HTML-AAM maps `form` and `section` to their
/// landmark roles only when they have an accessible name, and Playwright's `getByRole`
/// follows it, where Chromium's tree (and so the snapshot) keeps every form; ARIA 1.3's
/// `sectionheader` / `sectionfooter` (a `header` / `footer` inside `main` or a section, as
/// Chromium names them) are roles Playwright's `getByRole` does not take. Those go by their
/// element.
fn pw_unnamed(role: &str) -> String {
    match role {
        "form" => ".locator(\"form\")".into(),
        "region" => ".locator(\"section\")".into(),
        "sectionheader" => ".locator(\"header\")".into(),
        "sectionfooter" => ".locator(\"footer\")".into(),
        _ => format!(".getByRole({})", js(role)),
    }
}

/// Words as Playwright's `getByText` finds an element whose words span several blocks: it
/// reads the element's text nodes with nothing between them ("Pro" "$12/month" as
/// "Pro$12/month"), so each gap between words may be empty.
fn blocks_text(words: &str, exact: bool) -> String {
    let p = words
        .split_whitespace()
        .map(regex::escape)
        .collect::<Vec<_>>()
        .join("\\s*");
    if exact {
        format!("new RegExp({})", js(&format!("^{p}$")))
    } else {
        format!("new RegExp({}, \"i\")", js(&p))
    }
}

/// A Playwright locator for a step's locator (`getByRole`, `getByLabel`, `getByText`), with
/// the element hints of its journal line (`el`: a CSS path for an element with neither name
/// nor words, an `a` without href found by its text, words that span blocks).
fn pw_locator(t: &Map<String, Value>, el: &Map<String, Value>) -> String {
    let exact = t.get("exact").and_then(Value::as_bool).unwrap_or(true);
    let mut s = "page".to_string();
    match t.get("within") {
        Some(Value::Object(w)) => {
            let role = w.get("role").and_then(Value::as_str).unwrap_or("region");
            match w.get("name").and_then(Value::as_str) {
                Some(n) => {
                    s = format!(
                        "{s}.getByRole({}, {{ name: {}, exact: true }})",
                        js(role),
                        js(n)
                    )
                }
                None => s = format!("{s}{}", pw_unnamed(role)),
            }
        }
        Some(Value::String(w)) => s = format!("{s}{}", pw_unnamed(w)),
        _ => {}
    }
    let str_of = |k: &str| t.get(k).and_then(Value::as_str);
    let flag = |k: &str| el.get(k) == Some(&json!(true));
    let css = el.get("css").and_then(Value::as_str);
    let by_text = |x: &str| {
        if flag("blocks") {
            format!("{s}.getByText({})", blocks_text(x, exact))
        } else {
            format!("{s}.getByText({}, {{ exact: {exact} }})", js(x))
        }
    };
    // a CSS path is unique in its tree by itself: no nth after it
    let mut by_css = false;
    s = match (
        str_of("role"),
        str_of("name"),
        str_of("label"),
        str_of("text"),
    ) {
        (_, _, Some(l), _) => format!("{s}.getByLabel({}, {{ exact: {exact} }})", js(l)),
        (_, _, _, Some(x)) => by_text(x),
        // HTML-AAM: an `a` without href is a generic to Playwright (Chromium's tree makes
        // a clickable one a link): found by its words
        (Some("link"), Some(n), _, _) if flag("nohref") => by_text(n),
        (Some(r), Some(n), _, _) => format!(
            "{s}.getByRole({}, {{ name: {}, exact: {exact} }})",
            js(r),
            js(n)
        ),
        (_, None, _, _) if css.is_some() => {
            by_css = true;
            format!("{s}.locator({})", js(css.unwrap_or_default()))
        }
        (Some(r), None, _, _) => format!("{s}.getByRole({})", js(r)),
        _ => format!("{s}.locator(':root')"),
    };
    if let Some(n) = t.get("nth").and_then(Value::as_u64).filter(|_| !by_css) {
        s = format!("{s}.nth({n})");
    }
    s
}

/// The helpers a spec's lines use.
#[derive(Default)]
struct Helpers {
    keys: bool,
    scroll: bool,
    tabs: bool,
}

/// `set` (and `select` on what is not a native select) as Playwright calls: a native select
/// by `selectOption`, an ARIA combobox typed into (or opened) and its option clicked, an
/// ARIA listbox's options clicked, a slider or spin button by its keys, a text field filled.
fn pw_set(
    loc: &str,
    v: &Value,
    t: &Map<String, Value>,
    line: &Value,
    el: &Map<String, Value>,
    h: &mut Helpers,
) -> String {
    let tag = el.get("tag").and_then(Value::as_str).unwrap_or("");
    let role = t.get("role").and_then(Value::as_str).unwrap_or("");
    let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_owned);
    let editable = matches!(tag, "input" | "textarea") || el.contains_key("editable");
    // a click on the option named `n` within `scope` (the page, or a listbox)
    let option = |scope: &str, n: &str| {
        format!(
            "await {scope}.getByRole(\"option\", {{ name: {}, exact: true }}).click();",
            js(n)
        )
    };
    match (v, role) {
        (Value::Bool(b), _) => format!("await {loc}.setChecked({b});"),
        (_, _) if tag == "select" => format!("await {loc}.selectOption({v});"),
        (_, "combobox") => {
            let first = if editable {
                format!("await {loc}.fill({});", js(&text(v)))
            } else {
                format!("await {loc}.click();")
            };
            match line["option"].as_str() {
                Some(o) => format!("{first}\n  {}", option("page", o)),
                None => first,
            }
        }
        (_, "listbox") => {
            let all = v.as_array().cloned().unwrap_or_else(|| vec![v.clone()]);
            all.iter()
                .map(|o| option(loc, &text(o)))
                .collect::<Vec<_>>()
                .join("\n  ")
        }
        // a native range or number input takes fill; any other slider or spin button (an
        // ARIA one, a library's spinner on a text input) its keys, as `set` does
        (_, "slider" | "spinbutton")
            if !(tag == "input"
                && matches!(
                    el.get("type").and_then(Value::as_str),
                    Some("range" | "number")
                )) =>
        {
            h.keys = true;
            format!("await setByKeys({loc}, {}, ariaValue);", js(&text(v)))
        }
        (_, "generic") if el.contains_key("css") => {
            h.keys = true;
            format!("await setByKeys({loc}, {}, handlePlace);", js(&text(v)))
        }
        _ => format!("await {loc}.fill({});", js(&text(v))),
    }
}

/// A `scroll` of a located element: in a direction, its nearest box that scrolls that way
/// (the `scrollIn` helper, as ariasnap's scroll does); else into view.
fn pw_scroll(loc: &str, a: &Value, h: &mut Helpers) -> String {
    let (dx, dy) = match a.get("direction").and_then(Value::as_str) {
        Some("down") => (0, 1),
        Some("up") => (0, -1),
        Some("right") => (1, 0),
        Some("left") => (-1, 0),
        _ => return format!("await {loc}.scrollIntoViewIfNeeded();"),
    };
    h.scroll = true;
    // (a whole number, whether the journal holds it as an integer or a float)
    let by = a
        .get("amount")
        .and_then(Value::as_f64)
        .unwrap_or(0.0)
        .round() as i64;
    format!("await scrollIn({loc}, {dx}, {dy}, {by});")
}

/// `switchTab` and `closeTab` on the spec's `tabs` (ariasnap's aliases in opening order).
fn pw_tab(action: &str, a: &Value, h: &mut Helpers) -> String {
    h.tabs = true;
    let alias = a.as_str().or_else(|| a["tab"].as_str());
    let n = alias.and_then(|t| t.strip_prefix('t')?.parse::<u64>().ok());
    match (action, n) {
        ("switchTab", Some(n)) => format!("page = await tabAt({n});"),
        ("closeTab", None) if alias.is_none() => "page = await closeTab(page);".into(),
        ("closeTab", Some(n)) => format!("page = await closeTab(await tabAt({n}));"),
        _ => format!("// not exported: {action} {a}"),
    }
}

/// A check (`wait` or `assert`) on the page's text or URL as an `expect`.
fn pw_check(action: &str, a: &Value) -> String {
    match (
        a.get("text").and_then(Value::as_str),
        a.get("url").and_then(Value::as_str),
    ) {
        (Some(x), _) => format!(
            "await expect(page.getByText({}).first()).toBeVisible();",
            js(x)
        ),
        (None, Some(u)) => format!(
            "await expect(page).toHaveURL(new RegExp({}));",
            js(&regex::escape(u))
        ),
        _ => format!("// not exported: {action} {a}"),
    }
}

/// One exported step as a line of a Playwright test (`line`: its journal line, Null for a
/// check), or a comment for what it cannot say.
fn pw_line(step: &Value, line: &Value, h: &mut Helpers) -> String {
    let Some((action, a)) = step.as_object().and_then(|m| m.iter().next()) else {
        return String::new();
    };
    let mut t = a.as_object().cloned().unwrap_or_default();
    if let Some(Value::Object(inner)) = t.remove("target") {
        t.extend(inner);
    }
    let el = line["el"].as_object().cloned().unwrap_or_default();
    let text = |k: &str| a.get(k).and_then(Value::as_str).map(js);
    let loc = pw_locator(&t, &el);
    if t.contains_key("ref") {
        // (a ref no locator was taken for: another frame's element)
        return format!("// not exported: {action} {a}");
    }
    let s = |k: &str| text(k).unwrap_or_else(|| "''".into());
    let located = t.contains_key("role") || t.contains_key("label") || t.contains_key("text");
    // a covered centre: the point ariasnap's pointer reached (relative to the padding box)
    let at = el
        .get("at")
        .and_then(Value::as_array)
        .map(|p| format!("{{ position: {{ x: {}, y: {} }} }}", p[0], p[1]))
        .unwrap_or_default();
    match action.as_str() {
        "goto" => format!(
            "await page.goto({});",
            a.as_str()
                .map(js)
                .or_else(|| text("url"))
                .unwrap_or_default()
        ),
        "newTab" => {
            h.tabs = true;
            let url = a.as_str().map(js).or_else(|| text("url"));
            format!("page = await openTab({});", url.unwrap_or_default())
        }
        "switchTab" | "closeTab" => pw_tab(action, a, h),
        "back" => "await page.goBack();".into(),
        "forward" => "await page.goForward();".into(),
        "reload" => "await page.reload();".into(),
        "click" if a.get("double") == Some(&json!(true)) => format!("await {loc}.dblclick({at});"),
        "click" => format!("await {loc}.click({at});"),
        "hover" => format!("await {loc}.hover({at});"),
        "fill" => format!("await {loc}.fill({});", s("value")),
        "type" => format!(
            "await {loc}.pressSequentially({});{}",
            s("text"),
            if a.get("submit") == Some(&json!(true)) {
                format!("\n  await {loc}.press('Enter');")
            } else {
                String::new()
            }
        ),
        "press" if located => format!("await {loc}.press({});", s("key")),
        "press" => format!(
            "await page.keyboard.press({});",
            a.as_str().map(js).unwrap_or_else(|| s("key"))
        ),
        "check" => format!("await {loc}.check();"),
        "uncheck" => format!("await {loc}.uncheck();"),
        "select" if el.get("tag").is_some_and(|g| g != "select") => pw_set(
            &loc,
            a.get("values").unwrap_or(&Value::Null),
            &t,
            line,
            &el,
            h,
        ),
        "select" => format!(
            "await {loc}.selectOption({});",
            a.get("values").map(Value::to_string).unwrap_or_default()
        ),
        "set" => match a.get("value") {
            Some(v) => pw_set(&loc, v, &t, line, &el, h),
            None => "// set without a value".into(),
        },
        "scroll" if located => pw_scroll(&loc, a, h),
        "upload" => format!(
            "await {loc}.setInputFiles({});",
            a.get("files").map(Value::to_string).unwrap_or_default()
        ),
        "wait"
            if t.contains_key("role") || t.contains_key("label") || a.get("target").is_some() =>
        {
            let state = if a.get("hidden") == Some(&json!(true)) {
                "toBeHidden"
            } else {
                "toBeVisible"
            };
            format!("await expect({loc}).{state}();")
        }
        "drag" => match (a.get("from"), a.get("to")) {
            (Some(Value::Object(f)), Some(Value::Object(to))) => {
                let none = Map::new();
                format!(
                    "await {}.dragTo({});",
                    pw_locator(f, &none),
                    pw_locator(to, &none)
                )
            }
            _ => format!("// not exported: drag {a}"),
        },
        "screenshot" if located => match text("path") {
            Some(p) => format!("await {loc}.screenshot({{ path: {p} }});"),
            None => format!("await {loc}.screenshot();"),
        },
        "wait" | "assert" => pw_check(action, a),
        "sleep" => format!(
            "await page.waitForTimeout({});",
            a.as_u64().or_else(|| a["ms"].as_u64()).unwrap_or(0)
        ),
        // the call the action's declaration gives (`Act::PLAYWRIGHT`)
        other => match crate::steps::ActionKind::from_name(other).and_then(|k| k.playwright()) {
            Some(call) if located => call.replace("{loc}", &loc),
            _ => format!("// not exported: {other} {a}"),
        },
    }
}

/// The `@playwright/test` spec of a journal's lines: one test, the exported steps
/// (`export_steps`) as Playwright calls, the helpers they use at the top.
pub fn export_playwright(lines: &[Value], title: &str) -> String {
    let (steps, _) = super::exported(lines);
    let mut h = Helpers::default();
    let body: Vec<String> = steps
        .iter()
        .map(|(s, l)| format!("  {}\n", pw_line(s, l.unwrap_or(&Value::Null), &mut h)))
        .collect();
    let mut out = String::from(
        "// Exported by `ariasnap session export --as playwright`.\nimport { test, expect } from '@playwright/test';\n\n",
    );
    for (used, code) in [(h.keys, SET_BY_KEYS), (h.scroll, SCROLL_IN), (h.tabs, TABS)] {
        if used {
            out.push_str(code);
            out.push('\n');
        }
    }
    out.push_str(&format!("test({}, async ({{ page }}) => {{\n", js(title)));
    if h.tabs {
        // every page the test's context opens, in order (`tabAt`)
        out.push_str("  tabs.push((tabs.current = page));\n  page.context().on('page', (p) => tabs.push(p));\n");
    }
    out.extend(body);
    out.push_str("});\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(action: &str, args: Value, target: Value, el: Value) -> Value {
        json!({"kind": "step", "action": action, "args": args, "target": target, "el": el, "status": "ok"})
    }

    #[test]
    fn locators_checks_and_landmarks() {
        let lines = vec![
            json!({"n": 1, "kind": "step", "action": "goto", "args": {"url": "http://127.0.0.1:5/shop.html"}, "status": "ok"}),
            json!({"n": 2, "kind": "changes", "navigated": {"from": "about:blank", "to": "http://127.0.0.1:5/shop.html"}}),
            json!({"n": 5, "kind": "step", "action": "click", "args": {}, "target": {"role": "button", "name": "Pay", "within": {"role": "region", "name": "Cart"}}, "status": "ok"}),
            json!({"n": 6, "kind": "changes", "added": [{"role": "heading", "name": "Order placed"}]}),
        ];
        let pw = export_playwright(&lines, "t");
        assert!(pw.contains("await page.getByRole(\"region\", { name: \"Cart\", exact: true }).getByRole(\"button\", { name: \"Pay\", exact: true }).click();"), "{pw}");
        assert!(
            pw.contains("await expect(page.getByText(\"Order placed\").first()).toBeVisible();"),
            "{pw}"
        );
        assert!(
            pw.contains("toHaveURL(new RegExp(\"/shop\\\\.html\"))"),
            "{pw}"
        );
        // no helper a step does not use
        assert!(
            !pw.contains("setByKeys") && !pw.contains("scrollIn"),
            "{pw}"
        );
        // a nameless form is no landmark to Playwright (HTML-AAM): found by its element
        let m = json!({"within": {"role": "form"}, "role": "button", "name": "Create account"});
        assert_eq!(
            pw_locator(m.as_object().unwrap(), &Map::new()),
            "page.locator(\"form\").getByRole(\"button\", { name: \"Create account\", exact: true })"
        );
    }

    /// One step's Playwright line from its action, arguments, locator and element hints,
    /// with the helpers it asked for.
    fn one(action: &str, args: Value, target: Value, el: Value) -> (String, Helpers) {
        let mut h = Helpers::default();
        let l = step(action, args.clone(), target.clone(), el);
        let mut s = args.as_object().cloned().unwrap();
        s.extend(target.as_object().cloned().unwrap());
        (pw_line(&json!({ action: s }), &l, &mut h), h)
    }

    /// Every action that acts on an element a user sees is exported when a locator names
    /// its target: written here, or by the call its declaration gives (`Act::PLAYWRIGHT`).
    #[test]
    fn every_input_on_a_located_element_is_exported() {
        use crate::steps::{ActionKind, Kind};
        // (drag names its two ends in its own arguments; submit and scroll are exported
        // by their own arms, with the arguments they need)
        let own_args = ["drag", "submit", "scroll", "goto"];
        for k in ActionKind::all().filter(|k| k.info().kind == Kind::Visual) {
            if own_args.contains(&k.name()) {
                continue;
            }
            let line = step(
                k.name(),
                json!({}),
                json!({"role": "button", "name": "Go"}),
                json!({"tag": "button"}),
            );
            let pw = export_playwright(&[line], "t");
            assert!(!pw.contains("// not exported"), "{}: {pw}", k.name());
        }
    }

    #[test]
    fn tabs_follow_ariasnaps_aliases() {
        let lines = vec![
            step(
                "click",
                json!({}),
                json!({"role": "link", "name": "Size guide"}),
                json!({"tag": "a"}),
            ),
            json!({"kind": "step", "action": "switchTab", "args": {"tab": "t2"}, "status": "ok"}),
            json!({"kind": "step", "action": "newTab", "args": {"url": "http://127.0.0.1:5/a.html"}, "status": "ok"}),
            json!({"kind": "step", "action": "closeTab", "args": {}, "status": "ok"}),
        ];
        let pw = export_playwright(&lines, "t");
        for want in [
            "async function tabAt(n)",
            "  tabs.push((tabs.current = page));\n  page.context().on('page', (p) => tabs.push(p));\n",
            "  page = await tabAt(2);\n",
            "  page = await openTab(\"http://127.0.0.1:5/a.html\");\n",
            "  page = await closeTab(page);\n",
        ] {
            assert!(pw.contains(want), "{want:?} in\n{pw}");
        }
        assert!(!pw.contains("not exported"), "{pw}");
    }

    #[test]
    fn set_follows_the_control() {
        let combo = json!({"role": "combobox", "name": "State"});
        // a native select: selectOption; an ARIA combobox: typed into, its option clicked
        let (l, _) = one(
            "set",
            json!({"value": "Oregon"}),
            combo.clone(),
            json!({"tag": "select"}),
        );
        assert!(l.ends_with(".selectOption(\"Oregon\");"), "{l}");
        let mut typed = step(
            "set",
            json!({"value": "Ore"}),
            combo.clone(),
            json!({"tag": "input"}),
        );
        typed["option"] = json!("Oregon");
        let mut h = Helpers::default();
        let l = pw_line(
            &json!({"set": {"value": "Ore", "role": "combobox", "name": "State"}}),
            &typed,
            &mut h,
        );
        assert!(
            l.contains(".fill(\"Ore\");")
                && l.contains("getByRole(\"option\", { name: \"Oregon\", exact: true }).click();"),
            "{l}"
        );
        // an ARIA slider: its keys, with the helper written once
        let (l, h) = one(
            "set",
            json!({"value": "24"}),
            json!({"role": "slider", "name": "Temperature"}),
            json!({"tag": "div"}),
        );
        assert!(
            l.starts_with("await setByKeys(") && l.ends_with(", \"24\", ariaValue);"),
            "{l}"
        );
        assert!(h.keys);
        // a native range: fill
        let (l, _) = one(
            "set",
            json!({"value": "24"}),
            json!({"role": "slider", "name": "T"}),
            json!({"tag": "input", "type": "range"}),
        );
        assert!(l.ends_with(".fill(\"24\");"), "{l}");
        // a library's spinner on a text input: its keys; a number input: fill
        let (l, _) = one(
            "set",
            json!({"value": "5"}),
            json!({"role": "spinbutton", "name": "Nights"}),
            json!({"tag": "input", "type": "text"}),
        );
        assert!(l.ends_with(", \"5\", ariaValue);"), "{l}");
        let (l, _) = one(
            "set",
            json!({"value": "5"}),
            json!({"role": "spinbutton", "name": "Nights"}),
            json!({"tag": "input", "type": "number"}),
        );
        assert!(l.ends_with(".fill(\"5\");"), "{l}");
    }

    #[test]
    fn pointer_and_locator_hints() {
        // a nameless twin found by its CSS path: no nth after it (the path is unique)
        let (l, _) = one(
            "click",
            json!({}),
            json!({"role": "button", "nth": 3}),
            json!({"tag": "button", "css": "div.bar > button"}),
        );
        assert_eq!(l, "await page.locator(\"div.bar > button\").click();");
        // a slider drawn without ARIA: by its CSS path, its handle's place
        let (l, _) = one(
            "set",
            json!({"value": "50"}),
            json!({"role": "generic"}),
            json!({"tag": "span", "css": "#s > span.handle"}),
        );
        assert_eq!(
            l,
            "await setByKeys(page.locator(\"#s > span.handle\"), \"50\", handlePlace);"
        );
        // a covered centre: clicked where ariasnap's pointer reached
        let (l, _) = one(
            "click",
            json!({}),
            json!({"role": "button", "name": "ONE"}),
            json!({"tag": "button", "at": [12, 20]}),
        );
        assert!(
            l.ends_with(".click({ position: { x: 12, y: 20 } });"),
            "{l}"
        );
        // a box scrolled down: scrollIn, not scrollIntoView
        let (l, h) = one(
            "scroll",
            json!({"direction": "down", "amount": 500.0}),
            json!({"role": "textbox", "name": "Licence"}),
            json!({"tag": "textarea"}),
        );
        assert!(l.ends_with(", 0, 1, 500);") && h.scroll, "{l}");
        // an `a` without href and words over several blocks: by text
        let (l, _) = one(
            "click",
            json!({}),
            json!({"role": "link", "name": "503-555-0142"}),
            json!({"tag": "a", "nohref": true}),
        );
        assert_eq!(
            l,
            "await page.getByText(\"503-555-0142\", { exact: true }).click();"
        );
        let (l, _) = one(
            "click",
            json!({}),
            json!({"role": "generic", "text": "Pro $12/month"}),
            json!({"tag": "div", "blocks": true}),
        );
        assert_eq!(
            l,
            "await page.getByText(new RegExp(\"^Pro\\\\s*\\\\$12/month$\")).click();"
        );
    }
}
