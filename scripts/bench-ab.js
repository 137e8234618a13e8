#!/usr/bin/env node
// Before/after table of two ../shared/bench results files with ariasnap as the candidate (one
// measure.js run per binary, as `bash scripts/bench.sh --baseline REV` makes them): per page the
// candidate's warm time before and after, each also as a ratio to Playwright's AI snapshot
// (pw_ai) measured in the same run (the machine may drift between the two runs), after/before
// raw and anchor-normalized, bytes and F1; then pooled F1, the overall time ratios and a verdict:
// times within TOL (default 5%) and F1 equal.
//   node scripts/bench-ab.js BEFORE AFTER [--labels before,after] [--tol 0.05]
// BEFORE and AFTER are measure.js results files, or folders of them whose pages are joined
// (bench.sh --interleave writes one file per page).
'use strict';
const fs = require('fs');
const path = require('path');

function opt(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}
const files = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(i > 0 && all[i - 1].startsWith('--')));
if (files.length !== 2) {
  console.error('usage: bench-ab.js BEFORE AFTER [--labels before,after] [--tol 0.05]  (results files or folders of them)');
  process.exit(2);
}
const [labelB, labelA] = (opt('--labels', 'before,after')).split(',');
const tol = Number(opt('--tol', '0.05'));
// Each page remembers where measure.js saved its candidate output (SAVE_SNAPSHOTS=1):
// <folder of the results file>/snapshots/<results name>/<page id>/candidate.out
function load(f) {
  const list = fs.statSync(f).isDirectory()
    ? fs.readdirSync(f).filter((n) => n.endsWith('.json')).sort().map((n) => path.join(f, n))
    : [f];
  return {
    pages: list.flatMap((x) => JSON.parse(fs.readFileSync(x, 'utf8')).pages.map((p) => ({
      ...p, out_file: path.join(path.dirname(x), 'snapshots', path.basename(x, '.json'), p.id, 'candidate.out'),
    }))),
  };
}
const [resB, resA] = files.map(load);
// The candidate's output without what changes from run to run by itself: the harness's port in
// URLs, the snapshot number in refs, and the `stats` block (timings; its byte count follows
// their digits).
function output(p) {
  try {
    // snapshot numbers too: the two sessions take different numbers of snapshots (s9e4 vs s12e4)
    const text = fs.readFileSync(p.out_file, 'utf8')
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, '<origin>')
      .replace(/\b(f\d+)?s\d+e(\d+)\b/g, '$1sNe$2')
      .replace(/"snapshot":\s*\d+/g, '"snapshot":0');
    const o = JSON.parse(text);
    if (o && typeof o === 'object') delete o.stats;
    return JSON.stringify(o);
  } catch (e) {
    return null;
  }
}

const okMs = (t, k) => (t && t.status === 'ok' && typeof t[k] === 'number' ? t[k] : null);
const fmt = (x, d = 0) => (x === null || x === undefined || Number.isNaN(x) ? '-' : Number(x).toFixed(d));
const div = (a, b) => (a === null || b === null || !b ? null : a / b);
const fid = (p) => (p && p.fidelity && p.fidelity.candidate) || null;
const geomean = (xs) => (xs.length ? Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length) : null);
const sum = (xs) => xs.reduce((s, x) => s + x, 0);
// F1 is "the same" when equal at the precision it is printed with (4 decimals).
// F1 is the same when both runs measured it equal at 4 decimals, or neither could (the
// reference tree failed on that page in both runs: nothing to compare)
const sameF1 = (a, b) => (a === null && b === null) || (a !== null && b !== null && Math.abs(a - b) < 5e-5);

function side(p) {
  const t = (p && p.tools) || {};
  const c = t.candidate || {};
  const f = fid(p);
  return {
    status: p ? (p.error ? 'page error' : c.status || 'missing') : 'not measured',
    warm: okMs(c, 'median_ms'), cold: okMs(c, 'cold_ms'),
    ai_warm: okMs(t.pw_ai, 'median_ms'), ai_cold: okMs(t.pw_ai, 'cold_ms'),
    bytes: typeof c.bytes === 'number' ? c.bytes : null,
    f1: f ? f.f1 : null, f: f, ref: p ? p.reference_pairs : null,
  };
}

