//! 00_prelude.js: pristine built-ins, captured once when the engine is installed.
//!
//! Owns: every built-in and DOM accessor the engine uses. Must not: read anything from the
//! page's globals after install. Later files call only what this file exports.
//!
//! Pages may have replaced Array.prototype.push, JSON, Map, Element.prototype.getAttribute
//! and friends before we arrive. We take built-ins from a fresh realm (a short-lived
//! about:blank iframe) when one can be made and checked, and fall back to ours otherwise.
//! Arrays are filled with `a[a.length] = x`, never `push`, so a page's Array.prototype is
//! never called.

// True when the host registered the engine to run in each new document before the page's
// own scripts (the host rewrites this line): the page's realm is still pristine then, and
// the document may not even have a root element yet.
const PRELOADED = false;

const FRESH = PRELOADED ? null : (function () {
  const W = window;
  try {
    const doc = W.document;
    const ifr = W.Document.prototype.createElement.call(doc, "iframe");
    const root = doc.documentElement || doc.body;
    if (!root) return null;
    W.Node.prototype.appendChild.call(root, ifr);
    const w = ifr.contentWindow;
    // A usable realm has its own intrinsics and DOM methods that work on our nodes. Its
    // interface objects vanish once the frame is removed, so everything is captured below,
    // before the end of this file removes it.
    if (w && w !== W && typeof w.Map === "function" && w.Element &&
        w.Element.prototype.getAttribute.call(doc.documentElement, "__ariasnap_probe__") === null) {
      return { w: w, ifr: ifr, root: root, remove: W.Node.prototype.removeChild };
    }
    W.Node.prototype.removeChild.call(root, ifr);
  } catch (_) {
    // no fresh realm: use ours
  }
  return null;
})();

// Preloaded, the engine may run in a sandbox realm (BiDi; docs/reference/browsers.md#the-page-channel-webdriver-bidi): its own global holds
// its own JS built-ins and reaches the DOM interfaces through the window behind it (in
// Firefox's sandbox, `window.String` is the page's constructor seen through an Xray, whose
// prototype methods are not exposed); in a page's main world globalThis is window.
const REALM = FRESH ? FRESH.w : (PRELOADED ? globalThis : window);
const R = REALM;
const uncurry = R.Function.prototype.bind.bind(R.Function.prototype.call);
const desc = R.Object.getOwnPropertyDescriptor;
function getter(proto, name) {
  let p = proto;
  while (p) {
    const d = desc(p, name);
    if (d) return uncurry(d.get || d.value);
    p = R.Object.getPrototypeOf(p);
  }
  return function () {
    return undefined;
  };
}
function method(proto, name) {
  return uncurry(proto[name]);
}

const $Map = R.Map;
const $Set = R.Set;
const $WeakMap = R.WeakMap;
const $WeakRef = R.WeakRef;
const $RegExp = R.RegExp;
const $Math = R.Math;
const $Number = R.Number;
const $String = R.String;
const $stringify = R.JSON.stringify;
const $parse = R.JSON.parse;
const $now = R.performance ? R.performance.now.bind(R.performance) : R.Date.now;
const $keys = R.Object.keys;
const $isArray = R.Array.isArray;
const $hasOwn = method(R.Object.prototype, "hasOwnProperty");
const $getProto = R.Object.getPrototypeOf;
// The page realm's own prototypes (our object and array literals inherit from them).
const PageObjectP = $getProto({});
const PageArrayP = $getProto([]);
const $freeze = R.Object.freeze;
const $defineProperty = R.Object.defineProperty;
const $create = R.Object.create;

const mapGet = method(R.Map.prototype, "get");
const mapSet = method(R.Map.prototype, "set");
const mapHas = method(R.Map.prototype, "has");
const mapDelete = method(R.Map.prototype, "delete");
const mapClear = method(R.Map.prototype, "clear");
const mapSize = getter(R.Map.prototype, "size");
const mapForEach = method(R.Map.prototype, "forEach");
const wmGet = method(R.WeakMap.prototype, "get");
const wmSet = method(R.WeakMap.prototype, "set");
const wmHas = method(R.WeakMap.prototype, "has");
const setAdd = method(R.Set.prototype, "add");
const setHas = method(R.Set.prototype, "has");
const wrDeref = $WeakRef ? method(R.WeakRef.prototype, "deref") : null;

