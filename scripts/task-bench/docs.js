// The task bench's docs pages (fixtures/html/tasks/docs-*.html), written by pages.js: a made-up
// design-system handbook, "Kestrel", laid out like a real one (sticky header with search, a
// sidebar of every pattern, an "On this page" column, long prose with headings, links, tables
// and a code sample, a feedback form and a footer), one page per WAI-ARIA APG pattern. Each
// page's live example sits below the fold in the middle of the text, in
// `<section id="example">` (the bench's widget container; a modal dialog lives at the end of
// the body, as on many sites, and is named apart). The widgets' scripts are this project's own,
// written after the APG's keyboard and mouse interaction (no APG code). Deterministic: no
// clock, no randomness.
'use strict';

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

// ---- the site around the pages
const SECTIONS = ['Get started', 'Foundations', 'Components', 'Patterns', 'Content style', 'Changelog'];
// Every pattern in the sidebar; the ones with a page here link to it, the rest to the site.
const ALL_PATTERNS = ['Accordion', 'Alert', 'Alert dialog', 'Breadcrumb', 'Button', 'Carousel', 'Checkbox',
  'Combobox', 'Date combobox', 'Date picker', 'Dialog', 'Disclosure', 'Feed', 'Grid', 'Link', 'Listbox', 'Menu button',
  'Menubar', 'Meter', 'Radio group', 'Select', 'Slider', 'Spinbutton', 'Switch', 'Table', 'Tabs',
  'Toolbar', 'Tooltip', 'Treeview', 'Window splitter'];

const CSS = `
  html { scroll-padding-top: 72px; }
  body { margin: 0; font: 16px/1.6 system-ui, sans-serif; color: #1f2328; }
  a { color: #1a5fb4; }
  .site { position: sticky; top: 0; z-index: 10; display: flex; align-items: center; gap: 1.5em; height: 56px; padding: 0 1.5em; background: #fff; border-bottom: 1px solid #d0d7de; }
  .site .logo { font-weight: 700; font-size: 18px; color: #0b3d2e; text-decoration: none; }
  .site nav ul { display: flex; gap: 1.2em; list-style: none; margin: 0; padding: 0; }
  .site form { margin-left: auto; }
  .layout { display: grid; grid-template-columns: 240px minmax(0, 760px) 220px; gap: 2.5em; padding: 0 1.5em; }
  .sidebar { font-size: 14px; padding-top: 1.5em; }
  .sidebar ul { list-style: none; padding: 0; }
  .sidebar [aria-current] { font-weight: 700; color: #1f2328; }
  .toc { font-size: 14px; padding-top: 1.5em; position: sticky; top: 72px; align-self: start; }
  .crumbs ol { display: flex; gap: .5em; list-style: none; padding: 0; font-size: 14px; }
  .lede { font-size: 20px; color: #3d444d; }
  pre { background: #f6f8fa; padding: 1em; overflow: auto; font-size: 13px; }
  table.ref { border-collapse: collapse; width: 100%; font-size: 14px; }
  table.ref th, table.ref td { border: 1px solid #d0d7de; padding: .4em .6em; text-align: left; vertical-align: top; }
  .example { border: 2px solid #0b3d2e; border-radius: 8px; padding: 1em 1.5em 1.5em; margin: 1.5em 0; background: #fbfcfb; }
  .feedback { border-top: 1px solid #d0d7de; margin-top: 3em; padding-top: 1em; }
  footer { background: #f6f8fa; margin-top: 3em; padding: 2em 1.5em; font-size: 14px; }
  footer .cols { display: flex; gap: 4em; }
  footer ul { list-style: none; padding: 0; }
  [hidden] { display: none !important; }
`;

function sidebar(current) {
  const items = ALL_PATTERNS.map((p) => {
    const page = PAGE_OF[p];
    if (p === current) return `<li><a href="${page}" aria-current="page">${esc(p)}</a></li>`;
    return `<li><a href="${page || `/patterns/${slug(p)}/`}">${esc(p)}</a></li>`;
  });
  return `<nav class="sidebar" aria-label="Patterns">
    <h2>Patterns</h2>
    <ul>
      ${items.join('\n      ')}
    </ul>
  </nav>`;
}

const TOC = [['about', 'About this pattern'], ['use', 'When to use it'], ['anatomy', 'Anatomy'], ['example', 'Example'],
  ['keyboard', 'Keyboard interaction'], ['aria', 'Roles, states and properties'], ['code', 'Code'],
  ['notes', 'Accessibility notes'], ['related', 'Related patterns']];

/** One page: the site's chrome around a pattern's text and its live example. */
function docsPage(p) {
  const lname = p.name.toLowerCase();
  const code = p.example.html.split('\n').filter((l) => l.trim()).slice(0, 28).join('\n');
  const rows = (rs) => rs.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${c}</th>` : `<td>${c}</td>`)).join('')}</tr>`).join('\n          ');
  const related = p.related.map((r) => `<li><a href="${PAGE_OF[r] || `/patterns/${slug(r)}/`}">${esc(r)}</a></li>`).join('\n        ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(p.name)} | Patterns | Kestrel Design System</title>
<style>${CSS}${p.example.css || ''}</style>
</head>
<body>
<a href="#content" class="skip">Skip to content</a>
<header class="site">
  <a class="logo" href="/">Kestrel Design System</a>
  <nav aria-label="Sections">
    <ul>
      ${SECTIONS.map((s) => `<li><a href="/${slug(s)}/"${s === 'Patterns' ? ' aria-current="true"' : ''}>${esc(s)}</a></li>`).join('\n      ')}
    </ul>
  </nav>
  <form role="search" action="/search">
    <input type="search" name="q" aria-label="Search the docs" placeholder="Search the docs">
  </form>
  <a href="https://github.com/kestrel-ds/kestrel">GitHub</a>
</header>
<div class="layout">
  ${sidebar(p.name)}
  <main id="content">
    <nav class="crumbs" aria-label="Breadcrumb">
      <ol>
        <li><a href="/">Home</a></li>
        <li><a href="/patterns/">Patterns</a></li>
        <li aria-current="page">${esc(p.name)}</li>
      </ol>
    </nav>
    <h1>${esc(p.name)}</h1>
    <p class="lede">${p.lede}</p>
    <p>Status: stable since Kestrel 3.2. Last reviewed in March 2026 against WCAG 2.2 AA. <a href="/changelog/#${slug(p.name)}">See what changed</a>.</p>

    <h2 id="about">About this pattern</h2>
    ${p.about.map((t) => `<p>${t}</p>`).join('\n    ')}
    <p>Before you build a ${lname}, check whether a native HTML element does the job. A native control comes with keyboard support, focus handling and the right semantics for free, and it keeps working when scripts fail to load or run late. Use this pattern when the design asks for something a native element cannot give, and test it with a keyboard and at least one screen reader before you ship it.</p>

    <h2 id="use">When to use it</h2>
    <ul>
      ${p.use.map((t) => `<li>${t}</li>`).join('\n      ')}
    </ul>
    <p>Do not use a ${lname} only to save space on a page that has room for its content. Hiding content behind a control makes people do more work to find it, and people using find-in-page or a search engine may not find it at all. Read <a href="/content-style/progressive-disclosure/">progressive disclosure</a> in the content guide before you decide.</p>

    <h2 id="anatomy">Anatomy</h2>
    <ol>
      ${p.anatomy.map((t) => `<li>${t}</li>`).join('\n      ')}
    </ol>
    <p>Every part listed here has a role, a name and the states it exposes, described under <a href="#aria">Roles, states and properties</a> below. Keep the visible label and the accessible name the same, so that people using voice control can say what they see, and so that the label a sighted colleague reads out on a support call is the one a screen reader user hears.</p>
    <p>Spacing, colour and typography come from the theme's tokens: do not override them in product code. If a product needs a variant, ask in the #kestrel channel first; most requests turn out to be served by an existing option.</p>

    <h2 id="example-intro">Example</h2>
    <p>The example below is live: use it with a mouse, a touch screen or the keyboard. It is the same markup as the <a href="#code">code sample</a> further down, with the styles of the Kestrel theme. Nothing you do here is saved. ${p.exampleIntro}</p>
    <section id="example" class="example" aria-labelledby="example-h">
      <h3 id="example-h">Example: ${esc(p.example.title)}</h3>
${p.example.html}
    </section>
    <p>Notes on this example: the widget keeps its state in ARIA attributes and nowhere else, so what a screen reader announces is always what the page shows. Focus stays inside the widget while you use the arrow keys, and Tab moves on to the next thing on the page. The example loads no data from a server.</p>

    <h2 id="keyboard">Keyboard interaction</h2>
    <p>The keys below work when focus is inside the ${lname}. Keys not listed are left to the browser and to assistive technology.</p>
    <table class="ref">
      <thead><tr><th scope="col">Key</th><th scope="col">Function</th></tr></thead>
      <tbody>
          ${rows(p.keys)}
      </tbody>
    </table>

    <h2 id="aria">Roles, states and properties</h2>
    <table class="ref">
      <thead><tr><th scope="col">Role or attribute</th><th scope="col">Element</th><th scope="col">Usage</th></tr></thead>
      <tbody>
          ${rows(p.roles)}
      </tbody>
    </table>

    <h2 id="code">Code</h2>
    <p>The markup of the example, without the styles. The script that adds the behaviour is <code>kestrel-${slug(p.name)}.js</code> in the component library: copy the markup and load the script, or use the <code>${p.name.replace(/\W/g, '')}</code> component of the React package, which renders the same markup.</p>
    <pre><code class="language-html">${esc(code)}
...</code></pre>

    <h2 id="notes">Accessibility notes</h2>
    <p>Test with the keyboard first: every action must be possible without a pointer, in a sensible order, with a visible focus indicator of at least 3:1 contrast against its background. Then test with a screen reader: NVDA with Firefox or Chrome on Windows, VoiceOver with Safari on macOS and iOS, TalkBack with Chrome on Android.</p>
    <p>Zoom the page to 400% and check that the ${lname} still works in a window 320 pixels wide, with nothing cut off and no need to scroll in two directions. Check that it respects reduced motion and forced colours (Windows high contrast), and that nothing depends on colour alone.</p>

    <h2 id="related">Related patterns</h2>
    <ul>
        ${related}
    </ul>

    <form class="feedback" aria-labelledby="feedback-h" onsubmit="event.preventDefault()">
      <h2 id="feedback-h">Was this page helpful?</h2>
      <button type="button">Yes</button>
      <button type="button">No</button>
      <p><a href="https://github.com/kestrel-ds/kestrel/edit/main/docs/patterns/${slug(p.name)}.md">Edit this page on GitHub</a></p>
    </form>
  </main>
  <aside class="toc">
    <nav aria-label="On this page">
      <h2>On this page</h2>
      <ul>
        ${TOC.map(([id, t]) => `<li><a href="#${id === 'example' ? 'example-intro' : id}">${t}</a></li>`).join('\n        ')}
      </ul>
    </nav>
  </aside>
</div>
<footer>
  <div class="cols">
    <nav aria-label="Kestrel">
      <ul>
        <li><a href="/about/">About Kestrel</a></li>
        <li><a href="/roadmap/">Roadmap</a></li>
        <li><a href="/contribute/">Contribute</a></li>
        <li><a href="/support/">Get support</a></li>
      </ul>
    </nav>
    <nav aria-label="Resources">
      <ul>
        <li><a href="/design-kit/">Design kit</a></li>
        <li><a href="/tokens/">Design tokens</a></li>
        <li><a href="/icons/">Icons</a></li>
        <li><a href="/accessibility-statement/">Accessibility statement</a></li>
      </ul>
    </nav>
  </div>
  <p>Kestrel is maintained by the Northwind design systems team. Content licensed under CC BY 4.0; code under MIT.</p>
</footer>
${p.example.dialogs || ''}<script>
${p.example.script}
</script>
</body>
</html>
`;
}

// ---- the patterns. Each: name, file, lede, about, use, anatomy, exampleIntro, example
// {title, html, css, script, dialogs?}, keys, roles, related.
const PATTERNS = [];
const PAGE_OF = {};
function pattern(p) { PATTERNS.push(p); PAGE_OF[p.name] = p.file; }

// 1. combobox with list autocomplete
const STATES = ['Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut', 'Delaware',
  'Florida', 'Georgia', 'Hawaii', 'Idaho', 'Illinois', 'Indiana', 'Iowa', 'Kansas', 'Kentucky', 'Louisiana', 'Maine',
  'Maryland', 'Massachusetts', 'Michigan', 'Minnesota', 'Mississippi', 'Missouri', 'Montana', 'Nebraska', 'Nevada',
  'New Hampshire', 'New Jersey', 'New Mexico', 'New York', 'North Carolina', 'North Dakota', 'Ohio', 'Oklahoma',
  'Oregon', 'Pennsylvania', 'Rhode Island', 'South Carolina', 'South Dakota', 'Tennessee', 'Texas', 'Utah', 'Vermont',
  'Virginia', 'Washington', 'West Virginia', 'Wisconsin', 'Wyoming'];
pattern({
  name: 'Combobox',
  file: 'docs-combobox.html',
  lede: 'A text field with a list of suggestions that narrows as you type. Choose one of the suggestions or keep typing.',
  about: [
    'A combobox combines a single-line text field with a popup listbox of values. This page shows the <em>list autocomplete</em> variant: the list shows only the suggestions that start with what has been typed, and nothing is filled in for you until you choose.',
    'Use the select-only variant (see <a href="docs-select.html">Select</a>) when people must pick one of a short list of values and typing would not help them find it.',
  ],
  use: ['The list of possible values is long (more than 15 values), and people know what they are looking for.',
    'Typing a few letters is faster than scrolling, for example countries, states or airports.',
    'Free text is not allowed: the value must be one of the suggestions.'],
  anatomy: ['Label', 'Text field with the role combobox', 'Button that opens the list (not in the Tab sequence)', 'Listbox of suggestions', 'Option'],
  exampleIntro: 'Type the first letters of a US state, then choose it from the list.',
  example: {
    title: 'delivery state',
    css: `
  .combo-wrap { display: inline-flex; }
  #cb-list { list-style: none; margin: 0; padding: 0; border: 1px solid #57606a; max-height: 14em; overflow-y: auto; width: 18em; background: #fff; }
  #cb-list [role="option"] { padding: .1em .5em; cursor: pointer; }
  #cb-list [aria-selected="true"] { background: #0b3d2e; color: #fff; }`,
    html: `      <p>Where should we send your order? We deliver to all 50 states.</p>
      <label for="cb-input">Delivery state</label>
      <div class="combo-wrap">
        <input id="cb-input" type="text" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="cb-list" autocomplete="off">
        <button type="button" id="cb-button" tabindex="-1" aria-label="States" aria-expanded="false" aria-controls="cb-list">&#9662;</button>
      </div>
      <ul id="cb-list" role="listbox" aria-label="States" hidden></ul>`,
    script: `(function () {
  var STATES = ${JSON.stringify(STATES)};
  var input = document.getElementById('cb-input');
  var button = document.getElementById('cb-button');
  var list = document.getElementById('cb-list');
  var active = -1;
  function options() { return list.querySelectorAll('[role="option"]'); }
  function fill(all) {
    var q = all ? '' : input.value.toLowerCase();
    list.textContent = '';
    STATES.forEach(function (s, i) {
      if (s.toLowerCase().indexOf(q) !== 0) return;
      var li = document.createElement('li');
      li.setAttribute('role', 'option'); li.id = 'cb-opt-' + i; li.textContent = s;
      list.appendChild(li);
    });
    setActive(-1);
    return options().length;
  }
  function setActive(i) {
    var os = options();
    if (active >= 0 && os[active]) os[active].removeAttribute('aria-selected');
    active = i;
    if (i >= 0 && os[i]) {
      os[i].setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', os[i].id);
      os[i].scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }
  function open() { list.hidden = false; input.setAttribute('aria-expanded', 'true'); button.setAttribute('aria-expanded', 'true'); }
  function close() { list.hidden = true; setActive(-1); input.setAttribute('aria-expanded', 'false'); button.setAttribute('aria-expanded', 'false'); }
  function choose(li) { input.value = li.textContent; close(); input.focus(); }
  input.addEventListener('input', function () { if (fill(false) && input.value) open(); else close(); });
  input.addEventListener('keydown', function (e) {
    var os = options();
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (list.hidden) { fill(!input.value); open(); }
      setActive(Math.min(active + 1, options().length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.hidden) { fill(!input.value); open(); setActive(options().length - 1); } else setActive(Math.max(active - 1, 0));
    } else if (e.key === 'Enter') {
      if (!list.hidden && active >= 0) { e.preventDefault(); choose(os[active]); }
    } else if (e.key === 'Escape') {
      if (!list.hidden) close(); else input.value = '';
    } else if (e.key === 'Tab') {
      if (!list.hidden && active >= 0) choose(os[active]); else close();
    }
  });
  input.addEventListener('blur', function () { close(); });
  list.addEventListener('mousedown', function (e) { e.preventDefault(); });
  list.addEventListener('click', function (e) {
    var li = e.target.closest('[role="option"]');
    if (li) choose(li);
  });
  button.addEventListener('mousedown', function (e) { e.preventDefault(); });
  button.addEventListener('click', function () {
    if (list.hidden) { fill(!input.value); open(); } else close();
    input.focus();
  });
})();`,
  },
  keys: [['Down Arrow', 'Opens the listbox if it is closed and moves the highlight to the next suggestion.'],
    ['Up Arrow', 'Opens the listbox if it is closed and moves the highlight to the previous suggestion.'],
    ['Enter', 'Chooses the highlighted suggestion: its text goes into the field and the listbox closes.'],
    ['Escape', 'Closes the listbox; when it is closed, clears the field.'],
    ['Any character', 'Types in the field; the listbox shows the suggestions that start with the text.']],
  roles: [['combobox', '<code>input</code>', 'The text field.'],
    ['aria-autocomplete="list"', '<code>input</code>', 'Suggestions are shown in a list; nothing is completed inline.'],
    ['aria-expanded', '<code>input</code>, <code>button</code>', 'Whether the listbox is shown.'],
    ['aria-activedescendant', '<code>input</code>', 'The highlighted option, while focus stays in the field.'],
    ['listbox', '<code>ul</code>', 'The list of suggestions.'],
    ['option', '<code>li</code>', 'One suggestion; <code>aria-selected="true"</code> while highlighted.']],
  related: ['Select', 'Listbox', 'Date picker'],
});

