//! 15_style.js: computed style, "is this shown to a user" (hidden subtrees, visibility,
//! content-visibility, hidden for naming), what a tree scope's style sheets can set at all
//! (scope flags and style gates), and boxes.
//!
//! Owns: styleOf / displayOf / cssValue and the visibility questions built on them, kept in
//! 12_caches' per-walk slots. Must not: compute roles or names, or begin or end a cache
//! region (90_api does).

/** The window of el's document (the top window when it has none). */
function viewOf(el) {
  const doc = ownerDocument(el);
  if (!doc) return window;
  if (doc === viewDoc) return viewWin;
  const v = defaultViewOf(doc);
  // a document without a window (a template's, a detached frame's) is asked again
  if (!v) return window;
  // remembered only inside a cache region (endCaches forgets it)
  if (styleCache) {
    viewDoc = doc;
    viewWin = v;
  }
  return v;
}

/** The computed style of an element (cached per walk). null for detached elements. */
function styleOf(el, pseudo) {
  if (pseudo) {
    try {
      return winGetComputedStyle(viewOf(el), el, pseudo);
    } catch (_) {
      return null;
    }
  }
  return styleRecOf(el).s;
}

/**
 * An element's style record { s: computed style or null, d: its display once read }, cached
 * per walk. The display is read once per element per walk (displayOf): the walk, names from
 * content (block or inline) and the hidden checks of ancestors each ask for it, about 13,500
 * reads at 10,000 elements instead of 9,600.
 */
function styleRecOf(el) {
  if (el === recEl) return recLast;
  let r;
  if (styleCache) r = mapGet(styleCache, el);
  if (r === undefined) {
    let s = null;
    try {
      s = winGetComputedStyle(viewOf(el), el);
    } catch (_) {
      s = null;
    }
    r = { s: s, d: undefined };
    if (styleCache) mapSet(styleCache, el, r);
  }
  // remembered only inside a cache region, like the map
  if (styleCache) {
    recEl = el;
    recLast = r;
  }
  return r;
}

/** An element's computed `display` ("" without a style), read once per walk. */
function displayOf(el) {
  const r = styleRecOf(el);
  if (r.d === undefined) r.d = r.s ? styleGet(r.s, "display") : "";
  return r.d;
}

// A property is read from the computed style each time it is asked for: a per-walk memo
// (one map per property, keyed by the style) cost more in map growth and lookups than the
// second reads it saved (mixed-10000, interleaved A/B: engine 82.5 -> 78.2 ms warm).
function cssValue(style, prop) {
  if (!style) return "";
  return styleGet(style, prop);
}

const NEVER_RENDERED = new $Set([
  "script", "style", "noscript", "template", "head", "meta", "link", "title", "base",
  "param", "source", "track",
]);

/**
 * Why an element (with its whole subtree) is hidden from users, or "" when it is not.
 * visibility:hidden is not here: children may be visible again (see isVisibilityHidden).
 * attrs: false when the caller knows el has no attributes (then it has neither aria-hidden
 * nor inert); anything else reads them. ln: el's local name when the caller has read it.
 */
function subtreeHiddenReason(el, style, attrs, ln) {
  const tag = ln === undefined ? localNameOf(el) : ln;
  if (setHas(NEVER_RENDERED, tag)) return "never-rendered";
  if (!style) return "no-style";
  // (style is el's own: every caller passes styleOf(el))
  if ((styleCache ? displayOf(el) : cssValue(style, "display")) === "none") return "display";
  if (attrs === false) return "";
  if (getAttr(el, "aria-hidden") === "true") return "aria-hidden";
  if (hasAttr(el, "inert")) return "inert";
  return "";
}

/**
 * Whether el is content a closed details hides (HTML: all but the details' summary): a walk
 * from it shows nothing, as the walk from the page leaves it out.
 */
function inClosedDetails(el) {
  let child = el;
  for (let p = flatParentElement(el); p; child = p, p = flatParentElement(p)) {
    if (localNameOf(p) !== "details" || detailsOpenOf(p)) continue;
    if (localNameOf(child) !== "summary") return true;
    for (let c = firstElementChild(p); c; c = nextElementSibling(c))
      if (localNameOf(c) === "summary") {
        if (c !== child) return true;
        break;
      }
  }
  return false;
}

