"""Validates generated artifacts with independent validators.

usage: validate.py OUT_DIR MCP_SPEC_DIR TARGET...

OUT_DIR holds openapi.json, mcp-tools.json and agent-tools.json from `stitchgen generate`, and
in search mode mcp-catalog.json and agent-catalog.json, whose tools are checked as listed ones.
Each TARGET is an MCP protocol version whose official schema every tool must satisfy.
Prints one line per artifact checked; exits 1 on the first class of failure found.
"""

import json
import pathlib
import sys

from jsonschema import Draft7Validator, Draft202012Validator
from openapi_spec_validator import validate as validate_openapi


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def catalog_tools(out_dir, name):
    """The tools of a search-mode catalog, when the contracts have one."""
    path = out_dir / name
    return load(path)["tools"] if path.exists() else []


def spec_validator(spec_dir, target, definition):
    doc = load(spec_dir / f"schema-{target}.json")
    schema = {"$schema": doc["$schema"], "$ref": f"#/$defs/{definition}", "$defs": doc["$defs"]}
    return Draft202012Validator(schema)


def open_objects(schema, path="#"):
    """Every object schema under `schema` that is not closed with additionalProperties: false."""
    found = []
    if isinstance(schema, dict):
        is_object = schema.get("type") == "object" or "properties" in schema
        # An object that is one of several shapes is closed by each shape, and one composed of
        # parts stated elsewhere (`allOf` of a type kept in `$defs`) by its parts: checked below.
        composed = any(k in schema for k in ("anyOf", "oneOf", "allOf"))
        if is_object and not composed and schema.get("additionalProperties") is not False:
            found.append(path)
        for key, value in schema.items():
            if key in ("enum", "const", "default", "examples"):
                continue
            found.extend(open_objects(value, f"{path}/{key}"))
    elif isinstance(schema, list):
        for i, item in enumerate(schema):
            found.extend(open_objects(item, f"{path}/{i}"))
    return found


def arrays_without_items(schema, path="#"):
    """Every array schema under `schema` that does not say its `items`."""
    found = []
    if isinstance(schema, dict):
        kinds = schema.get("type")
        if (kinds == "array" or (isinstance(kinds, list) and "array" in kinds)) and "items" not in schema:
            found.append(path)
        for key, value in schema.items():
            if key not in ("enum", "const", "default", "examples"):
                found.extend(arrays_without_items(value, f"{path}/{key}"))
    elif isinstance(schema, list):
        for i, item in enumerate(schema):
            found.extend(arrays_without_items(item, f"{path}/{i}"))
    return found


def keyword_in_list_type(schema):
    """Whether any schema under `schema` has a list of types."""
    if isinstance(schema, list):
        return any(keyword_in_list_type(item) for item in schema)
    if not isinstance(schema, dict):
        return False
    if isinstance(schema.get("type"), list):
        return True
    for key, value in schema.items():
        if key in ("properties", "$defs", "patternProperties") and isinstance(value, dict):
            if any(keyword_in_list_type(v) for v in value.values()):
                return True
        elif key not in ("enum", "const", "default", "examples", "example", "type") and keyword_in_list_type(value):
            return True
    return False


def keyword_in(schema, names):
    """Whether any schema under `schema` uses one of keywords `names` (property names and
    values aside)."""
    if isinstance(schema, list):
        return any(keyword_in(item, names) for item in schema)
    if not isinstance(schema, dict):
        return False
    for key, value in schema.items():
        if key in names:
            return True
        if key in ("properties", "$defs", "definitions", "patternProperties"):
            if isinstance(value, dict) and any(keyword_in(v, names) for v in value.values()):
                return True
        elif key not in ("enum", "const", "default", "examples", "example") and keyword_in(value, names):
            return True
    return False


