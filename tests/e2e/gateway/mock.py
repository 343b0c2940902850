"""The document Prism mocks (see for_prism): the original, or a copy where Prism 5.16 reads the
original otherwise than its authors and the import do. No rewrite refuses what the original
accepts, so a request Prism refuses is one the original refuses too; answers are judged by the
original, never by the copy."""
import json
import shutil

import jsonschema_rs
import yaml

FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def for_prism(original, dir_):
    """The path of the document Prism is to mock. Five rewrites, each counted in `rewrites.txt`:

    - implied `allOf`: where a schema writes an `enum` beside an `allOf`, the `allOf` is left out
      wherever every value of the `enum` satisfies it (checked here per value, formats asserted):
      Prism's generator reads only the `allOf` (Discord's scopes and channel types) and makes
      values the `enum` refuses.
    - form fields: a form's required field that it does not declare is declared as any value
      (Box's token revocation requires `grant_type`): Prism reads only a form's declared fields,
      so it refuses every request, the field sent or not.
    - discriminator: a `oneOf` or `anyOf` of references with a `discriminator` mapping gets each
      mapped value as the `enum` of its branch's property, as the import reads it: Prism 5.16
      judges `oneOf` without the discriminator, and DigitalOcean's action bodies, whose branches
      overlap (a snapshot is an action with a name), then match none.
    - unions told apart by nothing: a `oneOf` of open objects where every value of one branch
      matches another (see `within`) is an `anyOf`, as the import reads it: read literally, it
      refuses every value of that branch (Together's classifying evaluations, which the API
      takes, match its comparing ones too).
    - recursion: an optional property through which a schema reaches itself again (Mastodon's
      `Account.moved`, a status's `reblog`) is not declared in an open schema: Prism's generator
      cuts such a chain at its depth of three references and leaves out the required properties
      of what it cut. The copy allows any value there.

    None refuses what the original accepts. A JSON document is rewritten whole; a YAML one (a
    file or a tree of files) only where a discriminator or union is rewritten, its text replaced
    in place: read and written again, its scalars could change (a date becomes a timestamp)."""
    if original.suffix == ".json":
        doc = json.loads(original.read_text())
        counts = {
            "implied allOf": drop_implied_all_of(doc),
            "form fields": declare_form_fields(doc),
            "discriminator": tag_discriminated(doc),
            "unions": loosen_unions(doc),
            "recursion": cut_recursion(doc),
        }
        report(dir_, original.name, counts)
        if not any(counts.values()):
            return original
        copy = dir_ / f"prism-{original.name}"
        copy.write_text(json.dumps(doc))
        return copy
    return yaml_copy(original, dir_)


def report(dir_, name, counts):
    with open(dir_ / "rewrites.txt", "a") as f:
        f.write(f"{name}: " + ", ".join(f"{n} {what}" for what, n in counts.items()) + "\n")


def walk(node, visit):
    """Calls `visit` on every mapping under `node`, outer ones first."""
    if isinstance(node, dict):
        visit(node)
        for v in list(node.values()):
            walk(v, visit)
    elif isinstance(node, list):
        for v in node:
            walk(v, visit)


def drop_implied_all_of(doc):
    draft = jsonschema_rs.Draft202012Validator if str(doc.get("openapi", "")).startswith("3.1") \
        else jsonschema_rs.Draft4Validator
    components = doc.get("components", {})
    dropped = 0

    def implied(node):
        try:
            check = draft({"components": components, "allOf": node["allOf"]}, validate_formats=True)
            return all(check.is_valid(value) for value in node["enum"])
        except Exception:  # noqa: BLE001 - a schema this validator cannot read is left as it is
            return False

    def visit(node):
        nonlocal dropped
        if isinstance(node.get("enum"), list) and isinstance(node.get("allOf"), list) and implied(node):
            del node["allOf"]
            dropped += 1

    walk(doc, visit)
    return dropped


