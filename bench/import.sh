#!/usr/bin/env bash
# stitchgen's importer beside TypeSpec's on every corpus document, each round trip checked by
# Optic's breaking-changes ruleset. One command, from the repository root:
#
#   nice -n 19 bash bench/import.sh
#   IMPORT_SKIP=kubernetes nice -n 19 bash bench/import.sh     (Optic alone takes 20-40 min on it)
#
# For each of the ten corpus documents (../shared/corpus, read in place, never copied here):
#   stitchgen  import DOC --out C.stitch.yaml (as written, no --expose); generate C --out DIR
#   TypeSpec   tsp-openapi3 DOC --output-dir SRC; tsp compile SRC/main.tsp (OpenAPI 3.1.0, JSON,
#              bench/typespec/tspconfig.yaml)
#   Optic      optic diff DOC ROUNDTRIPPED --check --standard standard.yml --json, per importer
# and writes bench/results/import-latest.md; the raw rows (every breaking finding) stay in
# $IMPORT_WORK/raw/ and $IMPORT_WORK/import-latest.json. Installs TypeSpec (as bench/run.sh
# section 2) and Optic (tests/corpus/optic, npm ci) into .tools/, idempotently.
#
# Environment (defaults in brackets):
#   IMPORT_BIN            the stitchgen binary [built from this tree with cargo, then copied to
#                         $IMPORT_WORK/bin, so that a rebuild of target/ cannot swap it mid-run]
#   IMPORT_COMMIT         the commit that binary was built from [the tree's HEAD at the copy]
#   IMPORT_CORPUS         the corpus [../shared/corpus beside the repository]
#   IMPORT_WORK           scratch and raw results [/tmp/stitchgen-import-bench]
#   IMPORT_SKIP           documents to skip, by first word, e.g. "kubernetes" [""]
#   IMPORT_ONLY           only these documents, by first word; the others keep their raw rows
#                         from an earlier run in the same IMPORT_WORK (the report marks them) [""]
#   IMPORT_OPTIC_TIMEOUT  seconds for one Optic diff [1200]
#   IMPORT_LONG           documents given IMPORT_LONG_TIMEOUT instead ["kubernetes"]
#   IMPORT_LONG_TIMEOUT   [2400] (a Kubernetes self-diff took 23 min and 3.3 GB)
#   IMPORT_TSP_TIMEOUT    seconds for tsp-openapi3 and for tsp compile [1200]
#   IMPORT_LOOSE          documents Optic reads with --validation loose ["hetzner"]; any other
#                         whose strict validation fails is diffed again with loose validation,
#                         and the report says so with Optic's reason
#   IMPORT_OPTIC_RERUN_BELOW  Optic's --json hides why it failed: a failed diff that took less
#                         than this many seconds is run again without --json to learn why [300]
#   IMPORT_JOBS           documents in parallel, each still niced; >1 starts the slow ones first [1]
#
# Every step runs under `timeout` and `nice -n 19`; stitchgen also under `ulimit -v 8000000`.
# Node 22 cannot start WebAssembly (undici) under that address-space cap, so the Node steps are
# bounded with --max-old-space-size=6144 instead.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bench="$root/bench"
work=${IMPORT_WORK:-/tmp/stitchgen-import-bench}
corpus=${IMPORT_CORPUS:-$root/../shared/corpus}
command="$(env | grep -E '^IMPORT_' | sort | tr '\n' ' ')nice -n 19 bash bench/import.sh"
start=$(date +%s)
export IMPORT_RUN=$(date -u +%Y-%m-%dT%H:%M:%SZ)
say() { echo "import: $*" >&2; }
die() { echo "import: FAIL: $*" >&2; exit 1; }
mkdir -p "$work"
if [ -z "${IMPORT_ONLY:-}" ]; then rm -rf "$work/raw"; fi
mkdir -p "$work/raw"

# -- the binary: built, then copied, so that a rebuild of target/ cannot swap it mid-run
bin=${IMPORT_BIN:-}
if [ -z "$bin" ]; then
  say "building stitchgen (cargo build --locked -p stitchgen-cli)"
  cargo build --locked -q -p stitchgen-cli || die "cargo build failed"
  bin="$work/bin/stitchgen"
  mkdir -p "$work/bin"
  cp "${CARGO_TARGET_DIR:-$root/target}/debug/stitchgen" "$bin"
  git -C "$root" rev-parse --short HEAD >"$work/bin/COMMIT"
fi
commit=${IMPORT_COMMIT:-$(cat "$(dirname "$bin")/COMMIT" 2>/dev/null || git -C "$root" rev-parse --short HEAD)}

