"""The gateway in front of every corpus document, each mocked by Prism: what a team gets the day it
imports the OpenAPI document it already has.

usage: corpus.py STITCHGEN_BIN PRISM_BIN OAS_PYTHON CORPUS_DIR WORK_DIR [DOCUMENT...]

OAS_PYTHON is a Python with openapi-schema-validator (tests/conformance/venv.sh's); DOCUMENT,
the first word of a corpus file name (`box`), runs only those.

For each document: serve it with `stitchgen gateway DOCUMENT mcp` (imported in memory as
`import --expose` imports it, no build), let Prism mock the original document (it validates every
request against it and answers with data made from it; see mock.py), and call every tool over MCP (the
official Python SDK) with arguments made from its input schema (sample.py). For the documents of
COMPILED, the gateway is also built as Rust for the imported contract (`GATEWAY_CONTRACT`), and
every call must end the same way through both. Each call ends one way:

- answered: the origin's answer passed the contract and came back;
- request refused: the origin answered 4xx (Prism's 422 means the gateway sent what the original
  forbids);
- answer refused: the runner refused the origin's answer (the original allows it, the contract
  does not: an import bug unless explained);
- outside the original: the runner refused an answer that the original refuses too (Prism
  flags its own answer, or an independent OpenAPI validator, original.py, does): right, and the
  tool is called again for an answer Prism generates from the schema (RETRY_SEEDS), which ends
  it as answered or answer refused, or leaves it outside the original;
- arguments refused: the runner refused the made arguments (a gap of sample.py);
- origin error: Prism failed (5xx, no answer, a crash);
- not called: no arguments could be made that the tool's own schema accepts.

One line per document goes to stdout. Every refusal but "outside the original" must be listed,
with its reason, in docs/import.md ("Gateway refusals"); one that is not fails the run, and a
listed one that no longer happens is reported so that the list shrinks. A document fails too
where fewer than MIN_SERVED of the tools were answered or rightly refused, or fewer than
MIN_ANSWERED were answered.

PRISM_DYNAMIC=1 (not set by CI) starts Prism with `-d`: every answer generated from the
original's schemas rather than its examples, for a look at the answers its examples hide. Prism's generator
fails on some of them (Discord's audit log: a TypeError, an origin error listed nowhere).
"""
import concurrent.futures
import fcntl
import fnmatch
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http import server as http_server

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import sample
from mock import for_prism

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "corpus"))
from documents import unpack  # noqa: E402 - the corpus test's own reading of the corpus

ROOT = pathlib.Path(__file__).resolve().parents[3]
IMPORT_DOC = ROOT / "docs" / "import.md"
ORIGINAL = str(pathlib.Path(__file__).resolve().parent / "original.py")
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug"
# The share of a document's tools that must be answered, or refused where the original refuses
# the answer too: what a team adopting the gateway needs to work.
MIN_SERVED = 0.9
# The share that must be answered outright, Prism's generated answers included (RETRY_SEEDS).
MIN_ANSWERED = 0.9
# The documents whose gateway is also compiled (`GATEWAY_CONTRACT`) and held to the in-memory one:
# small ones, since each is a build of its generated module. `GATEWAY_COMPILED="box discord"`
# names others, `all` every one.
COMPILED = set(os.environ.get("GATEWAY_COMPILED", "petstore ollama").split())
# Prism's static answers are the document's own examples or, where it has none, values it makes
# up from the schema that ignore `pattern` (every Discord id is "string"): many break the
# original's schemas, and the runner rightly refuses them. Each tool so refused is called again,
# the same arguments, with Prism asked for an answer its generator draws from the schema
# (`Prefer: dynamic=true, seed=N`, per request; seeded, so that a run repeats), one seed after the
# other until one answer is accepted. A tool counts as answered only on an answer the runner took.
RETRY_SEEDS = ("1", "2", "3")
# One tool call, the origin included: past the gateway's own 30 s on the origin. Prism answers in
# milliseconds, but its generator can spin on a schema for good (it is then started again).
CALL_SECONDS = 45


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def credentials(openapi):
    """A made-up credential for every security scheme the contract imported, as the gateway's
    `--credential` pairs: Prism checks that the one an operation asks for is present, not what
    it is."""
    schemes = openapi.get("components", {}).get("securitySchemes", {})
    basic = lambda s: s.get("type") == "http" and str(s.get("scheme", "")).lower() == "basic"  # noqa: E731
    return [f"{name}={'corpus:token' if basic(s) else 'corpus-token'}" for name, s in sorted(schemes.items())]


