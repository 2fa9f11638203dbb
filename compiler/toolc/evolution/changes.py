"""What changed per tool between a baseline and the current config, in MCP's terms: the
findings of the rules (docs/evolution.md), the bump they call for, and whether the declared
version meets it. `toolc diff` prints it, `toolc bump` acts on it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec import field

from toolc.contract.semver import Version
from toolc.diagnostics import Span
from toolc.evolution.guard import returning
from toolc.evolution.verdict import judge
from toolc.evolution.views import contract_version

if TYPE_CHECKING:
    from toolc.pipeline import Compilation

Contract = Mapping[str, Any]


class ToolChange(msgspec.Struct, frozen=True):
    tool: str
    server: str  # "" for a removed tool
    old_version: str | None  # None: a new tool
    new_version: str | None  # None: removed
    findings: list[Any]  # toolc.evolution.Finding, accepted ones excluded
    accepted: list[Any] = field(default_factory=list)
    level: str | None = None  # "major" | "minor" | "patch"
    minimum: str | None = None
    span: Span | None = None
    forcing: list[str] = field(default_factory=list)  # the rules that alone set the level

    @property
    def ok(self) -> bool:
        """The declared version meets the bump the change calls for (the gate)."""
        if self.new_version is None:
            return not any(f.rule == "tool-removed" for f in self.findings)
        if self.minimum is None or self.old_version is None:
            return True
        try:
            return Version.parse(self.new_version).satisfies(Version.parse(self.minimum))
        except ValueError:
            return False


def tool_changes(
    old: Mapping[str, Contract],
    new: Mapping[str, Contract],
    compilation: Compilation,
    tools_shown: str,
) -> list[ToolChange]:
    from toolc.evolution.compare import compare_all
    from toolc.evolution.findings import findings_for_tool

    assert compilation.policy is not None
    bump = compilation.policy.bump
    accepted = [entry for entry, _ in compilation.policy.accepted]
    findings = compare_all(old, new)
    changes = []
    for name in sorted(set(old) | set(new)):
        mine = findings_for_tool(findings, name)  # its own, and an envelope change reaching it
        if not mine:
            continue
        before = contract_version(old[name]) if name in old else None
        after = contract_version(new[name]) if name in new else None
        verdict = judge(name, mine, before, after, bump, accepted)
        level, minimum, forcing = verdict.level, verdict.minimum, verdict.forcing
        back = returning(compilation.policy, name) if before is None and after else None
        if back is not None:  # declared again after its removal: the guard's floor (0148)
            before, level, minimum = str(back.removed), back.level, str(back.minimum)
            forcing = ["tool-removed"]
        decl = compilation.tools.get(name)
        span = decl.entry if decl is not None else Span.whole_file(tools_shown)
        server = decl.server if decl is not None else ""
        changes.append(
            ToolChange(
                name, server, before, after, verdict.counted, verdict.accepted, level,
                minimum, span, forcing,
            )
        )  # fmt: skip
    return changes
