"""The schemas themselves must be valid JSON Schema 2020-12, satisfiable, and agree with the
values they state about themselves (`default`, `const`, `enum`, `examples`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema_rs
from msgspec import UNSET

from toolc.checks.context import CheckContext, SchemaNode
from toolc.checks.types import alias_cycles
from toolc.diagnostics import Diagnostic, diag
from toolc.model.schemas import is_pointer, is_type_ref, ref_name, refs_in
from toolc.model.tools_file import SchemaKeywords
from toolc.source.document import JsonPath
from toolc.validate.ecma_regex import Refused, translate
from toolc.validate.rust_patterns import VALUE_KEYWORDS, with_model_patterns

_OWN_VALUE_KEYWORDS = VALUE_KEYWORDS


def validity(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    broken: set[object] = set()
    for root, exc in ctx.invalid_roots.items():
        broken.add(root)
        yield diag(
            "invalid-arg-schema",
            project.spans.tool((*root, *exc.instance_path)),
            f"not valid JSON Schema 2020-12: {exc.message}",
        )
    for node in ctx.nodes:
        if node.root in broken:
            continue
        for keyword, message in ctx.unsatisfiable.get(node.path, ()):
            yield diag(
                "invalid-arg-schema",
                project.spans.tool((*node.path, keyword)),
                message,
                "loosen one of these bounds so that some value is allowed",
            )


def _own_values(kw: SchemaKeywords) -> Iterator[tuple[tuple[str | int, ...], str, Any]]:
    """The values a schema states about itself: (path below the schema, what, value)."""
    if kw.default is not UNSET:
        yield ("default",), "default", kw.default
    if kw.const is not UNSET:
        yield ("const",), "const", kw.const
    for index, value in enumerate(kw.enum or ()):
        yield ("enum", index), "enum value", value
    for index, value in enumerate(kw.examples or ()):
        yield ("examples", index), "example", value


def _skipped(ctx: CheckContext) -> tuple[set[JsonPath], set[str]]:
    """The schema nodes whose stated values are not judged, and the types left out of the
    validator: a node holding an undeclared `$ref` or a pattern that does not compile or is not
    portable (no validator can be built for it), a node of a fragment that is not valid JSON
    Schema or whose bounds admit no value (its values would only repeat that error), a type in a
    loop of bare `$ref`s or holding such a node, a node referring to such a type, and every node
    above one of those. Both empty in a config without such mistakes."""
    project = ctx.project
    own: set[JsonPath] = set(ctx.unsatisfiable)
    for node in ctx.nodes:
        ref = node.keywords.field_ref
        pattern = node.keywords.pattern
        if (
            node.root in ctx.invalid_roots
            or (ref is not None and is_type_ref(ref) and ref_name(ref) not in project.types)
            or node.path in ctx.ref_problems
            or (node.root[-1] == "args_keywords" and ref is not None and is_pointer(ref))
            or (pattern is not None and isinstance(translate(pattern), Refused))
            or any(
                isinstance(translate(key), Refused) for key in node.keywords.patternProperties or {}
            )
        ):
            own.add(node.path)
    loops = {name for cycle in alias_cycles(project) for name in cycle}
    if not own and not loops:
        return own, loops
    bad_types = loops | {str(path[1]) for path in own if path[0] == "types"}
    edges = {name: {n for _, n in refs_in(schema)} for name, schema in project.types.items()}
    grew = True
    while grew:  # a type that reaches a bad type is bad too
        before = len(bad_types)
        bad_types |= {name for name, refs in edges.items() if refs & bad_types}
        grew = len(bad_types) != before
    bad = set(own)
    for node in ctx.nodes:
        ref = node.keywords.field_ref
        if ref is not None and is_type_ref(ref) and ref_name(ref) in bad_types:
            bad.add(node.path)
    # A node above a bad one holds it: its values cannot be judged without it.
    return bad | {path[:n] for path in bad for n in range(len(path))}, bad_types


# Schemas per batch: one validator per batch is cheap to build, and the batches bound the
# memory the compiled schemas take (a single batch for 5,000 tools held ~100 MB at once).
BATCH = 500


def defaults(ctx: CheckContext) -> Iterator[Diagnostic]:
    """Stated values are checked in batches: one validator whose `$defs` hold the shared types
    and, under names no type can have, each schema of the batch that states a value (measured:
    one validator per schema cost more to build than the checking itself)."""
    skipped, types = _skipped(ctx)  # their own checks report why
    stating = [
        (n, node)
        for n, node in enumerate(ctx.nodes)
        if _has_values(node.keywords) and (not skipped or node.path not in skipped)
    ]
    for start in range(0, len(stating), BATCH):
        yield from _check_batch(ctx, stating[start : start + BATCH], types)


def _has_values(kw: SchemaKeywords) -> bool:
    return bool(kw.enum or kw.examples or kw.default is not UNSET or kw.const is not UNSET)


def _check_batch(
    ctx: CheckContext, batch: list[tuple[int, SchemaNode]], skipped_types: set[str]
) -> Iterator[Diagnostic]:
    defs: dict[str, Any] = {
        name: schema for name, schema in ctx.published_types.items() if name not in skipped_types
    }
    defs.update(ctx.pointing_roots)
    properties: dict[str, Any] = {}
    instance: dict[str, Any] = {}
    stated: dict[str, tuple[JsonPath, str]] = {}
    for number, node in batch:
        own = ctx.published[node.path]
        defs[f"-{number}"] = {k: v for k, v in own.items() if k not in _OWN_VALUE_KEYWORDS}
        for where, what, value in _own_values(node.keywords):
            key = f"{len(instance)}"
            properties[key] = {"$ref": f"#/$defs/-{number}"}
            instance[key] = value
            stated[key] = ((*node.path, *where), what)
    if not instance:
        return
    originals: dict[str, str] = {}
    schema = with_model_patterns({"$defs": defs, "properties": properties}, originals)
    try:
        validator = jsonschema_rs.validator_for(
            schema, pattern_options=jsonschema_rs.RegexOptions()
        )
    except (jsonschema_rs.ValidationError, ValueError):
        return  # a schema the other checks already refuse; its values cannot be judged yet
    reported: set[str] = set()
    for error in validator.iter_errors(instance):
        key = str(error.instance_path[0])
        if key in reported:
            continue
        reported.add(key)
        path, what = stated[key]
        message = error.message
        rust = getattr(error.kind, "pattern", None)
        if isinstance(rust, str) and rust in originals:  # say the pattern as the user wrote it
            message = message.replace(f'"{rust}"', f'"{originals[rust]}"')
        yield diag(
            "invalid-default",
            ctx.project.spans.tool(path),
            f"{what} does not match its schema: {message}",
        )


def required_false(ctx: CheckContext) -> Iterator[Diagnostic]:
    """An argument whose schema is `false` (directly or as a shared type) can only be absent:
    required, it makes the tool impossible to call."""
    project = ctx.project
    for name, tool in project.tools.items():
        if not tool.knows("args_schema", "requires"):
            continue
        for arg in tool.requires:
            spec = tool.args.get(arg)
            if spec is None or ctx.published_roots.get(("tools", name, "args_schema", arg)) is None:
                continue
            if _nothing(ctx, ctx.published_roots[("tools", name, "args_schema", arg)]):
                yield diag(
                    "invalid-arg-schema",
                    project.spans.tool(("tools", name, "args_schema", arg)),
                    f"argument '{arg}' is `false` (no value is valid) and required: "
                    f"nothing is valid, '{name}' can never be called",
                    f"remove '{arg}' from `requires`, or give it a schema some value satisfies",
                )


def _nothing(ctx: CheckContext, published: Any) -> bool:
    """`false`, or a `$ref` (alone) to a shared type that is `false`."""
    seen: set[str] = set()
    while isinstance(published, dict) and set(published) == {"$ref"}:
        ref = published["$ref"]
        if not (isinstance(ref, str) and ref.startswith("#/$defs/")) or ref in seen:
            return False
        seen.add(ref)
        published = ctx.published_roots.get(("types", ref.removeprefix("#/$defs/")))
    return published is False


CHECKS = (validity, defaults, required_false)
