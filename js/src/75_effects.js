//! 75_effects.js: what an action did that the tree may no longer show (docs/reference/replies.md#effects): the text live
//! regions announced while it ran (a toast gone before the action ended is still caught:
//! the document's MutationObserver records it as it appears), the HTTP errors of the
//! requests it caused, and the document's own HTTP status.
//!
//! Owns: the announcement log of the action in progress. Must not: send input or mint refs.

let watching = false;
let watchSince = 0;
let announced = [];
const ANNOUNCED_MAX = 10;
/** Live region roles (WAI-ARIA 1.2: alert and status are assertive / polite live regions;
 * log, marquee and timer are live regions too). */
const LIVE_ROLE_LIST = ["alert", "status", "log", "marquee", "timer", "alertdialog"];
const LIVE_ROLES = new $Set(LIVE_ROLE_LIST);

// What each live region showed last: when the action began (the document's regions), then
// after each change seen. A region that shows the same text again (a dialog that hid it
// closed, the page rewrote it unchanged) says nothing new, so it is no announcement; one
// cleared and then given its old text again is (a second "Saved"). Regions in shadow trees
// and frames are not read at the start: what they first show is taken as new.
const LIVE_SELECTOR = (function () {
  const parts = ['[aria-live="polite"]', '[aria-live="assertive"]', "output"];
  for (let i = 0; i < LIVE_ROLE_LIST.length; i++) push(parts, '[role~="' + LIVE_ROLE_LIST[i] + '"]');
  return arrJoin(parts, ", ");
})();
const LIVE_READ_MAX = 200;
let liveBefore = new $Map();

/** The text of a live region as announcements record it ("" when it cannot be read). */
function liveText(region) {
  try {
    return clean(strTrim("" + innerTextOf(region)), 300);
  } catch (_) {
    return "";
  }
}

/** Reads what every live region of the document shows now (at most LIVE_READ_MAX). */
function readLiveRegions() {
  liveBefore = new $Map();
  let list;
  try {
    list = docQuerySelectorAll(document, LIVE_SELECTOR);
  } catch (_) {
    return;
  }
  const n = nodeListLength(list);
  for (let i = 0; i < n && i < LIVE_READ_MAX; i++) {
    const el = nodeListItem(list, i);
    mapSet(liveBefore, el, liveText(el));
  }
}

/** The live region an added or changed node belongs to (itself included), or null. */
function liveRegionOf(node) {
  let el = node && nodeType(node) === 1 ? node : node ? parentElementOf(node) : null;
  for (let d = 0; el && d < 64; d++) {
    const role = getAttr(el, "role");
    if (role && setHas(LIVE_ROLES, strSplit(strLower(strTrim(role)), " ")[0])) return el;
    const live = getAttr(el, "aria-live");
    if (live === "polite" || live === "assertive") return el;
    if (localNameOf(el) === "output") return el;
    el = parentElementOf(el);
  }
  return null;
}

/** Called with the document's mutation records: keeps the text of live regions they touch. */
function noteAnnouncements(records) {
  if (!watching || !records) return;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    const region = liveRegionOf(r.target);
    const regions = [];
    if (region) push(regions, region);
    else if (r.addedNodes) {
      for (let j = 0; j < r.addedNodes.length; j++) {
        const reg = liveRegionOf(r.addedNodes[j]);
        if (reg) push(regions, reg);
      }
    }
    for (let j = 0; j < regions.length; j++) {
      const t = liveText(regions[j]);
      const last = mapGet(liveBefore, regions[j]);
      mapSet(liveBefore, regions[j], t);
      if (!t || last === t) continue;
      let seen = false;
      for (let k = 0; k < announced.length; k++) if (announced[k] === t) seen = true;
      if (!seen && announced.length < ANNOUNCED_MAX) push(announced, t);
    }
  }
}

// A click that follows a link marked for download (`<a download>`, `<area download>`: HTML
// "follow the hyperlink" then downloads instead of navigating) makes the browser fetch the
// file; its download begins only once the response is in, which can be after the page has
// settled, with no navigation to announce it. The click is kept (its defaultPrevented is
// read when the effects are collected: a page may cancel the download in a later listener).
let downloadClick = null;
let clickDoc = null;

