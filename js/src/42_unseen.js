//! 42_unseen.js: unseen text: what a sighted user is not shown of the text the tree has
//! (clipped, offscreen, transparent, tiny, camouflaged, covered), read from styles, colours
//! and boxes during the walk, and for covered text from hit tests after it (coverPass).
//!
//! Owns: the unseen kinds and the ctx bits that carry them down the walk. Must not: emit
//! nodes (45_walk does; flagUnseen only marks one) or hide anything: unseen text is flagged,
//! never dropped.

// docs/reference/output.md#unseen-text: text present for assistive technology but not painted for a sighted user is
// flagged [unseen=KIND]. ctx bits 4-6 carry the kind an ancestor element has (inherited by
// its whole subtree), bit 7 says an emitted ancestor already carries the flag.
const UNSEEN_KINDS = ["", "clipped", "offscreen", "transparent", "tiny", "camouflaged", "covered"];
const UN_CLIPPED = 1;
const UN_OFFSCREEN = 2;
const UN_TRANSPARENT = 3;
const UN_TINY = 4;
const UN_CAMOUFLAGED = 5;
const UN_COVERED = 6;
const UN_MASK = 0x70;
const UN_FLAGGED = 0x80;
// Off-screen text: text-indent pushed this far out (the -9999px idiom) shows nothing.
const INDENT_OUT = -999;
const NUM_RE = re("-?[0-9.]+", "g");
const INSET_SHUT_RE = re("^inset\\(\\s*(5\\d|[6-9]\\d|100)(\\.\\d+)?%");

/** The numbers of a CSS value ("rect(0px, 1px, 1px, 0px)", "rgba(1, 2, 3, 0.5)"). */
function cssNumbers(v) {
  const m = strMatch(v, NUM_RE);
  const out = [];
  if (m) for (let i = 0; i < m.length; i++) push(out, $Number(m[i]));
  return out;
}

// Computed colours repeat across a page: each string is parsed once per walk.
const NO_COLOUR = [0, 0, 0, 0];
/** A computed colour as [r, g, b, a] (the serialisation is rgb() or rgba()). */
function colourOf(w, v) {
  if (v === "rgba(0, 0, 0, 0)" || !v) return NO_COLOUR;
  let c = mapGet(w.colourCache, v);
  if (c === undefined) {
    const n = cssNumbers(v);
    c = n.length < 3 ? NO_COLOUR : [n[0], n[1], n[2], n.length > 3 ? n[3] : 1];
    mapSet(w.colourCache, v, c);
  }
  return c;
}

/** A length in px from its computed value ("16px"; NaN when not a length). */
function pxOf(v) {
  return $Number(strReplace(v, "px", ""));
}

/**
 * The unseen kind an element gives its whole subtree, from its own style (0: none): opacity 0
 * (transparent, CSS: a group painted fully transparent), or, positioned out of flow, a clip to
 * at most 1px (the visually-hidden idiom: clip, clip-path inset of half or more, or a 1px
 * box that hides its overflow) or a box entirely left of or above the page (offscreen: no
 * scrolling reaches it).
 */
function elementUnseen(w, el, style, scope, attrs) {
  if (!style) return 0;
  if (mayStyleIn(el, SCOPE_OPACITY, OPACITY_RE, scope, attrs) && cssValue(style, "opacity") === "0") {
    return UN_TRANSPARENT;
  }
  // only a rule or style attribute takes an element out of flow (the UA sheet positions
  // nothing that holds page text)
  if (!mayStyleIn(el, SCOPE_GEOM, GEOM_RE, scope, attrs)) return 0;
  const pos = cssValue(style, "position");
  if (pos !== "absolute" && pos !== "fixed" && pos !== "sticky") return 0;
  const r = rectOf(el);
  if (pos !== "sticky") {
    const clip = cssValue(style, "clip");
    if (clip && clip !== "auto" && strStartsWith(clip, "rect(")) {
      const n = cssNumbers(clip);
      // rect(top, right, bottom, left)
      if (n.length === 4 && (n[1] - n[3] <= 1 || n[2] - n[0] <= 1)) return UN_CLIPPED;
    }
    const cp = cssValue(style, "clip-path");
    if (cp && cp !== "none" && reTest(INSET_SHUT_RE, cp)) return UN_CLIPPED;
    if (r.width <= 1 && r.height <= 1 && cssValue(style, "overflow-x") !== "visible") return UN_CLIPPED;
    if (r.width > 0 && r.height > 0 && outOfPage(w, el, r)) return UN_OFFSCREEN;
  }
  // a layer over the viewport may paint over text in flow: checked after the walk
  const d = viewDims(w, el);
  if (r.width >= 8 && r.height >= 8 && r.right > 0 && r.bottom > 0 && r.left < d.w && r.top < d.h) {
    push(w.layers, [el, r, ownerDocument(el)]);
  }
  return 0;
}

