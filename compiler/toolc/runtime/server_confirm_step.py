"""The confirmation step of a call (server_calls): the question put to the user, in
the era's way (server_confirmation), and what the answer makes of the call: go on,
a question still open (2026-07-28's input-required result), or a sealed refusal."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from .server_confirmation import RequestStates, ask, binding, message, visible
from .server_metrics import waiting_for_user
from .server_sealing import Sealed, framework_error, seal_error
from .server_types import ToolSpecLike

logger = logging.getLogger(__name__)


async def confirm(
    spec: ToolSpecLike,
    labels: Mapping[str, str],
    ctx: ServerRequestContext[Any, Any],
    params: types.CallToolRequestParams,
    states: RequestStates,
    wire: dict[str, Any],
    decision: Mapping[str, Any] | None,
) -> Sealed | types.InputRequiredResult | None:
    """None when the user confirmed `wire` (the arguments the handler will get)."""
    decided = (decision or {}).get("transaction_decision") or {}
    worded = decided.get("confirmation_message")
    # The validator's wording is the server's own, but it may repeat what the user
    # said: its control and bidi characters are escaped too, its length bounded.
    text = visible(worded) if worded else message(spec.title, labels, wire)
    try:
        with waiting_for_user():
            answer = await ask(
                ctx,
                params,
                states,
                binding(spec.name, params.arguments or {}),
                binding(spec.name, wire),
                text,
            )
    except MCPError:
        raise  # a refused request_state: a protocol error, not an answer
    except Exception:
        logger.warning("%s: elicitation failed", spec.name, exc_info=True)
        answer = "unavailable"
    if isinstance(answer, types.InputRequiredResult):
        return answer
    if answer == "declined":
        return seal_error(
            spec,
            framework_error(
                "CONFIRMATION_DECLINED", f"The user did not confirm {spec.name}."
            ),
        )
    if answer == "unavailable":
        return seal_error(
            spec,
            framework_error(
                "CONFIRMATION_UNAVAILABLE",
                f"{spec.name} needs the user's confirmation, and this client "
                "cannot ask for it.",
            ),
        )
    return None
