#!/usr/bin/env node
// Accname conformance: the web-platform-tests accname suite (the copy Playwright's repository
// vendors under tests/assets/wpt/) run against ariasnap, Playwright and Chromium's own
// accessibility tree, on the same pages served by one static server, per case.
//
//   node scripts/accname-wpt.js --wpt DIR --ariasnap BIN [--bench DIR] [--chromium PATH]
//        [--out FILE.json] [--failures FILE.txt] [--only REGEX] [--firefox]
//
// --wpt      Playwright's tests/assets/wpt folder (accname/name, accname/manual, wai-aria)
// --ariasnap the ariasnap binary to measure
// --bench    a folder with node_modules/playwright-core (default ../shared/bench, or BENCH_DIR)
// --chromium Chromium's binary, for Playwright and ariasnap alike (default /usr/bin/chromium,
//            or CHROMIUM_PATH)
// --out      per-case JSON; --failures: the "Chromium passes, ariasnap fails" list as text
// --only     regex on file paths (e.g. 'manual/name_test_case_5')
// --firefox  adds two columns: ariasnap on Firefox (--browser firefox) and Firefox's own label
//            (WebDriver Get Computed Label, asked through ariasnap's own WebDriver session)
//
// Cases, as Playwright's harness (tests/library/role-utils.spec.ts) and WPT enumerate them:
// - accname/name/comp_*.html and accname/name/shadowdom/*.html: every element matched by the
//   selector the page passes to AriaUtils.verifyLabelsBySelector(...), expecting its
//   data-expectedlabel attribute.
// - accname/manual/*.html: the object given to `new ATTAcomm(...)`; every step's ATK assertion
//   ["property", "name" | "description", "is", TEXT] on the element with id step.element.
// The selector and the steps are read from the file's source; the harness scripts the pages
// load (testharness.js, aria-utils.js, ATTAcomm.js) are not served, so every tool sees the
// same DOM (the pages' own scripts still run: shadowdom/*.html attach their shadow roots).
//
// How each tool's answer is read (names and descriptions here; Chromium: an element without an
// AX node fails; ariasnap: the engine's getName, and the element's own line of a snapshot rooted
// at it, the only place ariasnap shows descriptions): scripts/wpt-common.js, which
// roles-wpt.js shares.
//
// Pass rules (all three printed; the first is the headline and drives the failures list):
// - collapsed: asFlatString(got) === asFlatString(expected), Playwright's white-space rule on
//   both sides. asFlatString (Playwright's roleUtils): runs of white space other than U+00A0
//   become one space, U+200B and U+00AD are dropped, then String.trim, which also strips
//   U+00A0 at either end (U+00A0 inside is kept).
// - pw: Playwright's own wpt harness: asFlatString(got) === expected as written (so the two
//   comp_label cases expecting a leading or trailing U+00A0 fail for every tool).
// - wpt: WPT's aria-utils.js: runs of ASCII white space of got become one space, one leading
//   and one trailing space are removed (U+00A0 kept everywhere) === expected as written.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { opt: optOf, openBench, measurePage, flatPW, flatWPT, quote } = require('./wpt-common');

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
if (!WPT || !BIN || !fs.existsSync(path.join(WPT, 'accname'))) {
  console.error('usage: accname-wpt.js --wpt DIR (Playwright\'s tests/assets/wpt) --ariasnap BIN [--bench DIR] [--chromium PATH] [--out FILE] [--failures FILE] [--only REGEX] [--firefox]');
  process.exit(2);
}
// ---- the pages and their cases (from the sources) ----

function listFiles() {
  const ls = (d) => fs.readdirSync(path.join(WPT, d)).filter((f) => f.endsWith('.html')).sort().map((f) => `${d}/${f}`);
  const name = [...ls('accname/name').filter((f) => /\/comp_[^/]*$/.test(f)), ...ls('accname/name/shadowdom')];
  return [...name, ...ls('accname/manual')].filter((f) => ONLY.test(f));
}

