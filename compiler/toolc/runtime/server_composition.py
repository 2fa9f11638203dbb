"""The composition instruction of a multi-item result (the guide's §7; decision 0088):
what tells the model to report each item's outcome, at `data.metadata.composition`.
Inside the envelope, so the text block stays the same JSON as structuredContent, and
under `metadata`, which every multi-item outputSchema leaves open, so no published
schema moves. Versioned by its own `version` (`toolc.composition/1`), documented in
docs/serving.md; the client recomputes it when it merges a retry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .server_items import is_mapping, normalized_outcomes

COMPOSITION_VERSION = "toolc.composition/1"

_NAME_KEYS = ("name", "subject", "title", "label", "id")
_REASON_KEYS = ("reason", "error", "message")
_CHARS = 80

INSTRUCTION = (
    "Report each item's outcome to the user, one by one: name every item in "
    "`succeeded` (with its operation_id when given) and every item in `failed` "
    "(with its reason). Never summarize a partial result as a success or a failure."
)


# Under a response ceiling an answer whose item lists do not fit keeps this instead
# (the reserve counts it: contract/reserve.py holds the same text, a test compares).
COMPACT_INSTRUCTION = (
    "Report each item's outcome to the user, one by one, from `results`: the "
    "answer's size left no room to list them here. Never summarize a partial result "
    "as a success or a failure."
)


def compact_composition(status: str) -> dict[str, Any]:
    """The composition without its item lists (`listed: false`)."""
    return {
        "version": COMPOSITION_VERSION,
        "status": status,
        "instruction": COMPACT_INSTRUCTION,
        "listed": False,
    }


def _short(value: Any) -> str | None:
    kind = type(value)
    text: str
    if kind is str:  # the usual name: no isinstance tests
        text = value
    elif value is None or kind is bool or not isinstance(value, str | int):
        return None
    else:
        text = str(value)
    return text if len(text) <= _CHARS else text[: _CHARS - 1] + "…"


def item_name(position: int, item: Any, operation_id: str | None) -> str:
    """What names an item: a name-like field, else a field ending in `_id` (not the
    operation id), else its position (`#1`)."""
    if is_mapping(item):
        for key in _NAME_KEYS:
            if (
                key in item
                and key != operation_id
                and (name := _short(item[key])) is not None
            ):
                return name
        for key, value in item.items():
            if (
                str(key).endswith("_id")
                and key != operation_id
                and (name := _short(value)) is not None
            ):
                return name
    return f"#{position + 1}"


def _entry(
    position: int, item: Any, operation_id: str | None, ok: bool
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "item": item_name(position, item, operation_id),
        "position": position,
    }
    if not is_mapping(item):
        return entry
    if operation_id is not None and (op := _short(item.get(operation_id))) is not None:
        entry["operation_id"] = op
    if not ok:
        for key in _REASON_KEYS:
            if (reason := _short(item.get(key))) is not None:
                entry["reason"] = reason
                break
    return entry


def composition(
    data: Mapping[str, Any], operation_id: str | None, outcomes: Sequence[bool]
) -> dict[str, Any]:
    """The instruction over normalized multi-item `data` (its `results` and status);
    `outcomes`: each item's success, as the normalization read it."""
    results = data["results"]
    succeeded: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    for position, (item, ok) in enumerate(zip(results, outcomes, strict=True)):
        (succeeded if ok else failed).append(_entry(position, item, operation_id, ok))
    return {
        "version": COMPOSITION_VERSION,
        "status": data["multi_item_status"],
        "instruction": INSTRUCTION,
        "succeeded": succeeded,
        "failed": failed,
    }


def normalized(tool: str, data: Any, operation_id: str | None = None) -> dict[str, Any]:
    """What a multi-item tool's wire data becomes before sealing: the guide's §5 fields
    (`normalize_multi_item`) and `metadata.composition`, replacing any the handler set,
    with one reading of each item's outcome and no copy of the data past the first."""
    normal, outcomes = normalized_outcomes(tool, data)
    normal["metadata"]["composition"] = composition(normal, operation_id, outcomes)
    return normal
