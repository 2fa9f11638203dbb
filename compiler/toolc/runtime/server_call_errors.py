"""The envelopes' errors a call's own steps answer with: arguments that fail the
tool's schema, a request key that is not one, a pre-validator's resolution the tool
cannot take, a client that cannot be asked. Each names the failing fields and why,
never the values."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from .server_client import ClientRequestUnavailable
from .server_fields import named_fields, problems
from .server_keys import KEY_RULE, REQUEST_KEY
from .server_sealing import error_info, framework_error

logger = logging.getLogger(__name__)


def invalid_arguments(
    tool: str, exc: ValidationError, model: type[BaseModel] | None = None
) -> dict[str, Any]:
    """VALIDATION_ERROR naming each failing field and why (never the value sent)."""
    details = problems(exc, "", model.__pydantic_core_schema__ if model else None)
    return framework_error(
        "VALIDATION_ERROR",
        f"Invalid arguments for {tool}: {named_fields(details)}.",
        details,
    )


def bad_key(tool: str) -> dict[str, Any]:
    """VALIDATION_ERROR: a request key that is not one (decision 0087)."""
    field = f"_meta.{REQUEST_KEY}"
    detail = {"field": field, "reason": KEY_RULE, "type": "idempotency_key"}
    text = f"Invalid idempotency key for {tool}: {KEY_RULE}."
    return framework_error("VALIDATION_ERROR", text, [detail])


def not_arguments(tool: str, keys: Sequence[str]) -> dict[str, Any]:
    """PRE_VALIDATION_FAILED: resolved arguments this tool does not have."""
    logger.warning("%s: pre-validator resolved unknown arguments %s", tool, keys)
    text = f"The pre-validator of {tool} resolved arguments this tool does not have."
    details = [
        {
            "field": key,
            "reason": "not an argument of this tool",
            "type": "extra_forbidden",
        }
        for key in keys
    ]
    return framework_error("PRE_VALIDATION_FAILED", text, details)


def cannot_ask(unasked: ClientRequestUnavailable) -> dict[str, Any]:
    """TOOL_ERROR, not retryable: the handler needed the client (sampling,
    elicitation) where it cannot be asked (decision 0094)."""
    return error_info(
        "TOOL_ERROR", f"The tool could not ask the client: {unasked}.", retryable=False
    )


def unresolved(
    tool: str, exc: ValidationError, model: type[BaseModel] | None = None
) -> dict[str, Any]:
    """PRE_VALIDATION_FAILED: resolved arguments the handler does not take, by field."""
    logger.warning("%s: pre-validator resolved invalid arguments", tool)
    text = f"The pre-validator of {tool} resolved arguments this tool does not accept."
    details = invalid_arguments(tool, exc, model)["details"]
    return framework_error("PRE_VALIDATION_FAILED", text, details)
