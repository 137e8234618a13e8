//! 45_walk.js: the walk. One iterative pass over the flat tree (shadow roots, slots,
//! same-origin frames, aria-owns) that emits a flat node list with parent indexes.
//!
//! Owns: which nodes appear, which are ref candidates (and their tiers), text merging,
//! truncation, frame stitching. States come from 40_states, unseen text from 42_unseen, what
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

// The walk: walk() drives it, over one state object made by newWalk() and shared by the
// visitors below (one object per walk, none per node: the stack is four parallel arrays).
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
 * Walks from `rootEl` and returns {nodes, els, cands, frames, notes, stats}. Nodes: {p, r,
 * n?, v?, s?, u?, d?, ph?, b?, f?}. Cands: elements that may get refs {i, el, tier, role,
 * name, frame}.
 */
function walk(rootDoc, opts) {
  const w = startWalk(rootDoc, opts);
  runWalk(w);
  return endWalk(w);
}

/** A new walk with its start (`opts.rootEl`, else the body) on the stack, for runWalk. */
function startWalk(rootDoc, opts) {
  const w = newWalk(rootDoc, opts);
  const start = opts.rootEl || docBodyOf(rootDoc) || docElementOf(rootDoc);
  if (start) {
    // a walk from an element (rootEl) has not entered the scopes above it
    w.ariaNone = !opts.rootEl && !scopeHasAriaDisabled(rootDoc);
    w.root = opts.rootEl || null;
    // a start that an owner takes through aria-owns is walked all the same (ctx bit 8)
    const owned = w.ownedBy && mapHas(w.ownedBy, start) ? 8 : 0;
    if (!(opts.rootEl && inClosedDetails(start))) spush(w, start, 0, (w.frameBase << FRAME_SHIFT) | owned, getRootNode(start));
    w.focusedEl = deepActiveElement(rootDoc);
    if (opts.behindModal) w.modal = openModal(rootDoc);
    w.vp = w.wantBoxes ? viewportOf(start) : null;
  }
  return w;
}

/** The result of a walk whose stack runWalk has emptied: covered text flagged, then finished. */
function endWalk(w) {
  coverPass(w);
  return finishWalk(w);
}

