#!/usr/bin/env bash
# The directory example on every surface, with real clients: the official MCP Python SDK over
# stdio, the MCP Inspector CLI under Node 22, HTTP over loopback with schemathesis against the
# generated OpenAPI, and the CLI surface. Clients are installed pinned into .tools/ (ignored by
# git) from tests/e2e/surfaces/; a client that cannot be installed fails the run, nothing skips.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
here=tests/e2e/surfaces
source tests/e2e/common.sh

inspector="$tools/inspector"
if [ ! -x "$inspector/node_modules/node/bin/node" ] || ! cmp -s "$here/inspector/package-lock.json" "$inspector/package-lock.json"; then
  rm -rf "$inspector"
  mkdir -p "$inspector"
  cp "$here/inspector/package.json" "$here/inspector/package-lock.json" "$inspector/"
  (cd "$inspector" && npm ci --no-audit --no-fund --loglevel=error)
fi
node22="$inspector/node_modules/node/bin/node"
case "$("$node22" --version)" in v22.*) ;; *) echo "FAIL: the pinned Node is not 22"; exit 1 ;; esac

# Both binaries as the README's test command builds them (same features: nothing recompiles).
cargo test --workspace --locked --no-run -q
bin="${CARGO_TARGET_DIR:-$root/target}/debug/directory"
work=$(mktemp -d)
server=
cleanup() { kill $server ${origin:-} 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"${CARGO_TARGET_DIR:-$root/target}/debug/stitchgen" generate build-examples/directory/contracts/people.stitch.yaml build-examples/directory/contracts/rooms.stitch.yaml --out "$work/gen" >/dev/null

echo "-- MCP over stdio, official Python SDK"
suite "mcp python sdk" -- "$venv/bin/python" "$here/mcp_client.py" "$work/gen/mcp-tools.json" -- "$bin" mcp
suite "mcp python sdk, admin: 201 and 204 endpoints answer their bodies" -- \
  "$venv/bin/python" "$here/mcp_client.py" --admin "$work/gen/mcp-tools.json" -- "$bin" mcp --scope admin

suite "mcp python sdk: delete_person asks its user first, in both eras" -- \
  "$venv/bin/python" "$here/elicit.py" "$work/gen/mcp-tools.json" -- "$bin" mcp --scope admin

echo "-- MCP over stdio, MCP Inspector CLI (Node $("$node22" --version))"
inspect() { PATH="$inspector/node_modules/.bin:$PATH" "$node22" \
  "$inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js" --cli "$bin" mcp -- "$@" --format json -q; }
if inspect --method tools/list >"$work/list.json" 2>"$work/err" \
   && "$venv/bin/python" -c 'import json,sys; d=json.load(open(sys.argv[1])); names=[t["name"] for t in d.get("result", d)["tools"]]; sys.exit(names != sorted(names) or "list_people" not in names)' "$work/list.json"; then
  ok "inspector lists the tools"
else no "inspector lists the tools"; cat "$work/err"; fi
if inspect --method tools/call --tool-name get_person --tool-args-json '{"id":"p0002"}' >"$work/call.json" 2>"$work/err" \
   && grep -q '"structuredContent":{"id":"p0002","name":"Grace Lovelace","team":"kernel"}' "$work/call.json" \
   && ! grep -q '@example.com' "$work/call.json"; then
  ok "inspector calls get_person and reads the card"
else no "inspector calls get_person and reads the card"; cat "$work/call.json" "$work/err"; fi

if inspect --method tools/call --tool-name list_teams >"$work/call.json" 2>"$work/err" \
   && grep -q '"structuredContent":{"items":\["core","kernel","tools","web"\]}' "$work/call.json"; then
  ok "inspector calls list_teams and reads the wrapped list"
else no "inspector calls list_teams and reads the wrapped list"; cat "$work/call.json" "$work/err"; fi

echo "-- HTTP over loopback"
RUST_LOG=info "$bin" http --addr 127.0.0.1:0 --admin-token e2e-token 2>"$work/server.err" &
server=$!
for _ in $(seq 100); do grep -q 'listening on' "$work/server.err" && break; sleep 0.1; done
base=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/server.err")
[ -n "$base" ] || { no "the HTTP server starts"; cat "$work/server.err"; exit 1; }

echo "-- MCP in each protocol era, asked for explicitly, over stdio and streamable HTTP"
suite "python sdk: each era over each transport" -- \
  "$venv/bin/python" "$here/eras.py" "$work/gen/mcp-tools.json" "$base/mcp" -- "$bin" mcp
launcher="$inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
for era in 2025-11-25 2026-07-28; do
  # The Inspector's names for the eras: `legacy` (the handshake, 2025-11-25), `modern` (2026-07-28).
  flag=legacy; [ "$era" = 2026-07-28 ] && flag=modern
  for transport in stdio "streamable http"; do
    call=(--protocol-era "$flag" --method tools/call --tool-name get_person --tool-args-json '{"id":"p0001"}' --format json -q)
    if [ "$transport" = stdio ]; then target=("$bin" mcp --); else target=("$base/mcp" --transport http); fi
    if PATH="$inspector/node_modules/.bin:$PATH" "$node22" "$launcher" --cli "${target[@]}" "${call[@]}" >"$work/era.json" 2>"$work/err" \
       && grep -q '"structuredContent":{"id":"p0001","name":"Ada Lovelace","team":"core"}' "$work/era.json"; then
      ok "inspector x $era x $transport"
    else no "inspector x $era x $transport"; cat "$work/era.json" "$work/err"; fi
  done
done
# Before the checks and the fuzzer change the directory: the seeded records are there.
if "$bin" client --url "$base" --team core >"$work/out" 2>"$work/err" && grep -q '"name":"Ada Lovelace"' "$work/out" \
   && grep -q '@example.com' "$work/out" && ! grep -q '"team":"kernel"' "$work/out"; then
  ok "the typed client lists a team's full records over HTTP"
else no "the typed client lists a team's full records over HTTP"; cat "$work/out" "$work/err"; fi
code=0; "$bin" client --url "$base" --id nobody >"$work/out" 2>"$work/err" || code=$?
if [ "$code" -eq 1 ] && grep -q 'NOT_FOUND' "$work/err"; then ok "the typed client reads the error envelope back"
else no "the typed client reads the error envelope back (exit $code)"; cat "$work/err"; fi

# The remote service in front of an origin of its own (the checks create a person there): the
# same cards and errors as in process, through the official MCP Python SDK.
"$bin" http --addr 127.0.0.1:0 2>"$work/origin.err" &
origin=$!
for _ in $(seq 100); do grep -q 'listening on' "$work/origin.err" && break; sleep 0.1; done
origin_base=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/origin.err")
suite "mcp python sdk, remote: the same cards in front of a running origin" -- \
  "$venv/bin/python" "$here/mcp_client.py" --remote "$work/gen/mcp-tools.json" -- "$bin" mcp --origin "$origin_base"
kill "$origin" 2>/dev/null || true

suite "http checks" -- "$venv/bin/python" "$here/http_check.py" "$base" "$work/gen/openapi.json" e2e-token
# RUST_LOG=info: one line per call, with its surface, operation, outcome code and status.
if grep -q 'call{service="people" operation="get" tool="get_person" surface="HTTP" code="NOT_FOUND" status=404' "$work/server.err" \
   && grep -q 'call{service="people" operation="get" tool="get_person" surface="MCP" code="OK" status=200' "$work/server.err" \
   && grep -q 'call{service="rooms" operation="book" tool="book_room" surface="HTTP" code="CONFLICT" status=409' "$work/server.err"; then
  ok "the server logs one line per call, on HTTP and MCP alike ($(grep -c 'call{' "$work/server.err") calls)"
else no "the server logs one line per call, on HTTP and MCP alike"; tail -5 "$work/server.err"; fi
(cd "$work" && timeout 600 "$venv/bin/schemathesis" run "$work/gen/openapi.json" --url "$base" --checks all \
   --header "Authorization: Bearer e2e-token" --max-examples 40 --seed 7 --workers 1 --request-timeout 5 --generation-database none --no-color) >"$work/st.log" 2>&1 \
  && ok "schemathesis finds no violation of the generated OpenAPI" \
  || { no "schemathesis finds no violation of the generated OpenAPI"; cat "$work/st.log"; }
grep -E "^(Summary|.*passed|.*failed)" "$work/st.log" | tail -3 || true
echo "-- CLI surface"
if "$bin" call list_people --team core >"$work/out" 2>"$work/err" && grep -q '"name": "Ada Lovelace"' "$work/out" \
   && ! grep -qE '@example.com|Main St|\+1 555' "$work/out"; then ok "call list_people prints cards"
else no "call list_people prints cards"; cat "$work/out" "$work/err"; fi
if "$bin" call get_person --id p0001 --json >"$work/out" && [ "$(cat "$work/out")" = '{"id":"p0001","name":"Ada Lovelace","team":"core"}' ]; then
  ok "call --json prints compact JSON"; else no "call --json prints compact JSON"; cat "$work/out"; fi
if "$bin" call list_teams --json >"$work/out" && [ "$(cat "$work/out")" = '{"items":["core","kernel","tools","web"]}' ]; then
  ok "call list_teams prints the wrapped list"; else no "call list_teams prints the wrapped list"; cat "$work/out"; fi
if "$bin" call room_availability --json >"$work/out" 2>"$work/err" && grep -q '"free":24' "$work/out" \
   && [ "$(grep -c '^progress: [1-4]/4 read the calendar of ' "$work/err")" = 4 ]; then
  ok "call room_availability: the answer on stdout, a progress line per room on stderr"
else no "call room_availability: the answer on stdout, a progress line per room on stderr"; cat "$work/out" "$work/err"; fi
code=0; "$bin" call get_person --id nobody >"$work/out" 2>"$work/err" || code=$?
if [ "$code" -eq 4 ] && [ ! -s "$work/out" ] && grep -q '"error":"NOT_FOUND"' "$work/err"; then ok "an unknown id exits 4 with the envelope on stderr"
else no "an unknown id exits 4 with the envelope on stderr (exit $code)"; cat "$work/err"; fi
code=0; "$bin" call list_people --limit many >/dev/null 2>"$work/err" || code=$?
if [ "$code" -eq 1 ] && grep -q '"error":"VALIDATION_ERROR"' "$work/err"; then ok "a bad flag value exits 1 with VALIDATION_ERROR"
else no "a bad flag value exits 1 with VALIDATION_ERROR (exit $code)"; fi

echo "surfaces: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