// 2. select-only combobox
const POINTS = ['Bristol Harbourside', 'Bath Spa station', 'Cardiff Bay', 'Exeter Quay', 'Gloucester Docks',
  'Plymouth Barbican', 'Swindon Outlet', 'Taunton Riverside', 'Truro Lemon Quay', 'Weston Pier'];
pattern({
  name: 'Select',
  file: 'docs-select.html',
  lede: 'A button-like field that opens a list of options; choosing one closes the list and shows it in the field.',
  about: [
    'The select-only combobox behaves like a native <code>select</code> element but can be styled freely and can show rich options. It has no text field: people open the list and choose, or type the first letters to jump to an option.',
    'Prefer a native <code>select</code> when its look is acceptable: it works on every device, and mobile browsers show their own picker for it.',
  ],
  use: ['People choose one value from a short list (up to about 15 values).', 'The options need styling a native select cannot give.', 'The value must always be one of the options.'],
  anatomy: ['Label', 'Combobox showing the chosen value', 'Listbox', 'Option'],
  exampleIntro: 'Open the list and choose where to collect your order.',
  example: {
    title: 'collection point',
    css: `
  #sel { display: inline-block; min-width: 14em; border: 1px solid #57606a; padding: .3em .6em; cursor: pointer; background: #fff; }
  #sel-list { border: 1px solid #57606a; width: 16em; background: #fff; }
  #sel-list [role="option"] { padding: .1em .6em; cursor: pointer; }
  #sel-list .current { outline: 2px solid #0b3d2e; }
  #sel-list [aria-selected="true"]::after { content: " \\2713" / ""; }`,
    html: `      <p>Orders placed before 2pm can be collected the next day from any of our ten stores in the South West.</p>
      <div id="sel-label">Collection point</div>
      <div id="sel" role="combobox" tabindex="0" aria-labelledby="sel-label" aria-controls="sel-list" aria-expanded="false" aria-haspopup="listbox">${POINTS[0]}</div>
      <div id="sel-list" role="listbox" aria-labelledby="sel-label" tabindex="-1" hidden>
        ${POINTS.map((p, i) => `<div role="option" id="sel-${i}" aria-selected="${i === 0}">${p}</div>`).join('\n        ')}
      </div>`,
    script: `(function () {
  var box = document.getElementById('sel');
  var list = document.getElementById('sel-list');
  var opts = Array.prototype.slice.call(list.querySelectorAll('[role="option"]'));
  var chosen = 0, current = 0, typed = '', typedAt = 0;
  function highlight(i) {
    opts[current].classList.remove('current');
    current = Math.max(0, Math.min(opts.length - 1, i));
    opts[current].classList.add('current');
    box.setAttribute('aria-activedescendant', opts[current].id);
    opts[current].scrollIntoView({ block: 'nearest' });
  }
  function open() { list.hidden = false; box.setAttribute('aria-expanded', 'true'); highlight(chosen); }
  function close() { list.hidden = true; box.setAttribute('aria-expanded', 'false'); box.removeAttribute('aria-activedescendant'); opts[current].classList.remove('current'); }
  function choose(i) {
    opts[chosen].setAttribute('aria-selected', 'false');
    chosen = i; opts[i].setAttribute('aria-selected', 'true');
    box.textContent = opts[i].textContent;
    close(); box.focus();
  }
  box.addEventListener('click', function () { if (list.hidden) open(); else close(); });
  box.addEventListener('blur', function () { if (!list.hidden) close(); });
  list.addEventListener('mousedown', function (e) { e.preventDefault(); });
  list.addEventListener('click', function (e) {
    var o = e.target.closest('[role="option"]');
    if (o) choose(opts.indexOf(o));
  });
  box.addEventListener('keydown', function (e) {
    var k = e.key;
    if (list.hidden) {
      if (k === 'ArrowDown' || k === 'ArrowUp' || k === 'Enter' || k === ' ') { e.preventDefault(); open(); }
      else if (k === 'Home') { e.preventDefault(); open(); highlight(0); }
      else if (k === 'End') { e.preventDefault(); open(); highlight(opts.length - 1); }
      else if (k.length === 1) { open(); find(k); }
      return;
    }
    if (k === 'ArrowDown') { e.preventDefault(); highlight(current + 1); }
    else if (k === 'ArrowUp') { e.preventDefault(); highlight(current - 1); }
    else if (k === 'Home') { e.preventDefault(); highlight(0); }
    else if (k === 'End') { e.preventDefault(); highlight(opts.length - 1); }
    else if (k === 'PageDown') { e.preventDefault(); highlight(current + 10); }
    else if (k === 'PageUp') { e.preventDefault(); highlight(current - 10); }
    else if (k === 'Enter' || k === ' ') { e.preventDefault(); choose(current); }
    else if (k === 'Escape') { e.preventDefault(); close(); }
    else if (k === 'Tab') { choose(current); }
    else if (k.length === 1) find(k);
  });
  function find(ch) {
    var now = performance.now();
    typed = now - typedAt < 500 ? typed + ch : ch; typedAt = now;
    var start = typed.length > 1 ? current : current + 1;
    for (var n = 0; n < opts.length; n++) {
      var i = (start + n) % opts.length;
      if (opts[i].textContent.toLowerCase().indexOf(typed.toLowerCase()) === 0) { highlight(i); return; }
    }
  }
})();`,
  },
  keys: [['Enter, Space, Down Arrow', 'Opens the listbox with the chosen option highlighted; in the open listbox, Enter and Space choose the highlighted option.'],
    ['Up and Down Arrow', 'Moves the highlight.'], ['Home, End', 'Highlights the first or the last option.'],
    ['Escape', 'Closes the listbox without changing the value.'], ['Characters', 'Highlights the next option that starts with the typed characters.']],
  roles: [['combobox', '<code>div</code>', 'The field; its text is the chosen value.'],
    ['aria-haspopup="listbox"', '<code>div</code>', 'The field opens a listbox.'],
    ['aria-expanded', '<code>div</code>', 'Whether the listbox is shown.'],
    ['listbox', '<code>div</code>', 'The options.'],
    ['aria-selected="true"', '<code>div</code>', 'The chosen option.']],
  related: ['Combobox', 'Listbox', 'Radio group'],
});

// 3. listbox (scrollable, single select)
const AIRPORTS = ['Aberdeen (ABZ)', 'Alicante (ALC)', 'Amsterdam (AMS)', 'Barcelona (BCN)', 'Belfast (BFS)', 'Berlin (BER)',
  'Bologna (BLQ)', 'Bristol (BRS)', 'Copenhagen (CPH)', 'Dublin (DUB)', 'Edinburgh (EDI)', 'Faro (FAO)', 'Geneva (GVA)',
  'Inverness (INV)', 'Lisbon (LIS)', 'Madeira (FNC)', 'Malaga (AGP)', 'Milan (MXP)', 'Nice (NCE)', 'Palma (PMI)',
  'Paris (CDG)', 'Porto (OPO)', 'Prague (PRG)', 'Rome (FCO)', 'Seville (SVQ)', 'Venice (VCE)', 'Vienna (VIE)', 'Zurich (ZRH)'];
pattern({
  name: 'Listbox',
  file: 'docs-listbox.html',
  lede: 'A list of options, always shown, from which people choose one. The list scrolls when it has more options than fit.',
  about: [
    'A listbox presents a list of options and lets people select one of them (or several, in the multi-select variant). Unlike a select, the list is always visible, so people can compare options without opening anything.',
    'In the single-select listbox shown here, selection follows focus: moving through the list with the arrow keys selects each option in turn.',
  ],
  use: ['The options are worth seeing all at once, or the list is the main content of a panel.', 'There is room on the page for several options at a time.', 'Options are short, single lines of text.'],
  anatomy: ['Label', 'Listbox (scrolls when needed)', 'Option', 'Selected option, with a check mark'],
  exampleIntro: 'Choose the airport you fly from. The list scrolls.',
  example: {
    title: 'departure airport',
    css: `
  #lb { list-style: none; margin: 0; padding: 0; border: 1px solid #57606a; max-height: 10em; overflow-y: auto; width: 16em; background: #fff; }
  #lb [role="option"] { padding: .1em .6em; cursor: pointer; }
  #lb [aria-selected="true"] { background: #0b3d2e; color: #fff; }`,
    html: `      <p>We fly from 28 airports in Europe. Flights from the airport you choose are shown on the next page.</p>
      <p id="lb-label">Departure airport</p>
      <ul id="lb" role="listbox" tabindex="0" aria-labelledby="lb-label" aria-activedescendant="lb-7">
        ${AIRPORTS.map((a, i) => `<li role="option" id="lb-${i}"${a === 'Bristol (BRS)' ? ' aria-selected="true"' : ''}>${esc(a)}</li>`).join('\n        ')}
      </ul>`,
    script: `(function () {
  var lb = document.getElementById('lb');
  var opts = Array.prototype.slice.call(lb.querySelectorAll('[role="option"]'));
  var sel = 7;
  function select(i) {
    i = Math.max(0, Math.min(opts.length - 1, i));
    opts[sel].removeAttribute('aria-selected');
    sel = i; opts[i].setAttribute('aria-selected', 'true');
    lb.setAttribute('aria-activedescendant', opts[i].id);
    var top = opts[i].offsetTop - lb.offsetTop, bottom = top + opts[i].offsetHeight;
    if (top < lb.scrollTop) lb.scrollTop = top; else if (bottom > lb.scrollTop + lb.clientHeight) lb.scrollTop = bottom - lb.clientHeight;
  }
  lb.addEventListener('click', function (e) {
    var o = e.target.closest('[role="option"]');
    if (o) { select(opts.indexOf(o)); lb.focus(); }
  });
  lb.addEventListener('keydown', function (e) {
    var k = e.key;
    if (k === 'ArrowDown') { e.preventDefault(); select(sel + 1); }
    else if (k === 'ArrowUp') { e.preventDefault(); select(sel - 1); }
    else if (k === 'Home') { e.preventDefault(); select(0); }
    else if (k === 'End') { e.preventDefault(); select(opts.length - 1); }
    else if (k.length === 1 && /\\S/.test(k)) {
      for (var n = 1; n <= opts.length; n++) {
        var i = (sel + n) % opts.length;
        if (opts[i].textContent.charAt(0).toLowerCase() === k.toLowerCase()) { select(i); break; }
      }
    }
  });
})();`,
  },
  keys: [['Down Arrow, Up Arrow', 'Moves focus to the next or previous option and selects it.'], ['Home, End', 'Selects the first or the last option.'],
    ['Characters', 'Selects the next option that starts with the typed character.']],
  roles: [['listbox', '<code>ul</code>', 'The list; it is the one element in the Tab sequence.'],
    ['aria-labelledby', '<code>ul</code>', 'Names the list after the text above it.'],
    ['aria-activedescendant', '<code>ul</code>', 'The focused option.'],
    ['option', '<code>li</code>', 'One airport.'], ['aria-selected="true"', '<code>li</code>', 'The selected option.']],
  related: ['Select', 'Combobox', 'Radio group'],
});

