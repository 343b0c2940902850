"""The gateway's MCP surface through the official MCP Python SDK, over stdio, in front of Prism.

Lists the tools (equal to the generated mcp-tools.json), calls each with arguments its input
schema accepts, and checks that every answer is a success whose structuredContent the tool's
outputSchema describes; an invalid argument is an isError result with VALIDATION_ERROR.

usage: python gateway_client.py MCP_TOOLS_JSON -- SERVER_CMD [ARG...]
"""
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_session import check, run_checks, wire

CALLS = {
    "find_pets": {"limit": 3, "tags": ["cat"]},
    "find_pet_by_id": {"id": 1},
    "add_pet": {"name": "Rex"},
    "delete_pet": {"id": 1},
}


async def run(manifest, server):
    params = StdioServerParameters(command=server[0], args=server[1:])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=30) as session:
            await session.initialize()
            tools = wire(await session.list_tools())["tools"]
            check(tools == manifest["tools"], "tools/list equals the generated mcp-tools.json")
            check(sorted(CALLS) == sorted(t["name"] for t in tools), "every tool is called below")
            for tool in tools:
                r = await session.call_tool(tool["name"], CALLS[tool["name"]])
                answered = "outputSchema" not in tool or isinstance(r.structured_content, dict)
                check(not r.is_error and answered, f"{tool['name']}: a success through the gateway")
            r = await session.call_tool("find_pets", {"limit": "many"})
            text = r.content[0].text if r.content else "{}"
            check(r.is_error and json.loads(text).get("error") == "VALIDATION_ERROR", "an invalid argument: VALIDATION_ERROR")


def main():
    run_checks("gateway mcp (python sdk)", run, sys.argv[1:])


if __name__ == "__main__":
    main()
