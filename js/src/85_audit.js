//! 85_audit.js: what `audit` needs from the page (docs/reference/audit.md): the refs of the
//! elements axe-core names by selector, the keyboard problems of clickable elements, and the
//! focus as Tab moves it (the host presses Tab; this says where focus went).
//!
//! Owns: the audit's identities of focused elements (a WeakMap: nothing kept alive). Must
//! not: run axe (the host loads it into this realm and calls it) or change the page.

/** The first element of `root` (a document or a shadow root) matching `sel`, or null. */
function auditSelect(root, sel) {
  try {
    return nodeType(root) === DOCUMENT_NODE ? docQuerySelector(root, sel) : fragQuerySelector(root, sel);
  } catch (_) {
    return null;
  }
}

/**
 * The element an axe-core target names from `doc`: each item but the last selects a frame
 * element (same-origin frames are entered), the last the element; an item that is a list is
 * a shadow path (hosts, then the element). {el}, or {crossAt: i} when item i is inside a
 * frame this document cannot enter (cross-origin), or {} when nothing matches.
 */
function auditFind(doc, target) {
  let root = doc;
  for (let i = 0; i < target.length; i++) {
    const item = target[i];
    const path = typeof item === "string" ? [item] : item;
    let el = null;
    let r = root;
    for (let j = 0; j < path.length && r; j++) {
      el = auditSelect(r, "" + path[j]);
      if (!el) return {};
      if (j < path.length - 1) r = shadowRootAny(el);
    }
    if (!el) return {};
    if (i === target.length - 1) return { el: el };
    let d = null;
    try {
      d = localNameOf(el) === "iframe" ? contentDocumentOf(el) : frameContentDocumentOf(el);
    } catch (_) {
      d = null;
    }
    if (!d) return { crossAt: i + 1 };
    root = d;
  }
  return {};
}

/** The live ref of an element (minted by this engine's last walks), or null. */
function liveRefOf(el) {
  const e = wmGet(refByEl, el);
  if (!e || e.tampered || !mapHas(refEntries, e.ref)) return null;
  return e.ref;
}

/** What the audit says of an element: its ref, role and name as the snapshot shows them. */
function auditDescribe(el) {
  const tag = localNameOf(el);
  let role = null;
  let name = "";
  try {
    role = getRole(el, tag);
    name = role ? getName(el, role) : "";
  } catch (_) {
    role = null;
  }
  return { ref: liveRefOf(el), role: role || null, name: clean(name || "", 80), tag: tag };
}

/** `auditRefs`: for each axe-core target, its element's ref, role and name, or where it crosses into a cross-origin frame. */
function auditRefs(a) {
  const out = [];
  const targets = a && a.targets ? a.targets : [];
  for (let i = 0; i < targets.length; i++) {
    const f = auditFind(document, targets[i]);
    if (f.el) push(out, auditDescribe(f.el));
    else if (f.crossAt) push(out, { crossAt: f.crossAt });
    else push(out, { missing: true });
  }
  return { kind: "ok", nodes: out };
}

// Elements whose activation a keyboard gives natively (HTML: buttons, links with href, form
// controls, summary; a label forwards its activation to its control).
const NATIVE_ACTIVATION = "a[href], area[href], button, input, select, textarea, summary, label, details, option, iframe, video, audio";

/**
 * Whether the page listens for clicks on `el`: the click family (click, mousedown, mouseup)
 * or the pointer family (dblclick, pointerdown, pointerup), by addEventListener, an on*
 * attribute or property (17_listen: the main-world hook tells them, docs/behaviour.md#what-a-user-can-click).
 */
function clickListenerSeen(el) {
  return (listenKinds(el) & (LISTEN_MOUSE | LISTEN_POINTER)) !== 0;
}

/** Whether `el` or an ancestor handles keys through an onkeydown/onkeyup/onkeypress attribute or property. */
function keyHandlerSeen(el) {
  for (let e = el, d = 0; e && d < 64; e = parentElementOf(e), d++) {
    if (hasAttr(e, "onkeydown") || hasAttr(e, "onkeyup") || hasAttr(e, "onkeypress")) return true;
    try {
      if (typeof onkeydownOf(e) === "function" || typeof onkeyupOf(e) === "function") return true;
    } catch (_) {
      // not an HTMLElement
    }
  }
  return false;
}