const byId = (res) => new Map(res.pages.map((p) => [p.id, p]));
const mB = byId(resB);
const mA = byId(resA);
const ids = [...mB.keys(), ...[...mA.keys()].filter((k) => !mB.has(k))];
const rows = ids.map((id) => {
  const pB = mB.get(id);
  const pA = mA.get(id);
  const b = side(pB);
  const a = side(pA);
  const rB = div(b.warm, b.ai_warm);
  const rA = div(a.warm, a.ai_warm);
  return {
    id, corpus: (pB || pA).corpus, dom: (pB || pA).dom_elements, b, a, rB, rA,
    raw: div(a.warm, b.warm), norm: div(rA, rB), cold: div(a.cold, b.cold), drift: div(a.ai_warm, b.ai_warm),
    same_out: pB && pA ? (() => { const x = output(pB); const y = output(pA); return x === null || y === null ? null : x === y; })() : null,
  };
});

console.log(`before: ${labelB} (${files[0]})\nafter:  ${labelA} (${files[1]})`);
console.log(`ms = ariasnap warm (median of timed snapshot calls on a loaded page); /AI = that time over Playwright's AI ` +
  `snapshot warm in the same measure.js run; A/B = after / before (below 1 is faster); A/B norm. = (after/AI) / (before/AI); ` +
  `output = the two outputs compared without their stats block (timings) and the harness's port.\n`);
const head = ['page', 'DOM el.', 'before ms', 'before /AI', 'after ms', 'after /AI', 'A/B', 'A/B norm.',
  'bytes before', 'bytes after', 'output', 'F1 before', 'F1 after'];
console.log('| ' + head.join(' | ') + ' |');
console.log('|' + head.map(() => ' --- ').join('|') + '|');
for (const r of rows) {
  const notes = [];
  if (r.b.status !== 'ok') notes.push(`before: ${r.b.status}`);
  if (r.a.status !== 'ok') notes.push(`after: ${r.a.status}`);
  if (!sameF1(r.b.f1, r.a.f1)) notes.push('F1 differs' + (r.b.ref !== r.a.ref ? ` (reference pairs ${r.b.ref} vs ${r.a.ref})` : ''));
  console.log('| ' + [r.id, r.dom ?? '-', fmt(r.b.warm, 1), fmt(r.rB, 3), fmt(r.a.warm, 1), fmt(r.rA, 3),
    fmt(r.raw, 3), fmt(r.norm, 3), r.b.bytes ?? '-', r.a.bytes ?? '-',
    r.same_out === null ? '-' : r.same_out ? 'same' : 'differs', fmt(r.b.f1, 4), fmt(r.a.f1, 4)].join(' | ') +
    (notes.length ? ` (${notes.join('; ')})` : '') + ' |');
}

// Pooled F1: matched / candidate / reference pairs added over the pages of a corpus first.
function pooled(list, which) {
  let m = 0; let c = 0; let ref = 0; let n = 0;
  for (const r of list) {
    const f = r[which].f;
    if (!f) continue;
    m += f.matched; c += f.candidate_pairs; ref += f.reference_pairs; n++;
  }
  const p = c ? m / c : 0;
  const rc = ref ? m / ref : 0;
  return { f1: p + rc ? (2 * p * rc) / (p + rc) : 0, n };
}
console.log('\npooled F1 (matched, candidate and reference pairs added over the pages first):');
const groups = [...new Set(rows.map((r) => r.corpus))].map((c) => [c, rows.filter((r) => r.corpus === c)]);
if (groups.length > 1) groups.push(['all', rows]);
let pooledSame = true;
for (const [name, list] of groups) {
  const pb = pooled(list, 'b');
  const pa = pooled(list, 'a');
  if (!sameF1(pb.f1, pa.f1)) pooledSame = false;
  console.log(`  ${name}: before ${pb.f1.toFixed(4)} (${pb.n} pages), after ${pa.f1.toFixed(4)} (${pa.n} pages)`);
}

// Times: only pages where both runs measured the candidate and the anchor.
const both = rows.filter((r) => r.raw !== null);
const bothNorm = rows.filter((r) => r.norm !== null);
const gRaw = geomean(both.map((r) => r.raw));
const sRaw = both.length ? sum(both.map((r) => r.a.warm)) / sum(both.map((r) => r.b.warm)) : null;
const gNorm = geomean(bothNorm.map((r) => r.norm));
const sNorm = bothNorm.length
  ? (sum(bothNorm.map((r) => r.a.warm)) / sum(bothNorm.map((r) => r.a.ai_warm))) /
    (sum(bothNorm.map((r) => r.b.warm)) / sum(bothNorm.map((r) => r.b.ai_warm)))
  : null;
