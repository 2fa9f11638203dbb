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

import copy
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Generic, Literal, Protocol, Self, TypeVar

import anyio
from mcp import Client, ClientSession, StdioServerParameters, types
from mcp.client.session import ClientRequestContext, ElicitationFnT
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, TypeAdapter, ValidationError

logger = logging.getLogger(__name__)

DataT = TypeVar("DataT")

FRAMEWORK_CODES = frozenset(
    {
        "VALIDATION_ERROR",
        "TOOL_ERROR",
        "CONFIRMATION_DECLINED",
        "CONFIRMATION_UNAVAILABLE",
        "PRE_VALIDATION_REJECTED",
        "PRE_VALIDATION_FAILED",
    }
)
# A failed round trip. RuntimeError: the SDK's (a result breaking its outputSchema,
# too many rounds of questions); ValidationError: a malformed result.
_TRANSPORT = (RuntimeError, ValidationError, OSError, TimeoutError, anyio.EndOfStream)
_BROKEN = (anyio.BrokenResourceError, anyio.ClosedResourceError)
_NONE = object()


class ClientSpecLike(Protocol):
    """What the client needs to know of a tool (the generated `registry.ToolSpec`)."""

    @property
    def name(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def multi_item(self) -> bool: ...
    @property
    def require_confirmation(self) -> bool: ...
    @property
    def errors(self) -> Mapping[str, object]: ...
    @property
    def args_model(self) -> type[BaseModel]: ...
    @property
    def data_model(self) -> Any: ...
    @property
    def input_schema(self) -> Mapping[str, Any]: ...


class ToolCallError(Exception):
    """No envelope. `code`: the JSON-RPC error's (-32602: a tool the server does not
    serve); `envelope`: what came instead of a readable envelope."""

    def __init__(
        self, tool: str, message: str, *, code: int | None = None, envelope: Any = None
    ) -> None:
        super().__init__(f"{tool}: {message}")
        self.tool, self.message = tool, message
        self.code, self.envelope = code, envelope


@dataclass(frozen=True, slots=True)
class ResultMeta:
    tool: str
    version: str  # the server's contract version, maybe newer than this client's


@dataclass(frozen=True, slots=True)
class ErrorReport:
    code: str
    message: str
    details: Any = None
    retryable: bool | None = None
    hint: str | None = None
    error_id: str | None = None
    known: bool = True  # False: a code this client's contract does not declare


@dataclass(frozen=True, slots=True)
class MultiItem:
    """A multi-item tool's evidence. Items are instances of the tool's item model when
    they fit it, else dicts as received; `failed`: the items to retry."""

    status: str  # SUCCESS, PARTIAL_SUCCESS or FAILED
    items: tuple[Any, ...]
    failed: tuple[Any, ...]
    items_count: int
    items_succeeded_count: int
    items_failed_count: int
    original_ok: bool = True  # False: a secondary failure after completed items
    secondary_error: ErrorReport | None = None


@dataclass(frozen=True, slots=True)
class Success(Generic[DataT]):
    data: DataT
    meta: ResultMeta
    multi_item: MultiItem | None = None
    dropped: tuple[str, ...] = ()  # paths of unknown fields closed models refused
    envelope: Mapping[str, Any] = field(default_factory=dict)
    ok: Literal[True] = True


@dataclass(frozen=True, slots=True)
class Failure(Generic[DataT]):
    error: ErrorReport
    meta: ResultMeta
    data: DataT | None = None  # a multi-item failure keeps its per-item evidence
    multi_item: MultiItem | None = None
    dropped: tuple[str, ...] = ()
    envelope: Mapping[str, Any] = field(default_factory=dict)
    local: bool = False  # refused by this client, never sent
    ok: Literal[False] = False


Envelope = Success[DataT] | Failure[DataT]


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


def _path(loc: Sequence[int | str]) -> str:
    """`results[0].reason`: a field's path as the server words it."""
    return "".join(
        f"[{p}]" if isinstance(p, int) else f".{p}" if i else p
        for i, p in enumerate(loc)
    )


@cache
def _adapter(tp: Any) -> TypeAdapter[Any]:
    return TypeAdapter(tp)


def _fit(tp: Any, value: Any) -> tuple[Any, tuple[str, ...]]:
    """`value` validated as `tp`, after dropping the fields closed models refuse."""
    dropped: list[str] = []
    while True:
        try:
            return _adapter(tp).validate_python(value), tuple(dropped)
        except ValidationError as exc:
            errors = exc.errors(include_url=False, include_input=False)
            if any(e["type"] != "extra_forbidden" for e in errors):
                raise
            value = copy.deepcopy(value)
            for e in errors:
                node: Any = value
                for key in e["loc"][:-1]:  # a union member's tag is no key: skipped
                    list_index = isinstance(node, list) and isinstance(key, int)
                    if list_index or (isinstance(node, dict) and key in node):
                        node = node[key]
                if not isinstance(node, dict) or node.pop(e["loc"][-1], _NONE) is _NONE:
                    raise
                dropped.append(_path(e["loc"]))


def _report(spec: ClientSpecLike, raw: Any) -> ErrorReport | None:
    error = raw if isinstance(raw, Mapping) else {}
    code, message = error.get("code"), error.get("message")
    if not isinstance(code, str) or not isinstance(message, str):
        return None
    got = {k: error.get(k) for k in ("retryable", "hint", "errorId")}
    return ErrorReport(
        code,
        message,
        error.get("details"),
        got["retryable"] if isinstance(got["retryable"], bool) else None,
        got["hint"] if isinstance(got["hint"], str) else None,
        got["errorId"] if isinstance(got["errorId"], str) else None,
        code in FRAMEWORK_CODES or code in spec.errors,
    )


def _item(spec: ClientSpecLike, row: Any) -> Any:
    results = getattr(spec.data_model, "model_fields", {}).get("results")
    try:  # validated as a one-item `results` list: whatever the item model is
        return _fit(results.annotation, [row])[0][0] if results else row
    except ValidationError:
        return row


def _multi_item(spec: ClientSpecLike, raw: Any, typed: Any) -> MultiItem | None:
    rows = raw.get("results") if isinstance(raw, Mapping) else None
    if not spec.multi_item or not isinstance(rows, list):
        return None
    items = list(getattr(typed, "results", None) or ())
    if len(items) != len(rows):
        items = [_item(spec, row) for row in rows]
    flags = [
        r.get("success", r.get("ok")) if isinstance(r, Mapping) else None for r in rows
    ]
    failed = tuple(i for i, ok in zip(items, flags, strict=True) if ok is False)
    done = flags.count(True)
    status = raw.get("multi_item_status")
    if not isinstance(status, str):
        status = (
            "PARTIAL_SUCCESS" if done and failed else "FAILED" if failed else "SUCCESS"
        )
    metadata = raw.get("metadata")
    counts = metadata.get("multi_item") if isinstance(metadata, Mapping) else None
    counts = counts if isinstance(counts, Mapping) else {}

    def count(key: str, default: int) -> int:
        value = counts.get(key)
        return value if type(value) is int else default

    return MultiItem(
        status,
        tuple(items),
        failed,
        count("items_count", len(rows)),
        count("items_succeeded_count", done),
        count("items_failed_count", len(failed)),
        raw.get("original_ok") is not False,
        _report(spec, raw.get("secondary_error")),
    )


def parse_envelope(spec: ClientSpecLike, envelope: Any) -> Envelope[Any]:
    """A received envelope, read tolerantly (see the module's docstring)."""
    got = envelope if isinstance(envelope, Mapping) else {}
    meta, ok, raw = got.get("meta"), got.get("ok"), got.get("data")
    meta = meta if isinstance(meta, Mapping) else {}
    tool, version = meta.get("tool"), meta.get("version")
    if (
        not isinstance(ok, bool)
        or not isinstance(tool, str)
        or type(version) is not str
    ):
        raise ToolCallError(spec.name, "the result is no envelope", envelope=envelope)
    typed: Any = None
    dropped: tuple[str, ...] = ()
    if ok or raw is not None:
        try:
            typed, dropped = _fit(spec.data_model, raw)
        except ValidationError as exc:
            if ok:
                why = f"data that does not fit contract {spec.version}: {exc}"
                raise ToolCallError(spec.name, why, envelope=envelope) from exc
    multi = _multi_item(spec, raw, typed)
    if ok:
        return Success(typed, ResultMeta(tool, version), multi, dropped, got)
    error = _report(spec, got.get("error"))
    if error is None:
        raise ToolCallError(spec.name, "an error without code", envelope=envelope)
    return Failure(error, ResultMeta(tool, version), typed, multi, dropped, got)


def parse_result(spec: ClientSpecLike, result: types.CallToolResult) -> Envelope[Any]:
    """The envelope of a `tools/call` result: `structuredContent`, else its text."""
    envelope = result.structured_content
    texts = [b.text for b in result.content if isinstance(b, types.TextContent)]
    if envelope is None and texts:
        try:
            envelope = json.loads(texts[-1])
        except ValueError:
            raise ToolCallError(spec.name, f"no envelope: {texts[-1][:300]}") from None
    return parse_envelope(spec, envelope)


def _refused(spec: ClientSpecLike, exc: ValidationError) -> Failure[Any]:
    """VALIDATION_ERROR as the server words it: each field and why, never the value."""
    details = [
        {"field": _path(e["loc"]), "reason": e["msg"], "type": e["type"]}
        for e in exc.errors(include_url=False, include_input=False)
    ]
    fields = ", ".join(dict.fromkeys(d["field"] or "(arguments)" for d in details))
    text = f"Invalid arguments for {spec.name}: {fields}."
    hint = "Fix the arguments listed in details and call again."
    error = ErrorReport("VALIDATION_ERROR", text, details, False, hint)
    return Failure(error, ResultMeta(spec.name, spec.version), local=True)


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
    ) -> AsyncIterator[Self]:
        """Connected over stdio, or Streamable HTTP for a URL. `auto`: protocol
        2026-07-28, `legacy`: 2025-11-25. Without `confirm` no elicitation is
        advertised: a tool needing confirmation answers CONFIRMATION_UNAVAILABLE."""
        client = cls(confirm=confirm, tools=tools)
        sdk = Client(
            server,
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
    ) -> Envelope[Any]:
        """Call `tool` with its Args model or a mapping of wire names (see the module's
        docstring for what is returned and what is raised)."""
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
        asks = spec.require_confirmation
        async with self._one_question if asks else nullcontext():
            token = _CALL.set((tool, wire))
            if asks:
                self._asking = (tool, wire)
            try:
                result = await self._send(tool, wire, read_timeout_seconds)
            except MCPError as exc:
                raise ToolCallError(tool, exc.message, code=exc.code) from exc
            except (*_TRANSPORT, *_BROKEN) as exc:
                raise ToolCallError(tool, f"{type(exc).__name__}: {exc}") from exc
            finally:
                _CALL.reset(token)
                if asks:
                    self._asking = None
        return parse_result(spec, result)

    async def _send(
        self, tool: str, wire: dict[str, Any], timeout: float | None
    ) -> types.CallToolResult:
        if isinstance(self.session, Client):  # answers InputRequiredResult, retries
            return await self.session.call_tool(
                tool, wire, read_timeout_seconds=timeout
            )
        if self.session is None:
            raise RuntimeError("not connected: bind a session first")
        return await self.session.call_tool(tool, wire, timeout)
