//! 20_roles.js: the ARIA role of an element: explicit roles with fallbacks, implicit roles
//! from HTML-AAM, presentational role conflicts.
//!
//! Owns: getRole(el). Must not: walk the tree or compute names. Follows Chromium where
//! HTML-AAM leaves room (Chromium's tree is the oracle).

const VALID_ROLES = new $Set(strSplit(
  "alert alertdialog application article banner blockquote button caption cell checkbox code " +
  "columnheader combobox complementary contentinfo definition deletion dialog directory document " +
  "emphasis feed figure form generic grid gridcell group heading img image insertion link list listbox " +
  "listitem log main mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter " +
  "navigation none note option paragraph presentation progressbar radio radiogroup region row " +
  "rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong " +
  "subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip " +
  "tree treegrid treeitem comment suggestion " +
  // WAI-ARIA 1.3: the roles of a header / footer scoped to a section (Chromium exposes them)
  "sectionheader sectionfooter " +
  // Graphics-ARIA (graphics-aam #mapping_role_table: Chromium maps each)
  "graphics-document graphics-object graphics-symbol " +
  // DPUB-ARIA 1.1 (dpub-aam #mapping_role_table; Chromium exposes every one as its own role,
  // the two deprecated ones included)
  "doc-abstract doc-acknowledgments doc-afterword doc-appendix doc-backlink doc-biblioentry " +
  "doc-bibliography doc-biblioref doc-chapter doc-colophon doc-conclusion doc-cover doc-credit " +
  "doc-credits doc-dedication doc-endnote doc-endnotes doc-epigraph doc-epilogue doc-errata " +
  "doc-example doc-footnote doc-foreword doc-glossary doc-glossref doc-index doc-introduction " +
  "doc-noteref doc-notice doc-pagebreak doc-pagefooter doc-pageheader doc-pagelist doc-part " +
  "doc-preface doc-prologue doc-pullquote doc-qna doc-subtitle doc-tip doc-toc",
  " "));

// Roles whose presentational role (none/presentation) is ignored when the element is
// focusable or has global ARIA attributes (ARIA 1.2, 4.6 presentational role conflict). The
// global attributes are ARIA 1.3's (aria-label and aria-labelledby among them, present even
// empty: `<h1 role=none aria-label="">` stays a heading), as Chromium checks them; not those
// ARIA 1.2 deprecated as global (aria-disabled, aria-errormessage, aria-haspopup,
// aria-invalid), nor aria-hidden, which Chromium leaves out too (WPT
// wai-aria/role/role_none_conflict_resolution.html).
const GLOBAL_ARIA = [
  "aria-atomic", "aria-braillelabel", "aria-brailleroledescription", "aria-busy", "aria-controls",
  "aria-current", "aria-describedby", "aria-description", "aria-details", "aria-dropeffect",
  "aria-flowto", "aria-grabbed", "aria-keyshortcuts", "aria-label", "aria-labelledby", "aria-live",
  "aria-owns", "aria-relevant", "aria-roledescription",
];

function hasGlobalAria(el) {
  for (let i = 0; i < GLOBAL_ARIA.length; i++) if (hasAttr(el, GLOBAL_ARIA[i])) return true;
  return false;
}

function isFocusable(el) {
  const tag = localNameOf(el);
  if (isNativelyDisabled(el)) return false;
  if (hasAttr(el, "tabindex")) return true;
  if (tag === "a" || tag === "area") return hasAttr(el, "href");
  if (tag === "button" || tag === "select" || tag === "textarea") return true;
  if (tag === "input") return getAttr(el, "type") !== "hidden";
  if (tag === "summary") return isDetailsSummary(el);
  if (tag === "iframe") return true;
  try {
    if (isContentEditableOf(el) === true) return true;
  } catch (_) {
    // not an HTMLElement (SVG, MathML)
  }
  return false;
}

function isNativelyDisabled(el, known) {
  const tag = known === undefined ? localNameOf(el) : known;
  if (!(tag === "button" || tag === "input" || tag === "select" || tag === "textarea" ||
        tag === "option" || tag === "optgroup" || tag === "fieldset")) return false;
  if (hasAttr(el, "disabled")) return true;
  if (tag === "option") {
    const p = parentElementOf(el);
    return !!(p && localNameOf(p) === "optgroup" && hasAttr(p, "disabled"));
  }
  // Disabled inherited from a fieldset, except inside its first legend.
  let child = el;
  for (let p = parentElementOf(el); p; child = p, p = parentElementOf(p)) {
    if (localNameOf(p) === "fieldset" && hasAttr(p, "disabled")) {
      let legend = null;
      for (let c = firstElementChild(p); c; c = nextElementSibling(c))
        if (localNameOf(c) === "legend") { legend = c; break; }
      if (legend && contains(legend, el)) return false;
      return true;
    }
  }
  return false;
}

