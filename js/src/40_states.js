//! 40_states.js: what the walk says of an element it shows besides its role and name: its
//! states (checked, disabled, expanded, selected, level..., and those only --verbose shows),
//! a control's value, a link's URL and the focused element (click handlers: 17_listen).
//!
//! Owns: which roles expose each state (Chromium's tree, checked role by role) and the tokens
//! states take, so no page text reaches a state. Must not: walk the tree, emit nodes or mint
//! refs.

// The roles Chromium's tree gives each state (an attribute on any other role is not exposed
// there), checked role by role against Accessibility.getFullAXTree: checked, selected,
// pressed, and aria-required / aria-readonly (the HTML required and readonly attributes of
// form fields count as well).
const CHECKABLE = new $Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio", "option", "treeitem"]);
const SELECTABLE = new $Set(["option", "tab", "row", "gridcell", "treeitem", "columnheader", "rowheader"]);
const PRESSABLE = new $Set(["button"]);
const ARIA_REQUIRED_ROLES = new $Set(["columnheader", "combobox", "gridcell", "listbox", "radiogroup", "rowheader",
  "spinbutton", "textbox", "tree", "treegrid"]);
const ARIA_READONLY_ROLES = new $Set(["columnheader", "grid", "gridcell", "rowheader", "textbox", "treegrid"]);
const EXPANDABLE_NATIVE = new $Set(["summary"]);
// The roles Chromium's tree gives an expanded state (aria-expanded on any other role, e.g. a
// list, region or listbox, is not exposed there): checked role by role against
// Accessibility.getFullAXTree. A summary is a button here.
const EXPANDED_ROLES = new $Set([
  "application", "button", "checkbox", "columnheader", "combobox", "gridcell", "link", "menuitem",
  "menuitemcheckbox", "menuitemradio", "row", "rowheader", "switch", "tab", "treeitem",
]);

/** Deep active element (through shadow roots and same-origin frames). */
function deepActiveElement(doc) {
  let a = activeElementOf(doc);
  for (let guard = 0; a && guard < 64; guard++) {
    const sr = shadowRootAny(a);
    if (sr && shadowActiveElement(sr)) {
      a = shadowActiveElement(sr);
      continue;
    }
    const tag = localNameOf(a);
    if (tag === "iframe" || tag === "frame") {
      let d = null;
      try {
        d = tag === "iframe" ? contentDocumentOf(a) : frameContentDocumentOf(a);
      } catch (_) {
        d = null;
      }
      if (d && activeElementOf(d)) {
        a = activeElementOf(d);
        continue;
      }
    }
    break;
  }
  return a;
}

function ariaBool(el, name) {
  const v = getAttr(el, name);
  if (v === null) return undefined;
  const l = strLower(strTrim(v));
  if (l === "true") return true;
  if (l === "mixed") return "mixed";
  if (l === "false") return false;
  return undefined;
}

// Token values of the verbose states (WAI-ARIA 1.2): the page's attribute text never
// reaches the output, only one of these (docs/reference/output.md#what-no-page-can-forge: no page can forge a flag or a ref).
const CURRENT_TOKENS = new $Set(["page", "step", "location", "date", "time", "true"]);
const HASPOPUP_TOKENS = new $Set(["true", "menu", "listbox", "tree", "grid", "dialog"]);
const ORIENTATION_TOKENS = new $Set(["horizontal", "vertical"]);

/** An attribute's value as one of `tokens`, lower-cased and trimmed; null otherwise. */
function ariaToken(el, name, tokens) {
  const v = getAttr(el, name);
  if (v === null) return null;
  const t = strLower(strTrim(v));
  return setHas(tokens, t) ? t : null;
}

/** aria-level as an integer of 1 or more (WAI-ARIA: an integer), or 0 when it is not one. */
function ariaLevel(el) {
  const v = getAttr(el, "aria-level");
  if (!v) return 0;
  const n = $Number(strTrim(v));
  return n >= 1 && n <= 1000000 && $Math.floor(n) === n ? n : 0;
}

