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
// How each tool's answer is read:
// - Chromium: Accessibility.getPartialAXTree of the element (CDP), its AX node's name /
//   description (an element without an AX node fails).
// - Playwright: its injected script's getElementAccessibleNameText / getElementAccessibleDescription
//   (what its aria snapshot prints and its own wpt harness checks), reached as
//   window.__injectedScript, which playwright-core exposes in its test mode (PWTEST_UNDER_TEST).
// - Playwright line: the element's own line in locator.ariaSnapshotJSON() (the public API).
// - ariasnap: one `ariasnap run` batch per page in a kept session: goto, one queryAll with a
//   group per element (CSS selector, limit 1: role and name as the engine's getName computes
//   them, capped at 200 characters), then a snapshot rooted at each element (JSON, verbose):
//   the element's own line, if it has one (its name, and its description, the only place
//   ariasnap shows descriptions).
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
const os = require('os');
const path = require('path');
const http = require('http');
const vm = require('vm');
const { spawn } = require('child_process');

const argv = process.argv.slice(2);
const opt = (n, d) => {
  const i = argv.indexOf(n);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : d;
};
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
// test mode: playwright-core sets window.__injectedScript in the main world
process.env.PWTEST_UNDER_TEST = '1';
const { chromium } = require(path.join(BENCH, 'node_modules', 'playwright-core'));

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

