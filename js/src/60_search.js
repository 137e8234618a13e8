//! 60_search.js: text / regex / role / near queries over a walk (docs/reference/search.md#search).
//!
//! Owns: matching and ranking. Matches get refs through refFor() (50_refs), minted when the
//! element had none. Must not: render.

function landmarkPath(nodes, i) {
  const parts = [];
  for (let p = nodes[i].p; p > 0; p = nodes[p].p) {
    const n = nodes[p];
    if (setHas(LANDMARKS, n.r) || n.r === "dialog" || n.r === "alertdialog") {
      // cut, then made well-formed: a cut through a surrogate pair leaves no half behind
      push(parts, n.n ? n.r + " " + $stringify(clean(strSlice(n.n, 0, 40))) : n.r);
    }
  }
  const out = [];
  for (let k = parts.length - 1; k >= 0; k--) push(out, parts[k]);
  return arrJoin(out, " > ");
}

/** Roles whose element is one item of a list, table, feed or listbox: a match inside one
 * is told with the item's text (a product card's price, a row's cells). */
const ITEM_ROLES = new $Set(["listitem", "article", "row", "option", "treeitem"]);
const CONTEXT_MAX = 200;

/** The text of node `a`'s subtree, in document order (nodes are in pre-order, each with its
 * parent's index), white space collapsed, cut at CONTEXT_MAX characters. */
function subtreeText(nodes, a, from) {
  const inside = new $Set();
  setAdd(inside, a);
  const parts = [];
  let len = 0;
  for (let j = a + 1; j < nodes.length && len <= CONTEXT_MAX; j++) {
    if (!setHas(inside, nodes[j].p)) break;
    setAdd(inside, j);
    if (from && j < from) continue;
    const t = nodes[j].r === "text" ? nodes[j].v : nodes[j].v && nodes[j].r !== "link" ? nodes[j].v : "";
    if (t) {
      const w = normalizeWS("" + t);
      if (w) {
        push(parts, w);
        len += w.length + 1;
      }
    }
  }
  const s = arrJoin(parts, " ");
  return s.length > CONTEXT_MAX ? clean(strSlice(s, 0, CONTEXT_MAX), CONTEXT_MAX) + "..." : clean(s, CONTEXT_MAX + 3);
}

/**
 * What surrounds a match, so that an agent needs no second call to read it: the text of
 * the item (list item, article, row, option...) the match belongs to, within 6 levels; else
 * from the matching text run on when the match is a run of text in a bigger block; else the
 * text of the nearest of its 3 closest ancestors below a landmark that is not just the
 * match's own name. Returns [index told, text] or null.
 */
function contextOf(nodes, i, run) {
  const own = normalizeWS(nodes[i].n || "");
  let p = nodes[i].p;
  for (let d = 0; p > 0 && d < 6; d++, p = nodes[p].p) {
    if (setHas(ITEM_ROLES, nodes[p].r)) {
      const t = subtreeText(nodes, p);
      return t && t !== own ? [p, t] : null;
    }
  }
  if (run) {
    // matched on a run of text in a bigger block (a total in an order summary): the text
    // from that run on
    const t = subtreeText(nodes, i, run);
    return t && t !== own ? [run, t] : null;
  }
  p = nodes[i].p;
  for (let d = 0; p > 0 && d < 3; d++, p = nodes[p].p) {
    if (setHas(LANDMARKS, nodes[p].r) || nodes[p].r === "dialog" || nodes[p].r === "alertdialog") break;
    const t = subtreeText(nodes, p);
    if (t && t !== own) return [p, t];
  }
  return null;
}

function boxDistance(b, x, y) {
  const dx = x < b[0] ? b[0] - x : x > b[0] + b[2] ? x - (b[0] + b[2]) : 0;
  const dy = y < b[1] ? b[1] - y : y > b[1] + b[3] ? y - (b[1] + b[3]) : 0;
  return $Math.sqrt(dx * dx + dy * dy);
}

/**
 * The matcher of a query over a piece of text (white space collapsed for text, raw for a
 * pattern), or null when the query has no text to narrow by (role or point only).
 */
function textTest(text, rx) {
  if (text !== null) {
    return function (t) {
      return strIndexOf(strLower(normalizeWS(t)), text) >= 0;
    };
  }
  if (rx) {
    return function (t) {
      return reTest(rx, t);
    };
  }
  return null;
}

/**
 * The nearest element that holds a match on text run i (docs/reference/search.md#search): from
 * the element of the run's first piece, up to the first element whose text holds the match
 * (a match across pieces: the element that holds them; the document's body for text straight
 * under it), then down through the child element whose text still matches, as long as one
 * does.
 */
