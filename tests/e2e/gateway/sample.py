"""Arguments a tool's input schema accepts, made from the schema alone: every required key, from
its `const`, `enum`, `default` or `examples`, else from its type (and format, bounds, length).
Deterministic: the same schema gives the same arguments. Every candidate is validated against
the whole input schema before it is returned; `None` when no candidate passes.
"""
import copy
import re

try:  # Python 3.11 and later keep the parser here.
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_parse

import jsonschema_rs

# Strings tried, in order, for a `pattern` with no example: the shapes real APIs ask for.
PATTERN_TRIES = ["a", "abc", "1", "123", "a1", "abc-123", "ABC", "2024-01-01", "2024-01-01T00:00:00Z", "1.0",
                 "AC00000000000000000000000000000000", "x" * 24, "00000000-0000-4000-8000-000000000000"]

FORMATS = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "00:00:00Z",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "email": "someone@example.com",
    "uri": "https://example.com/",
    "url": "https://example.com/",
    "uri-reference": "https://example.com/",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "byte": "AAAA",
    "binary": "AAAA",
    "duration": "P1D",
}


class Sampler:
    """One tool's input schema, its `$defs` at hand."""

    def __init__(self, schema):
        self.schema = schema
        self.defs = schema.get("$defs", {})
        self.validator = jsonschema_rs.validator_for(schema)

    def arguments(self):
        for candidate in self.candidates(self.schema, 0):
            if self.validator.is_valid(candidate):
                return candidate
        return None

    def resolve(self, node):
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 32:
            ref = node["$ref"]
            if not ref.startswith("#/$defs/"):
                return node
            node = {**self.defs.get(ref[len("#/$defs/"):], {}), **{k: v for k, v in node.items() if k != "$ref"}}
            seen += 1
        return node

    def candidates(self, node, depth):
        """Candidate values for one subschema, most likely first (a few, never unbounded)."""
        node = self.resolve(node)
        if not isinstance(node, dict) or depth > 12:
            return [None]
        out = []
        if "const" in node:
            return [node["const"]]
        for key in ("examples",):
            out += [copy.deepcopy(v) for v in node.get(key, [])[:3]]
        if "default" in node:
            out.append(copy.deepcopy(node["default"]))
        if "enum" in node:
            out += [v for v in node["enum"][:3] if v is not None] or node["enum"][:1]
            return out
        # Each branch with the schema around it (a tool's path parameters beside a union body, a
        # branch that only adds `required`): a value must satisfy both.
        for key in ("oneOf", "anyOf"):
            for branch in node.get(key, [])[:8]:
                combined = {k: v for k, v in node.items() if k not in ("oneOf", "anyOf")}
                merge(combined, self.resolve(branch))
                out += [v for v in self.candidates(combined, depth + 1)[:2] if v is not None]
        if "allOf" in node:
            merged = {k: v for k, v in node.items() if k != "allOf"}
            for branch in node["allOf"]:
                merge(merged, self.resolve(branch))
            out += self.candidates(merged, depth + 1)
        types = node.get("type")
        types = types if isinstance(types, list) else [types] if types else []
        if not types and "properties" in node:
            types = ["object"]
        for t in [t for t in types if t != "null"] + [t for t in types if t == "null"]:
            out += self.typed(t, node, depth)
        return out or [None]

    def typed(self, t, node, depth):
        if t == "object":
            return [self.object(node, depth)]
        if t == "array":
            count = max(1, node.get("minItems", 1))
            if node.get("uniqueItems") and count > 1:
                return [self.distinct(node.get("items", {}), count, depth + 1)]
            return [[self.first_valid(node.get("items", {}), depth + 1)] * count]
        if t == "string":
            return self.string(node)
        if t in ("integer", "number"):
            low = node.get("minimum", node.get("exclusiveMinimum", 0) + (1 if "exclusiveMinimum" in node else 0))
            high = node.get("maximum")
            value = max(low, 1) if high is None or high >= 1 else high
            return [int(value) if t == "integer" else value]
        if t == "boolean":
            return [True, False]
        return [None]

    def object(self, node, depth):
        props = node.get("properties", {})
        value = {}
        for key in node.get("required", []):
            value[key] = self.first_valid(props.get(key, {}), depth + 1)
        return value

    def distinct(self, node, count, depth):
        """`count` different values the item schema accepts (for `uniqueItems`), as far as found."""
        pool = self.candidates(node, depth) + [str(i) for i in range(1, 10)] + ["b", "c", "d"] + list(range(2, 10))
        try:
            check = jsonschema_rs.validator_for({**node, "$defs": self.defs}) if isinstance(node, dict) else None
        except Exception:  # noqa: BLE001 - a subschema that does not compile alone
            check = None
        out = []
        for value in pool:
            if value not in out and (check is None or check.is_valid(value)):
                out.append(value)
            if len(out) == count:
                break
        return out

    def first_valid(self, node, depth):
        """The first candidate the subschema accepts (else the first), so that one bad example
        does not spoil the object around it."""
        options = self.candidates(node, depth)
        if isinstance(node, dict):
            try:
                check = jsonschema_rs.validator_for({**node, "$defs": self.defs})
            except Exception:  # noqa: BLE001 - a subschema that does not compile alone
                return options[0]
            for option in options:
                if check.is_valid(option):
                    return option
        return options[0]

    def string(self, node):
        fmt = node.get("format")
        tries = [FORMATS[fmt]] if fmt in FORMATS else []
        if "pattern" in node:
            made = from_pattern(node["pattern"])
            tries += ([made] if made is not None else []) + PATTERN_TRIES
        tries.append("a" * max(1, node.get("minLength", 1)))
        low, high = node.get("minLength", 0), node.get("maxLength")
        fitting = [s for s in tries if len(s) >= low and (high is None or len(s) <= high)]
        if "pattern" in node:
            try:
                fitting = [s for s in fitting if re.search(node["pattern"], s)] or fitting
            except re.error:
                pass
        return fitting or ["a" * max(1, low)]


