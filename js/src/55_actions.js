//! 55_actions.js: what actions need from the page: the words and frame offsets of the
//! elements acted on (the point to act on is 56_pointer's), focus and selection, values,
//! checks for `wait` and `assert`, page activity for settling, and console capture.
//!
//! Owns: hit testing and in-page state reads for actions. Must not: send input (the host
//! sends real input through WebDriver) or mint refs.

let lastMutationAt = $now();
let resourcesSeen = 0;
const consoleLog = [];
const CONSOLE_MAX = 500;

function noteMutation() {
  lastMutationAt = $now();
}

/** Records console messages from install on (a bounded ring). */
function captureConsole() {
  const con = window.console;
  if (!con) return;
  const levels = ["log", "info", "warn", "error", "debug"];
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i];
    const orig = con[level];
    if (typeof orig !== "function") continue;
    try {
      con[level] = function () {
        const parts = [];
        for (let j = 0; j < arguments.length; j++) {
          let s;
          try {
            const a = arguments[j];
            s = typeof a === "string" ? a : $stringify(a);
          } catch (_) {
            s = "" + arguments[j];
          }
          push(parts, clean(s, 2000));
        }
        if (consoleLog.length >= CONSOLE_MAX) {
          for (let k = 1; k < consoleLog.length; k++) consoleLog[k - 1] = consoleLog[k];
          consoleLog.length = consoleLog.length - 1;
        }
        push(consoleLog, { level: level, text: arrJoin(parts, " "), at: $now() });
        return $apply(orig, this, arguments);
      };
    } catch (_) {
      // a frozen console: messages are not captured
    }
  }
}

/** role "name" of an element, for messages. */
function describe(el) {
  const role = getRole(el) || clean(strSlice(tagOf(el), 0, 100));
  let name = "";
  try {
    name = getName(el, role);
  } catch (_) {
    name = "";
  }
  if (!name) name = normalizeWS(textContent(el) || "");
  return { role: role, name: clean(name, 80) };
}

/** Offset of an element's document inside the top-level viewport (same-origin frames). */
function frameOffset(el) {
  let x = 0;
  let y = 0;
  let view = viewOf(el);
  for (let guard = 0; view && view !== window && guard < 16; guard++) {
    let fe = null;
    try {
      fe = frameElementOf(view);
    } catch (_) {
      fe = null;
    }
    if (!fe) break;
    const r = rectOf(fe);
    x += r.left + clientLeftOf(fe);
    y += r.top + clientTopOf(fe);
    view = viewOf(fe);
  }
  return { x: x, y: y };
}

function labelFor(hit, el) {
  for (let n = hit; n; n = parentElementOf(n)) {
    if (localNameOf(n) === "label") {
      try {
        return labelControlOf(n) === el;
      } catch (_) {
        return false;
      }
    }
  }
  return false;
}

/** Focuses the element of `ref`; `select` also selects its whole content. */
function focusRef(a) {
  const res = resolveRef(a.ref);
  if (res.kind !== "ok") return res;
  const el = res.el;
  try {
    if (svgFocus && namespaceURIOf(el) === "http://www.w3.org/2000/svg") svgFocus(el);
    else focusEl(el);
  } catch (_) {
    return { kind: "not_focusable", ref: a.ref, role: res.role, name: res.name };
  }
  if (a.select) {
    const tag = localNameOf(el);
    try {
      if (tag === "input") inputSelect(el);
      else if (tag === "textarea") textareaSelect(el);
      else if (getSelection && selectionSelectAll) selectionSelectAll(getSelection(viewOf(el)), el);
    } catch (_) {
      // inputs without selection (number, email in some engines): the host clears with keys
    }
  }
  // password: the host remembers what it types there, to mask it wherever it shows later
  return { kind: "ok", role: res.role, name: res.name, minor: res.minor, tag: clean(strSlice(localNameOf(el), 0, 100)),
    value: clean(currentValue(el), 1000000), password: isPasswordField(el) };
}

