//! 45_walk.js: the walk's state and the nodes it emits. The walk is one iterative pass over
//! the flat tree (shadow roots, slots, same-origin frames, aria-owns) that emits a flat node
//! list with parent indexes: 47_visit.js drives it and visits each node, 46_runs.js joins
//! its text into runs and finishes its result.
//!
//! Owns: which nodes appear, which are ref candidates (and their tiers), the walk's state and
//! stack, element nodes (role, generic, author-named) and truncation (--max-nodes), generic
//! words, clickables settled. States come from 40_states, unseen text from 42_unseen, what
//! the host must read itself is recorded by 44_handoff. Must not: mint refs (50_refs does,
//! after the walk) or render text (the host does). Read-only: it never writes to the DOM, so
//! it causes no layout thrash.

// Text-level roles whose text flows into the parent line instead of becoming a node.
const INLINE_TEXT_ROLES = new $Set(["strong", "emphasis", "code", "mark", "subscript", "superscript",
  "deletion", "insertion", "time", "term", "generic", "none", "presentation"]);
// Of these, the roles that keep their meaning as a mark on their text in the run
// (docs/behaviour.md#text-level-semantics): the host prints `⟦deletion: $20⟧` inline.
const MARK_ROLES = new $Set(["strong", "emphasis", "code", "mark", "subscript", "superscript",
  "deletion", "insertion", "time", "term"]);

const TIER2 = new $Set(["listitem", "option", "treeitem", "row", "cell", "gridcell"]);
const INTERACTIVE_CONTAINERS = new $Set(["listbox", "tree", "grid", "treegrid", "combobox", "menu", "menubar"]);
const VALUE_ROLES = new $Set(["textbox", "searchbox", "combobox", "spinbutton", "slider"]);
const LANDMARKS = new $Set(["banner", "main", "navigation", "contentinfo", "complementary", "search", "form", "region"]);

// walks begun other than the warm-up's (which stops once a real one has begun)
let walksBegun = 0;

// The walk: walk() drives it (47_visit.js), over one state object made by newWalk() and
// shared by the visitors (one object per walk, none per node: the stack is four parallel arrays).
// Stack entries: [node, parentOut, ctx, scope]; ctx bits: 1 = inside interactive container,
// 2 = visibility hidden (inherited), 4 = options of a drop-down select (no refs),
// 8 = reached through its aria-owns owner, 0x70 and 0x80 = an unseen kind and its flag
// (42_unseen), CTX_ACT, CTX_ITEMS and CTX_KIDS (what a user can click, 43_click); frame index
// in ctx >> FRAME_SHIFT. A null node marks the end of a block-level container (ctx 0), or with
// ctx SETTLE the end of a listened element's subtree, when whether it is a clickable or a
// container of clickables is known (settleClickable).
const FRAME_SHIFT = 11;
const SETTLE = -1;

/**
 * The state of one walk: its output (nodes, els, cands, frames), options, counters, explicit
 * stack and aria-owns maps. Resets the last walk's records (pending hosts, cross-origin
 * frames), reads rootDoc's aria-owns and emits the document node.
 */
