"""The platform's published HTTP API schema (tests/data/openapi.json, a copy of
shared/reference/openapi.json) as a validator of the emulator's answers.

``PublishedApi.check(method, url_path, status, body)`` finds the operation the request maps to,
picks the response the schema declares for that status (exact code, else ``4XX``-style class), and
validates the JSON body with JSON Schema 2020-12 (the dialect of OpenAPI 3.1). It answers the list
of violations (empty when the body conforms), each naming the JSON path and the broken rule, so a
test can print all of them at once rather than the first."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "data" / "openapi.json"
API_PREFIX = "/api/v10"
_DOCUMENT_URI = "urn:platform:openapi"
_METHODS = ("get", "put", "post", "patch", "delete")


@dataclass(frozen=True)
class Operation:
    method: str  # upper case
    template: str  # e.g. /users/{user_id}
    spec: dict[str, Any]

    @property
    def key(self) -> str:
        return f"{self.method} {self.template}"


class UnknownOperation(LookupError):
    """The request maps to no operation of the published schema."""


# Where the published schema is narrower than the platform itself, named one by one (each with the
# source that wins). Nothing else is relaxed.
# - Field error leaves carry string codes ("BASE_TYPE_REQUIRED"): docs/wire.md and the platform's docs; the
#   schema types them as integers.
# - The seed's two game-studio connection providers lost their enum entries when brand names were
#   neutralised.
# - The social SDK's scopes (seed: sdk.social_layer* and identify.premium, and what they expand to)
#   are missing from the schema's scope enum.
STRING_FIELD_ERROR = {"type": "object", "required": ["code", "message"],
                      "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}
SEED_CONNECTION_PROVIDERS = ("game_studio_1", "game_studio_2")
SOCIAL_SDK_SCOPES = ("sdk.social_layer", "sdk.social_layer_presence", "identify.premium", "relationships.write",
                     "lobbies.write", "presences.read", "presences.write", "dm_channels.messages.read",
                     "dm_channels.messages.write")


def _apply_documented_divergences(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    schemas["InnerErrors"]["properties"]["_errors"]["items"] = {
        "anyOf": [schemas["InnerErrors"]["properties"]["_errors"]["items"], STRING_FIELD_ERROR]}
    schemas["ConnectedAccountProviders"]["oneOf"] += [{"const": name} for name in SEED_CONNECTION_PROVIDERS]
    schemas["OAuth2Scopes"]["oneOf"] += [{"const": scope} for scope in SOCIAL_SDK_SCOPES]


class PublishedApi:
    def __init__(self, path: Path = SCHEMA_FILE) -> None:
        self.document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        _apply_documented_divergences(self.document)
        resource = Resource.from_contents(self.document, default_specification=DRAFT202012)
        self._registry: Registry = Registry().with_resource(_DOCUMENT_URI, resource)
        self._validators: dict[str, Draft202012Validator] = {}

    @cached_property
    def operations(self) -> list[tuple[re.Pattern[str], Operation]]:
        """Every operation, most literal templates first so `/users/@me` wins over `/users/{id}`."""
        found = []
        for template, item in self.document["paths"].items():
            pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
            for method in _METHODS:
                if method in item:
                    found.append((pattern, Operation(method.upper(), template, item[method])))
        found.sort(key=lambda entry: entry[1].template.count("{"))
        return found

    def operation(self, method: str, url_path: str) -> Operation:
        path = url_path.split("?", 1)[0]
        if path.startswith(API_PREFIX):
            path = path[len(API_PREFIX):]
        method = "GET" if method.upper() == "HEAD" else method.upper()
        for pattern, operation in self.operations:
            if operation.method == method and pattern.match(path):
                return operation
        raise UnknownOperation(f"{method} {path} is not an operation of the published schema")

    def response_schema(self, operation: Operation, status: int) -> dict[str, Any] | None:
        """The JSON schema of the body the operation declares for ``status``; None for a bodiless
        answer (204). Raises AssertionError when the status is not declared at all."""
        responses = operation.spec.get("responses", {})
        declared = responses.get(str(status)) or responses.get(f"{status // 100}XX") or responses.get("default")
        if declared is None:
            raise AssertionError(f"{operation.key} declares no response {status} (it declares {sorted(responses)})")
        declared = self._resolve(declared)
        content = declared.get("content", {}).get("application/json")
        return None if content is None else content.get("schema")

    def media_types(self, method: str, url_path: str, status: int) -> set[str]:
        """The media types the operation declares for ``status`` (``text/csv`` for Get Target Users)."""
        operation = self.operation(method, url_path)
        responses = operation.spec.get("responses", {})
        declared = responses.get(str(status)) or responses.get(f"{status // 100}XX") or responses.get("default")
        return set(self._resolve(declared).get("content", {})) if declared is not None else set()

    def check(self, method: str, url_path: str, status: int, body: Any) -> list[str]:
        operation = self.operation(method, url_path)
        schema = self.response_schema(operation, status)
        if schema is None:
            return [] if body in (None, b"", "") else [f"{operation.key} {status}: the schema declares no body"]
        validator = self._validator(schema)
        return sorted(
            f"{operation.key} {status}: at {error.json_path}: {error.message[:300]}"
            for error in validator.iter_errors(body))

    def check_object(self, schema_name: str, body: Any) -> list[str]:
        """Violations of ``body`` against the named component schema (``MessageResponse``): for
        objects that reach clients outside an HTTP answer, such as Gateway dispatches."""
        validator = self._validator({"$ref": f"#/components/schemas/{schema_name}"})
        return sorted(f"{schema_name}: at {error.json_path}: {error.message[:300]}"
                      for error in validator.iter_errors(body))

    def _validator(self, schema: dict[str, Any]) -> Draft202012Validator:
        key = json.dumps(schema, sort_keys=True)
        validator = self._validators.get(key)
        if validator is None:
            validator = Draft202012Validator(_rooted(schema), registry=self._registry)
            self._validators[key] = validator
        return validator

    def _resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            target: Any = self.document
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            node = target
        return node


def _rooted(node: Any) -> Any:
    """The schema with its document-local refs (``#/components/...``) pointed at the document."""
    if isinstance(node, dict):
        return {key: (_DOCUMENT_URI + value if key == "$ref" and isinstance(value, str) and value.startswith("#")
                      else _rooted(value)) for key, value in node.items()}
    if isinstance(node, list):
        return [_rooted(value) for value in node]
    return node
