"""`publish: portable` (decisions 0075, 0106) inlines every `$ref` of each inputSchema and
outputSchema: a tool whose arguments or data reach a recursive type (or a pointer to an
enclosing schema) cannot be published so.
Judged here, on the same schema the emitter rewrites, so the build stops with a located error
instead of publishing a form the user did not ask for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, diag
from toolc.emit.schemas import reachable_defs
from toolc.model.portable import Recursive, portable
from toolc.model.schemas import DEFS_REF, args_object, pointer_segment, to_json_schema

# Where the outputSchema holds the data (emit.schemas.DATA_BASE): its pointers are rebased there.
DATA = "envelope.Data"
DATA_BASE = f"/$defs/{DATA}"


def _arguments(ctx: CheckContext, name: str) -> dict[str, Any]:
    """The tool's inputSchema as a caller sees it (each `accepts` form in place), with every
    shared type beside it."""
    tool = ctx.project.tools[name]
    schema = args_object(tool)
    for arg, accepted in tool.accepts.items():
        if arg in schema["properties"]:
            schema["properties"][arg] = to_json_schema(
                accepted, f"/properties/{pointer_segment(arg)}"
            )
    return {**schema, "$defs": {**schema.get("$defs", {}), **_reached(schema, ctx)}}


def _data(ctx: CheckContext, name: str) -> dict[str, Any] | None:
    """The tool's data as its outputSchema holds it (under `$defs`, a multi-item tool's item
    in its `results`), with every shared type beside it; None when it declares none (the
    envelope's own parts contain no `$ref` of the user's)."""
    tool = ctx.project.tools[name]
    returns = tool.decl.returns
    multi = tool.decl.multi_item
    if tool.decl.proxy is not None or (returns is None and multi is None):
        return None  # a proxied tool publishes its origin's schemas as declared
    data = to_json_schema(returns, DATA_BASE) if returns is not None else {}
    if multi is not None:
        item = to_json_schema(multi.item, f"{DATA_BASE}/properties/results/items")
        own = data if isinstance(data, dict) else {}
        results = {"results": {"items": item}}
        data = {**own, "properties": {**own.get("properties", {}), **results}}
    defs = {**_reached(data, ctx), DATA: data}
    return {"$ref": f"#{DATA_BASE}", "$defs": defs}


def _reached(schema: Any, ctx: CheckContext) -> dict[str, Any]:
    """The shared types `schema` reaches, as a published schema holds them: a recursive
    type no tool uses is no tool's concern (`unused-type` says so)."""
    return reachable_defs(schema, ctx.published_types)


def _recursive(schema: dict[str, Any]) -> str | None:
    try:
        portable(schema)
    except Recursive as found:
        ref = found.ref
        return ref[len(DEFS_REF) :] if ref.startswith(DEFS_REF) else ref
    return None


def recursive_in_portable(ctx: CheckContext) -> Iterator[Diagnostic]:
    # With schema errors (a salvaged project) the shapes are placeholders: nothing is judged.
    if ctx.project.publish != "portable" or ctx.project.damage is not None:
        return
    spans = ctx.project.spans
    for name in ctx.project.tools:
        data = _data(ctx, name)
        judged = [("args_schema", "arguments", _arguments(ctx, name))]
        judged += [] if data is None else [("returns", "data", data)]
        for key, what, schema in judged:
            shown = _recursive(schema)
            if shown is None:
                continue
            yield diag(
                "portable-recursive",
                spans.tool(("tools", name, key), key=True),
                f"tool '{name}' cannot be published in the portable form: its {what} reach "
                f"'{shown}', which contains itself, and a recursive schema cannot be inlined",
                f"publish the standard form (drop `publish: portable`), or give the tool "
                f"{what} without the recursive type",
            )
            break


CHECKS = (recursive_in_portable,)
