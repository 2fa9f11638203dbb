"""A classified change (`Finding`), and the version step a tool's findings require."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import msgspec

from toolc.contract.semver import Version
from toolc.evolution.rules import LEVELS, RULES, Level

Bump = Literal["major", "minor", "patch"]

# The tool of a finding about every tool at once (envelope-changed); `affects` names them.
ALL_TOOLS = "*"


class Finding(msgspec.Struct, frozen=True, dict=True):
    rule: str
    level: Level
    tool: str
    path: str  # a JSON pointer into the contract document, through followed $refs
    message: str
    affects: tuple[str, ...] = ()  # for tool == ALL_TOOLS: the tools the change reaches

    def line(self) -> str:
        """`rule level tool path`: the form of the test corpus's expected.txt."""
        return f"{self.rule} {self.level} {self.tool} {self.path or '/'}"


def finding(rule: str, tool: str, path: str, message: str) -> Finding:
    """A finding of `rule`, at the rule's level (a rule has exactly one level)."""
    return Finding(rule, RULES[rule].level, tool, path, f"tool '{tool}': {message}")


def sort_key(f: Finding) -> tuple[str, int, str, str, str]:
    return (f.tool, LEVELS.index(f.level), f.path, f.rule, f.message)


def findings_for_tool(findings: Iterable[Finding], tool: str) -> list[Finding]:
    """The findings that bear on `tool`'s version: its own, and those about every tool that
    reach it (an envelope change)."""
    return [f for f in findings if f.tool == tool or (f.tool == ALL_TOOLS and tool in f.affects)]


def breaking_step(version: Version) -> Bump:
    """The step a break calls for after `version`: major, or minor below 1.0.0, where semver
    promises nothing and the convention puts breaks in the minor step."""
    return "minor" if version.major == 0 else "major"


def required_bump(findings: Iterable[Finding], old_version: str) -> Bump | None:
    """The smallest version step the findings of one tool require, None when there are none.

    breaking → major (minor below 1.0.0, where semver promises nothing and the convention puts
    breaks in the minor step); warning and compatible → minor (a patch would claim that nothing
    a caller relies on changed); docs, unclassified-change included → patch."""
    levels = {f.level for f in findings}
    if "breaking" in levels:
        return breaking_step(Version.parse(old_version))
    if levels & {"warning", "compatible"}:
        return "minor"
    return "patch" if levels else None


def forcing_rules(findings: Iterable[Finding], old_version: str, level: str) -> list[str]:
    """The rules that alone call for `level`: what a message about a too-small bump names."""
    return sorted({f.rule for f in findings if required_bump([f], old_version) == level})


def minimum_version(old_version: str, level: Bump) -> str:
    """The smallest version above `old_version` that is a step of `level`:
    1.4.2 → major 2.0.0, minor 1.5.0, patch 1.4.3 (1.5.0-rc.1 → patch 1.5.0)."""
    return str(Version.parse(old_version).bumped(level))
