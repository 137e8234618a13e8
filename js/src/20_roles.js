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

function isNativelyDisabled(el) {
  const tag = localNameOf(el);
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

/** The first valid token of the role attribute (ARIA fallback roles), or null. */
function explicitRole(el) {
  const raw = getAttr(el, "role");
  if (!raw) return null;
  const toks = strSplit(strTrim(strLower(raw)), re("\\s+"));
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (setHas(VALID_ROLES, t)) return t === "image" ? "img" : t === "directory" ? "list" : t;
  }
  return null;
}

function hasAccessibleNameAttr(el) {
  const l = getAttr(el, "aria-label");
  if (l && strTrim(l)) return true;
  const lb = getAttr(el, "aria-labelledby");
  if (lb && strTrim(lb)) return true;
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

/** The implicit (native) role of an element, per HTML-AAM; null for generic / none. */
function implicitRole(el) {
  const tag = tagOf(el);
  switch (tag) {
    case "a": return hasAttr(el, "href") ? "link" : null;
    case "area": return hasAttr(el, "href") ? "link" : null;
    case "article": return "article";
    case "aside": return scopedToSection(el) && !hasAccessibleNameAttr(el) ? null : "complementary";
    case "blockquote": return "blockquote";
    case "button": return "button";
    case "caption": return "caption";
    case "code": return "code";
    case "datalist": return "listbox";
    case "del": case "s": return "deletion";
    case "details": return "group";
    case "dialog": return "dialog";
    case "dd": return "definition";
    case "dfn": return "term";
    case "dt": return "term";
    case "em": return "emphasis";
    case "fieldset": return "group";
    case "figure": return "figure";
    case "footer": return scopedToSection(el) ? null : "contentinfo";
    case "form": return "form";
    case "h1": case "h2": case "h3": case "h4": case "h5": case "h6": return "heading";
    case "header": return scopedToSection(el) ? null : "banner";
    case "hr": return "separator";
    case "html": return null;
    case "iframe": case "frame": return "iframe";
    case "img": {
      const alt = getAttr(el, "alt");
      if (alt === "" && !hasAccessibleNameAttr(el)) return null;
      return "img";
    }
    case "input": return inputRole(el);
    case "ins": return "insertion";
    case "li": {
      const p = parentElementOf(el);
      const pt = p ? localNameOf(p) : "";
      const pr = p ? explicitRole(p) : null;
      if (pt === "ul" || pt === "ol" || pt === "menu") {
        // presentational role inheritance: the list's items go with it
        if (pr === "none" || pr === "presentation") return null;
      }
      // Chromium: an li whose parent has another role (a ul used as navigation, menu,
      // tablist, group...) is not a list item; one under a plain element still is.
      if (pr && pr !== "list" && pr !== "none" && pr !== "presentation") return null;
      return "listitem";
    }
    case "main": return "main";
    case "mark": return "mark";
    case "math": return "math";
    case "menu": return "list";
    case "meter": return "meter";
    case "nav": return "navigation";
    case "ol": case "ul": return "list";
    case "optgroup": return "group";
    case "option": return "option";
    case "output": return "status";
    case "p": return "paragraph";
    case "progress": return "progressbar";
    case "search": return "search";
    case "section": return hasAccessibleNameAttr(el) ? "region" : null;
    case "select": {
      const multiple = hasAttr(el, "multiple");
      const size = $Number(getAttr(el, "size") || 0);
      return multiple || size > 1 ? "listbox" : "combobox";
    }
    case "strong": case "b": return tag === "strong" ? "strong" : null;
    case "sub": return "subscript";
    case "sup": return "superscript";
    case "summary": return "button";
    case "svg": return "img";
    case "table": {
      const r = explicitRole(el);
      return r || !isLayoutTable(el) ? "table" : null;
    }
    // Row groups are not exposed by Chromium; their rows hang from the table.
    case "tbody": case "thead": case "tfoot": return null;
    case "td": {
      const t = tableRoleOf(el);
      if (t === "none") return null;
      return t === "grid" ? "gridcell" : "cell";
    }
    case "th": {
      const t = tableRoleOf(el);
      if (t === "none") return null;
      return thRole(el);
    }
    case "textarea": return "textbox";
    case "time": return "time";
    case "tr": return tableRoleOf(el) === "none" ? null : "row";
    case "dl": return null;
    case "address": return "group";
    case "hgroup": return "group";
    case "legend": return null;
    case "figcaption": return null;
    case "label": return null;
    case "abbr": return null;
    case "canvas": return null;
    case "video": case "audio": return null;
    default: return null;
  }
}

/**
 * The role of an element as the accessibility tree exposes it, or null when it exposes none
 * (generic containers, presentational elements). Explicit role wins unless a presentational
 * role conflicts with focusability or global ARIA attributes.
 */
function getRole(el) {
  const explicit = explicitRole(el);
  if (explicit) {
    if (explicit === "none" || explicit === "presentation") {
      if (isFocusable(el) || hasGlobalAria(el)) return implicitRole(el);
      return null;
    }
    if (explicit === "generic") return null;
    return explicit;
  }
  return implicitRole(el);
}
