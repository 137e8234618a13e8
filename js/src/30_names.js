//! 30_names.js: accessible names and descriptions (accname 1.2), each rule citing its step.
//!
//! Owns: getName(el, role), getDescription(el). Must not: decide what is shown in the tree
//! beyond "hidden for naming" (15_style). Deviations follow Chromium, whose tree is the oracle.
//! Name-from-content traversal is iterative (pages nest deeper than the call stack) and stops
//! once the text passes NAME_CAP characters.

const NAME_CAP = 10000;
let labelMaps = null;
// elements whose name is their content (2F), per walk
let contentNamed = null;
// nodes an aria-labelledby of the name being computed has used (2B), or null: one name
let lbVisited = null;

function beginNameCaches() {
  labelMaps = new $Map();
  contentNamed = new $Set();
}
function endNameCaches() {
  labelMaps = null;
  contentNamed = null;
}
onCaches(
  beginNameCaches,
  endNameCaches,
  function () {
    return [labelMaps, contentNamed];
  },
  function (p) {
    labelMaps = p[0];
    contentNamed = p[1];
  },
);

/**
 * control -> its <label> elements, for a whole document, built once per walk. Blink computes
 * `input.labels` by scanning the document on first use, which made the first snapshot of a
 * page with many fields quadratic.
 */
function labelMapOf(doc) {
  let m = labelMaps ? mapGet(labelMaps, doc) : undefined;
  if (m) return m;
  m = new $Map();
  const all = docGetElementsByTagName(doc, "label");
  const n = htmlCollectionLength(all);
  for (let i = 0; i < n; i++) {
    const label = all[i];
    let control = null;
    try {
      control = labelControlOf(label);
    } catch (_) {
      control = null;
    }
    if (!control) continue;
    const list = mapGet(m, control);
    if (list) push(list, label);
    else mapSet(m, control, [label]);
  }
  if (labelMaps) mapSet(labelMaps, doc, m);
  return m;
}

// Roles that take their name from content (accname 1.2, 2F; ARIA 1.2 "name from: contents").
const NAME_FROM_CONTENT = new $Set(strSplit(
  // row is left out: Chromium names rows of grids and treegrids from content (see inGrid),
  // and rows of tables only when authors do (HTML-AAM leaves it open).
  "button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox " +
  // text-level roles but term: ARIA 1.2 prohibits naming them, and Chromium names them
  // nothing (a dfn or dt, term, by its content)
  "menuitemradio option radio rowheader switch tab tooltip treeitem term comment " +
  // DPUB-ARIA's links and subtitle, Graphics-ARIA's object (Chromium names them so)
  "doc-backlink doc-biblioref doc-glossref doc-noteref doc-subtitle graphics-object",
  " "));

// Roles whose content never flows into an ancestor's name from content in Chromium (the
// oracle; checked against Accessibility.getFullAXTree with each role inside a link). accname
// 1.2 2F.iii would recurse into every child; Chromium stops at these.
const NO_CONTENT_CONTRIBUTION = new $Set(strSplit(
  "alert alertdialog application article banner blockquote comment complementary contentinfo " +
  "dialog document feed figure form grid group img listbox log main marquee math menubar " +
  "navigation note progressbar radiogroup row rowgroup search separator status tablist " +
  "tabpanel timer toolbar tree treegrid combobox meter iframe",
  " "));

// Roles ARIA 1.3 prohibits naming: Chromium does not name them from a title (aria-label
// still works). Generic elements keep their title here: a clickable icon's title is often
// all an agent has to go by.
const NO_TOOLTIP_NAME = new $Set(strSplit(
  "paragraph code strong emphasis deletion insertion subscript superscript caption",
  " "));

const CONTENT_CONTRIBUTING_TAGS = new $Set(["footer", "address", "svg"]);

const LABELABLE = new $Set(["input", "select", "textarea", "button", "meter", "output", "progress"]);
const CONTROL_ROLES = new $Set(["textbox", "searchbox", "combobox", "listbox", "slider", "spinbutton", "range"]);

