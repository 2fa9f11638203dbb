"""Idempotency keys and retries on the typed client (decision 0087): every call of a
transactional tool, and every multi-item call, carries a request key in `_meta`, and
per-item keys for the items of its one array argument (server_keys). A result with
failed items gets a retry handle: `await result.retry_failed()` sends only those items,
with their original per-item keys (and the original request key as `retry-of`), asks
for confirmation again when the tool does (naming only the items retried), and merges
the outcome with the items already done.

Results are matched to items by position: a multi-item tool answers one result per
item, in the order sent. A result whose `results` do not line up gets no handle, and
one whose server says its handler received other items (a pre-validator resolved them:
the result's `_meta` item keys are not those sent) gets a handle that says so."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import replace as with_fields
from functools import partial
from typing import Any, Protocol

from mcp import types

from .client_envelope import (
    ClientSpecLike,
    Envelope,
    ToolCallError,
    parse_envelope,
    parse_result,
)
from .server_composition import normalized
from .server_keys import (
    ITEM_KEYS,
    KEY_RULE,
    REQUEST_KEY,
    RETRY_OF,
    derive_item_keys,
    is_key,
    items_argument,
)
from .server_sealing import framework_error


@dataclass(frozen=True, slots=True)
class CallKeys:
    """The keys one call sends: its request key and, per item, the item's key."""

    request: str
    items_arg: str | None = None
    items: tuple[Any, ...] = ()
    item_keys: tuple[str, ...] = ()
    retry_of: str | None = None

    def meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = {REQUEST_KEY: self.request}
        if self.items_arg is not None:
            meta[ITEM_KEYS] = list(self.item_keys)
        if self.retry_of is not None:
            meta[RETRY_OF] = self.retry_of
        return meta


def call_keys(
    spec: ClientSpecLike, wire: Mapping[str, Any], given: str | None
) -> CallKeys | None:
    """The keys of a call of `spec` with `wire` arguments (`given`: the caller's own
    request key); None for a read-only single-item call given no key."""
    if given is not None and not is_key(given):
        # The server refuses it: said here, before anything is sent
        raise ValueError(f"{KEY_RULE}, not {given!r:.60}")
    transactional = getattr(spec, "operation_type", None) == "transactional"
    if given is None and not transactional and not spec.multi_item:
        return None
    request = given if given is not None else uuid.uuid4().hex
    items_arg = _items_arg(spec) if spec.multi_item else None
    items = wire.get(items_arg) if items_arg is not None else None
    if not isinstance(items, list):
        return CallKeys(request)
    keys = derive_item_keys(request, items)
    return CallKeys(request, items_arg, tuple(items), tuple(keys))


def _items_arg(spec: ClientSpecLike) -> str | None:
    """The items argument of the published inputSchema; None for a spec made by hand
    without one (its calls carry the request key alone)."""
    try:
        return items_argument(spec.input_schema)
    except (OSError, ValueError):
        return None


class Invoker(Protocol):
    """The client that sends a call (`ToolClient`)."""

    async def _invoke(
        self,
        spec: ClientSpecLike,
        wire: dict[str, Any],
        meta: dict[str, Any] | None,
        timeout: float | None,
    ) -> types.CallToolResult: ...


def _rows(envelope: Envelope[Any]) -> list[Any] | None:
    data = envelope.envelope.get("data")
    rows = data.get("results") if isinstance(data, Mapping) else None
    return list(rows) if isinstance(rows, list) else None


def _failed(rows: Sequence[Any]) -> list[int]:
    return [
        i
        for i, row in enumerate(rows)
        if isinstance(row, Mapping) and row.get("success", row.get("ok")) is False
    ]


def handled_keys(result: types.CallToolResult) -> tuple[str, ...] | None:
    """The keys of the items the server's handler received, in its order, as the result
    says them (None: it does not, as a server generated before them)."""
    found = (result.meta or {}).get(ITEM_KEYS)
    if isinstance(found, list) and all(isinstance(k, str) for k in found):
        return tuple(found)
    return None


async def _unaligned(tool: str) -> Envelope[Any]:
    raise ToolCallError(
        tool,
        "the server's pre-validator resolved the items sent into others (or put them "
        "in another order), so its results do not line up with what was sent and "
        "cannot be retried by position: call the tool again with the failed items, as "
        "`multi_item.failed` names them",
    )


