"""A pre-validator must accept every value its target accepts for each argument they share: the
server sends it the target's validated arguments, so a narrower schema fails those calls with
PRE_VALIDATION_FAILED at run time. Decided by the evolution engine's `accepts_all`; a proven
gap is an error, a gap toolc cannot decide (one regex against another) a warning."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.checks.types import alias_cycles
from toolc.contract.canonical import canonical_bytes
from toolc.diagnostics import Diagnostic, Note, Span, diag
from toolc.model import Project, ToolDecl
from toolc.model.schemas import (
    ANNOTATION_KEYS,
    Fragment,
    is_type_ref,
    keywords_of,
    ref_name,
    schema_of,
)
from toolc.model.structs import stated_fields
from toolc.model.tools_file import Schema, SchemaKeywords
from toolc.source.document import JsonPath

_YAML_KEYWORDS = {published: key for key, published in ANNOTATION_KEYS.items()}


def _follow(project: Project, path: JsonPath, node: Fragment) -> tuple[JsonPath, Fragment]:
    seen: set[str] = set()
    while (
        (kw := keywords_of(node)) is not None
        and (ref := kw.field_ref) is not None
        and is_type_ref(ref)
    ):
        name = ref_name(ref)
        if name in seen or name not in project.types:
            break
        seen.add(name)
        path, node = ("types", name), project.types[name]
    return path, node


def locate(project: Project, path: JsonPath, schema: Fragment, pointer: str) -> Span:
    """The place in tools.yaml of a pointer into a fragment, written through `$ref`s as if
    inline (as the evolution walk writes it): in the type declaration where a `$ref` leads, at
    the keyword where this side states it, else at the schema that would."""
    from toolc.evolution.places import segments  # the evolution engine loads only when needed

    parts = segments(pointer)
    index = 0
    while True:
        path, schema = _follow(project, path, schema)
        found_kw = keywords_of(schema)
        if index >= len(parts) or found_kw is None:  # `true`/`false`: no keyword to point at
            return project.spans.tool(path, key=True)
        kw: SchemaKeywords = found_kw
        part = parts[index]
        sub: Schema | None = None
        if part == "properties" and index + 1 < len(parts):
            found = (kw.properties or {}).get(parts[index + 1])
            sub = schema_of(found) if found is not None else None
            step: JsonPath = ("properties", parts[index + 1])
        elif part in ("items", "additionalProperties"):
            extra = kw.additionalProperties
            items = schema_of(kw.items) if kw.items is not None else None
            sub = items if part == "items" else extra if isinstance(extra, SchemaKeywords) else None
            step = (part,)
            if sub is None and part == "additionalProperties" and extra is not None:
                return project.spans.tool((*path, part))
        else:
            keyword = _YAML_KEYWORDS.get(part, part)
            field = "field_ref" if keyword == "$ref" else keyword
            if field in stated_fields(kw):
                return project.spans.tool((*path, keyword))
            return project.spans.tool(path, key=True)
        if sub is None:
            return project.spans.tool(path, key=True)
        path, schema, index = (*path, *step), sub, index + len(step)


def argument_values(
    ctx: CheckContext, target: ToolDecl, validator: ToolDecl
) -> Iterator[Diagnostic]:
    project = ctx.project
    if not (target.knows("args_schema", "accepts") and validator.knows("args_schema")):
        return
    loops = frozenset(name for cycle in alias_cycles(project) for name in cycle)
    document = {"$defs": ctx.published_types}
    for arg, handled in target.args.items():
        taken = validator.args.get(arg)
        # The validator is sent what the caller sent: the argument's `accepts`, if declared.
        sent = target.accepts.get(arg, handled)
        form = "accepts" if arg in target.accepts else "args_schema"
        sent_at: JsonPath = ("tools", target.name, form, arg)
        taken_at: JsonPath = ("tools", validator.name, "args_schema", arg)
        if taken is None or not (
            ctx.judgeable(sent_at, sent, loops) and ctx.judgeable(taken_at, taken, loops)
        ):
            continue
        wider, narrower = ctx.published_roots[taken_at], ctx.published_roots[sent_at]
        # The same schema, as validators usually declare it; as JSON (`true` is not `1`)
        if canonical_bytes(wider) == canonical_bytes(narrower):
            continue
        from toolc.evolution.inclusion import accepts_all  # loaded only when schemas differ

        found = accepts_all(wider, narrower, document, where=arg)
        if found.verdict == "yes":
            continue
        span = locate(project, taken_at, taken, found.pointer)
        note = Note(
            locate(project, sent_at, sent, found.narrower_at), f"'{target.name}' accepts this"
        )
        detail = f"from '{target.name}' to '{validator.name}', {found.detail}"
        if found.verdict == "no":
            yield diag(
                "prevalidator-narrower",
                span,
                f"pre-validator '{validator.name}' refuses values of '{arg}' that "
                f"'{target.name}' accepts ({detail})",
                f"the validator receives the arguments '{target.name}' accepted: make its "
                f"'{arg}' accept them all, or narrow '{target.name}''s",
                (note,),
            )
        else:
            yield diag(
                "prevalidator-undecided",
                span,
                f"toolc cannot tell whether pre-validator '{validator.name}' accepts every value "
                f"of '{arg}' that '{target.name}' accepts ({detail})",
                f"the validator receives the arguments '{target.name}' already validated: give "
                f"its '{arg}' the same schema, or a wider one",
                (note,),
            )
