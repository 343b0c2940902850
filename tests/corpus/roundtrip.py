"""The round trip of an imported document, judged by Optic: original → import → generate → openapi.json.

Optic (tests/corpus/optic, pinned) diffs the original (before) against the generated
openapi.json (after) with its breaking-changes ruleset. Each breaking finding is then read: a
finding the importer's documented lowerings explain gets that lowering's id (docs/import.md,
"Round trip", lists every id with its reason); a finding nothing explains has none, and the
corpus test fails on it. Used by tests/corpus/run.py (CI) and bench/import.py (the comparison
with TypeSpec). Python standard library, and PyYAML for YAML documents.
"""

import json
import os
import pathlib
import re
import subprocess
import time

try:
    import yaml
except ImportError:  # JSON documents need nothing more
    yaml = None

METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
STANDARD = "ruleset:\n  - breaking-changes:\n      skip_when_major_version_changes: false\n"

# Why a finding is not a change the importer made by mistake: id → reason. docs/import.md
# ("Round trip") explains each id; tests/corpus/run.py fails when one is missing there.
READINGS = {
    "removed-operation": "inside an operation the round trip does not have (its removal is read on its own)",
    "options-trace": "an OPTIONS/TRACE operation: skipped, the server answers OPTIONS itself",
    "fragment-path": "a `#fragment` path: the fragment is dropped, and the operation skipped when its route is taken",
    "segment-parameter": "a parameter inside a segment (`/{Sid}.json`): the whole segment is the parameter",
    "skipped-operation": "an operation the import skipped with a warning (see its summary)",
    "status-1xx-3xx": "a 1xx/3xx response: not read",
    "error-envelope": "an error response (4xx, 5xx, default): answered in the contract's one error envelope",
    "second-success": "a second success status: the lowest 2xx is the answer, the others are not declared",
    "other-media": "a media type the round trip does not have: non-JSON alternatives beside JSON are not read",
    "stream-frames": "stream frames in the runtime's envelope, `oneOf` item/error: the frames' wire format changes",
    "request-media": "a request media type that is not the one the original names",
    "required-any": "a `required` name no property declares, declared as `{}` (in a form, a string): no change, Optic sees it appear",
    "query-not-scalar": "a non-scalar query parameter read as `{type: string}`: accepts more",
    "header-not-scalar": "a non-scalar header or cookie parameter read as `{type: string}`: accepts more",
    "nullable-in-union": "3.0 `nullable: true` spelled `type: [T, \"null\"]` inside a union: Optic compares branch types",
    "nullable-enum": "3.0 `nullable: true` beside `enum` spelled as `null` in the 3.1 enum: Optic compares the lists",
    "nullable-ref": "3.0 `nullable: true` on a `$ref`/`allOf` spelled `anyOf: [it, {type: null}]`",
    "ref-siblings": "`$ref` with siblings spelled `allOf: [$ref]` beside them: the same schema, Optic reads them apart",
    "discriminator-const": "a `discriminator`'s mapped value as a `const` beside its branch: the branches it told apart",
    "read-only": "a property the original marks `readOnly` left out of a request (`writeOnly`, of an answer)",
}


def _yaml_loader():
    base = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader

    class Loader(base):
        """YAML as JSON reads it: a timestamp stays the string it is written as."""

    Loader.add_constructor("tag:yaml.org,2002:timestamp", lambda loader, node: loader.construct_scalar(node))
    return Loader


