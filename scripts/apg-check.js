#!/usr/bin/env node
// The reply after an action on the WAI-ARIA Authoring Practices' own example pages (issue 42):
// a scripted agent opens each example, finds its target by role and name in an interactive
// snapshot (or in the reply before), acts (click, set, press) and reads the reply. Per task:
// whether the goal was reached (a check in the page), whether each reply names the change that
// matters (words of the summary, the MCP reply's text), how many of the reply's entries
// (added, removed, changed) are about elements outside the example's container, and the bytes
// of the replies' summaries and JSON.
//
// The APG pages are not part of this project: give a checkout of w3c/aria-practices.
//
//   node scripts/apg-check.js --apg ~/src/aria-practices [--ariasnap target/release/ariasnap]
//        [--tasks id,id] [--browser chromium|firefox] [--json out.json]
//
// It serves the checkout's content/ directory on 127.0.0.1 (a free port), uses a private
// ARIASNAP_HOME and one session per task, and closes them. Entries outside the example are
// found with an uncounted oracle: `snapshot --root <container> --format json` before and
// after each action lists the refs and role+name pairs inside it; an entry matching neither
// is outside. The Open In CodePen buttons the pages add by timer about half a second after
// load count as outside when they appear during the first action.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { execFile } = require('child_process');

const ROOT = path.join(__dirname, '..');

// id, page (under content/patterns/), the example's container, steps, a goal check.
// A step: [action, role, name, value?]; `expect`: words its reply must hold.
// The example's container: the element after the "Start of Example" separator every APG
// example page has (its id differs from page to page).
const EX = '#ex_start_sep + *';

const TASKS = [
  ['combo-list', 'combobox/examples/combobox-autocomplete-list.html', EX,
    [['set', 'combobox', 'State', 'Alabama', 'value "Alabama"']], "document.querySelector('#cb1-input').value === 'Alabama'"],
  ['combo-both', 'combobox/examples/combobox-autocomplete-both.html', EX,
    [['set', 'combobox', 'State', 'Alaska', 'value "Alaska"']], "document.querySelector('#cb1-input').value === 'Alaska'"],
  ['combo-select', 'combobox/examples/combobox-select-only.html', EX,
    [['set', 'combobox', 'Favorite Fruit', 'Banana', 'value "Banana"']], "document.querySelector('[role=combobox]').textContent.trim() === 'Banana'"],
  ['combo-date', 'combobox/examples/combobox-datepicker.html', EX,
    [['set', 'combobox', 'Date', '03/15/2026', 'value "03/15/2026"']], "document.querySelector('input[role=combobox]').value === '03/15/2026'"],
  ['listbox', 'listbox/examples/listbox-scrollable.html', EX,
    [['click', 'option', 'Neptunium', null, 'selected']], "document.querySelector('[role=option][aria-selected=true]').textContent.trim() === 'Neptunium'"],
  ['menu-button', 'menu-button/examples/menu-button-actions.html', EX,
    [['click', 'button', 'Actions', null, 'Opened menu'], ['click', 'menuitem', 'Action 2', null, 'value "Action 2"']],
    "document.querySelector('#action_output').value === 'Action 2'"],
  ['menu-links', 'menu-button/examples/menu-button-links.html', EX,
    [['click', 'button', 'WAI-ARIA Quick Links', null, 'Opened menu']], "document.querySelector('[aria-haspopup]').getAttribute('aria-expanded') === 'true'"],
  ['menubar', 'menubar/examples/menubar-navigation.html', EX,
    [['click', 'menuitem', 'About', null, 'Opened menu']], "[...document.querySelectorAll('[role=menubar] > li > [role=menuitem]')].some((m) => m.getAttribute('aria-expanded') === 'true')"],
  ['disclosure', 'disclosure/examples/disclosure-faq.html', EX,
    [['click', 'button', 'What do I do if I lose my permit', null, 'expanded']], "document.querySelectorAll('button[aria-expanded=true][aria-controls^=faq]').length === 1"],
  ['accordion', 'accordion/examples/accordion.html', EX,
    [['click', 'button', 'Billing Address', null, 'expanded']], "document.querySelector('#accordion2id').getAttribute('aria-expanded') === 'true'"],
  ['tabs', 'tabs/examples/tabs-automatic.html', EX,
    [['click', 'tab', 'Carl Andersen', null, 'selected']], "document.querySelector('[role=tab][aria-selected=true]').textContent.trim() === 'Carl Andersen'"],
  ['dialog', 'dialog-modal/examples/dialog.html', EX,
    [['click', 'button', 'Add Delivery Address', null, 'Opened dialog'], ['click', 'button', 'Cancel', null, 'Closed dialog']],
    "getComputedStyle(document.querySelector('#dialog1')).display === 'none'"],
  ['alertdialog', 'alertdialog/examples/alertdialog.html', EX,
    [['click', 'button', 'Discard', null, 'Opened alertdialog']], "!!document.querySelector('[role=alertdialog]')"],
  ['datepicker', 'dialog-modal/examples/datepicker-dialog.html', EX,
    [['click', 'button', 'Choose Date', null, 'Opened dialog']], "document.querySelector('[role=dialog]').getAttribute('class') !== 'datepicker-dialog' || !!document.querySelector('[role=dialog].open, [role=dialog]')"],
  ['slider', 'slider/examples/slider-temperature.html', EX,
    [['set', 'slider', 'Temperature', '30', 'value "30']], "parseFloat(document.querySelector('[role=slider]').getAttribute('aria-valuenow')) === 30"],
  ['multithumb', 'slider-multithumb/examples/slider-multithumb.html', EX,
    [['set', 'slider', 'Hotel Minimum Price', '200', 'value']], "document.querySelector('[role=slider].minimum').getAttribute('aria-valuenow') === '200'"],
  ['spinbutton', 'spinbutton/examples/quantity-spinbutton.html', EX,
    [['set', 'spinbutton', 'Adults', '3', 'value "3"']], "document.querySelector('#adults').value === '3' || document.querySelector('[role=spinbutton]').getAttribute('aria-valuenow') === '3'"],
  ['switch', 'switch/examples/switch.html', EX,
    [['click', 'switch', 'Notifications', null, 'checked']], "document.querySelector('[role=switch]').getAttribute('aria-checked') === 'true'"],
  ['tri-state', 'checkbox/examples/checkbox-mixed.html', EX,
    [['click', 'checkbox', 'All condiments', null, 'checked']], "[...document.querySelectorAll('#ex_start_sep + * input[type=checkbox]')].every((c) => c.checked)"],
  ['radio', 'radio/examples/radio.html', EX,
    [['click', 'radio', 'Thin crust', null, 'checked']], "document.querySelector('[role=radio][aria-checked=true]').textContent.trim() === 'Thin crust'"],
  ['treeview', 'treeview/examples/treeview-1a.html', EX,
    [['click', 'treeitem', 'Projects', null, 'expanded']], "[...document.querySelectorAll('[role=treeitem][aria-expanded=true]')].length > 0"],
  ['sortable', 'table/examples/sortable-table.html', EX,
    [['click', 'button', 'Last Name', null, 'sort=']], "document.querySelectorAll('th[aria-sort]')[0].textContent.includes('Last Name')"],
  ['toolbar', 'toolbar/examples/toolbar.html', EX,
    [['click', 'button', 'Bold', null, 'pressed']], "document.querySelector('.bold').getAttribute('aria-pressed') === 'true'"],
  ['carousel', 'carousel/examples/carousel-1-prev-next.html', EX,
    [['click', 'button', 'Next Slide', null, '2 of 6']], "true"],
  ['alert', 'alert/examples/alert.html', EX,
    [['click', 'button', 'Trigger Alert', null, 'Announced "Hello"']], "document.querySelector('[role=alert]').textContent.includes('Hello')"],
];