def prepare(bin_, name, original, work, flags=()):
    """The exposed contract (imported with `flags` too) and its artifacts, what the checks read;
    and the command of the gateway serving the original document from memory, imported the same
    way, to which `mcp --origin …` is added."""
    contract = work / f"{name}.stitch.yaml"
    run([bin_, "import", str(original), "--expose", *flags, "--out", str(contract), "--color", "never"])
    run([bin_, "generate", str(contract), "--out", str(work / "gen"), "--color", "never"])
    manifest = json.loads((work / "gen" / "mcp-tools.json").read_text())
    return [str(bin_), "gateway", str(original), *flags, "--color", "never"], manifest


def build(contract, work):
    """A gateway binary built for `contract`, and the seconds it took."""
    gateway = work / "gateway"
    # One build at a time across processes: each leaves its binary at the same path until it is
    # copied.
    with open(TARGET.parent / "gateway-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        start = time.monotonic()
        run(["cargo", "build", "--locked", "-q", "-p", "gateway-example"], env={**os.environ, "GATEWAY_CONTRACT": str(contract)})
        shutil.copy(TARGET / "gateway", gateway)
    return [str(gateway)], time.monotonic() - start


def builds(bin_, chosen, work):
    """(name, original, folder, future (in-memory command, manifest, compiled command or None,
    build seconds)) for each document in order: the next one is prepared, and for COMPILED built,
    while the tools of this one are called (the calls are mostly Prism's and the client's single
    core)."""
    def one_document(first, original, dir_):
        served, manifest = prepare(str(bin_), first, original, dir_)
        chosen = first in COMPILED or "all" in COMPILED
        compiled, built = build(dir_ / f"{first}.stitch.yaml", dir_) if chosen else (None, 0.0)
        return served, manifest, compiled, built

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as builder:
        pending = []
        for first, original in chosen:
            dir_ = work / first
            dir_.mkdir(parents=True)
            pending.append((first, original, dir_, builder.submit(one_document, first, original, dir_)))
        yield from pending


def run(argv, env=None):
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, argv[:3]))} exited {proc.returncode}:\n{proc.stderr[-3000:]}")


def outcome(result):
    """(outcome, detail) of one tool call's result."""
    if not result.is_error:
        return "answered", ""
    text = result.content[0].text if result.content else "{}"
    try:
        body = json.loads(text)
    except ValueError:
        return "answer refused", text[:300]
    code, details = body.get("error"), body.get("details") or {}
    status = details.get("status") if isinstance(details, dict) else None
    # The tool envelope keeps its message in `details` (the HTTP one beside `code`).
    message = body.get("message") or (details.get("message", "") if isinstance(details, dict) else "")
    if isinstance(details, dict) and details.get("errors"):
        message += ": " + "; ".join(f"{e.get('path', '')} {e.get('message') or e.get('keyword', '')}" for e in details["errors"][:3])
    if isinstance(status, int) and 400 <= status < 500:
        return "request refused", f"HTTP {status}: {json.dumps(details.get('body'))[:300]}"
    if isinstance(status, int):
        return "origin error", f"HTTP {status}: {json.dumps(details.get('body'))[:300]}"
    if code == "UPSTREAM_ERROR":  # not reached, or no answer in time
        return "origin error", f"{code}: {message[:300] or text[:300]}"
    if code == "VALIDATION_ERROR":
        return "arguments refused", message[:300]
    return "answer refused", f"{code}: {message[:400] or text[:400]}"


