//! 90_api.js: the one global the engine installs, window.__ariaRefs: the public ref map
//! (ref -> element), with the engine's entry point as a non-enumerable, non-writable `call`.
//!
//! Owns: argument decoding, the per-walk cache region of every entry point (withCaches, the
//! only caller of beginCaches / endCaches) and the JSON reply of every entry point. Every
//! reply is a JSON string (one value crosses WebDriver, whatever the page's depth), made by
//! the pristine JSON.stringify. Expected failures are tagged values ({kind: ...}), not
//! exceptions.

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

/** Drops the cached reply and the kept walk (72_memo): the page may show what no walk saw. */
function dropWalks() {
  cached = null;
  forgetWalk();
}

const ENTRY = {
  snapshot: snapshotCached,
  invalidate: function () {
    dropWalks();
    return { kind: "ok" };
  },
  stats: function () {
    return { kind: "stats", walks: walks, cache_hits: cacheHits, memo_hits: memoHits, warmed: warmed, warm_end: warmEnd, away_slices: awaySlices };
  },
  since: function (a) {
    return unchangedSince(a.n | 0);
  },
  fingerprint: function () {
    return currentFingerprint(-1);
  },
  here: function () {
    return {
      url: clean(docURLOf(document), 4096),
      title: clean(docTitleOf(document), NAME_CAP),
      scroll: scrollNow(),
    };
  },
  // walked afresh (the boxes are read now), and kept: the command after a search (a click on
  // what it found) locates its target and takes its baseline from this walk while the page
  // stands still (72_memo)
  search: function (a) {
    return doSearch(a, function (opts) { return memoWalk(document, opts, true, 0); });
  },
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
  observeTree(document);
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
        dropWalks();
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
    if (!PRELOADED) observeTree(document);
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
