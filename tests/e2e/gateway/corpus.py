"""The gateway in front of every corpus document, each mocked by Prism: what a team gets the day it
imports the OpenAPI document it already has.

usage: corpus.py STITCHGEN_BIN PRISM_BIN OAS_PYTHON CORPUS_DIR WORK_DIR [DOCUMENT...]

OAS_PYTHON is a Python with openapi-schema-validator (tests/conformance/venv.sh's); DOCUMENT,
the first word of a corpus file name (`box`), runs only those.

For each document: import it with `--expose`, build the gateway for that contract
(`GATEWAY_CONTRACT`), let Prism mock the original document (it validates every request against
it and answers with data made from it), and call every tool over MCP (the official Python SDK)
with arguments made from its input schema (sample.py). Each call ends one way:

- answered: the origin's answer passed the contract and came back;
- request refused: the origin answered 4xx (Prism's 422 means the gateway sent what the original
  forbids);
- answer refused: the runner refused the origin's answer (the original allows it, the contract
  does not: an import bug unless explained);
- not called: no arguments could be made that the tool's own schema accepts.

One line per document goes to stdout. Every refusal must be listed, with its reason, in
docs/import.md ("Gateway refusals"); one that is not fails the run, and a listed one that no
longer happens is reported so that the list shrinks.
"""
import gzip
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import time

import urllib.request

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import sample

ROOT = pathlib.Path(__file__).resolve().parents[3]
IMPORT_DOC = ROOT / "docs" / "import.md"
ORIGINAL = str(pathlib.Path(__file__).resolve().parent / "original.py")
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug"
# One tool call, the origin included: past the gateway's own 30 s on the origin. Prism answers in
# milliseconds, but its generator can spin on a schema for good (it is then started again).
CALL_SECONDS = 45


def unpack(corpus, into):
    """(name, entry document) for every corpus document, unpacked into `into`."""
    docs = []
    for path in sorted(corpus.iterdir()):
        if path.name.endswith(".tree.tar.gz"):
            stem = path.name[: -len(".tree.tar.gz")]
            with tarfile.open(path) as tar:
                tar.extractall(into / stem, filter="data")
            entry = next(p for p in sorted((into / stem).rglob("*.v2.yaml")) if p.parent.name == "specification")
            docs.append((stem, entry))
        elif path.name.endswith(".gz"):
            target = into / path.name[: -len(".gz")]
            with gzip.open(path) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            docs.append((re.sub(r"\.(json|yaml)$", "", target.name), target))
    return docs


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def credentials(openapi):
    """A made-up credential for every security scheme the contract imported (Prism checks that
    the one an operation asks for is present, not what it is): the gateway's `--credential`
    pairs, and the headers a request replayed on Prism carries."""
    pairs, headers = [], []
    for name, scheme in sorted(openapi.get("components", {}).get("securitySchemes", {}).items()):
        basic = scheme.get("type") == "http" and str(scheme.get("scheme", "")).lower() == "basic"
        pairs.append(f"{name}={'corpus:token' if basic else 'corpus-token'}")
        if basic:
            headers.append("Authorization: Basic Y29ycHVzOnRva2Vu")
        elif scheme.get("type") == "apiKey" and scheme.get("in") == "header":
            headers.append(f"{scheme['name']}: corpus-token")
        elif scheme.get("type") in ("http", "oauth2", "openIdConnect"):
            headers.append("Authorization: Bearer corpus-token")
    # One Authorization header: the first scheme's.
    seen, kept = set(), []
    for h in headers:
        if h.split(":")[0].lower() not in seen:
            seen.add(h.split(":")[0].lower())
            kept.append(h)
    return pairs, kept


