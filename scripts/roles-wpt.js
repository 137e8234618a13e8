#!/usr/bin/env node
// Role conformance: the web-platform-tests role suites (html-aam/, wai-aria/role/, svg-aam/,
// dpub-aam/ of web-platform-tests/wpt) run against ariasnap, Playwright and Chromium's own
// accessibility tree, on the same pages served by one static server, per case: the role (and,
// where a page checks one, the name) on the element's own line.
//
//   node scripts/roles-wpt.js --wpt DIR --ariasnap BIN [--bench DIR] [--chromium PATH]
//        [--out FILE.json] [--failures FILE.txt] [--only REGEX] [--firefox]
//
// --wpt      a checkout of web-platform-tests/wpt (outside this repository) with at least
//            html-aam/, wai-aria/role/, svg-aam/ and dpub-aam/
// --ariasnap the ariasnap binary to measure
// --bench    a folder with node_modules/playwright-core (default ../shared/bench, or BENCH_DIR)
// --chromium Chromium's binary, for Playwright and ariasnap alike (default /usr/bin/chromium,
//            or CHROMIUM_PATH)
// --out      per-case JSON; --failures: the cases ariasnap fails and Chromium's tree or
//            Playwright passes, as text
// --only     regex on file paths (e.g. 'html-aam/roles')
// --firefox  adds two columns: ariasnap on Firefox (--browser firefox) and Firefox's own role
//            and label (WebDriver Get Computed Role / Label, through ariasnap's own session)
//
// Cases, as the pages declare them to WPT's harness. The harness scripts are replaced by stubs
// this script serves (the suites' own scripts, html-aam/scripts/html-aam-accname-utils.js and
// html-aam/table/tentative/resources/table-computed-role.js, are served from the checkout and
// build their elements as in a real run, so every tool sees the same DOM):
// - /wai-aria/scripts/aria-utils.js records each call: verifyRolesBySelector (the element's
//   data-expectedrole), verifyGenericRolesBySelector and verifyRoleOrVariantRolesBySelector
//   (any of the roles given), verifyLabelsBySelector (data-expectedlabel; an element without
//   that attribute expects nothing and is listed as not read), verifyRoleAndLabelBySelector
//   (both), assignAndVerifyRolesByRoleNames (a `<div role=R>x</div>` appended to the body per
//   role, expecting R). Each throws, as the real one does, when its selector matches nothing.
// - /resources/testharness.js runs each promise_test / test body at once (what it does to the
//   DOM before its first await happens, as in a real run: table-computed-role.js nests tables
//   there); test_driver answers "" and the assertions are left undefined.
// - the table pages of html-aam/table/tentative (runTests): each table[data-testname] not
//   nested expects `table`, or, with data-layout, the role WPT reads from a probe table, i.e.
//   Chromium's layout table: any role but `table` passes.
// Other promise_tests (basic.html's, heading/invalid-nesting.html's ancestor check) and the
// ATTAcomm *-manual.html pages are not counted.
//
// How each tool's answer is read: scripts/wpt-common.js (shared with accname-wpt.js). Roles:
// the role on the element's own line, "" when it has none (ariasnap and Playwright show no line
// for generic or presentational elements, nor for text-level ones they fold into the text);
// Chromium's AX node role (an ignored node: none; no node: ""); Firefox's computed role.
// Names: on the element's own line (no line: no name, ""), Chromium's AX name (no node: fails),
// Firefox's label.
//
// Pass rules: roles are equal after WAI-ARIA's synonyms (img = image, presentation = none,
// directory = list); generic, none and "" are one answer (WPT's verifyGenericRolesBySelector
// accepts any of the three; neither snapshot prints a line for them). Names: equal with white
// space collapsed on both sides as Playwright's asFlatString does (accname-wpt.js's headline).
'use strict';
const fs = require('fs');
const path = require('path');
const { opt: optOf, openBench, measurePage, flatPW, quote } = require('./wpt-common');

