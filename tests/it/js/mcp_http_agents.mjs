// Two agents on one `ariasnap mcp --http` server (one browser, a user context each), spoken to by the official MCP SDK
// on either wire (mcp_wire.mjs: WIRE=legacy sessions, WIRE=modern 2026-07-28 handles): what
// each sees of the other, the counts, and the door (no token, a foreign Origin). Prints one
// JSON object for tests/it/mcp_http.rs.
import { agent as connect, call, end, modern } from './mcp_wire.mjs';

const url = new URL(process.env.MCP_URL);
const page = process.env.PAGE;
const auth = { Authorization: 'Bearer ' + process.env.TOKEN };
const out = {};
const agent = (name) => connect(url, name, auth);
const metrics = async () => {
  const t = await (await fetch(new URL('/metrics', url), { headers: auth })).text();
  const m = {};
  for (const l of t.split('\n')) {
    if (l && !l.startsWith('#')) {
      const [k, v] = l.split(' ');
      m[k] = Number(v);
    }
  }
  return m;
};

const A = await agent('a');
const B = await agent('b');
out.aNavigate = await call(A, 'browser_navigate', { url: page, snapshot: {} });
out.aMarks = await call(A, 'browser_evaluate', {
  expression: "(document.cookie = 'who=A; path=/', localStorage.setItem('who', 'A'), document.cookie)",
});
out.bNavigate = await call(B, 'browser_navigate', { url: page });
out.bSees = await call(B, 'browser_evaluate', {
  expression: "JSON.stringify({cookie: document.cookie, stored: localStorage.getItem('who')})",
});
out.aSees = await call(A, 'browser_evaluate', {
  expression: "JSON.stringify({cookie: document.cookie, stored: localStorage.getItem('who')})",
});
// A's second tab is A's alone; A's refs mean nothing to B
out.aNewTab = await call(A, 'browser_new_tab', { url: process.env.FORM });
out.aTabs = await call(A, 'browser_tabs', {});
out.bTabs = await call(B, 'browser_tabs', {});
out.aForm = await call(A, 'browser_snapshot', {});
const ref = (out.aForm.text.match(/\[ref=(s\d+e\d+)\]/) || [])[1];
out.aRef = ref;
out.bUsesARef = await call(B, 'browser_click', { ref });
// files: an agent names only its own, by relative paths
out.aSavesOutside = await call(A, 'browser_save_state', { path: '/tmp/ariasnap-agent-a.json' });
out.aSaves = await call(A, 'browser_save_state', { path: 'login.json' });
out.bLoadsA = await call(B, 'browser_load_state', { path: 'login.json' });
out.bClimbs = await call(B, 'browser_load_state', { path: '../' + process.env.AGENT_A_GUESS + '/login.json' });
out.during = await metrics();
out.wire = { version: A.version, aHandle: A.handle, bHandle: B.handle, aHandleLines: A.handleLines };
if (modern) {
  // a handle never given names no agent
  out.madeUpHandle = await call({ ...B, handle: 'a-' + '0'.repeat(32) }, 'browser_tabs', {});
}
await end(A);
await end(B);
// the sessions' browsers are closed in the background (modern agents: at the idle timeout)
for (let i = 0; i < 100; i++) {
  out.after = await metrics();
  if (out.after.ariasnap_browsers === 0 && out.after.ariasnap_contexts === 0) break;
  await new Promise((r) => setTimeout(r, 200));
}
if (modern) {
  // ended at the idle timeout: its handle is refused, with what to do
  const again = await agent('a-again');
  again.handle = A.handle;
  out.aAfterEnd = await call(again, 'browser_tabs', {});
  await again.client.close();
}
const post = (headers) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
  });
out.noToken = (await post({})).status;
out.wrongToken = (await post({ Authorization: 'Bearer ' + 'x'.repeat(64) })).status;
out.foreignOrigin = (await post({ ...auth, Origin: 'http://evil.example' })).status;
console.log(JSON.stringify(out));
