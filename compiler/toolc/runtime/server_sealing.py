"""The response envelope (ADR-016) as the server seals it, and the multi-item guide's
normalization (§4–5): what a handler returns becomes `{ok, data, meta}` or
`{ok: false, error, meta, data?}`, the same JSON in `structuredContent` and in one text
block. Config-independent: a tool is described by the `SpecLike` protocol, which the
generated `registry.ToolSpec` satisfies."""

from __future__ import annotations

import json
import logging
import sys
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcp import types
from pydantic import BaseModel

from .server_types import Image, Items, Reply, SpecLike, ToolFailure

logger = logging.getLogger(__name__)

FRAMEWORK_ERROR_CODES = (
    "VALIDATION_ERROR",
    "TOOL_ERROR",
    "CONFIRMATION_DECLINED",
    "CONFIRMATION_UNAVAILABLE",
    "PRE_VALIDATION_REJECTED",
    "PRE_VALIDATION_FAILED",
)

# What the framework says about its own codes: (retryable, hint); None leaves it out.
FRAMEWORK_ERRORS: Mapping[str, tuple[bool | None, str | None]] = {
    "VALIDATION_ERROR": (False, "Fix the arguments listed in details and call again."),
    "TOOL_ERROR": (None, None),
    "CONFIRMATION_DECLINED": (False, None),
    "CONFIRMATION_UNAVAILABLE": (
        False,
        (
            "This tool needs the user's confirmation: use an MCP client that supports "
            "form elicitation."
        ),
    ),
    "PRE_VALIDATION_REJECTED": (False, None),
    "PRE_VALIDATION_FAILED": (None, None),
}

MULTI_ITEM_STATUSES = ("SUCCESS", "PARTIAL_SUCCESS", "FAILED")


@dataclass(frozen=True, slots=True)
class Sealed:
    """A sealed call result: the envelope and its compact JSON text."""

    envelope: dict[str, Any]
    text: str
    images: tuple[Image, ...] = ()

    @property
    def ok(self) -> bool:
        return bool(self.envelope["ok"])

    def result(self) -> types.CallToolResult:
        content: list[types.ContentBlock] = [i.block() for i in self.images]
        content.append(types.TextContent(type="text", text=self.text))
        return types.CallToolResult(
            content=content, structured_content=self.envelope, is_error=not self.ok
        )


class BadReturn(Exception):
    """A handler returned something its tool's contract does not allow."""


DataCheck = Callable[[Any], object]
"""Validates a tool's wire `data` (raises on an invalid value)."""


