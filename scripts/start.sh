#!/usr/bin/env bash
# README command 1 — installs what is missing, then runs the main job. Until the embedded demo lands this is a
# smoke round trip through real Kafka, the schema registry and PostgreSQL (infra/local is started if needed).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PNPM=(bash scripts/pnpm.sh)
"${PNPM[@]}" install --frozen-lockfile --prefer-offline
"${PNPM[@]}" run smoke
