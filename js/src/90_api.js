//! 90_api.js: the one global the engine installs, window.__ariaRefs: the public ref map
//! (ref -> element), with the engine's entry point as a non-enumerable, non-writable `call`.
//!
//! Owns: argument decoding, the per-walk cache region of every entry point (withCaches, the
//! only caller of beginCaches / endCaches) and the JSON reply of every entry point. Every
//! reply is a JSON string (one value crosses WebDriver, whatever the page's depth), made by
//! the pristine JSON.stringify. Expected failures are tagged values ({kind: ...}), not
//! exceptions.

function findRoot(doc, root) {
  if (!root) return { el: null };
  const r = strTrim("" + root);
  if (reTest(re("^(f\\d+)?s\\d+e\\d+$"), r)) {
    const res = resolveRef(r);
    if (res.kind !== "ok") return { error: res };
    return { el: res.el };
  }
  const m = re("^role=([a-z]+)$").exec(r);
  if (m) {
    const want = m[1];
    const all = docGetElementsByTagName(doc, "*");
    const len = htmlCollectionLength(all);
    for (let i = 0; i < len; i++) {
      const el = all[i];
      if (getRole(el) === want && !isHiddenForName(el)) return { el: el };
    }
    return { error: { kind: "no_root", root: r } };
  }
  let found = null;
  try {
    const list = docQuerySelectorAll(doc, r);
    found = nodeListLength(list) ? nodeListItem(list, 0) : null;
  } catch (_) {
    return { error: { kind: "bad_selector", root: r } };
  }
  if (!found) return { error: { kind: "no_root", root: r } };
  return { el: found };
}

/** The origin of a URL ("scheme://host:port"), or "" for URLs without one. */
function originOf(u) {
  const i = strIndexOf(u, "://");
  if (i < 0) return "";
  const j = strIndexOf(u, "/", i + 3);
  return j < 0 ? u : strSlice(u, 0, j);
}

const SQUASH_RE = re("\\s+", "g");
function squash(s) {
  return strTrim(strReplace(s, SQUASH_RE, " "));
}

/**
 * Refs for the elements that hold long text runs (46_runs runHolders), on the run's states as
 * `read`: the text view cuts such a run and says to read it whole with `get REF`
 * (docs/reference/output.md#text-format).
 */
function holderRefs(walked, n) {
  const hs = walked.runHolders;
  for (let i = 0; i < hs.length; i++) {
    const h = hs[i];
    const id = refIdentity(h.el);
    const ref = refFor(h.el, id.role, id.name, n, h.frame);
    const node = h.node || h.part.node;
    if (!node.s) node.s = {};
    node.s.read = ref;
  }
}

/**
 * The compact wire form of the node list (what crosses WebDriver; wire.rs reads it):
 * roles are indexes into a table, each node is an array
 * [parent distance, role, name-or-text, ref, value, url, states, description, placeholder,
 * box] (the parent's index is the node's own minus the distance; 0 for the document)
 * with 0 for an absent field and trailing absent fields left off. Text runs that only
 * repeat their parent's name are left out (every output drops them), and URLs of the
 * document's own origin lose it. Frame insertion indexes are moved with the nodes.
 */
