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
  "tree treegrid treeitem comment suggestion",
  " "));

// Roles whose presentational role (none/presentation) is ignored when the element is
// focusable or has global ARIA attributes (ARIA 1.2, 4.6 presentational role conflict).
const GLOBAL_ARIA = [
  "aria-atomic", "aria-busy", "aria-controls", "aria-current", "aria-describedby", "aria-details",
  "aria-dropeffect", "aria-flowto", "aria-grabbed", "aria-keyshortcuts", "aria-live",
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
  if (tag === "summary") return true;
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
/** The first valid token of the role attribute (ARIA fallback roles), or null. */
function explicitRole(el) {
  const raw = getAttr(el, "role");
  if (!raw) return null;
  const low = strTrim(strLower(raw));
  // one token (the common case) needs no split
  if (!reTest(SPACE_RE, low)) {
    if (!setHas(VALID_ROLES, low)) return null;
    return low === "image" ? "img" : low === "directory" ? "list" : low;
  }
  const toks = strSplit(low, SPACES_RE);
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (setHas(VALID_ROLES, t)) return t === "image" ? "img" : t === "directory" ? "list" : t;
  }
  return null;
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

// Elements that scope header/footer (html-aam: header/footer are banner/contentinfo unless
// inside sectioning content or a sectioning-like role).
const SECTIONING = new $Set(["article", "aside", "main", "nav", "section"]);
const SECTIONING_ROLES = new $Set(["article", "complementary", "main", "navigation", "region"]);

function scopedToSection(el) {
  for (let p = flatParentElement(el); p; p = flatParentElement(p)) {
    const tag = localNameOf(p);
    if (setHas(SECTIONING, tag)) return true;
    const r = explicitRole(p);
    if (r && setHas(SECTIONING_ROLES, r)) return true;
  }
  return false;
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
 * Layout tables (tables used for page layout) are not exposed as tables: Chromium (like
 * WebKit before it) decides with a heuristic; this follows its main signals. A table is a
 * data table when it has an explicit role, a caption, summary, thead, tfoot, col or colgroup,
 * a th or a cell with headers / scope / abbr, a border attribute, or 20 rows or more.
 */
function isLayoutTable(table) {
  if (tableKindCache) {
    const c = mapGet(tableKindCache, table);
    if (c !== undefined) return c;
  }
  let layout = true;
  if (getAttr(table, "role") || hasAttr(table, "summary") || (getAttr(table, "border") && getAttr(table, "border") !== "0")) {
    layout = false;
  } else {
    const marks = querySelectorAll(table, "caption, thead, tfoot, col, colgroup, th, td[headers], td[scope], td[abbr]");
    if (nodeListLength(marks) > 0) layout = false;
    else if (nodeListLength(querySelectorAll(table, "tr")) >= 20) layout = false;
  }
  if (tableKindCache) mapSet(tableKindCache, table, layout);
  return layout;
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
  "summary", "button", // #el-summary (Chromium: a disclosure button)
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
    case "aside": return scopedToSection(el) && !hasAccessibleNameAttr(el) ? null : "complementary";
    // #el-footer, #el-header: contentinfo / banner unless scoped to a section (generic)
    case "footer": return scopedToSection(el) ? null : "contentinfo";
    case "header": return scopedToSection(el) ? null : "banner";
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
      if (pt === "ul" || pt === "ol" || pt === "menu") {
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
    case "section": return hasAccessibleNameAttr(el) ? "region" : null;
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
    // only when its author named it (aria-label or aria-labelledby), its rows hanging from
    // the table otherwise (WPT accname/name/comp_label)
    case "thead":
    case "tbody":
    case "tfoot": {
      if (!hasAriaLabel(el)) return null;
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
    // Everything else (html, b, dl, legend,
    // figcaption, label, abbr, canvas, video, audio, div, span...) is generic or none here.
    default: return strStartsWith(tag, "svg:") ? svgRole(el, strSlice(tag, 4)) : null;
  }
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
