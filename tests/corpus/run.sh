#!/usr/bin/env bash
# Real API descriptions through CI: every corpus document imported (as written and with
# --expose), checked, generated within bounds, its artifacts validated, and the Rust modules
# compiled against stitchgen-runtime alone (tests/corpus/run.py says what each step holds).
#
#   STITCHGEN_CORPUS_DIR  the corpus       (default: ../shared/corpus beside the repository)
#   MCP_SPEC_DIR          the MCP schemas  (default: ../shared/mcp-spec beside the repository)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/conformance/venv.sh

# The binary as the README's test command builds it (the same features: nothing recompiles).
cargo test --workspace --locked --no-run -q
bin="${CARGO_TARGET_DIR:-$root/target}/debug/stitchgen"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The scratch crates build beside the workspace's own, so the runtime and its dependencies are
# compiled once.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
"$venv/bin/python" tests/corpus/run.py "$bin" "${STITCHGEN_CORPUS_DIR:-$root/../shared/corpus}" \
  "${MCP_SPEC_DIR:-$root/../shared/mcp-spec}" "$work" "$root/runtime"