function encodeNodes(nodes, frames, docUrl, els, frameBase) {
  const len = nodes.length;
  if (prototypesTampered()) {
    // absent fields must not be answered by the page's prototypes: make them own
    for (let i = 0; i < len; i++) {
      const nd = nodes[i];
      if (!$hasOwn(nd, "n")) nd.n = undefined;
      if (!$hasOwn(nd, "v")) nd.v = undefined;
      if (!$hasOwn(nd, "ref")) nd.ref = undefined;
      if (!$hasOwn(nd, "u")) nd.u = undefined;
      if (!$hasOwn(nd, "s")) nd.s = undefined;
      if (!$hasOwn(nd, "d")) nd.d = undefined;
      if (!$hasOwn(nd, "ph")) nd.ph = undefined;
      if (!$hasOwn(nd, "b")) nd.b = undefined;
    }
  }
  // text runs whose parent's name (or value: a select-only combobox's text is its value)
  // says the same: the parent has a name or value and text children only
  const textOnly = [];
  const unseenOf = [];
  const texts = new $Map();
  for (let i = 1; i < len; i++) {
    const nd = nodes[i];
    const p = nd.p;
    if (nd.r !== "text") {
      textOnly[p] = false;
      continue;
    }
    if (textOnly[p] === false || !(nodes[p].n || nodes[p].v)) continue;
    textOnly[p] = true;
    let t = mapGet(texts, p);
    if (!t) {
      t = [];
      mapSet(texts, p, t);
      unseenOf[p] = nd.s && nd.s.unseen ? nd.s.unseen : "";
    } else if (unseenOf[p] !== (nd.s && nd.s.unseen ? nd.s.unseen : "")) unseenOf[p] = "";
    push(t, nd.v);
  }
  const drop = [];
  mapForEach(texts, function (vals, p) {
    const said = squash(arrJoin(vals, " "));
    if (textOnly[p] === true && (said === squash(nodes[p].n || "") || said === squash(nodes[p].v || ""))) {
      drop[p] = true;
      // text dropped as said by the name: an unseen flag it had goes to the name's line
      // (not to a control that shows its icon: 42_unseen controlShowsIcon)
      if (unseenOf[p] && !(nodes[p].s && (nodes[p].s.unseen || nodes[p].s.painted))) {
        if (!nodes[p].s) nodes[p].s = {};
        nodes[p].s.unseen = unseenOf[p];
      }
    }
  });
  const origin = originOf(docUrl);
  const olen = origin.length;
  const roles = [];
  const roleIx = new $Map();
  const out = [];
  const newIx = [];
  // identities (ids): one per element node, 0 for text runs and the document
  const ids = els ? [] : null;
  for (let i = 0; i < len; i++) {
    const nd = nodes[i];
    if (i > 0 && nd.r === "text" && drop[nd.p] === true) {
      newIx[i] = -1;
      continue;
    }
    newIx[i] = out.length;
    if (ids) push(ids, i > 0 && nd.r !== "text" && els[i] ? identityOf(els[i], frameBase) : 0);
    let ri = mapGet(roleIx, nd.r);
    if (ri === undefined) {
      ri = roles.length;
      push(roles, nd.r);
      mapSet(roleIx, nd.r, ri);
    }
    let u = nd.u || 0;
    if (u && olen && strStartsWith(u, origin) && u.length > olen && u[olen] === "/") u = strSlice(u, olen);
    const isText = nd.r === "text";
    // the parent as a distance back (small numbers: fewer bytes than an index)
    const p = i > 0 ? out.length - newIx[nd.p] : 0;
    const f2 = (isText ? nd.v : nd.n) || 0;
    // a ref minted only so that a budget can elide the node is sent as "+ref" (host: elide_ref)
    const f3 = (nd.c && nd.ref ? "+" + nd.ref : nd.ref) || 0;
    const f4 = (isText ? 0 : nd.v) || 0;
    const f6 = nd.s || 0;
    // arrays of their final length (trimming one afterwards is slow in V8)
    let a;
    if (nd.d || nd.ph || nd.b) {
      a = [p, ri, f2, f3, f4, u, f6, nd.d || 0, nd.ph || 0, nd.b || 0];
      let end = 10;
      while (a[end - 1] === 0) end--;
      if (end < 10) a = arrSlice(a, 0, end);
    } else if (f6) a = [p, ri, f2, f3, f4, u, f6];
    else if (u) a = [p, ri, f2, f3, f4, u];
    else if (f4) a = [p, ri, f2, f3, f4];
    else if (f3) a = [p, ri, f2, f3];
    else if (f2) a = [p, ri, f2];
    else a = [p, ri];
    push(out, a);
  }
  for (let j = 0; j < frames.length; j++) {
    const f = frames[j];
    if (f.i >= 0 && f.i < len) f.i = newIx[f.i];
  }
  return { roles: roles, nodes: out, ids: ids, ix: newIx };
}

// Element identities (`ids` of a snapshot): a number per element for the document's life,
// never reused, so the host can tell the same element in two snapshots whatever happened to
// its ref, its name or its place in the viewport (the diff of an action's changes, docs/reference/replies.md#changes
// "Changes are the page's changes"). A cross-origin frame's engine numbers its own
// elements: its frame index goes in the high part (k * 2^32), as refs carry f<k>.
const identities = new $WeakMap();
let nextIdentity = 1;
const IDENTITY_FRAME = 4294967296;
function identityOf(el, frameBase) {
  let id = wmGet(identities, el);
  if (id === undefined) {
    id = nextIdentity++;
    wmSet(identities, el, id);
  }
  return frameBase ? frameBase * IDENTITY_FRAME + id : id;
}

