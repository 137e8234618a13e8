#!/usr/bin/env node
// The task-cost bench (BENCHMARKS.md#task-cost): each task of tasks.js run through `ariasnap mcp` and through
// Playwright MCP, both spoken to by the official MCP SDK's client over stdio, a fresh server
// (and browser) per task and tool. Per task and tool: calls, bytes of tool replies (text
// content as the client receives it; images by their base64 length), bytes of `tools/list`
// (once per task: each task is a new conversation), and whether each fact the task needs was
// inline in a reply's text. Prints a markdown table; writes the figures and every reply to
// --out (default target/task-bench/). A result's structuredContent (ariasnap sends the step
// result JSON there, for programs) is not text content: its bytes are shown apart.
//
//
// Per ariasnap action reply, two more checks (tasks.js marks the actions): change named,
// whether the words that name the change that matters are in the reply's text (MCP) and in
// its changes.summary (what the CLI prints); outside entries, how many entries of the JSON
// `changes` (added, removed, changed) are about elements outside the widget acted on, decided
// by an oracle that is not counted: uncounted JSON snapshots of the widget's container (CSS
// selectors) before and after the action. For both, ariasnap runs with --structured (its
// step result JSON as structuredContent, never counted in the bytes; the text is the same).
//
// Run it through scripts/task-bench.sh, which builds ariasnap and installs the client and
// Playwright MCP. Options: --tasks id,id  --tools ariasnap,playwright  --ariasnap BIN
// --modules DIR (where node_modules holds the SDK and @playwright/mcp)  --chromium PATH
// --out DIR  --keep-tmp (keep each server's temp dir and log)  --ariasnap-arg ARG (added to
// `ariasnap mcp`'s arguments, repeatable)  --no-oracle (no --structured, no widget snapshots:
// the conversation exactly as an agent has it, without the two checks).
'use strict';
const fs = require('fs');
const path = require('path');
const { serve, Agent, ROOT, factLabel, factsInline, benchOptions } = require('./lib');
const { TASKS, TaskError } = require('./tasks');

function options(argv) {
  const o = benchOptions(argv, {
    tools: ['ariasnap', 'playwright'],
    out: path.join(ROOT, 'target', 'task-bench'),
    keepTmp: false,
    noOracle: false,
  }, (o, k, v) => {
    if (k === '--tools') o.tools = v().split(',');
    else if (k === '--ariasnap-arg') o.ariasnapArgs.push(v());
    else if (k === '--keep-tmp') o.keepTmp = true;
    else if (k === '--no-oracle') o.noOracle = true;
    else return false;
    return true;
  }, __filename);
  for (const t of o.tools) {
    if (!['ariasnap', 'playwright'].includes(t)) throw new Error(`unknown tool ${t}: ariasnap or playwright`);
  }
  if (!o.noOracle && !o.ariasnapArgs.includes('--structured')) o.ariasnapArgs.push('--structured');
  return o;
}

/** The checks of a run's action replies: change named (MCP text, CLI summary) and outside
 * entries, or null when the run has no checked actions. */
function checks(calls) {
  const acts = calls.map((c, i) => ({ ...c, n: i + 1 })).filter((c) => c.check);
  if (!acts.length) return null;
  const outs = acts.filter((c) => c.check.outside);
  return {
    actions: acts.length,
    named: acts.filter((c) => !c.check.missing.length).length,
    // null when no reply carried its JSON (a run with --no-oracle)
    cliNamed: acts.every((c) => c.check.cliMissing === null) ? null
      : acts.filter((c) => c.check.cliMissing && !c.check.cliMissing.length).length,
    missing: acts.filter((c) => c.check.missing.length || (c.check.cliMissing || []).length)
      .map((c) => ({ call: c.n, tool: c.tool, missing: c.check.missing, cliMissing: c.check.cliMissing })),
    outside: outs.length ? {
      max: Math.max(...outs.map((c) => c.check.outside.length)),
      total: outs.reduce((s, c) => s + c.check.outside.length, 0),
      entries: outs.filter((c) => c.check.outside.length).map((c) => ({ call: c.n, tool: c.tool, entries: c.check.outside })),
    } : null,
  };
}

async function runOne(task, tool, o, base) {
  const agent = new Agent(tool, { ...o, task: task.id, widget: task.widget });
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
    checks: checks(agent.calls),
    error,
    seconds: (Date.now() - t0) / 1000,
    transcript: agent.calls,
  };
}

const kb = (n) => (n / 1000).toFixed(1);

/** The change-named cell: actions whose MCP text names the change, of all checked actions
 * (and the CLI summary's count when it differs). */
