#!/usr/bin/env node
// The command-line bench (BENCHMARKS.md#command-line-tools): five tasks a coding agent does
// through a browser CLI, each tool driven the way its own skill teaches, as a scripted agent
// that reads every byte a tool prints (and the files it points to for its snapshots), picks
// refs from what it read, and acts. Tools: ariasnap, Playwright's CLI for agents
// (@playwright/cli) and agent-browser, all on the same Chromium. Runs are interleaved (each
// round runs every task with every tool, the tools' order rotating), each task in a fresh
// session (its first command starts the browser), closed after (not counted).
//
// Tasks: a sign-up form (fields, terms, submit), the 137th of 200 product cards (add it to
// the cart), the comment by one reader under a 3,000-element article (read it), and with
// --apg (a checkout of w3c/aria-practices) two APG examples: a menu button (choose "Action 2")
// and the date picker dialog (open it, next month, pick the 15th). Done: the bench's server
// saw the form or the cart request, the comment's text was among the bytes read, the APG
// page's state (checked with the tool's own eval, not counted).
//
//   node scripts/cli-bench/bench.js --ariasnap BIN --modules DIR [--chromium PATH]
//        [--apg DIR] [--runs 10] [--tasks a,b] [--tools a,b] [--json OUT]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..', '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const ariasnap = path.resolve(opt('--ariasnap', path.join(ROOT, 'target', 'release', 'ariasnap')));
const modules = path.resolve(opt('--modules', path.join(os.homedir(), '.cache', 'ariasnap', 'cli-bench')));
const chromium = opt('--chromium', '/usr/bin/chromium');
const apg = opt('--apg', null);
const runs = +opt('--runs', 10);
const onlyTasks = opt('--tasks', null);
const onlyTools = opt('--tools', null);
const jsonOut = opt('--json', null);
const bin = (n) => path.join(modules, 'node_modules', '.bin', n);

// ---- the pages, served on 127.0.0.1 ----
// in a worker thread of its own: the agent's commands run synchronously (spawnSync) and would
// hold a server on this thread's event loop; the requests it saw go to a log file
const { Worker } = require('worker_threads');
const seenLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-bench-seen-')), 'seen.log');
const seen = {
  reset: () => fs.writeFileSync(seenLog, ''),
  all: () => fs.readFileSync(seenLog, 'utf8').split('\n'),
};
function serve() {
  const code = `
    const { parentPort, workerData } = require('worker_threads');
    const fs = require('fs'), path = require('path'), http = require('http');
    const { fixtures, apg, log } = workerData;
    const server = http.createServer((req, res) => {
      const u = new URL(req.url, 'http://x');
      fs.appendFileSync(log, u.pathname + u.search + '\\n');
      let file = null;
      if (u.pathname.startsWith('/apg/') && apg) file = path.join(apg, 'content', u.pathname.slice(5));
      else if (u.pathname.startsWith('/bench/')) file = path.join(fixtures, u.pathname.slice(7));
      if (u.pathname === '/cart') { res.end('{}'); return; }
      if (!file || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.statusCode = 404; res.end('not found'); return; }
      const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };
      res.setHeader('content-type', types[path.extname(file)] || 'application/octet-stream');
      res.end(fs.readFileSync(file));
    });
    server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
    parentPort.on('message', () => { server.close(); process.exit(0); });
  `;
  const w = new Worker(code, { eval: true, workerData: {
    fixtures: path.join(ROOT, 'fixtures', 'html', 'cli-bench'), apg: apg && path.resolve(apg), log: seenLog } });
  return new Promise((r) => w.once('message', (port) => r({ port, close: () => w.postMessage('stop') })));
}

// ---- running a tool's command as an agent would ----
class Agent {
  constructor(tool, session, cwd, env) {
    Object.assign(this, { tool, session, cwd, env, cmds: [], bytes: 0, text: '' });
  }
  run(argv, { count = true } = {}) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(argv[0], argv.slice(1), { cwd: this.cwd, env: this.env, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 60000 });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const out = (r.stdout || '') + (r.stderr || '');
    if (count) {
      this.cmds.push(ms);
      this.bytes += Buffer.byteLength(out);
      this.text += out + '\n';
    }
    return out;
  }
  // a file the tool pointed to, read by the agent (counted as one more read, not a command)
  read(file) {
    const p = path.isAbsolute(file) ? file : path.join(this.cwd, file);
    const t = fs.readFileSync(p, 'utf8');
    this.bytes += Buffer.byteLength(t);
    this.text += t + '\n';
    this.files = (this.files || 0) + 1;
    return t;
  }
}