def build(bin_, name, original, work):
    """The exposed contract, its artifacts and a gateway binary built for it."""
    contract = work / f"{name}.stitch.yaml"
    run([bin_, "import", str(original), "--expose", "--out", str(contract), "--color", "never"])
    run([bin_, "generate", str(contract), "--out", str(work / "gen"), "--color", "never"])
    start = time.monotonic()
    run(["cargo", "build", "--locked", "-q", "-p", "gateway-example"], env={**os.environ, "GATEWAY_CONTRACT": str(contract)})
    gateway = work / "gateway"
    shutil.copy(TARGET / "gateway", gateway)
    return gateway, json.loads((work / "gen" / "mcp-tools.json").read_text()), time.monotonic() - start


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
    message = body.get("message", "")
    if isinstance(details, dict) and details.get("errors"):
        message += ": " + "; ".join(f"{e.get('path', '')} {e.get('message', '')}" for e in details["errors"][:3])
    if isinstance(status, int) and 400 <= status < 500:
        return "request refused", f"HTTP {status}: {json.dumps(details.get('body'))[:300]}"
    if isinstance(status, int):
        return "origin error", f"HTTP {status}: {json.dumps(details.get('body'))[:300]}"
    if code == "TIMEOUT" or "was not reached" in json.dumps(details):
        return "origin error", f"{code}: {message[:300] or text[:300]}"
    if code == "VALIDATION_ERROR":
        return "arguments refused", message[:300]
    return "answer refused", f"{code}: {message[:400] or text[:400]}"


async def call_all(gateway, prism, pairs, tools):
    args = ["mcp", "--origin", prism.url] + [a for p in pairs for a in ("--credential", p)]
    params = StdioServerParameters(command=str(gateway), args=args)
    results = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            if len(listed.tools) != len(tools):
                raise RuntimeError(f"tools/list gave {len(listed.tools)} tools, mcp-tools.json {len(tools)}")
            for tool in tools:
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
                if results[tool["name"]][1].startswith("TIMEOUT"):
                    prism.stop()  # spinning: started again below, the call counted as no answer
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


def attribute(results, log, judge):
    """Marks each refused answer that the original document itself refuses: Prism flagged it,
    or the independent validator (`judge`, original.py) does. The contract was right to refuse
    it. Calls that sent a request map one to one, in order, onto Prism's requests."""
    sent = [tool for tool, (kind, _) in results.items() if kind not in ("not called", "arguments refused")]
    requests = requests_seen(log)
    if len(requests) != len(sent):
        print(f"gateway corpus: Prism saw {len(requests)} requests for {len(sent)} calls that send one: "
              "answers are not attributed", flush=True)
        return
    questions = []
    for tool, (route, violations) in zip(sent, requests):
        kind, detail = results[tool]
        answer = [v for v in violations if v.startswith("response")]
        request = [v for v in violations if v.startswith("request")]
        if request:
            results[tool] = ("request refused", f"{route}: Prism: {request[0]}" + (f" ({detail})" if detail else ""))
        elif kind == "answer refused" and answer:
            results[tool] = ("original's example refused", f"{route}: Prism flags its own answer: {answer[0]}")
        elif kind == "answer refused":
            questions.append((tool, route))
    for (tool, route), verdict in zip(questions, judge(questions)):
        if verdict:
            results[tool] = ("original's example refused", f"{route}: the original refuses Prism's answer {verdict}")


class Prism:
    """Prism mocking one document on one port, its log appended to `prism.log`; started again
    when a request crashes it (a bug of Prism's: a few parameter styles of a few documents)."""

    def __init__(self, binary, original, work):
        self.argv = [binary, "mock", "--host", "127.0.0.1", "--port", str(free_port()), str(original)]
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
        for _ in range(600):
            if "Prism is listening" in self.log_path.read_text()[start:]:
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"Prism did not start:\n{self.log_path.read_text()[-3000:]}")

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


