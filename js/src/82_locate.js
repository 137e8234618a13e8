//! 82_locate.js: locators (docs/reference/step-files.md#locators): the elements a role and
//! name, a label or a text names, within a container, over one walk with the snapshot's own
//! roles and names (45_walk) and search's text matching (60_search); and the locator of a
//! ref as the journal records it (`describe`).
//!
//! Owns: matching a walk's nodes against a locator, the container of a node. Must not: rank
//! near names or heal (the host does: src/steps/locate.rs), send input.

/** Roles a `label` locator names: the controls a <label> or aria-labelledby names (HTML-AAM
 * "input type=text ... accessible name from the label element"). */
const LABELLED_ROLES = new $Set(["textbox", "searchbox", "combobox", "spinbutton", "slider", "checkbox", "radio",
  "switch", "listbox"]);
// matches told at most (the host names them in its error)
const LOCATE_MAX = 20;
// near candidates of the role told at most (the host ranks them by name)
const NEAR_MAX = 100;

/** A container a locator's `within` names and the journal records: a landmark (45_walk's
 * LANDMARKS), a dialog, or a named group (a fieldset and its legend). */
function isContainer(node) {
  return setHas(LANDMARKS, node.r) || node.r === "dialog" || node.r === "alertdialog" ||
    (node.r === "group" && !!node.n);
}

/** The innermost container around node i: its index, or 0 (the document). */
function containerOf(nodes, i) {
  for (let p = nodes[i].p; p > 0; p = nodes[p].p) if (isContainer(nodes[p])) return p;
  return 0;
}

/** Whether node i lies inside what `w` names: {idx} (a ref's node) or {role?, name?}. */
function insideOf(nodes, i, w) {
  for (let p = nodes[i].p; p > 0; p = nodes[p].p) {
    if (w.idx !== undefined) {
      if (p === w.idx) return true;
      continue;
    }
    const c = nodes[p];
    if (w.role ? c.r !== w.role : !isContainer(c)) continue;
    if (w.name !== undefined && w.name !== null && !nameMatches(c.n, w.name, true)) continue;
    return true;
  }
  return false;
}

/** Whether node (not text) is what a locator's role, name and label say. */
function locatorMatches(node, a) {
  if (node.r === "text") return false;
  if (a.role && node.r !== a.role) return false;
  if (a.label !== undefined && a.label !== null) {
    if (!setHas(LABELLED_ROLES, node.r) || !nameMatches(node.n, a.label, a.exact)) return false;
  }
  return a.name === undefined || a.name === null || nameMatches(node.n, a.name, a.exact);
}

/** One node told: its ref (minted for snapshot n), role, name, landmark path, container. */
function locatedNode(nodes, els, i, n) {
  const node = nodes[i];
  const el = els[i];
  const ref = el && nodeType(el) === ELEMENT_NODE ? refFor(el, node.r, nameOrWords(node), n, node.f || 0) : null;
  const c = containerOf(nodes, i);
  const out = { ref: ref, role: node.r, name: clean(node.n || "", 200), path: landmarkPath(nodes, i) };
  if (!node.n && nameOrWords(node)) out.text = clean(nameOrWords(node), 200);
  if (c) out.container = { role: nodes[c].r, name: clean(nodes[c].n || "", 200) };
  return out;
}

/** The node index of element el in a walk, or -1. */
function nodeIndexOf(els, el) {
  for (let i = 1; i < els.length; i++) if (els[i] === el) return i;
  return -1;
}

/** The elements a text locator names: search's text matches (60_search), told with refs up
 * to just past LOCATE_MAX, {list, more (the rest, counted)}. */
function textMatches(walked, a, w, n) {
  const nodes = walked.nodes;
  const text = strLower(normalizeWS("" + a.text));
  const ms = searchMatches({ text: a.text, exact: a.exact }, nodes, text, null);
  const test = textTest(text, null);
  const out = [];
  let more = 0;
  for (let k = 0; k < ms.length; k++) {
    if (w && !insideOf(nodes, ms[k].i, w)) continue;
    if (out.length > LOCATE_MAX) {
      // past what is told: counted, not given refs (a common word on a long page)
      if (!a.role || nodes[ms[k].i].r === a.role) more++;
      continue;
    }
    const m = searchMatch(walked, ms[k], test, n, false).out;
    if (a.role && m.role !== a.role) continue;
    push(out, m);
  }
  return { list: out, more: more };
}

/**
 * `locate`: the elements a locator names ({role?, name?, label?, text?, exact, within?, nth?}:
 * within is {ref} or {role?, name?}), as {kind: "ok", matches (at most LOCATE_MAX, refs of
 * snapshot n), total}; with none and a role (or a label), `near`: the elements of that role,
 * those inside `within` first, for the host to name or heal with.
 */