function currentValue(el) {
  const tag = localNameOf(el);
  if (tag === "input") {
    const t = strLower(getAttr(el, "type") || "text");
    if (t === "checkbox" || t === "radio") return inputCheckedOf(el) ? "true" : "false";
    return inputValueOf(el);
  }
  if (tag === "textarea") return textareaValueOf(el);
  if (tag === "select") {
    const opts = selectSelectedOptions(el);
    const parts = [];
    for (let i = 0; i < opts.length; i++) push(parts, optionTextOf(opts[i]));
    return arrJoin(parts, ", ");
  }
  try {
    if (isContentEditableOf(el)) return innerTextOf(el);
  } catch (_) {
    return "";
  }
  return "";
}

/** Reads things about a ref for `get` (full, uncut text). */
function getInfo(a) {
  const res = resolveRef(a.ref);
  if (res.kind !== "ok") return res;
  const el = res.el;
  const what = a.what || "text";
  let v;
  if (what === "text") {
    try {
      v = innerTextOf(el);
    } catch (_) {
      v = textContent(el);
    }
  } else if (what === "value") v = currentValue(el);
  // a nameless generic's words are its identity, not its name (45_walk genericWords)
  else if (what === "name") v = res.words ? "" : res.name;
  else if (what === "role") v = res.role;
  else if (what === "html") v = outerHTMLOf(el);
  else if (what === "box") {
    const b = boxOf(el);
    return { kind: "ok", value: [b.x, b.y, b.w, b.h] };
  } else if (strStartsWith(what, "attr:")) v = getAttr(el, strSlice(what, 5));
  else return { kind: "bad_what", what: what };
  return { kind: "ok", value: v === null || v === undefined ? null : clean(v, 1000000) };
}

/**
 * Checked state of a checkbox-like ref: true, false or "mixed". seeHidden: also of an element
 * hidden now (checkedAfter).
 */
function checkedState(a, seeHidden) {
  const res = resolveRef(a.ref, seeHidden);
  if (res.kind !== "ok") return res;
  const el = res.el;
  const tag = localNameOf(el);
  let c;
  if (tag === "input") c = inputIndeterminateOf(el) ? "mixed" : inputCheckedOf(el);
  else {
    const v = getAttr(el, "aria-checked") || getAttr(el, "aria-pressed") || getAttr(el, "aria-selected");
    c = v === "true" ? true : v === "mixed" ? "mixed" : false;
  }
  return { kind: "ok", checked: c, role: res.role, name: res.name };
}

/**
 * checkedState() of a ref that a click may have hidden: a menu item checked in a menu that
 * closes on the click (APG menubar-editor) is read where it is, hidden or not.
 */
function checkedAfter(a) {
  return checkedState(a, true);
}

/** Selects options of a native <select> by value or visible text; fires input and change. */
function selectOptions(a) {
  const res = resolveRef(a.ref);
  if (res.kind !== "ok") return res;
  const el = res.el;
  if (localNameOf(el) !== "select") return { kind: "not_select", ref: a.ref, role: res.role, name: res.name };
  const want = a.values || [];
  const opts = selectOptionsOf(el);
  const n = optionsCollectionLength(opts);
  const multiple = hasAttr(el, "multiple");
  const picked = [];
  const missing = [];
  for (let w = 0; w < want.length; w++) {
    let found = false;
    for (let i = 0; i < n; i++) {
      const o = optionsCollectionItem(opts, i);
      if (optionValueOf(o) === want[w] || normalizeWS(optionTextOf(o)) === normalizeWS(want[w])) {
        found = true;
        push(picked, o);
        break;
      }
    }
    if (!found) push(missing, want[w]);
  }
  if (missing.length) {
    const avail = [];
    for (let i = 0; i < n && i < 50; i++) push(avail, clean(normalizeWS(optionTextOf(optionsCollectionItem(opts, i)))));
    return { kind: "no_option", ref: a.ref, missing: missing, available: avail };
  }
  if (!multiple && picked.length > 1) return { kind: "not_multiple", ref: a.ref };
  for (let i = 0; i < n; i++) {
    const o = optionsCollectionItem(opts, i);
    let on = false;
    for (let j = 0; j < picked.length; j++) if (picked[j] === o) on = true;
    if (multiple || on) setOptionSelected(o, on);
  }
  dispatchEvent(el, new $Event("input", { bubbles: true, composed: true }));
  dispatchEvent(el, new $Event("change", { bubbles: true }));
  return { kind: "ok", value: clean(currentValue(el), 1000000) };
}

