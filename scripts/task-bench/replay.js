#!/usr/bin/env node
// Replay of the task bench (BENCHMARKS.md#replay, issue 57): every task of tasks.js done by
// ariasnap's scripted agent over `ariasnap mcp` by refs, as bench.js runs it; the agent's
// session journal exported to a step file (`ariasnap session export`); that file replayed
// with `ariasnap run --strict` (no healing) on a fresh session on Chromium, then on Firefox;
// and each end state compared with the agent's, read from the page by one script (below,
// STATE, once settled: two reads a second apart agree): the URL, the text shown (each visible text node but a select's, white space collapsed), every form field's
// value or checked state, and the ARIA states on the page. Prints a markdown table; writes
// the step files and states to --out (default target/task-bench/replay/).
//
// A replay on Firefox that differs is followed by the scripted agent's own run of the task on
// Firefox: where the agent cannot do it there either, the row is "n/a" with the agent's error
// (the browser's behaviour, not the replay's: Gecko dispatches no event to a disabled form
// control, a scroll event included, so a page waiting for its textarea's scroll never hears
// it), and is left out of that browser's count.
//
// Password values are written `[secret]` in a journal (docs/reference/step-files.md#the-journal):
// the operator puts them back before a replay. Here the operator is this script: it puts
// back, per locator (role and name), the values the agent typed into the field of that ref,
// in order, read from the agent's own calls and replies.
//
//   node scripts/task-bench/replay.js --ariasnap target/release/ariasnap [--tasks id,id]
//     [--browsers chromium,firefox] [--modules DIR] [--chromium PATH] [--out DIR]
//     [--playwright DIR|none]
//
// --modules: where node_modules holds the MCP SDK (scripts/task-bench.sh installs it).
// --playwright: where node_modules holds @playwright/test (default as the tests find it:
// ARIASNAP_PLAYWRIGHT_TEST, else ~/.cache/ariasnap/playwright-test): each task's journal is
// also exported `--as playwright` and that spec run on the system Chromium, its end state
// read after it by a hook and compared with the agent's (a column of its own); `none` skips it.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { serve, Agent, ROOT, factsInline, benchOptions } = require('./lib');
const { TASKS, TaskError } = require('./tasks');

// The end state, read on the page (a page-side script, run by `ariasnap eval`).
const STATE = `JSON.stringify({
  url: location.pathname + location.search + location.hash,
  text: (() => {
    // the text shown, the same way in both browsers (innerText differs: Firefox leaves a
    // select's options out): each text node whose element is visible, but a select's
    const parts = [];
    const w = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      const p = n.parentElement;
      if (!p || p.closest('select, script, style, template, noscript')) continue;
      if (p.checkVisibility && !p.checkVisibility({ visibilityProperty: true })) continue;
      parts.push(n.data);
    }
    return parts.join(' ').replace(/\\s+/g, ' ').trim();
  })(),
  fields: [...document.querySelectorAll('input, select, textarea')].map((e, i) =>
    (e.id || e.name || i) + '=' + (e.type === 'checkbox' || e.type === 'radio' ? e.checked : e.type === 'password' ? '(' + e.value.length + ')' : e.value)),
  aria: [...document.querySelectorAll('[aria-checked], [aria-expanded], [aria-selected], [aria-pressed], [aria-valuenow], [aria-current], [aria-hidden], dialog[open], [hidden]')]
    .map((e) => e.tagName + (e.id ? '#' + e.id : '') + ['aria-checked', 'aria-expanded', 'aria-selected', 'aria-pressed', 'aria-valuenow', 'aria-current', 'aria-hidden', 'open', 'hidden']
      .filter((a) => e.hasAttribute(a)).map((a) => ' ' + a + '=' + e.getAttribute(a)).join('')),
})`;

