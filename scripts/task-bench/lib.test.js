// Checks of the bench's reply parsing (not part of the Rust test suite; the bench is a
// benchmark): node --test scripts/task-bench/
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { refOf, contentBytes, textOf } = require('./lib');
const { memberNumber } = require('./tasks');

const PLAYWRIGHT = `### Snapshot
\`\`\`yaml
- generic [active] [ref=e1]:
  - main [ref=e95]:
    - textbox "Promo code" [ref=e132]
    - button "Apply" [ref=e133]
    - link "Size guide (opens in a new tab)" [ref=e124] [cursor=pointer]:
      - /url: size-guide.html
    - button "Monday 18 May 2026" [ref=f1e313]
\`\`\``;

const ARIASNAP = `# page: http://127.0.0.1:1/ status=200 ready=complete
- main:
  - textbox "Promo code" [ref=s1e2]  # main > form
  - button "Apply" [disabled] [ref=s3e59]
  - button "Say \\"hi\\"" [ref=f1s2e3]`;

// search's short reply since its lines (docs/reference/search.md#search)
const SEARCH_LINES = `search: 2 matches
- form [ref=s1e1] in "main"
- textbox "Promo code" [ref=s1e2] in "main > form": "Promo code Apply"
  controls: button "Apply" [ref=s1e3]`;

const SEARCH = 'search: {"matches":[{"ref":"s1e1","role":"form","name":"","path":"main"},{"ref":"s1e2","role":"textbox","name":"Promo code","path":"main > form"}],"total":2}';

test('refs out of Playwright snapshot lines', () => {
  assert.strictEqual(refOf(PLAYWRIGHT, 'textbox', 'Promo code'), 'e132');
  assert.strictEqual(refOf(PLAYWRIGHT, 'button', 'Apply'), 'e133');
  assert.strictEqual(refOf(PLAYWRIGHT, 'link', 'Size guide'), 'e124', 'a name prefix');
  assert.strictEqual(refOf(PLAYWRIGHT, 'button', 'Monday 18 May 2026'), 'f1e313', 'a frame ref');
  assert.strictEqual(refOf(PLAYWRIGHT, 'button', 'Pay'), null);
  assert.strictEqual(refOf(PLAYWRIGHT, 'textbox', 'Apply'), null, 'the role must match');
});

test('refs out of ariasnap lines and search replies', () => {
  assert.strictEqual(refOf(ARIASNAP, 'textbox', 'Promo code'), 's1e2');
  assert.strictEqual(refOf(ARIASNAP, 'button', 'Apply'), 's3e59', 'flags before the ref');
  assert.strictEqual(refOf(ARIASNAP, 'button', 'Say "hi"'), 'f1s2e3', 'a quoted name');
  assert.strictEqual(refOf(SEARCH, 'textbox', 'Promo code'), 's1e2');
  assert.strictEqual(refOf(SEARCH, 'button', 'Promo code'), null);
  assert.strictEqual(refOf(SEARCH_LINES, 'textbox', 'Promo code'), 's1e2');
  assert.strictEqual(refOf(SEARCH_LINES, 'button', 'Apply'), 's1e3', 'a control of the match');
  assert.strictEqual(refOf(SEARCH_LINES, 'button', 'Promo code'), null);
});

test('refs of ariasnap generics by their words: content lines, summaries, search text', () => {
  const snap = `- main:
  - generic [clickable] [ref=s1e5]:
    - heading "Pro" [level=3]
    - text: $12/month
    - list:
      - listitem: 5 users
  - generic [clickable] [ref=s1e7]: Stove
  - generic "Named" [ref=s1e8]`;
  assert.strictEqual(refOf(snap, 'generic', 'Pro '), 's1e5', 'a card: the lines under it');
  assert.strictEqual(refOf(snap, 'generic', 'Stove'), 's1e7', 'its line\'s text');
  assert.strictEqual(refOf(snap, 'generic', 'Named'), 's1e8', 'an author\'s name');
  assert.strictEqual(refOf(snap, 'generic', 'Oven'), null);
  assert.strictEqual(refOf('Removed generic s2e3 "START".', 'generic', 'START'), 's2e3');
  assert.strictEqual(refOf('{"ref":"s4e1","role":"generic","name":"","text":"Office chair"}', 'generic', 'Office'), 's4e1');
  // Playwright's nameless lines are its own helpers' (textRef), not refOf's
  assert.strictEqual(refOf('- generic [ref=e9] [cursor=pointer]: Stove', 'generic', 'Stove'), null);
});

test('bytes: UTF-8 text, images by their base64 length', () => {
  const r = { content: [{ type: 'text', text: 'é €' }, { type: 'image', data: 'QUJD', mimeType: 'image/png' }] };
  assert.strictEqual(contentBytes(r), 2 + 1 + 3 + 4);
  assert.strictEqual(textOf(r), 'é €');
});