function options(argv) {
  const o = { apg: null, ariasnap: path.join(ROOT, 'target', 'release', 'ariasnap'), tasks: null, browser: 'chromium', json: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--apg') o.apg = path.resolve(v());
    else if (k === '--ariasnap') o.ariasnap = path.resolve(v());
    else if (k === '--tasks') o.tasks = v().split(',');
    else if (k === '--browser') o.browser = v();
    else if (k === '--json') o.json = path.resolve(v());
    else throw new Error(`unknown option ${k} (see the head of scripts/apg-check.js)`);
  }
  if (!o.apg || !fs.existsSync(path.join(o.apg, 'content', 'patterns'))) {
    throw new Error('--apg DIR: a checkout of w3c/aria-practices (its content/patterns/ holds the examples)');
  }
  return o;
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg' };
function serve(dir) {
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(dir, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ url: `http://127.0.0.1:${server.address().port}/`, server })));
}

// (asynchronous: the page server runs in this process and must answer meanwhile)
function cli(o, home, session, args) {
  return new Promise((resolve) => {
    execFile(o.ariasnap, ['--session', session, '--browser', o.browser, ...args], {
      env: { ...process.env, ARIASNAP_HOME: home }, encoding: 'utf8', maxBuffer: 64 << 20,
    }, (e, stdout, stderr) => resolve({ code: e ? e.code : 0, out: stdout || '', err: stderr || '' }));
  });
}

/** The ref of `- role "name..."` in a text snapshot, or in a reply's JSON entries. */
function findRef(text, role, name) {
  for (const line of text.split('\n')) {
    const m = /^\s*- (\S+) "((?:[^"\\]|\\.)*)".*\[ref=(\w+)\]/.exec(line);
    if (m && m[1] === role && JSON.parse(`"${m[2]}"`).includes(name)) return m[3];
  }
  return null;
}
function refInReply(reply, role, name) {
  const ch = reply && reply.changes;
  if (!ch) return null;
  for (const e of [...(ch.added || []), ...(ch.changed || [])]) {
    for (const c of [e, ...(e.controls || [])]) if (c.ref && c.role === role && (c.name || '').includes(name)) return c.ref;
  }
  return null;
}

