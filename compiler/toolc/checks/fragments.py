"""Rules over single schema nodes and tool declarations: formats, patterns (ECMA-262), multi-item
results, the error catalogue."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext, SchemaNode
from toolc.contract.framework import FRAMEWORK_ERROR_CODES, MULTI_ITEM_FIELDS
from toolc.diagnostics import Diagnostic, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.emit.schemas import input_schema
from toolc.model import Project
from toolc.model.portable import Recursive
from toolc.model.portable import portable as portable_form
from toolc.model.schemas import Fragment, is_type_ref, keywords_of, ref_name, schema_of
from toolc.model.tools_file import SchemaOrBool
from toolc.runtime.server_keys import array_arguments, items_argument
from toolc.source.document import JsonPath
from toolc.source.scalar_offsets import inner_span
from toolc.validate.ecma_regex import Refused, translate

# fmt: off
FORMATS_2020_12 = frozenset((
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
    "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
    "json-pointer", "relative-json-pointer", "regex",
))
# fmt: on


def formats(ctx: CheckContext) -> Iterator[Diagnostic]:
    for node in ctx.nodes:
        fmt = node.keywords.format
        if fmt is not None and fmt not in FORMATS_2020_12:
            yield diag(
                "unknown-format",
                ctx.project.spans.tool((*node.path, "format")),
                f"format '{fmt}' is not defined by JSON Schema 2020-12"
                f"{did_you_mean(fmt, FORMATS_2020_12)}",
                "clients ignore unknown formats; fix the name if it is a typo",
            )


def stated_patterns(node: SchemaNode) -> Iterator[tuple[JsonPath, str, bool]]:
    """A node's regular expressions: its `pattern` and its `patternProperties` keys, each
    with where it is and whether it is a key."""
    if node.keywords.pattern is not None:
        yield (*node.path, "pattern"), node.keywords.pattern, False
    for key in node.keywords.patternProperties or {}:
        yield (*node.path, "patternProperties", key), key, True


def patterns(ctx: CheckContext) -> Iterator[Diagnostic]:
    """Each pattern read as ECMA-262 with the u flag (decision 0024): invalid there, or needing
    what the model's linear-time engine lacks, it is refused with a caret on the construct."""
    for node in ctx.nodes:
        for path, pattern, is_key in stated_patterns(node):
            yield from _pattern(ctx, path, pattern, is_key)


def _pattern(ctx: CheckContext, path: JsonPath, pattern: str, is_key: bool) -> Iterator[Diagnostic]:
    found = translate(pattern)
    if isinstance(found, Refused):
        for problem in found.problems:
            span = ctx.project.spans.tool(path, key=True) if is_key else inner_span(
                ctx.project.spans.tools,
                path,
                pattern,
                problem.offset,
                problem.offset + problem.length,
            )  # fmt: skip
            if found.invalid:
                message = f"pattern `{pattern}` is not a valid ECMAScript regular expression"
            else:
                message = f"pattern `{pattern}` cannot be checked by the model's engine"
            yield diag(
                "invalid-pattern" if found.invalid else "unsupported-pattern",
                span,
                f"{message} (offset {problem.offset}): {problem.message}",
                problem.hint,
            )


def _follow_refs(project: Project, schema: Fragment, path: JsonPath) -> tuple[Fragment, JsonPath]:
    """The schema a chain of root-level `$ref`s ends at, and where it is declared."""
    seen: set[str] = set()
    while (
        (kw := keywords_of(schema)) is not None
        and (ref := kw.field_ref) is not None
        and is_type_ref(ref)
    ):
        name = ref_name(ref)
        if name in seen or name not in project.types:
            break
        seen.add(name)
        schema, path = project.types[name], ("types", name)
    return schema, path


def _is_boolean(project: Project, value: SchemaOrBool) -> bool:
    schema = schema_of(value)
    if schema is None:
        return False
    found = keywords_of(_follow_refs(project, schema, ())[0])
    kind = found.type if found is not None else None
    if kind is None or isinstance(kind, str):
        return kind == "boolean"
    return list(kind) == ["boolean"]


def _is_string(project: Project, value: SchemaOrBool) -> bool:
    schema = schema_of(value)
    if schema is None:
        return False
    found = keywords_of(_follow_refs(project, schema, ())[0])
    kind = found.type if found is not None else None
    if kind is None or isinstance(kind, str):
        return kind == "string"
    return list(kind) == ["string"]


