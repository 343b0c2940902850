#!/usr/bin/env python3
"""Write a large, valid stitchgen contract and an equivalent TypeSpec program.

    python3 bench/gen.py N OUTDIR

writes OUTDIR/bench.stitch.yaml (N endpoints over about N/10 shared types, plus N/50 runtime
tools) and OUTDIR/main.tsp (the same N HTTP operations and the same models, for
@typespec/http + @typespec/openapi3). The output depends only on N.

Every HTTP-relevant schema is written once, as a JSON Schema dict, and rendered twice: as YAML
for the contract and as TypeSpec for main.tsp, so the two describe the same routes, methods,
params, bodies, responses and error responses. What TypeSpec has no counterpart for (tool views,
tool annotations, CLI exposure, runtime tools) exists only in the contract: those are tool
surfaces, not HTTP.

Shape, per group g of 10 endpoints (route prefix /api/g{g}, one shared object type each):
  0 listG{g}      GET    /g{g}                 query input; tool view: defaults + slice (or project)
  1 getG{g}       GET    /g{g}/:id             uuid path param; tool view: slice
  2 createG{g}    POST   /g{g}                 JSON body with $ref and a map
  3 updateG{g}    PATCH  /g{g}/:id             tool view project: true on even groups
  4 deleteG{g}    DELETE /g{g}/:id             flat query input, 204, scope admin
  5 searchG{g}    POST   /g{g}/search          tool view: defaults + project with an output
  6 HTTP-only, by g % 4: rawResponse (GET export) | multipart (POST upload)
                         | responseMeta (POST import, 202 + headers) | stream (GET events, SSE/NDJSON)
  7 archiveG{g}   POST   /g{g}/:id/archive     tool view: defaults + slice
  8 historyG{g}   GET    /g{g}/:id/history     expose [HTTP] only
  9 untagG{g}     DELETE /g{g}/:id/tags/:tag   two typed path params, 204
"""

import json
import re
import sys
from pathlib import Path

SERVICE = "bench"
BASE = "/api"
ADMIN = "admin"


# ----------------------------------------------------------------------------------------------
# The model
# ----------------------------------------------------------------------------------------------


def ref(name):
    return {"$ref": f"#/types/{name}"}


def obj(props, required=(), **extra):
    s = {"type": "object"}
    if required:
        s["required"] = list(required)
    s.update(extra)
    s["properties"] = props
    return s


UUID = {"type": "string", "format": "uuid"}
NAME = {"type": "string", "minLength": 1, "maxLength": 200}


class Types:
    """Shared types: a multiple of 5, one enum per block of 5 (index 4 of the block)."""

    def __init__(self, n):
        t = max(5, int(round(n / 10 / 5)) * 5)
        self.count = t
        self.enums = [f"Kind{k}" for k in range(t) if k % 5 == 4]
        self.objects = [f"Entity{k}" for k in range(t) if k % 5 != 4]
        self.schemas = {}
        for k in range(t):
            if k % 5 == 4:
                self.schemas[f"Kind{k}"] = {
                    "type": "string",
                    "enum": ["active", "paused", "archived", "deleted"],
                    "description": f"Lifecycle state, set {k // 5}.",
                }
        for i, name in enumerate(self.objects):
            k = int(name[len("Entity"):])
            enum = f"Kind{(k // 5) * 5 + 4}"
            props = {
                "id": dict(UUID),
                "name": dict(NAME),
                "status": ref(enum),
                "createdAt": {"type": "string", "format": "date-time"},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 20},
                "count": {"type": "integer", "minimum": 0},
                "score": {"type": "number", "minimum": 0, "maximum": 100},
                "note": {"type": ["string", "null"]},
                "homepage": {"type": "string", "format": "uri"},
                "contact": {"type": "string", "format": "email"},
            }
            # References stay inside the block of 5 (depth at most 3): generated code inlines
            # referenced schemas, so one long chain of $refs through every type would make
            # every schema as large as the whole contract.
            j = k % 5
            if j >= 1:
                props["parent"] = ref(f"Entity{k - 1}")
            if j >= 2:
                props["related"] = {"type": "array", "items": ref(f"Entity{k - j}")}
            s = obj(props, ["id", "name", "status", "createdAt", "tags"])
            s["description"] = f"A record of kind {k}."
            self.schemas[name] = s

    def entity(self, g):
        return self.objects[g % len(self.objects)]

    def parent_of(self, entity):
        k = int(entity[len("Entity"):])
        return f"Entity{k - 1}" if k % 5 >= 1 else None

    def kind_of(self, entity):
        k = int(entity[len("Entity"):])
        return f"Kind{(k // 5) * 5 + 4}"


