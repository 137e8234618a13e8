#!/usr/bin/env node
// Prints ariasnap beside Playwright (default and AI mode) and Chromium's own tree from one
// ../shared/bench results file: times (warm = median of calls on a loaded page, cold = first
// call), ratios (ariasnap / Playwright AI; below 1 is faster), bytes and F1, plus the engine's
// in-page time read from the saved candidate outputs.
//   node scripts/bench-report.js RESULTS.json [SNAPSHOTS_DIR]
'use strict';
const fs = require('fs');
const path = require('path');
const [file, snapDir] = process.argv.slice(2);
if (!file) {
  console.error('usage: bench-report.js RESULTS.json [SNAPSHOTS_DIR]');
  process.exit(2);
}
const res = JSON.parse(fs.readFileSync(file, 'utf8'));
const ms = (t, k) => (t && t.status === 'ok' && t[k] !== null && t[k] !== undefined ? t[k] : null);
const fmt = (x, d = 0) => (x === null || x === undefined ? '-' : Number(x).toFixed(d));
const ratio = (a, b) => (a === null || b === null || !b ? '-' : (a / b).toFixed(2));
const f1 = (rec, tool) => (rec.fidelity && rec.fidelity[tool] ? rec.fidelity[tool].f1 : null);
function engineMs(id) {
  if (!snapDir) return null;
  try {
    const out = JSON.parse(fs.readFileSync(path.join(snapDir, id, 'candidate.out'), 'utf8'));
    return out.stats ? out.stats.engine_ms : null;
  } catch (e) {
    return null;
  }
}
const rows = [];
const pooled = { ariasnap: [0, 0, 0], pw_aria: [0, 0, 0], pw_ai: [0, 0, 0] };
for (const p of res.pages) {
  const t = p.tools || {};
  const c = t.candidate || {};
  const r = {
    id: p.id,
    dom: p.dom_elements,
    a_warm: ms(c, 'median_ms'), a_cold: ms(c, 'cold_ms'), a_engine: engineMs(p.id),
    ai_warm: ms(t.pw_ai, 'median_ms'), ai_cold: ms(t.pw_ai, 'cold_ms'),
    aria_warm: ms(t.pw_aria, 'median_ms'),
    cdp_warm: ms(t.cdp, 'median_ms'), cdp_cold: ms(t.cdp, 'cold_ms'),
    a_bytes: c.bytes, ai_bytes: t.pw_ai && t.pw_ai.bytes,
    f1_a: f1(p, 'candidate'), f1_aria: f1(p, 'pw_aria'), f1_ai: f1(p, 'pw_ai'),
    status: c.status || '-',
  };
  rows.push(r);
  for (const [k, tool] of [['ariasnap', 'candidate'], ['pw_aria', 'pw_aria'], ['pw_ai', 'pw_ai']]) {
    const fd = p.fidelity && p.fidelity[tool];
    if (p.corpus === 'readability' && fd) {
      pooled[k][0] += fd.matched;
      pooled[k][1] += fd.candidate_pairs;
      pooled[k][2] += fd.reference_pairs;
    }
  }
}
const head = ['page', 'DOM el.', 'ariasnap warm', 'cold', 'in-page', 'PW-AI warm', 'cold', 'ratio warm', 'ratio cold',
  'PW warm', 'CDP warm', 'cold', 'ratio CDP warm', 'ratio CDP cold', 'bytes', 'PW-AI bytes', 'F1 ariasnap', 'F1 PW', 'F1 PW-AI'];
console.log('| ' + head.join(' | ') + ' |');
console.log('|' + head.map(() => ' --- ').join('|') + '|');
for (const r of rows) {
  console.log('| ' + [r.id, r.dom, fmt(r.a_warm), fmt(r.a_cold), fmt(r.a_engine, 1), fmt(r.ai_warm), fmt(r.ai_cold),
    ratio(r.a_warm, r.ai_warm), ratio(r.a_cold, r.ai_cold), fmt(r.aria_warm), fmt(r.cdp_warm), fmt(r.cdp_cold),
    ratio(r.a_warm, r.cdp_warm), ratio(r.a_cold, r.cdp_cold), r.a_bytes ?? '-',
    r.ai_bytes ?? '-', fmt(r.f1_a, 3), fmt(r.f1_aria, 3), fmt(r.f1_ai, 3)].join(' | ') + (r.status !== 'ok' ? ` (${r.status})` : '') + ' |');
}
const pf = ([m, c, r]) => {
  const p = c ? m / c : 0;
  const rc = r ? m / r : 0;
  return p + rc ? (2 * p * rc) / (p + rc) : 0;
};
if (pooled.ariasnap[2]) {
  console.log(`\npooled F1 on the readability corpus: ariasnap ${pf(pooled.ariasnap).toFixed(4)}, ` +
    `Playwright ${pf(pooled.pw_aria).toFixed(4)}, Playwright AI ${pf(pooled.pw_ai).toFixed(4)}`);
}
const real = rows.filter((r) => !r.id.startsWith('synthetic/') && r.a_warm !== null && r.ai_warm !== null);
if (real.length) {
  const sum = (k) => real.reduce((s, r) => s + (r[k] || 0), 0);
  console.log(`real pages (${real.length}): ariasnap warm total ${fmt(sum('a_warm'))} ms vs Playwright AI ${fmt(sum('ai_warm'))} ms ` +
    `(ratio ${ratio(sum('a_warm'), sum('ai_warm'))}); bytes ${sum('a_bytes')} vs ${sum('ai_bytes')} (ratio ${ratio(sum('a_bytes'), sum('ai_bytes'))})`);
}
// Linearity: cost per 1,000 DOM elements across the synthetic mixed-N sizes.
const sizes = rows.filter((r) => /^synthetic\/mixed-\d+$/.test(r.id) && r.dom && r.a_warm !== null);
if (sizes.length) {
  console.log('\ncost per 1,000 DOM elements (synthetic mixed-N; flat across sizes = linear):');
  for (const r of sizes) {
    const k = r.dom / 1000;
    console.log(`  ${r.id.replace('synthetic/', '')}: ariasnap warm ${fmt(r.a_warm / k, 1)} ms, cold ${fmt(r.a_cold / k, 1)} ms, ` +
      `in-page ${r.a_engine === null ? '-' : fmt(r.a_engine / k, 1)} ms; Playwright AI warm ${r.ai_warm === null ? '-' : fmt(r.ai_warm / k, 1)} ms`);
  }
}
