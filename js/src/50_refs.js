//! 50_refs.js: ref minting (s<n>e<m>, f<k> for frames) and resolution.
//!
//! Owns: the ref maps. An element keeps its ref while its role and name hold; refs are never
//! reused in a page. The authoritative map lives in this closure; window.__ariaRefs.refs is a
//! public view the page can read (and tamper with: a mismatch is refused, never trusted).

const refByEl = new $WeakMap();
const refEntries = new $Map();
const frameCounters = new $Map();
const publicRefs = $create(null);

function nextCounter(k) {
  const m = (mapGet(frameCounters, k) || 0) + 1;
  mapSet(frameCounters, k, m);
  return m;
}

function weak(el) {
  return $WeakRef ? new $WeakRef(el) : { el: el };
}
function deref(w) {
  return wrDeref ? wrDeref(w) : w.el;
}

// Icon fonts draw their glyphs with characters of the Unicode Private Use Areas (U+E000-
// U+F8FF, and planes 15 and 16): a tree item whose folder glyph changes with its state, or a
// button whose icon flips, is still the same element to a user. Names are compared without
// them when keeping a ref (docs/reference/refs.md#stability: an element keeps its ref while its role and name hold);
// the name shown stays the one the browser computes, glyphs included.
const PRIVATE_USE_RE = re("[\\uE000-\\uF8FF\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}]", "gu");

/** Whether two names are the same for keeping a ref: equal, or equal without private-use glyphs. */
function sameRefName(a, b) {
  if (a === b) return true;
  return normalizeWS(strReplace(a, PRIVATE_USE_RE, "")) === normalizeWS(strReplace(b, PRIVATE_USE_RE, ""));
}

/**
 * Gives refs to the walk's candidates. Above 100 candidates only tier 1 gets refs unless
 * allRefs (docs/reference/refs.md#which-elements-get-refs, compact refs). Returns {refs, withheld}.
 */
function mintRefs(walked, n, allRefs) {
  const cands = walked.cands;
  // a kept walk (72_memo) is minted again: the refs of its last minting go first
  if (walked.minted) {
    for (let i = 0; i < cands.length; i++) {
      // (a dropped candidate's node may be gone)
      const nd = walked.nodes[cands[i].i];
      if (nd) {
        nd.ref = undefined;
        nd.c = undefined;
      }
    }
  }
  walked.minted = true;
  let real = 0;
  for (let i = 0; i < cands.length; i++) if (!cands[i].container && !cands[i].dropped) real++;
  const compact = !allRefs && real > 100;
  let withheld = 0;
  let count = 0;
  for (let i = 0; i < cands.length; i++) {
    const c = cands[i];
    // a listened container (45_walk settleClickable): its listener serves what it holds
    if (c.dropped) continue;
    if (compact && c.tier > 1) {
      withheld++;
      continue;
    }
    const prev = wmGet(refByEl, c.el);
    // what the ref is kept by: the name, or a nameless generic's words (45_walk genericWords)
    const key = c.key !== undefined ? c.key : c.name;
    let ref;
    // A ref whose public entry the page rewrote (or deleted) stays refused: the element gets
    // a new ref instead of the page's edit being silently undone.
    if (prev && publicRefs[prev.ref] !== c.el) prev.tampered = true;
    if (prev && !prev.tampered && prev.role === c.role && sameRefName(prev.name, key) && mapHas(refEntries, prev.ref)) {
      // kept: its public entry was just read and holds this element (not tampered), so it
      // is not written again; the name it now goes by (another glyph) is the one kept
      ref = prev.ref;
      prev.name = key;
      prev.words = key !== c.name;
    } else {
      ref = (c.frame ? "f" + c.frame : "") + "s" + n + "e" + nextCounter(c.frame);
      // words: the entry's name is a nameless generic's words, its identity, not a name
      const entry = { ref: ref, role: c.role, name: key, words: key !== c.name, w: weak(c.el), doc: ownerDocument(c.el) };
      wmSet(refByEl, c.el, entry);
      mapSet(refEntries, ref, entry);
      publicRefs[ref] = c.el;
    }
    walked.nodes[c.i].ref = ref;
    if (c.container) walked.nodes[c.i].c = 1;
    else count++;
  }
  return { refs: count, withheld: withheld };
}

