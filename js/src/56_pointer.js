//! 56_pointer.js: where pointer input reaches a ref: the part of it a user can see (its
//! boxes cut by the viewport and by every scroll container around it), scrolled into view,
//! and the point of that part nearest its centre that a hit test finds it at; scrolling an
//! element's own scroll container; HTML drag and drop for `drag`.
//!
//! Owns: hit points, clipping by ancestors, element scrolling, the drag-and-drop events the
//! browser does not fire for WebDriver input. Must not: send input (the host sends real
//! pointer and key input through WebDriver) or mint refs.

/** A rectangle {l, t, r, b} (CSS pixels of el's viewport). */
function rect4(l, t, r, b) {
  return { l: l, t: t, r: r, b: b };
}

function rectArea(x) {
  return x.r > x.l && x.b > x.t ? (x.r - x.l) * (x.b - x.t) : 0;
}

function rectMeet(x, y) {
  return rect4($Math.max(x.l, y.l), $Math.max(x.t, y.t), $Math.min(x.r, y.r), $Math.min(x.b, y.b));
}

/**
 * The layout viewport of el's document, without its scroll bars: (0, 0) to the root's
 * client size (CSSOM View: the scrolling area a user sees), the window's inner size where the
 * root reports none.
 */
function viewRect(el) {
  const view = viewOf(el);
  let w = innerWidthOf(view);
  let h = innerHeightOf(view);
  const root = docElementOf(ownerDocument(el));
  if (root) {
    const cw = clientWidthOf(root);
    const ch = clientHeightOf(root);
    if (cw > 0 && cw < w) w = cw;
    if (ch > 0 && ch < h) h = ch;
  }
  return rect4(0, 0, w, h);
}

function hasTransform(st) {
  const t = cssValue(st, "transform");
  return !!t && t !== "none";
}

/**
 * What of el's box can be painted at all: the viewport met with the padding box of every
 * ancestor whose overflow clips (CSS Overflow 3: `hidden`, `scroll`, `auto`, `clip` clip the
 * content to the padding box; scroll bars are not content, so the client area is taken).
 * Only ancestors on el's containing-block chain clip it (CSS 2.1 11.1.1: overflow clips the
 * descendants whose containing block is the box or inside it): an absolutely positioned
 * element passes static ancestors, a fixed one every ancestor up to the viewport, unless a
 * transform makes an ancestor their containing block (CSS Transforms 1). The root and body
 * are left out: their overflow is the viewport's. {clip, by}: by is the ancestor whose box
 * cut the most, null when only the viewport cuts.
 */
function clipOf(el) {
  let clip = viewRect(el);
  let by = null;
  const doc = ownerDocument(el);
  const body = docBodyOf(doc);
  const root = docElementOf(doc);
  const own = styleOf(el);
  let pos = own ? cssValue(own, "position") : "static";
  for (let a = flatParentElement(el); a && a !== body && a !== root; a = flatParentElement(a)) {
    if (ownerDocument(a) !== doc) break;
    const st = styleOf(a);
    if (!st) continue;
    const apos = cssValue(st, "position");
    const tf = hasTransform(st);
    if (pos === "fixed" && !tf) continue;
    if (pos === "absolute" && apos === "static" && !tf) continue;
    // a is on el's containing-block chain from here on
    if (!tf) pos = apos;
    else pos = "relative";
    const ox = cssValue(st, "overflow-x");
    const oy = cssValue(st, "overflow-y");
    if (ox === "visible" && oy === "visible") continue;
    const ar = rectOf(a);
    if (ar.width === 0 && ar.height === 0) continue;
    const left = ar.left + clientLeftOf(a);
    const top = ar.top + clientTopOf(a);
    const box = rect4(
      ox === "visible" ? clip.l : left,
      oy === "visible" ? clip.t : top,
      ox === "visible" ? clip.r : left + clientWidthOf(a),
      oy === "visible" ? clip.b : top + clientHeightOf(a));
    const next = rectMeet(clip, box);
    if (rectArea(next) < rectArea(clip) && !by) by = a;
    clip = next;
  }
  return { clip: clip, by: by };
}

