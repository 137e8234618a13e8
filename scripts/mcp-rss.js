#!/usr/bin/env node
// The resident memory of `ariasnap mcp` (stdio) after a run of calls: it serves a small shop
// page on 127.0.0.1 (a free port), starts the server with a private ARIASNAP_HOME, speaks
// MCP's JSON-RPC to it over stdio (newline-delimited, no SDK needed), and makes N tool calls
// (navigate, snapshot, click, alternating), then reads VmRSS and VmHWM from /proc. The
// server's browser session is closed at the end.
//
//   node scripts/mcp-rss.js [--ariasnap target/release/ariasnap] [--calls 100] [--runs 1] [--page FILE]
//
// Prints one line per run: RSS after initialize and after the calls, and the peak.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawn, execFileSync } = require('child_process');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const bin = path.resolve(opt('--ariasnap', path.join(__dirname, '..', 'target', 'release', 'ariasnap')));
const calls = +opt('--calls', 100);
const runs = +opt('--runs', 1);
// --page FILE: serve that page instead of the small shop (its buttons are clicked when named
// "Add to cart", else its snapshots are taken)
const pageFile = opt('--page', null);

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><main><h1>Shop</h1><ul>${Array.from({ length: 60 }, (_, i) =>
  `<li><h2>Product ${i + 1}</h2><p>$${(i * 3 + 9).toFixed(2)}</p><button onclick="this.textContent='Added'">Add to cart</button></li>`).join('')}
</ul><p id="out"></p></main></body></html>`;

function kb(pid, key) {
  const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(s);
  return m ? +m[1] : 0;
}

function rpc(child) {
  let buf = '';
  const waiting = new Map();
  child.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line.trim()) continue;
      const msg = JSON.parse(line);
      if (msg.id !== undefined && waiting.has(msg.id)) {
        waiting.get(msg.id)(msg);
        waiting.delete(msg.id);
      }
    }
  });
  let next = 1;
  return {
    call(method, params) {
      const id = next++;
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    notify(method, params) {
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n');
    },
  };
}

async function once(url) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ariasnap-rss-'));
  const child = spawn(bin, ['mcp'], {
    env: { ...process.env, ARIASNAP_HOME: home, ARIASNAP_SESSION: 'rss' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const c = rpc(child);
  await c.call('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'mcp-rss', version: '1' },
  });
  c.notify('notifications/initialized', {});
  const start = kb(child.pid, 'VmRSS');
  const tool = async (name, a) => {
    const r = await c.call('tools/call', { name, arguments: a });
    if (r.error) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
    return r.result.content.map((x) => x.text || '').join('\n');
  };
  let snap = await tool('browser_navigate', { url });
  for (let i = 1; i < calls; i++) {
    if (i % 10 === 0) snap = await tool('browser_navigate', { url });
    else if (i % 2 === 0) snap = await tool('browser_snapshot', {});
    else {
      const refs = [...snap.matchAll(/button "Add to cart" \[ref=(s\d+e\d+)\]/g)].map((m) => m[1]);
      if (refs.length) await tool('browser_click', { ref: refs[i % refs.length] });
      else snap = await tool('browser_snapshot', {});
    }
  }
  const after = kb(child.pid, 'VmRSS');
  const peak = kb(child.pid, 'VmHWM');
  const anon = kb(child.pid, 'RssAnon');
  const file = kb(child.pid, 'RssFile');
  const threads = +/^Threads:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1];
  child.stdin.end();
  await new Promise((r) => child.on('exit', r));
  try { execFileSync(bin, ['session', 'close', 'rss'], { env: { ...process.env, ARIASNAP_HOME: home }, stdio: 'ignore' }); } catch (_) {}
  return { start, after, peak, anon, file, threads };
}

(async () => {
  const body = pageFile ? fs.readFileSync(pageFile) : PAGE;
  const server = http.createServer((_, res) => { res.setHeader('content-type', 'text/html'); res.end(body); });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  try {
    for (let k = 0; k < runs; k++) {
      const { start, after, peak, anon, file, threads } = await once(url);
      const mb = (k) => (k / 1024).toFixed(1);
      console.log(`mcp stdio: ${mb(start)} MB after initialize, ${mb(after)} MB after ${calls} calls (${mb(anon)} MB anonymous, ${mb(file)} MB file-backed; peak ${mb(peak)} MB; ${threads} threads)`);
    }
  } finally {
    server.close();
  }
})().catch((e) => { console.error(e); process.exit(1); });