const SPACE_RE = re("\\s");
const SPACES_RE = re("\\s+");
/**
 * The first token of the role attribute that the element can take (ARIA fallback roles), or
 * null. A token is passed over for the next one, as Chromium does, when it is not a role, or
 * when the element cannot take it here (roleToken).
 */
function explicitRole(el) {
  const raw = getAttr(el, "role");
  if (!raw) return null;
  const low = strTrim(strLower(raw));
  // one token (the common case) needs no split
  if (!reTest(SPACE_RE, low)) return roleToken(el, low);
  const toks = strSplit(low, SPACES_RE);
  for (let i = 0; i < toks.length; i++) {
    const r = roleToken(el, toks[i]);
    if (r) return r;
  }
  return null;
}

/**
 * Token t of el's role attribute as a role, or null when el cannot take it:
 * - region and form need an author's name (ARIA 1.2 #region, #form: one without a name is
 *   no landmark; Chromium then takes the next token, or the element's own role:
 *   `<nav role="region">` is a navigation, `<div role="region group">` a group; WPT
 *   wai-aria/role/region-roles, form-roles, fallback-roles);
 * - option and treeitem need their required context (ARIA 1.2 #option, #treeitem "Required
 *   Context Role"): Chromium keeps them only when the nearest ancestor with a role is a
 *   listbox or group (option), a tree or group (treeitem); `<nav role="treeitem">` is a
 *   navigation (WPT wai-aria/role/tree-roles).
 */
function roleToken(el, t) {
  if (!setHas(VALID_ROLES, t)) return null;
  if (t === "image") return "img";
  if (t === "directory") return "list";
  if ((t === "region" || t === "form") && !authorNamed(el)) return null;
  if (t === "option" && !inContext(el, OPTION_CONTEXT)) return null;
  if (t === "treeitem" && !inContext(el, TREEITEM_CONTEXT)) return null;
  return t;
}

const OPTION_CONTEXT = new $Set(["listbox", "group"]);
const TREEITEM_CONTEXT = new $Set(["tree", "group"]);

/**
 * Whether the nearest ancestor of el with a role (its aria-owns owner first, then up the flat
 * tree, passing over generic and presentational elements) has one of `roles`.
 */
function inContext(el, roles) {
  for (let p = ownerOrParent(el); p; p = ownerOrParent(p)) {
    const r = getRole(p);
    if (r) return setHas(roles, r);
  }
  return false;
}

/** The element that owns el through aria-owns (its accessibility parent), else its flat parent. */
function ownerOrParent(el) {
  const id = getAttr(el, "id");
  if (id) {
    const o = ownersIn(rootNodeOf(el));
    const owner = o ? mapGet(o, id) : undefined;
    if (owner) return owner;
  }
  return flatParentElement(el);
}

function rootNodeOf(el) {
  try {
    return getRootNode(el);
  } catch (_) {
    return null;
  }
}

/**
 * id -> owner for the aria-owns of a tree scope (the first owner of an id wins, as the walk
 * has it), per walk in the role memo (a document or shadow root is no table or svg root, so
 * keys never collide); null when the scope owns nothing.
 */
function ownersIn(root) {
  if (!root) return null;
  if (tableKindCache) {
    const c = mapGet(tableKindCache, root);
    if (c !== undefined) return c;
  }
  let list = null;
  try {
    const t = nodeType(root);
    if (t === DOCUMENT_NODE) list = docQuerySelectorAll(root, "[aria-owns]");
    else if (t === DOCUMENT_FRAGMENT_NODE) list = fragQuerySelectorAll(root, "[aria-owns]");
  } catch (_) {
    list = null;
  }
  let m = null;
  const n = list ? nodeListLength(list) : 0;
  for (let i = 0; i < n; i++) {
    const owner = nodeListItem(list, i);
    const ids = strSplit(strTrim(getAttr(owner, "aria-owns") || ""), SPACES_RE);
    for (let j = 0; j < ids.length; j++) {
      if (!ids[j]) continue;
      if (!m) m = new $Map();
      if (!mapHas(m, ids[j])) mapSet(m, ids[j], owner);
    }
  }
  if (tableKindCache) mapSet(tableKindCache, root, m);
  return m;
}

