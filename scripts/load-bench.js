#!/usr/bin/env node
// The load bench: many agents at once on one MCP server over HTTP, `ariasnap mcp --http`
// against Playwright MCP (`--port`, `--isolated`: one shared browser, a context per client),
// both started here on 127.0.0.1, spoken to by the official MCP SDK's streamable HTTP client.
//
// At each level N (--levels, default 4,8,16), N clients connect at once, each loads the page
// (warm-up, untimed), then all run --iterations loops of the task bench's kind on the signup
// form of fixtures/html/tasks/: navigate, snapshot, fill "First name", pick a country, click
// "Create account", and check that the reply (or, when it does not show it, a snapshot taken
// as an agent would) shows the form's error summary. Levels alternate which server goes
// first. Per server and level: calls/s, loops/s, p50/p95 call latency, errors, the server's
// RSS (idle, peak), the PSS of every process the server started (browsers, renderers,
// drivers, crash handlers: however many browsers there are), and memory added per agent.
// Writes --out/load-<date>.json and .md (default bench/results/) and prints the table.
//
//   node scripts/load-bench.js [--levels 4,8,16] [--iterations 5] [--runs 1] [--ariasnap BIN]
//     [--modules DIR] [--chromium PATH] [--out DIR] [--servers ariasnap,playwright]
//     [--call-timeout MS] [--ariasnap-arg ARG]... [--keep-tmp]
//
// --modules: where node_modules holds @modelcontextprotocol/sdk and @playwright/mcp
// (default ~/.cache/ariasnap/task-bench, as scripts/task-bench.sh installs them). No browser
// is downloaded: both servers run --chromium (default /usr/bin/chromium). Linux only (/proc).
'use strict';
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { createRequire } = require('module');
const { performance } = require('perf_hooks');
const { serve, refOf, textOf, CHROMIUM_ARGS, ROOT } = require('./task-bench/lib');

const PAGE = 'html/tasks/signup.html';
const COUNTRY = 'Canada';
// the form's summary when only the first name is given (last name, email, password, terms)
const EXPECT = 'There are 4 problems';
const SERVERS = ['ariasnap', 'playwright'];
const LABEL = { ariasnap: 'ariasnap', playwright: 'Playwright MCP' };
const IDLE_RSS_GOAL_MB = 20;
const MB = 1024; // /proc reports kB; tables show MB (1024 kB)

