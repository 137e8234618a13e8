//! 17_listen.js: which elements the page listens to for pointer input (click, mousedown,
//! mouseup, dblclick, pointerdown, pointerup), however the listener was attached, and which
//! elements show a pointer cursor of their own (docs/behaviour.md#what-a-user-can-click).
//!
//! Owns: the sandbox's side of the listener hook (src/engine/hooks.rs, CLICK_HOOK) and the
//! listener kinds of an element. Must not: decide what the walk shows (45_walk and 47_visit
//! do) or trust what the page's own world says beyond "listened to": a page that lies can only
//! make an element clickable, which `role=button` does as well.
//!
//! The sandbox cannot see the page's JS state, so the main world's hook (run before the
//! page's scripts in BiDi sessions) wraps EventTarget.prototype.addEventListener /
//! removeEventListener and the `onclick`-family IDL setters and keeps the targets. DOM
//! events cross worlds, JS state does not: to learn them, the engine dispatches one event of
//! a secret type on the document (the secret is per install: the host writes it in both the
//! hook and the line below, so no page can ask or answer); the hook answers synchronously by
//! dispatching a marker event on each live target, which a capture listener of the engine on
//! the document collects (composedPath()[0]: the real target, open shadow roots included).
//! Targets inside closed shadow roots get no marker (a marker leaving a closed tree names its
//! host), so they are not detected.

// The per-install secret (the host rewrites this line in the preloaded sandbox engine); empty:
// no hook to ask (an engine installed on first use, a session without BiDi).
const LISTEN_KEY = "";

// Listener kinds: the mouse-button family Chromium calls clickable (click, mousedown, mouseup:
// Blink's AXObject::IsClickable through Node::HasAnyEventListeners(MouseButtonEventTypes)),
// and the pointer family (dblclick, pointerdown, pointerup), which takes clicks as well.
// CAPTURE: a click-family listener in the capture phase on the element itself: it hears
// clicks on its descendants before they do (delegation at a root: React 17+ attaches every
// listener to its root container in both phases).
const LISTEN_MOUSE = 1;
const LISTEN_POINTER = 2;
const LISTEN_CAPTURE = 4;

// The on* content attributes of each kind (the sandbox reads attributes as they are), found
// with one query per tree scope and walk.
const MOUSE_ATTRS = "[onclick], [onmousedown], [onmouseup]";
const POINTER_ATTRS = "[ondblclick], [onpointerdown], [onpointerup]";

// per walk: document -> Map(element -> kinds) (null: no hook there), and tree scope ->
// Map(element -> kinds of its on* attributes); the last ones asked, to skip the lookups
let listenCache = null;
let attrCache = null;
let lastListenDoc = null;
let lastListenMap = null;
let lastAttrScope = null;
let lastAttrMap = null;
// listenKinds' last tree scope, and the two maps it asks there (null: nothing to ask)
let kindScope = null;
let kindHook = null;
let kindAttr = null;
function resetListen(c) {
  listenCache = c ? c.hook : null;
  attrCache = c ? c.attr : null;
  lastListenDoc = null;
  lastListenMap = null;
  lastAttrScope = null;
  lastAttrMap = null;
  kindScope = null;
  kindHook = null;
  kindAttr = null;
}
onCaches(
  function () {
    resetListen({ hook: new $Map(), attr: new $Map() });
  },
  function () {
    resetListen(null);
  },
  function () {
    return { hook: listenCache, attr: attrCache };
  },
  function (p) {
    resetListen(p);
  },
);

/**
 * The hook's answer for one document: element -> kinds, from the markers the hook dispatches
 * while the query event is being dispatched (all synchronous). null without a hook.
 */
function askHook(doc) {
  const found = new $Map();
  const mouse = LISTEN_KEY + "-m";
  const pointer = LISTEN_KEY + "-p";
  const capture = LISTEN_KEY + "-c";
  let heard = 0;
  const on = function (e) {
    heard++;
    const path = eventComposedPath(e);
    const t = path.length ? path[0] : null;
    if (!t || nodeType(t) !== ELEMENT_NODE) return;
    const type = eventTypeOf(e);
    const k = type === mouse ? LISTEN_MOUSE : type === pointer ? LISTEN_POINTER : LISTEN_CAPTURE;
    mapSet(found, t, (mapGet(found, t) | 0) | k);
  };
  const ack = LISTEN_KEY + "-a";
  try {
    addListener(doc, mouse, on, true);
    addListener(doc, pointer, on, true);
    addListener(doc, capture, on, true);
    addListener(doc, ack, on, true);
    dispatchEvent(doc, new $Event(LISTEN_KEY + "-q"));
  } catch (_) {
    return null;
  } finally {
    removeListener(doc, mouse, on, true);
    removeListener(doc, pointer, on, true);
    removeListener(doc, capture, on, true);
    removeListener(doc, ack, on, true);
  }
  // the hook ends every answer with an acknowledgement on the document: without one, no hook
  // answered (a document older than the preload)
  return heard ? found : null;
}

