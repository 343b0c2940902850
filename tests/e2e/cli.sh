#!/usr/bin/env bash
# The binary as a user and CI run it: the README's example command, every fixture through
# `stitchgen check` with the exit code its name promises, and the build.rs configuration
# (no `cli` feature) compiling without clap.
set -euo pipefail
cd "$(dirname "$0")/../.."

cargo build --locked -q -p stitchgen-cli
bin="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)/debug/stitchgen"
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
expect 0 "README example" -- cargo run --locked -q -p stitchgen-cli -- check fixtures/valid/helpdesk.stitch.yaml

for f in fixtures/valid/*.stitch.yaml; do
  expect 0 "$f" -- "$bin" check "$f"
done
expect 0 "all valid fixtures together" -- "$bin" check fixtures/valid/*.stitch.yaml

for case in fixtures/invalid/*; do
  name=$(basename "$case")
  code=${name%%_*}
  if [ -d "$case" ]; then files=("$case"/*.stitch.yaml); else files=("$case"); fi
  want=1; [ "${code:0:1}" = W ] && want=0
  # A client profile's rule is broken only where the profile is asked for: the fixture names
  # it on its first line (`# profile: gemini`).
  profiles=()
  for p in $(sed -n '1s/^# profile://p' "${files[0]}" | tr ',' ' '); do profiles+=(--profile "$p"); done
  expect "$want" "$name" -- "$bin" check "${profiles[@]}" "${files[@]}"
  if ! grep -q "\[$code\]" /tmp/stitchgen-e2e.err; then
    echo "FAIL: $name: $code not reported"; fail=$((fail + 1))
  fi
done

# A bare-list tool answer: wrapped as `{"items": [...]}` for the default MCP target, advertised
# as it is for 2026-07-28.
listed=$(mktemp -d)
expect 0 "bare list answer, default MCP target" -- "$bin" generate fixtures/mcp-2026/tags.stitch.yaml --out "$listed/a"
grep -q '"required":\["items"\]' <(tr -d ' \n' <"$listed/a/mcp-tools.json") || { echo "FAIL: the list answer is not wrapped"; fail=$((fail + 1)); }
expect 0 "bare list answer, MCP 2026-07-28" -- "$bin" generate --mcp-target 2026-07-28 fixtures/mcp-2026/tags.stitch.yaml --out "$listed/b"
grep -q '"outputSchema":{"items":{"type":"string"},"type":"array"}' <(tr -d ' \n' <"$listed/b/mcp-tools.json") || { echo "FAIL: the list answer is not advertised as it is"; fail=$((fail + 1)); }
rm -rf "$listed"

# import: a description becomes a contract that checks; broken input writes nothing (exit 1),
# a missing file is a usage error (exit 2).
imported=$(mktemp -d)
expect 0 "import a multi-file description" -- "$bin" import fixtures/import/valid/library-3.1/openapi.yaml --out "$imported/library.stitch.yaml" --expose
expect 0 "check the imported contract" -- "$bin" check "$imported/library.stitch.yaml"
expect 1 "import a loop of references" -- "$bin" import fixtures/import/diagnostics/E0904_ref_cycle.yaml --out "$imported/loop.stitch.yaml"
[ ! -e "$imported/loop.stitch.yaml" ] || { echo "FAIL: a failed import wrote a contract"; fail=$((fail + 1)); }
expect 1 "import a reference that points nowhere" -- "$bin" import fixtures/import/diagnostics/E0902_ref_nowhere_in_schemas.yaml --out "$imported/nowhere.stitch.yaml"
expect 0 "import it with --lenient" -- "$bin" import fixtures/import/diagnostics/E0902_ref_nowhere_in_schemas.yaml --out "$imported/nowhere.stitch.yaml" --lenient
expect 0 "check the lenient import" -- "$bin" check "$imported/nowhere.stitch.yaml"
expect 2 "import a missing file" -- "$bin" import "$imported/missing.yaml" --out "$imported/missing.stitch.yaml"
rm -rf "$imported"

# generate: writes the artifacts, then an unchanged rerun writes nothing; errors write nothing.
out=$(mktemp -d)
expect 0 "generate" -- "$bin" generate fixtures/valid/helpdesk.stitch.yaml --out "$out"
for f in tickets.rs openapi.json mcp-tools.json agent-tools.json surface.snapshot.json; do
  [ -s "$out/$f" ] || { echo "FAIL: generate did not write $f"; fail=$((fail + 1)); }
done
before=$(stat -c %Y.%N "$out"/*)
sleep 1
expect 0 "generate again" -- "$bin" generate fixtures/valid/helpdesk.stitch.yaml --out "$out"
grep -q "^ok: 0 files written, 5 unchanged" /tmp/stitchgen-e2e.err || { echo "FAIL: rerun rewrote files"; fail=$((fail + 1)); }
[ "$before" = "$(stat -c %Y.%N "$out"/*)" ] || { echo "FAIL: rerun touched files"; fail=$((fail + 1)); }
# A contract with errors leaves an existing output directory untouched.
broken=$(mktemp -d)/tickets.stitch.yaml
sed 's/^    desc: List tickets, newest first.*/    desc: ""/' fixtures/valid/helpdesk.stitch.yaml > "$broken"
expect 1 "generate a broken contract over existing output" -- "$bin" generate "$broken" --out "$out"
[ "$before" = "$(stat -c %Y.%N "$out"/*)" ] || { echo "FAIL: a failed generate touched the output"; fail=$((fail + 1)); }
bad=$(mktemp -d)
expect 1 "generate with errors" -- "$bin" generate fixtures/invalid/E0206_route_conflict.stitch.yaml --out "$bad/out"
[ ! -e "$bad/out" ] || { echo "FAIL: generate wrote despite errors"; fail=$((fail + 1)); }
rm -rf "$out" "$bad"

