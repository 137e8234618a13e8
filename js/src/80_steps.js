//! 80_steps.js: the page side of the commands that work on a form, a stretch of text or the
//! page as a whole rather than on one ref: submitting a form with the browser's constraint
//! validation (HTML 4.10.21, `submit`), selecting text (`selectText`), named groups of
//! queries in one walk (`queryAll`), a small map of the page (`inspect`), and the document's
//! identity for waiting on navigations (`docState`).
//!
//! Owns: those entry points' page work. Must not: send input, run page code (hooks and
//! `poll` run in the page's main world, from the host), or wait (the host polls).

/** role, name and ref of an element (ref minted for snapshot `n`; none for a hidden one). */
function who(el, n) {
  const role = getRole(el) || "generic";
  let name = "";
  try {
    name = getName(el, role);
  } catch (_) {
    name = "";
  }
  // a hidden element has no accessible name (it is in no tree: Chromium and Firefox give "")
  const hidden = isHiddenForName(el);
  if (hidden) return { ref: null, role: role, name: "" };
  return { ref: refFor(el, role, name, n, 0), role: role, name: clean(name, 200) };
}

/** The form a target stands for: itself, its form owner (HTML 4.10.17.3, the `form`
 * attribute included), or the form around it (custom controls). */
function formOwnerOf(el) {
  const tag = localNameOf(el);
  if (tag === "form") return el;
  const g = FORM_OWNER[tag];
  let f = null;
  if (g) {
    try {
      f = g(el);
    } catch (_) {
      f = null;
    }
  }
  return f || closest(el, "form");
}

/** The element a `ref` or `selector` names, or a tagged failure. */
function targetOf(a) {
  if (a.ref) {
    const res = resolveRef(a.ref);
    if (res.kind !== "ok") return res;
    return { kind: "ok", el: res.el };
  }
  let list;
  try {
    list = docQuerySelectorAll(document, "" + a.selector);
  } catch (_) {
    return { kind: "bad_selector", selector: "" + a.selector };
  }
  if (!nodeListLength(list)) return { kind: "no_match", selector: "" + a.selector };
  return { kind: "ok", el: nodeListItem(list, 0) };
}

/**
 * The form's invalid fields: candidates for constraint validation (willValidate) whose
 * checkValidity() fails, which fires `invalid` at each as a user's submit does (HTML
 * 4.10.21.2 "statically validate the constraints"), with the browser's own
 * validationMessage.
 */
function invalidFields(form, n) {
  const out = [];
  const els = formElementsOf(form);
  const len = formControlsLength(els);
  for (let i = 0; i < len; i++) {
    const el = formControlsItem(els, i);
    const tag = localNameOf(el);
    const will = WILL_VALIDATE[tag];
    const check = CHECK_VALIDITY[tag];
    if (!will || !check || !will(el) || check(el)) continue;
    const d = who(el, n);
    const msg = VALIDATION_MESSAGE[tag];
    d.message = clean(msg ? msg(el) : "", 300);
    push(out, d);
  }
  return out;
}

/**
 * `submit`: validates the form of a ref or selector and, when valid (or `novalidate`),
 * submits it as a user would: requestSubmit() (HTML 4.10.21.3), so submit handlers run and
 * may cancel. Invalid forms are not submitted; their fields come back with the browser's
 * messages (with `report`, reportValidity() also shows them and focuses the first).
 */
function submitForm(a) {
  const t = targetOf(a);
  if (t.kind !== "ok") return t;
  const form = formOwnerOf(t.el);
  if (!form) {
    const d = describe(t.el);
    return { kind: "no_form", ref: a.ref || "", role: d.role, name: d.name };
  }
  const n = a.n | 0;
  const f = who(form, n);
  const novalidate = !!formNoValidateOf(form);
  const invalid = novalidate ? [] : invalidFields(form, n);
  if (invalid.length) {
    if (a.report) {
      try {
        formReportValidity(form);
      } catch (_) {
        // nothing to show
      }
    }
    return { kind: "ok", form: f, valid: false, submitted: false, navigating: false, invalid: invalid };
  }
  let ev = null;
  const note = function (e) {
    ev = e;
  };
  addListener(form, "submit", note, true);
  try {
    if (formRequestSubmit) formRequestSubmit(form);
    else formSubmit(form);
  } finally {
    removeListener(form, "submit", note, true);
  }
  // form.submit() (no requestSubmit) fires no event and always submits
  const submitted = formRequestSubmit ? ev !== null && !eventDefaultPrevented(ev) : true;
  const how = strLower("" + formMethodOf(form));
  return {
    kind: "ok",
    form: f,
    valid: true,
    submitted: submitted,
    navigating: submitted && how !== "dialog",
    invalid: [],
    novalidate: novalidate,
  };
}

