"""A tool that asks its user before it acts, through the official MCP Python SDK: the directory's
delete_person asks to confirm (`tool.mcp.inputRequired`). In each era over stdio, with a server
holding the admin scope:

- 2025-11-25 (the handshake): the server sends `elicitation/create` within the call. Accept with
  the box ticked deletes; decline, cancel, and accept without the tick do not (the record is still
  there); a client that did not declare the elicitation capability gets an error naming it.
- 2026-07-28 (no handshake): the call answers an InputRequiredResult, the SDK asks its callback
  and retries with the answer and the sealed requestState. Accept deletes, decline does not; the
  rounds driven by hand: a tampered requestState, and one replayed for other arguments, are
  refused and delete nothing.

usage: python elicit.py MCP_TOOLS_JSON -- SERVER_CMD [ARG...]
"""
import json
import sys

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_session import check, run_checks

ASKED = "stitchgen/inputRequired"


def envelope(result):
    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
    return json.loads(texts[0]) if texts and result.is_error else {}


def answering(action, content=None, seen=None):
    """An elicitation callback that answers `action` (with `content`), noting what it was asked."""

    async def callback(context, params):
        if seen is not None:
            seen.append(params)
        return types.ElicitResult(action=action, content=content)

    return callback


async def exists(client, pid):
    r = await client.call_tool("get_person", {"id": pid})
    return not r.is_error


async def era_2025(server, question):
    params = StdioServerParameters(command=server[0], args=server[1:])
    async with Client(params, mode="legacy", read_timeout_seconds=30) as client:
        r = await client.call_tool("delete_person", {"id": "p0003"})
        e = envelope(r)
        check(r.is_error and e.get("error") == "ELICITATION_UNSUPPORTED" and "`elicitation` capability" in e.get("hint", ""),
              f"2025-11-25, no elicitation capability: an error naming it ({e.get('error')})")
        check(await exists(client, "p0003"), "2025-11-25, no elicitation capability: p0003 is still there")
    for action, content, code in [("decline", None, "DECLINED"), ("cancel", None, "CANCELLED"),
                                  ("accept", {"confirm": False}, "CONFLICT")]:
        seen = []
        async with Client(params, mode="legacy", read_timeout_seconds=30,
                          elicitation_callback=answering(action, content, seen)) as client:
            r = await client.call_tool("delete_person", {"id": "p0003"})
            check(r.is_error and envelope(r).get("error") == code, f"2025-11-25, {action} {content or ''}: {code}")
            check(await exists(client, "p0003"), f"2025-11-25, {action} {content or ''}: p0003 is still there")
            asked = [(p.message, p.requested_schema) for p in seen]
            check(asked == [(question["message"], question["requestedSchema"])],
                  "2025-11-25: the SDK was asked the manifest's question, with its form")
    async with Client(params, mode="legacy", read_timeout_seconds=30,
                      elicitation_callback=answering("accept", {"confirm": True})) as client:
        r = await client.call_tool("delete_person", {"id": "p0003"})
        check(not r.is_error, "2025-11-25, accept with the box ticked: deleted")
        check(not await exists(client, "p0003"), "2025-11-25, accept: p0003 is gone")


async def era_2026(server):
    params = StdioServerParameters(command=server[0], args=server[1:])
    async with Client(params, mode="2026-07-28", read_timeout_seconds=30,
                      elicitation_callback=answering("decline")) as client:
        check(client.protocol_version == "2026-07-28", f"2026-07-28 negotiated ({client.protocol_version})")
        r = await client.call_tool("delete_person", {"id": "p0004"})
        check(r.is_error and envelope(r).get("error") == "DECLINED", "2026-07-28, decline: DECLINED")
        check(await exists(client, "p0004"), "2026-07-28, decline: p0004 is still there")
    async with Client(params, mode="2026-07-28", read_timeout_seconds=30,
                      elicitation_callback=answering("accept", {"confirm": True})) as client:
        r = await client.call_tool("delete_person", {"id": "p0004"})
        check(not r.is_error, "2026-07-28, accept: the SDK retried with the answer, deleted")
        check(not await exists(client, "p0004"), "2026-07-28, accept: p0004 is gone")

        # The rounds by hand: the first answers the question and a sealed state.
        first = await client.session.call_tool("delete_person", {"id": "p0005"}, allow_input_required=True)
        requests = getattr(first, "input_requests", None) or {}
        check(isinstance(first, types.InputRequiredResult) and list(requests) == ["confirm"] and first.request_state,
              "2026-07-28: the call answers an InputRequiredResult with the question and a requestState")
        yes = {"confirm": {"action": "accept", "content": {"confirm": True}}}
        state = first.request_state or ""
        tampered = state[:-2] + ("AA" if not state.endswith("AA") else "BB")
        for what, args, sent in [("a tampered requestState", {"id": "p0005"}, tampered),
                                 ("a requestState replayed for other arguments", {"id": "p0006"}, state)]:
            r = await client.session.call_tool("delete_person", args, input_responses=yes, request_state=sent,
                                               allow_input_required=True)
            e = envelope(r) if isinstance(r, types.CallToolResult) else {}
            check(e.get("error") == "VALIDATION_ERROR" and "requestState" in json.dumps(e.get("details")),
                  f"2026-07-28: {what} is refused ({e.get('error')})")
        check(await exists(client, "p0005") and await exists(client, "p0006"),
              "2026-07-28: nothing was deleted by a refused state")
        r = await client.session.call_tool("delete_person", {"id": "p0005"}, input_responses=yes,
                                           request_state=state, allow_input_required=True)
        check(isinstance(r, types.CallToolResult) and not r.is_error, "2026-07-28: the state as issued, with the answer, deletes")
    async with Client(params, mode="2026-07-28", read_timeout_seconds=30) as client:
        r = await client.call_tool("delete_person", {"id": "p0006"})
        check(r.is_error and envelope(r).get("error") == "ELICITATION_UNSUPPORTED",
              "2026-07-28, no elicitation capability: an error naming it")


async def run(manifest, server):
    tool = next(t for t in manifest["tools"] if t["name"] == "delete_person")
    questions = tool.get("_meta", {}).get(ASKED, [])
    check([q["key"] for q in questions] == ["confirm"], "the manifest states delete_person's question")
    if questions:
        await era_2025(server, questions[0])
        await era_2026(server)


if __name__ == "__main__":
    run_checks("elicitation (python sdk)", run, sys.argv[1:])