/** Document click listener (capture): notes a click whose nearest link is a download link. */
function noteClick(ev) {
  if (!watching) return;
  let path;
  try {
    path = eventComposedPath(ev);
  } catch (_) {
    return;
  }
  for (let i = 0; i < path.length; i++) {
    const n = path[i];
    // the path ends with the document and the window (not a node); a shadow root in it is
    // followed by its host
    let nt = 0;
    try {
      nt = nodeType(n);
    } catch (_) {
      break;
    }
    if (nt === DOCUMENT_NODE) break;
    if (nt !== ELEMENT_NODE) continue;
    const t = localNameOf(n);
    if ((t === "a" || t === "area") && hasAttr(n, "href")) {
      if (hasAttr(n, "download")) downloadClick = ev;
      return;
    }
  }
}

/** Starts recording what the next action does. */
function watchEffects() {
  watching = true;
  watchSince = $now();
  announced = [];
  downloadClick = null;
  if (clickDoc !== document) {
    addListener(document, "click", noteClick, true);
    clickDoc = document;
  }
  readLiveRegions();
  mutationHook = noteAnnouncements;
  observeTree(document);
  return { kind: "ok", since: watchSince, url: clean(docURLOf(document), 4096),
    origin: perfTimeOriginOf ? perfTimeOriginOf(mainPerformance) : 0 };
}

const ICON_REL_RE = re("\\sicon\\s");
/**
 * The URLs the browser fetches a document's icon from for its own UI: each `<link>` whose
 * rel has the token `icon` (HTML "rel=icon": the user agent fetches it), else `/favicon.ico`
 * of an http(s) document's origin (HTML, link type "icon": "in the absence of a link with the
 * icon keyword, [...] user agents may instead" fetch /favicon.ico; Firefox's
 * LinkHandlerChild.addRootIcon, Chromium's FaviconDriver). Both list that fetch in the
 * document's Resource Timing with initiatorType "other" (w3c/resource-timing#298), checked
 * on Chromium 156 (a 404 for /favicon.ico once per origin and session, after the load
 * event) and Firefox 153 ESR (after every navigation, as the load event ends); a page's own
 * request for the same URL says how the page made it (img, fetch, xmlhttprequest, css...).
 */
function iconURLs(doc) {
  const out = [];
  const u = docURLOf(doc);
  const at = strIndexOf(u, "://");
  if (at > 0 && (strStartsWith(u, "http:") || strStartsWith(u, "https:"))) {
    const slash = strIndexOf(u, "/", at + 3);
    push(out, (slash < 0 ? u : strSlice(u, 0, slash)) + "/favicon.ico");
  }
  const links = docGetElementsByTagName(doc, "link");
  for (let i = 0, n = htmlCollectionLength(links); i < n && i < 200; i++) {
    const l = htmlCollectionItem(links, i);
    const rel = " " + strLower(getAttr(l, "rel") || "") + " ";
    if (!reTest(ICON_REL_RE, rel)) continue;
    try {
      push(out, "" + linkHrefOf(l));
    } catch (_) {
      // not a link element of this realm: its icon is not known
    }
  }
  return out;
}

/**
 * What happened since `watchEffects` (or since the document's start when it began after
 * it: a navigation): the announced texts, the HTTP errors of resources fetched meanwhile
 * (Resource Timing's `responseStatus`, 400 or more), the document's HTTP status and URL.
 * Stops recording.
 */
function collectEffects() {
  const since = watching ? watchSince : 0;
  const out = { kind: "ok", announced: announced, http_errors: [], status: 0, url: clean(docURLOf(document), 4096), fresh: !watching,
    download_link: downloadClick !== null && !eventDefaultPrevented(downloadClick) };
  downloadClick = null;
  watching = false;
  mutationHook = null;
  announced = [];
  liveBefore = new $Map();
  if (perfEntriesByType) {
    try {
      const res = perfEntriesByType(mainPerformance, "resource");
      let icons = null;
      for (let i = 0; i < res.length && out.http_errors.length < 10; i++) {
        const e = res[i];
        const st = typeof e.responseStatus === "number" ? e.responseStatus : 0;
        if (st < 400 || !(e.startTime >= since)) continue;
        const kind = "" + e.initiatorType;
        const url = "" + e.name;
        // the browser's own icon fetch is not the page's request
        if (kind === "other") {
          if (icons === null) icons = iconURLs(document);
          let own = false;
          for (let k = 0; k < icons.length; k++) if (icons[k] === url) own = true;
          if (own) continue;
        }
        push(out.http_errors, { url: clean(url, 2048), status: st, kind: clean(kind, 40) });
      }
      const nav = perfEntriesByType(mainPerformance, "navigation");
      if (nav && nav[0] && typeof nav[0].responseStatus === "number") out.status = nav[0].responseStatus | 0;
    } catch (_) {
      // no timing entries: nothing to report
    }
  }
  return out;
}
