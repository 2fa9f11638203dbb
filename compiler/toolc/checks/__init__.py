"""Rules that need more than one value at a time: across tools, across files, across schemas.
Each check is a small function from the shared context to diagnostics."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from toolc.checks import (
    accepts,
    breaks,
    ceilings,
    fragments,
    metadata,
    names,
    pointers,
    policies,
    portable,
    prevalidators,
    prose,
    proxies,
    python_client,
    types,
    values,
)
from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic
from toolc.model import Project

Check = Callable[[CheckContext], Iterable[Diagnostic]]

CHECKS: tuple[Check, ...] = (
    *policies.CHECKS,
    *prevalidators.CHECKS,
    *accepts.CHECKS,
    *names.CHECKS,
    *types.CHECKS,
    *pointers.CHECKS,
    *fragments.CHECKS,
    *python_client.CHECKS,
    *values.CHECKS,
    *breaks.CHECKS,
    *prose.CHECKS,
    *metadata.CHECKS,
    *ceilings.CHECKS,
    *proxies.CHECKS,
    *portable.CHECKS,
)


def run_checks(project: Project) -> list[Diagnostic]:
    ctx = CheckContext(project)
    return [d for check in CHECKS for d in check(ctx)]