/**
 * Whether an author named el, as Chromium asks it of a region or form landmark (and of a
 * section, which is a region only when named): a non-blank aria-label, an aria-labelledby
 * naming an element that exists (even an empty one), or a title attribute that is not empty.
 */
function authorNamed(el) {
  const l = getAttr(el, "aria-label");
  if (l && strTrim(l)) return true;
  const lb = getAttr(el, "aria-labelledby");
  if (lb && refersToElement(el, lb)) return true;
  return !!getAttr(el, "title");
}

/** Whether one of the ids of an ID reference list is an element of el's tree scope. */
function refersToElement(el, list) {
  const root = rootNodeOf(el);
  if (!root) return false;
  const ids = strSplit(strTrim(list), SPACES_RE);
  for (let i = 0; i < ids.length; i++) {
    if (!ids[i]) continue;
    try {
      const t = nodeType(root);
      if (t === DOCUMENT_NODE && docGetElementById(root, ids[i])) return true;
      if (t === DOCUMENT_FRAGMENT_NODE && fragGetElementById(root, ids[i])) return true;
    } catch (_) {
      // a detached or foreign root: no reference
    }
  }
  return false;
}

/** Whether the author named el through ARIA: a non-blank aria-label or aria-labelledby. */
function hasAriaLabel(el) {
  const l = getAttr(el, "aria-label");
  if (l && strTrim(l)) return true;
  const lb = getAttr(el, "aria-labelledby");
  return !!(lb && strTrim(lb));
}

function hasAccessibleNameAttr(el) {
  if (hasAriaLabel(el)) return true;
  const t = getAttr(el, "title");
  return !!(t && strTrim(t));
}

// HTML-AAM #el-header, #el-footer, #el-aside, as Chromium applies them
// (AXNodeObject::IsDescendantOfLandmarkDisallowedElement): an ancestor whose role is article,
// complementary, main or navigation, or a section element (named or not), scopes a header or
// footer to its section (a role=region does not); an aside is scoped by the same but main.
const HEADER_SCOPE = new $Set(["article", "complementary", "main", "navigation"]);
const ASIDE_SCOPE = new $Set(["article", "complementary", "navigation"]);

function scopedToSection(el, roles) {
  for (let p = flatParentElement(el); p; p = flatParentElement(p)) {
    if (tagOf(p) === "section") return true;
    const r = getRole(p);
    if (r && setHas(roles, r)) return true;
  }
  return false;
}

/**
 * Whether a summary is its details' summary (HTML: a summary child of a details element):
 * then a disclosure button, focusable; a stray one is generic (HTML-AAM #el-summary; Chromium
 * exposes every summary child of a details so, and no other: WPT html-aam/summary).
 */
function isDetailsSummary(el) {
  const p = parentElementOf(el);
  return !!p && localNameOf(p) === "details";
}

function closestAncestorTag(el, tags) {
  for (let p = parentElementOf(el); p; p = parentElementOf(p)) {
    if (setHas(tags, localNameOf(p))) return p;
  }
  return null;
}

const TABLE_TAGS = new $Set(["table"]);

function tableRoleOf(el) {
  const table = closestAncestorTag(el, TABLE_TAGS);
  if (!table) return null;
  const r = explicitRole(table);
  if (r === "grid" || r === "treegrid") return "grid";
  if (r === "none" || r === "presentation") return "none";
  return isLayoutTable(table) ? "none" : "table";
}

/**
 * Layout tables (tables used for page layout) are not exposed as tables: Chromium decides with
 * a heuristic (AXNodeObject::IsDataTable), followed here step by step (isDataTable).
 */
function isLayoutTable(table) {
  if (tableKindCache) {
    const c = mapGet(tableKindCache, table);
    if (c !== undefined) return c;
  }
  const layout = !isDataTable(table);
  if (tableKindCache) mapSet(tableKindCache, table, layout);
  return layout;
}

const TABLE_MARKS = new $Set(["caption", "thead", "tfoot", "col", "colgroup"]);
const SECTION_TAGS = new $Set(["thead", "tbody", "tfoot"]);

/**
 * Chromium's data-table heuristic: a role attribute, an editable table (rich text editors),
 * a summary or rules attribute that is not empty, or a caption, thead, tfoot, col or
 * colgroup child make a data table; then its rows (its own, not a nested table's): 20 or
 * more make one, none or a single cell do not; else its cells decide (dataTableByCells).
 */