function isVisibilityHidden(style) {
  const v = cssValue(style, "visibility");
  return v === "hidden" || v === "collapse";
}

// What the style sheets of a tree scope (a document or a shadow root) can do at all, per
// walk: style reads a scope cannot need are skipped (Blink computes ::before/::after styles
// on demand, which costs more than every other style read of a walk together).
const SCOPE_PSEUDO = 1; // some rule mentions :before / :after
const SCOPE_CV = 2; // some rule mentions content-visibility
const SCOPE_VIS = 4; // some rule mentions visibility (or resets all properties)
const SCOPE_TT = 8; // some rule or style attribute mentions text-transform (or `all`)
// What can hide text from sighted users (docs/reference/output.md#unseen-text, unseen text): a scope none of whose rules
// or style attributes can set these paints its text as the UA sheet does, and its text is
// not checked (their reads cost more than the rest of a walk).
const SCOPE_OPACITY = 16; // some rule mentions opacity
const SCOPE_GEOM = 32; // position, transform, translate or clip: boxes moved, clipped or stacked
const SCOPE_FONT = 64; // font size (font, font-size, zoom)
const SCOPE_INDENT = 128; // text-indent
const SCOPE_COLOUR = 256; // color or background (or presentational colour attributes)
const SCOPE_UNSEEN = SCOPE_OPACITY | SCOPE_GEOM | SCOPE_FONT | SCOPE_INDENT | SCOPE_COLOUR;
// cursor (43_click: a pointer cursor an author set; the UA sheet sets one on links only,
// which are actionable anyway)
const SCOPE_CURSOR = 512;
const SCOPE_ALL = 1023;
const PSEUDO_RE = re(":(?:before|after)\\b", "i");
const CV_RE = re("content-visibility", "i");
const VIS_RE = re("visibility|\\ball\\s*:", "i");
const TT_RE = re("text-transform|\\ball\\s*:", "i");
const OPACITY_RE = re("opacity|\\ball\\s*:", "i");
const GEOM_RE = re("position|transform|translate|clip|\\ball\\s*:", "i");
const FONT_RE = re("font-size|font\\s*:|zoom|\\ball\\s*:", "i");
const INDENT_RE = re("text-indent|\\ball\\s*:", "i");
const COLOUR_RE = re("color|background|\\ball\\s*:", "i");
const CURSOR_RE = re("cursor|\\ball\\s*:", "i");
// Inherited (or group) effects: a style attribute anywhere in a scope may pass them down.
const INHERITED_BITS = [
  [SCOPE_TT, '[style*="text-transform" i], [style*="all:" i], [style*="all :" i]'],
  [SCOPE_OPACITY, '[style*="opacity" i]'],
  [SCOPE_GEOM, '[style*="position" i], [style*="transform" i], [style*="translate" i], [style*="clip" i]'],
  [SCOPE_FONT, '[style*="font-size" i], [style*="font:" i], [style*="zoom" i], font[size]'],
  [SCOPE_INDENT, '[style*="text-indent" i]'],
  [SCOPE_COLOUR, '[style*="color" i], [style*="background" i], [color], [bgcolor], [text], [background]'],
  [SCOPE_CURSOR, '[style*="cursor" i], [style*="all:" i], [style*="all :" i]'],
];
// The attributes any of them needs (a presence test is cheap; the substring tests run on
// the few elements that have one).
const INHERITED_ANY = "[style], font[size], [color], [bgcolor], [text], [background]";
const MAX_RULES = 20000;
// Style gates: properties a rule sets only on the elements its selector matches, and whose
// reads the walk can therefore skip on every other element (the cascade gives such an
// element its parent's value or the initial one: content-visibility, opacity and position
// do not inherit, and the walk carries visibility down itself). Per tree scope and property,
// the selectors of the rules that mention it, as one selector list for Element.matches
// (which keeps parsed selectors cached), or null when any element may be styled: a rule
// without a selector (@keyframes, which any animation may apply), :host / ::slotted /
// ::part (they style elements of another tree scope), a selector list Element.matches
// refuses, or more than GATE_MAX selectors (matching them would cost more than the read).
const GATE_BITS = [SCOPE_CV, SCOPE_VIS, SCOPE_OPACITY, SCOPE_GEOM];
const GATED = SCOPE_CV | SCOPE_VIS | SCOPE_OPACITY | SCOPE_GEOM;
const GATE_MAX = 256;
const GATE_OPEN_RE = re(":host|::slotted|::part", "i");

