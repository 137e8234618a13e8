// Tasks on the clickables fixtures (fixtures/html/clickables/, issue 53): what people click on
// the web that is no ARIA control. Plan cards that are clickable divs, tiles with a pointer
// cursor, a contact list of href-less links (the email links listen to mousedown), a tab strip
// of spans (a listener each, and one delegated to the strip), a full-page "start" overlay
// div, a form whose Submit is a styled div with `onclick` set from script, icon-only toolbar
// buttons (an icon font, an SVG sprite), a 200-product shop whose "Add to cart" is found
// through search, a React-style app (listeners on the root, `onclick = noop` on the targets),
// text directly under the body, and terms longer than a text line shows.
//
// Each agent reads only its tool's replies and acts by the refs in them. ariasnap gives each
// such element a line and a ref (a `link`, a `generic ... [clickable]`, a `button [icon: ...]`
// hint). Playwright MCP's snapshot gives refs to elements: where the thing to click has one
// (a card's generic, a tile, the START overlay, a todo, the div Submit) its agent clicks it;
// where it is text inside an element with a ref (a span of a strip printed as one run
// `ProfileSecurityBilling`, an anchor inside a contact card's text) or an icon its snapshot
// does not describe (`- button [ref=e4]`), its agent reads or clicks through browser_evaluate
// on that element's ref, the one way it has (as the licence task of pointer.js does).
'use strict';
const { containerRef } = require('./lib');

