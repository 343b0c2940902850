"""stitchgen's importer beside TypeSpec's, on every corpus document, checked by Optic.

usage: import.py run WORK      (reads its settings from the environment, see bench/import.sh)
       import.py report WORK   (writes markdown to stdout from WORK/raw/*.json and WORK/meta.json)

For each document of the corpus (../shared/corpus, nobody here wrote them):
  stitchgen  `import DOC --out C.stitch.yaml` (as written, no --expose), `generate C --out DIR`;
  TypeSpec   `tsp-openapi3 DOC --output-dir SRC`, `tsp compile SRC/main.tsp` (OpenAPI 3.1.0, JSON);
  Optic      `optic diff DOC ROUNDTRIPPED --check --standard standard.yml --json` for each of the
             two round-tripped documents; the breaking findings (passed false, severity 2) come
             from the ci-run-details.json it writes in its working directory.
One JSON file per document goes to WORK/raw/NAME.json with every breaking finding (rule, location,
message, and the schema found at that location on each side, for reading them).
Python 3.11 standard library only; Node only through the pinned tools.
"""

import concurrent.futures
import json
import os
import pathlib
import re
import resource
import shutil
import subprocess
import sys
import time

CAP_KIB = 8_000_000  # ulimit -v for stitchgen (Node 22 reserves more address space: --max-old-space-size instead)
NODE_HEAP_MIB = 6144


# ---------------------------------------------------------------- corpus: unpacked as the corpus test does

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "corpus"))
from run import unpack  # noqa: E402  (tests/corpus/run.py: one way to read the corpus)
from roundtrip import READINGS, STANDARD, Docs, breaking, op_of, read_all, snippet  # noqa: E402


def short(name):
    """`kubernetes` for `kubernetes-core-v1-1.35.json`: the first word, as IMPORT_SKIP names it."""
    return re.split(r"[-.]", name)[0]


# ---------------------------------------------------------------- running things

