"""Rules that need more than one value at a time: across tools, across files, across schemas.
Each check is a small function from the typed project to diagnostics."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from toolc.checks import fragments, names, policies
from toolc.diagnostics import Diagnostic
from toolc.model import Project

Check = Callable[[Project], Iterable[Diagnostic]]

CHECKS: tuple[Check, ...] = (
    *policies.CHECKS,
    *names.CHECKS,
    *fragments.CHECKS,
)


def run_checks(project: Project) -> list[Diagnostic]:
    return [d for check in CHECKS for d in check(project)]
