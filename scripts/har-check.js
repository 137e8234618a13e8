#!/usr/bin/env node
// Checks a HAR file two ways (tests/it/debugging.rs runs it on `network --har`): against the
// HAR 1.2 JSON schema (har-validator, with har-schema's schemas), and by opening it with a HAR
// reader's own parser (pagexray, sitespeed.io's HAR analyzer: `convert` reads the log into
// its pages, requests and status codes; the browser-side HAR viewers, perf-cascade and
// DevTools', need a DOM to load). Both npm packages are pinned in scripts/npm-pins.sh;
// scripts/setup.sh installs them into ~/.cache/ariasnap/har-tools (NODE_PATH points there).
// Prints `schema: ok` and `viewer: ok (N requests)`, or why not (exit 1).
"use strict";
const fs = require("fs");
const file = process.argv[2];
if (!file) {
  console.error("usage: node scripts/har-check.js FILE.har");
  process.exit(2);
}
const har = JSON.parse(fs.readFileSync(file, "utf8"));
(async () => {
  const validate = require("har-validator");
  try {
    await validate.har(har);
    console.log("schema: ok");
  } catch (e) {
    console.log("schema: " + (e.errors ? JSON.stringify(e.errors) : e.message));
    process.exit(1);
  }
  const pages = require("pagexray").convert(har);
  const n = pages.reduce((s, p) => s + p.requests, 0);
  if (pages.length !== har.log.pages.length || n !== har.log.entries.length) {
    console.log(`viewer: ${pages.length} pages, ${n} of ${har.log.entries.length} requests read`);
    process.exit(1);
  }
  const codes = JSON.stringify(pages[0].responseCodes);
  console.log(`viewer: ok (${n} requests; status codes ${codes})`);
})().catch((e) => {
  console.log("error: " + (e && e.stack ? e.stack : e));
  process.exit(1);
});
