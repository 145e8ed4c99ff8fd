#!/usr/bin/env node
// The kube-netlint language server for any LSP editor: `kube-netlint-language-server --stdio`
// (also --node-ipc, --socket=PORT, --pipe=NAME). Runs the bundled server built by `npm run build`.
require('../dist/server.js');