def local(doc, schema, hops=0):
    """`schema` with its local `$ref` chain followed (at most eight hops)."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/") \
            and hops < 8:
        target = doc
        for token in schema["$ref"][2:].split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            target = target.get(token) if isinstance(target, dict) else None
        schema, hops = target, hops + 1
    return schema


def declare_form_fields(doc):
    declared = 0
    for item in doc.get("paths", {}).values():
        for op in (item or {}).values():
            body = local(doc, op.get("requestBody")) if isinstance(op, dict) else None
            for media, content in ((body or {}).get("content") or {}).items():
                schema = local(doc, (content or {}).get("schema"))
                if media not in FORMS or not isinstance(schema, dict) or schema.get("additionalProperties") is False:
                    continue
                props = schema.setdefault("properties", {})
                for name in schema.get("required") or []:
                    if isinstance(name, str) and name not in props:
                        props[name] = {}
                        declared += 1
    return declared


def tagged(node):
    """For a schema with a discriminator mapping: (union keyword, {branch index: the branch with
    its mapped values as the `enum` of the property}) for each branch that is a bare reference
    the mapping names (a bare name stands for `#/components/schemas/NAME`)."""
    d = node.get("discriminator")
    key = next((k for k in ("oneOf", "anyOf") if isinstance(node.get(k), list)), None)
    if key is None or not isinstance(d, dict) or not isinstance(d.get("mapping"), dict) \
            or not isinstance(d.get("propertyName"), str):
        return None, {}
    full = lambda r: r if "/" in r or "#" in r else f"#/components/schemas/{r}"  # noqa: E731
    out = {}
    for i, branch in enumerate(node[key]):
        if not (isinstance(branch, dict) and list(branch) == ["$ref"] and isinstance(branch["$ref"], str)):
            continue
        values = [v for v, target in d["mapping"].items() if isinstance(target, str) and full(target) == branch["$ref"]]
        if values:
            tag = {"type": "object", "required": [d["propertyName"]], "properties": {d["propertyName"]: {"enum": values}}}
            out[i] = {"allOf": [branch, tag]}
    return key, out


def tag_discriminated(doc):
    tags = 0

    def visit(node):
        nonlocal tags
        key, branches = tagged(node)
        for i, branch in branches.items():
            node[key][i] = branch
        tags += len(branches)

    walk(doc, visit)
    return tags


ANNOTATIONS = {"description", "title", "example", "examples", "externalDocs", "deprecated", "readOnly", "writeOnly",
               "default", "xml"}


def constraints(schema):
    return {k: v for k, v in schema.items() if k not in ANNOTATIONS and not k.startswith("x-")} \
        if isinstance(schema, dict) else schema


def within(a, b):
    """Whether every value of branch `a` made of the properties it declares matches branch `b`
    too: both open objects with no constraint but their properties, `b` requiring nothing `a`
    does not, each property both declare the same schema (annotations aside)."""
    def plain(s):
        return isinstance(s, dict) and s.get("type") == "object" and all(
            k in ("type", "properties", "required") or (k == "additionalProperties" and v is True)
            for k, v in constraints(s).items())
    if not plain(a) or not plain(b) or not set(b.get("required") or []) <= set(a.get("required") or []):
        return False
    pa, pb = a.get("properties") or {}, b.get("properties") or {}
    return all(name not in pb or constraints(pa[name]) == constraints(pb[name]) for name in pa)


def told_apart_by_nothing(doc, node):
    """Whether the `oneOf` of `node` has a branch every value of which another branch takes."""
    branches = node.get("oneOf")
    if not isinstance(branches, list):
        return False
    resolved = [local(doc, b) for b in branches]
    return any(i != j and within(a, b) for i, a in enumerate(resolved) for j, b in enumerate(resolved))


def loosen_unions(doc):
    loosened = 0

    def visit(node):
        nonlocal loosened
        if told_apart_by_nothing(doc, node):
            node["anyOf"] = node.pop("oneOf")
            loosened += 1

    walk(doc, visit)
    return loosened


def cut_recursion(doc):
    """Leaves out of each open component schema the optional properties through which it
    reaches itself (references followed through other components)."""
    schemas = doc.get("components", {}).get("schemas", {})
    prefix = "#/components/schemas/"

    def refs(node):
        found = set()

        def visit(n):
            r = n.get("$ref")
            if isinstance(r, str) and r.startswith(prefix):
                found.add(r[len(prefix):].replace("~1", "/").replace("~0", "~"))

        walk(node, visit)
        return found

    edges = {name: refs(s) for name, s in schemas.items()}

    def reaches(start, goal):
        seen, todo = set(), list(start)
        while todo:
            name = todo.pop()
            if name == goal:
                return True
            if name not in seen:
                seen.add(name)
                todo.extend(edges.get(name, ()))
        return False

    cut = []
    for name, schema in schemas.items():
        if not isinstance(schema, dict) or schema.get("additionalProperties") is False:
            continue
        required = set(schema.get("required") or [])
        props = schema.get("properties")
        for prop, sub in (props.items() if isinstance(props, dict) else ()):
            if prop not in required and reaches(refs(sub), name):
                cut.append((props, prop))
    for props, prop in cut:
        del props[prop]
    return len(cut)


def yaml_copy(original, dir_):
    """A YAML document with its discriminators tagged and its unions told apart by nothing
    loosened: a copy of it (of its `specification/` folder, for a tree of files) where each such
    file has the text of what changed replaced by JSON (a flow collection, which YAML reads)."""
    tree = original.parent.name == "specification"
    root = original.parent
    files = sorted(p for p in root.rglob("*") if p.suffix in (".yml", ".yaml")) if tree else [original]
    edited, counts = {}, {"discriminator": 0, "unions": 0}
    for path in files:
        text = path.read_text()
        try:
            composed = yaml.compose(text, Loader=yaml.SafeLoader)
            plain = yaml.load(text, Loader=Loader)
        except yaml.YAMLError:
            continue
        edits = []
        collect_yaml_edits(plain, composed, edits)
        for start, end, value, what in sorted(edits, reverse=True):
            text = text[:start] + json.dumps(value) + text[end:]
            counts[what] += 1
        if edits:
            edited[path.relative_to(root)] = text
    report(dir_, original.name, counts)
    if not edited:
        return original
    copy = dir_ / "prism-copy"
    shutil.rmtree(copy, ignore_errors=True)
    if tree:
        shutil.copytree(root, copy)
    copy.mkdir(parents=True, exist_ok=True)
    for relative, text in edited.items():
        (copy / relative).write_text(text)
    return copy / original.name


class Loader(yaml.SafeLoader):
    """YAML as JSON reads it: a timestamp stays the string it is written as."""


Loader.add_constructor("tag:yaml.org,2002:timestamp", lambda loader, node: loader.construct_scalar(node))


def collect_yaml_edits(doc, node, edits):
    """(start, end, new value, rewrite) for each discriminated branch and each union told apart
    by nothing under the composed `node` of the document `doc` (its local references read)."""
    if isinstance(node, yaml.MappingNode):
        keys = {k.value: (k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode)}
        if "discriminator" in keys or "oneOf" in keys:
            plain = Loader("").construct_document(node)
            key, branches = tagged(plain) if isinstance(plain, dict) else (None, {})
            for i, branch in branches.items():
                item = keys[key][1].value[i]
                # The item's own text: its last value's end (the mapping's runs on to the next line).
                end = item.value[-1][1].end_mark.index if isinstance(item, yaml.MappingNode) else item.end_mark.index
                edits.append((item.start_mark.index, end, branch, "discriminator"))
            if not branches and isinstance(plain, dict) and told_apart_by_nothing(doc, plain):
                k = keys["oneOf"][0]
                edits.append((k.start_mark.index, k.end_mark.index, "anyOf", "unions"))
        for _, v in node.value:
            collect_yaml_edits(doc, v, edits)
    elif isinstance(node, yaml.SequenceNode):
        for v in node.value:
            collect_yaml_edits(doc, v, edits)