// 4. menu button
pattern({
  name: 'Menu button',
  file: 'docs-menu-button.html',
  lede: 'A button that opens a menu of actions. Choosing an action runs it and closes the menu.',
  about: [
    'A menu button is a button that opens a menu: a list of actions or functions, such as the actions on a file. It shows a down-pointing arrow to tell people that it opens something.',
    'A menu is for actions, not for navigation: a list of links is better served by a <a href="docs-disclosure.html">disclosure</a> that shows a list of links.',
  ],
  use: ['A set of actions on one thing (a file, a row, an order) would crowd the page as separate buttons.', 'The actions are used now and then, not on every visit.', 'Each action runs at once or opens a dialog.'],
  anatomy: ['Menu button, with <code>aria-haspopup</code>', 'Menu', 'Menu item'],
  exampleIntro: 'Open the Actions menu and choose an action: the action is written to Last action.',
  example: {
    title: 'file actions',
    css: `
  .mb { position: relative; display: inline-block; }
  #mb-menu { position: absolute; top: 100%; left: 0; margin: 0; padding: .2em 0; list-style: none; border: 1px solid #57606a; background: #fff; min-width: 12em; z-index: 2; }
  #mb-menu [role="menuitem"] { padding: .2em .8em; cursor: pointer; }
  #mb-menu [role="menuitem"]:focus { background: #0b3d2e; color: #fff; outline: none; }`,
    html: `      <p>File: <strong>Q3 trip report.pdf</strong> (2.4 MB, shared with 3 people)</p>
      <p><label for="mb-last">Last action</label> <input id="mb-last" type="text" readonly value=""></p>
      <div class="mb">
        <button type="button" id="mb-button" aria-haspopup="true" aria-expanded="false" aria-controls="mb-menu">Actions <span aria-hidden="true">&#9662;</span></button>
        <ul id="mb-menu" role="menu" aria-labelledby="mb-button" tabindex="-1" hidden>
          <li role="menuitem" tabindex="-1">Rename</li>
          <li role="menuitem" tabindex="-1">Duplicate</li>
          <li role="menuitem" tabindex="-1">Move to folder</li>
          <li role="menuitem" tabindex="-1">Download</li>
          <li role="menuitem" tabindex="-1">Delete</li>
        </ul>
      </div>`,
    script: `(function () {
  var button = document.getElementById('mb-button');
  var menu = document.getElementById('mb-menu');
  var items = Array.prototype.slice.call(menu.querySelectorAll('[role="menuitem"]'));
  var last = document.getElementById('mb-last');
  function focusItem(i) { items[(i + items.length) % items.length].focus(); }
  function open(i) { menu.hidden = false; button.setAttribute('aria-expanded', 'true'); focusItem(i); }
  function close(focusButton) { menu.hidden = true; button.setAttribute('aria-expanded', 'false'); if (focusButton) button.focus(); }
  function run(item) { last.value = item.textContent; close(true); }
  button.addEventListener('click', function () { if (menu.hidden) open(0); else close(true); });
  button.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowDown' || e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open(0); }
    else if (e.key === 'ArrowUp') { e.preventDefault(); open(items.length - 1); }
  });
  menu.addEventListener('click', function (e) {
    var it = e.target.closest('[role="menuitem"]');
    if (it) run(it);
  });
  menu.addEventListener('keydown', function (e) {
    var i = items.indexOf(document.activeElement), k = e.key;
    if (k === 'ArrowDown') { e.preventDefault(); focusItem(i + 1); }
    else if (k === 'ArrowUp') { e.preventDefault(); focusItem(i - 1); }
    else if (k === 'Home' || k === 'PageUp') { e.preventDefault(); focusItem(0); }
    else if (k === 'End' || k === 'PageDown') { e.preventDefault(); focusItem(items.length - 1); }
    else if (k === 'Enter' || k === ' ') { e.preventDefault(); if (i >= 0) run(items[i]); }
    else if (k === 'Escape') { e.preventDefault(); close(true); }
    else if (k === 'Tab') { close(false); }
    else if (k.length === 1) {
      for (var n = 1; n <= items.length; n++) {
        var j = (i + n) % items.length;
        if (items[j].textContent.charAt(0).toLowerCase() === k.toLowerCase()) { focusItem(j); break; }
      }
    }
  });
  menu.addEventListener('focusout', function (e) {
    if (!menu.hidden && !menu.contains(e.relatedTarget) && e.relatedTarget !== button) close(false);
  });
})();`,
  },
  keys: [['Enter, Space, Down Arrow', 'On the button: opens the menu and focuses its first item.'], ['Up Arrow', 'On the button: opens the menu and focuses its last item.'],
    ['Down Arrow, Up Arrow', 'In the menu: moves focus to the next or previous item, wrapping around.'], ['Enter, Space', 'In the menu: runs the focused item’s action and closes the menu.'],
    ['Escape', 'Closes the menu and returns focus to the button.']],
  roles: [['aria-haspopup="true"', '<code>button</code>', 'The button opens a menu.'], ['aria-expanded', '<code>button</code>', 'Whether the menu is open.'],
    ['menu', '<code>ul</code>', 'The menu, named after the button.'], ['menuitem', '<code>li</code>', 'One action.']],
  related: ['Menubar', 'Toolbar', 'Disclosure'],
});

// 5. menubar with submenus
const MENUBAR = [
  ['File', ['New note', 'Open...', 'Save', 'Export as PDF', 'Print...']],
  ['Edit', ['Undo', 'Redo', 'Cut', 'Copy', 'Paste', 'Find...']],
  ['View', ['Zoom in', 'Zoom out', 'Show word count', 'Full screen']],
  ['Format', null],
];
pattern({
  name: 'Menubar',
  file: 'docs-menubar.html',
  lede: 'A horizontal bar of menus, as in a desktop application: each item opens a menu, and menus may hold submenus.',
  about: [
    'A menubar is a visually persistent row of menu items, each of which opens a menu. It suits editors and other application-like pages where people expect the File, Edit and View menus of desktop software.',
    'A menubar is not site navigation. For a site’s main links use a list of links in a <code>nav</code> element; a menubar asks screen reader users to switch to application-style keyboard use, which is wrong for a page of links.',
  ],
  use: ['The page is an application (an editor, a drawing tool) with many commands.', 'Commands group naturally under a few headings.', 'Some commands are settings with a choice of values (radio items) or on/off states (checkbox items).'],
  anatomy: ['Menubar', 'Menubar item, which opens a menu', 'Menu', 'Menu item, checkbox item or radio item', 'Submenu item, which opens a submenu'],
  exampleIntro: 'The menubar of a small notes editor. Open Format, then Text size, and choose a size: the sample text and Last action change.',
  example: {
    title: 'notes editor',
    css: `
  #menubar, #menubar [role="menu"] { list-style: none; margin: 0; padding: 0; }
  #menubar { display: flex; gap: .2em; border: 1px solid #57606a; background: #f6f8fa; }
  #menubar > li { position: relative; }
  #menubar [role="menuitem"], #menubar [role="menuitemcheckbox"], #menubar [role="menuitemradio"] { display: block; padding: .2em .8em; cursor: pointer; white-space: nowrap; }
  #menubar [role="menu"] { position: absolute; top: 100%; left: 0; border: 1px solid #57606a; background: #fff; min-width: 11em; z-index: 2; }
  #menubar [role="menu"] [role="menu"] { top: 0; left: 100%; }
  #menubar li { position: relative; }
  #menubar :focus { background: #0b3d2e; color: #fff; outline: none; }
  #menubar [aria-checked="true"]::before { content: "\\2713 " / ""; }
  #mbar-sample { border: 1px solid #d0d7de; padding: .5em; min-height: 4em; }`,
    html: `      <ul id="menubar" role="menubar" aria-label="Notes editor">
${MENUBAR.map(([name, items], i) => `        <li role="none">
          <span role="menuitem" id="mbar-${slug(name)}" aria-haspopup="true" aria-expanded="false" tabindex="${i === 0 ? 0 : -1}">${name}</span>
          <ul role="menu" aria-label="${name}" hidden>
${items ? items.map((it) => `            <li role="menuitem" tabindex="-1">${it}</li>`).join('\n') : `            <li role="menuitemcheckbox" aria-checked="false" tabindex="-1">Bold</li>
            <li role="menuitemcheckbox" aria-checked="false" tabindex="-1">Italic</li>
            <li role="separator"></li>
            <li role="none">
              <span role="menuitem" aria-haspopup="true" aria-expanded="false" tabindex="-1">Text size</span>
              <ul role="menu" aria-label="Text size" hidden>
                <li role="menuitemradio" aria-checked="false" tabindex="-1">Small</li>
                <li role="menuitemradio" aria-checked="true" tabindex="-1">Normal</li>
                <li role="menuitemradio" aria-checked="false" tabindex="-1">Large</li>
                <li role="menuitemradio" aria-checked="false" tabindex="-1">Extra large</li>
              </ul>
            </li>
            <li role="none">
              <span role="menuitem" aria-haspopup="true" aria-expanded="false" tabindex="-1">Align</span>
              <ul role="menu" aria-label="Align" hidden>
                <li role="menuitemradio" aria-checked="true" tabindex="-1">Left</li>
                <li role="menuitemradio" aria-checked="false" tabindex="-1">Centre</li>
                <li role="menuitemradio" aria-checked="false" tabindex="-1">Right</li>
              </ul>
            </li>`}
          </ul>
        </li>`).join('\n')}
      </ul>
      <p><label for="mbar-last">Last action</label> <input id="mbar-last" type="text" readonly value=""></p>
      <div id="mbar-sample" aria-label="Note">Day 3: from Seathwaite over Styhead Pass to Wasdale Head. Low cloud until noon, then clear views of Great Gable.</div>`,
    script: `(function () {
  var bar = document.getElementById('menubar');
  var last = document.getElementById('mbar-last');
  var sample = document.getElementById('mbar-sample');
  var SIZES = { 'Small': '13px', 'Normal': '16px', 'Large': '20px', 'Extra large': '24px' };
  var top = Array.prototype.slice.call(bar.querySelectorAll(':scope > li > [role="menuitem"]'));
  function submenuOf(item) { var m = item.nextElementSibling; return m && m.getAttribute('role') === 'menu' ? m : null; }
  function itemsOf(menu) { return Array.prototype.slice.call(menu.querySelectorAll(':scope > li > [role^="menuitem"], :scope > [role^="menuitem"]')); }
  function parentItemOf(menu) { return menu.previousElementSibling; }
  function openMenu(item, focusFirst) {
    var m = submenuOf(item);
    // close the sibling menus (and their submenus)
    var siblings = item.closest('[role="menu"], [role="menubar"]').querySelectorAll(':scope > li > [aria-expanded="true"]');
    Array.prototype.forEach.call(siblings, function (s) { if (s !== item) closeMenu(s); });
    m.hidden = false; item.setAttribute('aria-expanded', 'true');
    if (focusFirst) itemsOf(m)[0].focus();
  }
  function closeMenu(item) {
    var m = submenuOf(item);
    Array.prototype.forEach.call(m.querySelectorAll('[aria-expanded="true"]'), function (s) { closeMenu(s); });
    m.hidden = true; item.setAttribute('aria-expanded', 'false');
  }
  function closeAll() { top.forEach(function (t) { if (t.getAttribute('aria-expanded') === 'true') closeMenu(t); }); }
  function topOf(el) { return el.closest('#menubar > li').querySelector('[role="menuitem"]'); }
  function setTabStop(t) { top.forEach(function (x) { x.tabIndex = x === t ? 0 : -1; }); }
  function activate(item) {
    var role = item.getAttribute('role'), name = item.textContent;
    var menuName = item.closest('[role="menu"]').getAttribute('aria-label');
    if (role === 'menuitemcheckbox') {
      var on = item.getAttribute('aria-checked') !== 'true';
      item.setAttribute('aria-checked', String(on));
      sample.style[name === 'Bold' ? 'fontWeight' : 'fontStyle'] = on ? (name === 'Bold' ? 'bold' : 'italic') : '';
      last.value = name + (on ? ' on' : ' off');
    } else if (role === 'menuitemradio') {
      itemsOf(item.closest('[role="menu"]')).forEach(function (r) { r.setAttribute('aria-checked', String(r === item)); });
      if (menuName === 'Text size') sample.style.fontSize = SIZES[name]; else sample.style.textAlign = name === 'Centre' ? 'center' : name.toLowerCase();
      last.value = menuName + ': ' + name;
    } else {
      last.value = name.replace(/\\.\\.\\.$/, '');
    }
    var t = topOf(item); closeAll(); setTabStop(t); t.focus();
  }
  bar.addEventListener('click', function (e) {
    var item = e.target.closest('[role^="menuitem"]');
    if (!item) return;
    if (item.getAttribute('aria-haspopup')) {
      var isTop = top.indexOf(item) >= 0;
      if (isTop && item.getAttribute('aria-expanded') === 'true') { closeMenu(item); item.focus(); return; }
      openMenu(item, true);
      if (isTop) setTabStop(item);
    } else activate(item);
  });
  bar.addEventListener('keydown', function (e) {
    var item = document.activeElement, k = e.key;
    if (!item || !bar.contains(item)) return;
    var ti = top.indexOf(item);
    var menu = item.closest('[role="menu"]');
    function moveTop(d, open) {
      var t = top[(top.indexOf(topOf(item)) + d + top.length) % top.length];
      var wasOpen = topOf(item).getAttribute('aria-expanded') === 'true';
      closeAll(); setTabStop(t); t.focus();
      if (open || wasOpen) openMenu(t, true);
    }
    if (ti >= 0) {
      if (k === 'ArrowRight') { e.preventDefault(); moveTop(1, false); }
      else if (k === 'ArrowLeft') { e.preventDefault(); moveTop(-1, false); }
      else if (k === 'ArrowDown' || k === 'Enter' || k === ' ') { e.preventDefault(); openMenu(item, true); }
      else if (k === 'ArrowUp') { e.preventDefault(); openMenu(item, false); var its = itemsOf(submenuOf(item)); its[its.length - 1].focus(); }
      else if (k === 'Home') { e.preventDefault(); setTabStop(top[0]); top[0].focus(); }
      else if (k === 'End') { e.preventDefault(); setTabStop(top[top.length - 1]); top[top.length - 1].focus(); }
      else if (k === 'Escape') { closeAll(); }
      return;
    }
    var list = itemsOf(menu), i = list.indexOf(item);
    if (k === 'ArrowDown') { e.preventDefault(); list[(i + 1) % list.length].focus(); }
    else if (k === 'ArrowUp') { e.preventDefault(); list[(i - 1 + list.length) % list.length].focus(); }
    else if (k === 'Home') { e.preventDefault(); list[0].focus(); }
    else if (k === 'End') { e.preventDefault(); list[list.length - 1].focus(); }
    else if (k === 'ArrowRight') {
      e.preventDefault();
      if (item.getAttribute('aria-haspopup')) openMenu(item, true); else moveTop(1, true);
    } else if (k === 'ArrowLeft') {
      e.preventDefault();
      var parent = parentItemOf(menu);
      if (top.indexOf(parent) >= 0) moveTop(-1, true); else { closeMenu(parent); parent.focus(); }
    } else if (k === 'Escape') {
      e.preventDefault();
      var p = parentItemOf(menu); closeMenu(p); p.focus();
    } else if (k === 'Enter' || k === ' ') {
      e.preventDefault();
      if (item.getAttribute('aria-haspopup')) openMenu(item, true); else activate(item);
    } else if (k === 'Tab') { closeAll(); }
  });
  document.addEventListener('click', function (e) { if (!bar.contains(e.target)) closeAll(); });
})();`,
  },
  keys: [['Left Arrow, Right Arrow', 'In the menubar: moves to the previous or next menubar item. In a menu: closes it and opens the neighbouring menu, or opens and closes submenus.'],
    ['Down Arrow, Enter, Space', 'On a menubar item: opens its menu and focuses the first item.'],
    ['Up Arrow, Down Arrow', 'In a menu: moves to the previous or next item.'],
    ['Enter, Space', 'In a menu: runs the item, toggles a checkbox item or chooses a radio item, and closes the menus.'],
    ['Escape', 'Closes the menu and returns focus to the item that opened it.']],
  roles: [['menubar', '<code>ul</code>', 'The bar, named "Notes editor".'], ['menuitem', '<code>span</code>, <code>li</code>', 'An item; with <code>aria-haspopup</code> it opens a menu.'],
    ['aria-expanded', '<code>span</code>', 'Whether the item’s menu is open.'], ['menuitemcheckbox', '<code>li</code>', 'An on/off setting, with <code>aria-checked</code>.'],
    ['menuitemradio', '<code>li</code>', 'One of a set of values, with <code>aria-checked</code>.'], ['separator', '<code>li</code>', 'A divider between groups of items.']],
  related: ['Menu button', 'Toolbar'],
});