// docs/reference/actions.md `set`. Input types whose value no key sequence sets the same way in every browser
// and locale (HTML: the date/time pickers, the colour well, the slider): written through the
// interface setter, with the events of a user's edit.
const DIRECT_TYPES = new $Set(["date", "time", "month", "week", "datetime-local", "color", "range"]);
const NOT_SETTABLE_TYPES = new $Set(["hidden", "submit", "button", "reset", "image"]);
const CHECK_ROLES = new $Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"]);

/**
 * What kind of control `ref` is for `set`, with its value now: text, one of DIRECT_TYPES,
 * select / select-multiple (with the selected options), checkbox / radio / switch (with
 * checked), combobox (an ARIA one: typed into or opened, then an option picked),
 * contenteditable, file, or other.
 */
function isPasswordField(el) {
  return !!el && localNameOf(el) === "input" && strLower(inputTypeOf(el) || "") === "password";
}

function controlOf(a) {
  // no ref: the element that has focus, for typing without a ref (only whether it is a
  // password field is asked then: the operator's policy may turn that off)
  if (!a.ref) return { kind: "ok", control: "focused", password: isPasswordField(deepActiveElement(document)) };
  const res = resolveRef(a.ref);
  if (res.kind !== "ok") return res;
  const el = res.el;
  const role = res.role;
  const tag = localNameOf(el);
  let control = "other";
  let editable = false;
  if (tag === "input") {
    const t = strLower(inputTypeOf(el) || "text");
    if (t === "checkbox" || t === "radio") control = role === "switch" ? "switch" : t;
    else if (setHas(DIRECT_TYPES, t)) control = t;
    else if (t === "file") control = "file";
    else if (role === "spinbutton" && getAttr(el, "role") && !setHas(NOT_SETTABLE_TYPES, t)) {
      // a library's spinner (jQuery UI's: role=spinbutton on a text field): its arrow keys
      // step it within its bounds and fire its own events, as for a user
      control = "aria-range";
      editable = true;
    } else if (!setHas(NOT_SETTABLE_TYPES, t)) {
      // an input with a datalist is a combobox to the tree, but its suggestions are the
      // browser's own popup: typing the value is what a user does
      control = role === "combobox" && !hasAttr(el, "list") ? "combobox" : "text";
      editable = true;
    }
  } else if (tag === "textarea") {
    control = "text";
    editable = true;
  } else if (tag === "select") control = hasAttr(el, "multiple") ? "select-multiple" : "select";
  else if (role === "combobox") {
    control = "combobox";
    editable = isEditableEl(el);
  } else if (role === "slider" || role === "spinbutton") {
    // an ARIA slider or spin button (APG): set with the keys a user presses
    control = "aria-range";
  } else if ((role === "generic" || !role) && getAttr(el, "tabindex") !== null &&
      $Number(getAttr(el, "tabindex")) >= 0 && handlePosition(el)) {
    // a slider drawn without ARIA: keys too, its handle's position read back
    control = "position";
  } else if (role === "listbox") {
    control = "listbox";
  } else if (role === "option") {
    control = "option";
  } else if (role === "button" && getAttr(el, "aria-pressed") !== null) {
    // a toggle button (APG button: aria-pressed) is on or off like a checkbox
    control = "toggle";
  } else if (setHas(CHECK_ROLES, role)) {
    control = role === "menuitemcheckbox" ? "checkbox" : role === "menuitemradio" ? "radio" : role;
  } else if (isContentEditableOf(el)) {
    control = "contenteditable";
    editable = true;
  }
  const out = { kind: "ok", control: control, role: role, name: res.name, editable: editable,
    password: isPasswordField(el), doc: clean(docURLOf(ownerDocument(el) || document), 4096),
    disabled: isDisabled(el, role), readonly: (tag === "input" || tag === "textarea") && hasAttr(el, "readonly"),
    value: clean(control === "combobox" && !editable && tag !== "input" ? innerTextSafe(el) : currentValue(el), 1000000) };
  if (tag === "select") {
    const sel = selectSelectedOptions(el);
    const picked = [];
    for (let i = 0; i < sel.length; i++) {
      push(picked, { value: clean(optionValueOf(sel[i]), 10000), label: clean(normalizeWS(optionTextOf(sel[i])), 10000) });
    }
    out.selected = picked;
  }
  if (control === "checkbox" || control === "radio" || control === "switch" || control === "option" ||
      control === "toggle") {
    out.checked = checkedState(a).checked;
  }
  if (control === "aria-range") out.range = rangeOf(el);
  if (control === "position") {
    const hp = handlePosition(el);
    out.range = { now: hp.pct, min: 0, max: 100, text: "", vertical: hp.vertical };
    out.value = hp.pct + "%";
  }
  if (control === "combobox") {
    out.popup = popupOf(el);
    out.expanded = ariaBool(el, "aria-expanded") === true;
  }
  if (control === "listbox") {
    out.multiple = ariaBool(el, "aria-multiselectable") === true;
    out.selected = listSelection(el);
  }
  if (control === "option") {
    const box = closestListbox(el);
    out.multiple = !!box && ariaBool(box, "aria-multiselectable") === true;
  }
  return out;
}