class Docs:
    """JSON or YAML documents, with `$ref`s followed across files, for counting operations and
    reading what is at a finding's location on either side."""

    def __init__(self):
        self.cache = {}

    def load(self, path):
        path = pathlib.Path(path).resolve()
        if path not in self.cache:
            text = path.read_text()
            try:
                self.cache[path] = json.loads(text)
            except json.JSONDecodeError:
                if yaml is None:
                    raise SystemExit(f"{path}: a YAML document needs PyYAML (tests/conformance/requirements.txt)")
                self.cache[path] = yaml.load(text, Loader=_yaml_loader())
        return self.cache[path]

    def deref(self, file, node, depth=0):
        """Follows `$ref` (internal or relative-file) until a node without one."""
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and depth < 50:
            target, _, pointer = node["$ref"].partition("#")
            if target:
                file = (pathlib.Path(file).parent / target).resolve()
            try:
                node = self.pointer(self.load(file), pointer)
            except (KeyError, IndexError, ValueError, OSError, TypeError):
                return file, None
            depth += 1
        return file, node

    @staticmethod
    def pointer(root, pointer):
        node = root
        for seg in [s for s in pointer.split("/") if s != ""]:
            seg = seg.replace("~1", "/").replace("~0", "~")
            node = node[int(seg)] if isinstance(node, list) else node[seg]
        return node

    def at(self, file, pointer):
        """The node at a JSON pointer of the document as Optic sees it (refs followed on the way)."""
        file = pathlib.Path(file).resolve()
        node = self.load(file)
        for seg in [s for s in pointer.split("/") if s != ""]:
            seg = seg.replace("~1", "/").replace("~0", "~")
            file, node = self.deref(file, node)
            try:
                node = node[int(seg)] if isinstance(node, list) else node[seg]
            except (KeyError, IndexError, ValueError, TypeError):
                return None
        return node

    def at_loose(self, file, pointer):
        """Like `at`, but reads through `allOf` branches the pointer does not name, and skips an
        `allOf/N` the pointer names where the node has none: where a property is once `$ref` and
        siblings and once `allOf: [$ref]` beside them, both spellings reach it."""
        segs = [s.replace("~1", "/").replace("~0", "~") for s in pointer.split("/") if s != ""]

        def walk(file, node, i, depth=0):
            file, node = self.deref(file, node)
            if i == len(segs):
                return node
            if depth > 40 or node is None:
                return None
            seg = segs[i]
            if isinstance(node, list):
                try:
                    return walk(file, node[int(seg)], i + 1, depth + 1)
                except (ValueError, IndexError):
                    return None
            if not isinstance(node, dict):
                return None
            if seg in node:
                found = walk(file, node[seg], i + 1, depth + 1)
                if found is not None:
                    return found
            if seg == "allOf" and "allOf" not in node and i + 1 < len(segs):
                return walk(file, node, i + 2, depth + 1)
            for branch in node.get("allOf", []) if isinstance(node.get("allOf"), list) else []:
                found = walk(file, branch, i, depth + 1)
                if found is not None:
                    return found
            return None

        return walk(pathlib.Path(file).resolve(), self.load(file), 0)

    def operations(self, file):
        """Sorted (METHOD, path with parameter names blanked) of a document."""
        file = pathlib.Path(file).resolve()
        ops = []
        for path, item in (self.load(file).get("paths") or {}).items():
            _, item = self.deref(file, item)
            for key in item or {}:
                if key in METHODS:
                    ops.append((key.upper(), re.sub(r"\{[^}]*\}", "{}", path)))
        return sorted(ops)


