//! 10_dom.js: shadow-aware tree access, computed style, boxes and visibility, with per-walk
//! caches.
//!
//! Owns: the flat tree (shadow roots, slots, frames) and "is this shown to a user". Must
//! not: compute roles or names. Caches live between beginCaches() and endCaches() only, so
//! nothing computed survives into the next snapshot.

let cacheDepth = 0;
let styleCache = null;
let hiddenCache = null;
// Per-walk memo for 20_roles (table kinds); lives here so it is reset with the others.
let tableKindCache = null;

function beginCaches() {
  if (cacheDepth++ === 0) {
    styleCache = new $WeakMap();
    hiddenCache = new $WeakMap();
    tableKindCache = new $WeakMap();
    beginNameCaches();
  }
}
function endCaches() {
  if (--cacheDepth === 0) {
    styleCache = null;
    hiddenCache = null;
    tableKindCache = null;
    endNameCaches();
  }
}

function viewOf(el) {
  const doc = ownerDocument(el);
  return (doc && defaultViewOf(doc)) || window;
}

/** The computed style of an element (cached per walk). null for detached elements. */
function styleOf(el, pseudo) {
  if (pseudo) {
    try {
      return winGetComputedStyle(viewOf(el), el, pseudo);
    } catch (_) {
      return null;
    }
  }
  if (styleCache) {
    const c = wmGet(styleCache, el);
    if (c !== undefined) return c;
  }
  let s = null;
  try {
    s = winGetComputedStyle(viewOf(el), el);
  } catch (_) {
    s = null;
  }
  if (styleCache) wmSet(styleCache, el, s);
  return s;
}

function cssValue(style, prop) {
  return style ? styleGet(style, prop) : "";
}

function isElement(n) {
  return n !== null && nodeType(n) === ELEMENT_NODE;
}

function tagOf(el) {
  const ns = namespaceURIOf(el);
  const ln = localNameOf(el);
  if (ns === "http://www.w3.org/1999/xhtml") return ln;
  if (ns === "http://www.w3.org/2000/svg") return ln === "svg" ? "svg" : "svg:" + ln;
  if (ns === "http://www.w3.org/1998/Math/MathML") return ln === "math" ? "math" : "math:" + ln;
  return ln;
}

function attr(el, name) {
  return getAttr(el, name);
}

/** The parent in the flat tree (slot for slotted nodes, host for shadow roots). */
function flatParent(node) {
  if (isElement(node)) {
    const slot = assignedSlotOf(node);
    if (slot) return slot;
  }
  const p = parentNode(node);
  if (p && nodeType(p) === DOCUMENT_FRAGMENT_NODE) {
    const host = shadowHostOf(p);
    if (host) return host;
  }
  return p;
}

/** Parent element in the flat tree, crossing into the frame element from a frame's root. */
function flatParentElement(node) {
  let p = flatParent(node);
  while (p && !isElement(p)) {
    if (nodeType(p) === DOCUMENT_NODE) {
      const view = defaultViewOf(p);
      try {
        p = view && view.frameElement ? view.frameElement : null;
      } catch (_) {
        p = null;
      }
    } else p = flatParent(p);
  }
  return p;
}

// Closed shadow roots, handed over by the host: WebDriver's "Get Element Shadow Root"
// reaches closed roots in Chromium, and the host passes each one back through
// adoptClosedRoots(). Not a per-walk cache: a shadow root belongs to its host for the host's
// whole life (attachShadow works once), so this records the DOM, not a computed answer.
const closedRoots = new $WeakMap();
// Custom-element hosts the host side has probed: host -> 1 (no closed root), 2 (root read),
// 3 (the WebDriver endpoint could not say).
const probedHosts = new $WeakMap();
let closedRootCount = 0;

/** The shadow root of an element: open, or closed and handed over by the host. */
function shadowRootAny(el) {
  const sr = shadowRootOf(el);
  if (sr || !closedRootCount) return sr;
  return wmGet(closedRoots, el) || null;
}

/** Records what the host found for each probed element (null: no closed root). */
function adoptClosedRoots(hosts, roots, failed) {
  let adopted = 0;
  const n = hosts && hosts.length ? hosts.length : 0;
  for (let i = 0; i < n && i < 10000; i++) {
    const h = hosts[i];
    if (!isElement(h)) continue;
    const r = roots && roots[i];
    if (r && nodeType(r) === DOCUMENT_FRAGMENT_NODE && shadowHostOf(r) === h && !shadowRootOf(h)) {
      if (!wmGet(closedRoots, h)) {
        wmSet(closedRoots, h, r);
        closedRootCount++;
        adopted++;
      }
      wmSet(probedHosts, h, 2);
    } else wmSet(probedHosts, h, failed ? 3 : 1);
  }
  return adopted;
}