function options(argv) {
  const o = {
    levels: [4, 8, 16],
    iterations: 5,
    runs: 1,
    ariasnap: path.join(ROOT, 'target', 'release', 'ariasnap'),
    modules: process.env.TASK_BENCH_MODULES || path.join(os.homedir(), '.cache', 'ariasnap', 'task-bench'),
    chromium: process.env.CHROMIUM || '/usr/bin/chromium',
    out: path.join(ROOT, 'bench', 'results'),
    servers: SERVERS,
    callTimeout: 30000,
    ariasnapArgs: [],
    keepTmp: false,
  };
  const int = (k, s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${k}: a positive integer, not ${s}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${k} needs a value`);
      return argv[++i];
    };
    if (k === '--levels') o.levels = v().split(',').map((s) => int(k, s));
    else if (k === '--iterations') o.iterations = int(k, v());
    else if (k === '--runs') o.runs = int(k, v());
    else if (k === '--ariasnap') o.ariasnap = path.resolve(v());
    else if (k === '--modules') o.modules = path.resolve(v());
    else if (k === '--chromium') o.chromium = v();
    else if (k === '--out') o.out = path.resolve(v());
    else if (k === '--servers') o.servers = v().split(',');
    else if (k === '--call-timeout') o.callTimeout = int(k, v());
    else if (k === '--ariasnap-arg') o.ariasnapArgs.push(v());
    else if (k === '--keep-tmp') o.keepTmp = true;
    else throw new Error(`unknown option ${k} (see the head of ${path.relative(process.cwd(), __filename)})`);
  }
  for (const s of o.servers) if (!SERVERS.includes(s)) throw new Error(`unknown server ${s}: ariasnap or playwright`);
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const readText = (f) => {
  try { return fs.readFileSync(f, 'utf8'); } catch (_) { return ''; }
};
const firstLine = (s) => String(s).split('\n').find((l) => l.trim()) || '';
const message = (e) => firstLine(e && e.message ? e.message : e).slice(0, 300);

/** Settles with p, or rejects after ms. */
function within(ms, p, what) {
  let t;
  const timeout = new Promise((_, rej) => { t = setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms); });
  return Promise.race([p, timeout]).finally(() => clearTimeout(t));
}

// ---- processes and memory, from /proc

/** Every live process: pid -> {ppid, state, start} (start: field 22 of stat, to tell a
 * process from a later one with the same pid). */
function processes() {
  const out = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const stat = readText(`/proc/${d}/stat`);
    if (!stat) continue;
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(d), { state: f[0], ppid: Number(f[1]), start: f[19] });
  }
  return out;
}

/** The live processes a server started: its descendants, and every process whose
 * environment carries the server's marker with their descendants (a driver in its own
 * process group is still a descendant, but a browser's crash handler double-forks away).
 * Zombies hold no memory and are left out. Each one found is remembered for the cleanup. */
function started(server) {
  const procs = processes();
  const kids = new Map();
  for (const [pid, p] of procs) {
    if (!kids.has(p.ppid)) kids.set(p.ppid, []);
    kids.get(p.ppid).push(pid);
  }
  const stack = [server.pid];
  for (const pid of procs.keys()) {
    if (pid !== server.pid && pid !== process.pid && readText(`/proc/${pid}/environ`).split('\0').includes(server.marker)) stack.push(pid);
  }
  const seen = new Set();
  while (stack.length) {
    const pid = stack.pop();
    if (seen.has(pid)) continue;
    seen.add(pid);
    stack.push(...(kids.get(pid) || []));
  }
  seen.delete(server.pid);
  const out = [...seen].filter((pid) => procs.has(pid) && procs.get(pid).state !== 'Z');
  for (const pid of out) server.seen.set(pid, procs.get(pid).start);
  return out;
}

/** What a started process is: driver, crashpad, browser (Chromium's main process), a
 * Chromium --type (renderer, zygote, gpu-process, utility), or its executable's name. */
function kind(pid) {
  // Chromium's children rewrite their command line into one space-separated string
  const cmd = readText(`/proc/${pid}/cmdline`).replace(/\0/g, ' ').trim();
  const exe = path.basename(cmd.split(' ')[0] || readText(`/proc/${pid}/comm`).trim());
  if (/chromedriver/.test(exe)) return 'driver';
  if (/crashpad/.test(exe)) return 'crashpad';
  if (/chrom/.test(exe)) {
    const t = /(?:^| )--type=(\S+)/.exec(cmd);
    return t ? t[1] : 'browser';
  }
  return exe || 'unknown';
}

const rssKb = (pid) => Number((/^VmRSS:\s+(\d+) kB/m.exec(readText(`/proc/${pid}/status`)) || [])[1] || 0);
const pssKb = (pid) => Number((/^Pss:\s+(\d+) kB/m.exec(readText(`/proc/${pid}/smaps_rollup`)) || [])[1] || 0);

/** The server's RSS and the PSS of everything it started, by kind. */
function sample(server) {
  const byKind = {};
  let pss = 0;
  for (const pid of started(server)) {
    const k = kind(pid);
    const v = pssKb(pid);
    pss += v;
    byKind[k] = byKind[k] || { count: 0, pssKb: 0 };
    byKind[k].count++;
    byKind[k].pssKb += v;
  }
  const rss = rssKb(server.pid);
  const procs = Object.values(byKind).reduce((s, x) => s + x.count, 0);
  return { serverRssKb: rss, browserPssKb: pss, totalKb: rss + pss, procs, browsers: byKind.browser ? byKind.browser.count : 0, byKind };
}

// ---- the servers

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const canConnect = (port) => new Promise((resolve) => {
  const c = net.connect(port, '127.0.0.1');
  c.once('connect', () => { c.destroy(); resolve(true); });
  c.once('error', () => resolve(false));
});

/** The command of a server, its environment (with a marker every process it starts
 * inherits), in its own temp dir. */
function serverCommand(name, o, dir, port, env) {
  if (name === 'ariasnap') {
    for (const k of Object.keys(env)) if (k.startsWith('ARIASNAP_')) delete env[k];
    env.ARIASNAP_HOME = path.join(dir, 'home'); // private sessions, profiles and records
    env.RUST_LOG = env.RUST_LOG || 'warn';
    // room for the largest level: --max-agents is a total on binaries with a browser per
    // agent, a per-browser count on those that share one
    return [o.ariasnap, ['mcp', '--http', `127.0.0.1:${port}`, '--browser', o.chromium,
      '--max-agents', String(Math.max(...o.levels)), ...o.ariasnapArgs]];
  }
  // Chromium's flags have no command-line option: a config file (the rest is on the command line)
  const config = path.join(dir, 'config.json');
  fs.writeFileSync(config, JSON.stringify({
    browser: { browserName: 'chromium', launchOptions: { args: CHROMIUM_ARGS } },
  }, null, 2));
  env.TMPDIR = dir; // its browser profiles and artifacts
  env.PLAYWRIGHT_BROWSERS_PATH = path.join(dir, 'no-downloads');
  const cli = path.join(o.modules, 'node_modules', '@playwright', 'mcp', 'cli.js');
  return [process.execPath, [cli, '--config', config, '--isolated', '--headless', '--no-sandbox',
    '--executable-path', o.chromium, '--host', '127.0.0.1', '--port', String(port),
    // it accepts only the Host it prints (localhost:PORT) unless told
    '--allowed-hosts', `127.0.0.1:${port}`, '--output-dir', path.join(dir, 'output')]];
}

/** Starts a server in its own process group and waits until it listens. */
async function startServer(name, o, runDir) {
  const dir = fs.mkdtempSync(path.join(runDir, `${name}-`));
  const port = await freePort();
  const env = { ...process.env, LOAD_BENCH_SERVER: `${process.pid}-${name}` };
  const [cmd, args] = serverCommand(name, o, dir, port, env);
  const logFile = path.join(dir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, { env, cwd: dir, detached: true, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const server = {
    name, child, pid: child.pid, port, dir, logFile, marker: `LOAD_BENCH_SERVER=${env.LOAD_BENCH_SERVER}`,
    url: `http://127.0.0.1:${port}/mcp`, base: `http://127.0.0.1:${port}`, command: [cmd, ...args],
    seen: new Map(), exited: false,
  };
  child.on('exit', (code, sig) => { server.exited = true; server.exit = code === null ? sig : code; });
  live.push(server);
  const deadline = Date.now() + 30000;
  while (!(await canConnect(port))) {
    if (server.exited || Date.now() > deadline) {
      const tail = readText(logFile).trim().split('\n').slice(-3).join(' | ');
      throw new Error(`${name} did not start (${server.exited ? `exit ${server.exit}` : 'not listening after 30 s'}): ${tail}`);
    }
    await sleep(100);
  }
  if (name === 'ariasnap') {
    const r = await fetch(`${server.base}/healthz`);
    if (!r.ok) throw new Error(`ariasnap: /healthz answered ${r.status}`);
  }
  return server;
}

