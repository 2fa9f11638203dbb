"""The cache's two entry points for a build: `reuse` (a Compilation for inputs mostly
unchanged since the last build, or None) and `remember` (keep this build's Compilation and the
signatures of the files it left). A verb that uses them gets exactly what a full compile gives:
`tests/test_incremental.py` builds every kind of edit both ways and compares."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

import msgspec
from msgspec import field
from msgspec.structs import replace

from toolc import workspace
from toolc.cache import filestats, incremental, rebuild, resident
from toolc.cache.codec import Frames
from toolc.cache.incremental import BuildCache, Files
from toolc.pipeline import Compilation
from toolc.source.inputs import Inputs
from toolc.workspace import Signature


class Store(msgspec.Struct, dict=True):
    path: Path  # the build cache
    stats_path: Path | None  # the signatures the no-op check trusts
    previous: BuildCache | None
    files: Files | None = None  # this build's config, cut into entries
    reread: frozenset[str] | None = None  # an incremental build: the tools read again
    frames: Frames = field(default_factory=dict)  # the records of `previous`, as read

    @property
    def stats(self) -> Mapping[str, Signature]:
        """The output's files as the last build left them (linked unread when unchanged)."""
        return self.previous.stats if self.previous is not None else {}

    def reuse(self, inputs: Inputs) -> Compilation | None:
        self.files = rebuild.read_files(inputs)
        try:
            found = rebuild.try_reuse(self.previous, self.files)
            compilation = found.compilation() if found is not None else None
        except Exception:
            # The cache's members, below what loading checks, are not what a build leaves
            # (an authentic file its key holder made by hand): the full build, as for any
            # cache that cannot be used. TOOLC_DEBUG shows what failed.
            if os.environ.get("TOOLC_DEBUG"):
                raise
            self.previous, self.frames = None, {}
            return None
        if found is not None and compilation is not None:
            self.reread = frozenset(found.keep)
        return compilation

    def remember(
        self,
        compilation: Compilation,
        inputs_digest: str,
        stats: Mapping[str, Signature],
        quiet: bool = True,
    ) -> None:
        """After the output is written: `stats`, the signatures of every file it holds. A
        build that reported something (`quiet` False) leaves a record that fails the next
        no-op check, so a build of the same inputs reports it again, not just "up to date"."""
        if self.stats_path is not None:
            encoded = filestats.encode(inputs_digest, stats, reported=not quiet)
            workspace.save_cache_bytes(self.stats_path, encoded)
        files = self.files
        if files is None or not (
            self.reread is not None or rebuild.cacheable(files, compilation.tools)
        ):
            return
        previous = self.previous if self.reread is not None else None
        made = rebuild.new_cache(files, compilation, previous)
        if made is None:
            return
        stored, path = replace(made, stats=dict(stats)), self.path
        reuse = incremental.unchanged_frames(previous, self.frames) if previous else None
        if resident.enabled():  # the build daemon writes it once its client has the answer
            resident.save(path, stored, previous, reuse)
            return
        workspace.save_cache(path, lambda stream: incremental.dump(stored, path, stream, reuse))


def open_store(
    config_dir: Path, out_dir: Path, snapshot_path: Path, warn: Callable[[str], None] | None
) -> Store | None:
    """The cache of this config and output (None: caching is off)."""
    path = incremental.cache_file(config_dir, out_dir, snapshot_path)
    if path is None:
        return None
    stats_file = filestats.stats_file(config_dir, out_dir, snapshot_path)
    stats_path = None if stats_file is None else Path(stats_file)
    frames: Frames = {}
    load = resident.load if resident.enabled() else incremental.load
    return Store(path, stats_path, load(path, warn, frames), frames=frames)