/** An offset within [0, len], `dflt` when absent. */
function clampOffset(v, dflt, len) {
  if (v === undefined || v === null) return dflt;
  const x = v | 0;
  return x < 0 ? 0 : x > len ? len : x;
}

/** The text nodes under `root` in tree order (iterative: pages nest deep). */
function textNodesOf(root) {
  const out = [];
  const stack = [root];
  while (stack.length) {
    const node = stack[stack.length - 1];
    stack.length = stack.length - 1;
    if (nodeType(node) === TEXT_NODE) {
      push(out, node);
      continue;
    }
    const kids = [];
    for (let c = firstChild(node); c; c = nextSibling(c)) push(kids, c);
    for (let k = kids.length - 1; k >= 0; k--) push(stack, kids[k]);
  }
  return out;
}

/** The (text node, offset) of character `at` of `texts`. */
function pointIn(texts, at) {
  let seen = 0;
  for (let i = 0; i < texts.length; i++) {
    const len = ("" + nodeValue(texts[i])).length;
    if (at <= seen + len) return { node: texts[i], offset: at - seen };
    seen += len;
  }
  return null;
}

/**
 * `selectText`: selects characters [start, end) of a ref's text: an input's or textarea's
 * value with setSelectionRange (HTML 4.10.5.2.10), any other element's text content with a
 * DOM Range made the document's selection. Returns the selected text.
 */
function selectText(a) {
  const res = resolveRef(a.ref);
  if (res.kind !== "ok") return res;
  const el = res.el;
  const tag = localNameOf(el);
  try {
    focusEl(el);
  } catch (_) {
    // not focusable: the selection is made all the same
  }
  if (tag === "input" || tag === "textarea") {
    const value = "" + (tag === "input" ? inputValueOf(el) : textareaValueOf(el));
    const len = value.length;
    const start = clampOffset(a.start, 0, len);
    const end = clampOffset(a.end, len, len);
    if (end < start) return { kind: "bad_range", ref: a.ref, start: start, end: end, length: len };
    try {
      if (tag === "input") inputSetSelectionRange(el, start, end);
      else textareaSetSelectionRange(el, start, end);
    } catch (_) {
      // types without the selection API (email, number) select their whole value only
      if (start !== 0 || end !== len) {
        return { kind: "no_selection_api", ref: a.ref, role: res.role, name: res.name,
          type: clean(inputTypeOf(el), 40) };
      }
      inputSelect(el);
    }
    return { kind: "ok", text: clean(strSlice(value, start, end), 100000), start: start, end: end, length: len };
  }
  const texts = textNodesOf(el);
  let len = 0;
  for (let i = 0; i < texts.length; i++) len += ("" + nodeValue(texts[i])).length;
  const start = clampOffset(a.start, 0, len);
  const end = clampOffset(a.end, len, len);
  if (end < start) return { kind: "bad_range", ref: a.ref, start: start, end: end, length: len };
  const range = docCreateRange(ownerDocument(el));
  const from = pointIn(texts, start);
  const to = pointIn(texts, end);
  if (from && to) {
    rangeSetStart(range, from.node, from.offset);
    rangeSetEnd(range, to.node, to.offset);
  } else {
    rangeSetStart(range, el, 0);
    rangeSetEnd(range, el, 0);
  }
  const sel = getSelection ? getSelection(viewOf(el)) : null;
  if (!sel || !selectionRemoveAll || !selectionAddRange) return { kind: "no_selection_api", ref: a.ref, role: res.role, name: res.name, type: "" };
  selectionRemoveAll(sel);
  selectionAddRange(sel, range);
  return { kind: "ok", text: clean(selectionText ? selectionText(sel) : "", 100000), start: start, end: end, length: len };
}