// the ref on the line (or the lines after it) that names `role "name"`
function refAfter(text, re, refRe) {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!re.test(lines[i])) continue;
    for (let k = i; k < Math.min(lines.length, i + 12); k++) {
      const m = refRe.exec(lines[k]);
      if (m) return m[1];
    }
  }
  return null;
}
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const named = (role, name) => new RegExp(`${role} "${esc(name)}"`);

// ---- ariasnap, as skills/ariasnap/SKILL.md teaches ----
const A = {
  name: 'ariasnap',
  env: (home) => ({ ...process.env, ARIASNAP_HOME: home }),
  cmd: (a, ...xs) => [ariasnap, '--session', a.session, ...xs],
  // an action's reply as the skill teaches it: its short text (--format text), not the JSON
  act: (a, ...xs) => [ariasnap, '--session', a.session, '--format', 'text', ...xs],
  ref: (t, role, name) => refAfter(t, named(role, name), /\[ref=(s\d+e\d+)\]|"ref":"(s\d+e\d+)"/) || (() => { const m = new RegExp(`${role} "${esc(name)}" (s\\d+e\\d+)`).exec(t); return m && m[1]; })(),
  // a reply over the inline limit is a file the agent reads
  out(a, t) {
    const m = /written to (\S+\.txt)/.exec(t);
    return m ? a.read(m[1]) : t;
  },
  eval: (a, expr) => a.run(A.cmd(a, 'eval', expr), { count: false }),
  close: (a) => a.run([ariasnap, '--session', a.session, 'session', 'close'], { count: false }),
};
function aref(t, role, name) {
  const m = new RegExp(`${role} "${esc(name)}"[^\\n]*?\\[ref=(s\\d+e\\d+)\\]`).exec(t) ||
    new RegExp(`${role} \\\\?"${esc(name)}\\\\?" (s\\d+e\\d+)`).exec(t) ||
    new RegExp(`"role":"${role}","name":"${esc(name)}","ref":"(s\\d+e\\d+)"`).exec(t);
  return m && m[1];
}
A.tasks = {
  signup(a, url) {
    const t = A.out(a, a.run(A.cmd(a, 'snapshot', url, '--detail', 'interactive')));
    const f = (n) => aref(t, 'textbox', n);
    const fields = { [f('First name')]: 'Ada', [f('Last name')]: 'Lovelace', [f('Email')]: 'ada@example.org',
      [f('Password')]: 'correct horse 9', [f('Confirm password')]: 'correct horse 9', [aref(t, 'checkbox', 'I accept the terms')]: true };
    a.run(A.act(a, 'fill', '--fields', JSON.stringify(fields)));
    a.run(A.act(a, 'click', aref(t, 'button', 'Create account')));
  },
  products(a, url) {
    a.run(A.act(a, 'goto', url));
    const s = a.run(A.act(a, 'search', 'Product 137'));
    // the card's own controls, when search hands them over (its lines: a match, then
    // `controls: ... [ref=...]`); else the page, read whole
    let r = refAfter(s, /Product 137/, /button "Add to cart" \[ref=(s\d+e\d+)\]/);
    if (!r) try {
      // the short reply: `search: {"matches": [...]}` (the JSON result of a build before it)
      const j = JSON.parse(s.slice(s.indexOf('{')));
      for (const m of j.matches || (j.steps && j.steps[0].output.matches) || []) {
        const c = (m.controls || []).find((x) => x.role === 'button' && x.name === 'Add to cart');
        if (c) { r = c.ref; break; }
      }
    } catch (_) {
      // not JSON: read the page below
    }
    if (!r) {
      const t = A.out(a, a.run(A.cmd(a, 'snapshot')));
      r = refAfter(t, /heading "Product 137"/, /button "Add to cart" \[ref=(s\d+e\d+)\]/);
    }
    a.run(A.act(a, 'click', r));
  },
  article(a, url) {
    a.run(A.act(a, 'goto', url));
    a.run(A.act(a, 'search', 'Priya Natarajan'));
  },
  menu(a, url) {
    const t = A.out(a, a.run(A.cmd(a, 'snapshot', url, '--detail', 'interactive')));
    const r = a.run(A.act(a, 'click', aref(t, 'button', 'Actions')));
    a.run(A.act(a, 'click', aref(r, 'menuitem', 'Action 2')));
  },
  datepicker(a, url) {
    const t = A.out(a, a.run(A.cmd(a, 'snapshot', url, '--detail', 'interactive')));
    const r = a.run(A.act(a, 'click', aref(t, 'button', 'Choose Date')));
    const n = a.run(A.act(a, 'click', aref(r, 'button', 'Next Month') || aref(r, 'button', 'next month')));
    a.run(A.act(a, 'click', aref(n, 'gridcell', '15') || aref(r, 'gridcell', '15')));
  },
};

