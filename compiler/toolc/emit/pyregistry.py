"""The entries of the generated registry.py: the arguments of one `ToolSpec(...)` per tool."""

from __future__ import annotations

import json
from typing import Any

from toolc.emit.pyexpr import Expr, call, literal, render
from toolc.emit.pyliterals import py_str, py_value
from toolc.model import ToolDecl
from toolc.model.ceilings import reserve_of
from toolc.model.naming import pascal, snake


def reserve_bytes(tool: ToolDecl) -> int:
    """The envelope's fixed overhead around `data` in the compact UTF-8 wire form."""
    wrapped = {"ok": True, "data": None, "meta": {"tool": tool.name, "version": tool.decl.version}}
    text = json.dumps(wrapped, separators=(",", ":"), ensure_ascii=False)
    return len(text.encode()) - len(b"null")


def _mapping(value: dict[str, str], indent: int) -> str:
    """`MappingProxyType({...})` of Python expressions, laid out as black lays it out."""
    if not value:
        return "MappingProxyType({})"
    pad = " " * indent
    items = "".join(f"{pad}        {py_str(k)}: {v},\n" for k, v in value.items())
    return f"MappingProxyType(\n{pad}    {{\n{items}{pad}    }}\n{pad})"


def tool_entry(tool: ToolDecl, published: dict[str, Any]) -> dict[str, str]:
    """The arguments of the tool's `ToolSpec(...)` in registry.py, as Python expressions laid
    out for their place in it (the template writes one `key=value,` line each)."""
    p = pascal(tool.name)
    pre = tool.policy.pre_validation if tool.policy is not None else None
    pre_expr = "None"
    if tool.pre_validation is not None and pre is not None:
        pre_call = call(
            "PreValidation",
            kwargs=[("tool", py_str(pre.tool)), ("fail_open", str(bool(pre.fail_open)))],
        )
        pre_expr = render(pre_call, 8, ",", lead=len("pre_validation="))[:-1]
    errors = {
        code: render(
            call("ErrorSpec", kwargs=[
                ("retryable", str(bool(spec.retryable))),
                ("hint", py_str(spec.hint) if spec.hint else "None"),
            ]), 16, ",", lead=len(py_str(code)) + 2,
        )[:-1]
        for code, spec in sorted((tool.decl.errors or {}).items())
    }  # fmt: skip
    annotations = {k: py_value(v) for k, v in published["annotations"].items()}
    resolved = {"resolved_name": py_str(f"{p}Resolved")} if tool.accepts else {}
    if tool.ceiling is not None:  # only then: no other tool's registry entry changes
        resolved["response_ceiling_bytes"] = str(tool.ceiling)
        resolved["response_reserve_bytes"] = str(reserve_of(tool, tool.ceiling))
    if (proxy := tool.decl.proxy) is not None:
        command: Expr | str = "None"
        if proxy.command is not None:  # a tuple: black keeps the comma of a single item
            items = [py_str(c) for c in proxy.command]
            command = literal("(", items if len(items) > 1 else [items[0] + ","])
        proxy_call = call("Proxy", kwargs=[
            ("tool", py_str(proxy.tool)),
            ("command", command),
            ("url", "None" if proxy.url is None else py_str(proxy.url)),
            ("startup_timeout", repr(float(proxy.startup_timeout or 10))),
            ("call_timeout", repr(float(proxy.call_timeout or 30))),
        ])  # fmt: skip
        resolved["proxy"] = render(proxy_call, 8, ",", lead=len("proxy="))[:-1]
    # Only when declared, so the registry of a tool without them does not change.
    timeout = tool.policy.handler_timeout_seconds if tool.policy is not None else None
    if timeout is not None:
        resolved["handler_timeout_seconds"] = repr(float(timeout))
    operation_id = tool.decl.multi_item.operation_id if tool.decl.multi_item else None
    if operation_id is not None:
        resolved["operation_id"] = py_str(operation_id)
    return {
        "name": py_str(tool.name),
        "version": py_str(tool.decl.version),
        "title": py_str(published["title"]),
        "description": py_str(tool.decl.description),
        "mcp_server": py_str(tool.decl.mcp_server),
        "enabled": str(tool.enabled),
        "module": py_str(f".tools.{snake(tool.name)}"),
        "annotations": _mapping(annotations, 8),
        "operation_type": py_str(tool.operation_type),
        "require_confirmation": str(tool.require_confirmation),
        "pre_validation": pre_expr,
        "multi_item": str(tool.decl.multi_item is not None),
        "workflow": str(bool(tool.decl.multi_item and tool.decl.multi_item.workflow)),
        "unknown_args": py_str(tool.decl.unknown_args or "ignore"),
        "errors": _mapping(errors, 8),
        "envelope_reserve_bytes": str(reserve_bytes(tool)),
        "args_name": py_str(f"{p}Args"),
        "data_name": py_str(f"{p}Data"),
        **resolved,
    }
