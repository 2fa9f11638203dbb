"""`$ref`s other than `#/types/<Name>`: a JSON pointer must lead to a schema of the fragment it
is written in (an argument, `returns`, an item, a type; in `args_keywords`, the arguments
object); an anchor (`#name`) or a reference outside the fragment is refused, since toolc
publishes self-contained schemas and resolves only pointers. And the root `$defs` of
`args_keywords` shares the inputSchema's `$defs` with the shared types."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, diag
from toolc.model.schemas import MISSING, is_pointer, is_type_ref, resolve, walk
from toolc.source.document import JsonPath


def _problem(document: Any, ref: str) -> tuple[str, str, str] | None:
    """(code, message, fix) for a `$ref` that is not a type's, or None when it resolves."""
    if is_pointer(ref):
        target = resolve(document, ref)
        if target is MISSING or not isinstance(target, dict | bool):
            return (
                "unknown-ref",
                f"`$ref` '{ref}' points at no schema of this fragment",
                "a pointer is read from the root of the argument, `returns`, item or type it "
                "is written in (in `args_keywords`, from the arguments object); a shared type "
                "is `#/types/<Name>`",
            )
        return None
    if ref.startswith("#"):
        return (
            "unsupported-keyword",
            f"`$ref` '{ref}' names an anchor: `$anchor` is kept as an annotation, never resolved",
            "point at the schema with a JSON pointer, e.g. `#/$defs/<Name>`",
        )
    return (
        "unsupported-keyword",
        f"`$ref` '{ref}' is not local: toolc publishes self-contained schemas and fetches nothing",
        "copy the schema under `types:` (and write `#/types/<Name>`) or into `$defs`",
    )


def ref_problems(ctx: CheckContext) -> dict[JsonPath, tuple[str, str, str]]:
    """Every schema node whose `$ref` is not a type's and does not resolve, with why."""
    found: dict[JsonPath, tuple[str, str, str]] = {}
    for root, document, schema in ctx.pointer_documents:
        for path, kw in walk(schema, root):
            ref = kw.field_ref
            if ref is None or is_type_ref(ref):
                continue
            problem = _problem(document, ref)
            if problem is not None:
                found[path] = problem
    return found


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
