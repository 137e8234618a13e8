//! 46_runs.js: the walk's text runs. Text joins the run that is its parent's last child as
//! the walk emits it; when the walk ends, runs are normalised, long ones split at their block
//! breaks, and the elements that hold long runs found (runHolders), so they get refs.
//!
//! Owns: text merging, where runs break, truncation of long runs into parts, the walk's result
//! (finishWalk). Must not: decide which nodes appear (45_walk, 47_visit) or mint refs.

/**
 * Adds text under output node p: merged into a text run that is p's last child, else a new
 * one. from: the piece (its text node, or the element it is shown in), kept per run, with
 * the frame it is in.
 */
function emitText(w, text, p, from, frame) {
  if (!text) return;
  const li = w.lastKid[p];
  if (li >= 0 && w.nodes[li].r === "text" && !w.nodes[li].s) {
    const n = w.nodes[li];
    n.v += text;
    // the last piece, for the holder of a run long enough to be cut (finishWalk)
    if (from && n.v.length > RUN_NEAR) w.runTo[li] = from;
    return;
  }
  if (!strTrim(text)) {
    // keep the space between neighbouring text pieces only
    return;
  }
  const t = newNode(p, "text");
  t.v = text;
  const i = emitNode(w, t, null);
  if (i >= 0 && from) {
    w.runFrom[i] = from;
    w.runTo[i] = from;
    if (frame) w.runFrame[i] = frame;
  }
}

/**
 * A space after the text run that is p's last child, if any (a break between text pieces),
 * its place in the run noted (finishWalk splits a long run at its breaks).
 */
function spaceAfterText(w, p) {
  const li = w.lastKid[p];
  if (li >= 0 && w.nodes[li].r === "text") {
    const n = w.nodes[li];
    n.v += " ";
    push(w.breaks, li);
    push(w.breaks, n.v.length);
  }
}

// A text run longer than this is cut in the text view (docs/reference/output.md#text-format,
// src/snapshot/render/mod.rs TEXT_KEEP). A longer run is split at its block breaks into runs
// of up to this many characters (short blocks together), so that a short text (an
// instruction) is never cut for the text around it; a block longer than this is a run of its
// own, and the element that holds it gets a ref, so that the cut line can say how to read it
// whole (`get REF`).
const RUN_KEEP = 300;
// A run's last piece is noted once its raw text is longer than this (only a run that may end
// longer than RUN_KEEP needs its holder).
const RUN_NEAR = 200;

/**
 * The walk's result: merged text normalised, long runs split (splitRun), nodes settled away
 * (settleClickable) left out, the holders of long text runs found (runHolders), and its
 * stats (ms since newWalk).
 */
function finishWalk(w) {
  const nodes = w.nodes;
  let long = null;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n.r !== "text") continue;
    const raw = n.v;
    const m = w.marks ? mapGet(w.marks, i) : undefined;
    if (m) markRun(n, m, NAME_CAP);
    else n.v = clean(normalizeWS(raw), NAME_CAP);
    if (n.v.length > RUN_KEEP) {
      // a long run is split at its blocks from its raw text (splitRuns): its marks, made
      // over the whole run, are left out, and its text shows unmarked
      if (n.s && n.s.marks) n.s.marks = undefined;
      if (!long) long = new $Map();
      mapSet(long, i, raw);
    }
  }
  const holders = [];
  const splits = long ? splitRuns(w, long, holders) : null;
  if (w.gone || splits) rebuildNodes(w, splits);
  return {
    nodes: w.nodes,
    els: w.els,
    cands: w.cands,
    frames: w.frames,
    // the shadow roots it read (72_memo watches them)
    shadows: w.shadows,
    notes: w.notes,
    runHolders: holders,
    // each text run's first and last piece, and its frame (search: the element a match is in)
    runFrom: w.runFrom,
    runTo: w.runTo,
    runFrame: w.runFrame,
    stats: { ms: $now() - w.t0, elements: w.elements, leftOut: w.leftOut, closedRead: w.closedRead,
      closedUnread: w.closedUnread, closedPending: w.closedPending, closedTags: w.closedTags,
      behindModal: w.behindModal },
  };
}

/**
 * Splits the long runs (node index -> raw text) at their block breaks: run index -> parts
 * [{v, el}] when a run splits, its long parts' holders pushed to `holders` ({node, el,
 * frame}; the node is the part's, made by rebuildNodes) or, for a run that stays whole, the
 * run's. Parts are the run's blocks, packed in order while they fit in RUN_KEEP characters.
 */
