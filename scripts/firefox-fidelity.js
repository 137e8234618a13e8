#!/usr/bin/env node
// Fidelity on Firefox: for every element with a ref in ariasnap's snapshot of each corpus page,
// Firefox's own computed role and label (WebDriver Get Computed Role / Get Computed Label, asked
// through the very WebDriver session ariasnap drives) against ariasnap's role and name.
//
//   node scripts/firefox-fidelity.js --bin ARIASNAP [--pages REGEX] [--examples N] [--json FILE]
//                                    [--browser firefox|chromium]
//
// Run it through scripts/firefox-fidelity.sh (builds, gives it a private ARIASNAP_HOME and
// closes the session). The corpus and its static server are ../shared/bench's (BENCH_DIR):
// lib/corpus.js lists the readability pages, lib/server.js serves them on 127.0.0.1 (a random
// port, with the same script-blocking CSP the Chromium bench uses); both are required from
// there, never copied.
//
// `--browser chromium` asks chromedriver the same two questions about Chromium's own tree
// instead: a cross-check that tells a Firefox-Chromium difference from an ariasnap mistake
// (Chromium's pooled fidelity bar is scripts/bench.sh's F1; this is not a replacement).
//
// What is compared, and what is not:
// - Top-document refs only (`s<n>e<m>`). Refs in frames (`f<k>s..`) would need WebDriver frame
//   switching per frame; they are counted and reported as excluded.
// - Role: ariasnap's role against Get Computed Role, after the naming-convention mappings in
//   roleAgrees (each documented there). Nothing else is mapped.
// - Label: the JSON node's `name` only (a nameless generic's words are its `children`, its
//   content, never read as a name here: both browsers hold no name for it). Two figures:
//   exact: ariasnap's name against Get Computed Label, character for character;
//   label: both sides with white space collapsed, the convention of ariasnap's output (the
//     engine's normalizeWS, js/src/00_prelude.js: every run of white space, U+00A0 and U+200B
//     becomes one space, and the name is trimmed, as Playwright's snapshots do). Firefox keeps
//     U+00A0 and leading/trailing spaces of the text in its labels.
//   ariasnap caps names at 10,000 characters: a longer label is compared on that prefix.
// - both: role and (white-space-collapsed) label agree. This is the headline figure.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFile } = require('child_process');

const argv = process.argv.slice(2);
const opt = (n, d) => {
  const i = argv.indexOf(n);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : d;
};
const BIN = opt('--bin', process.env.ARIASNAP_BIN);
const BENCH = path.resolve(opt('--bench', process.env.BENCH_DIR || path.join(__dirname, '..', '..', 'shared', 'bench')));
const PAGES = opt('--pages', process.env.PAGES || '');
const EXAMPLES = Number(opt('--examples', '3'));
const JSON_OUT = opt('--json', '');
const SESSION = opt('--session', 'ffid');
const BROWSER = opt('--browser', 'firefox');
if (!BIN) {
  console.error('firefox-fidelity: --bin ARIASNAP is required');
  process.exit(2);
}
if (BROWSER !== 'firefox' && BROWSER !== 'chromium') {
  console.error('firefox-fidelity: --browser is firefox or chromium');
  process.exit(2);
}
if (!process.env.ARIASNAP_HOME) {
  console.error('firefox-fidelity: set ARIASNAP_HOME (the session record is read from there)');
  process.exit(2);
}
const corpus = require(path.join(BENCH, 'lib', 'corpus'));
const { startServer } = require(path.join(BENCH, 'lib', 'server'));

const NAME_CAP = 10000;
const B = BROWSER === 'firefox' ? 'firefox' : 'chromium';

/**
 * Whether ariasnap's role `a` and the browser's computed role `b` say the same thing, for an
 * element with local name `tag` and type attribute `type`. Naming conventions only:
 *
 * Firefox's Get Computed Role is Accessible::ComputedARIARole() (remote/marionette, getComputedRole):
 * the ARIA token of the element's Gecko role (accessible/base/RoleMap.h, its third column), ""
 * for a Gecko role that has no ARIA token (nullptr there), and "none" for an element with no
 * accessible at all. ariasnap's role names are Chromium's, and an element with no ARIA role is
 * "generic" in its output. So:
 * - an <iframe>/<frame>: ariasnap says "iframe" (Chromium's role name; ARIA has no iframe role),
 *   Firefox "" (its OUTERDOC role has no ARIA token);
 * - <input type=password>: ariasnap says "textbox" (Chromium's role for it), Firefox ""
 *   (its PASSWORD_TEXT role has no ARIA token; HTML-AAM lists no ARIA role for it either);
 * - ariasnap "generic" against Firefox "": both say "no ARIA role" (e.g. a focusable <label>:
 *   Gecko's LABEL role has no ARIA token).
 * Chromium's Get Computed Role answers its internal role names for roles ARIA lacks: "Iframe"
 * for frames, and "generic" for elements it keeps as plain containers.
 */
