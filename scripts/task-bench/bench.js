#!/usr/bin/env node
// The task-cost bench (SPEC 8): each task of tasks.js run through `ariasnap mcp` and through
// Playwright MCP, both spoken to by the official MCP SDK's client over stdio, a fresh server
// (and browser) per task and tool. Per task and tool: calls, bytes of tool replies (text
// content as the client receives it; images by their base64 length), bytes of `tools/list`
// (once per task: each task is a new conversation), and whether each fact the task needs was
// inline in a reply's text. Prints a markdown table; writes the figures and every reply to
// --out (default target/task-bench/). A result's structuredContent (ariasnap sends the step
// result JSON there, for programs) is not text content: its bytes are shown apart.
//
// Run it through scripts/task-bench.sh, which builds ariasnap and installs the client and
// Playwright MCP. Options: --tasks id,id  --tools ariasnap,playwright  --ariasnap BIN
// --modules DIR (where node_modules holds the SDK and @playwright/mcp)  --chromium PATH
// --out DIR  --keep-tmp (keep each server's temp dir and log)  --ariasnap-arg ARG (added to
// `ariasnap mcp`'s arguments, repeatable: --ariasnap-arg --structured).
'use strict';
const fs = require('fs');
const path = require('path');
const { serve, Agent, ROOT } = require('./lib');
const { TASKS, TaskError } = require('./tasks');

