"""The client of a generated package: `await ToolClient.call(tool, args)` validates the
arguments locally, sends them over an MCP session and reads the answer into a typed,
tolerant envelope, `Success[Data] | Failure[Data]`. The server's confirmation question
goes to the caller's `confirm` callback, in both protocol eras.

An envelope is returned whenever one exists: domain errors, and arguments refused
locally exactly as the server would refuse them (`Failure(local=True)`, never sent).
`ToolCallError` is raised only when there is none: transport failure, JSON-RPC error,
a result that is no envelope or whose data does not fit the tool's Data model. What a
compatible server adds is accepted: unknown error codes (`known=False`), another
`meta.version`, unknown fields (kept by open models; dropped from closed ones and listed
in `dropped`). The envelope as received stays in `envelope`."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Self, cast

import anyio
from mcp import Client, ClientSession, StdioServerParameters, types
from mcp.client import Transport
from mcp.client.session import ClientRequestContext, ElicitationFnT
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ValidationError

from .client_envelope import (
    _BROKEN,
    _TRANSPORT,
    FRAMEWORK_CODES,
    ClientSpecLike,
    Envelope,
    ErrorReport,
    Failure,
    MultiItem,
    ResultMeta,
    Success,
    ToolCallError,
    _refused,
    parse_envelope,
    parse_result,
)
from .client_http import bearer, http_transport
from .client_proxy import is_proxied, parse_proxied
from .client_retry import call_keys, handled_keys, retryable
from .server_content import (
    Audio,
    Content,
    EmbeddedBlob,
    EmbeddedText,
    Image,
    ResourceLink,
)

logger = logging.getLogger(__name__)

__all__ = [
    "FRAMEWORK_CODES",
    "Audio",
    "ClientSpecLike",
    "Confirm",
    "ConfirmationRequest",
    "Content",
    "EmbeddedBlob",
    "EmbeddedText",
    "Envelope",
    "ErrorReport",
    "Failure",
    "Image",
    "MissingArgument",
    "MultiItem",
    "ResourceLink",
    "ResultMeta",
    "Success",
    "ToolCallError",
    "ToolClient",
    "bearer",
    "missing_arguments",
    "parse_envelope",
    "parse_result",
]


@dataclass(frozen=True, slots=True)
class ConfirmationRequest:
    """The server's question, with the call's tool and arguments as sent (None when
    the client cannot tell which of its calls asked)."""

    message: str
    tool: str | None
    arguments: Mapping[str, Any] | None


Confirm = Callable[[ConfirmationRequest], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class MissingArgument:
    name: str  # the wire name
    label: str  # `x-toolc-label`, else the title, else the name
    user_prompt: str | None
    description: str | None


def missing_arguments(
    spec: ClientSpecLike, gathered: Mapping[str, Any]
) -> list[MissingArgument]:
    """The required arguments not gathered yet (a None value counts as missing)."""
    props = spec.input_schema.get("properties") or {}
    found = []
    for name in spec.input_schema.get("required") or ():
        if gathered.get(name) is None:
            text = {k: v for k, v in props.get(name, {}).items() if isinstance(v, str)}
            label = text.get("x-toolc-label") or text.get("title") or name
            prompt, about = text.get("x-toolc-user-prompt"), text.get("description")
            found.append(MissingArgument(name, label, prompt, about))
    return found


_CALL: ContextVar[tuple[str, Any] | None] = ContextVar("_CALL", default=None)


class ToolClient:
    """Calls the tools of `tools` (by default the class's `TOOLS`) over an MCP session:
    an `mcp.Client` of either era, or a `ClientSession` (2025-11-25) built with
    `elicitation_callback=client.elicitation_callback`, then `bind(session)`."""

    TOOLS: ClassVar[Mapping[str, ClientSpecLike]] = {}

    def __init__(
        self,
        session: Client | ClientSession | None = None,
        *,
        confirm: Confirm | None = None,
        tools: Mapping[str, ClientSpecLike] | None = None,
    ) -> None:
        self.tools = tools if tools is not None else type(self).TOOLS
        self.confirm = confirm
        self.session = session
        self._asking: tuple[str, Any] | None = None  # the confirmable call in flight
        self._one_question = anyio.Lock()

    @classmethod
    @asynccontextmanager
    async def connect(
        cls,
        server: StdioServerParameters | str,
        *,
        confirm: Confirm | None = None,
        mode: Literal["auto", "legacy"] = "auto",
        read_timeout_seconds: float | None = 120.0,
        tools: Mapping[str, ClientSpecLike] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> AsyncIterator[Self]:
        """Connected over stdio, or Streamable HTTP for a URL. `auto`: protocol
        2026-07-28, `legacy`: 2025-11-25. Without `confirm` no elicitation is
        advertised: a tool needing confirmation answers CONFIRMATION_UNAVAILABLE.
        `headers`: sent with every HTTP request, e.g. `bearer(token)` for a server
        run with `--auth-token-env`."""
        client = cls(confirm=confirm, tools=tools)
        target: StdioServerParameters | str | Transport = server
        if headers is not None:
            if not isinstance(server, str):
                raise TypeError("headers are sent over HTTP: connect to a URL")
            target = http_transport(server, headers)
        sdk = Client(
            target,
            mode=mode,
            elicitation_callback=client.elicitation_callback,
            read_timeout_seconds=read_timeout_seconds,
        )
        async with AsyncExitStack() as stack:
            try:
                await stack.enter_async_context(sdk)
            except Exception as exc:  # spawn, handshake: often an ExceptionGroup
                raise ToolCallError("connect", f"cannot connect: {exc!r}") from exc
            yield client.bind(sdk)

    def bind(self, session: Client | ClientSession) -> Self:
        self.session = session
        return self

    @property
    def elicitation_callback(self) -> ElicitationFnT | None:
        """The SDK's callback; None (no elicitation advertised) without `confirm`."""
        return None if self.confirm is None else self._elicit

    async def _elicit(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        props = getattr(params, "requested_schema", {}).get("properties") or {}
        if self.confirm is None or list(props) != ["confirm"]:
            return types.ElicitResult(action="decline")  # not a toolc question
        # Modern era: asked within the call's task. Legacy: from the session's reader
        # task, while this client's one confirmable call in flight waits.
        tool, arguments = _CALL.get() or self._asking or (None, None)
        try:
            yes = await self.confirm(
                ConfirmationRequest(params.message, tool, arguments)
            )
        except Exception:
            logger.exception("the confirm callback failed: the call is not confirmed")
            return types.ElicitResult(action="cancel")
        if yes is True:
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action="decline")

    def missing_arguments(
        self, tool: str, gathered: Mapping[str, Any]
    ) -> list[MissingArgument]:
        return missing_arguments(self.tools[tool], gathered)

    async def call(
        self,
        tool: str,
        args: BaseModel | Mapping[str, Any] | None = None,
        *,
        read_timeout_seconds: float | None = None,
        idempotency_key: str | None = None,
    ) -> Envelope[Any]:
        """Call `tool` with its Args model or a mapping of wire names (see the module's
        docstring for what is returned and what is raised). A transactional or
        multi-item call carries idempotency keys (`idempotency_key`, else a fresh one;
        client_retry), and a result with failed items can `retry_failed()`."""
        spec = self.tools.get(tool)
        if spec is None:
            raise ToolCallError(tool, "not a tool of this client")
        given = {} if args is None else args
        if isinstance(given, BaseModel):
            given = given.model_dump(mode="json", by_alias=True, exclude_unset=True)
        try:
            checked = spec.args_model.model_validate(given)
        except ValidationError as exc:
            return _refused(spec, exc)
        wire = checked.model_dump(mode="json", by_alias=True, exclude_unset=True)
        keys = call_keys(spec, wire, idempotency_key)
        meta = keys.meta() if keys is not None else None
        result = await self._invoke(spec, wire, meta, read_timeout_seconds)
        if is_proxied(spec):  # the origin's result, no envelope (decision 0084)
            return parse_proxied(spec, result)
        envelope = parse_result(spec, result)
        handled = handled_keys(result)
        return retryable(
            self, spec, wire, keys, envelope, read_timeout_seconds, handled
        )

    async def _invoke(
        self,
        spec: ClientSpecLike,
        wire: dict[str, Any],
        meta: dict[str, Any] | None,
        timeout: float | None,
    ) -> types.CallToolResult:
        """One round trip, its confirmation question routed to `confirm`."""
        tool, asks = spec.name, spec.require_confirmation
        async with self._one_question if asks else nullcontext():
            token = _CALL.set((tool, wire))
            if asks:
                self._asking = (tool, wire)
            try:
                return await self._send(tool, wire, timeout, meta)
            except MCPError as exc:
                raise ToolCallError(tool, exc.message, code=exc.code) from exc
            except (*_TRANSPORT, *_BROKEN) as exc:
                raise ToolCallError(tool, f"{type(exc).__name__}: {exc}") from exc
            finally:
                _CALL.reset(token)
                if asks:
                    self._asking = None

    async def _send(
        self,
        tool: str,
        wire: dict[str, Any],
        timeout: float | None,
        meta: dict[str, Any] | None = None,
    ) -> types.CallToolResult:
        sent = cast(types.RequestParamsMeta, meta) if meta is not None else None
        if isinstance(self.session, Client):  # answers InputRequiredResult, retries
            return await self.session.call_tool(
                tool, wire, read_timeout_seconds=timeout, meta=sent
            )
        if self.session is None:
            raise RuntimeError("not connected: bind a session first")
        return await self.session.call_tool(tool, wire, timeout, meta=sent)
