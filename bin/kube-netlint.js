#!/usr/bin/env node
// Runs the bundled CLI in dist/ (built by `npm run build`; `npm pack` builds it through `prepack`, so the published package ships it).
if (process.argv.length === 3 && process.argv[2] === '--version') {
  // Answered here, without compiling the 1.6 MB bundle (start-up budget 150 ms): the version of the package.json
  // beside bin/ (the clone or the installed package), else the bundle's own answer.
  let version;
  try {
    const pkg = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8'));
    if (pkg.name === 'kube-netlint' && typeof pkg.version === 'string') version = pkg.version;
  } catch {
    // no readable package.json here: the bundle finds it
  }
  if (version !== undefined) process.stdout.write(`${version}\n`);
  else require('../dist/cli.js');
} else {
  require('../dist/cli.js');
}
