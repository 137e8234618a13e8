//! 72_memo.js: the last whole-page walk, kept while the page cannot have changed since, so
//! that the calls of one action (the journal's `describe`, the reply's walk before it) and the
//! next command on a page that stood still do not walk it again
//! (docs/reference/replies.md#settling "What a reply costs").
//!
//! Owns: when a walk may be reused. The walk is kept with what it was taken under (the
//! mutation epoch of 70_fingerprint, URL, scroll, viewport, DOM size, the focused element, and
//! no animation running) and answers a later walk of the same options only while all of these
//! are the same: every DOM change in the documents and shadow roots it read bumps the epoch
//! (a MutationObserver on each), an action drops it (90_api `invalidate`), and what changes a
//! page with no DOM change (scrolling, resizing, focus, a CSS animation or transition) is
//! compared. Must not: change a walk it hands out (its callers read it; 88_snapshot copies
//! what it would change).

// the kept walks: one walked behind an open modal dialog (behindModal), one not; each
// {walked, key, boxes, state, at}, or null
const memos = [null, null];
let memoHits = 0;
// whether the last memoWalk handed out a kept walk (88_snapshot: its walk_ms is 0 then)
let lastKept = false;

// the options that change what a walk yields, besides boxes (a walk with boxes answers one
// without) and behindModal (the same walk when no modal dialog is open)
function memoKey(opts) {
  return (opts.verbose ? "v" : "") + (opts.containerRefs ? "c" : "");
}

/** Whether an animation (a CSS animation or transition, a Web Animation) runs in doc. */
function animating(doc) {
  if (!docGetAnimations) return false;
  let list;
  try {
    list = docGetAnimations(doc);
  } catch (_) {
    return true;
  }
  for (let i = 0; i < list.length; i++) {
    let state = "";
    try {
      state = animPlayStateOf(list[i]);
    } catch (_) {
      return true;
    }
    if (state === "running" || state === "pending") return true;
  }
  return false;
}

/** What the page is now, as far as a kept walk depends on it (null: not keepable). */
function memoState(doc) {
  if (epoch < 0 || animating(doc)) return null;
  return {
    // the mutation epoch is the fingerprint's
    fp: currentFingerprint(-1),
    active: deepActiveElement(doc),
    win: [innerWidthOf(window), innerHeightOf(window)],
  };
}

function sameState(a, b) {
  return sameFingerprint(a.fp, b.fp) && a.active === b.active &&
    a.win[0] === b.win[0] && a.win[1] === b.win[1];
}

/** The kept walk that answers a walk of opts now (state: memoState; no older than maxAge ms
 * when given), or null. */
function keptWalk(doc, opts, state, maxAge) {
  const key = memoKey(opts);
  const max = opts.maxNodes > 0 ? opts.maxNodes : 0;
  // behind an open modal dialog, a walk that goes behind it is another walk (asked only
  // when a kept walk of the other kind would do: a query of the whole document)
  let modal = null;
  for (let b = 0; b < 2; b++) {
    const m = memos[b];
    if (!m || m.key !== key || (opts.boxes && !m.boxes) || !sameState(m.state, state)) continue;
    if (maxAge > 0 && $now() - m.at > maxAge) continue;
    if (b !== (opts.behindModal ? 1 : 0)) {
      if (modal === null) modal = openModal(doc) !== null;
      if (modal) continue;
    }
    // a walk cut at a node budget is another walk (a kept one was never cut)
    if (max && m.walked.nodes.length > max) continue;
    return m.walked;
  }
  return null;
}

/**
 * walk(doc, opts), or the kept walk when it was taken with the same options and the page has
 * not changed since. Only whole-page walks of the top document are kept (no rootEl, frame,
 * viewport cut, warm-up slice, or a node budget that cut it). fresh: walk all the same (and
 * keep that walk); maxAge: only a walk at most that old (ms; 0: any). The walk handed out
 * must not be changed.
 */
function memoWalk(doc, opts, fresh, maxAge) {
  if (doc !== document || opts.rootEl || opts.frame > 0 || opts.viewport || opts.warm) {
    lastKept = false;
    return walk(doc, opts);
  }
  const now = memoState(doc);
  const kept = !fresh && now ? keptWalk(doc, opts, now, maxAge | 0) : null;
  lastKept = !!kept;
  if (kept) {
    memoHits++;
    return kept;
  }
  const slot = opts.behindModal ? 1 : 0;
  memos[slot] = null;
  const walked = walk(doc, opts);
  if (!now || walked.stats.leftOut > 0) return walked;
  // what the walk read is watched from now on: its same-origin frames and shadow roots
  observeFrames(walked);
  for (let i = 0; i < walked.shadows.length; i++) observeTree(walked.shadows[i]);
  memos[slot] = { walked: walked, key: memoKey(opts), boxes: !!opts.boxes, state: now, at: $now() };
  return walked;
}

/** Drops the kept walks (an action may change what no mutation shows). */
function forgetWalk() {
  memos[0] = null;
  memos[1] = null;
}
// a change drops them at once: a kept walk of a page that changed is never handed out, and
// its elements (some removed from the page by now) are not held
onBump(forgetWalk);
