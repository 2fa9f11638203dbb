"""The envelope's fixed terms, defined once (decision 0044): its version, the framework's own
error codes with what each says about itself, and the multi-item normalization's statuses and
fields. Checks (reserved names), emit (schemas, descriptors, the generated `envelope.py`),
evolution (what a tool's own `data` is) and the diagnostic table all read them from here.

The shipped runtime cannot import toolc, so `runtime/server_framework.py` carries a literal
copy; one test (tests/test_contract_terms.py) keeps the two identical."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# A change to anything below changes every tool's contract: the envelope's version says so
# (docs/envelope.md, `envelope-changed` in docs/evolution.md).
ENVELOPE_VERSION = "2.0.0"

# The framework's own error codes, part of every tool's contract, each with what it says about
# itself: (retryable, hint), None leaving the member out of the answer. Their order is the
# order the generated `FrameworkErrorCode` lists them in. docs/envelope.md explains each one.
FRAMEWORK_ERRORS: dict[str, tuple[bool | None, str | None]] = {
    "VALIDATION_ERROR": (False, "Fix the arguments listed in details and call again."),
    "TOOL_ERROR": (None, None),
    "CONFIRMATION_DECLINED": (False, None),
    "CONFIRMATION_UNAVAILABLE": (
        False,
        "This tool needs the user's confirmation: use an MCP client that supports "
        "form elicitation.",
    ),
    "PRE_VALIDATION_REJECTED": (False, None),
    "PRE_VALIDATION_FAILED": (None, None),
    # Envelope 2.0.0:
    "INVALID_RESULT": (
        False,
        "The tool's answer broke its own contract (its published schema, or one result per "
        "item); calling again will not help. "
        "Report the errorId to the server's maintainers.",
    ),
    "ALL_ITEMS_FAILED": (None, "Every item failed: data.results gives each item's reason."),
    "RESPONSE_TOO_LARGE": (
        False,
        "Ask for less: fewer items, a narrower filter or a smaller page.",
    ),
    "TOOL_TIMEOUT": (
        True,
        "The tool did not finish in time. It may have acted before it was stopped: check "
        "before repeating a call that changes state.",
    ),
}
FRAMEWORK_ERROR_CODES = tuple(FRAMEWORK_ERRORS)

MULTI_ITEM_STATUSES = ("SUCCESS", "PARTIAL_SUCCESS", "FAILED")

# What the guide's normalization (§5) puts in a multi-item tool's data, beside what it returns.
MULTI_ITEM_FIELDS = (
    "results",
    "multi_item_status",
    "partial_success",
    "metadata",
    "original_ok",
    "secondary_error",
)


# Where an envelope outputSchema holds the tool's success `data` (decision 0106): under `$defs` in
# the standard form; in the portable form (`publish: portable`) every `$ref` is inlined, so it is
# the success branch's `data` itself. Every reader of the data schema asks this one function.
DATA_DEF = "envelope.Data"


def success_data(output_schema: Mapping[str, Any]) -> Any:
    """The schema of the success `data` in an envelope outputSchema, in either published form;
    None for an outputSchema that is no envelope (a proxied tool's)."""
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