/** The clickables tasks, built with the helpers of tasks.js: {ref, AS, PW, TaskError}. */
function clickablesTasks({ ref, AS, PW, TaskError }) {
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const AREF = '((?:f\\d+)?s\\d+e\\d+)';

  /** The first match of `line` (a RegExp with the ref as group 1) on a line after the first
   * line holding `anchor`, in the newest reply that has both: the agent reads the page in
   * order, as a person reads a contact card. */
  const refAfter = (a, anchor, line, what) => {
    const texts = a.replies();
    for (let i = texts.length - 1; i >= 0; i--) {
      const lines = texts[i].split('\n');
      const at = lines.findIndex((l) => l.includes(anchor));
      if (at < 0) continue;
      for (const l of lines.slice(at + 1)) {
        const m = line.exec(l);
        if (m) return m[1];
      }
    }
    throw new TaskError(`${a.tool}: no ${what} after "${anchor}" in its replies`);
  };

  /** Playwright: the ref of the first nameless element whose text holds `text`
   * (`- generic [ref=e9] [cursor=pointer]: Office chair`), in the newest reply that has it. */
  const textRef = (a, role, text) => {
    const re = new RegExp(`^\\s*- ${role} \\[ref=(e\\d+)\\](?: \\[[^\\]]*\\])*: "?[^\\n]*${esc(text)}`, 'm');
    const texts = a.replies();
    for (let i = texts.length - 1; i >= 0; i--) {
      const m = re.exec(texts[i]);
      if (m) return m[1];
    }
    throw new TaskError(`${a.tool}: no ref for ${role} holding "${text}" in its replies`);
  };

  /** Playwright: the ref of the element above (by indentation) the first line holding
   * `text` (`- generic [ref=e5]:` above `- strong [ref=e6]: Bo Diaz`). */
  const parentRef = (a, text) => {
    const texts = a.replies();
    for (let i = texts.length - 1; i >= 0; i--) {
      const lines = texts[i].split('\n');
      const at = lines.findIndex((l) => l.includes(text));
      if (at < 0) continue;
      const indent = /^\s*/.exec(lines[at])[0].length;
      for (let j = at - 1; j >= 0; j--) {
        const m = /^(\s*)- [^\n]*\[ref=(e\d+)\]/.exec(lines[j]);
        if (m && m[1].length < indent) return m[2];
      }
    }
    throw new TaskError(`${a.tool}: no element holding "${text}" in its replies`);
  };

  /** Playwright: what a person's click does to the element under `target` whose text
   * matches `test` (a RegExp source): pointer down, up, click, by script. */
  const pwClickInside = (a, element, target, test) => a.call('browser_evaluate', {
    element, target,
    function: `(el) => { const x = [...el.querySelectorAll('*')].find((c) => !c.children.length && /${test}/.test(c.textContent.trim()));`
      + ` for (const t of ['mousedown', 'mouseup', 'click']) x.dispatchEvent(new MouseEvent(t, { bubbles: true, cancelable: true })); return x.outerHTML; }`,
  });

  /** A task where the agent looks at the page, clicks what it found there, and reads the
   * outcome: pw(a) and as(a) return the ref to click (pw(a) may instead return a function
   * that acts through browser_evaluate); Playwright then finds `pwFind`, ariasnap reads its
   * click's reply. */
  const clickTask = (spec) => ({
    ...spec,
    async playwright(a, url) {
      await a.call('browser_navigate', { url });
      await PW.look(a);
      const target = spec.pw(a);
      if (typeof target === 'function') await target();
      else await a.call('browser_click', { element: spec.element, target });
      await PW.find(a, spec.pwFind);
    },
    async ariasnap(a, url) {
      await a.call('browser_navigate', { url });
      await AS.look(a);
      await a.act('browser_click', { ref: await spec.as(a) }, { named: spec.facts });
    },
  });

  /** A contact's href-less link, the first of its kind after the person's name. */
  const contact = (id, title, person, kind, facts) => clickTask({
    id, title, facts,
    page: 'html/clickables/contacts.html',
    widget: ['.contact', '#out'],
    pwFind: kind === 'phone' ? 'Calling' : 'Writing to',
    // Playwright prints the card's text as one run (`text: "Phone: 503-555-0142 Email: ..."`)
    pw: (a) => () => pwClickInside(a, `${person}'s contact card`, parentRef(a, `: ${person}`),
      kind === 'phone' ? '^\\d{3}-\\d{3}-\\d{4}$' : '^\\S+@\\S+$'),
    as: (a) => refAfter(a, person, kind === 'phone'
      ? new RegExp(`- link "\\d{3}-\\d{3}-\\d{4}"[^\\n]*\\[ref=${AREF}\\]`)
      : new RegExp(`- link "[^"]*@[^"]*"[^\\n]*\\[ref=${AREF}\\]`), `${kind} link`),
  });

  /** A tab of a strip made of spans (Playwright: the strip's one text run). */
  const stripTab = (id, title, tab, strip, facts, pwFind) => clickTask({
    id, title, facts, pwFind,
    page: 'html/clickables/tabs.html',
    widget: [strip, strip === '#main-tabs' ? '#panel' : '#view'],
    pw: (a) => () => pwClickInside(a, 'tab strip', textRef(a, 'generic', tab), `^${tab}$`),
    as: (a) => ref(a, 'generic', tab, () => AS.look(a)),
  });

  /** An icon-only button of a toolbar: ariasnap's `[icon: ...]` hint; Playwright reads the
   * toolbar's markup by script and clicks the button at the same place in its snapshot. */
  const iconButton = (id, title, toolbar, icon, facts) => ({
    id, title, facts,
    page: 'html/clickables/icons.html',
    widget: ['.toolbar', '#out'],
    async playwright(a, url) {
      await a.call('browser_navigate', { url });
      const snap = await PW.look(a);
      const bar = ref(a, 'toolbar', toolbar, () => PW.look(a));
      const markup = JSON.parse(/### Result\n([\s\S]*?)\n###/.exec(await a.call('browser_evaluate', {
        element: `${toolbar} toolbar`, target: await bar,
        function: '(el) => [...el.querySelectorAll(\'button\')].map((b) => b.innerHTML)',
      }))[1]);
      const i = markup.findIndex((m) => m.includes(icon));
      const lines = snap.split('\n');
      const at = lines.findIndex((l) => l.includes(`- toolbar "${toolbar}"`));
      const buttons = lines.slice(at + 1).filter((l) => /^\s*- button /.test(l));
      const target = i < 0 ? null : (/\[ref=(e\d+)\]/.exec(buttons[i] || '') || [])[1];
      if (!target) throw new TaskError(`playwright: no ${icon} button in the ${toolbar} toolbar`);
      await a.call('browser_click', { element: `${icon} button`, target });
      await PW.find(a, 'Pressed');
    },
    async ariasnap(a, url) {
      await a.call('browser_navigate', { url });
      await AS.look(a);
      const target = refAfter(a, `toolbar "${toolbar}"`, new RegExp(`- button \\[ref=${AREF}\\] \\[icon: [^\\]]*\\b${esc(icon)}\\b`), `${icon} button`);
      await a.act('browser_click', { ref: target }, { named: facts });
    },
  });

  return [
    clickTask({
      id: 'plan-card',
      title: 'plan cards that are clickable divs: choose Pro, read what the page says',
      page: 'html/clickables/cards.html',
      widget: ['.plans', '#status'],
      facts: ['Chosen plan: Pro'],
      element: 'Pro plan card',
      pwFind: 'Chosen plan',
      pw: (a) => containerRef(a.replies().at(-1), 'heading', 'Pro', 'generic'),
      as: (a) => ref(a, 'generic', 'Pro ', () => AS.look(a)),
    }),
    clickTask({
      id: 'recent-tile',
      title: 'tiles with a pointer cursor: open Office chair',
      page: 'html/clickables/cards.html',
      widget: ['.recent', '#status'],
      facts: ['Opened Office chair'],
      element: 'Office chair',
      pwFind: 'Opened',
      pw: (a) => textRef(a, 'generic', 'Office chair'),
      as: (a) => ref(a, 'generic', 'Office chair', () => AS.look(a)),
    }),
    contact('call-contact', 'contact list of href-less links: call Bo Diaz', 'Bo Diaz', 'phone', ['Calling 503-555-0142']),
    contact('mail-contact', 'contact list of href-less links (mousedown): write to Lia Moss', 'Lia Moss', 'email', ['Writing to lia@example.org']),
    stripTab('span-tabs', 'a tab strip of spans: open Security, read its panel', 'Security', '#main-tabs',
      ['Security: password and two-factor sign-in.'], 'Security:'),
    stripTab('view-tabs', 'spans under one delegated listener: switch the view to Week', 'Week', '#view-tabs',
      ['Showing one week.'], 'Showing one'),
    {
      id: 'start-overlay',
      title: 'a full-page START overlay div: dismiss it, then press Go',
      page: 'html/clickables/overlay.html',
      widget: ['#task', '#start'],
      facts: ['Done.'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        await PW.look(a);
        await a.call('browser_click', { element: 'START overlay', target: textRef(a, 'generic', 'START') });
        await a.call('browser_click', { element: 'Go', target: await ref(a, 'button', 'Go', () => PW.look(a)) });
        await PW.find(a, 'Done');
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        await AS.look(a);
        await a.act('browser_click', { ref: await ref(a, 'generic', 'START', () => AS.look(a)) }, { named: [/Removed generic s\d+e\d+ "START"/] });
        await a.act('browser_click', { ref: await ref(a, 'button', 'Go', () => AS.look(a)) }, { named: ['Done.'] });
      },
    },
    {
      id: 'div-submit',
      title: 'a form whose Submit is a styled div: join the newsletter, read the thanks',
      page: 'html/clickables/form.html',
      widget: ['#f', '#thanks'],
      facts: ['Thanks, Ada!'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        const look = () => PW.lookForm(a);
        await look();
        const field = async (name, value) => ({ name, type: 'textbox', target: await ref(a, 'textbox', name, look), value });
        await a.call('browser_fill_form', { fields: [await field('Name', 'Ada'), await field('Email', 'ada@example.org')] });
        await a.call('browser_click', { element: 'Submit', target: textRef(a, 'generic', 'Submit') });
        await PW.find(a, 'Thanks');
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        const look = () => AS.lookForm(a);
        await look();
        await a.act('browser_run_steps', {
          steps: [
            { fill: { ref: await ref(a, 'textbox', 'Name', look), value: 'Ada' } },
            { fill: { ref: await ref(a, 'textbox', 'Email', look), value: 'ada@example.org' } },
            { click: await ref(a, 'generic', 'Submit', look) },
          ],
        }, { named: ['Thanks, Ada!'] });
      },
    },
    // the page says which button was pressed by the length of its markup
    iconButton('icon-trash', 'icon-font toolbar buttons with no name: delete (the trash can)', 'Message', 'trash', ['Pressed 56']),
    iconButton('icon-reply', 'SVG-sprite toolbar buttons with no name: reply', 'Thread', 'reply', ['Pressed 54']),
    {
      id: 'shop-cart',
      title: '200 product cards: find Product 137 and add it to the cart',
      page: 'html/clickables/shop.html',
      widget: ['#grid', '#cart'],
      facts: ['Cart: Product 137'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        await PW.find(a, 'Product 137');
        const target = refAfter(a, 'heading "Product 137"', /- button "Add to cart" \[ref=(e\d+)\]/, 'Add to cart button');
        await a.call('browser_click', { element: 'Add to cart (Product 137)', target });
        await PW.find(a, 'Cart:');
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        // a match hands over the controls of its card
        const t = await AS.find(a, 'Product 137');
        // its lines (the match, then `  controls: button "Add to cart" [ref=...]`), or its
        // JSON (a build before the lines)
        const m = new RegExp(`"Product 137"[^\\n]*\\n {2}controls: [^\\n]*?button "Add to cart" \\[ref=${AREF}\\]`).exec(t) ||
          new RegExp(`"name":"Product 137"[^\\n]*?"controls":\\[\\{"ref":"${AREF}","role":"button","name":"Add to cart"`).exec(t);
        if (!m) throw new TaskError('ariasnap: no Add to cart control with Product 137 in its search');
        await a.act('browser_click', { ref: m[1] }, { named: ['Cart: Product 137'] });
      },
    },
    {
      id: 'react-todos',
      title: 'React-style app (listeners on the root): tick off two todos, read the count',
      page: 'html/clickables/react.html',
      widget: ['.app'],
      facts: ['2 of 3 done'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        await PW.look(a);
        await a.call('browser_click', { element: 'Call the bank', target: textRef(a, 'generic', 'Call the bank') });
        await a.call('browser_click', { element: 'Book the trip', target: textRef(a, 'generic', 'Book the trip') });
        await PW.find(a, 'of 3 done');
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        await AS.look(a);
        await a.act('browser_click', { ref: await ref(a, 'generic', 'Call the bank', () => AS.look(a)) }, { named: ['1 of 3 done'] });
        await a.act('browser_click', { ref: await ref(a, 'generic', 'Book the trip', () => AS.look(a)) }, { named: ['2 of 3 done'] });
      },
    },
    {
      id: 'front-desk',
      title: 'text directly under the body: find the front desk\'s address',
      page: 'html/clickables/contacts.html',
      facts: ['Address: 1874 Small Dr'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        await PW.find(a, 'Front desk');
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        await AS.find(a, 'Front desk');
      },
    },
    {
      id: 'long-terms',
      title: 'terms longer than a text line: read rule 7 whole',
      page: 'html/clickables/long.html',
      facts: ['Rule 7: a reader may borrow up to 9 books for 8 weeks'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        await PW.find(a, 'Terms of use');
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        // a match's context holds at most 200 characters of its block: the match's ref reads
        // the rest (`get`, as a cut snapshot line says: `[cut: +777 chars, get s1e1]`)
        const t = await AS.find(a, 'Terms of use');
        if (t.includes('Rule 7:')) return;
        const m = new RegExp(`^- paragraph(?= |$)[^\\n]*?\\[ref=${AREF}\\]`, 'm').exec(t) ||
          new RegExp(`"ref":"${AREF}","role":"paragraph"`).exec(t);
        if (!m) throw new TaskError('ariasnap: no paragraph with the terms in its search');
        await a.call('browser_run_steps', { steps: [{ get: m[1] }] });
      },
    },
  ];
}

module.exports = { clickablesTasks };
