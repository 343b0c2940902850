"""The directory's HTTP surface over loopback (two contracts, people and rooms, on one port): full records with their personal fields, the
error envelope with the registry status, the admin scope, the documented statuses and response
headers (`http`: 201 with Location, rate-limit headers, 204), MCP over streamable HTTP at /mcp
(the same operations answering their bodies alone), and /openapi.json equal to the generated
document.

usage: python http_check.py BASE_URL OPENAPI_JSON ADMIN_TOKEN
"""
import json
import sys
import urllib.error
import urllib.request

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def request(base, method, path, body=None, headers=None, content_type="application/json"):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    if data is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return res.status, dict(res.headers), res.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def main():
    base, openapi_path, token = sys.argv[1:4]
    status, _, body = request(base, "GET", "/people/p0001")
    person = json.loads(body)
    check(status == 200 and person["email"] == "ada.lovelace1@example.com", "GET /people/:id: the full record, email included")
    check(person["address"] == {"street": "1 Main St", "city": "Lisbon"} and person["phone"] == "+1 555 0001", "the full record keeps phone and address")

    status, _, body = request(base, "GET", "/people?team=tools&limit=5&offset=1")
    page = json.loads(body)
    check(status == 200 and len(page["people"]) == 5 and page["total"] == 75, "GET /people: query read by the input schema")
    check(all("email" in p for p in page["people"]), "GET /people: no view on HTTP")

    status, headers, body = request(base, "GET", "/people/nobody")
    check(status == 404 and json.loads(body)["error"]["code"] == "NOT_FOUND", "unknown id: 404 with the envelope")
    check({k.lower(): v for k, v in headers.items()}.get("content-type") == "application/json", "the envelope is JSON")

    status, _, body = request(base, "GET", "/people?limit=0")
    check(status == 400 and json.loads(body)["error"]["code"] == "VALIDATION_ERROR", "a bad query: 400 VALIDATION_ERROR")

    status, _, body = request(base, "POST", "/people", {"name": "Grace", "email": "not-an-email", "team": "core"})
    check(status == 400 and json.loads(body)["error"]["code"] == "VALIDATION_ERROR", "a bad body: 400 VALIDATION_ERROR")

    # What the contract documents about the HTTP exchange (`http`): statuses and headers.
    status, headers, body = request(base, "GET", "/people?limit=1")
    headers = {k.lower(): v for k, v in headers.items()}
    check(status == 200 and headers.get("x-ratelimit-limit") == "600", "GET /people: X-RateLimit-Limit, a documented header")
    check(headers.get("x-ratelimit-remaining", "").isdigit(), "GET /people: X-RateLimit-Remaining, a documented header")
    status, headers, body = request(base, "POST", "/people", {"name": "Edith Clarke", "email": "edith@example.org", "team": "web"})
    created = json.loads(body)
    location = {k.lower(): v for k, v in headers.items()}.get("location")
    check(status == 201 and created["email"] == "edith@example.org", "POST /people: 201 Created with the full record")
    check(location == f"/people/{created.get('id')}", f"POST /people: Location names the new record ({location})")
    spec = json.load(open(openapi_path))
    answers = spec["paths"]["/people"]["post"]["responses"]
    check("201" in answers and answers["201"]["headers"]["Location"]["required"] is True, "openapi.json: the 201 and its required Location")

    # The same team again: the other checks read the directory as it was seeded.
    team = json.loads(request(base, "GET", "/people/p0002")[2])["team"]
    status, _, body = request(base, "PATCH", "/people/p0002", {"team": team}, content_type="application/merge-patch+json")
    check(status == 200 and json.loads(body)["team"] == team, "PATCH /people/:id as application/merge-patch+json, its declared inputContentType")
    media = list(spec["paths"]["/people/{id}"]["patch"]["requestBody"]["content"])
    check(media == ["application/merge-patch+json"], "openapi.json declares the update's body as application/merge-patch+json")

    status, _, body = request(base, "DELETE", "/people/p0003")
    check(status == 401, "DELETE without identity: 401")
    status, _, _ = request(base, "DELETE", "/people/p0003", headers={"Authorization": f"Bearer {token}"})
    check(status == 204, "DELETE as admin: 204")
    status, _, _ = request(base, "GET", "/people/p0003")
    check(status == 404, "the deleted person is gone")

    # The second contract on the same port, and the one fallback for what neither serves.
    status, _, body = request(base, "GET", "/rooms?seats=10")
    rooms = [r["name"] for r in json.loads(body).get("rooms", [])] if status == 200 else []
    check(rooms == ["Noether", "Turing"], "GET /rooms (the rooms contract, same port): query read by its input schema")
    status, _, body = request(base, "POST", "/rooms/r2/bookings", {"person": "p0001", "hour": 10})
    check(status == 201 and json.loads(body) == {"room": "r2", "person": "p0001", "hour": 10}, "POST /rooms/:id/bookings: 201 with the booking")
    status, _, body = request(base, "POST", "/rooms/r2/bookings", {"person": "p0002", "hour": 10})
    check(status == 409 and json.loads(body)["error"]["code"] == "CONFLICT", "the same hour again: 409 CONFLICT")
    status, _, body = request(base, "GET", "/nowhere")
    check(status == 404 and json.loads(body)["error"]["code"] == "NOT_FOUND", "a path neither contract serves: 404 with the envelope")
    status, _, body = request(base, "DELETE", "/rooms")
    check(status == 405 and json.loads(body)["error"]["code"] == "METHOD_NOT_ALLOWED", "a method /rooms does not serve: 405 with the envelope")

    status, _, body = request(base, "GET", "/openapi.json")
    with open(openapi_path) as f:
        check(status == 200 and json.loads(body) == json.load(f), "/openapi.json is the generated document")

    # MCP over streamable HTTP on the same server.
    accept = {"Accept": "application/json, text/event-stream"}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}}
    status, headers, body = request(base, "POST", "/mcp", init, accept)
    session = {k.lower(): v for k, v in headers.items()}.get("mcp-session-id")
    check(status == 200 and session, "MCP over streamable HTTP: initialize opens a session")
    hdrs = dict(accept, **{"Mcp-Session-Id": session or "", "MCP-Protocol-Version": "2025-11-25"})
    request(base, "POST", "/mcp", {"jsonrpc": "2.0", "method": "notifications/initialized"}, hdrs)

    def tool(name, arguments, call_id, auth=None):
        call = {"jsonrpc": "2.0", "id": call_id, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        _, res_headers, body = request(base, "POST", "/mcp", call, dict(hdrs, **(auth or {})))
        events = [json.loads(line[5:]) for line in body.decode().splitlines() if line.startswith("data:") and line[5:].strip()]
        return next((e["result"] for e in events if e.get("id") == call_id), {}), {k.lower() for k in res_headers}

    result, _ = tool("get_person", {"id": "p0001"}, 2)
    check(result.get("structuredContent") == {"id": "p0001", "name": "Ada Lovelace", "team": "core"}, "MCP over HTTP: the card, not the record")
    result, res_headers = tool("create_person", {"name": "Mary Jackson", "email": "mary@example.org", "team": "core"}, 3)
    card = result.get("structuredContent", {})
    check(not result.get("isError") and set(card) == {"id", "name", "team"}, "MCP create_person (201 on HTTP): the body as structuredContent")
    check("location" not in res_headers, "MCP create_person: HTTP's Location stays on HTTP")
    # delete_person asks its user first (elicit.py drives every answer through the SDK); this
    # client declared no elicitation capability, so it is told so, and nobody is removed.
    result, _ = tool("delete_person", {"id": card.get("id", "")}, 4, {"Authorization": f"Bearer {token}"})
    texts = [c.get("text", "") for c in result.get("content", [])]
    refused = result.get("isError") and texts and json.loads(texts[0]).get("error") == "ELICITATION_UNSUPPORTED"
    check(bool(refused), "MCP delete_person from a client that cannot be asked: ELICITATION_UNSUPPORTED")
    status, _, _ = request(base, "GET", f"/people/{card.get('id', '')}")
    check(status == 200, "MCP delete_person, not confirmed: the person is still there")
    result, _ = tool("list_rooms", {"seats": 20}, 5)
    check(result.get("structuredContent") == {"rooms": [{"id": "r4", "name": "Turing", "seats": 30}]}, "MCP over HTTP: the rooms contract's tool on the same server")

    print(f"http: {'all passed' if not failures else f'{len(failures)} failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
