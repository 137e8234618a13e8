//! 12_caches.js: the per-walk cache region: beginCaches() / endCaches() (and the warm-up's
//! openCaches() / resumeCaches()), the cache slots of 15_style and 20_roles, and the hook
//! through which higher layers (30_names) reset their own caches with these.
//!
//! Owns: when caches exist. Only 90_api begins and ends a region (around each engine call,
//! ending it in `finally`), so nothing computed survives into the next snapshot. Must not:
//! compute anything; the layers above fill the slots.

// open regions (nested regions share the outermost one's caches)
let cacheDepth = 0;
// element -> its style record (15_style's styleRecOf)
let styleCache = null;
// The style attribute of the element last asked about, within a cache region (set only
// while one is open, cleared when the outermost ends): the walk asks up to four questions of
// each element's style attribute in a row (may visibility, opacity, position,
// content-visibility be set on it), 20,000 reads at 10,000 elements.
let inlineEl = null;
let inlineText = null;
// The shadow root of the element last asked about, kept the same way (hostRootOf): the walk
// asks it of each element several times in a row (may a :host rule style it, does the walk
// go into it).
let hostEl = null;
let hostRoot = null;
// element -> whether it is hidden for naming (15_style's isHiddenForName)
let hiddenCache = null;
// element -> whether it or an ancestor hides its subtree (visibility aside)
let ancCache = null;
// Per-walk memo for 20_roles (table kinds, and whether an svg root has content: tables and
// svg roots are different elements, so the keys never collide); lives here so it is reset
// with the others.
let tableKindCache = null;

// The window of the document last asked about (viewOf): a walk asks it of each element, and
// all but a frame's elements share one document.
let viewDoc = null;
let viewWin = null;

// The element styleRecOf last answered for, and its record: the walk asks for an element's
// style, then at once for its display (subtreeHiddenReason), without a second map lookup.
let recEl = null;
let recLast = null;
// The tree scope -> { bits, gates } map of 15_style (scopeInfoOf), and the scope last asked
// about with its answer.
let scopeFlags = null;
let lastScope = null;
let lastScopeInfo = null;

// Per-walk caches of higher layers (30_names) register here, so this layer resets them with
// its own without naming anything above it (js/README.md: lower numbers only).
const cacheHooks = [];
function onCaches(begin, end, park, resume) {
  push(cacheHooks, { begin: begin, end: end, park: park, resume: resume });
}

/**
 * Begins a cache region (made fresh when none is open; nested regions share the outer one).
 * Called by 90_api only, around each engine call, with endCaches() in `finally`: lower
 * layers use the caches and never begin or end them.
 */
function beginCaches() {
  if (cacheDepth++ === 0) {
    styleCache = new $Map();
    hiddenCache = new $Map();
    ancCache = new $Map();
    scopeFlags = new $Map();
    lastScope = null;
    tableKindCache = new $Map();
    for (let i = 0; i < cacheHooks.length; i++) cacheHooks[i].begin();
  }
}
/** Ends a cache region; the outermost drops every cache (and the hooks' caches). */
function endCaches() {
  if (--cacheDepth === 0) {
    styleCache = null;
    recEl = null;
    recLast = null;
    viewDoc = null;
    viewWin = null;
    inlineEl = null;
    hostEl = null;
    hostRoot = null;
    hiddenCache = null;
    ancCache = null;
    scopeFlags = null;
    lastScope = null;
    tableKindCache = null;
    for (let i = 0; i < cacheHooks.length; i++) cacheHooks[i].end();
  }
}

/**
 * The open cache region's caches, for resumeCaches() to open a later region with (90_api's
 * warm-up keeps them across its slices, then ends the region as usual: every command that
 * comes between two slices opens a region of its own, with fresh caches).
 */
function openCaches() {
  const parked = {
    style: styleCache,
    hidden: hiddenCache,
    anc: ancCache,
    scope: scopeFlags,
    table: tableKindCache,
    hooks: [],
  };
  for (let i = 0; i < cacheHooks.length; i++) push(parked.hooks, cacheHooks[i].park());
  return parked;
}

/**
 * beginCaches(), with the caches openCaches() gave when this region is the outermost: the
 * warm-up's slices (90_api) resume one walk's caches.
 */
function resumeCaches(parked) {
  if (cacheDepth++ === 0) {
    styleCache = parked.style;
    hiddenCache = parked.hidden;
    ancCache = parked.anc;
    scopeFlags = parked.scope;
    lastScope = null;
    tableKindCache = parked.table;
    for (let i = 0; i < cacheHooks.length; i++) cacheHooks[i].resume(parked.hooks[i]);
  }
}
