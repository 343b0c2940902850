#!/usr/bin/env bash
# The gateway in front of an API nobody here wrote: Prism (pinned, installed into .tools/) mocks
# the Petstore description of the corpus and validates every request against that original
# document; the gateway, built for the Petstore imported with --expose, and `stitchgen gateway`
# serving the same document from memory, call it on the CLI surface, and the built one over MCP
# (the official Python SDK). Prism refuses no request a gateway forwards, the runner refuses none
# of Prism's answers, and an invalid argument never leaves the gateway. Then every corpus document
# served from memory (tests/e2e/gateway/corpus.py; a few built too, every call ending the same
# way): its tools called with arguments made from their schemas, each refusal named in
# docs/import.md. Then search mode (tests/e2e/gateway/search.py): DigitalOcean's tools behind
# search, describe and call. Last, each MCP client served its profile (tests/e2e/gateway/profiles.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
here=tests/e2e/gateway
source tests/e2e/common.sh
corpus="${STITCHGEN_CORPUS_DIR:-$root/../shared/corpus}"

prism="$tools/prism"
if [ ! -x "$prism/node_modules/.bin/prism" ] || ! cmp -s "$here/prism/package-lock.json" "$prism/package-lock.json"; then
  rm -rf "$prism"
  mkdir -p "$prism"
  cp "$here/prism/package.json" "$here/prism/package-lock.json" "$prism/"
  (cd "$prism" && npm ci --no-audit --no-fund --loglevel=error)
fi

cargo build --locked -q -p gateway-example -p stitchgen-cli
target="${CARGO_TARGET_DIR:-$root/target}/debug"
work=$(mktemp -d)
mock=
searching=
cleanup() { kill $mock $searching 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$target/stitchgen" generate build-examples/gateway/contracts/petstore.stitch.yaml --out "$work/gen" >/dev/null
zcat "$corpus/petstore-expanded-3.0.json.gz" >"$work/petstore.json"

port=$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$prism/node_modules/.bin/prism" mock --host 127.0.0.1 --port "$port" "$work/petstore.json" >"$work/prism.log" 2>&1 &
mock=$!
for _ in $(seq 300); do grep -q 'Prism is listening' "$work/prism.log" && break; sleep 0.1; done
grep -q 'Prism is listening' "$work/prism.log" || { no "Prism starts"; cat "$work/prism.log"; exit 1; }
export GATEWAY_ORIGIN="http://127.0.0.1:$port"
gateway="$target/gateway"
received() { grep -c 'Request received' "$work/prism.log" || true; }

check_call() { # check_call NAME PATTERN -- ARGS...: exit 0 and stdout matching PATTERN
  local name=$1 pattern=$2; shift 3
  if "${serve[@]}" call "$@" --json >"$work/out" 2>"$work/err" && grep -qE "$pattern" "$work/out"; then ok "$name"
  else no "$name"; cat "$work/out" "$work/err"; fi
}
for how in built "from memory"; do
  if [ "$how" = built ]; then serve=("$gateway"); else serve=("$target/stitchgen" gateway "$work/petstore.json"); fi
  echo "-- the CLI surface in front of Prism, the gateway $how"
  check_call "find_pets: the list, wrapped" '^\{"items":\[' -- find_pets --limit 2 --tags a --tags b
  check_call "find_pet_by_id: a pet" '"name":' -- find_pet_by_id --id 7
  check_call "add_pet: the pet created" '"id":' -- add_pet --name Rex --tag dog
  check_call "delete_pet: no answer" '^null$' -- delete_pet --id 7
  before=$(received)
  code=0; "${serve[@]}" call find_pets --limit many >/dev/null 2>"$work/err" || code=$?
  if [ "$code" -eq 1 ] && grep -q VALIDATION_ERROR "$work/err" && [ "$(received)" = "$before" ]; then
    ok "an invalid argument is refused here, and never sent"
  else no "an invalid argument is refused here, and never sent (exit $code)"; cat "$work/err"; fi
done

echo "-- MCP over stdio, official Python SDK"
suite "mcp python sdk in front of Prism" -- \
  "$venv/bin/python" tests/e2e/surfaces/gateway_client.py "$work/gen/mcp-tools.json" -- "$gateway" mcp --origin "$GATEWAY_ORIGIN"

if grep -q 'Violation' "$work/prism.log"; then no "Prism refused none of the forwarded requests"; grep 'Violation' "$work/prism.log"
else ok "Prism refused none of the $(received) forwarded requests"; fi

# An independent OpenAPI validator judges whether the original allows what Prism answered.
e2e_venv=$venv
. tests/conformance/venv.sh
oas_python="$venv/bin/python"
venv=$e2e_venv
spec_dir="${MCP_SPEC_DIR:-$root/../shared/mcp-spec}"
# Search mode runs beside the corpus (the calls of both are mostly one core each); its lines
# follow the corpus's.
mkdir -p "$work/search"
"$venv/bin/python" tests/e2e/gateway/search.py "$target/stitchgen" "$prism/node_modules/.bin/prism" \
  "$corpus" "$work/search" "$spec_dir" >"$work/search.out" 2>&1 &
searching=$!

echo "-- every corpus document, each mocked by Prism, served from memory (a few built too)"
suite "the gateway in front of every corpus document: no refusal left unexplained (docs/import.md)" -- \
  "$venv/bin/python" tests/e2e/gateway/corpus.py "$target/stitchgen" "$prism/node_modules/.bin/prism" "$oas_python" \
  "$corpus" "$work/corpus"

echo "-- search mode: DigitalOcean imported with --search, three tools in front of Prism"
code=0; wait "$searching" || code=$?
cat "$work/search.out"
if [ "$code" -eq 0 ]; then ok "search, describe and call through the official Python SDK"
else no "search, describe and call through the official Python SDK"; fi

echo "-- each MCP client its profile: Kubernetes' long tool names, renamed per client, in front of Prism"
suite "cursor, vscode and claude-code each listed their profile, and a renamed tool called by its listed name" -- \
  "$venv/bin/python" tests/e2e/gateway/profiles.py "$target/stitchgen" "$prism/node_modules/.bin/prism" "$corpus" "$work/profiles"

echo "gateway: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