# npm_ci NAME PINS DEST MARKER: installs the packages pinned in PINS (package.json and
# package-lock.json) into DEST with `npm ci`, unless MARKER is there and the lock is unchanged.
npm_ci() {
  local name=$1 pins=$2 dest=$3 marker=$4
  if [ ! -e "$dest/$marker" ] || ! cmp -s "$pins/package-lock.json" "$dest/package-lock.json"; then
    say "installing $name into $dest (npm ci)"
    rm -rf "$dest"
    mkdir -p "$dest"
    cp "$pins/package.json" "$pins/package-lock.json" "$dest/"
    (cd "$dest" && timeout 1200 nice -n 19 npm ci --no-audit --no-fund --loglevel=error) || die "npm ci in $dest failed"
  fi
}

# -- TypeSpec and Node 22, pinned, into .tools/typespec (as bench/run.sh, section 2, installs them)
tsdir="$root/.tools/typespec"
npm_ci TypeSpec "$bench/typespec" "$tsdir" node_modules/node/bin/node
node22="$tsdir/node_modules/node/bin/node"
case "$("$node22" --version)" in v22.*) ;; *) die "the pinned Node is not 22: $("$node22" --version)" ;; esac
tsversion() { "$node22" -p "require('$tsdir/node_modules/$1/package.json').version"; }
[ "$(tsversion @typespec/openapi3)" = 1.16.0 ] || die "bench/typespec pins @typespec/openapi3 $(tsversion @typespec/openapi3), not 1.16.0"

# -- Optic, pinned (ajv overridden to 8.17.1), into .tools/optic, as the corpus test installs it
opdir="$root/.tools/optic"
npm_ci Optic "$root/tests/corpus/optic" "$opdir" node_modules/@useoptic/optic/build/index.js
optic="$opdir/node_modules/@useoptic/optic/build/index.js"
opver() { "$node22" -p "require('$opdir/node_modules/$1/package.json').version"; }
cp "$bench/typespec/tspconfig.yaml" "$work/tspconfig.yaml"

# -- machine and versions
export IMPORT_BIN="$bin" IMPORT_COMMIT="$commit" IMPORT_CORPUS="$corpus" IMPORT_NODE="$node22" \
  IMPORT_OPTIC="$optic" IMPORT_TSP="$tsdir/node_modules/@typespec/compiler/cmd/tsp.js" \
  IMPORT_TSP_OPENAPI3="$tsdir/node_modules/@typespec/openapi3/cmd/tsp-openapi3.js" \
  IMPORT_TSPCONFIG="$work/tspconfig.yaml" IMPORT_TSP_MODULES="$tsdir/node_modules"
dirty=$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | wc -l)
python3 - "$work/meta.json" <<EOF
import json, sys
json.dump({
  "date": "$(date -u '+%Y-%m-%d %H:%M UTC')",
  "run": "$IMPORT_RUN",
  "command": "\`${command//\"/\\\"}\`",
  "machine": "$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo) RAM, $(uname -sr)",
  "load": "$(cut -d' ' -f1-3 /proc/loadavg) at start (the machine is shared with builds)",
  "stitchgen": "$("$bin" --version), debug binary copied to $bin from commit $commit (sha256 $(sha256sum "$bin" | cut -c1-12); the tree had $dirty modified tracked file(s) when this ran)",
  "typespec": "$(for p in compiler http openapi openapi3; do printf '@typespec/%s %s, ' $p "$(tsversion @typespec/$p)"; done)tsp-openapi3 from @typespec/openapi3; emitter openapi-versions [3.1.0], JSON",
  "node": "$("$node22" --version) (pinned, bench/typespec) for TypeSpec and Optic",
  "optic": "@useoptic/optic $(opver @useoptic/optic), ajv $(opver ajv) (tests/corpus/optic); standard: ruleset [breaking-changes: {skip_when_major_version_changes: false}]",
  "raw": "$work/raw",
}, open(sys.argv[1], "w"), indent=1)
EOF

# -- Python with PyYAML (the YAML documents), as the corpus test has it
. tests/conformance/venv.sh

say "running; scratch in $work"
"$venv/bin/python" "$bench/import.py" run "$work"

elapsed=$(($(date +%s) - start))
python3 - "$work/meta.json" "$elapsed" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1])); s = int(sys.argv[2])
m["total"] = f"{s // 60} min {s % 60} s (installs included)"
json.dump(m, open(sys.argv[1], "w"), indent=1)
EOF
python3 - "$work" <<'EOF'
import json, pathlib, sys
w = pathlib.Path(sys.argv[1])
rows = [json.loads(p.read_text()) for p in sorted((w / "raw").glob("*.json"))]
(w / "import-latest.json").write_text(json.dumps({"meta": json.loads((w / "meta.json").read_text()), "documents": rows}, indent=1))
EOF
mkdir -p "$bench/results"
"$venv/bin/python" "$bench/import.py" report "$work" >"$bench/results/import-latest.md"
cat "$bench/results/import-latest.md"
say "written to bench/results/import-latest.md (raw findings in $work/raw/ and $work/import-latest.json)"
