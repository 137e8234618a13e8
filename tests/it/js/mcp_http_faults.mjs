// Faults of `ariasnap mcp --http` with agents sharing a browser, spoken to by the official
// MCP SDK on the wire WIRE names (mcp_wire.mjs). MODE=hang: one agent starts a long call and
// says so on stdout; the test kills this process mid-call. MODE=cancel: one agent aborts a
// long call (the SDK sends notifications/cancelled on the legacy wire, closes the call's
// stream on the 2026-07-28 one) and makes another. MODE=load: AGENTS agents loop (navigate, snapshot,
// click, read the reply); after ROUNDS_BEFORE rounds each, the browser's processes are
// killed (KILL_PATTERN, matched against command lines by pkill); every agent goes on for
// ROUNDS_AFTER more rounds. Prints one JSON object: each agent's calls and errors.
import { execFileSync } from 'child_process';
import { agent as connect, call as callOn, end } from './mcp_wire.mjs';

const url = new URL(process.env.MCP_URL);
const page = process.env.PAGE;

async function agent(name) {
  const a = await connect(url, name);
  a.calls = [];
  return a;
}
async function call(a, name, args, options) {
  const c = { tool: name, ...(await callOn(a, name, args, options)) };
  a.calls.push(c);
  return c;
}
// one round of the task loop: the page, its tree, a click, and the reply says what changed
async function round(a) {
  await call(a, 'browser_navigate', { url: page });
  const snap = await call(a, 'browser_snapshot', {});
  const ref = (snap.text.match(/button "Count" \[ref=(s\d+e\d+)\]/) || [])[1];
  if (!ref) return;
  const click = await call(a, 'browser_click', { ref });
  if (!click.error && !/Clicked 1/.test(click.text)) click.error = 'reply without the change';
}

if (process.env.MODE === 'hang') {
  const a = await agent('hang');
  await call(a, 'browser_navigate', { url: page });
  console.log('calling');
  const r = await call(a, 'browser_sleep', { ms: Number(process.env.SLEEP_MS || 8000) });
  console.log(JSON.stringify({ ended: true, error: r.error }));
} else if (process.env.MODE === 'cancel') {
  // a 20 s call (a sleep, then a click that must not happen) aborted after 1 s: the SDK
  // sends notifications/cancelled; then the agent's next call and what its page shows
  const a = await agent('cancel');
  const nav = await call(a, 'browser_navigate', { url: page, snapshot: {} });
  const ref = (nav.text.match(/button "Count" \[ref=(s\d+e\d+)\]/) || [])[1];
  const ac = new AbortController();
  const long = call(a, 'browser_run_steps', { steps: [{ sleep: 20000 }, { click: ref }] }, {
    signal: ac.signal,
    timeout: 60000,
  }).then(
      () => 'answered',
      () => 'aborted',
    );
  await new Promise((r) => setTimeout(r, 1000));
  ac.abort('the agent gave up');
  const how = await long;
  const t0 = Date.now();
  const next = await call(a, 'browser_snapshot', {});
  const nextMs = Date.now() - t0;
  await end(a);
  console.log(JSON.stringify({ ref, how, nextMs, next }));
} else {
  const n = Number(process.env.AGENTS || 3);
  const before = Number(process.env.ROUNDS_BEFORE || 2);
  const after = Number(process.env.ROUNDS_AFTER || 3);
  const agents = await Promise.all([...Array(n).keys()].map((i) => agent('load' + i)));
  let done = 0;
  let killed;
  const killedNow = new Promise((r) => (killed = r));
  await Promise.all(
    agents.map(async (a) => {
      for (let i = 0; i < before; i++) await round(a);
      if (++done === n) {
        try {
          execFileSync('pkill', ['-KILL', '-f', process.env.KILL_PATTERN]);
        } catch (e) {
          console.error('pkill found nothing');
        }
        killed();
      }
      await killedNow;
      for (let i = 0; i < after; i++) await round(a);
    }),
  );
  const out = agents.map((a) => ({ calls: a.calls.length, errors: a.calls.filter((c) => c.error) }));
  for (const a of agents) await end(a);
  console.log(JSON.stringify(out));
}