/** Text of the labels of a labelable element (HTML-AAM: label for= and wrapping label). */
function labelsText(el) {
  let labels = null;
  const root = rootOf(el);
  if (labelMaps && root && nodeType(root) === DOCUMENT_NODE) {
    labels = mapGet(labelMapOf(root), el) || null;
  } else {
    // in a shadow tree (or outside a walk): the element's own list
    try {
      const get = $hasOwn(LABELS_GETTERS, localNameOf(el)) ? LABELS_GETTERS[localNameOf(el)] : null;
      const list = get ? get(el) : null;
      if (list) {
        // a NodeList read through the captured accessors, into an array of ours
        labels = [];
        const n = nodeListLength(list);
        for (let i = 0; i < n; i++) push(labels, nodeListItem(list, i));
      }
    } catch (_) {
      labels = null;
    }
  }
  if (!labels || !labels.length) return null;
  const parts = [];
  for (let i = 0; i < labels.length; i++) {
    // a hidden label still labels (it stops the fallbacks) but says nothing (Chromium)
    if (isHiddenForName(labels[i])) continue;
    const t = contentText(labels[i], true, el);
    if (t) push(parts, t);
  }
  return trimmed(arrJoin(parts, " "));
}

/**
 * Value of an embedded control, used when it sits inside a label, a labelledby target or the
 * content of an element named from content (2C).
 */
function embeddedValue(el, role) {
  const tag = localNameOf(el);
  if (role === "textbox" || role === "searchbox") {
    if (tag === "input") {
      // A password's characters never reach a name: Firefox leaves its value out (Chromium
      // puts one bullet per character, which still tells its length).
      if (strLower(getAttr(el, "type") || "") === "password") return "";
      return inputValueOf(el);
    }
    if (tag === "textarea") return textareaValueOf(el);
    return textContent(el) || "";
  }
  if (role === "combobox" || role === "listbox") {
    if (tag === "select") {
      // every selected option, as Chromium (Firefox gives the first one only)
      const opts = selectSelectedOptions(el);
      const parts = [];
      for (let i = 0; i < opts.length; i++) push(parts, optionTextOf(opts[i]));
      return arrJoin(parts, " ");
    }
    if (tag === "input") return inputValueOf(el);
    // 2C "If the embedded control has role listbox, return the text alternative of the
    // chosen option": the options marked aria-selected="true" (Chromium and Firefox alike)
    if (role === "listbox") return chosenOptions(el);
    // 2C, combobox: the chosen option of its listbox (inside it, or the one it owns or
    // controls), else what it shows, its own text (a span role=combobox reading "3" gives
    // "3", before its aria-label: Chromium and Firefox, WPT comp_embedded_control)
    const lists = popupLists(el);
    for (let i = 0; i < lists.length; i++) {
      const t = chosenOptions(lists[i]);
      if (t) return t;
    }
    return lists.length ? "" : textContent(el) || "";
  }
  if (role === "slider" || role === "spinbutton" || role === "range") {
    const vt = getAttr(el, "aria-valuetext");
    if (vt) return vt;
    const vn = getAttr(el, "aria-valuenow");
    if (vn) return vn;
    if (tag === "input") return inputValueOf(el);
  }
  return "";
}

/** The text of a listbox's options marked aria-selected="true", joined. */
function chosenOptions(list) {
  const sel = querySelectorAll(list, '[aria-selected="true"]');
  const parts = [];
  const n = nodeListLength(sel);
  for (let i = 0; i < n; i++) {
    const o = nodeListItem(sel, i);
    if (explicitRole(o) !== "option" || isHiddenForName(o)) continue;
    const t = contentText(o, true, o);
    if (t) push(parts, t);
  }
  return arrJoin(parts, " ");
}

/** The listboxes of a custom combobox: inside it, owned by it, or controlled by it. */
function popupLists(box) {
  const out = [];
  const inner = querySelectorAll(box, '[role="listbox"]');
  const n = nodeListLength(inner);
  for (let i = 0; i < n; i++) push(out, nodeListItem(inner, i));
  const refs = [idRefs(box, "aria-owns"), idRefs(box, "aria-controls")];
  for (let r = 0; r < 2; r++) {
    for (let i = 0; i < refs[r].length; i++) {
      const t = refs[r][i];
      if (explicitRole(t) === "listbox") push(out, t);
      else {
        const q = querySelectorAll(t, '[role="listbox"]');
        const m = nodeListLength(q);
        for (let j = 0; j < m; j++) push(out, nodeListItem(q, j));
      }
    }
  }
  return out;
}