function namedCell(c) {
  if (!c) return '';
  const cli = c.cliNamed !== null && c.cliNamed !== c.named ? ` (CLI ${c.cliNamed}/${c.actions})` : '';
  return `${c.named}/${c.actions}${cli}`;
}

/** The outside cell: the most entries outside the widget in one reply, and the task's total. */
function outsideCell(c) {
  if (!c || !c.outside) return '';
  return `${c.outside.max} / ${c.outside.total}`;
}

function table(results, tools) {
  const lines = [
    '| task | tool | calls | reply bytes | tools/list | total | ratio | facts inline | change named | outside (max / total) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
  ];
  const byTask = new Map();
  for (const r of results) {
    if (!byTask.has(r.task)) byTask.set(r.task, {});
    byTask.get(r.task)[r.tool] = r;
  }
  const n = (x) => x.toLocaleString('en-US');
  for (const [task, rs] of byTask) {
    const pw = rs.playwright;
    for (const tool of tools) {
      const r = rs[tool];
      if (!r) continue;
      const ratio = pw && tool !== 'playwright' ? (r.total / pw.total).toFixed(2) + 'x' : '';
      const inline = r.factsInline.filter((f) => f.call !== null).length;
      const facts = `${r.allInline ? 'yes' : 'no'} (${inline}/${r.factsInline.length})${r.error ? ' FAILED' : ''}`;
      const name = tool === 'playwright' ? 'Playwright MCP' : tool;
      lines.push(`| ${task} | ${name} | ${r.calls} | ${n(r.replyBytes)} | ${n(r.toolsListBytes)} | ${n(r.total)} | ${ratio} | ${facts} | ${namedCell(r.checks)} | ${outsideCell(r.checks)} |`);
    }
  }
  return lines.join('\n');
}

/** Tasks that miss a goal of issue 42: reached, every fact inline, the change named in every
 * reply (MCP and CLI), no entry outside the widget, at most 0.25x Playwright MCP's bytes. */
function goals(results) {
  const out = [];
  for (const a of results.filter((r) => r.tool === 'ariasnap')) {
    const p = results.find((r) => r.task === a.task && r.tool === 'playwright');
    const miss = [];
    if (a.error) miss.push('not reached');
    if (!a.allInline) miss.push('facts not inline');
    const c = a.checks;
    if (c && (c.named < c.actions || (c.cliNamed !== null && c.cliNamed < c.actions))) miss.push(`change named ${namedCell(c)}`);
    if (c && c.outside && c.outside.total) miss.push(`${c.outside.total} outside entries`);
    if (p && a.total > 0.25 * p.total) miss.push(`${(a.total / p.total).toFixed(2)}x`);
    if (miss.length) out.push(`${a.task}: ${miss.join(', ')}`);
  }
  return out;
}

function transcript(r) {
  const out = [`# ${r.task} with ${r.tool}`, ''];
  r.transcript.forEach((c, i) => {
    out.push(`## ${i + 1}. ${c.tool} ${JSON.stringify(c.args)}`, '', `${c.bytes} bytes${c.isError ? ', error' : ''}, ${c.ms} ms`, '', '```', c.text, '```', '');
    if (c.check) {
      const k = c.check;
      out.push(`Checks (not counted): change named ${k.missing.length ? `NO, missing ${k.missing.join(', ')}` : 'yes'}`
        + `${k.cliMissing && k.cliMissing.length ? `; CLI summary missing ${k.cliMissing.join(', ')}` : ''}`
        + `${k.outside ? `; outside the widget: ${k.outside.length ? JSON.stringify(k.outside) : 'none'}` : ''}`, '');
      if (k.changes) out.push('changes JSON (structuredContent, not counted):', '', '```json', JSON.stringify(k.changes), '```', '');
    }
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
  const missed = goals(results);
  const tot = (tool) => results.filter((r) => r.tool === tool).reduce((s, r) => s + r.total, 0);
  const md = table(results, o.tools);
  const report = {
    date: new Date().toISOString(),
    tasks: tasks.map((t) => ({ id: t.id, title: t.title, page: t.page, widget: t.widget || null, facts: t.facts.map(factLabel) })),
    results: summary,
    totals: Object.fromEntries(o.tools.map((t) => [t, tot(t)])),
    goalsMissed: missed,
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
    console.log(missed.length ? `goals missed (issue 42): ${missed.join('; ')}` : 'goals (issue 42): met on every task');
  }
  console.log(`results: ${path.relative(process.cwd(), path.join(o.out, 'results.json'))}, replies: ${path.relative(process.cwd(), path.join(o.out, 'transcripts'))}/`);
  if (results.some((r) => r.error)) process.exitCode = 1;
}

main().catch((e) => {
  console.error(`task-bench: ${e.message}`);
  process.exit(2);
});
