//! 28_text.js: the text names are made of: white space as names collapse it, ID references,
//! CSS generated content (::before/::after, with its alternative text), block boundaries and
//! text as rendered (text-transform).
//!
//! Owns: trimmed(), idRefs(), pseudoText(), generatedText(), isBlock(), renderedText(), and
//! markRun() (a walk's text run normalised with the spans of its text-level elements).
//! Must not: decide a name (30_names does) or what the tree shows.

// generated text of ::before / ::after per element, per walk
let pseudoCache = null;
onCaches(
  function () {
    pseudoCache = new $Map();
  },
  function () {
    pseudoCache = null;
  },
  function () {
    return pseudoCache;
  },
  function (p) {
    pseudoCache = p;
  },
);

// Elements whose content adds spaces around it (CSS block-level in practice).
// Chromium also separates inline-block boxes and embedded objects (images, SVG) with spaces.
const INLINE_DISPLAYS = new $Set(["inline", "contents", "ruby", "ruby-text"]);

// Atomic inline-level boxes (CSS Display 3 §2: inline-block, inline-flex, inline-grid,
// inline-table are inline-level, laid out in their parent's line like a glyph). CSS inline
// layout puts nothing between two inline-level boxes but the white space of the source (CSS
// Text 3 §4) and their own margins, borders and padding (CSS 2.1 §10.3.9): one with none of
// these sits flush against its neighbours, and its text reads joined to theirs, as Chromium's
// innerText gives it (five inline-block spans of a captcha read "qKKo"). One with spacing
// reads apart. Names keep Chromium's tree's separator (30_names: isBlock).
const ATOMIC_INLINE = new $Set(["inline-block", "inline-flex", "inline-grid", "inline-table"]);
const SPACING = ["margin-left", "margin-right", "padding-left", "padding-right", "border-left-width",
  "border-right-width"];

/** Whether el (of computed style `style`) is an atomic inline box flush with its neighbours. */
function flushInline(el, style) {
  if (!setHas(ATOMIC_INLINE, displayOf(el))) return false;
  for (let i = 0; i < SPACING.length; i++) {
    const v = cssValue(style, SPACING[i]);
    if (v && v !== "0px") return false;
  }
  return true;
}

// Names collapse runs of ASCII white space (HTML's space characters: space, tab, LF, FF,
// CR) and trim them, as Chromium does (Blink's SimplifyWhiteSpace with IsHTMLSpace): a
// no-break space (U+00A0) and other Unicode spaces stay in the name, as they stay in
// Chromium's and Firefox's (WPT accname/name/comp_text_node). Matching a name (search,
// queries) folds them: see normalizeWS.
const NAME_WS_RE = re("[ \\t\\n\\f\\r]+", "g");
const NAME_WS_CHANGE_RE = re("[\\t\\n\\f\\r]|  ");
const NAME_EDGE_RE = re("^[ \\t\\n\\f\\r]+|[ \\t\\n\\f\\r]+$", "g");

function trimmed(s) {
  if (!s) return "";
  const c = reTest(NAME_WS_CHANGE_RE, s) ? strReplace(s, NAME_WS_RE, " ") : s;
  const first = strCharCodeAt(c, 0);
  const last = strCharCodeAt(c, c.length - 1);
  return first === 32 || last === 32 ? strReplace(c, NAME_EDGE_RE, "") : c;
}

function rootOf(el) {
  try {
    return getRootNode(el);
  } catch (_) {
    return ownerDocument(el);
  }
}

function byId(el, id) {
  const root = rootOf(el);
  try {
    // captured methods: the page may replace getElementById
    const t = nodeType(root);
    if (t === DOCUMENT_NODE) return docGetElementById(root, id);
    if (t === DOCUMENT_FRAGMENT_NODE) return fragGetElementById(root, id);
  } catch (_) {
    // fall through
  }
  return null;
}

// What idRefs gives for an absent or empty attribute (most elements): one array, never
// changed by its callers.
const NO_IDREFS = [];

function idRefs(el, attrName) {
  const v = getAttr(el, attrName);
  if (!v) return NO_IDREFS;
  const ids = strSplit(strTrim(v), SPACES_RE);
  const out = [];
  for (let i = 0; i < ids.length; i++) {
    if (!ids[i]) continue;
    const t = byId(el, ids[i]);
    if (t) push(out, t);
  }
  return out;
}

/** CSS generated content of ::before / ::after, when it is a string. scope: el's tree scope
 * when known (else null). */
function pseudoText(el, which, scope) {
  // where no style sheet of the element's scope mentions :before/:after, there is none
  if (!(scopeFlagsOf(scope || rootOf(el)) & SCOPE_PSEUDO)) return "";
  // asked again for each name-from-content ancestor: once per element and walk
  const memo = pseudoCache ? mapGet(pseudoCache, el) : undefined;
  const slot = which === "::before" ? 0 : 1;
  if (memo && memo[slot] !== undefined) return memo[slot];
  const t = pseudoTextUncached(el, which);
  if (pseudoCache) {
    const m = memo || [undefined, undefined];
    m[slot] = t;
    if (!memo) mapSet(pseudoCache, el, m);
  }
  return t;
}

function pseudoTextUncached(el, which) {
  const s = styleOf(el, which);
  if (!s) return "";
  const c = cssValue(s, "content");
  if (!c || c === "none" || c === "normal") return "";
  const d = cssValue(s, "display");
  if (d === "none") return "";
  const t = generatedText(c, el);
  // a block-level ::before/::after is a box of its own: its text stands apart (CSS
  // generated content boxes; Chromium and Firefox, WPT name_file-label-inline-block-styles)
  return t && d && !setHas(INLINE_DISPLAYS, d) ? " " + t + " " : t;
}

