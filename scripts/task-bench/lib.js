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
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

function serve(dir = path.join(ROOT, 'fixtures')) {
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p.startsWith('/img/') || p === '/favicon.ico') {
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' });
      return res.end(PIXEL);
    }
    const file = path.join(dir, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
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
  const nameRe = name instanceof RegExp ? name.source : `${escapeRe(JSON.stringify(name).slice(1, -1))}[^"]*`;
  const re = new RegExp(`^\\s*- ${escapeRe(role)} "(?:${nameRe})"[^\\n]*?\\[ref=([a-z0-9]+)\\]`, 'm');
  const m = re.exec(text);
  if (m) return m[1];
  // ariasnap's search matches: {"ref":"s1e2","role":"textbox","name":"Promo code",...}
  const js = new RegExp(`"ref":"([a-z0-9]+)","role":"${escapeRe(role)}","name":"(?:${nameRe})"`);
  const j = js.exec(text);
  return j ? j[1] : null;
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
    });
    return text;
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
    if (!this.opts.keepTmp) fs.rmSync(this.spec.tmp, { recursive: true, force: true });
  }
}

module.exports = { serve, utf8, textOf, contentBytes, refOf, Agent, CHROMIUM_ARGS, ROOT };