/**
 * The identities of what the page's own work and an action touched (the main world's work
 * hook hands the nodes over: src/engine/hooks.rs), for the diff of the action's changes
 * (docs/reference/replies.md#settling: the page's own background work is not the action's
 * change). `lists` is [bgUp, bgDown, actUp, actDown]: "up" nodes are mutation targets, and
 * count with their flat-tree ancestors (a text that changed is a change of the element
 * that shows it, and of the names made from it); "down" nodes are those added or removed,
 * and count with what is under them (the host reads that from the snapshot's tree). A text
 * node counts by its parent element.
 */
function touchedIdentities(lists) {
  const out = { bg_up: [], bg_down: [], act_up: [], act_down: [] };
  const keys = ["bg_up", "bg_down", "act_up", "act_down"];
  for (let k = 0; k < 4; k++) {
    const list = lists && lists[k] ? lists[k] : [];
    const seen = new $Set();
    const up = k === 0 || k === 2;
    for (let i = 0; i < list.length && i < 2000; i++) {
      let n = list[i];
      if (!n) continue;
      let chain = up;
      if (!isElement(n)) {
        n = flatParentElement(n);
        chain = true;
      }
      const into = chain ? out[keys[k - (up ? 0 : 1)]] : out[keys[k]];
      for (let depth = 0; n && depth < 512; depth++) {
        const id = identityOf(n, 0);
        if (setHas(seen, id)) break;
        setAdd(seen, id);
        push(into, id);
        if (!chain) break;
        n = flatParentElement(n);
      }
    }
  }
  return out;
}

/** Live regions looked at per budgeted snapshot (each costs a pass over its shown parent). */
const LIVE_MAX = 20;

/**
 * Budgets (docs/reference/detail.md#budgets: alerts, status and error text go first): the output nodes that show the
 * document's aria-live regions (polite or assertive, WAI-ARIA 1.2 aria-live), as
 * [walk index, 1 for assertive else 0]. A region shown as a node of its own (it has a role)
 * is that node; one the walk flattens (a `div` with aria-live and no role: its text flows
 * into its nearest shown ancestor) is that ancestor's children that lie inside it: elements
 * it contains, and text runs that its text holds or that hold its text. The host knows the
 * live roles (alert, status, log) from the nodes themselves. Light DOM of the top document
 * only, first LIVE_MAX regions.
 */
function liveNodes(doc, walked) {
  const out = [];
  let list;
  try {
    list = docQuerySelectorAll(doc, "[aria-live]");
  } catch (_) {
    return out;
  }
  const count = nodeListLength(list);
  if (!count) return out;
  const els = walked.els;
  const nodes = walked.nodes;
  // each region and its ancestors, with the walk index of those the walk shows (one pass
  // over the walk's elements, 1-5 ms at 100,000 elements; a map of all of them was 7-9 ms)
  const regions = [];
  const shown = new $Map();
  for (let r = 0; r < count && regions.length < 2 * LIVE_MAX; r++) {
    const region = nodeListItem(list, r);
    const live = strLower(strTrim(getAttr(region, "aria-live") || ""));
    if (live !== "polite" && live !== "assertive") continue;
    push(regions, region);
    push(regions, live === "assertive" ? 1 : 0);
    for (let a = region; a && !mapHas(shown, a); a = parentElementOf(a)) mapSet(shown, a, -1);
  }
  if (!regions.length) return out;
  for (let i = 0; i < els.length; i++) {
    const el = els[i];
    if (el && mapHas(shown, el)) mapSet(shown, el, i);
  }
  // regions the walk flattened, by the shown ancestor their content hangs from
  const under = new $Map();
  for (let r = 0; r < regions.length; r += 2) {
    const region = regions[r];
    let a = region;
    while (a && !(mapGet(shown, a) >= 0)) a = parentElementOf(a);
    // past the root element: the document
    const ai = a ? mapGet(shown, a) : 0;
    if (a === region) {
      push(out, [ai, regions[r + 1]]);
      continue;
    }
    let group = mapGet(under, ai);
    if (!group) {
      group = [];
      mapSet(under, ai, group);
    }
    push(group, { el: region, loud: regions[r + 1], said: squash("" + (textContent(region) || "")) });
  }
  mapForEach(under, function (group, ai) {
    // ai's children: the nodes after it up to the end of its subtree (pre-order: the first
    // node past it hangs from an ancestor of ai, whose index is lower)
    for (let j = ai + 1; j < nodes.length && nodes[j].p >= ai; j++) {
      if (nodes[j].p !== ai) continue;
      const el = els[j];
      const v = el || nodes[j].r !== "text" ? "" : squash(nodes[j].v || "");
      for (let k = 0; k < group.length; k++) {
        const g = group[k];
        const inside = el
          ? contains(g.el, el)
          : v && g.said && (strIndexOf(g.said, v) >= 0 || strIndexOf(v, g.said) >= 0);
        if (inside) {
          push(out, [j, g.loud]);
          break;
        }
      }
    }
  });
  return out;
}

