//! 10_dom.js: shadow-aware tree access: flat-tree parents and children (shadow roots, slots,
//! frames), closed shadow roots, the deep element at a point.
//!
//! Owns: the flat tree, and the record of closed shadow roots (handed over by the host or
//! seen by the attachShadow hook). Must not: read styles or boxes (15_style), hold per-walk
//! caches (12_caches), or compute roles or names.

function isElement(n) {
  return n !== null && nodeType(n) === ELEMENT_NODE;
}

function tagOf(el) {
  return tagOfLocal(el, localNameOf(el));
}

/** tagOf with el's local name already read (the walk reads it once per element). */
function tagOfLocal(el, ln) {
  const ns = namespaceURIOf(el);
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

// docs/reference/browsers.md#closed-shadow-roots: closed shadow roots are read whenever they were attached. Preloaded, the engine
// runs in each new top-level document before any page script, so it sees every closed root
// made by script as it is made: Element.prototype.attachShadow is wrapped once, the wrapper
// calls the original with the page's own arguments, returns its result unchanged, keeps its
// name, length and property attributes, and records closed roots in the engine-private map.
// Declarative closed roots (<template shadowrootmode="closed">) are made by the parser without
// attachShadow; the host probes custom elements for those through WebDriver.
const shadowModeOf = getter(D.ShadowRoot.prototype, "mode");
function hookAttachShadow() {
  const P = window.Element && window.Element.prototype;
  const d = P ? desc(P, "attachShadow") : null;
  const original = d && d.value;
  if (typeof original !== "function") return;
  const wrapped = function attachShadow(init) {
    const root = $apply(original, this, arguments);
    try {
      if (root && shadowModeOf(root) === "closed" && !wmGet(closedRoots, this)) {
        wmSet(closedRoots, this, root);
        closedRootCount++;
      }
    } catch (_) {
      // never let bookkeeping break the page's call
    }
    return root;
  };
  $defineProperty(P, "attachShadow", {
    value: wrapped,
    writable: d.writable,
    enumerable: d.enumerable,
    configurable: d.configurable,
  });
}
if (PRELOADED) {
  try {
    hookAttachShadow();
  } catch (_) {
    // a realm without shadow DOM
  }
}

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

/** Deep element at a point, through open shadow roots (and closed ones the host handed over). */
function deepElementFromPoint(doc, x, y) {
  let el = elementFromPoint(doc, x, y);
  for (let guard = 0; el && guard < 32; guard++) {
    const sr = shadowRootAny(el);
    if (!sr || !shadowElementFromPoint) break;
    const inner = shadowElementFromPoint(sr, x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

/** Flat-tree containment (shadow hosts contain their shadow content). */
function flatContains(ancestor, node) {
  for (let n = node; n; n = flatParent(n)) if (n === ancestor) return true;
  return false;
}