// 6. accordion with form fields
const ADDRESS_FIELDS = [['Street address', 'street-address'], ['City', 'address-level2'], ['Postcode', 'postal-code']];
pattern({
  name: 'Accordion',
  file: 'docs-accordion.html',
  lede: 'A stack of headings that each show or hide a section of content, so people can focus on one part of a long form at a time.',
  about: [
    'An accordion is a vertically stacked set of headings, each with a button that reveals or hides a section of content. In a long form, it lets people see the structure at a glance and open the part they need.',
    'Each heading button says whether its section is expanded. More than one section may be open at a time in this example; some designs allow only one.',
  ],
  use: ['The content splits into sections that people need one at a time.', 'People benefit from an overview of the sections before they dive in.', 'Sections are of similar weight; one very important section should not be hidden.'],
  anatomy: ['Heading containing a button', 'Button with <code>aria-expanded</code>', 'Panel (a region named after its heading)'],
  exampleIntro: 'A checkout form in three sections: the first is open. Open the others to fill them.',
  example: {
    title: 'checkout details',
    css: `
  .acc h4 { margin: 0; }
  .acc h4 button { display: block; width: 100%; text-align: left; padding: .5em; font: inherit; font-weight: 600; background: #f6f8fa; border: 1px solid #d0d7de; }
  .acc [role="region"] { padding: .5em 1em 1em; border: 1px solid #d0d7de; border-top: 0; }
  .acc label { display: block; margin-top: .5em; }`,
    html: `      <div class="acc">
${[['Personal details', [['Full name', 'name'], ['Email', 'email'], ['Phone', 'tel']], true],
    ['Billing address', ADDRESS_FIELDS, false], ['Shipping address', ADDRESS_FIELDS, false]].map(([h, fields, open], i) => `        <h4><button type="button" id="acc-b${i}" aria-expanded="${open}" aria-controls="acc-p${i}">${h}</button></h4>
        <div id="acc-p${i}" role="region" aria-labelledby="acc-b${i}"${open ? '' : ' hidden'}>
${fields.map(([label, ac]) => `          <label>${label} <input type="text" name="${slug(h)}-${ac}" autocomplete="${i === 1 ? 'billing ' : i === 2 ? 'shipping ' : ''}${ac}"></label>`).join('\n')}
        </div>`).join('\n')}
      </div>`,
    script: `(function () {
  var buttons = Array.prototype.slice.call(document.querySelectorAll('.acc h4 button'));
  buttons.forEach(function (b, i) {
    b.addEventListener('click', function () {
      var open = b.getAttribute('aria-expanded') === 'true';
      b.setAttribute('aria-expanded', String(!open));
      document.getElementById(b.getAttribute('aria-controls')).hidden = open;
    });
    b.addEventListener('keydown', function (e) {
      var j = null;
      if (e.key === 'ArrowDown') j = (i + 1) % buttons.length;
      else if (e.key === 'ArrowUp') j = (i - 1 + buttons.length) % buttons.length;
      else if (e.key === 'Home') j = 0;
      else if (e.key === 'End') j = buttons.length - 1;
      if (j !== null) { e.preventDefault(); buttons[j].focus(); }
    });
  });
})();`,
  },
  keys: [['Enter, Space', 'On a heading button: expands or collapses its section.'], ['Tab', 'Moves through the heading buttons and the fields of open sections.'],
    ['Down Arrow, Up Arrow', 'On a heading button: moves to the next or previous heading button.'], ['Home, End', 'On a heading button: moves to the first or last heading button.']],
  roles: [['button', '<code>button</code> inside <code>h4</code>', 'Shows or hides a section.'], ['aria-expanded', '<code>button</code>', 'Whether the section is shown.'],
    ['aria-controls', '<code>button</code>', 'Points to the section.'], ['region', '<code>div</code>', 'The section, named after its button by <code>aria-labelledby</code>.']],
  related: ['Disclosure', 'Tabs'],
});

// 7. tabs with automatic activation
const TABS = [
  ['Overview', 'Black Sail is the most remote youth hostel in England: a former shepherd\'s bothy at the head of Ennerdale with 16 beds, no mobile signal and no road. Open from March to October.'],
  ['Facilities', 'Self-catering kitchen, drying room, wood stove and a small shop selling breakfast packs. Bedding is provided; bring a torch, as the generator is switched off at 10:30pm.'],
  ['Getting there', 'There is no vehicle access. Walk in from Gatesgarth Farm in Buttermere over Scarth Gap (2 hours, 5 km) or along the forest track from Bowness Knott car park in Ennerdale (3 hours, 11 km).'],
  ['Prices', 'Beds from £25 a night, the whole hostel from £380 a night. Members of the Youth Hostels Association save £3 a night.'],
];
pattern({
  name: 'Tabs',
  file: 'docs-tabs.html',
  lede: 'A set of layered panels, one shown at a time, each with a tab that brings it forward.',
  about: [
    'Tabs organise related content into panels shown one at a time. The row of tabs works as one control: Tab moves into it and out of it, and the arrow keys move between the tabs.',
    'In this example a tab is activated as soon as it receives focus (automatic activation). When showing a panel takes time, for instance when it loads data, activate on Enter or Space instead.',
  ],
  use: ['Content splits into a few parallel sections of similar kind.', 'People need only one section at a time and switch between them.', 'The tab labels are short: one or two words.'],
  anatomy: ['Tab list, named after the thing it describes', 'Tab', 'Selected tab', 'Tab panel'],
  exampleIntro: 'The page of a mountain hostel. Choose a tab to read about it.',
  example: {
    title: 'hostel details',
    css: `
  [role="tablist"] { display: flex; gap: .2em; border-bottom: 2px solid #0b3d2e; }
  [role="tab"] { font: inherit; padding: .4em 1em; border: 1px solid #d0d7de; border-bottom: 0; background: #f6f8fa; }
  [role="tab"][aria-selected="true"] { background: #0b3d2e; color: #fff; }
  [role="tabpanel"] { padding: 1em; border: 1px solid #d0d7de; border-top: 0; }`,
    html: `      <h4 id="tabs-label">Black Sail Hut, Ennerdale</h4>
      <div role="tablist" aria-labelledby="tabs-label">
${TABS.map(([t], i) => `        <button type="button" role="tab" id="tab-${i}" aria-selected="${i === 0}" aria-controls="panel-${i}"${i ? ' tabindex="-1"' : ''}>${t}</button>`).join('\n')}
      </div>
${TABS.map(([t, text], i) => `      <div role="tabpanel" id="panel-${i}" aria-labelledby="tab-${i}" tabindex="0"${i ? ' hidden' : ''}>
        <p>${esc(text)}</p>
      </div>`).join('\n')}`,
    script: `(function () {
  var tabs = Array.prototype.slice.call(document.querySelectorAll('[role="tab"]'));
  function select(t) {
    tabs.forEach(function (x) {
      var on = x === t;
      x.setAttribute('aria-selected', String(on));
      x.tabIndex = on ? 0 : -1;
      document.getElementById(x.getAttribute('aria-controls')).hidden = !on;
    });
    t.focus();
  }
  tabs.forEach(function (t, i) {
    t.addEventListener('click', function () { select(t); });
    t.addEventListener('keydown', function (e) {
      var j = null;
      if (e.key === 'ArrowRight') j = (i + 1) % tabs.length;
      else if (e.key === 'ArrowLeft') j = (i - 1 + tabs.length) % tabs.length;
      else if (e.key === 'Home') j = 0;
      else if (e.key === 'End') j = tabs.length - 1;
      if (j !== null) { e.preventDefault(); select(tabs[j]); }
    });
  });
})();`,
  },
  keys: [['Tab', 'Moves focus into the tab list (to the selected tab), then to the panel.'], ['Left Arrow, Right Arrow', 'Selects the previous or next tab, wrapping around.'],
    ['Home, End', 'Selects the first or last tab.']],
  roles: [['tablist', '<code>div</code>', 'The row of tabs, named after the heading above it.'], ['tab', '<code>button</code>', 'One tab.'],
    ['aria-selected', '<code>button</code>', '<code>true</code> on the tab whose panel is shown.'], ['aria-controls', '<code>button</code>', 'Points to the tab’s panel.'],
    ['tabpanel', '<code>div</code>', 'A panel, named after its tab.']],
  related: ['Accordion', 'Disclosure'],
});

// 8. modal dialog (at the end of the body, as many sites put it)
pattern({
  name: 'Dialog',
  file: 'docs-dialog.html',
  lede: 'A window over the page that people must deal with before they go back to the page: fill a short form, confirm, or read.',
  about: [
    'A modal dialog is a window laid over the page. While it is open, the page beneath is inert: it cannot be clicked, focus cannot reach it and screen readers do not read it. The dialog has a title, and focus moves into it when it opens.',
    'When the dialog closes, focus returns to the control that opened it, or to the place where the result of the dialog is shown, so that keyboard and screen reader users do not lose their place.',
  ],
  use: ['A short task (a few fields) interrupts a longer one, such as adding an address during checkout.', 'People must confirm or supply something before they can continue.', 'The content of the dialog would be out of place in the flow of the page.'],
  anatomy: ['Button that opens the dialog', 'Backdrop over the page', 'Dialog with a title (<code>aria-labelledby</code>) and a description', 'Form fields', 'Buttons that close the dialog'],
  exampleIntro: 'Add a delivery address: the dialog asks for it, and the list of saved addresses shows it when you save.',
  example: {
    title: 'delivery addresses',
    css: `
  .backdrop { position: fixed; inset: 0; background: rgba(0, 0, 0, .45); display: flex; align-items: center; justify-content: center; z-index: 20; }
  .backdrop [role="dialog"] { background: #fff; padding: 1.5em; width: 26em; border-radius: 8px; }
  .backdrop label { display: block; margin-top: .5em; }
  .backdrop .error { color: #b00020; }`,
    html: `      <p id="addr-count" role="status">You have no saved delivery addresses.</p>
      <ul id="addr-list"></ul>
      <button type="button" id="addr-open">Add delivery address</button>`,
    dialogs: `<div class="backdrop" id="addr-backdrop" hidden>
  <div role="dialog" id="addr-dialog" aria-modal="true" aria-labelledby="addr-title" aria-describedby="addr-desc">
    <h2 id="addr-title">Add delivery address</h2>
    <p id="addr-desc">We deliver Monday to Saturday, 8am to 6pm.</p>
    <form id="addr-form" novalidate>
      <label>Full name <input name="name" autocomplete="name" required></label>
      <label>Street address <input name="street" autocomplete="street-address" required></label>
      <label>City <input name="city" autocomplete="address-level2" required></label>
      <label>Postcode <input name="postcode" autocomplete="postal-code" required></label>
      <p class="error" id="addr-error"></p>
      <button type="submit">Save address</button>
      <button type="button" id="addr-cancel">Cancel</button>
    </form>
  </div>
</div>
`,
    script: `(function () {
  var opener = document.getElementById('addr-open');
  var backdrop = document.getElementById('addr-backdrop');
  var dialog = document.getElementById('addr-dialog');
  var form = document.getElementById('addr-form');
  var list = document.getElementById('addr-list');
  var count = document.getElementById('addr-count');
  var page = [document.querySelector('.site'), document.querySelector('.layout'), document.querySelector('footer')];
  var n = 0;
  function focusables() { return Array.prototype.slice.call(dialog.querySelectorAll('input, button')); }
  function open() {
    form.reset(); document.getElementById('addr-error').textContent = '';
    backdrop.hidden = false;
    page.forEach(function (el) { el.inert = true; });
    focusables()[0].focus();
  }
  function close(focusTo) {
    backdrop.hidden = true;
    page.forEach(function (el) { el.inert = false; });
    focusTo.focus();
  }
  opener.addEventListener('click', open);
  document.getElementById('addr-cancel').addEventListener('click', function () { close(opener); });
  dialog.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') { e.preventDefault(); close(opener); }
    else if (e.key === 'Tab') {
      var f = focusables(), first = f[0], lastF = f[f.length - 1];
      if (e.shiftKey && document.activeElement === first) { e.preventDefault(); lastF.focus(); }
      else if (!e.shiftKey && document.activeElement === lastF) { e.preventDefault(); first.focus(); }
    }
  });
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var v = function (k) { return form.elements[k].value.trim(); };
    var missing = ['name', 'street', 'city', 'postcode'].filter(function (k) { return !v(k); });
    if (missing.length) {
      document.getElementById('addr-error').textContent = 'Fill in every field: ' + missing.join(', ') + ' missing.';
      form.elements[missing[0]].focus();
      return;
    }
    n += 1;
    var li = document.createElement('li');
    li.textContent = v('name') + ', ' + v('street') + ', ' + v('city') + ' ' + v('postcode');
    list.appendChild(li);
    count.textContent = 'You have ' + n + ' saved delivery address' + (n > 1 ? 'es' : '') + '.';
    close(opener);
  });
})();`,
  },
  keys: [['Tab, Shift+Tab', 'Moves focus through the dialog’s controls; focus wraps from the last to the first and never leaves the dialog.'],
    ['Escape', 'Closes the dialog without saving and returns focus to the button that opened it.'], ['Enter', 'In a field: saves the address.']],
  roles: [['dialog', '<code>div</code>', 'The dialog window.'], ['aria-modal="true"', '<code>div</code>', 'The page beneath is inert while the dialog is open.'],
    ['aria-labelledby', '<code>div</code>', 'Names the dialog after its title.'], ['aria-describedby', '<code>div</code>', 'Describes the dialog with the text under the title.'],
    ['status', '<code>p</code>', 'The count of saved addresses, announced when it changes.']],
  related: ['Alert dialog', 'Date picker'],
});

