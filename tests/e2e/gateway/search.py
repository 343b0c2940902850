"""Search mode in front of a real API: the DigitalOcean document of the corpus, imported with
`--expose --search` and served from memory (`stitchgen gateway DOCUMENT --search mcp`), in front
of Prism mocking the original, called through the official MCP Python SDK as a model's client
would.

usage: search.py STITCHGEN_BIN PRISM_BIN CORPUS_DIR WORK_DIR MCP_SPEC_DIR

Checks: `mcp-tools.json` lists three tools in at most 2 KB of compact JSON, each valid against
the official MCP schema (2025-11-25), as is every definition of the catalog; `tools/list` gives
exactly those; `search_tools` finds the droplet creation for "create a droplet"; `describe_tools`
gives its definition as the catalog holds it; `call_tool` refuses an invalid argument with a
VALIDATION_ERROR naming its path, before anything reaches the origin, and answers a valid call
with the tool's own answer; unknown names are refused with the closest ones.
"""
import json
import pathlib
import sys

import anyio
from jsonschema import Draft202012Validator
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import corpus
import sample

UPFRONT_BYTES = 2048
QUERY = "create a droplet"

failures = []


def check(what, cond, detail=""):
    print(f"{'ok  ' if cond else 'FAIL'} {what}" + (f": {detail}" if detail and not cond else ""), flush=True)
    if not cond:
        failures.append(what)


def tool_validator(spec_dir):
    doc = json.loads((spec_dir / "schema-2025-11-25.json").read_text())
    return Draft202012Validator({"$schema": doc["$schema"], "$ref": "#/$defs/Tool", "$defs": doc["$defs"]})


def error_of(result):
    text = result.content[0].text if result.content else "{}"
    try:
        return json.loads(text)
    except ValueError:
        return {"error": None, "message": text}


def message_of(result):
    """The message of a tool error envelope: `{"error", "details": {"message"}, "hint"?}`."""
    return (error_of(result).get("details") or {}).get("message", "")


def requests_seen(prism):
    return prism.log_path.read_text().count("Request received")


async def session_checks(gateway, prism, pairs, catalog):
    args = gateway[1:] + ["mcp", "--origin", prism.url] + [a for p in pairs for a in ("--credential", p)]
    async with stdio_client(StdioServerParameters(command=gateway[0], args=args)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            names = sorted(t.name for t in listed.tools)
            check("tools/list gives the three tools", names == ["call_tool", "describe_tools", "search_tools"], names)

            found = await session.call_tool("search_tools", {"query": QUERY})
            hits = (found.structured_content or {}).get("tools", [])
            check(f"search_tools answers {QUERY!r}", not found.is_error and hits, found.content)
            first = hits[0]["name"] if hits else ""
            check("the droplet creation is the first match", first.startswith("droplets_create"), hits[:3])
            if not first:
                return

            described = await session.call_tool("describe_tools", {"names": [first]})
            definitions = (described.structured_content or {}).get("tools", [])
            check("describe_tools gives the definition the catalog holds",
                  definitions == [catalog[first]], json.dumps(definitions)[:300])
            schema = catalog[first]["inputSchema"]

            valid = sample.arguments(schema)
            check("arguments are made from the described input schema", valid is not None)
            if valid is None:
                return
            invalid = {**valid, "size": 42} if "size" in json.dumps(schema) else {**valid, "name": 42}
            before = requests_seen(prism)
            refused = await session.call_tool("call_tool", {"name": first, "arguments": invalid})
            body = error_of(refused)
            paths = [e.get("path") for e in (body.get("details") or {}).get("errors", [])]
            check("an invalid argument is a VALIDATION_ERROR", refused.is_error and body.get("error") == "VALIDATION_ERROR", body)
            check("the error names the argument's path", any(p in ("/size", "/name") for p in paths), paths)
            check("the invalid call never reached the origin", requests_seen(prism) == before)

            answered = await session.call_tool("call_tool", {"name": first, "arguments": valid})
            check("a valid call answers the tool's own answer",
                  not answered.is_error and isinstance(answered.structured_content, dict), answered.content[:1])
            if answered.structured_content is not None and "outputSchema" in catalog[first]:
                errors = list(Draft202012Validator(catalog[first]["outputSchema"]).iter_errors(answered.structured_content))
                check("the answer fits the tool's own outputSchema", not errors, [e.message for e in errors[:3]])

            typo = first.replace("create", "craete")
            unknown = await session.call_tool("call_tool", {"name": typo, "arguments": {}})
            message = message_of(unknown)
            check("an unknown name is refused with the closest names", unknown.is_error and first in message, message)
            unknown = await session.call_tool("describe_tools", {"names": [typo]})
            message = message_of(unknown)
            check("describe_tools refuses it too", unknown.is_error and first in message, message)


def main():
    bin_, prism_bin, corpus_dir, work, spec_dir = sys.argv[1:6]
    work, spec_dir = pathlib.Path(work), pathlib.Path(spec_dir)
    work.mkdir(parents=True, exist_ok=True)
    (work / "docs").mkdir(exist_ok=True)
    docs = dict(corpus.unpack(pathlib.Path(corpus_dir), work / "docs"))
    original = next(entry for name, entry in docs.items() if name.startswith("digitalocean"))
    gateway, manifest = corpus.prepare(bin_, "digitalocean", original, work, ["--search"])
    tools = manifest["tools"]

    upfront = len(json.dumps({"tools": tools}, separators=(",", ":"), ensure_ascii=False).encode())
    check(f"mcp-tools.json lists three tools in {upfront} bytes, at most {UPFRONT_BYTES}",
          len(tools) == 3 and upfront <= UPFRONT_BYTES)
    validator = tool_validator(spec_dir)
    catalog_doc = json.loads((work / "gen" / "mcp-catalog.json").read_text())
    catalog = {t["name"]: t for t in catalog_doc["tools"]}
    invalid = [(t["name"], e.message) for t in tools + catalog_doc["tools"] for e in validator.iter_errors(t)]
    check(f"the three tools and the catalog's {len(catalog)} are valid MCP tools (2025-11-25)", not invalid, invalid[:3])
    snapshot = json.loads((work / "gen" / "surface.snapshot.json").read_text())
    mcp_row = next(s for s in snapshot["toolSurfaces"] if s["transport"] == "MCP")
    check("the snapshot records the up-front cost and every tool",
          mcp_row.get("discovery", {}).get("bytes", 0) <= UPFRONT_BYTES and len(mcp_row["tools"]) == len(catalog),
          mcp_row.get("discovery"))

    prism = corpus.Prism(prism_bin, original, work)
    try:
        pairs = corpus.credentials(json.loads((work / "gen" / "openapi.json").read_text()))
        anyio.run(session_checks, gateway, prism, pairs, catalog)
    finally:
        prism.stop()
    print(f"search: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
