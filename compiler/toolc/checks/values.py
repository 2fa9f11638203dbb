"""The schemas themselves must be valid JSON Schema 2020-12, satisfiable, and agree with the
values they state about themselves (`default`, `const`, `enum`, `examples`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema_rs

from toolc.checks.context import CheckContext
from toolc.checks.types import alias_cycles
from toolc.diagnostics import Diagnostic, diag
from toolc.model.tools_file import SchemaKeywords
from toolc.source import JsonPath

_OWN_VALUE_KEYWORDS = ("default", "examples", "enum", "const")


def _bound_problems(kw: SchemaKeywords) -> Iterator[tuple[str, str]]:
    pairs = (
        ("minimum", kw.minimum, "maximum", kw.maximum),
        ("minLength", kw.minLength, "maxLength", kw.maxLength),
        ("minItems", kw.minItems, "maxItems", kw.maxItems),
    )
    for low_name, low, high_name, high in pairs:
        if low is not None and high is not None and low > high:
            yield low_name, f"{low_name} {low} is greater than {high_name} {high}: nothing is valid"
    low_x = kw.exclusiveMinimum if kw.exclusiveMinimum is not None else kw.minimum
    high_x = kw.exclusiveMaximum if kw.exclusiveMaximum is not None else kw.maximum
    if (
        (kw.exclusiveMinimum is not None or kw.exclusiveMaximum is not None)
        and low_x is not None
        and high_x is not None
        and low_x >= high_x
    ):
        yield (
            "exclusiveMinimum" if kw.exclusiveMinimum is not None else "exclusiveMaximum",
            f"the bounds {low_x} and {high_x} leave no valid number",
        )
    if kw.enum is not None and not kw.enum:
        yield "enum", "`enum` is empty: nothing is valid"
    extra = kw.additionalProperties.root if kw.additionalProperties is not None else None
    if extra is False:
        declared = set(kw.properties or {})
        for name in kw.required or ():
            if name not in declared:
                yield (
                    "required",
                    (
                        f"'{name}' is required but not declared in `properties`, and "
                        "`additionalProperties: false` forbids it"
                    ),
                )


def validity(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    broken: set[object] = set()
    for root, schema in ctx.published_roots.items():
        try:
            jsonschema_rs.meta.validate(schema)
        except jsonschema_rs.ValidationError as exc:
            broken.add(root)
            yield diag(
                "invalid-arg-schema",
                project.spans.tool((*root, *exc.instance_path)),
                f"not valid JSON Schema 2020-12: {exc.message}",
            )
    for node in ctx.nodes:
        if node.root in broken:
            continue
        for keyword, message in _bound_problems(node.keywords):
            yield diag("invalid-arg-schema", project.spans.tool((*node.path, keyword)), message)


def _own_values(kw: SchemaKeywords) -> Iterator[tuple[tuple[str | int, ...], str, Any]]:
    """The values a schema states about itself: (path below the schema, what, value)."""
    if "default" in kw.model_fields_set:
        yield ("default",), "default", kw.default
    if "const" in kw.model_fields_set:
        yield ("const",), "const", kw.const
    for index, value in enumerate(kw.enum or ()):
        yield ("enum", index), "enum value", value
    for index, value in enumerate(kw.examples or ()):
        yield ("examples", index), "example", value


def defaults(ctx: CheckContext) -> Iterator[Diagnostic]:
    """All stated values are checked in one batch: one validator whose `$defs` hold the shared
    types and, under names no type can have, each schema that states a value (measured: one
    validator per schema cost more to build than the checking itself)."""
    project = ctx.project
    if alias_cycles(project):
        return  # a reference loop would send the validator into endless recursion
    defs: dict[str, Any] = dict(ctx.published_types)
    properties: dict[str, Any] = {}
    instance: dict[str, Any] = {}
    stated: dict[str, tuple[JsonPath, str]] = {}
    for number, node in enumerate(ctx.nodes):
        values = list(_own_values(node.keywords))
        if not values:
            continue
        own = ctx.published[node.path]
        defs[f"-{number}"] = {k: v for k, v in own.items() if k not in _OWN_VALUE_KEYWORDS}
        for where, what, value in values:
            key = f"{len(instance)}"
            properties[key] = {"$ref": f"#/$defs/-{number}"}
            instance[key] = value
            stated[key] = ((*node.path, *where), what)
    if not instance:
        return
    validator = jsonschema_rs.validator_for({"$defs": defs, "properties": properties})
    reported: set[str] = set()
    for error in validator.iter_errors(instance):
        key = str(error.instance_path[0])
        if key in reported:
            continue
        reported.add(key)
        path, what = stated[key]
        yield diag(
            "invalid-default",
            project.spans.tool(path),
            f"{what} does not match its schema: {error.message}",
        )


CHECKS = (validity, defaults)