/**
 * Name of an element from a source other than its content (2B aria-labelledby, 2C embedded
 * control, 2D aria-label, 2E native), or null when none applies and content (2F) decides.
 * `inLabel` is true while inside a labelledby/label traversal; `target` is the element whose
 * name is being computed (a label's own control is not embedded in itself). tag: tagOf(el)
 * when the caller has it.
 */
function nonContentName(el, role, inLabel, target, embedded, tag) {
  // 2B: aria-labelledby, not followed from inside another labelledby traversal.
  if (!inLabel) {
    const refs = idRefs(el, "aria-labelledby");
    if (refs.length) {
      const parts = [];
      for (let i = 0; i < refs.length; i++) {
        const r = refs[i];
        // accname 2B: a node already used by this computation gives nothing again (the
        // spec's "not already part of the ... traversal"; Chromium keeps the visited set
        // across the whole name, so an image a link points at is not read twice in its
        // heading's name: WPT comp_name_from_content)
        if (lbVisited && setHas(lbVisited, r)) continue;
        if (!lbVisited) lbVisited = new $Set();
        setAdd(lbVisited, r);
        // the element in its own list is computed with 2B skipped: its aria-label, native
        // name, content or title (accname 2B.ii.b: "current node" is not followed again)
        const t = textAlternative(r, true, r === el ? el : target);
        if (t) push(parts, t);
      }
      const s = trimmed(arrJoin(parts, " "));
      if (s) return s;
    }
  }
  // 2C: a control embedded in the label of another element: inside a label or labelledby
  // traversal, or in the content of an element named from its content (a slider in a
  // button, a text field in a link: Chromium and Firefox both give its value there, and 2C
  // comes before aria-label). A text field or range with no value goes on to its own name
  // (aria-label, title, placeholder), as both browsers do; a select says what is selected,
  // even nothing.
  if ((inLabel || embedded) && el !== target && role && setHas(CONTROL_ROLES, role)) {
    const v = trimmed(embeddedValue(el, role));
    if (v || localNameOf(el) === "select") return v;
  }
  // 2D: aria-label.
  const al = getAttr(el, "aria-label");
  if (al && strTrim(al)) return trimmed(al);
  // 2E: host language label.
  const native = nativeName(el, role, inLabel, tag);
  if (native) return native;
  // labelled by an empty (or hidden) label: no name, and no fallback either
  if (native === "" && !inLabel) return "";
  return null;
}

