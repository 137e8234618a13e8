//! 65_points.js: hit testing where the tree is blind: what is at a point of the viewport
//! (`elementsAt`, and what a click at coordinates reaches), and the boxes of refs in
//! top-level viewport CSS pixels (annotated screenshots).
//!
//! Owns: hit testing by coordinates through shadow roots and same-origin frames. Refs for
//! what is found are minted through refFor() (50_refs), so the next step can act on them.
//! Must not: send input (the host does) or render.

// items a user picks by clicking them, besides the tier 1 controls
const PICKABLE = new $Set(["option", "treeitem", "gridcell", "tab"]);

/** The element that takes an action at a hit: the hit or its nearest flat-tree ancestor
 * that is a control, focusable, editable or has a click handler (a span inside a button
 * gives the button); the hit itself when none is. */
function actionTarget(hit) {
  for (let el = hit, guard = 0; el && guard < 64; el = flatParentElement(el), guard++) {
    const tag = localNameOf(el);
    if (tag === "body" || tag === "html") break;
    const role = getRole(el);
    if (role && (setHas(TIER1, role) || setHas(PICKABLE, role))) return el;
    if (tag === "select" || tag === "canvas") return el;
    const ti = getAttr(el, "tabindex");
    if ((ti !== null && $Number(ti) >= 0) || isEditable(el)) return el;
    // a listener of the click family, but not a capture-phase one (a root's delegation)
    const k = listenKinds(el, hasAttrs(el));
    if (k & (LISTEN_MOUSE | LISTEN_POINTER) && !(k & LISTEN_CAPTURE)) return el;
  }
  return hit;
}

/**
 * The deepest element at (x, y) of the top-level viewport: through open shadow roots (and
 * closed ones handed over) and into same-origin frames (at the point moved into the frame's
 * content box). {el, frame (k of f<k> refs, 0 for the top document), ox, oy (the document's
 * origin in the top viewport), crossOrigin (the hit is a frame we cannot look into)}.
 */
function hitAt(x, y) {
  let doc = document;
  let fx = x;
  let fy = y;
  let frame = 0;
  let ox = 0;
  let oy = 0;
  for (let guard = 0; guard < 16; guard++) {
    const el = deepElementFromPoint(doc, fx, fy);
    if (!el) return { el: null, frame: frame, ox: ox, oy: oy };
    const tag = localNameOf(el);
    if (tag !== "iframe" && tag !== "frame") return { el: el, frame: frame, ox: ox, oy: oy };
    const inner = frameDocument(el, tag);
    if (!inner) return { el: el, frame: frame, ox: ox, oy: oy, crossOrigin: true };
    const r = rectOf(el);
    const dx = r.left + clientLeftOf(el);
    const dy = r.top + clientTopOf(el);
    frame = frameIndexOf(el);
    fx -= dx;
    fy -= dy;
    ox += dx;
    oy += dy;
    doc = inner;
  }
  return { el: null, frame: frame, ox: ox, oy: oy };
}

function topBox(el, ox, oy) {
  const r = rectOf(el);
  return [$Math.round(r.left + ox), $Math.round(r.top + oy), $Math.round(r.width), $Math.round(r.height)];
}

/** What is at one point: the element an action there reaches, with a ref minted for it. */
function elementAt(x, y, n) {
  const h = hitAt(x, y);
  if (!h.el) return { x: x, y: y, found: false };
  const target = actionTarget(h.el);
  const id = refIdentity(target);
  const out = {
    x: x,
    y: y,
    found: true,
    ref: refFor(target, id.role, id.name, n, h.frame),
    role: id.role,
    // a nameless generic's words are its text, not a name (WAI-ARIA 1.2: generic is "name
    // prohibited"), as in snapshots and search
    name: id.words ? "" : clean(id.name, 200),
    tag: clean(strSlice(localNameOf(target), 0, 100)),
    box: topBox(target, h.ox, h.oy),
  };
  if (id.words && id.name) out.text = clean(id.name, 200);
  if (target !== h.el) {
    const d = refIdentity(h.el);
    out.hit = { role: d.role, name: d.words ? "" : clean(d.name, 80), tag: clean(strSlice(localNameOf(h.el), 0, 100)) };
    if (d.words && d.name) out.hit.text = clean(d.name, 80);
  }
  if (h.crossOrigin) out.crossOrigin = true;
  return out;
}

/**
 * `elementsAt`: {points: [[x, y]...], n, radius?, limit?}. Without radius, what is at each
 * point; with it, the elements near each point, nearest first (the `near` search of
 * 60_search). Points outside the viewport are answered {outside: true}; the host refuses them.
 */
function elementsAt(a) {
  const vw = innerWidthOf(window);
  const vh = innerHeightOf(window);
  const pts = a.points || [];
  const n = a.n | 0;
  const out = [];
  for (let i = 0; i < pts.length && i < 100; i++) {
    const x = +pts[i][0];
    const y = +pts[i][1];
    if (!(x >= 0 && y >= 0 && x < vw && y < vh)) {
      push(out, { x: x, y: y, outside: true });
      continue;
    }
    if (a.radius !== undefined && a.radius !== null) {
      const s = doSearch({ near: { x: x, y: y, radius: +a.radius }, limit: a.limit | 0, n: n });
      push(out, { x: x, y: y, matches: s.matches, total: s.total });
    } else push(out, elementAt(x, y, n));
  }
  return { kind: "ok", viewport: [vw, vh], points: out };
}

/** `refBoxes`: {refs}: each ref's box in top-level viewport CSS pixels (null for refs that
 * do not resolve here or have no size). */
function refBoxes(a) {
  const refs = a.refs || [];
  const out = [];
  for (let i = 0; i < refs.length; i++) {
    const res = resolveRef("" + refs[i]);
    if (res.kind !== "ok") {
      push(out, null);
      continue;
    }
    const off = frameOffset(res.el);
    const b = topBox(res.el, off.x, off.y);
    push(out, b[2] > 0 && b[3] > 0 ? b : null);
  }
  return { kind: "ok", boxes: out, viewport: [innerWidthOf(window), innerHeightOf(window)] };
}