function options(argv) {
  const o = benchOptions(argv, {
    browsers: ['chromium', 'firefox'],
    out: path.join(ROOT, 'target', 'task-bench', 'replay'),
    noOracle: true,
    // @playwright/test's folder (with node_modules), as tests/it/replay.rs finds it
    playwright: process.env.ARIASNAP_PLAYWRIGHT_TEST
      || path.join(process.env.XDG_CACHE_HOME || path.join(process.env.HOME || '', '.cache'), 'ariasnap', 'playwright-test'),
  }, (o, k, v) => {
    if (k === '--browsers') o.browsers = v().split(',');
    else if (k === '--playwright') {
      const dir = v();
      o.playwright = dir === 'none' ? null : path.resolve(dir);
    } else return false;
    return true;
  }, __filename);
  if (o.playwright && !fs.existsSync(path.join(o.playwright, 'node_modules', '@playwright', 'test', 'cli.js'))) {
    throw new Error(`@playwright/test is not in ${o.playwright}/node_modules (bash scripts/setup.sh installs it; --playwright none skips the spec)`);
  }
  return o;
}

/** A command's run: {code, stdout, stderr}, killed after `ms`. (Asynchronous: the fixture
 * server answers from this process's event loop.) */
function run(command, args, opts, ms) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('error', (e) => err.push(Buffer.from(String(e))));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** `ariasnap ARGS` in the agent's state directory: {code, stdout, stderr}. */
function ariasnap(o, env, args) {
  return run(o.ariasnap, args, { env }, 180000);
}

/** The end state of a session's page (STATE), or an error's words. */
async function stateOf(o, env, session) {
  const r = await ariasnap(o, env, ['--session', session, 'eval', STATE]);
  try {
    const out = JSON.parse(r.stdout).steps[0].output;
    return JSON.parse(out);
  } catch (_) {
    return { error: `eval failed (${r.code}): ${r.stderr.trim().split('\n')[0] || r.stdout.slice(0, 200)}` };
  }
}

/** The settled end state: read again a second later until two reads agree (a toast shown for
 * 700 ms is no end state), at most 6 reads. */
async function settledState(o, env, session) {
  let last = await stateOf(o, env, session);
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await stateOf(o, env, session);
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  return last;
}

/** Put before an exported spec: after its test, the end state read on its page as for a
 * replay (STATE, settled: two reads a second apart agree, at most 6), in playwright-state.json. */
const STATE_HOOK = `import { writeFileSync } from 'fs';
import { test as stateHook } from '@playwright/test';
stateHook.afterEach(async ({ page: first }) => {
  // the tab the test ended on (an exported spec that changes tabs keeps it in tabs.current)
  const page = typeof tabs !== 'undefined' && tabs.current ? tabs.current : first;
  let last = await page.evaluate(${JSON.stringify(STATE)});
  for (let i = 0; i < 5; i++) {
    await page.waitForTimeout(1000);
    const now = await page.evaluate(${JSON.stringify(STATE)});
    if (now === last) break;
    last = now;
  }
  writeFileSync('playwright-state.json', last);
});
`;

/** What differs between two states, in a few words (none: ''). */
function diff(a, b) {
  if (a.error || b.error) return a.error || b.error;
  const out = [];
  if (a.url !== b.url) out.push(`url ${a.url} / ${b.url}`);
  if (a.text !== b.text) {
    let i = 0;
    while (i < a.text.length && a.text[i] === b.text[i]) i++;
    out.push(`text at ${i}: ${JSON.stringify(a.text.slice(Math.max(0, i - 20), i + 40))} / ${JSON.stringify(b.text.slice(Math.max(0, i - 20), i + 40))}`);
  }
  for (const k of ['fields', 'aria']) {
    const x = a[k].filter((v) => !b[k].includes(v));
    const y = b[k].filter((v) => !a[k].includes(v));
    if (x.length || y.length) out.push(`${k}: ${JSON.stringify(x.slice(0, 3))} / ${JSON.stringify(y.slice(0, 3))}`);
  }
  return out.join('; ');
}

