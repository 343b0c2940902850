#!/usr/bin/env bash
# The stitchgen benchmark, one command:
#
#   bash bench/run.sh
#
# Installs what it needs (idempotently), builds release stitchgen, generates the contracts and
# prints a markdown report, also written to bench/results/latest.md. See bench/README.md.
#
# Environment (defaults in brackets):
#   BENCH_SIZES          endpoint counts for generate / TypeSpec / rerun  ["100 1000 5000"]
#   BENCH_RUNS           alternating runs per size for generate vs tsp     [5]
#   BENCH_RERUNS         unchanged reruns per size                          [3]
#   BENCH_COLD           1: measure the cold build-dependency build; 0: skip [1]
#   BENCH_COMPILE_SIZES  sizes whose generated Rust is compiled; "" skips   ["100 1000"]
#   BENCH_COMPILE_RUNS   rebuilds per crate and size                        [3]
#   BENCH_RING_SIZES     ring sizes for bench/ring.sh; "" skips it         ["100 200 400"]
#   BENCH_MODULE_SIZES   sizes bench/module.sh compares with BENCH_BASE; "" skips ["100 1000"]
#   BENCH_BASE           the revision bench/ring.sh, module.sh and stripe.sh compare with [HEAD~1]
#   BENCH_STRIPE         1: run bench/stripe.sh (Stripe, openapi-to-rust beside); 0 skips it [1]
#   BENCH_KEEP           1: keep the scratch directory                      [0]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bench="$root/bench"
SIZES=${BENCH_SIZES-100 1000 5000}
RUNS=${BENCH_RUNS:-5}
RERUNS=${BENCH_RERUNS:-3}
COLD=${BENCH_COLD:-1}
COMPILE_SIZES=${BENCH_COMPILE_SIZES-100 1000}
COMPILE_RUNS=${BENCH_COMPILE_RUNS:-3}
RING_SIZES=${BENCH_RING_SIZES-100 200 400}
MODULE_SIZES=${BENCH_MODULE_SIZES-100 1000}
STRIPE=${BENCH_STRIPE:-1}
KEEP=${BENCH_KEEP:-0}
command="BENCH_SIZES=\"$SIZES\" BENCH_RUNS=$RUNS BENCH_RERUNS=$RERUNS BENCH_COLD=$COLD BENCH_COMPILE_SIZES=\"$COMPILE_SIZES\" BENCH_COMPILE_RUNS=$COMPILE_RUNS bash bench/run.sh"

start=$(date +%s)
work=$(mktemp -d /tmp/stitchgen-bench.XXXXXX)
cleanup() { if [ "$KEEP" = 1 ]; then echo "bench: scratch kept in $work" >&2; else rm -rf "$work"; fi; }
trap cleanup EXIT
raw="$work/raw.tsv"
meta="$work/meta.tsv"
printf 'section\tsize\twhat\trun\twall_s\trss_kib\tuser_s\tsys_s\textra\n' >"$raw"
: >"$meta"

say() { echo "bench: $*" >&2; }
die() { echo "bench: FAIL: $*" >&2; exit 1; }
setmeta() { printf '%s\t%s\n' "$1" "$2" >>"$meta"; }

# -- timer: /usr/bin/time if present, else bench/timeit.py (same output: wall KiB user sys)
if [ -x /usr/bin/time ]; then
  timer=(/usr/bin/time -f "%e %M %U %S" -o)
  setmeta timer '`/usr/bin/time -f "%e %M %U %S"` (wall resolution 10 ms)'
else
  timer=(python3 "$bench/timeit.py" -o)
  setmeta timer '`bench/timeit.py` (os.wait4 rusage of the child)'
fi
# measure SECTION SIZE WHAT RUN EXTRA -- CMD...: run CMD with stdout+stderr in $work/last.log,
# append one row to raw.tsv; a failing command fails the benchmark with its log.
measure() {
  local section=$1 size=$2 what=$3 run=$4 extra=$5
  shift 6
  if ! "${timer[@]}" "$work/time.txt" "$@" >"$work/last.log" 2>&1; then
    tail -n 30 "$work/last.log" >&2
    die "$section $size $what run $run: \`$*\` failed"
  fi
  read -r wall rss user sys < <(tail -n 1 "$work/time.txt")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$section" "$size" "$what" "$run" "$wall" "$rss" "$user" "$sys" "$extra" >>"$raw"
  LAST_WALL=$wall
}

# -- machine and versions
setmeta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
setmeta command "$command"
setmeta nproc "$(nproc)"
setmeta cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
setmeta ram "$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
setmeta kernel "$(uname -sr)"
setmeta load_start "$(cut -d' ' -f1-3 /proc/loadavg)"
setmeta runs "$RUNS"
setmeta compile_runs "$COMPILE_RUNS"
notes=()

