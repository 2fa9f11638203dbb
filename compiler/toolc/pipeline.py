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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from toolc import __version__, workspace
from toolc.cache import filestats, incremental, rebuild
from toolc.cache.incremental import Files
from toolc.cache.uptodate import inputs_digest
from toolc.checks import run_checks
from toolc.contract import snapshot
from toolc.diagnostics import Diagnostic, Note, Span, diag, sort_key
from toolc.diagnostics.paths import shown_path
from toolc.evolution import previous as versioning
from toolc.evolution.guard import policy_of, version_spans
from toolc.memory import release_free_memory
from toolc.model import Project, SourceSpans
from toolc.model.project import lower
from toolc.model.salvage import salvage
from toolc.model.tools_file import Tool
from toolc.source import LoadedFile, SourceMap, load_file
from toolc.validate.outcome import Validation, validate
from toolc.workspace import Drift
from toolc.workspace.drift import drift_diagnostics

if TYPE_CHECKING:  # the emitters are imported only when a build needs them
    from toolc.emit.client import NameClash

TOOL_FIELDS = frozenset(Tool.model_fields)
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


def analyze(files: list[tuple[str, LoadedFile]]) -> tuple[list[Diagnostic], Project | None]:
    """validate → lower → check, on loaded files ("tools" first, then maybe "policies").

    With schema errors, the checks still run on what validated (`model.salvage`), so that
    independent mistakes are reported in one run; the project is then not returned, since
    parts of it are placeholders."""
    diagnostics: list[Diagnostic] = []
    validations: list[Validation | None] = []
    for kind, loaded in files:
        diagnostics.extend(loaded.diagnostics)
        validation = validate(kind, loaded) if loaded.ok else None
        validations.append(validation)
        if validation is not None:
            diagnostics.extend(validation.diagnostics)
    if any(d.is_error for d in diagnostics):
        if any(v is None for v in validations):  # a file that did not load: nothing to judge
            return diagnostics, None
        diagnostics.extend(_partial_checks(files, validations))
        return diagnostics, None
    tools = files[0][1]
    policies = files[1][1] if len(files) > 1 else None
    spans = SourceSpans(tools.spans, policies.spans if policies else None)
    project = lower(tools.data, policies.data if policies else None, spans)
    for _, loaded in files:  # the typed model holds it all now; free the raw values early
        loaded.data = None
    del tools, policies
    diagnostics.extend(run_checks(project))
    return diagnostics, project


def _partial_checks(
    files: list[tuple[str, LoadedFile]], validations: list[Validation | None]
) -> list[Diagnostic]:
    """The checks, on the parts of the config that validated."""
    tools, tools_check = files[0][1], validations[0]
    policies = files[1][1] if len(files) > 1 else None
    policies_check = validations[1] if len(files) > 1 else None
    assert tools_check is not None
    saved = salvage(
        tools.data,
        (tools_check.broken, tools_check.names),
        policies.data if policies else None,
        (policies_check.broken, policies_check.names) if policies_check else None,
        TOOL_FIELDS,
    )
    if saved is None:
        return []
    tools_data, policies_data, damage = saved
    spans = SourceSpans(tools.spans, policies.spans if policies else None)
    try:
        project = lower(tools_data, policies_data, spans, damage)
    except ValueError:  # a part the salvage kept that the model still refuses: judge nothing
        return []
    return run_checks(project)


def _check_project(config_dir: Path, cwd: Path) -> CheckResult:
    tools_path = config_dir / TOOLS_FILE
    policies_path = config_dir / POLICIES_FILE
    tools_shown = shown_path(tools_path, cwd)
    if not os.path.lexists(tools_path):
        return CheckResult([_missing_tools_file(tools_path, tools_shown)], {}, None)

    files: list[tuple[str, LoadedFile]] = [("tools", load_file(tools_path, tools_shown))]
    # Whatever stands at tool_policies.yaml is read (a directory, a FIFO or a dangling link
    # is an error): skipping it would publish action tools without their confirmation.
    if os.path.lexists(policies_path):
        files.append(("policies", load_file(policies_path, shown_path(policies_path, cwd))))

    diagnostics: list[Diagnostic] = []
    misnamed = policies_path.with_suffix(".yml")
    if misnamed.is_file() and not os.path.lexists(policies_path):
        # Silently skipping it would drop every confirmation and pre-validation rule.
        diagnostics.append(
            diag(
                "file-not-found",
                Span.whole_file(shown_path(misnamed, cwd)),
                "tool_policies.yml is not read: toolc reads tool_policies.yaml",
                "rename the file to tool_policies.yaml",
            )
        )
    sources = {loaded.path: loaded.text for _, loaded in files if loaded.text is not None}
    found, project = analyze(files)
    if any(d.is_error for d in diagnostics):  # a misnamed policies file: no project
        project = None
    diagnostics.extend(found)
    diagnostics.sort(key=sort_key)
    return CheckResult(diagnostics, sources, project)


