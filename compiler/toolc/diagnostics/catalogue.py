"""One catalogue of every ID toolc names (decision 0045): the diagnostic codes
(diagnostics/codes.py) and the rules of contract evolution (evolution/rules.py). `toolc explain`,
`--list-rules` and both docs pages read it, so any ID a message names can be explained. An ID
that is both (`tool-removed`: the guard's diagnostic and `toolc diff`'s rule) is one entry
showing both aspects, the diagnostic first: the two say different, true things about one event."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Literal

import msgspec

from toolc.diagnostics.codes import CODES
from toolc.diagnostics.suggest import did_you_mean
from toolc.evolution.findings import Finding, required_bump
from toolc.evolution.rules import RULES, SECTIONS

Kind = Literal["diagnostic", "evolution"]
KINDS: tuple[Kind, ...] = ("diagnostic", "evolution")
PAGES: Mapping[Kind, str] = {"diagnostic": "diagnostics.md", "evolution": "evolution.md"}

# The sections of docs/diagnostics.md, by the group of each code.
DIAGNOSTIC_GROUPS = {
    "input": "Reading the files",
    "yaml": "YAML",
    "schema": "The published schemas",
    "tools": "Rules across the declarations of tools.yaml",
    "policy": "tools.yaml and tool_policies.yaml together",
    "prose": "Descriptions and names against the schemas",
    "metadata": "The metadata lint (opt-in: `metadata_lint`)",
    "build": "The build: version guard and generated files",
    "targets": "Provider targets (opt-in: `--target`, `targets`)",
    "import": "Importing a server's tools (`toolc import`)",
}


class Aspect(msgspec.Struct, frozen=True):
    """What one table says about an ID."""

    id: str
    kind: Kind
    grade: str  # a diagnostic's severity, an evolution rule's level
    section: str  # its section of the docs page
    summary: str
    explanation: str


class UnknownId(LookupError):
    """An ID that is neither a diagnostic code nor an evolution rule (the message suggests one)."""


@cache
def aspects() -> tuple[Aspect, ...]:
    """Every aspect, each kind in the order of its docs page."""
    found = [
        Aspect(c.code, "diagnostic", c.severity.value, DIAGNOSTIC_GROUPS[c.group], c.summary,
               c.explanation)
        for c in sorted(CODES.values(), key=lambda c: list(DIAGNOSTIC_GROUPS).index(c.group))
    ]  # fmt: skip
    found += [
        Aspect(r.id, "evolution", r.level, title, r.summary, r.explanation)
        for title, rules in SECTIONS
        for r in rules.values()
    ]
    return tuple(found)


@cache
def catalogue() -> dict[str, tuple[Aspect, ...]]:
    """Each ID with its aspects, the diagnostic first."""
    entries: dict[str, tuple[Aspect, ...]] = {}
    for aspect in aspects():
        entries[aspect.id] = (*entries.get(aspect.id, ()), aspect)
    return entries


def _lookup(entry_id: str) -> tuple[Aspect, ...]:
    entry = catalogue().get(entry_id)
    if entry is None:
        suggestion = did_you_mean(entry_id, catalogue())
        raise UnknownId(f"unknown diagnostic code or evolution rule '{entry_id}'{suggestion}")
    return entry


def _bump(rule_id: str) -> str:
    """The version step a finding of this rule calls for (the guard's own function decides)."""
    finding = Finding(rule_id, RULES[rule_id].level, "", "", "")
    step, below_one = required_bump([finding], "1.0.0"), required_bump([finding], "0.1.0")
    return f"a {step} version step" + (f" ({below_one} below 1.0.0)" if below_one != step else "")


def _what(aspect: Aspect) -> str:
    where = f"docs/{PAGES[aspect.kind]}#{aspect.id}"
    if aspect.kind == "diagnostic" and aspect.section == DIAGNOSTIC_GROUPS["import"]:
        return f"A diagnostic of `toolc import` and `toolc init --from` ({where})."
    if aspect.kind == "diagnostic":
        return f"A diagnostic of `toolc check` and `toolc build` ({where})."
    return (
        f"A rule of contract evolution, reported by `toolc diff`: a tool with this change "
        f"needs {_bump(aspect.id)} ({where})."
    )


def explain(entry_id: str) -> str:
    """What `toolc explain ID` prints: each aspect's grade, summary, kind and explanation."""
    return "\n\n".join(
        f"{a.id} ({a.grade}): {a.summary}\n{_what(a)}\n\n{a.explanation}" for a in _lookup(entry_id)
    )


def listing(kind: str | None = None) -> str:
    """One line per aspect: ID, kind, grade, summary, in columns. Given one kind, its column
    is left out (what `toolc diff --list-rules` prints for the evolution rules)."""
    rows = [
        [a.id, *([a.kind] if kind is None else []), a.grade, a.summary]
        for a in aspects()
        if kind in (None, a.kind)
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + f"  {row[-1]}\n"
        for row in rows
    )