function newWalk(rootDoc, opts) {
  const w = {
    t0: $now(),
    nodes: [],
    els: [],
    cands: [],
    frames: [],
    notes: [],
    // the shadow roots walked into
    shadows: [],
    // per output node, the index of its last emitted child (-1: none), for text merging
    lastKid: [],
    maxNodes: opts.maxNodes > 0 ? opts.maxNodes : 0,
    verbose: !!opts.verbose,
    wantBoxes: !!opts.viewport || !!opts.boxes,
    viewportOnly: !!opts.viewport,
    // docs/reference/detail.md#budgets budgets: every element node gets a ref, so that a subtree the host elides can
    // be expanded with --root; the refs of nodes that are not candidates are marked (c: 1)
    // and shown on elided lines only
    containerRefs: !!opts.containerRefs,
    // unseen text: per element, its text's kind and the background behind it
    textCache: new $Map(),
    bgCache: new $Map(),
    colourCache: new $Map(),
    viewDims: new $Map(),
    layers: [],
    geomText: new $Set(),
    // (element, node index) pairs of text that a layer may cover, for coverPass
    coverCands: [],
    geomAny: false,
    // Inside a cross-origin frame read by the host, refs carry its index (f<k>) and frames
    // nested in it are numbered k*1000+j so refs stay unique in the tab.
    frameBase: opts.frame > 0 ? opts.frame : 0,
    focusedEl: null,
    vp: null,
    leftOut: 0,
    elements: 0,
    // Closed shadow roots: read (handed over by the host), unreadable (the endpoint could
    // not say), pending (not probed yet); host tags for the notes.
    closedRead: 0,
    closedUnread: 0,
    closedPending: 0,
    closedTags: [],
    closedTagSet: new $Set(),
    // aria-owns: owner -> owned elements, owned element -> owner (null until one is found)
    ownsOf: null,
    ownedBy: null,
    // the stack, as parallel arrays rather than one small array per entry; stackS holds the
    // tree scope (document or shadow root) of each entry, so style questions need no
    // getRootNode; null where it is not known (slotted nodes: ::slotted rules come from the
    // slot's scope, and the slow path looks at both)
    stack: [],
    stackP: [],
    stackC: [],
    stackS: [],
    sp: 0,
    // the warm-up's walk (90_api): runWalk stops at `until` ($now) or after `limit`
    // elements, and the walk leaves no record (frames unnumbered, no closed-root host queued)
    warm: !!opts.warm,
    // no tree scope the walk has entered has an aria-disabled element (isDisabled need not
    // climb); set by startWalk, cleared by the first scope entered that has one
    ariaNone: false,
    until: 0,
    limit: opts.limit > 0 ? opts.limit : 0,
    // the open modal dialog, when the walk looks behind it (opts.behindModal: the diff of an
    // action's changes): what the page hid from assistive technology only because the modal
    // is open (inert, aria-hidden) is walked as if shown, and behindModal says so
    modal: null,
    behindModal: false,
    // whether the node just emitted is actionable now (a control, a focusable element, a
    // clickable by its cursor): a pointer cursor below it is its own (CTX_ACT)
    act: false,
    // listened elements whose subtree is being walked: node index -> {cand, start, made}
    // (settleClickable), and node indexes left out once settled (finishWalk compacts)
    pending: null,
    gone: null,
    // per text run, its first and last piece (a text node or the element it is shown in):
    // a long run gets the ref of the element that holds it (runHolders)
    runFrom: [],
    runTo: [],
    runFrame: [],
    // block breaks in text runs: (run index, offset after the break), flat
    breaks: [],
    // the element the walk starts from when asked (opts.rootEl), else null
    root: null,
    // text run index -> the spans text-level elements take in its raw text (markedText)
    marks: null,
  };
  if (!w.warm) {
    walksBegun++;
    pendingHosts = [];
    crossFrames = new $Map();
  }
  scanOwns(w, rootDoc);
  const title = docTitleOf(rootDoc);
  const doc = newNode(-1, "document");
  doc.n = clean(normalizeWS(title || ""), NAME_CAP);
  push(w.nodes, doc);
  push(w.els, rootDoc);
  w.lastKid[0] = -1;
  return w;
}

/**
 * The open modal dialog of a document: a shown element with aria-modal="true" (WAI-ARIA 1.2)
 * or a dialog opened with showModal() (HTML `:modal`), or null.
 */
function openModal(doc) {
  let list;
  try {
    list = docQuerySelectorAll(doc, '[aria-modal="true"], dialog[open]');
  } catch (_) {
    return null;
  }
  const n = nodeListLength(list);
  for (let i = 0; i < n; i++) {
    const el = nodeListItem(list, i);
    if (localNameOf(el) === "dialog") {
      let modal = false;
      try {
        modal = matches(el, ":modal");
      } catch (_) {
        modal = false;
      }
      if (!modal) continue;
    }
    if (!checkVisibility || checkVisibility(el)) return el;
  }
  return null;
}

/**
 * Reads the aria-owns of a document into w.ownsOf / w.ownedBy: the owner shows its owned
 * elements after its own children, and they are left out where they stand in the DOM (as
 * Chromium's tree does). Document scope only.
 */
function scanOwns(w, doc) {
  let list;
  try {
    list = docQuerySelectorAll(doc, "[aria-owns]");
  } catch (_) {
    return;
  }
  const n = nodeListLength(list);
  for (let i = 0; i < n; i++) {
    const owner = nodeListItem(list, i);
    // an owner the page does not render owns nothing: its elements stay where they are
    if (checkVisibility && !checkVisibility(owner)) continue;
    const ids = idRefs(owner, "aria-owns");
    for (let j = 0; j < ids.length; j++) {
      const t = ids[j];
      if (!w.ownsOf) {
        w.ownsOf = new $Map();
        w.ownedBy = new $Map();
      }
      // one owner per element, and never an ancestor of the owner (no cycles)
      if (mapHas(w.ownedBy, t) || contains(t, owner)) continue;
      // what is hidden where it stands stays hidden (and stays out)
      if (checkVisibility && !checkVisibility(t)) continue;
      if (closest(t, '[aria-hidden="true"], [inert]')) continue;
      mapSet(w.ownedBy, t, owner);
      let owned = mapGet(w.ownsOf, owner);
      if (!owned) {
        owned = [];
        mapSet(w.ownsOf, owner, owned);
      }
      push(owned, t);
    }
  }
}

