// The tasks: what a competent agent does with each tool's own tool set, step by step, reading
// refs out of the replies it got (never hard-coded). Both sides follow the same logical steps;
// each uses the tools best suited to a step (Playwright: browser_snapshot to look at a page,
// browser_find to locate a named thing, browser_fill_form for a form; ariasnap:
// browser_snapshot (fitted to its default budget), browser_search, browser_run_steps for a
// batch, browser_set for dates). When a ref an agent needs is not in what it has read, it looks
// again (a snapshot), as an agent would, and that call is counted.
//
// Each task lists the facts the agent must end up knowing; the bench checks whether each was
// inline in some reply's text (a string, or a RegExp for a state or value in either tool's
// notation, or a named test).
//
// The docs tasks (fixtures/html/tasks/docs-*.html, one WAI-ARIA APG pattern a page, the
// example below the fold) and the two long-page tasks mark ariasnap's actions with a.act(),
// naming the words a reply must carry for the change that matters (bench.js checks them) and,
// through the task's `widget` (CSS selectors of the widget's container), which JSON `changes`
// entries are outside the widget.
'use strict';
const { refOf, containerRef, stateRe, valueRe, factIn } = require('./lib');
const { pointerTasks } = require('./pointer');
const { clickablesTasks } = require('./clickables');

class TaskError extends Error {}

/** The ref of `- role "name"` in the newest reply that has one. */
function seen(agent, role, name) {
  const texts = agent.replies();
  for (let i = texts.length - 1; i >= 0; i--) {
    const r = refOf(texts[i], role, name);
    if (r) return r;
  }
  return null;
}

/** The ref of an element: from what the agent read, else after looking at the page again. */
async function ref(agent, role, name, look) {
  let r = seen(agent, role, name);
  if (!r) {
    await look();
    r = seen(agent, role, name);
  }
  if (!r) throw new TaskError(`${agent.tool}: no ref for ${role} "${name}" in its replies`);
  return r;
}

// ---- each tool's ways of looking
// look: the whole page; lookMain: the main landmark only (where an action's outcome shows
// on these pages, as on most sites); lookForm: a first look at a form to fill (ariasnap's
// interactive detail: the controls with their refs, headings and error text, docs/reference/detail.md#nothing-is-dropped-silently;
// Playwright has no such mode: its whole snapshot); find: locate a named thing.
const PW = {
  look: (a) => a.call('browser_snapshot', {}),
  lookForm: (a) => a.call('browser_snapshot', {}),
  lookMain: (a) => a.call('browser_snapshot', { target: 'main' }),
  find: (a, text) => a.call('browser_find', { text }),
};
const AS = {
  look: (a) => a.call('browser_snapshot', {}),
  lookForm: (a) => a.call('browser_snapshot', { detail: 'interactive' }),
  lookMain: (a) => a.call('browser_snapshot', { root: 'main' }),
  find: (a, text, role) => a.call('browser_search', role ? { text, role } : { text }),
};

/** Playwright's look after an action on a widget: a snapshot of the region around the thing
 * it found (browser_find prints the ancestors of a match with their refs; on the docs pages
 * that is the example's region), or of main when no reply had one. */
async function pwLookAround(a, role, name) {
  const texts = a.replies();
  for (let i = texts.length - 1; i >= 0; i--) {
    const r = containerRef(texts[i], role, name);
    if (r) return a.call('browser_snapshot', { target: r });
  }
  return PW.lookMain(a);
}

/** Whether every fact is in some reply so far. */
const allKnown = (a, facts) => facts.every((f) => a.replies().some((t) => factIn(t, f)));

/** A widget task where both agents find the control by its name, act on it in steps, and
 * look again only when a fact is still missing. spec: find: [text, role, name?], the control
 * to find first (Playwright browser_find, ariasnap browser_search); steps: [{role, name (a
 * RegExp for an exact name, with find: the text to search), pw, as, named, pwLook}]:
 *   pw: 'click' | {type: text} | {press: [keys]} (a click to focus, then the keys) |
 *       {dialog: true} (a click, then browser_handle_dialog) | async (a, target) => {...};
 *   as: 'click' | {set: value} | {steps: async (a, target) => [...]} (browser_run_steps);
 *   a step without pw (or as) is not the other agent's (Playwright picks an option itself,
 *   ariasnap's set did);
 *   named: the words ariasnap's reply must carry for the change that matters;
 *   pwLook: Playwright's look after the step ('around': the region around the control
 *   found first, the default; 'page': the whole page; or a function, such as a
 *   browser_find of a modal dialog's known text);
 * asLook: ariasnap's look when a fact is missing at the end. */
