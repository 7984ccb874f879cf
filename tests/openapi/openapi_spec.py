"""docs/openapi.yaml as a validator of real responses: finds the operation of a request, the
response documented for its status and media type, and checks the body against its schema
(JSON Schema 2020-12, as OpenAPI 3.1 uses it). Remembers which operations were exercised."""
import json
import re

import jsonschema
import yaml


class OpenApiSpec:
    def __init__(self, path):
        with open(path) as f:
            self.doc = yaml.safe_load(f)
        self.exercised = set()  # (method, path template)

    def operations(self):
        return {(method.upper(), template)
                for template, item in self.doc["paths"].items()
                for method in item if method in ("get", "post", "put", "delete", "patch")}

    def template_of(self, path):
        """The path template that `path` (without its query) matches, literal segments first."""
        matches = [t for t in self.doc["paths"]
                   if re.fullmatch(re.sub(r"\{[^/]+\}", "[^/]+", t), path)]
        if not matches:
            raise AssertionError(f"no path of docs/openapi.yaml matches {path}")
        return min(matches, key=lambda t: t.count("{"))

    def _deref(self, node):
        while isinstance(node, dict) and "$ref" in node:
            target = self.doc
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def errors(self, schema, instance):
        """Every way `instance` breaks `schema`, refs resolved within the whole document."""
        rooted = dict(schema, components=self.doc["components"])
        validator = jsonschema.Draft202012Validator(rooted)
        return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in validator.iter_errors(instance)]

    def schema(self, name):
        return {"$ref": f"#/components/schemas/{name}"}

    def check(self, method, path, status, headers, body):
        """Fails unless the response is documented for this operation and status and its body
        fits the schema; returns the body (JSON decoded) for the caller's own checks."""
        template = self.template_of(path.split("?")[0])
        operation = self.doc["paths"][template].get(method.lower())
        if operation is None:
            raise AssertionError(f"docs/openapi.yaml has no {method} {template}")
        self.exercised.add((method.upper(), template))
        response = self._deref(operation["responses"].get(str(status)))
        if response is None:
            raise AssertionError(f"{method} {path} answered {status}, which docs/openapi.yaml does not list "
                                 f"(it lists {sorted(operation['responses'])}): {body[:300]!r}")
        media = (headers.get("Content-Type") or "").split(";")[0].strip()
        content = response.get("content", {})
        if media not in content:
            raise AssertionError(f"{method} {path} {status}: media type {media!r} is not among {sorted(content)}")
        instance = json.loads(body) if media == "application/json" else body.decode()
        problems = self.errors(content[media]["schema"], instance)
        if problems:
            raise AssertionError(f"{method} {path} {status} does not fit docs/openapi.yaml:\n  " + "\n  ".join(problems[:10]))
        return instance