function isDataTable(table) {
  if (getAttr(table, "role")) return true;
  try {
    if (isContentEditableOf(table)) return true;
  } catch (_) {
    // not an HTML element
  }
  if (getAttr(table, "summary") || getAttr(table, "rules")) return true;
  for (let c = firstElementChild(table); c; c = nextElementSibling(c)) {
    if (setHas(TABLE_MARKS, localNameOf(c))) return true;
  }
  const rows = tableRows(table);
  if (rows.length >= 20) return true;
  if (rows.length === 0) return false;
  if (rows.length === 1 && rowCells(rows[0]).length === 1) return false;
  return dataTableByCells(table, rows);
}

/** A table's own rows (HTMLTableElement.rows): its tr children and its sections' tr children. */
function tableRows(table) {
  const rows = [];
  for (let c = firstElementChild(table); c; c = nextElementSibling(c)) {
    const ln = localNameOf(c);
    if (ln === "tr") push(rows, c);
    else if (setHas(SECTION_TAGS, ln)) {
      for (let r = firstElementChild(c); r; r = nextElementSibling(r)) if (localNameOf(r) === "tr") push(rows, r);
    }
  }
  return rows;
}

/** A row's cells (HTMLTableRowElement.cells): its td and th children. */
function rowCells(row) {
  const cells = [];
  for (let c = firstElementChild(row); c; c = nextElementSibling(c)) {
    const ln = localNameOf(c);
    if (ln === "td" || ln === "th") push(cells, c);
  }
  return cells;
}

const PX_RE = re("[0-9.]+", "g");
const ALPHA0_RE = re(",\\s*0\\)$");
/** Whether a computed colour is fully transparent (alpha 0, or the keyword). */
function transparentColour(c) {
  return c === "transparent" || (strStartsWith(c, "rgba(") && reTest(ALPHA0_RE, c));
}

/** Whether a computed length ("0px", "1.5px") is above zero. */
function positivePx(v) {
  return $Number(strReplace(v || "", "px", "")) > 0;
}

/**
 * The cells' part of Chromium's heuristic: a th, or a td with headers, abbr, axis or scope,
 * makes a data table; cells that show (a box of at least 1x1) count, and it is one when
 * `empty-cells: hide` is set on one, when half of them have borders (both sides, or the same
 * side), when half differ from the table's background with cell spacing, or when the first
 * rows alternate two backgrounds (zebra stripes).
 */
function dataTableByCells(table, rows) {
  const ts = styleOf(table);
  if (!ts) return false;
  const tableBg = cssValue(ts, "background-color");
  const sp = strMatch(cssValue(ts, "border-spacing") || "", PX_RE);
  const spacing = !!sp && $Number(sp[0]) > 0 && $Number(sp[sp.length - 1]) > 0;
  let valid = 0;
  let bordered = 0;
  let bgDiff = 0;
  const sides = [0, 0, 0, 0];
  const zebra = [];
  for (let r = 0; r < rows.length; r++) {
    const cells = rowCells(rows[r]);
    for (let k = 0; k < cells.length; k++) {
      const cell = cells[k];
      if (localNameOf(cell) === "th") return true;
      if (getAttr(cell, "headers") || getAttr(cell, "abbr") || getAttr(cell, "axis") || getAttr(cell, "scope")) return true;
      const cs = styleOf(cell);
      if (!cs || displayOf(cell) === "none") continue;
      const box = boxOf(cell);
      if (box.w < 1 || box.h < 1) continue;
      valid++;
      if (cssValue(cs, "empty-cells") === "hide") return true;
      const on = [positivePx(cssValue(cs, "border-top-width")), positivePx(cssValue(cs, "border-bottom-width")),
        positivePx(cssValue(cs, "border-left-width")), positivePx(cssValue(cs, "border-right-width"))];
      if ((on[0] && on[1]) || (on[2] && on[3])) bordered++;
      for (let i = 0; i < 4; i++) if (on[i]) sides[i]++;
      const bg = cssValue(cs, "background-color");
      if (spacing && bg !== tableBg && !transparentColour(bg)) bgDiff++;
      if (bordered >= 10 || bgDiff >= 10) return true;
      // the first five rows' backgrounds, for zebra stripes
      if (r < 5 && r === zebra.length) {
        const rs = styleOf(rows[r]);
        if (rs) push(zebra, cssValue(rs, "background-color"));
      }
    }
  }
  if (valid <= 1) return false;
  const needed = $Math.floor(valid / 2);
  if (bordered >= needed || sides[0] >= needed || sides[1] >= needed || sides[2] >= needed || sides[3] >= needed) return true;
  if (bgDiff >= needed) return true;
  if (zebra.length > 2) {
    for (let i = 1; i < zebra.length; i++) {
      if (i % 2 === 1 && zebra[i] === zebra[0]) return false;
      if (i % 2 === 0 && zebra[i] !== zebra[0]) return false;
    }
    return true;
  }
  return false;
}