const argv = process.argv.slice(2);
const opt = (n, d) => optOf(argv, n, d);
const WPT = opt('--wpt');
const BIN = opt('--ariasnap');
const BENCH = path.resolve(opt('--bench', process.env.BENCH_DIR || path.join(__dirname, '..', '..', 'shared', 'bench')));
const CHROMIUM = opt('--chromium', process.env.CHROMIUM_PATH || '/usr/bin/chromium');
const OUT = opt('--out');
const FAILURES = opt('--failures');
const ONLY = new RegExp(opt('--only', ''));
const FIREFOX = argv.includes('--firefox');
const SUITES = ['html-aam', 'wai-aria/role', 'svg-aam', 'dpub-aam'];
if (!WPT || !BIN || !SUITES.some((s) => fs.existsSync(path.join(WPT, s)))) {
  console.error('usage: roles-wpt.js --wpt DIR (a checkout of web-platform-tests/wpt) --ariasnap BIN [--bench DIR] [--chromium PATH] [--out FILE] [--failures FILE] [--only REGEX] [--firefox]');
  process.exit(2);
}

/** The suites' test pages: every .html under the four folders but the ATTAcomm manual ones. */
function listFiles() {
  const out = [];
  const walkDir = (d) => {
    const abs = path.join(WPT, d);
    if (!fs.existsSync(abs)) return;
    for (const e of fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = `${d}/${e.name}`;
      if (e.isDirectory()) walkDir(rel);
      else if (e.name.endsWith('.html') && !e.name.endsWith('-manual.html')) out.push(rel);
    }
  };
  for (const s of SUITES) walkDir(s);
  return out.filter((f) => ONLY.test(f));
}

// ---- the harness stubs ----

// testharness.js: test bodies run at once (their DOM work before the first await happens);
// test_driver answers "" (the assertions after an await then throw, unseen).
const TESTHARNESS = `(() => {
  const run = (fn) => { try { const p = fn({ step_func: (f) => f, add_cleanup: () => {} }); if (p && p.catch) p.catch(() => {}); } catch (_) {} };
  window.promise_test = run;
  window.test = run;
  window.async_test = () => ({ step: () => {}, step_func: (f) => f, done: () => {} });
  window.setup = () => {};
  window.done = () => {};
  window.test_driver = { get_computed_role: () => Promise.resolve(''), get_computed_label: () => Promise.resolve('') };
})();`;

// aria-utils.js: records what each call would check.
const ARIA_UTILS = `(() => {
  const w = window.__wpt = window.__wpt || { cases: [] };
  const all = (sel, fn) => {
    const els = document.querySelectorAll(sel);
    if (!els.length) throw 'Selector ' + sel + ' should match at least one element.';
    for (const el of els) fn(el);
  };
  const rec = (el, property, expected) => w.cases.push({ el, property, expected, title: el.getAttribute('data-testname') || '' });
  window.AriaUtils = {
    assignAndVerifyRolesByRoleNames(roles) {
      if (!Array.isArray(roles) || !roles.length) throw 'roleNames should be a non-empty array';
      for (const role of roles) {
        const el = document.createElement('div');
        el.appendChild(document.createTextNode('x'));
        el.setAttribute('role', role);
        document.body.appendChild(el);
        w.cases.push({ el, property: 'role', expected: [role], title: 'role: ' + role });
      }
    },
    verifyRolesBySelector(sel) { all(sel, (el) => rec(el, 'role', [el.getAttribute('data-expectedrole')])); },
    verifyRoleOrVariantRolesBySelector(sel, roles) { all(sel, (el) => rec(el, 'role', roles.slice())); },
    verifyGenericRolesBySelector(sel) { this.verifyRoleOrVariantRolesBySelector(sel, ['generic', '', 'none']); },
    verifyLabelsBySelector(sel) { all(sel, (el) => rec(el, 'name', el.getAttribute('data-expectedlabel'))); },
    verifyRoleAndLabelBySelector(sel) { this.verifyLabelsBySelector(sel); this.verifyRolesBySelector(sel); },
  };
})();`;

