#!/usr/bin/env bash
# The binary as a user and CI run it: the README's example command, every fixture through
# `stitchgen check` with the exit code its name promises, and the build.rs configuration
# (no `cli` feature) building without clap.
set -euo pipefail
cd "$(dirname "$0")/../.."

cargo build --locked -q -p stitchgen
bin=target/debug/stitchgen
fail=0
pass=0

expect() { # expect CODE DESCRIPTION -- COMMAND...
  local want=$1 what=$2; shift 3
  local got=0
  "$@" >/dev/null 2>/tmp/stitchgen-e2e.err || got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL: $what: exit $got, expected $want"; sed 's/^/    /' /tmp/stitchgen-e2e.err | head -20
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}

# The README's first command.
expect 0 "README example" -- cargo run --locked -q -p stitchgen -- check fixtures/valid/helpdesk.stitch.yaml

for f in fixtures/valid/*.stitch.yaml; do
  expect 0 "$f" -- "$bin" check "$f"
done
expect 0 "all valid fixtures together" -- "$bin" check fixtures/valid/*.stitch.yaml

for case in fixtures/invalid/*; do
  name=$(basename "$case")
  code=${name%%_*}
  if [ -d "$case" ]; then files=("$case"/*.stitch.yaml); else files=("$case"); fi
  want=1; [ "${code:0:1}" = W ] && want=0
  expect "$want" "$name" -- "$bin" check "${files[@]}"
  if ! grep -q "\[$code\]" /tmp/stitchgen-e2e.err; then
    echo "FAIL: $name: $code not reported"; fail=$((fail + 1))
  fi
done

expect 2 "missing file" -- "$bin" check fixtures/valid/does-not-exist.stitch.yaml
expect 2 "no arguments" -- "$bin" check
expect 0 "schema" -- "$bin" schema

# build.rs users turn the `cli` feature off: the library must build without clap.
cargo build --locked -q -p stitchgen --no-default-features
if cargo tree --locked -p stitchgen --no-default-features -e normal --prefix none | grep -q '^clap '; then
  echo "FAIL: clap is a dependency without the cli feature"; fail=$((fail + 1))
else
  pass=$((pass + 1))
fi

echo "e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
