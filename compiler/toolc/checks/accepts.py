"""`accepts`: a tool whose callers send another form of an argument than its handler takes
(the names a user said, not the canonical items). Only a pre-validator can turn one into
the other, so the tool needs one that runs on every call and never lets the caller's form
through (decision 0053)."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, Span, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.model import Project, ToolDecl


def _unresolved(project: Project, tool: ToolDecl) -> str | None:
    """Why the tool's calls may reach its handler unresolved, or None when they cannot."""
    declared = tool.policy.pre_validation if tool.policy is not None else None
    if declared is None:
        return "has no pre_validation to resolve it"
    if tool.pre_validation is None:
        return "has its pre_validation switched off (`enabled: false`)"
    if declared.fail_open:
        return "lets calls through unresolved when its validator fails (`fail_open: true`)"
    validates = sorted(
        name
        for name, other in project.tools.items()
        if other.policy is not None
        and other.policy.pre_validation is not None
        and other.policy.pre_validation.tool == tool.name
    )
    if validates:
        return (
            f"is the pre-validator of '{validates[0]}', which calls it with arguments "
            "nothing resolved"
        )
    return None


def _fix(tool: ToolDecl) -> str:
    return (
        f"give '{tool.name}' an enabled, fail-closed pre-validator in tool_policies.yaml "
        "(`pre_validation: {tool: <validator>, fail_open: false}`) that resolves "
        "`transaction_decision.resolved_arguments` into its args_schema, or remove `accepts`"
    )


def resolution(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name, tool in project.tools.items():
        if not tool.accepts or not tool.knows("accepts"):
            continue
        accepts_at: Span = project.spans.tool(("tools", name, "accepts"), key=True)
        if tool.knows("args_schema"):
            for arg in tool.accepts:
                if arg not in tool.args:
                    yield diag(
                        "accepts-unknown-arg",
                        project.spans.tool(("tools", name, "accepts", arg), key=True),
                        f"`accepts` of '{name}' names '{arg}', which is not in its args_schema"
                        f"{did_you_mean(arg, tool.args)}",
                        f"declare '{arg}' in args_schema (the form the handler receives), or "
                        "remove it from `accepts`",
                    )
        if not tool.knows("policy.pre_validation"):
            continue
        why = _unresolved(project, tool)
        if why is not None:
            yield diag(
                "accepts-unresolved",
                accepts_at,
                f"'{name}' accepts arguments its handler does not take, but {why}",
                _fix(tool),
            )


CHECKS = (resolution,)
