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
from openapi_schema_validator import OAS30Validator, OAS31Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

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
        self.cls = OAS31Validator if str(self.doc.get("openapi", "")).startswith("3.1") else OAS30Validator
        self.registry = Registry(retrieve=self.retrieve).with_resource(self.uri, self.resource(self.doc))
        self.routes = []
        for template, item in (self.doc.get("paths") or {}).items():
            if isinstance(item, dict) and "$ref" in item:
                item = self.follow(self.uri, item["$ref"])
            pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template.rstrip("/") or "/")) + "/?$"
            self.routes.append((re.compile(pattern), template, item or {}))

    @staticmethod
    def resource(doc):
        return Resource(contents=doc, specification=DRAFT202012)

    def retrieve(self, uri):
        return self.resource(load(pathlib.Path(uri.removeprefix("file://"))))

    def follow(self, base, ref):
        resolver = self.registry.resolver(base)
        return resolver.lookup(ref).contents

    def operation(self, method, path):
        for pattern, template, item in self.routes:
            if pattern.match(path) and method in item:
                return template, item[method]
        return None, None

    def verdict(self, method, path, body):
        template, op = self.operation(method.lower(), path.split("?")[0])
        if op is None:
            return None
        responses = op.get("responses") or {}
        success = sorted(k for k in responses if str(k).startswith("2"))
        if not success:
            return None
        response = responses[success[0]]
        where = f"{self.uri}#/paths/{escape(template)}/{method.lower()}/responses/{success[0]}"
        if "$ref" in response:
            file, _, fragment = response["$ref"].partition("#")
            where = f"{urljoin(self.uri, file) if file else self.uri}#{fragment}"
            response = self.follow(self.uri, response["$ref"])
        media = (response.get("content") or {}).get("application/json")
        if not media or "schema" not in media:
            return None
        if body is None:
            body = example(media, self)
            if body is None:
                return None
        schema = {"$ref": f"{where}/content/application~1json/schema"}
        validator = self.cls(schema, registry=self.registry)
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