def mcp_profiles(out_dir, mcp, spec_dir, targets, failures):
    """The MCP client profiles written beside mcp-tools.json (`--profile`): each a valid
    `tools/list` result under the official MCP schema, listing every tool once, the canonical
    name recorded where it was rewritten; and what each client is documented to refuse, checked
    here apart from the generator's rules (docs/profiles.md cites each)."""
    said = []
    canonical = {t["name"] for t in mcp["tools"]}
    for path in sorted(out_dir.glob("mcp-tools.*.json")):
        profile = path.name[len("mcp-tools."):-len(".json")]
        listed = load(path)
        problems = []
        for target in targets:
            tool_v = spec_validator(spec_dir, target, "Tool")
            for tool in listed["tools"]:
                for err in tool_v.iter_errors(tool):
                    problems.append(f"MCP {target}: tool {tool['name']}: {err.message} at {list(err.absolute_path)}")
            if target == "2025-11-25":
                for err in spec_validator(spec_dir, target, "ListToolsResult").iter_errors(listed):
                    problems.append(f"MCP {target}: tools/list result: {err.message} at {list(err.absolute_path)}")
        names = [t.get("_meta", {}).get("stitchgen/name", t["name"]) for t in listed["tools"]]
        if sorted(names) != sorted(canonical) or len({t["name"] for t in listed["tools"]}) != len(names):
            problems.append("does not list every tool of mcp-tools.json once")
        for tool in listed["tools"]:
            name, schemas = tool["name"], [tool["inputSchema"]] + ([tool["outputSchema"]] if "outputSchema" in tool else [])
            if keyword_in(schemas, ("$ref", "$defs")):
                problems.append(f"tool {name}: a $ref or $defs is left")
            if tool["inputSchema"].get("type") != "object" or any(k in tool["inputSchema"] for k in ("anyOf", "oneOf", "allOf")):
                problems.append(f"tool {name}: inputSchema is not an object at its root")
            if profile == "cursor":
                # Cursor: server key (16 characters left room) and name within 60; letters, digits, `_`.
                if len(name) > 44 or not all(c.isascii() and (c.isalnum() or c == "_") for c in name):
                    problems.append(f"tool {name}: a name Cursor filters out")
                if keyword_in_list_type(schemas):
                    problems.append(f"tool {name}: a list of types")
                if any("[" in k or "]" in k for k in tool["inputSchema"].get("properties", {})):
                    problems.append(f"tool {name}: an argument name with a bracket")
            if profile == "vscode":
                for schema in schemas:
                    try:
                        Draft7Validator.check_schema(schema)
                    except Exception as e:
                        problems.append(f"tool {name}: not a valid draft-07 schema: {str(e).splitlines()[0]}")
                    for at in arrays_without_items(schema):
                        problems.append(f"tool {name}: an array without items at {at}")
                if len(name) > 42:
                    problems.append(f"tool {name}: past what VS Code's 64-character tool ids leave a name")
            if profile == "claude-code":
                if len("mcp__") + 16 + len("__") + len(name) > 64:
                    problems.append(f"tool {name}: mcp__<server>__<tool> past 64 characters")
                if "outputSchema" in tool and tool["outputSchema"].get("type") != "object":
                    problems.append(f"tool {name}: an outputSchema that is not an object")
        failures.extend(f"{path.name}: {p}" for p in problems)
        said.append(f"{len(listed['tools'])} {profile} MCP tools")
    return said