/** Case-insensitive, white-space-normalized name match (whole name with `exact`). */
function nameMatches(name, want, exact) {
  const h = strLower(normalizeWS(name || ""));
  const w = strLower(normalizeWS("" + want));
  return exact ? h === w : strIndexOf(h, w) >= 0;
}

/**
 * `queryAll`: named groups of queries answered in one call: role / name groups over one
 * walk (what snapshots show), selector groups by querySelectorAll. Matches get refs of
 * snapshot `n`, at most `limit` per group, with the group's total.
 */
function queryAll(a) {
  const groups = a.groups || [];
  const n = a.n | 0;
  let walked = null;
  const out = [];
  for (let g = 0; g < groups.length; g++) {
    const q = groups[g];
    const limit = q.limit > 0 ? q.limit : 10;
    const matches = [];
    let total = 0;
    if (q.selector) {
      let list;
      try {
        list = docQuerySelectorAll(document, "" + q.selector);
      } catch (_) {
        push(out, { label: q.label, error: "invalid CSS selector", matches: [], total: 0 });
        continue;
      }
      const len = nodeListLength(list);
      for (let i = 0; i < len; i++) {
        const el = nodeListItem(list, i);
        const d = who(el, n);
        if (q.role && d.role !== q.role) continue;
        if (q.name !== undefined && q.name !== null && !nameMatches(d.name, q.name, q.exact)) continue;
        total++;
        if (matches.length >= limit) continue;
        if (!d.name) {
          const t = clean(normalizeWS(textContent(el) || ""), 100);
          if (t) d.text = t;
        }
        push(matches, d);
      }
    } else {
      if (!walked) walked = memoWalk(document, { maxNodes: 0 });
      const nodes = walked.nodes;
      const els = walked.els;
      for (let i = 1; i < nodes.length; i++) {
        const node = nodes[i];
        if (node.r === "text") continue;
        if (q.role && node.r !== q.role) continue;
        if (q.name !== undefined && q.name !== null && !nameMatches(node.n, q.name, q.exact)) continue;
        total++;
        if (matches.length >= limit) continue;
        const el = els[i];
        const ref = el && nodeType(el) === ELEMENT_NODE ? refFor(el, node.r, nameOrWords(node), n, node.f || 0) : null;
        const m = { ref: ref, role: node.r, name: clean(node.n || "", 200) };
        // a nameless generic's words (45_walk genericWords), as a nameless match's text
        if (!node.n && nameOrWords(node)) m.text = clean(nameOrWords(node), 200);
        if (node.v) m.value = clean(node.v, 200);
        push(matches, m);
      }
    }
    push(out, { label: q.label, matches: matches, total: total });
  }
  return { kind: "ok", groups: out };
}

/** The `max` largest counts of a Map, as an object in decreasing order. */
function topCounts(counts, max) {
  const pairs = [];
  mapForEach(counts, function (v, k) {
    push(pairs, [k, v]);
  });
  arrSort(pairs, function (p, q) {
    return q[1] - p[1] || (p[0] < q[0] ? -1 : 1);
  });
  const out = {};
  for (let i = 0; i < pairs.length && i < max; i++) out[pairs[i][0]] = pairs[i][1];
  return out;
}

function countUp(counts, k) {
  mapSet(counts, k, (mapGet(counts, k) || 0) + 1);
}

/** The origin of a URL ("scheme://host:port"), or "" for URLs without one. */
function urlOrigin(u) {
  const i = strIndexOf(u, "://");
  if (i < 0) return "";
  const j = strIndexOf(u, "/", i + 3);
  return j < 0 ? u : strSlice(u, 0, j);
}

/** A URL without the document's own origin. */
function pathOf(u, origin) {
  return origin && strStartsWith(u, origin + "/") ? strSlice(u, origin.length) : u;
}

/**
 * `inspect`: a map of the page in a few hundred bytes, from one walk and one pass over the
 * elements: counts of roles and tags, forms with their fields, frames, headings, refs, and
 * the counts of extra `selectors`.
 */
