#!/usr/bin/env node
// Locator speed (BENCHMARKS.md#locators, issue 57) and the per-command time of a click
// (issue 54), on a synthetic page of about 10,000 elements (mixed-10000.html, which
// ../shared/bench/gen-synthetic.js writes; the bench's own copy is under
// ../shared/bench/generated/synthetic/ once its setup.sh ran). Every time is a whole
// process, from spawn to exit, on a kept-alive session; the page is served from its folder
// on 127.0.0.1; median of --runs.
//
//   node scripts/locate-bench.js --ariasnap target/release/ariasnap --page DIR/mixed-10000.html
//     a locator step (`get --role button --name "String library"`) against an `interactive`
//     snapshot of the same page, interleaved (one, then the other, --runs times, both in one
//     run); prints each median and the step's own time (the reply's `ms`)
//   node scripts/locate-bench.js --click [--before OLD_BIN] --ariasnap NEW_BIN --page ...
//     a click by ref (a tab that does nothing) through one binary, or two each on its own
//     session and state directory, interleaved; --journal-lines N first writes N lines into
//     each session's journal (the journal of a long session); then `session close` of as many
//     fresh sessions on the page, each timed, and whether any process of its browser profile
//     is left 2 s later (issue 54: at most 300 ms, nothing left)
//   node scripts/locate-bench.js --click --ariasnap BIN --page fixtures/html/cli-bench/article.html \
//     --click-role button --click-name Reply
//     issue 54's click whose effect is synchronous on the 3,000-element article (its Reply
//     opens a paragraph in the same task)
//
// Options: --runs N (10)  --browser chromium|firefox  --role R --name N (the locator)
// --click-role R --click-name N (the click's target).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawn, spawnSync } = require('child_process');

function options(argv) {
  const o = {
    ariasnap: path.join(__dirname, '..', 'target', 'release', 'ariasnap'),
    before: null,
    page: path.join(__dirname, '..', '..', 'shared', 'bench', 'generated', 'synthetic', 'mixed-10000.html'),
    runs: 10,
    browser: 'chromium',
    role: 'button',
    name: 'String library',
    clickRole: 'tab',
    clickName: 'Boolean filter',
    click: false,
    journalLines: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${k} needs a value`);
      return argv[++i];
    };
    if (k === '--ariasnap') o.ariasnap = path.resolve(v());
    else if (k === '--before') o.before = path.resolve(v());
    else if (k === '--page') o.page = path.resolve(v());
    else if (k === '--runs') o.runs = Number(v());
    else if (k === '--browser') o.browser = v();
    else if (k === '--role') o.role = v();
    else if (k === '--name') o.name = v();
    else if (k === '--click-role') o.clickRole = v();
    else if (k === '--click-name') o.clickName = v();
    else if (k === '--click') o.click = true;
    else if (k === '--journal-lines') o.journalLines = Number(v());
    else throw new Error(`unknown option ${k} (see the head of ${path.relative(process.cwd(), __filename)})`);
  }
  if (!fs.existsSync(o.page)) throw new Error(`no page at ${o.page}: node ../shared/bench/gen-synthetic.js --out DIR writes mixed-10000.html`);
  return o;
}

function serve(dir) {
  const server = http.createServer((req, res) => {
    const p = path.join(dir, path.normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, ''));
    if (!p.startsWith(dir) || !fs.existsSync(p) || !fs.statSync(p).isFile()) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': p.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/javascript' });
    fs.createReadStream(p).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)),
  })));
}

/** One binary's session in a state directory of its own. */
function side(bin, label, o) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `locate-bench-${label}-`));
  const env = { ...process.env, ARIASNAP_HOME: home, ARIASNAP_BROWSER: o.browser };
  delete env.ARIASNAP_SESSION;
  const session = `locate-bench-${label}`;
  // (asynchronous: the page is served from this process's event loop)
  const run = (args) => new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(bin, ['--session', session, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${label}: ariasnap ${args.join(' ')} exited ${code}: ${Buffer.concat(err).toString().trim()}`));
      else resolve({ ms, out: Buffer.concat(out).toString() });
    });
  });
  const close = () => {
    spawnSync(bin, ['session', 'close', session], { env, stdio: 'ignore' });
    for (let i = 0; i < 10; i++) {
      try { fs.rmSync(home, { recursive: true, force: true }); return; } catch (_) { /* the browser still ends */ }
    }
  };
  return { run, close, home, session };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const f = (x) => x.toFixed(1);

/** The step's own time, from a command's JSON reply. */
const stepMs = (out) => {
  try { return JSON.parse(out).steps[0].ms; } catch (_) { return NaN; }
};