/**
 * Whether el is disabled, as Chromium's tree says (AXObject::IsDisabled): a disabled form
 * control (HTML; not a fieldset or optgroup itself), else its own aria-disabled when that
 * is "true" or "false" (any element), else, for a focusable element only, the nearest
 * flat-tree ancestor whose aria-disabled is "true" or "false" (CORE-AAM: focusable
 * descendants of an aria-disabled element are disabled). A value other than true or false
 * (empty, misspelt) is no value: the climb goes on past it. The climb crosses shadow
 * roots and slots (the flat tree, as the accessibility tree's parents) and stops at the
 * document: a frame's content is not disabled by the frame's ancestors, nor the frame
 * element itself (Chromium: no disabled state on an iframe below aria-disabled="true").
 * noneAbove: the caller knows that no tree scope on el's flat-tree path has the attribute
 * at all (the walk's scopeHasAriaDisabled answers); attrs: false when the caller knows el
 * has no attributes.
 */
function isDisabled(el, role, noneAbove, attrs, known) {
  // its tag (tagOf) when the caller has it: the form controls, fieldset, optgroup and frames
  // asked about here are HTML elements, whose tag is their local name
  const tag = known === undefined ? localNameOf(el) : known;
  if (isNativelyDisabled(el, tag)) {
    // a disabled fieldset or optgroup is no disabled node in Chromium's tree (the controls
    // and options in it are); neither is focusable, so nothing above can disable it either
    if (tag !== "fieldset" && tag !== "optgroup") return true;
  }
  const own = attrs === false ? undefined : ariaBool(el, "aria-disabled");
  if (own === true) return true;
  if (own === false || noneAbove === true) return false;
  if (tag === "iframe" || tag === "frame" || !isFocusable(el)) return false;
  return ariaDisabledAbove(el);
}

/** The nearest flat-tree ancestor's aria-disabled (true or false), within el's document. */
function ariaDisabledAbove(el) {
  for (let p = flatParent(el); p; p = flatParent(p)) {
    const t = nodeType(p);
    if (t === DOCUMENT_NODE) return false;
    if (t !== ELEMENT_NODE) continue;
    const v = ariaBool(p, "aria-disabled");
    if (v === true) return true;
    if (v === false) return false;
  }
  return false;
}

/**
 * Whether any element of a tree scope (a document or a shadow root) has aria-disabled: the
 * walk asks once for each scope it enters (its start document, same-origin frames' documents,
 * shadow roots), so that on most pages no element climbs at all. true when it cannot tell.
 */
function scopeHasAriaDisabled(root) {
  try {
    const t = nodeType(root);
    if (t === DOCUMENT_NODE) return docQuerySelector(root, "[aria-disabled]") !== null;
    if (t === DOCUMENT_FRAGMENT_NODE) return fragQuerySelector(root, "[aria-disabled]") !== null;
  } catch (_) {
    // not a scope the query answers for
  }
  return true;
}

/**
 * States and properties of a node; only true / meaningful values are set. Most states come
 * from the element's own attributes: an element without any (most list items, cells,
 * paragraphs) answers null to every getAttribute / false to every hasAttribute, so those are
 * not asked (one call instead of about eight); what does not come from its own attributes
 * (native checked and selected, inherited disabled, a summary's details, focus, a heading
 * tag's level) is asked either way. attrs: whether el has attributes at all.
 */
function statesOf(el, role, tag, focusedEl, verbose, attrs, noneAbove) {
  // the states object only once there is a state: most nodes have none (an empty object a
  // node was a thirtieth of a walk's allocation)
  let s = null;
  if (setHas(CHECKABLE, role)) {
    let c;
    if (tag === "input" && (role === "checkbox" || role === "radio" || role === "switch")) {
      c = inputIndeterminateOf(el) && role === "checkbox" ? "mixed" : inputCheckedOf(el);
      const ac = attrs ? ariaBool(el, "aria-checked") : undefined;
      if (c === false && ac === "mixed" && role === "checkbox") c = "mixed";
    } else c = attrs ? ariaBool(el, "aria-checked") : undefined;
    if (c) { s = s || {}; s.checked = c; }
  }
  if (isDisabled(el, role, noneAbove, attrs, tag)) { s = s || {}; s.disabled = true; }
  let ex = attrs && setHas(EXPANDED_ROLES, role) ? ariaBool(el, "aria-expanded") : undefined;
  if (ex === undefined && setHas(EXPANDABLE_NATIVE, tag)) {
    const p = parentElementOf(el);
    if (p && localNameOf(p) === "details") ex = !!detailsOpenOf(p);
  }
  if (ex === true || ex === false) { s = s || {}; s.expanded = ex; }
  if (setHas(SELECTABLE, role)) {
    let sel = attrs ? ariaBool(el, "aria-selected") : undefined;
    if (sel === undefined && tag === "option") sel = optionSelectedOf(el);
    if (sel === true) { s = s || {}; s.selected = true; }
  }
  if (attrs) s = attrStates(el, role, tag, s);
  // A frame holding the focus is not itself focused: the element inside it is (and a
  // cross-origin frame's own walk marks it).
  if (focusedEl === el && tag !== "iframe" && tag !== "frame") { s = s || {}; s.focused = true; }
  // an invalid aria-level (not an integer of 1 or more) is ignored: the tag's level, or 2
  if (role === "heading") {
    let lv = attrs ? ariaLevel(el) : 0;
    if (!lv && tag.length === 2 && tag[0] === "h") lv = $Number(tag[1]) || 0;
    if (!lv) lv = 2;
    s = s || {};
    s.level = lv;
  } else if (role === "treeitem" || role === "listitem" || role === "row") {
    const lv = attrs ? ariaLevel(el) : 0;
    if (lv) { s = s || {}; s.level = lv; }
  }
  if (verbose && attrs) s = verboseStates(el, tag, s);
  return s;
}

