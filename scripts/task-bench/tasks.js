// The tasks: what a competent agent does with each tool's own tool set, step by step, reading
// refs out of the replies it got (never hard-coded). Both sides follow the same logical steps;
// each uses the tools best suited to a step (Playwright: browser_snapshot to look at a page,
// browser_find to locate a named thing, browser_fill_form for a form; ariasnap:
// browser_snapshot (fitted to its default budget), browser_search, browser_run_steps for a
// batch, browser_set for dates). When a ref an agent needs is not in what it has read, it looks
// again (a snapshot), as an agent would, and that call is counted.
//
// Each task lists the facts the agent must end up knowing; the bench checks whether each was
// inline in some reply's text.
'use strict';
const { refOf } = require('./lib');

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
// interactive detail: the controls with their refs, headings and error text, SPEC 3/8;
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

module.exports = { TASKS, TaskError, seen, memberNumber };
