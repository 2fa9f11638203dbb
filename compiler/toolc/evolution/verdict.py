"""The bump verdict of one tool: which findings count (an `accepted_breaks:` entry takes a
break out for exactly its transition), the level they call for, the smallest version that
meets it and the rules that set it. The guard's diagnostics and `toolc diff`'s table both
read it, so the gate and the report cannot disagree."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec
from msgspec import field

from toolc.evolution.findings import Finding, forcing_rules, minimum_version, required_bump
from toolc.model.tools_file import AcceptedBreak


class Verdict(msgspec.Struct, frozen=True):
    counted: list[Finding]  # the findings that bear on the version
    accepted: list[Finding] = field(default_factory=list)
    level: str | None = None  # "major" | "minor" | "patch"; None: no version is asked for
    minimum: str | None = None  # the smallest version the change allows
    forcing: list[str] = field(default_factory=list)  # the rules that alone set `level`


def accepts(
    entries: Iterable[AcceptedBreak], tool: str, old: str | None, new: str | None, rule: str
) -> bool:
    """An `accepted_breaks:` entry covers this rule for this exact transition (`new` None:
    the tool was removed)."""
    target = new if new is not None else "removed"
    return any((e.tool, e.from_, e.to, e.rule) == (tool, old, target, rule) for e in entries)


def judge(
    tool: str,
    findings: list[Finding],
    old: str | None,
    new: str | None,
    bump_policy: str,
    accepted: Iterable[AcceptedBreak],
) -> Verdict:
    """`old`/`new`: the tool's versions (None: added / removed). Under `bump_policy: any` any
    higher version will do: the level is a patch."""
    entries = list(accepted)
    taken = [f for f in findings if accepts(entries, tool, old, new, f.rule)]
    counted = [f for f in findings if f not in taken]
    if new is None:  # a removal: no version can fix it, the rules say why
        return Verdict(counted, taken, forcing=sorted({f.rule for f in counted}))
    if old is None or not counted:
        return Verdict(counted, taken)
    level = required_bump(counted, old) if bump_policy == "semver" else "patch"
    if level is None:
        return Verdict(counted, taken)
    forcing = forcing_rules(counted, old, level)
    return Verdict(counted, taken, level, minimum_version(old, level), forcing)