/**
 * What the page header needs (docs/reference/output.md#page-header): the HTTP status of the document's own response
 * (Navigation Timing 2's `responseStatus`, 0 when the browser has none: about:blank, file:,
 * error pages), the ready state, how many password fields a user sees and can type into (a
 * login form), and
 * the first captcha widget found (the iframes and containers the common providers embed).
 */
// Each provider's signs: the hosts its iframes load from, its container classes, its ids.
// Read through the document's own indexes (iframes by tag, classes, ids): a selector list
// with attribute-substring tests was a full matching pass, 65-90 ms on a 100,000-element
// page.
const CAPTCHA_SIGNS = [
  ["reCAPTCHA", ["/recaptcha/"], ["g-recaptcha"], []],
  ["hCaptcha", ["hcaptcha.com"], ["h-captcha"], []],
  ["Cloudflare Turnstile", ["challenges.cloudflare.com"], ["cf-turnstile"], ["challenge-form", "cf-challenge-running"]],
  ["Arkose", ["arkoselabs.com", "funcaptcha.com"], [], []],
  ["GeeTest", [], ["geetest_holder", "geetest_panel"], []],
];
/** The first captcha provider whose widget the document holds ("" for none). */
function captchaOf(doc) {
  const frames = docGetElementsByTagName(doc, "iframe");
  const nf = htmlCollectionLength(frames);
  for (let i = 0; i < CAPTCHA_SIGNS.length; i++) {
    const sign = CAPTCHA_SIGNS[i];
    for (let k = 0; k < sign[2].length; k++) {
      if (htmlCollectionLength(docGetElementsByClassName(doc, sign[2][k])) > 0) return sign[0];
    }
    for (let k = 0; k < sign[3].length; k++) {
      if (docGetElementById(doc, sign[3][k])) return sign[0];
    }
    for (let f = 0; f < nf && sign[1].length; f++) {
      const src = getAttr(htmlCollectionItem(frames, f), "src") || "";
      for (let k = 0; k < sign[1].length; k++) if (strIndexOf(src, sign[1][k]) >= 0) return sign[0];
    }
  }
  return "";
}
function pageSignals(doc) {
  let status = 0;
  let redirects = 0;
  if (perfEntriesByType) {
    try {
      const nav = perfEntriesByType(mainPerformance, "navigation");
      const e = nav && nav[0];
      if (e && typeof e.responseStatus === "number") status = e.responseStatus | 0;
      if (e && typeof e.redirectCount === "number") redirects = e.redirectCount | 0;
    } catch (e) { status = 0; }
  }
  let passwords = 0;
  let newPasswords = 0;
  // inputs through the document's tag index (a selector was a matching pass)
  const inputs = docGetElementsByTagName(doc, "input");
  for (let i = 0, n = htmlCollectionLength(inputs); i < n; i++) {
    const el = htmlCollectionItem(inputs, i);
    if (strLower(getAttr(el, "type") || "") !== "password") continue;
    const b = rectOf(el);
    // one a user can type into: a read-only or disabled one asks for nothing
    if (hasAttr(el, "readonly") || hasAttr(el, "disabled")) continue;
    if (b.width > 1 && b.height > 1 && !isHiddenForName(el)) {
      passwords++;
      // HTML's autofill detail tokens: "new-password" asks for a password being set (a
      // sign-up, a change), "current-password" for one being entered (a sign-in)
      const ac = " " + strLower(getAttr(el, "autocomplete") || "") + " ";
      if (strIndexOf(ac, " new-password ") >= 0) newPasswords++;
    }
  }
  const captcha = captchaOf(doc);
  return { status: status, ready: docReadyState(doc), passwords: passwords, new_passwords: newPasswords,
    redirects: redirects, captcha: captcha };
}