/** pressed, required, readonly and invalid, from el's own attributes: s with them added (a
 * new object when s is null and there is one), else s. */
function attrStates(el, role, tag, s) {
  const pr = setHas(PRESSABLE, role) ? ariaBool(el, "aria-pressed") : undefined;
  if (pr === true || pr === "mixed") { s = s || {}; s.pressed = pr; }
  const field = tag === "input" || tag === "select" || tag === "textarea";
  if ((field && hasAttr(el, "required")) ||
      (setHas(ARIA_REQUIRED_ROLES, role) && ariaBool(el, "aria-required") === true)) {
    s = s || {};
    s.required = true;
  }
  if ((hasAttr(el, "readonly") && (tag === "input" || tag === "textarea")) ||
      (setHas(ARIA_READONLY_ROLES, role) && ariaBool(el, "aria-readonly") === true)) {
    s = s || {};
    s.readonly = true;
  }
  const inv = getAttr(el, "aria-invalid");
  if (inv !== null && inv !== "false" && inv !== "") { s = s || {}; s.invalid = true; }
  if (role === "columnheader" || role === "rowheader") {
    const so = sortOf(el);
    if (so) { s = s || {}; s.sort = so; }
  }
  return s;
}

/**
 * aria-sort as Chromium's tree has it (AXNodeObject::GetSortDirection, on column and row
 * headers only): ascending or descending (ASCII case aside), other for any other value,
 * null for none and for no value ("" and "undefined" are none: AXObject::AriaTokenAttribute).
 * A token, never the page's text (docs/reference/output.md#what-no-page-can-forge).
 */
function sortOf(el) {
  const v = getAttr(el, "aria-sort");
  if (v === null || v === "" || v === "undefined") return null;
  const l = strLower(v);
  if (l === "none") return null;
  return l === "ascending" || l === "descending" ? l : "other";
}

/** The states only --verbose shows (all from el's own attributes), added to s as attrStates. */
function verboseStates(el, tag, s) {
  // aria-current: any value other than "false" (or empty) means true (WAI-ARIA 1.2)
  const cv = getAttr(el, "aria-current");
  const cl = cv === null ? "" : strLower(strTrim(cv));
  if (cl && cl !== "false") { s = s || {}; s.current = setHas(CURRENT_TOKENS, cl) ? cl : "true"; }
  const ml = ariaBool(el, "aria-modal");
  if (ml === true) { s = s || {}; s.modal = true; }
  // aria-haspopup, aria-orientation: an unknown value is the default (false, undefined)
  const hp = ariaToken(el, "aria-haspopup", HASPOPUP_TOKENS);
  if (hp) { s = s || {}; s.haspopup = hp; }
  const ms = ariaBool(el, "aria-multiselectable");
  if (ms === true || (tag === "select" && hasAttr(el, "multiple"))) { s = s || {}; s.multiselectable = true; }
  const or = ariaToken(el, "aria-orientation", ORIENTATION_TOKENS);
  if (or) { s = s || {}; s.orientation = or; }
  return s;
}

