#!/usr/bin/env bash
# The generated Rust module of the bench contracts (bench/gen.py) at several sizes, from this
# tree's stitchgen and, side by side in the same run, from a base revision's: its bytes, lines,
# types (struct and enum definitions) and aliases, and the time a dev-profile build of a crate
# holding it takes once the runtime is built (what a user's crate pays on every build that
# changes the contract). Each module compiles against its own revision's stitchgen-runtime.
# Prints a markdown report, also written to bench/results/module-latest.md.
#
#   bash bench/module.sh
#
# Environment (defaults in brackets):
#   BENCH_MODULE_SIZES  endpoint counts                                ["100 1000"]
#   BENCH_MODULE_RUNS   alternating timed builds per size and revision [3]
#   BENCH_BASE          the revision to compare with                   [HEAD~1]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
SIZES=${BENCH_MODULE_SIZES-100 1000}
RUNS=${BENCH_MODULE_RUNS:-3}
BASE=${BENCH_BASE:-HEAD~1}
target=${CARGO_TARGET_DIR:-$root/target}
work=$(mktemp -d /tmp/stitchgen-module.XXXXXX)
. "$root/bench/revisions.sh"
trap remove_revisions EXIT
say() { echo "module: $*" >&2; }
die() { echo "module: FAIL: $*" >&2; exit 1; }
[ -x /usr/bin/time ] || die "/usr/bin/time is needed"

build_revisions "$BASE" "$target/bench-base"

# A scratch crate per revision, each its own workspace on its own revision's runtime (two path
# packages of one name cannot share a lockfile), both in one target directory so that the
# registry dependencies are built once. Dependencies are built untimed.
crates="$work/crates"
for r in head base; do
  runtime="$root/runtime"
  lock="$root/Cargo.lock"
  if [ "$r" = base ]; then runtime="$work/base-tree/runtime" lock="$work/base-tree/Cargo.lock"; fi
  mkdir -p "$crates/$r/src"
  printf '[package]\nname = "module-%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\nstitchgen-runtime = { path = "%s" }\n\n[workspace]\n' \
    "$r" "$runtime" >"$crates/$r/Cargo.toml"
  cp "$lock" "$crates/$r/Cargo.lock"
  echo '//! warm-up' >"$crates/$r/src/lib.rs"
done
export CARGO_INCREMENTAL=0
export CARGO_TARGET_DIR="$work/target"
say "building the runtime of each revision (untimed)"
for r in head base; do
  (cd "$crates/$r" && cargo build -q --offline) || die "building the $r scratch crate failed"
done

report="$work/report.md"
{
  echo "# Generated module: size and compile time"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo), $(rustc --version), load average at start $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "Command: \`BENCH_MODULE_SIZES=\"$SIZES\" BENCH_MODULE_RUNS=$RUNS BENCH_BASE=\"$BASE\" bash bench/module.sh\`."
  echo "Compile: \`cargo build\` (dev profile, \`CARGO_INCREMENTAL=0\`) of a crate that includes the module, the runtime already built; median of $RUNS runs, the two revisions alternating."
  echo
  echo "| endpoints | stitchgen | module bytes | lines | types | aliases | compile (dev) | runs |"
  echo "|---:|---|---:|---:|---:|---:|---:|---|"
} >"$report"
for n in $SIZES; do
  python3 bench/gen.py "$n" "$work/contract-$n" >/dev/null 2>&1 || die "bench/gen.py $n failed"
  for r in base head; do
    out="$work/out-$r-$n"
    "$work/$r" generate --color never "$work/contract-$n/bench.stitch.yaml" --out "$out" >/dev/null 2>&1 ||
      die "$r: generate of $n endpoints failed"
    cp "$out/bench.rs" "$crates/$r/src/gen.rs"
    cp "$out/"*.json "$crates/$r/src/"   # the module reads its documents from beside it
    echo 'include!("gen.rs");' >"$crates/$r/src/lib.rs"
  done
  declare -A times=()
  for i in $(seq 1 "$RUNS"); do
    for r in base head; do
      touch "$crates/$r/src/lib.rs"
      (cd "$crates/$r" && /usr/bin/time -f "%e" -o "$work/time" cargo build -q --offline) ||
        die "$r: the $n-endpoint module does not compile"
      times[$r]+="$(cat "$work/time") "
      say "$n endpoints, $r, run $i: $(cat "$work/time") s"
    done
  done
  for r in base head; do
    label=$head_label
    if [ "$r" = base ]; then label=$base_label; fi
    python3 - "$n" "$label" "$crates/$r/src/gen.rs" "${times[$r]}" >>"$report" <<'PY'
import re, statistics, sys
n, label, path, times = sys.argv[1], sys.argv[2], sys.argv[3], [float(t) for t in sys.argv[4].split()]
text = open(path).read()
types = len(re.findall(r"^\s*pub (?:struct|enum) ", text, re.M))
aliases = len(re.findall(r"^\s*pub type \w+ = \w+;$", text, re.M))
runs = ", ".join(f"{t:.1f}" for t in times)
print(f"| {n} | {label} | {len(text.encode()):,} | {text.count(chr(10)):,} | {types:,} | {aliases:,} | {statistics.median(times):.1f} s | {runs} |")
PY
  done
  unset times
done
mkdir -p bench/results
cp "$report" bench/results/module-latest.md
cat "$report"
