//! 88_snapshot.js: the reply of the `snapshot` entry point, made from one walk: its root
//! found, its nodes encoded for the wire (a role table, parent indexes, element identities),
//! the refs of the elements that hold long runs, live regions, and what the header says of
//! the page (status, password fields, redirects, captcha).
//!
//! Owns: the snapshot's wire form (decoded by src/wire.rs), element identities (for the
//! document's life), and whether the page tampered with the prototypes replies inherit from
//! (prototypesTampered, which 90_api's replies ask too). Must not: begin or end the per-walk
//! caches, or install anything (90_api does both; its `snapshot` entry, with the short-lived
//! cache, calls doSnapshot).

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
function encodeNodes(nodes, frames, docUrl, els, frameBase, noBoxes) {
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
    const box = noBoxes ? 0 : nd.b || 0;
    if (nd.d || nd.ph || box) {
      a = [p, ri, f2, f3, f4, u, f6, nd.d || 0, nd.ph || 0, box];
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

// How old a kept walk a snapshot command may be served from (an action's walk before it
// takes any kept walk: the page stood still since)
const SNAPSHOT_REUSE_MS = 5000;

function doSnapshot(opts) {
  const doc = document;
  observeTree(doc);
  const n = opts.n | 0;
  const rootRes = findRoot(doc, opts.root);
  if (rootRes.error) return rootRes.error;
  // a snapshot asked with noCache walks anew (the reply's walk after an action); the one
  // before an action (reuse) may be the walk of the call before it (72_memo), and any other
  // a walk of the last SNAPSHOT_REUSE_MS, as the short-lived snapshot cache
  const walked = memoWalk(doc, {
    maxNodes: opts.maxNodes | 0,
    verbose: !!opts.verbose,
    viewport: !!opts.viewport,
    boxes: !!opts.boxes,
    containerRefs: !!opts.containerRefs,
    rootEl: rootRes.el,
    frame: opts.frame | 0,
    // the diff of an action's changes (ids): what a modal dialog hides is still the page's
    behindModal: !!opts.ids,
  }, !!opts.noCache && !opts.reuse, opts.reuse ? 0 : SNAPSHOT_REUSE_MS);
  observeFrames(walked);
  // the frames' places are moved by encodeNodes: a copy, the walk may be kept (72_memo)
  const frames = [];
  for (let i = 0; i < walked.frames.length; i++) {
    const f = walked.frames[i];
    const c = { k: f.k, i: f.i, url: f.url };
    if (f.unreadable) c.unreadable = f.unreadable;
    push(frames, c);
  }
  const t1 = $now();
  const minted = mintRefs(walked, n, !!opts.allRefs);
  holderRefs(walked, n);
  const fp = currentFingerprint(walked.cands.length);
  rememberFingerprint(n, fp);
  const url = clean(docURLOf(doc), 4096);
  const live = opts.containerRefs ? liveNodes(doc, walked) : [];
  const wire = encodeNodes(walked.nodes, frames, url, opts.ids ? walked.els : null, opts.frame | 0, !opts.boxes && !opts.viewport);
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
    frames: frames,
    viewport: [innerWidthOf(window), innerHeightOf(window)],
    page: pageSignals(doc),
    live: liveIx,
    stats: {
      // a kept walk (72_memo) cost this call nothing
      walk_ms: lastKept ? 0 : walked.stats.ms,
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