function thRole(el) {
  const scope = strLower(getAttr(el, "scope") || "");
  if (scope === "row" || scope === "rowgroup") return "rowheader";
  if (scope === "col" || scope === "colgroup") return "columnheader";
  // No scope: a th in a row with only th cells is a column header; a th followed by td
  // cells in the same row is a row header (Chromium's heuristic, simplified).
  const row = parentElementOf(el);
  if (row) {
    let tdSeen = false;
    for (let c = firstElementChild(row); c; c = nextElementSibling(c))
      if (localNameOf(c) === "td") { tdSeen = true; break; }
    if (tdSeen) {
      const section = parentElementOf(row);
      if (!section || localNameOf(section) !== "thead") return "rowheader";
    }
  }
  return "columnheader";
}

function inputRole(el) {
  const type = strLower(getAttr(el, "type") || "text");
  switch (type) {
    case "button": case "submit": case "reset": case "image": return "button";
    case "checkbox": return hasAttr(el, "switch") ? "switch" : "checkbox";
    case "radio": return "radio";
    case "range": return "slider";
    case "number": return "spinbutton";
    case "hidden": return null;
    case "file": return "button";
    case "color": return "textbox";
    case "date": case "datetime-local": case "month": case "time": case "week": return "textbox";
    case "search": return hasAttr(el, "list") ? "combobox" : "searchbox";
    case "email": case "tel": case "text": case "url": case "password":
      return hasAttr(el, "list") ? "combobox" : "textbox";
    default: return hasAttr(el, "list") ? "combobox" : "textbox";
  }
}

// HTML-AAM 1.0, "HTML Element Role Mappings" (https://www.w3.org/TR/html-aam-1.0/): elements
// whose role depends on nothing but their tag. Each row names the section anchor it follows
// (#el-<tag>); where Chromium's tree differs from HTML-AAM, Chromium is followed and the row
// says so. Filled with the captured Map.prototype.set (no page iterator is used).
const TAG_ROLE_ROWS = [
  "address", "group", // #el-address
  "article", "article", // #el-article
  "blockquote", "blockquote", // #el-blockquote
  "button", "button", // #el-button
  "caption", "caption", // #el-caption
  "code", "code", // #el-code
  "datalist", "listbox", // #el-datalist
  "dd", "definition", // #el-dd
  "dir", "list", // #el-dir (an obsolete ul; Chromium alike)
  "del", "deletion", // #el-del
  "details", "group", // #el-details
  "dfn", "term", // #el-dfn
  "dialog", "dialog", // #el-dialog
  "dt", "term", // #el-dt
  "em", "emphasis", // #el-em
  "fieldset", "group", // #el-fieldset
  "figure", "figure", // #el-figure
  "form", "form", // #el-form (Chromium exposes every form, named or not)
  "frame", "iframe", // Chromium: a frame is an iframe node
  "h1", "heading", "h2", "heading", "h3", "heading", // #el-h1-h6
  "h4", "heading", "h5", "heading", "h6", "heading",
  "hgroup", "group", // #el-hgroup
  "hr", "separator", // #el-hr
  "iframe", "iframe", // #el-iframe (Chromium's role name)
  "ins", "insertion", // #el-ins
  "main", "main", // #el-main
  "mark", "mark", // #el-mark
  "math", "math", // #el-math
  "menu", "list", // #el-menu
  "meter", "meter", // #el-meter
  "nav", "navigation", // #el-nav
  "ol", "list", // #el-ol
  "optgroup", "group", // #el-optgroup
  "option", "option", // #el-option
  "output", "status", // #el-output
  "p", "paragraph", // #el-p
  "progress", "progressbar", // #el-progress
  "s", "deletion", // #el-s
  "search", "search", // #el-search
  "strong", "strong", // #el-strong
  "sub", "subscript", // #el-sub
  "sup", "superscript", // #el-sup
  "textarea", "textbox", // #el-textarea
  "time", "time", // #el-time
  "ul", "list", // #el-ul
];
const TAG_ROLES = new $Map();
for (let i = 0; i + 1 < TAG_ROLE_ROWS.length; i += 2) {
  mapSet(TAG_ROLES, TAG_ROLE_ROWS[i], TAG_ROLE_ROWS[i + 1]);
}