function matchElement(walked, i, test) {
  const from = walked.runFrom[i];
  let el = from ? pieceElement(from) : null;
  if (!el || !test) return el;
  for (let guard = 0; el && guard < 256 && !test(textContent(el) || ""); guard++) el = flatParentElement(el);
  if (!el) return from ? pieceElement(from) : null;
  for (let guard = 0; guard < 64; guard++) {
    let next = null;
    for (let c = firstElementChild(el); c && !next; c = nextElementSibling(c)) {
      if (test(textContent(c) || "")) next = c;
    }
    if (!next) return el;
    el = next;
  }
  return el;
}

// The controls a match's container holds (docs/reference/search.md#search): a container with
// more than this many besides the match is a section (a form, a region of results), not a
// card or row, and its controls are not listed (the host cuts what is listed to its byte cap
// and says how many more).
const CONTROLS_MAX = 6;
// Roles whose element is a container of its own: a match inside one gets its controls, and
// the climb stops there.
const OWN_CONTAINERS = new $Set(["listitem", "article", "row", "option", "treeitem", "region", "group", "dialog",
  "alertdialog", "form", "figure"]);
// Landmarks a climb for controls does not pass (forms and regions are containers of their own).
const PAGE_PARTS = new $Set(["banner", "main", "navigation", "contentinfo", "complementary", "search"]);

/**
 * The controls of the nearest container around element el (the match; own: the match's own
 * element when it is a control itself, left out): climbing from el, the first element that
 * holds a control, as long as the climb has met neither a list of items (a list, table,
 * grid... role, or a generic element of three or more alike children: then the container is
 * one of its items) nor a landmark other than a form or region, body or html; an item,
 * region, group, dialog or form ends the climb; one with more than CONTROLS_MAX controls is a
 * section, and a match inside a widget (a grid, listbox, tree, menu) has none. cands: the walk's live candidates in document order; m: the match's node index
 * (where to look for them). {el, list} or null.
 */
function containerControls(cands, m, el, own) {
  // an item of a widget (a grid's day, a listbox's option): its neighbours are the widget's
  for (let A = el, d = 0; A && d < 12; A = flatParentElement(A), d++) {
    const r = getRole(A);
    if (r && setHas(INTERACTIVE_CONTAINERS, r)) return null;
  }
  let lo = 0;
  let hi = cands.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cands[mid].i < m) lo = mid + 1;
    else hi = mid;
  }
  let a = lo;
  let b = lo - 1;
  for (let A = el, d = 0; A && d < 12; A = flatParentElement(A), d++) {
    const tag = localNameOf(A);
    if (tag === "body" || tag === "html") return null;
    const role = getRole(A);
    if (role && (setHas(PAGE_PARTS, role) || setHas(ITEM_CONTAINERS, role))) return null;
    if (A !== el && !role && alikeChildren(A)) return null;
    while (a > 0 && flatContains(A, cands[a - 1].el)) a--;
    while (b + 1 < cands.length && flatContains(A, cands[b + 1].el)) b++;
    const list = [];
    let total = 0;
    for (let k = a; k <= b; k++) {
      if (cands[k].el === own) continue;
      total++;
      if (list.length < CONTROLS_MAX) push(list, cands[k]);
    }
    if (total > CONTROLS_MAX) return null;
    if (list.length) return { el: A, list: list, total: total };
    if (role && setHas(OWN_CONTAINERS, role)) return null;
  }
  return null;
}

/**
 * The walk's controls (tier 1 candidates that got no settling away), in document order: the
 * items of a grid, listbox or tree are what a match is among, not controls of its container.
 */
function liveCands(walked) {
  const out = [];
  for (let k = 0; k < walked.cands.length; k++) {
    const c = walked.cands[k];
    if (!c.dropped && !c.container && c.tier === 1) push(out, c);
  }
  return out;
}

/** The matching node indexes of a search: [{i, d (distance), run}], nearest first with near. */
function searchMatches(a, nodes, text, rx) {
  const near = a.near || null;
  const seen = new $Set();
  const matches = [];
  for (let i = 1; i < nodes.length; i++) {
    let idx = i;
    const n = nodes[i];
    let hay;
    if (n.r === "text") {
      // text straight under the document is matched too: its element is found afterwards
      idx = n.p;
      hay = n.v || "";
    } else {
      // a nameless generic with a ref is matched by its words, as by a name (45_walk genericWords)
      hay = nameOrWords(n) + (n.v ? " " + n.v : "");
    }
    const node = nodes[idx];
    if (a.role && node.r !== a.role) continue;
    if (text !== null) {
      const h = strLower(normalizeWS(hay));
      if (a.exact ? h !== text && strLower(normalizeWS(nameOrWords(node))) !== text : strIndexOf(h, text) < 0) continue;
    }
    if (rx && !reTest(rx, hay)) continue;
    if (text === null && !rx && !a.role && !near) continue;
    // a run under the document is a match of its own (its element is not the document's)
    const key = idx === 0 ? -i : idx;
    if (setHas(seen, key)) continue;
    setAdd(seen, key);
    let dist = 0;
    if (near) {
      const b = node.b;
      if (!b || (b[2] === 0 && b[3] === 0)) continue;
      dist = boxDistance(b, +near.x, +near.y);
      if (dist > (near.radius === undefined ? 50 : +near.radius)) continue;
    }
    push(matches, { i: idx, d: dist, run: idx !== i ? i : 0 });
  }
  if (near) arrSort(matches, function (p, q) { return p.d - q.d; });
  return matches;
}

