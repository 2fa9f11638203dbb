"""Descriptions against the schemas (ADR-016's debt 4: descriptions that still promised the
shape before the envelope). A tool description that names a result field its `returns` lacks,
or shows at the top of the answer a field that lives in `data`; a description that names an
argument the tool does not have; an action named like a query. What counts as naming is
`checks.mentions` (decision 0066)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from msgspec import UNSET

from toolc.checks.context import CheckContext
from toolc.checks.data_fields import ENVELOPE_KEYS, DataShape
from toolc.checks.mentions import Mention, argument_mentions, field_mentions
from toolc.contract.canonical import canonical_json
from toolc.contract.framework import FRAMEWORK_ERROR_CODES, MULTI_ITEM_FIELDS
from toolc.diagnostics import Diagnostic, Span, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.model import Project, ToolDecl
from toolc.model.schemas import keywords_of, walk
from toolc.source.document import JsonPath
from toolc.source.scalar_offsets import inner_span

# The first word of a name that reads as reading, not acting (English and Portuguese).
QUERY_VERBS = frozenset({
    "get", "list", "fetch", "read", "search", "find", "lookup", "query", "describe", "show",
    "view", "count", "consultar", "listar", "buscar", "obter", "pesquisar", "ver",
})  # fmt: skip
_FIRST_WORD = re.compile(r"[_\-.]|(?<=[a-z0-9])(?=[A-Z])")


def _at(project: Project, path: JsonPath, text: str, mention: Mention) -> Span:
    return inner_span(project.spans.tools, path, text, mention.start, mention.end)


def description_fields(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name, tool in project.tools.items():
        if not tool.knows("description", "returns", "multi_item"):
            continue
        if tool.knows("proxy") and tool.decl.proxy is not None:
            continue  # its origin's answer, no envelope: its fields are at the root
        text = tool.decl.description
        shape = DataShape(tool, project.types)
        path = ("tools", name, "description")
        for mention in field_mentions(text):
            found = _field(name, shape, mention)
            if found is not None:
                code, message, hint = found
                yield diag(code, _at(project, path, text, mention), message, hint)


def _field(tool: str, shape: DataShape, mention: Mention) -> tuple[str, str, str] | None:
    """(code, message, hint) for a mention the declared data does not back, else None."""
    if mention.form == "shape" and mention.path[0] in ENVELOPE_KEYS:
        return None
    if mention.form == "shape" and shape.lookup(mention.path).found:
        field = mention.path[0]
        return (
            "description-field-outside-data",
            f"the description of '{tool}' shows `{field}` at the top of the answer, but "
            f"the envelope carries it in `data`",
            f"write `data.{field}` (the answer is {{ ok, data, meta }})",
        )
    shown = ("data." if mention.form == "data" else "") + ".".join(mention.path)
    looked = shape.lookup(mention.path)
    if looked.found or looked.undecidable:
        return None
    if not shape.declared:
        return (
            "description-unknown-field",
            f"the description of '{tool}' names the field `{shown}`, but the tool declares no "
            "`returns`",
            f"declare `{mention.path[0]}` under `returns:`, or reword the description",
        )
    missing = mention.path[looked.depth]
    where = "data" if looked.depth == 0 else "data." + ".".join(mention.path[: looked.depth])
    return (
        "description-unknown-field",
        f"the description of '{tool}' names `{shown}`, but `{where}` has no field "
        f"'{missing}'{did_you_mean(missing, looked.siblings)}",
        "name a declared field, or declare this one in `returns:`",
    )


def _as_written(value: object) -> str:
    """A value as a description names it: a string as it is, anything else as JSON."""
    return value if isinstance(value, str) else canonical_json(value)


def _known_names(project: Project, tool: ToolDecl) -> set[str]:
    """Every name a backticked word may rightly be, besides an argument."""
    known = {*ENVELOPE_KEYS, *FRAMEWORK_ERROR_CODES, *MULTI_ITEM_FIELDS, *project.tools}
    known |= {*project.types, *(tool.decl.errors or {})}
    schemas = [*tool.args.values(), *tool.accepts.values(), *project.types.values()]
    if tool.decl.returns is not None:
        schemas.append(tool.decl.returns)
    if tool.decl.multi_item is not None:
        schemas.append(tool.decl.multi_item.item)
    for schema in schemas:
        for _, kw in walk(schema, ()):
            known |= set(kw.properties or {})
            # as a description writes them: JSON's `true`, not Python's `True`
            known |= {_as_written(v) for v in (kw.enum or ())}
            if kw.const is not UNSET and kw.const is not None:  # a stated, non-null const
                known.add(_as_written(kw.const))
    return known


def argument_names(ctx: CheckContext) -> Iterator[Diagnostic]:
    """In the tool's description and its arguments' descriptions."""
    project = ctx.project
    for name, tool in project.tools.items():
        if not tool.knows("description", "args_schema", "accepts"):
            continue
        args = {*tool.args, *tool.accepts}
        texts: list[tuple[JsonPath, str]] = [
            (("tools", name, "description"), tool.decl.description)
        ]
        for key, specs in (("args_schema", tool.args), ("accepts", tool.accepts)):
            texts += [
                (("tools", name, key, arg, "description"), text)
                for arg, spec in specs.items()
                if (kw := keywords_of(spec)) is not None and (text := kw.description)
            ]
        known: set[str] | None = None
        for path, text in texts:
            for mention in argument_mentions(text):
                word = mention.path[0]
                if len(mention.path) > 1 or word in args:
                    continue
                if mention.form == "backticked":
                    known = known if known is not None else _known_names(project, tool)
                    near = difflib.get_close_matches(word, sorted(args), n=1, cutoff=0.8)
                    if word in known or not near:
                        continue
                yield diag(
                    "description-unknown-arg",
                    _at(project, path, text, mention),
                    f"a description of '{name}' names the argument `{word}`, which '{name}' "
                    f"does not have{did_you_mean(word, args)}",
                    "name one of its arguments, or declare this one in `args_schema:`",
                )


def query_names(ctx: CheckContext) -> Iterator[Diagnostic]:
    """An action (transactional) whose name reads as a query: agents and reviewers take the
    name at its word and call it freely."""
    project = ctx.project
    for name, tool in project.tools.items():
        # Both files must call it an action: a disagreement is operation-type-mismatch's.
        action = tool.decl.tool_type == "action" and tool.operation_type == "transactional"
        if not tool.knows("operation_type", "tool_type") or not action:
            continue
        first = _FIRST_WORD.split(name, maxsplit=1)[0].lower()
        if first in QUERY_VERBS:
            yield diag(
                "action-named-like-query",
                project.spans.tool(("tools", name), key=True),
                f"tool '{name}' is transactional (an action), but its name starts with "
                f"'{first}', which reads as read-only",
                "name it for what it changes (cancel_, update_, create_), or make it a query "
                "(`tool_type: query`) if it only reads",
            )


CHECKS = (description_fields, argument_names, query_names)
