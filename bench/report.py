#!/usr/bin/env python3
"""Turn the raw measurements of run.sh into the markdown report.

    python3 bench/report.py RAW.tsv META.tsv > report.md

RAW.tsv rows: section, size, what, run, wall_s, rss_kib, user_s, sys_s, extra.
META.tsv rows: key, value.
"""

import statistics
import sys
from collections import defaultdict


def load(raw_path, meta_path):
    rows = []
    with open(raw_path) as f:
        for line in f:
            if not line.strip() or line.startswith("section\t"):
                continue
            section, size, what, run, wall, rss, user, sys_, extra = line.rstrip("\n").split("\t")
            rows.append(
                dict(section=section, size=int(size), what=what, run=int(run), wall=float(wall),
                     rss=int(rss), cpu=float(user) + float(sys_), extra=extra)
            )
    meta = {}
    with open(meta_path) as f:
        for line in f:
            if "\t" in line:
                k, v = line.rstrip("\n").split("\t", 1)
                meta[k] = v
    return rows, meta


def secs(x):
    if x >= 100:
        return f"{x:.0f} s"
    if x >= 10:
        return f"{x:.1f} s"
    return f"{x:.2f} s"


def mib(kib):
    return f"{kib / 1024:.0f} MiB"


def lines_bytes(v):
    if not v:
        return "?"
    lines, size = v.split()
    return f"{int(lines):,} / {int(size) / 1e6:.1f} MB"


def med(vals):
    return statistics.median(vals)


def runs(vals):
    return " ".join(f"{v:.2f}" for v in vals)


