#!/usr/bin/env bash
# The GitHub Action's step (action.yml): builds kube-netlint in the action's folder when it is a source checkout,
# then runs `kube-netlint --format sarif --output FILE` on the inputs and sets the `sarif-file` output.
# Inputs come as INPUT_PATHS, INPUT_SARIF_FILE, INPUT_FAIL_ON, INPUT_ARGS; GITHUB_ACTION_PATH is the action's
# folder and GITHUB_OUTPUT the step's output file (test/integrations/action.test.ts runs it the same way).
set -euo pipefail
action="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set: run this script as the kube-netlint action}"
if [[ ! -f "$action/dist/cli.js" ]]; then
  echo "kube-netlint: building the CLI in $action (npm ci && npm run build)" >&2
  (cd "$action" && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent) >&2
fi
sarif="${INPUT_SARIF_FILE:-kube-netlint.sarif}"
read -r -a paths <<<"${INPUT_PATHS:-.}"
read -r -a args <<<"${INPUT_ARGS:-}"
status=0
node "$action/bin/kube-netlint.js" --format sarif --output "$sarif" --fail-on "${INPUT_FAIL_ON:-error}" "${args[@]}" "${paths[@]}" || status=$?
if [[ -n "${GITHUB_OUTPUT:-}" ]]; then echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"; fi
# A one-line summary in the log; the findings are in the SARIF file (and in code scanning once uploaded).
if [[ -f "$sarif" ]]; then
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs[0].results; const n = (l) => r.filter((x) => x.level === l).length; console.log(`kube-netlint: ${r.length} findings (${n("error")} errors, ${n("warning")} warnings, ${n("note")} notes) in ${process.argv[1]}`)' "$sarif"
fi
exit "$status"
