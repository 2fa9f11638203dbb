"""Pre-validation: the validator named by a policy must exist, run beside its target, and take
every call the target accepts, since the server hands it the target's validated arguments
unchanged (only those the caller sent: defaults are not filled in)."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.checks.prevalidator_values import argument_values
from toolc.diagnostics import Diagnostic, Span, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.model import Project, ToolDecl


def pre_validators(ctx: CheckContext) -> Iterator[Diagnostic]:
    """A declared pre-validation is checked even while `enabled: false`: a dangling reference
    would otherwise surface only on the day someone switches it on."""
    project = ctx.project
    reported: set[str] = set()  # validators whose `returns` was reported (once each)
    for name, tool in project.tools.items():
        pre = tool.policy.pre_validation if tool.policy is not None else None
        if pre is None:
            continue
        span = project.spans.policy(("tool_policies", name, "pre_validation", "tool"))
        if pre.tool == name:
            yield diag(
                "prevalidator-self",
                span,
                f"'{name}' is named as its own pre-validator",
                "name the validator tool in `pre_validation.tool`",
            )
            continue
        validator = project.tools.get(pre.tool)
        if validator is None and project.declares(pre.tool):
            continue  # declared, but unreadable: its schema errors come first
        if validator is None:
            yield diag(
                "prevalidator-unknown",
                span,
                f"pre-validator '{pre.tool}' of '{name}' is not a declared tool"
                # not the tool itself: a tool cannot pre-validate itself (prevalidator-self)
                f"{did_you_mean(pre.tool, [t for t in project.tools if t != name])}",
            )
            continue
        same_server = validator.decl.mcp_server == tool.decl.mcp_server
        if not same_server and validator.knows("mcp_server") and tool.knows("mcp_server"):
            yield diag(
                "prevalidator-other-server",
                span,
                f"pre-validator '{validator.name}' is on server '{validator.decl.mcp_server}'"
                f" but '{name}' is on '{tool.decl.mcp_server}'",
                "pre-validation runs inside the target's server: move one of the two",
            )
        yield from _validator_arguments(project, tool, validator, span)
        yield from argument_values(ctx, tool, validator)
        if validator.decl.returns is not None and validator.name not in reported:
            reported.add(validator.name)
            yield diag(
                "prevalidator-returns",
                project.spans.tool(("tools", validator.name, "returns"), key=True),
                f"'{validator.name}' validates '{name}': its data is the pre-validation decision, "
                "not a `returns` of its own",
                "remove `returns`; toolc publishes the decision schema for it",
            )
        if tool.pre_validation is None:  # declared but switched off
            continue
        if not validator.enabled and validator.knows("enabled"):
            yield diag(
                "prevalidator-disabled",
                span,
                f"pre-validator '{validator.name}' of '{name}' is disabled",
                "enable the validator, or set `pre_validation.enabled: false`",
            )
        if validator.operation_type == "transactional" and validator.knows("operation_type"):
            yield diag(
                "transactional-prevalidator",
                span,
                f"pre-validator '{validator.name}' is transactional; it runs before the user "
                "confirms anything",
                "declare it `tool_type: query` if it only reads",
            )


def _validator_arguments(
    project: Project, target: ToolDecl, validator: ToolDecl, span: Span
) -> Iterator[Diagnostic]:
    """The validator receives the target's arguments unchanged: it must be able to take them."""
    if validator.knows("requires") and target.knows("requires", "args_schema"):
        for arg in validator.requires:
            if arg not in target.args:
                yield diag(
                    "prevalidator-arguments",
                    span,
                    f"pre-validator '{validator.name}' requires '{arg}', which '{target.name}' "
                    "does not have",
                    f"make '{arg}' optional in '{validator.name}', or add it to '{target.name}'",
                )
            elif arg not in target.requires:  # calls that leave it out reach the validator too
                yield diag(
                    "prevalidator-arguments",
                    span,
                    f"pre-validator '{validator.name}' requires '{arg}', which '{target.name}' "
                    "does not require: every call without it fails pre-validation",
                    f"make '{arg}' optional in '{validator.name}', or required in '{target.name}'",
                )
    known_args = validator.knows("args_schema") and target.knows("args_schema")
    if validator.decl.unknown_args == "forbid" and known_args:
        for arg in target.args:
            if arg not in validator.args:
                yield diag(
                    "prevalidator-arguments",
                    span,
                    f"pre-validator '{validator.name}' forbids unknown arguments but "
                    f"'{target.name}' sends '{arg}'",
                    f"declare '{arg}' in '{validator.name}', or let it ignore unknown arguments",
                )


CHECKS = (pre_validators,)