function isEditableEl(el) {
  try {
    return !!isContentEditableOf(el);
  } catch (_) {
    return false; // not an HTMLElement
  }
}

/**
 * What an ARIA slider or spin button holds (WAI-ARIA 1.2 range properties): aria-valuenow,
 * -valuemin, -valuemax as numbers (null when absent or not numbers), aria-valuetext, and
 * whether it is vertical.
 */
function rangeOf(el) {
  const num = function (name) {
    const v = getAttr(el, name);
    if (v === null || !strTrim(v)) return null;
    const n = $Number(strTrim(v));
    return n === n ? n : null;
  };
  if (localNameOf(el) === "input") {
    // a text field that is a spin button shows its value in the field: that is what a user
    // reads (a library updates aria-valuenow later, or never)
    const t = strTrim(inputValueOf(el));
    const n = t ? $Number(t) : NaN;
    const attr = function (a, b) {
      const x = num(a);
      return x !== null ? x : num(b);
    };
    return { now: n === n ? n : num("aria-valuenow"), min: attr("aria-valuemin", "min"), max: attr("aria-valuemax", "max"),
      text: clean(getAttr(el, "aria-valuetext") || "", 1000), vertical: false };
  }
  return { now: num("aria-valuenow"), min: num("aria-valuemin"), max: num("aria-valuemax"),
    text: clean(getAttr(el, "aria-valuetext") || "", 1000),
    vertical: strLower(getAttr(el, "aria-orientation") || "") === "vertical" };
}

/**
 * What a combobox's popup is (WAI-ARIA 1.2 combobox: listbox unless aria-haspopup says
 * grid, tree or dialog): the role of the element it controls when that has one of these
 * roles, else its aria-haspopup (true means listbox).
 */
function popupOf(el) {
  const ctl = idRefs(el, "aria-controls");
  for (let i = 0; i < ctl.length; i++) {
    const r = getRole(ctl[i]);
    if (r === "listbox" || r === "grid" || r === "tree" || r === "dialog" || r === "alertdialog") {
      return r === "alertdialog" ? "dialog" : r;
    }
  }
  const hp = strLower(strTrim(getAttr(el, "aria-haspopup") || ""));
  return hp === "grid" || hp === "tree" || hp === "dialog" || hp === "menu" ? hp : "listbox";
}

/** The listbox an option belongs to (its nearest listbox ancestor, or its aria-owns owner). */
function closestListbox(el) {
  for (let p = flatParentElement(el); p; p = flatParentElement(p)) {
    if (getRole(p) === "listbox") return p;
  }
  const id = getAttr(el, "id");
  if (!id) return null;
  const owners = idOwners(el, id);
  for (let i = 0; i < owners.length; i++) if (getRole(owners[i]) === "listbox") return owners[i];
  return null;
}