def judge_with(original_py, prism, original, headers):
    """A judge of refused answers: each GET replayed on Prism (its static answers do not depend
    on the query), any other judged by the example Prism serves; original.py gives the verdicts."""
    def judge(questions):
        asked = []
        for _, route in questions:
            method, path = route.split(" ", 1)
            asked.append({"method": method, "path": path, "body": replay(prism, path, headers) if method == "get" else None})
        if not asked:
            return []
        proc = subprocess.run([original_py, ORIGINAL, str(original)], input=json.dumps(asked),
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"original.py failed:\n{proc.stderr[-2000:]}")
        return json.loads(proc.stdout)
    return judge


def replay(prism, path, headers):
    request = urllib.request.Request(prism.url + path, headers={"Accept": "application/json"})
    for line in headers:
        name, value = line.split(":", 1)
        request.add_header(name.strip(), value.strip())
    try:
        with urllib.request.urlopen(request, timeout=CALL_SECONDS) as answer:
            return json.loads(answer.read() or b"null")
    except (OSError, ValueError):
        return None


def documented():
    """The refusals docs/import.md lists: {(document, tool): reason}."""
    text = IMPORT_DOC.read_text()
    section = text.split("## Gateway refusals", 1)[1] if "## Gateway refusals" in text else ""
    section = section.split("\n## ", 1)[0]
    listed = {}
    for line in section.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[0] and not set(cells[0]) <= set("-: ") and cells[0] != "document":
            listed[(cells[0], cells[1])] = cells[3]
    return listed


def main():
    bin_, prism, original_py, corpus, work = (pathlib.Path(a).absolute() for a in sys.argv[1:6])
    only = set(sys.argv[6:])
    (work / "docs").mkdir(parents=True, exist_ok=True)
    docs = unpack(corpus, work / "docs")
    if len(docs) != 10:
        raise SystemExit(f"FAIL: the corpus README lists ten documents, found {len(docs)}")
    listed = documented()
    failures, seen = [], set()
    for name, original in docs:
        first = re.split(r"[-.]", name)[0]
        if only and first not in only:
            continue
        dir_ = work / first
        dir_.mkdir(parents=True)
        try:
            gateway, manifest, built = build(str(bin_), first, original, dir_)
            openapi = json.loads((dir_ / "gen" / "openapi.json").read_text())
            mock = Prism(prism, original, dir_)
            try:
                pairs, headers = credentials(openapi)
                results = anyio.run(call_all, gateway, mock, pairs, manifest["tools"])
                mock.revive()
                attribute(results, (dir_ / "prism.log").read_text(), judge_with(original_py, mock, original, headers))
            finally:
                mock.stop()
        except Exception as e:  # noqa: BLE001 - one document's failure is reported, the others run
            failures.append(f"{first}: {one(e)}")
            print(f"gateway corpus: {first:14} FAILED: {one(e)}", flush=True)
            continue
        counts = {}
        for tool, (kind, detail) in sorted(results.items()):
            counts[kind] = counts.get(kind, 0) + 1
            if kind in ("answered", "original's example refused"):
                continue
            seen.add((first, tool))
            (dir_ / "refusals.txt").open("a").write(f"{tool}\t{kind}\t{detail}\n")
            if (first, tool) not in listed:
                failures.append(f"{first}: {tool}: {kind}: {detail}")
        violations = (dir_ / "prism.log").read_text().count("Violation")
        print(f"gateway corpus: {first:14} {len(results):4} tools: " + ", ".join(
            f"{counts.get(k, 0)} {k}" for k in ("answered", "request refused", "answer refused", "original's example refused",
                                                "arguments refused", "origin error", "not called")) +
              f"; Prism logged {violations} violations; built in {built:.0f} s", flush=True)
    stale = sorted(k for k in listed if k not in seen and (not only or k[0] in only))
    for document, tool in stale:
        print(f"gateway corpus: docs/import.md lists {document} {tool}, which no longer fails: remove it")
    for f in failures[:60]:
        print(f"FAIL {f}", file=sys.stderr)
    if len(failures) > 60:
        print(f"FAIL … and {len(failures) - 60} more", file=sys.stderr)
    print(f"gateway corpus: {len(failures)} unexplained refusals")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