function locate(q) {
  const n = q.n | 0;
  const a = q.locator || {};
  const walked = memoWalk(document, { maxNodes: 0 });
  const nodes = walked.nodes;
  const els = walked.els;
  let w = a.within || null;
  if (w && w.ref) {
    const res = resolveRef(w.ref);
    if (res.kind !== "ok") return res;
    w = { idx: nodeIndexOf(els, res.el) };
  }
  let found = [];
  let more = 0;
  if (a.text !== undefined && a.text !== null) {
    const t = textMatches(walked, a, w, n);
    found = t.list;
    more = t.more;
  } else {
    for (let i = 1; i < nodes.length; i++) {
      if (locatorMatches(nodes[i], a) && (!w || insideOf(nodes, i, w))) push(found, i);
    }
  }
  const total = found.length + more;
  if (a.nth !== undefined && a.nth !== null) found = a.nth < found.length ? [found[a.nth]] : [];
  const matches = [];
  for (let k = 0; k < found.length && k < LOCATE_MAX; k++) {
    push(matches, typeof found[k] === "number" ? locatedNode(nodes, els, found[k], n) : found[k]);
  }
  const out = { kind: "ok", matches: matches, total: total };
  if (!matches.length && (a.role || a.label !== undefined)) out.near = nearOf(nodes, els, a, w, n);
  return out;
}

/** The elements of a locator's role (or the labelled roles), inside `w` first. */
function nearOf(nodes, els, a, w, n) {
  const inside = [];
  const outside = [];
  for (let i = 1; i < nodes.length; i++) {
    const r = nodes[i].r;
    if (a.role ? r !== a.role : !setHas(LABELLED_ROLES, r)) continue;
    push(w && !insideOf(nodes, i, w) ? outside : inside, i);
  }
  const out = [];
  for (let k = 0; k < inside.length && out.length < NEAR_MAX; k++) {
    const m = locatedNode(nodes, els, inside[k], n);
    m.inside = true;
    push(out, m);
  }
  for (let k = 0; k < outside.length && out.length < NEAR_MAX; k++) push(out, locatedNode(nodes, els, outside[k], n));
  return out;
}

/** A field whose value is a secret: a password input, or one the page marks as a password or
 * one-time code for autofill (HTML 4.10.18.7.1 autofill field names). */
function isSecretField(el) {
  if (localNameOf(el) !== "input") return false;
  if (strLower(getAttr(el, "type") || "") === "password") return true;
  const ac = strLower(getAttr(el, "autocomplete") || "");
  return strIndexOf(ac, "password") >= 0 || strIndexOf(ac, "one-time-code") >= 0;
}

/**
 * Where element el stands among what a text locator {text: words, role, exact} inside
 * container node c (0: the document) finds, in locate's order (textMatches): {count, nth,
 * found: whether el is among them}.
 * Mints no ref.
 */
function textNth(walked, words, role, c, el) {
  const nodes = walked.nodes;
  const text = strLower(normalizeWS(words));
  const ms = searchMatches({ text: words, exact: true }, nodes, text, null);
  const test = textTest(text, null);
  let count = 0;
  let nth = 0;
  let found = false;
  for (let k = 0; k < ms.length; k++) {
    const m = ms[k];
    if (c && !insideOf(nodes, m.i, { idx: c })) continue;
    let e = walked.els[m.i];
    let r = nodes[m.i].r;
    if (m.run) {
      const held = matchElement(walked, m.run, test);
      if (held && held !== e) {
        e = held;
        r = refIdentity(held).role;
      }
    }
    if (r !== role) continue;
    if (e === el) {
      nth = count;
      found = true;
    }
    count++;
  }
  return { count: count, nth: nth, found: found };
}

/**
 * `describe`: the locator of a ref as it stands now (the journal records it before the
 * action): role, name (or, for a nameless generic, its words as `text`), container, and `nth`
 * among the elements the same locator finds in that container when there are several. A ref
 * the walk does not show: its role and name (or words) only.
 */
function describeRef(a) {
  const res = resolveRef(a.ref, true);
  if (res.kind !== "ok") return res;
  const walked = memoWalk(document, { maxNodes: 0 });
  const nodes = walked.nodes;
  const idx = nodeIndexOf(walked.els, res.el);
  if (idx < 0 && res.words) return { kind: "ok", role: res.role, name: "", text: clean(res.name || "", 200), count: 1 };
  if (idx < 0) return { kind: "ok", role: res.role, name: clean(res.name || "", 200), count: 1 };
  const node = nodes[idx];
  const c = containerOf(nodes, idx);
  // a nameless generic with words is located by its text (a `text` locator), not by a name;
  // so is another nameless element whose short text a text locator finds it by (a draggable
  // `group` showing "Stove"): a locator of its role alone and a place among its twins says
  // nothing a reader, or Playwright's getByText, can find it by
  let words = node.n ? "" : nameOrWords(node);
  let byText = words ? textNth(walked, words, node.r, c, res.el) : null;
  if (!words && !node.n) {
    const t = clean(normalizeWS(headText(res.el, 120)), 200);
    const found = t && t.length <= 80 ? textNth(walked, t, node.r, c, res.el) : null;
    if (found && found.found) {
      words = t;
      byText = found;
    }
  }
  let count = 0;
  let nth = 0;
  if (byText) {
    count = byText.count;
    nth = byText.nth;
  } else {
    for (let i = 1; i < nodes.length; i++) {
      if (nodes[i].r !== node.r || !nameMatches(nodes[i].n, node.n || "", true)) continue;
      if (containerOf(nodes, i) !== c) continue;
      if (i < idx) nth++;
      count++;
    }
  }
  const out = { kind: "ok", role: node.r, name: clean(node.n || "", 200), path: landmarkPath(nodes, idx), count: count };
  if (words) out.text = words;
  if (c) out.container = { role: nodes[c].r, name: clean(nodes[c].n || "", 200) };
  if (count > 1) out.nth = nth;
  if (isSecretField(res.el)) out.secret = true;
  out.el = exportHints(res.el, words, !!node.n);
  return out;
}

