"""Each MCP client served its profile: the Kubernetes document of the corpus (whose tool names
pass what Cursor, VS Code and Claude Code take beside a server key) served from memory by
`stitchgen gateway` in front of Prism mocking the original, reached through the official MCP
Python SDK announcing itself as each client (`clientInfo.name`).

usage: profiles.py STITCHGEN_BIN PRISM_BIN CORPUS_DIR WORK_DIR

Checks, for each client: `tools/list` gives exactly that client's `mcp-tools.NAME.json`, as
`generate --profile NAME` writes it (a client the mapping does not know: `mcp-tools.json`); and
a renamed tool, called by the name the client was listed, answers what the canonical call
through the canonical list answers.
"""
import json
import pathlib
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import Implementation

import corpus
from search import check, failures

# docs/profiles.md: the name each client announces, and its profile.
CLIENTS = [("cursor-vscode", "cursor"), ("Visual Studio Code", "vscode"), ("claude-code", "claude-code")]


def wire(model):
    return model.model_dump(by_alias=True, exclude_none=True, exclude_unset=True, mode="json")


async def session(gateway, prism, pairs, client, call):
    """`tools/list` as `client` is listed it, and the answer to `call` = (name, arguments)."""
    args = gateway[1:] + ["mcp", "--origin", prism.url] + [a for p in pairs for a in ("--credential", p)]
    async with stdio_client(StdioServerParameters(command=gateway[0], args=args)) as (read, write):
        info = Implementation(name=client, version="1.0.0")
        async with ClientSession(read, write, read_timeout_seconds=60, client_info=info) as s:
            await s.initialize()
            tools = wire(await s.list_tools())["tools"]
            if call is None:
                return tools, None
            result = await s.call_tool(*call(tools))
            return tools, (result.is_error, result.structured_content)


def renamed_list_tool(tools):
    """A renamed tool that lists something and needs no argument: its listed name, no arguments."""
    for t in tools:
        canonical = t.get("_meta", {}).get("stitchgen/name", "")
        if canonical.startswith("list_") and not t["inputSchema"].get("required"):
            return t["name"], {}
    raise LookupError("no renamed list tool without a required argument")


def main():
    bin_, prism_bin, corpus_dir, work = sys.argv[1:5]
    work = pathlib.Path(work)
    (work / "docs").mkdir(parents=True, exist_ok=True)
    docs = dict(corpus.unpack(pathlib.Path(corpus_dir), work / "docs"))
    original = next(entry for name, entry in docs.items() if name.startswith("kubernetes"))
    gateway, canonical = corpus.prepare(bin_, "kubernetes", original, work)
    profiles = [a for _, p in CLIENTS for a in ("--profile", p)]
    corpus.run([bin_, "generate", str(work / "kubernetes.stitch.yaml"), "--out", str(work / "gen"), *profiles])
    prism = corpus.Prism(prism_bin, original, work)
    try:
        pairs = corpus.credentials(json.loads((work / "gen" / "openapi.json").read_text()))
        for client, profile in CLIENTS:
            written = json.loads((work / "gen" / f"mcp-tools.{profile}.json").read_text())["tools"]
            name, arguments = renamed_list_tool(written)
            canonical_name = next(t["_meta"]["stitchgen/name"] for t in written if t["name"] == name)
            _, want = anyio.run(session, gateway, prism, pairs, "stitchgen-e2e", lambda _: (canonical_name, arguments))
            tools, got = anyio.run(session, gateway, prism, pairs, client, lambda _: (name, arguments))
            renamed = sum(1 for t in tools if "stitchgen/name" in t.get("_meta", {}))
            check(f"{client}: tools/list is mcp-tools.{profile}.json ({len(tools)} tools, {renamed} renamed)",
                  tools == written and renamed > 0)
            check(f"{client}: {name} answers as {canonical_name} does", got == want and not want[0], (got, want))
        tools, _ = anyio.run(session, gateway, prism, pairs, "stitchgen-e2e", None)
        check("a client the mapping does not know: tools/list is mcp-tools.json", tools == canonical["tools"])
    finally:
        prism.stop()
    print(f"profiles: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