test('the welcome page derives the member number as the task expects', () => {
  assert.match(memberNumber('ada.lovelace@example.org'), /^NW-\d{6}$/);
});

// ---- parsing added for the docs and long-page tasks
const { containerRef, stateRe, valueRe, factIn, factLabel, widgetIndex, mergeIndex, entryInside, outsideEntries, missingWords } = require('./lib');
const { firstRowIs } = require('./tasks');

test('refs out of ariasnap change summaries, and past a leading icon glyph', () => {
  const sum = 'Clicked button "Shipping address" s1e1: expanded. Added region "Shipping address" (textbox "Street address" s4e80, textbox "City" s4e81, button "Go" f1s4e82).';
  assert.strictEqual(refOf(sum, 'textbox', 'City'), 's4e81');
  assert.strictEqual(refOf(sum, 'button', 'Go'), 'f1s4e82', 'a frame ref');
  assert.strictEqual(refOf(sum, 'button', 'Shipping address'), 's1e1', 'the acted element');
  assert.strictEqual(refOf(sum, 'region', 'Shipping address'), null, 'a region without a ref');
  assert.strictEqual(refOf('- button "\u25B8 How long?" [ref=e5]', 'button', 'How long?'), 'e5');
  assert.strictEqual(refOf('{"ref":"s1e1","role":"treeitem","name":"\u25B8Reports"}', 'treeitem', 'Reports'), 's1e1');
  assert.strictEqual(refOf('- button "Discard draft" [ref=e3]\n- button "Discard" [ref=e4]', 'button', /Discard/), 'e4', 'a RegExp is the whole name');
});

test('the region around a match in Playwright find output', () => {
  const find = `- generic [ref=e1]:
  - main [ref=e84]:
    - region [ref=e122]:
      - paragraph [ref=e124]: Where?
      - generic [ref=e125]:
        - combobox "Delivery state" [ref=e126]
    - region [ref=e200]:
      - button "Other" [ref=e201]`;
  assert.strictEqual(containerRef(find, 'combobox', 'Delivery state'), 'e122');
  assert.strictEqual(containerRef(find, 'combobox', 'Delivery state', 'main'), 'e84');
  assert.strictEqual(containerRef(find, 'button', 'Other'), 'e200');
  assert.strictEqual(containerRef(find, 'button', 'Nope'), null);
});

test('a state in either notation, right after the name', () => {
  const re = stateRe('checkbox', 'Sprouts', 'checked');
  assert.ok(re.test('- checkbox "Sprouts" [checked] [ref=e9]'), 'Playwright');
  assert.ok(re.test('- checkbox "Sprouts" [active] [checked] [ref=e9]'), 'after another flag');
  assert.ok(re.test('Changed checkbox "Mustard" s2e11 checked; checkbox "Sprouts" s2e13 checked.'), 'ariasnap summary');
  assert.ok(re.test('Clicked checkbox "Sprouts" s1e5: checked.'), 'ariasnap acted element');
  assert.ok(!re.test('Clicked checkbox "Sprouts" s1e5: checked=mixed.'), 'not mixed');
  assert.ok(!re.test('checkbox "Sprouts" s2e13 unchecked; checkbox "Mustard" s2e11 checked'), 'not a later element\'s state');
  assert.ok(!re.test('checkbox "\u2611 Sprouts" s2e13: checked'), 'the name must be the accessible name');
});

test('a field value in either notation', () => {
  const re = valueRe('Service date', '05/20/2026');
  assert.ok(re.test('Changed textbox "Service date" s2e5 value "05/20/2026".'));
  assert.ok(re.test('- textbox "Service date" [ref=e125]: 05/20/2026'));
  assert.ok(re.test('- textbox "Service date" [ref=e125]:\n    - /placeholder: mm/dd/yyyy\n    - text: 05/20/2026'), 'Playwright, value under a placeholder');
  assert.ok(!re.test('- textbox "Service date" [ref=e125]:\n    - /placeholder: mm/dd/yyyy\n- textbox "Other": 05/20/2026'));
  assert.ok(!valueRe('Last action', 'Duplicate').test('textbox "Last action" s2e6 value "Rename"; menuitem "Duplicate" s4e77'));
});

test('facts: strings, RegExps and named tests', () => {
  assert.ok(factIn('total $248.00', '$248.00'));
  assert.ok(factIn('x: value "Oregon"', /value "Oregon"/));
  assert.ok(!factIn('x', { name: 'never', test: () => false }));
  assert.deepStrictEqual([factLabel('a'), factLabel(/b+/), factLabel({ name: 'c', test: () => true })], ['a', '/b+/', 'c']);
  assert.deepStrictEqual(missingWords('Set combobox "State" s1e1: value "Oregon".', ['value "Oregon"', /s\de\d/, 'expanded']), ['expanded']);
});