/** ariasnap's /metrics as {name: value}, or null. */
async function metrics(server) {
  if (server.name !== 'ariasnap') return null;
  try {
    const t = await within(5000, fetch(`${server.base}/metrics`).then((r) => r.text()), 'metrics');
    const m = {};
    for (const l of t.split('\n')) if (l && !l.startsWith('#')) m[l.split(' ')[0]] = Number(l.split(' ')[1]);
    return m;
  } catch (_) {
    return null;
  }
}

/** Waits until a level's agents are gone: no agent left (ariasnap's /metrics), and the
 * processes it started are gone or, when some stay (a browser kept for later agents), no
 * longer change for 2 s. At most 30 s. */
async function settle(server) {
  const t0 = Date.now();
  let last = null;
  let since = Date.now();
  for (;;) {
    const m = await metrics(server);
    const agentsGone = !m || m.ariasnap_agents === 0;
    const procs = started(server).sort().join(',');
    if (procs !== last) { last = procs; since = Date.now(); }
    const quiet = agentsGone && (procs === '' || Date.now() - since >= 2000);
    if (quiet || Date.now() - t0 > 30000) {
      return { ms: Date.now() - t0, clean: quiet, processesLeft: procs ? procs.split(',').length : 0, agents: m ? m.ariasnap_agents : null };
    }
    await sleep(200);
  }
}

const live = []; // servers started, for the cleanup
const tmpDirs = []; // removed on Ctrl-C too

