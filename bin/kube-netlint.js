#!/usr/bin/env node
// Runs the bundled CLI (dist/, built by `npm run build`, which `npm install` runs through `prepare`).
require('../dist/cli.js');
