"""Real API descriptions through stitchgen, as a team adopting it would run them.

usage: run.py BIN CORPUS_DIR MCP_SPEC_DIR WORK_DIR RUNTIME_DIR OPTIC_JS

Every document of the corpus (nobody here wrote them) is imported twice, as written and with
`--expose`; each contract must pass `check`, and `generate` must succeed within the time and
memory bounds below, with every MCP tool valid against the official schema and within its
byte budget, and every artifact valid (tests/conformance/validate.py). The Rust modules of the
exposed contracts are then type-checked together in one crate that depends on
stitchgen-runtime alone, under deny(warnings, missing_docs) (tests/e2e/gateway builds each into a
binary and runs it).
The round trip (tests/corpus/roundtrip.py): Optic diffs each original against the openapi.json
generated from its import as written; every breaking finding must be one a documented lowering
explains (docs/import.md, "Round trip"); the four documents Optic is slowest on are diffed cut to
requests and success responses, every Nth route (OPTIC_SCOPED).
One line per document and mode goes to stdout, so a regression shows in the CI log.
Exits 1 when anything fails; a missing corpus fails too, it never skips.
"""

import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import time

import roundtrip
from documents import unpack

HERE = pathlib.Path(__file__).resolve().parent
VALIDATE = HERE.parent / "conformance" / "validate.py"
IMPORT_DOC = HERE.parent.parent / "docs" / "import.md"

# Bounds on one `generate` of the debug binary. The slowest document, DigitalOcean, took 3.4 s
# and 400 MiB on a quiet 2-core machine (2026-12-02): about ten times that, so a loaded CI
# machine passes and a 10x regression does not.
MAX_SECONDS = 30.0
MAX_MIB = 4000
# The default per-tool byte budget (docs/dsl.md); imported contracts set none.
BUDGET = 16 * 1024
TARGET = "2025-11-25"
# docs/profiles.md: each written for the imports with --expose, and validated by VALIDATE.
PROFILES = ["openai-strict", "openai", "anthropic", "gemini", "cursor", "vscode", "claude-code"]

# The round trip's Optic diff, by the document's first word. Optic's cost grows faster than a
# document's dereferenced size: on these four, the whole document took it 14 min (Box) to over
# 40 min (DigitalOcean) on 2 cores (bench/results/import-latest.md). They are diffed cut to the
# issue's scope (roundtrip.slice_pair: requests and success responses; what the documented
# lowerings leave out of an answer counted under their readings) and to every Nth route: (N, how
# many of the N slices), as much as CI's minutes allow (2026-12-04, two side by side beside a
# compile: Box 2/4 in ~3 min, Kubernetes 1/2 in ~5 min, Discord 1/4 in ~2 min, DigitalOcean 1/8
# in ~5 min).
OPTIC_SCOPED = {"box": (4, 2), "digitalocean": (8, 1), "discord": (4, 1), "kubernetes": (2, 1)}
# Optic's strict validation refuses these originals (not stitchgen's output): diffed loosely.
OPTIC_LOOSE = {"box", "digitalocean", "discord", "hetzner"}
# One diff took 218 s at most alone (Kubernetes' slice, 2026-12-04); two run side by side beside a
# compile: about five times that.
OPTIC_SECONDS = 1200


def timed(argv):
    """Runs argv; returns (exit code, stdout+stderr text, wall seconds, peak RSS in MiB)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, out.decode(errors="replace"), time.monotonic() - start, usage.ru_maxrss / 1024


def cost(tool):
    """A tool's definition as its budget counts it: the compact entry, less the catalog stamp."""
    tool = json.loads(json.dumps(tool))
    meta = tool.get("_meta", {})
    meta.pop("stitchgen/catalog", None)
    if not meta:
        tool.pop("_meta", None)
    return len(json.dumps(tool, separators=(",", ":"), ensure_ascii=False).encode())