/** 2E: names the host language gives (HTML-AAM accessible name computation). */
function nativeName(el, role, inLabel, known) {
  const tag = known === undefined ? tagOf(el) : known;
  if (tag === "input") {
    const type = strLower(getAttr(el, "type") || "text");
    if (type === "button" || type === "submit" || type === "reset") {
      // HTML-AAM #input-type-button-input-type-submit-and-input-type-reset-accessible-name-
      // computation: its label elements (step 3) before its value (step 4), then the
      // defaults; a label that says nothing names it nothing, as for any control (Chromium)
      const lt = inLabel ? null : labelsText(el);
      if (lt !== null) return lt;
      const v = getAttr(el, "value");
      if (v !== null) return trimmed(v) || null;
      if (type === "submit") return "Submit";
      if (type === "reset") return "Reset";
      return null;
    }
    if (type === "image") {
      const lt = inLabel ? "" : labelsText(el);
      if (lt) return lt;
      const alt = getAttr(el, "alt");
      if (alt && strTrim(alt)) return trimmed(alt);
      const v = getAttr(el, "value");
      if (v && strTrim(v)) return trimmed(v);
      const t = getAttr(el, "title");
      if (t && strTrim(t)) return trimmed(t);
      return "Submit";
    }
    // 2E: a control with a label element is named by it, even when it says nothing:
    // Chromium then uses neither title nor placeholder ("" stops the fallbacks)
    if (!inLabel) return labelsText(el);
    return null;
  }
  if (setHas(LABELABLE, tag) && !inLabel) {
    const lt = labelsText(el);
    // a button is still named by its content when its label says nothing
    if (tag === "button") return lt || null;
    return lt;
  }
  if (tag === "img" || tag === "area") {
    const alt = getAttr(el, "alt");
    if (alt && strTrim(alt)) return trimmed(alt);
    // HTML-AAM #img-element-accessible-name-computation step 3: an empty alt is the name, and
    // the title is not used (Chromium: an image with no name; WPT html-aam
    // accname-computation-by-element/img "from empty alt")
    if (tag === "img" && alt !== null && !inLabel) return "";
    // HTML-AAM #img-element-accessible-name-computation, step 4: with no alt attribute, the
    // title attribute names the image, in a link's or button's content too (Chromium and
    // Firefox alike). With alt="" Chromium gives nothing in content (Firefox the title):
    // left to the tooltip step (2I) as before.
    if (tag === "img" && alt === null) {
      const t = getAttr(el, "title");
      if (t && strTrim(t)) return trimmed(t);
    }
    return null;
  }
  // fieldset / legend, table / caption: the first one names it, unless it is hidden
  // (HTML-AAM #fieldset-and-legend-elements, #table-element: a hidden caption or legend
  // gives no name, Chromium alike; WPT html-aam/hidden-names)
  if (tag === "fieldset") {
    for (let c = firstElementChild(el); c; c = nextElementSibling(c))
      if (localNameOf(c) === "legend") return isHiddenForName(c) ? null : contentText(c, inLabel, el) || null;
    return null;
  }
  // figure / figcaption: HTML-AAM names the figure from its caption, Chromium (the oracle)
  // does not; we follow Chromium.
  if (tag === "table") {
    for (let c = firstElementChild(el); c; c = nextElementSibling(c))
      if (localNameOf(c) === "caption") return isHiddenForName(c) ? null : contentText(c, inLabel, el) || null;
    return null;
  }
  if (tag === "optgroup") {
    const l = getAttr(el, "label");
    return l ? trimmed(l) : null;
  }
  // SVG-AAM #mapping_additional_nd (accname step 2D for SVG): the first `title` child of
  // any SVG element names it (the root, and a g, shape, link... inside it: Chromium alike)
  if (tag === "svg" || strStartsWith(tag, "svg:")) {
    const t = svgTitle(el);
    if (t) return trimmed(t);
    // SVG-AAM #mapping_additional_nd: a link's xlink:title names it; Chromium reads it on an
    // `a` only (AXNodeObject::TextAlternative), not on shapes or groups
    if (tag === "svg:a") {
      const x = getAttr(el, "xlink:title");
      if (x && strTrim(x)) return trimmed(x);
    }
    return null;
  }
  if (tag === "iframe" || tag === "frame") {
    return null;
  }
  return null;
}

/** Fallback names after content: title (2I), then placeholder for text fields (HTML-AAM). */
function tooltipName(el) {
  const t = getAttr(el, "title");
  if (t && strTrim(t)) return trimmed(t);
  const tag = localNameOf(el);
  if (tag === "input" || tag === "textarea") {
    const ph = getAttr(el, "placeholder");
    if (ph && strTrim(ph)) return trimmed(ph);
  }
  const aph = getAttr(el, "aria-placeholder");
  if (aph && strTrim(aph)) return trimmed(aph);
  return "";
}

/**
 * The text alternative of a node reached in a traversal (accname 2A-2I for a descendant or a
 * referenced node). Referenced nodes are included even when hidden (2A exception).
 */
function textAlternative(el, inLabel, target) {
  const role = getRole(el);
  const nc = nonContentName(el, role, inLabel, target);
  if (nc !== null) return nc;
  const c = contentText(el, inLabel, target);
  if (c) return c;
  return tooltipName(el);
}

/**
 * 2F: the text of an element's content in the flat tree, with ::before/::after and spaces
 * around block-level elements. Iterative, bounded by NAME_CAP.
 *
 * The text is gathered in one string, and the traversal uses CT_STACK with its own top
 * (ctTop), shared by every call: calls nest (labelledby, embedded controls), each works above
 * the top it found and leaves it there. Neither is an array per call, and the stack is never
 * shortened through its length (V8 gives a shortened array a smaller store, and the next push
 * a new one). Names are computed for thousands of elements a walk: the arrays this replaces
 * were about a tenth of a walk's allocation (0.7-1 MB at 10,000 elements), which the page's
 * main thread pays for in young-generation GC.
 */