const JS = 'text/javascript';
const OVERRIDES = {
  '/resources/testharness.js': { type: JS, body: TESTHARNESS },
  '/resources/testharnessreport.js': { type: JS, body: '' },
  '/resources/testdriver.js': { type: JS, body: '' },
  '/resources/testdriver-vendor.js': { type: JS, body: '' },
  '/resources/testdriver-actions.js': { type: JS, body: '' },
  '/wai-aria/scripts/aria-utils.js': { type: JS, body: ARIA_UTILS },
};

// a data-layout table of table-computed-role.js: any role but table passes
const LAYOUT_TABLE = '(layout table)';

// In the page (Chromium): the recorded cases, and the tables of runTests pages.
const ENUMERATE = `(arg, unique) => {
  const rec = (window.__wpt && window.__wpt.cases) || [];
  const cases = [];
  const els = [];
  const index = new Map();
  const add = (el, property, expected, title) => {
    let k = index.get(el);
    if (k === undefined) {
      k = els.push(el) - 1;
      index.set(el, k);
    }
    cases.push({ property, expected, title, el: k });
  };
  for (const c of rec) if (c.el.isConnected) add(c.el, c.property, c.expected, c.title);
  if (typeof runTests === 'function') {
    for (const t of document.querySelectorAll('table[data-testname]:not([data-nested])')) {
      add(t, 'role', t.hasAttribute('data-layout') ? [${JSON.stringify(LAYOUT_TABLE)}] : ['table'], t.getAttribute('data-testname'));
    }
  }
  window.__accEls = els;
  return { cases, selectors: els.map(unique) };
}`;

// ---- comparing ----

const SYNONYMS = { img: 'image', presentation: 'none', directory: 'list' };
const GENERIC = new Set(['generic', 'none', '']);
const roleOf = (r) => {
  const s = r === null || r === undefined ? '' : String(r);
  return Object.prototype.hasOwnProperty.call(SYNONYMS, s) ? SYNONYMS[s] : s;
};

/** Whether role `got` ("" for no line / no node) is one of `expected`. */
function rolePasses(got, expected) {
  const g = roleOf(got);
  for (const e of expected) {
    if (e === LAYOUT_TABLE) {
      if (g !== 'table') return true;
      continue;
    }
    if (e === null) continue;
    const x = roleOf(e);
    if (x === g || (GENERIC.has(x) && GENERIC.has(g))) return true;
  }
  return false;
}

const TOOLS = ['ariasnap', 'ariasnap_engine', 'playwright', 'playwright_engine', 'chromium', ...(FIREFOX ? ['ariasnap_firefox', 'firefox'] : [])];
const HEAD = {
  ariasnap: 'ariasnap', ariasnap_engine: 'ariasnap engine', playwright: 'Playwright', playwright_engine: 'Playwright engine',
  chromium: 'Chromium\'s tree', ariasnap_firefox: 'ariasnap on Firefox', firefox: 'Firefox',
};

/** Tool t's answer for property `prop` of element k: a string, or null (none: fails). */
function answer(m, t, k, prop) {
  if (k < 0) return null;
  if (t === 'chromium') {
    const a = m.tools.chromium && m.tools.chromium[k];
    if (!a) return prop === 'role' ? '' : null;
    return prop === 'role' ? (a.ignored ? 'none' : a.role) : a.name;
  }
  if (t === 'firefox') {
    const a = m.tools.firefox && m.tools.firefox[k];
    return a ? a[prop] : null;
  }
  const arr = t.startsWith('playwright') ? m.pw : m.tools[t === 'ariasnap_engine' ? 'ariasnap' : t];
  const v = arr && arr[k];
  if (!v) return null;
  if (t.endsWith('_engine')) return v[prop] === null || v[prop] === undefined ? null : v[prop];
  // the element's own line; none: no role, no name
  return v.line ? v.line[prop] : '';
}

function partOf(r) {
  const suite = SUITES.find((s) => r.file.startsWith(`${s}/`)) || r.file.split('/')[0];
  return `${suite} ${r.property === 'role' ? 'roles' : 'names'}`;
}