async function locate(o, url) {
  const s = side(o.ariasnap, 'locate', o);
  try {
    await s.run(['goto', url]);
    const loc = ['get', '--role', o.role, '--name', o.name, '--format', 'json'];
    // (--no-cache: a walk each time, as the locator's; the 5-second snapshot cache would answer
    // an unchanged page without one)
    const snap = ['snapshot', '--detail', 'interactive', '--no-cache'];
    // warm both (the engine is installed, caches are made)
    await s.run(loc);
    await s.run(snap);
    const t = { loc: [], snap: [], locStep: [] };
    for (let i = 0; i < o.runs; i++) {
      const a = async () => { const r = await s.run(loc); t.loc.push(r.ms); t.locStep.push(stepMs(r.out)); };
      const b = async () => t.snap.push((await s.run(snap)).ms);
      if (i % 2) { await b(); await a(); } else { await a(); await b(); }
    }
    console.log(`| command | median ms (whole process, ${o.runs} runs) | min | max |`);
    console.log('| --- | ---: | ---: | ---: |');
    console.log(`| \`snapshot --detail interactive --no-cache\` | ${f(median(t.snap))} | ${f(Math.min(...t.snap))} | ${f(Math.max(...t.snap))} |`);
    console.log(`| \`get --role ${o.role} --name "${o.name}"\` (a locator) | ${f(median(t.loc))} | ${f(Math.min(...t.loc))} | ${f(Math.max(...t.loc))} |`);
    console.log(`\nthe locator step's own time (its reply's ms): median ${f(median(t.locStep))} ms`);
    console.log(`locator / interactive snapshot: ${(median(t.loc) / median(t.snap)).toFixed(2)}x`);
  } finally {
    s.close();
  }
}

/** The ref of ROLE "NAME" on the page: from an interactive snapshot, else (a page with more
 * controls than get refs up front) the first match of a search. */
async function refOf(s, role, name) {
  try {
    return refIn((await s.run(['snapshot', '--detail', 'interactive'])).out, role, name);
  } catch (_) {
    const out = (await s.run(['search', name, '--role', role, '--format', 'json'])).out;
    const m = JSON.parse(out).steps[0].output.matches.find((x) => x.name === name);
    if (!m) throw new Error(`no ${role} "${name}" on the page`);
    return m.ref;
  }
}

/** The ref of `- ROLE "NAME"` in a snapshot. */
function refIn(text, role, name) {
  const line = text.split('\n').find((l) => l.includes(`- ${role} "${name}"`));
  const m = line && line.match(/\[ref=([a-z0-9]+)\]/);
  if (!m) throw new Error(`no ${role} "${name}" with a ref on the page`);
  return m[1];
}

async function click(o, url) {
  const bins = o.before ? [[o.before, 'before'], [o.ariasnap, 'after']] : [[o.ariasnap, 'ariasnap']];
  const sides = bins.map(([bin, label]) => side(bin, label, o));
  try {
    const refs = [];
    for (const s of sides) {
      await s.run(['goto', url]);
      if (o.journalLines) {
        const dir = path.join(s.home, 'journals-v1');
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const lines = [];
        for (let n = 1; n <= o.journalLines; n++) {
          lines.push(JSON.stringify({ n, kind: 'step', action: 'click', args: {}, target: { role: 'button', name: `Item ${n}` }, status: 'ok' }));
        }
        fs.writeFileSync(path.join(dir, `${s.session}.jsonl`), lines.join('\n') + '\n', { mode: 0o600 });
      }
      const r = await refOf(s, o.clickRole, o.clickName);
      await s.run(['click', r]);
      refs.push(r);
    }
    const t = sides.map(() => []);
    const order = sides.map((_, k) => k);
    for (let i = 0; i < o.runs; i++) {
      for (const k of i % 2 ? [...order].reverse() : order) t[k].push((await sides[k].run(['click', refs[k]])).ms);
    }
    console.log(`| binary | click by ref, median ms (whole process, ${o.runs} runs, journal of ${o.journalLines} lines before) | min | max |`);
    console.log('| --- | ---: | ---: | ---: |');
    bins.forEach(([, b], k) => console.log(`| ${b} | ${f(median(t[k]))} | ${f(Math.min(...t[k]))} | ${f(Math.max(...t[k]))} |`));
  } finally {
    sides.forEach((s) => s.close());
  }
  await closes(o, url, bins);
}

/** `session close` of fresh sessions on the page: how long it takes to return, and whether a
 * process of the session's browser profile is left 2 s after. */
async function closes(o, url, bins) {
  console.log(`\n| binary | \`session close\`, median ms (${o.runs} sessions) | max | sessions with a process left 2 s after |`);
  console.log('| --- | ---: | ---: | ---: |');
  for (const [bin, label] of bins) {
    const ms = [];
    let left = 0;
    for (let i = 0; i < o.runs; i++) {
      const s = side(bin, `${label}-close-${i}`, o);
      await s.run(['goto', url]);
      const rec = JSON.parse(fs.readFileSync(path.join(s.home, 'sessions-v1', `${s.session}.json`), 'utf8'));
      const t0 = process.hrtime.bigint();
      spawnSync(bin, ['session', 'close', s.session], { env: { ...process.env, ARIASNAP_HOME: s.home }, stdio: 'ignore' });
      ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
      await new Promise((r) => setTimeout(r, 2000));
      const ps = spawnSync('pgrep', ['-f', rec.user_data_dir], { encoding: 'utf8' });
      if (ps.stdout.trim()) left++;
      s.close();
    }
    console.log(`| ${label} | ${f(median(ms))} | ${f(Math.max(...ms))} | ${left} |`);
  }
}

async function main() {
  const o = options(process.argv.slice(2));
  const server = await serve(path.dirname(o.page));
  const url = server.url + path.basename(o.page);
  try {
    if (o.click) await click(o, url);
    else await locate(o, url);
  } finally {
    await server.close();
  }
}

main().catch((e) => {
  console.error(`locate-bench: ${e.message}`);
  process.exit(2);
});