/** The pids a server started that are still the same processes. */
function stillAlive(server) {
  const procs = processes();
  return [...server.seen].filter(([pid, start]) => procs.has(pid) && procs.get(pid).start === start && procs.get(pid).state !== 'Z').map(([pid]) => pid);
}

const kill = (pid, sig) => {
  try { process.kill(pid, sig); } catch (_) { /* gone */ }
};

/** Stops a server (SIGTERM to its process group: both close their browsers), then kills
 * whatever it started that is still there, by pid. */
async function stopServer(server) {
  started(server);
  if (!server.exited) kill(-server.pid, 'SIGTERM');
  for (let t = Date.now(); !server.exited && Date.now() - t < 20000;) await sleep(100);
  if (!server.exited) kill(-server.pid, 'SIGKILL');
  for (let t = Date.now(); stillAlive(server).length && Date.now() - t < 5000;) await sleep(100);
  for (const pid of stillAlive(server)) kill(pid, 'SIGKILL');
}

/** The last resort on exit: synchronous kills of everything still running. */
function killAllNow() {
  for (const s of live) {
    if (!s.exited) kill(-s.pid, 'SIGKILL');
    for (const pid of stillAlive(s)) kill(pid, 'SIGKILL');
  }
}

// ---- the agents

function sdk(modules) {
  const req = createRequire(path.join(modules, 'package.json'));
  return {
    Client: req('@modelcontextprotocol/sdk/client/index.js').Client,
    Transport: req('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport,
  };
}

/** One MCP client: its calls' latencies while timed. A tool result with isError throws. */
class Agent {
  constructor(server, i, o, lib) {
    Object.assign(this, { server, i, o, lib, calls: [], timed: false, loops: 0 });
  }

  async connect() {
    this.transport = new this.lib.Transport(new URL(this.server.url));
    this.client = new this.lib.Client({ name: `load-bench-${this.i}`, version: '1.0.0' });
    await this.client.connect(this.transport, { timeout: this.o.callTimeout });
  }

  async call(tool, args) {
    if (!this.client) throw new Error('not connected');
    const t0 = performance.now();
    let r;
    let failed = true;
    try {
      r = await this.client.callTool({ name: tool, arguments: args }, undefined, { timeout: this.o.callTimeout });
      failed = !!r.isError;
    } finally {
      if (this.timed) this.calls.push({ tool, ms: performance.now() - t0, failed });
    }
    const text = textOf(r);
    if (r.isError) throw new Error(`${tool}: error result: ${firstLine(text).slice(0, 200)}`);
    return text;
  }

  /** Ends the MCP session (DELETE) and closes the client. */
  async close() {
    if (!this.client) return;
    try { await within(10000, this.transport.terminateSession(), 'DELETE'); } catch (_) { /* counted by settle */ }
    try { await within(10000, this.client.close(), 'close'); } catch (_) { /* gone */ }
  }
}

const need = (ref, what) => {
  if (!ref) throw new Error(`no ref for ${what} in the snapshot`);
  return ref;
};

/** One loop with each server's own tools; returns the text that should show the change. */
const LOOPS = {
  async ariasnap(a, url, name) {
    await a.call('browser_navigate', { url });
    const snap = await a.call('browser_snapshot', {});
    const field = need(refOf(snap, 'textbox', 'First name'), 'textbox "First name"');
    const select = need(refOf(snap, 'combobox', 'Country or region'), 'combobox "Country or region"');
    const button = need(refOf(snap, 'button', 'Create account'), 'button "Create account"');
    await a.call('browser_set', { ref: field, value: name });
    await a.call('browser_set', { ref: select, value: COUNTRY });
    const reply = await a.call('browser_click', { ref: button });
    return reply.includes(EXPECT) ? reply : a.call('browser_snapshot', {});
  },
  async playwright(a, url, name) {
    await a.call('browser_navigate', { url });
    const snap = await a.call('browser_snapshot', {});
    const field = need(refOf(snap, 'textbox', 'First name'), 'textbox "First name"');
    const select = need(refOf(snap, 'combobox', 'Country or region'), 'combobox "Country or region"');
    const button = need(refOf(snap, 'button', 'Create account'), 'button "Create account"');
    await a.call('browser_type', { element: 'First name', target: field, text: name });
    await a.call('browser_select_option', { element: 'Country or region', target: select, values: [COUNTRY] });
    // its action replies link to a snapshot file: an agent looks again
    const reply = await a.call('browser_click', { element: 'Create account', target: button });
    return reply.includes(EXPECT) ? reply : a.call('browser_snapshot', {});
  },
};

/** A meeting point of n clients: arrive() each; `all` resolves when every one has. */
function barrier(n) {
  let count = 0;
  let done;
  const all = new Promise((r) => { done = r; });
  if (n === 0) done();
  return { all, arrive: () => { if (++count === n) done(); } };
}

function gate() {
  let open;
  const opened = new Promise((r) => { open = r; });
  return { opened, open };
}

const pct = (xs, p) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(p * s.length) - 1)];
};

