"""The types a generated server's handlers and the runtime share: what the runtime
needs to know of a tool (protocols the generated `registry.ToolSpec` satisfies), what a
handler receives besides its arguments (`ToolContext`), and what it may return or raise
besides its data (`Items`, `Reply`, `ToolFailure`; content items: server_content)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from mcp.server.context import ServerRequestContext
from pydantic import BaseModel, ConfigDict, TypeAdapter

from .server_client import ClientChannel, Elicited, LogLevel, Sampled
from .server_content import Content, Image

DataT = TypeVar("DataT")
ItemT = TypeVar("ItemT")


@functools.cache
def data_adapter(kind: Any) -> TypeAdapter[Any]:
    """`kind` (a tool's data type) judged as the generated models judge: a model by its
    own config; a list or a union, which has none, strictly ("5" is not 5, true not 1)
    where pydantic's default is lax. The server checks returned data with it, the
    client types arriving data."""
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return TypeAdapter(kind)
    return TypeAdapter(kind, config=ConfigDict(strict=True))


class ErrorSpecLike(Protocol):
    """A declared domain error (the generated `registry.ErrorSpec`)."""

    @property
    def retryable(self) -> bool: ...

    @property
    def hint(self) -> str | None: ...


class SpecLike(Protocol):
    """What sealing needs to know about a tool (the generated `registry.ToolSpec`)."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def multi_item(self) -> bool: ...

    @property
    def workflow(self) -> bool: ...

    @property
    def errors(self) -> Mapping[str, ErrorSpecLike]: ...


class PreValidationLike(Protocol):
    @property
    def tool(self) -> str: ...

    @property
    def fail_open(self) -> bool: ...


class ToolSpecLike(SpecLike, Protocol):
    """What the server needs to know of a tool (the generated `registry.ToolSpec`)."""

    @property
    def title(self) -> str: ...

    @property
    def mcp_server(self) -> str: ...

    @property
    def enabled(self) -> bool: ...

    @property
    def module(self) -> str: ...

    @property
    def require_confirmation(self) -> bool: ...

    @property
    def pre_validation(self) -> PreValidationLike | None: ...

    @property
    def args_model(self) -> type[BaseModel]: ...

    @property
    def resolved_model(self) -> type[BaseModel] | None: ...

    @property
    def data_model(self) -> Any: ...


class ToolFailure(Exception):
    """A declared domain failure: `raise ToolFailure("ORDER_UNAVAILABLE", "...")`.

    `retryable` and `hint` come from the tool's declared errors. A multi-item tool may
    pass the per-item `data` it has: completed items are never erased by the failure.
    As a value in `Reply.secondary_failure` it is a failure after completed items."""

    def __init__(
        self, code: str, message: str, details: Any = None, *, data: Any = None
    ) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.details = details
        self.data = data


@dataclass(frozen=True, slots=True)
class Items(Generic[ItemT]):
    """A multi-item tool's answer: one result per item (each with a boolean `success`
    or `ok`) and any other declared data fields. The normalization is added here."""

    results: Sequence[ItemT]
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Reply(Generic[DataT]):
    """A handler's answer with more than data: content blocks sent beside the envelope
    (images, audio, resource links, embedded resources, as the tool declares them;
    `images` is the older spelling of image content), or a failure that happened after
    items were completed (multi-item tools)."""

    data: DataT
    images: Sequence[Image] = ()
    secondary_failure: ToolFailure | None = None
    content: Sequence[Content] = ()


@dataclass(frozen=True, slots=True)
class ToolContext:
    """What a handler knows about the call besides its arguments."""

    tool: str
    version: str
    request_id: str | int | None
    protocol_version: str
    meta: Mapping[str, Any]
    # The user confirmed this call (always False for a tool that asks no question).
    confirmed: bool
    # The pre-validator's data when it ran and accepted the call.
    decision: Mapping[str, Any] | None
    request: ServerRequestContext[Any, Any]
    # The tool's response ceiling and its data budget (`ceiling − reserve`: the bytes
    # its data may take once the envelope is around it); None when it has no ceiling.
    ceiling_bytes: int | None = None
    budget_bytes: int | None = None
    # The call's idempotency keys (server_keys): the request's, and one per item of a
    # multi-item call, in the order of the items sent. Deduplicating by them is the
    # handler's job.
    idempotency_key: str | None = None
    item_keys: tuple[str, ...] = ()
    # The way back to the client for log/progress/sample/elicit (server_client).
    channel: ClientChannel | None = field(default=None, repr=False)

    def _client(self) -> ClientChannel:
        return self.channel if self.channel is not None else ClientChannel(self.request)

    async def log(self, level: LogLevel, data: Any, logger: str | None = None) -> None:
        """A notifications/message to the client, at or above the level it set with
        logging/setLevel (2025-11-25) or asked for in the request (2026-07-28)."""
        await self._client().log(level, data, logger)

    async def progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """A notifications/progress for this call; nothing when it sent no token."""
        await self._client().progress(progress, total, message)

    async def sample(
        self,
        messages: str | Sequence[tuple[Literal["user", "assistant"], str]],
        *,
        max_tokens: int = 256,
        system_prompt: str | None = None,
        temperature: float | None = None,
    ) -> Sampled:
        """Ask the client's model (sampling/createMessage); ClientRequestUnavailable
        where the era or the client does not allow it."""
        return await self._client().sample(
            messages, max_tokens, system_prompt, temperature
        )

    async def elicit(self, message: str, schema: Mapping[str, Any]) -> Elicited:
        """Ask the user to fill a flat form (elicitation/create, form mode);
        ClientRequestUnavailable where the era or the client does not allow it."""
        return await self._client().elicit(message, schema)
