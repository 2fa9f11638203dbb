"""The metadata lint reviewers apply, opt-in (`metadata_lint`, decision 0066): a tool without a
title, an argument or an enum without a description, a tool description shorter than a
sentence. Always computed (the compile is the same whatever the settings); the verbs drop them
unless asked (`METADATA_GROUP`)."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.diagnostics import CODES, Diagnostic, diag
from toolc.model.schemas import keywords_of, ref_name

METADATA_GROUP = "metadata"
MIN_WORDS, MIN_CHARS = 3, 16  # "Cancela um pedido." passes; "Cancela pedidos." does not


def titles(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name, tool in project.tools.items():
        if tool.knows("title") and not tool.decl.title:
            yield diag(
                "tool-without-title",
                project.spans.tool(("tools", name), key=True),
                f"tool '{name}' has no title: clients show one made from its name",
                "add `title:`, a short human-readable name (published as the tool's title)",
            )


def short_descriptions(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name, tool in project.tools.items():
        text = " ".join(tool.decl.description.split())
        if tool.knows("description") and (len(text.split()) < MIN_WORDS or len(text) < MIN_CHARS):
            yield diag(
                "description-too-short",
                project.spans.tool(("tools", name, "description")),
                f"the description of '{name}' is shorter than a sentence ({text!r})",
                "say what the tool does, to what, and what it answers, in at least a sentence: "
                "the model chooses among tools by it",
            )


def argument_descriptions(ctx: CheckContext) -> Iterator[Diagnostic]:
    """An argument is described by its own `description` or by its shared type's."""
    project = ctx.project
    for name, tool in project.tools.items():
        if not tool.knows("args_schema"):
            continue
        for arg, spec in tool.args.items():
            kw = keywords_of(spec)  # `true`/`false` carry no description
            ref = project.types.get(ref_name(kw.field_ref)) if kw and kw.field_ref else None
            typed = keywords_of(ref) if ref is not None else None
            if (kw and kw.description) or (typed is not None and typed.description):
                continue
            yield diag(
                "arg-without-description",
                project.spans.tool(("tools", name, "args_schema", arg), key=True),
                f"argument '{arg}' of '{name}' has no description",
                "add `description:` saying what the value is and how the model finds it",
            )


def enum_descriptions(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for node in ctx.nodes:
        kw = node.keywords
        if kw.enum is not None and not kw.description:
            yield diag(
                "enum-without-description",
                project.spans.tool((*node.path, "enum"), key=True),
                f"the enum at {'.'.join(map(str, node.path))} has no description of its values",
                "add `description:` saying what each value means (the names alone are not)",
            )


CHECKS = (titles, short_descriptions, argument_descriptions, enum_descriptions)


def shown(diagnostics: list[Diagnostic], metadata_lint: bool) -> list[Diagnostic]:
    """What a run reports: the metadata lint's only when it is on."""
    if metadata_lint:
        return diagnostics
    return [d for d in diagnostics if CODES[d.code].group != METADATA_GROUP]
