#!/usr/bin/env bash
# Real API descriptions through CI: every corpus document imported (as written and with
# --expose), checked, generated within bounds, its artifacts validated, and the Rust modules
# compiled against stitchgen-runtime alone, and each import's round trip judged by Optic
# (tests/corpus/run.py says what each step holds).
#
#   STITCHGEN_CORPUS_DIR  the corpus       (default: ../shared/corpus beside the repository)
#   MCP_SPEC_DIR          the MCP schemas  (default: ../shared/mcp-spec beside the repository)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/conformance/venv.sh

# Optic, pinned in tests/corpus/optic (ajv overridden to 8.17.1, so that it starts on Node 20),
# installed into .tools/optic (ignored by git) when missing or out of date.
optic="$root/.tools/optic"
if [ ! -e "$optic/node_modules/@useoptic/optic/build/index.js" ] || ! cmp -s tests/corpus/optic/package-lock.json "$optic/package-lock.json"; then
  rm -rf "$optic"
  mkdir -p "$optic"
  cp tests/corpus/optic/package.json tests/corpus/optic/package-lock.json "$optic/"
  (cd "$optic" && timeout 1200 npm ci --no-audit --no-fund --loglevel=error)
fi

# The binary as the README's test command builds it (the same features: nothing recompiles).
cargo test --workspace --locked --no-run -q
bin="${CARGO_TARGET_DIR:-$root/target}/debug/stitchgen"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The scratch crates build beside the workspace's own, so the runtime and its dependencies are
# compiled once.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
"$venv/bin/python" tests/corpus/run.py "$bin" "${STITCHGEN_CORPUS_DIR:-$root/../shared/corpus}" \
  "${MCP_SPEC_DIR:-$root/../shared/mcp-spec}" "$work" "$root/runtime" \
  "$optic/node_modules/@useoptic/optic/build/index.js"