/** el's boxes (one per line of an inline element: CSSOM View getClientRects), as rects. */
function boxesOf(el) {
  const out = [];
  let list = null;
  try {
    list = clientRectsOf(el);
  } catch (_) {
    list = null;
  }
  const n = list ? rectListLength(list) : 0;
  for (let i = 0; i < n && i < 64; i++) {
    const r = list[i];
    if (r.width > 0 && r.height > 0) push(out, rect4(r.left, r.top, r.right, r.bottom));
  }
  if (!out.length) {
    const r = rectOf(el);
    if (r.width > 0 || r.height > 0) push(out, rect4(r.left, r.top, r.right, r.bottom));
  }
  return out;
}

/** The parts of el's boxes a user can see (clipOf), and what clipped them. */
function visibleParts(el) {
  const c = clipOf(el);
  const boxes = boxesOf(el);
  const parts = [];
  for (let i = 0; i < boxes.length; i++) {
    const m = rectMeet(boxes[i], c.clip);
    if (m.r - m.l >= 1 && m.b - m.t >= 1) push(parts, m);
  }
  return { parts: parts, boxes: boxes, by: c.by, clip: c.clip };
}

/**
 * Scrolls el into view when a part of it that could be seen is not: its whole box when it
 * fits in what clips it, else enough to show any of it. scrollIntoView scrolls every scroll
 * container around el and then the viewport (CSSOM View: "scroll an element into view"
 * runs for each ancestor scrolling box), which a check against the viewport alone misses:
 * a target below the fold of a scrolling div lies inside the viewport's bounds, clipped.
 */
function bringIntoView(el) {
  let v = visibleParts(el);
  if (!v.boxes.length) return v;
  const r = rectOf(el);
  const seen = sumArea(v.parts);
  const all = sumArea(v.boxes);
  const fits = r.width <= v.clip.r - v.clip.l + 1 && r.height <= v.clip.b - v.clip.t + 1;
  if (seen > 0 && (seen >= all - 1 || !fits)) return v;
  try {
    $scrollIntoView(el, { block: "center", inline: "center", behavior: "instant" });
  } catch (_) {
    $scrollIntoView(el);
  }
  v = visibleParts(el);
  return v;
}

function sumArea(list) {
  let s = 0;
  for (let i = 0; i < list.length; i++) s += rectArea(list[i]);
  return s;
}

/** Whether a hit test that found `hit` reached el: el itself, its content, or its label. */
function hitsTarget(hit, el) {
  return !!hit && (hit === el || flatContains(el, hit) || labelFor(hit, el));
}

/**
 * The point of rect x nearest (cx, cy): whole CSS pixels inside its [l, r) and [t, b) when it
 * spans one (WebDriver's classic pointer moves take integers), else its middle.
 */
function nearestIn(x, cx, cy) {
  const px = nearestPixel(x.l, x.r, cx);
  const py = nearestPixel(x.t, x.b, cy);
  return { x: px, y: py, d: (px - cx) * (px - cx) + (py - cy) * (py - cy) };
}

function nearestPixel(lo, hi, c) {
  const a = $Math.ceil(lo);
  const b = $Math.ceil(hi) - 1;
  if (a > b) return (lo + hi) / 2;
  return $Math.min($Math.max($Math.round(c), a), b);
}

/** The pieces of rect x outside rect c (up to four). */
function rectMinus(x, c) {
  if (c.r <= x.l || c.l >= x.r || c.b <= x.t || c.t >= x.b) return [x];
  const out = [];
  if (c.t > x.t) push(out, rect4(x.l, x.t, x.r, c.t));
  if (c.b < x.b) push(out, rect4(x.l, c.b, x.r, x.b));
  const t = $Math.max(x.t, c.t);
  const b = $Math.min(x.b, c.b);
  if (c.l > x.l) push(out, rect4(x.l, t, c.l, b));
  if (c.r < x.r) push(out, rect4(c.r, t, x.r, b));
  const kept = [];
  for (let i = 0; i < out.length; i++) if (out[i].r - out[i].l >= 1 && out[i].b - out[i].t >= 1) push(kept, out[i]);
  return kept;
}

