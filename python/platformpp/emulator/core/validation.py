"""The request validator: typed reads of a decoded JSON body (``Form``) that collect every bad field,
then raise one 50035 naming each path (docs/wire.md); and reading a JSON body (50109 / 40005)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from .errors import INVALID_FORM_BODY, INVALID_JSON, ApiError
from .snowflake import snowflake_value
from .uploads import json_body, read_capped


class FieldErrors:
    """Collects errors by field path; raises one 50035 with all of them."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def __bool__(self) -> bool:
        return bool(self.tree)

    def raise_if_any(self) -> None:
        if self.tree:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", self.tree)


def field_error(path: str | tuple[str | int, ...], code: str, message: str) -> ApiError:
    """The 400 / 50035 naming one bad field (``path``: a name, or the path to a nested one)."""
    errors = FieldErrors()
    errors.add(path if isinstance(path, tuple) else (path,), code, message)
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors.tree)


_MISSING = object()


def _has_bool(choices: tuple[Any, ...]) -> bool:
    """Whether a choice is a bool (then only bools match: True == 1 otherwise). Not cached: a cache
    keyed by the tuple would take (1, 0) for (True, False), which compare and hash equal."""
    return any(isinstance(c, bool) for c in choices)


class Form:
    """Typed reads of a decoded JSON object. Each failed read records a field error and returns None;
    call ``done()`` after the reads to raise the 50035 if anything failed.

    Keys no read asks for are ignored, as the platform ignores request fields it does not know
    (clients send ``tts``, ``nonce``, whole attachment objects, ...); a known key still has its type
    and range checked. World files alone refuse unknown keys (``refuse_unknown_keys``): a developer
    writes them by hand, where a typo should be caught."""

    def __init__(self, data: Any, errors: FieldErrors | None = None, path: tuple[str | int, ...] = ()) -> None:
        self.errors = errors if errors is not None else FieldErrors()
        self.path = path
        if not isinstance(data, dict):
            self.errors.add(path, "DICT_TYPE_CONVERT", "Must be an object.")
            data = {}
        self.data: dict[str, Any] = data

    def done(self) -> None:
        self.errors.raise_if_any()

    def fail(self, name: str | int, code: str, message: str) -> None:
        self.errors.add((*self.path, name), code, message)

    def refuse_unknown_keys(self, allowed: set[str]) -> None:
        """A field error for each key not in ``allowed`` (world files only; requests ignore them)."""
        unknown = self.data.keys() - allowed
        for key in sorted(unknown) if unknown else ():
            self.fail(key, "BASE_TYPE_UNKNOWN_FIELD", f"Unknown field; allowed fields are {sorted(allowed)}.")

    def _get(self, name: str, required: bool, nullable: bool) -> Any:
        value = self.data.get(name, _MISSING)
        if value is _MISSING or (value is None and not nullable):
            if required:
                self.fail(name, "BASE_TYPE_REQUIRED", "This field is required")
            return _MISSING
        return value

    def string(self, name: str, *, required: bool = True, min_len: int = 0, max_len: int | None = None,
               nullable: bool = False, default: str | None = None) -> str | None:
        value = self._get(name, required, nullable)
        if value is _MISSING or value is None:
            return default
        if not isinstance(value, str):
            self.fail(name, "BASE_TYPE_STRING", "Must be a string.")
            return None
        if max_len is not None and not (min_len <= len(value) <= max_len):
            if min_len:
                self.fail(name, "BASE_TYPE_BAD_LENGTH", f"Must be between {min_len} and {max_len} in length.")
            else:
                self.fail(name, "BASE_TYPE_MAX_LENGTH", f"Must be {max_len} or fewer in length.")
            return None
        if len(value) < min_len:
            self.fail(name, "BASE_TYPE_MIN_LENGTH", f"Must be {min_len} or more in length.")
            return None
        return value

    def integer(self, name: str, *, required: bool = True, minimum: int | None = None,
                maximum: int | None = None, default: int | None = None) -> int | None:
        value = self._get(name, required, False)
        if value is _MISSING:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(name, "NUMBER_TYPE_COERCE", "Value is not an integer.")
            return None
        if not -(1 << 63) <= value < 1 << 63:   # what SQLite (and the platform's int64s) can hold
            self.fail(name, "NUMBER_TYPE_OUT_OF_RANGE", "Must fit in a signed 64-bit integer.")
            return None
        if minimum is not None and value < minimum:
            self.fail(name, "NUMBER_TYPE_MIN", f"Must be greater than or equal to {minimum}.")
            return None
        if maximum is not None and value > maximum:
            self.fail(name, "NUMBER_TYPE_MAX", f"Must be less than or equal to {maximum}.")
            return None
        return value

    def number(self, name: str, *, required: bool = True, minimum: float | None = None,
               maximum: float | None = None, default: float | None = None) -> float | None:
        value = self._get(name, required, False)
        if value is _MISSING:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(name, "NUMBER_TYPE_COERCE", "Value is not a number.")
            return None
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            self.fail(name, "NUMBER_TYPE_OUT_OF_RANGE", f"Must be between {minimum} and {maximum}.")
            return None
        return float(value)

    def boolean(self, name: str, *, required: bool = False, default: bool = False) -> bool:
        value = self._get(name, required, False)
        if value is _MISSING:
            return default
        if not isinstance(value, bool):
            self.fail(name, "BOOLEAN_TYPE_COERCE", "Must be either true or false.")
            return default
        return value

    def snowflake(self, name: str, *, required: bool = True, nullable: bool = False) -> int | None:
        """A snowflake, sent as a string (ints are accepted too, as many clients send them)."""
        value = self._get(name, required, nullable)
        if value is _MISSING or value is None:
            return None
        return self.coerce_snowflake(name, value)

    def coerce_snowflake(self, name: str | int, value: Any) -> int | None:
        number = snowflake_value(value)
        if number is None:
            self.fail(name, "NUMBER_TYPE_COERCE", f"Value {str(value)[:40]!r} is not snowflake.")
        return number

    def choice(self, name: str, choices: tuple[Any, ...], *, required: bool = True,
               default: Any = None) -> Any:
        value = self._get(name, required, False)
        if value is _MISSING:
            return default
        if value not in choices or isinstance(value, bool) != _has_bool(choices):
            self.fail(name, "BASE_TYPE_CHOICES", f"Value must be one of {list(choices)}.")
            return None
        return value

    def array(self, name: str, *, required: bool = True, min_items: int = 0,
              max_items: int | None = None) -> list[Any] | None:
        value = self._get(name, required, False)
        if value is _MISSING:
            return None
        if not isinstance(value, list):
            self.fail(name, "LIST_TYPE_CONVERT", "Must be an array.")
            return None
        if len(value) < min_items or (max_items is not None and len(value) > max_items):
            limit = f"between {min_items} and {max_items}" if max_items is not None else f"at least {min_items}"
            self.fail(name, "BASE_TYPE_BAD_LENGTH", f"Must be {limit} in length.")
            return None
        return value

    def obj(self, name: str, *, required: bool = True, nullable: bool = False) -> Form | None:
        value = self._get(name, required, nullable)
        if value is _MISSING or value is None:
            return None
        return Form(value, self.errors, (*self.path, name))

    def item(self, name: str, index: int, value: Any) -> Form:
        """A nested form for element ``index`` of array ``name``."""
        return Form(value, self.errors, (*self.path, name, index))

    def string_map(self, name: str, *, required: bool = False, max_keys: int, max_key_len: int = 1024,
                   max_value_len: int = 1024, nullable: bool = True) -> dict[str, str] | None:
        value = self._get(name, required, nullable)
        if value is _MISSING or value is None:
            return None
        if not isinstance(value, dict):
            self.fail(name, "DICT_TYPE_CONVERT", "Must be an object of strings.")
            return None
        if len(value) > max_keys:
            self.fail(name, "BASE_TYPE_MAX_LENGTH", f"Must have {max_keys} or fewer keys.")
            return None
        result: dict[str, str] = {}
        for key, item in value.items():
            if not isinstance(item, str):
                self.errors.add((*self.path, name, key), "BASE_TYPE_STRING", "Must be a string.")
            elif len(key) > max_key_len or len(item) > max_value_len:
                self.errors.add((*self.path, name, key), "BASE_TYPE_MAX_LENGTH",
                                f"Keys must be {max_key_len} or fewer and values {max_value_len} or fewer"
                                " in length.")
            else:
                result[key] = item
        return result


async def read_json(request: Request, *, max_bytes: int = 1 << 20, allow_empty: bool = False) -> Any:
    """The request's JSON body, read with a bound: 40005 past ``max_bytes`` (nothing more is held),
    50109 when it is not JSON the emulator can hold."""
    body = await read_capped(request, max_bytes)
    if not body.strip():
        if allow_empty:
            return {}
        raise ApiError(400, INVALID_JSON, "The request body contains invalid JSON.")
    return json_body(body)


async def read_form(request: Request) -> Form:
    """The JSON body as a ``Form``: 50109 if malformed, 50035 at the top if it is not an object."""
    data = await read_json(request)
    form = Form(data)
    form.done()
    return form