def compact(value: Any) -> str:
    """The wire text: compact JSON, non-ASCII kept, NaN and infinities refused."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def to_wire(value: Any) -> Any:
    """A handler's value as JSON data: models by alias with the fields that were set."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, Items):
        return {**to_wire(value.fields), "results": to_wire(list(value.results))}
    if isinstance(value, Mapping):
        return {str(k): to_wire(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_wire(v) for v in value]
    return value


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


def internal_error(spec: SpecLike, what: str) -> dict[str, Any]:
    """TOOL_ERROR for a failure whose particulars stay in the server's log (call it
    inside the `except` block to log the traceback)."""
    error_id = new_error_id()
    # The traceback when called while handling an exception, none otherwise.
    current = sys.exc_info()[1]
    logger.error(
        "%s in tool %s (errorId %s)", what, spec.name, error_id, exc_info=current
    )
    return framework_error(
        "TOOL_ERROR",
        f"The tool failed unexpectedly; report errorId {error_id}.",
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
    return error_info(
        failure.code,
        failure.message,
        failure.details,
        retryable=declared.retryable,
        hint=declared.hint,
    )


def seal_error(
    spec: SpecLike, error: dict[str, Any], data: dict[str, Any] | None = None
) -> Sealed:
    envelope: dict[str, Any] = {"ok": False, "error": error, "meta": _meta(spec)}
    if data is not None:
        envelope["data"] = data
    return Sealed(envelope, compact(envelope))


def _item_ok(item: Any) -> bool:
    if isinstance(item, Mapping):
        flag = item["success"] if "success" in item else item.get("ok")
        if isinstance(flag, bool):
            return flag
    raise BadReturn("every item of results needs a boolean `success` or `ok`")


def normalize_multi_item(tool: str, data: Any) -> dict[str, Any]:
    """The guide's §5 fields over `data.results` (wire form), replacing any the handler
    set: `multi_item_status`, `partial_success`, `metadata.multi_item`."""
    if not isinstance(data, Mapping) or not isinstance(data.get("results"), list):
        raise BadReturn("a multi-item tool's data needs a `results` list")
    outcomes = [_item_ok(item) for item in data["results"]]
    succeeded = sum(outcomes)
    failed = len(outcomes) - succeeded
    status = "PARTIAL_SUCCESS" if succeeded and failed else "FAILED"
    if not failed:
        status = "SUCCESS"
    metadata = data.get("metadata")
    metadata = dict(metadata) if isinstance(metadata, Mapping) else {}
    metadata["multi_item"] = {
        "status": status,
        "items_count": len(outcomes),
        "items_succeeded_count": succeeded,
        "items_failed_count": failed,
        "primary_tool": tool,
    }
    normalized = {
        k: v for k, v in data.items() if k not in ("original_ok", "secondary_error")
    }
    normalized.update(
        multi_item_status=status,
        partial_success=status == "PARTIAL_SUCCESS",
        metadata=metadata,
    )
    return normalized


def workflow_primary(tool: str, run: Any) -> tuple[dict[str, Any], Any]:
    """A workflow's output: `output[<tool>]` (whose `results` are authoritative) and the
    run's own failure, when it reports `ok: false` (`{ok, result: {status, output},
    error}`, or `{status, output}` without the wrapper)."""
    if not isinstance(run, Mapping):
        raise BadReturn("a workflow-backed tool returns the workflow's output")
    failure: Any = None
    inner: Any = run
    if "result" in run and "output" not in run:
        inner = run["result"]
        if run.get("ok") is False:
            failure = run.get("error") or "workflow failed"
    output = inner.get("output") if isinstance(inner, Mapping) else None
    primary = output.get(tool) if isinstance(output, Mapping) else None
    if not isinstance(primary, Mapping):
        raise BadReturn(f"the workflow output has no output[{tool!r}]")
    return dict(primary), failure


def _workflow_failure(failure: Any) -> ToolFailure:
    if isinstance(failure, ToolFailure):
        return failure
    if isinstance(failure, Mapping) and isinstance(failure.get("code"), str):
        return ToolFailure(
            failure["code"], str(failure.get("message", "")), failure.get("details")
        )
    # Free text from a workflow step is internal: it is logged, not sent.
    return ToolFailure("", f"workflow failure: {failure!r}")


def seal_ok(spec: SpecLike, data: Any, images: Sequence[Image] = ()) -> Sealed:
    envelope = {"ok": True, "data": data, "meta": _meta(spec)}
    return Sealed(envelope, compact(envelope), tuple(images))


def seal_return(spec: SpecLike, returned: Any, check: DataCheck) -> Sealed:
    """Seal what a handler returned (data, `Items`, a workflow's output, or a `Reply`
    of one of them). Anything its contract does not allow becomes TOOL_ERROR."""
    try:
        return _seal_return(spec, returned, check)
    except Exception:  # noqa: BLE001 -- nothing a handler returns may escape unsealed
        return seal_error(spec, internal_error(spec, "Invalid handler result"))


def seal_failure(spec: SpecLike, failure: ToolFailure, check: DataCheck) -> Sealed:
    """Seal a `ToolFailure` a handler raised. For a multi-item tool with per-item data,
    completed items survive it (see `seal_return`)."""
    if spec.multi_item and failure.data is not None:
        rest = ToolFailure(failure.code, failure.message, failure.details)
        try:
            return _seal_return(
                spec, Reply(failure.data, secondary_failure=rest), check
            )
        except Exception:
            logger.exception("Invalid data with a failure of %s", spec.name)
    return seal_error(spec, declared_error(spec, failure))


def _seal_return(spec: SpecLike, returned: Any, check: DataCheck) -> Sealed:
    images: Sequence[Image] = ()
    secondary: ToolFailure | None = None
    if isinstance(returned, Reply):
        images, secondary = returned.images, returned.secondary_failure
        returned = returned.data
    if not spec.multi_item:
        if secondary is not None:
            raise BadReturn("only a multi-item tool reports a secondary failure")
        data = to_wire(returned)
        check(data)
        return seal_ok(spec, data, images)
    if spec.workflow and not isinstance(returned, Items):
        primary, failure = workflow_primary(spec.name, to_wire(returned))
        if failure is not None and secondary is None:
            secondary = _workflow_failure(failure)
        data = to_wire(primary)
    else:
        data = to_wire(returned)
    data = normalize_multi_item(spec.name, data)
    if secondary is None:
        check(data)
        return seal_ok(spec, data, images)
    error = declared_error(spec, secondary)
    if data["metadata"]["multi_item"]["items_succeeded_count"] == 0:
        check(data)  # nothing completed: the call failed, its evidence kept
        sealed = seal_error(spec, error, data)
        return Sealed(sealed.envelope, sealed.text, tuple(images))
    data.update(original_ok=False, secondary_error=error)
    check(data)
    return seal_ok(spec, data, images)