// 9. alert dialog
pattern({
  name: 'Alert dialog',
  file: 'docs-alert-dialog.html',
  lede: 'A modal dialog that interrupts to ask people to confirm a consequential action, such as deleting their work.',
  about: [
    'An alert dialog is a modal dialog whose message is urgent enough to interrupt: screen readers announce its title and message as soon as it opens. It asks a question and offers a small number of answers.',
    'Focus goes to the least destructive answer when the dialog opens, so that pressing Enter by accident does not destroy anything.',
  ],
  use: ['An action cannot be undone and people should confirm it.', 'Something has gone wrong and people must decide what to do next.', 'Use sparingly: dialogs that appear often train people to dismiss them without reading.'],
  anatomy: ['Trigger', 'Alert dialog with a title (<code>aria-labelledby</code>) and a message (<code>aria-describedby</code>)', 'Safe answer, focused first', 'Destructive answer'],
  exampleIntro: 'A draft of trip notes. Discard the draft: the alert dialog asks you to confirm.',
  example: {
    title: 'discard a draft',
    css: `
  #ad-notes { width: 100%; min-height: 5em; }
  .backdrop { position: fixed; inset: 0; background: rgba(0, 0, 0, .45); display: flex; align-items: center; justify-content: center; z-index: 20; }
  .backdrop [role="alertdialog"] { background: #fff; padding: 1.5em; width: 24em; border-radius: 8px; }`,
    html: `      <p><label for="ad-notes">Trip notes</label></p>
      <textarea id="ad-notes">Day 1: Keswick to Rosthwaite along the Cumbria Way, 14 km. Lunch at the Lodore Falls hotel. Rain from 3pm.</textarea>
      <p><button type="button" id="ad-save">Save draft</button> <button type="button" id="ad-open">Discard draft</button></p>
      <p id="ad-status" role="status">Draft saved at 10:42.</p>`,
    dialogs: `<div class="backdrop" id="ad-backdrop" hidden>
  <div role="alertdialog" id="ad-dialog" aria-modal="true" aria-labelledby="ad-title" aria-describedby="ad-desc">
    <h2 id="ad-title">Discard this draft?</h2>
    <p id="ad-desc">Your trip notes will be deleted. This cannot be undone.</p>
    <button type="button" id="ad-keep">Keep editing</button>
    <button type="button" id="ad-discard">Discard</button>
  </div>
</div>
`,
    script: `(function () {
  var opener = document.getElementById('ad-open');
  var backdrop = document.getElementById('ad-backdrop');
  var dialog = document.getElementById('ad-dialog');
  var notes = document.getElementById('ad-notes');
  var status = document.getElementById('ad-status');
  var keep = document.getElementById('ad-keep'), discard = document.getElementById('ad-discard');
  var page = [document.querySelector('.site'), document.querySelector('.layout'), document.querySelector('footer')];
  function open() { backdrop.hidden = false; page.forEach(function (el) { el.inert = true; }); keep.focus(); }
  function close(to) { backdrop.hidden = true; page.forEach(function (el) { el.inert = false; }); to.focus(); }
  opener.addEventListener('click', open);
  keep.addEventListener('click', function () { close(notes); });
  discard.addEventListener('click', function () {
    notes.value = '';
    status.textContent = 'Draft discarded. Your trip notes are empty.';
    close(notes);
  });
  document.getElementById('ad-save').addEventListener('click', function () { status.textContent = 'Draft saved.'; });
  dialog.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') { e.preventDefault(); close(opener); }
    else if (e.key === 'Tab') {
      e.preventDefault();
      (document.activeElement === keep ? discard : keep).focus();
    }
  });
})();`,
  },
  keys: [['Tab, Shift+Tab', 'Moves between the two answers; focus stays in the dialog.'], ['Escape', 'Closes the dialog, keeps the draft.'], ['Enter, Space', 'Chooses the focused answer.']],
  roles: [['alertdialog', '<code>div</code>', 'The dialog; its title and message are announced when it opens.'], ['aria-modal="true"', '<code>div</code>', 'The page beneath is inert.'],
    ['aria-labelledby', '<code>div</code>', 'The title.'], ['aria-describedby', '<code>div</code>', 'The message.']],
  related: ['Dialog', 'Alert'],
});

// The date picker's example: a text field and a button that opens a calendar dialog; as a
// combobox (APG "date picker combobox") the field itself has the role combobox and Down Arrow
// opens the calendar.
function datePickerExample(combobox) {
  return {
    title: 'appointment date',
    css: `
  #dp-dialog { border: 1px solid #57606a; background: #fff; padding: 1em; width: 22em; margin-top: .5em; }
  #dp-dialog .head { display: flex; align-items: center; justify-content: space-between; }
  #dp-dialog h4 { margin: 0; }
  #dp-grid { border-collapse: collapse; margin: .5em 0; }
  #dp-grid td, #dp-grid th { width: 2.4em; height: 2em; text-align: center; }
  #dp-grid td[tabindex] { cursor: pointer; }
  #dp-grid td[aria-selected="true"] { background: #0b3d2e; color: #fff; }`,
    html: `      <p>Bike services take a morning. Drop your bike off between 8am and 9am on the day.</p>
      <label for="dp-input">Service date</label>
      <span id="dp-hint">(mm/dd/yyyy)</span>
      <input type="text" id="dp-input"${combobox ? ' role="combobox" aria-haspopup="dialog" aria-expanded="false" aria-controls="dp-dialog" aria-autocomplete="none"' : ''} aria-describedby="dp-hint" placeholder="mm/dd/yyyy">
      <button type="button" id="dp-button"${combobox ? ' tabindex="-1"' : ''} aria-label="Choose date">&#128197;</button>
      <div id="dp-dialog" role="dialog" aria-modal="true" aria-labelledby="dp-month" hidden>
        <div class="head">
          <button type="button" id="dp-prev-year" aria-label="Previous year">&laquo;</button>
          <button type="button" id="dp-prev" aria-label="Previous month">&lsaquo;</button>
          <h4 id="dp-month" aria-live="polite">May 2026</h4>
          <button type="button" id="dp-next" aria-label="Next month">&rsaquo;</button>
          <button type="button" id="dp-next-year" aria-label="Next year">&raquo;</button>
        </div>
        <table id="dp-grid" role="grid" aria-labelledby="dp-month">
          <thead><tr><th scope="col" abbr="Sunday">Su</th><th scope="col" abbr="Monday">Mo</th><th scope="col" abbr="Tuesday">Tu</th><th scope="col" abbr="Wednesday">We</th><th scope="col" abbr="Thursday">Th</th><th scope="col" abbr="Friday">Fr</th><th scope="col" abbr="Saturday">Sa</th></tr></thead>
          <tbody id="dp-days"></tbody>
        </table>
        <button type="button" id="dp-cancel">Cancel</button>
        <button type="button" id="dp-ok">OK</button>
      </div>`,
    script: `(function () {
  var MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  var DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  var TODAY = new Date(Date.UTC(2026, 4, 15)); // the page's fixed "today"
  var input = document.getElementById('dp-input');
  var button = document.getElementById('dp-button');
  var dialog = document.getElementById('dp-dialog');
  var days = document.getElementById('dp-days');
  var title = document.getElementById('dp-month');
  var focusDay = TODAY, selected = null;
  var pad = function (n) { return (n < 10 ? '0' : '') + n; };
  var fmt = function (d) { return pad(d.getUTCMonth() + 1) + '/' + pad(d.getUTCDate()) + '/' + d.getUTCFullYear(); };
  var same = function (a, b) { return a && b && a.getTime() === b.getTime(); };
  var addDays = function (d, n) { return new Date(d.getTime() + n * 86400000); };
  function addMonths(d, n) {
    var y = d.getUTCFullYear(), m = d.getUTCMonth() + n, day = d.getUTCDate();
    var last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    return new Date(Date.UTC(y, m, Math.min(day, last)));
  }
  function parse(s) {
    var m = /^(\\d{1,2})\\/(\\d{1,2})\\/(\\d{4})$/.exec(s.trim());
    if (!m) return null;
    var d = new Date(Date.UTC(+m[3], +m[1] - 1, +m[2]));
    return d.getUTCMonth() === +m[1] - 1 ? d : null;
  }
  function render() {
    var y = focusDay.getUTCFullYear(), m = focusDay.getUTCMonth();
    title.textContent = MONTHS[m] + ' ' + y;
    days.textContent = '';
    var first = new Date(Date.UTC(y, m, 1)), n = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    var tr = document.createElement('tr');
    for (var i = 0; i < first.getUTCDay(); i++) tr.appendChild(document.createElement('td'));
    for (var day = 1; day <= n; day++) {
      var d = new Date(Date.UTC(y, m, day));
      var td = document.createElement('td');
      td.textContent = day;
      td.dataset.date = d.toISOString().slice(0, 10);
      td.tabIndex = same(d, focusDay) ? 0 : -1;
      if (same(d, selected)) td.setAttribute('aria-selected', 'true');
      tr.appendChild(td);
      if (tr.children.length === 7) { days.appendChild(tr); tr = document.createElement('tr'); }
    }
    if (tr.children.length) days.appendChild(tr);
  }
  function cellOf(d) { return days.querySelector('td[data-date="' + d.toISOString().slice(0, 10) + '"]'); }
  function moveTo(d) {
    var rerender = d.getUTCMonth() !== focusDay.getUTCMonth() || d.getUTCFullYear() !== focusDay.getUTCFullYear();
    focusDay = d;
    if (rerender) render();
    Array.prototype.forEach.call(days.querySelectorAll('td[tabindex="0"]'), function (c) { c.tabIndex = -1; });
    var c = cellOf(d); c.tabIndex = 0; c.focus();
  }
  var COMBOBOX = ${combobox};
  function expanded(on) { if (COMBOBOX) input.setAttribute('aria-expanded', String(on)); }
  function label(d) {
    button.setAttribute('aria-label', d ? 'Change date, ' + DAYS[d.getUTCDay()] + ' ' + MONTHS[d.getUTCMonth()] + ' ' + d.getUTCDate() + ', ' + d.getUTCFullYear() : 'Choose date');
  }
  function open() {
    selected = parse(input.value);
    focusDay = selected || TODAY;
    render();
    dialog.hidden = false; expanded(true);
    cellOf(focusDay).focus();
  }
  function close(focusTo) { dialog.hidden = true; expanded(false); (focusTo || (COMBOBOX ? input : button)).focus(); }
  function pick(d) {
    selected = d;
    input.value = fmt(d);
    label(d);
    close();
  }
  // a typed date counts as soon as it is a whole one
  input.addEventListener('input', function () { var d = parse(input.value); if (d) { selected = d; label(d); } });
  input.addEventListener('change', function () { var d = parse(input.value); if (d) input.value = fmt(d); label(d); });
  input.addEventListener('keydown', function (e) {
    if (COMBOBOX && e.key === 'ArrowDown') { e.preventDefault(); open(); }
  });
  button.addEventListener('click', function () { if (dialog.hidden) open(); else close(); });
  document.getElementById('dp-prev').addEventListener('click', function () { focusDay = addMonths(focusDay, -1); render(); });
  document.getElementById('dp-next').addEventListener('click', function () { focusDay = addMonths(focusDay, 1); render(); });
  document.getElementById('dp-prev-year').addEventListener('click', function () { focusDay = addMonths(focusDay, -12); render(); });
  document.getElementById('dp-next-year').addEventListener('click', function () { focusDay = addMonths(focusDay, 12); render(); });
  document.getElementById('dp-cancel').addEventListener('click', function () { close(); });
  document.getElementById('dp-ok').addEventListener('click', function () { pick(focusDay); });
  days.addEventListener('click', function (e) {
    var td = e.target.closest('td[data-date]');
    if (td) pick(new Date(td.dataset.date + 'T00:00:00Z'));
  });
  days.addEventListener('keydown', function (e) {
    var k = e.key, d = null;
    if (k === 'ArrowRight') d = addDays(focusDay, 1);
    else if (k === 'ArrowLeft') d = addDays(focusDay, -1);
    else if (k === 'ArrowDown') d = addDays(focusDay, 7);
    else if (k === 'ArrowUp') d = addDays(focusDay, -7);
    else if (k === 'Home') d = addDays(focusDay, -focusDay.getUTCDay());
    else if (k === 'End') d = addDays(focusDay, 6 - focusDay.getUTCDay());
    else if (k === 'PageDown') d = addMonths(focusDay, e.shiftKey ? 12 : 1);
    else if (k === 'PageUp') d = addMonths(focusDay, e.shiftKey ? -12 : -1);
    else if (k === 'Enter' || k === ' ') { e.preventDefault(); pick(focusDay); return; }
    if (d) { e.preventDefault(); moveTo(d); }
  });
  dialog.addEventListener('keydown', function (e) { if (e.key === 'Escape') { e.preventDefault(); close(); } });
  document.addEventListener('mouseup', function (e) {
    if (!dialog.hidden && !dialog.contains(e.target) && !button.contains(e.target)) { dialog.hidden = true; expanded(false); }
  });
})();`,
  };
}

// 10. date picker dialog
pattern({
  name: 'Date picker',
  file: 'docs-date-picker.html',
  lede: 'A text field for a date with a button that opens a calendar in a dialog. Type the date, or pick it from the calendar.',
  about: [
    'The date picker is a text field that accepts a typed date, and a button beside it that opens a modal dialog with a month calendar. The calendar is a grid: the arrow keys move by day and by week, Page Up and Page Down by month.',
    'Picking a date in the calendar writes it into the field, closes the dialog and returns focus to the button, whose name then includes the chosen date.',
  ],
  use: ['People pick a date that is near today (an appointment, a delivery day), where seeing the week helps.', 'For dates people know by heart, such as a date of birth, use three text fields instead.', 'Always let people type the date as well.'],
  anatomy: ['Label and format hint', 'Date field', 'Button that opens the calendar', 'Dialog with the month and year as its title', 'Previous and next month and year buttons', 'Calendar grid of days', 'Cancel and OK buttons'],
  exampleIntro: 'Choose a day for your bike service: open the calendar and pick a date in May 2026.',
  example: datePickerExample(false),
  keys: [['Enter, Space', 'On the Choose date button: opens the calendar with focus on the chosen date, or on today. On a day: picks it and closes the calendar.'],
    ['Arrow keys', 'In the calendar: moves by one day (left, right) or one week (up, down).'], ['Page Up, Page Down', 'Shows the previous or next month; with Shift, the previous or next year.'],
    ['Home, End', 'Moves to the first or last day of the week.'], ['Escape', 'Closes the calendar without picking a date.']],
  roles: [['dialog', '<code>div</code>', 'The calendar window, named after the month it shows.'], ['aria-live="polite"', '<code>h4</code>', 'The month and year, announced when they change.'],
    ['grid', '<code>table</code>', 'The days of the month.'], ['aria-selected="true"', '<code>td</code>', 'The chosen date.'],
    ['aria-label', '<code>button</code>', '"Choose date", or "Change date, " and the chosen date.']],
  related: ['Dialog', 'Combobox', 'Spinbutton'],
});

