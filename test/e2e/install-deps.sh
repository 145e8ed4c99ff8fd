#!/usr/bin/env bash
# Installs what the editor end-to-end suite needs, from Debian's apt repositories and the npm registry only
# (@vscode/test-electron cannot download VS Code on CI machines without general internet access, so the suite
# drives code-server = VS Code 1.100.3 in Debian's Chromium through playwright-core).
# Idempotent: a second run only checks and takes well under a second.
#   KUBE_NETLINT_E2E_HOME  where code-server + playwright-core go (default ~/.cache/kube-netlint-e2e, outside the
#                          repository so later runs on the same machine reuse it).
# Recipe and pitfalls: /work/shared/e2e/FEASIBILITY.md (probe of the same versions on this kind of machine).
set -euo pipefail
E2E_HOME=${KUBE_NETLINT_E2E_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/kube-netlint-e2e}
CODE_SERVER_VERSION=4.100.3        # = VS Code 1.100.3; the last code-server on npm whose engines allow node 20
PLAYWRIGHT_CORE_VERSION=1.65.1     # pinned: never run `playwright install` (it downloads browsers)
# code-server 4.100.3 pins @vscode/ripgrep 1.15.11, whose postinstall downloads ripgrep v13.0.0-10 from GitHub
# unless it finds the archive in $TMPDIR/vscode-ripgrep-cache-<version>/. We seed it with Debian's rg.
RG_PKG_VERSION=1.15.11
RG_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz

log() { echo "[e2e-install] $*"; }

# One installer at a time per cache folder (two test runs on one machine would otherwise race in npm/apt).
mkdir -p "$E2E_HOME"
exec 9>"$E2E_HOME/.install.lock"
flock 9

# 1. Debian packages (binary:package). libkrb5-dev: headers for the kerberos native module in code-server.
need_apt=()
for pair in chromium:chromium rg:ripgrep krb5-config:libkrb5-dev g++:build-essential make:build-essential \
            pkg-config:pkg-config python3:python3 curl:curl unzip:unzip; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need_apt+=("${pair##*:}")
done
# krb5-config alone can come from another package; check the header the native build includes.
[ -f /usr/include/gssapi/gssapi.h ] || need_apt+=(libkrb5-dev)
if ((${#need_apt[@]})); then
  mapfile -t need_apt < <(printf '%s\n' "${need_apt[@]}" | sort -u)
  log "apt-get install ${need_apt[*]}"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  # apt-get update first: a fresh machine's package lists may be missing or stale.
  apt_log=$(mktemp)
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
           --no-install-recommends "${need_apt[@]}"; } >"$apt_log" 2>&1; then
    tail -40 "$apt_log"; log "apt-get failed (full log: $apt_log)"; exit 1
  fi
  rm -f "$apt_log"
fi

# 2. code-server + playwright-core into $E2E_HOME.
CS_BIN="$E2E_HOME/node_modules/.bin/code-server"
RG_BIN="$E2E_HOME/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg"
PW_PKG="$E2E_HOME/node_modules/playwright-core/package.json"
installed_version() { node -p "require('$1').version" 2>/dev/null || true; }
if [ ! -x "$CS_BIN" ] || [ ! -x "$RG_BIN" ] || [ ! -f "$E2E_HOME/.install-complete" ] \
   || [ "$(installed_version "$E2E_HOME/node_modules/code-server/package.json")" != "$CODE_SERVER_VERSION" ] \
   || [ "$(installed_version "$PW_PKG")" != "$PLAYWRIGHT_CORE_VERSION" ]; then
  log "npm install code-server@$CODE_SERVER_VERSION playwright-core@$PLAYWRIGHT_CORE_VERSION into $E2E_HOME (about 90 s)"
  rm -f "$E2E_HOME/.install-complete"
  mkdir -p "$E2E_HOME/tmp/vscode-ripgrep-cache-$RG_PKG_VERSION"
  tar czf "$E2E_HOME/tmp/vscode-ripgrep-cache-$RG_PKG_VERSION/$RG_ASSET" -C "$(dirname "$(command -v rg)")" rg
  cd "$E2E_HOME"
  [ -f package.json ] || echo '{"name":"kube-netlint-e2e-tools","version":"0.0.0","private":true}' > package.json
  # npm_config_unsafe_perm: code-server's postinstall.sh refuses to run as root unless this env var is set
  #   (npm 11 no longer knows the flag, but the script reads the variable).
  # npm_config_yes: node-pty's postinstall runs `npx node-gyp ...`; an npmrc with yes=false cancels it.
  # npm_config_nodedir: node-gyp uses the local headers (/usr/include/node) instead of downloading them.
  # npm_config_dangerously_allow_all_scripts: npm 11.19 with strict-allow-scripts (announced future default)
  #   refuses the native builds of code-server and of the nested `npm install` its postinstall runs.
  # TMPDIR: where @vscode/ripgrep looks for the seeded archive.
  # The running node's own headers (Debian: /usr/include/node; nvm/tarball installs: <prefix>/include/node).
  node_prefix=$(node -p "require('path').resolve(process.execPath, '..', '..')")
  nodedir=${npm_config_nodedir:-$node_prefix}
  [ -f "$nodedir/include/node/node.h" ] || log "warning: no node headers in $nodedir/include/node; node-gyp will try to download them"
  TMPDIR="$E2E_HOME/tmp" npm_config_unsafe_perm=true npm_config_yes=true \
    npm_config_nodedir="$nodedir" npm_config_dangerously_allow_all_scripts=true \
    npm install --no-audit --no-fund --loglevel=error \
      "code-server@$CODE_SERVER_VERSION" "playwright-core@$PLAYWRIGHT_CORE_VERSION"
  test -x "$RG_BIN" || { log "ripgrep was not installed into code-server ($RG_BIN)"; exit 1; }
  touch "$E2E_HOME/.install-complete"
fi

# 3. Smoke check. Any code-server invocation writes config.yaml and logs under XDG dirs: keep them here.
XDG_CONFIG_HOME="$E2E_HOME/xdg-config" XDG_DATA_HOME="$E2E_HOME/xdg-data" "$CS_BIN" --version >/dev/null
log "ready: code-server $CODE_SERVER_VERSION, playwright-core $PLAYWRIGHT_CORE_VERSION in $E2E_HOME; $(chromium --version 2>/dev/null | head -1)"
