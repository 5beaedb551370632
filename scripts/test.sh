#!/usr/bin/env bash
# README command 2 — the whole test suite: install with the lockfile, format check, type check (tsc -b), lint, dead
# code (knip), then every vitest project. Integration tests run against real Kafka, the schema registry and PostgreSQL:
# taken from the environment, else testcontainers (when a Docker engine answers), else infra/local.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PNPM=(bash scripts/pnpm.sh)
"${PNPM[@]}" install --frozen-lockfile --prefer-offline
"${PNPM[@]}" run format:check
"${PNPM[@]}" run build
"${PNPM[@]}" run lint
# Dead code: unused files, exports and dependencies (knip.jsonc); fails on any finding.
"${PNPM[@]}" run lint:dead
# The offline embedding models the tool decider ranks with (TD-2), from Maven Central into ~/.cache (no-op when cached).
bash scripts/fetch-models.sh
"${PNPM[@]}" exec vitest run "$@"
