"""The reference docs as an output: the tree `build` writes beside the package (all or nothing,
with it), `check` compares, and `toolc docs` writes alone. The docs directory carries its own
manifest (decision 0065): toolc owns files there the way it owns the package's, so the same
rules hold (never a user's file overwritten, an old page deleted only while it is toolc's)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from msgspec.structs import replace

from toolc import __version__, workspace
from toolc.cache.uptodate import inputs_digest
from toolc.checks.metadata import shown
from toolc.diagnostics.paths import shown_path
from toolc.memory import collector_paused
from toolc.pipeline import Compilation, compile
from toolc.source.inputs import INPUT_NAMES, Inputs, read_inputs
from toolc.verbs.output import BuildResult, DocsDrift, guarded
from toolc.workspace.drift import drift_diagnostics


def reference(compilation: Compilation) -> dict[str, bytes]:
    """The docs of a compilation that emitted its package."""
    # Imported here: a build without --docs-out never needs the reference docs (~8 ms).
    from toolc.reference import docs_files

    served = {name: d.server for name, d in compilation.tools.items() if d.enabled}
    return docs_files(compilation.files, served, compilation.server_ceilings)


def docs_tree(compilation: Compilation, inputs: Inputs, docs_dir: Path) -> workspace.Tree:
    """The docs directory's files and manifest. Its digest covers the config and toolc
    itself, not the snapshot: the docs are made from the config alone."""
    files = reference(compilation)
    raw = {name: inputs.raw(name) for name in INPUT_NAMES}
    manifest = workspace.Manifest(
        f"toolc {__version__}",
        inputs_digest(raw, None, docs_dir),
        {rel: workspace.digest(data) for rel, data in files.items()},
        {rel: len(data) for rel, data in files.items()},
    )
    return workspace.Tree(docs_dir, files, manifest)


def docs_drift(compilation: Compilation, docs_dir: Path, cwd: Path) -> DocsDrift:
    files = reference(compilation)
    drift = workspace.compare(docs_dir, files)
    found = drift_diagnostics(drift, docs_dir, files, lambda p: shown_path(p, cwd))
    return DocsDrift(docs_dir, drift, files, tuple(found))


def write_docs(
    config_dir: Path,
    docs_dir: Path,
    cwd: Path,
    notify: Callable[[str], None] | None,
    *,
    strict: bool = False,
    metadata_lint: bool = False,
) -> BuildResult:
    """`toolc docs`: compile, then replace the docs directory (nothing written on errors, or
    on warnings under `strict`, as for `build`)."""
    inputs = read_inputs(config_dir, cwd)
    with collector_paused():
        compilation = compile(inputs)
    result = BuildResult(shown(compilation.diagnostics, metadata_lint), compilation.sources, False)
    if compilation.package is None or compilation.has_errors or (strict and result.diagnostics):
        return result
    tree = docs_tree(compilation, inputs, docs_dir)
    result = replace(result, files=tree.files, tool_count=len(compilation.tools))
    return guarded(result, docs_dir, cwd, lambda: workspace.commit_tree(tree, notify))
