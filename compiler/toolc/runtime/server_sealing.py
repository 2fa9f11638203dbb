"""The response envelope (ADR-016) as the server seals it: what a handler returns or
raises becomes `{ok, data, meta}` or `{ok: false, error, meta, data?}`, the same JSON in
`structuredContent` and in one text block, the content blocks the tool declares before
it (server_content). Config-independent: a tool is described by the `SpecLike`
protocol, which the generated `registry.ToolSpec` satisfies."""

from __future__ import annotations

import logging
import sys
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcp import types

from .server_composition import normalized
from .server_content import Content, DeclaredContent, ordered
from .server_fields import capped, named_fields
from .server_framework import (
    FRAMEWORK_ERROR_CODES,
    FRAMEWORK_ERRORS,
    MULTI_ITEM_STATUSES,
)
from .server_items import (
    BadReturn,
    workflow_failure,
    workflow_primary,
)
from .server_types import Items, Reply, SpecLike, ToolFailure
from .server_wire import compact, note_foreign, to_wire

logger = logging.getLogger(__name__)

__all__ = [
    "FRAMEWORK_ERRORS",
    "FRAMEWORK_ERROR_CODES",
    "MULTI_ITEM_STATUSES",
    "BadReturn",
    "DataCheck",
    "Sealed",
    "seal_error",
    "seal_failure",
    "seal_return",
]


@dataclass(frozen=True, slots=True)
class Sealed:
    """A sealed call result: the envelope and its compact JSON text."""

    envelope: dict[str, Any]
    text: str
    content: tuple[Content, ...] = ()  # in the order sent (server_content.ordered)
    meta: Mapping[str, Any] | None = (
        None  # the result's `_meta` (the handled item keys)
    )

    @property
    def ok(self) -> bool:
        return bool(self.envelope["ok"])

    def wire(self) -> dict[str, Any]:
        """The result as the SDK's runner takes it from a handler: the dict `result()`
        dumps to (`by_alias`, JSON mode, no nulls), made without building its models.
        The runner copies a handler's dict and validates it for the negotiated version
        as it does a model's dump (decision 0128)."""
        if self.content:  # images and other blocks: their models write them
            result = self.result()
            return result.model_dump(by_alias=True, mode="json", exclude_none=True)
        wire: dict[str, Any] = {
            "content": [{"type": "text", "text": self.text}],
            "structuredContent": self.envelope,
            "isError": not self.ok,
            "resultType": "complete",
        }
        if self.meta is not None:
            wire["_meta"] = dict(self.meta)
        return wire

    def result(self) -> types.CallToolResult:
        content: list[types.ContentBlock] = [i.block() for i in self.content]
        content.append(types.TextContent(type="text", text=self.text))
        return types.CallToolResult(
            content=content,
            structured_content=self.envelope,
            is_error=not self.ok,
            _meta=None if self.meta is None else dict(self.meta),
        )


DataCheck = Callable[[Any], object]
"""Validates a tool's wire `data`; raises `BadReturn` naming what is wrong."""


def _meta(spec: SpecLike) -> dict[str, str]:
    return {"tool": spec.name, "version": spec.version}


def new_error_id() -> str:
    return uuid.uuid4().hex


def error_info(
    code: str,
    message: str,
    details: Any = None,
    *,
    retryable: bool | None = None,
    hint: str | None = None,
    error_id: str | None = None,
) -> dict[str, Any]:
    """ErrorInfo in wire form, absent members left out."""
    if type(code) is not str or type(message) is not str:  # a handler's, unchecked
        note_foreign()
    info: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        info["details"] = to_wire(details)
    if retryable is not None:
        info["retryable"] = retryable
    if hint is not None:
        info["hint"] = hint
    if error_id is not None:
        info["errorId"] = error_id
    return info


def framework_error(
    code: str, message: str, details: Any = None, *, error_id: str | None = None
) -> dict[str, Any]:
    retryable, hint = FRAMEWORK_ERRORS[code]
    return error_info(
        code, message, details, retryable=retryable, hint=hint, error_id=error_id
    )


