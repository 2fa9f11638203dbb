"""What a handler may send the client during a call (`ToolContext.log`, `.progress`,
`.sample`, `.elicit`), for both protocol eras, through the SDK's session.

On 2025-11-25 the server may send requests to the client; on 2026-07-28 it may not
(only through an input-required result, which re-runs the call): there `sample` and
`elicit` raise `ClientRequestUnavailable`, which the call step answers with a
TOOL_ERROR that is not retryable (decision 0094)."""

from __future__ import annotations

import re
import warnings
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPDeprecationWarning

LogLevel = Literal[
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"
]
_LEVELS: tuple[str, ...] = get_args(LogLevel)
# Logging and sampling are deprecated at 2026-07-28 but still served: their warnings,
# raised here, would only reach a handler's logs. A filter, not catch_warnings, which
# is not safe around an await (other tasks run meanwhile).
warnings.filterwarnings(
    "ignore", category=MCPDeprecationWarning, module=re.escape(__name__)
)


class ClientRequestUnavailable(Exception):
    """This client cannot be asked (no capability, or a 2026-07-28 session where a
    server sends no requests). Uncaught, the call answers TOOL_ERROR, not retryable,
    with this message (decision 0094)."""


@dataclass(frozen=True, slots=True)
class Sampled:
    """The client's sampled message: its text (None for a non-text answer)."""

    text: str | None
    model: str
    role: Literal["user", "assistant"] = "assistant"
    stop_reason: str | None = None


@dataclass(frozen=True, slots=True)
class Elicited:
    """The user's answer to a form: `content` only when `action == "accept"`."""

    action: Literal["accept", "decline", "cancel"]
    content: Mapping[str, Any] | None = None


class LogLevels:
    """The level each connection asked for with logging/setLevel (2025-11-25 era).

    A connection is known by its `initialize` parameters (one object per connection;
    the session object is made per request); an entry goes when they do."""

    def __init__(self) -> None:
        self._levels: dict[int, tuple[weakref.ref[object], str]] = {}

    def set(self, ctx: ServerRequestContext[Any, Any], level: str) -> None:
        key = ctx.session.client_params
        if key is None:
            return  # no handshake: nothing to remember it by
        self._levels[id(key)] = (weakref.ref(key, self._forget(id(key))), level)

    def _forget(self, key: int) -> Any:
        # Called when the connection's parameters are collected: a closed connection
        # leaves nothing behind, and a new object reusing the id is not mistaken for it.
        return lambda _: self._levels.pop(key, None)

    def allows(self, ctx: ServerRequestContext[Any, Any], level: str) -> bool:
        key = ctx.session.client_params
        held = self._levels.get(id(key)) if key is not None else None
        if held is None or held[0]() is not key:
            return True
        return _LEVELS.index(level) >= _LEVELS.index(held[1])


class ClientChannel:
    """The client of one call, as a handler may reach it."""

    def __init__(
        self, ctx: ServerRequestContext[Any, Any], levels: LogLevels | None = None
    ) -> None:
        self._ctx = ctx
        self._levels = levels if levels is not None else LogLevels()

    async def log(self, level: LogLevel, data: Any, logger: str | None) -> None:
        if level not in _LEVELS:
            raise ValueError(f"unknown log level {level!r}")
        if not self._levels.allows(self._ctx, level):
            return
        await self._ctx.session.send_log_message(
            level, data, logger, related_request_id=self._ctx.request_id
        )

    async def progress(
        self, progress: float, total: float | None, message: str | None
    ) -> None:
        await self._ctx.session.report_progress(progress, total, message)

    def _can_ask(self, capability: types.ClientCapabilities, what: str) -> None:
        session = self._ctx.session
        if not session.can_send_request:
            raise ClientRequestUnavailable(
                f"{what}: protocol {self._ctx.protocol_version} lets no server "
                "send requests to the client"
            )
        if not session.check_client_capability(capability):
            raise ClientRequestUnavailable(f"{what}: the client did not offer it")

    async def sample(
        self,
        messages: str | Sequence[tuple[Literal["user", "assistant"], str]],
        max_tokens: int,
        system_prompt: str | None,
        temperature: float | None,
    ) -> Sampled:
        self._can_ask(
            types.ClientCapabilities(sampling=types.SamplingCapability()), "sampling"
        )
        turns: Sequence[tuple[Literal["user", "assistant"], str]] = (
            [("user", messages)] if isinstance(messages, str) else messages
        )
        wire = [
            types.SamplingMessage(
                role=role, content=types.TextContent(type="text", text=text)
            )
            for role, text in turns
        ]
        result = await self._ctx.session.create_message(
            wire,
            max_tokens=max_tokens,
            system_prompt=system_prompt,
            temperature=temperature,
            related_request_id=self._ctx.request_id,
        )
        content = result.content
        text = content.text if isinstance(content, types.TextContent) else None
        return Sampled(text, result.model, result.role, result.stop_reason)

    async def elicit(self, message: str, schema: Mapping[str, Any]) -> Elicited:
        self._can_ask(
            types.ClientCapabilities(elicitation=types.ElicitationCapability()),
            "elicitation",
        )
        result = await self._ctx.session.elicit_form(
            message=message,
            requested_schema=dict(schema),
            related_request_id=self._ctx.request_id,
        )
        content = dict(result.content) if result.content is not None else None
        return Elicited(result.action, content if result.action == "accept" else None)