/** The viewport size and scroll of el's window, read once per walk and window. */
function viewDims(w, el) {
  return viewDimsOf(w, viewOf(el));
}

function viewDimsOf(w, view) {
  let d = mapGet(w.viewDims, view);
  if (d === undefined) {
    d = view
      ? { w: innerWidthOf(view), h: innerHeightOf(view), sx: scrollXOf(view), sy: scrollYOf(view) }
      : { w: 0, h: 0, sx: 0, sy: 0 };
    mapSet(w.viewDims, view, d);
  }
  return d;
}

/** Whether a box lies wholly left of or above its page, where no scrolling reaches it. */
function outOfPage(w, el, r) {
  const d = viewDims(w, el);
  return r.right + d.sx <= 0 || r.bottom + d.sy <= 0;
}

/** An element's own painted background colour as [r, g, b, a] (null: an image, unknown). */
function ownBackground(w, style) {
  if (!style) return NO_COLOUR;
  const img = cssValue(style, "background-image");
  if (img && img !== "none") return null;
  return colourOf(w, cssValue(style, "background-color"));
}

const WHITE = [255, 255, 255];

/**
 * The background colour behind an element's text: its own background colour composited
 * (CSS: source-over) over what is behind its parent, down to the nearest opaque one or the
 * canvas (white unless the page says otherwise). Memoised per element for the walk, so each
 * element's background is read once (an iterative climb: pages nest deeper than a call
 * stack). Background images are looked for only when the colours match (imageOnTheWay).
 */
function backgroundBehind(w, el) {
  let c = mapGet(w.bgCache, el);
  if (c !== undefined) return c;
  const chain = [];
  let under = WHITE;
  for (let p = el; p; p = flatParentElement(p)) {
    const known = mapGet(w.bgCache, p);
    if (known !== undefined) {
      under = known;
      break;
    }
    push(chain, p);
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const st = styleOf(chain[i]);
    const b = st ? colourOf(w, cssValue(st, "background-color")) : NO_COLOUR;
    if (b[3] >= 0.99) under = [b[0], b[1], b[2]];
    else if (b[3] > 0) {
      under = [
        b[0] * b[3] + under[0] * (1 - b[3]),
        b[1] * b[3] + under[1] * (1 - b[3]),
        b[2] * b[3] + under[2] * (1 - b[3]),
      ];
    }
    mapSet(w.bgCache, chain[i], under);
  }
  return under;
}

/** Whether a background image lies between el and the opaque background behind it. */
function imageOnTheWay(w, el) {
  for (let p = el; p; p = flatParentElement(p)) {
    const st = styleOf(p);
    if (!st) continue;
    const img = cssValue(st, "background-image");
    if (img && img !== "none") return true;
    if (colourOf(w, cssValue(st, "background-color"))[3] >= 0.99) return false;
  }
  return false;
}

/**
 * The unseen kind of a text node's own element (0: none), for what does not inherit down a
 * subtree: a font of at most 1px (tiny), text indented out of the page or a box left of or
 * above it (offscreen), a transparent or same-as-background colour (transparent,
 * camouflaged), or, inside the viewport, another element painted over its centre and
 * corners (covered).
 */
function textUnseen(w, el, scope) {
  const c = mapGet(w.textCache, el);
  if (c !== undefined) return c;
  if (namespaceURIOf(el) === SVG_NS) {
    // SVG text is painted with `fill`, not `color`, and its font size is scaled by the
    // viewBox: neither the colour nor the size checks say anything about it (what hides a
    // whole subtree, opacity 0, still applies: elementUnseen)
    mapSet(w.textCache, el, 0);
    return 0;
  }
  // what the rules and style attributes of el's scope can do (and, for slotted text, of the
  // shadow tree it is shown in, whose styles it inherits)
  let bits = unseenBits(scope || getRootNode(el));
  if (bits !== SCOPE_UNSEEN) {
    let slot = null;
    try {
      slot = assignedSlotOf(el);
    } catch (_) {
      slot = null;
    }
    if (slot) bits |= unseenBits(getRootNode(slot));
  }
  let k = 0;
  const style = bits ? styleOf(el) : null;
  if (style) {
    const col = bits & SCOPE_COLOUR ? colourOf(w, cssValue(style, "color")) : null;
    if (bits & SCOPE_FONT && pxOf(cssValue(style, "font-size")) <= 1) k = UN_TINY;
    else if (bits & SCOPE_INDENT && pxOf(cssValue(style, "text-indent")) <= INDENT_OUT) k = UN_OFFSCREEN;
    else if (col && col[3] === 0) k = UN_TRANSPARENT;
    else {
      // the box is read only where it can matter: colours that match, or an out-of-flow
      // layer in the viewport painted over el (boxes out of the page are caught on the
      // positioned or transformed element that moved them: elementUnseen)
      let r = null;
      if (col) {
        const bg = backgroundBehind(w, el);
        if (sameColour(bg, col) && !imageOnTheWay(w, el)) {
          r = rectOf(el);
          if (paintedBehind(w, el, r, col)) k = UN_CAMOUFLAGED;
        }
      }
    }
    // covered text is found after the walk, once every layer is known (coverPass)
    if (!k && bits & SCOPE_GEOM) {
      setAdd(w.geomText, el);
      w.geomAny = true;
    }
  }
  mapSet(w.textCache, el, k);
  return k;
}