def from_pattern(pattern):
    """The shortest plain string a regular expression matches (anchors read, each class its first
    character, each repeat its least count), or None for what this does not read."""
    try:
        tree = sre_parse.parse(pattern)
    except (re.error, RecursionError, TypeError):
        return None
    out = []
    try:
        walk(tree, out)
    except (ValueError, KeyError):
        return None
    text = "".join(out)
    try:
        return text if re.search(pattern, text) else None
    except re.error:
        return None


def walk(items, out):
    c = sre_parse
    for op, arg in items:
        if op == c.LITERAL:
            out.append(chr(arg))
        elif op == c.ANY:
            out.append("a")
        elif op == c.NOT_LITERAL:
            out.append("a" if chr(arg) != "a" else "b")
        elif op == c.IN:
            out.append(first_of(arg))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            low, _high, sub = arg
            for _ in range(low):
                walk(sub, out)
        elif op == c.SUBPATTERN:
            walk(arg[-1], out)
        elif op == c.BRANCH:
            walk(arg[1][0], out)
        elif op == c.AT:
            continue
        elif op == c.CATEGORY:
            out.append(CATEGORY.get(arg, "a"))
        else:
            raise ValueError(op)


CATEGORY = {sre_parse.CATEGORY_DIGIT: "0", sre_parse.CATEGORY_WORD: "a", sre_parse.CATEGORY_SPACE: " ",
            sre_parse.CATEGORY_NOT_DIGIT: "a", sre_parse.CATEGORY_NOT_WORD: "-", sre_parse.CATEGORY_NOT_SPACE: "a"}


def first_of(items):
    """A character of a class: its first literal, range start or category."""
    c = sre_parse
    if items and items[0][0] == c.NEGATE:
        excluded = {chr(arg) for op, arg in items if op == c.LITERAL}
        return next(ch for ch in "a0x-" if ch not in excluded)
    for op, arg in items:
        if op == c.LITERAL:
            return chr(arg)
        if op == c.RANGE:
            return chr(arg[0])
        if op == c.CATEGORY:
            return CATEGORY.get(arg, "a")
    raise ValueError("empty class")


def merge(into, branch):
    """`allOf` branch into one object schema: properties and required keys joined."""
    if not isinstance(branch, dict):
        return
    for key, value in branch.items():
        if key == "properties":
            into.setdefault("properties", {}).update(value)
        elif key == "required":
            into["required"] = sorted(set(into.get("required", [])) | set(value))
        else:
            into.setdefault(key, value)


def arguments(schema):
    """Arguments for a tool, or None when none was made that its schema accepts."""
    return Sampler(schema).arguments()