// Hit tests one search may make: each failed one cuts the box of what was hit out of the
// parts still in question, so a few reach any visible part an overlapping element leaves.
const HIT_TRIES = 40;

/**
 * The point of el's visible parts nearest its centre at which the browser's hit test finds
 * el (its content or its label): the centre itself when nothing covers it. A failed hit
 * test cuts the box of the element found there (what is painted over el in that box) from
 * the parts left, and the next nearest point is tried. {x, y} or null, and the first
 * element found over el (`first`).
 */
function hitPoint(el, parts) {
  const doc = ownerDocument(el);
  const r = rectOf(el);
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  let left = parts;
  let first = null;
  for (let tries = 0; tries < HIT_TRIES && left.length; tries++) {
    let best = null;
    for (let i = 0; i < left.length; i++) {
      const p = nearestIn(left[i], cx, cy);
      if (!best || p.d < best.d) best = p;
    }
    const hit = deepElementFromPoint(doc, best.x, best.y);
    if (hitsTarget(hit, el)) return { x: best.x, y: best.y, first: first };
    if (!first) first = hit;
    // what was hit covers el in its box (an ancestor of el hit there covers only that point:
    // el lets the pointer through there, pointer-events or a clip the walk up missed)
    let cut;
    if (hit && !flatContains(hit, el)) {
      const hr = rectOf(hit);
      cut = rect4(hr.left - 0.5, hr.top - 0.5, hr.right + 0.5, hr.bottom + 0.5);
      if (!(best.x >= cut.l && best.x <= cut.r && best.y >= cut.t && best.y <= cut.b)) cut = null;
    }
    if (!cut) cut = rect4(best.x - 4, best.y - 4, best.x + 4, best.y + 4);
    const next = [];
    for (let i = 0; i < left.length && next.length < 64; i++) {
      const pieces = rectMinus(left[i], cut);
      for (let j = 0; j < pieces.length; j++) push(next, pieces[j]);
    }
    left = next;
  }
  return { x: -1, y: -1, first: first };
}

/** The element to name for a cover found at a point: the highest ancestor of what was hit
 * that does not contain el (the overlay, not a piece of it). */
function coverOf(hit, el) {
  let cover = hit;
  for (let p = flatParentElement(cover); p && !flatContains(p, el); p = flatParentElement(p)) cover = p;
  return cover;
}

/**
 * The point to act on for `ref`: resolves it, scrolls it into view (every scroll container
 * around it too), and finds the point of it a user's pointer reaches: its centre, or when
 * another element lies over the centre the visible point nearest it (hitPoint).
 * {kind: "ok", x, y, box, ...} in top-level viewport CSS pixels, `box` the visible part of
 * its box. When no point of it is visible: with `check`, "covered" naming what is over it
 * or "clipped" naming the container that hides it; without, its centre with `cover` named
 * (the host says the input goes there). Tagged failures for stale refs and for an element
 * with no size ("invisible").
 */
