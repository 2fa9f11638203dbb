"""The cache's entry points for a build: `reuse` (a Compilation for inputs mostly unchanged
since the last build, or None), `begin` (before the output is committed: this build's cache,
written meanwhile) and `remember` (after: the signatures of the files it left; or `abandon`
when the commit failed). A verb that uses them gets exactly what a full compile gives:
`tests/test_incremental.py` builds every kind of edit both ways and compares."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import BinaryIO, cast

import msgspec
from msgspec import field
from msgspec.structs import replace

from toolc import workspace
from toolc.cache import filestats, incremental, rebuild, resident
from toolc.cache.codec import Frames, Reuse
from toolc.cache.incremental import BuildCache, Files
from toolc.cache.overlap import Handoff, started
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
    made: BuildCache | None = None  # the cache this build leaves, but its stats (`begin`)
    saving: Saving | None = None  # its file being written while the output is committed
    failed: Exception | None = None  # making it failed: raised once the output is written

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

    def begin(self, compilation: Compilation) -> None:
        """Before the output is committed: the cache this build leaves, all of it but the
        signatures of the output's files, which `remember` gives once they exist. A one-shot
        build starts writing it now, beside the commit (`Saving`). Either `remember` or
        `abandon` must follow."""
        files = self.files
        if files is None or not (
            self.reread is not None or rebuild.cacheable(files, compilation.tools)
        ):
            return
        previous = self.previous if self.reread is not None else None
        try:
            self.made = rebuild.new_cache(files, compilation, previous)
        except Exception as exc:  # raised once the output is written, as it always was
            self.failed = exc
            return
        if self.made is not None and not resident.enabled():
            self.saving = Saving(self.path, self.made, self._reuse())

    def abandon(self) -> None:
        """The commit failed, or what follows it: the cache being written is dropped (a
        no-op once `remember` has written it)."""
        saving, self.saving = self.saving, None
        if saving is not None:
            saving.abandon()

    def remember(
        self, inputs_digest: str, stats: Mapping[str, Signature], quiet: bool = True
    ) -> None:
        """After the output is written: `stats`, the signatures of every file it holds. A
        build that reported something (`quiet` False) leaves a record that fails the next
        no-op check, so a build of the same inputs reports it again, not just "up to date"."""
        saving = self.saving
        try:
            if self.stats_path is not None:
                encoded = filestats.encode(inputs_digest, stats, reported=not quiet)
                workspace.save_cache_bytes(self.stats_path, encoded)
        finally:  # the output is committed: the cache being written is its own
            if saving is not None:
                saving.finish(dict(stats))
                self.saving = None
        if self.failed is not None:
            raise self.failed
        if self.made is not None and resident.enabled():  # never a Saving there
            # the build daemon writes it once its client has the answer
            stored = replace(self.made, stats=dict(stats))
            previous = self.previous if self.reread is not None else None
            resident.save(self.path, stored, previous, self._reuse())

    def _reuse(self) -> Reuse | None:
        previous = self.previous if self.reread is not None else None
        return incremental.unchanged_frames(previous, self.frames) if previous else None


class Saving:
    """A speed trick, kept out of the story: the build cache written in a thread while the
    output is committed (at 1,000 tools, writing and signing its 29 MB took about 0.08 s
    after a one-tool edit's 0.07 s commit; both mostly wait on the system, which releases
    the interpreter's lock). Everything but the output's signatures streams out at once;
    they come last in the file (`BuildCache.stats`), handed over by `finish`. The file
    appears whole or not at all (`workspace.save_cache`), as before."""

    def __init__(self, path: Path, made: BuildCache, reuse: Reuse | None) -> None:
        self._stats = Handoff()
        self._stopped = False

        def stats() -> dict[str, Signature]:
            return self._stats.take()  # type: ignore[return-value]  # finish's dict

        def write(stream: BinaryIO) -> None:
            stopping = cast(BinaryIO, _Stopping(stream, self))
            incremental.dump(made, path, stopping, reuse, stats=stats)

        self._written, _ = started(lambda: workspace.save_cache(path, write))

    def finish(self, stats: dict[str, Signature]) -> None:
        """The output's signatures, last in the file; returns once the file is written."""
        self._stats.give(stats)
        self._written()

    def abandon(self) -> None:
        """No file: the thread's next write raises, which leaves none; returns once it has."""
        self._stopped = True
        self._stats.fail(_Abandoned())
        self._written()


class _Stopping:
    """The cache file's stream, which refuses to write once the saving is abandoned: the
    thread stops at its next frame instead of writing the whole cache for nothing."""

    def __init__(self, stream: BinaryIO, saving: Saving) -> None:
        self._stream, self._saving = stream, saving

    def write(self, chunk: bytes | memoryview) -> int:
        if self._saving._stopped:
            raise _Abandoned
        return self._stream.write(chunk)


class _Abandoned(Exception):
    """The commit failed: the cache being written is not for this output."""


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
