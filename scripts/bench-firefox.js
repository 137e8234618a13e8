#!/usr/bin/env node
// ariasnap on Firefox as a ratio of ariasnap on Chromium, on the bench's pages, in one run.
//
//   node scripts/bench-firefox.js BIN [--pages REGEX] [--corpus synthetic,readability] [--runs N]
//
// Serves the corpora with ../shared/bench/lib/server.js (127.0.0.1, random port), opens one
// ariasnap session per browser (private ARIASNAP_HOME), and for each page: `goto` in both,
// then, alternating which browser goes first, one cold call (the first snapshot of the
// loaded page) and RUNS warm calls of
// `ariasnap snapshot --format json --inline-limit 0 --max-nodes 0 --no-cache`, each timed as
// a whole process from spawn to exit (as bench.sh times the candidate). Prints a table of
// cold and warm (median) times per browser and the Firefox/Chromium ratios, and the output
// sizes. Sessions, server and home are removed at the end.
'use strict';
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const here = path.resolve(__dirname, '..');
const bench = process.env.BENCH_DIR || path.resolve(here, '..', 'shared', 'bench');
const { startServer } = require(path.join(bench, 'lib', 'server.js'));
const corpus = require(path.join(bench, 'lib', 'corpus.js'));

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}
const bin = process.argv[2];
if (!bin || !fs.existsSync(bin)) {
  console.error('usage: node scripts/bench-firefox.js BIN [--pages REGEX] [--corpus LIST] [--runs N]');
  process.exit(2);
}
const pagesRe = new RegExp(arg('--pages', 'mixed-(10000|100000)$'));
const corpora = arg('--corpus', 'synthetic').split(',');
const runs = Number(arg('--runs', process.env.RUNS || 3));
const timeoutMs = Number(process.env.TIMEOUT_S || 180) * 1000;
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ariasnap-ffbench-'));
const BROWSERS = ['chromium', 'firefox'];

// Asynchronous: the corpus server runs in this process, so the event loop must stay free.
function call(browser, args) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(bin, [...args, '--session', `bench-${browser}`, '--browser', browser, '--timeout', String(timeoutMs)], {
      env: { ...process.env, ARIASNAP_HOME: home, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let bytes = 0;
    let err = '';
    child.stdout.on('data', (d) => { bytes += d.length; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs + 10000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      resolve(code === 0 ? { ms, bytes } : { ms, error: `exit ${code}: ${err.split('\n')[0]}` });
    });
  });
}

const SNAP = ['snapshot', '--format', 'json', '--inline-limit', '0', '--max-nodes', '0', '--no-cache'];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
}

async function main() {
  const server = await startServer();
  const rows = [];
  try {
    const pages = corpus.allPages().filter((p) => corpora.includes(p.corpus));
    const chosen = pages.filter((p) => pagesRe.test(p.id));
    if (!chosen.length) throw new Error(`no page matches ${pagesRe} in ${corpora.join(',')}`);
    let first = 0;
    for (const p of chosen) {
      const url = `${server.origin}${p.urlPath}`;
      const res = {};
      const order = first ? [...BROWSERS].reverse() : BROWSERS;
      first ^= 1;
      for (const b of order) {
        const g = await call(b, ['goto', url]);
        res[b] = { goto: g, cold: g.error ? g : await call(b, SNAP), warm: [] };
      }
      for (let i = 0; i < runs; i++) {
        for (const b of (i % 2 ? [...order].reverse() : order)) {
          if (!res[b].cold.error) res[b].warm.push(await call(b, SNAP));
        }
      }
      const row = { page: p.id };
      for (const b of BROWSERS) {
        const ok = res[b].warm.filter((x) => !x.error);
        row[b] = {
          cold: res[b].cold.error ? null : res[b].cold.ms,
          warm: ok.length ? median(ok.map((x) => x.ms)) : null,
          bytes: res[b].cold.bytes || null,
          error: res[b].cold.error || (res[b].warm.find((x) => x.error) || {}).error || null,
        };
      }
      rows.push(row);
      process.stderr.write(`bench-firefox: ${p.id} done\n`);
    }
  } finally {
    for (const b of BROWSERS) {
      spawnSync(bin, ['session', 'close', `bench-${b}`], { env: { ...process.env, ARIASNAP_HOME: home } });
    }
    await server.close();
    fs.rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 }); // a closed session's browser may still be ending
  }
  const f = (x) => (x == null ? 'n/a' : x.toFixed(0));
  const r = (a, b) => (a == null || b == null ? 'n/a' : (a / b).toFixed(2));
  console.log(`\n## ariasnap on Firefox / ariasnap on Chromium (${runs} warm calls, whole process, ms)\n`);
  console.log('| page | Chromium cold | Chromium warm | Firefox cold | Firefox warm | cold ratio | warm ratio | bytes C / F |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const x of rows) {
    const c = x.chromium;
    const ff = x.firefox;
    console.log(`| ${x.page} | ${f(c.cold)} | ${f(c.warm)} | ${f(ff.cold)} | ${f(ff.warm)} | ${r(ff.cold, c.cold)} | ${r(ff.warm, c.warm)} | ${c.bytes || 'n/a'} / ${ff.bytes || 'n/a'} |`);
    for (const b of BROWSERS) if (x[b].error) console.log(`|  ${b} error: ${x[b].error} | | | | | | | |`);
  }
}

main().catch((e) => {
  console.error(`bench-firefox: ${e.message}`);
  process.exit(1);
});