function inspectPage(a) {
  // a map, not an act: it mints no refs
  const doc = document;
  const walked = memoWalk(doc, { maxNodes: 0 });
  const nodes = walked.nodes;
  const els = walked.els;
  const roles = new $Map();
  const headings = [];
  for (let i = 1; i < nodes.length; i++) {
    const r = nodes[i].r;
    if (r === "text") continue;
    countUp(roles, r);
    if (r === "heading" && headings.length < 8) {
      const el = els[i];
      const tag = el ? localNameOf(el) : "";
      let level = el ? getAttr(el, "aria-level") || "" : "";
      if (!level && tag.length === 2 && tag[0] === "h") level = tag[1];
      push(headings, "h" + (level || "2") + " " + clean(strSlice(nodes[i].n || "", 0, 60)));
    }
  }
  const tags = new $Map();
  const all = docGetElementsByTagName(doc, "*");
  const total = htmlCollectionLength(all);
  for (let i = 0; i < total; i++) countUp(tags, localNameOf(all[i]));
  const origin = urlOrigin(docURLOf(doc));
  const forms = [];
  const fl = docQuerySelectorAll(doc, "form");
  for (let i = 0, len = nodeListLength(fl); i < len && i < 5; i++) {
    const form = nodeListItem(fl, i);
    const els2 = formElementsOf(form);
    let fields = 0;
    let required = 0;
    for (let j = 0, m = formControlsLength(els2); j < m; j++) {
      const c = formControlsItem(els2, j);
      const will = WILL_VALIDATE[localNameOf(c)];
      if (!will || !will(c)) continue;
      fields++;
      if (hasAttr(c, "required")) required++;
    }
    // read only: no ref is minted (queryAll or a snapshot gives them)
    let name = "";
    try {
      name = getName(form, getRole(form) || "form");
    } catch (_) {
      name = "";
    }
    push(forms, { name: clean(name || getAttr(form, "id") || getAttr(form, "name") || "", 60), fields: fields,
      required: required, method: strLower("" + formMethodOf(form)),
      action: clean(pathOf("" + formActionOf(form), origin), 200) });
  }
  let unreadable = 0;
  for (let i = 0; i < walked.frames.length; i++) if (walked.frames[i].unreadable) unreadable++;
  const out = {
    kind: "ok",
    url: clean(docURLOf(doc), 2048),
    title: clean(docTitleOf(doc), 200),
    elements: total,
    interactive: walked.cands.length,
    roles: topCounts(roles, 12),
    tags: topCounts(tags, 12),
    forms: forms,
    frames: walked.frames.length,
    headings: headings,
    refs: mapSize(refEntries),
  };
  if (unreadable) out.unreadableFrames = unreadable;
  const sels = a.selectors || [];
  if (sels.length) {
    const counts = {};
    for (let i = 0; i < sels.length; i++) {
      try {
        counts[sels[i]] = nodeListLength(docQuerySelectorAll(doc, "" + sels[i]));
      } catch (_) {
        return { kind: "bad_selector", selector: "" + sels[i] };
      }
    }
    out.counts = counts;
  }
  return out;
}

/** The document's identity (its time origin: a new document has a later one), URL and
 * ready state, for `waitForNavigation`. */
function docState() {
  return {
    kind: "ok",
    origin: perfTimeOriginOf ? perfTimeOriginOf(mainPerformance) : 0,
    url: clean(docURLOf(document), 4096),
    ready: docReadyState(document),
  };
}

/** What activating an element does, for the operator's consent rules: the element a click
 * lands on (the nearest link, button or other activatable element up the flat tree: a
 * click on a link's child follows the link, HTML 4.6.4 "activation behavior"). */
const ACTIVATABLE = "a[href],area[href],button,input[type=submit],input[type=image],input[type=button],input[type=reset],summary,[role=button],[role=link],[role=menuitem],[role=tab],[role=option]";

function activatableOf(el) {
  for (let n = el, guard = 0; n && guard < 64; n = flatParent(n), guard++) {
    if (nodeType(n) !== 1) continue;
    try {
      if (matches(n, ACTIVATABLE)) return n;
    } catch (_) {
      return el;
    }
  }
  return el;
}

/** Whether activating `el` submits its form (HTML 4.10.6 a submit button: a button whose
 * type is submit, the missing and invalid value default, or an input of type submit or
 * image). */
function isSubmitButton(el) {
  const tag = localNameOf(el);
  if (tag === "button") {
    const t = strLower(getAttr(el, "type") || "submit");
    return t !== "button" && t !== "reset";
  }
  if (tag === "input") {
    const t = strLower(inputTypeOf(el) || "");
    return t === "submit" || t === "image";
  }
  return false;
}