// In the page: the case elements (kept as window.__accEls) with a CSS selector unique to each
// (#id when the id is unique, else a :nth-child path from <html>). Runs in Chromium only; the
// other browsers load the same file, whose DOM is the same.
const ENUMERATE = `(spec) => {
  const unique = (el) => {
    if (el.id && document.querySelectorAll('#' + CSS.escape(el.id)).length === 1) return '#' + CSS.escape(el.id);
    const parts = [];
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
      let i = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) i++;
      parts.unshift('*:nth-child(' + i + ')');
    }
    return ['html', ...parts].join(' > ');
  };
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

// In the page: Playwright's name, description and role of each case element.
const PLAYWRIGHT = `() => {
  const inj = window.__injectedScript;
  if (!inj) return null;
  return window.__accEls.map((el) => ({
    role: inj.utils.getAriaRole(el) || '',
    name: inj.utils.getElementAccessibleNameText(el, false),
    description: inj.utils.getElementAccessibleDescription(el, false).text,
  }));
}`;

// ---- a static server for the wpt folder ----

const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.jpg': 'image/jpeg', '.png': 'image/png' };
function serve(root) {
  const server = http.createServer((req, res) => {
    const p = path.normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const f = path.join(root, p);
    if (!f.startsWith(path.resolve(root) + path.sep) || !fs.existsSync(f) || !fs.statSync(f).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(f)] || 'application/octet-stream' });
    fs.createReadStream(f).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// ---- Chromium (CDP) and Playwright, on one page load ----

async function chromiumSide(page, cdp, url, spec) {
  await page.goto(url, { waitUntil: 'load' });
  const { cases, selectors } = await page.evaluate(`(${ENUMERATE})(${JSON.stringify(spec)})`);
  await page.$eval('body', () => 0); // makes playwright-core inject its script into the main world
  const pw = await page.evaluate(`(${PLAYWRIGHT})()`);
  // Playwright's public aria snapshot of each element (ariaSnapshotJSON): its own line, if any
  for (let i = 0; pw && i < selectors.length; i++) {
    const top = await page.locator(selectors[i]).ariaSnapshotJSON({ timeout: 5000 }).catch(() => null);
    const n = Array.isArray(top) && top.length === 1 && top[0] && top[0].role === pw[i].role ? top[0] : null;
    pw[i].line = n ? { name: n.name || '' } : null;
  }
  const ax = [];
  for (let i = 0; i < selectors.length; i++) {
    const { result } = await cdp.send('Runtime.evaluate', { expression: `window.__accEls[${i}]` });
    const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false });
    const n = nodes.find((x) => x.backendDOMNodeId === node.backendNodeId);
    ax.push(n ? {
      role: (n.role && n.role.value) || '', ignored: !!n.ignored,
      name: (n.name && n.name.value) || '', description: (n.description && n.description.value) || '',
    } : null);
    await cdp.send('Runtime.releaseObject', { objectId: result.objectId });
  }
  return { cases, selectors, pw, ax };
}

// ---- ariasnap ----

function runAriasnap(args, input) {
  return new Promise((resolve) => {
    const p = spawn(BIN, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (code) => resolve({ code, out, err }));
    p.stdin.end(input || '');
  });
}

/** One batch per page: goto, a queryAll group per element, a rooted snapshot per element. */
async function ariasnapSide(url, selectors, session, browser) {
  const queries = {};
  selectors.forEach((s, i) => { queries[`e${i}`] = { selector: s, limit: 1 }; });
  const steps = [{ goto: url }];
  if (selectors.length) steps.push({ queryAll: { queries } });
  for (const s of selectors) steps.push({ snapshot: { root: s, output_format: 'json', verbose: true, maxNodes: 0 }, optional: true });
  const args = ['run', '-', '--session', session, '--browser', browser, '--format', 'json', '--inline-limit', '0'];
  const r = await runAriasnap(args, JSON.stringify({ steps }));
  let res;
  try {
    res = JSON.parse(r.out);
  } catch (_) {
    throw new Error(`ariasnap run failed (${r.code}): ${r.err.trim().split('\n')[0]}`);
  }
  const st = res.steps || [];
  if (!st[0] || st[0].status !== 'ok') throw new Error(`ariasnap goto failed: ${JSON.stringify(st[0] || res).slice(0, 300)}`);
  const groups = (st[1] && st[1].output) || {};
  return selectors.map((_, i) => {
    const m = groups[`e${i}`] && groups[`e${i}`].matches && groups[`e${i}`].matches[0];
    const snap = st[2 + i];
    // the element's own line: the rooted snapshot's single top node, with the role queryAll gave
    const top = snap && snap.status === 'ok' && snap.output && snap.output.children;
    const line = m && Array.isArray(top) && top.length === 1 && typeof top[0] === 'object' && top[0].role === m.role ? top[0] : null;
    return {
      role: m ? m.role : null, name: m ? m.name : null, ref: m ? m.ref : null,
      line: line ? { name: line.name || '', description: (line.props && line.props.description) || '' } : null,
    };
  });
}

/** Firefox's own role and label of each element, asked through ariasnap's WebDriver session. */
async function firefoxLabels(home, session, selectors) {
  const rec = JSON.parse(fs.readFileSync(path.join(home, 'sessions-v1', `${session}.json`), 'utf8'));
  const wd = async (method, p, body) => {
    const r = await fetch(`${rec.webdriver}/session/${rec.session_id}${p}`, {
      method, headers: body ? { 'content-type': 'application/json' } : undefined, body: body ? JSON.stringify(body) : undefined,
    });
    const j = await r.json();
    if (!r.ok) throw new Error(`${method} ${p}: ${(j.value && j.value.error) || r.status}`);
    return j.value;
  };
  const out = [];
  for (const s of selectors) {
    try {
      const el = await wd('POST', '/element', { using: 'css selector', value: s });
      const id = el['element-6066-11e4-a52e-4f735466cecf'];
      out.push({ role: String((await wd('GET', `/element/${id}/computedrole`)) || ''), name: String((await wd('GET', `/element/${id}/computedlabel`)) || '') });
    } catch (e) {
      out.push(null);
    }
  }
  return out;
}

// ---- comparing ----

const flatPW = (s) => s.split('\u00A0').map((c) => c.replace(/\r\n/g, '\n').replace(/[\u200b\u00ad]/g, '').replace(/\s\s*/g, ' ')).join('\u00A0').trim();
const flatWPT = (s) => s.replace(/[\t\n\f\r ]+/g, ' ').replace(/^ | $/g, '');
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
  const server = await serve(path.resolve(WPT));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const ownHome = !process.env.ARIASNAP_HOME;
  const home = process.env.ARIASNAP_HOME || fs.mkdtempSync(path.join(os.tmpdir(), 'accname-wpt-'));
  process.env.ARIASNAP_HOME = home;
  // ariasnap's sessions: the same Chromium binary (a path names it), and Firefox
  const sessions = [['accname-wpt', CHROMIUM], ...(FIREFOX ? [['accname-wpt-ff', 'firefox']] : [])];
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const cleanup = async () => {
    await browser.close().catch(() => {});
    server.close();
    for (const [session] of sessions) await runAriasnap(['session', 'close', '--session', session]);
    if (ownHome) fs.rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 }); // a closed session's browser may still be ending
  };
  process.once('SIGINT', () => cleanup().then(() => process.exit(130)));
  const all = [];
  const unread = [];
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('Accessibility.enable');
    for (const file of files) {
      const spec = specOf(file);
      if (!spec) {
        unread.push(`${file}: no verifyLabelsBySelector(...) nor ATTAcomm steps`);
        continue;
      }
      const url = `${origin}/${file}`;
      let cr;
      const tools = {};
      try {
        cr = await chromiumSide(page, cdp, url, spec);
        tools.chromium = cr.ax;
        for (const [session, b] of sessions) {
          const a = await ariasnapSide(url, cr.selectors, session, b);
          if (b === CHROMIUM) tools.ariasnap = a;
          else {
            tools.ariasnap_firefox = a;
            tools.firefox = await firefoxLabels(home, session, cr.selectors);
          }
        }
      } catch (e) {
        unread.push(`${file}: ${e.message.split('\n')[0]}`);
        if (!cr) continue;
      }
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
    await cleanup();
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
  // JSON strings, with invisible characters (U+00A0, U+200B, U+00AD...) written as escapes
  const q = (s) => (s === null || s === undefined ? '(none)'
    : JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const bad = all.filter((r) => r.pass.collapsed[ref] && !r.pass.collapsed[tool]);
  let s = `\n### ${title}: ${bad.length} cases\n`;
  for (const file of [...new Set(bad.map((r) => r.file))]) {
    s += `\n${file}\n`;
    for (const r of bad.filter((x) => x.file === file)) {
      const role = r.role[tool] ? ` [roles: ariasnap ${r.role[tool]}, ${ref} ${r.role[ref]}]` : '';
      s += `  ${r.property} of ${r.title || r.selector}: expected ${q(r.expected)}, got ${q(r[tool])}${role}\n`;
    }
  }
  return s;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
