// The MCP client of the HTTP tests, on either wire: WIRE=legacy (default) is the official
// SDK v1 (@modelcontextprotocol/sdk: initialize, a session per agent); WIRE=modern is the SDK
// v2 (@modelcontextprotocol/client) negotiating the stateless 2026-07-28 protocol, where an
// agent is the handle its first reply gives (`agent: a-...`), sent back in every call.
// Both packages are found from SDK_DIR (scripts/setup.sh installs them side by side).
import { createRequire } from 'module';
const req = createRequire(process.env.SDK_DIR + '/package.json');
export const modern = process.env.WIRE === 'modern';
const sdk = modern
  ? req('@modelcontextprotocol/client')
  : {
      Client: req('@modelcontextprotocol/sdk/client/index.js').Client,
      StreamableHTTPClientTransport: req('@modelcontextprotocol/sdk/client/streamableHttp.js')
        .StreamableHTTPClientTransport,
    };

export const text = (r) => r.content.map((c) => c.text || '').join('\n');

// A connected agent: { client, transport, version, handle (modern, after its first call) }.
export async function agent(url, name, headers = {}) {
  const transport = new sdk.StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = modern
    ? new sdk.Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
    : new sdk.Client({ name, version: '1.0.0' });
  await client.connect(transport);
  const version = client.getNegotiatedProtocolVersion ? client.getNegotiatedProtocolVersion() : undefined;
  return { client, transport, version, handle: undefined, handleLines: 0 };
}

// A tool call: { error, text } (the handle line taken off the text and kept); `options` go
// to the SDK (signal, timeout).
export async function call(a, name, args, options = { timeout: 60000 }) {
  const withHandle = a.handle ? { ...args, agent: a.handle } : args;
  const params = { name, arguments: withHandle };
  // v1 takes (params, resultSchema, options), v2 (params, options)
  const r = modern
    ? await a.client.callTool(params, options)
    : await a.client.callTool(params, undefined, options);
  let t = text(r);
  const m = t.match(/^agent: (a-[0-9a-f]{32}) .*\n?/);
  if (m) {
    a.handle = a.handle || m[1];
    a.handleLines += 1;
    t = t.slice(m[0].length);
  }
  return { error: !!r.isError, text: t };
}

// Ends an agent: its session (legacy; a modern agent ends at the idle timeout), its client.
export async function end(a) {
  if (!modern) await a.transport.terminateSession();
  await a.client.close();
}