/** Whether Enter in `el` submits its form: a text-like input (HTML 4.10.21.2 implicit
 * submission; whether the form has a default button is the browser's to decide, so any
 * such field counts). */
function submitsOnEnter(el) {
  if (localNameOf(el) !== "input") return false;
  const t = strLower(inputTypeOf(el) || "text");
  return !(t === "checkbox" || t === "radio" || t === "file" || t === "hidden" || t === "button" ||
    t === "reset" || t === "range" || t === "color" || t === "image" || t === "submit");
}

/** A URL attribute of `el` resolved against its base URL ("" when absent). */
function resolvedAttr(el, name) {
  const v = getAttr(el, name);
  if (v === null) return "";
  try {
    return urlHrefOf(new $URL(v, baseURIOf(el)));
  } catch (_) {
    return "" + v;
  }
}

/** The fields a form would send, for a person to read before it is sent: a label and the
 * value of each (password fields as ••••, unchecked boxes left out), at most 30. */
function formPreview(form, submitter) {
  let action = submitter ? resolvedAttr(submitter, "formaction") : "";
  if (!action) action = "" + formActionOf(form);
  let how = submitter ? getAttr(submitter, "formmethod") : null;
  if (!how) how = "" + formMethodOf(form);
  const fields = [];
  const els = formElementsOf(form);
  const len = formControlsLength(els);
  for (let i = 0; i < len && fields.length < 30; i++) {
    const el = formControlsItem(els, i);
    const tag = localNameOf(el);
    if (tag === "button" || tag === "fieldset" || tag === "output" || tag === "object") continue;
    const t = tag === "input" ? strLower(inputTypeOf(el) || "text") : tag;
    if (t === "submit" || t === "button" || t === "reset" || t === "image" || t === "file") continue;
    if ((t === "checkbox" || t === "radio") && !inputCheckedOf(el)) continue;
    let label = t === "hidden" ? "" : describe(el).name;
    if (!label) label = getAttr(el, "name") || t;
    const value = t === "password" ? "••••" : t === "checkbox" || t === "radio" ? "checked" : currentValue(el);
    push(fields, { name: clean(label, 80), value: clean(value, 200), hidden: t === "hidden" });
  }
  return { action: clean(action, 2048), method: strLower(how), fields: fields };
}

/**
 * `consentTarget`: what an action on a ref (or the focused element, or the element at a
 * point) would do, for the operator's consent rules: the element a click lands on, its role
 * and name, the URL a link there follows (and whether it downloads), and the form it would
 * submit (`enter`: the key is Enter in a field; `submit`: the `submit` step), with the form's
 * fields for the person asked.
 */
function consentTarget(a) {
  let el = null;
  if (a.ref) {
    const res = resolveRef(a.ref);
    if (res.kind !== "ok") return res;
    el = res.el;
  } else if (a.selector) {
    const t = targetOf(a);
    if (t.kind !== "ok") return t;
    el = t.el;
  } else if (a.x !== undefined && a.x !== null) {
    el = deepElementFromPoint(document, +a.x, +a.y);
  } else {
    el = deepActiveElement(document);
  }
  if (!el) return { kind: "ok", role: "", name: "", href: "", download: false, form: null, doc: clean(docURLOf(document), 4096) };
  const act = a.submit || a.enter ? el : activatableOf(el);
  const tag = localNameOf(act);
  const d = describe(act);
  const link = tag === "a" || tag === "area" ? act : closest(act, "a[href]");
  const href = link ? hrefOf(link, localNameOf(link)) : "";
  let form = null;
  if (a.submit) {
    const f = formOwnerOf(el);
    if (f) form = formPreview(f, null);
  } else if (a.enter ? submitsOnEnter(el) : isSubmitButton(act)) {
    const f = formOwnerOf(act);
    if (f) form = formPreview(f, a.enter ? null : act);
  }
  return {
    kind: "ok",
    role: d.role,
    name: d.name,
    href: clean(href || "", 2048),
    download: !!link && hasAttr(link, "download"),
    form: form,
    doc: clean(docURLOf(ownerDocument(el) || document), 4096),
  };
}
