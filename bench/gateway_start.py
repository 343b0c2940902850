"""Start-up of `stitchgen gateway DOCUMENT mcp`: from launch to the answer of `tools/list` over
stdio (the document imported in memory, checked, its definitions built and every schema compiled),
and the process's peak RSS, for each document given. No origin is called.

usage: gateway_start.py STITCHGEN_BIN RUNS DOCUMENT...

A document ending `.gz` is decompressed into a scratch folder first. Prints one markdown row per
document: tools listed, median wall time to `tools/list`, and the largest peak RSS over the runs.
"""
import gzip
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time


def rpc(id_, method, params=None):
    message = {"jsonrpc": "2.0", "method": method, "params": params or {}}
    if id_ is not None:
        message["id"] = id_
    return (json.dumps(message) + "\n").encode()


def one_run(binary, document, scratch):
    """(seconds to the tools/list answer, tools listed, peak RSS in KiB, by /usr/bin/time)."""
    rss = scratch / "rss"
    start = time.monotonic()
    proc = subprocess.Popen(
        ["/usr/bin/time", "-f", "%M", "-o", str(rss), binary, "gateway", document, "mcp", "--origin", "http://127.0.0.1:9"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}
    proc.stdin.write(rpc(1, "initialize", init))
    proc.stdin.flush()
    tools = None
    for line in proc.stdout:
        answer = json.loads(line)
        if answer.get("id") == 1:
            proc.stdin.write(rpc(None, "notifications/initialized"))
            proc.stdin.write(rpc(2, "tools/list"))
            proc.stdin.flush()
        elif answer.get("id") == 2:
            tools = len(answer["result"]["tools"])
            break
    elapsed = time.monotonic() - start
    proc.stdin.close()
    proc.wait()
    if tools is None:
        raise SystemExit(f"{document}: no tools/list answer (exit {proc.returncode})")
    return elapsed, tools, int(rss.read_text().split()[-1])


def main():
    binary, runs, documents = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="stitchgen-gateway-start."))
    print("| document | tools | to tools/list (median of %d) | runs | peak RSS |" % runs)
    print("|---|---:|---:|---|---:|")
    for document in documents:
        path = pathlib.Path(document)
        if path.suffix == ".gz":
            plain = scratch / path.stem
            plain.write_bytes(gzip.decompress(path.read_bytes()))
            path = plain
        times, tools, peak = [], 0, 0
        for _ in range(runs):
            elapsed, tools, rss = one_run(binary, str(path), scratch)
            times.append(elapsed)
            peak = max(peak, rss)
        shown = ", ".join(f"{t:.2f}" for t in times)
        print(f"| {path.name} | {tools} | {statistics.median(times):.2f} s | {shown} | {peak / 1024:.0f} MiB |", flush=True)
        if path.parent == scratch:
            os.remove(path)
    (scratch / "rss").unlink(missing_ok=True)
    scratch.rmdir()


if __name__ == "__main__":
    main()
