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
});

test('bytes: UTF-8 text, images by their base64 length', () => {
  const r = { content: [{ type: 'text', text: 'é €' }, { type: 'image', data: 'QUJD', mimeType: 'image/png' }] };
  assert.strictEqual(contentBytes(r), 2 + 1 + 3 + 4);
  assert.strictEqual(textOf(r), 'é €');
});

test('the welcome page derives the member number as the task expects', () => {
  assert.match(memberNumber('ada.lovelace@example.org'), /^NW-\d{6}$/);
});
