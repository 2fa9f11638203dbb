"""The idempotency keys of a call (decision 0087), shared by the typed client that sends
them and the server that hands them to the handler: their `_meta` names and how a
per-item key derives from the request key and the item, so both sides agree and a retry
carries the same per-item keys. The framework guarantees stable keys; not executing an
item twice is the handler's job (the guide gives idempotency to the domain, §9)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

# Reverse-DNS `_meta` keys of a `tools/call` request (the prefix of toolc's own keys).
REQUEST_KEY = "dev.toolc/idempotency-key"
ITEM_KEYS = "dev.toolc/item-keys"
RETRY_OF = "dev.toolc/retry-of"  # the request key of the call a retry completes

_MAX_KEY = 200


def items_argument(input_schema: Mapping[str, Any]) -> str | None:
    """The argument holding a multi-item call's items: its one array argument, typed
    `array` directly, through a `$ref` to a shared type, or nullable; among several, the
    one typed `array` directly when it is the only one (None otherwise: such a call
    carries the request key alone)."""
    arrays = array_arguments(input_schema)
    if len(arrays) > 1:  # among several, the one typed `array` itself, if one alone is
        props = input_schema["properties"]
        arrays = [n for n in arrays if props[n].get("type") == "array"]
    return arrays[0] if len(arrays) == 1 else None


def array_arguments(input_schema: Mapping[str, Any]) -> list[str]:
    """The arguments that take arrays and nothing but arrays or null, in order: the
    candidates `items_argument` chooses among."""
    props = input_schema.get("properties") or {}
    defs = input_schema.get("$defs") or {}
    return [name for name, prop in props.items() if _array(prop, defs, 0)]


_DEFS = "#/$defs/"


def _array(schema: Any, defs: Mapping[str, Any], depth: int) -> bool:
    """Whether `schema` takes arrays and nothing but arrays or null (a shared type's
    chain of `$ref`s followed a few steps; a cycle is not an array)."""
    if not isinstance(schema, Mapping) or depth > 8:
        return False
    kind = schema.get("type")
    if kind is not None:
        kinds = kind if isinstance(kind, list) else [kind]
        return "array" in kinds and set(kinds) <= {"array", "null"}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(_DEFS) and isinstance(defs, Mapping):
        name = ref[len(_DEFS) :].replace("~1", "/").replace("~0", "~")
        return _array(defs.get(name), defs, depth + 1)
    branches = schema.get("anyOf", schema.get("oneOf"))
    if isinstance(branches, list) and branches:
        arrays = [b for b in branches if _array(b, defs, depth + 1)]
        nulls = [b for b in branches if _null(b)]
        return bool(arrays) and len(arrays) + len(nulls) == len(branches)
    return False


def _null(schema: Any) -> bool:
    return isinstance(schema, Mapping) and schema.get("type") == "null"


def canonical(value: Any) -> str:
    # NaN and Infinity are no JSON, but the SDK reads them from a request, and an
    # argument that takes any value keeps them: written as Python writes them, so that
    # an item holding one still gets a key rather than failing the call.
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def derive_item_keys(request_key: str, items: Sequence[Any]) -> list[str]:
    """One key per item: sha256 over the request key, the item's canonical JSON and its
    position among equal items (two equal items get two keys; reordering distinct items
    keeps each one's key)."""
    seen: dict[str, int] = {}
    keys = []
    for item in items:
        text = canonical(item)
        nth = seen.get(text, 0)
        seen[text] = nth + 1
        digest = hashlib.sha256(f"{request_key}\n{nth}\n{text}".encode()).hexdigest()
        keys.append(digest)
    return keys


def _key(value: Any) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= _MAX_KEY else None


KEY_RULE = f"an idempotency key is a string of 1 to {_MAX_KEY} characters"


def is_key(value: Any) -> bool:
    """Whether `value` is an idempotency key the server takes (KEY_RULE)."""
    return _key(value) is not None


def bad_request_key(meta: Mapping[str, Any]) -> bool:
    """Whether the call sends a request key that is not one: the server refuses such a
    call rather than run it without the deduplication its caller asked for."""
    return REQUEST_KEY in meta and not is_key(meta[REQUEST_KEY])


def original_key(meta: Mapping[str, Any], request: str) -> str:
    """The request key of the call a retry completes (`retry-of`), else this call's: the
    key items resolved by a pre-validator are derived from, the same on every retry."""
    retried = _key(meta.get(RETRY_OF))
    return request if retried is None else retried


def received_keys(
    meta: Mapping[str, Any], arguments: Mapping[str, Any], items_arg: str | None
) -> tuple[str | None, tuple[str, ...]]:
    """The request key and per-item keys a call carries: the item keys as sent when they
    are one string per item (a retry sends the original ones), else derived from the
    request key; none without a request key."""
    request = _key(meta.get(REQUEST_KEY))
    items = arguments.get(items_arg) if items_arg is not None else None
    if request is None or not isinstance(items, list):
        return request, ()
    sent = meta.get(ITEM_KEYS)
    if isinstance(sent, list) and len(sent) == len(items):
        keys = [_key(k) for k in sent]
        if all(k is not None for k in keys):
            return request, tuple(k for k in keys if k is not None)
    return request, tuple(derive_item_keys(request, items))