def multi_item(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name, tool in project.tools.items():
        spec = tool.decl.multi_item
        if spec is None or not ctx.judgeable(("tools", name, "multi_item", "item"), spec.item):
            continue  # a part replaced for a schema error: its status cannot be judged
        item = keywords_of(_follow_refs(project, spec.item, ())[0])  # None: `true`/`false`
        props = (item.properties if item is not None else None) or {}
        required = set((item.required if item is not None else None) or ())
        if not any(
            flag in props and flag in required and _is_boolean(project, props[flag])
            for flag in ("success", "ok")
        ):
            yield diag(
                "multi-item-status-missing",
                project.spans.tool(("tools", name, "multi_item", "item"), key=True),
                f"results of '{name}' carry no required boolean `success` or `ok`",
                "add `success: {type: boolean}` to the item's properties and to `required`",
            )
        named = spec.operation_id
        if named is not None and not (named in props and _is_string(project, props[named])):
            yield diag(
                "multi-item-operation-id-unknown",
                project.spans.tool(("tools", name, "multi_item", "operation_id")),
                f"operation_id '{named}' of '{name}' is no string property of its item",
                f"declare `{named}: {{type: string}}` in the item's properties, or name one",
            )
        yield from _items_argument(ctx, name)
        returns = tool.decl.returns
        if returns is not None and ctx.judgeable(("tools", name, "returns"), returns):
            resolved, where = _follow_refs(project, returns, ("tools", name, "returns"))
            kw = keywords_of(resolved)
            declared = (kw.properties if kw is not None else None) or {}
            for field in MULTI_ITEM_FIELDS:
                if field in declared:
                    yield diag(
                        "multi-item-reserved-field",
                        project.spans.tool((*where, "properties", field), key=True),
                        f"'{field}' is reserved: multi-item normalization puts it in the data "
                        f"of '{name}'",
                        "rename the field",
                    )


def _items_argument(ctx: CheckContext, name: str) -> Iterator[Diagnostic]:
    """A multi-item tool whose items the runtime cannot find: its calls carry no per-item
    idempotency keys (decision 0140). Judged on the inputSchema as served (in the portable
    form under `publish: portable`) by the runtime's own rule, so the warning and what the
    client and server do cannot disagree."""
    tool = ctx.project.tools[name]
    portable = ctx.project.publish == "portable"  # served with every `$ref` inlined
    direct = [a for a, spec in tool.args.items() if _typed_array(spec)]
    if len(direct) == 1 and not tool.accepts and not portable:
        return  # the one argument typed `array` itself: the runtime's choice, whatever else
    forms = [("args_schema", tool.args), ("accepts", tool.accepts)]
    if not all(ctx.judgeable(("tools", name, k, a), s) for k, m in forms for a, s in m.items()):
        return  # an argument replaced for a schema error: its type cannot be judged
    published = input_schema(tool, ctx.published_types)
    if portable:
        try:
            published = portable_form(published)
        except Recursive:  # no portable form: `portable-recursive` says so
            return
    if items_argument(published) is not None:
        return
    arrays = array_arguments(published)
    if arrays:
        listed = ", ".join(f"'{a}'" for a in arrays)
        found = f"takes several arrays ({listed}) and not one alone is typed `array` itself"
        fix = "keep the items in the one argument typed `array`; type the others through `$ref`"
    else:
        found = "takes no argument of type `array`"
        fix = "take the items in one argument of type `array` (or `list`)"
    yield diag(
        "multi-item-items-unknown",
        ctx.project.spans.tool(("tools", name, "multi_item"), key=True),
        f"multi-item tool '{name}' {found}: its calls carry no per-item idempotency keys",
        fix,
    )


def _typed_array(spec: Fragment) -> bool:
    """Typed `array` (or `list`) itself: what the runtime prefers among several arrays."""
    found = keywords_of(spec)
    return found is not None and found.type in ("array", "list")


def error_codes(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name, tool in project.tools.items():
        for code in tool.decl.errors or {}:
            if code in FRAMEWORK_ERROR_CODES:
                yield diag(
                    "reserved-error-code",
                    project.spans.tool(("tools", name, "errors", code), key=True),
                    f"'{code}' is a framework error code, part of every tool's contract",
                    "declare only domain codes; rename this one",
                )


CHECKS = (formats, patterns, multi_item, error_codes)