const strTrim = method(R.String.prototype, "trim");
const strLower = method(R.String.prototype, "toLowerCase");
const strUpper = method(R.String.prototype, "toUpperCase");
const strReplace = method(R.String.prototype, "replace");
const strSlice = method(R.String.prototype, "slice");
const strIndexOf = method(R.String.prototype, "indexOf");
const strSplit = method(R.String.prototype, "split");
const strCharCodeAt = method(R.String.prototype, "charCodeAt");
const strStartsWith = method(R.String.prototype, "startsWith");
const strMatch = method(R.String.prototype, "match");
const strWellFormed = R.String.prototype.toWellFormed
  ? method(R.String.prototype, "toWellFormed")
  : null;
const reTest = method(R.RegExp.prototype, "test");
const reExec = method(R.RegExp.prototype, "exec");
const numToString = method(R.Number.prototype, "toString");
const arrSort = method(R.Array.prototype, "sort");
const arrJoin = method(R.Array.prototype, "join");
const arrSlice = method(R.Array.prototype, "slice");

function push(a, x) {
  a[a.length] = x;
}
function re(src, flags) {
  return new $RegExp(src, flags || "");
}

// DOM accessors (from the page's own prototypes when no fresh realm exists; the fresh
// realm's prototypes otherwise: Blink's bindings accept nodes of any same-origin realm).
const D = R;
const NodeP = D.Node.prototype;
const ElementP = D.Element.prototype;
const HTMLElementP = D.HTMLElement.prototype;
const DocumentP = D.Document.prototype;

const nodeType = getter(NodeP, "nodeType");
const parentNode = getter(NodeP, "parentNode");
const firstChild = getter(NodeP, "firstChild");
const nextSibling = getter(NodeP, "nextSibling");
const lastChildOf = getter(NodeP, "lastChild");
const previousSiblingOf = getter(NodeP, "previousSibling");
const childNodes = getter(NodeP, "childNodes");
const nodeValue = getter(NodeP, "nodeValue");
const textContent = getter(NodeP, "textContent");
const isConnected = getter(NodeP, "isConnected");
const ownerDocument = getter(NodeP, "ownerDocument");
const getRootNode = method(NodeP, "getRootNode");
const contains = method(NodeP, "contains");
const localNameOf = getter(ElementP, "localName");
const namespaceURIOf = getter(ElementP, "namespaceURI");
const firstElementChild = getter(ElementP, "firstElementChild");
const nextElementSibling = getter(ElementP, "nextElementSibling");
const parentElementOf = getter(NodeP, "parentElement");
const getAttr = method(ElementP, "getAttribute");
const hasAttr = method(ElementP, "hasAttribute");
const hasAttrs = method(ElementP, "hasAttributes");
const shadowRootOf = getter(ElementP, "shadowRoot");
const assignedSlotOf = getter(ElementP, "assignedSlot");
const rectOf = method(ElementP, "getBoundingClientRect");
const querySelectorAll = method(ElementP, "querySelectorAll");
const docQuerySelectorAll = method(DocumentP, "querySelectorAll");
const matches = method(ElementP, "matches");
const closest = method(ElementP, "closest");
const scrollIntoView = method(ElementP, "scrollIntoView");
const checkVisibility = ElementP.checkVisibility ? method(ElementP, "checkVisibility") : null;
const docElementOf = getter(DocumentP, "documentElement");
const docBodyOf = getter(DocumentP, "body");
const docTitleOf = getter(DocumentP, "title");
const docURLOf = getter(DocumentP, "URL");
const activeElementOf = getter(DocumentP, "activeElement");
const defaultViewOf = getter(DocumentP, "defaultView");
const docGetElementsByTagName = method(DocumentP, "getElementsByTagName");
const docGetElementById = method(DocumentP, "getElementById");
const docGetElementsByClassName = method(DocumentP, "getElementsByClassName");
// Style sheets, to know whether a tree scope can generate ::before/::after content at all.
const docStyleSheetsOf = getter(DocumentP, "styleSheets");
const shadowStyleSheetsOf = getter(D.ShadowRoot.prototype, "styleSheets");
const docAdoptedOf = desc(DocumentP, "adoptedStyleSheets") ? getter(DocumentP, "adoptedStyleSheets") : null;
const shadowAdoptedOf = desc(D.ShadowRoot.prototype, "adoptedStyleSheets")
  ? getter(D.ShadowRoot.prototype, "adoptedStyleSheets")
  : null;
