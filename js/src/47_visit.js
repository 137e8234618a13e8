//! 47_visit.js: the walk driven. walk() starts it, runWalk pops its stack and hands each
//! entry to the visitor of its node type: text, documents, elements, frames; the visitors
//! push what comes next: shadow roots, slots, same-origin frames, aria-owned elements, a
//! select's options, SVG's shown parts, an image map's areas.
//!
//! Owns: the order of the walk, what each node type adds to it, frame stitching. Nodes are
//! emitted by 45_walk, text by 46_runs. Must not: mint refs (50_refs does, after the walk).

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
  push(w.shadows, sr);
  if (w.ariaNone && scopeHasAriaDisabled(sr)) w.ariaNone = false;
  for (let c = lastChildOf(sr); c; c = previousSiblingOf(c)) spush(w, c, out, ctx, sr);
}

/** Pushes a slot's assigned nodes (their scope unknown here) or its fallback content (its own). */
function pushSlot(w, slot, out, ctx, elScope) {
  const kids = flatChildren(slot);
  const assigned = kids.length > 0 && parentNode(kids[0]) !== slot;
  for (let i = kids.length - 1; i >= 0; i--) spush(w, kids[i], out, ctx, assigned ? null : elScope);
}
