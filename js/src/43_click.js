//! 43_click.js: what a user can click besides controls (docs/behaviour.md#what-a-user-can-click),
//! and the words an unnamed control's icon carries (docs/reference/output.md#icon-hints).
//!
//! Owns: which elements are clickables (a pointer cursor of their own, a listener of the
//! click family) and which are containers whose listener serves what they hold (event
//! delegation), and the icon words of a control. Must not: emit nodes or mint refs (45_walk
//! and 50_refs do), or let page text reach an icon hint other than as lower-case words.

// Roles that are controls: ref candidates of tier 1 (45_walk), needing no clickable flag.
const TIER1 = new $Set(["button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox",
  "slider", "spinbutton", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio",
  // DPUB-ARIA's links (subclasses of link: a footnote reference is followed like any link)
  "doc-backlink", "doc-biblioref", "doc-glossref", "doc-noteref"]);

// What clickKind answers (bits): a clickable now (its own pointer cursor); a clickable once
// its subtree is known to hold nothing actionable (a listener: settleClickable in 45_walk);
// its items are the targets (a list, table, tree... listened or with a pointer cursor); its
// children are (a generic container of three or more alike children with a listener).
const CLICK_NOW = 1;
const CLICK_LATER = 2;
const CLICK_ITEMS = 4;
const CLICK_KIDS = 8;
const CLICKABLE = CLICK_NOW | CLICK_LATER;

// ctx bits of the walk (45_walk): inside an actionable element (a pointer cursor there is
// the ancestor's); inside a container whose items are the targets; a child of a container
// whose children are.
const CTX_ACT = 0x100;
const CTX_ITEMS = 0x200;
const CTX_KIDS = 0x400;

// Containers of items (WAI-ARIA 1.2 required owned elements): a listener on one is event
// delegation over its items, and so is a pointer cursor set on the whole container.
const ITEM_CONTAINERS = new $Set(["list", "listbox", "table", "grid", "treegrid", "tree", "rowgroup", "menu",
  "menubar", "tablist", "radiogroup", "feed"]);
// The items such a container's listener serves.
const DELEGATED_ITEMS = new $Set(["listitem", "row", "option", "treeitem", "article"]);

/**
 * Whether el is something a user can click besides controls (CLICK_* bits, 0: not). tag, role
 * (null for generic and text-level roles), ctx, style, attrs and scope as the walk has them;
 * kid: el is a child of a container whose children are the targets. Rules
 * (docs/behaviour.md#what-a-user-can-click): html and body never are (their listeners are a
 * page's delegation); a pointer cursor of el's own (not inherited: Playwright's AI snapshot
 * marks `[cursor=pointer]` where the parent's differs) outside an actionable element is one
 * now; a listener of the click family is one unless el turns out to hold actionable
 * elements (a delegating container: settleClickable) or listens in the capture phase (it
 * hears its descendants' clicks first: delegation at a framework's root, React 17+); on a
 * container of items, its items are the targets.
 */
function clickKind(el, tag, role, ctx, style, attrs, scope, kid) {
  // a control is actionable already (its ref needs no flag)
  if (role && setHas(TIER1, role)) return 0;
  if (tag === "body" || tag === "html" || tag === "slot") return 0;
  let k = 0;
  if (!(ctx & CTX_ACT) && scopeFlagsOf(scope) & SCOPE_CURSOR && ownPointerCursor(el, style)) k = CLICK_NOW;
  else {
    const kinds = listenKinds(el, attrs, scope);
    if (kinds & (LISTEN_MOUSE | LISTEN_POINTER) && !(kinds & LISTEN_CAPTURE)) k = CLICK_LATER;
  }
  if (k && role && setHas(ITEM_CONTAINERS, role)) return CLICK_ITEMS;
  if (k === CLICK_LATER && !role && alikeChildren(el)) return CLICK_KIDS;
  if (k) return k;
  if (kid || (ctx & CTX_ITEMS && role && setHas(DELEGATED_ITEMS, role))) return CLICK_LATER;
  return 0;
}

/** ctx for el's children, after what clickKind said of el (click) and its role. */
function clickCtx(ctx, click, role) {
  if (click & CLICK_ITEMS) ctx |= CTX_ITEMS;
  else if (role && setHas(DELEGATED_ITEMS, role)) ctx &= ~CTX_ITEMS;
  if (click & CLICK_KIDS) ctx |= CTX_KIDS;
  return ctx;
}

/**
 * Whether three or more element children of el are alike (the same local name and class
 * attribute): a list in all but its role, whose container's listener serves the items.
 */
