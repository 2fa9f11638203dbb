"""tools.yaml against tool_policies.yaml: one set of facts, declared in two files, must agree."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, Note, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.model import Project, ToolDecl


def policy_targets(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name in project.policies:
        if not project.declares(name):
            yield diag(
                "policy-unknown-tool",
                project.spans.policy(("tool_policies", name), key=True),
                f"policy for undeclared tool '{name}'{did_you_mean(name, project.tools)}",
                "declare the tool in tools.yaml or remove the policy",
            )


def _requires(project: Project, tool: ToolDecl) -> Iterator[Diagnostic]:
    declared = tool.decl.requires
    policy = tool.policy.requires if tool.policy is not None else None
    for source, names, spans in (
        ("tools", declared, project.spans.tool),
        ("tool_policies", policy, project.spans.policy),
    ):
        for index, arg in enumerate(names or ()):
            if arg not in tool.args and tool.knows("args_schema"):
                yield diag(
                    "requires-unknown-arg",
                    spans((source, tool.name, "requires", index)),
                    f"'{tool.name}' requires '{arg}', which is not in its args_schema"
                    f"{did_you_mean(arg, tool.args)}",
                )
    if declared is not None and policy is not None and set(declared) != set(policy):
        note = Note(project.spans.tool(("tools", tool.name, "requires")), "tools.yaml says this")
        yield diag(
            "requires-mismatch",
            project.spans.policy(("tool_policies", tool.name, "requires")),
            f"policy requires {sorted(policy)} but tools.yaml requires {sorted(declared)} "
            f"for '{tool.name}'",
            "keep `requires` in one file, or make both name the same arguments",
            (note,),
        )


def requirements(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for tool in project.tools.values():
        yield from _requires(project, tool)


def agreement(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name, tool in project.tools.items():
        policy = tool.policy
        if policy is None:
            continue
        decl = tool.decl
        if (
            decl.confirmation_required is not None
            and policy.require_confirmation is not None
            and decl.confirmation_required != policy.require_confirmation
        ):
            yield diag(
                "confirmation-mismatch",
                project.spans.policy(("tool_policies", name, "require_confirmation")),
                f"require_confirmation is {str(policy.require_confirmation).lower()} here but "
                f"'{name}' has confirmation_required: {str(decl.confirmation_required).lower()}",
                "make them agree, or keep only one of them",
                (
                    Note(
                        project.spans.tool(("tools", name, "confirmation_required")),
                        "tools.yaml says this",
                    ),
                ),
            )
        expected = "read_only" if decl.tool_type == "query" else "transactional"
        if (
            policy.operation_type is not None
            and policy.operation_type != expected
            and tool.knows("tool_type")
        ):
            yield diag(
                "operation-type-mismatch",
                project.spans.policy(("tool_policies", name, "operation_type")),
                f"operation_type {policy.operation_type} disagrees with tool_type "
                f"{decl.tool_type} of '{name}'",
                f"`tool_type: {decl.tool_type}` goes with `operation_type: {expected}`",
                (Note(project.spans.tool(("tools", name, "tool_type")), "tools.yaml says this"),),
            )


def _disputed(tool: ToolDecl) -> bool:
    """Whether the two files disagree on the operation type or the confirmation: that is the
    error to fix (`operation-type-mismatch`, `confirmation-mismatch`), and no warning reasons
    from either side of it."""
    policy, decl = tool.policy, tool.decl
    if policy is None:
        return False
    declared = "read_only" if decl.tool_type == "query" else "transactional"
    return (policy.operation_type is not None and policy.operation_type != declared) or (
        policy.require_confirmation is not None
        and decl.confirmation_required is not None
        and policy.require_confirmation != decl.confirmation_required
    )


def _acknowledged(tool: ToolDecl) -> bool:
    """An explicit `confirmation_required: false` in tools.yaml states that the tool needs no
    confirmation, unless the policy says otherwise (then `confirmation-mismatch` is the error)."""
    policy = tool.policy.require_confirmation if tool.policy is not None else None
    return tool.decl.confirmation_required is False and policy is not True


def confirmation(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    for name, tool in project.tools.items():
        if (
            tool.operation_type == "transactional"
            and not tool.require_confirmation
            and tool.enabled
            and not _acknowledged(tool)
            and not _disputed(tool)
            and tool.knows("operation_type", "require_confirmation", "confirmation_required")
            and tool.knows("enabled")
        ):
            yield diag(
                "transactional-without-confirmation",
                project.spans.tool(("tools", name), key=True),
                f"'{name}' changes state but asks for no confirmation",
                # A proxied tool cannot ask (proxy-envelope-feature): only the other two fit.
                "`confirmation_required: false` states that it needs none (a proxied tool "
                "cannot ask: its origin answers); or `tool_type: query` if it only reads"
                if tool.decl.proxy is not None
                else "set `confirmation_required: true`; or `tool_type: query` if it only "
                "reads; or `confirmation_required: false` to state that it needs none",
            )


def stated_hints(ctx: CheckContext) -> Iterator[Diagnostic]:
    """Stated hints may refine what the operation type implies, never contradict it."""
    project = ctx.project
    for name, tool in project.tools.items():
        stated = tool.decl.annotations
        if stated is None or not tool.knows("operation_type"):
            continue
        read_only = tool.operation_type == "read_only"
        if tool.policy is not None and tool.policy.operation_type is not None:
            source = Note(
                project.spans.policy(("tool_policies", name, "operation_type")),
                f"the policy makes '{name}' {tool.operation_type}",
            )
        else:
            source = Note(
                project.spans.tool(("tools", name, "tool_type")),
                f"`tool_type: {tool.decl.tool_type}` makes '{name}' {tool.operation_type}",
            )
        wrong: list[tuple[str, str]] = []
        if stated.readOnlyHint is not None and stated.readOnlyHint != read_only:
            wrong.append(("readOnlyHint", "`readOnlyHint` follows the operation type: remove it"))
        if read_only and stated.destructiveHint is True:
            wrong.append(("destructiveHint", "a read-only tool destroys nothing: remove it"))
        for hint, fix in wrong:
            value = str(getattr(stated, hint)).lower()
            yield diag(
                "annotation-contradiction",
                project.spans.tool(("tools", name, "annotations", hint)),
                f"`{hint}: {value}` contradicts '{name}', which is {tool.operation_type}",
                fix,
                (source,),
            )


CHECKS = (policy_targets, requirements, agreement, confirmation, stated_hints)