function contentText(root, inLabel, target, scope) {
  const sc = scope || null;
  const leaf = leafContentText(root, sc);
  if (leaf !== null) return leaf;
  const base = ctTop;
  try {
    return trimmed(contentTextIn(base, root, inLabel, target, sc));
  } finally {
    for (let i = base; i < ctTop; i++) {
      CT_STACK[i] = null;
      CT_SCOPE[i] = null;
    }
    ctTop = base;
  }
}

/**
 * contentText() of an element whose flat-tree children are text only (the common case: a
 * link, a cell, a heading with plain text), in one read, or null when the traversal is
 * needed. The same steps as contentTextIn() for such a root: its ::before, its text children
 * in order, its ::after (the root gives no block spacing and no title of its own; 2I is the
 * caller's). The text children are read as one run (textContent), as the walk reads such a
 * leaf, and as Blink lays out adjacent text (text-transform: capitalize looks at the
 * character before a run, across text nodes), so no text node is touched.
 */
function leafContentText(root, scope) {
  if (!isElement(root) || firstElementChild(root) || shadowRootAny(root)) return null;
  const tag = localNameOf(root);
  if (tag === "br" || tag === "slot" || tag === "details") return null;
  const before = pseudoText(root, "::before", scope);
  const after = pseudoText(root, "::after", scope);
  const t = textContent(root);
  const v = t ? transformedText(t, root, scope) : "";
  return trimmed(before + v + after);
}

// CT_SCOPE[i]: the tree scope (document or shadow root) of node CT_STACK[i] when the
// traversal knows it, else null (slotted nodes, whose ::slotted styles come from the slot's
// scope, and strings): style questions about the node then need no getRootNode.
const CT_STACK = [];
const CT_SCOPE = [];
let ctTop = 0;

/** Pushes a string, an end marker or a node of unknown scope. */
function ctPush(x) {
  ctPushIn(x, null);
}

function ctPushIn(x, scope) {
  CT_SCOPE[ctTop] = scope;
  CT_STACK[ctTop++] = x;
}

/**
 * Pushes flatChildren(node) last first (so they pop in order), without the intermediate
 * array in the common case (no shadow root, not a slot with assigned nodes).
 */
function ctPushFlatChildrenRev(node, scope) {
  if (isElement(node)) {
    const sr = shadowRootAny(node);
    if (sr || localNameOf(node) === "slot") {
      const kids = flatChildren(node);
      // a shadow root's children are in its scope; a slot's assigned nodes in their own
      // (unknown here), its fallback content in the slot's
      const ks = sr ? sr : kids.length > 0 && parentNode(kids[0]) !== node ? null : scope;
      for (let i = kids.length - 1; i >= 0; i--) ctPushIn(kids[i], ks);
      return;
    }
  }
  for (let c = lastChildOf(node); c; c = previousSiblingOf(c)) ctPushIn(c, scope);
}

/** Pushes the element children of node (flat tree), last first. */
function ctPushElementChildrenRev(node) {
  const kids = flatChildren(node);
  for (let i = kids.length - 1; i >= 0; i--) if (isElement(kids[i])) ctPushIn(kids[i], null);
}

/**
 * Pushes the elements node owns (aria-owns), last first, each once per traversal (seen:
 * those pushed so far, or null; returned): an owns cycle ends.
 */
function ctPushOwnedRev(node, seen) {
  const owns = idRefs(node, "aria-owns");
  const out = seen || new $Set();
  for (let i = owns.length - 1; i >= 0; i--) {
    const o = owns[i];
    if (o === node || setHas(out, o) || flatContains(o, node)) continue;
    setAdd(out, o);
    ctPushIn(o, null);
  }
  return out;
}

