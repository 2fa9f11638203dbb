"""`$ref`s other than `#/types/<Name>`: a JSON pointer must lead to a schema of the fragment it
is written in (an argument, `returns`, an item, a type; in `args_keywords`, the arguments
object); an anchor (`#name`) or a reference outside the fragment is refused, since toolc
publishes self-contained schemas and resolves only pointers. And the root `$defs` of
`args_keywords` shares the inputSchema's `$defs` with the shared types."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, diag


def pointers(ctx: CheckContext) -> Iterator[Diagnostic]:
    for path, (code, message, fix) in ctx.ref_problems.items():
        yield diag(code, ctx.project.spans.tool((*path, "$ref")), message, fix)


def root_defs(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name, tool in project.tools.items():
        keywords = tool.decl.args_keywords
        if keywords is None or not keywords.field_defs:
            continue
        for entry in keywords.field_defs:
            if entry in project.types:
                yield diag(
                    "defs-collision",
                    project.spans.tool(("tools", name, "args_keywords", "$defs", entry), key=True),
                    f"`$defs` entry '{entry}' has the name of the shared type '{entry}': the "
                    "inputSchema publishes both in its root `$defs`",
                    "rename the entry and the pointers to it",
                )


CHECKS = (pointers, root_defs)