function doSnapshot(opts) {
  const doc = document;
  observeDoc(doc);
  const n = opts.n | 0;
  const rootRes = findRoot(doc, opts.root);
  if (rootRes.error) return rootRes.error;
  const walked = walk(doc, {
    maxNodes: opts.maxNodes | 0,
    verbose: !!opts.verbose,
    viewport: !!opts.viewport,
    boxes: !!opts.boxes,
    containerRefs: !!opts.containerRefs,
    rootEl: rootRes.el,
    frame: opts.frame | 0,
    // the diff of an action's changes (ids): what a modal dialog hides is still the page's
    behindModal: !!opts.ids,
  });
  for (let i = 0; i < walked.frames.length; i++) {
    const f = walked.frames[i];
    if (!f.unreadable) {
      // observe same-origin frames so their changes count too
      const fe = walked.els[f.i];
      const fd = fe ? frameDocument(fe, tagOf(fe)) : null;
      if (fd) observeDoc(fd);
    }
  }
  const t1 = $now();
  const minted = mintRefs(walked, n, !!opts.allRefs);
  holderRefs(walked, n);
  const fp = currentFingerprint(walked.cands.length);
  rememberFingerprint(n, fp);
  const url = clean(docURLOf(doc), 4096);
  const live = opts.containerRefs ? liveNodes(doc, walked) : [];
  const wire = encodeNodes(walked.nodes, walked.frames, url, opts.ids ? walked.els : null, opts.frame | 0);
  // live marks follow the nodes to their wire indexes (a dropped text run takes its mark along)
  const liveIx = [];
  for (let j = 0; j < live.length; j++) {
    const k = wire.ix[live[j][0]];
    if (k >= 0) push(liveIx, [k, live[j][1]]);
  }
  return {
    kind: "snapshot",
    url: url,
    title: clean(docTitleOf(doc), NAME_CAP),
    snapshot: n,
    roles: wire.roles,
    // before the nodes, so that the host sizes its node list once (src/wire.rs)
    count: wire.nodes.length,
    nodes: wire.nodes,
    ids: wire.ids,
    frames: walked.frames,
    viewport: [innerWidthOf(window), innerHeightOf(window)],
    page: pageSignals(doc),
    live: liveIx,
    stats: {
      walk_ms: walked.stats.ms,
      refs_ms: $now() - t1,
      elements: walked.stats.elements,
      nodes: walked.nodes.length,
      refs: minted.refs,
      withheld_refs: minted.withheld,
      left_out: walked.stats.leftOut,
      max_nodes: opts.maxNodes | 0,
      interactive: walked.cands.length,
      closed_read: walked.stats.closedRead,
      closed_unread: walked.stats.closedUnread,
      closed_pending: walked.stats.closedPending,
      closed_hosts: walked.stats.closedTags,
      behind_modal: walked.stats.behindModal,
    },
    fingerprint: fp,
  };
}

// Short-lived snapshot cache (issue: speed): the same snapshot asked again within
// CACHE_MS, with the page's fingerprint unchanged and no action in between, is answered
// without a walk. --all-refs neither reads nor replaces it.
const CACHE_MS = 5000;
let cached = null;
let walks = 0;
let cacheHits = 0;

function cacheKey(opts) {
  return $stringify([opts.maxNodes | 0, !!opts.verbose, !!opts.viewport, !!opts.boxes, opts.root || null,
    opts.frame | 0, !!opts.containerRefs, !!opts.ids]);
}

function snapshotCached(opts) {
  const useCache = !opts.allRefs && !opts.noCache;
  const key = cacheKey(opts);
  if (useCache && cached && cached.key === key && $now() - cached.at < CACHE_MS &&
      sameFingerprint(cached.fp, currentFingerprint(cached.fp.interactive))) {
    cacheHits++;
    cached.reply.cached = true;
    return cached.reply;
  }
  walks++;
  const reply = doSnapshot(opts);
  if (useCache && reply && reply.kind === "snapshot") {
    cached = { key: key, at: $now(), fp: reply.fingerprint, reply: reply };
  }
  return reply;
}

const ENTRY = {
  snapshot: snapshotCached,
  invalidate: function () {
    cached = null;
    return { kind: "ok" };
  },
  stats: function () {
    return { kind: "stats", walks: walks, cache_hits: cacheHits, warmed: warmed, warm_end: warmEnd, away_slices: awaySlices };
  },
  since: function (a) {
    return unchangedSince(a.n | 0);
  },
  fingerprint: function () {
    return currentFingerprint(-1);
  },
  search: doSearch,
  point: pointFor,
  focus: focusRef,
  get: getInfo,
  checked: checkedState,
  select: selectOptions,
  control: controlOf,
  checkedAfter: checkedAfter,
  setDirect: setDirect,
  comboOption: comboOptionPoint,
  scroll: scrollAction,
  dragStart: dragStart,
  dragEnd: dragEnd,
  condition: checkCondition,
  activity: activity,
  watch: watchEffects,
  effects: collectEffects,
  paint: paint,
  console: consoleMessages,
  elementsAt: elementsAt,
  refBoxes: refBoxes,
  submit: submitForm,
  selectText: selectText,
  queryAll: queryAll,
  locate: locate,
  describe: describeRef,
  inspect: inspectPage,
  docState: docState,
  auditRefs: auditRefs,
  auditKeyboard: auditKeyboard,
  focusStep: focusStep,
  trapRegion: trapRegion,
  consentTarget: consentTarget,
  ping: function () {
    return { kind: "pong", hash: ENGINE_HASH };
  },
};