# The same arguments give the same bytes whatever the working directory or HOME.
abs=$(pwd)/fixtures/valid/helpdesk.stitch.yaml
one=$(mktemp -d); two=$(mktemp -d)
expect 0 "generate from the repository" -- "$bin" generate "$abs" --out "$one"
(cd "$(dirname "$two")" && HOME=/nonexistent "$bin" generate "$abs" --out "$two" >/dev/null 2>&1) || { echo "FAIL: generate from another directory"; fail=$((fail + 1)); }
diff -r "$one" "$two" >/dev/null || { echo "FAIL: output depends on the working directory or HOME"; fail=$((fail + 1)); }
grep -rq "$(pwd)" "$one" && { echo "FAIL: an artifact names an absolute path"; fail=$((fail + 1)); }
rm -rf "$one" "$two"

# The committed snapshot of the example passes; a description edit makes it stale, naming the operation.
contract=build-examples/directory/contracts/people.stitch.yaml
snap=build-examples/directory/contracts/surface.snapshot.json
# The example's two contracts are generated together: the snapshot is of both.
rooms=build-examples/directory/contracts/rooms.stitch.yaml
expect 0 "check --snapshot, fresh" -- "$bin" check "$contract" "$rooms" --snapshot "$snap"
edited=$(mktemp -d)/people.stitch.yaml
sed 's/desc: Get one person by id./desc: Get one person by their id./' "$contract" > "$edited"
expect 1 "check --snapshot, stale" -- "$bin" check "$edited" "$rooms" --snapshot "$snap"
grep -q "^operation people.get (contract): description changed$" /tmp/stitchgen-e2e.err || { echo "FAIL: stale report does not name the operation"; fail=$((fail + 1)); }

# diff: git sides, formats, --fail-on.
expect 0 "diff against HEAD" -- "$bin" diff "git:HEAD:$contract" "$contract"
expect 0 "diff, markdown" -- "$bin" diff "$contract" "$edited" --format markdown
expect 0 "diff, info only with --fail-on warning" -- "$bin" diff "$contract" "$edited" --fail-on warning
if [ -d fixtures/diff/route-changed ]; then
  expect 1 "diff --fail-on breaking" -- "$bin" diff fixtures/diff/route-changed/old.stitch.yaml fixtures/diff/route-changed/new.stitch.yaml --fail-on breaking
fi
expect 2 "diff, unknown git ref" -- "$bin" diff "git:no-such-ref:$contract" "$contract"

# `stitchgen gateway`: what it serves from memory, and what it refuses before serving anything.
expect 0 "gateway: an OpenAPI document's tools, no build" -- "$bin" gateway fixtures/import/valid/shop-3.0.json call --help
expect 1 "gateway: a document that does not import" -- "$bin" gateway fixtures/import/diagnostics/E0904_ref_cycle.yaml mcp --origin http://127.0.0.1:9
expect 1 "gateway: a contract with errors" -- "$bin" gateway fixtures/invalid/E0206_route_conflict.stitch.yaml mcp --origin http://127.0.0.1:9
expect 2 "gateway: a contract whose views are Rust" -- "$bin" gateway fixtures/valid/helpdesk.stitch.yaml mcp --origin http://127.0.0.1:9
if grep -q '`summarizeQueue` compute their tool answers in Rust' /tmp/stitchgen-e2e.err; then pass=$((pass + 1))
else echo "FAIL: gateway: the operations needing Rust are named"; fail=$((fail + 1)); fi
expect 2 "gateway: a missing document" -- "$bin" gateway fixtures/valid/does-not-exist.yaml mcp --origin http://127.0.0.1:9

expect 2 "missing file" -- "$bin" check fixtures/valid/does-not-exist.stitch.yaml
expect 2 "no arguments" -- "$bin" check
expect 0 "schema" -- "$bin" schema

# A build script depends on the library with its default features: it compiles without clap,
# and without the gateway's servers (axum, rmcp).
cargo check --locked -q -p stitchgen
if cargo tree --locked -p stitchgen -e normal --prefix none | grep -qE '^(clap|axum|rmcp) '; then
  echo "FAIL: the library's default features build the command line"; fail=$((fail + 1))
else
  pass=$((pass + 1))
fi

echo "e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
