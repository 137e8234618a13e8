// Two agents on one `ariasnap mcp --http` server (one browser, a user context each), spoken to by the official MCP SDK
// (@modelcontextprotocol/sdk, from SDK_DIR): what each sees of the other, the counts, and
// the door (no token, a foreign Origin). Prints one JSON object for tests/it/mcp_http.rs.
import { createRequire } from 'module';
const req = createRequire(process.env.SDK_DIR + '/package.json');
const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = req('@modelcontextprotocol/sdk/client/streamableHttp.js');

const url = new URL(process.env.MCP_URL);
const page = process.env.PAGE;
const auth = { Authorization: 'Bearer ' + process.env.TOKEN };
const out = {};

async function agent(name) {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: auth } });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}
const text = (r) => r.content.map((c) => c.text || '').join('\n');
const call = async (a, name, args) => {
  const r = await a.client.callTool({ name, arguments: args });
  return { error: !!r.isError, text: text(r) };
};
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
await A.transport.terminateSession();
await B.transport.terminateSession();
await A.client.close();
await B.client.close();
// the sessions' browsers are closed in the background
for (let i = 0; i < 50; i++) {
  out.after = await metrics();
  if (out.after.ariasnap_browsers === 0 && out.after.ariasnap_contexts === 0) break;
  await new Promise((r) => setTimeout(r, 200));
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