/**
 * A new output node of role r under output node p, with every field the walk and 50_refs may
 * set present from the start (undefined: absent; every reader treats the two alike). One
 * shape for all nodes: no property is added later, so V8 neither grows nor re-shapes them,
 * and the encoder's reads see one shape.
 */
function newNode(p, r) {
  return { p: p, r: r, n: undefined, v: undefined, s: undefined, u: undefined, d: undefined, ph: undefined,
    b: undefined, f: undefined, ref: undefined };
}

/** Appends an output node (el: its element, null for text); its index, or -1 over --max-nodes. */
function emitNode(w, node, el) {
  if (w.maxNodes && w.nodes.length >= w.maxNodes) {
    w.leftOut++;
    return -1;
  }
  const i = w.nodes.length;
  push(w.nodes, node);
  push(w.els, el);
  w.lastKid[i] = -1;
  w.lastKid[node.p] = i;
  return i;
}

/** Pushes a stack entry: node (null: end of a block), its parent's output index, ctx, scope. */
function spush(w, node, p, c, scope) {
  const sp = w.sp;
  w.stack[sp] = node;
  w.stackP[sp] = p;
  w.stackC[sp] = c;
  w.stackS[sp] = scope;
  w.sp = sp + 1;
}

/**
 * Whether el's box lies outside the viewport (--viewport). A box of no size says nothing
 * (display: contents, an empty element): its content decides.
 */
function outOfView(w, el) {
  const b = boxOf(el);
  if (b.w === 0 && b.h === 0) return false;
  return !intersectsViewport(b, w.vp);
}

/**
 * Emits an element's own node, if it has one: its role's, or a generic one when it is
 * focusable, clickable (click: 43_click's answer) or named by its author. Its index,
 * parentOut when it has none, or -1 over --max-nodes. Sets w.act for the walk below it.
 */
function emitElement(w, el, tag, role, textRole, parentOut, ctx, attrs, scope, click) {
  w.act = false;
  if (role) return emitRoleNode(w, el, role, tag, parentOut, ctx, attrs, scope, undefined, click & CLICKABLE);
  if (ctx & 2) return parentOut;
  let idx = emitGenericNode(w, el, tag, parentOut, ctx, attrs, click & CLICKABLE, scope);
  if (idx < 0 && attrs) idx = emitAuthorNamed(w, el, tag, textRole, parentOut, ctx, attrs, scope);
  return idx >= 0 ? idx : parentOut;
}

/** The box of an element as [x, y, w, h] rounded to CSS pixels. */
function roundedBox(el) {
  const bx = boxOf(el);
  return [$Math.round(bx.x), $Math.round(bx.y), $Math.round(bx.w), $Math.round(bx.h)];
}

/**
 * Emits the node of an element with a role (name, states, value, URL, description,
 * placeholder, box) and makes it a ref candidate when its tier is 1 or 2. Its index, or -1
 * over --max-nodes.
 */
function emitRoleNode(w, el, role, tag, parentOut, ctx, attrs, scope, known, click) {
  // reached through shown ancestors (the walk does not enter hidden or skipped
  // subtrees): name-from-content questions about its descendants stop climbing here
  if (setHas(NAME_FROM_CONTENT, role)) markShown(el);
  const name = known === undefined ? getName(el, role, scope, tag) : known;
  const n = newNode(parentOut, role);
  if (name) n.n = name;
  if (ctx >> FRAME_SHIFT) n.f = ctx >> FRAME_SHIFT;
  const st = statesOf(el, role, tag, w.focusedEl, w.verbose, attrs, w.ariaNone);
  if (st) n.s = st;
  if (setHas(VALUE_ROLES, role) || role === "progressbar" || role === "meter") {
    const v = valueOf(el, role, tag);
    if (v) n.v = clean(v, NAME_CAP);
  }
  if (role === "link") {
    const u = hrefOf(el, tag);
    if (u) n.u = clean(u, 2048);
  }
  // an invalid field's description is its error text, which interactive and summary views
  // keep (docs/reference/detail.md#nothing-is-dropped-silently: aria-invalid with aria-describedby / aria-errormessage)
  if (w.verbose || (st && st.invalid)) {
    const d = st && st.invalid ? getErrorText(el, name) : getDescription(el, name);
    if (d) n.d = d;
  }
  if (w.verbose) {
    const ph = getAttr(el, "placeholder") || getAttr(el, "aria-placeholder");
    if (ph) n.ph = clean(ph, NAME_CAP);
  }
  if (w.wantBoxes) n.b = roundedBox(el);
  const idx = emitNode(w, n, el);
  if (idx < 0) return -1;
  let tier = candidateTier(el, role, tag, st, ctx, attrs);
  w.act = tier === 1;
  if (click && tier === 3 && !(ctx & 4)) {
    // an element with a role that is no control and no item of an interactive container,
    // made clickable (a list item, a row, an image...): it keeps its role, and says why it
    // has a ref
    tier = 1;
    markClickable(w, n, idx, el, click, false, scope);
  }
  if (tier === 1 && !name && role !== "generic") iconHintOf(n, el);
  if (tier < 3) push(w.cands, { i: idx, el: el, tier: tier, role: role, name: name, frame: ctx >> FRAME_SHIFT });
  else if (w.containerRefs) {
    push(w.cands, { i: idx, el: el, tier: 1, role: role, name: name, frame: ctx >> FRAME_SHIFT, container: true });
  }
  return idx;
}

