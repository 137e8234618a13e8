// The task bench's plumbing: a static server for the fixture pages, the two MCP servers
// spoken to by the official MCP SDK's client over stdio, byte counting, and reading refs
// out of reply text. No task logic here (tasks.js), no reporting (bench.js).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { createRequire } = require('module');

const ROOT = path.join(__dirname, '..', '..');

// ---- the fixture server: fixtures/ on 127.0.0.1, any free port. Product images and the
// favicon answer with a small SVG (a real shop's images load; a 404 per image would put
// console errors into both tools' replies for nothing).
const PIXEL = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><rect width="4" height="3" fill="#dde3e0"/></svg>';
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

/** Where scripts/setup.sh (and task-bench.sh) install the widget libraries the fixture pages
 * load from /vendor/ (docs/contributing.md#widget-libraries). */
function vendorDir() {
  if (process.env.ARIASNAP_VENDOR) return path.resolve(process.env.ARIASNAP_VENDOR, 'node_modules');
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'ariasnap', 'vendor', 'node_modules');
}

function serve(dir = path.join(ROOT, 'fixtures'), vendor = vendorDir()) {
  const server = http.createServer((req, res) => {
    let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p.startsWith('/img/') || p === '/favicon.ico') {
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' });
      return res.end(PIXEL);
    }
    let base = dir;
    if (p.startsWith('/vendor/')) {
      base = vendor;
      p = p.slice('/vendor'.length);
    }
    const file = path.join(base, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(base) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
  }));
}

// ---- bytes of what a client receives
const utf8 = (s) => Buffer.byteLength(s, 'utf8');