const CSS_IDENT_RE = re("^-?[A-Za-z_][A-Za-z0-9_-]*$");

/**
 * A CSS selector that finds el alone in its tree (a document or a shadow root): `tag.class`
 * steps joined by `>` up to the first ancestor with an id, with `:nth-of-type` where a
 * sibling shares the step. Only plain identifiers are used (no escaping); null when none is
 * unique within five steps.
 */
function cssPath(el) {
  const root = getRootNode(el);
  const all = (sel) => {
    try {
      return nodeListLength(nodeType(root) === DOCUMENT_NODE ? docQuerySelectorAll(root, sel) : fragQuerySelectorAll(root, sel));
    } catch (e) {
      return 0;
    }
  };
  let path = "";
  for (let e = el, up = 0; e && nodeType(e) === ELEMENT_NODE && up < 5; e = parentElementOf(e), up++) {
    const id = getAttr(e, "id");
    let step;
    if (id && reTest(CSS_IDENT_RE, id)) step = "#" + id;
    else {
      step = localNameOf(e);
      if (!reTest(CSS_IDENT_RE, step)) return null;
      const cls = strSplit(strTrim(getAttr(e, "class") || ""), re("\\s+"));
      for (let i = 0; i < cls.length; i++) {
        if (cls[i] && reTest(CSS_IDENT_RE, cls[i])) {
          step += "." + cls[i];
          break;
        }
      }
      const p = parentElementOf(e);
      if (p) {
        let k = 0;
        let twins = 0;
        for (let c = firstElementChild(p); c; c = nextElementSibling(c)) {
          if (localNameOf(c) !== localNameOf(e)) continue;
          twins++;
          if (c === e) k = twins;
        }
        if (twins > 1 && all(step + (path ? " > " + path : "")) !== 1) step += ":nth-of-type(" + k + ")";
      }
    }
    path = path ? step + " > " + path : step;
    const n = all(path);
    if (n === 1) return clean(path, 300);
    if (n === 0) return null;
  }
  return null;
}

/**
 * The point of el a pointer reaches, relative to its padding box, when its centre is covered
 * by another element (Playwright's click at the centre waits for what covers it; ariasnap's
 * click goes to the visible point nearest the centre, pointFor); null when the centre is
 * clear or el is out of the viewport (nothing is known until it is scrolled in).
 */
function coveredPoint(el) {
  const r = rectOf(el);
  if (r.width < 1 || r.height < 1) return null;
  const view = viewOf(el);
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  if (!view || cx < 0 || cy < 0 || cx > innerWidthOf(view) || cy > innerHeightOf(view)) return null;
  if (hitsTarget(deepElementFromPoint(ownerDocument(el), cx, cy), el)) return null;
  const v = visibleParts(el);
  if (!v.parts.length) return null;
  const hp = hitPoint(el, v.parts);
  if (hp.x < 0) return null;
  return [$Math.round(hp.x - r.left - clientLeftOf(el)), $Math.round(hp.y - r.top - clientTopOf(el))];
}

/**
 * What a Playwright export needs beyond the locator (docs/reference/step-files.md#export),
 * recorded in the journal: the element's tag (a native select is chosen with selectOption,
 * an ARIA combobox by its option; an input's type; a contenteditable), an `a` without href
 * (a link to Chromium's tree when clickable, a generic to Playwright's getByRole), a CSS
 * path for an element with neither name nor words, whether its words span several blocks
 * (Playwright's getByText reads an element's text with nothing between blocks), and the
 * point a pointer reaches when its centre is covered.
 */
function exportHints(el, words, named) {
  const tag = clean(strSlice(localNameOf(el), 0, 40));
  const h = { tag: tag };
  if (tag === "input") h.type = clean(strLower(getAttr(el, "type") || "text"), 40);
  if (isEditableEl(el) && tag !== "input" && tag !== "textarea") h.editable = true;
  if (tag === "a" && !hasAttr(el, "href")) h.nohref = true;
  if (!named && !words) {
    const css = cssPath(el);
    if (css) h.css = css;
  }
  if (words && normalizeWS(textContent(el) || "") !== words) h.blocks = true;
  const at = coveredPoint(el);
  if (at) h.at = at;
  return h;
}