// 10b. date picker combobox
pattern({
  name: 'Date combobox',
  file: 'docs-date-combobox.html',
  lede: 'A combobox for a date: type it, or open a calendar dialog from the field with Down Arrow or the calendar button.',
  about: [
    'The date combobox is a variant of the <a href="docs-date-picker.html">date picker</a> in which the text field itself is a combobox whose popup is a dialog. Typing a whole date sets it; Down Arrow opens the calendar on that date.',
    'The calendar button is not in the Tab sequence: keyboard users open the calendar from the field.',
  ],
  use: ['A date field in a dense form, where one Tab stop per field matters.', 'People often know the date and type it, and sometimes want to see the calendar.', 'Say the format next to the field.'],
  anatomy: ['Label and format hint', 'Combobox with <code>aria-haspopup="dialog"</code>', 'Calendar button', 'Calendar dialog'],
  exampleIntro: 'Choose a day for your bike service: type the date, or open the calendar.',
  example: datePickerExample(true),
  keys: [['Down Arrow', 'In the field: opens the calendar on the typed date, or on today.'], ['Characters', 'Type the date as mm/dd/yyyy; a whole date is taken at once.'],
    ['Arrow keys, Page Up, Page Down', 'In the calendar: as in the date picker.'], ['Enter, Space', 'In the calendar: picks the date and closes it.'], ['Escape', 'Closes the calendar.']],
  roles: [['combobox', '<code>input</code>', 'The date field.'], ['aria-haspopup="dialog"', '<code>input</code>', 'Its popup is a dialog.'],
    ['aria-expanded', '<code>input</code>', 'Whether the calendar is open.'], ['dialog, grid', '<code>div</code>, <code>table</code>', 'The calendar, as in the date picker.']],
  related: ['Date picker', 'Combobox', 'Dialog'],
});

// 11. disclosure (FAQ)
const FAQ = [
  ['Can I return sale items?', 'Yes. Sale items can be returned within 14 days in the condition you received them, with the receipt or the order email.'],
  ['How long do refunds take?', 'Refunds reach your account within 5 working days of your return arriving at our Bristol warehouse.'],
  ['Do you repair gear you did not sell?', 'Yes, for a fee: our repair service mends zips, seams and tears on any brand. A quote takes 2 working days.'],
  ['Can I change my delivery address?', 'Until your order is packed, yes: change it from Your orders. After that, contact the courier with the tracking number.'],
];
pattern({
  name: 'Disclosure',
  file: 'docs-disclosure.html',
  lede: 'A button that shows or hides a section of content, such as the answer to a question.',
  about: [
    'A disclosure is the simplest way to show and hide content: a button, with a state that says whether the content is shown, and the content right after it. A set of disclosures makes a list of frequently asked questions that people can scan.',
    'The native <code>details</code> and <code>summary</code> elements give most of this behaviour without a script; this example uses a button so that the heading structure stays as designed.',
  ],
  use: ['Secondary content that many people will not need, such as answers to questions or extra help.', 'Content that people scan by its headings first.', 'Not for content everyone needs: show that on the page.'],
  anatomy: ['Heading containing a button', 'Button with <code>aria-expanded</code>', 'Content, hidden until the button is pressed'],
  exampleIntro: 'Frequently asked questions about returns and repairs. Open a question to read its answer.',
  example: {
    title: 'frequently asked questions',
    css: `
  .faq h4 { margin: .4em 0; }
  .faq h4 button { font: inherit; font-weight: 600; background: none; border: 0; padding: .2em 0; color: #1a5fb4; cursor: pointer; }
  .faq h4 button::before { content: "\\25B8  " / ""; }
  .faq h4 button[aria-expanded="true"]::before { content: "\\25BE  " / ""; }`,
    html: `      <div class="faq">
${FAQ.map(([q, a], i) => `        <h4><button type="button" aria-expanded="false" aria-controls="faq-${i}">${esc(q)}</button></h4>
        <div id="faq-${i}" hidden><p>${esc(a)}</p></div>`).join('\n')}
      </div>`,
    script: `(function () {
  Array.prototype.forEach.call(document.querySelectorAll('.faq button'), function (b) {
    b.addEventListener('click', function () {
      var open = b.getAttribute('aria-expanded') === 'true';
      b.setAttribute('aria-expanded', String(!open));
      document.getElementById(b.getAttribute('aria-controls')).hidden = open;
    });
  });
})();`,
  },
  keys: [['Enter, Space', 'Shows or hides the answer.'], ['Tab', 'Moves to the next question (or into an open answer’s links).']],
  roles: [['button', '<code>button</code> inside <code>h4</code>', 'Shows or hides the answer.'], ['aria-expanded', '<code>button</code>', 'Whether the answer is shown.'],
    ['aria-controls', '<code>button</code>', 'Points to the answer.']],
  related: ['Accordion', 'Tabs'],
});

// 12. slider
pattern({
  name: 'Slider',
  file: 'docs-slider.html',
  lede: 'A thumb on a track for choosing a value from a range, such as a temperature.',
  about: [
    'A slider lets people choose a value from a continuous or stepped range by moving a thumb along a track. The thumb is the focusable element: it has the role slider and exposes the value, the minimum and the maximum.',
    'When the number alone does not say enough, the slider exposes a text value too (<code>aria-valuetext</code>), here the temperature with its unit.',
  ],
  use: ['The exact value matters less than its position in a range (volume, brightness, temperature).', 'The range is small enough that every step can be reached with a few key presses.', 'For exact numbers, offer a text field or a spinbutton as well.'],
  anatomy: ['Label', 'Track', 'Thumb (the slider)', 'Value shown beside the track'],
  exampleIntro: 'The heating of a mountain hut, controlled from its booking page. Set the temperature you want on arrival.',
  example: {
    title: 'heating on arrival',
    css: `
  .slider { display: flex; align-items: center; gap: 1em; }
  .rail { position: relative; width: 300px; height: 8px; background: #d0d7de; border-radius: 4px; cursor: pointer; }
  #temp { position: absolute; top: -8px; width: 24px; height: 24px; margin-left: -12px; border-radius: 50%; background: #0b3d2e; }
  #temp:focus { outline: 3px solid #1a5fb4; }`,
    html: `      <p>The hut's heating comes on two hours before you arrive. Most guests choose between 18&deg;C and 22&deg;C.</p>
      <div class="slider">
        <span id="temp-label">Temperature</span>
        <div class="rail" id="temp-rail"><div id="temp" role="slider" tabindex="0" aria-labelledby="temp-label" aria-valuemin="10" aria-valuemax="30" aria-valuenow="20" aria-valuetext="20°C" style="left: 50%"></div></div>
        <span id="temp-value" aria-hidden="true">20°C</span>
      </div>`,
    script: `(function () {
  var thumb = document.getElementById('temp');
  var rail = document.getElementById('temp-rail');
  var shown = document.getElementById('temp-value');
  var MIN = 10, MAX = 30;
  function value() { return +thumb.getAttribute('aria-valuenow'); }
  function set(v) {
    v = Math.max(MIN, Math.min(MAX, Math.round(v)));
    thumb.setAttribute('aria-valuenow', v);
    thumb.setAttribute('aria-valuetext', v + '°C');
    thumb.style.left = ((v - MIN) / (MAX - MIN) * 100) + '%';
    shown.textContent = v + '°C';
  }
  thumb.addEventListener('keydown', function (e) {
    var k = e.key, v = value();
    if (k === 'ArrowRight' || k === 'ArrowUp') v += 1;
    else if (k === 'ArrowLeft' || k === 'ArrowDown') v -= 1;
    else if (k === 'PageUp') v += 5;
    else if (k === 'PageDown') v -= 5;
    else if (k === 'Home') v = MIN;
    else if (k === 'End') v = MAX;
    else return;
    e.preventDefault(); set(v);
  });
  function fromX(x) { var r = rail.getBoundingClientRect(); return MIN + (x - r.left) / r.width * (MAX - MIN); }
  rail.addEventListener('pointerdown', function (e) {
    e.preventDefault();
    thumb.focus();
    if (e.target === rail) set(fromX(e.clientX));
    function move(ev) { set(fromX(ev.clientX)); }
    function up() { document.removeEventListener('pointermove', move); document.removeEventListener('pointerup', up); }
    document.addEventListener('pointermove', move);
    document.addEventListener('pointerup', up);
  });
})();`,
  },
  keys: [['Right Arrow, Up Arrow', 'One degree warmer.'], ['Left Arrow, Down Arrow', 'One degree cooler.'], ['Page Up, Page Down', 'Five degrees warmer or cooler.'],
    ['Home, End', 'The lowest (10&deg;C) or highest (30&deg;C) temperature.']],
  roles: [['slider', '<code>div</code>', 'The thumb.'], ['aria-valuenow, aria-valuemin, aria-valuemax', '<code>div</code>', 'The value and its range.'],
    ['aria-valuetext', '<code>div</code>', 'The value with its unit, "20&deg;C".'], ['aria-labelledby', '<code>div</code>', 'The label before the track.']],
  related: ['Spinbutton', 'Radio group'],
});

// 13. spinbutton
pattern({
  name: 'Spinbutton',
  file: 'docs-spinbutton.html',
  lede: 'A number field with buttons to step the number up and down within a range, such as the number of guests.',
  about: [
    'A spinbutton holds a number within a range. People can type the number, step it with the arrow keys, or press the increase and decrease buttons beside it.',
    'The buttons are not in the Tab sequence: keyboard users step the value with the arrow keys in the field itself, so Tab moves on quickly.',
  ],
  use: ['Small whole numbers where the usual value is near the default (guests, tickets, items).', 'The range is known: the field has a minimum and a maximum.', 'For large or exact numbers, a plain text field with <code>inputmode="numeric"</code> is easier.'],
  anatomy: ['Label', 'Decrease button', 'Spinbutton (a text field)', 'Increase button', 'Summary of the choice'],
  exampleIntro: 'How many people are staying? Change the number of adults and children.',
  example: {
    title: 'guests',
    css: `
  .spin { display: flex; align-items: center; gap: .5em; margin: .5em 0; }
  .spin label { width: 6em; }
  .spin input { width: 3em; text-align: center; }`,
    html: `      <p>Rooms sleep up to 8 people. Children under 2 stay free and need no bed.</p>
${[['Adults', 'adult', 2, 1], ['Children', 'child', 0, 0]].map(([label, one, v, min]) => `      <div class="spin">
        <label for="spin-${one}">${label}</label>
        <button type="button" tabindex="-1" aria-label="Remove ${one}" aria-controls="spin-${one}" data-step="-1">&minus;</button>
        <input type="text" id="spin-${one}" role="spinbutton" inputmode="numeric" value="${v}" aria-valuenow="${v}" aria-valuemin="${min}" aria-valuemax="8">
        <button type="button" tabindex="-1" aria-label="Add ${one}" aria-controls="spin-${one}" data-step="1">+</button>
      </div>`).join('\n')}
      <p id="spin-summary">Booking for 2 adults and 0 children.</p>`,
    script: `(function () {
  var fields = Array.prototype.slice.call(document.querySelectorAll('[role="spinbutton"]'));
  var summary = document.getElementById('spin-summary');
  function set(f, v) {
    var min = +f.getAttribute('aria-valuemin'), max = +f.getAttribute('aria-valuemax');
    v = Math.max(min, Math.min(max, v));
    f.value = v; f.setAttribute('aria-valuenow', v);
    var a = +fields[0].value, c = +fields[1].value;
    summary.textContent = 'Booking for ' + a + ' adult' + (a === 1 ? '' : 's') + ' and ' + c + ' child' + (c === 1 ? '' : 'ren') + '.';
  }
  fields.forEach(function (f) {
    f.addEventListener('keydown', function (e) {
      var v = +f.getAttribute('aria-valuenow');
      if (e.key === 'ArrowUp') { e.preventDefault(); set(f, v + 1); }
      else if (e.key === 'ArrowDown') { e.preventDefault(); set(f, v - 1); }
      else if (e.key === 'Home') { e.preventDefault(); set(f, +f.getAttribute('aria-valuemin')); }
      else if (e.key === 'End') { e.preventDefault(); set(f, +f.getAttribute('aria-valuemax')); }
    });
    f.addEventListener('input', function () { if (/^\\d+$/.test(f.value.trim())) set(f, +f.value.trim()); });
    f.addEventListener('change', function () { set(f, /^\\d+$/.test(f.value.trim()) ? +f.value.trim() : +f.getAttribute('aria-valuenow')); });
  });
  Array.prototype.forEach.call(document.querySelectorAll('.spin button'), function (b) {
    b.addEventListener('click', function () {
      var f = document.getElementById(b.getAttribute('aria-controls'));
      set(f, +f.getAttribute('aria-valuenow') + +b.dataset.step);
      f.focus();
    });
  });
})();`,
  },
  keys: [['Up Arrow, Down Arrow', 'Adds or removes one.'], ['Home, End', 'Sets the minimum or maximum.'], ['Digits', 'Types a number; a number out of range is brought within it.']],
  roles: [['spinbutton', '<code>input</code>', 'The number field.'], ['aria-valuenow, aria-valuemin, aria-valuemax', '<code>input</code>', 'The number and its range.'],
    ['aria-label', '<code>button</code>', '"Add adult", "Remove adult" and so on.'], ['aria-controls', '<code>button</code>', 'Points to the field the button changes.']],
  related: ['Slider'],
});

// 14. switch
const SWITCHES = [['Email alerts', true, 'When someone books a hut you follow.'], ['Push notifications', false, 'On your phone, through the Northwind app.'],
  ['Weekly digest', false, 'Every Monday: new huts, trail reports and offers.'], ['Text messages', false, 'Only for changes to your own bookings.']];
pattern({
  name: 'Switch',
  file: 'docs-switch.html',
  lede: 'An on/off control for a setting that takes effect at once, like a light switch.',
  about: [
    'A switch is a checkbox whose states are on and off rather than checked and unchecked. Use it for settings that apply immediately, without a Save button.',
    'The visible text "On" or "Off" beside the switch is hidden from screen readers, which announce the state of the switch itself.',
  ],
  use: ['A setting that applies at once (notifications, dark mode).', 'Each switch is independent of the others.', 'For choices that are sent with a form, use a checkbox.'],
  anatomy: ['Switch (a button with <code>role="switch"</code>)', 'Label inside the switch', 'On/off text and track, hidden from assistive technology'],
  exampleIntro: 'Your notification settings. Each switch saves as soon as you change it.',
  example: {
    title: 'notification settings',
    css: `
  .switches { list-style: none; padding: 0; }
  [role="switch"] { font: inherit; display: flex; gap: 1em; align-items: center; background: none; border: 0; padding: .3em 0; cursor: pointer; }
  [role="switch"] .track { width: 2.6em; height: 1.3em; border-radius: .65em; background: #8c959f; position: relative; }
  [role="switch"][aria-checked="true"] .track { background: #0b3d2e; }
  .switches p { margin: 0 0 .6em; font-size: 14px; color: #57606a; }`,
    html: `      <ul class="switches">
${SWITCHES.map(([name, on, desc], i) => `        <li>
          <button type="button" role="switch" id="sw-${i}" aria-checked="${on}" aria-describedby="sw-d${i}"><span class="label">${name}</span> <span class="track" aria-hidden="true"></span> <span class="state" aria-hidden="true">${on ? 'On' : 'Off'}</span></button>
          <p id="sw-d${i}">${desc}</p>
        </li>`).join('\n')}
      </ul>`,
    script: `(function () {
  Array.prototype.forEach.call(document.querySelectorAll('[role="switch"]'), function (s) {
    s.addEventListener('click', function () {
      var on = s.getAttribute('aria-checked') !== 'true';
      s.setAttribute('aria-checked', String(on));
      s.querySelector('.state').textContent = on ? 'On' : 'Off';
    });
  });
})();`,
  },
  keys: [['Space, Enter', 'Turns the setting on or off.'], ['Tab', 'Moves to the next switch.']],
  roles: [['switch', '<code>button</code>', 'The on/off control.'], ['aria-checked', '<code>button</code>', '<code>true</code> when on.'],
    ['aria-describedby', '<code>button</code>', 'The help text under the switch.'], ['aria-hidden="true"', '<code>span</code>', 'The visible On/Off text and the track.']],
  related: ['Checkbox', 'Radio group'],
});