const SVG_NS = "http://www.w3.org/2000/svg";
// SVG elements that render nothing themselves (SVG 2: never-rendered and paint-server
// elements, descriptive elements): nothing of theirs is in Chromium's tree.
const SVG_UNRENDERED = new $Set(["defs", "symbol", "clipPath", "mask", "pattern", "marker", "linearGradient",
  "radialGradient", "filter", "metadata", "desc", "title", "style", "script"]);
// Basic shapes (SVG 2 #BasicShapes, and path): graphics-symbol in SVG-AAM and Chromium.
const SVG_SHAPES = new $Set(["rect", "circle", "ellipse", "line", "polyline", "polygon", "path"]);
// Text content elements (SVG 2 #TextElements): the only SVG elements whose text is rendered.
const SVG_TEXT = new $Set(["text", "tspan", "textPath"]);

/** The text of an SVG element's `title` child (SVG-AAM: its name at accname step 2D), or "". */
function svgTitle(el) {
  for (let c = firstElementChild(el); c; c = nextElementSibling(c)) {
    if (localNameOf(c) === "title" && namespaceURIOf(c) === SVG_NS) return strTrim(textContent(c) || "");
  }
  return "";
}

/** Whether an SVG element has a name of its own (aria-label, aria-labelledby, a title child). */
function svgNamed(el) {
  if (!hasAttrs(el) && !firstElementChild(el)) return false;
  const al = getAttr(el, "aria-label");
  if ((al && strTrim(al)) || getAttr(el, "aria-labelledby")) return true;
  return svgTitle(el) !== "";
}

/** The link target of an SVG `a` (href, or the older xlink:href), or "". */
function svgHref(el) {
  return getAttr(el, "href") || getAttr(el, "xlink:href") || "";
}

/**
 * The role of an SVG element other than the root (tag: its local name), as Chromium's tree
 * exposes it (AXNodeObject::NativeRoleIgnoringAria / RoleFromLayoutObjectOrNode, SVG-AAM):
 * an `a` with a target is a link; a `g` (and an `a` without one), a shape, a `use` and an
 * `image` are in the tree only when named (group, graphics-symbol, graphics-object, img);
 * a focusable one without a name is left to the walk's generic path, and the rest (text
 * content elements, foreignObject) are generic: their content shows in their place.
 */
function svgRole(el, tag) {
  if (tag === "a" && svgHref(el)) return "link";
  if (tag === "g" || tag === "a") return svgNamed(el) ? "group" : null;
  if (setHas(SVG_SHAPES, tag)) return svgNamed(el) ? "graphics-symbol" : null;
  if (tag === "use") return svgNamed(el) ? "graphics-object" : null;
  if (tag === "image") return svgNamed(el) ? "img" : null;
  return null;
}

/**
 * Whether anything inside an svg root would be in Chromium's tree (then the root is
 * graphics-document, else an image): rendered text, a link, a named or focusable element,
 * an element with a role of its own, or content of a foreignObject. An iterative scan that
 * stops at the first one; what is never rendered or aria-hidden is passed over.
 */
function svgHasContent(svg) {
  if (tableKindCache) {
    const c = mapGet(tableKindCache, svg);
    if (c !== undefined) return c;
  }
  const has = svgScan(svg);
  if (tableKindCache) mapSet(tableKindCache, svg, has);
  return has;
}

function svgScan(svg) {
  const stack = [];
  for (let c = firstElementChild(svg); c; c = nextElementSibling(c)) push(stack, c);
  while (stack.length) {
    const e = stack[stack.length - 1];
    stack.length = stack.length - 1;
    const ln = localNameOf(e);
    if (namespaceURIOf(e) !== SVG_NS) return true;
    if (setHas(SVG_UNRENDERED, ln)) continue;
    const attrs = hasAttrs(e);
    if (attrs && getAttr(e, "aria-hidden") === "true") continue;
    if (ln === "foreignObject") {
      if (firstElementChild(e) || strTrim(textContent(e) || "")) return true;
      continue;
    }
    if (setHas(SVG_TEXT, ln) && strTrim(textContent(e) || "")) return true;
    if (attrs && (hasAttr(e, "tabindex") || (ln === "a" && svgHref(e)))) return true;
    if (attrs) {
      const r = explicitRole(e);
      if (r && r !== "none" && r !== "presentation" && r !== "generic") return true;
    }
    if (svgNamed(e)) return true;
    for (let c = firstElementChild(e); c; c = nextElementSibling(c)) push(stack, c);
  }
  return false;
}