def main():
    rows, meta = load(sys.argv[1], sys.argv[2])
    by = defaultdict(list)
    for r in rows:
        by[(r["section"], r["size"], r["what"])].append(r)
    sizes = sorted({r["size"] for r in rows if r["section"] == "gen"})
    out = []
    w = out.append

    w("# stitchgen benchmark")
    w("")
    w(f"- date: {meta.get('date', '?')}")
    w(f"- command: `{meta.get('command', '?')}`")
    w(f"- machine: {meta.get('nproc', '?')} CPUs (`nproc`), {meta.get('cpu', '?')}, {meta.get('ram', '?')} RAM, {meta.get('kernel', '?')}")
    w(f"- load average (1/5/15 min) at start: {meta.get('load_start', '?')}; at end: {meta.get('load_end', '?')}")
    w(f"- stitchgen: {meta.get('stitchgen', '?')}; {meta.get('rustc', '?')}")
    w(f"- TypeSpec: {meta.get('typespec', '?')} on Node {meta.get('node', '?')}; emitter option `openapi-versions: [3.1.0]` (bench/typespec/tspconfig.yaml)")
    w(f"- timer: {meta.get('timer', '?')}; wall time, peak RSS (largest single process), CPU = user + system")
    w(f"- total run time: {meta.get('total', '?')}")
    w("")

    if sizes:
        w(f"## `stitchgen generate` (all artifacts) vs TypeSpec → OpenAPI 3.1")
        w("")
        w(f"Medians of {meta.get('runs', '?')} runs each, alternating stitchgen, tsp, stitchgen, tsp, …; "
          "every run writes into an empty directory.")
        w("")
        w("| endpoints | shared types | runtime tools | contract | stitchgen wall | stitchgen CPU | stitchgen peak RSS | stitchgen writes | tsp wall | tsp CPU | tsp peak RSS | tsp/stitchgen (wall) |")
        w("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for n in sizes:
            sg = by[("gen", n, "stitchgen")]
            ts = by[("gen", n, "tsp")]
            sgw, tsw = med([r["wall"] for r in sg]), med([r["wall"] for r in ts]) if ts else None
            shape = meta.get(f"shape_{n}", "? ? ?").split(maxsplit=2)
            w(
                f"| {n:,} | {shape[0]} | {shape[1]} | {shape[2]} | **{secs(sgw)}** | {secs(med([r['cpu'] for r in sg]))} | "
                f"{mib(max(r['rss'] for r in sg))} | {meta.get(f'written_{n}', '?')} | "
                + (f"**{secs(tsw)}** | {secs(med([r['cpu'] for r in ts]))} | {mib(max(r['rss'] for r in ts))} | "
                   f"**{tsw / sgw:.2f}×** |" if ts else "n/a | n/a | n/a | n/a |")
            )
        w("")
        w("Every run (wall seconds):")
        w("")
        for n in sizes:
            w(f"- {n:,}: stitchgen {runs([r['wall'] for r in by[('gen', n, 'stitchgen')]])}; "
              f"tsp {runs([r['wall'] for r in by[('gen', n, 'tsp')]])}")
        w("")
        w("Same surface, checked on the first run's two documents by `bench/compare_openapi.py`:")
        w("")
        for n in sizes:
            w(f"- {n:,}: {meta.get(f'equiv_{n}', '?')}")
        w("")

    rer = [n for n in sizes if by[("rerun", n, "stitchgen")]]
    if rer:
        w("## Unchanged rerun of `stitchgen generate` into the same directory")
        w("")
        w("| endpoints | rerun wall (median) | rerun peak RSS | files written (CLI's own line) | files whose inode or mtime changed |")
        w("|---:|---:|---:|---:|---:|")
        for n in rer:
            rr = by[("rerun", n, "stitchgen")]
            w(f"| {n:,} | **{secs(med([r['wall'] for r in rr]))}** | {mib(max(r['rss'] for r in rr))} | "
              f"{', '.join(sorted({r['extra'].split('/')[0] for r in rr}))} | "
              f"{', '.join(sorted({r['extra'].split('/')[1] for r in rr}))} |")
        w("")
        w("Every rerun (wall seconds): " + "; ".join(
            f"{n:,}: {runs([r['wall'] for r in by[('rerun', n, 'stitchgen')]])}" for n in rer))
        w("")

    cold = by[("cold", 0, "cargo")]
    if cold:
        c = cold[0]
        w("## Cold build of stitchgen as a build dependency")
        w("")
        w("A throwaway crate with `[build-dependencies] stitchgen = { path = …, default-features = false }` and a "
          "build.rs that generates `people.stitch.yaml` (build-examples/directory) with "
          "`stitchgen::Config::new().contract(…).generate_to_out_dir()`; fresh `CARGO_TARGET_DIR`, "
          "the workspace's Cargo.lock, `cargo build --offline` (dev profile).")
        w("")
        w("| wall | CPU | peak RSS | crates compiled (`Compiling` lines, the crate itself included) | clap compiled |")
        w("|---:|---:|---:|---:|---:|")
        crates, clap = c["extra"].split("/")
        w(f"| **{secs(c['wall'])}** | {secs(c['cpu'])} | {mib(c['rss'])} | {crates} | {clap} |")
        w("")
    else:
        w("## Cold build of stitchgen as a build dependency")
        w("")
        w("Skipped (`BENCH_COLD=0`).")
        w("")

    csizes = sorted({r["size"] for r in rows if r["section"] == "compile"})
    if csizes:
        w("## Compile time of the generated Rust module vs typify's output alone")
        w("")
        w(f"`cargo build` (dev profile, `CARGO_INCREMENTAL=0`, dependencies already built) of a crate that "
          f"`include!`s the generated `bench.rs`, against a crate that holds only its `pub mod types {{ … }}` "
          f"(the typify output); both depend on stitchgen-runtime alone. Median of {meta.get('compile_runs', '?')} "
          "alternating rebuilds after `touch src/lib.rs`.")
        w("")
        w("| endpoints | full module: lines / bytes | full module compile | peak RSS | types only: lines / bytes | types-only compile | peak RSS | full / types |")
        w("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for n in csizes:
            fu, ty = by[("compile", n, "full")], by[("compile", n, "types")]
            fw, tw = med([r["wall"] for r in fu]), med([r["wall"] for r in ty])
            w(f"| {n:,} | {lines_bytes(meta.get(f'full_size_{n}'))} | **{secs(fw)}** | {mib(max(r['rss'] for r in fu))} | "
              f"{lines_bytes(meta.get(f'types_size_{n}'))} | **{secs(tw)}** | {mib(max(r['rss'] for r in ty))} | **{fw / tw:.2f}×** |")
        w("")
        w("Every rebuild (wall seconds): " + "; ".join(
            f"{n:,}: full {runs([r['wall'] for r in by[('compile', n, 'full')]])}, "
            f"types {runs([r['wall'] for r in by[('compile', n, 'types')]])}" for n in csizes))
        w("")

    notes = meta.get("notes", "")
    if notes:
        w("## Notes")
        w("")
        for note in notes.split(" | "):
            w(f"- {note}")
        w("")
    print("\n".join(out))


if __name__ == "__main__":
    main()
