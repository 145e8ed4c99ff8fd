#!/usr/bin/env bash
# Installs Debian's neovim (0.7.x on bookworm) for test/nvim/, the second real LSP client.
# Idempotent: does nothing when `nvim` is already on PATH. Needs root and Debian's apt repositories.
set -euo pipefail
if command -v nvim >/dev/null 2>&1; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -qq --no-install-recommends neovim >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends neovim
fi
command -v nvim >/dev/null