def _logged(spec: SpecLike, what: str) -> str:
    """A fresh errorId, logged with `what` (and the traceback when called while an
    exception is handled)."""
    error_id = new_error_id()
    current = sys.exc_info()[1]
    logger.error(
        "%s in tool %s (errorId %s)", what, spec.name, error_id, exc_info=current
    )
    return error_id


def internal_error(spec: SpecLike, what: str) -> dict[str, Any]:
    """TOOL_ERROR for a failure whose particulars stay in the server's log (call it
    inside the `except` block to log the traceback)."""
    error_id = _logged(spec, what)
    return framework_error(
        "TOOL_ERROR",
        f"The tool failed unexpectedly; report errorId {error_id}.",
        error_id=error_id,
    )


def invalid_result(spec: SpecLike, bad: BadReturn) -> dict[str, Any]:
    """INVALID_RESULT naming each place the handler's answer broke the tool's published
    schema (never the values: they stay in the log)."""
    error_id = _logged(spec, f"Invalid handler result ({bad})")
    details = capped(bad.problems)
    return framework_error(
        "INVALID_RESULT",
        f"The result of {spec.name} does not match its schema at "
        f"{named_fields(details)}; report errorId {error_id}.",
        details,
        error_id=error_id,
    )


def declared_error(spec: SpecLike, failure: ToolFailure) -> dict[str, Any]:
    """A handler's failure as ErrorInfo: a declared code with its catalogue entry, any
    other code TOOL_ERROR (logged)."""
    declared = spec.errors.get(failure.code)
    if declared is None:
        try:
            raise BadReturn(f"undeclared error code {failure.code!r}") from failure
        except BadReturn:
            return internal_error(spec, f"Undeclared error code {failure.code!r}")
    message = failure.message
    if type(message) is not str:  # `message: string` in every outputSchema
        logger.warning("%s: a %s error's message is not text", spec.name, failure.code)
        message = "" if message is None else str(message)
    return error_info(
        failure.code,
        message,
        failure.details,
        retryable=declared.retryable,
        hint=declared.hint,
    )


def seal_error(
    spec: SpecLike,
    error: dict[str, Any],
    data: dict[str, Any] | None = None,
    content: Sequence[Content] = (),
) -> Sealed:
    envelope: dict[str, Any] = {"ok": False, "error": error, "meta": _meta(spec)}
    if data is not None:
        envelope["data"] = data
    try:
        text = compact(envelope)
    except ValueError:  # a NaN or a lone surrogate, from the handler
        # In its per-item data: INVALID_RESULT, which seal_return answers.
        if data is not None:
            raise
        unwritable = internal_error(spec, "An error answer that is not JSON text")
        envelope = {"ok": False, "error": unwritable, "meta": _meta(spec)}
        return Sealed(envelope, compact(envelope))
    return Sealed(envelope, text, tuple(ordered(content)))


def seal_ok(spec: SpecLike, data: Any, content: Sequence[Content] = ()) -> Sealed:
    envelope = {"ok": True, "data": data, "meta": _meta(spec)}
    return Sealed(envelope, compact(envelope), tuple(ordered(content)))


def seal_return(
    spec: SpecLike,
    returned: Any,
    check: DataCheck,
    declared: DeclaredContent | None = None,
    items: int | None = None,
) -> Sealed:
    """Seal what a handler returned (data, `Items`, a workflow's output, or a `Reply`
    of one of them). Anything its contract does not allow is INVALID_RESULT: data
    outside its schema, content it does not declare (`declared`: the tool's
    declaration, images of any type when None), a multi-item tool's results that are
    not one per item the handler received (`items`, when it has an items list)."""
    try:
        return _seal_return(spec, returned, check, declared or DeclaredContent(), items)
    except BadReturn as bad:
        return seal_error(spec, invalid_result(spec, bad))
    except Exception as exc:  # noqa: BLE001 -- nothing returned may escape unsealed
        # Not JSON at all (a NaN, an object to_wire cannot write): an invalid answer.
        unwritable = BadReturn(f"not JSON data: {type(exc).__name__}")
        return seal_error(spec, invalid_result(spec, unwritable))


