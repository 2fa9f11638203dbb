"""What the official Python MCP client refuses in a tool's outputSchema. Before it checks a
result it checks the schema itself against its metaschema, with formats: each `pattern`
and `patternProperties` key must be a regular expression *Python's* `re` compiles. A
pattern in ECMA-262 syntax `re` lacks (`\\p{L}`, `(?<name>...)`, `\\u{1F600}`, `[^]`) is
right for JavaScript clients and toolc's own, and fails every call of the tool there
("Invalid schema for tool ..."). Arguments are not checked by that client: only results."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.checks.fragments import stated_patterns
from toolc.diagnostics import Diagnostic, diag
from toolc.emit.schemas import reachable_defs
from toolc.source.document import JsonPath


def _results(ctx: CheckContext) -> set[JsonPath]:
    """The fragments an outputSchema holds: each tool's `returns` and multi-item `item`,
    and the shared types they reach."""
    outputs = {
        root
        for root in ctx.published_roots
        if len(root) > 2 and root[0] == "tools" and root[2] in ("returns", "multi_item")
    }
    reached = {
        name
        for root in outputs
        for name in reachable_defs(ctx.published_roots[root], ctx.published_types)
    }
    return outputs | {("types", name) for name in reached}


def _python_refuses(pattern: str) -> str | None:
    """Why Python's `re` does not compile `pattern` (None: it does)."""
    try:
        with warnings.catch_warnings():  # a FutureWarning is no refusal
            warnings.simplefilter("ignore")
            re.compile(pattern)
    except re.error as exc:
        return str(exc)
    return None


def python_client_patterns(ctx: CheckContext) -> Iterator[Diagnostic]:
    results: set[JsonPath] | None = None
    for node in ctx.nodes:
        for path, pattern, is_key in stated_patterns(node):
            if (why := _python_refuses(pattern)) is None:
                continue
            results = _results(ctx) if results is None else results
            if node.root not in results:
                continue
            yield diag(
                "pattern-python-client",
                ctx.project.spans.tool(path, key=is_key),
                f"pattern `{pattern}` is in a result's schema, and the official Python MCP "
                f"client refuses every answer of the tool for it: Python's `re` reads no "
                f"such pattern ({why})",
                "write it in syntax both ECMA-262 and Python read (a class such as "
                "`[A-Z]` for `\\p{Lu}`, `(?:...)` for a named group), or keep it on arguments, "
                "which that client does not check",
            )


CHECKS = (python_client_patterns,)
