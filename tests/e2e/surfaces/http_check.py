"""The directory's HTTP surface over loopback: full records with their personal fields, the
error envelope with the registry status, the admin scope, MCP over streamable HTTP at /mcp,
and /openapi.json equal to the generated document.

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

    # The same team again: the other checks read the directory as it was seeded.
    team = json.loads(request(base, "GET", "/people/p0002")[2])["team"]
    status, _, body = request(base, "PATCH", "/people/p0002", {"team": team}, content_type="application/merge-patch+json")
    check(status == 200 and json.loads(body)["team"] == team, "PATCH /people/:id as application/merge-patch+json, its declared inputContentType")
    spec = json.load(open(openapi_path))
    media = list(spec["paths"]["/people/{id}"]["patch"]["requestBody"]["content"])
    check(media == ["application/merge-patch+json"], "openapi.json declares the update's body as application/merge-patch+json")

    status, _, body = request(base, "DELETE", "/people/p0003")
    check(status == 401, "DELETE without identity: 401")
    status, _, _ = request(base, "DELETE", "/people/p0003", headers={"Authorization": f"Bearer {token}"})
    check(status == 204, "DELETE as admin: 204")
    status, _, _ = request(base, "GET", "/people/p0003")
    check(status == 404, "the deleted person is gone")

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
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_person", "arguments": {"id": "p0001"}}}
    status, _, body = request(base, "POST", "/mcp", call, hdrs)
    events = [json.loads(line[5:]) for line in body.decode().splitlines() if line.startswith("data:") and line[5:].strip()]
    result = next((e["result"] for e in events if e.get("id") == 2), {})
    check(result.get("structuredContent") == {"id": "p0001", "name": "Ada Lovelace", "team": "core"}, "MCP over HTTP: the card, not the record")

    print(f"http: {'all passed' if not failures else f'{len(failures)} failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
