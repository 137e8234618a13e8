// Two agents on one `ariasnap mcp --http` server, acting by refs as agents do: A fills the
// checkout (PAGE) and pays, B counts on another page (OTHER). Each agent's steps go into a
// journal of its own (tests/it/replay.rs reads, exports and replays them). Prints one JSON
// object of the replies.
import { agent as connect, call, end } from './mcp_wire.mjs';

const url = new URL(process.env.MCP_URL);
const out = {};
const refOf = (text, line) => {
  const i = text.indexOf(line);
  const m = i < 0 ? null : text.slice(i).match(/\[ref=(s\d+e\d+)\]/);
  if (!m) throw new Error(`no ref for ${line} in:\n${text}`);
  return m[1];
};

const A = await connect(url, 'a');
const B = await connect(url, 'b');
await call(A, 'browser_navigate', { url: process.env.PAGE });
await call(B, 'browser_navigate', { url: process.env.OTHER });
const snap = (await call(A, 'browser_snapshot', {})).text;
out.aFill = await call(A, 'browser_fill', { ref: refOf(snap, 'textbox "Email"'), value: 'ada@example.org' });
out.aCheck = await call(A, 'browser_check', { ref: refOf(snap, 'checkbox "Gift wrap"') });
out.aSelect = await call(A, 'browser_select_option', { ref: refOf(snap, 'combobox "Country"'), values: ['Germany'] });
const other = (await call(B, 'browser_snapshot', {})).text;
out.bClick = await call(B, 'browser_click', { ref: refOf(other, 'button "Count"') });
out.aPay = await call(A, 'browser_click', { ref: refOf(snap, 'button "Pay"') });
await end(A);
await end(B);
console.log(JSON.stringify(out));