function options(argv) {
  const o = {
    tasks: null,
    tools: ['ariasnap', 'playwright'],
    ariasnap: path.join(ROOT, 'target', 'release', 'ariasnap'),
    modules: process.env.TASK_BENCH_MODULES || path.join(process.env.HOME || '', '.cache', 'ariasnap', 'task-bench'),
    chromium: process.env.CHROMIUM || '/usr/bin/chromium',
    out: path.join(ROOT, 'target', 'task-bench'),
    keepTmp: false,
    ariasnapArgs: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${k} needs a value`);
      return argv[++i];
    };
    if (k === '--tasks') o.tasks = v().split(',');
    else if (k === '--tools') o.tools = v().split(',');
    else if (k === '--ariasnap') o.ariasnap = path.resolve(v());
    else if (k === '--modules') o.modules = path.resolve(v());
    else if (k === '--chromium') o.chromium = v();
    else if (k === '--out') o.out = path.resolve(v());
    else if (k === '--ariasnap-arg') o.ariasnapArgs.push(v());
    else if (k === '--keep-tmp') o.keepTmp = true;
    else throw new Error(`unknown option ${k} (see the head of ${path.relative(process.cwd(), __filename)})`);
  }
  for (const t of o.tools) {
    if (!['ariasnap', 'playwright'].includes(t)) throw new Error(`unknown tool ${t}: ariasnap or playwright`);
  }
  return o;
}

/** Which facts appear in which reply: [{fact, call}] with the 1-based call, or null. */
function factsInline(calls, facts) {
  return facts.map((fact) => {
    const i = calls.findIndex((c) => c.text.includes(fact));
    return { fact, call: i < 0 ? null : i + 1 };
  });
}

async function runOne(task, tool, o, base) {
  const agent = new Agent(tool, { ...o, task: task.id });
  const t0 = Date.now();
  let error = null;
  try {
    await agent.start();
    await task[tool](agent, base + task.page);
  } catch (e) {
    error = e instanceof TaskError ? e.message : `${e.stack || e}`;
  } finally {
    await agent.stop();
  }
  const replyBytes = agent.calls.reduce((s, c) => s + c.bytes, 0);
  const facts = factsInline(agent.calls, task.facts);
  return {
    task: task.id,
    tool,
    calls: agent.calls.length,
    replyBytes,
    toolsListBytes: agent.toolsListBytes || 0,
    total: replyBytes + (agent.toolsListBytes || 0),
    structuredBytes: agent.calls.reduce((s, c) => s + c.structuredBytes, 0),
    errors: agent.calls.filter((c) => c.isError).length,
    factsInline: facts,
    allInline: facts.every((f) => f.call !== null),
    error,
    seconds: (Date.now() - t0) / 1000,
    transcript: agent.calls,
  };
}

const kb = (n) => (n / 1000).toFixed(1);

function table(results, tools) {
  const lines = [
    '| task | tool | calls | reply bytes | tools/list | total | ratio | facts inline | structuredContent |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
  ];
  const byTask = new Map();
  for (const r of results) {
    if (!byTask.has(r.task)) byTask.set(r.task, {});
    byTask.get(r.task)[r.tool] = r;
  }
  for (const [task, rs] of byTask) {
    const pw = rs.playwright;
    for (const tool of tools) {
      const r = rs[tool];
      if (!r) continue;
      const ratio = pw && tool !== 'playwright' ? (r.total / pw.total).toFixed(2) + 'x' : '';
      const inline = r.factsInline.filter((f) => f.call !== null).length;
      const facts = `${r.allInline ? 'yes' : 'no'} (${inline}/${r.factsInline.length})${r.error ? ' FAILED' : ''}`;
      lines.push(`| ${task} | ${tool} | ${r.calls} | ${r.replyBytes} | ${r.toolsListBytes} | ${r.total} | ${ratio} | ${facts} | ${r.structuredBytes || ''} |`);
    }
  }
  return lines.join('\n');
}

function transcript(r) {
  const out = [`# ${r.task} with ${r.tool}`, ''];
  r.transcript.forEach((c, i) => {
    out.push(`## ${i + 1}. ${c.tool} ${JSON.stringify(c.args)}`, '', `${c.bytes} bytes${c.isError ? ', error' : ''}, ${c.ms} ms`, '', '```', c.text, '```', '');
  });
  if (r.error) out.push(`task failed: ${r.error}`);
  return out.join('\n');
}

async function main() {
  const o = options(process.argv.slice(2));
  const tasks = o.tasks ? TASKS.filter((t) => o.tasks.includes(t.id)) : TASKS;
  if (!tasks.length) throw new Error(`no such task: ${o.tasks} (tasks: ${TASKS.map((t) => t.id).join(', ')})`);
  const server = await serve();
  const results = [];
  try {
    for (const task of tasks) {
      for (const tool of o.tools) {
        process.stderr.write(`task-bench: ${task.id} with ${tool}...`);
        const r = await runOne(task, tool, o, server.url);
        process.stderr.write(` ${r.calls} calls, ${r.total} bytes${r.error ? `, FAILED: ${r.error.split('\n')[0]}` : ''}\n`);
        results.push(r);
      }
    }
  } finally {
    await server.close();
  }
  fs.mkdirSync(path.join(o.out, 'transcripts'), { recursive: true });
  for (const r of results) fs.writeFileSync(path.join(o.out, 'transcripts', `${r.task}-${r.tool}.md`), transcript(r));
  const summary = results.map(({ transcript: _t, ...rest }) => rest);
  const tot = (tool) => results.filter((r) => r.tool === tool).reduce((s, r) => s + r.total, 0);
  const md = table(results, o.tools);
  const report = {
    date: new Date().toISOString(),
    tasks: tasks.map((t) => ({ id: t.id, title: t.title, facts: t.facts })),
    results: summary,
    totals: Object.fromEntries(o.tools.map((t) => [t, tot(t)])),
  };
  fs.writeFileSync(path.join(o.out, 'results.json'), JSON.stringify(report, null, 2));
  console.log(md);
  if (o.tools.length === 2) {
    const worst = Math.max(...tasks.map((t) => {
      const a = results.find((r) => r.task === t.id && r.tool === 'ariasnap');
      const p = results.find((r) => r.task === t.id && r.tool === 'playwright');
      return a.total / p.total;
    }));
    console.log(`\nall tasks: ariasnap ${kb(tot('ariasnap'))} KB, Playwright MCP ${kb(tot('playwright'))} KB (${(tot('ariasnap') / tot('playwright')).toFixed(2)}x); worst task ${worst.toFixed(2)}x`);
  }
  console.log(`results: ${path.relative(process.cwd(), path.join(o.out, 'results.json'))}, replies: ${path.relative(process.cwd(), path.join(o.out, 'transcripts'))}/`);
  if (results.some((r) => r.error)) process.exitCode = 1;
}

main().catch((e) => {
  console.error(`task-bench: ${e.message}`);
  process.exit(2);
});
