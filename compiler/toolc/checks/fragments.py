"""Rules over the schema fragments (arguments, returns, multi-item results, shared types): what
the published schema will say must be valid, satisfiable, portable and resolvable."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import jsonschema_rs

from toolc.diagnostics import Diagnostic, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.model import Project
from toolc.model.schemas import ref_name, roots, to_json_schema, walk
from toolc.model.tools_file import Schema, SchemaKeywords, Type
from toolc.validate.patterns import compile_error, portability_problems

FRAMEWORK_ERROR_CODES = frozenset(
    {
        "VALIDATION_ERROR",
        "TOOL_ERROR",
        "CONFIRMATION_DECLINED",
        "CONFIRMATION_UNAVAILABLE",
        "PRE_VALIDATION_REJECTED",
        "PRE_VALIDATION_FAILED",
    }
)
MULTI_ITEM_FIELDS = (
    "results",
    "multi_item_status",
    "partial_success",
    "metadata",
    "original_ok",
    "secondary_error",
)


def _root_refs(project: Project) -> dict[str, str]:
    """Each type that is, at its root, a `$ref` to another (validated at the same value)."""
    return {
        name: ref_name(schema.root.field_ref)
        for name, schema in project.types.items()
        if schema.root.field_ref is not None
    }


def alias_cycles(project: Project) -> list[list[str]]:
    """Loops of root-level `$ref`s (A → B → A): they describe no value and send validators
    into endless recursion. Each loop once, starting at its first declared type."""
    edges = _root_refs(project)
    cycles: list[list[str]] = []
    seen: set[str] = set()
    for start in project.types:
        chain: list[str] = []
        node: str | None = start
        while node is not None and node not in seen and node not in chain:
            chain.append(node)
            node = edges.get(node)
        if node is not None and node in chain:
            cycles.append(chain[chain.index(node) :])
        seen.update(chain)
    return cycles


def references(project: Project) -> Iterator[Diagnostic]:
    edges: dict[str, set[str]] = {name: set() for name in project.types}
    reachable: set[str] = set()
    for root_path, schema in roots(project):
        from_type = root_path[1] if root_path[0] == "types" else None
        for path, kw in walk(schema, root_path):
            if kw.field_ref is None:
                continue
            name = ref_name(kw.field_ref)
            if from_type is None:
                reachable.add(name)
            else:
                edges[str(from_type)].add(name)
            if name not in project.types:
                yield diag(
                    "unknown-ref",
                    project.spans.tool((*path, "$ref")),
                    f"`$ref` to undeclared type '{name}'{did_you_mean(name, project.types)}",
                    f"declare '{name}' under the top-level `types:` mapping",
                )
    frontier = list(reachable)
    while frontier:
        for name in edges.get(frontier.pop(), ()):
            if name not in reachable:
                reachable.add(name)
                frontier.append(name)
    for name in project.types:
        if name not in reachable:
            yield diag(
                "unused-type",
                project.spans.tool(("types", name), key=True),
                f"type '{name}' is not reachable from any tool",
                f"remove it or reference it with `$ref: '#/types/{name}'`",
            )
    for cycle in alias_cycles(project):
        loop = " -> ".join([*cycle, cycle[0]])
        yield diag(
            "ref-cycle",
            project.spans.tool(("types", cycle[0], "$ref")),
            f"types refer to each other with nothing in between: {loop}",
            "give the loop structure (an object property or array items), or break it",
        )


# fmt: off
FORMATS_2020_12 = frozenset((
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
    "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
    "json-pointer", "relative-json-pointer", "regex",
))
# fmt: on


def formats(project: Project) -> Iterator[Diagnostic]:
    for root_path, schema in roots(project):
        for path, kw in walk(schema, root_path):
            if kw.format is not None and kw.format not in FORMATS_2020_12:
                yield diag(
                    "unknown-format",
                    project.spans.tool((*path, "format")),
                    f"format '{kw.format}' is not defined by JSON Schema 2020-12"
                    f"{did_you_mean(kw.format, FORMATS_2020_12)}",
                    "clients ignore unknown formats; fix the name if it is a typo",
                )


def patterns(project: Project) -> Iterator[Diagnostic]:
    for root_path, schema in roots(project):
        for path, kw in walk(schema, root_path):
            if kw.pattern is None:
                continue
            span = project.spans.tool((*path, "pattern"))
            error = compile_error(kw.pattern)
            if error is not None:
                yield diag(
                    "invalid-pattern", span, f"pattern `{kw.pattern}` does not compile: {error}"
                )
                continue
            for problem in portability_problems(kw.pattern):
                yield diag(
                    "unsupported-pattern",
                    span,
                    f"pattern `{kw.pattern}` at offset {problem.offset}: {problem.message}",
                    problem.hint,
                )


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


def validity(project: Project) -> Iterator[Diagnostic]:
    for root_path, schema in roots(project):
        try:
            jsonschema_rs.meta.validate(to_json_schema(schema))
        except jsonschema_rs.ValidationError as exc:
            path = (*root_path, *exc.instance_path)
            yield diag(
                "invalid-arg-schema",
                project.spans.tool(path),
                f"not valid JSON Schema 2020-12: {exc.message}",
            )
            continue
        for path, kw in walk(schema, root_path):
            for keyword, message in _bound_problems(kw):
                yield diag("invalid-arg-schema", project.spans.tool((*path, keyword)), message)


def _value_errors(defs: dict[str, Any], kw: SchemaKeywords, value: Any) -> str | None:
    """Check a value against its own schema with the reference validator."""
    schema = to_json_schema(Schema(root=kw))
    for keyword in ("default", "examples", "enum", "const"):
        schema.pop(keyword, None)
    schema["$defs"] = defs
    validator = jsonschema.Draft202012Validator(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    return None if error is None else error.message


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


def defaults(project: Project) -> Iterator[Diagnostic]:
    if alias_cycles(project):
        return  # a reference loop would send the validator into endless recursion
    defs = {name: to_json_schema(schema) for name, schema in project.types.items()}
    for root_path, schema in roots(project):
        for path, kw in walk(schema, root_path):
            for where, what, value in _own_values(kw):
                problem = _value_errors(defs, kw, value)
                if problem is not None:
                    yield diag(
                        "invalid-default",
                        project.spans.tool((*path, *where)),
                        f"{what} does not match its schema: {problem}",
                    )


def _resolve(project: Project, schema: Schema) -> Schema:
    seen: set[str] = set()
    while schema.root.field_ref is not None:
        name = ref_name(schema.root.field_ref)
        if name in seen or name not in project.types:
            break
        seen.add(name)
        schema = project.types[name]
    return schema


def _is_boolean(project: Project, schema: Schema) -> bool:
    kind = _resolve(project, schema).root.type
    if isinstance(kind, Type):
        return [t.root for t in kind.root] == ["boolean"]
    return kind is not None and kind.root == "boolean"


def multi_item(project: Project) -> Iterator[Diagnostic]:
    for name, tool in project.tools.items():
        spec = tool.decl.multi_item
        if spec is None:
            continue
        item = _resolve(project, spec.item).root
        props = item.properties or {}
        required = set(item.required or ())
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
        returns = tool.decl.returns
        if returns is not None:
            declared = _resolve(project, returns).root.properties or {}
            for field in MULTI_ITEM_FIELDS:
                if field in declared:
                    yield diag(
                        "multi-item-reserved-field",
                        project.spans.tool(
                            ("tools", name, "returns", "properties", field), key=True
                        ),
                        f"'{field}' is reserved: multi-item normalization puts it in the data "
                        f"of '{name}'",
                        "rename the field",
                    )


def error_codes(project: Project) -> Iterator[Diagnostic]:
    for name, tool in project.tools.items():
        for code in tool.decl.errors or {}:
            if code in FRAMEWORK_ERROR_CODES:
                yield diag(
                    "reserved-error-code",
                    project.spans.tool(("tools", name, "errors", code), key=True),
                    f"'{code}' is a framework error code, part of every tool's contract",
                    "declare only domain codes; rename this one",
                )


CHECKS = (references, formats, patterns, validity, defaults, multi_item, error_codes)