function alikeChildren(el) {
  const seen = new $Map();
  let n = 0;
  for (let c = firstElementChild(el); c && n < 64; c = nextElementSibling(c), n++) {
    const key = localNameOf(c) + " " + (getAttr(c, "class") || "");
    const m = (mapGet(seen, key) | 0) + 1;
    if (m >= 3) return true;
    mapSet(seen, key, m);
  }
  return false;
}

// Icon hints (docs/reference/output.md#icon-hints): the words an unnamed control's icon
// carries in its markup. Icon-font class prefixes (Font Awesome, Bootstrap Icons, Bootstrap 3
// glyphicons, Material Design Icons, Tabler, Remix, Ionicons, Boxicons, Phosphor, Octicons,
// Line Awesome, Feather/Lucide, css.gg, Codicons, generic `icon-`), the sprite symbol a
// `<use>` shows, an svg's `<title>` (when the tree has not named the control with it: an
// aria-hidden icon), and an image's file name.
const ICON_CLASS_RE = re(
  "^(?:fa[srlbdtk]?|fa-(?:solid|regular|light|thin|duotone|brands|sharp)|bi|glyphicon|mdi|ti|ri|ion|ion-md|ion-ios|" +
    "bx|bxs|bxl|ph|octicon|la|las|lar|lab|feather|lucide|gg|codicon|icon|icons|fi|uil|typcn|icofont)-([a-z0-9-]+)$",
);
// Tokens that are no word of the icon: its library's modifiers (sizes, styles, animations).
const ICON_NOISE = new $Set(strSplit(
  "icon icons ico ic svg img image sprite glyph symbol fw lg sm xs xl 2xs 2xl 1x 2x 3x 4x 5x 6x 7x 8x 9x 10x " +
  "solid regular light thin duotone brands brand sharp outline outlined filled fill line round rounded two tone " +
  "spin pulse border pull inverse stack flip rotate beat fade bounce shake li ul layers o alt",
  " "));
const ICON_WORD_RE = re("^[a-z][a-z0-9]*$");
// a word that reads as a ref (s1e4, f2s1e4) is never one of an icon's
const REF_WORD_RE = re("^(?:f\\d+)?s\\d+e\\d+$");
const ICON_SPLIT_RE = re("[-_.\\s]+");
const MAX_ICON_WORDS = 4;

/** The words of one icon token (a class, an id, a file name): lower-case, noise dropped. */
function iconWords(tok) {
  const parts = strSplit(strLower(tok), ICON_SPLIT_RE);
  const out = [];
  for (let i = 0; i < parts.length && out.length < MAX_ICON_WORDS; i++) {
    const p = parts[i];
    if (!p || setHas(ICON_NOISE, p) || !reTest(ICON_WORD_RE, p) || reTest(REF_WORD_RE, p)) continue;
    if (p.length > 20) continue;
    push(out, p);
  }
  return arrJoin(out, " ");
}

/** The icon words of one element's own markup (its classes, a `use`, a title, a file name). */
function iconOf(el, ln) {
  const cls = getAttr(el, "class");
  if (cls) {
    const toks = strSplit(strTrim(cls), SPACES_RE);
    for (let i = 0; i < toks.length; i++) {
      const m = reExec(ICON_CLASS_RE, strLower(toks[i]));
      if (m) {
        const w = iconWords(m[1]);
        if (w) return w;
      }
    }
  }
  if (ln === "use") {
    const h = getAttr(el, "href") || getAttr(el, "xlink:href") || "";
    const at = strIndexOf(h, "#");
    if (at >= 0) return iconWords(strSlice(h, at + 1));
  }
  if (ln === "svg") {
    const t = svgTitle(el);
    if (t) return iconWords(t);
  }
  if (ln === "img") {
    const src = getAttr(el, "src") || "";
    if (strStartsWith(src, "data:")) return "";
    const parts = strSplit(strSplit(strSplit(src, "?")[0], "#")[0], "/");
    let file = parts[parts.length - 1] || "";
    const dot = strIndexOf(file, ".");
    if (dot > 0) file = strSlice(file, 0, dot);
    return iconWords(file);
  }
  return "";
}

/**
 * The icon hint of an unnamed control: the first icon words of el or of what it holds (up to
 * 24 elements, in document order), "" when its markup has none. Never a name: the host prints
 * it as `[icon: words]`, and only lower-case ASCII words get through.
 */
function iconHint(el) {
  const stack = [el];
  let seen = 0;
  while (stack.length && seen < 24) {
    const e = stack[stack.length - 1];
    stack.length = stack.length - 1;
    seen++;
    const w = iconOf(e, localNameOf(e));
    if (w) return w;
    const kids = [];
    for (let c = firstElementChild(e); c; c = nextElementSibling(c)) push(kids, c);
    for (let i = kids.length - 1; i >= 0; i--) push(stack, kids[i]);
  }
  return "";
}
