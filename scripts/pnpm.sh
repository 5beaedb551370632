#!/usr/bin/env bash
# Runs the pnpm version pinned in package.json#packageManager, installing it into .tools/ (git-ignored) on first
# use. npm is the only prerequisite: corepack cannot verify the registry's signatures on these machines.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="$(node -p "require('$ROOT/package.json').packageManager.split('@')[1]")"
BIN="$ROOT/.tools/node_modules/.bin/pnpm"
if [[ ! -x "$BIN" ]] || [[ "$("$BIN" --version 2>/dev/null)" != "$VERSION" ]]; then
  echo "[signalbox] installing pnpm $VERSION into .tools/" >&2
  npm install --prefix "$ROOT/.tools" --no-save --no-audit --no-fund --loglevel=error "pnpm@$VERSION" >&2
fi
exec "$BIN" "$@"
