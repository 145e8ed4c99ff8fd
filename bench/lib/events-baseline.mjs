#!/usr/bin/env node
// events-baseline.mjs — the second yardstick: one single-threaded pass of js-yaml 5's `parseEvents` (a full
// YAML event stream with source offsets: all a linter needs to build its own objects with exact spans) over
// every *.yaml / *.yml file of a folder, read + parse, as a fresh process. js-yaml is also the loader's parser (server/src/core/load/event-compose.ts).
// Usage: node events-baseline.mjs DIR
// Prints one JSON line: {files, events, errors, bytes, readMs, parseMs, totalMs, maxRssMB}.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
// js-yaml's CommonJS build, the fastest it has: its ES module build (what `import` would pick) builds the parser
// state with object spread, and V8 runs `parseEvents` on that state 3-4x slower (docs/performance.md). The
// CLI's bundles take the CommonJS build too (scripts/bundle.mjs).
const { parseEvents } = createRequire(import.meta.url)('js-yaml');
import { yamlFiles } from './yaml-files.mjs';

const t0 = performance.now();
const dir = path.resolve(process.argv[2]);
const r0 = performance.now();
const texts = [...yamlFiles(dir)].map((p) => fs.readFileSync(p, 'utf8'));
const r1 = performance.now();
let events = 0;
let errors = 0;
for (const text of texts) {
  try {
    // maxDepth as kube-netlint's nesting limit (js-yaml's default of 100 refuses deep CRD schemas).
    events += parseEvents(text, { maxDepth: 256 }).length;
  } catch {
    errors++;
  }
}
const r2 = performance.now();
process.stdout.write(JSON.stringify({
  files: texts.length, events, errors, bytes: texts.reduce((a, t) => a + Buffer.byteLength(t), 0),
  readMs: Math.round(r1 - r0), parseMs: Math.round(r2 - r1), totalMs: Math.round(r2 - t0),
  maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
}) + '\n');
