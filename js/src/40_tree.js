//! 40_tree.js: the walk. One iterative pass over the flat tree (shadow roots, slots,
//! same-origin frames) that emits a flat node list with parent indexes.
//!
//! Owns: which nodes appear, their states, text merging, truncation, frame stitching.
//! Must not: mint refs (50_refs does, after the walk) or render text (the host does).
//! Read-only: it never writes to the DOM, so it causes no layout thrash.

// Frame numbers (the k of f<k> refs): one per iframe element for the page's life, never
// reused. Numbered by the walk that meets the frame; 50_refs prefixes refs with them.
const frameIdx = new $WeakMap();
let nextFrame = 1;
function frameIndexOf(iframeEl) {
  let k = wmGet(frameIdx, iframeEl);
  if (k === undefined) {
    k = nextFrame++;
    wmSet(frameIdx, iframeEl, k);
  }
  return k;
}

// Text-level roles whose text flows into the parent line instead of becoming a node.
const INLINE_TEXT_ROLES = new $Set(["strong", "emphasis", "code", "mark", "subscript", "superscript",
  "deletion", "insertion", "time", "term", "generic", "none", "presentation"]);

const TIER1 = new $Set(["button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox",
  "slider", "spinbutton", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio"]);
const TIER2 = new $Set(["listitem", "option", "treeitem", "row", "cell", "gridcell"]);
const INTERACTIVE_CONTAINERS = new $Set(["listbox", "tree", "grid", "treegrid", "combobox", "menu", "menubar"]);
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
const VALUE_ROLES = new $Set(["textbox", "searchbox", "combobox", "spinbutton", "slider"]);
const LANDMARKS = new $Set(["banner", "main", "navigation", "contentinfo", "complementary", "search", "form", "region"]);

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

function frameDocument(el, tag) {
  try {
    return tag === "iframe" ? contentDocumentOf(el) : frameContentDocumentOf(el);
  } catch (_) {
    return null;
  }
}

// Cross-origin frames met by the last walk: k -> weak iframe element, so the host can enter
// them with WebDriver frame switching (frameRoute). Replaced by every walk.
let crossFrames = new $Map();
// Custom elements without an open shadow root that the host has not probed yet (the last
// walk's, at most PROBE_CAP): the host asks WebDriver for their shadow roots.
const PROBE_CAP = 64;
let pendingHosts = [];
// walks begun other than the warm-up's (which stops once a real one has begun)
let walksBegun = 0;

function weakEl(el) {
  return $WeakRef ? new $WeakRef(el) : { el: el };
}
function derefEl(w) {
  return wrDeref ? wrDeref(w) : w.el;
}

/**
 * How the host reaches cross-origin frame k of the last walk: the chain of iframe elements
 * from this document down (same-origin frames in between), and the frame's content origin
 * in this document's viewport (CSS pixels). null when the frame is gone.
 */
function frameRoute(k) {
  const w = mapGet(crossFrames, k);
  const el = w ? derefEl(w) : null;
  if (!el || !isConnected(el)) return null;
  const up = [];
  let x = 0;
  let y = 0;
  let cur = el;
  for (let guard = 0; cur && guard < 32; guard++) {
    push(up, cur);
    const r = boxOf(cur);
    const st = styleOf(cur);
    x += r.x + clientLeftOf(cur) + ($Number(strReplace(cssValue(st, "padding-left"), "px", "")) || 0);
    y += r.y + clientTopOf(cur) + ($Number(strReplace(cssValue(st, "padding-top"), "px", "")) || 0);
    const view = defaultViewOf(ownerDocument(cur));
    if (!view || view === window) break;
    let fe = null;
    try {
      fe = frameElementOf(view);
    } catch (_) {
      fe = null;
    }
    cur = fe;
  }
  const chain = [];
  for (let i = up.length - 1; i >= 0; i--) push(chain, up[i]);
  return { chain: chain, x: x, y: y };
}

/** True when a pseudo-element of el generates content (it explains a box without children). */
function hasPseudoContent(el, which) {
  const ps = styleOf(el, which);
  const c = cssValue(ps, "content");
  return !!c && c !== "none" && c !== "normal";
}

/**
 * Whether a custom element without an open shadow root is worth asking WebDriver about.
 * Upgraded (defined) custom elements are: their constructors attach closed roots. An
 * undefined one can only hold a declarative one; it shows when the element has a box but no
 * light content that explains it (no children, no generated content), or light children that
 * are not rendered (not slotted).
 */
function mayHoldClosedRoot(el) {
  let defined = true;
  try {
    defined = matches(el, ":defined");
  } catch (_) {
    defined = true;
  }
  if (defined) return true;
  const first = firstElementChild(el);
  if (!first) {
    if (strTrim(textContent(el) || "")) return false;
    const b = boxOf(el);
    if (!(b.w > 0 && b.h > 0)) return false;
    return !hasPseudoContent(el, "::before") && !hasPseudoContent(el, "::after");
  }
  const d = displayOf(first);
  if (!styleRecOf(first).s || d === "none" || d === "contents") return false;
  const fb = boxOf(first);
  return fb.w === 0 && fb.h === 0 && boxOf(el).w > 0;
}

/** frameRoute of every cross-origin frame of the last walk, with its index k (one call). */
function frameRoutes() {
  const out = [];
  mapForEach(crossFrames, function (_w, k) {
    const r = frameRoute(k);
    if (r) {
      r.k = k;
      push(out, r);
    }
  });
  return out;
}

function hasPointerHandler(el, attrs) {
  // Without DevTools we cannot see addEventListener handlers: onclick attributes and
  // properties, plus a pointer cursor on a focusable element, are what we can observe.
  // (attrs: whether el has attributes at all; without, it has no onclick attribute.)
  if (attrs && hasAttr(el, "onclick")) return true;
  try {
    if (typeof onclickOf(el) === "function") return true;
  } catch (_) {
    return false;
  }
  return false;
}

// The walk: walk() drives it, over one state object made by newWalk() and shared by the
// visitors below (one object per walk, none per node: the stack is four parallel arrays).
// Stack entries: [node, parentOut, ctx, scope]; ctx bits: 1 = inside interactive container,
// 2 = visibility hidden (inherited), 4 = options of a drop-down select (no refs),
// 8 = reached through its aria-owns owner; frame index in ctx >> 8. A null node marks the end
// of a block-level container.

/**
 * The state of one walk: its output (nodes, els, cands, frames), options, counters, explicit
 * stack and aria-owns maps. Resets the last walk's records (pending hosts, cross-origin
 * frames), reads rootDoc's aria-owns and emits the document node.
 */
function newWalk(rootDoc, opts) {
  const w = {
    t0: $now(),
    nodes: [],
    els: [],
    cands: [],
    frames: [],
    notes: [],
    // per output node, the index of its last emitted child (-1: none), for text merging
    lastKid: [],
    maxNodes: opts.maxNodes > 0 ? opts.maxNodes : 0,
    verbose: !!opts.verbose,
    wantBoxes: !!opts.viewport || !!opts.boxes,
    viewportOnly: !!opts.viewport,
    // docs/reference/detail.md#budgets budgets: every element node gets a ref, so that a subtree the host elides can
    // be expanded with --root; the refs of nodes that are not candidates are marked (c: 1)
    // and shown on elided lines only
    containerRefs: !!opts.containerRefs,
    // unseen text: per element, its text's kind and the background behind it
    textCache: new $Map(),
    bgCache: new $Map(),
    colourCache: new $Map(),
    viewDims: new $Map(),
    layers: [],
    geomText: new $Set(),
    // (element, node index) pairs of text that a layer may cover, for coverPass
    coverCands: [],
    geomAny: false,
    // Inside a cross-origin frame read by the host, refs carry its index (f<k>) and frames
    // nested in it are numbered k*1000+j so refs stay unique in the tab.
    frameBase: opts.frame > 0 ? opts.frame : 0,
    focusedEl: null,
    vp: null,
    leftOut: 0,
    elements: 0,
    // Closed shadow roots: read (handed over by the host), unreadable (the endpoint could
    // not say), pending (not probed yet); host tags for the notes.
    closedRead: 0,
    closedUnread: 0,
    closedPending: 0,
    closedTags: [],
    closedTagSet: new $Set(),
    // aria-owns: owner -> owned elements, owned element -> owner (null until one is found)
    ownsOf: null,
    ownedBy: null,
    // the stack, as parallel arrays rather than one small array per entry; stackS holds the
    // tree scope (document or shadow root) of each entry, so style questions need no
    // getRootNode; null where it is not known (slotted nodes: ::slotted rules come from the
    // slot's scope, and the slow path looks at both)
    stack: [],
    stackP: [],
    stackC: [],
    stackS: [],
    sp: 0,
    // the warm-up's walk (90_api): runWalk stops at `until` ($now) or after `limit`
    // elements, and the walk leaves no record (frames unnumbered, no closed-root host queued)
    warm: !!opts.warm,
    // no tree scope the walk has entered has an aria-disabled element (isDisabled need not
    // climb); set by startWalk, cleared by the first scope entered that has one
    ariaNone: false,
    until: 0,
    limit: opts.limit > 0 ? opts.limit : 0,
    // the open modal dialog, when the walk looks behind it (opts.behindModal: the diff of an
    // action's changes): what the page hid from assistive technology only because the modal
    // is open (inert, aria-hidden) is walked as if shown, and behindModal says so
    modal: null,
    behindModal: false,
  };
  if (!w.warm) {
    walksBegun++;
    pendingHosts = [];
    crossFrames = new $Map();
  }
  scanOwns(w, rootDoc);
  const title = docTitleOf(rootDoc);
  const doc = newNode(-1, "document");
  doc.n = clean(normalizeWS(title || ""), NAME_CAP);
  push(w.nodes, doc);
  push(w.els, rootDoc);
  w.lastKid[0] = -1;
  return w;
}

/**
 * The open modal dialog of a document: a shown element with aria-modal="true" (WAI-ARIA 1.2)
 * or a dialog opened with showModal() (HTML `:modal`), or null.
 */
function openModal(doc) {
  let list;
  try {
    list = docQuerySelectorAll(doc, '[aria-modal="true"], dialog[open]');
  } catch (_) {
    return null;
  }
  const n = nodeListLength(list);
  for (let i = 0; i < n; i++) {
    const el = nodeListItem(list, i);
    if (localNameOf(el) === "dialog") {
      let modal = false;
      try {
        modal = matches(el, ":modal");
      } catch (_) {
        modal = false;
      }
      if (!modal) continue;
    }
    if (!checkVisibility || checkVisibility(el)) return el;
  }
  return null;
}

/** Records a closed-root host's tag for the notes (the first five distinct, well-formed, capped). */
function noteClosed(w, tag) {
  if (w.closedTags.length < 5 && !setHas(w.closedTagSet, tag)) {
    setAdd(w.closedTagSet, tag);
    // element names may hold almost any character (createElement): well-formed, capped
    push(w.closedTags, clean(strSlice(tag, 0, 100)));
  }
}

/**
 * Reads the aria-owns of a document into w.ownsOf / w.ownedBy: the owner shows its owned
 * elements after its own children, and they are left out where they stand in the DOM (as
 * Chromium's tree does). Document scope only.
 */
function scanOwns(w, doc) {
  let list;
  try {
    list = docQuerySelectorAll(doc, "[aria-owns]");
  } catch (_) {
    return;
  }
  const n = nodeListLength(list);
  for (let i = 0; i < n; i++) {
    const owner = nodeListItem(list, i);
    // an owner the page does not render owns nothing: its elements stay where they are
    if (checkVisibility && !checkVisibility(owner)) continue;
    const ids = idRefs(owner, "aria-owns");
    for (let j = 0; j < ids.length; j++) {
      const t = ids[j];
      if (!w.ownsOf) {
        w.ownsOf = new $Map();
        w.ownedBy = new $Map();
      }
      // one owner per element, and never an ancestor of the owner (no cycles)
      if (mapHas(w.ownedBy, t) || contains(t, owner)) continue;
      // what is hidden where it stands stays hidden (and stays out)
      if (checkVisibility && !checkVisibility(t)) continue;
      if (closest(t, '[aria-hidden="true"], [inert]')) continue;
      mapSet(w.ownedBy, t, owner);
      let owned = mapGet(w.ownsOf, owner);
      if (!owned) {
        owned = [];
        mapSet(w.ownsOf, owner, owned);
      }
      push(owned, t);
    }
  }
}

/**
 * A new output node of role r under output node p, with every field the walk and 50_refs may
 * set present from the start (undefined: absent; every reader treats the two alike). One
 * shape for all nodes: no property is added later, so V8 neither grows nor re-shapes them,
 * and the encoder's reads see one shape.
 */
function newNode(p, r) {
  return { p: p, r: r, n: undefined, v: undefined, s: undefined, u: undefined, d: undefined, ph: undefined,
    b: undefined, f: undefined, ref: undefined };
}

/** Appends an output node (el: its element, null for text); its index, or -1 over --max-nodes. */
function emitNode(w, node, el) {
  if (w.maxNodes && w.nodes.length >= w.maxNodes) {
    w.leftOut++;
    return -1;
  }
  const i = w.nodes.length;
  push(w.nodes, node);
  push(w.els, el);
  w.lastKid[i] = -1;
  w.lastKid[node.p] = i;
  return i;
}

/** Adds text under output node p: merged into a text run that is p's last child, else a new one. */
function emitText(w, text, p) {
  if (!text) return;
  const li = w.lastKid[p];
  if (li >= 0 && w.nodes[li].r === "text" && !w.nodes[li].s) {
    w.nodes[li].v += text;
    return;
  }
  if (!strTrim(text)) {
    // keep the space between neighbouring text pieces only
    return;
  }
  const t = newNode(p, "text");
  t.v = text;
  emitNode(w, t, null);
}

/** A space after the text run that is p's last child, if any (a break between text pieces). */
function spaceAfterText(w, p) {
  const li = w.lastKid[p];
  if (li >= 0 && w.nodes[li].r === "text") w.nodes[li].v += " ";
}

/** Pushes a stack entry: node (null: end of a block), its parent's output index, ctx, scope. */
function spush(w, node, p, c, scope) {
  const sp = w.sp;
  w.stack[sp] = node;
  w.stackP[sp] = p;
  w.stackC[sp] = c;
  w.stackS[sp] = scope;
  w.sp = sp + 1;
}

/**
 * Walks from `rootEl` and returns {nodes, els, cands, frames, notes, stats}. Nodes: {p, r,
 * n?, v?, s?, u?, d?, ph?, b?, f?}. Cands: elements that may get refs {i, el, tier, role,
 * name, frame}.
 */
function walk(rootDoc, opts) {
  const w = startWalk(rootDoc, opts);
  runWalk(w);
  return endWalk(w);
}

/** A new walk with its start (`opts.rootEl`, else the body) on the stack, for runWalk. */
function startWalk(rootDoc, opts) {
  const w = newWalk(rootDoc, opts);
  const start = opts.rootEl || docBodyOf(rootDoc) || docElementOf(rootDoc);
  if (start) {
    // a walk from an element (rootEl) has not entered the scopes above it
    w.ariaNone = !opts.rootEl && !scopeHasAriaDisabled(rootDoc);
    spush(w, start, 0, w.frameBase << 8, getRootNode(start));
    w.focusedEl = deepActiveElement(rootDoc);
    if (opts.behindModal) w.modal = openModal(rootDoc);
    w.vp = w.wantBoxes ? viewportOf(start) : null;
  }
  return w;
}

/** The result of a walk whose stack runWalk has emptied: covered text flagged, then finished. */
function endWalk(w) {
  coverPass(w);
  return finishWalk(w);
}

/** Pops the stack until it is empty, handing each entry to the visitor of its node type. */
function runWalk(w) {
  const stack = w.stack;
  const stackP = w.stackP;
  const stackC = w.stackC;
  const stackS = w.stackS;
  const until = w.until;
  let n = 0;
  while (w.sp > 0) {
    // a warm-up slice ends at its time or element budget (the stack keeps its place)
    if (until !== 0 && (++n & 15) === 0 && ($now() >= until || w.elements >= w.limit)) return;
    const sp = --w.sp;
    const node = stack[sp];
    const parentOut = stackP[sp];
    const ctx = stackC[sp];
    const scope = stackS[sp];
    stack[sp] = null;
    stackS[sp] = null;
    if (node === null) {
      // the end of a block-level container: text on either side must not run together
      spaceAfterText(w, parentOut);
      continue;
    }
    const nt = nodeType(node);
    if (nt === TEXT_NODE) visitText(w, node, parentOut, ctx, scope);
    else if (nt === DOCUMENT_NODE) visitDocument(w, node, parentOut, ctx);
    else if (nt === ELEMENT_NODE) visitElement(w, node, parentOut, ctx, scope);
  }
}

/** A text node: its rendered text joins the text under its parent (nothing when hidden). */
// docs/reference/output.md#unseen-text: text present for assistive technology but not painted for a sighted user is
// flagged [unseen=KIND]. ctx bits 4-6 carry the kind an ancestor element has (inherited by
// its whole subtree), bit 7 says an emitted ancestor already carries the flag.
const UNSEEN_KINDS = ["", "clipped", "offscreen", "transparent", "tiny", "camouflaged", "covered"];
const UN_CLIPPED = 1;
const UN_OFFSCREEN = 2;
const UN_TRANSPARENT = 3;
const UN_TINY = 4;
const UN_CAMOUFLAGED = 5;
const UN_COVERED = 6;
const UN_MASK = 0x70;
const UN_FLAGGED = 0x80;
// Off-screen text: text-indent pushed this far out (the -9999px idiom) shows nothing.
const INDENT_OUT = -999;
const NUM_RE = re("-?[0-9.]+", "g");
const INSET_SHUT_RE = re("^inset\\(\\s*(5\\d|[6-9]\\d|100)(\\.\\d+)?%");

/** The numbers of a CSS value ("rect(0px, 1px, 1px, 0px)", "rgba(1, 2, 3, 0.5)"). */
function cssNumbers(v) {
  const m = strMatch(v, NUM_RE);
  const out = [];
  if (m) for (let i = 0; i < m.length; i++) push(out, $Number(m[i]));
  return out;
}

// Computed colours repeat across a page: each string is parsed once per walk.
const NO_COLOUR = [0, 0, 0, 0];
/** A computed colour as [r, g, b, a] (the serialisation is rgb() or rgba()). */
function colourOf(w, v) {
  if (v === "rgba(0, 0, 0, 0)" || !v) return NO_COLOUR;
  let c = mapGet(w.colourCache, v);
  if (c === undefined) {
    const n = cssNumbers(v);
    c = n.length < 3 ? NO_COLOUR : [n[0], n[1], n[2], n.length > 3 ? n[3] : 1];
    mapSet(w.colourCache, v, c);
  }
  return c;
}

/** A length in px from its computed value ("16px"; NaN when not a length). */
function pxOf(v) {
  return $Number(strReplace(v, "px", ""));
}

/**
 * The unseen kind an element gives its whole subtree, from its own style (0: none): opacity 0
 * (transparent, CSS: a group painted fully transparent), or, positioned out of flow, a clip to
 * at most 1px (the visually-hidden idiom: clip, clip-path inset of half or more, or a 1px
 * box that hides its overflow) or a box entirely left of or above the page (offscreen: no
 * scrolling reaches it).
 */
function elementUnseen(w, el, style, scope, attrs) {
  if (!style) return 0;
  if (mayStyleIn(el, SCOPE_OPACITY, OPACITY_RE, scope, attrs) && cssValue(style, "opacity") === "0") {
    return UN_TRANSPARENT;
  }
  // only a rule or style attribute takes an element out of flow (the UA sheet positions
  // nothing that holds page text)
  if (!mayStyleIn(el, SCOPE_GEOM, GEOM_RE, scope, attrs)) return 0;
  const pos = cssValue(style, "position");
  if (pos !== "absolute" && pos !== "fixed" && pos !== "sticky") return 0;
  const r = rectOf(el);
  if (pos !== "sticky") {
    const clip = cssValue(style, "clip");
    if (clip && clip !== "auto" && strStartsWith(clip, "rect(")) {
      const n = cssNumbers(clip);
      // rect(top, right, bottom, left)
      if (n.length === 4 && (n[1] - n[3] <= 1 || n[2] - n[0] <= 1)) return UN_CLIPPED;
    }
    const cp = cssValue(style, "clip-path");
    if (cp && cp !== "none" && reTest(INSET_SHUT_RE, cp)) return UN_CLIPPED;
    if (r.width <= 1 && r.height <= 1 && cssValue(style, "overflow-x") !== "visible") return UN_CLIPPED;
    if (r.width > 0 && r.height > 0 && outOfPage(w, el, r)) return UN_OFFSCREEN;
  }
  // a layer over the viewport may paint over text in flow: checked after the walk
  const d = viewDims(w, el);
  if (r.width >= 8 && r.height >= 8 && r.right > 0 && r.bottom > 0 && r.left < d.w && r.top < d.h) {
    push(w.layers, [el, r, ownerDocument(el)]);
  }
  return 0;
}

/** The viewport size and scroll of el's window, read once per walk and window. */
function viewDims(w, el) {
  return viewDimsOf(w, viewOf(el));
}

function viewDimsOf(w, view) {
  let d = mapGet(w.viewDims, view);
  if (d === undefined) {
    d = view
      ? { w: innerWidthOf(view), h: innerHeightOf(view), sx: scrollXOf(view), sy: scrollYOf(view) }
      : { w: 0, h: 0, sx: 0, sy: 0 };
    mapSet(w.viewDims, view, d);
  }
  return d;
}

/** Whether a box lies wholly left of or above its page, where no scrolling reaches it. */
function outOfPage(w, el, r) {
  const d = viewDims(w, el);
  return r.right + d.sx <= 0 || r.bottom + d.sy <= 0;
}

/** An element's own painted background colour as [r, g, b, a] (null: an image, unknown). */
function ownBackground(w, style) {
  if (!style) return NO_COLOUR;
  const img = cssValue(style, "background-image");
  if (img && img !== "none") return null;
  return colourOf(w, cssValue(style, "background-color"));
}

const WHITE = [255, 255, 255];

/**
 * The background colour behind an element's text: its own background colour composited
 * (CSS: source-over) over what is behind its parent, down to the nearest opaque one or the
 * canvas (white unless the page says otherwise). Memoised per element for the walk, so each
 * element's background is read once (an iterative climb: pages nest deeper than a call
 * stack). Background images are looked for only when the colours match (imageOnTheWay).
 */
function backgroundBehind(w, el) {
  let c = mapGet(w.bgCache, el);
  if (c !== undefined) return c;
  const chain = [];
  let under = WHITE;
  for (let p = el; p; p = flatParentElement(p)) {
    const known = mapGet(w.bgCache, p);
    if (known !== undefined) {
      under = known;
      break;
    }
    push(chain, p);
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const st = styleOf(chain[i]);
    const b = st ? colourOf(w, cssValue(st, "background-color")) : NO_COLOUR;
    if (b[3] >= 0.99) under = [b[0], b[1], b[2]];
    else if (b[3] > 0) {
      under = [
        b[0] * b[3] + under[0] * (1 - b[3]),
        b[1] * b[3] + under[1] * (1 - b[3]),
        b[2] * b[3] + under[2] * (1 - b[3]),
      ];
    }
    mapSet(w.bgCache, chain[i], under);
  }
  return under;
}

/** Whether a background image lies between el and the opaque background behind it. */
function imageOnTheWay(w, el) {
  for (let p = el; p; p = flatParentElement(p)) {
    const st = styleOf(p);
    if (!st) continue;
    const img = cssValue(st, "background-image");
    if (img && img !== "none") return true;
    if (colourOf(w, cssValue(st, "background-color"))[3] >= 0.99) return false;
  }
  return false;
}

/**
 * The unseen kind of a text node's own element (0: none), for what does not inherit down a
 * subtree: a font of at most 1px (tiny), text indented out of the page or a box left of or
 * above it (offscreen), a transparent or same-as-background colour (transparent,
 * camouflaged), or, inside the viewport, another element painted over its centre and
 * corners (covered).
 */
function textUnseen(w, el, scope) {
  const c = mapGet(w.textCache, el);
  if (c !== undefined) return c;
  if (namespaceURIOf(el) === SVG_NS) {
    // SVG text is painted with `fill`, not `color`, and its font size is scaled by the
    // viewBox: neither the colour nor the size checks say anything about it (what hides a
    // whole subtree, opacity 0, still applies: elementUnseen)
    mapSet(w.textCache, el, 0);
    return 0;
  }
  // what the rules and style attributes of el's scope can do (and, for slotted text, of the
  // shadow tree it is shown in, whose styles it inherits)
  let bits = unseenBits(scope || getRootNode(el));
  if (bits !== SCOPE_UNSEEN) {
    let slot = null;
    try {
      slot = assignedSlotOf(el);
    } catch (_) {
      slot = null;
    }
    if (slot) bits |= unseenBits(getRootNode(slot));
  }
  let k = 0;
  const style = bits ? styleOf(el) : null;
  if (style) {
    const col = bits & SCOPE_COLOUR ? colourOf(w, cssValue(style, "color")) : null;
    if (bits & SCOPE_FONT && pxOf(cssValue(style, "font-size")) <= 1) k = UN_TINY;
    else if (bits & SCOPE_INDENT && pxOf(cssValue(style, "text-indent")) <= INDENT_OUT) k = UN_OFFSCREEN;
    else if (col && col[3] === 0) k = UN_TRANSPARENT;
    else {
      // the box is read only where it can matter: colours that match, or an out-of-flow
      // layer in the viewport painted over el (boxes out of the page are caught on the
      // positioned or transformed element that moved them: elementUnseen)
      let r = null;
      if (col) {
        const bg = backgroundBehind(w, el);
        if (sameColour(bg, col) && !imageOnTheWay(w, el)) {
          r = rectOf(el);
          if (paintedBehind(w, el, r, col)) k = UN_CAMOUFLAGED;
        }
      }
    }
    // covered text is found after the walk, once every layer is known (coverPass)
    if (!k && bits & SCOPE_GEOM) {
      setAdd(w.geomText, el);
      w.geomAny = true;
    }
  }
  mapSet(w.textCache, el, k);
  return k;
}

/** Whether el or an ancestor below the one painting its background is positioned. */
function positionedUpTo(w, el) {
  for (let p = el; p; p = flatParentElement(p)) {
    const st = styleOf(p);
    if (!st) return true;
    if (cssValue(st, "position") !== "static") return true;
    const b = ownBackground(w, st);
    if (b === null || b[3] >= 0.99) return false;
  }
  return false;
}

function sameColour(a, b) {
  return $Math.abs(a[0] - b[0]) + $Math.abs(a[1] - b[1]) + $Math.abs(a[2] - b[2]) <= 6;
}

/**
 * Inside the viewport, the colour really painted under el's centre agrees: the first opaque
 * background among the elements stacked there below el (a positioned backdrop that is not
 * an ancestor counts). Outside it, the ancestors' answer stands.
 */
function paintedBehind(w, el, r, col) {
  const d = viewDims(w, el);
  if (!elementsFromPoint || r.left < 0 || r.top < 0 || r.right > d.w || r.bottom > d.h) {
    // out of the viewport, nothing can be hit-tested: the ancestors' background is trusted
    // only when no positioned element on the way may lay a backdrop under the text
    return !positionedUpTo(w, el);
  }
  const stack = elementsFromPoint(ownerDocument(el), r.left + r.width / 2, r.top + r.height / 2);
  let below = false;
  for (let i = 0; i < stack.length; i++) {
    const e = stack[i];
    if (e === el) {
      below = true;
      continue;
    }
    if (!below) continue;
    const b = ownBackground(w, styleOf(e));
    if (b === null) return false;
    if (b[3] >= 0.99) return sameColour(b, col);
  }
  return true;
}

/**
 * Whether another element is painted over el's centre and four inner corners (the hit test
 * finds neither el, its content nor an element around it). Only inside the viewport, and
 * not for elements hit testing skips (pointer-events: none).
 */
function coveredAt(w, el, r) {
  const d = viewDims(w, el);
  if (r.left < 0 || r.top < 0 || r.right > d.w || r.bottom > d.h) return false;
  if (cssValue(styleOf(el), "pointer-events") === "none") return false;
  const doc = ownerDocument(el);
  const pts = [[0.5, 0.5], [0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85]];
  for (let i = 0; i < pts.length; i++) {
    const hit = deepElementFromPoint(doc, r.left + r.width * pts[i][0], r.top + r.height * pts[i][1]);
    if (!hit || hit === el || flatContains(el, hit) || flatContains(hit, el)) return false;
    // a layer that paints nothing (a transparent click-catcher) hides nothing
    if (!paintsOver(w, hit)) return false;
  }
  return true;
}

/** Whether box r of el lies under a layer (another document's layers do not count). */
function underALayer(w, el, r) {
  const doc = ownerDocument(el);
  for (let i = 0; i < w.layers.length; i++) {
    const l = w.layers[i];
    if (l[2] !== doc || l[0] === el || flatContains(l[0], el)) continue;
    const lr = l[1];
    if (r.left < lr.right && r.right > lr.left && r.top < lr.bottom && r.bottom > lr.top) return true;
  }
  return false;
}

/**
 * Covered text (docs/reference/output.md#unseen-text), after the walk: the text of elements in the viewport that lie under
 * a layer taken out of flow (fixed, absolute, sticky: a cookie wall, a modal, a box laid over
 * a paragraph) and that the browser's hit test finds painted over (coveredAt). Hit tests
 * cost a pass over the page's boxes each, so only text under a layer is tested, and nothing
 * when the page has no layer in the viewport. The run that holds the text is flagged (text
 * merged into it from its neighbours included).
 */
function coverPass(w) {
  if (!w.layers.length || !w.coverCands.length) return;
  const done = new $Map();
  for (let i = 0; i < w.coverCands.length; i += 2) {
    const el = w.coverCands[i];
    const idx = w.coverCands[i + 1];
    let k = mapGet(done, el);
    if (k === undefined) {
      k = false;
      const r = rectOf(el);
      // coveredAt keeps to the viewport
      if (r.width > 0 && r.height > 0 && underALayer(w, el, r)) k = coveredAt(w, el, r);
      mapSet(done, el, k);
    }
    const node = w.nodes[idx];
    if (k && node && !(node.s && node.s.unseen)) flagUnseen(node, UN_COVERED);
  }
}

const OPAQUE_TAGS = new $Set(["img", "video", "canvas", "iframe", "svg", "object", "embed", "picture"]);

/** Whether an element paints its box: replaced content, or an opaque or image background. */
function paintsOver(w, el) {
  const tag = localNameOf(el);
  // an image that did not load paints nothing over what is under it, and a stretched 1-2px
  // image is the transparent spacer idiom (lazy-loading placeholders)
  if (tag === "img") return imgNaturalWidthOf(el) > 2 || imgNaturalHeightOf(el) > 2;
  if (setHas(OPAQUE_TAGS, tag)) return true;
  const style = styleOf(el);
  if (!style || cssValue(style, "opacity") === "0") return false;
  const b = ownBackground(w, style);
  return b === null || b[3] >= 0.99;
}

/** Marks an output node unseen (its kind from the constants: no page text reaches it). */
function flagUnseen(node, k) {
  if (!node.s) node.s = {};
  node.s.unseen = UNSEEN_KINDS[k];
}

/**
 * Whether el's box lies outside the viewport (--viewport). A box of no size says nothing
 * (display: contents, an empty element): its content decides.
 */
function outOfView(w, el) {
  const b = boxOf(el);
  if (b.w === 0 && b.h === 0) return false;
  return !intersectsViewport(b, w.vp);
}

function visitText(w, node, parentOut, ctx, scope) {
  if (ctx & 2) return;
  const v = renderedText(node, scope);
  if (!v) return;
  visitTextValue(w, v, node, null, parentOut, ctx, scope);
}

/**
 * Rendered text v under output node parentOut: joined to the painted text run, or a run of
 * its own when unseen. el: the element it is shown in when known (else that of text node
 * `node`, found when needed).
 */
function visitTextValue(w, v, node, el, parentOut, ctx, scope) {
  if (ctx & UN_FLAGGED) {
    emitText(w, v, parentOut);
    return;
  }
  let k = (ctx & UN_MASK) >> 4;
  if (!k && strTrim(v)) {
    if (!el) el = flatParentElement(node);
    if (el) k = textUnseen(w, el, scope);
  }
  if (!k) {
    emitText(w, v, parentOut);
    if (w.geomAny && strTrim(v)) {
      // text a layer may cover: its run is checked after the walk (coverPass)
      if (!el) el = flatParentElement(node);
      const li = w.lastKid[parentOut];
      if (el && li >= 0 && w.nodes[li].r === "text" && setHas(w.geomText, el)) {
        push(w.coverCands, el);
        push(w.coverCands, li);
      }
    }
    return;
  }
  // its own run, never merged with painted text
  const li = w.lastKid[parentOut];
  if (li >= 0 && w.nodes[li].r === "text" && w.nodes[li].s && w.nodes[li].s.unseen === UNSEEN_KINDS[k]) {
    w.nodes[li].v += v;
    return;
  }
  if (!strTrim(v)) return;
  const t = newNode(parentOut, "text");
  t.v = v;
  flagUnseen(t, k);
  emitNode(w, t, null);
}

/** A same-origin frame's document: its body (or root element) is walked under the frame. */
function visitDocument(w, doc, parentOut, ctx) {
  if (w.ariaNone && scopeHasAriaDisabled(doc)) w.ariaNone = false;
  const b = docBodyOf(doc) || docElementOf(doc);
  if (b) spush(w, b, parentOut, ctx, doc);
}

/**
 * An element: skipped when hidden (or owned elsewhere), its node when it has a role or is an
 * interactive container, then its children pushed in reverse document order.
 */
function visitElement(w, el, parentOut, ctx, scope) {
  if (w.ownedBy) {
    // an owned element is walked under its owner (ctx bit 8), not where it stands
    if (!(ctx & 8) && mapHas(w.ownedBy, el)) return;
    ctx &= ~8;
  }
  w.elements++;
  const style = styleOf(el);
  // whether el has attributes at all: one call that answers many attribute reads below
  const attrs = hasAttrs(el);
  // its local name, read once: the hidden check, its tag, role, name and states all need it
  const ln = localNameOf(el);
  const hiddenBy = subtreeHiddenReason(el, style, attrs, ln);
  if (hiddenBy) {
    // a page makes itself inert (or aria-hidden) around a modal dialog: for the diff, the
    // page behind is the page's, and one fact (ARIA 1.2 aria-modal; HTML inert)
    if (!(w.modal && (hiddenBy === "inert" || hiddenBy === "aria-hidden") && !flatContains(el, w.modal))) return;
    w.behindModal = true;
  }
  const elScope = scope || getRootNode(el);
  // its shadow root, if any: its :host rules may style it (mayStyleIn), and the walk goes
  // into it (pushFlatChildren)
  const hostRoot = hostRootOf(el);
  const visHidden = visibilityHiddenIn(el, style, !!(ctx & 2), scope, attrs);
  if (visHidden) ctx |= 2;
  else ctx &= ~2;
  if (!visHidden && !(ctx & UN_MASK)) {
    const k = elementUnseen(w, el, style, scope, attrs);
    if (k) ctx |= k << 4;
  }
  const tag = tagOfLocal(el, ln);
  // A custom element may hold a closed shadow root (docs/reference/browsers.md#closed-shadow-roots: reported, never dropped).
  // (an HTML element: SVG and MathML names with a dash, font-face..., are no custom elements)
  if (strIndexOf(tag, "-") > 0 && strIndexOf(tag, ":") < 0 && !shadowRootOf(el)) noteCustomHost(w, el, tag);
  if (tag === "br") {
    spaceAfterText(w, parentOut);
    return;
  }
  let out = parentOut;
  let role = visHidden ? null : getRole(el, tag);
  if (role && setHas(INLINE_TEXT_ROLES, role)) role = null;
  // --viewport (docs/reference/detail.md#scope): an element outside the viewport shows neither its role nor, as a
  // clickable generic, itself; only descendants that are in view (a fixed or positioned
  // layer) show
  if (role && w.viewportOnly && outOfView(w, el)) role = null;
  if (role) {
    out = emitRoleNode(w, el, role, tag, parentOut, ctx, attrs, scope);
    // over --max-nodes: keep counting what would have been shown, emit nothing more
    if (out < 0) return;
    if (setHas(INTERACTIVE_CONTAINERS, role)) ctx |= 1;
  } else if (!visHidden) {
    const idx = emitGenericNode(w, el, tag, parentOut, ctx, attrs);
    if (idx >= 0) out = idx;
  }
  if (out !== parentOut && (ctx & UN_MASK) && !(ctx & UN_FLAGGED)) {
    // the first node emitted under an unseen element carries the flag for its subtree
    flagUnseen(w.nodes[out], (ctx & UN_MASK) >> 4);
    ctx |= UN_FLAGGED;
  }

  // Children, pushed in reverse document order.
  if (contentsSkipped(el, style, scope, attrs)) return;
  if (tag === "iframe" || tag === "frame") {
    // An invisible frame shows nothing of its document, whatever that document's own
    // styles say (visibility does not inherit across documents, but the frame is not
    // painted): its content is hidden, like any hidden subtree.
    // With --viewport, a frame outside the viewport shows nothing (its document's boxes
    // are in its own coordinates, so they cannot be tested against the top viewport).
    if (!visHidden && !(w.viewportOnly && !intersectsViewport(boxOf(el), w.vp))) {
      visitFrame(w, el, tag, out, ctx);
    }
    return;
  }
  if (pushSpecialChildren(w, el, tag, role, out, ctx, elScope)) return;
  if (namedByTextOnly(w, el, tag, elScope, parentOut, out)) {
    // its text is its name: an unseen text gives the flag to the name's line
    if (!(ctx & (UN_MASK | UN_FLAGGED))) {
      const k = textUnseen(w, el, elScope);
      if (k) flagUnseen(w.nodes[out], k);
      else if (out !== parentOut && setHas(w.geomText, el)) {
        push(w.coverCands, el);
        push(w.coverCands, out);
      }
    }
    return;
  }
  if (out === parentOut && !visHidden && style && !setHas(INLINE_DISPLAYS, displayOf(el))) {
    spaceAfterText(w, parentOut);
    spush(w, null, parentOut, 0, null);
  }
  pushFlatChildren(w, el, tag, out, ctx, elScope, hostRoot);
}

/**
 * Closed-root bookkeeping for a custom element without an open shadow root: counted as read
 * (the host handed its closed root over), unreadable (the endpoint could not say), or pending
 * (worth probing: queued for the host, at most PROBE_CAP).
 */
function noteCustomHost(w, el, tag) {
  if (w.warm) return;
  if (closedRootCount && wmGet(closedRoots, el)) {
    w.closedRead++;
    noteClosed(w, tag);
    return;
  }
  const pv = wmGet(probedHosts, el);
  if (pv === 3) {
    w.closedUnread++;
    noteClosed(w, tag);
  } else if (pv === undefined && mayHoldClosedRoot(el)) {
    w.closedPending++;
    if (pendingHosts.length < PROBE_CAP) push(pendingHosts, el);
  }
}

/** The box of an element as [x, y, w, h] rounded to CSS pixels. */
function roundedBox(el) {
  const bx = boxOf(el);
  return [$Math.round(bx.x), $Math.round(bx.y), $Math.round(bx.w), $Math.round(bx.h)];
}

/**
 * Emits the node of an element with a role (name, states, value, URL, description,
 * placeholder, box) and makes it a ref candidate when its tier is 1 or 2. Its index, or -1
 * over --max-nodes.
 */
function emitRoleNode(w, el, role, tag, parentOut, ctx, attrs, scope) {
  // reached through shown ancestors (the walk does not enter hidden or skipped
  // subtrees): name-from-content questions about its descendants stop climbing here
  if (setHas(NAME_FROM_CONTENT, role)) markShown(el);
  const name = getName(el, role, scope, tag);
  const n = newNode(parentOut, role);
  if (name) n.n = name;
  if (ctx >> 8) n.f = ctx >> 8;
  const st = statesOf(el, role, tag, w.focusedEl, w.verbose, attrs, w.ariaNone);
  if (st) n.s = st;
  if (setHas(VALUE_ROLES, role) || role === "progressbar" || role === "meter") {
    const v = valueOf(el, role, tag);
    if (v) n.v = clean(v, NAME_CAP);
  }
  if (role === "link") {
    const u = hrefOf(el, tag);
    if (u) n.u = clean(u, 2048);
  }
  // an invalid field's description is its error text, which interactive and summary views
  // keep (docs/reference/detail.md#nothing-is-dropped-silently: aria-invalid with aria-describedby / aria-errormessage)
  if (w.verbose || (st && st.invalid)) {
    const d = st && st.invalid ? getErrorText(el, name) : getDescription(el, name);
    if (d) n.d = d;
  }
  if (w.verbose) {
    const ph = getAttr(el, "placeholder") || getAttr(el, "aria-placeholder");
    if (ph) n.ph = clean(ph, NAME_CAP);
  }
  if (w.wantBoxes) n.b = roundedBox(el);
  const idx = emitNode(w, n, el);
  if (idx < 0) return -1;
  const tier = candidateTier(el, role, tag, st, ctx, attrs);
  if (tier < 3) push(w.cands, { i: idx, el: el, tier: tier, role: role, name: name, frame: ctx >> 8 });
  else if (w.containerRefs) {
    push(w.cands, { i: idx, el: el, tier: 1, role: role, name: name, frame: ctx >> 8, container: true });
  }
  return idx;
}

/**
 * Ref tier of a node with a role: 1 for controls (and focusable or editable elements that
 * are not disabled), 2 for items inside interactive containers, 3 (no ref) otherwise and
 * for the options of a drop-down select.
 */
function candidateTier(el, role, tag, st, ctx, attrs) {
  let tier = 3;
  if (setHas(TIER1, role)) tier = 1;
  // a list-box select (multiple or size > 1) is a form control like the drop-down one, and
  // focusable (HTML: tabIndex 0): `set` and `select` act on it, not on its options
  else if (tag === "select" && !(st && st.disabled)) tier = 1;
  else if ((ctx & 1) && setHas(TIER2, role)) tier = 2;
  else if (!st || !st.disabled) {
    let ti = null;
    const tia = attrs ? getAttr(el, "tabindex") : null;
    if (tia !== null) ti = $Number(tia);
    if ((ti !== null && ti >= 0) || (isEditable(el) && tag !== "body")) tier = 1;
  }
  if (ctx & 4) tier = 3;
  return tier;
}

/**
 * A generic container is still interactive when focusable or clickable: emits it (named by
 * its name or else its text) as a tier 1 candidate. Its index, or -1 when it is not one (or
 * over --max-nodes).
 */
function emitGenericNode(w, el, tag, parentOut, ctx, attrs) {
  const tia = attrs ? getAttr(el, "tabindex") : null;
  const focusable = tia !== null && $Number(tia) >= 0;
  if (!((focusable || hasPointerHandler(el, attrs)) && tag !== "body" && tag !== "html")) return -1;
  // --viewport: one out of view is not shown (its box is read only for such candidates)
  if (w.viewportOnly && outOfView(w, el)) return -1;
  const name = getName(el, "generic");
  const contentName = name || clean(normalizeWS(textContent(el) || ""), 100);
  const n = newNode(parentOut, "generic");
  if (contentName) n.n = contentName;
  if (w.wantBoxes) n.b = roundedBox(el);
  const idx = emitNode(w, n, el);
  if (idx >= 0) push(w.cands, { i: idx, el: el, tier: 1, role: "generic", name: contentName, frame: ctx >> 8 });
  return idx;
}

/**
 * A shown iframe or frame element (out: its output index, or its parent's): a same-origin
 * document is read for aria-owns and pushed under it with its frame index in ctx; a
 * cross-origin one is listed for the host to read (with WebDriver frame switching).
 */
function visitFrame(w, el, tag, out, ctx) {
  if (w.warm) return;
  const doc = frameDocument(el, tag);
  const k = w.frameBase ? w.frameBase * 1000 + frameIndexOf(el) : frameIndexOf(el);
  if (doc && docElementOf(doc)) {
    push(w.frames, { k: k, i: out, url: clean(docURLOf(doc), 2048) });
    scanOwns(w, doc);
    spush(w, doc, out, (ctx & 3) | (k << 8), doc);
    return;
  }
  // A cross-origin frame too small to show anything (trackers, 0x0 ad slots) is
  // not read: the host would switch into it for nothing.
  const fb = boxOf(el);
  if (fb.w < 10 || fb.h < 10) return;
  // the resolved URL, so the host can match it with the browser's frame tree
  let src = "";
  try {
    src = (tag === "iframe" ? iframeSrcOf(el) : frameSrcOf(el)) || "";
  } catch (_) {
    src = "";
  }
  if (!src) src = getAttr(el, "src") || "";
  push(w.frames, { k: k, i: out, url: clean(src, 2048), unreadable: "cross-origin" });
  mapSet(crossFrames, k, weakEl(el));
}

/**
 * Elements that show only some of their children, or none: a closed details its summary, a
 * listbox or drop-down select its options; textarea, svg, img and text fields nothing. True
 * when el is one of these (its children, if any, are pushed).
 */
function pushSpecialChildren(w, el, tag, role, out, ctx, elScope) {
  if (tag === "details" && !detailsOpenOf(el)) {
    for (let c = firstElementChild(el); c; c = nextElementSibling(c))
      if (localNameOf(c) === "summary") {
        spush(w, c, out, ctx, elScope);
        break;
      }
    return true;
  }
  if (tag === "svg" || strStartsWith(tag, "svg:")) {
    // SVG content as Chromium's tree shows it (SVG-AAM): an svg root that is an image has
    // nothing in it to show; a foreignObject holds HTML, walked as any
    if (tag === "svg:foreignObject") return false;
    if (tag !== "svg" || role !== "img" || svgHasContent(el)) pushSvgChildren(w, el, tag, out, ctx, elScope);
    return true;
  }
  if (tag === "select" || tag === "textarea" || tag === "img") {
    // Options of a closed select are listed; the text of a textarea is its value.
    // Options are listed for both select forms (Chromium exposes them; agents need them).
    // Options of a drop-down (combobox) select take no refs: they are chosen with
    // `select`, not clicked (ctx bit 4).
    if (tag === "select" && (role === "listbox" || role === "combobox")) {
      const kids = flatChildren(el);
      const bits = role === "combobox" ? 1 | 4 : 1;
      for (let i = kids.length - 1; i >= 0; i--) spush(w, kids[i], out, ctx | bits, elScope);
    }
    return true;
  }
  return role === "textbox" || role === "searchbox";
}

/**
 * Pushes what an SVG element shows under it, last first (SVG 2 rendering, as Chromium's tree
 * has it): its element children but those that render nothing (SVG_UNRENDERED), shapes and
 * `use`s that are neither named, focusable, clickable nor given a role (Chromium leaves
 * them out of its tree), and elements of other namespaces outside a foreignObject (not
 * rendered); text children only in text content elements (SVG renders no other text). A
 * `text` element is a block of its own (Chromium: one node each), so its run does not join
 * its neighbours'.
 */
function pushSvgChildren(w, el, tag, out, ctx, elScope) {
  if (w.ownsOf) {
    const owns = mapGet(w.ownsOf, el);
    if (owns) for (let i = owns.length - 1; i >= 0; i--) spush(w, owns[i], out, ctx | 8, null);
  }
  const ln = tag === "svg" ? tag : strSlice(tag, 4);
  const textual = setHas(SVG_TEXT, ln) || (ln === "a" && closest(el, "text") !== null);
  for (let c = lastChildOf(el); c; c = previousSiblingOf(c)) {
    const t = nodeType(c);
    if (t === TEXT_NODE) {
      if (textual) spush(w, c, out, ctx, elScope);
      continue;
    }
    if (t !== ELEMENT_NODE || namespaceURIOf(c) !== SVG_NS) continue;
    const cl = localNameOf(c);
    if (setHas(SVG_UNRENDERED, cl)) continue;
    if ((setHas(SVG_SHAPES, cl) || cl === "use") && !svgItemShown(c)) continue;
    const block = cl === "text";
    if (block) spush(w, null, out, 0, null);
    spush(w, c, out, ctx, elScope);
    if (block) spush(w, null, out, 0, null);
  }
}

/** Whether a shape or `use` is in Chromium's tree: named, focusable, clickable or with a role. */
function svgItemShown(el) {
  if (!hasAttrs(el) && !firstElementChild(el)) return false;
  return hasAttr(el, "tabindex") || hasAttr(el, "role") || hasAttr(el, "onclick") || svgNamed(el);
}

/**
 * A node named by its content whose children are text only: that text is its name, which
 * every output shows once (the text runs would be dropped), so it is not walked.
 */
function namedByTextOnly(w, el, tag, elScope, parentOut, out) {
  return out !== parentOut && !!w.nodes[out].n && !firstElementChild(el) && tag !== "slot" &&
    setHas(contentNamed, el) && !shadowRootAny(el) && !(w.ownsOf && mapHas(w.ownsOf, el)) &&
    !(scopeFlagsOf(elScope) & SCOPE_PSEUDO);
}

/**
 * Pushes what an element shows under it in the flat tree, last first: its aria-owns elements
 * (shown after its own children), then its shadow root's children, a slot's assigned nodes
 * or fallback content, or (the common case) its light children. hostRoot: el's shadow root
 * (open, or closed and handed over), or null.
 */
function pushFlatChildren(w, el, tag, out, ctx, elScope, hostRoot) {
  if (w.ownsOf) {
    const owns = mapGet(w.ownsOf, el);
    if (owns) for (let i = owns.length - 1; i >= 0; i--) spush(w, owns[i], out, ctx | 8, null);
  }
  const sr = tag === "slot" ? null : hostRoot;
  if (tag !== "slot" && !sr) {
    if (!firstElementChild(el)) {
      // text only (or nothing), the most common leaf: its text in one read (textContent
      // joins the text children, as the run they would make), so no text node is touched
      // (the sandbox makes a node's wrapper on first touch) and none goes through the stack
      if (!(ctx & 2)) {
        const t = textContent(el);
        const v = t ? transformedText(t, el, elScope) : "";
        if (v) visitTextValue(w, v, null, el, out, ctx, elScope);
      }
    } else {
      // light children, pushed last first
      for (let c = lastChildOf(el); c; c = previousSiblingOf(c)) spush(w, c, out, ctx, elScope);
    }
  } else if (sr) pushShadowRoot(w, sr, out, ctx);
  else pushSlot(w, el, out, ctx, elScope);
}

/** Pushes the children of a host's shadow root (open, or closed and handed over), last first. */
function pushShadowRoot(w, sr, out, ctx) {
  if (w.ariaNone && scopeHasAriaDisabled(sr)) w.ariaNone = false;
  for (let c = lastChildOf(sr); c; c = previousSiblingOf(c)) spush(w, c, out, ctx, sr);
}

/** Pushes a slot's assigned nodes (their scope unknown here) or its fallback content (its own). */
function pushSlot(w, slot, out, ctx, elScope) {
  const kids = flatChildren(slot);
  const assigned = kids.length > 0 && parentNode(kids[0]) !== slot;
  for (let i = kids.length - 1; i >= 0; i--) spush(w, kids[i], out, ctx, assigned ? null : elScope);
}

/** The walk's result: merged text normalised, and its stats (ms since newWalk). */
function finishWalk(w) {
  const nodes = w.nodes;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n.r === "text") n.v = clean(normalizeWS(n.v), NAME_CAP);
  }
  return {
    nodes: nodes,
    els: w.els,
    cands: w.cands,
    frames: w.frames,
    notes: w.notes,
    stats: { ms: $now() - w.t0, elements: w.elements, leftOut: w.leftOut, closedRead: w.closedRead,
      closedUnread: w.closedUnread, closedPending: w.closedPending, closedTags: w.closedTags,
      behindModal: w.behindModal },
  };
}