/** Refs and role+name pairs inside the container (the oracle). */
async function inside(o, home, session, root) {
  const r = await cli(o, home, session, ['snapshot', '--root', root, '--format', 'json', '--inline-limit', '0', '--all-refs']);
  const refs = new Set();
  const names = new Set();
  try {
    const stack = [JSON.parse(r.out)];
    while (stack.length) {
      const n = stack.pop();
      if (n.ref) refs.add(n.ref);
      names.add(`${n.role}\u0001${n.name || ''}`);
      for (const c of n.children || []) stack.push(c);
    }
  } catch (_) { /* no container: everything counts as outside */ }
  return { refs, names };
}

function outside(reply, before, after) {
  const ch = reply.changes || {};
  let n = 0;
  const all = [...(ch.added || []), ...(ch.removed || []), ...(ch.changed || [])];
  for (const e of all) {
    const key = `${e.role}\u0001${e.name || ''}`;
    const known = (e.ref && (before.refs.has(e.ref) || after.refs.has(e.ref))) || before.names.has(key) || after.names.has(key);
    if (!known) n++;
  }
  return n;
}

async function runTask(o, base, home, t) {
  const [id, page, root, steps, goal] = t;
  const session = `apg-${id}`;
  await cli(o, home, session, ['session', 'close']);
  const res = { id, calls: 0, named: 0, actions: steps.length, outside: 0, maxOutside: 0, summaryBytes: 0, jsonBytes: 0, reached: false, notes: [] };
  let look = await cli(o, home, session, ['snapshot', base + 'patterns/' + page, '--detail', 'interactive', '--inline-limit', '0']);
  res.calls++;
  let last = null;
  for (const [action, role, name, value, expect] of steps) {
    let ref = refInReply(last, role, name) || findRef(look.out, role, name);
    if (!ref) {
      look = await cli(o, home, session, ['snapshot', '--detail', 'interactive', '--inline-limit', '0']);
      res.calls++;
      ref = findRef(look.out, role, name);
    }
    if (!ref) {
      res.notes.push(`no ref for ${role} "${name}" in: ${(look.out || look.err).slice(0, 300)}`);
      break;
    }
    const before = await inside(o, home, session, root);
    const r = await cli(o, home, session, [action, ref, ...(value === null ? [] : [value])]);
    res.calls++;
    const after = await inside(o, home, session, root);
    let reply = {};
    try { reply = JSON.parse(r.out); } catch (_) { res.notes.push(`${action} ${ref}: ${r.err.trim().split('\n')[0]}`); }
    last = reply;
    const summary = (reply.changes && reply.changes.summary) || '';
    const err = (reply.steps || []).map((s) => s.error).filter(Boolean).join('; ');
    res.summaryBytes += Buffer.byteLength(summary + err);
    res.jsonBytes += Buffer.byteLength(r.out);
    if (summary.includes(expect)) res.named++;
    else res.notes.push(`${action} ${role} "${name}": ${err || summary}`);
    const out = outside(reply, before, after);
    res.outside += out;
    res.maxOutside = Math.max(res.maxOutside, out);
  }
  const g = await cli(o, home, session, ['eval', goal]);
  try { res.reached = JSON.parse(g.out).steps[0].output === true; } catch (_) { res.reached = false; }
  await cli(o, home, session, ['session', 'close']);
  return res;
}

async function main() {
  const o = options(process.argv.slice(2));
  const tasks = o.tasks ? TASKS.filter((t) => o.tasks.includes(t[0])) : TASKS;
  const { url, server } = await serve(path.join(o.apg, 'content'));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'apg-check-'));
  const results = [];
  try {
    for (const t of tasks) {
      process.stderr.write(`apg-check: ${t[0]}... `);
      const r = await runTask(o, url, home, t);
      process.stderr.write(`${r.reached ? 'reached' : 'NOT reached'}, named ${r.named}/${r.actions}, outside ${r.outside}\n`);
      results.push(r);
    }
  } finally {
    server.close();
    fs.rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 }); // a closed session's browser may still be ending
  }
  const lines = ['| task | goal | change named | outside entries (max a reply) | calls | summary bytes | JSON bytes |', '| --- | --- | --- | ---: | ---: | ---: | ---: |'];
  for (const r of results) {
    lines.push(`| ${r.id} | ${r.reached ? 'yes' : 'no'} | ${r.named}/${r.actions} | ${r.outside} (${r.maxOutside}) | ${r.calls} | ${r.summaryBytes} | ${r.jsonBytes} |`);
  }
  const sum = (k) => results.reduce((s, r) => s + r[k], 0);
  lines.push(`| all ${results.length} | ${results.filter((r) => r.reached).length}/${results.length} | ${sum('named')}/${sum('actions')} | ${sum('outside')} | ${sum('calls')} | ${sum('summaryBytes')} | ${sum('jsonBytes')} |`);
  console.log(lines.join('\n'));
  for (const r of results) for (const n of r.notes) console.log(`- ${r.id}: ${n}`);
  if (o.json) fs.writeFileSync(o.json, JSON.stringify(results, null, 2));
}

main().catch((e) => {
  console.error(`apg-check: ${e.message}`);
  process.exit(2);
});