/**
 * HTML-AAM #minimum-role, as Chromium applies it (AXNodeObject::RoleFromLayoutObjectOrNode,
 * "Minimum role"): a div with no role attribute that is a popover, or has autofocus or
 * draggable (present, whatever its value), is a group; Chromium does so for a div laid out
 * as a block, not for span, section or an inline div (WPT html-aam/roles-minimum.tentative).
 */
function minimumGroup(el) {
  if (!hasAttrs(el) || hasAttr(el, "role")) return false;
  if (!hasAttr(el, "autofocus") && !hasAttr(el, "draggable") && !hasAttr(el, "popover")) return false;
  const d = displayOf(el);
  return d !== "inline" && d !== "contents";
}

/**
 * The implicit (native) role of an element, per HTML-AAM; null for generic / none: the
 * table above, then the elements whose role depends on attributes or context. known:
 * tagOf(el) when the caller has it.
 */
function implicitRole(el, known) {
  const tag = known === undefined ? tagOf(el) : known;
  const fixed = mapGet(TAG_ROLES, tag);
  if (fixed !== undefined) return fixed;
  switch (tag) {
    // #el-a, #el-area: a link only with href (generic otherwise). Chromium's tree also makes
    // an `a` without href a link when it is clickable (Blink AXNodeObject::NativeRoleIgnoringAria:
    // an anchor that IsClickable(), i.e. has a click, mousedown or mouseup listener, is kLink;
    // checked with Accessibility.getFullAXTree: `<a>` with addEventListener('click'), an
    // onclick attribute or property is `link`; with only dblclick or pointer listeners it is not)
    case "a": return hasAttr(el, "href") || anchorListened(el) ? "link" : null;
    case "area": return hasAttr(el, "href") ? "link" : null;
    // #el-aside: complementary, unless scoped to a sectioning element without a name
    case "aside": return scopedToSection(el, ASIDE_SCOPE) && !hasAccessibleNameAttr(el) ? null : "complementary";
    // #el-footer, #el-header: contentinfo / banner unless scoped to a section (generic)
    // scoped to a section, WAI-ARIA 1.3's sectionfooter / sectionheader (Chromium alike)
    case "footer": return scopedToSection(el, HEADER_SCOPE) ? "sectionfooter" : "contentinfo";
    case "header": return scopedToSection(el, HEADER_SCOPE) ? "sectionheader" : "banner";
    // #el-img: presentational with alt="" and no name of its own
    case "img": {
      const alt = getAttr(el, "alt");
      if (alt === "" && !hasAccessibleNameAttr(el)) return null;
      return "img";
    }
    // #el-input-*: by type (inputRole)
    case "input": return inputRole(el);
    // #el-li: listitem in a list
    case "li": {
      const p = parentElementOf(el);
      const pt = p ? localNameOf(p) : "";
      const pr = p ? explicitRole(p) : null;
      if (pt === "ul" || pt === "ol" || pt === "menu" || pt === "dir") {
        // WAI-ARIA 1.2 "Presentational Roles Conflict Resolution": a presentational list's
        // required owned items go with it
        if (pr === "none" || pr === "presentation") return null;
      }
      // Chromium: an li whose parent has another role (a ul used as navigation, menu,
      // tablist, group...) is not a list item; one under a plain element still is.
      if (pr && pr !== "list" && pr !== "none" && pr !== "presentation") return null;
      return "listitem";
    }
    // #el-section: region only with an accessible name
    case "section": return authorNamed(el) ? "region" : null;
    // #el-summary: its details' summary is a disclosure button (Chromium), a stray one generic
    case "summary": return isDetailsSummary(el) ? "button" : null;
    // #el-select-listbox / #el-select-combobox: multiple or size > 1 is a listbox
    case "select": {
      const multiple = hasAttr(el, "multiple");
      const size = $Number(getAttr(el, "size") || 0);
      return multiple || size > 1 ? "listbox" : "combobox";
    }
    // #el-table: table, unless Chromium's layout-table heuristics call it presentational
    case "table": {
      const r = explicitRole(el);
      return r || !isLayoutTable(el) ? "table" : null;
    }
    // #el-td: cell, or gridcell in a grid / treegrid; none in a layout table
    case "td": {
      const t = tableRoleOf(el);
      if (t === "none") return null;
      return t === "grid" ? "gridcell" : "cell";
    }
    // #el-th: columnheader / rowheader / cell by scope and position (thRole)
    case "th": {
      const t = tableRoleOf(el);
      if (t === "none") return null;
      return thRole(el);
    }
    // #el-tr: row (none in a layout table)
    case "tr": return tableRoleOf(el) === "none" ? null : "row";
    // #el-tbody, #el-thead, #el-tfoot: rowgroup in HTML-AAM; Chromium exposes a row group
    // only when its author named it (aria-label or aria-labelledby) or made it focusable
    // (tabindex), its rows hanging from the table otherwise (WPT accname/name/comp_label,
    // html-aam/table-roles)
    case "thead":
    case "tbody":
    case "tfoot": {
      if (!hasAriaLabel(el) && !hasAttr(el, "tabindex")) return null;
      return tableRoleOf(el) === "none" ? null : "rowgroup";
    }
    // SVG-AAM #details-svg: the root of an inline SVG is graphics-document; Chromium exposes
    // it so (SvgRoot) when anything inside it is in its tree, else as an image
    // (AXObject::ComputeFinalRoleForSerialization: "an SVG with no accessible children").
    // A nested svg is a group (AXNodeObject::RoleFromLayoutObjectOrNode), like a g.
    case "svg": {
      const p = parentElementOf(el);
      if (p && namespaceURIOf(p) === SVG_NS) return svgNamed(el) ? "group" : null;
      return svgHasContent(el) ? "graphics-document" : "img";
    }
    case "div": return minimumGroup(el) ? "group" : null;
    // Everything else (html, b, dl, legend,
    // figcaption, label, abbr, canvas, video, audio, span...) is generic or none here.
    default: return strStartsWith(tag, "svg:") ? svgRole(el, strSlice(tag, 4)) : null;
  }
}

