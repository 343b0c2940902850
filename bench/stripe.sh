#!/usr/bin/env bash
# The largest real description kept for measuring (Stripe, ../shared/bench): `import --expose`,
# `check` and `generate` of this tree's stitchgen beside a base revision's, and openapi-to-rust
# generating its client from the same document, alternating run by run in one run. Prints a
# markdown report, also written to bench/results/stripe-latest.md.
#
#   bash bench/stripe.sh
#
# Environment (defaults in brackets):
#   BENCH_STRIPE_RUNS  alternating runs of each command            [3]
#   BENCH_STRIPE_DOC   the document, gzip-compressed              [../shared/bench/stripe-2023-08-16.json.gz]
#   BENCH_BASE         the revision to compare with; "" skips it  [HEAD~1]
#   BENCH_PEER         1: install (pinned, into .tools/) and run openapi-to-rust; 0: skip it [1]
#
# stitchgen runs under `ulimit -v 8000000`; every command under `timeout`.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
RUNS=${BENCH_STRIPE_RUNS:-3}
DOC=${BENCH_STRIPE_DOC:-$root/../shared/bench/stripe-2023-08-16.json.gz}
BASE=${BENCH_BASE-HEAD~1}
PEER=${BENCH_PEER:-1}
# The peer, pinned: the newest release when this case was written.
PEER_VERSION=0.23.0
target=${CARGO_TARGET_DIR:-$root/target}
work=$(mktemp -d /tmp/stitchgen-stripe.XXXXXX)
. "$root/bench/revisions.sh"
trap remove_revisions EXIT
say() { echo "stripe: $*" >&2; }
die() { echo "stripe: FAIL: $*" >&2; exit 1; }
[ -x /usr/bin/time ] || die "/usr/bin/time is needed"
[ -f "$DOC" ] || die "no document at $DOC (set BENCH_STRIPE_DOC)"
start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

build_revisions "$BASE" "$target/bench-base"
revs=head
if [ -n "$BASE" ]; then revs="base head"; fi

# -- the peer, pinned, built into .tools/ (ignored by git); a failed install is reported, not fatal
peer=
peer_note=
if [ "$PEER" = 1 ]; then
  tools="$root/.tools/openapi-to-rust-$PEER_VERSION"
  if [ ! -x "$tools/bin/openapi-to-rust" ]; then
    say "installing openapi-to-rust $PEER_VERSION into $tools (cargo install --locked)"
    if ! timeout 1800 cargo install --quiet --locked --version "=$PEER_VERSION" --root "$tools" openapi-to-rust \
      >"$work/peer-install.log" 2>&1; then
      peer_note="openapi-to-rust $PEER_VERSION could not be installed: $(tail -n 3 "$work/peer-install.log" | tr '\n' ' ')"
      say "$peer_note"
    fi
  fi
  if [ -x "$tools/bin/openapi-to-rust" ]; then peer="$tools/bin/openapi-to-rust"; fi
fi

gzip -dc "$DOC" >"$work/stripe.json"
raw="$work/raw.tsv"
: >"$raw"
# timed WHAT RUN -- CMD...: one row of wall seconds and peak RSS (KiB); a failure stops the run.
timed() {
  local what=$1 run=$2
  shift 3
  if ! /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/last.log" 2>&1; then
    tail -n 20 "$work/last.log" >&2
    die "$what run $run: \`$*\` failed"
  fi
  printf '%s\t%s\t%s\n' "$what" "$run" "$(tail -n 1 "$work/time")" >>"$raw"
  say "$what, run $run: $(tail -n 1 "$work/time" | cut -d' ' -f1) s"
}
# stitchgen under a memory cap (bash execs timeout, so the time measured is the command's)
sg=(bash -c 'ulimit -v 8000000 && exec timeout 600 "$@"' _)

if [ -n "$peer" ]; then
  mkdir -p "$work/peer"
  cat >"$work/peer/openapi-to-rust.toml" <<EOF
[generator]
spec_path = "$work/stripe.json"
output_dir = "$work/peer/out"
module_name = "stripe"