def snippet(node, limit=600):
    if node is None:
        return None
    text = json.dumps(node, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def category(json_path):
    """requests | 2xx | other, from the location Optic gives a finding."""
    segs = [s.replace("~1", "/").replace("~0", "~") for s in json_path.split("/")[1:]]
    if len(segs) >= 3 and segs[0] == "paths":
        rest = segs[3:] if segs[2] in METHODS else segs[2:]
        if segs[2] == "parameters" or (rest and rest[0] in ("parameters", "requestBody")):
            return "requests"
        if rest and rest[0] == "responses" and len(rest) > 1:
            return "2xx" if str(rest[1]).upper().startswith("2") else "other"
    return "other"


def kind(rule, message):
    """A group key for a finding: rule, and its message with names blanked."""
    msg = re.sub(r"'[^']*'", "'…'", message)
    msg = re.sub(r"\b(parameter|property) (?!')[^ ']+( to| from|\.)", r"\1 …\2", msg)
    msg = re.sub(r"\b([1-5])\d\d\b", r"\1xx", msg)
    msg = re.sub(r"\s+", " ", msg)[:300]
    return f"{rule} — {msg}"


def op_of(json_path):
    segs = json_path.split("/")
    return "/".join(segs[:4]) if len(segs) >= 4 and segs[1] == "paths" and segs[3] in METHODS else None


def removed_operation(path, method):
    """Why an operation of the original is not in the round trip."""
    if method in ("options", "trace"):
        return "options-trace"
    if "#" in path:
        return "fragment-path"
    if re.search(r"\{[^}]+\}[^/]|[^/]\{[^}]+\}", path):
        return "segment-parameter"
    return "skipped-operation"


def reading(f, docs, original, after, removed):
    """The id (READINGS) of the lowering that explains a finding, or None."""
    jp, rule, msg = f["json_path"], f["rule"] or "", f["message"] or ""
    segs = [s.replace("~1", "/").replace("~0", "~") for s in jp.split("/")[1:]]
    op = op_of(jp)
    if rule != "prevent operation removal" and op in removed:
        return "removed-operation"
    if rule == "prevent operation removal" and len(segs) >= 2:
        return removed_operation(segs[1], segs[2] if len(segs) >= 3 else "")
    code = segs[segs.index("responses") + 1] if "responses" in segs and segs.index("responses") + 1 < len(segs) else None
    if code is not None and not str(code).upper().startswith("2"):
        return "status-1xx-3xx" if str(code)[0] in "13" else "error-envelope"
    if code is not None and op:
        declared = docs.at(after, op + "/responses")
        if isinstance(declared, dict) and str(code) not in declared:
            return "second-success"
    if "content" in segs:
        media = segs[segs.index("content") + 1] if segs.index("content") + 1 < len(segs) else None
        parent = "/" + "/".join(s.replace("~", "~0").replace("/", "~1") for s in segs[: segs.index("content") + 1])
        have = docs.at(after, parent)
        if media and isinstance(have, dict) and media not in have and "requestBody" not in segs:
            return "other-media"
        if media in ("text/event-stream", "application/x-ndjson", "application/jsonl") and "did not overlap" in msg:
            return "stream-frames"
    return schema_reading(f, docs, original, after, segs, op, rule, msg)


def schema_reading(f, docs, original, after, segs, op, rule, msg):
    """Readings of a finding inside a schema both sides have."""
    try:
        before_node = docs.at_loose(original, f["json_path"])
        after_node = docs.at_loose(after, f["json_path"])
    except Exception:
        before_node = after_node = None
    if "requestBody" in segs and op:
        b_content = docs.at(original, op + "/requestBody/content")
        a_content = docs.at(after, op + "/requestBody/content")
        if isinstance(b_content, dict) and isinstance(a_content, dict) and set(b_content) != set(a_content):
            return "request-media"
    # Declared as any value; in a form, whose fields are text, as a string.
    form_string = after_node == {"type": "string"} and "application/x-www-form-urlencoded" in segs
    if rule == "prevent changing request property to required" and before_node is None and (after_node == {} or form_string):
        return "required-any"
    for place in ("query", "header", "cookie"):
        if f"{place} parameters type" in rule and isinstance(before_node, dict) and isinstance(after_node, dict):
            if (after_node.get("schema") or {}).get("type") == "string" and (before_node.get("schema") or {}).get("type") in ("array", "object"):
                return "query-not-scalar" if place == "query" else "header-not-scalar"
    if "changed to null" in msg and '"nullable": true' in json.dumps(before_node) and '"null"' in json.dumps(after_node):
        return "nullable-in-union"
    if "union" in rule and "enum keyword was removed" in msg and '"nullable": true' in json.dumps(before_node):
        return "nullable-in-union"
    if rule == "request and response property enums" and "''" in msg:
        if isinstance(before_node, dict) and before_node.get("nullable") is True and isinstance(after_node, dict) \
                and None in (after_node.get("enum") or []):
            return "nullable-enum"
    if "union" in rule and isinstance(before_node, dict) and isinstance(after_node, dict):
        before_s = before_node.get("schema", before_node)
        after_s = after_node.get("schema", after_node)
        if before_s.get("nullable") is True and any(b == {"type": "null"} for b in after_s.get("anyOf", [])):
            return "nullable-ref"
        if "$ref" in json.dumps(before_s) and "type null was changed" in msg:
            return "ref-siblings"
    if rule in ("prevent removing response property", "prevent changing request property to required",
                "prevent request property type changes", "prevent response property type changes"):
        if before_node is not None and after_node is not None:
            return "ref-siblings"
    if "union types" in rule:
        return union_respelled(f, docs, original, after)
    return None


def union_respelled(f, docs, original, after):
    """A union finding on two schemas that are the same once one spelling is undone, `$ref`s
    followed on both sides. Optic flattens a one-branch `allOf` one level deep only, and leaves a
    property it cannot type out of a branch (so `allOf: [$ref]` inside a `$ref`d schema reads
    as "required property removed"); and it ignores 3.0 `nullable` behind a `$ref` (so a branch
    property `type: [number, "null"]` reads as "changed to null")."""
    before = docs.at_loose(original, f["json_path"])
    after_node = docs.at_loose(after, f["json_path"])
    if f["json_path"].split("/")[-2:-1] == ["content"]:  # a body: Optic compares its schema
        before, after_node = (before or {}).get("schema"), (after_node or {}).get("schema")
    if before is None or after_node is None:
        return None
    for fix, reading_id in ((("allof-ref",), "ref-siblings"), (("nullable",), "nullable-in-union"),
                            (("allof-ref", "nullable"), "ref-siblings"),
                            (("discriminator",), "discriminator-const"),
                            (("discriminator", "allof-ref", "nullable"), "discriminator-const"),
                            (("readOnly", "discriminator", "allof-ref", "nullable"), "read-only"),
                            (("writeOnly", "discriminator", "allof-ref", "nullable"), "read-only")):
        if same_schema(docs, original, before, after, after_node, set(fix)):
            return reading_id
    return None


# Keywords the import drops that change no valid value, as docs/import.md lists them ("Schemas"):
# annotations and `discriminator` (branches told apart by their own schemas); and `readOnly` and
# `writeOnly`, annotations once the side that never carries the property has left it out.
# Comparing shapes, both sides read without.
DROPPED = {"readOnly", "writeOnly", "discriminator", "xml", "externalDocs", "$comment", "$schema", "$id", "$anchor"}


def respelled(node, fix):
    """One schema node in the spelling both sides share; `fix`: the respellings allowed."""
    if not isinstance(node, dict):
        return node
    tagged = node.get("allOf")
    if "discriminator" in fix and set(node) == {"allOf"} and isinstance(tagged, list) and len(tagged) == 2 \
            and discriminator_tag(tagged[1]):
        return respelled(tagged[0], fix)  # `allOf: [BRANCH, {P: const}]` is the branch it tags
    n = {k: v for k, v in node.items() if not k.startswith("x-") and k not in DROPPED}
    for mark in ("readOnly", "writeOnly"):
        # The side that never carries a marked property leaves it out, of `required` too.
        if mark in fix and isinstance(n.get("properties"), dict):
            hidden = {k for k, v in n["properties"].items() if isinstance(v, dict) and v.get(mark) is True}
            n["properties"] = {k: v for k, v in n["properties"].items() if k not in hidden}
            if isinstance(n.get("required"), list):
                n["required"] = [r for r in n["required"] if r not in hidden]
    if "example" in n:  # 3.0 `example` is 3.1 `examples: [it]`
        n["examples"] = [n.pop("example")]
    if "nullable" in fix and "nullable" in n and n.pop("nullable") is True:  # 3.0 → 3.1
        if isinstance(n.get("type"), str):
            n["type"] = [n["type"], "null"]
        if isinstance(n.get("enum"), list) and None not in n["enum"]:
            n["enum"] = n["enum"] + [None]
    one = n.get("allOf")
    if "allof-ref" in fix and "$ref" not in n and isinstance(one, list) and len(one) == 1 \
            and isinstance(one[0], dict) and set(one[0]) == {"$ref"}:
        n["$ref"] = n.pop("allOf")[0]["$ref"]  # `allOf: [$ref]` beside siblings is `$ref` beside them
    if isinstance(n.get("required"), list):
        n["required"] = sorted(n["required"], key=str)
    return n


def discriminator_tag(node):
    """The part the import writes beside a union branch for its discriminator's mapped value:
    `{required: [P], properties: {P: {const: V}}}` (`enum` for several values)."""
    if not isinstance(node, dict) or set(node) != {"required", "properties"}:
        return False
    props = node["properties"]
    return isinstance(props, dict) and len(props) == 1 and node["required"] == list(props) \
        and all(isinstance(v, dict) and set(v) in ({"const"}, {"enum"}) for v in props.values())


def same_schema(docs, bfile, b, afile, a, fix, assumed=None):
    """Whether schema `b` (in `bfile`) and `a` (in `afile`) are equal once respelled, `$ref`s
    followed on both sides; a pair of references already under comparison is taken as equal."""
    assumed = set() if assumed is None else assumed
    if isinstance(b, list) or isinstance(a, list):
        return isinstance(b, list) and isinstance(a, list) and len(b) == len(a) \
            and all(same_schema(docs, bfile, x, afile, y, fix, assumed) for x, y in zip(b, a))
    if not isinstance(b, dict) or not isinstance(a, dict):
        return b == a
    b, a = respelled(b, fix), respelled(a, fix)
    if "$ref" not in b and "$ref" not in a:
        return set(b) == set(a) and all(same_schema(docs, bfile, b[k], afile, a[k], fix, assumed) for k in b)
    key = (b.get("$ref"), a.get("$ref"))
    if key in assumed:
        return True
    assumed.add(key)
    if "$ref" in b and "$ref" in a:
        if set(b) != set(a) or not all(same_schema(docs, bfile, b[k], afile, a[k], fix, assumed) for k in b if k != "$ref"):
            return False
        (bfile, b), (afile, a) = docs.deref(bfile, {"$ref": b["$ref"]}), docs.deref(afile, {"$ref": a["$ref"]})
        return b is not None and a is not None and same_schema(docs, bfile, b, afile, a, fix, assumed)
    if set(b) == {"$ref"}:
        bfile, b = docs.deref(bfile, b)
    elif set(a) == {"$ref"}:
        afile, a = docs.deref(afile, a)
    else:
        return False
    return b is not None and a is not None and same_schema(docs, bfile, b, afile, a, fix, assumed)


def route(path):
    """A path as Optic matches operations, and as the round trip may respell it: parameter names
    blanked, a `#fragment` and a trailing `/` dropped."""
    path = re.sub(r"\{[^}]*\}", "{}", path.split("#")[0])
    return path.rstrip("/") or "/"


def slice_pair(original, after, every, offset, work):
    """Optic's cost grows with a document's dereferenced size and its findings, past CI's minutes
    on the largest documents. This writes both sides cut to the issue's scope and returns
    (before slice, after slice, routes, pre-read counts): every `every`-th route of the original
    from the `offset`-th (sorted, so the slice spans the API), each operation's requests and success responses only,
    and each side with only the components its paths reach. On the original's side, a success
    status or a response media type the round trip does not declare is left out and counted
    under its reading (`second-success`, `other-media`), the test `reading` applies to each of
    Optic's findings inside it, applied once to the whole. The original's slice sits beside it,
    so its relative `$ref`s still resolve; finding locations keep the full documents' paths."""
    docs = Docs()
    original, after = pathlib.Path(original).resolve(), pathlib.Path(after).resolve()
    pathlib.Path(work).mkdir(parents=True, exist_ok=True)
    routes = sorted({route(p) for p in docs.load(original).get("paths") or {}})[offset::every]
    chosen, counts = set(routes), {}
    answers = {}
    for p, item in (docs.load(after).get("paths") or {}).items():
        answers.setdefault(route(p), docs.deref(after, item)[1] or {})
    out = []
    for side, file in (("after", after), ("before", original)):
        dest = (file.parent if side == "before" else pathlib.Path(work).resolve()) / f".{file.stem}.slice-{offset}-{side}.json"
        doc = dict(docs.load(file))
        paths = {}
        for p, item in (doc.get("paths") or {}).items():
            if route(p) in chosen:
                theirs = answers.get(route(p), {}) if side == "before" else None
                paths[p] = scoped(docs, file, item, dest.parent, theirs, counts)
        doc["paths"] = paths
        doc["components"] = reached(doc)
        if not doc["components"]:
            del doc["components"]
        dest.write_text(json.dumps(doc))
        out.append(dest)
    return out[1], out[0], len(routes), counts


def scoped(docs, source, item, into, theirs, counts):
    """A path item inlined (its `$ref`s rebased to `into`) with only requests and success
    responses; with `theirs` (the round trip's path item), also without the success statuses and
    media types the round trip does not have, counted in `counts` by reading."""
    file, raw = docs.deref(source, item)
    item = rebased(raw or {}, file, source, into)
    for method in [k for k in item if k in METHODS]:
        op_file, raw_op = docs.deref(file, raw[method])
        op = rebased(raw_op or {}, op_file, source, into)
        item[method] = op
        if not isinstance(raw_op.get("responses"), dict):
            continue
        other = (theirs or {}).get(method) if theirs is not None else None
        declared = (other or {}).get("responses") or {}
        responses = {}
        for code, response in raw_op["responses"].items():
            reason = None
            if not str(code).startswith("2"):
                reason = "not a success response"
            elif isinstance(other, dict) and str(code) not in declared:
                reason = "second-success"
            if reason:
                counts[reason] = counts.get(reason, 0) + 1
                continue
            r_file, response = docs.deref(op_file, response)
            response = rebased(response or {}, r_file, source, into)
            have = (declared.get(str(code)) or {}).get("content") if isinstance(other, dict) else None
            if isinstance(response.get("content"), dict) and isinstance(have, dict):
                for media in [m for m in response["content"] if m not in have]:
                    del response["content"][media]
                    counts["other-media"] = counts.get("other-media", 0) + 1
            responses[code] = response
        op["responses"] = responses
    return item


def rebased(node, file, source, into):
    """A deep copy of `node`, read from `file`, with each `$ref` respelled for the slice of
    `source` in the folder `into`: a pointer into `source` stays (its components come along), any
    other target is named by its path relative to `into`."""
    if isinstance(node, list):
        return [rebased(n, file, source, into) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: rebased(v, file, source, into) for k, v in node.items()}
    ref = out.get("$ref")
    if isinstance(ref, str):
        target, hash_, pointer = ref.partition("#")
        target_file = (pathlib.Path(file).parent / target).resolve() if target else pathlib.Path(file).resolve()
        if target_file != source:
            out["$ref"] = os.path.relpath(target_file, into) + hash_ + pointer
        elif target:
            out["$ref"] = hash_ + pointer
    return out


def reached(doc):
    """The document's components that its paths reach through local `$ref`s; security schemes,
    which operations name rather than refer to, all kept."""
    comps = doc.get("components") or {}
    keep = {"securitySchemes": comps["securitySchemes"]} if "securitySchemes" in comps else {}
    todo, seen = [doc["paths"]], set()
    while todo:
        node = todo.pop()
        if isinstance(node, list):
            todo.extend(node)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/") and ref not in seen:
                seen.add(ref)
                kind, _, name = ref[len("#/components/"):].partition("/")
                name = name.replace("~1", "/").replace("~0", "~")
                if name in comps.get(kind, {}):
                    keep.setdefault(kind, {})[name] = comps[kind][name]
                    todo.append(comps[kind][name])
            todo.extend(node.values())
    return {k: dict(sorted(v.items())) if k != "securitySchemes" else v for k, v in keep.items()}


def run_optic(node, optic_js, original, after, work, loose=False, seconds=1200):
    """`optic diff ORIGINAL AFTER --check --json` in `work`. Returns dict(status: ok | breaking |
    error | timeout, seconds, findings: the breaking ones, each with category and kind, error)."""
    work = pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    (work / "standard.yml").write_text(STANDARD)
    details = work / "ci-run-details.json"
    details.unlink(missing_ok=True)
    argv = [str(node), str(optic_js), "diff", str(original), str(after), "--check", "--standard", "standard.yml", "--json"]
    if loose:
        argv.insert(-1, "--validation")
        argv.insert(-1, "loose")
    env = dict(os.environ, NO_UPDATE_NOTIFIER="1", OPTIC_TELEMETRY_LEVEL="off", CI="true")
    start = time.monotonic()
    try:
        proc = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "seconds": round(time.monotonic() - start, 1), "findings": [],
                "error": f"no verdict within {seconds} s"}
    res = {"seconds": round(time.monotonic() - start, 1), "findings": []}
    if not proc.stdout.strip() or not details.exists():
        # --json silences Optic's reason (an invalid document, most often): ask once more without it
        again = subprocess.run(argv[:-1], cwd=work, env=env, capture_output=True, text=True, timeout=seconds)
        lines = [l.strip() for l in (again.stdout + again.stderr).splitlines() if l.strip()]
        invalid = sorted({l[:300] for l in lines if l.startswith("invalid openapi")})
        return {**res, "status": "error", "error": " ¶ ".join(invalid or lines[:4]) or f"exit {proc.returncode}, no output"}
    return {**res, **breaking(details)}