async def call_all(gateway, prism, origin, pairs, tools, errlog, only=None):
    """Every tool of `tools` (or of those, the ones named in `only`) called through the gateway
    command `gateway` (a list)."""
    args = gateway[1:] + ["mcp", "--origin", origin] + [a for p in pairs for a in ("--credential", p)]
    params = StdioServerParameters(command=gateway[0], args=args)
    results = {}
    # The gateway's log (what it keeps from callers) goes to a file beside Prism's, not CI's output.
    async with stdio_client(params, errlog=errlog) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            if [t.name for t in listed.tools] != [t["name"] for t in tools]:
                raise RuntimeError(f"tools/list gave {len(listed.tools)} tools, not mcp-tools.json's {len(tools)}")
            for tool in tools:
                if only is not None and tool["name"] not in only:
                    continue
                arguments = sample.arguments(tool["inputSchema"])
                if arguments is None:
                    results[tool["name"]] = ("not called", "no arguments its input schema accepts were made")
                    continue
                try:
                    with anyio.fail_after(CALL_SECONDS):
                        result = await session.call_tool(tool["name"], arguments)
                except TimeoutError:
                    results[tool["name"]] = ("origin error", f"nothing in {CALL_SECONDS} s")
                    prism.stop()
                    continue
                except RuntimeError as e:
                    # The SDK checks structuredContent against the tool's outputSchema.
                    if "structured content" not in str(e):
                        raise
                    results[tool["name"]] = ("answer refused", f"by the MCP client: {str(e)[:400]}")
                    continue
                results[tool["name"]] = outcome(result)
                if "did not answer in time" in results[tool["name"]][1]:
                    prism.stop()  # spinning: started again below, the call counted as no answer
                if "was not reached" in results[tool["name"]][1]:
                    prism.wait_exit(3)  # a crash takes a moment to end the process
                if prism.revive():
                    results[tool["name"]] = ("origin error", "the request crashed Prism")
    return results


def one(e):
    """The error inside an exception group of one, as text."""
    while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
        e = e.exceptions[0]
    return f"{type(e).__name__}: {e}"


def requests_seen(log):
    """Prism's log cut per request, in order: (method and path, the violations it logged)."""
    parts = re.split(r"^.*\[HTTP SERVER\] (\w+ \S+) .*Request received$", log, flags=re.M)
    errors = r"✖\s+error\s+Violation: (.*)$"
    return [(parts[i], re.findall(errors, parts[i + 1], flags=re.M)) for i in range(1, len(parts), 2)]


def attribute(results, log, answers, judge):
    """Marks each refused answer that the original document itself refuses: Prism flagged it,
    or the independent validator (`judge`, original.py) does, on the bytes recorded. The contract
    was right to refuse it. Calls that sent a request map one to one, in order, onto the
    recorded answers, and onto Prism's logged requests unless a crash lost one of those."""
    sent = [tool for tool, (kind, _) in results.items() if kind not in ("not called", "arguments refused")]
    if len(answers) != len(sent):
        raise RuntimeError(f"{len(answers)} answers recorded for {len(sent)} calls that send a request")
    requests = requests_seen(log)
    if len(requests) != len(sent):
        requests = [(None, [])] * len(sent)
    questions = []
    for tool, (route, violations), (request_line, answer) in zip(sent, requests, answers):
        kind, detail = results[tool]
        own = [v for v in violations if v.startswith("response")]
        refused = [v for v in violations if v.startswith("request")]
        if refused:
            results[tool] = ("request refused", f"{route}: Prism: {refused[0]}" + (f" ({detail})" if detail else ""))
        elif kind == "answer refused" and own:
            results[tool] = ("outside the original", f"{route}: Prism flags its own answer: {own[0]}")
        elif kind == "answer refused" and answer is not None:
            questions.append((tool, request_line, answer))
    for (tool, route, _), verdict in zip(questions, judge(questions)):
        if verdict:
            results[tool] = ("outside the original", f"{route}: the original refuses Prism's answer {verdict}")


def retry_outside(results, gateway, prism, recorder, pairs, tools, dir_, judge):
    """Calls each tool whose answer fell outside the original again, with Prism's generated answer
    (RETRY_SEEDS), in place in `results`; the number then answered. An answer the runner refuses
    and the original allows replaces the first outcome (an import bug unless explained); a tool
    that only ever got answers outside the original, or an error of Prism's generator, keeps it."""
    log_path = dir_ / "prism.log"
    again = 0
    for seed in RETRY_SEEDS:
        pending = {name for name, (kind, _) in results.items() if kind == "outside the original"}
        if not pending:
            break
        recorder.prefer, recorder.answers = f"dynamic=true, seed={seed}", []
        start = log_path.stat().st_size
        try:
            with open(dir_ / "gateway.log", "a") as errlog:
                theirs = anyio.run(call_all, gateway, prism, recorder.url, pairs, tools, errlog, pending)
            with log_path.open("rb") as log:
                log.seek(start)
                attribute(theirs, log.read().decode(errors="replace"), recorder.answers, judge)
        finally:
            recorder.prefer = None
        for tool, (kind, detail) in theirs.items():
            if kind == "answered":
                results[tool] = ("answered", f"on Prism's answer generated with seed {seed}")
                again += 1
            elif kind == "answer refused":
                results[tool] = (kind, f"on Prism's answer generated with seed {seed}: {detail}")
    return again