const sheetListLength = getter(D.StyleSheetList.prototype, "length");
const sheetListItem = method(D.StyleSheetList.prototype, "item");
const sheetRulesOf = getter(D.CSSStyleSheet.prototype, "cssRules");
const ruleListLength = getter(D.CSSRuleList.prototype, "length");
const ruleListItem = method(D.CSSRuleList.prototype, "item");
const ruleCssTextOf = getter(D.CSSRule.prototype, "cssText");
const importSheetOf = getter(D.CSSImportRule.prototype, "styleSheet");
// Which rules are style rules (CSSRule.type 1: the one type every browser still reports),
// their selectors, and the rules nested in a style rule (CSS nesting) or a grouping rule
// (@media, @supports, @layer, @container, @scope...): the selectors of the rules that may
// set a property (15_style's style gates).
const ruleTypeOf = getter(D.CSSRule.prototype, "type");
const styleRuleSelectorOf = getter(D.CSSStyleRule.prototype, "selectorText");
const styleRuleChildrenOf = getter(D.CSSStyleRule.prototype, "cssRules");
const groupingRulesOf = D.CSSGroupingRule ? getter(D.CSSGroupingRule.prototype, "cssRules") : null;
const fragGetElementById = method(D.DocumentFragment.prototype, "getElementById");
const fragQuerySelector = method(D.DocumentFragment.prototype, "querySelector");
const docQuerySelector = method(DocumentP, "querySelector");
const elementFromPoint = method(DocumentP, "elementFromPoint");
const elementsFromPoint = DocumentP.elementsFromPoint ? method(DocumentP, "elementsFromPoint") : null;
const shadowActiveElement = getter(D.ShadowRoot.prototype, "activeElement");
const shadowHostOf = getter(D.ShadowRoot.prototype, "host");
const htmlCollectionLength = getter(D.HTMLCollection.prototype, "length");
const nodeListLength = getter(D.NodeList.prototype, "length");
const nodeListItem = method(D.NodeList.prototype, "item");
const assignedNodes = method(D.HTMLSlotElement.prototype, "assignedNodes");
const contentDocumentOf = getter(D.HTMLIFrameElement.prototype, "contentDocument");
const frameContentDocumentOf = getter(D.HTMLFrameElement.prototype, "contentDocument");
// The frame's src resolved against its document's base URL (what the browser loads).
const iframeSrcOf = getter(D.HTMLIFrameElement.prototype, "src");
const frameSrcOf = getter(D.HTMLFrameElement.prototype, "src");
const inputValueOf = getter(D.HTMLInputElement.prototype, "value");
const inputTypeOf = getter(D.HTMLInputElement.prototype, "type");
const inputCheckedOf = getter(D.HTMLInputElement.prototype, "checked");
const inputIndeterminateOf = getter(D.HTMLInputElement.prototype, "indeterminate");
const inputLabelsOf = getter(D.HTMLInputElement.prototype, "labels");
// `labels` of every labelable element, through each interface's own getter (a page may
// redefine the property on any of them)
const LABELS_GETTERS = {
  input: inputLabelsOf,
  select: getter(D.HTMLSelectElement.prototype, "labels"),
  textarea: getter(D.HTMLTextAreaElement.prototype, "labels"),
  button: getter(D.HTMLButtonElement.prototype, "labels"),
  meter: getter(D.HTMLMeterElement.prototype, "labels"),
  output: getter(D.HTMLOutputElement.prototype, "labels"),
  progress: getter(D.HTMLProgressElement.prototype, "labels"),
};
const textareaValueOf = getter(D.HTMLTextAreaElement.prototype, "value");
const selectValueOf = getter(D.HTMLSelectElement.prototype, "value");
const selectSelectedOptions = getter(D.HTMLSelectElement.prototype, "selectedOptions");
const optionSelectedOf = getter(D.HTMLOptionElement.prototype, "selected");
const optionTextOf = getter(D.HTMLOptionElement.prototype, "text");
const detailsOpenOf = getter(D.HTMLDetailsElement.prototype, "open");
const dialogOpenOf = getter(D.HTMLDialogElement.prototype, "open");
const isContentEditableOf = getter(HTMLElementP, "isContentEditable");
const labelControlOf = getter(D.HTMLLabelElement.prototype, "control");
const tabIndexOf = getter(HTMLElementP, "tabIndex");
const onclickOf = getter(HTMLElementP, "onclick");
// the on* IDL getters of the click families (mouse, pointer): 17_listen
const ON_GETTERS = [
  [onclickOf, getter(HTMLElementP, "onmousedown"), getter(HTMLElementP, "onmouseup")],
  [getter(HTMLElementP, "ondblclick"), getter(HTMLElementP, "onpointerdown"), getter(HTMLElementP, "onpointerup")],
];
const onkeydownOf = getter(HTMLElementP, "onkeydown");
const onkeyupOf = getter(HTMLElementP, "onkeyup");
const anchorHrefOf = getter(D.HTMLAnchorElement.prototype, "href");
const imgNaturalWidthOf = getter(D.HTMLImageElement.prototype, "naturalWidth");
const imgNaturalHeightOf = getter(D.HTMLImageElement.prototype, "naturalHeight");
const areaHrefOf = getter(D.HTMLAreaElement.prototype, "href");
// a <link>'s href resolved against the document's base URL (the URL the browser fetches)
const linkHrefOf = getter(D.HTMLLinkElement.prototype, "href");
const svgTabIndexOf = D.SVGElement ? getter(D.SVGElement.prototype, "tabIndex") : null;
// URLs of SVG links (an SVGAElement's href is no string): resolved against the node's base.
const baseURIOf = getter(NodeP, "baseURI");
const $URL = R.URL;
const urlHrefOf = getter(R.URL.prototype, "href");