def main():
    out_dir = pathlib.Path(sys.argv[1])
    spec_dir = pathlib.Path(sys.argv[2])
    targets = sys.argv[3:]
    failures = []

    openapi = load(out_dir / "openapi.json")
    try:
        validate_openapi(openapi)
    except Exception as e:  # the validator raises several exception types
        failures.append(f"openapi.json is not valid OpenAPI 3.1: {e}")
    if openapi.get("openapi") != "3.1.0":
        failures.append(f"openapi.json declares {openapi.get('openapi')!r}, not 3.1.0")

    mcp = load(out_dir / "mcp-tools.json")
    mcp_tools = mcp["tools"] + catalog_tools(out_dir, "mcp-catalog.json")
    for target in targets:
        tool_v = spec_validator(spec_dir, target, "Tool")
        for tool in mcp_tools:
            for err in tool_v.iter_errors(tool):
                failures.append(f"MCP {target}: tool {tool['name']}: {err.message} at {list(err.absolute_path)}")
        # The manifest is the whole 2025-11-25 result. From 2026-07-28 on, a result also carries
        # per-response caching fields (resultType, ttlMs, cacheScope) that the serving adapter adds.
        if target == "2025-11-25":
            for err in spec_validator(spec_dir, target, "ListToolsResult").iter_errors(mcp):
                failures.append(f"MCP {target}: tools/list result: {err.message} at {list(err.absolute_path)}")
    # What a tool asks its user before it acts: each question as the `elicitation/create` request
    # the server sends (2025-11-25) and the input request of an InputRequiredResult (2026-07-28).
    asked = [(t["name"], a) for t in mcp_tools for a in t.get("_meta", {}).get("stitchgen/inputRequired", [])]
    for target in [t for t in targets if t >= "2025-11-25"]:
        form_v = spec_validator(spec_dir, target, "ElicitRequestFormParams")
        for name, ask in asked:
            params = {"mode": "form", "message": ask["message"], "requestedSchema": ask["requestedSchema"]}
            for err in form_v.iter_errors(params):
                failures.append(f"MCP {target}: tool {name}: question `{ask['key']}`: {err.message} at {list(err.absolute_path)}")
    for tool in mcp_tools:
        for key in ("inputSchema", "outputSchema"):
            if key in tool:
                try:
                    Draft202012Validator.check_schema(tool[key])
                except Exception as e:
                    failures.append(f"MCP tool {tool['name']}: {key} is not a valid 2020-12 schema: {e}")

    agent = load(out_dir / "agent-tools.json")
    agent_tools = agent["tools"] + catalog_tools(out_dir, "agent-catalog.json")
    for tool in agent_tools:
        if set(tool) != {"name", "description", "parameters"}:
            failures.append(f"agent tool {tool.get('name')}: keys {sorted(tool)}")
        try:
            Draft202012Validator.check_schema(tool["parameters"])
        except Exception as e:
            failures.append(f"agent tool {tool['name']}: parameters is not a valid 2020-12 schema: {e}")
        for path in open_objects(tool["parameters"]):
            failures.append(f"agent tool {tool['name']}: object not closed at {path}")

    # Client profiles written beside the manifests (`--profile`): Gemini's through the official
    # google-genai SDK's own types, which refuse any field a function declaration does not have.
    gemini = out_dir / "agent-tools.gemini.json"
    profiled = []
    # Every profile lists every agent tool: a tool its rules refuse stops `generate` instead.
    for listed in sorted(out_dir.glob("agent-tools.*.json")):
        count = len(load(listed)["tools"])
        if count != len(agent["tools"]):
            failures.append(f"{listed.name}: {count} tools, agent-tools.json has {len(agent['tools'])}")
    if gemini.exists():
        from google.genai import types as genai

        for tool in load(gemini)["tools"]:
            try:
                genai.FunctionDeclaration.model_validate(tool)
            except Exception as e:  # pydantic's ValidationError, and what it wraps
                failures.append(f"gemini: tool {tool.get('name')}: {str(e).splitlines()[0:3]}")
        profiled.append(f"{len(load(gemini)['tools'])} Gemini function declarations")
    strict = out_dir / "agent-tools.openai-strict.json"
    if strict.exists():
        for tool in load(strict)["tools"]:
            try:
                Draft202012Validator.check_schema(tool["parameters"])
            except Exception as e:
                failures.append(f"openai-strict: tool {tool['name']}: parameters is not a valid 2020-12 schema: {e}")
        profiled.append(f"{len(load(strict)['tools'])} strict OpenAI tools")

    profiled.extend(mcp_profiles(out_dir, mcp, spec_dir, targets, failures))

    for f in failures:
        print(f"FAIL: {out_dir.name}: {f}")
    print(
        f"{out_dir.name}: openapi ({len(openapi.get('paths', {}))} paths), "
        f"{len(mcp_tools)} MCP tools against {', '.join(targets)}"
        + (f" ({len(asked)} elicitation forms)" if asked else "")
        + f", {len(agent_tools)} agent tools"
        + (f", {', '.join(profiled)}" if profiled else "")
        + (f" ({len(mcp_tools) - len(mcp['tools'])} of them in the search catalog)" if len(mcp_tools) > len(mcp["tools"]) else "")
    )
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