function pointFor(a) {
  const res = resolveRef(a.ref);
  if (res.kind !== "ok") return res;
  const el = res.el;
  const r0 = rectOf(el);
  if (r0.width === 0 && r0.height === 0) {
    return { kind: "invisible", ref: a.ref, role: res.role, name: res.name };
  }
  const v = bringIntoView(el);
  const r = rectOf(el);
  const off = frameOffset(el);
  const out = {
    kind: "ok", x: 0, y: 0, role: res.role, name: res.name, minor: res.minor,
    tag: clean(strSlice(localNameOf(el), 0, 100)),
  };
  let vis = rectMeet(rect4(r.left, r.top, r.right, r.bottom), v.clip);
  if (!v.parts.length) {
    if (a.check !== false) {
      const by = v.by || el;
      const d = describe(by);
      return { kind: "clipped", ref: a.ref, role: res.role, name: res.name, by: d };
    }
    vis = rect4(r.left, r.top, r.right, r.bottom);
  }
  const hp = v.parts.length ? hitPoint(el, v.parts) : { x: -1, y: -1, first: null };
  if (hp.x < 0) {
    const hit = hp.first;
    const cover = hit ? describe(coverOf(hit, el)) : null;
    if (a.check !== false && cover) {
      return { kind: "covered", ref: a.ref, role: res.role, name: res.name, by: cover };
    }
    // no point of it is reached: its centre (what is there gets the input)
    const c = nearestIn(vis.r > vis.l && vis.b > vis.t ? vis : rect4(r.left, r.top, r.right, r.bottom),
      r.left + r.width / 2, r.top + r.height / 2);
    hp.x = c.x;
    hp.y = c.y;
    if (cover) out.cover = cover;
  }
  out.x = $Math.round((hp.x + off.x) * 100) / 100;
  out.y = $Math.round((hp.y + off.y) * 100) / 100;
  out.box = [vis.l + off.x, vis.t + off.y, $Math.max(0, vis.r - vis.l), $Math.max(0, vis.b - vis.t)];
  return out;
}

/**
 * Whether e scrolls along an axis the way `sign` says (+1 down or right, -1 up or left): a
 * scroll container a user can scroll (overflow auto or scroll: CSS Overflow 3; `hidden`
 * scrolls only by script) with room left that way.
 */
function scrollsWay(e, vertical, sign, any) {
  const st = styleOf(e);
  if (!st) return false;
  let o = cssValue(st, vertical ? "overflow-y" : "overflow-x");
  // a text area scrolls its text whatever its overflow says (HTML 15.5.15: a multiline text
  // control; Firefox computes `visible` for it, Chromium `auto`)
  if (o === "visible" && localNameOf(e) === "textarea") o = "auto";
  if (o !== "auto" && o !== "scroll") return false;
  const max = vertical ? scrollHeightOf(e) - clientHeightOf(e) : scrollWidthOf(e) - clientWidthOf(e);
  if (max < 1) return false;
  if (any) return true;
  const pos = vertical ? scrollTopOf(e) : scrollLeftOf(e);
  return sign > 0 ? pos < max - 0.5 : pos > 0.5;
}

/**
 * The element `scroll REF --direction D` scrolls: the ref's element or its nearest ancestor
 * (in its document) that can scroll that way, else the nearest one that scrolls on that axis
 * at all (at its end), else the document's scrolling element.
 */
function scrollerFor(el, vertical, sign) {
  const doc = ownerDocument(el);
  const body = docBodyOf(doc);
  const root = docElementOf(doc);
  let atEnd = null;
  for (let e = el; e && e !== body && e !== root; e = flatParentElement(e)) {
    if (ownerDocument(e) !== doc) break;
    if (scrollsWay(e, vertical, sign, false)) return e;
    if (!atEnd && scrollsWay(e, vertical, sign, true)) atEnd = e;
  }
  return atEnd || scrollingElementOf(doc) || root;
}

const SCROLL_DIRS = { down: [0, 1], up: [0, -1], right: [1, 0], left: [-1, 0] };

/**
 * `scroll REF --direction D [--amount N]`: scrolls the ref's own scroll container
 * (scrollerFor) N CSS pixels that way (default: 85% of what it shows), as a user's wheel
 * over it would, a disabled control's included (a wheel scrolls what it cannot edit).
 * {scroll: its position after, by: how far it moved, end: whether it is at its end that way,
 * scroller: role and name of what scrolled, page: whether that is the document}.
 */