/**
 * The map an image uses (usemap: a hash-name reference to a map's name or id), or null. Only
 * an image that shows has one: a broken image renders its alternative text instead, and
 * Chromium then gives it no areas (AXNodeObject::AddImageMapChildren needs a LayoutImage).
 */
function usedMap(img) {
  const um = hasAttrs(img) ? getAttr(img, "usemap") : null;
  if (!um || strCharCodeAt(um, 0) !== 35) return null;
  try {
    if (!(imgNaturalWidthOf(img) > 0)) return null;
  } catch (_) {
    return null;
  }
  const name = strSlice(um, 1);
  const root = getRootNode(img);
  let maps;
  try {
    maps = nodeType(root) === DOCUMENT_NODE ? docQuerySelectorAll(root, "map") : fragQuerySelectorAll(root, "map");
  } catch (_) {
    return null;
  }
  const n = nodeListLength(maps);
  for (let i = 0; i < n; i++) {
    const m = nodeListItem(maps, i);
    if (getAttr(m, "name") === name || getAttr(m, "id") === name) return m;
  }
  return null;
}

/**
 * Whether an area's map is used by an image of its tree scope (HTML-AAM #el-area: the
 * areas of a map no image uses are in no tree; Chromium alike).
 */
function areaMapInUse(area) {
  const map = closest(area, "map");
  const name = map ? getAttr(map, "name") || getAttr(map, "id") : null;
  if (!name) return false;
  const root = getRootNode(area);
  let imgs;
  try {
    imgs = nodeType(root) === DOCUMENT_NODE ? docQuerySelectorAll(root, "img[usemap]") : fragQuerySelectorAll(root, "img[usemap]");
  } catch (_) {
    return false;
  }
  const n = nodeListLength(imgs);
  for (let i = 0; i < n; i++) if (usedMap(nodeListItem(imgs, i)) === map) return true;
  return false;
}

/**
 * The role of an element as the accessibility tree exposes it, or null when it exposes none
 * (generic containers, presentational elements). Explicit role wins unless a presentational
 * role conflicts with focusability or global ARIA attributes. tag: tagOf(el) when the caller
 * has it.
 */
function getRole(el, tag) {
  const explicit = explicitRole(el);
  if (explicit) {
    if (explicit === "none" || explicit === "presentation") {
      if (isFocusable(el) || hasGlobalAria(el)) return implicitRole(el, tag);
      return null;
    }
    if (explicit === "generic") return null;
    return explicit;
  }
  return implicitRole(el, tag);
}