/** role and name of each ref, as the agent's replies named them. */
function refNames(agent) {
  const names = new Map();
  for (const t of agent.replies()) {
    for (const m of t.matchAll(/- ([a-z]+) "((?:[^"\\]|\\.)*)"[^\n]*?\[ref=([a-z0-9]+)\]/g)) names.set(m[3], `${m[1]} ${m[2]}`);
    for (const m of t.matchAll(/"ref":"([a-z0-9]+)","role":"([a-z]+)","name":"((?:[^"\\]|\\.)*)"/g)) names.set(m[1], `${m[2]} ${m[3]}`);
  }
  return names;
}

/** The values the agent typed, set or filled, by the role and name of their field, in order. */
function typedValues(agent) {
  const names = refNames(agent);
  const out = new Map();
  const put = (ref, v) => {
    const k = names.get(ref);
    if (!k || typeof v !== 'string') return;
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(v);
  };
  const step = (action, a) => {
    if (!a || typeof a !== 'object') return;
    if (action === 'fill' && a.fields) for (const [r, v] of Object.entries(a.fields)) put(r, v);
    else if (action === 'fill' || action === 'set') put(a.ref, a.value);
    else if (action === 'type') put(a.ref, a.text);
  };
  for (const c of agent.calls) {
    if (c.tool === 'browser_run_steps') {
      for (const s of c.args.steps || []) for (const [k, v] of Object.entries(s)) step(k, v);
    } else {
      step(c.tool.replace(/^browser_/, ''), c.args);
    }
  }
  return out;
}

/** The step file with each `[secret]` put back: the next value the agent typed into the
 * field its locator names. Returns how many were put back. */
function putSecrets(file, typed, put = []) {
  let n = 0;
  for (const s of file.steps) {
    for (const a of Object.values(s)) {
      if (!a || typeof a !== 'object') continue;
      const t = a.target || a;
      const k = `${t.role} ${t.name || t.label}`;
      for (const key of ['value', 'text']) {
        if (a[key] === '[secret]' && typed.has(k) && typed.get(k).length) {
          a[key] = typed.get(k).shift();
          put.push(a[key]);
          n++;
        }
      }
    }
  }
  return n;
}

