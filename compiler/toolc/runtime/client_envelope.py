"""The envelope a generated client reads: typed, tolerant results (`Success[Data] |
Failure[Data]`, `ErrorReport`, `MultiItem`) parsed from what a server sent, and the
`ToolCallError` raised when there is no envelope at all. `client_runtime` calls the
tools; this module only reads answers (see its docstring for the tolerance rules)."""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

import anyio
from mcp import types
from pydantic import BaseModel, ValidationError

from .server_content import ContentView
from .server_fields import field_path, named_fields, problems
from .server_framework import FRAMEWORK_ERRORS
from .server_types import data_adapter

logger = logging.getLogger(__name__)

DataT = TypeVar("DataT")

FRAMEWORK_CODES = frozenset(FRAMEWORK_ERRORS)
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
    # Each item's declared protocol/operation id (`multi_item.operation_id`), in order.
    operation_ids: tuple[str | None, ...] = ()


class RetryView:
    """`await result.retry_failed()`: the failed items sent again (client_retry)."""

    __slots__ = ()
    meta: ResultMeta
    retry: Callable[[], Awaitable[Any]] | None

    async def retry_failed(self) -> Envelope[Any]:
        """Send only the failed items again, with their original keys, and return the
        outcome merged with the items already done (ToolCallError: nothing to retry)."""
        if self.retry is None:
            raise ToolCallError(self.meta.tool, "no failed items to retry")
        merged: Envelope[Any] = await self.retry()
        return merged


@dataclass(frozen=True, slots=True)
class Success(ContentView, RetryView, Generic[DataT]):
    data: DataT
    meta: ResultMeta
    multi_item: MultiItem | None = None
    dropped: tuple[str, ...] = ()  # paths of unknown fields closed models refused
    envelope: Mapping[str, Any] = field(default_factory=dict)
    # The result's other content blocks (images, audio, resources), in the order sent;
    # typed: `attachments`, `images`, `audio`, `resource_links`, `resources`.
    content: tuple[types.ContentBlock, ...] = ()
    ok: Literal[True] = True
    retry: Callable[[], Awaitable[Any]] | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class Failure(ContentView, RetryView, Generic[DataT]):
    error: ErrorReport
    meta: ResultMeta
    data: DataT | None = None  # a multi-item failure keeps its per-item evidence
    multi_item: MultiItem | None = None
    dropped: tuple[str, ...] = ()
    envelope: Mapping[str, Any] = field(default_factory=dict)
    local: bool = False  # refused by this client, never sent
    content: tuple[types.ContentBlock, ...] = ()
    ok: Literal[False] = False
    retry: Callable[[], Awaitable[Any]] | None = field(default=None, repr=False)


Envelope = Success[DataT] | Failure[DataT]


def _fit(tp: Any, value: Any) -> tuple[Any, tuple[str, ...]]:
    """`value` validated as `tp`, after dropping the fields closed models refuse."""
    dropped: list[str] = []
    while True:
        try:
            return data_adapter(tp).validate_python(value), tuple(dropped)
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
                dropped.append(field_path(e["loc"]))


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
    done = sum(1 for ok in flags if ok is True)  # a `success: 1` is no success
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
        _operation_ids(getattr(spec, "operation_id", None), rows),
    )


def _operation_ids(field: str | None, rows: list[Any]) -> tuple[str | None, ...]:
    if field is None:
        return ()
    got = [r.get(field) if isinstance(r, Mapping) else None for r in rows]
    return tuple(v if isinstance(v, str) else None for v in got)


def parse_envelope(
    spec: ClientSpecLike,
    envelope: Any,
    content: Sequence[types.ContentBlock] = (),
) -> Envelope[Any]:
    """A received envelope, read tolerantly (see the module's docstring); `content`:
    the result's blocks besides the envelope's own text block."""
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
    blocks = tuple(content)
    if ok:
        return Success(typed, ResultMeta(tool, version), multi, dropped, got, blocks)
    error = _report(spec, got.get("error"))
    if error is None:
        raise ToolCallError(spec.name, "an error without code", envelope=envelope)
    meta = ResultMeta(tool, version)
    return Failure(error, meta, typed, multi, dropped, got, content=blocks)


def parse_result(spec: ClientSpecLike, result: types.CallToolResult) -> Envelope[Any]:
    """The envelope of a `tools/call` result: `structuredContent`, else its text. Every
    block but the envelope's text block (the last text block) is kept in `content`."""
    envelope = result.structured_content
    texts = [
        i for i, b in enumerate(result.content) if isinstance(b, types.TextContent)
    ]
    own = texts[-1] if texts else None
    if envelope is None and own is not None:
        text = result.content[own]
        assert isinstance(text, types.TextContent)
        try:
            envelope = json.loads(text.text)
        except ValueError:
            raise ToolCallError(spec.name, f"no envelope: {text.text[:300]}") from None
    others = [b for i, b in enumerate(result.content) if i != own]
    return parse_envelope(spec, envelope, others)


def _refused(spec: ClientSpecLike, exc: ValidationError) -> Failure[Any]:
    """VALIDATION_ERROR as the server words it: each field and why, never the value."""
    details = problems(exc, "", spec.args_model.__pydantic_core_schema__)
    text = f"Invalid arguments for {spec.name}: {named_fields(details)}."
    retryable, hint = FRAMEWORK_ERRORS["VALIDATION_ERROR"]
    error = ErrorReport("VALIDATION_ERROR", text, details, retryable, hint)
    return Failure(error, ResultMeta(spec.name, spec.version), local=True)
