"""An httpx response hook that checks every emulator answer of a published operation against the
published schema, so any test that talks to the emulator through a hooked client is also a
conformance check.

``SchemaHook`` records, per operation key (``"GET /users/@me"``), the statuses it saw, and every
violation; a fixture asserts ``hook.violations == []`` when its test ends. Requests outside
``/api/v10`` (admin API, OAuth2 pages) and paths the schema does not publish (the social SDK's
own routes) are not checked."""

from __future__ import annotations

import json
from functools import lru_cache

import httpx

from openapi_schema import API_PREFIX, PublishedApi, UnknownOperation


@lru_cache(maxsize=1)
def published_api() -> PublishedApi:
    """One parsed schema per test process (loading it costs about a second)."""
    return PublishedApi()


class SchemaHook:
    def __init__(self, api: PublishedApi | None = None) -> None:
        self.api = api or published_api()
        self.violations: list[str] = []
        self.seen: dict[str, set[int]] = {}

    def __call__(self, response: httpx.Response) -> None:
        request = response.request
        path = request.url.path
        if not path.startswith(API_PREFIX + "/"):
            return
        try:
            operation = self.api.operation(request.method, path)
        except UnknownOperation:
            return
        response.read()
        status = response.status_code
        self.seen.setdefault(operation.key, set()).add(status)
        if status >= 500:
            return   # server failures (and the admin API's injected ones) are outside the schema
        body = None
        if response.content:
            media_type = response.headers.get("content-type", "").split(";")[0].strip()
            if media_type != "application/json" and media_type in self.api.media_types(request.method, path, status):
                return   # a declared non-JSON body (text/csv): its type is what the schema states
            if not response.headers.get("content-type", "").startswith("application/json"):
                self.violations.append(f"{operation.key} {status}: body is not application/json")
                return
            body = json.loads(response.content)
        try:
            self.violations.extend(self.api.check(request.method, path, status, body))
        except AssertionError as undeclared:
            self.violations.append(str(undeclared))

    def install(self, client: httpx.Client) -> httpx.Client:
        client.event_hooks["response"] = [*client.event_hooks["response"], self]
        return client

    def assert_conforms(self) -> None:
        assert not self.violations, "answers that break the published schema:\n" + "\n".join(
            dict.fromkeys(self.violations))