/** SCOPE_* bits a rule's text mentions. */
function textBits(text) {
  let bits = 0;
  if (reTest(PSEUDO_RE, text)) bits |= SCOPE_PSEUDO;
  if (reTest(CV_RE, text)) bits |= SCOPE_CV;
  if (reTest(VIS_RE, text)) bits |= SCOPE_VIS;
  if (reTest(TT_RE, text)) bits |= SCOPE_TT;
  if (reTest(OPACITY_RE, text)) bits |= SCOPE_OPACITY;
  if (reTest(GEOM_RE, text)) bits |= SCOPE_GEOM;
  if (reTest(FONT_RE, text)) bits |= SCOPE_FONT;
  if (reTest(INDENT_RE, text)) bits |= SCOPE_INDENT;
  if (reTest(COLOUR_RE, text)) bits |= SCOPE_COLOUR;
  if (reTest(CURSOR_RE, text)) bits |= SCOPE_CURSOR;
  return bits;
}

/** A gate being built: the gated bits any element may get (`open`) and, per GATE_BITS
 * entry, the selectors of the rules that mention its property. */
function newGate() {
  return { open: 0, lists: [[], [], [], []] };
}

/** Adds a rule whose text mentions gated bits `want` to `gate`: a style rule's selector
 * (and its nested rules'), a grouping rule's children, anything else opens the bits. */
function gateRule(rule, want, gate, budget, depth) {
  want &= GATED & ~gate.open;
  if (!want) return;
  if (ruleTypeOf(rule) === 1) {
    const sel = styleRuleSelectorOf(rule);
    if (typeof sel !== "string" || reTest(GATE_OPEN_RE, sel)) {
      gate.open |= want;
      return;
    }
    for (let i = 0; i < GATE_BITS.length; i++) {
      if (!(want & GATE_BITS[i])) continue;
      if (gate.lists[i].length >= GATE_MAX) gate.open |= GATE_BITS[i];
      else push(gate.lists[i], sel);
    }
    // nested rules (`& .x`, `.x`): each selector alone matches a superset of what it styles
    gateChildren(styleRuleChildrenOf(rule), gate, budget, depth);
    return;
  }
  let kids = null;
  try {
    kids = groupingRulesOf ? groupingRulesOf(rule) : null;
  } catch (_) {
    kids = null; // not a grouping rule: @keyframes, @font-face, @page...
  }
  if (!kids) gate.open |= want;
  else gateChildren(kids, gate, budget, depth);
}

function gateChildren(kids, gate, budget, depth) {
  if (!kids) return;
  const n = ruleListLength(kids);
  budget.left -= n;
  if (budget.left < 0 || depth > 16) {
    gate.open |= GATED;
    return;
  }
  for (let i = 0; i < n && (gate.open & GATED) !== GATED; i++) {
    const r = ruleListItem(kids, i);
    gateRule(r, textBits(ruleCssTextOf(r)), gate, budget, depth + 1);
  }
}

/** The SCOPE_* bits of a style sheet's rules, its gated rules added to `gate`. */
function sheetFlags(sheet, budget, gate) {
  let rules;
  try {
    rules = sheetRulesOf(sheet);
  } catch (_) {
    gate.open |= GATED;
    return SCOPE_ALL; // another origin's sheet: unknown, so assume anything
  }
  if (!rules) {
    gate.open |= GATED;
    return SCOPE_ALL;
  }
  const n = ruleListLength(rules);
  budget.left -= n;
  if (budget.left < 0) {
    gate.open |= GATED;
    return SCOPE_ALL;
  }
  let bits = 0;
  // once every bit is set and every gate open, the other rules cannot change anything
  for (let i = 0; i < n && (bits !== SCOPE_ALL || (gate.open & GATED) !== GATED); i++) {
    const rule = ruleListItem(rules, i);
    let imported = null;
    try {
      imported = importSheetOf(rule);
    } catch (_) {
      imported = null; // not an @import rule
    }
    if (imported) {
      if (budget.depth++ > 8) {
        gate.open |= GATED;
        bits = SCOPE_ALL;
      } else bits |= sheetFlags(imported, budget, gate);
      continue;
    }
    const rb = textBits(ruleCssTextOf(rule));
    bits |= rb;
    if (rb & GATED) gateRule(rule, rb, gate, budget, 0);
  }
  return bits;
}

