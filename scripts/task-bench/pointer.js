// Tasks on the pointer fixtures (fixtures/html/pointer/, issue 53): targets partly covered
// or inside scroll containers, a disabled text area read to its end, a jQuery UI sortable
// list, HTML drag and drop, jQuery UI's slider, spinner and dialog, Bootstrap's dropdown,
// tabs and modal, and a Vue app. The widget libraries come from /vendor/
// (docs/contributing.md#widget-libraries). Each agent reads only its tool's replies and acts
// by the refs in them, with its own tool set (Playwright MCP: browser_drag, browser_press_key,
// browser_evaluate where it has no other way; ariasnap: browser_set, and the drag and scroll
// actions through browser_run_steps, the core tool set's door to every action).
'use strict';

/** The pointer tasks, built with the helpers of tasks.js: {widgetTask, ref, AS, PW, stateRe}. */
function pointerTasks({ widgetTask, ref, AS, PW, stateRe, TaskError }) {
  // Playwright prints a nameless element's text after its ref: `- listitem [ref=e7]: Storm`,
  // `- generic [ref=e9]: Stove`; the ref of the last such line among the replies.
  const textRef = (a, role, text) => {
    const re = new RegExp(`- ${role} \\[ref=(e\\d+)\\][^\\n]*: ${text}\\s*$`, 'm');
    const texts = a.replies();
    for (let i = texts.length - 1; i >= 0; i--) {
      const m = re.exec(texts[i]);
      if (m) return m[1];
    }
    throw new TaskError(`${a.tool}: no ref for ${role} "${text}" in its replies`);
  };
  // ariasnap: the ref of the first match of browser_search (refs are minted for what it
  // finds; a list item's text is its match's context, not a name)
  const searched = async (a, text, role) => {
    const t = await AS.find(a, text, role);
    // a match's line (`- listitem [ref=s1e4] ...`), or its JSON (a build before the lines)
    const m = new RegExp(`^- ${role}(?= |$)[^\\n]*?\\[ref=((?:f\\d+)?s\\d+e\\d+)\\]`, 'm').exec(t) ||
      new RegExp(`"ref":"((?:f\\d+)?s\\d+e\\d+)","role":"${role}"`).exec(t);
    if (!m) throw new TaskError(`${a.tool}: no ${role} "${text}" in its search`);
    return m[1];
  };
  // ariasnap: the ref of the element a snapshot shows by `text`, as its name
  // (`- button "Stove" [ref=s1e5]`) or as its text (`- group [ref=s1e5]: Stove`: a
  // draggable div is a group, as in Chromium's tree; `- generic [ref=s1e5]: Stove`: a
  // generic is never named), in the newest reply that has it
  const shownRef = (a, text) => {
    const texts = a.replies();
    for (let i = texts.length - 1; i >= 0; i--) {
      for (const l of texts[i].split('\n')) {
        const m = /^\s*- [a-z]+( "[^"]*")?[^\n]*?\[ref=((?:f\d+)?s\d+e\d+)\](?: \[[^\]]*\])*(?:: (.*))?$/.exec(l);
        if (m && (m[1] === ` "${text}"` || (m[3] || '').trim() === text)) return m[2];
      }
    }
    throw new TaskError(`${a.tool}: no ref for "${text}" in its replies`);
  };
  // ariasnap: the ref of the slider handle a snapshot shows (`- generic [ref=s1e4]: 20%`)
  const handleRef = (a) => {
    const texts = a.replies();
    for (let i = texts.length - 1; i >= 0; i--) {
      const m = /- generic \[ref=((?:f\d+)?s\d+e\d+)\]: \d+%$/m.exec(texts[i]);
      if (m) return m[1];
    }
    throw new TaskError(`${a.tool}: no slider handle in its replies`);
  };

  const click = (id, title, page, widget, find, facts, named, more = {}) => widgetTask({
    id, title, page, widget, facts,
    find,
    // these pages have no main landmark: Playwright looks at the whole page after its click
    steps: [{ role: find[1], name: find[2] || find[0], pw: 'click', pwLook: 'page', as: 'click', named }],
    ...more,
  });

  return [
    click('overlap', 'overlapping buttons: click ONE, half under TWO',
      'html/pointer/overlap.html', ['#one', '#log'], ['ONE', 'button'],
      ['click one trusted'], ['click one trusted'], { asLook: (a) => AS.find(a, 'click one') }),
    click('wrapped-link', 'a link that wraps over two lines: follow "the release notes"',
      'html/pointer/overlap.html', ['#wrap', '#log'], ['the release notes', 'link'],
      ['click more trusted'], ['click more trusted'], { asLook: (a) => AS.find(a, 'click more') }),
    click('scroll-box', 'a button below the fold of a scrolling box inside another: I accept',
      'html/pointer/scroll-box.html', ['#terms', '#status'], ['I accept', 'button'],
      ['Accepted (trusted)'], ['Accepted (trusted)'], { asLook: (a) => AS.find(a, 'Accepted') }),
    click('scroll-strip', 'a button right of a horizontally scrolling strip: Reset filters',
      'html/pointer/scroll-box.html', ['#strip', '#status'], ['Reset filters', 'button'],
      ['Filters reset'], ['Filters reset'], { asLook: (a) => AS.find(a, 'Filters reset') }),
    {
      id: 'licence',
      title: 'disabled text area: scroll the licence to its end, then tick "I have read the licence"',
      page: 'html/pointer/scroll-box.html',
      widget: ['#licence', '#read'],
      facts: [stateRe('checkbox', 'I have read the licence', 'checked')],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        await PW.find(a, 'Licence');
        const licence = await ref(a, 'textbox', 'Licence', () => PW.look(a));
        // a disabled field takes no focus and no keys: Playwright MCP scrolls it by script
        await a.call('browser_evaluate', {
          element: 'Licence', target: licence,
          function: '(el) => { el.scrollTop = el.scrollHeight; return el.value.slice(-40); }',
        });
        await PW.find(a, 'I have read the licence');
        await a.call('browser_click', { element: 'I have read the licence', target: await ref(a, 'checkbox', 'I have read the licence', () => PW.look(a)) });
        await PW.find(a, 'I have read the licence'); // its click's reply links to a snapshot file
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        const look = () => AS.lookForm(a);
        await look();
        const licence = await ref(a, 'textbox', 'Licence', look);
        // one look at how far a scroll goes, then the rest of the way at once
        let t = await a.act('browser_run_steps', { steps: [{ scroll: { ref: licence, direction: 'down' } }] },
          { named: ['Scrolled textbox "Licence" down'] });
        if (!t.includes('to its end')) {
          t = await a.act('browser_run_steps', { steps: [{ scroll: { ref: licence, direction: 'down', amount: 100000 } }] },
            { named: ['Scrolled textbox "Licence" down', 'to its end'] });
        }
        const box = await ref(a, 'checkbox', 'I have read the licence', look);
        await a.act('browser_set', { ref: box, value: true }, { named: [stateRe('checkbox', 'I have read the licence', 'checked')] });
      },
    },
    {
      id: 'sortable',
      title: 'jQuery UI sortable list: drag Departure to the top, read the order',
      page: 'html/pointer/sortable.html',
      widget: ['#chapters', '#order'],
      facts: ['Order: Departure, Arrival, The harbour, Storm'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        await PW.look(a);
        await a.call('browser_drag', {
          startElement: 'Departure', startTarget: textRef(a, 'listitem', 'Departure'),
          endElement: 'Arrival', endTarget: textRef(a, 'listitem', 'Arrival'),
        });
        await PW.find(a, 'Order:');
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        const from = await searched(a, 'Departure', 'listitem');
        const to = await searched(a, 'Arrival', 'listitem');
        await a.act('browser_run_steps', { steps: [{ drag: { from, to } }] }, { named: ['Order: Departure, Arrival, The harbour, Storm'] });
      },
    },
    {
      id: 'drag-drop',
      title: 'HTML drag and drop: pack the stove into the rucksack',
      page: 'html/pointer/dnd.html',
      widget: ['#home', '#pack', '#status'],
      facts: ['Stove moved to Rucksack'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        await PW.look(a);
        await a.call('browser_drag', {
          startElement: 'Stove', startTarget: textRef(a, 'generic', 'Stove'),
          endElement: 'Rucksack', endTarget: await ref(a, 'region', 'Rucksack', () => PW.look(a)),
        });
        await PW.find(a, 'moved to'); // its drag's reply links to a snapshot file
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        await AS.look(a);
        const stove = shownRef(a, 'Stove');
        const zone = await searched(a, 'Rucksack', 'region');
        await a.act('browser_run_steps', { steps: [{ drag: { from: stove, to: zone } }] }, { named: ['Stove moved to Rucksack'] });
      },
    },
    {
      id: 'jq-slider',
      title: 'jQuery UI slider (no ARIA): set the alert volume to 50',
      page: 'html/pointer/jquery-ui.html',
      widget: ['.row'],
      facts: ['Alert volume: 50'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        await PW.look(a);
        // the handle, the one generic with a ref next to "Alert volume"; 20 to 50 in steps of 5
        const handle = /- generic \[ref=(e\d+)\](?: \[cursor=pointer\])?\s*$/m.exec(a.replies().at(-1));
        if (!handle) throw new TaskError('playwright: no slider handle in its snapshot');
        await a.call('browser_click', { element: 'volume slider handle', target: handle[1] });
        for (let i = 0; i < 6; i++) await a.call('browser_press_key', { key: 'ArrowRight' });
        await PW.find(a, 'Alert volume');
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        await AS.look(a);
        await a.act('browser_set', { ref: handleRef(a), value: '50' }, { named: ['Alert volume: 50', 'value "50%"'] });
      },
    },
    {
      id: 'jq-spinner',
      title: 'jQuery UI spinner: 5 nights, read what the page says',
      page: 'html/pointer/jquery-ui.html',
      widget: ['.ui-spinner', '#nights-shown'],
      facts: ['5 nights'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        await PW.find(a, 'Nights');
        const nights = await ref(a, 'spinbutton', 'Nights', () => PW.look(a));
        await a.call('browser_type', { element: 'Nights', target: nights, text: '5' });
        // the spinner tells the page on change: leave the field
        await a.call('browser_press_key', { key: 'Tab' });
        await PW.find(a, 'nights');
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        const nights = await searched(a, 'Nights', 'spinbutton');
        await a.act('browser_set', { ref: nights, value: 5 }, { named: ['value "5"', '5 nights'] });
      },
    },
    widgetTask({
      id: 'jq-dialog',
      title: 'jQuery UI dialog: open the terms, close them with the icon button',
      page: 'html/pointer/jquery-ui.html',
      widget: ['.ui-dialog', '#open-terms', '#dialog-state'],
      facts: ['Terms closed'],
      find: ['Show the terms', 'button'],
      steps: [
        { role: 'button', name: 'Show the terms', pw: 'click', as: 'click', named: ['dialog "Terms of travel"', 'button "Close"'] },
        { role: 'button', name: 'Close', pw: 'click', pwLook: 'page', as: 'click', named: ['Terms closed'] },
      ],
      asLook: (a) => AS.find(a, 'Terms closed'),
    }),
    widgetTask({
      id: 'bs-dropdown',
      title: 'Bootstrap dropdown: sort by nearest to the lake',
      page: 'html/pointer/bootstrap.html',
      widget: ['.dropdown', '#sorted'],
      facts: ['Sorted by: Nearest to the lake'],
      find: ['Sort by', 'button'],
      steps: [
        { role: 'button', name: 'Sort by', pw: 'click', pwLook: 'page', as: 'click', named: [stateRe('button', 'Sort by', 'expanded'), 'button "Nearest to the lake"'] },
        { role: 'button', name: 'Nearest to the lake', pw: 'click', pwLook: 'page', as: 'click', named: ['Sorted by: Nearest to the lake'] },
      ],
      asLook: (a) => AS.find(a, 'Sorted by'),
    }),
    widgetTask({
      id: 'bs-tabs',
      title: 'Bootstrap tabs: open House rules, read the quiet hours',
      page: 'html/pointer/bootstrap.html',
      widget: ['.nav-tabs', '.tab-content'],
      facts: ['Quiet hours run from 10pm to 7am'],
      find: ['House rules', 'tab'],
      steps: [{ role: 'tab', name: 'House rules', pw: 'click', pwLook: 'page', as: 'click', named: [stateRe('tab', 'House rules', 'selected'), 'Quiet hours'] }],
      asLook: (a) => AS.find(a, 'Quiet hours'),
    }),
    widgetTask({
      id: 'bs-modal',
      title: 'Bootstrap modal: book the cabin, confirm, read the reference',
      page: 'html/pointer/bootstrap.html',
      // the modal's backdrop at the end of the body is the modal's (clicking it closes it)
      widget: ['#confirm', '#booked', '.modal-backdrop'],
      facts: ['Booked: reference LK-2048'],
      find: ['Book this cabin', 'button'],
      steps: [
        { role: 'button', name: 'Book this cabin', pw: 'click', pwLook: 'page', as: 'click', named: ['dialog "Confirm your booking"', 'button "Confirm booking"'] },
        { role: 'button', name: 'Confirm booking', pw: 'click', pwLook: 'page', as: 'click', named: ['Booked: reference LK-2048'] },
      ],
      asLook: (a) => AS.find(a, 'Booked'),
    }),
    {
      id: 'vue-list',
      title: 'Vue app: add oat milk, tick the bread off, read what is left',
      page: 'html/pointer/vue-app.html',
      widget: ['#app'],
      facts: ['2 of 3 items left to get'],
      async playwright(a, url) {
        await a.call('browser_navigate', { url });
        const look = () => PW.look(a);
        await look();
        await a.call('browser_type', { element: 'New item', target: await ref(a, 'textbox', 'New item', look), text: 'oat milk', submit: true });
        await a.call('browser_click', { element: 'Got bread', target: await ref(a, 'checkbox', 'Got bread', look) });
        await PW.find(a, 'items left');
      },
      async ariasnap(a, url) {
        await a.call('browser_navigate', { url });
        const look = () => AS.lookForm(a);
        await look();
        await a.act('browser_run_steps', {
          steps: [
            { fill: { ref: await ref(a, 'textbox', 'New item', look), value: 'oat milk' } },
            { click: await ref(a, 'button', 'Add', look) },
            { set: { ref: await ref(a, 'checkbox', 'Got bread', look), value: true } },
          ],
        }, { named: ['2 of 3 items left to get'] });
      },
    },
  ];
}

module.exports = { pointerTasks };