function scrollWithin(a) {
  const res = resolveRef(a.ref);
  if (res.kind !== "ok") return res;
  const dir = SCROLL_DIRS[a.direction];
  if (!dir) return { kind: "bad_what", what: "" + a.direction };
  const vertical = dir[1] !== 0;
  const sign = vertical ? dir[1] : dir[0];
  const s = scrollerFor(res.el, vertical, sign);
  const doc = ownerDocument(res.el);
  const page = s === scrollingElementOf(doc) || s === docElementOf(doc) || s === docBodyOf(doc);
  const view = viewOf(res.el);
  const size = page ? (vertical ? innerHeightOf(view) : innerWidthOf(view))
    : (vertical ? clientHeightOf(s) : clientWidthOf(s));
  const amount = a.amount > 0 ? a.amount : $Math.max(40, $Math.round(size * 0.85));
  const x0 = page ? scrollXOf(view) : scrollLeftOf(s);
  const y0 = page ? scrollYOf(view) : scrollTopOf(s);
  const opts = { left: vertical ? 0 : sign * amount, top: vertical ? sign * amount : 0, behavior: "instant" };
  if (page) winScrollBy(view, opts);
  else elScrollBy(s, opts);
  const x1 = page ? scrollXOf(view) : scrollLeftOf(s);
  const y1 = page ? scrollYOf(view) : scrollTopOf(s);
  const end = !(page ? pageScrollsWay(doc, vertical, sign) : scrollsWay(s, vertical, sign, false));
  const d = page ? { role: "document", name: "" } : describe(s);
  return { kind: "ok", scroll: [$Math.round(x1), $Math.round(y1)], by: [$Math.round(x1 - x0), $Math.round(y1 - y0)],
    end: end, scroller: d, page: page };
}

/** Whether the document can scroll further that way. */
function pageScrollsWay(doc, vertical, sign) {
  const se = scrollingElementOf(doc) || docElementOf(doc);
  const max = vertical ? scrollHeightOf(se) - clientHeightOf(se) : scrollWidthOf(se) - clientWidthOf(se);
  const pos = vertical ? scrollTopOf(se) : scrollLeftOf(se);
  return sign > 0 ? pos < max - 0.5 : pos > 0.5;
}

/**
 * `scroll`: a ref's scroll container in a direction (scrollWithin), else scrollTo
 * (55_actions); a scroll of the page by a delta also says how far it moved and whether the
 * page is at its end that way.
 */
function scrollAction(a) {
  if (a.ref && a.direction) return scrollWithin(a);
  const x0 = scrollXOf(window);
  const y0 = scrollYOf(window);
  const out = scrollTo(a);
  const dx = a.dx || 0;
  const dy = a.dy || 0;
  if (out.kind === "ok" && !a.ref && !a.to && (dx || dy)) {
    out.by = [$Math.round(scrollXOf(window) - x0), $Math.round(scrollYOf(window) - y0)];
    const vertical = dy !== 0;
    out.end = !pageScrollsWay(document, vertical, (vertical ? dy : dx) > 0 ? 1 : -1);
    out.page = true;
  }
  return out;
}

// HTML drag and drop (HTML 6.11): WebDriver input does not start the browser's own drag
// session for a draggable element in Chromium (w3c/webdriver#1488, "Drag events are not
// emitted during actions"; chromedriver sends mouse events only), so a drag from an element
// with draggable="true" is watched: when the browser fired no drop or dragend of its own
// during the host's pointer gesture, the engine fires the drag-and-drop processing model's
// events itself, with one DataTransfer the page fills in dragstart and reads in drop (as
// Playwright's Chromium driver does through DevTools' Input.dispatchDragEvent, which
// WebDriver does not offer). The events are not trusted (isTrusted false), as any event a
// page script could make.
let dragWatch = null;
const DRAG_SEEN = ["dragstart", "drop", "dragend"];

/** The element with draggable="true" at or around `el` (HTML: the draggable attribute's true state). */
function draggableOf(el) {
  for (let e = el; e; e = flatParentElement(e)) {
    if (getAttr(e, "draggable") === "true") return e;
  }
  return null;
}

/**
 * Before the pointer gesture of a drag: the draggable element where it starts (the ref's,
 * or the one at the point (x, y) of the top-level viewport), and a watch for the browser's
 * own drag-and-drop events. {draggable}.
 */