// 15. tri-state checkbox
const CONDIMENTS = [['Lettuce', true], ['Tomato', true], ['Mustard', false], ['Sprouts', false]];
pattern({
  name: 'Checkbox',
  file: 'docs-checkbox.html',
  lede: 'A checkbox for choosing or not choosing an option, and a mixed checkbox that chooses or clears a whole group at once.',
  about: [
    'A checkbox has two states, checked and not checked. A mixed (tri-state) checkbox controls a group of checkboxes: it is checked when all of them are, not checked when none are, and mixed when some are.',
    'Activating the mixed checkbox cycles through checking every box, clearing every box, and going back to the mix the person had chosen.',
  ],
  use: ['A list of options where people may choose any number.', 'A group where choosing all or none at once saves work (a mixed checkbox).', 'For a single yes/no setting that applies at once, use a switch.'],
  anatomy: ['Group with a label (<code>fieldset</code> and <code>legend</code>)', 'Mixed checkbox that controls the group', 'Checkboxes of the group'],
  exampleIntro: 'Build a sandwich. The first checkbox chooses every condiment at once.',
  example: {
    title: 'sandwich condiments',
    css: `
  [role="checkbox"] { display: inline-block; cursor: pointer; padding: .2em .4em; font-weight: 600; }
  [role="checkbox"]::before { content: "\\2610  " / ""; }
  [role="checkbox"][aria-checked="true"]::before { content: "\\2611  " / ""; }
  [role="checkbox"][aria-checked="mixed"]::before { content: "\\229F  " / ""; }
  .cond { list-style: none; padding-left: 1.5em; }`,
    html: `      <fieldset>
        <legend>Sandwich condiments</legend>
        <div role="checkbox" id="cond-all" tabindex="0" aria-checked="mixed" aria-controls="${CONDIMENTS.map(([c]) => `cond-${slug(c)}`).join(' ')}">All condiments</div>
        <ul class="cond">
${CONDIMENTS.map(([c, on]) => `          <li><label><input type="checkbox" id="cond-${slug(c)}"${on ? ' checked' : ''}> ${c}</label></li>`).join('\n')}
        </ul>
      </fieldset>`,
    script: `(function () {
  var all = document.getElementById('cond-all');
  var boxes = all.getAttribute('aria-controls').split(' ').map(function (id) { return document.getElementById(id); });
  var saved = boxes.map(function (b) { return b.checked; });
  function update() {
    var n = boxes.filter(function (b) { return b.checked; }).length;
    all.setAttribute('aria-checked', n === 0 ? 'false' : n === boxes.length ? 'true' : 'mixed');
  }
  function cycle() {
    var state = all.getAttribute('aria-checked');
    if (state === 'mixed') boxes.forEach(function (b) { b.checked = true; });
    else if (state === 'true') boxes.forEach(function (b) { b.checked = false; });
    else {
      var anySaved = saved.some(function (s) { return s; }) && !saved.every(function (s) { return s; });
      boxes.forEach(function (b, i) { b.checked = anySaved ? saved[i] : true; });
    }
    update();
  }
  all.addEventListener('click', cycle);
  all.addEventListener('keydown', function (e) { if (e.key === ' ') { e.preventDefault(); cycle(); } });
  boxes.forEach(function (b) {
    b.addEventListener('change', function () { saved = boxes.map(function (x) { return x.checked; }); update(); });
  });
})();`,
  },
  keys: [['Space', 'Checks or clears the focused checkbox; on the mixed checkbox, moves to its next state.'], ['Tab', 'Moves to the next checkbox.']],
  roles: [['checkbox', '<code>div</code>', 'The mixed checkbox.'], ['aria-checked', '<code>div</code>', '<code>true</code>, <code>false</code> or <code>mixed</code>.'],
    ['aria-controls', '<code>div</code>', 'The checkboxes of the group.'], ['group', '<code>fieldset</code>', 'The group, named by its legend.']],
  related: ['Switch', 'Radio group'],
});

// 16. radio group
const SPEEDS = ['Standard, 3 to 5 working days, free', 'Express, 1 to 2 working days, $6.95', 'Next day, order by 8pm, $12.95', 'Collect from a store, free'];
pattern({
  name: 'Radio group',
  file: 'docs-radio-group.html',
  lede: 'A set of options of which exactly one is chosen. Choosing one clears the others.',
  about: [
    'A radio group is a set of checkable buttons, radio buttons, of which no more than one can be checked at a time. The group is one stop in the Tab sequence; the arrow keys move through it and check the radio they reach.',
    'Native <code>input type="radio"</code> elements do all of this; this example builds the group from ARIA roles to show the keyboard behaviour a custom design must keep.',
  ],
  use: ['People choose one of a few options (up to about 6) that they should see side by side.', 'Each option needs more words than a select can show comfortably.', 'One option is a sensible default.'],
  anatomy: ['Group label', 'Radio group', 'Radio button with its label', 'Checked radio button'],
  exampleIntro: 'Choose how fast your order should arrive.',
  example: {
    title: 'delivery speed',
    css: `
  [role="radiogroup"] { display: flex; flex-direction: column; gap: .3em; }
  [role="radio"] { cursor: pointer; padding: .2em .4em; }
  [role="radio"]::before { content: "\\25CB  " / ""; }
  [role="radio"][aria-checked="true"]::before { content: "\\25C9  " / ""; }`,
    html: `      <h4 id="rg-label">Delivery speed</h4>
      <div role="radiogroup" aria-labelledby="rg-label">
${SPEEDS.map((s, i) => `        <div role="radio" aria-checked="${i === 0}" tabindex="${i === 0 ? 0 : -1}">${esc(s)}</div>`).join('\n')}
      </div>
      <p id="rg-total">Order total: $86.50</p>`,
    script: `(function () {
  var radios = Array.prototype.slice.call(document.querySelectorAll('[role="radio"]'));
  var PRICES = [0, 6.95, 12.95, 0];
  function check(r) {
    radios.forEach(function (x) { var on = x === r; x.setAttribute('aria-checked', String(on)); x.tabIndex = on ? 0 : -1; });
    r.focus();
    document.getElementById('rg-total').textContent = 'Order total: $' + (86.5 + PRICES[radios.indexOf(r)]).toFixed(2);
  }
  radios.forEach(function (r, i) {
    r.addEventListener('click', function () { check(r); });
    r.addEventListener('keydown', function (e) {
      var j = null;
      if (e.key === 'ArrowDown' || e.key === 'ArrowRight') j = (i + 1) % radios.length;
      else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') j = (i - 1 + radios.length) % radios.length;
      else if (e.key === ' ') j = i;
      if (j !== null) { e.preventDefault(); check(radios[j]); }
    });
  });
})();`,
  },
  keys: [['Tab', 'Moves into the group, to the checked radio button, and out again.'], ['Arrow keys', 'Checks the next or previous radio button, wrapping around.'], ['Space', 'Checks the focused radio button.']],
  roles: [['radiogroup', '<code>div</code>', 'The group, named after the heading above it.'], ['radio', '<code>div</code>', 'One option.'],
    ['aria-checked', '<code>div</code>', '<code>true</code> on the chosen option.'], ['tabindex', '<code>div</code>', '0 on the checked radio, -1 on the others (a roving tab stop).']],
  related: ['Checkbox', 'Select', 'Listbox'],
});

// 17. treeview (file directory, selection apart from focus)
const TREE = [
  ['Projects', [['project-plan.docx'], ['timeline.xlsx'], ['kick-off-notes.txt']]],
  ['Reports', [['q1-summary.pdf'], ['q2-budget.xlsx'], ['annual-review.docx'], ['Archive', [['2024-review.pdf'], ['2023-review.pdf']]]]],
  ['Letters', [['welcome-letter.docx'], ['supplier-terms.pdf']]],
  ['README.md'],
];
let treeId = 0;
function treeItems(nodes, depth) {
  const pad = '        ' + '  '.repeat(depth * 2);
  return nodes.map(([name, kids]) => {
    const id = `ti-${treeId++}`;
    if (!kids) return `${pad}<li role="treeitem" aria-selected="false" aria-labelledby="${id}" tabindex="${id === 'ti-0' ? 0 : -1}"><span id="${id}">${esc(name)}</span></li>`;
    return `${pad}<li role="treeitem" aria-expanded="false" aria-selected="false" aria-labelledby="${id}" tabindex="${id === 'ti-0' ? 0 : -1}"><span id="${id}" class="folder">${esc(name)}</span>
${pad}  <ul role="group" hidden>
${treeItems(kids, depth + 1)}
${pad}  </ul>
${pad}</li>`;
  }).join('\n');
}
pattern({
  name: 'Treeview',
  file: 'docs-treeview.html',
  lede: 'A hierarchical list, such as folders and files, whose parent items expand and collapse.',
  about: [
    'A tree view presents a hierarchy. Items with children (parent nodes) can be expanded to show their children and collapsed to hide them; items without children are end nodes.',
    'In this example, selection does not follow focus: moving through the tree with the arrow keys does not change which item is selected, so people can explore without changing the file viewer. Enter, Space or a click selects.',
  ],
  use: ['Content is a hierarchy people navigate by its structure (folders, categories, an outline).', 'People need to see where an item sits in the hierarchy.', 'For a flat list, use a listbox; for site navigation, nested lists of links.'],
  anatomy: ['Tree, named by a heading', 'Parent node with <code>aria-expanded</code>', 'Group of child nodes', 'End node', 'Selected node'],
  exampleIntro: 'A shared drive. Open a folder and choose a file: its name appears under the tree.',
  example: {
    title: 'shared drive',
    css: `
  [role="tree"], [role="group"] { list-style: none; padding-left: 1.2em; margin: 0; }
  [role="treeitem"] { cursor: pointer; }
  [role="treeitem"] > span { padding: 0 .3em; }
  [role="treeitem"][aria-expanded="false"] > .folder::before { content: "\\25B8 " / ""; }
  [role="treeitem"][aria-expanded="true"] > .folder::before { content: "\\25BE " / ""; }
  [role="treeitem"][aria-selected="true"] > span { background: #0b3d2e; color: #fff; }
  [role="treeitem"]:focus { outline: none; }
  [role="treeitem"]:focus > span { outline: 2px solid #1a5fb4; }`,
    html: `      <h4 id="tree-label">Shared drive</h4>
      <ul role="tree" aria-labelledby="tree-label">
${treeItems(TREE, 0)}
      </ul>
      <p><label for="tree-selected">File or folder selected</label> <input id="tree-selected" type="text" readonly value=""></p>`,
    script: `(function () {
  var tree = document.querySelector('[role="tree"]');
  var out = document.getElementById('tree-selected');
  function label(item) { return document.getElementById(item.getAttribute('aria-labelledby')).textContent; }
  function visible() {
    return Array.prototype.filter.call(tree.querySelectorAll('[role="treeitem"]'), function (it) {
      for (var g = it.parentElement.closest('[role="group"]'); g; g = g.parentElement.closest('[role="group"]')) if (g.hidden) return false;
      return true;
    });
  }
  function group(item) { return item.querySelector(':scope > [role="group"]'); }
  function setExpanded(item, on) { if (!group(item)) return; item.setAttribute('aria-expanded', String(on)); group(item).hidden = !on; }
  function focus(item) {
    Array.prototype.forEach.call(tree.querySelectorAll('[role="treeitem"][tabindex="0"]'), function (x) { x.tabIndex = -1; });
    item.tabIndex = 0; item.focus();
  }
  function select(item) {
    Array.prototype.forEach.call(tree.querySelectorAll('[aria-selected="true"]'), function (x) { x.setAttribute('aria-selected', 'false'); });
    item.setAttribute('aria-selected', 'true');
    out.value = label(item);
  }
  tree.addEventListener('click', function (e) {
    var item = e.target.closest('[role="treeitem"]');
    if (!item) return;
    e.stopPropagation();
    if (group(item)) setExpanded(item, item.getAttribute('aria-expanded') !== 'true');
    select(item); focus(item);
  });
  tree.addEventListener('keydown', function (e) {
    var item = document.activeElement.closest('[role="treeitem"]');
    if (!item) return;
    var vis = visible(), i = vis.indexOf(item), k = e.key, open = item.getAttribute('aria-expanded');
    if (k === 'ArrowDown') { if (i < vis.length - 1) focus(vis[i + 1]); }
    else if (k === 'ArrowUp') { if (i > 0) focus(vis[i - 1]); }
    else if (k === 'ArrowRight') { if (open === 'false') setExpanded(item, true); else if (open === 'true') focus(vis[i + 1]); }
    else if (k === 'ArrowLeft') {
      if (open === 'true') setExpanded(item, false);
      else { var p = item.parentElement.closest('[role="treeitem"]'); if (p) focus(p); }
    }
    else if (k === 'Home') focus(vis[0]);
    else if (k === 'End') focus(vis[vis.length - 1]);
    else if (k === 'Enter' || k === ' ') select(item);
    else if (k === '*') {
      Array.prototype.forEach.call(item.parentElement.querySelectorAll(':scope > [role="treeitem"][aria-expanded]'), function (s) { setExpanded(s, true); });
    } else if (k.length === 1) {
      for (var n = 1; n <= vis.length; n++) {
        var j = (i + n) % vis.length;
        if (label(vis[j]).charAt(0).toLowerCase() === k.toLowerCase()) { focus(vis[j]); break; }
      }
    } else return;
    e.preventDefault();
  });
})();`,
  },
  keys: [['Down Arrow, Up Arrow', 'Moves focus to the next or previous visible item, without selecting it.'], ['Right Arrow', 'Opens a closed folder; on an open folder, moves to its first child.'],
    ['Left Arrow', 'Closes an open folder; on a child, moves to its parent.'], ['Enter, Space', 'Selects the focused item: its name appears in the field under the tree.'],
    ['Home, End', 'Moves to the first or last visible item.'], ['* (asterisk)', 'Opens every folder at the level of the focused item.']],
  roles: [['tree', '<code>ul</code>', 'The tree, named after the heading above it.'], ['treeitem', '<code>li</code>', 'A file or folder, named after its own text (<code>aria-labelledby</code>), not its children.'],
    ['aria-expanded', '<code>li</code>', 'On folders: whether the folder is open.'], ['aria-selected', '<code>li</code>', '<code>true</code> on the selected item.'],
    ['group', '<code>ul</code>', 'The children of a folder.']],
  related: ['Listbox', 'Accordion'],
});