function splitRuns(w, long, holders) {
  const at = new $Map();
  const b = w.breaks;
  for (let k = 0; k < b.length; k += 2) {
    if (!mapHas(long, b[k])) continue;
    let l = mapGet(at, b[k]);
    if (!l) {
      l = [];
      mapSet(at, b[k], l);
    }
    push(l, b[k + 1]);
  }
  let splits = null;
  mapForEach(long, function (raw, i) {
    const parts = shownParts(packRun(raw, mapGet(at, i) || []));
    const frame = w.runFrame[i] | 0;
    // the element that holds the run holds each of its parts
    const el = w.runFrom[i] ? runHolder(w.runFrom[i], w.runTo[i] || w.runFrom[i]) : null;
    if (parts.length < 2) {
      if (el) push(holders, { node: w.nodes[i], el: el, frame: frame });
      return;
    }
    for (let k = 0; k < parts.length; k++) {
      if (el && parts[k].v.length > RUN_KEEP) push(holders, { part: parts[k], el: el, frame: frame });
    }
    if (!splits) splits = new $Map();
    mapSet(splits, i, parts);
  });
  return splits;
}

// A long run shows its first parts up to this many characters; the rest is one last part
// (cut in the text view, its line naming the ref of the run's holder: `get` reads it whole).
const RUN_SHOW = 600;

/**
 * The parts a long run shows: its first parts while they fit in RUN_SHOW characters (the first
 * always), then the rest as one part.
 */
function shownParts(parts) {
  let used = 0;
  let k = 0;
  while (k < parts.length && (k === 0 || used + parts[k].v.length <= RUN_SHOW)) {
    used += parts[k].v.length;
    k++;
  }
  if (k >= parts.length - 1) return parts;
  const rest = [];
  for (let j = k; j < parts.length; j++) push(rest, parts[j].v);
  const out = arrSlice(parts, 0, k);
  push(out, { v: clean(arrJoin(rest, " "), NAME_CAP) });
  return out;
}

/**
 * A long run's parts: its text cut at its breaks (offsets, in order), each piece normalised,
 * packed greedily into parts {v} of up to RUN_KEEP characters.
 */
function packRun(raw, breaks) {
  const parts = [];
  let cur = null;
  let start = 0;
  for (let k = 0; k <= breaks.length; k++) {
    const end = k < breaks.length ? breaks[k] : raw.length;
    const v = normalizeWS(strSlice(raw, start, end));
    start = end;
    if (!v) continue;
    if (cur && cur.v.length + 1 + v.length <= RUN_KEEP) {
      cur.v += " " + v;
      continue;
    }
    cur = { v: v };
    push(parts, cur);
  }
  for (let k = 0; k < parts.length; k++) parts[k].v = clean(parts[k].v, NAME_CAP);
  return parts;
}

/**
 * The node list again, with what settleClickable took away (w.gone) left out and split runs
 * (run index -> parts) as consecutive runs under the same parent; every index that points
 * into the list (parents, candidates, frames, run pieces) moved with it.
 */
function rebuildNodes(w, splits) {
  const ix = [];
  const nodes = [];
  const els = [];
  const from = [];
  const to = [];
  const frame = [];
  for (let i = 0; i < w.nodes.length; i++) {
    if (w.gone && setHas(w.gone, i)) {
      ix[i] = -1;
      continue;
    }
    ix[i] = nodes.length;
    const n = w.nodes[i];
    // a parent is never one taken away (their children were moved up first), nor a run
    if (i > 0) n.p = ix[n.p];
    const parts = splits ? mapGet(splits, i) : undefined;
    const count = parts ? parts.length : 1;
    for (let k = 0; k < count; k++) {
      const node = k === 0 ? n : newNode(n.p, "text");
      if (parts) {
        node.v = parts[k].v;
        if (k > 0 && n.s) node.s = { unseen: n.s.unseen };
        parts[k].node = node;
      }
      const j = nodes.length;
      push(nodes, node);
      push(els, w.els[i]);
      if (w.runFrom[i]) {
        from[j] = w.runFrom[i];
        to[j] = w.runTo[i];
        frame[j] = w.runFrame[i];
      }
    }
  }
  w.nodes = nodes;
  w.els = els;
  w.runFrom = from;
  w.runTo = to;
  w.runFrame = frame;
  for (let k = 0; k < w.cands.length; k++) w.cands[k].i = ix[w.cands[k].i];
  for (let k = 0; k < w.frames.length; k++) if (w.frames[k].i >= 0) w.frames[k].i = ix[w.frames[k].i];
}

/** The element a text piece (a text node, or the element it is shown in) belongs to. */
function pieceElement(x) {
  return nodeType(x) === TEXT_NODE ? flatParentElement(x) : x;
}

/** The nearest element that holds a run from piece `from` to piece `to` (flat tree). */
function runHolder(from, to) {
  const a = pieceElement(from);
  const b = pieceElement(to);
  if (!a || !b || a === b) return a;
  const up = new $Set();
  for (let e = a; e; e = flatParentElement(e)) setAdd(up, e);
  for (let e = b; e; e = flatParentElement(e)) if (setHas(up, e)) return e;
  return null;
}