// Window members live on the global object itself, not on Window.prototype.
const winGetComputedStyle = uncurry(R.getComputedStyle);
const styleGet = method(D.CSSStyleDeclaration.prototype, "getPropertyValue");
const innerWidthOf = getter(R, "innerWidth");
const innerHeightOf = getter(R, "innerHeight");
const scrollXOf = getter(R, "scrollX");
const scrollYOf = getter(R, "scrollY");
const $MutationObserver = R.MutationObserver;
// running animations and transitions (72_memo: a walk is not kept while one runs)
const docGetAnimations = DocumentP.getAnimations ? method(DocumentP, "getAnimations") : null;
const animPlayStateOf = R.Animation ? getter(R.Animation.prototype, "playState") : null;
const addListener = method(R.EventTarget.prototype, "addEventListener");

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const DOCUMENT_NODE = 9;
const DOCUMENT_FRAGMENT_NODE = 11;

// A lone surrogate: a high one not followed by a low one, or a low one not preceded by a
// high one (for engines without String.prototype.toWellFormed).
const LONE_SURROGATE_RE = re("[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]", "g");
/**
 * Caps a string and makes it well-formed (no lone surrogates: docs/reference/output.md#what-no-page-can-forge, JSON that every parser
 * reads). Cut first, then mended, so a cut through a surrogate pair leaves U+FFFD, not half
 * a character.
 */
function clean(s, cap) {
  if (s === null || s === undefined) return "";
  s = "" + s;
  if (cap && s.length > cap) s = strSlice(s, 0, cap);
  return strWellFormed ? strWellFormed(s) : strReplace(s, LONE_SURROGATE_RE, "\uFFFD");
}

