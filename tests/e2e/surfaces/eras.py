"""The directory's MCP server in each protocol era, asked for explicitly, over each transport,
through the official MCP Python SDK: 2025-11-25 (the `initialize` handshake, a session over
HTTP) and 2026-07-28 (no handshake, every request self-contained). In each: the era negotiated
is the one asked for, tools/list equals the generated mcp-tools.json, and a tool of each contract
answers its card. Prints one line per client x era x transport.

usage: python eras.py MCP_TOOLS_JSON HTTP_MCP_URL -- SERVER_CMD [ARG...]
"""
import json
import sys

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_session import wire

# The SDK's names for the eras: `legacy` is the handshake era, whose version is 2025-11-25.
ERAS = {"2025-11-25": "legacy", "2026-07-28": "2026-07-28"}


async def one(target, mode, era, manifest):
    """What is wrong with one era over one transport (empty: nothing)."""
    wrong = []
    async with Client(target, mode=mode) as client:
        if client.protocol_version != era:
            wrong.append(f"negotiated {client.protocol_version}")
        listed = wire(await client.list_tools())["tools"]
        if listed != manifest["tools"]:
            wrong.append("tools/list differs from mcp-tools.json")
        card = await client.call_tool("get_person", {"id": "p0001"})
        if card.is_error or card.structured_content != {"id": "p0001", "name": "Ada Lovelace", "team": "core"}:
            wrong.append(f"get_person answered {wire(card)}")
        rooms = await client.call_tool("list_rooms", {"seats": 20})
        if rooms.is_error or [r["name"] for r in (rooms.structured_content or {}).get("rooms", [])] != ["Turing"]:
            wrong.append(f"list_rooms answered {wire(rooms)}")
    return wrong


async def main(manifest, url, server):
    failed = 0
    for transport, target in [("stdio", StdioServerParameters(command=server[0], args=server[1:])), ("streamable http", url)]:
        for era, mode in ERAS.items():
            try:
                wrong = await one(target, mode, era, manifest)
            except BaseException as e:  # noqa: BLE001 - report, then fail
                while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
                    e = e.exceptions[0]
                wrong = [f"{type(e).__name__}: {e}"]
            failed += bool(wrong)
            print(f"{'ok  ' if not wrong else 'FAIL'} python sdk x {era} x {transport}" + (f": {'; '.join(wrong)}" if wrong else ""))
    return failed


if __name__ == "__main__":
    args = sys.argv[1:]
    i = args.index("--")
    with open(args[0]) as f:
        manifest = json.load(f)
    sys.exit(1 if anyio.run(main, manifest, args[1], args[i + 1 :]) else 0)