def compile_texts(tools_text: str, policies_text: str | None, where: str) -> dict[str, bytes]:
    """A config given as texts (a baseline from git), compiled in memory."""
    from toolc.emit.package import emit_package
    from toolc.evolution.baseline import BaselineError
    from toolc.source.yaml_loader import load_yaml

    files: list[tuple[str, LoadedFile]] = []
    for kind, name, text in (
        ("tools", "tools.yaml", tools_text),
        ("policies", "tool_policies.yaml", policies_text),
    ):
        if text is not None:
            shown = f"{where.rstrip('/')}/{name}" if not where.endswith(":") else where + name
            value, spans, problems = load_yaml(text, shown)
            files.append((kind, LoadedFile(shown, text, value, spans, problems)))
    with _collector_paused():
        found, project = analyze(files)
        errors = [d for d in found if d.is_error]
        if project is None or errors:
            first = errors[0] if errors else None
            where_ = f"{first.span.path}:{first.span.line}: {first.message}" if first else ""
            raise BaselineError(f"the baseline config does not compile ({where_})")
        return emit_package(project).files


def generate(config_dir: Path, cwd: Path | None = None) -> tuple[CheckResult, dict[str, bytes]]:
    """The package in memory, without the snapshot's guard or the disk (`toolc serve`)."""
    with _collector_paused():
        checked = _check_project(config_dir, cwd or Path.cwd())
        if checked.project is None or checked.has_errors:
            return checked, {}
        from toolc.emit.package import emit_package

        return checked, emit_package(checked.project).files


@dataclass(frozen=True, slots=True)
class BuildResult:
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    project: Project | None
    written: bool  # False: nothing was written (errors, or already up to date)
    up_to_date: bool = False
    drift: Drift | None = None  # `check`: how the disk differs from what would be built
    files: dict[str, bytes] | None = None
    reread: frozenset[str] | None = None  # an incremental build: the tools read again
    tool_count: int = 0

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def _clashed(checked: CheckResult, clash: NameClash, spans: Mapping[str, Span]) -> BuildResult:
    """Two tools whose generated classes client.py would import under one name."""
    name, first, second = clash.name, clash.first, clash.second
    note = (Note(spans[first], f"'{first}' defines it too"),) if first in spans else ()
    found = diag(
        "identifier-collision",
        spans[second],
        f"tools '{first}' and '{second}' both define the class '{name}', which the typed "
        "client imports from each",
        f"rename '{second}' or the argument or field that names the class",
        note,
    )
    return BuildResult(sorted([*checked.diagnostics, found], key=sort_key), checked.sources,
                       checked.project, False)  # fmt: skip


def _layouts(config_dir: Path, cwd: Path) -> Files | None:
    tools, policies = config_dir / TOOLS_FILE, config_dir / POLICIES_FILE
    if policies.with_suffix(".yml").exists():
        return None
    return rebuild.read_files(tools, shown_path(tools, cwd), policies, shown_path(policies, cwd))


