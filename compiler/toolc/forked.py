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
import ctypes
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 200  # below it, forking and sending the results back cost more than they save


def usable() -> bool:
    """Whether a child may be forked here and would run beside this process."""
    if os.environ.get("TOOLC_JOBS") == "1" or not sys.platform.startswith("linux"):
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except OSError:
        cores = os.cpu_count() or 1
    return min(cores, _cpu_quota()) >= 2 and threading.active_count() == 1 and _room_for_a_copy()


def _cpu_quota() -> float:
    """The cores a cgroup v2 quota (`cpu.max`) allows; unbounded without one."""
    text = _read("/sys/fs/cgroup/cpu.max")
    quota, _, period = (text or "").partition(" ")
    try:
        return int(quota) / int(period) if quota != "max" else float("inf")
    except ValueError:
        return float("inf")


def _room_for_a_copy() -> bool:
    """Whether the machine, or the container's memory limit, has memory to spare for the
    child: it ends up copying much of this process's pages (measured at 5,000 tools: 909
    MiB for the two together against 546 alone), so it is forked only with at least four
    times this process's size free. Over a cgroup's limit the kernel kills, usually this
    process, which is the larger: a build that works alone must not die for speed."""
    statm = _read("/proc/self/statm")
    meminfo = _read("/proc/meminfo")
    if statm is None or meminfo is None:
        return False  # not readable: do not guess
    try:
        resident = int(statm.split()[1]) * os.sysconf("SC_PAGE_SIZE")
        free = next(
            int(line.split()[1]) * 1024
            for line in meminfo.splitlines()
            if line.startswith("MemAvailable:")
        )
    except (ValueError, IndexError, StopIteration):
        return False
    for limit, used in (
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),  # cgroup v2
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",  # v1
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        ),
    ):
        cap, current = _read(limit), _read(used)
        if cap and current and cap.strip().isdigit() and current.strip().isdigit():
            free = min(free, int(cap) - int(current))
    return free >= 4 * resident


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as stream:
            return stream.read()
    except OSError:
        return None


def split_map(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """`[fn(x) for x in items]`, its second half computed in a forked child when it pays."""
    if len(items) < MIN_ITEMS or not usable():
        return [fn(x) for x in items]
    half = len(items) // 2
    try:
        read_end, write_end = os.pipe()
    except OSError:  # out of file descriptors: one process it is
        return [fn(x) for x in items]
    parent = os.getpid()
    # An interrupt between the fork and the child's own handling of it would run this
    # process's interrupt handling in the child: it waits, blocked, until each is ready.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except OSError:  # no process or memory to spare (EAGAIN, ENOMEM)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        os.close(read_end)
        os.close(write_end)
        return [fn(x) for x in items]
    if pid == 0:  # the child: compute, send, and leave without running any cleanup
        status = 1
        try:
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # the parent reports an interrupt
            _die_with(parent)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            os.close(read_end)
            results = [fn(x) for x in items[half:]]
            with os.fdopen(write_end, "wb") as stream:  # one result at a time: no copy of all
                for result in results:
                    pickle.dump(result, stream, pickle.HIGHEST_PROTOCOL)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    received = False
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        first = [fn(x) for x in items[:half]]
        received = True  # _received owns the read end from here, and closes it
        second: list[R] | None = _received(read_end, pid, len(items) - half)
    except BaseException:
        _stop(pid)
        if not received:
            os.close(read_end)
        raise
    return first + (second if second is not None else [fn(x) for x in items[half:]])


def _die_with(parent: int) -> None:
    """The child is killed when this process dies (a CI's timeout, a kill -9): its half
    is of no use then, and it would hold the caller's stdout and stderr open."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before prctl took effect
        os._exit(1)


_PR_SET_PDEATHSIG = 1


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
    try:
        _, status = os.waitpid(pid, 0)
        exited = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    except ChildProcessError:
        # SIGCHLD ignored (inherited from whoever started toolc): the kernel reaped the
        # child, and its status is gone. The whole stream then speaks for it: it writes
        # its results only once all of them are made.
        exited = True
    return results if complete and exited else None


def _stop(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