async function runTask(task, o, base) {
  const row = { task: task.id, agent: null, steps: 0, secrets: 0, replays: {} };
  const agent = new Agent('ariasnap', { ...o, task: task.id, keepTmp: true });
  const dir = path.join(o.out, task.id);
  fs.mkdirSync(dir, { recursive: true });
  let env;
  try {
    await agent.start();
    env = agent.spec.env;
    try {
      await task.ariasnap(agent, base + task.page);
    } catch (e) {
      row.agent = e instanceof TaskError ? e.message : `${e.message || e}`;
    }
    // the server ends; its named session stays for the export and the state
    try { await agent.client.close(); } catch (_) { /* gone */ }
    const session = agent.spec.session;
    const file = path.join(dir, 'steps.json');
    const ex = await ariasnap(o, env, ['session', 'export', session, file]);
    if (ex.code !== 0) throw new Error(`export failed: ${ex.stderr.trim()}`);
    const steps = JSON.parse(fs.readFileSync(file, 'utf8'));
    const secrets = [];
    row.secrets = putSecrets(steps, typedValues(agent), secrets);
    if (o.playwright) {
      // the same journal as a @playwright/test spec, the secrets put back in the same order
      const spec = path.join(dir, 'replay.spec.js');
      const px = await ariasnap(o, env, ['session', 'export', session, '--as', 'playwright', spec]);
      if (px.code !== 0) throw new Error(`export --as playwright failed: ${px.stderr.trim()}`);
      let text = fs.readFileSync(spec, 'utf8');
      for (const v of secrets) text = text.replace('"[secret]"', JSON.stringify(v));
      fs.writeFileSync(spec, STATE_HOOK + text);
    }
    row.steps = steps.steps.length;
    fs.writeFileSync(file, JSON.stringify(steps, null, 2));
    const want = await settledState(o, env, session);
    fs.writeFileSync(path.join(dir, 'agent-state.json'), JSON.stringify(want, null, 2));
    await ariasnap(o, env, ['session', 'close', session]);
    for (const browser of o.browsers) {
      const fresh = `${session}-replay-${browser}`;
      const flag = ['--browser', browser === 'chromium' ? o.chromium : browser];
      // the fresh session's browser is started first, with time to spare (Firefox may take
      // over the 30 s deadline to start on a loaded machine): the replay's steps keep theirs
      await ariasnap(o, env, ['--session', fresh, ...flag, '--timeout', '120000', 'get-url']);
      const t0 = Date.now();
      const r = await ariasnap(o, env, ['--session', fresh, ...flag, 'run', '--strict', file]);
      const ms = Date.now() - t0;
      let failed = r.code === 0 ? '' : `exit ${r.code}${r.stdout ? '' : `: ${r.stderr.trim().split('\n')[0]}`}`;
      if (failed) {
        try {
          const res = JSON.parse(r.stdout);
          const bad = (res.steps || []).findIndex((s) => s.status === 'error');
          if (bad >= 0) failed += `, step ${bad + 1} (${res.steps[bad].action}): ${res.steps[bad].error}`;
        } catch (_) { failed += `: ${r.stderr.trim().split('\n').slice(-1)[0]}`; }
      }
      const got = await settledState(o, env, fresh);
      fs.writeFileSync(path.join(dir, `${browser}-state.json`), JSON.stringify(got, null, 2));
      fs.writeFileSync(path.join(dir, `${browser}-run.json`), r.stdout);
      await ariasnap(o, env, ['session', 'close', fresh]);
      row.replays[browser] = { ms, failed, differs: diff(want, got) };
      if (browser === o.browsers[0] && o.playwright) row.playwright = await playwrightTest(o, dir);
      if (!same(row.replays[browser]) && browser !== 'chromium') {
        row.replays[browser].agentThere = await agentOn(task, o, base, browser);
      }
    }
  } catch (e) {
    row.error = `${e.message || e}`;
  } finally {
    try { fs.closeSync(agent.stderr); } catch (_) { /* closed */ }
    if (agent.spec) fs.rmSync(agent.spec.tmp, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 });
  }
  return row;
}

const same = (r) => r && !r.failed && !r.differs;

/** The exported spec run under @playwright/test on the system Chromium (the fixture server
 * still up): '' when it passes, else its first error line. */