/** Text of a tool result: its text content blocks joined (what the model reads). */
function textOf(result) {
  return (result.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/** Bytes of a tool result's content: UTF-8 text, images and audio by their base64 length,
 * embedded resources by their text or blob. structuredContent is counted apart. */
function contentBytes(result) {
  let n = 0;
  for (const c of result.content || []) {
    if (c.type === 'text') n += utf8(c.text);
    else if (c.type === 'image' || c.type === 'audio') n += (c.data || '').length;
    else if (c.type === 'resource') n += utf8(c.resource.text || '') + (c.resource.blob || '').length;
    else n += utf8(JSON.stringify(c));
  }
  return n;
}

// ---- refs out of reply text. Both tools print `- role "name" ... [ref=X]`; Playwright's
// refs are e12 (f1e3 in frames), ariasnap's s1e12 (f1s1e3).
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The ref of the first line `- ROLE "NAME..."` in text (name: a string matched as a prefix
 * of the quoted name, or a RegExp matched against the quoted name), or null. */
function refOf(text, role, name) {
  // a leading icon glyph (arrows, shapes, dingbats, an icon font's private-use character) is
  // passed over, as an agent would: a name that carries one is still reported by the facts
  const nameRe = `${GLYPH}(?:${name instanceof RegExp ? name.source : `${escapeRe(JSON.stringify(name).slice(1, -1))}[^"]*`})`;
  const re = new RegExp(`^\\s*- ${escapeRe(role)} "(?:${nameRe})"[^\\n]*?\\[ref=([a-z0-9]+)\\]`, 'm');
  const m = re.exec(text);
  if (m) return m[1];
  // ariasnap's search controls: `  controls: button "Add to cart" [ref=s1e2], ...`
  const ctl = new RegExp(`^ {2}controls: (?:[^\\n]*?, )?${escapeRe(role)} "(?:${nameRe})" \\[ref=(${ARIASNAP_REF})\\]`, 'm');
  const c = ctl.exec(text);
  if (c) return c[1];
  // ariasnap's search matches: {"ref":"s1e2","role":"textbox","name":"Promo code",...}
  const js = new RegExp(`"ref":"([a-z0-9]+)","role":"${escapeRe(role)}","name":"(?:${nameRe})"`);
  const j = js.exec(text);
  if (j) return j[1];
  // ariasnap's changes summary: `Added region "Billing" (textbox "City" s3e24, ...)`
  const sum = new RegExp(`(?:^|[\\s(,;:])${escapeRe(role)} "(?:${nameRe})" (${ARIASNAP_REF})\\b`, 'm');
  const k = sum.exec(text);
  if (k) return k[1];
  return wordsRef(text, role, name);
}

/** ariasnap's nameless generics (docs/behaviour.md#what-a-user-can-click): no name, their
 * words shown as content (`- generic [clickable] [ref=s1e5]: Stove`, or the lines under a
 * `- generic [clickable] [ref=s1e5]:`), named after the ref in summaries (`generic s1e5
 * "Stove"`) and as `text` in search matches. The ref of the first one whose words start
 * with `name` (a RegExp: match them), or null. ariasnap refs only: Playwright's agent finds
 * its nameless elements with its own helpers. */
function wordsRef(text, role, name) {
  const starts = (w) => {
    const t = w.replace(/\s+/g, ' ').trim();
    return name instanceof RegExp ? name.test(t) : t.startsWith(name);
  };
  const js = new RegExp(`"ref":"(${ARIASNAP_REF})","role":"${escapeRe(role)}","name":"","text":("(?:[^"\\\\]|\\\\.)*")`, 'g');
  for (let m = js.exec(text); m; m = js.exec(text)) if (starts(JSON.parse(m[2]))) return m[1];
  const sum = new RegExp(`(?:^|[\\s(,;:])${escapeRe(role)} (${ARIASNAP_REF}) ("(?:[^"\\\\]|\\\\.)*")`, 'gm');
  for (let m = sum.exec(text); m; m = sum.exec(text)) if (starts(JSON.parse(m[2]))) return m[1];
  const lines = text.split('\n');
  const head = new RegExp(`^(\\s*)- ${escapeRe(role)}(?: \\[[^\\]]*\\])*? \\[ref=(${ARIASNAP_REF})\\](?: \\[[^\\]]*\\])*(:(?: (.*))?)?$`);
  for (let i = 0; i < lines.length; i++) {
    const m = head.exec(lines[i]);
    if (!m) continue;
    const parts = m[4] ? [m[4]] : [];
    for (let j = i + 1; j < lines.length && /^\s*/.exec(lines[j])[0].length > m[1].length; j++) {
      // a line's quoted name or its text after `: `
      const l = /^\s*- [a-z/]+(?: ("(?:[^"\\\\]|\\\\.)*"))?[^\n]*?(?:: (.*))?$/.exec(lines[j]);
      if (!l || lines[j].includes('- /url:')) continue;
      if (l[1]) parts.push(JSON.parse(l[1]));
      if (l[2]) parts.push(l[2]);
    }
    if (parts.length && starts(parts.join(' '))) return m[2];
  }
  return null;
}

const ARIASNAP_REF = '(?:f\\d+)?s\\d+e\\d+';
const GLYPH = '(?:[\\u2190-\\u2bff\\ue000-\\uf8ff]\\s*)?';

/** The ref of the innermost `- CONTAINER` line (default region) above the first line
 * `- ROLE "NAME..."` of a snapshot-shaped text (Playwright's snapshots and browser_find
 * matches print ancestors with their refs), or null. */
function containerRef(text, role, name, container = 'region') {
  const lines = text.split('\n');
  const nameRe = name instanceof RegExp ? name.source : `${escapeRe(JSON.stringify(name).slice(1, -1))}[^"]*`;
  const target = new RegExp(`^(\\s*)- ${escapeRe(role)} "(?:${nameRe})"`);
  const i = lines.findIndex((l) => target.test(l));
  if (i < 0) return null;
  let indent = target.exec(lines[i])[1].length;
  for (let j = i - 1; j >= 0; j--) {
    const m = /^(\s*)- (\S+)(.*)$/.exec(lines[j]);
    if (!m || m[1].length >= indent) continue;
    indent = m[1].length;
    const ref = /\[ref=([a-z0-9]+)\]/.exec(m[3]);
    if (m[2] === container && ref) return ref[1];
  }
  return null;
}

/** A regular expression for `ROLE "NAME"` in STATE, in either tool's notation: Playwright's
 * `- checkbox "Sprouts" [checked] [ref=e9]`, ariasnap's snapshot line
 * `- checkbox "Sprouts" [checked] [ref=s1e9]` and its summary `checkbox "Sprouts" s1e9: checked`.
 * The state must follow the name (not somewhere later in a one-line summary); `checked` does
 * not match `checked=mixed`. */
function stateRe(role, name, state) {
  const n = escapeRe(JSON.stringify(name).slice(1, -1));
  return new RegExp(`${escapeRe(role)} "${n}"(?: \\[(?!${state}\\b)[^\\]]*\\])*(?: ${ARIASNAP_REF})?:? \\[?${state}\\b(?!=)`);
}

/** A regular expression for a field NAME holding VALUE: Playwright's
 * `- textbox "City" [ref=e5]: Porto`, ariasnap's `textbox "City" s3e24: value "Porto"`. */
function valueRe(name, value) {
  // Playwright puts a field's value on a child line when the field has a placeholder:
  // `- textbox "Date" [ref=e5]:` / `  - /placeholder: mm/dd/yyyy` / `  - text: 05/20/2026`
  const n = escapeRe(JSON.stringify(name).slice(1, -1));
  return new RegExp(`"${n}"(?:[^"\\n]*|[^\\n]*(?:\\n\\s+- /[^\\n]*)*\\n\\s+- text: )"?${escapeRe(value)}`);
}

/** Whether a fact (a string: included; a RegExp: matched; {name, test}: test(text)) holds in text. */
function factIn(text, fact) {
  if (typeof fact === 'string') return text.includes(fact);
  if (fact instanceof RegExp) return fact.test(text);
  return !!fact.test(text);
}

/** How a fact is shown in results: the string, the RegExp's source, or its name. */
function factLabel(fact) {
  if (typeof fact === 'string') return fact;
  if (fact instanceof RegExp) return `/${fact.source}/`;
  return fact.name;
}

/** Which facts appear in which reply: [{fact, call}] with the 1-based call, or null. */
function factsInline(calls, facts) {
  return facts.map((fact) => {
    const i = calls.findIndex((c) => factIn(c.text, fact));
    return { fact: factLabel(fact), call: i < 0 ? null : i + 1 };
  });
}

/**
 * The command line of a task-bench script (bench.js, replay.js): the options both take
 * (--tasks, --ariasnap, --modules, --chromium, --out) over `defaults`, then each other option
 * offered to `own(o, k, v)`, which takes it (returning true) or not; `v()` reads its value.
 * `script` is named in the error for an option neither knows.
 */
function benchOptions(argv, defaults, own, script) {
  const o = {
    tasks: null,
    ariasnap: path.join(ROOT, 'target', 'release', 'ariasnap'),
    modules: process.env.TASK_BENCH_MODULES || path.join(process.env.HOME || '', '.cache', 'ariasnap', 'task-bench'),
    chromium: process.env.CHROMIUM || '/usr/bin/chromium',
    ariasnapArgs: [],
    ...defaults,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${k} needs a value`);
      return argv[++i];
    };
    if (k === '--tasks') o.tasks = v().split(',');
    else if (k === '--ariasnap') o.ariasnap = path.resolve(v());
    else if (k === '--modules') o.modules = path.resolve(v());
    else if (k === '--chromium') o.chromium = v();
    else if (k === '--out') o.out = path.resolve(v());
    else if (!own(o, k, v)) throw new Error(`unknown option ${k} (see the head of ${path.relative(process.cwd(), script)})`);
  }
  return o;
}

// ---- the widget oracle (not counted): which JSON `changes` entries of an ariasnap action are
// about elements outside the widget acted on. The widget is one or more CSS selectors; its
// contents come from uncounted `browser_snapshot` calls (root: the selector, JSON) before and
// after the action.

/** An index of a widget's snapshot trees: refs, role+name pairs, and each node's text (its
 * name and all text under it, spaces collapsed). */
function widgetIndex(trees) {
  const idx = { refs: new Set(), pairs: new Set(), nodes: [] };
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  const walk = (n) => {
    if (typeof n === 'string') return n;
    const parts = [n.name || ''];
    for (const c of n.children || []) parts.push(walk(c));
    const text = norm(parts.join(' '));
    if (n.role !== 'document') {
      if (n.ref) idx.refs.add(n.ref);
      idx.pairs.add(`${n.role}\u0000${n.name || ''}`);
      idx.nodes.push({ role: n.role, name: n.name || '', text });
    }
    return text;
  };
  for (const t of trees) if (t) walk(t);
  return idx;
}

/** Merges indexes (before and after an action). */
function mergeIndex(...xs) {
  const m = { refs: new Set(), pairs: new Set(), nodes: [] };
  for (const x of xs) {
    if (!x) continue;
    x.refs.forEach((r) => m.refs.add(r));
    x.pairs.forEach((p) => m.pairs.add(p));
    m.nodes.push(...x.nodes);
  }
  return m;
}

/** Whether one `changes` entry is about the widget: its ref is one of the widget's; or it has
 * no ref and its role and name are a widget node's (a nameless one also by its text, or by
 * its controls' refs). A changed name counts under its old or new name. */
function entryInside(e, idx) {
  if (e.ref) return idx.refs.has(e.ref);
  const names = [e.name || ''];
  if (e.field === 'name') names.push(e.from || '', e.to || '');
  const norm = (s) => String(s).replace(/\s+/g, ' ').replace(/(\.\.\.|\u2026)$/, '').trim();
  for (const name of names) {
    if (!idx.pairs.has(`${e.role}\u0000${name}`)) continue;
    if (name) return true;
    if (e.text) {
      // the entry's text leaves out its controls' names: every word of it in a node's text
      const words = norm(e.text).split(' ');
      if (idx.nodes.some((n) => n.role === e.role && n.name === '' && words.every((w) => n.text.split(' ').includes(w)))) return true;
    } else if (e.controls && e.controls.length) {
      if (e.controls.every((c) => c.ref && idx.refs.has(c.ref))) return true;
    } else return true; // a bare nameless entry of a role the widget has: no way to tell, counted inside
  }
  return false;
}

/** The entries of a `changes` object (added, removed, changed) outside the widget. */
function outsideEntries(changes, idx) {
  if (!changes) return [];
  const out = [];
  for (const kind of ['added', 'removed', 'changed']) {
    for (const e of changes[kind] || []) {
      if (!entryInside(e, idx)) {
        out.push({ kind, role: e.role, name: e.name, ...(e.ref ? { ref: e.ref } : {}), ...(e.field ? { field: e.field } : {}) });
      }
    }
  }
  return out;
}

/** Which of the words naming a change (strings or RegExps) are missing from a reply text. */
function missingWords(text, words) {
  return (words || []).filter((w) => !(w instanceof RegExp ? w.test(text) : text.includes(w))).map(factLabel);
}

// ---- the two MCP servers
function sdk(modules) {
  const req = createRequire(path.join(modules, 'package.json'));
  const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = req('@modelcontextprotocol/sdk/client/stdio.js');
  return { Client, StdioClientTransport, req };
}

// Chromium hangs on this network without these (the same flags ariasnap launches with).
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** How to start each server: {command, args, env, cleanup}. */
function serverSpec(tool, opts) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `task-bench-${tool}-`));
  if (tool === 'playwright') {
    const cli = path.join(opts.modules, 'node_modules', '@playwright', 'mcp', 'cli.js');
    const config = {
      browser: {
        browserName: 'chromium',
        userDataDir: path.join(tmp, 'profile'),
        launchOptions: { executablePath: opts.chromium, headless: true, chromiumSandbox: false, args: CHROMIUM_ARGS },
      },
      outputDir: path.join(tmp, 'output'),
    };
    fs.writeFileSync(path.join(tmp, 'config.json'), JSON.stringify(config, null, 2));
    return {
      command: process.execPath,
      args: [cli, '--config', path.join(tmp, 'config.json')],
      env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: path.join(tmp, 'no-downloads') },
      cwd: tmp,
      tmp,
    };
  }
  const session = `taskbench-${process.pid}-${opts.task}`;
  const env = { ...process.env, ARIASNAP_HOME: path.join(tmp, 'home'), RUST_LOG: 'warn' };
  delete env.ARIASNAP_SESSION;
  return {
    command: opts.ariasnap,
    args: ['mcp', '--session', session, '--browser', opts.chromium, ...(opts.ariasnapArgs || [])],
    env,
    cwd: tmp,
    tmp,
    session,
  };
}

/** A measured MCP conversation with one server: every call's reply is kept with its bytes. */
class Agent {
  constructor(tool, opts) {
    this.tool = tool;
    this.opts = opts;
    this.calls = [];
  }

  async start() {
    const { Client, StdioClientTransport } = sdk(this.opts.modules);
    this.spec = serverSpec(this.tool, this.opts);
    this.stderr = fs.openSync(path.join(this.spec.tmp, 'server.log'), 'a');
    this.transport = new StdioClientTransport({
      command: this.spec.command, args: this.spec.args, env: this.spec.env, cwd: this.spec.cwd, stderr: this.stderr,
    });
    this.client = new Client({ name: 'ariasnap-task-bench', version: '1.0.0' });
    await this.client.connect(this.transport);
    const list = await this.client.listTools();
    this.tools = list.tools.map((t) => t.name);
    this.toolsListBytes = utf8(JSON.stringify(list));
  }

  /** Calls a tool; returns its text. Failing tools are recorded, not thrown. */
  async call(name, args = {}) {
    const t0 = Date.now();
    let result;
    try {
      result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 90000 });
    } catch (e) {
      result = { content: [{ type: 'text', text: `client error: ${e.message}` }], isError: true };
    }
    const text = textOf(result);
    this.calls.push({
      tool: name,
      args,
      ms: Date.now() - t0,
      bytes: contentBytes(result),
      structuredBytes: result.structuredContent ? utf8(JSON.stringify(result.structuredContent)) : 0,
      isError: !!result.isError,
      text,
      structured: result.structuredContent || null,
    });
    return text;
  }

  /** An action the bench checks (ariasnap only; a plain call for Playwright): check.named,
   * the words (strings or RegExps) that name the change that matters, must be in the reply's
   * text (MCP) and in its changes.summary (what the CLI prints, read from structuredContent);
   * check.widget (CSS selectors, default the task's) scopes the oracle that finds the JSON
   * `changes` entries outside the widget. The oracle's snapshots are not counted. */
  async act(name, args, check = {}) {
    if (this.tool !== 'ariasnap') return this.call(name, args);
    const widget = check.widget || this.opts.widget;
    const oracle = widget && !this.opts.noOracle;
    const before = oracle ? await this.widgetIndex(widget) : null;
    const text = await this.call(name, args);
    const rec = this.calls[this.calls.length - 1];
    const changes = rec.structured && rec.structured.changes;
    rec.check = {
      named: check.named || [],
      missing: missingWords(text, check.named),
      cliMissing: changes ? missingWords(changes.summary || '', check.named) : null,
      changes: changes || null,
    };
    if (oracle) {
      const after = await this.widgetIndex(widget);
      rec.check.outside = outsideEntries(changes, mergeIndex(before, after));
    }
    return text;
  }

  /** The widget's index now: an uncounted JSON snapshot of each selector (none when it matches
   * nothing or is hidden). */
  async widgetIndex(selectors) {
    const trees = [];
    for (const root of selectors) {
      let r;
      try {
        r = await this.client.callTool({ name: 'browser_snapshot', arguments: { root, format: 'json', budget: 1000000, noCache: true } }, undefined, { timeout: 90000 });
      } catch (_) { continue; }
      const step = r.structuredContent && r.structuredContent.steps && r.structuredContent.steps[0];
      if (!r.isError && step && step.output) trees.push(step.output);
    }
    return widgetIndex(trees);
  }

  /** Every reply's text so far. */
  replies() { return this.calls.map((c) => c.text); }

  async stop() {
    try { await this.client.close(); } catch (_) { /* already gone */ }
    if (this.spec.session) {
      // the named session outlives the server: close it (its browser and driver)
      const { spawnSync } = require('child_process');
      spawnSync(this.spec.command, ['session', 'close', this.spec.session], { env: this.spec.env, stdio: 'ignore', timeout: 30000 });
    }
    try { fs.closeSync(this.stderr); } catch (_) { /* closed */ }
    if (!this.opts.keepTmp) fs.rmSync(this.spec.tmp, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 });
  }
}

module.exports = {
  serve, utf8, textOf, contentBytes, refOf, containerRef, stateRe, valueRe, factIn, factLabel, factsInline, benchOptions,
  widgetIndex, mergeIndex, entryInside, outsideEntries, missingWords, Agent, CHROMIUM_ARGS, ROOT,
};