def seal_failure(spec: SpecLike, failure: ToolFailure, check: DataCheck) -> Sealed:
    """Seal a `ToolFailure` a handler raised. For a multi-item tool with per-item data,
    completed items survive it (see `seal_return`)."""
    if spec.multi_item and failure.data is not None:
        rest = ToolFailure(failure.code, failure.message, failure.details)
        try:
            return _seal_return(
                spec,
                Reply(failure.data, secondary_failure=rest),
                check,
                DeclaredContent(),
            )
        except Exception:
            logger.exception("Invalid data with a failure of %s", spec.name)
    return seal_error(spec, declared_error(spec, failure))


def _all_failed(spec: SpecLike, data: dict[str, Any]) -> dict[str, Any]:
    count = data["metadata"]["multi_item"]["items_count"]
    return framework_error(
        "ALL_ITEMS_FAILED", f"All {count} item(s) of {spec.name} failed."
    )


def _miscounted(spec: SpecLike, results: int, items: int) -> dict[str, Any]:
    reason = (
        f"{results} result(s) for the {items} item(s) the handler received: "
        "one per item, in order"
    )
    where = {"field": "data.results", "reason": reason, "type": "multi_item"}
    error_id = _logged(spec, f"Invalid handler result ({reason})")
    return framework_error(
        "INVALID_RESULT",
        f"{spec.name} answered {results} result(s) for {items} item(s), not one per "
        f"item; report errorId {error_id}.",
        [where],
        error_id=error_id,
    )


def _seal_return(
    spec: SpecLike,
    returned: Any,
    check: DataCheck,
    declared: DeclaredContent,
    items: int | None = None,
) -> Sealed:
    content: Sequence[Content] = ()
    secondary: ToolFailure | None = None
    if isinstance(returned, Reply):
        content = [*returned.images, *returned.content]
        secondary = returned.secondary_failure
        returned = returned.data
        refused = declared.problems(content)
        if refused:
            raise BadReturn("content the tool does not declare", refused)
    if not spec.multi_item:
        if secondary is not None:
            raise BadReturn("only a multi-item tool reports a secondary failure")
        data = to_wire(returned)
        check(data)
        return seal_ok(spec, data, content)
    if spec.workflow and not isinstance(returned, Items):
        primary, failure = workflow_primary(spec.name, to_wire(returned))
        if primary is None:  # it failed before its primary step: no item was done
            return seal_error(spec, declared_error(spec, workflow_failure(failure)))
        if failure is not None and secondary is None:
            secondary = workflow_failure(failure)
        data = to_wire(primary)
    else:
        data = to_wire(returned)
    data = normalized(spec.name, data, getattr(spec, "operation_id", None))
    counts = data["metadata"]["multi_item"]
    completed = counts["items_succeeded_count"]
    if items is not None and secondary is None and counts["items_count"] != items:
        # Items left out (or made up) would read as a clean SUCCESS: the handler broke
        # the guide's §4. Its results stay beside the error, for what did complete. A
        # later step's failure says why items were not done: it is the answer's own.
        check(data)
        return seal_error(spec, _miscounted(spec, counts["items_count"], items), data)
    if secondary is None:
        check(data)
        if counts["items_count"] and not completed:
            # The call ran and every item failed: an error answer (isError), its
            # per-item evidence kept, so no agent reads total failure as success.
            return seal_error(spec, _all_failed(spec, data), data, content)
        return seal_ok(spec, data, content)
    error = declared_error(spec, secondary)
    if not completed:
        check(data)  # nothing completed: the call failed, its evidence kept
        return seal_error(spec, error, data, content)
    data.update(original_ok=False, secondary_error=error)
    check(data)
    return seal_ok(spec, data, content)
