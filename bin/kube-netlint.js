#!/usr/bin/env node
// Runs the bundled CLI in dist/ (built by `npm run build`; `npm pack` builds it through `prepack`, so the published package ships it).
require('../dist/cli.js');