def run(argv, log, cwd=None, env=None, cap=False, seconds=600):
    """Runs argv under `timeout` and `nice -n 19` (and `ulimit -v` when cap), stdout+stderr to log
    (stdout alone to log when log is a pair). Returns dict(rc, seconds, peak_mib, timed_out)."""
    full = ["timeout", "-k", "30", str(int(seconds)), "nice", "-n", "19", *map(str, argv)]

    def limit():
        if cap:
            resource.setrlimit(resource.RLIMIT_AS, (CAP_KIB * 1024, CAP_KIB * 1024))

    out_path, err_path = (log, log) if not isinstance(log, tuple) else log
    start = time.monotonic()
    with open(out_path, "wb") as out, (open(err_path, "wb") if err_path != out_path else open(os.devnull, "wb")) as err:
        proc = subprocess.Popen(full, stdout=out, stderr=(subprocess.STDOUT if err_path == out_path else err),
                                cwd=cwd, env=env, preexec_fn=limit)
        _, status, usage = os.wait4(proc.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    return {"rc": rc, "seconds": round(time.monotonic() - start, 1), "peak_mib": round(usage.ru_maxrss / 1024),
            "timed_out": rc in (124, 137, -9)}


def tail(path, n=12, width=300):
    try:
        lines = pathlib.Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return []
    return [l[:width] for l in lines if l.strip()][-n:]


def convert_error(path):
    """The first `SomethingError: message` line of a tsp-openapi3 log (it prints a stack after it)."""
    text = pathlib.Path(path).read_text(errors="replace") if pathlib.Path(path).exists() else ""
    m = re.search(r"^(\w*Error: .*)$", text, re.M)
    return m.group(1)[:300] if m else " | ".join(tail(path, 4))


def tsp_errors(path):
    """The distinct `error ...` diagnostics of a TypeSpec log, without their file positions."""
    seen = []
    text = pathlib.Path(path).read_text(errors="replace") if pathlib.Path(path).exists() else ""
    for line in text.splitlines():
        m = re.search(r"\berror ([\w/@-]+): (.*)", line)
        if m:
            msg = f"{m.group(1)}: {m.group(2).strip()[:240]}"
            if msg not in seen:
                seen.append(msg)
    return seen


# ---------------------------------------------------------------- Optic

def optic_errors(path):
    """Optic's own words for an invalid input: its distinct `invalid openapi:` lines, or its first lines."""
    lines = [l.strip() for l in (pathlib.Path(path).read_text(errors="replace").splitlines() if pathlib.Path(path).exists() else [])]
    invalid = []
    for l in lines:
        if l.startswith("invalid openapi") and l not in invalid:
            invalid.append(l[:400])
    if invalid:
        return invalid
    return [l[:400] for l in lines if l and not re.match(r"^\d+ \|", l) and not l.startswith("at ")][:4]


def optic(ctx, name, importer, original, roundtripped, seconds):
    d = ctx["work"] / "optic" / f"{name}-{importer}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    (d / "standard.yml").write_text(STANDARD)
    argv = [ctx["node"], ctx["optic"], "diff", original, roundtripped, "--check", "--standard", "standard.yml"]
    if short(name) in ctx["loose"]:
        argv += ["--validation", "loose"]
    env = dict(os.environ, NO_UPDATE_NOTIFIER="1", OPTIC_TELEMETRY_LEVEL="off", CI="true",
               NODE_OPTIONS=f"--max-old-space-size={NODE_HEAP_MIB}")
    res = run(argv + ["--json"], (d / "stdout.json", d / "stderr.txt"), cwd=d, env=env, seconds=seconds)
    res["command"] = " ".join(map(str, argv + ["--json"]))
    res["validation"] = "loose" if "--validation" in argv else "strict"
    res["status"] = "?"
    details = d / "ci-run-details.json"
    empty = (d / "stdout.json").stat().st_size == 0
    if res["timed_out"]:
        res["status"] = "timeout"
        res["error"] = f"no verdict within {seconds // 60} min"
        return res
    if empty or not details.exists():
        res["status"] = "error"
        res["error"] = "no output (--json silences Optic's errors)"
        # --json silences the reason: ask again without it, where that is cheap
        if res["seconds"] < ctx["optic_rerun_below"]:
            again = run(argv, d / "error.txt", cwd=d, env=env, seconds=seconds)
            res["rerun_seconds"] = again["seconds"]
            errors = optic_errors(d / "error.txt")
            res["error"] = " ¶ ".join(errors) or res["error"]
            # strict validation refused a document: record why, and diff again with loose validation
            if res["validation"] == "strict" and any(e.startswith("invalid openapi") for e in errors):
                files = sorted({l.strip() for l in (d / "error.txt").read_text(errors="replace").splitlines()
                                if l.strip() in (str(original), str(roundtripped))})
                (d / "strict").mkdir()
                for f in ("stdout.json", "stderr.txt", "error.txt"):
                    shutil.move(str(d / f), str(d / "strict" / f))
                argv += ["--validation", "loose"]
                res2 = run(argv + ["--json"], (d / "stdout.json", d / "stderr.txt"), cwd=d, env=env, seconds=seconds)
                res2["command"] = " ".join(map(str, argv + ["--json"]))
                res2["validation"] = "loose (strict refused " + (", ".join(
                    "the original" if f == str(original) else "the round trip" for f in files) or "a document Optic did not name") + ")"
                res2["strict_error"] = res["error"]
                res2["strict_seconds"] = res["seconds"]
                res = res2
                if res["timed_out"]:
                    res["status"] = "timeout"
                    res["error"] = f"no verdict within {seconds // 60} min (loose)"
                    return res
                if (d / "stdout.json").stat().st_size == 0 or not details.exists():
                    res["status"] = "error"
                    res["error"] = "loose validation: no output either"
                    return res
            else:
                return res
        else:
            return res
    res.update(breaking(details))
    if res["status"] == "error":
        return res
    for f in res["findings"]:
        try:
            f["before"] = snippet(ctx["docs"].at(original, f["json_path"]))
            f["after"] = snippet(ctx["docs"].at(roundtripped, f["json_path"]))
        except Exception as e:  # reading is only a help for the reader
            f["before"] = f["after"] = f"(unreadable: {e})"
    res["counts"] = {c: sum(1 for f in res["findings"] if f["category"] == c) for c in ("requests", "2xx", "other")}
    return res


# ---------------------------------------------------------------- one document

def one(ctx, name, entry):
    work = ctx["work"]
    docs = ctx["docs"]
    row = {"document": name, "entry": str(entry), "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
           "commit": ctx["commit"], "run": os.environ.get("IMPORT_RUN")}
    original_ops = docs.operations(entry)
    row["operations_original"] = len(original_ops)
    heavy = short(name) in ctx["long"]
    optic_seconds = ctx["optic_long"] if heavy else ctx["optic_seconds"]
    say = ctx["say"]

    # stitchgen
    sg = {}
    contract = work / "sg" / f"{name}.stitch.yaml"
    out = work / "sg" / name
    shutil.rmtree(out, ignore_errors=True)
    contract.parent.mkdir(parents=True, exist_ok=True)
    imp = run([ctx["bin"], "import", entry, "--out", contract, "--color", "never"], work / "sg" / f"{name}.import.log",
              cap=True, seconds=600)
    sg["import"] = {**imp, "ok": imp["rc"] == 0, "summary": next((l for l in tail(work / "sg" / f"{name}.import.log", 40)
                                                                   if "operations imported" in l), None)}
    if imp["rc"] == 0:
        gen = run([ctx["bin"], "generate", "--color", "never", contract, "--out", out], work / "sg" / f"{name}.generate.log",
                  cap=True, seconds=600)
        sg["generate"] = {**gen, "ok": gen["rc"] == 0 and (out / "openapi.json").exists()}
        sg["openapi"] = str(out / "openapi.json")
    else:
        sg["generate"] = {"ok": False, "skipped": "import failed"}
        sg["import"]["log"] = tail(work / "sg" / f"{name}.import.log")
    if sg["generate"]["ok"]:
        ops = docs.operations(out / "openapi.json")
        sg["operations"] = len(ops)
        sg["missing_operations"] = sorted(" ".join(o) for o in set(original_ops) - set(ops))
        say(f"{name}: stitchgen {len(ops)}/{len(original_ops)} operations; Optic…")
        sg["optic"] = optic(ctx, name, "stitchgen", entry, out / "openapi.json", optic_seconds)
        say(f"{name}: stitchgen Optic {sg['optic']['status']} {sg['optic'].get('counts', '')} in {sg['optic']['seconds']} s")
    else:
        sg["generate"]["log"] = tail(work / "sg" / f"{name}.generate.log")
    row["stitchgen"] = sg

    # TypeSpec
    ts = {}
    src = work / "tsp" / name / "src"
    tout = work / "tsp" / name / "out"
    shutil.rmtree(work / "tsp" / name, ignore_errors=True)
    src.mkdir(parents=True)
    conv = run([ctx["node"], ctx["tsp_openapi3"], entry, "--output-dir", src], work / "tsp" / name / "convert.log",
               env=dict(os.environ, NODE_OPTIONS=f"--max-old-space-size={NODE_HEAP_MIB}"), seconds=ctx["tsp_seconds"])
    ts["convert"] = {**conv, "ok": conv["rc"] == 0 and (src / "main.tsp").exists()}
    if not ts["convert"]["ok"]:
        ts["convert"]["log"] = tail(work / "tsp" / name / "convert.log")
        ts["convert"]["error"] = convert_error(work / "tsp" / name / "convert.log")
        ts["compile"] = {"ok": False, "skipped": "conversion failed"}
    else:
        comp = run([ctx["node"], ctx["tsp"], "compile", src / "main.tsp", "--config", ctx["tspconfig"], "--output-dir", tout],
                   work / "tsp" / name / "compile.log",
                   env=dict(os.environ, NODE_OPTIONS=f"--max-old-space-size={NODE_HEAP_MIB}"), seconds=ctx["tsp_seconds"])
        ts["compile"] = {**comp, "ok": comp["rc"] == 0 and (tout / "openapi.json").exists(),
                         "errors": tsp_errors(work / "tsp" / name / "compile.log")}
        ts["compile"]["error_count"] = len(re.findall(r"\berror [\w/@-]+:", (work / "tsp" / name / "compile.log").read_text(errors="replace")))
        if not ts["compile"]["ok"]:
            ts["compile"]["log"] = tail(work / "tsp" / name / "compile.log")
    say(f"{name}: TypeSpec convert {ts['convert']['ok']} compile {ts['compile']['ok']}")
    if ts["compile"]["ok"]:
        ops = docs.operations(tout / "openapi.json")
        ts["operations"] = len(ops)
        ts["missing_operations"] = sorted(" ".join(o) for o in set(original_ops) - set(ops))
        ts["optic"] = optic(ctx, name, "typespec", entry, tout / "openapi.json", optic_seconds)
        say(f"{name}: TypeSpec Optic {ts['optic']['status']} {ts['optic'].get('counts', '')} in {ts['optic']['seconds']} s")
    row["typespec"] = ts
    row["finished"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    return row


def main_run(work):
    env = os.environ
    work = pathlib.Path(work).resolve()
    ctx = {
        "work": work,
        "bin": env["IMPORT_BIN"],
        "commit": env.get("IMPORT_COMMIT", "unknown"),
        "node": env["IMPORT_NODE"],
        "optic": env["IMPORT_OPTIC"],
        "tsp": env["IMPORT_TSP"],
        "tsp_openapi3": env["IMPORT_TSP_OPENAPI3"],
        "tspconfig": env["IMPORT_TSPCONFIG"],
        "optic_seconds": int(env.get("IMPORT_OPTIC_TIMEOUT", "1200")),
        "optic_long": int(env.get("IMPORT_LONG_TIMEOUT", "2400")),
        "optic_rerun_below": int(env.get("IMPORT_OPTIC_RERUN_BELOW", "300")),
        "tsp_seconds": int(env.get("IMPORT_TSP_TIMEOUT", "1200")),
        "long": set(env.get("IMPORT_LONG", "kubernetes").replace(",", " ").split()),
        "loose": set(env.get("IMPORT_LOOSE", "hetzner").replace(",", " ").split()),
        "docs": Docs(),
        "say": lambda m: print(f"import: {time.strftime('%H:%M:%S')} {m}", file=sys.stderr, flush=True),
    }
    skip = set(env.get("IMPORT_SKIP", "").replace(",", " ").split())
    only = set(env.get("IMPORT_ONLY", "").replace(",", " ").split())
    corpus = pathlib.Path(env["IMPORT_CORPUS"])
    if not (corpus / "README.md").is_file():
        raise SystemExit(f"FAIL: no corpus at {corpus}")
    docs_dir = work / "docs"
    shutil.rmtree(docs_dir, ignore_errors=True)
    docs_dir.mkdir(parents=True)
    docs = unpack(corpus, docs_dir)
    if len(docs) != 10:
        raise SystemExit(f"FAIL: the corpus README lists ten documents, found {len(docs)}")
    raw = work / "raw"
    raw.mkdir(exist_ok=True)
    # the heavy ones last, so that a stop leaves the most rows
    docs.sort(key=lambda d: (short(d[0]) in ctx["long"], d[0].startswith("digitalocean"), d[0]))
    (work / "tsp").mkdir(exist_ok=True)
    link = work / "tsp" / "node_modules"
    if not link.exists():
        link.symlink_to(pathlib.Path(env["IMPORT_TSP_MODULES"]))
    todo = []
    for name, entry in docs:
        if short(name) in skip or (only and short(name) not in only):
            if not (raw / f"{name}.json").exists():
                (raw / f"{name}.json").write_text(json.dumps({"document": name, "skipped": True,
                                                              "operations_original": len(ctx["docs"].operations(entry))}))
            ctx["say"](f"{name}: skipped")
        else:
            todo.append((name, entry))

    def job(item):
        name, entry = item
        ctx["say"](f"{name}: start")
        try:
            row = one(ctx, name, entry)
        except Exception as e:  # one document's surprise must not lose the others' rows
            import traceback
            row = {"document": name, "crashed": traceback.format_exc(), "run": os.environ.get("IMPORT_RUN"),
                   "operations_original": None}
            ctx["say"](f"{name}: bench/import.py failed: {e}")
        (raw / f"{name}.json").write_text(json.dumps(row, indent=1, ensure_ascii=False))
        ctx["say"](f"{name}: done")

    jobs = int(env.get("IMPORT_JOBS", "1"))
    if jobs > 1:
        # the slow ones first, so that they do not finish alone at the end
        todo.sort(key=lambda d: (not (short(d[0]) in ctx["long"] or d[0].startswith("digitalocean")), d[0]))
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            list(pool.map(job, todo))
    else:
        for item in todo:
            job(item)
    return 0


# ---------------------------------------------------------------- report

def cell_optic(o):
    if o is None:
        return "—"
    if o["status"] in ("ok", "breaking"):
        c = o["counts"]
        return f"{c['requests']} / {c['2xx']} / {c['other']}" + (" (loose)" if o["validation"] != "strict" else "")
    return f"**{o['status']}**"


def yes(b):
    return "yes" if b else "**no**"


def main_report(work):
    work = pathlib.Path(work)
    meta = json.loads((work / "meta.json").read_text())
    rows = [json.loads(p.read_text()) for p in sorted((work / "raw").glob("*.json"))]
    p = print
    p("# Importers side by side: stitchgen and TypeSpec on the OpenAPI corpus\n")
    p("Every corpus document (../shared/corpus, unmodified) goes through each importer and back to OpenAPI;")
    p("Optic 1.0.9 then diffs the original (before) against the round-tripped document (after) with its")
    p("breaking-changes ruleset. A breaking finding is one a client of the original would notice if the")
    p("round-tripped document were the truth. Written by `bench/import.sh` (bench/import.py).\n")
    for k in ("date", "command", "machine", "load", "stitchgen", "typespec", "node", "optic", "total"):
        if k in meta:
            p(f"- **{k}**: {meta[k]}")
    p("")
    p("| document | ops in original | stitchgen ops | generate ok | stitchgen Optic breaking (req / 2xx / other) "
      "| TypeSpec ops | convert ok | compile ok | TypeSpec Optic breaking (req / 2xx / other) |")
    p("|---|---:|---:|---|---|---:|---|---|---|")
    notes = []
    for r in rows:
        if r.get("skipped") or r.get("crashed"):
            p(f"| {r['document']} | {r['operations_original']} | {'skipped' if r.get('skipped') else '**bench/import.py crashed**'} | | | | | | |")
            if r.get("crashed"):
                notes.append(f"{r['document']}: bench/import.py crashed: {r['crashed'][-600:]}")
            continue
        sg, ts = r["stitchgen"], r["typespec"]
        if r.get("run") != meta.get("run"):
            notes.append(f"{r['document']}: row from an earlier run ({r.get('started')}, commit {r.get('commit')}), kept by IMPORT_ONLY")
        sgok = sg["import"]["ok"] and sg["generate"]["ok"]
        p(f"| {r['document']} | {r['operations_original']} | {sg.get('operations', '—')} | "
          f"{yes(sgok)}{'' if sg['import']['ok'] else ' (import failed)'} | {cell_optic(sg.get('optic'))} | "
          f"{ts.get('operations', '—')} | {yes(ts['convert']['ok'])} | "
          f"{yes(ts['compile']['ok']) if 'skipped' not in ts['compile'] else '—'} | {cell_optic(ts.get('optic'))} |")
        for who, d in (("stitchgen", sg), ("TypeSpec", ts)):
            o = d.get("optic")
            if o and o["status"] in ("error", "timeout"):
                notes.append(f"{r['document']}, {who}: Optic {o['status']} after {o['seconds']} s: {o.get('error', '')[:700]}")
            if o and o.get("strict_error"):
                notes.append(f"{r['document']}, {who}: Optic diffed with {o['validation']}; strict validation said "
                             f"(after {o['strict_seconds']} s): {o['strict_error'][:700]}")
            if d.get("missing_operations"):
                notes.append(f"{r['document']}, {who}: {len(d['missing_operations'])} operations of the original are not in "
                             f"its output, e.g. {', '.join(d['missing_operations'][:3])}")
        if not sg["import"]["ok"] or not sg["generate"]["ok"]:
            notes.append(f"{r['document']}, stitchgen: {'import' if not sg['import']['ok'] else 'generate'} failed: "
                         + " | ".join((sg['import'].get('log') or sg['generate'].get('log') or [])[-4:]))
        if not ts["convert"]["ok"]:
            notes.append(f"{r['document']}, TypeSpec: tsp-openapi3 failed (exit {ts['convert']['rc']}"
                         f"{', timeout' if ts['convert']['timed_out'] else ''}): {ts['convert'].get('error')}")
        elif not ts["compile"]["ok"]:
            errs = ts["compile"].get("errors", [])
            notes.append(f"{r['document']}, TypeSpec: tsp compile failed (exit {ts['compile']['rc']}"
                         f"{', timeout' if ts['compile']['timed_out'] else ''}), {ts['compile'].get('error_count', 0)} errors, "
                         f"{len(errs)} distinct: " + " ¶ ".join(errs[:4]))
    p("\n`req` = findings located in an operation's parameters or request body; `2xx` = in a success "
      "response; `other` = everything else (non-2xx and `default` responses, removed operations). "
      "Hetzner is diffed with `--validation loose`. Optic's exit code is 1 for breaking findings and for "
      "invalid input alike; an empty stdout is read as an error.\n")
    if notes:
        p("## Notes\n")
        for n in notes:
            p(f"- {n}")
        p("")
    p("## Optic runs\n")
    p("| document | importer | status | wall s | peak MiB | checks | findings below error |")
    p("|---|---|---|---:|---:|---:|---:|")
    for r in rows:
        for who in ("stitchgen", "typespec"):
            o = (r.get(who) or {}).get("optic")
            if o:
                p(f"| {r['document']} | {who} | {o['status']} | {o['seconds']} | {o['peak_mib']} | {o.get('checks', '—')} "
                  f"| {o.get('failed_below_error', '—')} |")
    p("\n## stitchgen's breaking findings by kind\n")
    p("Grouped by Optic rule and message (names blanked); one example each, with the schema at that location "
      "before (original) and after (stitchgen's openapi.json), `$ref`s on the way followed. Every finding is in "
      f"the raw files ({meta.get('raw', 'WORK/raw')}/NAME.json).\n")
    docs = Docs()
    groups = {}
    for r in rows:
        o = (r.get("stitchgen") or {}).get("optic") or {}
        after = pathlib.Path(r.get("stitchgen", {}).get("openapi") or work / "sg" / r["document"] / "openapi.json")
        if o.get("findings") and after.exists():
            read_all(o["findings"], docs, r["entry"], after)
        for f in o.get("findings", []):
            key = (f["category"], f["kind"], f.get("reading"))
            g = groups.setdefault(key, {"count": 0, "docs": {}, "example": (r["document"], f), "codes": {}})
            segs = f["json_path"].split("/")
            if "responses" in segs and segs.index("responses") + 1 < len(segs):
                c = segs[segs.index("responses") + 1]
                g["codes"][c] = g["codes"].get(c, 0) + 1
            g["count"] += 1
            g["docs"][r["document"]] = g["docs"].get(r["document"], 0) + 1
    for (cat, k, h), g in sorted(groups.items(), key=lambda kv: (["requests", "2xx", "other"].index(kv[0][0]), -kv[1]["count"])):
        doc, f = g["example"]
        per = ", ".join(f"{short(d)} {n}" for d, n in sorted(g["docs"].items(), key=lambda x: -x[1]))
        p(f"- **[{cat}] {k}** — {g['count']} ({per})")
        p(f"  - reading: {f'`{h}`: ' + READINGS[h] if h else '(none: no documented lowering explains it)'}")
        if g["codes"]:
            p("  - statuses: " + ", ".join(f"{c} {n}" for c, n in sorted(g["codes"].items(), key=lambda x: -x[1])))
        p(f"  - e.g. {short(doc)}: {f['where']} — `{f['json_path']}`")
        if f.get("before") or f.get("after"):
            p(f"  - before: `{(f.get('before') or 'absent')[:300]}`")
            p(f"  - after: `{(f.get('after') or 'absent')[:300]}`")
    if not groups:
        p("None.")
    for r in rows:  # the readings go back into the raw rows
        if not r.get("skipped") and not r.get("crashed"):
            (work / "raw" / f"{r['document']}.json").write_text(json.dumps(r, indent=1, ensure_ascii=False))
    p("\n## TypeSpec's breaking findings by kind (counts)\n")
    tgroups = {}
    for r in rows:
        o = (r.get("typespec") or {}).get("optic") or {}
        for f in o.get("findings", []):
            key = (f["category"], f["kind"])
            tgroups[key] = tgroups.get(key, 0) + 1
    for (cat, k), n in sorted(tgroups.items(), key=lambda kv: -kv[1]):
        p(f"- [{cat}] {k} — {n}")
    if not tgroups:
        p("None.")
    return 0


if __name__ == "__main__":
    cmd, work = sys.argv[1], sys.argv[2]
    sys.exit(main_run(work) if cmd == "run" else main_report(work))
