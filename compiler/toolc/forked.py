"""A speed trick, kept out of the story: a list of independent computations split over two
processes, the second half done in a forked child that inherits the compiled model (no
import, no pickling of the input) and sends back only its results.

Emitting every tool is about half a cold build, one tool's output depends on that tool
and the shared inputs alone, and the machines toolc runs on have at least two cores: at
1,000 tools the emit phase took about 2.4 s of CPU (decision 0117). The answer is the
same list either way: the child's share is recomputed in this process whenever the child
did not deliver it whole (it failed, was killed, or sent something unreadable), so a
failure can only cost time, and a bug raises here as it would without the child.

It forks only where that is safe and pays: Linux with two usable cores, no other thread
running (a fork copies one thread and whatever locks the others held), memory to spare
for the pages the child copies, and enough items. `TOOLC_JOBS=1` turns it off."""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 200  # below it, forking and sending the results back cost more than they save


def usable() -> bool:
    """Whether a child may be forked here and would run beside this process."""
    if os.environ.get("TOOLC_JOBS") == "1" or not hasattr(os, "fork"):
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return cores >= 2 and threading.active_count() == 1 and _room_for_a_copy()


def _room_for_a_copy() -> bool:
    """Whether the machine has memory to spare for the child: it ends up copying much of
    this process's pages (measured at 5,000 tools: 909 MiB for the two together against
    546 alone), so it is forked only with at least four times this process's size free."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            resident = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        with open("/proc/meminfo", "rb") as meminfo:
            for line in meminfo:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024 >= 4 * resident
    except (OSError, ValueError, IndexError):
        pass
    return False  # not Linux, or not readable: do not guess


def split_map(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """`[fn(x) for x in items]`, its second half computed in a forked child when it pays."""
    if len(items) < MIN_ITEMS or not usable():
        return [fn(x) for x in items]
    half = len(items) // 2
    try:
        read_end, write_end = os.pipe()
    except OSError:  # out of file descriptors: one process it is
        return [fn(x) for x in items]
    try:
        pid = os.fork()
    except OSError:  # no process or memory to spare (EAGAIN, ENOMEM)
        os.close(read_end)
        os.close(write_end)
        return [fn(x) for x in items]
    if pid == 0:  # the child: compute, send, and leave without running any cleanup
        status = 1
        try:
            os.close(read_end)
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # the parent reports an interrupt
            results = [fn(x) for x in items[half:]]
            with os.fdopen(write_end, "wb") as stream:  # one result at a time: no copy of all
                for result in results:
                    pickle.dump(result, stream, pickle.HIGHEST_PROTOCOL)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    try:
        first = [fn(x) for x in items[:half]]
        second: list[R] | None = _received(read_end, pid, len(items) - half)
    except BaseException:
        _stop(pid)
        with contextlib.suppress(OSError):
            os.close(read_end)  # not closed yet when the failure came before _received
        raise
    return first + (second if second is not None else [fn(x) for x in items[half:]])


def _received(read_end: int, pid: int, count: int) -> list[Any] | None:
    """What the child sent, once it has exited; None when it did not deliver it whole."""
    results: list[Any] = []
    with os.fdopen(read_end, "rb") as stream:
        try:
            # Our own child's bytes, through a pipe nobody else holds: not a cache on disk
            # (decision 0039 keeps pickle out of those).
            while len(results) < count:
                results.append(pickle.load(stream))
            complete = stream.read(1) == b""
        except Exception:  # cut short or damaged: recompute, never fail on it
            complete = False
        if not complete:
            results = []
            while stream.read(1 << 16):  # let a child still writing finish and exit
                pass
    _, status = os.waitpid(pid, 0)
    if not complete or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return None
    return results


def _stop(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