/**
 * Whether the page put something on the prototypes our replies inherit from (a toJSON
 * there would rewrite what JSON.stringify writes, a getter would answer for absent fields).
 */
function prototypesTampered() {
  if ($getProto(PageArrayP) !== PageObjectP) return true;
  return $hasOwn(PageObjectP, "toJSON") || $hasOwn(PageArrayP, "toJSON") ||
    $keys(PageObjectP).length > 0 || $keys(PageArrayP).length > 0 ||
    $hasOwn(PageObjectP, "ref") || $hasOwn(PageObjectP, "n") || $hasOwn(PageObjectP, "v") ||
    $hasOwn(PageObjectP, "s") || $hasOwn(PageObjectP, "u");
}

/** JSON of a reply that reads own properties only (for pages that tampered with prototypes). */
function safeStringify(v) {
  const t = typeof v;
  if (v === null || v === undefined) return "null";
  if (t === "string" || t === "number" || t === "boolean") return $stringify(v);
  if ($isArray(v)) {
    const parts = [];
    for (let i = 0; i < v.length; i++) push(parts, $hasOwn(v, i) ? safeStringify(v[i]) : "null");
    return "[" + arrJoin(parts, ",") + "]";
  }
  if (t === "object") {
    const ks = $keys(v);
    const parts = [];
    for (let i = 0; i < ks.length; i++) {
      const x = v[ks[i]];
      if (x === undefined || typeof x === "function") continue;
      push(parts, $stringify(ks[i]) + ":" + safeStringify(x));
    }
    return "{" + arrJoin(parts, ",") + "}";
  }
  return "null";
}

/**
 * Runs fn(arg) between beginCaches() and endCaches(). The only place per-walk caches begin and
 * end (lower layers only use them): each engine call from the host gets fresh caches, dropped
 * before it returns, since the DOM may change between calls. Nested, the outer region keeps
 * them (12_caches counts the depth).
 */
function withCaches(fn, arg) {
  try {
    // inside the try: should beginCaches throw after counting, endCaches still balances it
    beginCaches();
    return fn(arg);
  } finally {
    endCaches();
  }
}

// Chromium moves a string out of the page a good deal faster when it is all ASCII: the
// engine's reply of a 100,000-element page (3.4 MB, 18,000 non-ASCII characters) took
// 237-291 ms through DevTools `Runtime.evaluate`, the same JSON with those characters as
// \u escapes 164-184 ms; 340 KB, 21-24 ms against 12-14 ms (this machine). So a reply whose
// non-ASCII characters are few goes with them escaped (the same JSON text to a parser); one
// where they are many (a page in Chinese) goes as it is: escapes would double its size.
const NON_ASCII = "[^\\x00-\\x7f]";
const ESCAPE_SHARE = 16; // escaped when at most one character in 16 is not ASCII

function escapeUnit(c) {
  const h = "0000" + numToString(strCharCodeAt(c, 0), 16);
  return "\\u" + strSlice(h, h.length - 4);
}

function asciiJson(s) {
  // each UTF-16 unit alone: a pair becomes two escapes, which JSON reads back as one character
  const all = re(NON_ASCII, "g");
  const limit = s.length / ESCAPE_SHARE;
  let n = 0;
  // a global test moves lastIndex without making a match array (as exec would), and one
  // that finds nothing more sets it back to 0, ready for the replace
  while (reTest(all, s)) if (++n > limit) return s;
  return n ? strReplace(s, all, escapeUnit) : s;
}

function call(method, argsJson) {
  const t0 = $now();
  observeDoc(document);
  let result;
  try {
    const fn = ENTRY[method];
    if (!fn) result = { kind: "bad_method", method: "" + method };
    else {
      const args = argsJson ? $parse(argsJson) : {};
      result = withCaches(fn, args);
      if (fn === activity) awayAfterActivity(args, result);
    }
  } catch (e) {
    result = { kind: "exception", message: clean(e && e.message ? e.message : "" + e, 2000) };
  }
  lastCallAt = $now();
  if (result && typeof result === "object") {
    // engine_ms comes last and counts the serialisation too (all the page's work)
    result.engine_ms = 0;
    const out = asciiJson(prototypesTampered() ? safeStringify(result) : $stringify(result));
    const tail = ',"engine_ms":0}';
    if (strSlice(out, out.length - tail.length) === tail) {
      const ms = $now() - t0;
      return strSlice(out, 0, out.length - 2) + $stringify($Math.round(ms * 10) / 10) + "}";
    }
    return out;
  }
  return asciiJson($stringify(result));
}