def card(entity_schema_props):
    """A slice of an entity: id, name, status with the full output's own schemas."""
    return obj(
        {
            "id": entity_schema_props["id"],
            "name": entity_schema_props["name"],
            "status": entity_schema_props["status"],
        },
        ["id", "name", "status"],
    )


def endpoints(n, types):
    """Yield (action, endpoint dict) for n endpoints. Endpoint dicts are contract YAML values."""
    groups = (n + 9) // 10
    out = []
    for g in range(groups):
        E = types.entity(g)
        K = types.kind_of(E)
        P = types.parent_of(E)
        full = types.schemas[E]["properties"]
        admin = g % 2 == 0
        cli = g % 3 == 0
        eps = []

        # 0 list
        list_out = obj(
            {
                "items": {"type": "array", "items": ref(E)},
                "total": {"type": "integer", "minimum": 0},
            },
            ["items", "total"],
        )
        view = {"defaults": {"limit": 20}}
        if g % 4 == 1:
            view["output"] = obj(
                {"items": {"type": "array", "items": card(full)}, "total": {"type": "integer"}},
                ["items", "total"],
            )
            view["project"] = True
        else:
            view["output"] = obj(
                {
                    "items": {"type": "array", "items": card(full)},
                    "total": {"type": "integer", "minimum": 0},
                },
                ["items", "total"],
            )
        ep = {
            "method": "GET",
            "path": f"/g{g}",
            "desc": f"List group {g} records, newest first.",
            "input": obj(
                {
                    "limit": {"type": "integer", "minimum": 1, "maximum": 500},
                    "offset": {"type": "integer", "minimum": 0},
                    "status": ref(K),
                    "tag": {"type": "array", "items": {"type": "string"}},
                    "since": {"type": "string", "format": "date-time"},
                },
                additionalProperties=False,
            ),
            "output": list_out,
        }
        if cli:
            ep["expose"] = ["HTTP", "MCP", "AGENT", "CLI"]
        ep["tool"] = {"annotations": {"readOnlyHint": True}, "view": view}
        eps.append((f"listG{g}", ep))

        # 1 get
        ep = {
            "method": "GET",
            "path": f"/g{g}/:id",
            "desc": f"Get one group {g} record.",
            "params": obj({"id": dict(UUID)}, ["id"]),
            "output": ref(E),
            "errors": ["NOT_FOUND"],
        }
        if cli:
            ep["expose"] = ["HTTP", "MCP", "AGENT", "CLI"]
        ep["tool"] = {"annotations": {"readOnlyHint": True}, "view": {"output": card(full)}}
        eps.append((f"getG{g}", ep))

        # 2 create
        create_props = {
            "name": dict(NAME),
            "status": ref(K),
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 20},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "homepage": {"type": "string", "format": "uri"},
        }
        if P:
            create_props["parent"] = ref(P)
        ep = {
            "method": "POST",
            "path": f"/g{g}",
            "desc": f"Create a group {g} record.",
            "input": obj(create_props, ["name", "status"]),
            "output": ref(E),
            "errors": ["CONFLICT"],
        }
        if admin:
            ep["scope"] = ADMIN
        ep["tool"] = {"annotations": {"destructiveHint": False}}
        eps.append((f"createG{g}", ep))

        # 3 update
        ep = {
            "method": "PATCH",
            "path": f"/g{g}/:id",
            "desc": f"Change a group {g} record.",
            "input": obj(
                {
                    "name": dict(NAME),
                    "status": ref(K),
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "note": {"type": ["string", "null"]},
                }
            ),
            "output": ref(E),
            "errors": ["NOT_FOUND", "CONFLICT"],
        }
        tool = {"annotations": {"idempotentHint": True}}
        if g % 2 == 0:
            tool["view"] = {"project": True}
        ep["tool"] = tool
        eps.append((f"updateG{g}", ep))

        # 4 delete
        ep = {
            "method": "DELETE",
            "path": f"/g{g}/:id",
            "desc": f"Delete a group {g} record for good.",
            "input": obj({"force": {"type": "boolean"}}),
            "scope": ADMIN,
            "errors": ["NOT_FOUND"],
            "tool": {"annotations": {"destructiveHint": True, "idempotentHint": True}},
        }
        eps.append((f"deleteG{g}", ep))

        # 5 search
        ep = {
            "method": "POST",
            "path": f"/g{g}/search",
            "desc": f"Full-text search over group {g} records.",
            "input": obj(
                {
                    "query": {"type": "string", "minLength": 2},
                    "statuses": {"type": "array", "items": ref(K)},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                },
                ["query"],
            ),
            "output": obj(
                {
                    "hits": {
                        "type": "array",
                        "items": obj({"entity": ref(E), "score": {"type": "number"}}, ["entity", "score"]),
                    }
                },
                ["hits"],
            ),
            "errors": ["RATE_LIMITED"],
            "tool": {
                "annotations": {"readOnlyHint": True},
                "view": {
                    "defaults": {"limit": 10},
                    "output": obj(
                        {
                            "hits": {
                                "type": "array",
                                "items": obj({"id": {"type": "string"}, "score": {"type": "number"}}, ["id", "score"]),
                            }
                        },
                        ["hits"],
                    ),
                    "project": True,
                },
            },
        }
        eps.append((f"searchG{g}", ep))

        # 6 HTTP-only kinds
        variant = g % 4
        if variant == 0:
            ep = {
                "method": "GET",
                "path": f"/g{g}/export",
                "desc": f"Export group {g} records as CSV.",
                "input": obj({"status": ref(K)}),
                "rawResponse": True,
                "contentType": "text/csv",
            }
            eps.append((f"exportG{g}", ep))
        elif variant == 1:
            ep = {
                "method": "POST",
                "path": f"/g{g}/:id/files",
                "desc": f"Attach files to a group {g} record.",
                "multipart": {
                    "files": {
                        "file": {
                            "required": True,
                            "multiple": True,
                            "maxFiles": 5,
                            "maxBytes": 1048576,
                            "contentTypes": ["image/*", "application/pdf"],
                        },
                        "thumbnail": {"maxBytes": 65536, "contentTypes": ["image/png"]},
                    },
                    "maxRequestBytes": 8388608,
                    "maxFieldBytes": 4096,
                },
                "input": obj({"note": {"type": "string"}}),
                "output": obj({"attached": {"type": "integer", "minimum": 0}}, ["attached"]),
                "errors": ["NOT_FOUND"],
            }
            eps.append((f"uploadG{g}", ep))
        elif variant == 2:
            ep = {
                "method": "POST",
                "path": f"/g{g}/import",
                "desc": f"Import group {g} records; answers 202 and a job to poll.",
                "input": obj({"source": {"type": "string", "enum": ["csv", "json"]}}, ["source"]),
                "output": obj({"job": {"type": "string"}}, ["job"]),
                "responseMeta": {
                    "status": 202,
                    "headers": {
                        "Location": {"desc": "Where to poll the import job.", "required": True},
                        "Retry-After": {"desc": "Seconds to wait before polling."},
                    },
                },
            }
            eps.append((f"importG{g}", ep))
        else:
            fmt = "sse" if g % 8 == 3 else "ndjson"
            ep = {
                "method": "GET",
                "path": f"/g{g}/events",
                "desc": f"Stream group {g} changes as they happen.",
                "input": obj({"since": {"type": "string", "format": "date-time"}}),
                "stream": {"item": ref(E), "format": fmt, "heartbeatMs": 15000},
            }
            eps.append((f"eventsG{g}", ep))

        # 7 archive
        ep = {
            "method": "POST",
            "path": f"/g{g}/:id/archive",
            "desc": f"Archive a group {g} record.",
            "input": obj({"reason": {"type": "string", "maxLength": 500}}),
            "output": ref(E),
            "errors": ["NOT_FOUND"],
            "tool": {"view": {"defaults": {"reason": "unspecified"}, "output": card(full)}},
        }
        if admin:
            ep["scope"] = ADMIN
        eps.append((f"archiveG{g}", ep))

        # 8 history (HTTP only by expose)
        ep = {
            "method": "GET",
            "path": f"/g{g}/:id/history",
            "desc": f"History of a group {g} record.",
            "input": obj(
                {
                    "since": {"type": "string", "format": "date-time"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 1000},
                }
            ),
            "output": obj(
                {
                    "entries": {
                        "type": "array",
                        "items": obj(
                            {"at": {"type": "string", "format": "date-time"}, "status": ref(K), "by": {"type": "string"}},
                            ["at", "status"],
                        ),
                    }
                },
                ["entries"],
            ),
            "errors": ["NOT_FOUND"],
            "expose": ["HTTP"],
        }
        eps.append((f"historyG{g}", ep))

        # 9 untag
        ep = {
            "method": "DELETE",
            "path": f"/g{g}/:id/tags/:tag",
            "desc": f"Remove one tag from a group {g} record.",
            "params": obj({"id": dict(UUID), "tag": {"type": "string", "minLength": 1, "maxLength": 64}}, ["id", "tag"]),
            "errors": ["NOT_FOUND"],
            "tool": {"annotations": {"idempotentHint": True}},
        }
        eps.append((f"untagG{g}", ep))

        out.extend(eps)
    return out[:n]