/** One level on one server: N clients connect and load the page (memory sampled when all
 * have), run their loops (timed; memory sampled again before they leave), then end their
 * sessions; the server is left idle again. */
async function runLevel(server, n, o, url, lib) {
  const before = await settle(server);
  const idle = sample(server);
  const errors = [];
  const firstPage = [];
  const agents = Array.from({ length: n }, (_, i) => new Agent(server, i, o, lib));
  let rssPeak = idle.serverRssKb;
  const ticker = setInterval(() => { rssPeak = Math.max(rssPeak, rssKb(server.pid)); }, 250);
  const loaded = barrier(n);
  const finished = barrier(n);
  const go = gate();
  const leave = gate();
  const runs = agents.map(async (a) => {
    try {
      const t0 = performance.now();
      await a.connect();
      await a.call('browser_navigate', { url });
      firstPage.push(performance.now() - t0);
    } catch (e) {
      errors.push(`warm-up: ${message(e)}`);
    }
    loaded.arrive();
    await go.opened;
    a.timed = true;
    for (let k = 0; k < o.iterations; k++) {
      try {
        const reply = await LOOPS[server.name](a, url, `Ada ${a.i}-${k}`);
        if (!reply.includes(EXPECT)) throw new Error(`check: the reply after the click does not show "${EXPECT}"`);
        a.loops++;
      } catch (e) {
        errors.push(message(e));
      }
    }
    a.timed = false;
    finished.arrive();
    await leave.opened;
    await a.close();
  });
  let atLoad;
  let atEnd;
  let wall;
  try {
    await loaded.all;
    atLoad = sample(server);
    const t0 = performance.now();
    go.open();
    await finished.all;
    wall = (performance.now() - t0) / 1000;
    atEnd = sample(server);
  } finally {
    go.open();
    leave.open();
    await Promise.all(runs);
    clearInterval(ticker);
  }
  const after = await settle(server);
  const calls = agents.flatMap((a) => a.calls);
  const ms = calls.map((c) => c.ms);
  const peak = atEnd.totalKb > atLoad.totalKb ? atEnd : atLoad;
  const byTool = {};
  for (const c of calls) (byTool[c.tool] = byTool[c.tool] || []).push(c.ms);
  const round = (x) => (x === null ? null : Math.round(x));
  return {
    level: n,
    server: server.name,
    calls: calls.length,
    loops: agents.reduce((s, a) => s + a.loops, 0),
    wallSeconds: wall,
    callsPerSecond: calls.length / wall,
    loopsPerSecond: agents.reduce((s, a) => s + a.loops, 0) / wall,
    p50ms: round(pct(ms, 0.5)),
    p95ms: round(pct(ms, 0.95)),
    maxMs: round(pct(ms, 1)),
    byTool: Object.fromEntries(Object.entries(byTool).map(([t, xs]) => [t, { calls: xs.length, p50ms: round(pct(xs, 0.5)), p95ms: round(pct(xs, 0.95)) }])),
    firstPageP50ms: round(pct(firstPage, 0.5)),
    firstPageMaxMs: round(pct(firstPage, 1)),
    errors: errors.length,
    errorMessages: errors,
    idle,
    atLoad,
    atEnd,
    serverRssPeakKb: Math.max(rssPeak, atLoad.serverRssKb, atEnd.serverRssKb),
    browserPssPeakKb: Math.max(atLoad.browserPssKb, atEnd.browserPssKb),
    peak,
    addedPerAgentKb: (peak.totalKb - idle.totalKb) / n,
    settleBefore: before,
    settleAfter: after,
  };
}