# -- 1. release stitchgen (shared target dir); the binary is copied so a concurrent rebuild of
#       target/release cannot swap it mid-run
say "building release stitchgen"
CARGO_TARGET_DIR="$root/target" cargo build --release -p stitchgen-cli --locked -q
cp "${CARGO_TARGET_DIR:-$root/target}/release/stitchgen" "$work/stitchgen"
sg="$work/stitchgen"
rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | wc -l)
if [ "$dirty" -gt 0 ]; then
  setmeta stitchgen "$("$sg" --version), commit $rev with $dirty modified tracked file(s) in the working tree"
else
  setmeta stitchgen "$("$sg" --version), commit $rev (clean)"
fi
setmeta rustc "$(rustc --version)"

# -- 2. TypeSpec and Node 22, pinned, into .tools/typespec (ignored by git)
tsdir="$root/.tools/typespec"
if [ ! -x "$tsdir/node_modules/node/bin/node" ] || ! cmp -s "$bench/typespec/package-lock.json" "$tsdir/package-lock.json"; then
  say "installing TypeSpec into $tsdir (npm ci)"
  rm -rf "$tsdir"
  mkdir -p "$tsdir"
  cp "$bench/typespec/package.json" "$bench/typespec/package-lock.json" "$tsdir/"
  (cd "$tsdir" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci in $tsdir failed"
fi
node22="$tsdir/node_modules/node/bin/node"
case "$("$node22" --version)" in v22.*) ;; *) die "the pinned Node is not 22: $("$node22" --version)" ;; esac
tsp="$tsdir/node_modules/@typespec/compiler/cmd/tsp.js"
tsversions=$(cd "$tsdir/node_modules/@typespec" && for p in compiler http openapi openapi3; do
  printf '@typespec/%s %s, ' "$p" "$("$node22" -p "require('./$p/package.json').version")"; done)
setmeta typespec "${tsversions%, }"
setmeta node "$("$node22" --version)"
# main.tsp imports resolve from node_modules beside or above it
ln -s "$tsdir/node_modules" "$work/node_modules"
cp "$bench/typespec/tspconfig.yaml" "$work/tspconfig.yaml"

files_written() { sed -n 's/^ok: \([0-9]*\) files\{0,1\} written.*/\1/p' "$1"; }
stat_files() { (cd "$1" && find . -type f -printf '%P %i %T@ %s\n' | sort); }

# -- 3. contracts
gen_size() {
  local n=$1
  [ -f "$work/$n/bench.stitch.yaml" ] && return 0
  python3 "$bench/gen.py" "$n" "$work/$n" >&2
  "$sg" check --color never "$work/$n/bench.stitch.yaml" >"$work/$n/check.log" 2>&1 ||
    { cat "$work/$n/check.log" >&2; die "the generated $n-endpoint contract does not pass stitchgen check"; }
  grep -q '^warning' "$work/$n/check.log" && notes+=("$n endpoints: stitchgen check printed warnings")
  local types tools bytes
  types=$(sed -n 's/.* endpoints, \([0-9]*\) shared types, \([0-9]*\) runtime tools\./\1/p' "$work/$n/bench.stitch.yaml" | head -1)
  tools=$(sed -n 's/.* shared types, \([0-9]*\) runtime tools\./\1/p' "$work/$n/bench.stitch.yaml" | head -1)
  bytes=$(stat -c %s "$work/$n/bench.stitch.yaml")
  setmeta "shape_$n" "$types $tools $(awk -v b="$bytes" 'BEGIN {if (b < 1e6) printf "%.0f kB", b / 1e3; else printf "%.1f MB", b / 1e6}')"
}

