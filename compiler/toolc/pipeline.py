"""The whole story of a toolc run, in order:

    load (YAML → values with spans) → validate (published JSON Schemas) → lower (typed model)
    → check (cross-file rules) → emit ({path: bytes} in memory) → guard (snapshot, versions)
    → write (atomic), or compare with the disk (`toolc check`)

Each phase runs only on what the phase before accepted, so one mistake is reported once, at its
source, rather than again by every later phase that trips over it.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from toolc import __version__, snapshot, workspace
from toolc.checks import run_checks
from toolc.diagnostics import Diagnostic, Span, diag, sort_key
from toolc.guard import check_versions, version_spans
from toolc.model import Project, SourceSpans
from toolc.model.project import lower
from toolc.snapshot import Entry
from toolc.source import LoadedFile, SourceMap, load_file
from toolc.uptodate import inputs_digest
from toolc.validate.schema_errors import validate_file
from toolc.workspace import Drift

TOOLS_FILE = "tools.yaml"
POLICIES_FILE = "tool_policies.yaml"


@dataclass(frozen=True, slots=True)
class CheckResult:
    diagnostics: list[Diagnostic]
    sources: dict[str, str]  # shown path → text, for rendering source lines
    project: Project | None

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def shown_path(file: Path, cwd: Path) -> str:
    """The path as diagnostics print it: relative to the working directory when below it."""
    try:
        return (
            os.path.relpath(file, cwd)
            if file.resolve().is_relative_to(cwd.resolve())
            else str(file)
        )
    except ValueError:  # another drive on Windows
        return str(file)


def _missing_tools_file(tools: Path, shown: str) -> Diagnostic:
    hint = "create tools.yaml with a top-level `tools:` mapping, or pass the directory that has it"
    if tools.with_suffix(".yml").exists():
        hint = "found tools.yml: toolc reads tools.yaml; rename the file"
    return diag(
        "file-not-found", Span.whole_file(shown), "no tools.yaml in the config directory", hint
    )


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """A run allocates a large graph of small objects that all live until it ends; the cyclic
    collector would rescan that graph again and again for nothing (measured: building the model
    of 5,000 tools spent 1.5 s of 2.2 s in full collections)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def check_project(config_dir: Path, cwd: Path | None = None) -> CheckResult:
    with _collector_paused():
        return _check_project(config_dir, cwd or Path.cwd())


def _check_project(config_dir: Path, cwd: Path) -> CheckResult:
    tools_path = config_dir / TOOLS_FILE
    policies_path = config_dir / POLICIES_FILE
    tools_shown = shown_path(tools_path, cwd)
    if not tools_path.is_file():
        return CheckResult([_missing_tools_file(tools_path, tools_shown)], {}, None)

    files: list[tuple[str, LoadedFile]] = [("tools", load_file(tools_path, tools_shown))]
    if policies_path.is_file():
        files.append(("policies", load_file(policies_path, shown_path(policies_path, cwd))))

    diagnostics: list[Diagnostic] = []
    misnamed = policies_path.with_suffix(".yml")
    if misnamed.is_file() and not policies_path.is_file():
        # Silently skipping it would drop every confirmation and pre-validation rule.
        diagnostics.append(
            diag(
                "file-not-found",
                Span.whole_file(shown_path(misnamed, cwd)),
                "tool_policies.yml is not read: toolc reads tool_policies.yaml",
                "rename the file to tool_policies.yaml",
            )
        )
    for kind, loaded in files:
        diagnostics.extend(loaded.diagnostics)
        if loaded.ok:
            diagnostics.extend(validate_file(kind, loaded))
    sources = {loaded.path: loaded.text for _, loaded in files if loaded.text is not None}

    project = None
    if not any(d.is_error for d in diagnostics):
        tools = files[0][1]
        policies = files[1][1] if len(files) > 1 else None
        spans = SourceSpans(tools.spans, policies.spans if policies else None)
        project = lower(tools.data, policies.data if policies else None, spans)
        for _, loaded in files:  # the typed model holds it all now; free the raw values early
            loaded.data = None
        del tools, policies
        diagnostics.extend(run_checks(project))
    diagnostics.sort(key=sort_key)
    return CheckResult(diagnostics, sources, project)


