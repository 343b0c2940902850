#!/usr/bin/env python3
"""Check that two OpenAPI documents describe the same HTTP surface.

    python3 bench/compare_openapi.py STITCHGEN_OPENAPI TYPESPEC_OPENAPI

Compares, per (path, method): operationId, parameters (in, name, required), request body media
types and whether it is required, response status codes, their media types and header names;
and the set of component schema names. Schema bodies are not compared (the two emitters spell
some of the same constraints differently: `type: [string, "null"]` vs `anyOf`, `oneOf` vs
`anyOf`, `const` vs a one-value `enum`). Prints one summary line; exits 1 on any difference.
"""

import json
import sys

METHODS = ("get", "put", "post", "delete", "patch", "head")


def surface(doc):
    ops = {}
    for path, item in doc.get("paths", {}).items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            body = op.get("requestBody")
            ops[(path, method)] = {
                "operationId": op.get("operationId"),
                "params": sorted((p["in"], p["name"], bool(p.get("required"))) for p in op.get("parameters", [])),
                "body": (sorted(body["content"]), bool(body.get("required"))) if body else None,
                "responses": {
                    code: (sorted((r.get("content") or {}).keys()), sorted((r.get("headers") or {}).keys()))
                    for code, r in op.get("responses", {}).items()
                },
            }
    schemas = set(doc.get("components", {}).get("schemas", {}))
    return ops, schemas


def main():
    a_ops, a_schemas = surface(json.load(open(sys.argv[1])))
    b_ops, b_schemas = surface(json.load(open(sys.argv[2])))
    problems = []
    for key in sorted(set(a_ops) | set(b_ops)):
        if key not in b_ops:
            problems.append(f"{key[1].upper()} {key[0]}: only in stitchgen's document")
        elif key not in a_ops:
            problems.append(f"{key[1].upper()} {key[0]}: only in TypeSpec's document")
        elif a_ops[key] != b_ops[key]:
            fields = [f for f in a_ops[key] if a_ops[key][f] != b_ops[key][f]]
            problems.append(f"{key[1].upper()} {key[0]}: {', '.join(fields)} differ")
    for name in sorted(a_schemas ^ b_schemas):
        problems.append(f"component schema {name}: only in {'stitchgen' if name in a_schemas else 'TypeSpec'}")
    same = sum(1 for k in a_ops if k in b_ops and a_ops[k] == b_ops[k])
    print(
        f"{same}/{len(a_ops)} operations identical in route, method, operationId, parameters, "
        f"body and response codes/media types/headers; component schemas "
        f"{len(a_schemas & b_schemas)}/{len(a_schemas)} by name"
        + ("" if not problems else f"; {len(problems)} differences")
    )
    for p in problems[:20]:
        print(f"  {p}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
