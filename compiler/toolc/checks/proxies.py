"""Proxied tools (decision 0084): one origin each, and nothing of what toolc wraps around a
handler, since the origin's answer goes back unchanged."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, diag
from toolc.model import ToolDecl

# The tool keys that only mean something inside the envelope, and why.
_ENVELOPE_KEYS = {
    "errors": "its domain errors are sealed into the envelope",
    "multi_item": "its results are normalized inside the envelope",
    "content": "its content blocks are sent beside the envelope",
    "accepts": "its caller form is resolved by a pre-validator",
    "response_ceiling_bytes": "a ceiling discounts the envelope around its data",
}


def _features(tool: ToolDecl) -> Iterator[tuple[tuple[str | int, ...], str]]:
    for key, why in _ENVELOPE_KEYS.items():
        if getattr(tool.decl, key) is not None:
            yield ("tools", tool.name, key), f"`{key}` ({why})"
    if tool.require_confirmation:
        yield ("tools", tool.name, "proxy"), "confirmation (a declined call answers an envelope)"
    if tool.pre_validation is not None:
        yield ("tools", tool.name, "proxy"), "pre-validation (a rejection answers an envelope)"


def proxied_tools(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    validators = {
        t.pre_validation.tool for t in project.tools.values() if t.pre_validation is not None
    }
    for tool in project.tools.values():
        proxy = tool.decl.proxy
        if proxy is None:
            continue
        at = ("tools", tool.name, "proxy")
        if (proxy.command is None) == (proxy.url is None):
            yield diag(
                "proxy-origin-unclear",
                project.spans.tool(at, key=True),
                f"proxied tool '{tool.name}' must name its origin by exactly one of "
                "`command` and `url`",
                "keep `command: [program, args...]` for a stdio origin or `url:` for HTTP",
            )
        for path, what in _features(tool):
            yield diag(
                "proxy-envelope-feature",
                project.spans.tool(path, key=True),
                f"proxied tool '{tool.name}' cannot have {what}: the origin's answer is "
                "returned unchanged",
                "remove it, or drop `proxy:` and forward the call from a handler",
            )
        if tool.name in validators:
            yield diag(
                "proxy-envelope-feature",
                project.spans.tool(at, key=True),
                f"proxied tool '{tool.name}' cannot be a pre-validator: its answer is not "
                "the decision envelope toolc reads",
                "validate with a tool that has a handler",
            )


CHECKS = (proxied_tools,)