function roleAgrees(a, b, tag, type) {
  if (a === b) return true;
  if (B === 'firefox') {
    if (b === '' && a === 'iframe' && (tag === 'iframe' || tag === 'frame')) return true;
    if (b === '' && a === 'textbox' && tag === 'input' && type.toLowerCase() === 'password') return true;
    if (b === '' && a === 'generic') return true;
  } else if (a === 'iframe' && b === 'Iframe') {
    return true;
  }
  return false;
}

function run(args) {
  return new Promise((resolve) => {
    execFile(BIN, args, { maxBuffer: 1 << 30, env: process.env }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

function sessionRecord() {
  const f = path.join(process.env.ARIASNAP_HOME, 'sessions-v1', `${SESSION}.json`);
  return JSON.parse(fs.readFileSync(f, 'utf8'));
}

async function wd(rec, method, p, body) {
  const res = await fetch(`${rec.webdriver}/session/${rec.session_id}${p}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  const j = await res.json();
  if (!res.ok) {
    const v = j && j.value ? j.value : {};
    throw new Error(`${method} ${p}: ${v.error || res.status}: ${v.message || ''}`);
  }
  return j.value;
}

const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

// The element behind each ref, in one Execute Script: window.__ariaRefs in the page's main
// world is the ref map (ref -> element): the engine's own on WebDriver's classic path
// (js/src/50_refs.js, publicRefs), else its read-only mirror (docs/reference/browsers.md#the-ref-mirror), which ariasnap brings
// up to date on each `eval` step: measurePage runs one first. Each entry: [element, local
// name, type attribute] (for roleAgrees).
const LOOKUP = `var a = window.__ariaRefs, out = [];
for (var i = 0; i < arguments[0].length; i++) {
  var r = arguments[0][i];
  var el = a ? (typeof a.get === 'function' && !(r in a) ? a.get(r) : a[r]) || null : null;
  out.push(el ? [el, el.localName, el.getAttribute('type') || ''] : null);
}
return out;`;

// The start of each element's markup, for the JSON output's disagreements.
const MARKUP = `return arguments[0].map(function (el) {
  var h = el.outerHTML || '';
  return h.length > 800 ? h.slice(0, 800) + '...' : h;
});`;

function collectRefs(node, out) {
  if (!node || typeof node !== 'object') return;
  if (node.ref) out.push({ ref: node.ref, role: node.role, name: node.name || '' });
  for (const c of node.children || []) collectRefs(c, out);
}

// ariasnap's white-space convention (js/src/00_prelude.js, normalizeWS).
const collapse = (s) => s.replace(/[\s\u00a0\u200b]+/g, ' ').trim();

/** The kind of a name disagreement (after white space is collapsed): a short label for grouping. */
function nameKind(a, f) {
  if (!a) return `ariasnap empty, ${B} named`;
  if (!f) return `${B} empty, ariasnap named`;
  if (a.toLowerCase() === f.toLowerCase()) return 'letter case';
  if (a.replace(/\s/g, '') === f.replace(/\s/g, '')) return 'spacing between words';
  if (f.includes(a)) return `${B} has more text`;
  if (a.includes(f)) return 'ariasnap has more text';
  return 'other text';
}

async function measurePage(p, origin) {
  const url = origin + p.urlPath;
  const g = await run(['goto', url, '--browser', BROWSER, '--session', SESSION]);
  if (g.code !== 0) throw new Error(`goto failed (${g.code}): ${g.stderr.trim().split('\n')[0]}`);
  const s = await run(['snapshot', '--session', SESSION, '--format', 'json', '--max-nodes', '0', '--inline-limit', '0', '--no-cache']);
  if (s.code !== 0) throw new Error(`snapshot failed (${s.code}): ${s.stderr.trim().split('\n')[0]}`);
  const snap = JSON.parse(s.stdout);
  const all = [];
  collectRefs(snap, all);
  const refs = all.filter((r) => !/^f\d+/.test(r.ref));
  // an `eval` step syncs the main world's mirror of the ref map (a no-op on the classic path)
  const m = await run(['eval', 'Object.keys(window.__ariaRefs || {}).length', '--session', SESSION]);
  if (m.code !== 0) throw new Error(`eval failed (${m.code}): ${m.stderr.trim().split('\n')[0]}`);
  const rec = sessionRecord();
  const els = refs.length ? await wd(rec, 'POST', '/execute/sync', { script: LOOKUP, args: [refs.map((r) => r.ref)] }) : [];
  const rows = [];
  const bad = [];
  let unresolved = 0;
  for (let i = 0; i < refs.length; i++) {
    const e = els[i];
    const id = e && e[0] && e[0][ELEMENT_KEY];
    if (!id) {
      unresolved++;
      continue;
    }
    let role;
    let label;
    try {
      role = await wd(rec, 'GET', `/element/${id}/computedrole`);
      label = await wd(rec, 'GET', `/element/${id}/computedlabel`);
    } catch (err) {
      unresolved++;
      continue;
    }
    role = role == null ? '' : String(role);
    label = label == null ? '' : String(label);
    if (label.length > NAME_CAP) label = label.slice(0, NAME_CAP);
    const r = refs[i];
    const row = {
      ref: r.ref,
      tag: e[1],
      role: r.role,
      name: r.name,
      brole: role,
      blabel: label,
      roleOk: roleAgrees(r.role, role, e[1], e[2]),
      exactOk: r.name === label,
      nameOk: collapse(r.name) === collapse(label.slice(0, NAME_CAP)),
    };
    rows.push(row);
    if (!row.roleOk || !row.nameOk) bad.push([row, e[0]]);
  }
  if (bad.length) {
    try {
      const html = await wd(rec, 'POST', '/execute/sync', { script: MARKUP, args: [bad.map((b) => b[1])] });
      bad.forEach((b, i) => {
        b[0].html = html[i];
      });
    } catch (err) {
      // markup is only for the report
    }
  }
  return { id: p.id, refs: all.length, frameRefs: all.length - refs.length, unresolved, rows };
}

const pct = (n, d) => (d ? ((100 * n) / d).toFixed(2) : '-');
const clip = (s, n) => {
  const j = JSON.stringify(s);
  return j.length > n ? j.slice(0, n - 4) + '..."' : j;
};

async function main() {
  let pages = corpus.readabilityPages();
  if (PAGES) pages = pages.filter((p) => new RegExp(PAGES).test(p.id));
  if (!pages.length) {
    console.error('firefox-fidelity: no pages selected');
    process.exit(2);
  }
  const server = await startServer();
  const results = [];
  try {
    for (const p of pages) {
      const t0 = Date.now();
      try {
        const r = await measurePage(p, server.origin);
        results.push(r);
        const n = r.rows.length;
        const both = r.rows.filter((x) => x.roleOk && x.nameOk).length;
        console.error(`firefox-fidelity: ${p.id}: ${n} refs compared, both agree ${pct(both, n)}% (${Date.now() - t0} ms)`);
      } catch (e) {
        results.push({ id: p.id, error: String(e.message || e), rows: [], refs: 0, frameRefs: 0, unresolved: 0 });
        console.error(`firefox-fidelity: ${p.id}: ERROR ${e.message || e}`);
      }
    }
  } finally {
    await server.close();
  }

  const out = [];
  out.push(`ariasnap against ${B === 'firefox' ? 'Firefox' : 'Chromium'}'s computed role and label, readability corpus`);
  out.push('');
  out.push('| page | refs | compared | role | label exact | label | both |');
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const tot = { refs: 0, n: 0, frame: 0, unresolved: 0, role: 0, exact: 0, label: 0, both: 0 };
  for (const r of results) {
    const n = r.rows.length;
    const c = {
      role: r.rows.filter((x) => x.roleOk).length,
      exact: r.rows.filter((x) => x.exactOk).length,
      label: r.rows.filter((x) => x.nameOk).length,
      both: r.rows.filter((x) => x.roleOk && x.nameOk).length,
    };
    tot.refs += r.refs;
    tot.n += n;
    tot.frame += r.frameRefs;
    tot.unresolved += r.unresolved;
    for (const k of Object.keys(c)) tot[k] += c[k];
    const name = r.id.replace(/^readability\//, '') + (r.error ? ` (error: ${r.error})` : '');
    out.push(`| ${name} | ${r.refs} | ${n} | ${pct(c.role, n)}% | ${pct(c.exact, n)}% | ${pct(c.label, n)}% | ${pct(c.both, n)}% |`);
  }
  out.push(`| **pooled (${results.length} pages)** | ${tot.refs} | ${tot.n} | ${pct(tot.role, tot.n)}% | ${pct(tot.exact, tot.n)}% | ` +
    `${pct(tot.label, tot.n)}% | **${pct(tot.both, tot.n)}%** |`);
  out.push('');
  out.push(`pooled over ${tot.n} top-document refs: role ${tot.role} (${pct(tot.role, tot.n)}%), ` +
    `label ${tot.label} (${pct(tot.label, tot.n)}%; exact ${tot.exact}, ${pct(tot.exact, tot.n)}%), ` +
    `both ${tot.both} (${pct(tot.both, tot.n)}%)`);
  // generic refs are ariasnap's clickable containers (docs/reference/refs.md#which-elements-get-refs, tier 1: tabindex or a click
  // handler or a pointer cursor); ARIA prohibits naming generic, and ariasnap gives them no
  // name (their words are their content: `name` is "" in the JSON read here, the words in
  // their children), as the browsers do; a browser may also leave them out of its tree
  // (Firefox: role "none", no accessible): shown apart so the rest reads clearly
  const ng = results.flatMap((r) => r.rows).filter((x) => x.role !== 'generic');
  const ngBoth = ng.filter((x) => x.roleOk && x.nameOk).length;
  out.push(`without ariasnap's generic refs (clickable containers): both ${ngBoth}/${ng.length} (${pct(ngBoth, ng.length)}%)`);
  out.push(`excluded: ${tot.frame} refs inside frames (not measured), ${tot.unresolved} refs whose element ` +
    `WebDriver could not reach; pages with errors: ${results.filter((r) => r.error).length}`);
  out.push('');

  const kinds = new Map();
  const add = (k, page, x) => {
    if (!kinds.has(k)) kinds.set(k, { n: 0, pages: new Set(), ex: [] });
    const e = kinds.get(k);
    e.n++;
    e.pages.add(page);
    if (e.ex.length < EXAMPLES && !e.ex.some((y) => y.page === page)) e.ex.push({ page, ...x });
  };
  for (const r of results) {
    const page = r.id.replace(/^readability\//, '');
    for (const x of r.rows) {
      if (!x.roleOk) add(`role: ariasnap ${x.role} / ${B} ${x.brole === '' ? '""' : x.brole}`, page, x);
      if (!x.nameOk) add(`name (${x.roleOk ? x.role : 'role differs too'}): ${nameKind(collapse(x.name), collapse(x.blabel))}`, page, x);
    }
  }
  const sorted = [...kinds.entries()].sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1));
  out.push(`| disagreement | refs | pages | examples (page ref: ariasnap / ${B}) |`);
  out.push('| --- | ---: | ---: | --- |');
  for (const [k, e] of sorted) {
    const ex = e.ex.map((x) => `${x.page} ${x.ref} <${x.tag}>: ${clip(x.name, 50)} / ${clip(x.blabel, 50)}`).join('<br>');
    out.push(`| ${k} | ${e.n} | ${e.pages.size} | ${ex.replace(/\|/g, '\\|')} |`);
  }
  if (!sorted.length) out.push('| (none) | 0 | 0 | |');
  console.log(out.join('\n'));
  if (JSON_OUT) {
    const dis = results.map((r) => ({ id: r.id, error: r.error, rows: r.rows.filter((x) => !x.roleOk || !x.nameOk) }));
    fs.writeFileSync(JSON_OUT, JSON.stringify({ browser: B, totals: tot, kinds: Object.fromEntries(sorted.map(([k, e]) => [k, e.n])), disagreements: dis }, null, 1));
  }
}

main().catch((e) => {
  console.error(`firefox-fidelity: ${e.stack || e}`);
  process.exit(1);
});