class Recorder:
    """A pass-through between the gateway and Prism that keeps each answer's body, in order, so
    that the original's verdict is on the very bytes the gateway read."""

    def __init__(self, upstream):
        recorder = self
        self.upstream, self.answers = upstream, []
        # Prism's preferences for each request forwarded (its `Prefer` header), if any.
        self.prefer = None

        class Handler(http_server.BaseHTTPRequestHandler):
            def do(self):
                line = f"{self.command.lower()} {self.path}"
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
                if recorder.prefer:
                    headers["Prefer"] = recorder.prefer
                request = urllib.request.Request(recorder.upstream + self.path, data=body, headers=headers,
                                                 method=self.command)
                try:
                    with NO_REDIRECTS.open(request, timeout=CALL_SECONDS) as answer:
                        status, reply, data = answer.status, answer.headers, answer.read()
                except urllib.error.HTTPError as e:
                    status, reply, data = e.code, e.headers, e.read()
                except OSError:
                    self.close_connection = True
                    recorder.answers.append((line, None))
                    return
                recorder.answers.append((line, data if 200 <= status < 300 else None))
                self.send_response(status)
                for k, v in reply.items():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do

            def log_message(self, *_):
                pass

        self.server = http_server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()


class KeepRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_):
        return None


NO_REDIRECTS = urllib.request.build_opener(KeepRedirects)


class Prism:
    """Prism mocking one document on one port, its log appended to `prism.log`; started again
    when a request crashes it (a bug of Prism's: a few parameter styles of a few documents)."""

    def __init__(self, binary, original, work):
        self.argv = [binary, "mock", "--host", "127.0.0.1", "--port", str(free_port()), str(original)]
        if os.environ.get("PRISM_DYNAMIC") == "1":
            self.argv.append("-d")
        self.log_path = work / "prism.log"
        self.proc = None
        self.crashes = 0
        self.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.argv[5]}"

    def start(self):
        start = self.log_path.stat().st_size if self.log_path.exists() else 0
        log = open(self.log_path, "a")
        # Its memory bounded: on a few schemas its generator grows without end.
        env = {**os.environ, "NODE_OPTIONS": "--max-old-space-size=2048"}
        self.proc = subprocess.Popen(self.argv, stdout=log, stderr=subprocess.STDOUT, env=env)
        # Prism reads and dereferences the whole document before it listens: Kubernetes' took
        # over a minute on a loaded 2-core machine. Polled against the clock, not a count.
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if "Prism is listening" in self.log_path.read_text()[start:]:
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"Prism did not start:\n{self.log_path.read_text()[-3000:]}")

    def wait_exit(self, seconds):
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            pass

    def revive(self):
        """Starts Prism again if it died; True if it had."""
        if self.proc.poll() is None:
            return False
        self.crashes += 1
        self.start()
        return True

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def judge_with(original_py, original):
    """A judge of refused answers: original.py's verdict on each recorded answer."""
    def judge(questions):
        asked = []
        for _, route, answer in questions:
            method, path = route.split(" ", 1)
            try:
                body = json.loads(answer or b"null")
            except ValueError:
                body = None
            asked.append({"method": method, "path": path, "body": body})
        if not asked:
            return []
        proc = subprocess.run([original_py, ORIGINAL, str(original)], input=json.dumps(asked),
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"original.py failed:\n{proc.stderr[-2000:]}")
        return json.loads(proc.stdout)
    return judge


def documented():
    """The refusals docs/import.md explains: rows of (document, tools as a glob, outcome, a text
    the refusal's detail holds or "", reason)."""
    text = IMPORT_DOC.read_text()
    section = text.split("## Gateway refusals", 1)[1] if "## Gateway refusals" in text else ""
    section = section.split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("document", "") or set(cells[0]) <= set("-: "):
            continue
        rows.append(tuple(c.strip("`") for c in cells[:4]) + (cells[4],))
    return rows