/**
 * Children of a node in the flat tree, in order: the shadow root's children for a host, the
 * assigned nodes (or fallback content) for a slot, the node's own children otherwise.
 */
function flatChildren(node) {
  const out = [];
  if (isElement(node)) {
    const sr = shadowRootAny(node);
    if (sr) {
      for (let c = firstChild(sr); c; c = nextSibling(c)) push(out, c);
      return out;
    }
    if (localNameOf(node) === "slot" && namespaceURIOf(node) === "http://www.w3.org/1999/xhtml") {
      let assigned = null;
      try {
        assigned = assignedNodes(node);
      } catch (_) {
        assigned = null;
      }
      if (assigned && assigned.length) {
        for (let i = 0; i < assigned.length; i++) push(out, assigned[i]);
        return out;
      }
    }
  }
  for (let c = firstChild(node); c; c = nextSibling(c)) push(out, c);
  return out;
}

const NEVER_RENDERED = new $Set([
  "script", "style", "noscript", "template", "head", "meta", "link", "title", "base",
  "param", "source", "track",
]);

/**
 * Why an element (with its whole subtree) is hidden from users, or "" when it is not.
 * visibility:hidden is not here: children may be visible again (see isVisibilityHidden).
 */
function subtreeHiddenReason(el, style) {
  const tag = localNameOf(el);
  if (setHas(NEVER_RENDERED, tag)) return "never-rendered";
  if (!style) return "no-style";
  if (cssValue(style, "display") === "none") return "display";
  if (getAttr(el, "aria-hidden") === "true") return "aria-hidden";
  if (hasAttr(el, "inert")) return "inert";
  return "";
}

function isVisibilityHidden(style) {
  const v = cssValue(style, "visibility");
  return v === "hidden" || v === "collapse";
}

/** content-visibility:hidden renders the element but skips its contents. */
function contentsSkipped(style) {
  return cssValue(style, "content-visibility") === "hidden";
}

/** True when the element is hidden from users (for names from hidden nodes, 2A). */
function isHiddenForName(el) {
  if (hiddenCache) {
    const c = wmGet(hiddenCache, el);
    if (c !== undefined) return c;
  }
  let hidden = false;
  const style = styleOf(el);
  if (!style) hidden = true;
  else if (subtreeHiddenReason(el, style)) hidden = true;
  else if (isVisibilityHidden(style)) hidden = true;
  else {
    const p = flatParentElement(el);
    if (p) {
      if (localNameOf(p) === "details" && !detailsOpenOf(p) && localNameOf(el) !== "summary")
        hidden = true;
      else if (contentsSkipped(styleOf(p))) hidden = true;
      else if (isHiddenAncestor(p)) hidden = true;
    }
  }
  if (hiddenCache) wmSet(hiddenCache, el, hidden);
  return hidden;
}

/** Like isHiddenForName but for an ancestor chain: visibility is inherited, so it is not
 * checked. Iterative: pages nest deeper than any call stack. */
function isHiddenAncestor(el) {
  let cur = el;
  while (cur) {
    const style = styleOf(cur);
    if (!style || subtreeHiddenReason(cur, style)) return true;
    const p = flatParentElement(cur);
    if (!p) return false;
    if (localNameOf(p) === "details" && !detailsOpenOf(p) && localNameOf(cur) !== "summary")
      return true;
    if (contentsSkipped(styleOf(p))) return true;
    cur = p;
  }
  return false;
}

function boxOf(el) {
  try {
    const r = rectOf(el);
    return { x: r.x, y: r.y, w: r.width, h: r.height };
  } catch (_) {
    return { x: 0, y: 0, w: 0, h: 0 };
  }
}

function viewportOf(el) {
  const w = viewOf(el);
  return { w: innerWidthOf(w), h: innerHeightOf(w) };
}

function intersectsViewport(box, vp) {
  return box.w > 0 && box.h > 0 && box.x < vp.w && box.y < vp.h && box.x + box.w > 0 && box.y + box.h > 0;
}