function widgetTask(spec) {
  const [findText, findRole, findName = findText] = spec.find;
  const label = (st) => `${st.role} "${st.name instanceof RegExp ? st.find : st.name}"`;
  return {
    ...spec,
    async playwright(a, url) {
      await a.call('browser_navigate', { url });
      await PW.find(a, findText);
      const lookAround = () => pwLookAround(a, findRole, findName);
      for (const st of spec.steps.filter((x) => x.pw)) {
        const look = typeof st.pwLook === 'function' ? () => st.pwLook(a) : st.pwLook === 'page' ? () => PW.look(a) : lookAround;
        const target = await ref(a, st.role, st.name, look);
        const element = label(st);
        if (typeof st.pw === 'function') await st.pw(a, target);
        else if (st.pw === 'click') await a.call('browser_click', { element, target });
        else if (st.pw.type !== undefined) await a.call('browser_type', { element, target, text: st.pw.type });
        else if (st.pw.press) {
          await a.call('browser_click', { element, target });
          for (const key of st.pw.press) await a.call('browser_press_key', { key });
        } else if (st.pw.dialog) {
          await a.call('browser_click', { element, target });
          await a.call('browser_handle_dialog', { accept: true });
          continue; // the click's reply showed the dialog's text
        }
        await look(); // its action replies link to a snapshot file
      }
    },
    async ariasnap(a, url) {
      await a.call('browser_navigate', { url });
      await AS.find(a, findText, findRole);
      for (const st of spec.steps.filter((x) => x.as)) {
        const target = await ref(a, st.role, st.name, () => AS.find(a, st.name instanceof RegExp ? st.find : st.name, st.role));
        const check = { named: st.named };
        if (st.as === 'click') await a.act('browser_click', { ref: target }, check);
        else if (st.as.set !== undefined) await a.act('browser_set', { ref: target, value: st.as.set }, check);
        else if (st.as.steps) await a.act('browser_run_steps', { steps: await st.as.steps(a, target) }, check);
      }
      if (!allKnown(a, spec.facts) && spec.asLook) await spec.asLook(a);
    },
  };
}

/** The first data row of a table in a reply: in snapshot lines (Playwright's and ariasnap's
 * `- row:` with its cells below, or `- row "name"`), the first row that is not the header;
 * in ariasnap's search matches, the first row with a name; in a summary, a phrase that names
 * the first row. */
function firstRowIs(header, first) {
  return {
    name: `first row: ${first}`,
    test: (text) => {
      const lines = text.split('\n');
      const rows = [];
      lines.forEach((l, i) => {
        const m = /^(\s*)- row(?: "([^"]*)")?/.exec(l);
        if (!m) return;
        if (m[2]) { rows.push(m[2]); return; }
        for (let j = i + 1; j < lines.length; j++) {
          const c = /^(\s*)- (\w+)(?: "([^"]*)")?/.exec(lines[j]);
          if (!c || c[1].length <= m[1].length) break;
          if (c[2] === 'columnheader') { rows.push(header); return; }
          if (/^(cell|gridcell|rowheader)$/.test(c[2])) { rows.push(c[3] || ''); return; }
        }
      });
      for (const m of text.matchAll(/"role":"row","name":"([^"]+)"/g)) rows.push(m[1]);
      const data = rows.filter((r) => !r.startsWith(header));
      if (data.length) return data[0].startsWith(first);
      return new RegExp(`first row[^.]*${first}`).test(text);
    },
  };
}

const SIGNUP = {
  first: 'Ada', last: 'Lovelace', email: 'ada.lovelace@example.org', country: 'United Kingdom',
  weak: 'lovelace1', strong: 'analytical-engine-1843',
};