def runtime_tools(n):
    tools = {}
    for r in range(max(2, n // 50)):
        t = {
            "action": f"summarize{r}",
            "desc": f"Summarize activity of shard {r} for a handover.",
            "input": obj(
                {
                    "group": {"type": "string"},
                    "hours": {"type": "integer", "minimum": 1, "maximum": 72, "default": 8},
                }
            ),
            "output": obj({"open": {"type": "integer"}, "summary": {"type": "string"}}, ["open", "summary"]),
        }
        if r % 3 == 0:
            t["transports"] = ["MCP", "AGENT", "CLI"]
        t["annotations"] = {"readOnlyHint": True}
        t["present"] = ["mcp", "agent"] if r % 2 == 0 else ["mcp"]
        tools[f"summarize_shard_{r}"] = t
    return tools


# ----------------------------------------------------------------------------------------------
# YAML (block style, small scalar maps in flow style, like the fixtures)
# ----------------------------------------------------------------------------------------------

PLAIN = re.compile(r"^[$A-Za-z_/][A-Za-z0-9_./:*-]*$")
RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "~"}


def yscalar(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    s = str(v)
    if PLAIN.match(s) and s.lower() not in RESERVED and not s.startswith("*"):
        return s
    return json.dumps(s)


def is_scalar(v):
    return not isinstance(v, (dict, list))


def yflow(v):
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{yscalar(k)}: {yflow(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(yflow(x) for x in v) + "]"
    return yscalar(v)


def flow_ok(v, depth=0):
    """Small maps whose values are scalars, scalar lists, or one level of such maps."""
    if isinstance(v, list):
        return all(is_scalar(x) for x in v)
    if isinstance(v, dict):
        if depth > 1 or len(v) > 6 or (depth == 0 and len(yflow(v)) > 100):
            return False
        return all(is_scalar(x) or flow_ok(x, depth + 1) for x in v.values())
    return True


def yblock(d, indent, lines):
    pad = "  " * indent
    for k, v in d.items():
        key = yscalar(k)
        if isinstance(v, dict) and v and not flow_ok(v):
            lines.append(f"{pad}{key}:")
            yblock(v, indent + 1, lines)
        elif isinstance(v, list) and not all(is_scalar(x) for x in v):
            lines.append(f"{pad}{key}:")
            for item in v:
                lines.append(f"{pad}  - {yflow(item)}")
        else:
            lines.append(f"{pad}{key}: {yflow(v)}")


def contract_yaml(n, types, eps, tools):
    doc = {
        "stitch": 1,
        "service": SERVICE,
        "title": f"Benchmark service, {n} endpoints",
        "version": "1.0.0",
        "basePath": BASE,
        "meta": {"owner": "bench"},
    }
    lines = [f"# Generated by bench/gen.py {n}. {len(eps)} endpoints, {types.count} shared types, {len(tools)} runtime tools."]
    yblock(doc, 0, lines)
    lines.append("")
    lines.append("types:")
    yblock(types.schemas, 1, lines)
    lines.append("")
    lines.append("endpoints:")
    for action, ep in eps:
        lines.append(f"  {action}:")
        yblock(ep, 2, lines)
        lines.append("")
    lines.append("tools:")
    yblock(tools, 1, lines)
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------------------
# TypeSpec
# ----------------------------------------------------------------------------------------------


def tstr(s):
    return json.dumps(s)


def tsp_decorators(s):
    d = []
    if "minLength" in s:
        d.append(f"@minLength({s['minLength']})")
    if "maxLength" in s:
        d.append(f"@maxLength({s['maxLength']})")
    if "minimum" in s:
        d.append(f"@minValue({s['minimum']})")
    if "maximum" in s:
        d.append(f"@maxValue({s['maximum']})")
    if "maxItems" in s:
        d.append(f"@maxItems({s['maxItems']})")
    if s.get("type") == "string" and s.get("format") in ("uuid", "email"):
        d.append(f"@format({tstr(s['format'])})")
    return d


def tsp_type(s, indent):
    """A TypeSpec type expression for a schema (decorators of the schema itself excluded)."""
    if "$ref" in s:
        return s["$ref"].rsplit("/", 1)[1]
    t = s.get("type")
    if isinstance(t, list):
        base = [x for x in t if x != "null"]
        inner = tsp_type(dict(s, type=base[0]), indent)
        return f"{inner} | null" if "null" in t else inner
    if "enum" in s:
        return " | ".join(tstr(v) for v in s["enum"])
    if t == "string":
        return {"date-time": "utcDateTime", "uri": "url"}.get(s.get("format"), "string")
    if t == "integer":
        return "integer"
    if t == "number":
        return "numeric"
    if t == "boolean":
        return "boolean"
    if t == "array":
        item = tsp_type(s["items"], indent)
        return f"({item})[]" if "|" in item else f"{item}[]"
    if t == "object":
        if "properties" not in s and isinstance(s.get("additionalProperties"), dict):
            return f"Record<{tsp_type(s['additionalProperties'], indent)}>"
        return "{\n" + tsp_props(s, indent + 1) + "  " * indent + "}"
    raise ValueError(f"no TypeSpec rendering for {s}")


def tsp_props(s, indent):
    pad = "  " * indent
    req = set(s.get("required", []))
    out = []
    for name, p in s.get("properties", {}).items():
        decos = " ".join(tsp_decorators(p))
        opt = "" if name in req else "?"
        out.append(f"{pad}{decos + ' ' if decos else ''}{name}{opt}: {tsp_type(p, indent)};\n")
    return "".join(out)


def tsp_model(name, s):
    doc = f"/** {s['description']} */\n" if "description" in s else ""
    if "enum" in s:
        return f"{doc}enum {name} {{ {', '.join(s['enum'])} }}\n"
    return f"{doc}model {name} {{\n{tsp_props(s, 1)}}}\n"


def tsp_path(path):
    return re.sub(r":([A-Za-z_][A-Za-z0-9_]*)", r"{\1}", BASE + ("" if path == "/" else path))


def tsp_operation(action, ep):
    method = ep["method"].lower()
    route = tsp_path(ep["path"])
    params = []
    path_names = re.findall(r":([A-Za-z_][A-Za-z0-9_]*)", ep["path"])
    pschema = ep.get("params", obj({p: {"type": "string"} for p in path_names}, path_names))
    for name, p in pschema["properties"].items():
        decos = " ".join(["@path"] + tsp_decorators(p))
        params.append(f"{decos} {name}: {tsp_type(p, 2)}")
    inp = ep.get("input")
    if "multipart" in ep:
        mp = ep["multipart"]["files"]
        fields = []
        for fname, f in mp.items():
            part = "HttpPart<File>[]" if f.get("multiple") else "HttpPart<File>"
            fields.append(f"    {fname}{'' if f.get('required') else '?'}: {part};")
        for fname, f in (inp or {}).get("properties", {}).items():
            req = fname in set(inp.get("required", []))
            fields.append(f"    {fname}{'' if req else '?'}: HttpPart<{tsp_type(f, 2)}>;")
        params.append('@header contentType: "multipart/form-data"')
        params.append("@multipartBody body: {\n" + "\n".join(fields) + "\n  }")
    elif inp and method in ("get", "delete", "head"):
        req = set(inp.get("required", []))
        for name, p in inp["properties"].items():
            decos = ["@query" if p.get("type") != "array" else "@query(#{ explode: true })"]
            decos += tsp_decorators(p)
            params.append(f"{' '.join(decos)} {name}{'' if name in req else '?'}: {tsp_type(p, 2)}")
    elif inp:
        params.append(f"@body body: {tsp_type(inp, 1)}")

    # success response
    if ep.get("rawResponse"):
        ct = ep.get("contentType", "application/octet-stream")
        ok = f"{{ @header contentType: {tstr(ct)}; @body body: bytes; }}"
    elif "stream" in ep:
        st = ep["stream"]
        item = tsp_type(st["item"], 1)
        ct = "text/event-stream" if st.get("format") == "sse" else "application/x-ndjson"
        # envelope framing: one frame per line/event, inline as stitchgen writes it
        frames = (
            f'{{ type: "item"; item: {item} }} | {{ type: "error"; error: ErrorEnvelope }}'
            ' | { type: "heartbeat" }'
        )
        ok = f"{{ @header contentType: {tstr(ct)}; @body body: {frames}; }}"
    elif "responseMeta" in ep:
        rm = ep["responseMeta"]
        hs = []
        for h, spec in rm.get("headers", {}).items():
            ident = re.sub(r"[^A-Za-z0-9]", "", h[:1].lower() + h[1:])
            hs.append(f"@header({tstr(h)}) {ident}{'' if spec.get('required') else '?'}: string;")
        body = f" @body body: {tsp_type(ep['output'], 1)};" if "output" in ep else ""
        ok = f"{{ @statusCode statusCode: {rm['status']}; {' '.join(hs)}{body} }}"
    elif "output" in ep:
        ok = tsp_type(ep["output"], 1)
        if "$ref" not in ep["output"]:
            ok = f"{{ @body body: {ok}; }}"
    else:
        ok = "NoContentResponse"

    errs = ["E400"]
    if ep.get("scope", "public") != "public":
        errs += ["E401", "E403"]
    codes = {"NOT_FOUND": "E404", "CONFLICT": "E409", "RATE_LIMITED": "E429"}
    errs += [codes[e] for e in ep.get("errors", [])]
    errs += ["E500"]
    errs.sort()
    returns = " | ".join([ok] + errs)

    args = ",\n  ".join(params)
    args = f"\n  {args}\n" if params else ""
    return (
        f"@summary({tstr(ep['desc'])})\n"
        f'@operationId("{SERVICE}_{action}")\n'
        f"@route({tstr(route)})\n"
        f"@{method} op {action}({args}): {returns};\n"
    )


TSP_PRELUDE = """\
// Generated by bench/gen.py {n}: the HTTP operations of bench.stitch.yaml, {ops} operations.
import "@typespec/http";
import "@typespec/openapi";

using Http;
using OpenAPI;

@service(#{{ title: "Benchmark service, {n} endpoints" }})
@info(#{{ version: "1.0.0" }})
@tag("bench")
namespace Bench;

model ErrorEnvelope {{
  error: {{
    /** A registry code such as NOT_FOUND, or an application code. */
    code: string;
    message: string;
    /** Structured facts about the failure. */
    details?: unknown;
    /** What the caller could do about it. */
    hint?: string;
  }};
}}

@error model E400 {{ @statusCode statusCode: 400; @body body: ErrorEnvelope; }}
@error model E401 {{ @statusCode statusCode: 401; @body body: ErrorEnvelope; }}
@error model E403 {{ @statusCode statusCode: 403; @body body: ErrorEnvelope; }}
@error model E404 {{ @statusCode statusCode: 404; @body body: ErrorEnvelope; }}
@error model E409 {{ @statusCode statusCode: 409; @body body: ErrorEnvelope; }}
@error model E429 {{ @statusCode statusCode: 429; @body body: ErrorEnvelope; }}
@error model E500 {{ @statusCode statusCode: 500; @body body: ErrorEnvelope; }}

"""


def typespec(n, types, eps):
    parts = [TSP_PRELUDE.format(n=n, ops=len(eps))]
    for name, s in types.schemas.items():
        parts.append(tsp_model(name, s))
        parts.append("\n")
    for action, ep in eps:
        parts.append(tsp_operation(action, ep))
        parts.append("\n")
    return "".join(parts)


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: gen.py N OUTDIR")
    n = int(sys.argv[1])
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    types = Types(n)
    eps = endpoints(n, types)
    tools = runtime_tools(n)
    (out / "bench.stitch.yaml").write_text(contract_yaml(n, types, eps, tools))
    (out / "main.tsp").write_text(typespec(n, types, eps))
    print(f"gen: {n} endpoints, {types.count} shared types, {len(tools)} runtime tools -> {out}")


if __name__ == "__main__":
    main()
