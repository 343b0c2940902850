"""Whether Prism's answers are ones the original document allows, judged by an independent
OpenAPI validator (openapi-schema-validator, OAS 3.0 or 3.1 semantics: `nullable`, `example`).

usage: original.py DOCUMENT < QUESTIONS.json > VERDICTS.json

Each question is {"method", "path" (concrete, as Prism logged it), "body" (the answer, or null
to judge the documented example Prism serves)}; each verdict is null (allowed, or not
judged) or the first violation, as text. A `$ref` into another file of a multi-file document is
read from disk.
"""
import json
import pathlib
import re
import sys
from urllib.parse import urljoin

import yaml
from openapi_schema_validator import OAS30Validator, OAS31Validator, oas30_format_checker, oas31_format_checker
from referencing import Registry, Resource, Specification

METHODS = ("get", "put", "post", "delete", "patch", "head")


class Loader(yaml.SafeLoader):
    """YAML as JSON reads it: a date stays the string it is on the wire."""


Loader.yaml_implicit_resolvers = {
    k: [(tag, regexp) for tag, regexp in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load(path):
    text = pathlib.Path(path).read_text()
    return json.loads(text) if path.suffix == ".json" else yaml.load(text, Loader=Loader)


class Original:
    def __init__(self, path):
        self.path = pathlib.Path(path).resolve()
        self.doc = load(self.path)
        self.uri = self.path.as_uri()
        v31 = str(self.doc.get("openapi", "")).startswith("3.1")
        self.cls, self.formats = (OAS31Validator, oas31_format_checker) if v31 else (OAS30Validator, oas30_format_checker)
        self.registry = Registry(retrieve=self.retrieve).with_resource(self.uri, self.resource(self.doc))
        self.routes = []
        for template, item in (self.doc.get("paths") or {}).items():
            if isinstance(item, dict) and "$ref" in item:
                item = self.follow(self.uri, item["$ref"])
            pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template.rstrip("/") or "/")) + "/?$"
            self.routes.append((re.compile(pattern), template, item or {}))

    @staticmethod
    def resource(doc):
        # OpenAPI documents are no JSON Schema resources (no `$id`, keywords of their own): read
        # opaque, references resolved by pointer.
        return Resource(contents=doc, specification=Specification.OPAQUE)

    def retrieve(self, uri):
        return self.resource(load(pathlib.Path(uri.removeprefix("file://"))))

    def follow(self, base, ref):
        resolver = self.registry.resolver(base)
        return resolver.lookup(ref).contents

    def operation(self, method, path):
        """(template, operation, where the operation is as a URI): an operation written in a file
        of its own (`$ref: resources/x.yml`) is read there, and its own references from there."""
        for pattern, template, item in self.routes:
            if pattern.match(path) and method in item:
                op, where = item[method], f"{self.uri}#/paths/{escape(template)}/{method}"
                if isinstance(op, dict) and "$ref" in op:
                    where = self.absolute(self.uri, op["$ref"])
                    op = self.follow(self.uri, op["$ref"])
                return template, op, where
        return None, None, None

    @staticmethod
    def absolute(base, ref):
        """`ref` as an absolute URI with a fragment, read from a document at `base`."""
        file, _, fragment = ref.partition("#")
        return f"{urljoin(base, file) if file else base.split('#')[0]}#{fragment}"

    def verdict(self, method, path, body):
        template, op, where = self.operation(method.lower(), path.split("?")[0])
        if op is None:
            return None
        responses = op.get("responses") or {}
        success = sorted(k for k in responses if str(k).startswith("2"))
        if not success:
            return None
        response = responses[success[0]]
        where = f"{where}/responses/{success[0]}"
        if "$ref" in response:
            where = self.absolute(where, response["$ref"])
            response = self.follow(where.split("#")[0], "#" + where.split("#", 1)[1]) if "#" in where else response
        media = (response.get("content") or {}).get("application/json")
        if not media or "schema" not in media:
            return None
        if body is None:
            body = example(media, self)
            if body is None:
                return None
        schema = {"$ref": f"{where}/content/application~1json/schema"}
        validator = self.cls(schema, registry=self.registry, format_checker=self.formats)
        error = next(iter(validator.iter_errors(body)), None)
        if error is None:
            return None
        at = "/".join(str(p) for p in error.absolute_path)
        # The message starts with the whole instance: keep what it says about it.
        return f"at /{at}: {error.message[-160:]}"


def example(media, original):
    if "example" in media:
        return media["example"]
    for value in (media.get("examples") or {}).values():
        if "$ref" in value:
            value = original.follow(original.uri, value["$ref"])
        if "value" in value:
            return value["value"]
    return None


def escape(segment):
    return segment.replace("~", "~0").replace("/", "~1")


def main():
    original = Original(sys.argv[1])
    questions = json.load(sys.stdin)
    verdicts = []
    for q in questions:
        try:
            verdicts.append(original.verdict(q["method"], q["path"], q.get("body")))
        except Exception as e:  # noqa: BLE001 - not judged, said so
            verdicts.append(None)
            print(f"original.py: {q['method']} {q['path']}: not judged: {type(e).__name__}: {e}", file=sys.stderr)
    json.dump(verdicts, sys.stdout)


if __name__ == "__main__":
    main()