# -- 4. generate vs TypeSpec, alternating; then unchanged reruns
first=1
for n in $SIZES; do
  gen_size "$n"
  d="$work/$n"
  if [ "$first" = 1 ]; then
    # warm the page cache for both tools once (untimed): the binary, node and the TypeSpec libraries
    "$sg" check "$d/bench.stitch.yaml" >/dev/null 2>&1
    "$node22" "$tsp" compile "$d/main.tsp" --config "$work/tspconfig.yaml" --output-dir "$d/out-tsp" >/dev/null 2>&1 ||
      die "TypeSpec does not compile the $n-endpoint main.tsp (run with BENCH_KEEP=1 and see $d)"
    first=0
  fi
  for i in $(seq 1 "$RUNS"); do
    rm -rf "$d/out-sg"
    measure gen "$n" stitchgen "$i" "" -- "$sg" generate --color never "$d/bench.stitch.yaml" --out "$d/out-sg"
    w=$(files_written "$work/last.log")
    [ "$w" = 5 ] || die "generate $n: expected 5 files written, the CLI said: $(cat "$work/last.log")"
    say "$n endpoints, run $i/$RUNS: stitchgen generate $LAST_WALL s"
    rm -rf "$d/out-tsp"
    measure gen "$n" tsp "$i" "" -- "$node22" "$tsp" compile "$d/main.tsp" --config "$work/tspconfig.yaml" --output-dir "$d/out-tsp"
    [ -s "$d/out-tsp/openapi.json" ] || die "tsp $n: no openapi.json written"
    say "$n endpoints, run $i/$RUNS: tsp compile $LAST_WALL s"
    if [ "$i" = 1 ]; then
      setmeta "written_$n" "$w files, $(du -sb "$d/out-sg" | awk '{printf "%.1f MB", $1 / 1e6}')"
      grep -q '"openapi": "3.1.0"' "$d/out-tsp/openapi.json" || die "tsp $n: the document is not OpenAPI 3.1.0"
      equiv=$(python3 "$bench/compare_openapi.py" "$d/out-sg/openapi.json" "$d/out-tsp/openapi.json" | head -1) ||
        notes+=("$n endpoints: the two OpenAPI documents differ (bench/compare_openapi.py): $equiv")
      setmeta "equiv_$n" "$equiv"
    fi
  done
  # unchanged reruns into the directory the last run filled
  for i in $(seq 1 "$RERUNS"); do
    stat_files "$d/out-sg" >"$work/before.txt"
    measure rerun "$n" stitchgen "$i" "" -- "$sg" generate --color never "$d/bench.stitch.yaml" --out "$d/out-sg"
    stat_files "$d/out-sg" >"$work/after.txt"
    w=$(files_written "$work/last.log")
    touched=$(diff "$work/before.txt" "$work/after.txt" | grep -c '^>' || true)
    sed -i '$ s/\t$/\t'"$w\/$touched"'/' "$raw"
    say "$n endpoints, rerun $i/$RERUNS: $LAST_WALL s, CLI: $w files written, $touched files with a new inode or mtime"
  done
  rm -rf "$d/out-tsp"
done

# -- 5. cold build of stitchgen as a build dependency
if [ "$COLD" = 1 ]; then
  say "cold build of stitchgen as a build dependency (fresh target dir)"
  c="$work/cold"
  mkdir -p "$c/src" "$c/contracts"
  cp "$root/build-examples/directory/contracts/people.stitch.yaml" "$c/contracts/"
  cat >"$c/Cargo.toml" <<EOF
[package]
name = "cold-build"
version = "0.0.0"
edition = "2024"
publish = false

[build-dependencies]
stitchgen = { path = "$root/stitchgen", default-features = false }
EOF
  cat >"$c/build.rs" <<'EOF'
fn main() {
    stitchgen::Config::new()
        .contract("contracts/people.stitch.yaml")
        .generate_to_out_dir()
        .unwrap();
}
EOF
  echo '//! Empty: only the build script matters.' >"$c/src/lib.rs"
  cp "$root/Cargo.lock" "$c/Cargo.lock"
  (cd "$c" && export CARGO_TARGET_DIR="$c/target" && measure cold 0 cargo 1 "" -- cargo build --offline)
  crates=$(grep -c '^ *Compiling ' "$work/last.log" || true)
  clap=$(grep -q '^ *Compiling clap' "$work/last.log" && echo yes || echo no)
  ls "$c"/target/debug/build/cold-build-*/out/people.rs >/dev/null 2>&1 || die "the cold build did not generate people.rs"
  sed -i '$ s/\t$/\t'"$crates\/$clap"'/' "$raw"
  say "cold build: $(tail -n 1 "$raw" | cut -f5) s, $crates crates compiled"
  rm -rf "$c"
fi

# -- 6. compile time of the generated module vs the types module alone
if [ -n "${COMPILE_SIZES// /}" ]; then
  say "compile: warming the dependencies of the throwaway crates"
  cw="$work/compile"
  mkdir -p "$cw"
  printf '[workspace]\nresolver = "3"\nmembers = ["full", "types"]\n' >"$cw/Cargo.toml"
  for k in full types; do
    mkdir -p "$cw/$k/src"
    cat >"$cw/$k/Cargo.toml" <<EOF
