#!/usr/bin/env node
// The audit's agreement with axe-core's own Playwright integration (docs/reference/audit.md):
// on the readability-corpus pages (served as the bench serves them: ../shared/bench/lib/server.js,
// scripts blocked by CSP), `ariasnap audit --no-tab` on Chromium against `@axe-core/playwright`
// given the same vendored axe-core build (js/vendor/axe-core/axe.min.js, so the version is the
// same by construction), with the same defaults. Per rule: the elements each flags (summed over
// the pages), the pages where both flag the rule with the same number of elements, and how many
// of ariasnap's elements carry a ref. Prints a Markdown table, then the time each tool took on
// the pages where either took over 10 s (the audit alone: ariasnap's `audit` step, axe's
// `analyze()`; the page's load is not counted), and --json FILE keeps the data.
//
//   node scripts/audit-bench.js --ariasnap target/release/ariasnap --bench ../shared/bench \
//     --modules ~/.cache/ariasnap/audit-bench [--only REGEX] [--json out.json]
"use strict";
const fs = require("fs");
const path = require("path");
const { execFile, execFileSync } = require("child_process");

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const root = path.resolve(__dirname, "..");
const ariasnap = path.resolve(opt("--ariasnap", path.join(root, "target/release/ariasnap")));
const bench = path.resolve(opt("--bench", path.join(root, "..", "shared", "bench")));
const modules = path.resolve(opt("--modules", path.join(process.env.HOME, ".cache/ariasnap/audit-bench")));
const only = opt("--only", null);
const chromium = opt("--chromium", "/usr/bin/chromium");
const home = fs.mkdtempSync(path.join(require("os").tmpdir(), "audit-bench-"));
const session = "audit-bench";

const { chromium: pw } = require(path.join(bench, "node_modules/playwright-core"));
const { AxeBuilder } = require(path.join(modules, "node_modules/@axe-core/playwright"));
const { startServer } = require(path.join(bench, "lib/server.js"));
const corpus = require(path.join(bench, "lib/corpus.js"));
const axeSource = fs.readFileSync(path.join(root, "js/vendor/axe-core/axe.min.js"), "utf8");

// (asynchronous: the corpus server runs in this process and must answer the page meanwhile)
function run(argv) {
  return new Promise((resolve, reject) => {
    execFile(
      ariasnap,
      ["--session", session, ...argv],
      { env: { ...process.env, ARIASNAP_HOME: home, NO_COLOR: "1" }, encoding: "utf8", maxBuffer: 64 << 20 },
      (err, out, errText) => (err ? reject(new Error(`${argv.join(" ")}: ${errText || err.message}`)) : resolve(JSON.parse(out)))
    );
  });
}

/** ariasnap's elements per rule on one page, and how many carry a ref. */
async function ariasnapAudit(url) {
  await run(["goto", url, "--timeout", "60000"]);
  const t0 = Date.now();
  const r = await run(["audit", "--no-tab", "--timeout", "120000"]);
  const ms = Date.now() - t0;
  const out = {};
  for (const [key, nodes] of Object.entries(r.steps[0].output.violations)) {
    const rule = key.split(" ")[0];
    out[rule] = { n: nodes.length, refs: nodes.filter((x) => !x.endsWith("(no ref)")).length };
  }
  return { out, ms };
}

/** @axe-core/playwright's elements per rule on one page. */
async function playwrightAudit(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: "load", timeout: 60000 });
    const t0 = Date.now();
    const r = await new AxeBuilder({ page, axeSource }).analyze();
    const ms = Date.now() - t0;
    const out = {};
    for (const v of r.violations) out[v.id] = { n: v.nodes.length };
    return { out, ms, version: r.testEngine.version };
  } finally {
    await context.close();
  }
}