/** Elements of el's document whose aria-owns names id. */
function idOwners(el, id) {
  const out = [];
  let list;
  try {
    list = docQuerySelectorAll(ownerDocument(el), "[aria-owns]");
  } catch (_) {
    return out;
  }
  const n = nodeListLength(list);
  for (let i = 0; i < n; i++) {
    const o = nodeListItem(list, i);
    const ids = idRefs(o, "aria-owns");
    for (let j = 0; j < ids.length; j++) if (ids[j] === el) push(out, o);
  }
  return out;
}

/** The options of an ARIA listbox (its descendants, then what it owns) that are shown. */
function listOptions(box) {
  const out = [];
  const scopes = [box];
  const own = idRefs(box, "aria-owns");
  for (let i = 0; i < own.length; i++) push(scopes, own[i]);
  for (let s = 0; s < scopes.length; s++) {
    if (s > 0 && getRole(scopes[s]) === "option") {
      push(out, scopes[s]);
      continue;
    }
    let list;
    try {
      list = querySelectorAll(scopes[s], "[role]");
    } catch (_) {
      continue;
    }
    const n = nodeListLength(list);
    for (let i = 0; i < n; i++) {
      const o = nodeListItem(list, i);
      if (getRole(o) === "option" && !isHiddenForName(o)) push(out, o);
    }
  }
  return out;
}

/**
 * Whether an option is chosen: aria-selected, or aria-checked where the options use it
 * (WAI-ARIA 1.2 listbox: either marks the selection in a multi-select listbox).
 */
function optionChosen(o) {
  return ariaBool(o, "aria-selected") === true || ariaBool(o, "aria-checked") === true;
}

/**
 * The selected options of an ARIA listbox as {value, label} (both its name): aria-selected,
 * or aria-checked where the options use it (WAI-ARIA 1.2 listbox: either marks the
 * selection in a multi-select listbox).
 */
function listSelection(box) {
  const opts = listOptions(box);
  const out = [];
  for (let i = 0; i < opts.length && out.length < 500; i++) {
    const o = opts[i];
    if (optionChosen(o)) {
      const name = clean(normalizeWS(getName(o, "option")), 10000);
      push(out, { value: name, label: name });
    }
  }
  return out;
}

function innerTextSafe(el) {
  try {
    return innerTextOf(el) || "";
  } catch (_) {
    return textContent(el) || "";
  }
}

/** Writes `value` into a date/time/month/week/datetime-local/colour/range input as a user's edit would. */
function setDirect(a) {
  const res = resolveRef(a.ref);
  if (res.kind !== "ok") return res;
  const el = res.el;
  if (localNameOf(el) !== "input" || !setHas(DIRECT_TYPES, strLower(inputTypeOf(el) || ""))) {
    return { kind: "not_settable", ref: a.ref, role: res.role, name: res.name };
  }
  try {
    focusEl(el);
  } catch (_) {
    // not focusable: the value is still written
  }
  inputValueSet(el, "" + a.value);
  // HTML: a user's edit fires input, and change when the value is committed
  dispatchEvent(el, new $Event("input", { bubbles: true, composed: true }));
  dispatchEvent(el, new $Event("change", { bubbles: true }));
  return { kind: "ok", value: clean(inputValueOf(el), 1000000) };
}

/**
 * The option of an ARIA combobox's popup that matches `value` (its accessible name, white
 * space and case aside; else the one option whose name starts with or contains it), looked
 * for in the elements the combobox controls or owns, then in its tree scope: its point, after
 * scrolling it into view, for a real click. `no_option` lists the options shown.
 */