[package]
name = "bench-$k"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
stitchgen-runtime = { path = "$root/runtime" }
EOF
    echo '//! warm-up' >"$cw/$k/src/lib.rs"
  done
  cp "$root/Cargo.lock" "$cw/Cargo.lock"
  export CARGO_INCREMENTAL=0
  (cd "$cw" && CARGO_TARGET_DIR="$cw/target" cargo build --offline -q) || die "warming the compile crates failed"
  for n in $COMPILE_SIZES; do
    gen_size "$n"
    if [ ! -f "$work/$n/out-sg/bench.rs" ]; then
      "$sg" generate --color never "$work/$n/bench.stitch.yaml" --out "$work/$n/out-sg" >/dev/null
    fi
    cp "$work/$n/out-sg/bench.rs" "$cw/full/src/gen.rs"
    cp "$work/$n/out-sg/"*.json "$cw/full/src/"   # the module reads its documents from beside it
    echo 'include!("gen.rs");' >"$cw/full/src/lib.rs"
    python3 - "$cw/full/src/gen.rs" "$cw/types/src/types.rs" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
start = lines.index("    pub mod types {")
s = start
while s > 0 and lines[s - 1].startswith(("    ///", "    #[")):
    s -= 1
end = lines.index("    }", start)
open(sys.argv[2], "w").write("\n".join(lines[s:end + 1]) + "\n")
EOF
    printf '//! The `types` module of the generated `bench` module, alone.\n/// The generated module, types only.\npub mod bench {\n    include!("types.rs");\n}\n' >"$cw/types/src/lib.rs"
    setmeta "full_size_$n" "$(wc -l <"$cw/full/src/gen.rs") $(stat -c %s "$cw/full/src/gen.rs")"
    setmeta "types_size_$n" "$(wc -l <"$cw/types/src/types.rs") $(stat -c %s "$cw/types/src/types.rs")"
    for i in $(seq 1 "$COMPILE_RUNS"); do
      for k in full types; do
        touch "$cw/$k/src/lib.rs"
        (cd "$cw" && export CARGO_TARGET_DIR="$cw/target" && measure compile "$n" "$k" "$i" "" -- cargo build --offline -q -p "bench-$k")
        say "compile $n endpoints, $k, run $i/$COMPILE_RUNS: $(tail -n 1 "$raw" | cut -f5) s"
      done
    done
  done
  unset CARGO_INCREMENTAL
fi

# -- 7. where types reach each other: rings of types and the corpus, beside a base revision
#       (bench/ring.sh writes its own report, bench/results/ring-latest.md)
if [ -n "${RING_SIZES// /}" ]; then
  say "ring: $RING_SIZES types, beside ${BENCH_BASE-HEAD~1}"
  BENCH_RING_SIZES="$RING_SIZES" BENCH_RING_RUNS="$RUNS" bash "$bench/ring.sh" >/dev/null ||
    die "bench/ring.sh failed"
fi

# -- 8. the generated module beside the base revision's: bytes, lines, types, aliases and dev
#       compile time (bench/module.sh writes its own report, bench/results/module-latest.md)
if [ -n "${MODULE_SIZES// /}" ] && [ -n "${BENCH_BASE-HEAD~1}" ]; then
  say "module: $MODULE_SIZES endpoints, beside ${BENCH_BASE-HEAD~1}"
  BENCH_MODULE_SIZES="$MODULE_SIZES" BENCH_MODULE_RUNS="$COMPILE_RUNS" bash "$bench/module.sh" >/dev/null ||
    die "bench/module.sh failed"
fi

# -- 9. the largest real description: Stripe's import, check and generate beside the base
#       revision's and openapi-to-rust's (bench/stripe.sh writes bench/results/stripe-latest.md)
if [ "$STRIPE" = 1 ]; then
  say "stripe: import, check and generate, beside ${BENCH_BASE-HEAD~1} and openapi-to-rust"
  BENCH_STRIPE_RUNS="$RUNS" bash "$bench/stripe.sh" >/dev/null || die "bench/stripe.sh failed"
fi

# -- report
setmeta load_end "$(cut -d' ' -f1-3 /proc/loadavg)"
elapsed=$(($(date +%s) - start))
setmeta total "$((elapsed / 60)) min $((elapsed % 60)) s (everything above, installs and builds included)"
if [ ${#notes[@]} -gt 0 ]; then setmeta notes "$(IFS='|'; echo "${notes[*]}" | sed 's/|/ | /g')"; fi
mkdir -p "$bench/results/raw"
python3 "$bench/report.py" "$raw" "$meta" >"$bench/results/latest.md"
cp "$raw" "$bench/results/raw/latest.tsv"
cp "$meta" "$bench/results/raw/latest-meta.tsv"
cat "$bench/results/latest.md"
say "written to bench/results/latest.md (raw rows in bench/results/raw/)"