const WS_RE = re("[\\s\\u200b\\u00a0]+", "g");
// What WS_RE would change: a white-space character other than a space, a zero-width space,
// or two white-space characters in a row (a lone space is replaced by itself).
const WS_CHANGE_RE = re("[^\\S ]|\\s\\s|\\u200b");
/** Collapses white space (incl. NBSP) to single spaces and trims. */
function normalizeWS(s) {
  // most runs need no collapsing: no replace, no new string
  if (!reTest(WS_CHANGE_RE, s)) return strTrim(s);
  return strTrim(strReplace(s, WS_RE, " "));
}

// Captures for actions (55_actions.js).
const $scrollIntoView = scrollIntoView;
const focusEl = method(HTMLElementP, "focus");
const svgFocus = D.SVGElement ? method(D.SVGElement.prototype, "focus") : null;
const inputSelect = method(D.HTMLInputElement.prototype, "select");
const textareaSelect = method(D.HTMLTextAreaElement.prototype, "select");
const frameElementOf = getter(R, "frameElement");
const clientLeftOf = getter(ElementP, "clientLeft");
const clientTopOf = getter(ElementP, "clientTop");
const shadowElementFromPoint = D.ShadowRoot.prototype.elementFromPoint
  ? method(D.ShadowRoot.prototype, "elementFromPoint")
  : null;
const getSelection = R.getSelection ? uncurry(R.getSelection) : null;
const selectionSelectAll = D.Selection ? method(D.Selection.prototype, "selectAllChildren") : null;
const docReadyState = getter(DocumentP, "readyState");
const perfEntriesByType = R.performance ? method(R.Performance.prototype, "getEntriesByType") : null;
const mainPerformance = getter(R, "performance")(window);
const optionValueOf = getter(D.HTMLOptionElement.prototype, "value");
const selectOptionsOf = getter(D.HTMLSelectElement.prototype, "options");
const htmlCollectionItem = method(D.HTMLCollection.prototype, "item");
const optionsCollectionLength = getter(D.HTMLOptionsCollection.prototype, "length");
const optionsCollectionItem = method(D.HTMLOptionsCollection.prototype, "item");
const setOptionSelected = uncurry(desc(D.HTMLOptionElement.prototype, "selected").set);
// The interface's own value setter (docs/reference/actions.md `set`): a framework's value tracker is an own
// property of the element, so a change written past it is seen as the user's on `input`.
const inputValueSet = uncurry(desc(D.HTMLInputElement.prototype, "value").set);
const fragQuerySelectorAll = method(D.DocumentFragment.prototype, "querySelectorAll");
const dispatchEvent = method(R.EventTarget.prototype, "dispatchEvent");
const $Event = R.Event;
const innerTextOf = getter(HTMLElementP, "innerText");
const outerHTMLOf = getter(ElementP, "outerHTML");
const winScrollBy = uncurry(R.scrollBy);
const winScrollTo = uncurry(R.scrollTo);
// Captures for 56_pointer.js: an element's boxes, its scroll and client areas, the document's
// scrolling element, and HTML drag and drop's events (HTML 6.11).
const clientRectsOf = method(ElementP, "getClientRects");
const rectListLength = getter(D.DOMRectList.prototype, "length");
const clientWidthOf = getter(ElementP, "clientWidth");
const clientHeightOf = getter(ElementP, "clientHeight");
const scrollTopOf = getter(ElementP, "scrollTop");
const scrollLeftOf = getter(ElementP, "scrollLeft");
const scrollWidthOf = getter(ElementP, "scrollWidth");
const scrollHeightOf = getter(ElementP, "scrollHeight");
const elScrollBy = method(ElementP, "scrollBy");
const scrollingElementOf = getter(DocumentP, "scrollingElement");
const $DragEvent = R.DragEvent || null;
const $DataTransfer = R.DataTransfer || null;
const eventTargetOf = getter(R.Event.prototype, "target");
const $apply = R.Reflect.apply;
// The page's own requestAnimationFrame, only when captured before any page script ran (a
// fresh realm's would stop with its frame, and a page may replace the global): the host
// waits for rendered frames with it, polling from outside, never depending on page timers.
const visibilityStateOf = getter(DocumentP, "visibilityState");
const $raf = PRELOADED && typeof window.requestAnimationFrame === "function"
  ? uncurry(window.requestAnimationFrame)
  : null;

