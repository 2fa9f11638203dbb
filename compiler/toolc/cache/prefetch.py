"""A speed trick, kept out of the build's story: the build cache read from disk, and its MAC
computed, in a thread of its own while the build imports the compiler, instead of after.

At 1,000 tools the cache is 29 MB: reading it took about 20 ms and its MAC 17 ms, both
waiting on the system or in C with the interpreter's lock released, while the imports
between the command's start and the cache's load take about 65 ms. The load then decodes
what was read here (`incremental.load`), with exactly the checks it makes on a file it
reads itself: the same trust checks on the file, the same bytes, the MAC compared the
same way. Nothing read here is used for another file, another key or another build."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from toolc.cache.codec import signature
from toolc.cache.key import cache_key
from toolc.cache.overlap import started
from toolc.workspace import private as cache_trust
from toolc.workspace import read_regular

MAX_CACHE_BYTES = 1 << 32  # 5,000 tools make about 150 MB


class Read(NamedTuple):
    """A cache file as `incremental.load` takes it: why it is not to be trusted (None: it
    is), its bytes (None: not a regular file of at most MAX_CACHE_BYTES), and the MAC they
    must end with under `key`."""

    refusal: str | None
    data: bytes | None
    key: bytes
    signed: bytes | None


_pending: list[tuple[Path, Callable[[], Read]]] = []  # the read under way: (path, answer)
_on = True  # off in the build daemon, which keeps its caches in memory (cache.resident)


def turn_off() -> None:
    global _on
    _on = False


def read(path: Path, key: bytes) -> Read:
    """The cache file at `path`, its trust checked, read, and the MAC under `key` computed.
    What it needs is imported before the thread starts: two threads importing at once
    could wait on each other's module locks."""
    why = cache_trust.refusal(path)
    if why is not None:
        return Read(why, None, key, None)
    try:  # a planted sparse file of many GB: refused by its size, never read whole
        data = read_regular(path, limit=MAX_CACHE_BYTES)
    except MemoryError:
        data = None
    if data is None:
        return Read(None, None, key, None)
    return Read(None, data, key, signature(data, key, path.name))


def start(path: Path | None) -> None:
    """Begin reading the cache at `path` (nothing when caching is off or there is none)."""
    drop()
    if _on and path is not None and path.exists():
        # The key read here, in the command's thread: the load compares it with its own.
        key, reading = cache_key(), read  # `read` as it is now, whenever the thread runs
        answer, _ = started(lambda: reading(path, key))
        _pending.append((path, answer))


def take(path: Path) -> Read | None:
    """What `start` read for `path`, once; None when nothing was started for it, or it
    failed (the caller then reads the file itself)."""
    finished = _finished()
    return finished[1] if finished is not None and finished[0] == path else None


def drop() -> None:
    """Whatever was read ahead and not taken: waited for, then forgotten."""
    _finished()


def _finished() -> tuple[Path, Read | None] | None:
    """The read under way, waited for and forgotten: its path and what it read (None: it
    failed); None when there is none."""
    if not _pending:
        return None
    path, answer = _pending.pop()
    try:
        return path, answer()
    except Exception:
        return path, None