// ---- agent-browser, as its skill (`agent-browser skills get core`) teaches ----
const B = {
  name: 'agent-browser',
  env: (home) => ({ ...process.env, HOME: home, AGENT_BROWSER_EXECUTABLE_PATH: chromium }),
  cmd: (a, ...xs) => [bin('agent-browser'), '--session', a.session, ...xs],
  eval: (a, expr) => a.run(B.cmd(a, 'eval', expr), { count: false }),
  close: (a) => a.run(B.cmd(a, 'close'), { count: false }),
};
const bref = (t, role, name) => {
  const m = new RegExp(`${role} "${esc(name)}\\s*"[^\\n]*?\\[[^\\]]*?ref=(e\\d+)`).exec(t);
  return m && '@' + m[1];
};
B.tasks = {
  signup(a, url) {
    a.run(B.cmd(a, 'open', url));
    const t = a.run(B.cmd(a, 'snapshot', '-i'));
    for (const [n, v] of [['First name', 'Ada'], ['Last name', 'Lovelace'], ['Email', 'ada@example.org'], ['Password', 'correct horse 9'], ['Confirm password', 'correct horse 9']]) {
      a.run(B.cmd(a, 'fill', bref(t, 'textbox', n), v));
    }
    a.run(B.cmd(a, 'check', bref(t, 'checkbox', 'I accept the terms')));
    a.run(B.cmd(a, 'click', bref(t, 'button', 'Create account')));
    a.run(B.cmd(a, 'wait', '--text', 'Welcome to Fernway'));
  },
  products(a, url) {
    a.run(B.cmd(a, 'open', url));
    const t = a.run(B.cmd(a, 'snapshot'));
    const r = refAfter(t, /heading "Product 137"/, /button "Add to cart" \[[^\]]*?ref=(e\d+)/);
    a.run(B.cmd(a, 'click', '@' + r));
    a.run(B.cmd(a, 'wait', '--text', 'Cart: 1 item'));
  },
  article(a, url) {
    a.run(B.cmd(a, 'open', url));
    a.run(B.cmd(a, 'read'));
  },
  menu(a, url) {
    a.run(B.cmd(a, 'open', url));
    const t = a.run(B.cmd(a, 'snapshot', '-i'));
    a.run(B.cmd(a, 'click', bref(t, 'button', 'Actions')));
    const u = a.run(B.cmd(a, 'snapshot', '-i'));
    a.run(B.cmd(a, 'click', bref(u, 'menuitem', 'Action 2')));
  },
  datepicker(a, url) {
    a.run(B.cmd(a, 'open', url));
    const t = a.run(B.cmd(a, 'snapshot', '-i'));
    a.run(B.cmd(a, 'click', bref(t, 'button', 'Choose Date')));
    const u = a.run(B.cmd(a, 'snapshot', '-i'));
    a.run(B.cmd(a, 'click', bref(u, 'button', 'Next Month') || bref(u, 'button', 'next month')));
    const v = a.run(B.cmd(a, 'snapshot', '-i'));
    a.run(B.cmd(a, 'click', bref(v, 'gridcell', '15') || bref(v, 'button', '15')));
  },
};

