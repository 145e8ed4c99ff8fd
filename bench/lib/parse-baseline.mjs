#!/usr/bin/env node
// parse-baseline.mjs — the yardstick the CLI is compared with: one single-threaded pass of `yaml`'s
// parseAllDocuments with a LineCounter over every *.yaml / *.yml file of a folder (read + parse).
// Usage: node parse-baseline.mjs DIR [--variant node|browser|parser|lexer]
//   node     parseAllDocuments + LineCounter, `yaml`'s Node build (the baseline)
//   browser  the same with `yaml`'s browser build (no process.env lookup per token)
//   parser   yaml's CST Parser only;  lexer  yaml's Lexer only
// Prints one JSON line: {variant, files, documents, bytes, readMs, parseMs, totalMs, maxRssMB}.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { yamlFiles } from './yaml-files.mjs';

const t0 = performance.now();
const args = process.argv.slice(2);
const dir = path.resolve(args[0]);
const variant = args.includes('--variant') ? args[args.indexOf('--variant') + 1] : 'node';
const require = createRequire(import.meta.url);
const nodeEntry = require.resolve('yaml');
const YAML = variant === 'browser'
  ? await import(pathToFileURL(path.join(path.dirname(path.dirname(nodeEntry)), 'browser', 'index.js')).href)
  : await import('yaml');

const r0 = performance.now();
const texts = [...yamlFiles(dir)].map((p) => fs.readFileSync(p, 'utf8'));
const r1 = performance.now();
let documents = 0;
for (const text of texts) {
  if (variant === 'lexer') { for (const _ of new YAML.Lexer().lex(text)) documents += 0; continue; }
  if (variant === 'parser') { for (const tok of new YAML.Parser().parse(text)) if (tok.type === 'document') documents++; continue; }
  const lineCounter = new YAML.LineCounter();
  const docs = YAML.parseAllDocuments(text, { lineCounter });
  documents += Array.isArray(docs) ? docs.length : 0;
}
const r2 = performance.now();
process.stdout.write(JSON.stringify({
  variant, files: texts.length, documents, bytes: texts.reduce((a, t) => a + Buffer.byteLength(t), 0),
  readMs: Math.round(r1 - r0), parseMs: Math.round(r2 - r1), totalMs: Math.round(r2 - t0),
  maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
}) + '\n');