def one(bin_, name, entry, expose, work, spec_dir, failures):
    """Imports, checks and generates one document; returns the generated Rust module, if any."""
    mode = "expose" if expose else "plain"
    label = f"{name} ({mode})"
    contract = work / f"{name}-{mode}.stitch.yaml"
    argv = [bin_, "import", str(entry), "--out", str(contract)] + (["--expose"] if expose else [])
    code, out, _, _ = timed(argv + ["--color", "never"])
    if code != 0:
        failures.append(f"{label}: import exited {code}:\n{out[-2000:]}")
        return None
    code, out, _, _ = timed([bin_, "check", "--color", "never", str(contract)])
    if code != 0 or "error[" in out:
        failures.append(f"{label}: check exited {code}:\n{out[-2000:]}")
        return None
    dest = work / f"{name}-{mode}"
    # The imports with --expose are the tool lists people hand a model: every client profile too.
    profiles = [arg for p in PROFILES for arg in ("--profile", p)] if expose else []
    code, out, secs, mib = timed([bin_, "generate", "--color", "never", str(contract), "--out", str(dest)] + profiles)
    if code != 0:
        failures.append(f"{label}: generate exited {code}:\n{out[-2000:]}")
        return None
    if secs > MAX_SECONDS or mib > MAX_MIB:
        failures.append(f"{label}: generate took {secs:.1f} s and {mib:.0f} MiB (bounds {MAX_SECONDS} s, {MAX_MIB} MiB)")
    start = time.monotonic()
    proc = subprocess.run([sys.executable, VALIDATE, str(dest), str(spec_dir), TARGET], capture_output=True, text=True)
    checked = time.monotonic() - start
    if proc.returncode != 0:
        failures.append(f"{label}: artifacts fail validation:\n{(proc.stdout + proc.stderr)[-2000:]}")
    tools = json.loads((dest / "mcp-tools.json").read_text())["tools"]
    over = [t["name"] for t in tools if cost(t) > BUDGET]
    if over:
        failures.append(f"{label}: {len(over)} tools past the {BUDGET}-byte budget: {', '.join(over[:5])}")
    openapi = json.loads((dest / "openapi.json").read_text())
    operations = sum(1 for item in openapi.get("paths", {}).values() for k in item if k in METHODS)
    largest = max((cost(t) for t in tools), default=0)
    print(
        f"corpus: {label:58} {operations:4} operations {len(tools):4} tools "
        f"{secs:6.2f} s {mib:6.0f} MiB largest tool {largest:6} bytes (validated in {checked:.0f} s)",
        flush=True,
    )
    modules = [p for p in dest.glob("*.rs")]
    return modules[0] if len(modules) == 1 else None


METHODS = roundtrip.METHODS