// ---- Playwright's CLI, as its skill (skills/playwright-cli/SKILL.md) teaches ----
const P = {
  name: 'playwright-cli',
  env: (home) => ({ ...process.env, HOME: home, PLAYWRIGHT_MCP_EXECUTABLE_PATH: chromium, PLAYWRIGHT_MCP_SANDBOX: 'false', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' }),
  cmd: (a, ...xs) => [bin('playwright-cli'), `-s=${a.session}`, ...xs],
  // each command names the snapshot file it wrote; the agent reads it when it needs refs
  snap(a, out) {
    const m = /\[Snapshot\]\(([^)]+\.yml)\)/.exec(out);
    return m ? a.read(m[1]) : out;
  },
  eval: (a, expr) => a.run(P.cmd(a, 'eval', expr), { count: false }),
  close: (a) => a.run(P.cmd(a, 'close'), { count: false }),
};
const pref = (t, role, name) => {
  const m = new RegExp(`${role} "${esc(name)}"[^\\n]*?\\[ref=(e\\d+)\\]`).exec(t);
  return m && m[1];
};
P.tasks = {
  signup(a, url) {
    const t = P.snap(a, a.run(P.cmd(a, 'open', url)));
    for (const [n, v] of [['First name', 'Ada'], ['Last name', 'Lovelace'], ['Email', 'ada@example.org'], ['Password', 'correct horse 9'], ['Confirm password', 'correct horse 9']]) {
      a.run(P.cmd(a, 'fill', pref(t, 'textbox', n), v));
    }
    a.run(P.cmd(a, 'check', pref(t, 'checkbox', 'I accept the terms')));
    P.snap(a, a.run(P.cmd(a, 'click', pref(t, 'button', 'Create account'))));
  },
  products(a, url) {
    a.run(P.cmd(a, 'open', url));
    const f = a.run(P.cmd(a, 'find', 'Product 137'));
    let r = refAfter(f, /Product 137/, /button "Add to cart" \[ref=(e\d+)\]/);
    if (!r) {
      // the match's context stops before the card's button: the page's snapshot, read
      const t = P.snap(a, a.run(P.cmd(a, 'snapshot')));
      r = refAfter(t, /link "Product 137"/, /button "Add to cart" \[ref=(e\d+)\]/);
    }
    a.run(P.cmd(a, 'click', r));
  },
  article(a, url) {
    a.run(P.cmd(a, 'open', url));
    a.run(P.cmd(a, 'find', 'Priya Natarajan'));
  },
  menu(a, url) {
    const t = P.snap(a, a.run(P.cmd(a, 'open', url)));
    const u = P.snap(a, a.run(P.cmd(a, 'click', pref(t, 'button', 'Actions'))));
    a.run(P.cmd(a, 'click', pref(u, 'menuitem', 'Action 2')));
  },
  datepicker(a, url) {
    const t = P.snap(a, a.run(P.cmd(a, 'open', url)));
    const u = P.snap(a, a.run(P.cmd(a, 'click', pref(t, 'button', 'Choose Date'))));
    const v = P.snap(a, a.run(P.cmd(a, 'click', pref(u, 'button', 'Next Month') || pref(u, 'button', 'next month'))));
    a.run(P.cmd(a, 'click', pref(v, 'gridcell', '15') || pref(v, 'button', '15')));
  },
};

// ---- the tasks: where, and what done means ----
const TASKS = [
  { id: 'signup', page: '/bench/signup.html', done: () => seen.all().some((s) => s.startsWith('/bench/welcome.html?first=Ada')) },
  { id: 'products', page: '/bench/products.html', done: () => seen.all().includes('/cart?add=137') },
  { id: 'article', page: '/bench/article.html', done: (a) => a.text.includes('take the lane through Ashby instead') },
  { id: 'menu', page: '/apg/patterns/menu-button/examples/menu-button-actions.html', apg: true,
    check: "document.querySelector('#action_output').value" , want: 'Action 2' },
  { id: 'datepicker', page: '/apg/patterns/dialog-modal/examples/datepicker-dialog.html', apg: true,
    check: "document.querySelector('#id-textbox-1').value", want: /\/15\// },
];
const TOOLS = [A, B, P];

function median(xs) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function main() {
  const server = await serve();
  const base = `http://127.0.0.1:${server.port}`;
  const tasks = TASKS.filter((t) => (!t.apg || apg) && (!onlyTasks || onlyTasks.split(',').includes(t.id)));
  if (!apg) console.error('cli-bench: no --apg checkout of w3c/aria-practices: the two APG tasks are skipped');
  const tools = TOOLS.filter((t) => !onlyTools || onlyTools.split(',').includes(t.name));
  const results = [];
  // removed at the end: a closed session's browser may still be ending (ariasnap's ends
  // behind `session close`)
  const homes = [];
  for (let run = 0; run < runs; run++) {
    for (const task of tasks) {
      // the tools' order rotates from one run to the next
      for (let k = 0; k < tools.length; k++) {
        const tool = tools[(k + run) % tools.length];
        const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-bench-'));
        const a = new Agent(tool.name, `cb${run}${task.id}`, home, tool.env(home));
        seen.reset();
        const t0 = process.hrtime.bigint();
        let error = null;
        try {
          tool.tasks[task.id](a, base + task.page);
        } catch (e) {
          error = String(e && e.message || e).slice(0, 200);
        }
        const whole = Number(process.hrtime.bigint() - t0) / 1e6;
        let done;
        if (task.check) {
          const out = tool.eval(a, task.check);
          done = task.want instanceof RegExp ? task.want.test(out) : out.includes(task.want);
        } else done = task.done(a);
        tool.close(a);
        if (process.env.CLI_BENCH_DUMP) fs.writeFileSync(path.join(process.env.CLI_BENCH_DUMP, `${tool.name}-${task.id}-${run}.txt`), a.text);
        homes.push(home);
        results.push({ run, task: task.id, tool: tool.name, commands: a.cmds.length, files: a.files || 0, bytes: a.bytes,
          first: a.cmds[0], later: a.cmds.slice(1), whole, done, error });
        process.stderr.write(`run ${run + 1} ${task.id} ${tool.name}: ${a.cmds.length} commands, ${a.bytes} B, ${whole.toFixed(0)} ms${done ? '' : ' NOT DONE'}${error ? ' (' + error + ')' : ''}\n`);
      }
    }
  }
  server.close();
  for (const h of homes) {
    try { fs.rmSync(h, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }); } catch (_) {}
  }
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(results, null, 1));
  report(results, tasks, tools);
}