function dragStart(a) {
  dragStop();
  let el = null;
  if (a.ref) {
    const res = resolveRef(a.ref);
    if (res.kind !== "ok") return res;
    el = res.el;
  }
  let src = el ? draggableOf(el) : null;
  if (!src && a.at) src = draggableOf(deepElementFromPoint(document, a.at[0], a.at[1]));
  if (!src) return { kind: "ok", draggable: false };
  const seen = {};
  const note = function (e) {
    if (e.isTrusted) seen[e.type] = true;
  };
  for (let i = 0; i < DRAG_SEEN.length; i++) addListener(window, DRAG_SEEN[i], note, true);
  dragWatch = { src: src, seen: seen, note: note };
  return { kind: "ok", draggable: true };
}

function dragStop() {
  if (!dragWatch) return;
  for (let i = 0; i < DRAG_SEEN.length; i++) removeListener(window, DRAG_SEEN[i], dragWatch.note, true);
}

/** One drag-and-drop event at el; whether its default was prevented. */
function fireDrag(el, type, dt, x, y, cancelable) {
  const e = new $DragEvent(type, {
    bubbles: true, cancelable: cancelable, composed: true, dataTransfer: dt,
    clientX: x, clientY: y, buttons: type === "dragend" || type === "drop" ? 0 : 1, view: viewOf(el),
  });
  dispatchEvent(el, e);
  return eventDefaultPrevented(e);
}

/**
 * After the pointer gesture: when the browser fired no drop or dragend itself, the drag-and-
 * drop processing model's events (HTML 6.11.5) at the draggable source and at the element
 * under the end point (x, y of the top-level viewport): dragstart (a cancelled one ends it),
 * drag, dragenter and dragover at the target, drop when dragover was cancelled (the target
 * takes the drop) else dragleave, and dragend. {fired, dropped, native}.
 */
function dragEnd(a) {
  const w = dragWatch;
  dragStop();
  dragWatch = null;
  if (!w) return { kind: "ok", fired: false, dropped: false, native: false };
  if (w.seen.drop || w.seen.dragend) return { kind: "ok", fired: false, dropped: !!w.seen.drop, native: true };
  if (!$DragEvent || !$DataTransfer || !isConnected(w.src)) {
    return { kind: "ok", fired: false, dropped: false, native: false };
  }
  const x = a.at[0];
  const y = a.at[1];
  const tgt = deepElementFromPoint(document, x, y);
  const sr = rectOf(w.src);
  const sx = sr.left + sr.width / 2;
  const sy = sr.top + sr.height / 2;
  const dt = new $DataTransfer();
  if (fireDrag(w.src, "dragstart", dt, sx, sy, true)) return { kind: "ok", fired: true, dropped: false, native: false };
  fireDrag(w.src, "drag", dt, x, y, true);
  let dropped = false;
  if (tgt) {
    fireDrag(tgt, "dragenter", dt, x, y, true);
    const takes = fireDrag(tgt, "dragover", dt, x, y, true);
    if (takes) {
      fireDrag(tgt, "drop", dt, x, y, true);
      dropped = true;
    } else fireDrag(tgt, "dragleave", dt, x, y, false);
  }
  fireDrag(w.src, "dragend", dt, x, y, false);
  return { kind: "ok", fired: true, dropped: dropped, native: false };
}

/**
 * `comboOption` (55_actions) with the option's point where a click reaches it: the option
 * scrolled into view with every scroll container around it (a listbox popup scrolls its own
 * options, inside the viewport's bounds), at its visible point nearest its centre (hitPoint).
 */
function comboOptionPoint(a) {
  pickedOption = null;
  const out = comboOption(a);
  const o = pickedOption;
  pickedOption = null;
  if (out.kind !== "ok" || !o) return out;
  const v = bringIntoView(o);
  if (!v.parts.length) return out;
  const hp = hitPoint(o, v.parts);
  if (hp.x < 0) return out;
  const off = frameOffset(o);
  out.x = $Math.round(hp.x + off.x);
  out.y = $Math.round(hp.y + off.y);
  return out;
}
