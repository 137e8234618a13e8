//! 44_handoff.js: what the walk hands off to the host, which reaches with WebDriver what page
//! script cannot: cross-origin frames (numbered for f<k> refs, with the route into each) and
//! custom elements that may hold a closed shadow root (queued for the host to probe).
//!
//! Owns: frame numbers (for the page's life) and the last walk's records of cross-origin
//! frames and hosts to probe. Must not: walk into frames or shadow roots (47_visit does) or
//! switch frames (the host does).

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

/** Records a closed-root host's tag for the notes (the first five distinct, well-formed, capped). */
function noteClosed(w, tag) {
  if (w.closedTags.length < 5 && !setHas(w.closedTagSet, tag)) {
    setAdd(w.closedTagSet, tag);
    // element names may hold almost any character (createElement): well-formed, capped
    push(w.closedTags, clean(strSlice(tag, 0, 100)));
  }
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