function report(results, tasks, tools) {
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const per = (tool, task) => results.filter((r) => r.tool === tool && (!task || r.task === task));
  console.log(`\n${runs} interleaved runs; medians over runs (commands and bytes: one run's, all runs alike unless noted)\n`);
  console.log(`| | ${tools.map((t) => t.name).join(' | ')} |`);
  console.log(`| --- | ${tools.map(() => '---:').join(' | ')} |`);
  const row = (label, f) => console.log(`| ${label} | ${tools.map((t) => f(t.name)).join(' | ')} |`);
  const perRun = (tool, f) => median([...new Set(results.map((r) => r.run))].map((run) => f(results.filter((r) => r.tool === tool && r.run === run))));
  row(`commands (${tasks.length} tasks)`, (t) => {
    const c = perRun(t, (rs) => rs.reduce((s, r) => s + r.commands, 0));
    const f = perRun(t, (rs) => rs.reduce((s, r) => s + r.files, 0));
    return f ? `${fmt(c)} + ${fmt(f)} file reads` : fmt(c);
  });
  row('bytes read', (t) => `${(perRun(t, (rs) => rs.reduce((s, r) => s + r.bytes, 0)) / 1000).toFixed(1)} KB`);
  row('median ms per command after the first', (t) => fmt(median(per(t).flatMap((r) => r.later))));
  row('median first command (ms)', (t) => fmt(median(per(t).map((r) => r.first))));
  row(`whole ${tasks.length} tasks (s)`, (t) => (perRun(t, (rs) => rs.reduce((s, r) => s + r.whole, 0)) / 1000).toFixed(1));
  row('tasks done', (t) => `${per(t).filter((r) => r.done).length}/${per(t).length}`);
  console.log('\nPer task (median bytes read; median ms for the whole task; done):\n');
  console.log(`| task | ${tools.map((t) => t.name).join(' | ')} |`);
  console.log(`| --- | ${tools.map(() => '---:').join(' | ')} |`);
  for (const task of tasks) {
    console.log(`| ${task.id} | ${tools.map((t) => {
      const rs = per(t.name, task.id);
      return `${(median(rs.map((r) => r.bytes)) / 1000).toFixed(1)} KB, ${fmt(median(rs.map((r) => r.whole)))} ms, ${rs.filter((r) => r.done).length}/${rs.length}`;
    }).join(' | ')} |`);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