/** The value shown after `:` for controls (text of a field, selected option, range value). */
function valueOf(el, role, tag) {
  if (tag === "input") {
    const type = strLower(getAttr(el, "type") || "text");
    if (type === "checkbox" || type === "radio" || type === "button" || type === "submit" ||
        type === "reset" || type === "image" || type === "file" || type === "hidden") return "";
    if (type === "password") return inputValueOf(el) ? "••••" : "";
    return inputValueOf(el);
  }
  if (tag === "textarea") return textareaValueOf(el);
  if (tag === "select") {
    if (role === "combobox") {
      const opts = selectSelectedOptions(el);
      return opts.length ? normalizeWS(optionTextOf(opts[0])) : "";
    }
    return "";
  }
  if (role === "slider" || role === "spinbutton" || role === "progressbar" || role === "meter" || role === "scrollbar") {
    const vt = getAttr(el, "aria-valuetext");
    if (vt) return vt;
    const vn = getAttr(el, "aria-valuenow");
    if (vn !== null) return vn;
    if (tag === "progress" || tag === "meter") {
      const v = getAttr(el, "value");
      return v === null ? "" : v;
    }
    return "";
  }
  if ((role === "textbox" || role === "searchbox" || role === "combobox") && isEditable(el)) {
    return normalizeWS(textContent(el) || "");
  }
  // A combobox that is neither a text field nor a select, and is focusable (the APG's
  // select-only combobox: a div with tabindex showing the option it holds), is Chromium's
  // "menu button" combobox (AXObject::ShouldUseComboboxMenuButtonRole), whose value is the
  // text of its content (AXNodeObject::GetValueForControl: TextFromDescendants).
  if (role === "combobox" && isFocusable(el)) return contentText(el, false, el);
  return "";
}

function isEditable(el) {
  try {
    return isContentEditableOf(el) === true;
  } catch (_) {
    return false;
  }
}

function hrefOf(el, tag) {
  try {
    if (tag === "a") return anchorHrefOf(el);
    if (tag === "area") return areaHrefOf(el);
    // an SVG link's target (href or xlink:href), resolved as the browser follows it
    if (tag === "svg:a") return urlHrefOf(new $URL(svgHref(el), baseURIOf(el)));
  } catch (_) {
    return getAttr(el, "href") || "";
  }
  return getAttr(el, "href") || "";
}

/**
 * Where the handle of a slider drawn without ARIA stands (a library's slider: jQuery UI's
 * handle is a focusable span it positions on a track and moves with the arrow keys, Page
 * Up/Down, Home and End): an absolutely positioned element (the caller asks only of a
 * focusable one without a role) on a track, an ancestor (up to three up) at least three
 * times its length along one axis and at most twice its thickness across it. Its position
 * along the track in whole percent from the start (left, or the bottom of an upright track,
 * where such sliders put their minimum): {pct, vertical}, or null. What the user
 * sees of the value is where the handle stands; the number the page derives from it is the
 * page's own (docs/behaviour.md#sliders-drawn-without-aria).
 */
function handlePosition(el) {
  const st = styleOf(el);
  if (!st || cssValue(st, "position") !== "absolute") return null;
  const h = rectOf(el);
  if (h.width < 2 || h.height < 2) return null;
  let t = flatParentElement(el);
  for (let up = 0; t && up < 3; up++, t = flatParentElement(t)) {
    const r = rectOf(t);
    const flat = r.width >= 3 * h.width && r.height <= 2 * h.height + 2;
    const tall = r.height >= 3 * h.height && r.width <= 2 * h.width + 2;
    if (!flat && !tall) continue;
    // along its padding box, where a percentage position is laid out (CSS 2.1 10.1: the
    // containing block of an absolutely positioned box is its ancestor's padding edge)
    const left = r.left + clientLeftOf(t);
    const top = r.top + clientTopOf(t);
    const len = flat ? clientWidthOf(t) : clientHeightOf(t);
    if (!(len > 0)) return null;
    const c = flat ? h.left + h.width / 2 : h.top + h.height / 2;
    let f = flat ? (c - left) / len : (top + len - c) / len;
    f = $Math.min(1, $Math.max(0, f));
    return { pct: $Math.round(f * 100), vertical: !flat };
  }
  return null;
}

/**
 * Whether a user can pick el up: draggable="true" (HTML 6.11.7: the attribute's true
 * state makes an element draggable; images and links are draggable by default but have a
 * role of their own). `drag` acts on such an element (docs/behaviour.md#drag).
 */
function isDraggableEl(el, attrs) {
  return !!attrs && getAttr(el, "draggable") === "true";
}