def round_trip_jobs(name, original, after, work):
    """The Optic diffs of one document's round trip, as (weight, thunk) pairs: the whole document,
    or each slice of a scoped one (OPTIC_SCOPED). The weight, the size of the generated document
    it covers, orders them; each thunk runs in its own folder, so that they can run side by side."""
    first = re.split(r"[-.]", name)[0]
    loose = first in OPTIC_LOOSE
    size = after.stat().st_size
    if first not in OPTIC_SCOPED:
        return [(size, lambda: (original, after, work, loose, ""))]
    every, slices = OPTIC_SCOPED[first]

    def sliced(offset):
        before, after_s, routes, counts = roundtrip.slice_pair(original, after, every, offset, work)
        scope = f"; slice {offset + 1} of {every}: {routes} routes, requests and success responses, left out: " + \
            ", ".join(f"{k} {n}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))
        return before, after_s, work / f"slice-{offset}", loose, scope

    return [(size // every, lambda offset=offset: sliced(offset)) for offset in range(slices)]


def round_trips(docs, work, optic_js, failures):
    """Optic's breaking findings between each original and the openapi.json generated from its
    import as written: each must have a reading (a documented lowering), or the round trip changed
    the API unexplained. Optic runs on one core; two diffs run at a time, the longest first."""
    jobs = []
    for name, entry in docs:
        after = work / f"{name}-plain" / "openapi.json"
        if after.is_file():
            for weight, job in round_trip_jobs(name, entry, after, work / f"{name}-optic"):
                jobs.append((weight, name, job))
    # The largest diffs take longest: started first, the two workers end close together.
    jobs.sort(key=lambda j: (-j[0], j[1]))

    def run(name, job):
        original, after, dir_, loose, scope = job()
        diff(name, original, after, dir_, optic_js, loose, scope, failures)

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for f in [pool.submit(run, name, job) for _, name, job in jobs]:
            f.result()


def diff(name, original, after, work, optic_js, loose, scope, failures):
    """One Optic diff, its findings read; one line on stdout, a failure per unread finding."""
    res = roundtrip.run_optic("node", optic_js, original, after, work, loose=loose, seconds=OPTIC_SECONDS)
    if res["status"] not in ("ok", "breaking"):
        failures.append(f"{name}: Optic gave no verdict on the round trip ({res['status']}): {res.get('error')}")
        return
    unread = roundtrip.read_all(res["findings"], roundtrip.Docs(), original, after)
    readings = {}
    for f in res["findings"]:
        readings[f["reading"]] = readings.get(f["reading"], 0) + 1
    shown = ", ".join(f"{k} {n}" for k, n in sorted(readings.items(), key=lambda kv: (kv[0] is None, -kv[1], str(kv[0]))))
    print(f"corpus: {name + ' (round trip)':58} {res['seconds']:6.1f} s {len(res['findings']):5} breaking findings, "
          f"{len(unread)} unexplained; exceptions: {shown or 'none'}{scope}", flush=True)
    for f in unread[:5]:
        failures.append(f"{name}: the round trip changed the API, and no documented lowering explains it "
                        f"(docs/import.md, \"Round trip\"): [{f['category']}] {f['kind']} at {f['json_path']}")
    if len(unread) > 5:
        failures.append(f"{name}: {len(unread) - 5} more unexplained round-trip findings")


def readings_documented(failures):
    """Every reading the round trip accepts is listed, with its reason, in docs/import.md."""
    text = IMPORT_DOC.read_text()
    missing = [r for r in roundtrip.READINGS if f"`{r}`" not in text]
    if missing:
        failures.append(f"docs/import.md does not list these round-trip exceptions: {', '.join(missing)}")


def workspace(dir_, runtime, modules, root_lock):
    """A workspace of one crate per module, each depending on stitchgen-runtime alone: rustc
    checks them two at a time, and no one of them needs the memory of all together."""
    members = []
    for i, (name, module) in enumerate(modules):
        member = f"m{i}"
        src = dir_ / member / "src"
        src.mkdir(parents=True)
        (dir_ / member / "Cargo.toml").write_text(
            f"[package]\nname = \"corpus-{member}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n"
            f"[dependencies]\nstitchgen-runtime = {{ path = {json.dumps(str(runtime))} }}\n"
        )
        shutil.copy(module, src / "module.rs")
        # The module reads its generation's documents from beside it (`OPENAPI`, `MCP_TOOLS`, …).
        for document in module.parent.glob("*.json"):
            shutil.copy(document, src / document.name)
        (src / "lib.rs").write_text(
            f"//! The Rust module stitchgen generates for `{name}`.\n#![deny(warnings, missing_docs)]\n\n"
            "include!(\"module.rs\");\n"
        )
        members.append(member)
    (dir_ / "Cargo.toml").write_text(
        "[workspace]\nresolver = \"3\"\nmembers = [" + ", ".join(json.dumps(m) for m in members) + "]\n"
    )
    # The repository's lock, so that the crates build on the versions the tests ran on.
    shutil.copy(root_lock, dir_ / "Cargo.lock")
    return members


def cargo(dir_, args, label, failures):
    start = time.monotonic()
    proc = subprocess.run(["cargo", *args, "--quiet"], cwd=dir_, capture_output=True, text=True)
    secs = time.monotonic() - start
    print(f"corpus: cargo {args[0]} of {label}: exit {proc.returncode} in {secs:.0f} s", flush=True)
    if proc.returncode != 0:
        failures.append(f"cargo {args[0]} of {label} failed:\n{proc.stderr[-4000:]}")


def compile_modules(dir_, runtime, modules, failures):
    """Every exposed module type-checked in a crate of its own. (Each is built into a binary,
    and run, by the gateway's end-to-end test, tests/e2e/gateway/corpus.py.)"""
    workspace(dir_, runtime, modules, runtime.parent / "Cargo.lock")
    cargo(dir_, ["check", "--workspace"], "every corpus module", failures)


def main():
    bin_, corpus, spec_dir, work, runtime, optic_js = (pathlib.Path(a).resolve() for a in sys.argv[1:7])
    if not (corpus / "README.md").is_file():
        raise SystemExit(f"FAIL: the OpenAPI corpus is not at {corpus}: lay it out beside the clone or set STITCHGEN_CORPUS_DIR")
    if not (spec_dir / f"schema-{TARGET}.json").is_file():
        raise SystemExit(f"FAIL: the MCP schema {TARGET} is not in {spec_dir}: set MCP_SPEC_DIR")
    docs_dir = work / "docs"
    docs_dir.mkdir(parents=True)
    docs = unpack(corpus, docs_dir)
    if len(docs) != 10:
        raise SystemExit(f"FAIL: the corpus README lists ten documents, found {len(docs)}")
    failures = []
    readings_documented(failures)
    # Two documents at a time: a generate is timed against bounds ten times its quiet cost, and
    # the validators that follow run on one core.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        runs = [(name, expose, pool.submit(one, str(bin_), name, entry, expose, work, spec_dir, failures))
                for name, entry in docs for expose in (False, True)]
        modules = [(name, run.result()) for name, expose, run in runs if expose and run.result() is not None]
    if len(modules) == len(docs):
        compiled = threading.Thread(target=compile_modules, args=(work / "crates", runtime, modules, failures))
        compiled.start()
    else:
        compiled = None
        failures.append(f"only {len(modules)} of {len(docs)} documents generated a Rust module")
    # Beside the compile: Optic and rustc are mostly one core each. After every generate: reading
    # the round trips grows this process, and a child's peak RSS starts from its parent's at the fork.
    round_trips(docs, work, optic_js, failures)
    if compiled is not None:
        compiled.join()
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    print(f"corpus: {len(docs)} documents, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