// The realm's requestIdleCallback and setTimeout, preloaded only (the engine's warm-up, 90_api).
const $idle = PRELOADED && typeof window.requestIdleCallback === "function"
  ? uncurry(window.requestIdleCallback)
  : null;
const $setTimeout = PRELOADED && typeof window.setTimeout === "function" ? uncurry(window.setTimeout) : null;

// Captures for 80_steps.js (submit, selectText, docState): forms and constraint validation
// (HTML 4.10.20), text selection, the document's time origin.
const FORM_TAGS = ["input", "select", "textarea", "button", "fieldset", "output", "object"];
const FORM_IFACES = {
  input: D.HTMLInputElement, select: D.HTMLSelectElement, textarea: D.HTMLTextAreaElement,
  button: D.HTMLButtonElement, fieldset: D.HTMLFieldSetElement, output: D.HTMLOutputElement,
  object: D.HTMLObjectElement,
};
/** Each form-associated interface's own getter or method `name`, by tag. */
function perFormTag(name, isMethod) {
  const out = {};
  for (let i = 0; i < FORM_TAGS.length; i++) {
    const iface = FORM_IFACES[FORM_TAGS[i]];
    if (!iface || !desc(iface.prototype, name)) continue;
    out[FORM_TAGS[i]] = isMethod ? method(iface.prototype, name) : getter(iface.prototype, name);
  }
  return out;
}
const FORM_OWNER = perFormTag("form", false);
const WILL_VALIDATE = perFormTag("willValidate", false);
const VALIDATION_MESSAGE = perFormTag("validationMessage", false);
const CHECK_VALIDITY = perFormTag("checkValidity", true);
const FormP = D.HTMLFormElement.prototype;
const formElementsOf = getter(FormP, "elements");
const formNoValidateOf = getter(FormP, "noValidate");
const formMethodOf = getter(FormP, "method");
const formActionOf = getter(FormP, "action");
const formCheckValidity = method(FormP, "checkValidity");
const formReportValidity = method(FormP, "reportValidity");
const formRequestSubmit = FormP.requestSubmit ? method(FormP, "requestSubmit") : null;
const formSubmit = method(FormP, "submit");
const formControlsLength = getter(D.HTMLFormControlsCollection.prototype, "length");
const formControlsItem = method(D.HTMLFormControlsCollection.prototype, "item");
const eventDefaultPrevented = getter(R.Event.prototype, "defaultPrevented");
const eventComposedPath = method(R.Event.prototype, "composedPath");
const eventTypeOf = getter(R.Event.prototype, "type");
const removeListener = method(R.EventTarget.prototype, "removeEventListener");
const inputSetSelectionRange = method(D.HTMLInputElement.prototype, "setSelectionRange");
const textareaSetSelectionRange = method(D.HTMLTextAreaElement.prototype, "setSelectionRange");
const docCreateRange = method(DocumentP, "createRange");
const rangeSetStart = method(D.Range.prototype, "setStart");
const rangeSetEnd = method(D.Range.prototype, "setEnd");
const selectionRemoveAll = D.Selection ? method(D.Selection.prototype, "removeAllRanges") : null;
const selectionAddRange = D.Selection ? method(D.Selection.prototype, "addRange") : null;
const selectionText = D.Selection ? method(D.Selection.prototype, "toString") : null;
const perfTimeOriginOf = R.performance ? getter(R.Performance.prototype, "timeOrigin") : null;


// Everything is captured: the fresh realm's frame can go.
if (FRESH) {
  try {
    FRESH.remove.call(FRESH.root, FRESH.ifr);
  } catch (_) {
    // already gone
  }
}