// ---- the report

const mb = (kb) => (kb / MB).toFixed(1);

function machine(o) {
  const out = (cmd, args) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 20000 });
    return r.status === 0 ? firstLine(r.stdout).trim() : null;
  };
  const version = (pkg) => {
    try { return JSON.parse(fs.readFileSync(path.join(o.modules, 'node_modules', pkg, 'package.json'), 'utf8')).version; } catch (_) { return null; }
  };
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpu: cpus.length ? cpus[0].model : null,
    memoryMb: Math.round(os.totalmem() / 1024 / 1024),
    kernel: `${os.type()} ${os.release()}`,
    chromium: out(o.chromium, ['--version']),
    chromedriver: out('chromedriver', ['--version']),
    node: process.version,
    ariasnap: out(o.ariasnap, ['--version']),
    ariasnapBinary: o.ariasnap,
    ariasnapBuilt: fs.existsSync(o.ariasnap) ? fs.statSync(o.ariasnap).mtime.toISOString() : null,
    playwrightMcp: version('@playwright/mcp'),
    playwrightCore: version('playwright-core'),
    mcpSdk: version('@modelcontextprotocol/sdk'),
    commit: out('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']),
  };
}

const quote = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/** Goals per level: errors, memory per added agent and p95 against Playwright MCP's. */
function goals(results, idleAtStart, levels) {
  const pass = (ok) => (ok ? 'PASS' : 'FAIL');
  // per level and server, the median of each figure over the runs
  const median = (xs) => {
    const v = xs.filter((x) => x !== null && x !== undefined).sort((x, y) => x - y);
    if (!v.length) return null;
    const m = Math.floor(v.length / 2);
    return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
  };
  const of = (n, server) => {
    const rs = results.filter((r) => r.level === n && r.server === server);
    if (!rs.length) return null;
    return {
      runs: rs.length,
      p95ms: median(rs.map((r) => r.p95ms)),
      addedPerAgentKb: median(rs.map((r) => r.addedPerAgentKb)),
      callsPerSecond: median(rs.map((r) => r.callsPerSecond)),
      loopsPerSecond: median(rs.map((r) => r.loopsPerSecond)),
    };
  };
  const rows = levels.map((n) => {
    const a = of(n, 'ariasnap');
    const p = of(n, 'playwright');
    const both = a && p;
    return {
      level: n,
      errorsZero: results.filter((r) => r.level === n).every((r) => r.errors === 0),
      memoryPerAgent: both ? a.addedPerAgentKb <= p.addedPerAgentKb : null,
      p95: both && a.p95ms !== null && p.p95ms !== null ? a.p95ms <= p.p95ms : null,
      medians: { ariasnap: a, playwright: p },
      cells: both ? {
        memory: `${pass(a.addedPerAgentKb <= p.addedPerAgentKb)} (${mb(a.addedPerAgentKb)} vs ${mb(p.addedPerAgentKb)})`,
        p95: `${pass(a.p95ms <= p.p95ms)} (${a.p95ms} vs ${p.p95ms} ms)`,
      } : { memory: 'n/a', p95: 'n/a' },
    };
  });
  const idle = idleAtStart.ariasnap ? idleAtStart.ariasnap.serverRssKb : null;
  return { rows, idleRss: idle === null ? null : idle <= IDLE_RSS_GOAL_MB * MB, idleRssKb: idle };
}

