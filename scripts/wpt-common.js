'use strict';
// The machinery the web-platform-tests benches share (accname-wpt.js, roles-wpt.js): one
// static server for the suite's folder, one Chromium that Playwright and a DevTools session
// read, ariasnap sessions (Chromium, and Firefox with --firefox), and, per page, each tool's
// answer for every case element.
//
// A page is measured once per tool, on the same DOM: measurePage() loads it in Playwright's
// Chromium, runs the bench's `enumerate` page function there (it finds the case elements, keeps
// them as window.__accEls and returns {cases, selectors}: a CSS selector unique to each element,
// made by UNIQUE), then asks, per element:
// - Chromium: Accessibility.getPartialAXTree of the element (CDP), its AX node's role, name and
//   description (an element without an AX node: null);
// - Playwright: its injected script's getAriaRole / getElementAccessibleNameText /
//   getElementAccessibleDescription (reached as window.__injectedScript, which playwright-core
//   exposes in its test mode, PWTEST_UNDER_TEST), and the element's own line in
//   locator.ariaSnapshotJSON() (the public API: the top node, when its role is the element's);
// - ariasnap: one `ariasnap run` batch per page in a kept session: goto, one queryAll with a
//   group per element (CSS selector, limit 1: role and name as the engine's getRole / getName
//   compute them, names capped at 200 characters), then a snapshot rooted at each element
//   (JSON, verbose): the element's own line, if it has one (the rooted snapshot's single top
//   node, with the role queryAll gave), with its role, name and description;
// - with --firefox, ariasnap again on Firefox, and Firefox's own role and label (WebDriver Get
//   Computed Role / Get Computed Label, asked through ariasnap's own WebDriver session).
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawn } = require('child_process');

/** The value after option `name` on the command line, or `dflt`. */
function opt(argv, name, dflt) {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
}

// ---- a static server for the suite's folder ----

const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.jpg': 'image/jpeg', '.png': 'image/png' };

/**
 * Serves `root` on 127.0.0.1 (a free port). `overrides`: URL path -> {type, body} served in
 * place of the file (the harness scripts a bench replaces); any other missing file is a 404.
 */
function serve(root, overrides) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const o = overrides && Object.prototype.hasOwnProperty.call(overrides, url.pathname) ? overrides[url.pathname] : null;
    if (o) {
      res.writeHead(200, { 'content-type': o.type }).end(o.body);
      return;
    }
    const p = path.normalize(decodeURIComponent(url.pathname));
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

// In the page: a CSS selector unique to an element (#id when the id is unique, else a
// :nth-child path from <html>), for the tools that load the page themselves.
const UNIQUE = `(el) => {
  if (el.id && document.querySelectorAll('#' + CSS.escape(el.id)).length === 1) return '#' + CSS.escape(el.id);
  const parts = [];
  for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
    let i = 1;
    for (let s = e.previousElementSibling; s; s = s.previousElementSibling) i++;
    parts.unshift('*:nth-child(' + i + ')');
  }
  return ['html', ...parts].join(' > ');
}`;

// In the page: Playwright's role, name and description of each case element.
const PLAYWRIGHT = `() => {
  const inj = window.__injectedScript;
  if (!inj) return null;
  return window.__accEls.map((el) => ({
    role: inj.utils.getAriaRole(el) || '',
    name: inj.utils.getElementAccessibleNameText(el, false),
    description: inj.utils.getElementAccessibleDescription(el, false).text,
  }));
}`;

// ---- the tools ----

function runAriasnap(bin, args, input) {
  return new Promise((resolve) => {
    const p = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (code) => resolve({ code, out, err }));
    p.stdin.end(input || '');
  });
}

/** One batch per page: goto, a queryAll group per element, a rooted snapshot per element. */
async function ariasnapSide(bin, url, selectors, session, browser) {
  const queries = {};
  selectors.forEach((s, i) => { queries[`e${i}`] = { selector: s, limit: 1 }; });
  const steps = [{ goto: url }];
  if (selectors.length) steps.push({ queryAll: { queries } });
  for (const s of selectors) steps.push({ snapshot: { root: s, output_format: 'json', verbose: true, maxNodes: 0 }, optional: true });
  const args = ['run', '-', '--session', session, '--browser', browser, '--format', 'json', '--inline-limit', '0'];
  const r = await runAriasnap(bin, args, JSON.stringify({ steps }));
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
      line: line ? { role: line.role, name: line.name || '', description: (line.props && line.props.description) || '' } : null,
    };
  });
}

