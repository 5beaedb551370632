#!/usr/bin/env bash
# README command 1 — installs what is missing, then runs the main job: the embedded demo (`signalbox dev`). All five
# stages run in one process over the in-memory bus and PGlite with the demo tool backends, through the scenario
# packs, and print each trace's timeline. No Kafka, Java or PostgreSQL server is needed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PNPM=(bash scripts/pnpm.sh)
"${PNPM[@]}" install --frozen-lockfile --prefer-offline
"${PNPM[@]}" --silent signalbox dev "$@"
