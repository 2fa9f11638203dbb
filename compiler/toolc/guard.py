"""The version guard: each tool against the existing snapshot, before anything is written."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from toolc.diagnostics import Diagnostic, Span, diag
from toolc.model import Project
from toolc.semver import Version
from toolc.snapshot import Entry


def version_spans(project: Project) -> dict[str, Span]:
    """Where each tool's version is declared: all of the source spans the guard needs."""
    return {
        name: project.spans.tool(("tools", name, "version"), key=True) for name in project.tools
    }


def check_versions(
    spans: Mapping[str, Span], old: dict[str, Entry], new: dict[str, Entry], snapshot_shown: str
) -> Iterator[Diagnostic]:
    for name, entry in new.items():
        before = old.get(name)
        if before is None:
            continue
        span = spans[name]
        try:
            previous = Version.parse(before.version)
        except ValueError:
            previous = None
        current = Version.parse(entry.version)
        if previous is not None and current < previous:
            yield diag(
                "version-decreased",
                span,
                f"tool '{name}' went from version {previous} down to {current}",
                f"versions only go up: use at least {previous}",
            )
        elif before.contract != entry.contract and (previous is None or current <= previous):
            minimum = previous.bumped("patch") if previous is not None else current
            yield diag(
                "version-not-bumped",
                span,
                f"tool '{name}' changed its contract ({before.contract} → {entry.contract}) "
                f"but kept version {current}; bump it to at least {minimum}",
            )
    for name in old:
        if name not in new:
            yield diag(
                "tool-removed",
                Span.whole_file(snapshot_shown),
                f"tool '{name}' (version {old[name].version}) is in the snapshot but no longer "
                "declared; it is dropped from the snapshot",
            )
