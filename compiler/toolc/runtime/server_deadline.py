"""The per-tool handler timeout (`handler_timeout_seconds` in tool_policies, decision
0090): a handler still running past it is cancelled and the call answered TOOL_TIMEOUT,
so one stuck backend cannot hold a call (and its client) forever."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import anyio

from .server_sealing import framework_error
from .server_types import SpecLike

logger = logging.getLogger(__name__)

T = TypeVar("T")


class HandlerTimeout(Exception):
    """The handler ran past its timeout and was cancelled; `error`: the reply."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error["message"])
        self.error = error


def handler_timeout(spec: SpecLike) -> float | None:
    """The tool's timeout in seconds; None: none (older specs lack the setting)."""
    seconds = getattr(spec, "handler_timeout_seconds", None)
    return float(seconds) if isinstance(seconds, int | float) else None


def cancel_requested() -> bool:
    """Whether the running task was asked to stop (the client cancelled the call, its
    session ended): only then may a CancelledError end a call unanswered. One a
    handler raised itself (`raise CancelledError()`, a cancelled future it awaited)
    ended only the handler: its call is answered TOOL_ERROR, and the server goes on."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # not asyncio (trio): its Cancelled cannot be raised by hand
        return True
    return task is None or task.cancelling() > 0


async def within(spec: SpecLike, call: Awaitable[T]) -> T:
    """`await call`, cancelled after the tool's timeout (raising `HandlerTimeout`)."""
    seconds = handler_timeout(spec)
    if seconds is None:
        return await call
    with anyio.move_on_after(seconds):
        return await call
    logger.warning("%s: handler cancelled after %s s", spec.name, seconds)
    raise HandlerTimeout(
        framework_error(
            "TOOL_TIMEOUT", f"{spec.name} did not finish within {seconds:g} s."
        )
    )