function markdown(report) {
  const { results, machine: m, goals: g, idleAtStart } = report;
  const lines = [
    `# Load bench, ${report.date}`,
    '',
    `Command: \`${report.command}\``,
    '',
    `Machine: ${m.cores} cores (${m.cpu}), ${m.memoryMb} MB, ${m.kernel}; ${m.chromium}; ${m.chromedriver || 'no chromedriver'}; Node ${m.node}`,
    `ariasnap: ${m.ariasnap} (${m.ariasnapBinary}, built ${m.ariasnapBuilt}; tree at commit ${m.commit}); Playwright MCP ${m.playwrightMcp} (playwright-core ${m.playwrightCore}); MCP SDK ${m.mcpSdk}`,
    '',
    `Each client, after loading the page once (untimed): ${report.iterations} timed loops of navigate, snapshot, fill "First name", pick a country, click "Create account" on ${PAGE}, checked for "${EXPECT}" (a snapshot after the click when its reply lacks it). Idle server RSS after start: ${SERVERS.filter((s) => idleAtStart[s]).map((s) => `${LABEL[s]} ${mb(idleAtStart[s].serverRssKb)} MB`).join(', ')}.`,
    '',
    '| run | level | server | calls | calls/s | loops/s | p50 ms | p95 ms | first page p50 ms | errors | server RSS idle MB | server RSS peak MB | browsers / processes | browser PSS MB | added per agent MB |',
    '| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    lines.push(`| ${r.run || 1} | ${r.level} | ${LABEL[r.server]} | ${r.calls} | ${r.callsPerSecond.toFixed(2)} | ${r.loopsPerSecond.toFixed(2)} | ${r.p50ms} | ${r.p95ms} | ${r.firstPageP50ms} | ${r.errors} | ${mb(r.idle.serverRssKb)} | ${mb(r.serverRssPeakKb)} | ${r.peak.browsers} / ${r.peak.procs} | ${mb(r.browserPssPeakKb)} | ${mb(r.addedPerAgentKb)} |`);
  }
  // where the memory is at the peak sample: processes and PSS by kind
  const kinds = [...new Set(results.flatMap((r) => Object.keys(r.peak.byKind)))].sort();
  lines.push('', `| level | server | server RSS MB | ${kinds.map((k) => `${k}: n, PSS MB`).join(' | ')} |`, `| ---: | --- | ---: |${' ---: |'.repeat(kinds.length)}`);
  for (const r of results) {
    const cell = (k) => (r.peak.byKind[k] ? `${r.peak.byKind[k].count}, ${mb(r.peak.byKind[k].pssKb)}` : '');
    lines.push(`| ${r.level} | ${LABEL[r.server]} | ${mb(r.peak.serverRssKb)} | ${kinds.map(cell).join(' | ')} |`);
  }
  lines.push('', '| level | server | per tool: calls, p50 / p95 ms |', '| ---: | --- | --- |');
  for (const r of results) {
    lines.push(`| ${r.level} | ${LABEL[r.server]} | ${Object.entries(r.byTool).map(([t, x]) => `${t} ${x.calls}, ${x.p50ms} / ${x.p95ms}`).join('; ')} |`);
  }
  const runs = report.runs || 1;
  const what = runs > 1 ? `medians of ${runs} runs` : 'one run';
  lines.push('', `Goals (${what}):`, '', '| level | errors = 0 | memory per added agent: ariasnap <= Playwright MCP (MB) | p95: ariasnap <= Playwright MCP | loops/s: ariasnap, Playwright MCP |', '| ---: | --- | --- | --- | --- |');
  for (const row of g.rows) {
    const m = row.medians;
    const loops = m.ariasnap && m.playwright ? `${m.ariasnap.loopsPerSecond.toFixed(2)}, ${m.playwright.loopsPerSecond.toFixed(2)}` : 'n/a';
    lines.push(`| ${row.level} | ${row.errorsZero ? 'PASS' : 'FAIL'} | ${row.cells.memory} | ${row.cells.p95} | ${loops} |`);
  }
  if (g.idleRssKb !== null) lines.push('', `ariasnap idle server RSS <= ${IDLE_RSS_GOAL_MB} MB: ${g.idleRss ? 'PASS' : 'FAIL'} (${mb(g.idleRssKb)} MB)`);
  const notes = [];
  for (const r of results) {
    const counts = {};
    for (const e of r.errorMessages) counts[e] = (counts[e] || 0) + 1;
    for (const [e, c] of Object.entries(counts)) notes.push(`- level ${r.level}, ${LABEL[r.server]}: ${c}x ${e}`);
    for (const [when, s] of [['before', r.settleBefore], ['after', r.settleAfter]]) {
      if (!s.clean) notes.push(`- level ${r.level}, ${LABEL[r.server]}: not idle ${when} the level after ${s.ms} ms (${s.processesLeft} processes, agents ${s.agents})`);
    }
  }
  if (notes.length) lines.push('', 'Notes:', '', ...notes);
  return lines.join('\n') + '\n';
}

// ---- main