/** A tree scope's SCOPE_* bits and style gates: { bits, gates } (gates: per GATE_BITS entry,
 * a selector list, "" when only style attributes may set it, or null for any element). */
function scopeInfoOf(root) {
  if (root === lastScope) return lastScopeInfo;
  let info = scopeFlags ? mapGet(scopeFlags, root) : undefined;
  if (info === undefined) {
    info = scopeInfo(root);
    if (scopeFlags) mapSet(scopeFlags, root, info);
  }
  if (scopeFlags) {
    lastScope = root;
    lastScopeInfo = info;
  }
  return info;
}

const OPEN_GATES = [null, null, null, null];

function scopeInfo(root) {
  let bits = 0;
  const gate = newGate();
  let outer = null;
  let probe = null;
  try {
    const isDoc = nodeType(root) === DOCUMENT_NODE;
    const budget = { left: MAX_RULES, depth: 0 };
    const list = isDoc ? docStyleSheetsOf(root) : shadowStyleSheetsOf(root);
    const n = sheetListLength(list);
    const done = () => bits === SCOPE_ALL && (gate.open & GATED) === GATED;
    for (let i = 0; i < n && !done(); i++) bits |= sheetFlags(sheetListItem(list, i), budget, gate);
    const adopted = isDoc ? (docAdoptedOf ? docAdoptedOf(root) : null) : shadowAdoptedOf ? shadowAdoptedOf(root) : null;
    if (adopted) {
      const an = adopted.length | 0;
      for (let i = 0; i < an && !done(); i++) bits |= sheetFlags(adopted[i], budget, gate);
    }
    // inherited properties: a style attribute anywhere in the scope may pass them down.
    // One pass over the scope for all of them (a query per property was a pass each: on
    // a 100,000-element page, 90 ms), then each match tells which.
    let need = 0;
    for (let i = 0; i < INHERITED_BITS.length; i++) need |= INHERITED_BITS[i][0] & ~bits;
    if (need) {
      const list = isDoc ? docQuerySelectorAll(root, INHERITED_ANY) : fragQuerySelectorAll(root, INHERITED_ANY);
      for (let k = 0, n = nodeListLength(list); k < n && need; k++) {
        const el = nodeListItem(list, k);
        for (let i = 0; i < INHERITED_BITS.length; i++) {
          const bit = INHERITED_BITS[i][0];
          if (need & bit && matches(el, INHERITED_BITS[i][1])) {
            bits |= bit;
            need &= ~bit;
          }
        }
      }
    }
    probe = isDoc ? docElementOf(root) : shadowHostOf(root);
    if (!isDoc) {
      // ::part and :host rules come from outside (their gates are open there)
      outer = scopeInfoOf(getRootNode(probe));
      bits |= outer.bits;
    }
  } catch (_) {
    return { bits: SCOPE_ALL, gates: OPEN_GATES };
  }
  const gates = [null, null, null, null];
  for (let i = 0; i < GATE_BITS.length; i++) {
    const bit = GATE_BITS[i];
    if (gate.open & bit) continue;
    const sels = gate.lists[i];
    if (outer && outer.bits & bit) {
      const o = outer.gates[i];
      if (o === null) continue;
      if (o !== "") push(sels, o);
    }
    if (sels.length > GATE_MAX) continue;
    let joined = "";
    for (let k = 0; k < sels.length; k++) joined = k ? joined + ", " + sels[k] : sels[k];
    if (joined !== "") {
      // a list Element.matches refuses (a selector only the style engine reads) opens it
      try {
        if (!probe) continue;
        matches(probe, joined);
      } catch (_) {
        continue;
      }
    }
    gates[i] = joined;
  }
  return { bits: bits, gates: gates };
}

