// One `ariasnap mcp` (stdio) spoken to by the official MCP SDK (@modelcontextprotocol/sdk),
// for tests/it/trust.rs. ANSWER says what the client does when the server asks its user
// (MCP elicitation): "accept" (allow: true), "decline", or "none" (the client declares no
// elicitation capability). STEPS is a JSON list of [tool, arguments]; "$REF:text" in an
// argument is the ref of the last snapshot's line holding text. Prints one JSON object: each
// call's { error, text }, and the questions the client got.
import { createRequire } from 'module';
const req = createRequire(process.env.SDK_DIR + '/package.json');
const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = req('@modelcontextprotocol/sdk/client/stdio.js');
const { ElicitRequestSchema } = req('@modelcontextprotocol/sdk/types.js');

const answer = process.env.ANSWER || 'none';
const args = JSON.parse(process.env.ARGS || '[]');
const steps = JSON.parse(process.env.STEPS);
const transport = new StdioClientTransport({
  command: process.env.BIN,
  args: ['mcp', ...args],
  env: process.env,
  stderr: 'pipe',
});
let stderr = '';
transport.stderr?.on('data', (d) => (stderr += d));
const caps = answer === 'none' ? {} : { elicitation: { form: {} } };
const client = new Client({ name: 'trust', version: '1.0.0' }, { capabilities: caps });
const questions = [];
if (answer !== 'none') {
  client.setRequestHandler(ElicitRequestSchema, async (r) => {
    questions.push(r.params);
    return answer === 'accept'
      ? { action: 'accept', content: { allow: true } }
      : { action: 'decline' };
  });
}
await client.connect(transport);
const out = { calls: [], questions };
let last = '';
const fill = (v) => {
  if (typeof v === 'string' && v.startsWith('$REF:')) {
    const line = last.split('\n').find((l) => l.includes(v.slice(5))) || '';
    return (line.match(/\[ref=(s\d+e\d+)\]/) || [])[1] || 'no-ref';
  }
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
  }
  return v;
};
for (const [name, a] of steps) {
  const r = await client.callTool({ name, arguments: fill(a) }, undefined, { timeout: 60000 });
  const text = r.content.map((c) => c.text || '').join('\n');
  out.calls.push({ name, error: !!r.isError, text, structured: r.structuredContent });
  if (text.includes('[ref=')) last = text;
}
await client.close();
out.stderr = stderr;
console.log(JSON.stringify(out));