async function playwrightTest(o, dir) {
  const link = path.join(dir, 'node_modules');
  if (!fs.existsSync(link)) fs.symlinkSync(path.join(o.playwright, 'node_modules'), link);
  fs.writeFileSync(path.join(dir, 'playwright.config.js'),
    `module.exports = { testDir: '.', workers: 1, timeout: 60000, outputDir: 'pw-results', use: { headless: true, launchOptions: { executablePath: ${JSON.stringify(o.chromium)} } } };\n`);
  const r = await run(process.execPath,
    [path.join(o.playwright, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', 'replay.spec.js', '--reporter=line'],
    { cwd: dir, env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } }, 120000);
  fs.writeFileSync(path.join(dir, 'playwright.log'), `${r.stdout}${r.stderr}`);
  if (r.code === 0 && /1 passed/.test(r.stdout)) {
    // the spec's end state, as the hook read it, against the agent's
    const read = (f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    let d;
    try {
      d = diff(read('agent-state.json'), read('playwright-state.json'));
    } catch (e) {
      d = `no end state read (${e.message})`;
    }
    return d ? `end state differs: ${d}`.slice(0, 200) : '';
  }
  const err = `${r.stdout}${r.stderr}`.split('\n').find((l) => /Error|Timeout|expect/.test(l));
  return (err || `exit ${r.code}`).trim().slice(0, 200);
}

// a replay that differs where the agent itself, run on that browser, cannot do the task: the
// browser's own behaviour, not the replay's (the row says the agent's error)
const na = (r) => r && !same(r) && r.agentThere && r.agentThere !== 'done';

/** The scripted agent run again, on `browser`: 'done', or why the task failed there. */
async function agentOn(task, o, base, browser) {
  const agent = new Agent('ariasnap', { ...o, chromium: browser, task: `${task.id}-${browser}` });
  try {
    await agent.start();
    await task.ariasnap(agent, base + task.page);
    // done as bench.js judges it: every fact of the task in one of the agent's replies
    const missing = factsInline(agent.calls, task.facts).filter((f) => f.call === null);
    if (!missing.length) return 'done';
    const failed = agent.calls.find((c) => / failed: /.test(c.text || ''));
    return failed ? failed.text.split('\n')[0].slice(0, 160) : `not shown: ${missing.map((f) => f.fact).join(', ')}`;
  } catch (e) {
    return `${e.message || e}`.split('\n')[0].slice(0, 160);
  } finally {
    await agent.stop();
  }
}

function table(rows, browsers) {
  const lines = [
    `| task | steps | secrets put back | ${browsers.map((b) => `${b}: same end state | ${b} ms`).join(' | ')} | Playwright spec |`,
    `| --- | ---: | ---: | ${browsers.map(() => '--- | ---:').join(' | ')} | --- |`,
  ];
  for (const r of rows) {
    const cells = browsers.map((b) => {
      const x = r.replays[b];
      if (!x) return `not run${r.error ? `: ${r.error}` : ''} | `;
      if (na(x)) return `n/a: the agent on ${b} cannot do it either (${x.agentThere}) | ${x.ms}`;
      return `${same(x) ? 'yes' : `NO: ${[x.failed, x.differs].filter(Boolean).join('; ').slice(0, 200)}`} | ${x.ms}`;
    });
    const pw = r.playwright === undefined ? 'not run' : r.playwright === '' ? 'passes' : `FAILS: ${r.playwright}`;
    lines.push(`| ${r.task}${r.agent ? ' (agent failed)' : ''} | ${r.steps} | ${r.secrets} | ${cells.join(' | ')} | ${pw} |`);
  }
  return lines.join('\n');
}

async function main() {
  const o = options(process.argv.slice(2));
  const tasks = o.tasks ? TASKS.filter((t) => o.tasks.includes(t.id)) : TASKS;
  if (!tasks.length) throw new Error(`no such task: ${o.tasks}`);
  fs.mkdirSync(o.out, { recursive: true });
  const server = await serve();
  const rows = [];
  try {
    for (const task of tasks) {
      process.stderr.write(`replay: ${task.id}...`);
      const r = await runTask(task, o, server.url);
      process.stderr.write(` ${r.steps} steps; ${o.browsers.map((b) => `${b} ${same(r.replays[b]) ? 'same' : 'DIFFERS'}`).join(', ')}${r.error ? `; ${r.error}` : ''}\n`);
      rows.push(r);
    }
  } finally {
    await server.close();
  }
  fs.writeFileSync(path.join(o.out, 'results.json'), JSON.stringify({ date: new Date().toISOString(), os: os.platform(), rows }, null, 2));
  console.log(table(rows, o.browsers));
  for (const b of o.browsers) {
    const n = rows.filter((r) => same(r.replays[b])).length;
    const out = rows.filter((r) => na(r.replays[b])).length;
    console.log(`\n${b}: ${n}/${rows.length - out} tasks replayed (--strict) to the agent's end state${out ? ` (${out} not doable on ${b} by the agent itself: n/a)` : ''}`);
  }
  if (o.playwright) {
    const n = rows.filter((r) => r.playwright === '').length;
    console.log(`\nPlaywright specs: ${n}/${rows.length} pass under @playwright/test on ${o.chromium}`);
  }
  console.log(`step files and states: ${path.relative(process.cwd(), o.out)}/`);
  if (rows.some((r) => o.browsers.some((b) => !same(r.replays[b]) && !na(r.replays[b])))) process.exitCode = 1;
  if (o.playwright && rows.some((r) => r.playwright !== '')) process.exitCode = 1;
}

main().catch((e) => {
  console.error(`replay: ${e.message}`);
  process.exit(2);
});