/** Firefox's own role and label of each element, asked through ariasnap's WebDriver session. */
async function firefoxAnswers(home, session, selectors) {
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

/** Chromium's AX node of each element of window.__accEls: {role, ignored, name, description} or null. */
async function chromiumAnswers(cdp, count) {
  const ax = [];
  for (let i = 0; i < count; i++) {
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
  return ax;
}

/** Playwright's answers for each element of window.__accEls, with its own snapshot line. */
async function playwrightAnswers(page, selectors) {
  await page.$eval('body', () => 0); // makes playwright-core inject its script into the main world
  const pw = await page.evaluate(`(${PLAYWRIGHT})()`);
  for (let i = 0; pw && i < selectors.length; i++) {
    const top = await page.locator(selectors[i]).ariaSnapshotJSON({ timeout: 5000 }).catch(() => null);
    const n = Array.isArray(top) && top.length === 1 && top[0] && top[0].role === pw[i].role ? top[0] : null;
    pw[i].line = n ? { role: n.role, name: n.name || '' } : null;
  }
  return pw;
}

// ---- one bench run ----

/**
 * Starts what a run needs: the server (root, overrides), Playwright's Chromium with a DevTools
 * session, ariasnap's home and sessions. opts: {root, overrides, bin, bench, chromium, firefox,
 * name}. Returns {origin, page, cdp, home, sessions, close()}; close() also runs on SIGINT.
 */
async function openBench(opts) {
  // test mode: playwright-core sets window.__injectedScript in the main world
  process.env.PWTEST_UNDER_TEST = '1';
  const { chromium } = require(path.join(opts.bench, 'node_modules', 'playwright-core'));
  const server = await serve(path.resolve(opts.root), opts.overrides);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const ownHome = !process.env.ARIASNAP_HOME;
  const home = process.env.ARIASNAP_HOME || fs.mkdtempSync(path.join(os.tmpdir(), `${opts.name}-`));
  process.env.ARIASNAP_HOME = home;
  // ariasnap's sessions: the same Chromium binary (a path names it), and Firefox
  const sessions = [[opts.name, opts.chromium], ...(opts.firefox ? [[`${opts.name}-ff`, 'firefox']] : [])];
  const browser = await chromium.launch({ executablePath: opts.chromium, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const close = async () => {
    await browser.close().catch(() => {});
    server.close();
    for (const [session] of sessions) await runAriasnap(opts.bin, ['session', 'close', '--session', session]);
    if (ownHome) fs.rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 });
  };
  process.once('SIGINT', () => close().then(() => process.exit(130)));
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('Accessibility.enable');
  return { origin, page, cdp, home, sessions, bin: opts.bin, chromium: opts.chromium, close };
}

/**
 * Every tool's answers on one page. `enumerate`: the source of a page function (arg, unique)
 * that sets window.__accEls and returns {cases, selectors}; it runs in Playwright's Chromium
 * after the load. Returns {cases, selectors, found (what `enumerate` returned), pw, tools:
 * {chromium, ariasnap, ariasnap_firefox?, firefox?}, error}: a tool that failed leaves its
 * column out and says so in `error`.
 */
async function measurePage(bench, url, enumerate, arg) {
  await bench.page.goto(url, { waitUntil: 'load' });
  const found = await bench.page.evaluate(`(${enumerate})(${JSON.stringify(arg === undefined ? null : arg)}, ${UNIQUE})`);
  const { cases, selectors } = found;
  const pw = await playwrightAnswers(bench.page, selectors);
  const tools = { chromium: await chromiumAnswers(bench.cdp, selectors.length) };
  let error = null;
  try {
    for (const [session, b] of bench.sessions) {
      const a = await ariasnapSide(bench.bin, url, selectors, session, b);
      if (b === bench.chromium) tools.ariasnap = a;
      else {
        tools.ariasnap_firefox = a;
        tools.firefox = await firefoxAnswers(bench.home, session, selectors);
      }
    }
  } catch (e) {
    error = e.message.split('\n')[0];
  }
  return { cases, selectors, found, pw, tools, error };
}

// ---- comparing names ----

// asFlatString (Playwright's roleUtils): runs of white space other than U+00A0 become one
// space, U+200B and U+00AD are dropped, then String.trim (which also strips U+00A0 at either end)
const flatPW = (s) => s.split('\u00A0').map((c) => c.replace(/\r\n/g, '\n').replace(/[\u200b\u00ad]/g, '').replace(/\s\s*/g, ' ')).join('\u00A0').trim();
// WPT's aria-utils.js: runs of ASCII white space become one space, one leading and one
// trailing space are removed
const flatWPT = (s) => s.replace(/[\t\n\f\r ]+/g, ' ').replace(/^ | $/g, '');

/** A string as a JSON string, with invisible characters (U+00A0, U+200B, U+00AD...) escaped. */
const quote = (s) => (s === null || s === undefined ? '(none)'
  : JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

module.exports = {
  opt, serve, UNIQUE, runAriasnap, ariasnapSide, firefoxAnswers, chromiumAnswers, playwrightAnswers,
  openBench, measurePage, flatPW, flatWPT, quote,
};
