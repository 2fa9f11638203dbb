"""The schemas themselves must be valid JSON Schema 2020-12, satisfiable, and agree with the
values they state about themselves (`default`, `const`, `enum`, `examples`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema_rs

from toolc.checks.context import CheckContext, SchemaNode
from toolc.checks.types import alias_cycles
from toolc.diagnostics import Diagnostic, diag
from toolc.model.schemas import ref_name
from toolc.model.tools_file import SchemaKeywords
from toolc.source import JsonPath
from toolc.validate.ecma_regex import Refused, Translated, translate

_OWN_VALUE_KEYWORDS = ("default", "examples", "enum", "const")


def _number_bounds_empty(kw: SchemaKeywords) -> str | None:
    """Whether the numeric bounds leave no number: the tightest lower bound against the
    tightest upper bound, each inclusive or exclusive."""
    lows = [(v, False) for v in (kw.minimum,) if v is not None]
    lows += [(v, True) for v in (kw.exclusiveMinimum,) if v is not None]
    highs = [(v, False) for v in (kw.maximum,) if v is not None]
    highs += [(v, True) for v in (kw.exclusiveMaximum,) if v is not None]
    if not lows or not highs:
        return None
    low, low_open = max(lows, key=lambda b: (b[0], b[1]))
    high, high_open = min(highs, key=lambda b: (b[0], not b[1]))
    if low > high or (low == high and (low_open or high_open)):
        return f"the bounds leave no valid number (from {low} to {high})"
    return None


def _bound_problems(kw: SchemaKeywords) -> Iterator[tuple[str, str]]:
    pairs = (
        ("minLength", kw.minLength, "maxLength", kw.maxLength),
        ("minItems", kw.minItems, "maxItems", kw.maxItems),
    )
    for low_name, low, high_name, high in pairs:
        if low is not None and high is not None and low > high:
            yield low_name, f"{low_name} {low} is greater than {high_name} {high}: nothing is valid"
    empty = _number_bounds_empty(kw)
    if empty is not None:
        first = next(k for k in ("minimum", "exclusiveMinimum") if getattr(kw, k) is not None)
        yield first, empty
    if kw.enum is not None and not kw.enum:
        yield "enum", "`enum` is empty: nothing is valid"
    extra = kw.additionalProperties.root if kw.additionalProperties is not None else None
    if extra is False:
        declared = set(kw.properties or {})
        for name in kw.required or ():
            if name not in declared:
                yield (
                    "required",
                    f"'{name}' is required but not declared in `properties`, and "
                    "`additionalProperties: false` forbids it",
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


def _unresolvable(ctx: CheckContext) -> bool:
    """Schemas a validator cannot be built from: undeclared `$ref`s, reference loops, patterns
    that are invalid or untranslatable."""
    for node in ctx.nodes:
        ref = node.keywords.field_ref
        if ref is not None and ref_name(ref) not in ctx.project.types:
            return True
        pattern = node.keywords.pattern
        if pattern is not None and isinstance(translate(pattern), Refused):
            return True
    return bool(alias_cycles(ctx.project))


# Schemas per batch: one validator per batch is cheap to build, and the batches bound the
# memory the compiled schemas take (a single batch for 5,000 tools held ~100 MB at once).
BATCH = 500


def defaults(ctx: CheckContext) -> Iterator[Diagnostic]:
    """Stated values are checked in batches: one validator whose `$defs` hold the shared types
    and, under names no type can have, each schema of the batch that states a value (measured:
    one validator per schema cost more to build than the checking itself)."""
    if _unresolvable(ctx):
        return  # reported by the checks of references and patterns; fixed first
    stating = [(n, node) for n, node in enumerate(ctx.nodes) if _has_values(node.keywords)]
    for start in range(0, len(stating), BATCH):
        yield from _check_batch(ctx, stating[start : start + BATCH])


def _has_values(kw: SchemaKeywords) -> bool:
    return bool(kw.enum or kw.examples or {"default", "const"} & kw.model_fields_set)


def _check_batch(ctx: CheckContext, batch: list[tuple[int, SchemaNode]]) -> Iterator[Diagnostic]:
    defs: dict[str, Any] = dict(ctx.published_types)
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
    schema = _model_patterns({"$defs": defs, "properties": properties}, originals)
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


def _model_patterns(schema: Any, originals: dict[str, str]) -> Any:
    """A copy of `schema` whose patterns are the model's (decision 0024), for jsonschema-rs's
    plain Rust regex engine: it then judges a stated value exactly as the model and every
    JavaScript client will. Stated values are copied as they are, even a `pattern` key in them."""
    if isinstance(schema, list):
        return [_model_patterns(item, originals) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _OWN_VALUE_KEYWORDS:
            out[key] = value
        elif key == "pattern" and isinstance(value, str):
            found = translate(value)
            out[key] = found.pattern if isinstance(found, Translated) else value
            originals[out[key]] = value
        else:
            out[key] = _model_patterns(value, originals)
    return out


CHECKS = (validity, defaults)