def explained(rows, document, tool, kind, detail):
    """The first row that explains a refusal, if any."""
    for row in rows:
        doc, tools, outcome, when, _ = row
        if doc == document and fnmatch.fnmatchcase(tool, tools) and outcome == kind and when in detail:
            return row
    return None


KINDS = ("answered", "request refused", "answer refused", "outside the original", "arguments refused", "origin error",
         "not called")


def main():
    bin_, prism, original_py, corpus, work = (pathlib.Path(a).absolute() for a in sys.argv[1:6])
    only = set(sys.argv[6:])
    (work / "docs").mkdir(parents=True, exist_ok=True)
    docs = unpack(corpus, work / "docs")
    if len(docs) != 10:
        raise SystemExit(f"FAIL: the corpus README lists ten documents, found {len(docs)}")
    listed = documented()
    failures, used = [], set()
    chosen = [(re.split(r"[-.]", name)[0], original) for name, original in docs]
    chosen = [(first, original) for first, original in chosen if not only or first in only]
    for first, original, dir_, prepared in builds(bin_, chosen, work):
        try:
            served, manifest, compiled, built = prepared.result()
            openapi = json.loads((dir_ / "gen" / "openapi.json").read_text())
            mock = Prism(prism, for_prism(original, dir_), dir_)
            recorder = Recorder(mock.url)
            try:
                pairs = credentials(openapi)
                with open(dir_ / "gateway.log", "w") as errlog:
                    results = anyio.run(call_all, served, mock, recorder.url, pairs, manifest["tools"], errlog)
                outcomes = {tool: kind for tool, (kind, _) in results.items()}
                log = (dir_ / "prism.log").read_text()
                judge = judge_with(original_py, original)
                attribute(results, log, recorder.answers, judge)
                # The first call of each tool's (the retries' generated answers log thousands).
                violations = log.count("Violation")
                with_generated = retry_outside(results, served, mock, recorder, pairs, manifest["tools"], dir_, judge)
                if compiled:
                    with open(dir_ / "compiled.log", "w") as errlog:
                        theirs = anyio.run(call_all, compiled, mock, mock.url, pairs, manifest["tools"], errlog)
                    for tool, (kind, detail) in sorted(theirs.items()):
                        if outcomes[tool] != kind:
                            failures.append(f"{first}: {tool}: in memory {outcomes[tool]}, compiled {kind}: {detail}")
            finally:
                recorder.close()
                mock.stop()
        except Exception as e:  # noqa: BLE001 - one document's failure is reported, the others run
            failures.append(f"{first}: {one(e)}")
            print(f"gateway corpus: {first:14} FAILED: {one(e)}", flush=True)
            continue
        counts = {}
        for tool, (kind, detail) in sorted(results.items()):
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "answered":
                continue
            with (dir_ / "refusals.txt").open("a") as f:
                f.write(f"{tool}\t{kind}\t{detail}\n")
            if kind == "outside the original":
                continue
            row = explained(listed, first, tool, kind, detail)
            if row is None:
                failures.append(f"{first}: {tool}: {kind}: {detail}")
            else:
                used.add(row)
        served = counts.get("answered", 0) + counts.get("outside the original", 0)
        if served < MIN_SERVED * len(results):
            failures.append(f"{first}: {served} of {len(results)} tools served, fewer than {MIN_SERVED:.0%}")
        if counts.get("answered", 0) < MIN_ANSWERED * len(results):
            failures.append(
                f"{first}: {counts.get('answered', 0)} of {len(results)} tools answered, fewer than {MIN_ANSWERED:.0%}")
        print(f"gateway corpus: {first:14} {len(results):4} tools: " + ", ".join(
            f"{counts.get(k, 0)} {k}" + (f" ({with_generated} on a generated answer)" if k == "answered" else "")
            for k in KINDS) +
              f"; Prism logged {violations} violations on the first calls" +
              (f"; compiled too (built in {built:.0f} s), every call the same" if compiled else ""), flush=True)
    for row in listed:
        if row not in used and (not only or row[0] in only):
            print(f"gateway corpus: docs/import.md explains {row[0]} {row[1]} ({row[2]}), and nothing refused so: "
                  "remove the row")
    for f in failures[:60]:
        print(f"FAIL {f}", file=sys.stderr)
    if len(failures) > 60:
        print(f"FAIL … and {len(failures) - 60} more", file=sys.stderr)
    print(f"gateway corpus: {len(failures)} unexplained refusals")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