const SIMILAR_MIN = 0.5;

/** Similarity of two names (shared prefix and suffix over the longer length). */
function similarNames(a, b) {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  const max = la > lb ? la : lb;
  if (!max) return true;
  let pre = 0;
  while (pre < la && pre < lb && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < la - pre && suf < lb - pre && a[la - 1 - suf] === b[lb - 1 - suf]) suf++;
  return (pre + suf) / max >= SIMILAR_MIN;
}

/**
 * Resolves a ref to its element. Expected failures are tagged values, never exceptions:
 * {kind: "unknown" | "gone" | "changed" | "tampered", ...}; success is {kind: "ok", el,
 * role, name, minor}. seeHidden: an element hidden now still resolves (a read after an
 * action that hid it).
 */
function resolveRef(ref, seeHidden) {
  const e = mapGet(refEntries, ref);
  if (!e) return { kind: "unknown", ref: ref };
  const el = deref(e.w);
  if (!el || !isConnected(el) || ownerDocument(el) !== e.doc) {
    return { kind: "gone", ref: ref, role: e.role, name: e.name };
  }
  if (e.tampered || publicRefs[ref] !== el) {
    e.tampered = true;
    return { kind: "tampered", ref: ref, role: e.role, name: e.name };
  }
  let role = getRole(el);
  if (!role || setHas(INLINE_TEXT_ROLES, role)) role = e.role === "generic" ? "generic" : role || "generic";
  const name = role === "generic" ? e.name : getName(el, role);
  if (!seeHidden && isHiddenForName(el)) return { kind: "gone", ref: ref, role: e.role, name: e.name, hidden: true };
  if (role !== e.role) return { kind: "changed", ref: ref, was: [e.role, e.name], now: [role, name] };
  if (!sameRefName(name, e.name)) {
    if (similarNames(name, e.name)) return { kind: "ok", el: el, role: role, name: name, minor: true };
    return { kind: "changed", ref: ref, was: [e.role, e.name], now: [role, name] };
  }
  return { kind: "ok", el: el, role: role, name: name, minor: false, words: role === "generic" && !!e.words };
}

/** The ref of an element, minting one (tier aside) when it has none, for search results. */
function refFor(el, role, name, n, frame) {
  const prev = wmGet(refByEl, el);
  if (prev && prev.role === role && sameRefName(prev.name, name)) {
    prev.name = name;
    return prev.ref;
  }
  const ref = (frame ? "f" + frame : "") + "s" + n + "e" + nextCounter(frame);
  const entry = { ref: ref, role: role, name: name, w: weak(el), doc: ownerDocument(el) };
  wmSet(refByEl, el, entry);
  mapSet(refEntries, ref, entry);
  publicRefs[ref] = el;
  return ref;
}

/** role and name of an element as a ref entry keeps them (generic for elements without
 * a role or with an inline text role: resolveRef answers those with the name kept). */
function refIdentity(el) {
  let role = getRole(el);
  if (!role || setHas(INLINE_TEXT_ROLES, role)) role = "generic";
  let name = "";
  try {
    name = getName(el, role);
  } catch (_) {
    name = "";
  }
  // a nameless generic goes by its words (no name: 45_walk genericWords)
  if (!name && role === "generic") return { role: role, name: clean(normalizeWS(headText(el, 160)), 100), words: true };
  return { role: role, name: name };
}

/**
 * The first `max` or so characters of el's text (its text nodes in order), without reading
 * the whole of it: the body of a 100,000-element page holds megabytes.
 */
function headText(el, max) {
  let out = "";
  const stack = [el];
  while (stack.length && out.length < max) {
    const n = stack[stack.length - 1];
    stack.length = stack.length - 1;
    const t = nodeType(n);
    if (t === TEXT_NODE) {
      out += " " + (nodeValue(n) || "");
      continue;
    }
    if (t !== ELEMENT_NODE) continue;
    const ln = localNameOf(n);
    if (ln === "script" || ln === "style" || ln === "template") continue;
    for (let c = lastChildOf(n); c; c = previousSiblingOf(c)) push(stack, c);
  }
  return out;
}
