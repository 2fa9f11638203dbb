"""What `build` and `check` do with a Compilation that passed the guard: write it (atomically,
under the output's lock, then let the cache remember it), or compare it with the disk."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from msgspec.structs import replace

from toolc import __version__, workspace
from toolc.cache.uptodate import inputs_digest
from toolc.contract import snapshot
from toolc.diagnostics import Diagnostic, Span, diag, sort_key
from toolc.diagnostics.paths import shown_path
from toolc.evolution.previous import Previous
from toolc.pipeline import Compilation
from toolc.source.inputs import INPUT_NAMES, Inputs
from toolc.verbs.listing import ServerCost
from toolc.verbs.refused_write import write_failure
from toolc.workspace import Drift
from toolc.workspace.drift import drift_diagnostics
from toolc.workspace.recovery import stands_for

if TYPE_CHECKING:  # imported by the build that opens one: `check` before a first build has none
    from toolc.cache.store import Store


class DocsDrift(msgspec.Struct, frozen=True):
    """`check`: how the docs on disk differ from what a build would write."""

    root: Path
    drift: Drift
    files: dict[str, bytes]
    diagnostics: tuple[Diagnostic, ...]  # output-* codes, one per file


class BuildResult(msgspec.Struct, frozen=True):
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    written: bool  # False: nothing was written (errors)
    drift: Drift | None = None  # `check`: how the disk differs from what would be built
    files: dict[str, bytes] | None = None
    reread: frozenset[str] | None = None  # an incremental build: the tools read again
    tool_count: int = 0
    costs: list[ServerCost] | None = None  # each server's tools/list, when asked for
    docs: DocsDrift | None = None  # `check` with docs_out: how the docs differ

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def compare_output(
    result: BuildResult,
    out_dir: Path,
    previous: Previous,
    compilation: Compilation,
    cwd: Path,
    docs: DocsDrift | None = None,
) -> BuildResult:
    """`toolc check`: how the output and the snapshot on disk differ from this compile's
    (`docs`: how the reference docs do, when the build writes them)."""
    files = compilation.files
    assert compilation.package is not None
    drift = workspace.compare(out_dir, files)
    found = list(result.diagnostics)
    found += drift_diagnostics(drift, out_dir, files, lambda p: shown_path(p, cwd))
    found += docs.diagnostics if docs is not None else ()
    new_snapshot = snapshot.render(compilation.package.snapshot).encode()
    if previous.snapshot_text != new_snapshot and (
        previous.snapshot_text is not None or out_dir.exists()
    ):
        found.append(
            diag(
                "output-changed",
                Span.whole_file(previous.shown),
                "the snapshot is not what a build would write",
                "run `toolc build`",
            )
        )
    return replace(result, diagnostics=sorted(found, key=sort_key), drift=drift, docs=docs)


def write_output(
    result: BuildResult,
    inputs: Inputs,
    compilation: Compilation,
    store: Store | None,
    out_dir: Path,
    snapshot_path: Path,
    cwd: Path,
    notify: Callable[[str], None] | None,
    beside: tuple[workspace.Tree, ...] = (),
    lints: str = "",
) -> BuildResult:
    """`toolc build`: the package, the trees `beside` it (the reference docs) and the snapshot
    replace the old ones as one, or nothing changes and a diagnostic says why."""
    package = compilation.package
    assert package is not None
    new_snapshot = snapshot.render(package.snapshot).encode()
    raw = {name: inputs.raw(name) for name in INPUT_NAMES}
    hashed = package.digests  # the tools' files, hashed as they were emitted
    manifest = workspace.Manifest(
        f"toolc {__version__}",
        inputs_digest(raw, new_snapshot, out_dir, lints),
        {rel: hashed.get(rel) or workspace.digest(data) for rel, data in package.files.items()},
        {rel: len(data) for rel, data in package.files.items()},
        reported=bool(result.diagnostics),
    )
    known = store.stats if store is not None else {}

    def commit() -> None:
        try:
            if store is not None:
                store.begin(compilation)
            unverified = workspace.commit(
                out_dir, package.files, manifest, snapshot_path, new_snapshot, known, notify, beside
            )
            if store is not None:
                # A file linked on its signature keeps it; only the others are looked at.
                stats = {rel: known[rel] for rel in package.files if rel in known}
                try:
                    stats.update(workspace.signatures(out_dir, unverified))
                except OSError:  # the output is committed: it only goes unremembered
                    return
                store.remember(manifest.inputs, stats, quiet=not result.diagnostics)
        finally:
            if store is not None:
                store.abandon()  # whatever failed, the cache's writing ends (remembered: no-op)

    wanted = (out_dir, snapshot_path, *(tree.root for tree in beside))
    return guarded(result, out_dir, cwd, commit, wanted)


def guarded(
    result: BuildResult,
    out_dir: Path,
    cwd: Path,
    commit: Callable[[], None],
    wanted: tuple[Path, ...] = (),
) -> BuildResult:
    """Run `commit` (which writes `out_dir` and what goes with it, the paths `wanted`):
    written, or a diagnostic saying why nothing changed."""
    try:
        commit()
        workspace.finish_cleanup()
    except workspace.NotOwnedError as exc:
        root = exc.root or out_dir
        return _refused(result, [_not_owned(root / rel, rel, cwd) for rel in exc.paths])
    except workspace.LockTimeout as exc:
        return _refused(result, [_locked(exc, out_dir, cwd)])
    except OSError as exc:  # permissions, a full disk: the previous output stands
        return _refused(result, [_io_error(exc, out_dir, cwd, wanted or (out_dir,))])
    return replace(result, written=True)


def _refused(result: BuildResult, found: list[Diagnostic]) -> BuildResult:
    return replace(result, diagnostics=sorted([*result.diagnostics, *found], key=sort_key))


def _not_owned(path: Path, rel: str, cwd: Path) -> Diagnostic:
    return diag(
        "output-not-owned",
        Span.whole_file(shown_path(path, cwd)),
        f"toolc would overwrite {rel}, a file it did not write",
        "move the file away, or choose another output directory (--out, or --docs-out for "
        "the reference docs)",
    )


def _locked(exc: workspace.LockTimeout, out_dir: Path, cwd: Path) -> Diagnostic:
    return diag(
        "output-locked",
        Span.whole_file(shown_path(exc.path, cwd)),
        f"another toolc build of {shown_path(out_dir, cwd)} held its lock for {exc.waited:.0f} s",
        "wait for it to finish, or raise TOOLC_LOCK_TIMEOUT (seconds)",
    )


def _io_error(exc: OSError, out_dir: Path, cwd: Path, wanted: tuple[Path, ...]) -> Diagnostic:
    target = stands_for(Path(exc.filename)) if isinstance(exc.filename, str) else out_dir
    return write_failure(
        exc,
        wanted,
        cwd,
        "choose another path (--out, --snapshot, --docs-out)",
        left="nothing was half-written",
        target=target,
    )