/** Pops the stack until it is empty, handing each entry to the visitor of its node type. */
function runWalk(w) {
  const stack = w.stack;
  const stackP = w.stackP;
  const stackC = w.stackC;
  const stackS = w.stackS;
  const until = w.until;
  let n = 0;
  while (w.sp > 0) {
    // a warm-up slice ends at its time or element budget (the stack keeps its place)
    if (until !== 0 && (++n & 15) === 0 && ($now() >= until || w.elements >= w.limit)) return;
    const sp = --w.sp;
    const node = stack[sp];
    const parentOut = stackP[sp];
    const ctx = stackC[sp];
    const scope = stackS[sp];
    stack[sp] = null;
    stackS[sp] = null;
    if (node === null) {
      if (ctx === SETTLE) settleClickable(w, parentOut);
      // the end of a block-level container: text on either side must not run together
      else spaceAfterText(w, parentOut);
      continue;
    }
    const nt = nodeType(node);
    if (nt === TEXT_NODE) visitText(w, node, parentOut, ctx, scope);
    else if (nt === DOCUMENT_NODE) visitDocument(w, node, parentOut, ctx);
    else if (nt === ELEMENT_NODE) visitElement(w, node, parentOut, ctx, scope);
  }
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

/** A text node: its rendered text joins the text under its parent (nothing when hidden). */
function visitText(w, node, parentOut, ctx, scope) {
  if (ctx & 2) return;
  const v = renderedText(node, scope);
  if (!v) return;
  visitTextValue(w, v, node, null, parentOut, ctx, scope);
}

/**
 * Rendered text v under output node parentOut: joined to the painted text run, or a run of
 * its own when unseen. el: the element it is shown in when known (else that of text node
 * `node`, found when needed).
 */
function visitTextValue(w, v, node, el, parentOut, ctx, scope) {
  if (ctx & UN_FLAGGED) {
    emitText(w, v, parentOut, el || node, ctx >> FRAME_SHIFT);
    return;
  }
  let k = (ctx & UN_MASK) >> 4;
  if (!k && strTrim(v)) {
    if (!el) el = flatParentElement(node);
    if (el) k = textUnseen(w, el, scope);
  }
  if (!k) {
    emitText(w, v, parentOut, el || node, ctx >> FRAME_SHIFT);
    if (w.geomAny && strTrim(v)) {
      // text a layer may cover: its run is checked after the walk (coverPass)
      if (!el) el = flatParentElement(node);
      const li = w.lastKid[parentOut];
      if (el && li >= 0 && w.nodes[li].r === "text" && setHas(w.geomText, el)) {
        push(w.coverCands, el);
        push(w.coverCands, li);
      }
    }
    return;
  }
  // a control that shows its icon is seen, its words or not: its line is not lifted unseen
  if (k !== UN_COVERED) markIconShown(w, parentOut);
  // its own run, never merged with painted text
  const li = w.lastKid[parentOut];
  if (li >= 0 && w.nodes[li].r === "text" && w.nodes[li].s && w.nodes[li].s.unseen === UNSEEN_KINDS[k]) {
    w.nodes[li].v += v;
    if (w.nodes[li].v.length > RUN_NEAR) w.runTo[li] = el || node;
    return;
  }
  if (!strTrim(v)) return;
  const t = newNode(parentOut, "text");
  t.v = v;
  flagUnseen(t, k);
  const i = emitNode(w, t, null);
  if (i >= 0) {
    w.runFrom[i] = el || node;
    w.runTo[i] = el || node;
    if (ctx >> FRAME_SHIFT) w.runFrame[i] = ctx >> FRAME_SHIFT;
  }
}

/**
 * Whether output node i is a control whose element shows an icon in sight
 * (controlShowsIcon): words that name it may be unseen, it is not.
 */
function iconShownBy(w, i) {
  const n = w.nodes[i];
  const el = w.els[i];
  return !!n && !!el && (setHas(TIER1, n.r) || n.r === "generic") && controlShowsIcon(w, el);
}

/** Marks output node i as a control that shows its icon (its line is never lifted unseen). */
function markIconShown(w, i) {
  const n = w.nodes[i];
  if (!n || (n.s && (n.s.painted || n.s.unseen))) return;
  if (!iconShownBy(w, i)) return;
  if (!n.s) n.s = {};
  n.s.painted = true;
}

/** A same-origin frame's document: its body (or root element) is walked under the frame. */
function visitDocument(w, doc, parentOut, ctx) {
  if (w.ariaNone && scopeHasAriaDisabled(doc)) w.ariaNone = false;
  const b = docBodyOf(doc) || docElementOf(doc);
  if (b) spush(w, b, parentOut, ctx, doc);
}

/**
 * An element: skipped when hidden (or owned elsewhere), its node when it has a role or is an
 * interactive container, then its children pushed in reverse document order.
 */
function visitElement(w, el, parentOut, ctx, scope) {
  if (w.ownedBy) {
    // an owned element is walked under its owner (ctx bit 8), not where it stands
    if (!(ctx & 8) && mapHas(w.ownedBy, el)) return;
    ctx &= ~8;
  }
  // a child of a container whose children are the targets (43_click); not passed further down
  const kid = (ctx & CTX_KIDS) !== 0;
  ctx &= ~CTX_KIDS;
  w.elements++;
  const style = styleOf(el);
  // whether el has attributes at all: one call that answers many attribute reads below
  const attrs = hasAttrs(el);
  // its local name, read once: the hidden check, its tag, role, name and states all need it
  const ln = localNameOf(el);
  // HTML-AAM #el-area: an image map's areas show as links under the image that uses the map
  // (pushSpecialChildren), as in Chromium's tree; where the map stands they show nothing
  // (areas are not rendered). A walk started from an area shows it.
  if (ln === "area") {
    if (el === w.root && areaMapInUse(el)) emitArea(w, el, parentOut, ctx, scope);
    return;
  }
  const hiddenBy = subtreeHiddenReason(el, style, attrs, ln);
  if (hiddenBy) {
    // a page makes itself inert (or aria-hidden) around a modal dialog: for the diff, the
    // page behind is the page's, and one fact (ARIA 1.2 aria-modal; HTML inert)
    if (!(w.modal && (hiddenBy === "inert" || hiddenBy === "aria-hidden") && !flatContains(el, w.modal))) return;
    w.behindModal = true;
  }
  const elScope = scope || getRootNode(el);
  // its shadow root, if any: its :host rules may style it (mayStyleIn), and the walk goes
  // into it (pushFlatChildren)
  const hostRoot = hostRootOf(el);
  const visHidden = visibilityHiddenIn(el, style, !!(ctx & 2), scope, attrs);
  if (visHidden) ctx |= 2;
  else ctx &= ~2;
  if (!visHidden && !(ctx & UN_MASK)) {
    const k = elementUnseen(w, el, style, scope, attrs);
    if (k) ctx |= k << 4;
  }
  const tag = tagOfLocal(el, ln);
  // A custom element may hold a closed shadow root (docs/reference/browsers.md#closed-shadow-roots: reported, never dropped).
  // (an HTML element: SVG and MathML names with a dash, font-face..., are no custom elements)
  if (strIndexOf(tag, "-") > 0 && strIndexOf(tag, ":") < 0 && !shadowRootOf(el)) noteCustomHost(w, el, tag);
  if (tag === "br") {
    spaceAfterText(w, parentOut);
    return;
  }
  let role = visHidden ? null : getRole(el, tag);
  const textRole = role;
  // (a walk started from a text-level element shows it as a node: it has no line around it)
  if (role && setHas(INLINE_TEXT_ROLES, role) && el !== w.root) role = null;
  // --viewport (docs/reference/detail.md#scope): an element outside the viewport shows neither its role nor, as a
  // clickable generic, itself; only descendants that are in view (a fixed or positioned
  // layer) show
  if (role && w.viewportOnly && outOfView(w, el)) role = null;
  // what a user can click besides controls (43_click)
  const click = visHidden ? 0 : clickKind(el, tag, role, ctx, style, attrs, elScope, kid);
  const out = emitElement(w, el, tag, role, textRole, parentOut, ctx, attrs, scope, click);
  // over --max-nodes: keep counting what would have been shown, emit nothing more
  if (out < 0) return;
  if (out !== parentOut) {
    if (role && setHas(INTERACTIVE_CONTAINERS, role)) ctx |= 1;
    if (w.act) ctx |= CTX_ACT;
    // a listened element is settled once its subtree is walked (popped after its children)
    if (w.pending && mapHas(w.pending, out)) spush(w, null, out, SETTLE, null);
  }
  ctx = clickCtx(ctx, click, role);
  if (out !== parentOut && (ctx & UN_MASK) && !(ctx & UN_FLAGGED)) {
    // the first node emitted under an unseen element carries the flag for its subtree
    flagUnseen(w.nodes[out], (ctx & UN_MASK) >> 4);
    ctx |= UN_FLAGGED;
  }

  // Children, pushed in reverse document order.
  if (contentsSkipped(el, style, scope, attrs)) return;
  if (tag === "iframe" || tag === "frame") {
    // An invisible frame shows nothing of its document, whatever that document's own
    // styles say (visibility does not inherit across documents, but the frame is not
    // painted): its content is hidden, like any hidden subtree.
    // With --viewport, a frame outside the viewport shows nothing (its document's boxes
    // are in its own coordinates, so they cannot be tested against the top viewport).
    if (!visHidden && !(w.viewportOnly && !intersectsViewport(boxOf(el), w.vp))) {
      visitFrame(w, el, tag, out, ctx);
    }
    return;
  }
  if (pushSpecialChildren(w, el, tag, role, out, ctx, elScope)) return;
  if (namedByTextOnly(w, el, tag, elScope, parentOut, out)) {
    // its text is its name: an unseen text gives the flag to the name's line
    if (!(ctx & (UN_MASK | UN_FLAGGED))) {
      const k = textUnseen(w, el, elScope);
      if (k && (k === UN_COVERED || !iconShownBy(w, out))) flagUnseen(w.nodes[out], k);
      else if (out !== parentOut && setHas(w.geomText, el)) {
        push(w.coverCands, el);
        push(w.coverCands, out);
      }
    }
    return;
  }
  if (out === parentOut && textRole && !role && !visHidden && setHas(MARK_ROLES, textRole) &&
      markedText(w, el, textRole, parentOut, ctx, elScope, hostRoot, style)) return;
  if (out === parentOut && !visHidden && style && !setHas(INLINE_DISPLAYS, displayOf(el)) && !flushInline(el, style)) {
    spaceAfterText(w, parentOut);
    spush(w, null, parentOut, 0, null);
  }
  pushFlatChildren(w, el, tag, out, ctx, elScope, hostRoot);
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

/**
 * A text-level element (strong, code, deletion...) whose content is text only: its rendered
 * text joins its parent's run, and the span it takes there is recorded (w.marks: run index ->
 * [role, start, end, ...] in the run's raw text) for finishWalk to make a mark of. False
 * (nothing done) when it holds elements, a shadow root, owned elements or generated content:
 * its text then flows into the run unmarked, as before.
 */
function markedText(w, el, role, parentOut, ctx, elScope, hostRoot, style) {
  if (firstElementChild(el) || hostRoot || (w.ownsOf && mapHas(w.ownsOf, el))) return false;
  if (scopeFlagsOf(elScope) & SCOPE_PSEUDO) return false;
  const t = textContent(el);
  const v = t ? transformedText(t, el, elScope) : "";
  if (!strTrim(v)) return false;
  // (an inline-block with no spacing of its own flows like inline text: flushInline)
  const block = !setHas(INLINE_DISPLAYS, displayOf(el)) && !(style && flushInline(el, style));
  if (block) spaceAfterText(w, parentOut);
  visitTextValue(w, v, null, el, parentOut, ctx, elScope);
  const li = w.lastKid[parentOut];
  if (li >= 0 && w.nodes[li].r === "text") {
    const end = w.nodes[li].v.length;
    if (!w.marks) w.marks = new $Map();
    let m = mapGet(w.marks, li);
    if (!m) {
      m = [];
      mapSet(w.marks, li, m);
    }
    push(m, role);
    push(m, end - v.length);
    push(m, end);
  }
  if (block) spaceAfterText(w, parentOut);
  return true;
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

/**
 * A shown iframe or frame element (out: its output index, or its parent's): a same-origin
 * document is read for aria-owns and pushed under it with its frame index in ctx; a
 * cross-origin one is listed for the host to read (with WebDriver frame switching).
 */
function visitFrame(w, el, tag, out, ctx) {
  if (w.warm) return;
  const doc = frameDocument(el, tag);
  const k = w.frameBase ? w.frameBase * 1000 + frameIndexOf(el) : frameIndexOf(el);
  if (doc && docElementOf(doc)) {
    push(w.frames, { k: k, i: out, url: clean(docURLOf(doc), 2048) });
    scanOwns(w, doc);
    spush(w, doc, out, (ctx & 3) | (k << FRAME_SHIFT), doc);
    return;
  }
  // A cross-origin frame too small to show anything (trackers, 0x0 ad slots) is
  // not read: the host would switch into it for nothing.
  const fb = boxOf(el);
  if (fb.w < 10 || fb.h < 10) return;
  // the resolved URL, so the host can match it with the browser's frame tree
  let src = "";
  try {
    src = (tag === "iframe" ? iframeSrcOf(el) : frameSrcOf(el)) || "";
  } catch (_) {
    src = "";
  }
  if (!src) src = getAttr(el, "src") || "";
  push(w.frames, { k: k, i: out, url: clean(src, 2048), unreadable: "cross-origin" });
  mapSet(crossFrames, k, weakEl(el));
}

/**
 * Elements that show only some of their children, or none: a closed details its summary, a
 * listbox or drop-down select its options, an image the areas of its image map; textarea,
 * svg and text fields nothing. True when el is one of these (its children, if any, are
 * pushed).
 */
function pushSpecialChildren(w, el, tag, role, out, ctx, elScope) {
  if (tag === "details" && !detailsOpenOf(el)) {
    for (let c = firstElementChild(el); c; c = nextElementSibling(c))
      if (localNameOf(c) === "summary") {
        spush(w, c, out, ctx, elScope);
        break;
      }
    return true;
  }
  if (tag === "svg" || strStartsWith(tag, "svg:")) {
    // SVG content as Chromium's tree shows it (SVG-AAM): an svg root that is an image has
    // nothing in it to show; a foreignObject holds HTML, walked as any
    if (tag === "svg:foreignObject") return false;
    if (tag !== "svg" || role !== "img" || svgHasContent(el)) pushSvgChildren(w, el, tag, out, ctx, elScope);
    return true;
  }
  if (tag === "img") {
    const map = usedMap(el);
    if (map) {
      const areas = querySelectorAll(map, "area");
      const n = nodeListLength(areas);
      for (let i = 0; i < n; i++) emitArea(w, nodeListItem(areas, i), out, ctx, elScope);
    }
    return true;
  }
  if (tag === "select" || tag === "textarea") {
    // Options of a closed select are listed; the text of a textarea is its value.
    // Options are listed for both select forms (Chromium exposes them; agents need them).
    // Options of a drop-down (combobox) select take no refs: they are chosen with
    // `select`, not clicked (ctx bit 4).
    if (tag === "select" && (role === "listbox" || role === "combobox")) {
      const kids = flatChildren(el);
      const bits = role === "combobox" ? 1 | 4 : 1;
      for (let i = kids.length - 1; i >= 0; i--) spush(w, kids[i], out, ctx | bits, elScope);
    }
    return true;
  }
  return role === "textbox" || role === "searchbox";
}

/** An area's node (a link when it has an href; nothing otherwise), under output node p. */
function emitArea(w, area, p, ctx, scope) {
  const role = getRole(area, "area");
  if (role) emitRoleNode(w, area, role, "area", p, ctx, hasAttrs(area), scope);
}

/**
 * Pushes what an SVG element shows under it, last first (SVG 2 rendering, as Chromium's tree
 * has it): its element children but those that render nothing (SVG_UNRENDERED), shapes and
 * `use`s that are neither named, focusable, clickable nor given a role (Chromium leaves
 * them out of its tree), and elements of other namespaces outside a foreignObject (not
 * rendered); text children only in text content elements (SVG renders no other text). A
 * `text` element is a block of its own (Chromium: one node each), so its run does not join
 * its neighbours'.
 */
function pushSvgChildren(w, el, tag, out, ctx, elScope) {
  if (w.ownsOf) {
    const owns = mapGet(w.ownsOf, el);
    if (owns) for (let i = owns.length - 1; i >= 0; i--) spush(w, owns[i], out, ctx | 8, null);
  }
  const ln = tag === "svg" ? tag : strSlice(tag, 4);
  const textual = setHas(SVG_TEXT, ln) || (ln === "a" && closest(el, "text") !== null);
  for (let c = lastChildOf(el); c; c = previousSiblingOf(c)) {
    const t = nodeType(c);
    if (t === TEXT_NODE) {
      if (textual) spush(w, c, out, ctx, elScope);
      continue;
    }
    if (t !== ELEMENT_NODE || namespaceURIOf(c) !== SVG_NS) continue;
    const cl = localNameOf(c);
    if (setHas(SVG_UNRENDERED, cl)) continue;
    if ((setHas(SVG_SHAPES, cl) || cl === "use") && !svgItemShown(c)) continue;
    const block = cl === "text";
    if (block) spush(w, null, out, 0, null);
    spush(w, c, out, ctx, elScope);
    if (block) spush(w, null, out, 0, null);
  }
}

/** Whether a shape or `use` is in Chromium's tree: named, focusable, clickable or with a role. */
function svgItemShown(el) {
  if (!hasAttrs(el) && !firstElementChild(el)) return false;
  return hasAttr(el, "tabindex") || hasAttr(el, "role") || hasAttr(el, "onclick") || svgNamed(el);
}

/**
 * A node named by its content whose children are text only: that text is its name, which
 * every output shows once (the text runs would be dropped), so it is not walked.
 */
function namedByTextOnly(w, el, tag, elScope, parentOut, out) {
  return out !== parentOut && !!w.nodes[out].n && !firstElementChild(el) && tag !== "slot" &&
    setHas(contentNamed, el) && !shadowRootAny(el) && !(w.ownsOf && mapHas(w.ownsOf, el)) &&
    !(scopeFlagsOf(elScope) & SCOPE_PSEUDO);
}

/**
 * Pushes what an element shows under it in the flat tree, last first: its aria-owns elements
 * (shown after its own children), then its shadow root's children, a slot's assigned nodes
 * or fallback content, or (the common case) its light children. hostRoot: el's shadow root
 * (open, or closed and handed over), or null.
 */
function pushFlatChildren(w, el, tag, out, ctx, elScope, hostRoot) {
  if (w.ownsOf) {
    const owns = mapGet(w.ownsOf, el);
    if (owns) for (let i = owns.length - 1; i >= 0; i--) spush(w, owns[i], out, ctx | 8, null);
  }
  const sr = tag === "slot" ? null : hostRoot;
  if (tag !== "slot" && !sr) {
    if (!firstElementChild(el)) {
      // text only (or nothing), the most common leaf: its text in one read (textContent
      // joins the text children, as the run they would make), so no text node is touched
      // (the sandbox makes a node's wrapper on first touch) and none goes through the stack
      if (!(ctx & 2)) {
        const t = textContent(el);
        const v = t ? transformedText(t, el, elScope) : "";
        if (v) visitTextValue(w, v, null, el, out, ctx, elScope);
      }
    } else {
      // light children, pushed last first
      for (let c = lastChildOf(el); c; c = previousSiblingOf(c)) spush(w, c, out, ctx, elScope);
    }
  } else if (sr) pushShadowRoot(w, sr, out, ctx);
  else pushSlot(w, el, out, ctx, elScope);
}

/** Pushes the children of a host's shadow root (open, or closed and handed over), last first. */
function pushShadowRoot(w, sr, out, ctx) {
  if (w.ariaNone && scopeHasAriaDisabled(sr)) w.ariaNone = false;
  for (let c = lastChildOf(sr); c; c = previousSiblingOf(c)) spush(w, c, out, ctx, sr);
}

/** Pushes a slot's assigned nodes (their scope unknown here) or its fallback content (its own). */
function pushSlot(w, slot, out, ctx, elScope) {
  const kids = flatChildren(slot);
  const assigned = kids.length > 0 && parentNode(kids[0]) !== slot;
  for (let i = kids.length - 1; i >= 0; i--) spush(w, kids[i], out, ctx, assigned ? null : elScope);
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
