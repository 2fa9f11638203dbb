"""`publish: portable` (decision 0075) inlines every `$ref` of each inputSchema: a tool whose
arguments reach a recursive type (or a pointer to an enclosing schema) cannot be published so.
Judged here, on the same schema the emitter rewrites, so the build stops with a located error
instead of publishing a form the user did not ask for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, diag
from toolc.model.portable import Recursive, portable
from toolc.model.schemas import DEFS_REF, args_object, pointer_segment, to_json_schema


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
    return {**schema, "$defs": {**schema.get("$defs", {}), **ctx.published_types}}


def recursive_in_portable(ctx: CheckContext) -> Iterator[Diagnostic]:
    # With schema errors (a salvaged project) the shapes are placeholders: nothing is judged.
    if ctx.project.publish != "portable" or ctx.project.damage is not None:
        return
    spans = ctx.project.spans
    for name in ctx.project.tools:
        try:
            portable(_arguments(ctx, name))
        except Recursive as found:
            ref = found.ref
            shown = ref[len(DEFS_REF) :] if ref.startswith(DEFS_REF) else ref
            yield diag(
                "portable-recursive",
                spans.tool(("tools", name, "args_schema"), key=True),
                f"tool '{name}' cannot be published in the portable form: its arguments reach "
                f"'{shown}', which contains itself, and a recursive schema cannot be inlined",
                "publish the standard form (drop `publish: portable`), or give the tool "
                "arguments without the recursive type",
            )


CHECKS = (recursive_in_portable,)
