"""What the framework itself says in every envelope: its own error codes, each with its
`retryable` and `hint` (None leaves the member out of the answer), and the multi-item
statuses, and where an outputSchema holds the success data. The server seals with this
table and the client reads answers with it, so the generated package holds it once. A
copy of toolc's definition (toolc/contract/framework.py), which this runtime cannot
import; tests/test_contract_terms.py keeps the two identical."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FRAMEWORK_ERRORS: Mapping[str, tuple[bool | None, str | None]] = {
    "VALIDATION_ERROR": (False, "Fix the arguments listed in details and call again."),
    "TOOL_ERROR": (None, None),
    "CONFIRMATION_DECLINED": (False, None),
    "CONFIRMATION_UNAVAILABLE": (
        False,
        (
            "This tool needs the user's confirmation: use an MCP client that supports "
            "form elicitation."
        ),
    ),
    "PRE_VALIDATION_REJECTED": (False, None),
    "PRE_VALIDATION_FAILED": (None, None),
    "INVALID_RESULT": (
        False,
        (
            "The tool's answer broke its own contract (its published schema, or one "
            "result per item); calling again will not help. Report the errorId to the "
            "server's maintainers."
        ),
    ),
    "ALL_ITEMS_FAILED": (
        None,
        "Every item failed: data.results gives each item's reason.",
    ),
    "RESPONSE_TOO_LARGE": (
        False,
        "Ask for less: fewer items, a narrower filter or a smaller page.",
    ),
    "TOOL_TIMEOUT": (
        True,
        (
            "The tool did not finish in time. It may have acted before it was stopped: "
            "check before repeating a call that changes state."
        ),
    ),
}
FRAMEWORK_ERROR_CODES = tuple(FRAMEWORK_ERRORS)

MULTI_ITEM_STATUSES = ("SUCCESS", "PARTIAL_SUCCESS", "FAILED")


def reason(error: Mapping[str, Any]) -> str:
    """Why a value failed, as a `details` entry says it: never the value itself. The
    models' own text for a keyword of the published schema quotes the failing value
    (for whoever validates locally), and pydantic's text for a tagged union quotes the
    tag sent: both are worded again from their context, which names the place."""
    ctx = error.get("ctx") or {}
    kind = error.get("type")
    if kind == "json_schema" and "keyword" in ctx:
        keyword, at, what = ctx["keyword"], str(ctx.get("instance", "")), "the value"
        if keyword == "propertyNames":  # the pointer's last step is the name refused
            at, what = at.rpartition("/")[0], "a property name"
        where = f" at {at}" if at else ""
        return (
            f"{what}{where} fails `{keyword}` of the published schema "
            f"({ctx.get('schema', '')})"
        )
    if kind == "union_tag_invalid" and "discriminator" in ctx:
        return (
            f"the tag found using {ctx['discriminator']} matches none of the "
            f"expected tags: {ctx.get('expected_tags', '')}"
        )
    return str(error.get("msg", ""))


DATA_DEF = "envelope.Data"


def success_data(output_schema: Mapping[str, Any]) -> Any:
    """The schema of the success `data` in an envelope outputSchema: under `$defs` (the
    standard form) or inlined in the success branch (`publish: portable`); None for an
    outputSchema that is no envelope (a proxied tool's)."""
    defs = output_schema.get("$defs")
    if isinstance(defs, Mapping) and DATA_DEF in defs:
        return defs[DATA_DEF]
    branches = output_schema.get("oneOf")
    if isinstance(branches, list) and branches and isinstance(branches[0], Mapping):
        fields = branches[0].get("properties")
        fields = fields if isinstance(fields, Mapping) else {}
        ok = fields.get("ok")
        # `is True`: in Python `{"const": 1} == {"const": True}`
        if isinstance(ok, Mapping) and len(ok) == 1 and ok.get("const") is True:
            data = fields.get("data")
            if data is not None and not (isinstance(data, Mapping) and "$ref" in data):
                return data
    return None