test('the first data row of a table, in snapshots and search matches', () => {
  const first = firstRowIs('Hut ', 'Gruttenhütte');
  const pw = `- table "Huts" [ref=e1]:
  - rowgroup [ref=e2]:
    - row [ref=e3]:
      - columnheader "Hut" [ref=e4]
  - rowgroup [ref=e5]:
    - row [ref=e6]:
      - cell "Gruttenhütte" [ref=e7]
    - row [ref=e8]:
      - cell "Kärlingerhaus" [ref=e9]`;
  assert.ok(first.test(pw));
  assert.ok(!first.test(pw.replace('Gruttenhütte', 'X').replace('Kärlingerhaus', 'Gruttenhütte')));
  assert.ok(first.test('- row "Hut Country Elevation (m)"\n- row "Gruttenhütte Austria 1,620"'));
  assert.ok(!first.test('Changed table "Huts" rows reordered.'), 'a summary that names no row');
  assert.ok(first.test('Changed table "Huts" rows reordered, first row "Gruttenhütte Austria 1,620".'));
});

test('entries outside the widget', () => {
  const tree = {
    role: 'region', name: 'Example', children: [
      { role: 'button', name: 'Actions', ref: 's1e1', children: [] },
      { role: 'status', name: '', children: ['You have 1 saved address.'] },
      { role: 'list', name: '', children: [{ role: 'listitem', name: '', children: ['Brand', { role: 'link', name: 'Harris Tent', ref: 's4e9', children: [] }, '4.2 stars $191.99'] }] },
    ],
  };
  const before = widgetIndex([tree]);
  const after = widgetIndex([{ role: 'dialog', name: 'Add address', ref: 's5e1', children: [] }]);
  const idx = mergeIndex(before, after, null);
  assert.ok(entryInside({ role: 'button', name: 'Actions', ref: 's1e1' }, idx), 'by ref');
  assert.ok(!entryInside({ role: 'button', name: 'Actions', ref: 's9e9' }, idx), 'a ref elsewhere, though the name is alike');
  assert.ok(entryInside({ role: 'dialog', name: 'Add address' }, idx), 'by role and name, from the index after');
  assert.ok(entryInside({ role: 'status', name: '', text: 'You have 1 saved address.' }, idx), 'nameless, by its text');
  assert.ok(entryInside({ role: 'listitem', name: '', text: 'Brand 4.2 stars $191.99', controls: [{ role: 'link', name: 'Harris Tent', ref: 's4e9' }] }, idx), 'text without its controls\' names');
  assert.ok(!entryInside({ role: 'status', name: '', text: 'Cookies saved.' }, idx), 'a nameless entry with other text');
  assert.ok(!entryInside({ role: 'main', name: '' }, idx), 'a role the widget has not');
  assert.ok(entryInside({ role: 'button', name: 'Actions v', field: 'name', from: 'Actions', to: 'Actions v' }, idx), 'a renamed element by its old name');
  const changes = {
    added: [{ role: 'banner', name: '', controls: [{ role: 'link', name: 'Home', ref: 's4e7' }] }],
    removed: [{ role: 'dialog', name: 'Add address' }],
    changed: [{ role: 'button', name: 'Actions', ref: 's1e1', field: 'expanded', from: false, to: true },
      { role: 'link', name: 'Basket (4)', ref: 's2e3', field: 'name', from: 'Basket (3)', to: 'Basket (4)' }],
  };
  assert.deepStrictEqual(outsideEntries(changes, idx), [
    { kind: 'added', role: 'banner', name: '' },
    { kind: 'changed', role: 'link', name: 'Basket (4)', ref: 's2e3', field: 'name' },
  ]);
  assert.deepStrictEqual(outsideEntries(null, idx), []);
});

// ---- the task list itself
const fs = require('fs');
const path = require('path');
const { TASKS } = require('./tasks');

test('every task has a unique id, a fixture page, facts and both agents', () => {
  const ids = new Set();
  for (const t of TASKS) {
    assert.ok(!ids.has(t.id), `task id ${t.id} twice`);
    ids.add(t.id);
    assert.ok(fs.existsSync(path.join(__dirname, '..', '..', 'fixtures', t.page)), `${t.id}: no fixtures/${t.page}`);
    assert.ok(t.facts.length, `${t.id}: no facts`);
    assert.strictEqual(typeof t.playwright, 'function', `${t.id}: no Playwright agent`);
    assert.strictEqual(typeof t.ariasnap, 'function', `${t.id}: no ariasnap agent`);
  }
  assert.ok(TASKS.filter((t) => t.page.startsWith('html/clickables/')).length >= 10, 'the clickables tasks (issue 53)');
});