// Warm-up. V8 compiles and optimises the engine's code afresh in each new document's realm
// (optimised code and type feedback belong to the realm's own functions), so a page's first
// snapshot cost the page 1.3-1.8x a later one. Once a preloaded top-level document has
// loaded, the engine walks it while the page is idle and the host is away, output thrown
// away: in requestIdleCallback slices of at most WARM_SLICE_MS, and only once no command
// has called the engine for WARM_QUIET_MS (a command comes as a burst of calls: a `goto`'s
// settling polls, a snapshot's round trips; none of them waits for a slice, and the command
// that loaded the page is not slowed). The slices share one walk's caches, parked between
// slices (12_caches openCaches), so a command that comes between two slices opens fresh ones.
// The warm-up mints no ref, numbers no frame, queues no closed-root host, and stops after
// WARM_ELEMENTS elements, at the first walk of a command, or when anything throws.
// A preloaded document loads before the command that loaded it makes its first call
// (WebDriver's navigation returns after the load event), so the first slices run in that
// gap, with no call yet to wait for: on mixed-10000 they walk 700-2,900 elements before
// `goto`'s first call, which makes the first snapshot after `goto` cost the page 65 ms
// instead of 80 (medians of 12 fresh sessions; `goto` itself 458 against 448 ms, within
// its spread). Counting the quiet time from the load event too was measured and not kept.
// The host's sleeps while a command waits for the page to settle are the other time it is
// away for sure: a settle poll that finds the page still busy is followed by the host's
// sleep of `poll` ms (src/actions settle; it says so in the poll's arguments), and slices
// run in it (as the next tasks, up to AWAY_MARGIN_MS before the next poll can come), not
// only after WARM_QUIET_MS. On mixed-10000, where the favicon's fetch after the load event
// makes `goto` poll twice, the warm-up then walks 4,000-8,000 elements by the end of `goto`
// instead of 700-2,900, with the second poll as early as before.
const WARM_SLICE_MS = 12;
const WARM_QUIET_MS = 200;
const WARM_ELEMENTS = 10000;
let warming = null;
let warmGen = 0;
// the host said it would not call before this time (awayAfterActivity)
let awayUntil = 0;
const AWAY_MARGIN_MS = 6;
let awaySlices = 0;
// when the host's last call into the engine ended
let lastCallAt = 0;
// elements the warm-up walked, and whether it ran to its end (1) or stopped early (-1)
let warmed = 0;
let warmEnd = 0;

function warmSlice(deadline) {
  const st = warming;
  if (!st || walksBegun > 0) {
    warming = null;
    warmEnd = -1;
    return;
  }
  let more = false;
  try {
    // a cache region of the slice's own (an idle callback is a task: no command's region
    // is open), with the last slice's caches; inside the try, as in withCaches
    if (st.caches) resumeCaches(st.caches);
    else beginCaches();
    if (!st.w) st.w = startWalk(document, { warm: true, limit: WARM_ELEMENTS });
    const w = st.w;
    const now = $now();
    let ms = WARM_SLICE_MS;
    if (deadline) ms = $Math.min(ms, deadline.timeRemaining());
    if (now < awayUntil) {
      ms = $Math.min(ms, awayUntil - now);
      awaySlices++;
    }
    w.until = now + $Math.max(1, ms);
    runWalk(w);
    warmed = w.elements;
    if (w.sp > 0 && w.elements < w.limit) more = true;
    else {
      // the rest of a snapshot call's own work (refs aside), its output thrown away
      const f = endWalk(w);
      $stringify(encodeNodes(f.nodes, f.frames, ""));
      currentFingerprint(0);
      warmEnd = 1;
    }
  } catch (_) {
    more = false;
    warmEnd = -2;
  } finally {
    // kept for the next slice, still dropped from this region
    if (more) st.caches = openCaches();
    endCaches();
  }
  if (more && warming === st && walksBegun === 0) nextWarmSlice();
  else if (warming === st) warming = null;
}

