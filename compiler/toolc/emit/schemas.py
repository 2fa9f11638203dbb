"""The published JSON Schemas of a tool: its inputSchema and the data of its outputSchema, each
self-contained (local `$defs` holding only the shared types it reaches)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolc.contract.framework import FRAMEWORK_ERROR_CODES
from toolc.emit import envelope
from toolc.model import Project, ToolDecl
from toolc.model.schemas import DEFS_REF, args_object, pointer_segment, to_json_schema


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(DEFS_REF):
            yield ref[len(DEFS_REF) :]
        for key, value in node.items():
            if key not in ("const", "enum", "default", "examples"):
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def reachable_defs(schema: Any, types: dict[str, Any]) -> dict[str, Any]:
    """The shared types `schema` reaches, transitively, sorted by name."""
    found: dict[str, Any] = {}
    pending = list(_refs(schema))
    while pending:
        name = pending.pop()
        if name in found or name not in types:
            continue
        found[name] = types[name]
        pending.extend(_refs(types[name]))
    return dict(sorted(found.items()))


# Where a tool's success data is published in its outputSchema (pointers are rebased there).
DATA_BASE = "/$defs/envelope.Data"


def published_types(project: Project) -> dict[str, Any]:
    """Each shared type as published, in the `$defs` of every schema that reaches it."""
    return {
        name: to_json_schema(schema, f"/$defs/{pointer_segment(name)}")
        for name, schema in project.types.items()
    }


# What a caller form takes from its argument's handler form, unless it states its own: these
# describe the argument (how an agent names it and asks for it), not its values.
ARGUMENT_NOTES = ("description", "title", "deprecated", "x-toolc-label", "x-toolc-user-prompt")


def _caller_form(tool: ToolDecl, name: str, handler: Any) -> Any:
    accepted = tool.accepts.get(name)
    if accepted is None:
        return handler
    caller = to_json_schema(accepted, f"/properties/{pointer_segment(name)}")
    if isinstance(caller, bool):
        return caller  # `true`/`false` as written: a boolean schema carries no notes
    notes = {k: handler[k] for k in ARGUMENT_NOTES if k in handler and k not in caller}
    return {**caller, **notes}


def input_schema(tool: ToolDecl, types: dict[str, Any], handler: bool = False) -> dict[str, Any]:
    """The published inputSchema (each argument in the form a caller sends, its `accepts`
    where declared), or with `handler` the arguments as the handler receives them."""
    schema = args_object(tool)
    if not handler:
        schema["properties"] = {
            n: _caller_form(tool, n, s) for n, s in schema["properties"].items()
        }
    defs = reachable_defs(schema, types)
    if defs:  # beside the root's own `$defs` (`check` refuses a name both use)
        schema["$defs"] = {**schema.get("$defs", {}), **defs}
    return schema


def handler_input_schema(tool: ToolDecl, types: dict[str, Any]) -> dict[str, Any] | None:
    """The handler's form of the arguments, for a tool whose callers send another (None
    otherwise: the published inputSchema is both)."""
    return input_schema(tool, types, handler=True) if tool.accepts else None


def validator_targets(project: Project) -> dict[str, list[str]]:
    """Pre-validator name → the tools it validates (sorted)."""
    targets: dict[str, list[str]] = {}
    for name, tool in project.tools.items():
        policy = tool.policy
        if policy is not None and policy.pre_validation is not None:
            targets.setdefault(policy.pre_validation.tool, []).append(name)
    return {k: sorted(v) for k, v in targets.items()}


def data_schema(tool: ToolDecl, validates: list[str]) -> dict[str, Any] | bool:
    """The schema of the success `data`."""
    returns = tool.decl.returns
    data = to_json_schema(returns, DATA_BASE) if returns is not None else None
    if tool.decl.multi_item is not None:
        item = to_json_schema(tool.decl.multi_item.item, f"{DATA_BASE}/properties/results/items")
        # what `returns: true` / `false` says of the data beside the results: nothing / no value
        extra = {"not": {}} if data is False else None if data is True else data
        return envelope.multi_item_data_schema(tool.name, item, extra)
    if validates:
        return envelope.decision_data_schema(validates)
    return data if data is not None else {}


def error_codes(tool: ToolDecl) -> list[str]:
    return sorted({*FRAMEWORK_ERROR_CODES, *(tool.decl.errors or {})})


def output_schema(tool: ToolDecl, types: dict[str, Any], validates: list[str]) -> dict[str, Any]:
    data = data_schema(tool, validates)
    return envelope.output_schema(
        tool.name,
        tool.decl.version,
        error_codes(tool),
        data,
        tool.decl.multi_item is not None,
        reachable_defs(data, types),
    )


# What a proxied tool without `returns` may answer (its origin lists no outputSchema, so it
# publishes none): its package types that structured content, if any, by this.
ANY_RESULT: dict[str, Any] = {"type": "object"}


def origin_output_schema(tool: ToolDecl, types: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """A proxied tool's outputSchema: its `returns` as-is at the root (the origin's, decision
    0084), the shared types it reaches beside it; None without `returns`."""
    returns = tool.decl.returns
    if returns is None:
        return None
    converted = to_json_schema(returns)
    if isinstance(converted, bool):  # an outputSchema is an object schema (MCP): said so
        return dict(ANY_RESULT) if converted else {**ANY_RESULT, "not": {}}
    schema: dict[str, Any] = converted
    defs = reachable_defs(schema, types)
    if defs:
        schema["$defs"] = {**schema.get("$defs", {}), **defs}
    return schema