function contentTextIn(base, root, inLabel, target, rootScope) {
  const stack = CT_STACK;
  let acc = "";
  let len = 0;
  const includeHidden = inLabel && isHiddenForName(root);
  // elements pulled in through aria-owns in this traversal (an owns cycle reads each once)
  let ownedSeen = null;
  // Stack entries: a node to visit, a string to append when popped (closing parts), or an
  // end marker {mark, title}: 2I, the title of an element whose content gave no text.
  ctPushIn(root, rootScope);
  let first = true;
  while (ctTop > base && len < NAME_CAP) {
    const item = stack[--ctTop];
    const sc = CT_SCOPE[ctTop];
    stack[ctTop] = null;
    CT_SCOPE[ctTop] = null;
    if (typeof item === "string") {
      acc += item;
      len += item.length;
      continue;
    }
    if (item.__end === true) {
      // empty: nothing but white space was appended since the marker went on
      if (!strTrim(strSlice(acc, item.mark))) {
        acc += item.title;
        len += item.title.length;
      }
      continue;
    }
    const t = nodeType(item);
    if (t === TEXT_NODE) {
      const v = renderedText(item, sc);
      if (v) {
        acc += v;
        len += v.length;
      }
      continue;
    }
    if (t !== ELEMENT_NODE) continue;
    if (localNameOf(item) === "br") {
      acc += " ";
      continue;
    }
    const isRoot = first;
    first = false;
    let block = false;
    let title = "";
    if (!isRoot) {
      // The element being named, met again inside its own label or labelledby content,
      // gives nothing: Chromium's traversal marks it visited from the start (a select in
      // its label is "Size", not "Size Small Medium Large"; Firefox agrees).
      // It still separates the text around it, as its box does (an inline-block control:
      // `label::before` + checkbox + `label::after` is "foo baz", Chromium and Firefox).
      if (item === target) {
        acc += " ";
        continue;
      }
      // a node this name's aria-labelledby already used is not read twice (2B, Chromium)
      if (lbVisited && setHas(lbVisited, item)) continue;
      // 2A: hidden descendants contribute nothing (unless the whole referenced subtree is hidden).
      if (!includeHidden && isHiddenForName(item)) {
        // a visibility:hidden element's own text is hidden, but descendants made visible
        // again are read (2A applies per node; WPT comp_hidden_not_referenced)
        if (hiddenByVisibilityOnly(item)) ctPushElementChildrenRev(item);
        continue;
      }
      const ln = localNameOf(item);
      if (setHas(NEVER_RENDERED, ln)) continue;
      const role = getRole(item);
      // An embedded menu gives nothing to the name around it (a label holding a role=menu
      // list, or a select role=menu: Chromium reads neither its items nor a chosen one).
      if (role === "menu") continue;
      // A slot has no box and no node of its own (display: contents): its aria-label or
      // title are not read, only what it shows (assigned nodes, else its fallback content;
      // Chromium and Firefox, WPT shadowdom/slot).
      const slot = ln === "slot";
      const nc = slot ? null : nonContentName(item, role, inLabel, target, true);
      block = isBlock(item);
      if (nc !== null) {
        // a name that does not come from text (alt, aria-label, a control's value) stands apart
        acc += " " + nc + " ";
        len += nc.length;
        continue;
      }
      // Chromium: containers of many objects (landmarks, figures, groups, widgets' frames)
      // give nothing of their content to an ancestor's name; only a labelledby traversal
      // reads them. (footer, address and svg elements do: Chromium's own roles for them are
      // not among those.)
      if (!inLabel && role && setHas(NO_CONTENT_CONTRIBUTION, role) &&
          !(setHas(CONTENT_CONTRIBUTING_TAGS, localNameOf(item)) && !getAttr(item, "role"))) continue;
      // An image marked as decoration (alt="", or role none/presentation) gives nothing, its
      // title neither (HTML-AAM: no accessible object; Chromium and Firefox)
      title = slot || decorativeImage(item, ln) ? "" : tooltipName(item);
    }
    const before = pseudoText(item, "::before", sc);
    const after = pseudoText(item, "::after", sc);
    // Pushed in reverse: closing parts first.
    if (block) ctPush(" ");
    if (title) ctPush({ __end: true, mark: acc.length, title: title });
    if (after) ctPush(after);
    if (localNameOf(item) === "details" && !detailsOpenOf(item)) {
      const kids = summaryOnly(item);
      for (let i = kids.length - 1; i >= 0; i--) ctPushIn(kids[i], sc);
    } else {
      // 2F.iii reads the node's children in the accessibility tree: the elements it owns
      // (aria-owns) come after its own (WPT name_file-label-owned-combobox), each once
      if (hasAttrs(item) && hasAttr(item, "aria-owns")) ownedSeen = ctPushOwnedRev(item, ownedSeen);
      ctPushFlatChildrenRev(item, sc);
    }
    if (before) ctPush(before);
    if (block) ctPush(" ");
  }
  return acc;
}

