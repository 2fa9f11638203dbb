"""What the envelope may add around a handler's data, at worst (the reserve a response
ceiling discounts: `budget = ceiling − reserve`), and the size of the RESPONSE_TOO_LARGE
answer that replaces an oversize one. Measured on envelopes built as the server builds
them (runtime/server_sealing, server_items, server_ceilings), with every number at the most
digits a ceiling allows and every composed text at its longest: an item takes at least
two bytes, so no count exceeds the ceiling. tests/test_response_ceilings.py checks the
reserve against real answers."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toolc.contract.framework import FRAMEWORK_ERRORS

# The handler's smallest multi-item data: what the normalized fields are added to.
_BARE: dict[str, Any] = {"results": []}
# No answer is larger than this many bytes in practice: the digits of `responseBytes`.
_SIZE_DIGITS = 20
_ERROR_ID = "0" * 32  # a uuid4 hex, as the server writes it
# The composition a multi-item answer keeps when its item lists do not fit the ceiling
# (runtime/server_composition.compact_composition; tests/test_response_ceilings.py
# holds the two equal).
COMPACT_COMPOSITION: dict[str, Any] = {
    "version": "toolc.composition/1",
    "status": "PARTIAL_SUCCESS",
    "instruction": (
        "Report each item's outcome to the user, one by one, from `results`: the answer's "
        "size left no room to list them here. Never summarize a partial result as a success "
        "or a failure."
    ),
    "listed": False,
}


def _text(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def _error(code: str, message: str, retryable: bool | None, hint: str | None) -> dict[str, Any]:
    info: dict[str, Any] = {"code": code, "message": message}
    if retryable is not None:
        info["retryable"] = retryable
    if hint is not None:
        info["hint"] = hint
    return info


def _framework(code: str, message: str) -> dict[str, Any]:
    retryable, hint = FRAMEWORK_ERRORS[code]
    return _error(code, message, retryable, hint)


def reserve_bytes(
    tool: str,
    version: str,
    multi_item: bool,
    errors: Mapping[str, tuple[bool, str | None]],
    ceiling: int,
) -> int:
    """The most bytes the sealed text of `tool` adds to its handler's data text. The
    handler's own failure message and details are its bytes, not the envelope's."""
    meta = {"tool": tool, "version": version}
    if not multi_item:
        return _text({"ok": True, "data": None, "meta": meta}) - _text(None)
    count = int("9" * len(str(ceiling)))
    normalized = {
        **_BARE,
        "multi_item_status": "PARTIAL_SUCCESS",
        "partial_success": False,
        "metadata": {
            "multi_item": {
                "status": "PARTIAL_SUCCESS",
                "items_count": count,
                "items_succeeded_count": count,
                "items_failed_count": count,
                "primary_tool": tool,
            },
            "composition": COMPACT_COMPOSITION,
        },
    }
    failures = [_error(c, "", r, h) for c, (r, h) in errors.items()]
    # An undeclared code (or a workflow's free text) is sealed as a logged TOOL_ERROR.
    unexpected = f"The tool failed unexpectedly; report errorId {_ERROR_ID}."
    failures.append({**_framework("TOOL_ERROR", unexpected), "errorId": _ERROR_ID})
    all_failed = _framework("ALL_ITEMS_FAILED", f"All {count} item(s) of {tool} failed.")
    envelopes = [{"ok": True, "data": normalized, "meta": meta}]
    for failure in failures:
        secondary = {**normalized, "original_ok": False, "secondary_error": failure}
        envelopes.append({"ok": True, "data": secondary, "meta": meta})
        envelopes.append({"ok": False, "error": failure, "meta": meta, "data": normalized})
    envelopes.append({"ok": False, "error": all_failed, "meta": meta, "data": normalized})
    return max(_text(e) for e in envelopes) - _text(_BARE)


def refusal_bytes(tool: str, version: str, ceiling: int) -> int:
    """The size of the RESPONSE_TOO_LARGE answer, at most (sent even over the ceiling)."""
    size = int("9" * _SIZE_DIGITS)
    message = f"The answer of {tool} would take {size} bytes, over its ceiling of {ceiling}."
    error = _framework("RESPONSE_TOO_LARGE", message)
    error["details"] = {
        "responseBytes": size,
        "ceilingBytes": ceiling,
        "budgetBytes": ceiling,
        "reserveBytes": ceiling,
    }
    return _text({"ok": False, "error": error, "meta": {"tool": tool, "version": version}})
