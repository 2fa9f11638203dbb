"""`accepted_breaks:` entries must name a real rule, real versions and a real transition: an
entry that can never match would silently fail to excuse the break it was written for."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.contract.semver import Version
from toolc.diagnostics import Diagnostic, diag
from toolc.diagnostics.suggest import did_you_mean


def accepted_breaks(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    if not project.accepted_breaks:
        return  # and the evolution engine is not even loaded
    from toolc.evolution.rules import RULES

    for i, entry in enumerate(project.accepted_breaks):
        at = ("accepted_breaks", i)
        if entry.rule not in RULES:
            yield diag(
                "accepted-break-invalid",
                project.spans.tool((*at, "rule")),
                f"'{entry.rule}' is not a rule{did_you_mean(entry.rule, RULES)}",
                "use a rule ID from `toolc diff --list-rules`",
            )
        old = Version.try_parse(entry.from_)
        if old is None:
            yield diag(
                "accepted-break-invalid",
                project.spans.tool((*at, "from")),
                f"`from: {entry.from_}` is not a semantic version",
                "write the version the snapshot records, like 1.4.0",
            )
        if entry.to == "removed":
            if entry.rule != "tool-removed":
                yield diag(
                    "accepted-break-invalid",
                    project.spans.tool((*at, "rule")),
                    f"a removal (`to: removed`) is accepted with `rule: tool-removed`, "
                    f"not '{entry.rule}'",
                    "write `rule: tool-removed`",
                )
            continue
        new = Version.try_parse(entry.to)
        if new is None:
            yield diag(
                "accepted-break-invalid",
                project.spans.tool((*at, "to")),
                f"`to: {entry.to}` is neither a semantic version nor `removed`",
                "write the version that ships the break, or `removed`",
            )
        elif old is not None and new <= old:
            yield diag(
                "accepted-break-invalid",
                project.spans.tool((*at, "to")),
                f"`to: {entry.to}` is not above `from: {entry.from_}`",
                "an accepted break goes with a release: `to` is the higher version",
            )
        if not project.declares(entry.tool):
            yield diag(
                "accepted-break-invalid",
                project.spans.tool((*at, "tool")),
                f"no tool '{entry.tool}'{did_you_mean(entry.tool, project.tools)}",
                "name a declared tool (a retired one takes `to: removed`)",
            )


CHECKS = (accepted_breaks,)