/** The member number the welcome page derives from the email (see pages.js). */
function memberNumber(email) {
  let n = 0;
  for (let i = 0; i < email.length; i++) n = (n * 31 + email.charCodeAt(i)) % 900000;
  return `NW-${100000 + n}`;
}

const TASKS = [
  {
    id: 'signup',
    title: 'sign up: fill the form, fix the rejected password, submit, read the welcome',
    page: 'html/tasks/signup.html',
    facts: ['Password must be at least 12 characters', 'Welcome to Northwind, Ada!', memberNumber(SIGNUP.email)],
    async playwright(a, url) {
      await a.call('browser_navigate', { url });
      const look = () => PW.lookForm(a);
      await look();
      const field = async (name, type, role, value) => ({ name, type, target: await ref(a, role, name, look), value });
      await a.call('browser_fill_form', {
        fields: [
          await field('First name', 'textbox', 'textbox', SIGNUP.first),
          await field('Last name', 'textbox', 'textbox', SIGNUP.last),
          await field('Email address', 'textbox', 'textbox', SIGNUP.email),
          await field('Country or region', 'combobox', 'combobox', SIGNUP.country),
          await field('Password', 'textbox', 'textbox', SIGNUP.weak),
          await field('Confirm password', 'textbox', 'textbox', SIGNUP.weak),
          await field('I agree to the terms and conditions', 'checkbox', 'checkbox', 'true'),
        ],
      });
      await a.call('browser_click', { element: 'Create account', target: await ref(a, 'button', 'Create account', look) });
      await PW.lookMain(a); // what happened? (the click's reply links to a snapshot file)
      await a.call('browser_fill_form', {
        fields: [
          await field('Password', 'textbox', 'textbox', SIGNUP.strong),
          await field('Confirm password', 'textbox', 'textbox', SIGNUP.strong),
        ],
      });
      await a.call('browser_click', { element: 'Create account', target: await ref(a, 'button', 'Create account', look) });
      await PW.lookMain(a); // the welcome page
    },
    async ariasnap(a, url) {
      await a.call('browser_navigate', { url });
      const look = () => AS.lookForm(a);
      await look();
      const r = (role, name) => ref(a, role, name, look);
      await a.call('browser_run_steps', {
        steps: [
          { fill: { ref: await r('textbox', 'First name'), value: SIGNUP.first } },
          { fill: { ref: await r('textbox', 'Last name'), value: SIGNUP.last } },
          { fill: { ref: await r('textbox', 'Email address'), value: SIGNUP.email } },
          { set: { ref: await r('combobox', 'Country or region'), value: SIGNUP.country } },
          { fill: { ref: await r('textbox', 'Password'), value: SIGNUP.weak } },
          { fill: { ref: await r('textbox', 'Confirm password'), value: SIGNUP.weak } },
          { set: { ref: await r('checkbox', 'I agree to the terms and conditions'), value: true } },
          { click: await r('button', 'Create account') },
        ],
      });
      await a.call('browser_run_steps', {
        steps: [
          { fill: { ref: await r('textbox', 'Password'), value: SIGNUP.strong } },
          { fill: { ref: await r('textbox', 'Confirm password'), value: SIGNUP.strong } },
          { click: await r('button', 'Create account') },
        ],
      });
      // the reply says where it went (or what failed); then the welcome page
      if (!a.replies().some((t) => t.includes('Welcome to Northwind,'))) await AS.lookMain(a);
    },
  },
  {
    id: 'coupon',
    title: 'basket: apply a promo code, read the toast and the new total',
    page: 'html/tasks/cart.html',
    facts: ['Code SPRING20 applied: you save $62.00', '$248.00'],
    async playwright(a, url) {
      await a.call('browser_navigate', { url });
      const look = () => PW.look(a);
      await PW.find(a, 'Promo code');
      await a.call('browser_type', { element: 'Promo code', target: await ref(a, 'textbox', 'Promo code', look), text: 'SPRING20' });
      await a.call('browser_click', { element: 'Apply', target: await ref(a, 'button', 'Apply', look) });
      await look(); // the toast and the total
    },
    async ariasnap(a, url) {
      await a.call('browser_navigate', { url });
      const look = () => AS.look(a);
      await AS.find(a, 'Promo code');
      await AS.find(a, 'Apply', 'button');
      await a.call('browser_run_steps', {
        steps: [
          { fill: { ref: await ref(a, 'textbox', 'Promo code', look), value: 'SPRING20' } },
          { click: await ref(a, 'button', 'Apply', look) },
        ],
      });
      if (!a.replies().some((t) => t.includes('$248.00'))) await AS.find(a, 'Total');
    },
  },
  {
    id: 'catalogue',
    title: 'long catalogue (180 products): the price of one named product',
    page: 'html/tasks/catalogue.html',
    facts: ['$220.99'],
    async playwright(a, url) {
      await a.call('browser_navigate', { url });
      await PW.find(a, 'Aether 30L Duffel');
    },
    async ariasnap(a, url) {
      await a.call('browser_navigate', { url });
      await AS.find(a, 'Aether 30L Duffel');
    },
  },
  {
    id: 'dates',
    title: 'hotel booking: a date input and a calendar widget, read the stay back',
    page: 'html/tasks/booking.html',
    facts: ['Your stay: Fri 15 May 2026 to Mon 18 May 2026, 3 nights'],
    async playwright(a, url) {
      await a.call('browser_navigate', { url });
      const look = () => PW.lookForm(a);
      await look();
      await a.call('browser_type', { element: 'Check-in', target: await ref(a, 'textbox', 'Check-in', look), text: '2026-05-15' });
      await a.call('browser_click', { element: 'Choose check-out date', target: await ref(a, 'button', 'Choose check-out date', look) });
      await PW.find(a, '18 May 2026'); // the calendar's day
      await a.call('browser_click', { element: '18 May', target: await ref(a, 'button', 'Monday 18 May 2026', look) });
      await PW.lookMain(a); // the stay summary
    },
    async ariasnap(a, url) {
      await a.call('browser_navigate', { url });
      const look = () => AS.lookForm(a);
      await look();
      await a.call('browser_set', { ref: await ref(a, 'textbox', 'Check-in', look), value: '2026-05-15' });
      await a.call('browser_click', { ref: await ref(a, 'button', 'Choose check-out date', look) });
      await AS.find(a, '18 May 2026', 'button'); // the calendar's day
      await a.call('browser_click', { ref: await ref(a, 'button', 'Monday 18 May 2026', look) });
      if (!a.replies().some((t) => t.includes('Your stay:'))) await AS.lookMain(a);
    },
  },
  {
    id: 'new-tab',
    title: 'product page: open the size guide (a new tab), read its heading',
    page: 'html/tasks/product.html',
    facts: ['Size guide: Ridgeline jackets'],
    async playwright(a, url) {
      await a.call('browser_navigate', { url });
      const look = () => PW.look(a);
      await PW.find(a, 'Size guide');
      await a.call('browser_click', { element: 'Size guide', target: await ref(a, 'link', 'Size guide', look) });
      await a.call('browser_tabs', { action: 'select', index: 1 });
      await PW.find(a, 'Size guide');
    },
    async ariasnap(a, url) {
      await a.call('browser_navigate', { url });
      const look = () => AS.look(a);
      await AS.find(a, 'Size guide', 'link');
      await a.call('browser_click', { ref: await ref(a, 'link', 'Size guide', look) });
      await a.call('browser_switch_tab', { tab: 't2' });
      if (!a.replies().some((t) => t.includes('Size guide: Ridgeline jackets'))) await AS.find(a, 'Size guide', 'heading');
    },
  },
];

