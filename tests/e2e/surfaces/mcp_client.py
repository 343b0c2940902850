"""The directory's MCP surface through the official MCP Python SDK, over stdio.

Lists the tools (equal to the generated mcp-tools.json), calls them, and checks what a model
would read: views applied, a list answer wrapped as `{"items": [...]}`, no personal field anywhere in any answer, failures as isError results
with the tool envelope, an unknown tool as a JSON-RPC error, the server still serving after
errors, the catalog stamp on every tool and every result, and a long operation's progress
notifications through the SDK's progress callback. With --admin (a server holding the
admin scope): an endpoint answering 204 on HTTP (delete_person) succeeds with no
structuredContent, and one answering 201 with a Location (create_person) answers its body alone.
With --remote (the directory's remote service in front of a `directory http` origin): the same
cards and the same errors, and count_people, a runtime tool with no route to forward to, answers
NOT_IMPLEMENTED.

usage: python mcp_client.py [--admin | --remote] MCP_TOOLS_JSON -- SERVER_CMD [ARG...]
"""
import json
import sys

import mcp_types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp_session import check, run_checks, wire

STAMP = "stitchgen/catalog"
# Values only a full record carries: an email, a phone number, a street.
PERSONAL_KEYS = {"email", "phone", "address", "street", "city"}
PERSONAL_TEXT = ("@example.com", "+1 555", "Main St")

remote = False


def personal(value):
    """Every personal key or value found anywhere in `value`."""
    found = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in PERSONAL_KEYS:
                found.append(k)
            found += personal(v)
    elif isinstance(value, list):
        for v in value:
            found += personal(v)
    elif isinstance(value, str):
        found += [t for t in PERSONAL_TEXT if t in value]
    return found


def envelope(result):
    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
    return json.loads(texts[0]) if texts else {}


async def call(session, name, args, stamp):
    result = await session.call_tool(name, args)
    raw = wire(result)
    check(not personal(raw), f"{name}: no personal field in the answer")
    check((result.meta or {}).get(STAMP) == stamp, f"{name}: the catalog stamp is in the result's _meta")
    return result