[features]
enable_async_client = true
EOF
fi

for i in $(seq 1 "$RUNS"); do
  for r in $revs; do
    # The same file names for both revisions: artifacts name the contract they come from.
    d="$work/run-$r"
    rm -rf "$d" && mkdir -p "$d"
    timed "$r import" "$i" -- "${sg[@]}" "$work/$r" import --color never "$work/stripe.json" --expose --out "$d/stripe.stitch.yaml"
    timed "$r check" "$i" -- "${sg[@]}" "$work/$r" check --color never "$d/stripe.stitch.yaml"
    timed "$r generate" "$i" -- "${sg[@]}" "$work/$r" generate --color never "$d/stripe.stitch.yaml" --out "$d/out"
  done
  if [ -n "$peer" ]; then
    rm -rf "$work/peer/out"
    timed "openapi-to-rust generate" "$i" -- timeout 600 "$peer" generate --config "$work/peer/openapi-to-rust.toml"
  fi
done

same=
if [ -n "$BASE" ]; then
  if diff -r "$work/run-base" "$work/run-head" >/dev/null; then
    same="The contract and every artifact are byte for byte the same at both revisions."
  else
    same="The contract or artifacts differ between the revisions: $(diff -rq "$work/run-base" "$work/run-head" | head -n 5 | tr '\n' ' ')"
  fi
fi
tools_count=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["tools"]))' "$work/run-head/out/mcp-tools.json" 2>/dev/null || echo "?")

report="$work/report.md"
python3 - "$raw" "$head_label" "${base_label:-}" "$RUNS" "$same" "$peer_note" "$PEER_VERSION" "$tools_count" \
  "$load_start" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(($(date +%s) - start))" >"$report" <<'PY'
import statistics, sys
from collections import defaultdict
raw, head, base, runs, same, peer_note, peer_version, tools, load0, load1, secs = sys.argv[1:]
rows = defaultdict(list)
for line in open(raw):
    what, _run, measured = line.rstrip("\n").split("\t")
    wall, rss = measured.split()
    rows[what].append((float(wall), int(rss)))
def med(what):
    return statistics.median(w for w, _ in rows[what]) if rows[what] else None
def peak(what):
    return max(r for _, r in rows[what]) / 1024 if rows[what] else None
print("# Stripe: import, check, generate\n")
print(f"`bash bench/stripe.sh` (BENCH_STRIPE_RUNS={runs}), {int(secs) // 60} min {int(secs) % 60} s; load average "
      f"{load0} at start, {load1} at the end. Release builds, alternating run by run; medians of {runs}, largest peak RSS.\n")
print("| command | " + " | ".join(l for l in (base, head) if l) + " |")
print("|---|" + "---:|" * len([l for l in (base, head) if l]))
for step in ("import", "check", "generate"):
    cells = []
    for r in ("base", "head"):
        if rows[f"{r} {step}"]:
            cells.append(f"{med(f'{r} {step}'):.2f} s, {peak(f'{r} {step}'):.0f} MiB")
    print(f"| `{step}` | " + " | ".join(cells) + " |")
cells = []
for r in ("base", "head"):
    if rows[f"{r} import"]:
        cells.append(f"{med(f'{r} import') + med(f'{r} generate'):.2f} s")
print("| import + generate | " + " | ".join(cells) + " |")
print()
if rows["openapi-to-rust generate"]:
    p = med("openapi-to-rust generate")
    print(f"openapi-to-rust {peer_version} generating its client from the same document, same run: "
          f"{p:.2f} s, {peak('openapi-to-rust generate'):.0f} MiB. "
          f"stitchgen's import + generate at {head}: {med('head import') + med('head generate'):.2f} s.\n")
elif peer_note:
    print(peer_note + "\n")
print(f"stitchgen writes {tools} MCP tools (every operation exposed). {same}")
PY
mkdir -p "$root/bench/results"
cp "$report" "$root/bench/results/stripe-latest.md"
cat "$report"