/** search: a, and walkPage(opts) the walk it reads (90_api: a fresh walk that 72_memo keeps;
 * a plain walk by default). */
function doSearch(a, walkPage) {
  let rx = null;
  if (a.pattern) {
    try {
      rx = re(a.pattern, "i");
    } catch (e) {
      return { kind: "bad_pattern", pattern: "" + a.pattern };
    }
  }
  const text = a.text ? strLower(normalizeWS("" + a.text)) : null;
  const opts = { boxes: true, maxNodes: 0 };
  const walked = walkPage ? walkPage(opts) : walk(document, opts);
  const nodes = walked.nodes;
  const matches = searchMatches(a, nodes, text, rx);
  const total = matches.length;
  const limit = a.limit > 0 ? a.limit : 10;
  const out = [];
  const n = a.n | 0;
  const test = textTest(text, rx);
  const cands = liveCands(walked);
  // an item's text is told once, with its first match, and so are a container's controls;
  // the same words are not told twice either (a match inside a matched article: the
  // article's text is the context of both)
  const told = new $Set();
  const toldWords = new $Set();
  const toldControls = new $Set();
  for (let k = 0; k < matches.length && k < limit; k++) {
    const m = searchMatch(walked, matches[k], test, n, !!a.near);
    const ctx = contextOf(nodes, matches[k].i, matches[k].run);
    if (ctx && !setHas(told, ctx[0]) && !setHas(toldWords, ctx[1])) {
      setAdd(told, ctx[0]);
      setAdd(toldWords, ctx[1]);
      m.out.context = ctx[1];
    }
    const at = matches[k].run || matches[k].i;
    const cc = m.el ? containerControls(cands, at, m.el, m.own) : null;
    if (cc && !setHas(toldControls, cc.el)) {
      setAdd(toldControls, cc.el);
      m.out.controls = [];
      for (let j = 0; j < cc.list.length; j++) {
        const c = cc.list[j];
        const key = c.key !== undefined ? c.key : c.name || "";
        const ctl = { ref: refFor(c.el, c.role, key, n, c.frame), role: c.role, name: c.name || "" };
        if (key && !c.name) ctl.text = key;
        push(m.out.controls, ctl);
      }
      if (cc.total > m.out.controls.length) m.out.more_controls = cc.total - m.out.controls.length;
    }
    push(out, m.out);
  }
  return { kind: "ok", matches: out, total: total };
}

/**
 * One match as the reply tells it: its ref (minted when it had none), role, name, path and
 * box; a match on text is told as the nearest element that holds it. {out, el (the match's
 * element), own (that element when it is a ref candidate)}.
 */
function searchMatch(walked, match, test, n, near) {
  const nodes = walked.nodes;
  const els = walked.els;
  const idx = match.i;
  const node = nodes[idx];
  let el = els[idx] && nodeType(els[idx]) === ELEMENT_NODE ? els[idx] : null;
  let role = node.r;
  let name = node.n || "";
  // a nameless generic's words: its ref's identity, told as text (45_walk genericWords)
  let words = name ? "" : nameOrWords(node);
  let box = node.b || null;
  let frame = node.f || 0;
  if (match.run) {
    const held = matchElement(walked, match.run, test);
    if (held && held !== el) {
      el = held;
      const id = refIdentity(held);
      role = id.role;
      name = id.words ? "" : id.name;
      words = id.words ? id.name : "";
      box = roundedBox(held);
      frame = walked.runFrame[match.run] | 0;
    }
  }
  const ref = el ? refFor(el, role, name || words, n, frame) : null;
  const out = { ref: ref, role: role, name: name, path: landmarkPath(nodes, idx), box: box };
  if (words) out.text = words;
  if (el === els[idx] && node.v) out.value = node.v;
  if (near) out.distance = $Math.round(match.d);
  return { out: out, el: el, own: el };
}