const gCold = geomean(rows.filter((r) => r.cold !== null).map((r) => r.cold));
const gDrift = geomean(rows.filter((r) => r.drift !== null).map((r) => r.drift));
console.log(`\ntime after/before over ${both.length} pages: geometric mean of per-page ratios ${fmt(gRaw, 3)}, ` +
  `sum ratio ${fmt(sRaw, 3)} (${fmt(sum(both.map((r) => r.a.warm)))} / ${fmt(sum(both.map((r) => r.b.warm)))} ms)`);
// Spread: 2 standard errors of the mean log ratio across pages, as a rough band around the geometric mean.
function band(xs) {
  if (xs.length < 2) return null;
  const l = xs.map(Math.log);
  const m = l.reduce((s, x) => s + x, 0) / l.length;
  const sd = Math.sqrt(l.reduce((s, x) => s + (x - m) ** 2, 0) / (l.length - 1));
  return [Math.exp(m - (2 * sd) / Math.sqrt(l.length)), Math.exp(m + (2 * sd) / Math.sqrt(l.length))];
}
const bRaw = band(both.map((r) => r.raw));
console.log(`  spread across pages (geometric mean ± 2 standard errors): ${bRaw ? `${fmt(bRaw[0], 3)} .. ${fmt(bRaw[1], 3)}` : '- (one page)'}` +
  (bRaw && (bRaw[1] - bRaw[0]) / 2 > tol ? `: wider than ±${Math.round(tol * 100)}%, so this run cannot resolve a ${Math.round(tol * 100)}% difference` : ''));
console.log(`anchor-normalized (each run's time over its own Playwright AI time): geometric mean ${fmt(gNorm, 3)}, sum ratio ${fmt(sNorm, 3)}`);
console.log(`machine drift (Playwright AI warm in the after run / in the before run, geometric mean): ${fmt(gDrift, 3)}; ` +
  `ariasnap cold (first call) after/before, geometric mean: ${fmt(gCold, 3)}`);

const within = (x) => x !== null && Math.abs(x - 1) <= tol;
const missing = rows.filter((r) => r.raw === null).map((r) => r.id);
const timesOk = both.length > 0 && within(gRaw) && within(sRaw);
const normOk = bothNorm.length > 0 && within(gNorm) && within(sNorm);
const f1Diff = rows.filter((r) => !sameF1(r.b.f1, r.a.f1)).map((r) => r.id);
const f1Ok = f1Diff.length === 0 && pooledSame;
const outDiff = rows.filter((r) => r.same_out === false).map((r) => r.id);
const outUnknown = rows.filter((r) => r.same_out === null).length;
const pct = `${Math.round(tol * 100)}%`;
console.log(`\nverdict: times ${timesOk ? 'WITHIN' : 'NOT within'} ${pct} (geometric mean ${fmt(gRaw, 3)}, sum ratio ${fmt(sRaw, 3)}; ` +
  `anchor-normalized ${normOk ? 'within' : 'not within'}: ${fmt(gNorm, 3)}, ${fmt(sNorm, 3)})` +
  (missing.length ? `; ${missing.length} page(s) not timed in both runs: ${missing.join(', ')}` : ''));
console.log(`verdict: F1 ${f1Ok ? 'EQUAL' : 'NOT equal'} (${rows.length - f1Diff.length}/${rows.length} pages equal at 4 decimals` +
  `${pooledSame ? ', pooled equal' : ', pooled differs'})` + (f1Diff.length ? `; differs on: ${f1Diff.join(', ')}` : ''));
console.log(`outputs: ${rows.length - outDiff.length - outUnknown}/${rows.length} pages identical apart from stats, port and snapshot numbers` +
  (outDiff.length ? `; differ on: ${outDiff.join(', ')}` : '') + (outUnknown ? `; ${outUnknown} not compared (no saved output)` : ''));
// a change that makes it faster is no regression: say so apart from the symmetric check
const notSlower = both.length > 0 && gRaw <= 1 + tol && sRaw <= 1 + tol;
console.log(`verdict: ${notSlower ? 'NO' : 'A'} slowdown beyond ${pct} (geometric mean ${fmt(gRaw, 3)}, sum ratio ${fmt(sRaw, 3)})`);
console.log(`verdict: ${timesOk && f1Ok && !missing.length ? 'PASS' : 'FAIL'}: same F1 and times within ${pct}, before and after`);
