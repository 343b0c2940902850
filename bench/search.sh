#!/usr/bin/env bash
# Search mode's quality and speed over the corpus, one command:
#
#   bash bench/search.sh [CORPUS_DIR]
#
# Imports every corpus document with `--expose --search`, generates it, and runs
# runtime/examples/search_quality.rs over the catalogs: per document, the mean reciprocal rank of
# each tool when the first sentence of its own description is the query; then the search latency
# over 1,000 of those tools. Release build. CORPUS_DIR defaults to $STITCHGEN_CORPUS_DIR, else
# ../shared/corpus beside the clone.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
corpus=${1:-${STITCHGEN_CORPUS_DIR:-$root/../shared/corpus}}
target=${CARGO_TARGET_DIR:-$root/target}
cargo build -q --release -p stitchgen-cli --bin stitchgen
cargo build -q --release -p stitchgen-runtime --example search_quality
work=$(mktemp -d /tmp/stitchgen-search.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 - "$corpus" "$work" <<'PY' > "$work/docs.tsv"
import pathlib, sys
sys.path.insert(0, "tests/corpus")
from documents import unpack
for name, entry in unpack(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])):
    print(f"{name.split('-')[0]}\t{entry}")
PY
catalogs=()
while IFS=$'\t' read -r name entry; do
  "$target/release/stitchgen" import "$entry" --out "$work/$name.stitch.yaml" --expose --search >/dev/null 2>&1
  "$target/release/stitchgen" generate "$work/$name.stitch.yaml" --out "$work/$name" >/dev/null 2>&1
  catalogs+=("$name=$work/$name/mcp-catalog.json")
done < "$work/docs.tsv"
echo "Search mode over the corpus: $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d), $(nproc) cores"
echo
"$target/release/examples/search_quality" "${catalogs[@]}"