/** SCOPE_* bits of a tree scope (its own sheets, adopted sheets, and for a shadow root the
 * scopes around it: ::part and :host rules come from outside). */
function scopeFlagsOf(root) {
  if (!root) return SCOPE_ALL;
  return scopeInfoOf(root).bits;
}

/** The GATE_BITS entry of a bit (-1 when reads of it are not gated). */
function gateIndex(bit) {
  for (let i = 0; i < GATE_BITS.length; i++) if (GATE_BITS[i] === bit) return i;
  return -1;
}

/**
 * Whether anything may set a SCOPE_* property on el itself: a rule of its scope (or of the
 * shadow tree whose slot shows it: ::slotted), or its style attribute (`word` in it).
 */
function mayStyle(el, bit, word) {
  if (scopeFlagsOf(getRootNode(el)) & bit) return true;
  // its own shadow tree's :host rules
  const sr = hostRootOf(el);
  if (sr && scopeFlagsOf(sr) & bit) return true;
  if (word) {
    const inline = inlineStyleOf(el);
    if (inline && reTest(word, inline)) return true;
  }
  let slot = null;
  try {
    slot = assignedSlotOf(el);
  } catch (_) {
    slot = null;
  }
  return !!slot && !!(scopeFlagsOf(getRootNode(slot)) & bit);
}

/**
 * mayStyle with el's tree scope already known (the walk tracks it); null: not known. attrs:
 * false when the caller knows el has no attributes (so no style attribute either).
 */
function mayStyleIn(el, bit, word, scope, attrs) {
  if (!scope) return mayStyle(el, bit, word);
  const info = scopeInfoOf(scope);
  if (info.bits & bit) {
    const g = gateIndex(bit);
    const sel = g < 0 ? null : info.gates[g];
    if (sel === null) return true;
    // a rule may set it only on an element its selector matches
    if (sel !== "" && matches(el, sel)) return true;
    // or, from another tree scope's sheets, on a shadow host (:host) or a slotted element
    // (::slotted): those are read whenever their scope could say anything
    if (hostRootOf(el) || assignedSlotOf(el)) return true;
  }
  // A shadow host is styled by its own shadow tree's :host rules too, whatever its own tree
  // scope's sheets say (CSS Scoping: the host is featureless in its shadow tree's context and
  // matched by :host there): a :host { opacity: 0 } hid its content from users while the
  // walk read nothing, since the page around it set no opacity.
  const sr = hostRootOf(el);
  if (sr && scopeFlagsOf(sr) & bit) return true;
  if (!word || attrs === false) return false;
  const inline = inlineStyleOf(el);
  return !!inline && reTest(word, inline);
}

/** el's style attribute; within a cache region, the last element's is kept (inlineEl). */
function inlineStyleOf(el) {
  if (el === inlineEl && cacheDepth > 0) return inlineText;
  const t = getAttr(el, "style");
  inlineEl = cacheDepth > 0 ? el : null;
  inlineText = t;
  return t;
}

/** shadowRootAny(el); within a cache region, the last element's is kept (hostEl). */
function hostRootOf(el) {
  if (el === hostEl && cacheDepth > 0) return hostRoot;
  const sr = shadowRootAny(el);
  hostEl = cacheDepth > 0 ? el : null;
  hostRoot = sr;
  return sr;
}

/**
 * visibility:hidden/collapse for an element met by the walk, whose parent's state is
 * `inherited`: read from its style only when something may set it on the element.
 */
function visibilityHiddenIn(el, style, inherited, scope, attrs) {
  if (!mayStyleIn(el, SCOPE_VIS, VIS_RE, scope, attrs)) return inherited;
  return isVisibilityHidden(style);
}

/** SCOPE_UNSEEN bits a tree scope's rules and style attributes may set (0: text there is
 * painted as the UA sheet paints it). */
function unseenBits(scope) {
  return scopeFlagsOf(scope) & SCOPE_UNSEEN;
}

/** The text-transform that applies to text in el ("none" when nothing can set one). */
function textTransformOf(el, scope) {
  if (!mayStyleIn(el, SCOPE_TT, null, scope)) return "none";
  const s = styleOf(el);
  return s ? cssValue(s, "text-transform") : "none";
}