def build_project(
    config_dir: Path,
    out_dir: Path,
    snapshot_path: Path,
    *,
    write: bool,
    cwd: Path | None = None,
    strict: bool = False,
    cache: bool = True,
    against: str | None = None,
    notify: Callable[[str], None] | None = None,
) -> BuildResult:
    """load → validate → lower → check → emit → guard → write (or compare, when not `write`)."""
    cwd = cwd or Path.cwd()
    with _collector_paused():
        cache_path = incremental.cache_file(config_dir, out_dir, snapshot_path) if cache else None
        files = _layouts(config_dir, cwd) if cache_path else None
        reuse = rebuild.try_reuse(incremental.load(cache_path, notify), files, analyze)
        if reuse is not None:
            sources = {files.tools_shown: files.tools.text} if files else {}
            if files and files.policies and files.policies_shown:
                sources[files.policies_shown] = files.policies.text
            reuse.diagnostics.sort(key=sort_key)
            checked = CheckResult(reuse.diagnostics, sources, reuse.project)
        else:
            checked = _check_project(config_dir, cwd)
        if checked.project is None or checked.has_errors or (strict and checked.diagnostics):
            return BuildResult(checked.diagnostics, checked.sources, checked.project, False)
        project = checked.project
        # Imported here: `check` on a config that was never built needs none of the emitters.
        from toolc.emit.client import NameClash
        from toolc.emit.package import assemble, shared_inputs

        if reuse is not None:
            spans = reuse.version_spans()
            try:
                output, outputs, shared = reuse.emit()
            except NameClash as clash:
                return _clashed(checked, clash, spans)
            gate_policy = policy_of(reuse.project)
            facts = rebuild.facts_of(reuse.project.tools)
            tool_count = len(reuse.cache.tool_order)
        else:
            seeds = rebuild.cacheable(files, project)
            shared = shared_inputs(project)
            # The span trees served the checks, which are done; the guard needs one span a
            # tool. The typed model goes tool by tool as each is emitted. Both lower the
            # build's peak (measured at 5,000 tools: 614 MB to 580 MB for the spans).
            spans = version_spans(project)
            gate_policy = policy_of(project)
            decls = dict(project.tools)
            tool_count = len(decls)
            project = replace(
                project,
                tools=MappingProxyType({}),
                spans=SourceSpans(SourceMap(project.spans.tools.path), None),
            )
            checked = replace(checked, project=project)
            release_free_memory()  # the span trees and raw values, before emitting
            outputs, facts = rebuild.emit_releasing(decls, shared)
            try:
                output = assemble(outputs, shared)
            except NameClash as clash:
                return _clashed(checked, clash, spans)
        seeding = files is not None and (reuse is not None or seeds)
        snapshot_shown = shown_path(snapshot_path, cwd)
        diagnostics = list(checked.diagnostics)
        found, old_text = versioning.guard(
            spans=spans,
            policy=gate_policy,
            entries=output.snapshot,
            files=output.files,
            snapshot_path=snapshot_path,
            snapshot_shown=snapshot_shown,
            out_dir=out_dir,
            config_dir=config_dir,
            against=against,
        )
        diagnostics += found
        new_snapshot = snapshot.render(output.snapshot).encode()
        reread = frozenset(reuse.keep) if reuse else None

        def finish(written: bool, drift: Drift | None = None) -> BuildResult:
            diagnostics.sort(key=sort_key)
            return BuildResult(
                diagnostics,
                checked.sources,
                project,
                written,
                drift=drift,
                files=output.files,
                reread=reread,
                tool_count=tool_count,
            )

        if any(d.is_error or strict for d in diagnostics):  # under --strict a warning stops it
            return finish(False)
        if not write:
            drift = workspace.compare(out_dir, output.files)
            diagnostics.extend(
                drift_diagnostics(drift, out_dir, output.files, lambda p: shown_path(p, cwd))
            )
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
            return finish(False, drift)
        kept = reuse.known_digests() if reuse else {}  # files kept from the last build
        digests = {rel: kept.get(rel) or workspace.digest(d) for rel, d in output.files.items()}
        manifest = workspace.Manifest(
            f"toolc {__version__}",
            inputs_digest(config_dir, new_snapshot, out_dir),
            digests,
            {rel: len(data) for rel, data in output.files.items()},
        )
        next_cache = (
            rebuild.new_cache(
                files,
                facts,
                outputs,
                output,
                shared,
                spans,
                checked.diagnostics,
                reuse.cache if reuse else None,
                digests,
            )
            if seeding and files is not None
            else None
        )
        try:
            known = reuse.cache.stats if reuse else {}
            unverified = workspace.commit(
                out_dir, output.files, manifest, snapshot_path, new_snapshot, known, notify
            )
            if cache_path is not None:
                # A file linked on its signature keeps it; only the others are looked at.
                stats = {rel: known[rel] for rel in output.files if rel in known}
                stats.update(workspace.signatures(out_dir, unverified))
                record = filestats.stats_file(config_dir, out_dir, snapshot_path)
                if record is not None:  # what the no-op check compares the output with
                    encoded = filestats.encode(manifest.inputs, stats)
                    workspace.save_cache_bytes(record, encoded)
                if next_cache is not None:
                    stored = replace(next_cache, stats=stats)
                    workspace.save_cache(
                        cache_path, lambda stream: incremental.dump(stored, cache_path, stream)
                    )
            workspace.finish_cleanup()
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
            return finish(False)
        except workspace.LockTimeout as exc:
            diagnostics.append(
                diag(
                    "output-locked",
                    Span.whole_file(shown_path(exc.path, cwd)),
                    f"another toolc build of {shown_path(out_dir, cwd)} held its lock for "
                    f"{exc.waited:.0f} s",
                    "wait for it to finish, or raise TOOLC_LOCK_TIMEOUT (seconds)",
                )
            )
            return finish(False)
        except OSError as exc:  # permissions, a full disk: the previous output stands
            where = (
                shown_path(Path(exc.filename), cwd) if exc.filename else shown_path(out_dir, cwd)
            )
            diagnostics.append(
                diag(
                    "io-error",
                    Span.whole_file(where),
                    f"cannot write the output: {exc.strerror or exc}",
                    "fix the cause and build again; nothing was half-written",
                )
            )
            return finish(False)
        return finish(True)