/** element -> kinds for doc, asked once per cache region (uncached outside one). */
function listenMapOf(doc) {
  if (!LISTEN_KEY || !doc) return null;
  if (doc === lastListenDoc) return lastListenMap;
  let m;
  if (listenCache) m = mapGet(listenCache, doc);
  if (m === undefined) {
    m = askHook(doc);
    if (listenCache) mapSet(listenCache, doc, m);
  }
  if (listenCache) {
    lastListenDoc = doc;
    lastListenMap = m;
  }
  return m;
}

/** element -> kinds of its on* content attributes, for one tree scope (a document or a
 * shadow root), from one query per cache region. */
function attrMapOf(scope) {
  if (scope === lastAttrScope) return lastAttrMap;
  let m = attrCache ? mapGet(attrCache, scope) : undefined;
  if (m === undefined) {
    m = new $Map();
    const isDoc = nodeType(scope) === DOCUMENT_NODE;
    const kinds = [LISTEN_MOUSE, LISTEN_POINTER];
    const sels = [MOUSE_ATTRS, POINTER_ATTRS];
    for (let k = 0; k < 2; k++) {
      let list;
      try {
        list = isDoc ? docQuerySelectorAll(scope, sels[k]) : fragQuerySelectorAll(scope, sels[k]);
      } catch (_) {
        continue;
      }
      const n = nodeListLength(list);
      for (let i = 0; i < n; i++) {
        const el = nodeListItem(list, i);
        if (!LISTEN_KEY && !madeHandler(el, k)) continue;
        mapSet(m, el, (mapGet(m, el) | 0) | kinds[k]);
      }
    }
    if (attrCache) mapSet(attrCache, scope, m);
  }
  if (attrCache) {
    lastAttrScope = scope;
    lastAttrMap = m;
  }
  return m;
}

/**
 * Whether an element's on* attributes of family k (0: mouse, 1: pointer) made a handler, as
 * this realm sees it (the page's own realm, without BiDi): a handler the page's CSP refused
 * reads null. An element whose getters this realm cannot call counts.
 */
function madeHandler(el, k) {
  const getters = ON_GETTERS[k];
  for (let i = 0; i < getters.length; i++) {
    try {
      if (getters[i](el) != null) return true;
    } catch (_) {
      return true;
    }
  }
  return false;
}

/**
 * The listener kinds of an element (LISTEN_* bits): the hook's answer, the on* content
 * attributes, and the `onclick` IDL property where this realm can see it (the page's own realm
 * without BiDi; with the hook, it tells property assignments itself). attrs: false when the
 * caller knows el has no attributes; scope: el's tree scope when known.
 */
function listenKinds(el, attrs, scope) {
  const root = scope || getRootNode(el);
  if (root !== kindScope || !listenCache) {
    // With the hook's answer, a document's on* attributes are the hook's to tell: an attribute
    // is a listener only when it made a handler (a page whose CSP forbids inline handlers gets
    // none, and Chromium's tree then no clickable: checked with getFullAXTree under
    // `script-src 'none'`). The hook asks the document only: in shadow roots, and without a
    // hook, the attribute counts (checked with the IDL getter where this realm can see it).
    const t = nodeType(root);
    const isDoc = t === DOCUMENT_NODE;
    const hook = listenMapOf(isDoc ? root : ownerDocument(el));
    const attr = t === DOCUMENT_FRAGMENT_NODE || (isDoc && !hook) ? attrMapOf(root) : null;
    // a scope where nothing listens (most of them) costs one comparison an element
    kindHook = hook && mapSize(hook) ? hook : null;
    kindAttr = attr && mapSize(attr) ? attr : null;
    kindScope = listenCache ? root : null;
  }
  let k = kindHook ? mapGet(kindHook, el) | 0 : 0;
  if (kindAttr && attrs !== false) k |= mapGet(kindAttr, el) | 0;
  if (!LISTEN_KEY && !(k & LISTEN_MOUSE)) {
    try {
      if (typeof onclickOf(el) === "function") k |= LISTEN_MOUSE;
    } catch (_) {
      // not an HTMLElement
    }
  }
  return k;
}

/** Whether an HTML `a` without href is clickable the way Blink's tree tells it (a link). */
function anchorListened(el) {
  return (listenKinds(el) & LISTEN_MOUSE) !== 0;
}

/**
 * Whether el shows a pointer cursor of its own: its computed `cursor` is `pointer` and its
 * flat-tree parent's is not (the cursor inherited from an ancestor tells nothing new, as
 * Playwright's AI snapshot marks `[cursor=pointer]` only where the parent's differs).
 */
function ownPointerCursor(el, style) {
  if (!style || cssValue(style, "cursor") !== "pointer") return false;
  const p = flatParentElement(el);
  if (!p) return true;
  const ps = styleOf(p);
  return !ps || cssValue(ps, "cursor") !== "pointer";
}
