"""A tool's response ceiling with what it must leave for the envelope (contract.reserve)."""

from __future__ import annotations

from collections.abc import Mapping

from toolc.contract.reserve import refusal_bytes, reserve_bytes
from toolc.model.project import ToolDecl


def reserve_of(tool: ToolDecl, ceiling: int) -> int:
    errors = {
        code: (bool(spec.retryable), spec.hint)
        for code, spec in sorted((tool.decl.errors or {}).items())
    }
    multi = tool.decl.multi_item is not None
    return reserve_bytes(tool.name, tool.decl.version, multi, errors, ceiling)


def smallest_ceiling(tool: ToolDecl, ceiling: int) -> int:
    """The least ceiling that leaves the data a byte and can carry the refusal itself."""
    reserve = reserve_of(tool, ceiling)
    return max(reserve + 1, refusal_bytes(tool.name, tool.decl.version, ceiling))


def server_defaults(tools: Mapping[str, ToolDecl]) -> dict[str, int]:
    """Each server's default ceiling (`servers.<name>.response_ceiling_bytes`), as its
    tools that set none inherit it: what the reference docs state beside each tool's."""
    return {
        tool.decl.mcp_server: tool.ceiling
        for tool in tools.values()
        if tool.ceiling is not None and tool.decl.response_ceiling_bytes is None
    }
