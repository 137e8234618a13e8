// The work hook of the page's main world (src/engine/hooks.rs WORK_HOOK), run before the
// page's scripts in every document of a BiDi session: what an action started, so that its
// reply waits for that work and for nothing else (docs/reference/replies.md#settling).
//
// The engine's sandbox cannot see the page's own timers, requests or animation frames, so
// this wraps them (the page's arguments, `this` and results passed through) and notes, for
// each piece of work, who started it: the action (`gen`, the action's number), the page's
// own background work (-1), or nobody known (0). Work started while the action's input is
// being delivered (the window: from `begin` with `open` to the host's first poll), outside
// any wrapped callback, is the action's (its event handlers); work started inside a wrapped
// callback is its starter's (a timer the action set sets another: the action's; a poll's
// callback fetching: the page's own). The same idea as Zone.js's zones and WebDriver BiDi's
// and Playwright's notion of a navigation settled by its own requests, narrowed to what an
// action started: timers due within the horizon (1 s) of the action, its fetch and
// XMLHttpRequest requests and the reads of their bodies, its animation frames, the Web
// Animations (CSS transitions and animations) that began with it, and the DOM mutations its
// work made (a MutationObserver of the hook's own, its records taken at each callback's end,
// so that they belong to the callback that made them). Promise continuations are followed
// one level (the microtask after a callback, and the resolution of a followed request);
// deeper chains and tasks the hook does not wrap (messages, sockets) are "nobody known":
// they count as the action's for its quiet time and its reply, never as the page's.
//
// Read through a non-enumerable function under Symbol.for('ariasnap.work'):
//   ('begin', token, reset, open)  starts recording mutations (reset: forget what was
//                                  touched), and with open, a new action's window
//   ('poll', token)                closes the window; the action's pending work as JSON
//                                  (framed: the page rendered a frame since that work;
//                                  nav: a navigation to another document the action
//                                  started is in flight; navs: the hook sees navigations;
//                                  worked: the action's work ran or changed the DOM):
//                                  {fresh} when this document saw no begin of token
//   ('touched', token)             the nodes the page's own work and the action touched,
//                                  [bgUp, bgDown, actUp, actDown] (targets and the nodes
//                                  they gained or lost); recording stops
//   ('stop', token)                recording stops; how many nodes the page's own work
//                                  touched (-1: no such recording)
// and under Symbol.for('ariasnap.timers') the start-up work of a navigation: (horizon) the
// timers the page set before its load event and for a second after it, ms until the last one
// due within `horizon` or -1; (horizon, true) as JSON with the start-up requests still
// running that began within `horizon` ms, and the ready state.
// A page that reaches the hook can only make a reply wait longer (within its limit) or
// shorter, or make its own changes read as the action's: it could have made them anyway.
(function () {
  var W = window, K = Symbol.for('ariasnap.work'), KT = Symbol.for('ariasnap.timers');
  var O = Object, hasOwn = O.prototype.hasOwnProperty;
  if (typeof W.setTimeout !== 'function' || hasOwn.call(W, K) || hasOwn.call(W, KT)) return;
  var apply = Reflect.apply, defineProperty = O.defineProperty, descOf = O.getOwnPropertyDescriptor;
  var getter = function (proto, name) {
    var d = proto && descOf(proto, name);
    return d && typeof d.get === 'function' ? d.get : null;
  };
  var perf = W.performance, pnow = Performance.prototype.now;
  var now = function () { return apply(pnow, perf, []); };
  var M = Map, mget = M.prototype.get, mset = M.prototype.set, mdel = M.prototype['delete'],
    mfor = M.prototype.forEach, msize = getter(M.prototype, 'size');
  var S = Set, sadd = S.prototype.add, shas = S.prototype.has, sfor = S.prototype.forEach,
    ssize = getter(S.prototype, 'size');
  var WM = WeakMap, wget = WM.prototype.get, wset = WM.prototype.set;
  var P = Promise, pthen = P.prototype.then, aslice = Array.prototype.slice;
  var JSON0 = JSON, stringify = JSON.stringify;
  var qm = W.queueMicrotask, max = Math.max, min = Math.min, abs = Math.abs;
  var doc = W.document, readyOf = getter(W.Document && W.Document.prototype, 'readyState');
  var parentOf = getter(W.Node && W.Node.prototype, 'parentNode');
  var hostOf = getter(W.ShadowRoot && W.ShadowRoot.prototype, 'host');
  var MO = W.MutationObserver, moObserve = MO && MO.prototype.observe,
    moTake = MO && MO.prototype.takeRecords, moOff = MO && MO.prototype.disconnect;
  var MR = W.MutationRecord && W.MutationRecord.prototype, recTarget = getter(MR, 'target'),
    recAdded = getter(MR, 'addedNodes'), recRemoved = getter(MR, 'removedNodes');
  var nlLength = getter(W.NodeList && W.NodeList.prototype, 'length');
  var getAnims = W.Document && W.Document.prototype.getAnimations;
  var AP = W.Animation && W.Animation.prototype, animEffect = getter(AP, 'effect'),
    animState = getter(AP, 'playState'), animRate = getter(AP, 'playbackRate');
  var effTarget = getter(W.KeyframeEffect && W.KeyframeEffect.prototype, 'target');
  var timingOf = W.AnimationEffect && W.AnimationEffect.prototype.getComputedTiming;

  var gen = 0, open = false, openedAt = 0, token = '', HORIZON = 1000;
  // the last animation frame the hook asked for itself ran at frameAt: the page rendered once
  // after the work before it (poll's `framed`)
  var raf0 = typeof W.requestAnimationFrame === 'function' ? W.requestAnimationFrame : null;
  var frameAt = 0, frameAsked = false;
  // the context of the callback running now: an action's number, -1 (the page's own), 0 (none)
  var cur = 0;
  var timers = new M(), frames = new M(), requests = 0, lastWork = 0;
  var mo = null, bgUp = new S(), bgDown = new S(), actUp = new S(), actDown = new S();
  var TOUCHED_MAX = 20000, animsBefore = null;
  var startDue = new M(), loadedAt = -1, startCount = 0, AFTER_LOAD = 1000, START_MAX = 1000;
  // the document's start-up requests (fetch, XMLHttpRequest and body reads begun before any
  // action, before its load event or up to a second after it) still running: key -> start
  var startReqs = new M(), startKey = 0;
  var inStart = function () { return gen === 0 && (loadedAt < 0 || now() - loadedAt <= AFTER_LOAD); };
  var startReq = function () {
    if (!inStart() || apply(msize, startReqs, []) >= START_MAX) return 0;
    startKey++;
    apply(mset, startReqs, [startKey, now()]);
    return startKey;
  };
  var endReq = function (k) { if (k) apply(mdel, startReqs, [k]); };
  var endOn = function (p, k) {
    if (!k) return;
    var end = function () { endReq(k); };
    try { apply(pthen, p, [end, end]); } catch (e) { endReq(k); }
  };

  var sched = function () { return cur !== 0 ? cur : (open ? gen : -1); };
  var mine = function (c) { return gen > 0 && c === gen; };
  var size = function (s) { return apply(ssize, s, []); };
  var add = function (s, n) { if (n && size(s) < TOUCHED_MAX) apply(sadd, s, [n]); };
  var addList = function (s, list) {
    var n = list ? apply(nlLength, list, []) : 0;
    for (var i = 0; i < n; i++) add(s, list[i]);
  };
  // mutation records, to whoever made them: the action (and nobody known) or the page's own
  var note = function (records, c) {
    if (!records || !records.length) return;
    var act = c === 0 || mine(c);
    if (act) lastWork = now();
    for (var i = 0; i < records.length; i++) {
      var r = records[i];
      try {
        add(act ? actUp : bgUp, apply(recTarget, r, []));
        addList(act ? actDown : bgDown, apply(recAdded, r, []));
        addList(act ? actDown : bgDown, apply(recRemoved, r, []));
      } catch (e) {}
    }
  };
  var flush = function (c) { if (mo) { try { note(apply(moTake, mo, []), c); } catch (e) {} } };
  // a callback of work started by `c`: its mutations and the work it starts are c's, and so
  // are those of the microtasks it queued (until the hook's own microtask after them)
  var run = function (c, fn, self, args) {
    var prev = cur;
    flush(prev);
    cur = c;
    chainIn(c);
    if (mine(c)) lastWork = now();
    try { return apply(fn, self, args); } finally { flush(c); after(c, prev); }
  };
  // The context lasts a few microtask hops past the callback: a promise resolved with
  // another promise (a `then` returning `r.json()`) reaches its reactions two hops later
  // (ECMA-262 NewPromiseResolveThenableJob), so the page's continuation of a request comes
  // after the hop that would end it at once.
  var HOPS = 8;
  // Chains of two contexts may end in either order (a request's answer lands while an
  // action's chain runs): a context's chain that ends gives back the context before it only
  // while that one's own chain lasts, and never takes the context from a chain that began
  // after it (the page's poll answered during a click's chain stays the page's).
  var live = new M();
  var count = function (c) { return apply(mget, live, [c]) || 0; };
  var chainIn = function (c) { apply(mset, live, [c, count(c) + 1]); };
  var chainOut = function (c, prev) {
    var n = count(c) - 1;
    if (n > 0) apply(mset, live, [c, n]); else apply(mdel, live, [c]);
    if (cur === c && n <= 0) cur = prev !== 0 && count(prev) > 0 ? prev : 0;
  };
  var after = function (c, prev) {
    var left = HOPS;
    var hop = function () {
      flush(c);
      if (--left > 0) { try { apply(qm, W, [hop]); return; } catch (e) {} }
      chainOut(c, prev);
    };
    if (typeof qm !== 'function') { chainOut(c, prev); return; }
    try { apply(qm, W, [hop]); } catch (e) { chainOut(c, prev); }
  };
  // a promise the page gets for work started by `c`: its reactions run as c's
  var follow = function (p, c, counted) {
    var g = gen;
    var done = function (f, v) {
      if (counted && g === gen) { requests--; lastWork = now(); }
      var prev = cur;
      flush(prev);
      cur = c;
      chainIn(c);
      f(v);
      after(c, prev);
    };
    return new P(function (res, rej) {
      apply(pthen, p, [function (v) { tag(v, c); done(res, v); }, function (e) { done(rej, e); }]);
    });
  };
  var tags = new WM();
  var tag = function (v, c) { try { if (v && typeof v === 'object') apply(wset, tags, [v, c]); } catch (e) {} };

  // timers: setTimeout and setInterval (an interval's first tick only: what repeats is the
  // page's life), with the start-up timers of a navigation
  var noteStart = function (id, d) {
    var t = now();
    if (startCount >= START_MAX || (loadedAt >= 0 && t - loadedAt > AFTER_LOAD)) return;
    startCount++;
    apply(mset, startDue, [id, t + d]);
  };
  try { W.addEventListener('load', function () { loadedAt = now(); }, true); } catch (e) {}
  var wrapTimer = function (orig, name) {
    return { [name]: function (handler, ms) {
      var self = this == null ? W : this;
      if (typeof handler !== 'function') return apply(orig, self, arguments);
      var c = sched(), args = apply(aslice, arguments, []), first = true, id;
      args[0] = function () {
        if (first) { first = false; apply(mdel, timers, [id]); apply(mdel, startDue, [id]); }
        return run(c, handler, this, arguments);
      };
      id = apply(orig, self, args);
      try {
        var d = +ms; if (!(d > 0)) d = 0;
        noteStart(id, d);
        var due = now() + d;
        if (mine(c) && due - openedAt <= HORIZON) apply(mset, timers, [id, due]);
      } catch (e) {}
      return id;
    } }[name];
  };
  var wrapClear = function (orig, name, map) {
    return { [name]: function (id) {
      try { apply(mdel, map, [id]); if (map === timers) apply(mdel, startDue, [id]); } catch (e) {}
      return apply(orig, this == null ? W : this, arguments);
    } }[name];
  };
  try {
    W.setTimeout = wrapTimer(W.setTimeout, 'setTimeout');
    W.setInterval = wrapTimer(W.setInterval, 'setInterval');
    W.clearTimeout = wrapClear(W.clearTimeout, 'clearTimeout', timers);
    W.clearInterval = wrapClear(W.clearInterval, 'clearInterval', timers);
  } catch (e) { return; }
  // animation frames: a chain the action started is followed within the horizon
  if (typeof W.requestAnimationFrame === 'function') {
    var raf = W.requestAnimationFrame;
    try {
      W.requestAnimationFrame = { requestAnimationFrame: function (cb) {
        var self = this == null ? W : this;
        if (typeof cb !== 'function') return apply(raf, self, arguments);
        var c = sched(), id;
        id = apply(raf, self, [function () { apply(mdel, frames, [id]); return run(c, cb, this, arguments); }]);
        if (mine(c)) apply(mset, frames, [id, now()]);
        return id;
      } }.requestAnimationFrame;
      if (typeof W.cancelAnimationFrame === 'function') {
        W.cancelAnimationFrame = wrapClear(W.cancelAnimationFrame, 'cancelAnimationFrame', frames);
      }
    } catch (e) {}
  }
  // requests: fetch, the reads of a response's body, XMLHttpRequest
  if (typeof W.fetch === 'function') {
    var fetch0 = W.fetch;
    try {
      W.fetch = { fetch: function (input) {
        var c = sched(), p = apply(fetch0, this == null ? W : this, arguments);
        var counted = mine(c);
        if (counted) requests++;
        else endOn(p, startReq());
        return follow(p, c, counted);
      } }.fetch;
    } catch (e) {}
  }
  var RP = W.Response && W.Response.prototype;
  ['json', 'text', 'arrayBuffer', 'blob', 'formData'].forEach(function (k) {
    var d = RP && descOf(RP, k);
    if (!d || typeof d.value !== 'function') return;
    var orig = d.value;
    try {
      defineProperty(RP, k, { value: { [k]: function () {
        var c = apply(wget, tags, [this]);
        if (c === undefined) c = sched();
        var p = apply(orig, this, arguments), counted = mine(c);
        if (counted) requests++;
        else endOn(p, startReq());
        return follow(p, c, counted);
      } }[k], writable: d.writable, enumerable: d.enumerable, configurable: d.configurable });
    } catch (e) {}
  });
  var XP = W.XMLHttpRequest && W.XMLHttpRequest.prototype;
  var xopen = XP && XP.open, xsend = XP && XP.send, xready = getter(XP, 'readyState');
  var addL = W.EventTarget && W.EventTarget.prototype.addEventListener;
  if (typeof xopen === 'function' && typeof xsend === 'function' && xready && addL) {
    var xs = new WM();
    // the page's handlers of a request's end run as its starter's: the hook's listeners,
    // added at `open` (before the page's usually are), enter its context; `loadend`'s,
    // added at `send`, leave it
    var enter = function (x) {
      var s = apply(wget, xs, [x]);
      if (!s || s.inside) return;
      s.prev = cur;
      flush(cur);
      cur = s.c;
      s.inside = true;
    };
    var leave = function (x) {
      var s = apply(wget, xs, [x]);
      if (!s) return;
      if (s.counted && s.g === gen) { requests--; lastWork = now(); }
      s.counted = false;
      endReq(s.su); s.su = 0;
      if (s.inside) { flush(s.c); s.inside = false; cur = s.prev; }
    };
    try {
      XP.open = { open: function (method, url) {
        var x = this, s = apply(wget, xs, [x]);
        if (!s) {
          s = { c: -1, g: 0, counted: false, inside: false, prev: 0, ends: false, su: 0 };
          apply(wset, xs, [x, s]);
          try {
            apply(addL, x, ['readystatechange', function () { if (apply(xready, x, []) === 4) enter(x); }]);
            apply(addL, x, ['load', function () { enter(x); }]);
            apply(addL, x, ['error', function () { enter(x); }]);
            apply(addL, x, ['abort', function () { enter(x); }]);
            apply(addL, x, ['timeout', function () { enter(x); }]);
          } catch (e) {}
        }
        return apply(xopen, this, arguments);
      } }.open;
      XP.send = { send: function (body) {
        var x = this, s = apply(wget, xs, [x]);
        if (s) {
          s.c = sched();
          s.g = gen;
          if (s.counted && s.g === gen) requests--;
          s.counted = mine(s.c);
          if (s.counted) requests++;
          else if (!s.su) s.su = startReq();
          if (!s.ends) {
            s.ends = true;
            try { apply(addL, x, ['loadend', function () { leave(x); }]); } catch (e) {}
          }
        }
        try { return apply(xsend, this, arguments); } catch (e) { leave(x); throw e; }
      } }.send;
    } catch (e) {}
  }

  // Web Animations that began with the action (CSS transitions its changes or its hover
  // started, animations of what it showed): ms until the last ends, within the horizon.
  // Endless ones (spinners) and those on what only the page's own work touched are not
  // followed. Document.getAnimations() brings style up to date first (Web Animations 1,
  // "getAnimations"), so a transition the action's last change starts is in the list.
  var touchedBy = function (n, up, down) {
    for (var i = 0; n && i < 256; i++) {
      if (apply(shas, up, [n]) || apply(shas, down, [n])) return true;
      var p = apply(parentOf, n, []);
      if (!p && hostOf) { try { p = apply(hostOf, n, []); } catch (e) { p = null; } }
      n = p;
    }
    return false;
  };
  var animsLeft = function (t) {
    if (!getAnims || !animsBefore || !timingOf) return 0;
    var list, left = 0, end = openedAt + HORIZON;
    try { list = apply(getAnims, doc, []); } catch (e) { return 0; }
    for (var i = 0; i < list.length; i++) {
      var a = list[i];
      try {
        if (apply(shas, animsBefore, [a]) || apply(animState, a, []) !== 'running') continue;
        var eff = apply(animEffect, a, []);
        if (!eff) continue;
        var ct = apply(timingOf, eff, []);
        if (!(ct.endTime < Infinity)) continue;
        var tg = effTarget ? apply(effTarget, eff, []) : null;
        if (tg && !touchedBy(tg, actUp, actDown) && touchedBy(tg, bgUp, bgDown)) continue;
        var rate = abs(apply(animRate, a, [])) || 1;
        var rem = min((ct.endTime - (+ct.localTime || 0)) / rate, end - t);
        if (rem > left) left = rem;
      } catch (e) {}
    }
    return left;
  };

  // Navigations (the Navigation API's `navigate` event, HTML "navigate" step "fire a
  // navigate event"): fired in the document, synchronously, when a navigation of its own
  // navigable begins from it (a link followed, a form submitted, `location` set), long
  // before the browser's own navigation events reach the host (15 to 25 ms on Chromium).
  // One the action started that leaves the document (not same-document, not a download,
  // not cancelled, not intercepted by the page's router) is in flight until this document
  // goes: the host then waits for the new one (or for the browser to say it failed, a 204
  // or a download) instead of replying on the old. The hook's listener is the document's
  // first: the page's own come after it.
  var NAV = W.navigation, navEv = null, navGen = 0, navDone = false, navs = false;
  var NE = W.NavigateEvent && W.NavigateEvent.prototype;
  var navDest = getter(NE, 'destination'), navDl = getter(NE, 'downloadRequest');
  var destSame = getter(W.NavigationDestination && W.NavigationDestination.prototype, 'sameDocument');
  var evPrevented = getter(W.Event && W.Event.prototype, 'defaultPrevented');
  var navTransition = getter(W.Navigation && W.Navigation.prototype, 'transition');
  if (NAV && addL && navDest && destSame && evPrevented) {
    try {
      apply(addL, NAV, ['navigate', function (e) {
        // the action's, or nobody known's (a form's submission navigates in a task of its
        // own, HTML "plan to navigate", which may run after the host's first poll closed
        // the window); never the page's own background work's
        if (gen === 0 || (cur !== 0 && !mine(cur))) return;
        try {
          if (apply(destSame, apply(navDest, e, []), []) || (navDl && apply(navDl, e, []) != null)) return;
        } catch (x) { return; }
        navEv = e; navGen = gen; navDone = false;
      }]);
      var ended = function () { navDone = true; };
      apply(addL, NAV, ['navigatesuccess', ended]);
      apply(addL, NAV, ['navigateerror', ended]);
      navs = true;
    } catch (e) {}
  }
  // a document restored from the back/forward cache (HTML "reactivate a document": its
  // pageshow's `persisted`) came back by a navigation: to the host it is a new document,
  // not the one whose action (and its navigation away) the hook remembers
  var PTE = W.PageTransitionEvent && W.PageTransitionEvent.prototype;
  var persistedOf = getter(PTE, 'persisted');
  if (addL && persistedOf) {
    try {
      apply(addL, W, ['pageshow', function (e) {
        try { if (apply(persistedOf, e, [])) { token = ''; navEv = null; } } catch (x) {}
      }, true]);
    } catch (e) {}
  }
  var navPending = function () {
    if (!navEv || navDone || navGen !== gen) return false;
    try {
      if (apply(evPrevented, navEv, [])) return false;
      // the page's router took it over: it stays in this document
      if (navTransition && apply(navTransition, NAV, []) != null) return false;
    } catch (e) { return false; }
    return true;
  };

  var begin = function (tok, reset, opening) {
    if (tok !== token || reset) {
      bgUp = new S(); bgDown = new S(); actUp = new S(); actDown = new S();
    }
    token = tok;
    if (!mo && MO) {
      try {
        mo = new MO(function (records) { note(records, cur); });
        apply(moObserve, mo, [doc, { attributes: true, childList: true, characterData: true, subtree: true }]);
      } catch (e) { mo = null; }
    }
    if (opening) {
      flush(cur);
      gen++;
      open = true;
      openedAt = now();
      lastWork = 0;
      timers = new M();
      frames = new M();
      requests = 0;
      try { animsBefore = getAnims ? new S(apply(getAnims, doc, [])) : null; } catch (e) { animsBefore = null; }
    }
    return true;
  };
  var readyNow = function () {
    try { return '' + apply(readyOf, doc, []); } catch (e) { return ''; }
  };
  var poll = function (tok) {
    var ready = readyNow();
    if (tok !== token || gen === 0) return { fresh: true, ready: ready };
    flush(cur);
    open = false;
    var t = now(), timer = -1;
    apply(mfor, timers, [function (due, id) {
      // a timer the browser runs late (a busy page) counts for a second more at most
      if (t - due > HORIZON) apply(mdel, timers, [id]);
      else if (due - t > timer) timer = max(due - t, 0);
    }]);
    var frame = 0;
    apply(mfor, frames, [function (at, id) {
      if (t - at > HORIZON) apply(mdel, frames, [id]);
      else frame++;
    }]);
    var since = max(lastWork, openedAt);
    if (frameAt <= since && !frameAsked && raf0) {
      frameAsked = true;
      try {
        apply(raf0, W, [function () { frameAsked = false; frameAt = now(); }]);
      } catch (e) { frameAsked = false; }
    }
    return {
      fresh: false, ready: ready, timer: timer, frames: frame, requests: max(requests, 0),
      anims: animsLeft(t), quiet: t - since, framed: frameAt > since, nav: navPending(), navs: navs, worked: lastWork > 0,
      bg: size(bgUp) + size(bgDown), act: size(actUp) + size(actDown),
    };
  };
  var list = function (s) {
    var out = [];
    apply(sfor, s, [function (n) { if (out.length < 2000) out[out.length] = n; }]);
    return out;
  };
  var stop = function (tok) {
    if (tok !== token) return -1;
    flush(cur);
    if (mo) { try { apply(moOff, mo, []); } catch (e) {} mo = null; }
    return size(bgUp) + size(bgDown);
  };
  var touched = function (tok) {
    if (stop(tok) < 0) return null;
    return [list(bgUp), list(bgDown), list(actUp), list(actDown)];
  };
  defineProperty(W, K, { value: function (what, tok, a, b) {
    if (what === 'begin') return begin('' + tok, !!a, !!b);
    if (what === 'poll') return apply(stringify, JSON0, [poll('' + tok)]);
    if (what === 'touched') return touched('' + tok);
    if (what === 'stop') return stop('' + tok);
    return null;
  }, enumerable: false, configurable: false });
  defineProperty(W, KT, { value: function (horizon, all) {
    var n = now(), last = -1, reqs = 0;
    apply(mfor, startDue, [function (at) {
      var left = at - n;
      if (left > 0 && left <= horizon && left > last) last = left;
    }]);
    if (!all) return last;
    // a start-up request running longer than the horizon (a long poll, a stream) is the
    // page's life, not its start: not counted
    apply(mfor, startReqs, [function (at) { if (n - at <= horizon) reqs++; }]);
    return apply(stringify, JSON0, [{ timer: last, requests: reqs, ready: readyNow() }]);
  }, enumerable: false, configurable: false });
})();