async def run(manifest, server):
    params = StdioServerParameters(command=server[0], args=server[1:])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=30) as session:
            await session.initialize()
            listed = await session.list_tools()
            tools = wire(listed)["tools"]
            check(tools == manifest["tools"], "tools/list equals the generated mcp-tools.json")
            stamp = manifest["tools"][0]["_meta"][STAMP]
            check(all((t.meta or {}).get(STAMP) == stamp for t in listed.tools), "every listed tool carries the stamp")

            r = await call(session, "list_people", {}, stamp)
            people = r.structured_content["people"]
            check(not r.is_error and len(people) == 20, "list_people: the view's default limit of 20")
            check(set(people[0]) == {"id", "name", "team"}, "list_people: cards of id, name and team")
            check(json.loads(r.content[0].text) == r.structured_content, "list_people: one text block of the answer")

            r = await call(session, "list_people", {"team": "web", "limit": 3}, stamp)
            check(len(r.structured_content["people"]) == 3 and r.structured_content["total"] == 75, "list_people: arguments win over defaults")

            r = await call(session, "get_person", {"id": "p0001"}, stamp)
            check(r.structured_content == {"id": "p0001", "name": "Ada Lovelace", "team": "core"}, "get_person: the card slice")

            r = await call(session, "list_teams", {}, stamp)
            teams = ["core", "kernel", "tools", "web"]
            check(not r.is_error and r.structured_content == {"items": teams}, "list_teams: a list answer wrapped as items")
            listed_teams = next(t for t in tools if t["name"] == "list_teams")
            check(listed_teams["outputSchema"]["required"] == ["items"], "list_teams: outputSchema is the wrapper object")

            r = await call(session, "list_people", {"limit": "many"}, stamp)
            env = envelope(r)
            check(r.is_error and env.get("error") == "VALIDATION_ERROR", "bad arguments: isError with VALIDATION_ERROR")
            check(env.get("details", {}).get("message", "").startswith("Invalid input:"), "bad arguments: details name the input at fault")

            r = await call(session, "get_person", {"id": "nobody"}, stamp)
            check(r.is_error and envelope(r).get("error") == "NOT_FOUND", "unknown id: isError with NOT_FOUND")

            r = await call(session, "delete_person", {"id": "p0002"}, stamp)
            check(r.is_error and envelope(r).get("error") == "FORBIDDEN", "delete_person without the admin scope: FORBIDDEN")

            try:
                await session.call_tool("no_such_tool", {})
                check(False, "an unknown tool is a JSON-RPC error")
            except MCPError as e:
                check(e.code == -32602, f"an unknown tool is a JSON-RPC error (code {e.code})")

            r = await call(session, "create_person", {"name": "Ada Byron", "email": "ada.byron@example.com", "team": "core"}, stamp)
            check(not r.is_error and set(r.structured_content) == {"id", "name", "team"}, "create_person: answers the card")
            r = await call(session, "create_person", {"name": "Ada Byron", "email": "ada.byron@example.com", "team": "core"}, stamp)
            check(r.is_error and envelope(r).get("error") == "CONFLICT", "create_person twice: CONFLICT")

            r = await call(session, "count_people", {}, stamp)
            texts = [c.text for c in r.content if isinstance(c, types.TextContent)]
            if remote:
                check(r.is_error and envelope(r).get("error") == "NOT_IMPLEMENTED", "count_people (a runtime tool): NOT_IMPLEMENTED in front of an origin")
            else:
                check(r.structured_content == {"count": 301} and texts[1:] == ["301 people"], "count_people: the presenter's block after the answer")
            r = await call(session, "list_teams", {}, stamp)
            check(not r.is_error, "the server still serves after errors")

            # The second contract, served by the same server.
            r = await call(session, "list_rooms", {"seats": 10}, stamp)
            rooms = [room["name"] for room in (r.structured_content or {}).get("rooms", [])]
            check(not r.is_error and rooms == ["Noether", "Turing"], "list_rooms (the rooms contract): rooms of at least 10 seats")
            r = await call(session, "book_room", {"id": "r1", "person": "p0001", "hour": 9}, stamp)
            check(not r.is_error and r.structured_content == {"room": "r1", "person": "p0001", "hour": 9}, "book_room: the booking")
            r = await call(session, "book_room", {"id": "r1", "person": "p0002", "hour": 9}, stamp)
            check(r.is_error and envelope(r).get("error") == "CONFLICT", "book_room at a booked hour: CONFLICT")

            # A long operation: the SDK asks for progress (a progressToken) and hears it room by room,
            # before the answer. In front of an origin the handler runs there, over HTTP, which
            # carries no progress: the answer alone.
            heard = []

            async def progress(done, total, message):
                heard.append((done, total, message))

            r = await session.call_tool("room_availability", {}, progress_callback=progress)
            free = {a["room"]: a["free"] for a in (r.structured_content or {}).get("rooms", [])}
            check(not r.is_error and free.get("r1") == 23 and len(free) == 4, "room_availability: every room's free hours")
            if remote:
                check(heard == [], "room_availability in front of an origin: no progress (HTTP carries none)")
            else:
                expected = [(n, 4.0, f"read the calendar of {name}") for n, name in enumerate(["Babbage", "Curie", "Noether", "Turing"], 1)]
                check(heard == expected, f"room_availability: the SDK's progress callback heard each room in order ({len(heard)} notifications)")


async def confirm(context, params):
    """The person behind the client, ticking the box delete_person asks for (elicit.py checks
    every other answer)."""
    return types.ElicitResult(action="accept", content={"confirm": True})


async def run_admin(manifest, server):
    params = StdioServerParameters(command=server[0], args=server[1:])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=30, elicitation_callback=confirm) as session:
            await session.initialize()
            stamp = manifest["tools"][0]["_meta"][STAMP]
            r = await call(session, "create_person", {"name": "Mary Jackson", "email": "mary@example.org", "team": "core"}, stamp)
            card = r.structured_content or {}
            check(not r.is_error and set(card) == {"id", "name", "team"}, "create_person (201 and Location on HTTP): the body as structuredContent")
            r = await call(session, "delete_person", {"id": card.get("id", "")}, stamp)
            check(not r.is_error and r.structured_content is None, "delete_person (204 on HTTP): success, no structuredContent")
            r = await call(session, "get_person", {"id": card.get("id", "")}, stamp)
            check(r.is_error and envelope(r).get("error") == "NOT_FOUND", "delete_person removed the person")


def main():
    global remote
    admin, remote = sys.argv[1] == "--admin", sys.argv[1] == "--remote"
    args = sys.argv[2:] if admin or remote else sys.argv[1:]
    run_checks("mcp (python sdk)", run_admin if admin else run, args)


if __name__ == "__main__":
    main()