async function main() {
  const files = listFiles();
  const bench = await openBench({ root: WPT, overrides: OVERRIDES, bin: BIN, bench: BENCH, chromium: CHROMIUM, firefox: FIREFOX, name: 'roles-wpt' });
  const all = [];
  const unread = [];
  try {
    for (const file of files) {
      let m;
      try {
        m = await measurePage(bench, `${bench.origin}/${file}`, ENUMERATE);
      } catch (e) {
        unread.push(`${file}: ${e.message.split('\n')[0]}`);
        continue;
      }
      if (m.error) unread.push(`${file}: ${m.error}`);
      if (!m.pw) unread.push(`${file}: window.__injectedScript missing (Playwright columns empty)`);
      if (!m.cases.length) unread.push(`${file}: no case (no AriaUtils check this script reads)`);
      m.cases.forEach((c, i) => {
        if (c.property === 'name' && c.expected === null) {
          unread.push(`${file}: ${c.title || '#' + i} has no data-expectedlabel (not counted)`);
          return;
        }
        const row = { file, index: i, title: c.title, selector: m.selectors[c.el], property: c.property, expected: c.expected, got: {}, pass: {} };
        for (const t of TOOLS) {
          const g = answer(m, t, c.el, c.property);
          row.got[t] = g;
          if (c.property === 'role') row.pass[t] = g !== null && rolePasses(g, c.expected);
          else row.pass[t] = typeof g === 'string' && flatPW(g) === flatPW(c.expected);
        }
        all.push(row);
      });
      process.stderr.write('.');
    }
  } finally {
    await bench.close();
  }
  process.stderr.write('\n');
  report(all, unread, files.length);
}

function report(all, unread, nfiles) {
  const parts = [];
  for (const r of all) if (!parts.includes(partOf(r))) parts.push(partOf(r));
  const lines = [];
  const say = (s) => lines.push(s);
  say(`| part | cases | ${TOOLS.map((t) => HEAD[t]).join(' | ')} |`);
  say(`| --- | ---: | ${TOOLS.map(() => '---:').join(' | ')} |`);
  for (const p of parts) {
    const rows = all.filter((r) => partOf(r) === p);
    say(`| ${p} | ${rows.length} | ${TOOLS.map((t) => String(rows.filter((r) => r.pass[t]).length)).join(' | ')} |`);
  }
  say(`\n${nfiles} files, ${all.length} cases. "ariasnap" and "Playwright": the role or name on the element's own line of a snapshot rooted at it (no line: role and name ""); "engine": the role and name their engines compute for the element (ariasnap's queryAll, Playwright's injected getAriaRole / getElementAccessibleNameText).`);
  if (unread.length) say(`\nNot read:\n${unread.map((u) => `- ${u}`).join('\n')}`);
  const fails = failures(all, ['chromium', 'playwright'], 'ariasnap', 'Chromium\'s tree or Playwright passes, ariasnap fails');
  const ff = FIREFOX ? failures(all, ['firefox'], 'ariasnap_firefox', 'Firefox passes, ariasnap on Firefox fails') : '';
  console.log(lines.join('\n'));
  console.log(fails + ff);
  if (FAILURES) fs.writeFileSync(FAILURES, fails + ff);
  if (OUT) fs.writeFileSync(OUT, JSON.stringify({ files: nfiles, unread, cases: all }, null, 1));
}

/** The cases where one of `refs` passes and `tool` fails, grouped by file. */
function failures(all, refs, tool, title) {
  const bad = all.filter((r) => refs.some((t) => r.pass[t]) && !r.pass[tool]);
  let s = `\n### ${title}: ${bad.length} cases\n`;
  for (const file of [...new Set(bad.map((r) => r.file))]) {
    s += `\n${file}\n`;
    for (const r of bad.filter((x) => x.file === file)) {
      const others = refs.map((t) => `${HEAD[t]} ${quote(r.got[t])}`).join(', ');
      s += `  ${r.property} of ${r.title || r.selector}: expected ${quote(Array.isArray(r.expected) ? r.expected.join(' | ') : r.expected)}, got ${quote(r.got[tool])} (${others})\n`;
    }
  }
  return s;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
