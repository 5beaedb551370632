#!/usr/bin/env bash
# README command 1 — installs what is missing, then runs the main job: `signalbox dev`. All five stages run in one
# process over the in-memory bus and PGlite with the demo tool backends, through the scenario packs, and print each
# trace's timeline; then the API and the trace viewer serve on http://127.0.0.1:8080 until Ctrl-C (the URL and a
# development API key are printed). No Kafka, Java or PostgreSQL server is needed. Arguments go to `signalbox dev`:
# `npm start -- --once` runs the demo and exits, `npm start -- --data DIR --registry DIR` (see the README).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PNPM=(bash scripts/pnpm.sh)
"${PNPM[@]}" install --frozen-lockfile --prefer-offline
# The tool decider's offline embedding models (TD-2), fetched once into ~/.cache/signalbox/models with Maven. Without
# Maven, SIGNALBOX_EMBEDDINGS=off runs the demo lexically instead — an explicit choice every plan records.
if [[ "${SIGNALBOX_EMBEDDINGS:-on}" != "off" ]]; then bash scripts/fetch-models.sh; fi
"${PNPM[@]}" --silent signalbox dev "$@"