/** What the page asks: {selector} (comp_*, shadowdom) or {steps: [{id, property, value}]} (manual). */
function specOf(file) {
  const src = fs.readFileSync(path.join(WPT, file), 'utf8');
  const sel = src.match(/verifyLabelsBySelector\(\s*(['"])(.*?)\1\s*\)/);
  if (sel) return { selector: sel[2] };
  const m = src.match(/new ATTAcomm\(\s*([\s\S]*?)\)\s*;/);
  if (!m) return null;
  const data = vm.runInNewContext(`(${m[1]})`, {}, { timeout: 1000 });
  const steps = [];
  for (const s of data.steps || []) {
    for (const a of (s.test && s.test.ATK) || []) {
      if (a[0] === 'property' && (a[1] === 'name' || a[1] === 'description') && a[2] === 'is' && typeof a[3] === 'string') {
        steps.push({ id: s.element, property: a[1], value: a[3] });
      }
    }
  }
  return { steps };
}

// In the page: the case elements (kept as window.__accEls) and a selector unique to each. Runs
// in Chromium only; the other browsers load the same file, whose DOM is the same.
const ENUMERATE = `(spec, unique) => {
  const cases = [];
  const els = [];
  if (spec.selector) {
    for (const el of document.querySelectorAll(spec.selector)) {
      cases.push({ property: 'name', expected: el.getAttribute('data-expectedlabel'), title: el.getAttribute('data-testname') || '', el: els.push(el) - 1 });
    }
  } else {
    for (const s of spec.steps) {
      const el = document.getElementById(s.id);
      cases.push({ property: s.property, expected: s.value, title: '#' + s.id, el: el ? els.push(el) - 1 : -1 });
    }
  }
  window.__accEls = els;
  return { cases, selectors: els.map(unique) };
}`;

// ---- comparing ----

const same = (f) => (got, expected) => f(got) === f(expected);
const RULES = {
  collapsed: { title: 'both sides collapsed as Playwright\'s asFlatString does', test: same(flatPW) },
  pw: { title: 'Playwright\'s harness: asFlatString(got) === expected', test: (got, expected) => flatPW(got) === expected },
  wpt: { title: 'WPT aria-utils: ASCII white space of got collapsed === expected', test: (got, expected) => flatWPT(got) === expected },
};
const TOOLS = ['ariasnap', 'ariasnap_line', 'playwright', 'playwright_line', 'chromium', ...(FIREFOX ? ['ariasnap_firefox', 'firefox'] : [])];
const HEAD = { ariasnap: 'ariasnap', ariasnap_line: 'ariasnap line', playwright: 'Playwright', playwright_line: 'Playwright line', chromium: 'Chromium\'s tree', ariasnap_firefox: 'ariasnap (Firefox)', firefox: 'Firefox label' };

const PARTS = ['accname/name/comp_* + shadowdom/*', 'accname/manual (names)', 'accname/manual (descriptions)'];
function partOf(c) {
  if (!c.file.startsWith('accname/manual/')) return PARTS[0];
  return c.property === 'name' ? PARTS[1] : PARTS[2];
}

async function main() {
  const files = listFiles();
  const bench = await openBench({ root: WPT, bin: BIN, bench: BENCH, chromium: CHROMIUM, firefox: FIREFOX, name: 'accname-wpt' });
  const all = [];
  const unread = [];
  try {
    for (const file of files) {
      const spec = specOf(file);
      if (!spec) {
        unread.push(`${file}: no verifyLabelsBySelector(...) nor ATTAcomm steps`);
        continue;
      }
      let cr;
      try {
        cr = await measurePage(bench, `${bench.origin}/${file}`, ENUMERATE, spec);
      } catch (e) {
        unread.push(`${file}: ${e.message.split('\n')[0]}`);
        continue;
      }
      const tools = cr.tools;
      if (cr.error) unread.push(`${file}: ${cr.error}`);
      if (!cr.pw) unread.push(`${file}: window.__injectedScript missing (Playwright column empty)`);
      for (const c of cr.cases) if (c.el < 0) unread.push(`${file}: no element ${c.title} (every tool fails it)`);
      cr.cases.forEach((c, i) => {
        const k = c.el;
        const got = (t) => {
          const arr = t.startsWith('playwright') ? cr.pw : tools[t === 'ariasnap_line' ? 'ariasnap' : t];
          const v = k >= 0 && arr ? arr[k] : null;
          if (!v) return null;
          if (t === 'playwright_line' && c.property === 'description') return undefined; // not in its snapshot
          if (t.endsWith('_line')) return v.line ? v.line[c.property] : null;
          if (c.property === 'description' && (t === 'ariasnap' || t === 'ariasnap_firefox')) return v.line ? v.line.description : null;
          if (c.property === 'description' && t === 'firefox') return undefined; // WebDriver has no computed description
          return v[c.property];
        };
        const row = { file, index: i, title: c.title, selector: k >= 0 ? cr.selectors[k] : null, property: c.property, expected: c.expected };
        for (const t of TOOLS) row[t] = got(t);
        row.role = {};
        for (const t of ['chromium', 'ariasnap', 'ariasnap_firefox', 'firefox']) {
          if (tools[t]) row.role[t] = k >= 0 && tools[t][k] ? tools[t][k].role : null;
        }
        row.role.playwright = k >= 0 && cr.pw ? cr.pw[k].role : null;
        if (k >= 0 && tools.ariasnap && tools.ariasnap[k].name && tools.ariasnap[k].name.length >= 200) row.ariasnap_capped = true;
        row.pass = {};
        for (const [r, { test }] of Object.entries(RULES)) {
          row.pass[r] = {};
          for (const t of TOOLS) row.pass[r][t] = typeof row[t] === 'string' ? test(row[t], c.expected) : row[t] === undefined ? null : false;
        }
        all.push(row);
      });
      process.stderr.write(`.${all.length % 50 === 0 ? '\n' : ''}`);
    }
  } finally {
    await bench.close();
  }
  process.stderr.write('\n');
  report(all, unread, files.length);
}

function report(all, unread, nfiles) {
  const parts = PARTS.filter((p) => all.some((r) => partOf(r) === p));
  const lines = [];
  const say = (s) => lines.push(s);
  for (const rule of Object.keys(RULES)) {
    say(`\n### Passes (${RULES[rule].title})\n`);
    say(`| part | cases | ${TOOLS.map((t) => HEAD[t]).join(' | ')} |`);
    say(`| --- | ---: | ${TOOLS.map(() => '---:').join(' | ')} |`);
    for (const p of parts) {
      const rows = all.filter((r) => partOf(r) === p);
      const cell = (t) => (rows.every((r) => r.pass[rule][t] === null) ? 'n/a' : String(rows.filter((r) => r.pass[rule][t]).length));
      say(`| ${p} | ${rows.length} | ${TOOLS.map(cell).join(' | ')} |`);
    }
  }
  say(`\n${nfiles} files, ${all.length} cases. "ariasnap": queryAll's name (the engine's getName); "ariasnap line": the name (or description) on the element's own line of a snapshot rooted at it (no line: fails); "Playwright line" likewise in locator.ariaSnapshotJSON(), names only. Descriptions: ariasnap shows them only on snapshot lines (verbose)${FIREFOX ? '; WebDriver has no computed description, so Firefox has none' : ''}.`);
  const capped = all.filter((r) => r.ariasnap_capped).length;
  if (capped) say(`${capped} ariasnap names are 200 characters long: queryAll caps names there.`);
  if (unread.length) say(`\nNot read:\n${unread.map((u) => `- ${u}`).join('\n')}`);
  const fails = failures(all, 'chromium', 'ariasnap', 'Chromium\'s tree passes, ariasnap fails');
  const ff = FIREFOX ? failures(all, 'firefox', 'ariasnap_firefox', 'Firefox\'s label passes, ariasnap on Firefox fails') : '';
  console.log(lines.join('\n'));
  console.log(fails + ff);
  if (FAILURES) fs.writeFileSync(FAILURES, fails + ff);
  if (OUT) fs.writeFileSync(OUT, JSON.stringify({ files: nfiles, unread, cases: all }, null, 1));
}

/** The cases where `ref` passes and `tool` fails (the first rule), grouped by file. */
function failures(all, ref, tool, title) {
  const bad = all.filter((r) => r.pass.collapsed[ref] && !r.pass.collapsed[tool]);
  let s = `\n### ${title}: ${bad.length} cases\n`;
  for (const file of [...new Set(bad.map((r) => r.file))]) {
    s += `\n${file}\n`;
    for (const r of bad.filter((x) => x.file === file)) {
      const role = r.role[tool] ? ` [roles: ariasnap ${r.role[tool]}, ${ref} ${r.role[ref]}]` : '';
      s += `  ${r.property} of ${r.title || r.selector}: expected ${quote(r.expected)}, got ${quote(r[tool])}${role}\n`;
    }
  }
  return s;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