function nextWarmSlice() {
  // not while the host is at work: a command's calls come in bursts (goto's settle polls,
  // a snapshot's round trips), and none of them should wait for a slice; unless the host
  // said it is away (awayAfterActivity)
  const now = $now();
  if (now < awayUntil - 1) {
    scheduleWarm(-1);
    return;
  }
  const since = now - lastCallAt;
  scheduleWarm(since < WARM_QUIET_MS ? WARM_QUIET_MS - since + 1 : 0);
}

// One pending slice at a time: a later schedule (awayAfterActivity) voids earlier ones. delay
// -1: a slice in the host's away time, as the next task (an idle callback may come only
// after it); a slice from there that comes too late goes by the usual rules instead.
function scheduleWarm(delay) {
  const gen = ++warmGen;
  if (delay < 0) {
    $setTimeout(window, function () {
      if (gen !== warmGen) return;
      if ($now() < awayUntil - 1) warmSlice(null);
      else nextWarmSlice();
    }, 0);
  } else if (delay > 0) {
    $setTimeout(window, function () {
      if (gen === warmGen) nextWarmSlice();
    }, delay);
  } else {
    $idle(window, function (deadline) {
      if (gen === warmGen) warmSlice(deadline);
    });
  }
}

/**
 * A settle poll (`activity`, with the host's `quiet` and `poll` in ms) that found the page
 * still busy by the host's own measure: the host sleeps `poll` ms before asking again, so the
 * warm-up may use that time, short of AWAY_MARGIN_MS (src/actions settle).
 */
function awayAfterActivity(a, r) {
  if (!a || !(a.poll > 0) || !r || r.kind !== "ok") return;
  if (r.ready === "complete" && r.quiet_ms >= a.quiet && !r.new_resources) return;
  awayUntil = $now() + a.poll - AWAY_MARGIN_MS;
  if (warming && walksBegun === 0 && $idle && $setTimeout) scheduleWarm(-1);
}

function startWarmUp() {
  if (warming || walksBegun > 0) return;
  warming = { w: null, caches: null };
  nextWarmSlice();
}

(function install() {
  const existing = window.__ariaRefs;
  if (existing && existing.hash === ENGINE_HASH) return;
  try {
    $defineProperty(publicRefs, "hash", { value: ENGINE_HASH, enumerable: false });
    $defineProperty(publicRefs, "call", { value: call, enumerable: false });
    // The element behind a ref, for WebDriver element commands (send keys, upload): resolved
    // through the private map with the same checks as every action.
    $defineProperty(publicRefs, "element", {
      value: function (ref) {
        const res = withCaches(resolveRef, "" + ref);
        return res.kind === "ok" ? res.el : null;
      },
      enumerable: false,
    });
    // Closed shadow roots (WebDriver hands them to the host; the host hands them back here):
    // the custom elements the last walk could not look into, and what the host found.
    $defineProperty(publicRefs, "closedCandidates", {
      value: function () {
        const out = [];
        for (let i = 0; i < pendingHosts.length; i++) push(out, pendingHosts[i]);
        return out;
      },
      enumerable: false,
    });
    $defineProperty(publicRefs, "adoptClosedRoots", {
      value: function (hosts, roots, failed) {
        cached = null;
        return adoptClosedRoots(hosts, roots, !!failed);
      },
      enumerable: false,
    });
    // What the page's own work and an action touched, as element identities (src/steps).
    $defineProperty(publicRefs, "touchedIdentities", {
      value: function (lists) {
        return withCaches(touchedIdentities, lists);
      },
      enumerable: false,
    });
    // The iframe chain and content origin of a cross-origin frame of the last walk, for
    // WebDriver frame switching.
    $defineProperty(publicRefs, "frameRoute", {
      value: function (k) {
        return withCaches(frameRoute, k | 0);
      },
      enumerable: false,
    });
    $defineProperty(publicRefs, "frameRoutes", {
      value: function () {
        return withCaches(frameRoutes, undefined);
      },
      enumerable: false,
    });
    captureConsole();
    // preloaded, the document is still being parsed: watching it from the first call on
    // spares the page a mutation record per parsed node
    if (!PRELOADED) observeDoc(document);
    // a preloaded top-level document warms the engine up once it has loaded (a frame's
    // document is walked with its top-level one's, whose realm is warm by then)
    if ($idle && $setTimeout && window === window.top) {
      if (docReadyState(document) === "complete") startWarmUp();
      else addListener(window, "load", startWarmUp, { once: true });
    }
    $defineProperty(window, "__ariaRefs", { value: publicRefs, enumerable: false, configurable: false, writable: false });
  } catch (e) {
    // A page that pre-defined __ariaRefs as non-configurable blocks the engine; the host
    // sees no engine after install and reports it.
  }
})();