/** Whether `el` has a descendant the keyboard reaches (a card whose link is focusable). */
function hasTabbableInside(el) {
  let list;
  try {
    list = querySelectorAll(el, NATIVE_ACTIVATION + ", [tabindex]");
  } catch (_) {
    return false;
  }
  const n = nodeListLength(list);
  for (let i = 0; i < n; i++) {
    const c = nodeListItem(list, i);
    if (isFocusable(c) && !(tabIndexOf(c) < 0)) return true;
  }
  return false;
}

/** The keyboard problem of one element the page makes clickable, or null. */
function keyboardProblem(el) {
  const tag = localNameOf(el);
  if (tag === "body" || tag === "html") return null;
  if (!clickListenerSeen(el)) return null;
  // the keyboard activates these (or an ancestor that takes the click) natively
  if (closest(el, NATIVE_ACTIVATION)) return null;
  try {
    if (checkVisibility && !checkVisibility(el)) return null;
  } catch (_) {
    // no checkVisibility: count it
  }
  if (hasTabbableInside(el)) return null;
  const focusable = isFocusable(el) && !(tabIndexOf(el) < 0);
  if (!focusable) return "clickable but not reachable by keyboard: Tab never focuses it (no tabindex)";
  if (!keyHandlerSeen(el)) return "focusable and clickable, but no key handler: Enter and Space do nothing";
  return null;
}

/** `auditKeyboard`: the document's clickable elements a keyboard user cannot use (at most 100). */
function auditKeyboard() {
  const out = [];
  const all = docGetElementsByTagName(document, "*");
  const n = htmlCollectionLength(all);
  for (let i = 0; i < n && i < 50000 && out.length < 100; i++) {
    const el = htmlCollectionItem(all, i);
    const p = keyboardProblem(el);
    if (!p) continue;
    const d = auditDescribe(el);
    d.problem = p;
    push(out, d);
  }
  return { kind: "ok", problems: out };
}

// Identities of the elements focus went to during a Tab walk.
const focusIds = new $WeakMap();
const focusEls = new $Map();
let focusNext = 0;

/** `focusStep`: where focus is now: none (the document, or out of the page), or an element with its identity, ref, role and name, and whether it is inside an open modal dialog. */
function focusStep() {
  const a = deepActiveElement(document);
  if (!a || a === docBodyOf(document) || a === docElementOf(document)) return { kind: "ok", none: true };
  let id = wmGet(focusIds, a);
  if (!id) {
    id = ++focusNext;
    wmSet(focusIds, a, id);
    mapSet(focusEls, id, weak(a));
  }
  const d = auditDescribe(a);
  d.kind = "ok";
  d.id = id;
  let modal = null;
  try {
    modal = closest(a, "dialog:modal, [aria-modal=true]");
  } catch (_) {
    modal = closest(a, "dialog[open], [aria-modal=true]");
  }
  d.modal = !!modal;
  return d;
}

/** `trapRegion`: the nearest element holding every element of `ids` (where focus cycled), described. */
function trapRegion(a) {
  const els = [];
  const ids = a && a.ids ? a.ids : [];
  for (let i = 0; i < ids.length; i++) {
    const w = mapGet(focusEls, ids[i]);
    const el = w ? deref(w) : null;
    if (el) push(els, el);
  }
  if (!els.length) return { kind: "ok" };
  let region = parentElementOf(els[0]);
  for (; region; region = parentElementOf(region)) {
    let all = true;
    for (let i = 1; i < els.length && all; i++) if (!contains(region, els[i])) all = false;
    if (all) break;
  }
  if (!region) return { kind: "ok" };
  // the nearest region with a role (a dialog, a menu, a form) names it best
  let named = region;
  for (let r = region, d = 0; r && d < 16; r = parentElementOf(r), d++) {
    const role = getRole(r, localNameOf(r));
    if (role && role !== "generic") {
      named = r;
      break;
    }
  }
  const out = auditDescribe(named);
  out.kind = "ok";
  return out;
}