/**
 * Ref tier of a node with a role: 1 for controls (and focusable or editable elements that
 * are not disabled), 2 for items inside interactive containers, 3 (no ref) otherwise and
 * for the options of a drop-down select.
 */
function candidateTier(el, role, tag, st, ctx, attrs) {
  let tier = 3;
  if (setHas(TIER1, role)) tier = 1;
  // a list-box select (multiple or size > 1) is a form control like the drop-down one, and
  // focusable (HTML: tabIndex 0): `set` and `select` act on it, not on its options
  else if (tag === "select" && !(st && st.disabled)) tier = 1;
  else if ((ctx & 1) && setHas(TIER2, role)) tier = 2;
  else if (!st || !st.disabled) {
    let ti = null;
    const tia = attrs ? getAttr(el, "tabindex") : null;
    if (tia !== null) ti = $Number(tia);
    if ((ti !== null && ti >= 0) || (isEditable(el) && tag !== "body")) tier = 1;
    // HTML #the-draggable-attribute: a user can drag an element with draggable="true"
    // (a draggable div is a group: minimumGroup), so `drag` needs its ref
    else if (isDraggableEl(el, attrs)) tier = 1;
  }
  if (ctx & 4) tier = 3;
  return tier;
}

/**
 * An element the tree shows no line for (a generic container, a text-level role) that its
 * author named (aria-label, aria-labelledby, or a title where it names):
 * Chromium keeps such an element in its tree with its name (WPT accname/name/comp_label,
 * comp_tooltip: a named div, dt, dl or abbr), so it gets a line. Its index, or -1.
 */
function emitAuthorNamed(w, el, tag, textRole, parentOut, ctx, attrs, scope) {
  if (!hasAriaLabel(el)) {
    if (!getAttr(el, "title")) return -1;
    // a title on an element with nothing to show is a tooltip no user can reach (nothing to
    // hover): machine-readable titles on empty spans (COinS citation metadata) get no line
    if (!firstElementChild(el) && !strTrim(textContent(el) || "")) return -1;
    // a title does not undo role none or presentation (not an ARIA attribute: no conflict,
    // WAI-ARIA 1.2 #conflict_resolution_presentation_none); Chromium shows no node
    const r = attrs ? explicitRole(el) : null;
    if (r === "none" || r === "presentation") return -1;
  }
  if (tag === "body" || tag === "html" || tag === "slot") return -1;
  if (w.viewportOnly && outOfView(w, el)) return -1;
  const role = textRole || "generic";
  const name = getName(el, role, scope, tag);
  if (!name) return -1;
  return emitRoleNode(w, el, role, tag, parentOut, ctx, attrs, scope, name);
}

/**
 * A generic container is still interactive when focusable, clickable (click: 43_click's
 * CLICK_NOW or CLICK_LATER) or draggable: emits it as a tier 1 candidate, a clickable one
 * flagged so. Named only by its author (aria-label, aria-labelledby, title); its text is its
 * content, shown under it, and its words (wordsOf) are its ref's identity. Its index, or -1
 * when it is not one (or over --max-nodes).
 */