(async () => {
  const server = await startServer();
  const names = corpus
    .readabilityPages()
    .map((p) => p.id.replace(/^readability\//, ""))
    .filter((n) => !only || new RegExp(only).test(n));
  const browser = await pw.launch({ executablePath: chromium, headless: true });
  await run(["goto", "about:blank", "--timeout", "60000"]);
  const rules = {};
  const pages = [];
  const failed = [];
  let version = "";
  try {
    for (const name of names) {
      const url = `${server.origin}/readability/${name}.html`;
      const p = await playwrightAudit(browser, url);
      version = p.version;
      let a, ms;
      try {
        ({ out: a, ms } = await ariasnapAudit(url));
      } catch (e) {
        // a page ariasnap could not audit is counted and named, not the end of the run
        failed.push(`${name}: ${String(e.message).split("\n")[0]}`);
        process.stderr.write(`${name}(failed) `);
        continue;
      }
      pages.push({ name, playwright: p.out, ariasnap: a, ms: { playwright: p.ms, ariasnap: ms } });
      for (const id of new Set([...Object.keys(p.out), ...Object.keys(a)])) {
        const r = (rules[id] = rules[id] || { pages: 0, same: 0, pw: 0, as: 0, refs: 0 });
        const x = p.out[id] ? p.out[id].n : 0;
        const y = a[id] ? a[id].n : 0;
        r.pages += 1;
        r.same += x === y ? 1 : 0;
        r.pw += x;
        r.as += y;
        r.refs += a[id] ? a[id].refs : 0;
      }
      process.stderr.write(`${name} `);
    }
  } finally {
    await browser.close();
    await server.close();
    try {
      execFileSync(ariasnap, ["session", "close", session], { env: { ...process.env, ARIASNAP_HOME: home } });
    } catch (_) {}
  }
  process.stderr.write("\n");
  const ids = Object.keys(rules).sort((a, b) => rules[b].pw - rules[a].pw || a.localeCompare(b));
  const lines = [
    `axe-core ${version} on ${names.length} readability pages (Chromium): elements flagged per rule, summed over the pages`,
    "",
    "| rule | pages flagged | @axe-core/playwright | ariasnap audit | pages equal | with a ref |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  let [tp, ta, tr, eq, all] = [0, 0, 0, 0, 0];
  for (const id of ids) {
    const r = rules[id];
    lines.push(`| ${id} | ${r.pages} | ${r.pw} | ${r.as} | ${r.same}/${r.pages} | ${r.refs} |`);
    tp += r.pw;
    ta += r.as;
    tr += r.refs;
    eq += r.same;
    all += r.pages;
  }
  lines.push(`| **all ${ids.length} rules** | | **${tp}** | **${ta}** | **${eq}/${all}** | **${tr}** |`);
  const samePages = pages.filter((p) => {
    const k = new Set([...Object.keys(p.playwright), ...Object.keys(p.ariasnap)]);
    return [...k].every((id) => (p.playwright[id] || { n: 0 }).n === (p.ariasnap[id] || { n: 0 }).n);
  }).length;
  lines.push("", `Pages where every rule flags the same number of elements: ${samePages}/${pages.length}.`);
  if (failed.length) lines.push("", `Pages ariasnap could not audit (${failed.length}):`, ...failed.map((f) => `- ${f}`));
  const slow = pages.filter((p) => Math.max(p.ms.playwright, p.ms.ariasnap) > 10000);
  if (slow.length) {
    lines.push("", "Pages where either tool took over 10 s (seconds, the audit alone):", "");
    lines.push("| page | @axe-core/playwright | ariasnap audit |", "| --- | ---: | ---: |");
    for (const p of slow) lines.push(`| ${p.name} | ${(p.ms.playwright / 1000).toFixed(1)} | ${(p.ms.ariasnap / 1000).toFixed(1)} |`);
  }
  const total = (k) => (pages.reduce((s, p) => s + p.ms[k], 0) / 1000).toFixed(0);
  lines.push("", `All ${pages.length} pages: @axe-core/playwright ${total("playwright")} s, ariasnap audit ${total("ariasnap")} s.`);
  console.log(lines.join("\n"));
  const json = opt("--json", null);
  if (json) fs.writeFileSync(json, JSON.stringify({ version, rules, pages }, null, 1));
})().catch((e) => {
  console.error(e && e.stack ? e.stack : e);
  process.exit(1);
});
