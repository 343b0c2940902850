#!/usr/bin/env bash
# Conformance: every valid fixture's artifacts checked by independent validators, installed
# pinned into .tools/ (ignored by git). A missing validator or MCP schema fails; nothing skips.
#
#   MCP_SPEC_DIR  folder holding the official MCP schemas, schema-<version>.json
#                 (default: ../shared/mcp-spec beside the repository)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

spec_dir=${MCP_SPEC_DIR:-"$root/../shared/mcp-spec"}
for v in 2025-11-25 2026-07-28; do
  if [ ! -f "$spec_dir/schema-$v.json" ]; then
    echo "FAIL: MCP schema $v not found in $spec_dir (set MCP_SPEC_DIR)"; exit 1
  fi
done

. tests/conformance/venv.sh

# The binary as the README's test command builds it: with the same features nothing recompiles
# after it (`cargo build -p stitchgen-cli` would resolve features anew and rebuild half the tree).
cargo test --workspace --locked --no-run -q
bin="${CARGO_TARGET_DIR:-$root/target}/debug/stitchgen"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pass=0
fail=0
run() { # run NAME TARGETS -- GENERATE-ARGS...
  local name=$1 targets=$2; shift 3
  if "$bin" generate "$@" --out "$work/$name" 2>"$work/$name.err" \
     && "$venv/bin/python" tests/conformance/validate.py "$work/$name" "$spec_dir" $targets; then
    pass=$((pass + 1))
  else
    cat "$work/$name.err"; fail=$((fail + 1))
  fi
}

for f in fixtures/valid/*.stitch.yaml; do
  name=$(basename "$f" .stitch.yaml)
  run "$name" "2025-11-25 2026-07-28" -- "$f"
done
run "all-valid-together" "2025-11-25 2026-07-28" -- fixtures/valid/*.stitch.yaml \
  --profile gemini --profile openai-strict --profile openai --profile anthropic \
  --profile cursor --profile vscode --profile claude-code
# Tools past their byte budget, advertised relaxed: still valid tools.
for f in fixtures/invalid/W0007_*.stitch.yaml; do
  name=$(basename "$f" .stitch.yaml)
  run "$name" "2025-11-25 2026-07-28" -- "$f"
done
for f in fixtures/mcp-2026/*.stitch.yaml; do
  name=$(basename "$f" .stitch.yaml)
  run "$name-2026" "2026-07-28" -- "$f" --mcp-target 2026-07-28
done

# Random valid contracts (the property test), their MCP tools against the official schema.
if MCP_SPEC_DIR="$spec_dir" STITCHGEN_PROPERTY_SECONDS=20 cargo test --workspace --locked -q --test property; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
fi

echo "conformance: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
