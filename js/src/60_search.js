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

function doSearch(a) {
  let rx = null;
  if (a.pattern) {
    try {
      rx = re(a.pattern, "i");
    } catch (e) {
      return { kind: "bad_pattern", pattern: "" + a.pattern };
    }
  }
  const text = a.text ? strLower(normalizeWS("" + a.text)) : null;
  const near = a.near || null;
  const walked = walk(document, { boxes: true, maxNodes: 0 });
  const nodes = walked.nodes;
  const els = walked.els;
  const seen = new $Set();
  let matches = [];
  for (let i = 1; i < nodes.length; i++) {
    let idx = i;
    const n = nodes[i];
    let hay;
    if (n.r === "text") {
      idx = n.p;
      if (idx <= 0) continue;
      hay = n.v || "";
    } else {
      hay = (n.n || "") + (n.v ? " " + n.v : "");
    }
    const node = nodes[idx];
    if (a.role && node.r !== a.role) continue;
    if (text !== null) {
      const h = strLower(normalizeWS(hay));
      if (a.exact ? h !== text && strLower(normalizeWS(node.n || "")) !== text : strIndexOf(h, text) < 0) continue;
    }
    if (rx && !reTest(rx, hay)) continue;
    if (text === null && !rx && !a.role && !near) continue;
    if (setHas(seen, idx)) continue;
    setAdd(seen, idx);
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
  const total = matches.length;
  const limit = a.limit > 0 ? a.limit : 10;
  const out = [];
  const n = a.n | 0;
  // an item's text is told once, with its first match
  const told = new $Set();
  for (let k = 0; k < matches.length && k < limit; k++) {
    const idx = matches[k].i;
    const node = nodes[idx];
    const el = els[idx];
    const ref = el && nodeType(el) === ELEMENT_NODE ? refFor(el, node.r, node.n || "", n, node.f || 0) : null;
    const m = { ref: ref, role: node.r, name: node.n || "", path: landmarkPath(nodes, idx), box: node.b || null };
    if (node.v) m.value = node.v;
    if (near) m.distance = $Math.round(matches[k].d);
    const ctx = contextOf(nodes, idx, matches[k].run);
    if (ctx && !setHas(told, ctx[0])) {
      setAdd(told, ctx[0]);
      m.context = ctx[1];
    }
    push(out, m);
  }
  return { kind: "ok", matches: out, total: total };
}
