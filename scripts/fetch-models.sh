#!/usr/bin/env bash
# Fetches the offline embedding models of packages/embedder/models.json into the model folder (SIGNALBOX_MODEL_DIR,
# default ~/.cache/signalbox/models): each comes from a LangChain4j jar on Maven Central that carries the quantised
# ONNX graph and its tokenizer.json as plain files. Each file's sha256 is checked against the catalog. A no-op when
# the files are there and right. Needs Apache Maven and unzip (or the JDK's jar).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CATALOG="$ROOT/packages/embedder/models.json"
DIR="${SIGNALBOX_MODEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/signalbox/models}"
log() { printf '[models] %s\n' "$*" >&2; }
die() { printf '[models] error: %s\n' "$*" >&2; exit 1; }
mkdir -p "$DIR"
# One line per model: artifact onnx onnx_sha256 tokenizer tokenizer_sha256
node -e '
  const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  for (const m of c.models) console.log([m.artifact, m.onnx, m.onnx_sha256, m.tokenizer, m.tokenizer_sha256].join(" "));
' "$CATALOG" | while read -r artifact onnx onnx_sum tokenizer tokenizer_sum; do
  ok() { [[ -f "$DIR/$1" ]] && [[ "$(sha256sum "$DIR/$1" | cut -d' ' -f1)" == "$2" ]]; }
  if ok "$onnx" "$onnx_sum" && ok "$tokenizer" "$tokenizer_sum"; then continue; fi
  command -v mvn >/dev/null 2>&1 || die "Apache Maven is needed to fetch $artifact (apt-get install maven)"
  tmp="$(mktemp -d)"
  log "fetching $artifact from Maven Central"
  mvn -q -B dependency:copy -Dartifact="$artifact" -DoutputDirectory="$tmp" >&2 ||
    { rm -rf "$tmp"; die "mvn could not fetch $artifact"; }
  jar_file="$(ls "$tmp"/*.jar)"
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o "$jar_file" "$onnx" "$tokenizer" -d "$tmp/x"
  else
    (mkdir -p "$tmp/x" && cd "$tmp/x" && jar xf "$jar_file" "$onnx" "$tokenizer")
  fi
  for pair in "$onnx:$onnx_sum" "$tokenizer:$tokenizer_sum"; do
    file="${pair%%:*}" sum="${pair##*:}"
    actual="$(sha256sum "$tmp/x/$file" | cut -d' ' -f1)"
    [[ "$actual" == "$sum" ]] || { rm -rf "$tmp"; die "$file from $artifact has sha256 $actual, the catalog pins $sum"; }
    mv -f "$tmp/x/$file" "$DIR/$file"
  done
  rm -rf "$tmp"
done
log "models in $DIR"