// 18. sortable table
const HUTS = [
  ['Britanniahütte', 'Switzerland', 3030, 134, 82], ['Cabane du Mont Fort', 'Switzerland', 2457, 60, 76],
  ['Gruttenhütte', 'Austria', 1620, 62, 54], ['Refuge du Goûter', 'France', 3835, 120, 150],
  ['Rifugio Torino', 'Italy', 3375, 86, 95], ['Hörnlihütte', 'Switzerland', 3260, 130, 150],
  ['Refuge de la Charpoua', 'France', 2841, 12, 60], ['Kärlingerhaus', 'Germany', 1631, 140, 48],
  ['Rifugio Città di Fiume', 'Italy', 1917, 38, 58], ['Watzmannhaus', 'Germany', 1930, 200, 52],
  ['Franz-Senn-Hütte', 'Austria', 2147, 170, 56], ['Refuge du Couvercle', 'France', 2687, 120, 72],
];
const num = (n) => n.toLocaleString('en-GB');
pattern({
  name: 'Table',
  file: 'docs-table.html',
  lede: 'A data table whose columns can be sorted by pressing their headers.',
  about: [
    'A table presents data in rows and columns; a sortable table lets people reorder the rows by the values of one column. Each sortable column header contains a button, and the header that sorts the table says so with <code>aria-sort</code>.',
    'A table is not a grid: it has no keyboard navigation of its own. People reach the sort buttons with Tab and read the table with their screen reader’s table commands.',
  ],
  use: ['Data that people compare across rows and columns.', 'People look for the highest, lowest or first of something.', 'Do not use tables for layout.'],
  anatomy: ['Caption', 'Column header with a sort button', 'Sort direction, shown by an arrow and <code>aria-sort</code>', 'Rows of data'],
  exampleIntro: 'Mountain huts in the Alps. Sort them by any column.',
  example: {
    title: 'mountain huts',
    css: `
  #huts { border-collapse: collapse; width: 100%; font-size: 14px; }
  #huts th, #huts td { border-bottom: 1px solid #d0d7de; padding: .3em .5em; text-align: left; }
  #huts th button { font: inherit; font-weight: 700; background: none; border: 0; padding: 0; cursor: pointer; }
  #huts td.num, #huts th.num { text-align: right; }`,
    html: `      <table id="huts">
        <caption>Mountain huts in the Alps (sortable: press a column header)</caption>
        <thead>
          <tr>
${[['Hut', false], ['Country', false], ['Elevation (m)', true], ['Beds', true], ['Price per night (€)', true]].map(([h, n], i) => `            <th scope="col"${n ? ' class="num"' : ''}${i === 0 ? ' aria-sort="ascending"' : ''}><button type="button" data-col="${i}">${h}<span aria-hidden="true">${i === 0 ? ' \u25B2' : ' \u2195'}</span></button></th>`).join('\n')}
          </tr>
        </thead>
        <tbody>
${HUTS.slice().sort((a, b) => a[0].localeCompare(b[0], 'en')).map((r) => `          <tr><td>${esc(r[0])}</td><td>${r[1]}</td><td class="num">${num(r[2])}</td><td class="num">${r[3]}</td><td class="num">${r[4]}</td></tr>`).join('\n')}
        </tbody>
      </table>`,
    script: `(function () {
  var table = document.getElementById('huts');
  var tbody = table.tBodies[0];
  var ths = Array.prototype.slice.call(table.tHead.rows[0].cells);
  function key(row, col) {
    var t = row.cells[col].textContent;
    return col >= 2 ? +t.replace(/[^0-9.]/g, '') : t;
  }
  ths.forEach(function (th, col) {
    th.querySelector('button').addEventListener('click', function () {
      var dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
      ths.forEach(function (x) { x.removeAttribute('aria-sort'); x.querySelector('span').textContent = ' \\u2195'; });
      th.setAttribute('aria-sort', dir);
      th.querySelector('span').textContent = dir === 'ascending' ? ' \\u25B2' : ' \\u25BC';
      var rows = Array.prototype.slice.call(tbody.rows);
      rows.sort(function (a, b) {
        var x = key(a, col), y = key(b, col);
        var c = typeof x === 'number' ? x - y : x.localeCompare(y, 'en');
        return dir === 'ascending' ? c : -c;
      });
      rows.forEach(function (r) { tbody.appendChild(r); });
    });
  });
})();`,
  },
  keys: [['Tab', 'Moves to the next sort button.'], ['Enter, Space', 'On a sort button: sorts by that column, ascending first, then descending.']],
  roles: [['table', '<code>table</code>', 'The table, named by its caption.'], ['columnheader', '<code>th</code>', 'A column header, holding its sort button.'],
    ['aria-sort', '<code>th</code>', '<code>ascending</code> or <code>descending</code> on the column that sorts the table; absent on the others.'],
    ['aria-hidden="true"', '<code>span</code>', 'The arrows, which repeat what <code>aria-sort</code> says.']],
  related: ['Grid', 'Listbox'],
});

// 19. toolbar
pattern({
  name: 'Toolbar',
  file: 'docs-toolbar.html',
  lede: 'A row of controls, such as formatting buttons, that is one stop in the Tab sequence.',
  about: [
    'A toolbar groups a set of controls, usually buttons, toggle buttons and small groups of radio buttons. Tab moves into the toolbar and out of it in one step; the arrow keys move between its controls.',
    'Toggle buttons in the toolbar say whether they are pressed with <code>aria-pressed</code>; the alignment buttons form a radio group, since exactly one alignment applies.',
  ],
  use: ['Three or more controls that act on the same thing (a text, a selection, a map).', 'The controls are used often, so a short path to each matters.', 'Not for a page’s main navigation.'],
  anatomy: ['Toolbar with a label', 'Toggle buttons (bold, italic, underline)', 'Radio group (alignment)', 'Buttons (copy, paste)', 'The text the toolbar acts on'],
  exampleIntro: 'Format a trip report. The toolbar changes the text below it.',
  example: {
    title: 'text formatting',
    css: `
  [role="toolbar"] { display: flex; gap: 1em; border: 1px solid #57606a; padding: .3em; background: #f6f8fa; }
  [role="toolbar"] .grp { display: flex; gap: .2em; }
  [role="toolbar"] button { font: inherit; min-width: 2.2em; border: 1px solid #8c959f; background: #fff; }
  [role="toolbar"] [aria-pressed="true"], [role="toolbar"] [aria-checked="true"] { background: #0b3d2e; color: #fff; }
  #tb-text { width: 100%; min-height: 5em; margin-top: .5em; }`,
    html: `      <div role="toolbar" aria-label="Text formatting" aria-controls="tb-text">
        <div class="grp">
          <button type="button" aria-pressed="false" tabindex="0" data-style="bold">Bold</button>
          <button type="button" aria-pressed="false" tabindex="-1" data-style="italic">Italic</button>
          <button type="button" aria-pressed="false" tabindex="-1" data-style="underline">Underline</button>
        </div>
        <div class="grp" role="radiogroup" aria-label="Text alignment">
          <button type="button" role="radio" aria-checked="true" tabindex="-1" data-align="left">Align left</button>
          <button type="button" role="radio" aria-checked="false" tabindex="-1" data-align="center">Centre</button>
          <button type="button" role="radio" aria-checked="false" tabindex="-1" data-align="right">Align right</button>
        </div>
        <div class="grp">
          <button type="button" tabindex="-1" data-do="copy">Copy</button>
          <button type="button" tabindex="-1" data-do="paste">Paste</button>
        </div>
      </div>
      <textarea id="tb-text" aria-label="Trip report">Crossed the Lairig Ghru from Aviemore to Braemar in one long day: 32 km, 9 hours, a cold wind at the Pools of Dee and the river at Derry Lodge running high.</textarea>`,
    script: `(function () {
  var bar = document.querySelector('[role="toolbar"]');
  var text = document.getElementById('tb-text');
  var controls = Array.prototype.slice.call(bar.querySelectorAll('button'));
  var clip = '';
  function focus(c) { controls.forEach(function (x) { x.tabIndex = x === c ? 0 : -1; }); c.focus(); }
  bar.addEventListener('click', function (e) {
    var b = e.target.closest('button');
    if (!b) return;
    focus(b);
    if (b.dataset.style) {
      var on = b.getAttribute('aria-pressed') !== 'true';
      b.setAttribute('aria-pressed', String(on));
      var s = b.dataset.style;
      if (s === 'bold') text.style.fontWeight = on ? 'bold' : '';
      else if (s === 'italic') text.style.fontStyle = on ? 'italic' : '';
      else text.style.textDecoration = on ? 'underline' : '';
    } else if (b.dataset.align) {
      Array.prototype.forEach.call(bar.querySelectorAll('[role="radio"]'), function (r) { r.setAttribute('aria-checked', String(r === b)); });
      text.style.textAlign = b.dataset.align;
    } else if (b.dataset.do === 'copy') {
      clip = text.value.substring(text.selectionStart, text.selectionEnd);
    } else if (b.dataset.do === 'paste') {
      text.setRangeText(clip);
    }
  });
  bar.addEventListener('keydown', function (e) {
    var i = controls.indexOf(document.activeElement), j = null;
    if (e.key === 'ArrowRight') j = (i + 1) % controls.length;
    else if (e.key === 'ArrowLeft') j = (i - 1 + controls.length) % controls.length;
    else if (e.key === 'Home') j = 0;
    else if (e.key === 'End') j = controls.length - 1;
    if (j !== null) { e.preventDefault(); focus(controls[j]); }
  });
})();`,
  },
  keys: [['Tab', 'Moves into the toolbar (to the last control used) and out of it.'], ['Left Arrow, Right Arrow', 'Moves to the previous or next control, wrapping around.'],
    ['Home, End', 'Moves to the first or last control.'], ['Enter, Space', 'Presses the focused button, toggling bold, italic or underline, or choosing an alignment.']],
  roles: [['toolbar', '<code>div</code>', 'The toolbar, named "Text formatting".'], ['aria-pressed', '<code>button</code>', 'On toggle buttons: whether the style is on.'],
    ['radiogroup, radio', '<code>div</code>, <code>button</code>', 'The alignment choices.'], ['aria-controls', '<code>div</code>', 'The text the toolbar formats.']],
  related: ['Menubar', 'Menu button', 'Radio group'],
});

// 20. carousel (no automatic rotation until asked)
const SLIDES = [
  ['Scafell Pike from Wasdale Head', 'England’s highest mountain by its shortest route: 9 km there and back, 900 m of ascent. Allow 5 to 6 hours.'],
  ['Helvellyn via Striding Edge', 'A classic scramble along a narrow arête from Glenridding: 12 km, 950 m of ascent, 6 to 7 hours. Not in high winds.'],
  ['Catbells from Hawes End', 'A short, steep family favourite above Derwentwater: 6 km, 400 m of ascent, 2 to 3 hours, with the launch back to Keswick.'],
  ['Blencathra by Sharp Edge', 'A thrilling ridge to the summit of Blencathra from Scales: 8 km, 750 m of ascent. Slippery when wet.'],
  ['Haystacks from Gatesgarth', 'Wainwright’s favourite fell, with tarns and views of Buttermere: 8 km, 550 m of ascent, 4 hours.'],
];
pattern({
  name: 'Carousel',
  file: 'docs-carousel.html',
  lede: 'A set of slides shown one at a time, with buttons to move between them and to start or stop automatic rotation.',
  about: [
    'A carousel presents a set of items, slides, one at a time. People move between slides with the previous and next buttons; a carousel that rotates by itself must have a button to stop it, and stops while it has focus or the pointer is over it.',
    'While the carousel is not rotating, its slides container is a polite live region, so screen readers announce the slide that people bring forward.',
  ],
  use: ['A few items of equal weight that people may browse (featured walks, offers).', 'The first slide must stand on its own: many people never see the others.', 'Never for content people must read.'],
  anatomy: ['Carousel region with a label', 'Rotation button', 'Previous and next slide buttons', 'Slides container (a live region when not rotating)', 'Slide, labelled "N of M"'],
  exampleIntro: 'Featured walks of the week. Move to the next walk with the Next slide button.',
  example: {
    title: 'featured walks',
    css: `
  .carousel .controls { display: flex; gap: .5em; }
  .carousel .slide { border: 1px solid #d0d7de; padding: .5em 1em; margin-top: .5em; min-height: 7em; }`,
    html: `      <section class="carousel" aria-roledescription="carousel" aria-label="Featured walks">
        <div class="controls">
          <button type="button" id="car-rotate">Start automatic slide show</button>
          <button type="button" id="car-prev" aria-controls="car-items">Previous slide</button>
          <button type="button" id="car-next" aria-controls="car-items">Next slide</button>
        </div>
        <div id="car-items" aria-live="polite">
${SLIDES.map(([h, t], i) => `          <div class="slide" role="group" aria-roledescription="slide" aria-label="${i + 1} of ${SLIDES.length}"${i ? ' hidden' : ''}>
            <h4><a href="/walks/${slug(h)}">${esc(h)}</a></h4>
            <p>${esc(t)}</p>
          </div>`).join('\n')}
        </div>
      </section>`,
    script: `(function () {
  var slides = Array.prototype.slice.call(document.querySelectorAll('#car-items .slide'));
  var items = document.getElementById('car-items');
  var rotate = document.getElementById('car-rotate');
  var carousel = document.querySelector('.carousel');
  var current = 0, timer = null, paused = false;
  function show(i) {
    slides[current].hidden = true;
    current = (i + slides.length) % slides.length;
    slides[current].hidden = false;
  }
  function tick() { if (!paused) show(current + 1); }
  function setRotation(on) {
    if (on) { timer = setInterval(tick, 5000); items.setAttribute('aria-live', 'off'); rotate.textContent = 'Stop automatic slide show'; }
    else { clearInterval(timer); timer = null; items.setAttribute('aria-live', 'polite'); rotate.textContent = 'Start automatic slide show'; }
  }
  rotate.addEventListener('click', function () { setRotation(!timer); });
  document.getElementById('car-prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('car-next').addEventListener('click', function () { show(current + 1); });
  carousel.addEventListener('focusin', function () { paused = true; });
  carousel.addEventListener('focusout', function () { paused = false; });
  carousel.addEventListener('mouseenter', function () { paused = true; });
  carousel.addEventListener('mouseleave', function () { paused = false; });
})();`,
  },
  keys: [['Tab', 'Moves through the rotation button, the previous and next buttons, and the links of the slide shown.'], ['Enter, Space', 'On the rotation button: starts or stops the slide show. On previous or next: shows that slide.']],
  roles: [['region', '<code>section</code>', 'The carousel, with <code>aria-roledescription="carousel"</code> and a label.'], ['aria-live', '<code>div</code>', '<code>polite</code> while the carousel is not rotating, <code>off</code> while it rotates.'],
    ['group', '<code>div</code>', 'A slide, with <code>aria-roledescription="slide"</code> and a label such as "2 of 5".'], ['aria-controls', '<code>button</code>', 'The previous and next buttons point to the slides.']],
  related: ['Tabs', 'Disclosure'],
});

module.exports = { PATTERNS, PAGE_OF, docsPage, esc, slug };
