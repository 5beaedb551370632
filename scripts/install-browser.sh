#!/usr/bin/env bash
# Installs the Chromium the trace viewer's browser tests drive (services/api/src/viewer/viewer.browser.test.ts).
# Idempotent: does nothing when the browser is already there ($CHROMIUM_PATH, default /usr/bin/chromium).
# Otherwise installs Debian's chromium package with apt-get (through sudo when not root); the package lists are
# refreshed only if the first attempt fails.
set -euo pipefail
CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [[ -x "$CHROMIUM_PATH" ]]; then
  echo "[signalbox] Chromium is installed: $CHROMIUM_PATH" >&2
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "[signalbox] Chromium is missing at $CHROMIUM_PATH and apt-get is not available: install Chromium or Chrome" \
    "with this system's package manager and point CHROMIUM_PATH at it" >&2
  exit 1
fi
SUDO=()
if [[ "$(id -u)" -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "[signalbox] installing Chromium needs root: run this script as root or install sudo" >&2
    exit 1
  fi
  SUDO=(sudo)
fi
apt_install() {
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
}
echo "[signalbox] installing Chromium (apt-get install chromium)" >&2
if ! apt_install; then
  "${SUDO[@]}" apt-get update
  apt_install
fi
if [[ ! -x "$CHROMIUM_PATH" ]]; then
  echo "[signalbox] the chromium package is installed but $CHROMIUM_PATH is not there; set CHROMIUM_PATH" >&2
  exit 1
fi
echo "[signalbox] Chromium is installed: $CHROMIUM_PATH" >&2