function comboOption(a) {
  const res = resolveRef(a.ref);
  if (res.kind !== "ok") return res;
  const el = res.el;
  const scopes = [];
  if (a.within) {
    // the options of a listbox itself (`set` on an ARIA listbox)
    push(scopes, el);
    const own = idRefs(el, "aria-owns");
    for (let i = 0; i < own.length; i++) push(scopes, own[i]);
  } else {
    const ctl = idRefs(el, "aria-controls");
    const own = idRefs(el, "aria-owns");
    for (let i = 0; i < ctl.length; i++) push(scopes, ctl[i]);
    for (let i = 0; i < own.length; i++) push(scopes, own[i]);
    // the rest of its tree scope too, for a list that is not where aria-controls says; not
    // for a dialog, grid or tree popup it names (a date picker's), whose page may show other
    // lists' options
    if (!scopes.length || popupOf(el) === "listbox") push(scopes, rootOf(el));
  }
  // options first; in a popup that holds none, the rows and cells of a grid or the items
  // of a tree (WAI-ARIA 1.2 combobox: a listbox, grid or tree popup) are what a user picks
  let shown = shownOptions(scopes, OPTION_ROLES);
  if (!shown.length && !a.within) shown = shownOptions(scopes, POPUP_ITEM_ROLES);
  const out = pickOption(a, shown);
  if (out.kind === "no_combo_option") {
    out.what = a.within ? "listbox" : "combobox";
    out.typed = !a.within && (localNameOf(el) === "input" || isEditableEl(el));
  }
  return out;
}

// The option element pickOption chose last (56_pointer's comboOptionPoint moves its point to
// where a click reaches it, and forgets it).
let pickedOption = null;

const OPTION_ROLES = new $Set(["option"]);
const POPUP_ITEM_ROLES = new $Set(["gridcell", "row", "treeitem"]);

/**
 * The elements with one of `roles` in the first of `scopes` (elements, documents or shadow
 * roots) that holds any, shown and with a box: [{el, name}] in document order.
 */
function shownOptions(scopes, roles) {
  const seen = new $Set();
  const shown = [];
  for (let s = 0; s < scopes.length; s++) {
    const sc = scopes[s];
    let list;
    try {
      const t = nodeType(sc);
      list = t === DOCUMENT_NODE ? docQuerySelectorAll(sc, "[role]") : t === DOCUMENT_FRAGMENT_NODE
        ? fragQuerySelectorAll(sc, "[role]") : querySelectorAll(sc, "[role]");
    } catch (_) {
      continue;
    }
    const n = nodeListLength(list);
    // an owned element may itself be the option
    const own = nodeType(sc) === ELEMENT_NODE && s > 0 ? 1 : 0;
    for (let i = -own; i < n; i++) {
      const o = i < 0 ? sc : nodeListItem(list, i);
      if (setHas(seen, o)) continue;
      setAdd(seen, o);
      const role = getRole(o);
      if (!setHas(roles, role) || isHiddenForName(o)) continue;
      const r = rectOf(o);
      if (r.width === 0 && r.height === 0) continue;
      push(shown, { el: o, name: normalizeWS(getName(o, role)) });
    }
    if (shown.length) break;
  }
  return shown;
}

/**
 * Of the options shown, the one whose name is `a.value` (white space and case aside), else
 * the one option whose name contains it: its point after scrolling it into view, its name
 * and whether it is selected; `no_combo_option` names the options shown.
 */
function pickOption(a, shown) {
  const want = strLower(normalizeWS("" + a.value));
  let pick = null;
  for (let i = 0; i < shown.length && !pick; i++) if (strLower(shown[i].name) === want) pick = shown[i];
  if (!pick && want) {
    const near = [];
    for (let i = 0; i < shown.length; i++) {
      const l = strLower(shown[i].name);
      if (strIndexOf(l, want) >= 0) push(near, shown[i]);
    }
    if (near.length === 1) pick = near[0];
  }
  if (!pick) {
    const names = [];
    for (let i = 0; i < shown.length && i < 30; i++) push(names, clean(shown[i].name, 200));
    return { kind: "no_combo_option", ref: a.ref, value: clean("" + a.value, 200), available: names };
  }
  const o = pick.el;
  pickedOption = o;
  let r = rectOf(o);
  const vp = viewportOf(o);
  if (r.top < 0 || r.left < 0 || r.bottom > vp.h || r.right > vp.w) {
    try {
      $scrollIntoView(o, { block: "nearest", inline: "nearest", behavior: "instant" });
    } catch (_) {
      $scrollIntoView(o);
    }
    r = rectOf(o);
  }
  const off = frameOffset(o);
  return { kind: "ok", x: $Math.round(r.left + r.width / 2 + off.x), y: $Math.round(r.top + r.height / 2 + off.y),
    name: clean(pick.name, 1000), selected: optionChosen(o) };
}

