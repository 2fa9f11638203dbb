"""Response ceilings that cannot work: one too small to hold the envelope around any data
(or the RESPONSE_TOO_LARGE answer itself), and settings for an MCP server no tool names."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.contract.reserve import refusal_bytes
from toolc.diagnostics import Diagnostic, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.model.ceilings import reserve_of, smallest_ceiling


def ceiling_too_small(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name, tool in project.tools.items():
        if tool.ceiling is None or not tool.knows("version", "response_ceiling_bytes"):
            continue
        least = smallest_ceiling(tool, tool.ceiling)
        if tool.ceiling >= least:
            continue
        own = tool.decl.response_ceiling_bytes is not None
        path = (
            ("tools", name, "response_ceiling_bytes")
            if own
            else ("servers", tool.decl.mcp_server, "response_ceiling_bytes")
        )
        reserve = reserve_of(tool, tool.ceiling)
        refusal = refusal_bytes(name, tool.decl.version, tool.ceiling)
        yield diag(
            "response-ceiling-too-small",
            project.spans.tool(path),
            f"the response ceiling of {name} is {tool.ceiling} bytes, less than the {least} it "
            f"needs: its envelope may take {reserve} bytes around the data, and a "
            f"RESPONSE_TOO_LARGE answer {refusal}",
            f"raise it to at least {least}",
        )


def unknown_servers(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    known = sorted({t.decl.mcp_server for t in project.tools.values()})
    for server in project.servers:
        if server not in known:
            yield diag(
                "unknown-server-settings",
                project.spans.tool(("servers", server), key=True),
                f"`servers` sets '{server}', which no tool names as its mcp_server"
                f"{did_you_mean(server, known)}",
                f"name one of the servers ({', '.join(known)}) or remove the entry",
            )


CHECKS = (ceiling_too_small, unknown_servers)
