//! 70_fingerprint.js: the page fingerprint (docs/reference/detail.md#unchanged): URL, scroll, DOM size, interactive count and a
//! state checksum, so "unchanged since s3" is answered without a walk.
//!
//! Owns: a mutation epoch, bumped by a MutationObserver (attributes, children, text) and by
//! input/change events (values do not show up as mutations). Must not: walk the tree.

let epoch = 0;
const observed = new $WeakMap();
const fingerprints = new $Map();

/** Called with the mutation records while an action is watched (75_effects.js sets it). */
let mutationHook = null;

// what a higher layer drops at every change (72_memo: the kept walk, so that a page that
// changed holds no walk of its old elements)
const bumpHooks = [];
function onBump(fn) {
  push(bumpHooks, fn);
}

function bump(records) {
  epoch++;
  for (let i = 0; i < bumpHooks.length; i++) bumpHooks[i]();
  noteMutation();
  if (mutationHook && records) mutationHook(records);
}

function bumpOnEvent() {
  bump(null);
}

/**
 * Watches the subtree of a document or a shadow root (a document's observer does not see
 * into its shadow roots), once; a document's `input` and `change` events too (values show up
 * as no mutation; they cross shadow boundaries to it). A tree that cannot be watched is
 * always reported as changed.
 */
function observeTree(root) {
  if (wmHas(observed, root)) return;
  wmSet(observed, root, true);
  try {
    const mo = new $MutationObserver(bump);
    mo.observe(root, { attributes: true, childList: true, characterData: true, subtree: true });
    if (nodeType(root) === DOCUMENT_NODE) {
      addListener(root, "input", bumpOnEvent, true);
      addListener(root, "change", bumpOnEvent, true);
    }
  } catch (_) {
    epoch = -1;
  }
}

/** Watches the same-origin frames a walk read (their changes count too). */
function observeFrames(walked) {
  for (let i = 0; i < walked.frames.length; i++) {
    const f = walked.frames[i];
    const fe = f.unreadable ? null : walked.els[f.i];
    const fd = fe ? frameDocument(fe, tagOf(fe)) : null;
    if (fd) observeTree(fd);
  }
}

/** The window's scroll position, in whole CSS pixels. */
function scrollNow() {
  return [$Math.round(scrollXOf(window)), $Math.round(scrollYOf(window))];
}

function currentFingerprint(interactive) {
  const doc = document;
  return {
    url: clean(docURLOf(doc), 4096),
    scroll: scrollNow(),
    dom: htmlCollectionLength(docGetElementsByTagName(doc, "*")),
    interactive: interactive,
    epoch: epoch,
  };
}

function sameFingerprint(a, b) {
  return a.url === b.url && a.scroll[0] === b.scroll[0] && a.scroll[1] === b.scroll[1] &&
    a.dom === b.dom && a.epoch === b.epoch && a.epoch >= 0;
}

/** Remembers the fingerprint taken with snapshot n (one per snapshot, last 32 kept). */
function rememberFingerprint(n, fp) {
  mapSet(fingerprints, n, fp);
  if (mapSize(fingerprints) > 32) {
    let oldest = null;
    mapForEach(fingerprints, function (_v, k) {
      if (oldest === null || k < oldest) oldest = k;
    });
    mapDelete(fingerprints, oldest);
  }
}

/** {unchanged, known}: whether the page is as it was at snapshot n. */
function unchangedSince(n) {
  const fp = mapGet(fingerprints, n);
  if (!fp) return { unchanged: false, known: false };
  const now = currentFingerprint(fp.interactive);
  return { unchanged: sameFingerprint(fp, now), known: true, fingerprint: now };
}

// Rendered frames (docs/reference/faults.md#deadlines: the host never waits on page timers, promises or animation
// frames that a page can replace). `paint` starts counting two frames with the captured
// requestAnimationFrame and answers at once; the host polls it, bounded by its own clock.
let paintToken = 0;
let paintedToken = 0;
function paint(a) {
  if (a && a.start) {
    // force style and layout now, as a user would see the page
    try {
      const b = document.body || document.documentElement;
      if (b) rectOf(b);
    } catch (_) {
      // no layout yet
    }
    if (!$raf || visibilityStateOf(document) === "hidden") return { kind: "paint", done: true };
    const token = ++paintToken;
    try {
      $raf(window, function () {
        $raf(window, function () {
          if (token > paintedToken) paintedToken = token;
        });
      });
    } catch (_) {
      return { kind: "paint", done: true };
    }
    return { kind: "paint", done: false, token: token };
  }
  return { kind: "paint", done: paintedToken >= ((a && a.token) | 0) };
}