/** Scrolls a ref into view, or the window by (dx, dy), or to (x, y). */
function scrollTo(a) {
  if (a.ref) {
    const res = resolveRef(a.ref);
    if (res.kind !== "ok") return res;
    try {
      $scrollIntoView(res.el, { block: "center", inline: "nearest", behavior: "instant" });
    } catch (_) {
      $scrollIntoView(res.el);
    }
  } else if (a.to) {
    winScrollTo(window, a.to[0], a.to[1]);
  } else {
    winScrollBy(window, a.dx || 0, a.dy || 0);
  }
  return { kind: "ok", scroll: [$Math.round(scrollXOf(window)), $Math.round(scrollYOf(window))] };
}

function visibleText(doc) {
  const b = docBodyOf(doc);
  if (!b) return "";
  try {
    return innerTextOf(b) || "";
  } catch (_) {
    return textContent(b) || "";
  }
}

function selectorVisible(doc, sel) {
  let list;
  try {
    list = docQuerySelectorAll(doc, sel);
  } catch (_) {
    return { bad: true };
  }
  const n = nodeListLength(list);
  for (let i = 0; i < n; i++) {
    const el = nodeListItem(list, i);
    if (!isHiddenForName(el) && (checkVisibility ? checkVisibility(el) : true)) return { found: true };
  }
  return { found: false };
}

/** One check of a `wait` / `assert` condition: {met, detail}. */
function checkCondition(a) {
  const doc = document;
  if (a.text !== undefined && a.text !== null) {
    const hay = strLower(normalizeWS(visibleText(doc)));
    const present = strIndexOf(hay, strLower(normalizeWS("" + a.text))) >= 0;
    return { kind: "ok", met: a.hidden ? !present : present };
  }
  if (a.selector) {
    const v = selectorVisible(doc, a.selector);
    if (v.bad) return { kind: "bad_selector", selector: a.selector };
    return { kind: "ok", met: a.hidden ? !v.found : v.found };
  }
  if (a.ref) {
    const res = resolveRef(a.ref);
    const there = res.kind === "ok";
    return { kind: "ok", met: a.hidden ? !there : there, state: res.kind };
  }
  if (a.url !== undefined && a.url !== null) {
    const u = docURLOf(doc);
    let met;
    if (a.urlRegex) {
      try {
        met = reTest(re(a.url), u);
      } catch (_) {
        return { kind: "bad_pattern", pattern: a.url };
      }
    } else met = strIndexOf(u, a.url) >= 0;
    return { kind: "ok", met: met, url: clean(u, 4096) };
  }
  if (a.title !== undefined && a.title !== null) {
    return { kind: "ok", met: strIndexOf(docTitleOf(doc), a.title) >= 0 };
  }
  return { kind: "ok", met: true };
}

/** Page activity for settling: ready state, ms since the last DOM mutation, new resources. */
function activity() {
  let res = 0;
  try {
    res = perfEntriesByType ? perfEntriesByType(mainPerformance, "resource").length : 0;
  } catch (_) {
    res = 0;
  }
  const fresh = res !== resourcesSeen;
  resourcesSeen = res;
  return {
    kind: "ok",
    ready: docReadyState(document),
    quiet_ms: $now() - lastMutationAt,
    new_resources: fresh,
    url: clean(docURLOf(document), 4096),
  };
}

function consoleMessages(a) {
  const out = [];
  for (let i = 0; i < consoleLog.length; i++) push(out, consoleLog[i]);
  if (a.clear) consoleLog.length = 0;
  return { kind: "ok", messages: out };
}