// ---- the docs pages: one APG pattern a page, its live example below the fold
const DOCS = [
  widgetTask({
    id: 'combobox',
    title: 'list-autocomplete combobox: set the delivery state to Oregon',
    page: 'html/tasks/docs-combobox.html',
    widget: ['#example'],
    facts: [/combobox "Delivery state"[^\n]*(?:: Oregon$|value "Oregon")/m],
    find: ['Delivery state', 'combobox'],
    steps: [
      { role: 'combobox', name: 'Delivery state', pw: { type: 'Ore' }, as: { set: 'Oregon' }, named: ['value "Oregon"'] },
      { role: 'option', name: 'Oregon', pw: 'click' },
    ],
    asLook: (a) => AS.find(a, 'Delivery state', 'combobox'),
  }),
  widgetTask({
    id: 'select',
    title: 'select-only combobox: choose the collection point Exeter Quay',
    page: 'html/tasks/docs-select.html',
    widget: ['#example'],
    facts: [/combobox "Collection point"[^\n]*(?:: Exeter Quay$|value "Exeter Quay")/m],
    find: ['Collection point', 'combobox'],
    steps: [
      { role: 'combobox', name: 'Collection point', pw: 'click', as: { set: 'Exeter Quay' }, named: ['value "Exeter Quay"'] },
      { role: 'option', name: 'Exeter Quay', pw: 'click' },
    ],
    asLook: (a) => AS.find(a, 'Collection point', 'combobox'),
  }),
  widgetTask({
    id: 'listbox',
    title: 'scrollable listbox: select the departure airport Porto (OPO)',
    page: 'html/tasks/docs-listbox.html',
    widget: ['#example'],
    facts: [stateRe('option', 'Porto (OPO)', 'selected')],
    find: ['Porto', 'option'],
    steps: [{ role: 'option', name: 'Porto (OPO)', pw: 'click', as: 'click', named: [stateRe('option', 'Porto (OPO)', 'selected')] }],
    asLook: (a) => AS.find(a, 'Porto', 'option'),
  }),
  widgetTask({
    id: 'menu-button',
    title: 'menu button: open Actions, choose Duplicate, read Last action',
    page: 'html/tasks/docs-menu-button.html',
    widget: ['#example'],
    facts: [valueRe('Last action', 'Duplicate')],
    find: ['Actions', 'button'],
    steps: [
      { role: 'button', name: 'Actions', pw: 'click', as: 'click', named: [stateRe('button', 'Actions', 'expanded'), 'menuitem "Duplicate"'] },
      { role: 'menuitem', name: 'Duplicate', pw: 'click', as: 'click', named: ['Last action', 'Duplicate'] },
    ],
    asLook: (a) => AS.find(a, 'Last action', 'textbox'),
  }),
  widgetTask({
    id: 'menubar',
    title: 'menubar: Format, then the Text size submenu, choose Large, read Last action',
    page: 'html/tasks/docs-menubar.html',
    widget: ['#example'],
    facts: [valueRe('Last action', 'Text size: Large')],
    find: ['Format', 'menuitem'],
    steps: [
      { role: 'menuitem', name: 'Format', pw: 'click', as: 'click', named: [stateRe('menuitem', 'Format', 'expanded'), 'menuitem "Text size"'] },
      { role: 'menuitem', name: 'Text size', pw: 'click', as: 'click', named: [stateRe('menuitem', 'Text size', 'expanded'), 'menuitemradio "Large"'] },
      { role: 'menuitemradio', name: 'Large', pw: 'click', as: 'click', named: ['Last action', 'Text size: Large'] },
    ],
    asLook: (a) => AS.find(a, 'Last action', 'textbox'),
  }),
  widgetTask({
    id: 'accordion',
    title: 'accordion: expand Shipping address, fill its City',
    page: 'html/tasks/docs-accordion.html',
    widget: ['#example'],
    facts: [stateRe('button', 'Shipping address', 'expanded'), valueRe('City', 'Porto')],
    find: ['Shipping address', 'button'],
    steps: [
      { role: 'button', name: 'Shipping address', pw: 'click', as: 'click', named: [stateRe('button', 'Shipping address', 'expanded'), 'textbox "City"'] },
      { role: 'textbox', name: 'City', pw: { type: 'Porto' }, as: { set: 'Porto' }, named: ['value "Porto"'] },
    ],
    asLook: (a) => AS.find(a, 'City', 'textbox'),
  }),
  widgetTask({
    id: 'tabs',
    title: 'tabs: open Getting there, read the panel',
    page: 'html/tasks/docs-tabs.html',
    widget: ['#example'],
    facts: ['Walk in from Gatesgarth Farm in Buttermere over Scarth Gap'],
    find: ['Getting there', 'tab'],
    steps: [{ role: 'tab', name: 'Getting there', pw: 'click', as: 'click', named: [stateRe('tab', 'Getting there', 'selected'), 'Gatesgarth Farm'] }],
    asLook: (a) => AS.find(a, 'Gatesgarth'),
  }),
  widgetTask({
    id: 'dialog',
    title: 'modal dialog: add a delivery address, save, read the saved list',
    page: 'html/tasks/docs-dialog.html',
    widget: ['#example', '#addr-backdrop'],
    facts: ['You have 1 saved delivery address.', 'Ada Lovelace, 12 Quay Street, Bristol BS1 4DJ'],
    find: ['Add delivery address', 'button'],
    steps: [
      // Playwright finds the dialog by a field it knows it needs, then looks at the dialog
      // (cheaper than a look at the whole page, which its snapshot still shows behind the modal)
      {
        role: 'button', name: 'Add delivery address', pw: 'click', as: 'click', named: ['dialog "Add delivery address"', 'textbox "Full name"'],
        pwLook: async (a) => {
          const dialog = containerRef(await PW.find(a, 'Full name'), 'textbox', 'Full name', 'dialog');
          if (dialog) await a.call('browser_snapshot', { target: dialog });
        },
      },
      {
        role: 'textbox', name: 'Full name',
        pw: async (a, name) => {
          const r = (n) => ref(a, 'textbox', n, () => PW.find(a, n));
          const field = async (n, value) => ({ name: n, type: 'textbox', target: n === 'Full name' ? name : await r(n), value });
          await a.call('browser_fill_form', {
            fields: [await field('Full name', 'Ada Lovelace'), await field('Street address', '12 Quay Street'),
              await field('City', 'Bristol'), await field('Postcode', 'BS1 4DJ')],
          });
          await a.call('browser_click', { element: 'Save address', target: await ref(a, 'button', 'Save address', () => PW.find(a, 'Save address')) });
        },
        as: {
          steps: async (a, name) => {
            const r = (n) => ref(a, 'textbox', n, () => AS.find(a, n, 'textbox'));
            return [
              { fill: { ref: name, value: 'Ada Lovelace' } },
              { fill: { ref: await r('Street address'), value: '12 Quay Street' } },
              { fill: { ref: await r('City'), value: 'Bristol' } },
              { fill: { ref: await r('Postcode'), value: 'BS1 4DJ' } },
              { click: await ref(a, 'button', 'Save address', () => AS.find(a, 'Save address', 'button')) },
            ];
          },
        },
        named: ['You have 1 saved delivery address.', 'Ada Lovelace, 12 Quay Street'],
      },
    ],
    asLook: (a) => AS.find(a, 'Ada Lovelace'),
  }),
  widgetTask({
    id: 'alert-dialog',
    title: 'alert dialog: discard a draft, confirm, read the status',
    page: 'html/tasks/docs-alert-dialog.html',
    widget: ['#example', '#ad-backdrop'],
    facts: ['Draft discarded. Your trip notes are empty.'],
    find: ['Discard draft', 'button'],
    steps: [
      { role: 'button', name: 'Discard draft', pw: 'click', pwLook: (a) => PW.find(a, 'Discard this draft?'), as: 'click', named: ['alertdialog', 'Discard this draft?', 'button "Discard"'] },
      { role: 'button', name: /Discard/, find: 'Discard', pw: 'click', as: 'click', named: ['Draft discarded'] },
    ],
    asLook: (a) => AS.find(a, 'Draft discarded'),
  }),
  widgetTask({
    id: 'date-picker',
    title: 'date picker dialog: open the calendar, pick 20 May 2026, read the date field',
    page: 'html/tasks/docs-date-picker.html',
    widget: ['#example'],
    facts: [valueRe('Service date', '05/20/2026')],
    find: ['Choose date', 'button'],
    steps: [
      { role: 'button', name: 'Choose date', pw: 'click', as: 'click', named: ['Opened', 'May 2026'] },
      { role: 'gridcell', name: /20/, find: '20', pw: 'click', as: 'click', named: ['05/20/2026'] },
    ],
    asLook: (a) => AS.find(a, 'Service date', 'textbox'),
  }),
  widgetTask({
    id: 'date-combobox',
    title: 'date picker combobox: set the date to 05/20/2026',
    page: 'html/tasks/docs-date-combobox.html',
    widget: ['#example'],
    facts: [valueRe('Service date', '05/20/2026')],
    find: ['Service date', 'combobox'],
    steps: [{ role: 'combobox', name: 'Service date', pw: { type: '05/20/2026' }, as: { set: '05/20/2026' }, named: ['value "05/20/2026"'] }],
    asLook: (a) => AS.find(a, 'Service date', 'combobox'),
  }),
  widgetTask({
    id: 'disclosure',
    title: 'disclosure: open a question, read the answer',
    page: 'html/tasks/docs-disclosure.html',
    widget: ['#example'],
    facts: ['Refunds reach your account within 5 working days'],
    find: ['How long do refunds take?', 'button'],
    steps: [{ role: 'button', name: 'How long do refunds take?', pw: 'click', as: 'click', named: [stateRe('button', 'How long do refunds take?', 'expanded'), 'within 5 working days'] }],
    asLook: (a) => AS.find(a, 'Refunds reach'),
  }),
  widgetTask({
    id: 'slider',
    title: 'slider: set the temperature to 24°C',
    page: 'html/tasks/docs-slider.html',
    widget: ['#example'],
    // Playwright shows no slider value, only the page's aria-hidden "24°C" beside it
    facts: [/slider "Temperature"[^\n]*\b24\b|\b24°C/],
    find: ['Temperature', 'slider'],
    steps: [{ role: 'slider', name: 'Temperature', pw: { press: ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight'] }, as: { set: 24 }, named: [/value[^.\n]*\b24\b/] }],
    asLook: (a) => AS.find(a, 'Temperature', 'slider'),
  }),
  widgetTask({
    id: 'spinbutton',
    title: 'spinbutton: 4 adults, read the booking summary',
    page: 'html/tasks/docs-spinbutton.html',
    widget: ['#example'],
    facts: ['Booking for 4 adults and 0 children.'],
    find: ['Adults', 'spinbutton'],
    steps: [{ role: 'spinbutton', name: 'Adults', pw: { type: '4' }, as: { set: 4 }, named: [/value[^.\n]*\b4\b/, 'Booking for 4 adults'] }],
    asLook: (a) => AS.find(a, 'Booking for'),
  }),
  widgetTask({
    id: 'switch',
    title: 'switch: turn the weekly digest on',
    page: 'html/tasks/docs-switch.html',
    widget: ['#example'],
    facts: [stateRe('switch', 'Weekly digest', 'checked')],
    find: ['Weekly digest', 'switch'],
    steps: [{ role: 'switch', name: 'Weekly digest', pw: 'click', as: { set: true }, named: [stateRe('switch', 'Weekly digest', 'checked')] }],
    asLook: (a) => AS.find(a, 'Weekly digest', 'switch'),
  }),
  widgetTask({
    id: 'checkbox',
    title: 'tri-state checkbox: check All condiments, read the group',
    page: 'html/tasks/docs-checkbox.html',
    widget: ['#example'],
    facts: [stateRe('checkbox', 'All condiments', 'checked'), stateRe('checkbox', 'Sprouts', 'checked')],
    find: ['All condiments', 'checkbox'],
    steps: [{ role: 'checkbox', name: 'All condiments', pw: 'click', as: 'click', named: [stateRe('checkbox', 'All condiments', 'checked'), stateRe('checkbox', 'Mustard', 'checked'), stateRe('checkbox', 'Sprouts', 'checked')] }],
    asLook: (a) => a.call('browser_snapshot', { root: 'role=group', detail: 'interactive' }),
  }),
  widgetTask({
    id: 'radio',
    title: 'radio group: choose next-day delivery, read the order total',
    page: 'html/tasks/docs-radio-group.html',
    widget: ['#example'],
    facts: [stateRe('radio', 'Next day, order by 8pm, $12.95', 'checked'), 'Order total: $99.45'],
    find: ['Next day', 'radio'],
    steps: [{ role: 'radio', name: 'Next day', pw: 'click', as: 'click', named: [stateRe('radio', 'Next day, order by 8pm, $12.95', 'checked'), 'Order total: $99.45'] }],
    asLook: (a) => AS.find(a, 'Order total'),
  }),
  widgetTask({
    id: 'treeview',
    title: 'treeview: open Reports, select q2-budget.xlsx, read the selection',
    page: 'html/tasks/docs-treeview.html',
    widget: ['#example'],
    facts: [valueRe('File or folder selected', 'q2-budget.xlsx')],
    find: ['Reports', 'treeitem'],
    steps: [
      { role: 'treeitem', name: 'Reports', pw: 'click', as: 'click', named: [stateRe('treeitem', 'Reports', 'expanded'), 'treeitem "q2-budget.xlsx"'] },
      { role: 'treeitem', name: 'q2-budget.xlsx', pw: 'click', as: 'click', named: [stateRe('treeitem', 'q2-budget.xlsx', 'selected'), 'File or folder selected'] },
    ],
    asLook: (a) => AS.find(a, 'File or folder selected', 'textbox'),
  }),
  widgetTask({
    id: 'table',
    title: 'sortable table: sort by elevation, read the first row',
    page: 'html/tasks/docs-table.html',
    widget: ['#example'],
    facts: [firstRowIs('Hut ', 'Gruttenhütte')],
    find: ['Elevation', 'button'],
    steps: [{ role: 'button', name: 'Elevation (m)', pw: 'click', as: 'click', named: ['"Elevation (m)"', 'ascending', 'Gruttenhütte'] }],
    asLook: (a) => a.call('browser_snapshot', { root: 'role=table' }),
  }),
  widgetTask({
    id: 'toolbar',
    title: 'toolbar: turn italic on',
    page: 'html/tasks/docs-toolbar.html',
    widget: ['#example'],
    facts: [stateRe('button', 'Italic', 'pressed')],
    find: ['Italic', 'button'],
    steps: [{ role: 'button', name: 'Italic', pw: 'click', as: 'click', named: [stateRe('button', 'Italic', 'pressed')] }],
    asLook: (a) => AS.find(a, 'Italic', 'button'),
  }),
  widgetTask({
    id: 'carousel',
    title: 'carousel: next slide, read the walk it shows',
    page: 'html/tasks/docs-carousel.html',
    widget: ['#example'],
    facts: ['Helvellyn via Striding Edge', '12 km, 950 m of ascent'],
    find: ['Next slide', 'button'],
    steps: [{ role: 'button', name: 'Next slide', pw: 'click', as: 'click', named: ['Helvellyn via Striding Edge'] }],
    asLook: (a) => AS.find(a, '12 km'),
  }),
];

// ---- long pages on the shop: the target far below the fold, under a sticky header
const LONG = [
  widgetTask({
    id: 'returns-alert',
    title: 'long list: the returns policy button at the very bottom opens an alert; read it',
    page: 'html/tasks/bestsellers.html',
    widget: ['#returns'],
    facts: ['Returns are accepted within 30 days of delivery.'],
    find: ['Returns policy', 'button'],
    steps: [{ role: 'button', name: 'Returns policy', pw: { dialog: true }, as: 'click', named: ['Returns are accepted within 30 days of delivery.'] }],
  }),
  widgetTask({
    id: 'load-more',
    title: 'long list: load more tents at the bottom of 100, read the count and the first new tent',
    page: 'html/tasks/tents.html',
    widget: ['#results'],
    facts: ['Showing 120 of 137 tents', 'Harris 3-person Family Tent'],
    find: ['Load more tents', 'button'],
    steps: [{ role: 'button', name: 'Load more tents', pw: 'click', as: 'click', named: ['Showing 120 of 137 tents', 'Harris 3-person Family Tent'] }],
    asLook: (a) => AS.find(a, 'Showing'),
  }),
];

TASKS.push(...DOCS, ...LONG, ...pointerTasks({ widgetTask, ref, AS, PW, stateRe, TaskError }),
  ...clickablesTasks({ ref, AS, PW, TaskError }));

module.exports = { TASKS, TaskError, seen, memberNumber, firstRowIs };