function emitGenericNode(w, el, tag, parentOut, ctx, attrs, click, scope) {
  const tia = attrs ? getAttr(el, "tabindex") : null;
  const focusable = tia !== null && $Number(tia) >= 0;
  const draggable = isDraggableEl(el, attrs);
  if (!(focusable || click || draggable) || tag === "body" || tag === "html") return -1;
  // --viewport: one out of view is not shown (its box is read only for such candidates)
  if (w.viewportOnly && outOfView(w, el)) return -1;
  const name = getName(el, "generic");
  // a listened one has its words once its subtree is known to be its own (settleClickable)
  const later = !focusable && (click & CLICK_LATER) !== 0;
  const words = name || later ? "" : genericWords(el, scope);
  const n = newNode(parentOut, "generic");
  if (name) n.n = name;
  if (words) setWords(n, words);
  // a slider drawn without ARIA: where its handle stands is its value
  const hp = focusable && !name && !words ? handlePosition(el) : null;
  if (hp) n.v = hp.pct + "%";
  if (w.wantBoxes) n.b = roundedBox(el);
  const idx = emitNode(w, n, el);
  if (idx < 0) return -1;
  w.act = true;
  // a node made only because it is clickable goes again if it turns out a container
  if (!focusable && click) markClickable(w, n, idx, el, click, !name, scope);
  if (!name && !words && !later) iconHintOf(n, el);
  push(w.cands, { i: idx, el: el, tier: 1, role: "generic", name: name, key: name || words, frame: ctx >> FRAME_SHIFT });
  return idx;
}

/**
 * The words of a generic element that has a ref but no name: its content as names read it
 * (block boxes apart), cut. WAI-ARIA 1.2 #generic: "Name From: prohibited", and both
 * browsers' trees hold it so (Chromium's and Firefox's computed label of such a div is
 * empty): the words are no name. The snapshot shows them as its content (the text under it,
 * `- generic [clickable] [ref=s1e5]: Stove`, as Playwright prints a generic with text), and
 * they are its ref's identity in place of a name (docs/reference/refs.md#stability): the
 * element keeps its ref while its role and these words stay.
 */
function genericWords(el, scope) {
  return clean(contentText(el, false, el, scope), 100);
}

/** Sets the words of node n (genericWords): a state the host reads (states.words), never its name. */
function setWords(n, words) {
  if (!n.s) n.s = {};
  n.s.words = words;
}

/** A node's name, else its words (genericWords): what its ref is kept by, and what locators match. */
function nameOrWords(node) {
  return node.n || (node.s && node.s.words) || "";
}

/**
 * Flags node n (index idx, element el) clickable (docs/reference/output.md#flags). A
 * listened one (CLICK_LATER) is not actionable for the walk below it and waits for its
 * subtree (settleClickable); made: its node exists only because it is clickable.
 */
function markClickable(w, n, idx, el, click, made, scope) {
  if (!n.s) n.s = {};
  n.s.clickable = true;
  if (!(click & CLICK_LATER)) {
    w.act = true;
    return;
  }
  w.act = false;
  if (!w.pending) w.pending = new $Map();
  // its candidate is pushed next, the ones of its subtree after it
  mapSet(w.pending, idx, { cand: w.cands.length, made: made, el: el, scope: scope || null });
}

/** An unnamed control's icon words, as a hint beside its line (never its name). */
function iconHintOf(n, el) {
  const h = iconHint(el);
  if (!h) return;
  if (!n.s) n.s = {};
  n.s.icon = h;
}

/**
 * The end of a listened element's subtree (node idx): a clickable, unless its subtree holds
 * an actionable element (a ref candidate), which makes it a container whose listener serves
 * what it holds (event delegation): its flag and candidacy go, and a node made only for it
 * goes too, its children moved up to its parent (finishWalk compacts the list).
 */
function settleClickable(w, idx) {
  const p = mapGet(w.pending, idx);
  mapDelete(w.pending, idx);
  if (!p) return;
  let holds = false;
  for (let i = p.cand + 1; i < w.cands.length && !holds; i++) {
    const c = w.cands[i];
    holds = !c.container && !c.dropped;
  }
  const own = w.cands[p.cand];
  const n = w.nodes[idx];
  if (!holds) {
    // a clickable: a generic one made for it has its words now (genericWords)
    if (p.made && !n.n) {
      const words = genericWords(p.el, p.scope);
      if (words) {
        setWords(n, words);
        if (own) own.key = words;
      } else iconHintOf(n, p.el);
    }
    return;
  }
  if (own) own.dropped = true;
  if (n.s) n.s.clickable = undefined;
  if (!p.made) return;
  if (!w.gone) w.gone = new $Set();
  setAdd(w.gone, idx);
  for (let j = idx + 1; j < w.nodes.length; j++) if (w.nodes[j].p === idx) w.nodes[j].p = n.p;
  // text after it joins the last run it held
  w.lastKid[n.p] = w.lastKid[idx];
}