/** Whether el or an ancestor below the one painting its background is positioned. */
function positionedUpTo(w, el) {
  for (let p = el; p; p = flatParentElement(p)) {
    const st = styleOf(p);
    if (!st) return true;
    if (cssValue(st, "position") !== "static") return true;
    const b = ownBackground(w, st);
    if (b === null || b[3] >= 0.99) return false;
  }
  return false;
}

function sameColour(a, b) {
  return $Math.abs(a[0] - b[0]) + $Math.abs(a[1] - b[1]) + $Math.abs(a[2] - b[2]) <= 6;
}

/**
 * Inside the viewport, the colour really painted under el's centre agrees: the first opaque
 * background among the elements stacked there below el (a positioned backdrop that is not
 * an ancestor counts). Outside it, the ancestors' answer stands.
 */
function paintedBehind(w, el, r, col) {
  const d = viewDims(w, el);
  if (!elementsFromPoint || r.left < 0 || r.top < 0 || r.right > d.w || r.bottom > d.h) {
    // out of the viewport, nothing can be hit-tested: the ancestors' background is trusted
    // only when no positioned element on the way may lay a backdrop under the text
    return !positionedUpTo(w, el);
  }
  const stack = elementsFromPoint(ownerDocument(el), r.left + r.width / 2, r.top + r.height / 2);
  let below = false;
  for (let i = 0; i < stack.length; i++) {
    const e = stack[i];
    if (e === el) {
      below = true;
      continue;
    }
    if (!below) continue;
    const b = ownBackground(w, styleOf(e));
    if (b === null) return false;
    if (b[3] >= 0.99) return sameColour(b, col);
  }
  return true;
}

/**
 * Whether another element is painted over el's centre and four inner corners (the hit test
 * finds neither el, its content nor an element around it). Only inside the viewport, and
 * not for elements hit testing skips (pointer-events: none).
 */
function coveredAt(w, el, r) {
  const d = viewDims(w, el);
  if (r.left < 0 || r.top < 0 || r.right > d.w || r.bottom > d.h) return false;
  if (cssValue(styleOf(el), "pointer-events") === "none") return false;
  const doc = ownerDocument(el);
  const pts = [[0.5, 0.5], [0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85]];
  for (let i = 0; i < pts.length; i++) {
    const hit = deepElementFromPoint(doc, r.left + r.width * pts[i][0], r.top + r.height * pts[i][1]);
    if (!hit || hit === el || flatContains(el, hit) || flatContains(hit, el)) return false;
    // a layer that paints nothing (a transparent click-catcher) hides nothing
    if (!paintsOver(w, hit)) return false;
  }
  return true;
}

/** Whether box r of el lies under a layer (another document's layers do not count). */
function underALayer(w, el, r) {
  const doc = ownerDocument(el);
  for (let i = 0; i < w.layers.length; i++) {
    const l = w.layers[i];
    if (l[2] !== doc || l[0] === el || flatContains(l[0], el)) continue;
    const lr = l[1];
    if (r.left < lr.right && r.right > lr.left && r.top < lr.bottom && r.bottom > lr.top) return true;
  }
  return false;
}

/**
 * Covered text (docs/reference/output.md#unseen-text), after the walk: the text of elements in the viewport that lie under
 * a layer taken out of flow (fixed, absolute, sticky: a cookie wall, a modal, a box laid over
 * a paragraph) and that the browser's hit test finds painted over (coveredAt). Hit tests
 * cost a pass over the page's boxes each, so only text under a layer is tested, and nothing
 * when the page has no layer in the viewport. The run that holds the text is flagged (text
 * merged into it from its neighbours included).
 */