/**
 * The text a computed `content` value gives to a name (accname 1.2 2F.ii; CSS Generated
 * Content 3, `content: <content-list> [/ <string>+]`): its alternative text when it has one
 * (the strings after `/`, joined; empty when they are: an icon marked as saying nothing),
 * else its strings, joined. `attr(name)` gives el's attribute (CSS Values 4; Chromium's
 * computed value has it substituted already, Firefox's does not). Other items (counters,
 * quotes, images) give nothing here. Computed values serialise strings double-quoted with `\`
 * escapes.
 */
function generatedText(c, el) {
  let main = "";
  let alt = "";
  let slash = false;
  let i = 0;
  const n = c.length;
  while (i < n) {
    const ch = c[i];
    if (ch === '"' || ch === "'") {
      let t = "";
      i++;
      while (i < n && c[i] !== ch) {
        if (c[i] === "\\" && i + 1 < n) i++;
        t += c[i];
        i++;
      }
      i++;
      if (slash) alt += t;
      else main += t;
    } else if (ch === "/") {
      slash = true;
      i++;
    } else if (ch === "(") {
      const fn = strLower(strSlice(c, attrStart(c, i), i));
      const close = strIndexOf(c, ")", i);
      if (fn === "attr" && close > i && el) {
        // attr(name) or attr(name type, fallback): the attribute's value, when it is set
        const arg = strTrim(strSplit(strSplit(strSlice(c, i + 1, close), ",")[0], " ")[0]);
        const v = arg ? getAttr(el, arg) : null;
        if (v !== null) {
          if (slash) alt += v;
          else main += v;
        }
        i = close + 1;
        continue;
      }
      // a function's arguments (counter(), url(), image-set()): skipped whole
      let depth = 1;
      i++;
      while (i < n && depth > 0) {
        if (c[i] === "(") depth++;
        else if (c[i] === ")") depth--;
        else if (c[i] === '"' || c[i] === "'") {
          const q = c[i];
          i++;
          while (i < n && c[i] !== q) {
            if (c[i] === "\\") i++;
            i++;
          }
        }
        i++;
      }
    } else i++;
  }
  // alternative text stands apart from the text beside it, as a name that does not come
  // from text does (Chromium: `content: "\2605" / "Starred"` before "item" is "Starred item")
  if (slash) return alt ? " " + alt + " " : "";
  return main;
}

/** Where the identifier before c[i] (a function's name) begins. */
function attrStart(c, i) {
  let j = i;
  while (j > 0) {
    const k = strCharCodeAt(c, j - 1);
    const ident = (k >= 97 && k <= 122) || (k >= 65 && k <= 90) || (k >= 48 && k <= 57) || k === 45 || k === 95;
    if (!ident) break;
    j--;
  }
  return j;
}

function isBlock(el) {
  // no computed style: inline (a style that gives no display counts as block, as before)
  if (!styleRecOf(el).s) return false;
  return !setHas(INLINE_DISPLAYS, displayOf(el));
}

/**
 * The text of a text node as rendered: CSS text-transform applied (Chromium names use the
 * rendered text, so `text-transform: capitalize` changes names).
 */
function renderedText(textNode, scope) {
  const v = nodeValue(textNode);
  if (!v) return v;
  const p = parentElementOf(textNode);
  if (!p) return v;
  return transformedText(v, p, scope);
}

/** Text v as rendered inside element p: p's CSS text-transform applied. */
function transformedText(v, p, scope) {
  const tt = textTransformOf(p, scope);
  if (tt === "uppercase") return strUpper(v);
  if (tt === "lowercase") return strLower(v);
  if (tt === "capitalize") return strReplace(v, CAPITALIZE_RE, capitalizeWord);
  return v;
}

const CAPITALIZE_RE = re("(^|[\\s\\u00a0(\\[{\"'\\-/])([a-z\\u00df-\\u00ff])", "g");
function capitalizeWord(_m, pre, c) {
  return pre + strUpper(c);
}

const WS_CHAR_RE = re("[\\s\\u200b\\u00a0]");

/**
 * Normalises a text run's raw text as normalizeWS does (white space collapsed, trimmed, then
 * cut at `cap`) and turns the spans of `m` (role, raw start, raw end) into its marks,
 * n.s.marks = [[role, start, end], ...] over the normalised text (UTF-16 offsets, outer
 * white space of a span left out, a span cut by the cap shortened, an empty one dropped).
 */
function markRun(n, m, cap) {
  const raw = n.v;
  let out = "";
  let pending = false;
  const spans = [];
  let k = 0;
  let open = null;
  for (let i = 0; i < raw.length; i++) {
    // spans start in raw order: open the one that starts here, close the one that ended
    if (open && i >= open[2]) {
      if (open[3] >= 0) push(spans, [open[0], open[3], open[4]]);
      open = null;
    }
    if (!open && k < m.length && i >= m[k + 1]) {
      open = [m[k], m[k + 1], m[k + 2], -1, -1];
      k += 3;
    }
    const c = raw[i];
    if (reTest(WS_CHAR_RE, c)) {
      pending = out.length > 0;
      continue;
    }
    if (pending) out += " ";
    pending = false;
    if (open && open[3] < 0) open[3] = out.length;
    out += c;
    if (open) open[4] = out.length;
  }
  if (open && open[3] >= 0) push(spans, [open[0], open[3], open[4]]);
  n.v = clean(out, cap);
  const marks = [];
  for (let j = 0; j < spans.length; j++) {
    const sp = spans[j];
    if (sp[1] >= n.v.length) continue;
    if (sp[2] > n.v.length) sp[2] = n.v.length;
    push(marks, sp);
  }
  if (!marks.length) return;
  if (!n.s) n.s = {};
  n.s.marks = marks;
}