@dataclass(frozen=True, slots=True)
class BuildResult:
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    project: Project | None
    written: bool  # False: nothing was written (errors, or already up to date)
    up_to_date: bool = False
    drift: Drift | None = None  # `check`: how the disk differs from what would be built
    files: dict[str, bytes] | None = None

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def build_project(
    config_dir: Path,
    out_dir: Path,
    snapshot_path: Path,
    *,
    write: bool,
    cwd: Path | None = None,
    strict: bool = False,
) -> BuildResult:
    """load → validate → lower → check → emit → guard → write (or compare, when not `write`)."""
    cwd = cwd or Path.cwd()
    with _collector_paused():
        checked = _check_project(config_dir, cwd)
        if checked.project is None or checked.has_errors or (strict and checked.diagnostics):
            return BuildResult(checked.diagnostics, checked.sources, checked.project, False)
        project = checked.project
        # Imported here: `check` on a config that was never built needs none of the emitters.
        from toolc.emit.package import emit_package

        # The span trees served the checks, which are done; the guard needs one span a tool.
        # Letting the rest go before emitting lowers the build's peak (measured at 5,000 tools,
        # with each descriptor indented for tools.json as it is made: 614 MB to 580 MB).
        spans = version_spans(project)
        project = replace(project, spans=SourceSpans(SourceMap(project.spans.tools.path), None))
        checked = replace(checked, project=project)
        output = emit_package(project)
        snapshot_shown = shown_path(snapshot_path, cwd)
        diagnostics = list(checked.diagnostics)
        old_text = snapshot_path.read_bytes() if snapshot_path.is_file() else None
        old: dict[str, Entry] = {}
        if old_text is not None:
            try:
                old = snapshot.parse(old_text.decode("utf-8"))
            except (snapshot.SnapshotError, UnicodeDecodeError) as exc:
                diagnostics.append(
                    diag("snapshot-invalid", Span.whole_file(snapshot_shown), str(exc))
                )
        diagnostics.extend(check_versions(spans, old, output.snapshot, snapshot_shown))
        new_snapshot = snapshot.render(output.snapshot).encode()
        result_args = (checked.sources, project)
        if any(d.is_error or strict for d in diagnostics):  # under --strict a warning stops it
            diagnostics.sort(key=sort_key)
            return BuildResult(diagnostics, *result_args, False, files=output.files)
        if not write:
            drift = workspace.compare(out_dir, output.files)
            diagnostics.extend(_drift_diagnostics(drift, out_dir, output.files, cwd))
            if old_text != new_snapshot and (old_text is not None or out_dir.exists()):
                diagnostics.append(
                    diag(
                        "output-changed",
                        Span.whole_file(snapshot_shown),
                        "the snapshot is not what a build would write",
                        "run `toolc build`",
                    )
                )
            diagnostics.sort(key=sort_key)
            return BuildResult(diagnostics, *result_args, False, drift=drift, files=output.files)
        manifest = workspace.Manifest(
            f"toolc {__version__}",
            inputs_digest(config_dir, new_snapshot, out_dir),
            {rel: workspace.digest(data) for rel, data in output.files.items()},
            {rel: len(data) for rel, data in output.files.items()},
        )
        try:
            workspace.commit(out_dir, output.files, manifest, snapshot_path, new_snapshot)
        except workspace.NotOwnedError as exc:
            for rel in exc.paths:
                diagnostics.append(
                    diag(
                        "output-not-owned",
                        Span.whole_file(shown_path(out_dir / rel, cwd)),
                        f"toolc would overwrite {rel}, a file it did not write",
                        "move the file away, or choose another output directory with --out",
                    )
                )
            diagnostics.sort(key=sort_key)
            return BuildResult(diagnostics, *result_args, False, files=output.files)
        diagnostics.sort(key=sort_key)
        return BuildResult(diagnostics, *result_args, True, files=output.files)


_HEADER = "# Code generated by toolc "


def _only_generator_differs(old: bytes, new: bytes) -> bool:
    old_head, _, old_rest = old.partition(b"\n")
    new_head, _, new_rest = new.partition(b"\n")
    return (
        old_rest == new_rest
        and old_head.startswith(_HEADER.encode())
        and new_head.startswith(_HEADER.encode())
    )


def _drift_diagnostics(
    drift: Drift, out_dir: Path, files: dict[str, bytes], cwd: Path
) -> Iterator[Diagnostic]:
    for rel in drift.missing:
        yield diag(
            "output-missing",
            Span.whole_file(shown_path(out_dir / rel, cwd)),
            f"{rel} is missing from the output",
            "run `toolc build`",
        )
    for rel in drift.changed:
        span = Span.whole_file(shown_path(out_dir / rel, cwd))
        if _only_generator_differs((out_dir / rel).read_bytes(), files[rel]):
            yield diag(
                "output-generator-version",
                span,
                f"{rel} was generated by another toolc version",
                "run `toolc build`",
            )
        else:
            yield diag(
                "output-changed",
                span,
                f"{rel} differs from what toolc generates",
                "run `toolc build`; `toolc check --diff` shows the difference",
            )
    for rel in drift.orphaned:
        yield diag(
            "output-orphaned",
            Span.whole_file(shown_path(out_dir / rel, cwd)),
            f"{rel} is no longer generated",
            "run `toolc build`, which removes it",
        )