function decorativeImage(el, ln) {
  if (ln !== "img") return false;
  if (getAttr(el, "alt") === "") return true;
  const r = explicitRole(el);
  return r === "none" || r === "presentation";
}

function summaryOnly(details) {
  const out = [];
  for (let c = firstElementChild(details); c; c = nextElementSibling(c))
    if (localNameOf(c) === "summary") {
      push(out, c);
      break;
    }
  return out;
}

/**
 * The accessible name of an element whose role is `role` (accname 1.2 from the root).
 * Not memoised: a walk asks once per element (a per-walk map of names met no second request
 * for the same element on the 43 readability pages and mixed-10000, 0 hits in 24,700
 * requests, and cost a map insertion per named node). scope: el's tree scope when the
 * caller knows it (the walk), else null; tag: tagOf(el) when the caller has it.
 */
function getName(el, role, scope, tag) {
  lbVisited = null;
  try {
    return clean(nameOf(el, role, scope, tag), NAME_CAP);
  } finally {
    lbVisited = null;
  }
}

function nameOf(el, role, scope, tag) {
  let name = nonContentName(el, role, false, el, undefined, tag);
  if (name === null) {
    name = "";
    if (role && (setHas(NAME_FROM_CONTENT, role) || (role === "row" && inGrid(el)))) {
      name = contentText(el, false, el, scope);
      if (name && contentNamed) setAdd(contentNamed, el);
    }
    // Chromium names no paragraph or text-level element from its title
    if (!name && !(role && setHas(NO_TOOLTIP_NAME, role))) name = tooltipName(el);
  }
  return name;
}

/**
 * Whether a row belongs to a grid or treegrid (explicit role on its table element): Chromium
 * names those rows from their content, and leaves rows of tables unnamed.
 */
function inGrid(row) {
  let p = parentElementOf(row);
  for (let guard = 0; p && guard < 16; guard++) {
    const r = getAttr(p, "role");
    const rl = r ? strLower(strTrim(r)) : "";
    if (rl === "grid" || rl === "treegrid") return true;
    if (rl === "table" || localNameOf(p) === "table") return false;
    p = parentElementOf(p);
  }
  return false;
}

/**
 * The error text of an invalid field (docs/reference/detail.md#nothing-is-dropped-silently): what aria-errormessage points at (WAI-ARIA
 * 1.2: "the element's error message", exposed only while aria-invalid is set), else its
 * description.
 */
function getErrorText(el, name) {
  const refs = idRefs(el, "aria-errormessage");
  if (refs.length) {
    const parts = [];
    for (let i = 0; i < refs.length; i++) {
      const t = textAlternative(refs[i], true, el);
      if (t) push(parts, t);
    }
    const e = clean(trimmed(arrJoin(parts, " ")), NAME_CAP);
    if (e) return e;
  }
  return getDescription(el, name);
}

/** aria-describedby, else aria-description, else title when it was not used for the name. */
function getDescription(el, name) {
  const refs = idRefs(el, "aria-describedby");
  if (refs.length) {
    const parts = [];
    for (let i = 0; i < refs.length; i++) {
      const t = textAlternative(refs[i], true, el);
      if (t) push(parts, t);
    }
    return clean(trimmed(arrJoin(parts, " ")), NAME_CAP);
  }
  const ad = getAttr(el, "aria-description");
  if (ad && strTrim(ad)) return clean(trimmed(ad), NAME_CAP);
  const t = getAttr(el, "title");
  if (t && strTrim(t) && trimmed(t) !== name) return clean(trimmed(t), NAME_CAP);
  return "";
}
