"""A proxied tool's answer, as the typed client reads it (decision 0084): no envelope,
the origin's result itself. `Success.data` is its `structuredContent` typed by the
published outputSchema (the origin's); an error result is a `Failure` with code
`TOOL_ERROR` and the origin's text as the message (an origin's error has no code)."""

from __future__ import annotations

from typing import Any

from mcp import types
from pydantic import ValidationError

from .client_envelope import (
    ClientSpecLike,
    Envelope,
    ErrorReport,
    Failure,
    ResultMeta,
    Success,
    ToolCallError,
    _fit,
)


def is_proxied(spec: object) -> bool:
    return getattr(spec, "proxy", None) is not None


def parse_proxied(spec: ClientSpecLike, result: types.CallToolResult) -> Envelope[Any]:
    meta = ResultMeta(spec.name, spec.version)  # the origin's answer carries none
    got = result.structured_content or {}
    texts = [b.text for b in result.content if isinstance(b, types.TextContent)]
    others = tuple(b for b in result.content if not isinstance(b, types.TextContent))
    if result.is_error:
        text = "\n".join(texts) or "The origin reported an error."
        error = ErrorReport("TOOL_ERROR", text)
        return Failure(error, meta, envelope=got, content=others)
    if result.structured_content is None:  # an origin without outputSchema: text only
        return Success(None, meta, None, (), got, tuple(result.content))
    try:
        typed, dropped = _fit(spec.data_model, result.structured_content)
    except ValidationError as exc:
        why = f"structured content that does not fit contract {spec.version}: {exc}"
        raise ToolCallError(spec.name, why, envelope=got) from exc
    return Success(typed, meta, None, dropped, got, others)
