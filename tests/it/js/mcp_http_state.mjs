// Four agents on one `ariasnap mcp --http --state FILE` server, spoken to by the official
// MCP SDK (mcp_wire.mjs): each opens the account page its saved login signs in to, the
// first signs out, and each looks again. Prints one JSON object for tests/it/trust.rs:
// what each saw before and after, by agent.
import { agent as connect, call, end } from './mcp_wire.mjs';

const url = new URL(process.env.MCP_URL);
const page = process.env.PAGE;
const auth = { Authorization: 'Bearer ' + process.env.TOKEN };
const status = (t) => (t.match(/heading "([^"]*)"/) || [])[1] || t;
const names = ['a', 'b', 'c', 'd'];
const agents = await Promise.all(names.map((n) => connect(url, n, auth)));
const out = { before: {}, after: {}, signOut: null };
// one at a time: each agent's first call makes its user context
for (const [i, A] of agents.entries()) {
  const r = await call(A, 'browser_navigate', { url: page, snapshot: {} });
  out.before[names[i]] = r.error ? r.text : status(r.text);
}
const snap = await call(agents[0], 'browser_snapshot', {});
const ref = (snap.text.match(/button "Sign out" \[ref=(s\d+e\d+)\]/) || [])[1];
out.signOut = await call(agents[0], 'browser_click', { ref });
for (const [i, A] of agents.entries()) {
  const r = await call(A, 'browser_navigate', { url: page, snapshot: {} });
  out.after[names[i]] = r.error ? r.text : status(r.text);
}
for (const A of agents) await end(A);
console.log(JSON.stringify(out));