def breaking(details):
    """Optic's verdict from the ci-run-details.json it writes: status, checks, and the breaking
    findings (severity error, not exempted), each with its category and kind."""
    data = json.loads(pathlib.Path(details).read_text())
    if data.get("failed"):
        return {"status": "error", "error": json.dumps(data["failed"])[:1000], "findings": []}
    results = [r for c in data.get("completed", []) for r in c["comparison"]["results"]]
    findings = []
    for r in results:
        if r.get("passed") or r.get("severity") != 2 or r.get("exempted"):
            continue
        jp = r.get("location", {}).get("jsonPath", "")
        findings.append({"rule": r.get("name"), "type": r.get("type"), "where": r.get("where"),
                         "message": r.get("error"), "json_path": jp, "category": category(jp),
                         "kind": kind(r.get("name") or "", r.get("error") or "")})
    return {"status": "breaking" if findings else "ok", "checks": len(results), "findings": findings,
            "failed_below_error": sum(1 for r in results if not r.get("passed") and r.get("severity") != 2)}


def read_all(findings, docs, original, after):
    """Sets `reading` on every finding; returns those nothing explains."""
    removed = {op_of(f["json_path"]) for f in findings if f["rule"] == "prevent operation removal"}
    unread = []
    for f in findings:
        f["reading"] = reading(f, docs, original, after, removed)
        if f["reading"] is None:
            unread.append(f)
    return unread