def retryable(
    client: Invoker,
    spec: ClientSpecLike,
    wire: dict[str, Any],
    keys: CallKeys | None,
    envelope: Envelope[Any],
    timeout: float | None,
    handled: tuple[str, ...] | None = None,
) -> Envelope[Any]:
    """`envelope` with its retry handle, when it has failed items that line up with
    the items sent. `handled`: the server's keys of the items its handler received;
    other than those sent (a pre-validator resolved them), the handle says why it
    cannot retry rather than send the wrong items again."""
    rows = _rows(envelope)
    if keys is None or keys.items_arg is None or rows is None:
        return envelope
    failed = _failed(rows)
    if not failed:
        return envelope
    if handled is not None and handled != keys.item_keys:
        return with_fields(envelope, retry=partial(_unaligned, spec.name))
    if len(rows) != len(keys.items):
        return envelope
    retry = partial(_retry, client, spec, wire, keys, envelope, failed, timeout)
    # `with_fields` is `dataclasses.replace` (`x.replace(a, b)` reads as a disk write).
    return with_fields(envelope, retry=retry)


async def _retry(
    client: Invoker,
    spec: ClientSpecLike,
    wire: dict[str, Any],
    keys: CallKeys,
    original: Envelope[Any],
    failed: list[int],
    timeout: float | None,
) -> Envelope[Any]:
    assert keys.items_arg is not None
    items = [keys.items[i] for i in failed]
    again = CallKeys(
        uuid.uuid4().hex,
        keys.items_arg,
        tuple(items),
        tuple(keys.item_keys[i] for i in failed),
        retry_of=keys.request,
    )
    sent = {**wire, keys.items_arg: items}
    result = await client._invoke(spec, sent, again.meta(), timeout)
    answer = parse_result(spec, result)
    rows, done = _rows(answer), _rows(original)
    handled = handled_keys(result)
    resolved = handled is not None and handled != again.item_keys
    if rows is None or done is None or len(rows) != len(failed) or resolved:
        # Nothing to merge (declined, refused): the same items may be retried again.
        again_later = retryable(client, spec, wire, keys, original, timeout).retry
        return with_fields(answer, retry=again_later)
    for position, row in zip(failed, rows, strict=True):
        done[position] = row
    return retryable(
        client, spec, wire, keys, _merged(spec, original, answer, done), timeout
    )


def _merged(
    spec: ClientSpecLike,
    original: Envelope[Any],
    answer: Envelope[Any],
    rows: list[Any],
) -> Envelope[Any]:
    """The original result with the retried items' outcomes in their places, its
    status, counts and composition recomputed as the server computes them. A later
    step's failure (`secondary_error`) is kept as evidence, as the server keeps it:
    the retry's, else the original's (the guide's §5)."""
    secondary = _secondary(answer)
    if secondary is None:
        secondary = _secondary(original)
    data = dict(original.envelope["data"])
    data["results"] = rows
    data = normalized(spec.name, data, getattr(spec, "operation_id", None))
    counts = data["metadata"]["multi_item"]
    if secondary is not None and counts["items_succeeded_count"]:
        data.update(original_ok=False, secondary_error=secondary)
    envelope: dict[str, Any] = {
        "ok": True,
        "data": data,
        "meta": answer.envelope["meta"],
    }
    if secondary is not None and not counts["items_succeeded_count"]:
        # Nothing done and a later step failed: the server answers that failure, its
        # evidence kept (server_sealing), not ALL_ITEMS_FAILED, which would lose it.
        envelope = {**envelope, "ok": False, "error": secondary}
    elif counts["items_count"] and not counts["items_succeeded_count"]:
        text = f"All {counts['items_count']} item(s) of {spec.name} failed."
        envelope = {
            **envelope,
            "ok": False,
            "error": framework_error("ALL_ITEMS_FAILED", text),
        }
    return parse_envelope(spec, envelope, answer.content)


def _secondary(envelope: Envelope[Any]) -> Any:
    """The failure of a later step a multi-item answer reports: `secondary_error` beside
    completed items, or the error of an answer whose items all failed with it."""
    whole = envelope.envelope
    data = whole.get("data")
    if not isinstance(data, Mapping):
        return None
    if whole.get("ok") is True:
        return data.get("secondary_error") if data.get("original_ok") is False else None
    error = whole.get("error")
    if isinstance(error, Mapping) and error.get("code") != "ALL_ITEMS_FAILED":
        return error
    return None
