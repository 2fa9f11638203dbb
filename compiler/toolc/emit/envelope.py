"""The response envelope every tool answers with (ADR-016), and its JSON Schema per tool.

    {ok: true, data, meta: {tool, version}} | {ok: false, error: {code, message, details?,
    retryable?, hint?, errorId?}, meta: {tool, version}}

The envelope has a version of its own: it is part of every tool's contract, so a change to it
must be visible (and versioned) like a change to any tool. Its fixed terms (the version, the
framework's codes, the multi-item fields) are defined in `toolc.contract.framework`.
"""

from __future__ import annotations

from typing import Any

from toolc.contract.framework import MULTI_ITEM_STATUSES


def meta_schema(tool: str, version: str) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["tool", "version"],
        "additionalProperties": False,
        "properties": {"tool": {"const": tool}, "version": {"const": version}},
    }


def error_info_schema(codes: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["code", "message"],
        "additionalProperties": False,
        "properties": {
            "code": {"enum": codes},
            "message": {"type": "string"},
            "details": {},
            "retryable": {"type": "boolean"},
            "hint": {"type": "string"},
            "errorId": {"type": "string"},
        },
    }


def multi_item_data_schema(
    tool: str, item: dict[str, Any] | bool, extra: dict[str, Any] | None
) -> dict[str, Any]:
    """The data of a multi-item tool: the per-item results and the guide's normalization (§5)."""
    properties: dict[str, Any] = dict((extra or {}).get("properties", {}))
    properties.update(
        {
            "results": {"type": "array", "items": item},
            "multi_item_status": {"enum": list(MULTI_ITEM_STATUSES)},
            "partial_success": {"type": "boolean"},
            "metadata": {
                "type": "object",
                "required": ["multi_item"],
                "properties": {
                    "multi_item": {
                        "type": "object",
                        "required": [
                            "status",
                            "items_count",
                            "items_succeeded_count",
                            "items_failed_count",
                            "primary_tool",
                        ],
                        "additionalProperties": False,
                        "properties": {
                            "status": {"enum": list(MULTI_ITEM_STATUSES)},
                            "items_count": {"type": "integer", "minimum": 0},
                            "items_succeeded_count": {"type": "integer", "minimum": 0},
                            "items_failed_count": {"type": "integer", "minimum": 0},
                            "primary_tool": {"const": tool},
                        },
                    }
                },
            },
            "original_ok": {"const": False},
            "secondary_error": {"$ref": "#/$defs/envelope.ErrorInfo"},
        }
    )
    required = sorted(
        {*(extra or {}).get("required", []), "results", "multi_item_status", "partial_success",
         "metadata"}
    )  # fmt: skip
    schema: dict[str, Any] = {"type": "object", "required": required, "properties": properties}
    for keyword, value in (extra or {}).items():  # what returns says of the data too
        if keyword in ("additionalProperties", "description", "title") or (
            keyword not in _NOT_CARRIED
        ):
            schema[keyword] = value
    return schema


# What a multi-item tool's `returns` says that its data does not carry: the data's own type,
# properties and required list, and the annotations it never carried (their fingerprints
# stay as published).
_NOT_CARRIED = frozenset((
    "type", "properties", "required", "enum", "const", "default", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "format",
    "minItems", "maxItems", "uniqueItems", "$ref", "examples", "deprecated", "x-toolc-label",
    "x-toolc-user-prompt", "items",
))  # fmt: skip


def decision_data_schema(targets: list[str]) -> dict[str, Any]:
    """The data of a pre-validator: the guide's decision (§2)."""
    return {
        "type": "object",
        "required": ["eligible"],
        "properties": {
            "eligible": {"type": "boolean"},
            "reason": {"type": "string"},
            "transaction_decision": {
                "type": "object",
                "required": ["resolved_arguments", "target_tool"],
                "properties": {
                    "resolved_arguments": {"type": "object"},
                    "target_tool": {"enum": targets},
                    "confirmation_message": {"type": "string"},
                },
            },
        },
    }


def output_schema(
    tool: str, version: str, codes: list[str], data: dict[str, Any] | bool, multi_item: bool,
    defs: dict[str, Any],
) -> dict[str, Any]:  # fmt: skip
    """The envelope as the tool's outputSchema: an object root (SDK v2 refuses a bare `oneOf`
    root on protocol 2025-11-25) holding a `oneOf` discriminated by `ok`."""
    failure: dict[str, Any] = {
        "ok": {"const": False},
        "error": {"$ref": "#/$defs/envelope.ErrorInfo"},
        "meta": {"$ref": "#/$defs/envelope.Meta"},
    }
    if multi_item:  # per-item evidence survives a failed call
        failure["data"] = {"$ref": "#/$defs/envelope.Data"}
    all_defs = {
        **defs,
        # Type names cannot contain a dot, so these never collide with a shared type's name.
        "envelope.Data": data,
        "envelope.ErrorInfo": error_info_schema(codes),
        "envelope.Meta": meta_schema(tool, version),
    }
    return {
        "type": "object",
        "oneOf": [
            {
                "type": "object",
                "required": ["ok", "data", "meta"],
                "additionalProperties": False,
                "properties": {
                    "ok": {"const": True},
                    "data": {"$ref": "#/$defs/envelope.Data"},
                    "meta": {"$ref": "#/$defs/envelope.Meta"},
                },
            },
            {
                "type": "object",
                "required": ["ok", "error", "meta"],
                "additionalProperties": False,
                "properties": failure,
            },
        ],
        "$defs": dict(sorted(all_defs.items())),
    }