async function main() {
  const o = options(process.argv.slice(2));
  if (process.platform !== 'linux') throw new Error('Linux only: memory is read from /proc');
  if (o.servers.includes('ariasnap')) {
    const help = spawnSync(o.ariasnap, ['mcp', '--help'], { encoding: 'utf8' });
    if (help.error) throw new Error(`cannot run ${o.ariasnap}: ${help.error.message} (--ariasnap BIN)`);
    if (!/--http\b/.test(help.stdout)) throw new Error(`${o.ariasnap} has no \`mcp --http\` (built before the HTTP transport?): build it, or give --ariasnap BIN`);
  }
  if (o.servers.includes('playwright') && !fs.existsSync(path.join(o.modules, 'node_modules', '@playwright', 'mcp', 'cli.js'))) {
    throw new Error(`no @playwright/mcp in ${o.modules}/node_modules (scripts/load-bench.sh installs it)`);
  }
  if (!fs.existsSync(path.join(ROOT, 'fixtures', PAGE))) throw new Error(`no fixture page fixtures/${PAGE}`);
  const lib = sdk(o.modules);
  const date = new Date();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-bench-'));
  if (!o.keepTmp) tmpDirs.push(runDir);
  const fixtures = await serve();
  const url = fixtures.url + PAGE;
  const servers = {};
  const idleAtStart = {};
  const results = [];
  try {
    for (const name of o.servers) {
      process.stderr.write(`load-bench: starting ${LABEL[name]}...`);
      servers[name] = await startServer(name, o, runDir);
      await sleep(1000);
      idleAtStart[name] = sample(servers[name]);
      process.stderr.write(` pid ${servers[name].pid}, port ${servers[name].port}, idle RSS ${mb(idleAtStart[name].serverRssKb)} MB\n`);
    }
    // --runs R: the levels R times over, interleaved; the goals compare medians
    for (let run = 1; run <= o.runs; run++) {
      for (const [li, n] of o.levels.entries()) {
        // alternate which server goes first, so that neither always runs on a warmer machine
        const order = (li + run) % 2 ? o.servers : [...o.servers].reverse();
        for (const name of order) {
          process.stderr.write(`load-bench: run ${run}/${o.runs}: ${n} clients on ${LABEL[name]}...`);
          const r = await runLevel(servers[name], n, o, url, lib);
          r.run = run;
          process.stderr.write(` ${r.calls} calls in ${r.wallSeconds.toFixed(1)} s, p95 ${r.p95ms} ms, ${r.errors} errors, ${mb(r.addedPerAgentKb)} MB per agent\n`);
          results.push(r);
        }
      }
    }
  } finally {
    for (const s of Object.values(servers)) await stopServer(s);
    await fixtures.close();
    if (!o.keepTmp) fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 });
    else process.stderr.write(`load-bench: servers' dirs and logs kept in ${runDir}\n`);
  }
  const report = {
    date: date.toISOString(),
    command: ['node', path.relative(process.cwd(), __filename) || __filename, ...process.argv.slice(2)].map(quote).join(' '),
    cwd: process.cwd(),
    machine: machine(o),
    levels: o.levels,
    iterations: o.iterations,
    runs: o.runs,
    callTimeoutMs: o.callTimeout,
    page: PAGE,
    expect: EXPECT,
    servers: Object.fromEntries(Object.values(servers).map((s) => [s.name, { command: s.command.map(quote).join(' ') }])),
    idleAtStart,
    results,
  };
  report.goals = goals(results, idleAtStart, o.levels);
  const md = markdown(report);
  fs.mkdirSync(o.out, { recursive: true });
  const stem = path.join(o.out, `load-${date.toISOString().slice(0, 16).replace('T', '-').replace(':', '')}`);
  fs.writeFileSync(`${stem}.json`, JSON.stringify(report, null, 2));
  fs.writeFileSync(`${stem}.md`, md);
  console.log(md);
  console.log(`results: ${path.relative(process.cwd(), stem)}.{json,md}`);
  if (results.some((r) => r.errors)) process.exitCode = 1;
}

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\nload-bench: ${sig}: stopping the servers\n`);
    await within(30000, Promise.all(live.map(stopServer)), 'stop').catch(() => {});
    for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 });
    process.exit(130);
  });
}
process.on('exit', killAllNow);

main().catch((e) => {
  console.error(`load-bench: ${e.message || e}`);
  process.exitCode = 2;
});