/**
 * content-visibility:hidden renders the element but skips its contents. attrs: false when
 * the caller knows el has no attributes (neither `hidden` nor a style attribute).
 */
function contentsSkipped(el, style, scope, attrs) {
  if (!style) return false;
  // only a style sheet, the style attribute or hidden=until-found (the UA sheet) can set it
  if (!(attrs !== false && hasAttr(el, "hidden")) && !mayStyleIn(el, SCOPE_CV, CV_RE, scope, attrs)) return false;
  return cssValue(style, "content-visibility") === "hidden";
}

/** True when the element is hidden from users (for names from hidden nodes, 2A). */
function isHiddenForName(el) {
  if (hiddenCache) {
    const c = mapGet(hiddenCache, el);
    if (c !== undefined) return c;
  }
  let hidden = false;
  const style = styleOf(el);
  if (!style) hidden = true;
  else if (subtreeHiddenReason(el, style)) hidden = true;
  else if (isVisibilityHidden(style)) hidden = true;
  else {
    const p = flatParentElement(el);
    if (p) {
      if (localNameOf(p) === "details" && !detailsOpenOf(p) && localNameOf(el) !== "summary")
        hidden = true;
      else if (contentsSkipped(p, styleOf(p))) hidden = true;
      else if (isHiddenAncestor(p)) hidden = true;
    }
  }
  if (hiddenCache) mapSet(hiddenCache, el, hidden);
  return hidden;
}

/**
 * Whether el is hidden for naming by CSS visibility alone (hidden or collapse on itself, no
 * hidden ancestor, nothing else): its own text is not rendered, but a descendant with
 * `visibility: visible` is (CSS 2 11.2), and is read in names (2A; Chromium and Firefox).
 */
function hiddenByVisibilityOnly(el) {
  const style = styleOf(el);
  if (!style || subtreeHiddenReason(el, style) || !isVisibilityHidden(style)) return false;
  const p = flatParentElement(el);
  if (!p) return true;
  if (localNameOf(p) === "details" && !detailsOpenOf(p) && localNameOf(el) !== "summary") return false;
  return !contentsSkipped(p, styleOf(p)) && !isHiddenAncestor(p);
}

/** Like isHiddenForName but for an ancestor chain: visibility is inherited, so it is not
 * checked. Iterative: pages nest deeper than any call stack. */
function isHiddenAncestor(el) {
  // Answers are cached per walk for every element on the way up, so asking about many
  // elements of one subtree costs one climb (names from content ask about each descendant).
  const path = [];
  let cur = el;
  let hidden = false;
  while (cur) {
    if (ancCache) {
      const c = mapGet(ancCache, cur);
      if (c !== undefined) {
        hidden = c;
        break;
      }
    }
    push(path, cur);
    const style = styleOf(cur);
    if (!style || subtreeHiddenReason(cur, style)) {
      hidden = true;
      break;
    }
    const p = flatParentElement(cur);
    if (!p) break;
    if (localNameOf(p) === "details" && !detailsOpenOf(p) && localNameOf(cur) !== "summary") {
      hidden = true;
      break;
    }
    if (contentsSkipped(p, styleOf(p))) {
      hidden = true;
      break;
    }
    cur = p;
  }
  // every element on the path is at or below where the answer was found: it holds for all
  if (ancCache) for (let i = 0; i < path.length; i++) mapSet(ancCache, path[i], hidden);
  return hidden;
}

/** The walk met el shown, under shown ancestors: later questions about it are answered. */
function markShown(el) {
  if (ancCache) mapSet(ancCache, el, false);
}

function boxOf(el) {
  try {
    const r = rectOf(el);
    return { x: r.x, y: r.y, w: r.width, h: r.height };
  } catch (_) {
    return { x: 0, y: 0, w: 0, h: 0 };
  }
}

function viewportOf(el) {
  const w = viewOf(el);
  return { w: innerWidthOf(w), h: innerHeightOf(w) };
}

function intersectsViewport(box, vp) {
  return box.w > 0 && box.h > 0 && box.x < vp.w && box.y < vp.h && box.x + box.w > 0 && box.y + box.h > 0;
}
