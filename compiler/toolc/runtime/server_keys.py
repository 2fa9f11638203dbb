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
    """The argument holding a multi-item call's items: its one array argument (None with
    none or several: such a call carries the request key alone)."""
    props = input_schema.get("properties") or {}
    arrays = [
        name
        for name, prop in props.items()
        if isinstance(prop, Mapping) and prop.get("type") == "array"
    ]
    return arrays[0] if len(arrays) == 1 else None


def canonical(value: Any) -> str:
    return json.dumps(
        value,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )


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