function coverPass(w) {
  if (!w.layers.length || !w.coverCands.length) return;
  const done = new $Map();
  for (let i = 0; i < w.coverCands.length; i += 2) {
    const el = w.coverCands[i];
    const idx = w.coverCands[i + 1];
    let k = mapGet(done, el);
    if (k === undefined) {
      k = false;
      const r = rectOf(el);
      // coveredAt keeps to the viewport
      if (r.width > 0 && r.height > 0 && underALayer(w, el, r)) k = coveredAt(w, el, r);
      mapSet(done, el, k);
    }
    const node = w.nodes[idx];
    if (k && node && !(node.s && node.s.unseen)) flagUnseen(node, UN_COVERED);
  }
}

const OPAQUE_TAGS = new $Set(["img", "video", "canvas", "iframe", "svg", "object", "embed", "picture"]);

/** Whether an element paints its box: replaced content, or an opaque or image background. */
function paintsOver(w, el) {
  const tag = localNameOf(el);
  // an image that did not load paints nothing over what is under it, and a stretched 1-2px
  // image is the transparent spacer idiom (lazy-loading placeholders)
  if (tag === "img") return imgNaturalWidthOf(el) > 2 || imgNaturalHeightOf(el) > 2;
  if (setHas(OPAQUE_TAGS, tag)) return true;
  const style = styleOf(el);
  if (!style || cssValue(style, "opacity") === "0") return false;
  const b = ownBackground(w, style);
  return b === null || b[3] >= 0.99;
}

const ICON_TAGS = new $Set(["img", "svg", "canvas", "picture", "video", "object", "embed"]);
// How many elements under a control are looked at for an icon (an icon is its own element or
// one of its first descendants: jQuery UI's `span.ui-icon`, an `<svg>`, an `<i>` of an icon font).
const ICON_LOOK = 24;

/**
 * Whether a control shows a user something of its own in sight: an image it paints (its own
 * background image: the image replacement idiom, where text-indent pushes the words out and
 * the image stands for them) or an icon element inside its box (an image, an SVG, a canvas,
 * an element painting a background image, or generated content: an icon font's glyph), with
 * a box of at least 4x4 px on the page. Such a control is seen though the words that name it
 * are not (docs/behaviour.md#unseen-controls, WCAG 2.2 1.1.1: the icon is its non-text
 * content): the unseen text run under it keeps its flag, the control's line gets none.
 */
function controlShowsIcon(w, el) {
  const r = rectOf(el);
  if (r.width < 4 || r.height < 4 || outOfPage(w, el, r)) return false;
  const st = styleOf(el);
  if (!st || cssValue(st, "visibility") !== "visible" || cssValue(st, "opacity") === "0") return false;
  if (paintsImage(st)) return true;
  if (hasGlyph(el)) return true;
  const queue = [el];
  let looked = 0;
  for (let q = 0; q < queue.length && looked < ICON_LOOK; q++) {
    for (let c = firstElementChild(queue[q]); c && looked < ICON_LOOK; c = nextElementSibling(c)) {
      looked++;
      push(queue, c);
      if (iconIn(w, c, r)) return true;
    }
  }
  return false;
}

function paintsImage(st) {
  const img = cssValue(st, "background-image");
  return !!img && img !== "none";
}

/** Generated content before or after el (CSS Generated Content: an icon font's glyph). */
function hasGlyph(el) {
  for (let i = 0; i < 2; i++) {
    const ps = styleOf(el, i ? "::after" : "::before");
    const c = ps ? cssValue(ps, "content") : "";
    if (c && c !== "none" && c !== "normal" && c !== '""' && c !== "''") return true;
  }
  return false;
}

/** Whether element c is an icon painted inside the control's box r (a box of 4x4 px or more). */
function iconIn(w, c, r) {
  const st = styleOf(c);
  if (!st || cssValue(st, "visibility") !== "visible" || cssValue(st, "opacity") === "0" ||
      cssValue(st, "display") === "none") return false;
  const tag = localNameOf(c);
  const icon = setHas(ICON_TAGS, tag) || paintsImage(st) || (!firstElementChild(c) && !strTrim(textContent(c) || "") && hasGlyph(c));
  if (!icon) return false;
  const b = rectOf(c);
  if (b.width < 4 || b.height < 4) return false;
  if (tag === "img" && !(imgNaturalWidthOf(c) > 2 || imgNaturalHeightOf(c) > 2)) return false;
  // inside the control's box, and on the page
  return b.right > r.left && b.left < r.right && b.bottom > r.top && b.top < r.bottom && !outOfPage(w, c, b);
}

/** Marks an output node unseen (its kind from the constants: no page text reaches it). */
function flagUnseen(node, k) {
  if (!node.s) node.s = {};
  node.s.unseen = UNSEEN_KINDS[k];
}
