"""Issue 16: half of a long list of independent computations (emitting the tools) may run in
a forked child (toolc.forked, decision 0117). The answer is the same list in the same order
whether the child delivered, failed, was killed or was never forked; the compile's output is
byte-identical with the child and without it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES
from toolc import forked
from toolc.pipeline import compile
from toolc.source.inputs import read_inputs

PARENT = os.getpid()
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
one_core = pytest.mark.skipif(
    not sys.platform.startswith("linux") or (CORES or 1) < 2, reason="not Linux on 2 cores"
)


@pytest.fixture(autouse=True)
def _small_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "MIN_ITEMS", 2)
    monkeypatch.delenv("TOOLC_JOBS", raising=False)


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The forks split_map makes. Skips where forking is not safe in this test process (a
    thread another test left running): test_a_fresh_process_forks covers that case."""
    if not forked.usable():
        pytest.skip(f"no fork here ({threading.active_count()} threads in this process)")
    made: list[int] = []
    real = os.fork

    def counted() -> int:
        pid = real()
        if pid:
            made.append(pid)
        return pid

    monkeypatch.setattr(forked.os, "fork", counted)
    return made


_FRESH = """
import os, sys
sys.path.insert(0, sys.argv[1])
from toolc import forked
forked.MIN_ITEMS = 2
print(*[pid == os.getpid() for pid in forked.split_map(lambda _: os.getpid(), range(6))])
"""


@one_core
def test_a_fresh_process_forks() -> None:
    compiler = Path(forked.__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "TOOLC_JOBS"}
    done = subprocess.run(
        [sys.executable, "-c", _FRESH, str(compiler)], env=env, capture_output=True, text=True
    )
    assert done.stdout.split() == ["True"] * 3 + ["False"] * 3, done.stderr


def _square_where(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


def test_the_second_half_comes_from_a_child_in_order(forks: list[int]) -> None:
    results = forked.split_map(_square_where, list(range(10)))
    assert [r for r, _ in results] == [x * x for x in range(10)]
    pids = [pid for _, pid in results]
    assert pids[:5] == [PARENT] * 5
    assert set(pids[5:]) == set(forks) and len(forks) == 1


def _fails_in_the_child(x: int) -> int:
    if os.getpid() != PARENT:
        raise RuntimeError("only in the child")
    return x + 1


def _killed_in_the_child(x: int) -> int:
    if os.getpid() != PARENT:
        os.kill(os.getpid(), signal.SIGKILL)
    return x + 1


def _unreadable_from_the_child(x: int) -> object:
    if os.getpid() != PARENT:
        return lambda: x  # pickle refuses a lambda: the child exits unsuccessfully
    return x + 1


@pytest.mark.parametrize(
    "fn", [_fails_in_the_child, _killed_in_the_child, _unreadable_from_the_child]
)
def test_what_the_child_did_not_deliver_is_computed_here(fn: object, forks: list[int]) -> None:
    assert forked.split_map(fn, list(range(8))) == list(range(1, 9))  # type: ignore[arg-type]
    assert len(forks) == 1


def test_a_fork_that_fails_leaves_the_work_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(forked, "usable", lambda: True)
    monkeypatch.setattr(forked.os, "fork", no_fork)
    opened = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    assert forked.split_map(_square_where, list(range(6))) == [(x * x, PARENT) for x in range(6)]
    if opened is not None:  # the pipe was closed again
        assert len(os.listdir("/proc/self/fd")) == opened


def _always_fails(x: int) -> int:
    raise ValueError(f"bug at {x}")


def test_a_bug_raises_here_as_without_the_child(forks: list[int]) -> None:
    opened = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    with pytest.raises(ValueError, match="bug at 0"):
        forked.split_map(_always_fails, list(range(8)))
    if opened is not None:  # the child stopped and its pipe closed
        assert len(os.listdir("/proc/self/fd")) == opened
    assert len(forks) == 1


def test_an_ignored_sigchld_costs_nothing(forks: list[int]) -> None:
    """Inherited from whoever started toolc: the kernel reaps the child itself, and
    waitpid has no status to give; the whole stream is the child's word."""
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        results = forked.split_map(_square_where, list(range(6)))
    finally:
        signal.signal(signal.SIGCHLD, before)
    assert [r for r, _ in results] == [x * x for x in range(6)]
    assert {pid for _, pid in results[3:]} == set(forks)


def test_no_child_over_a_container_s_memory_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    real = forked._read
    limits = {
        "/sys/fs/cgroup/memory.max": "100000000\n",
        "/sys/fs/cgroup/memory.current": "99000000\n",
    }

    def cgroup(path: str) -> str | None:
        return limits.get(path) or real(path)

    monkeypatch.setattr(forked, "_read", cgroup)
    assert not forked._room_for_a_copy()  # 1 MB left under the limit
    limits["/sys/fs/cgroup/memory.current"] = "1000\n"
    limits["/sys/fs/cgroup/memory.max"] = str(1 << 50)
    assert forked._room_for_a_copy() == _host_room()


def _host_room() -> bool:
    with open("/proc/meminfo") as meminfo:
        free = next(int(x.split()[1]) * 1024 for x in meminfo if x.startswith("MemAvailable:"))
    with open("/proc/self/statm") as statm:
        resident = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return free >= 4 * resident


def test_no_child_under_a_cpu_quota_of_one_core(monkeypatch: pytest.MonkeyPatch) -> None:
    real = forked._read
    monkeypatch.setattr(
        forked, "_read", lambda p: "100000 100000\n" if p.endswith("cpu.max") else real(p)
    )
    assert not forked.usable()


def test_no_child_when_turned_off_short_or_threaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLC_JOBS", "1")
    assert {pid for _, pid in forked.split_map(_square_where, list(range(10)))} == {PARENT}
    monkeypatch.delenv("TOOLC_JOBS")
    assert {pid for _, pid in forked.split_map(_square_where, [3])} == {PARENT}
    monkeypatch.setattr(forked, "_room_for_a_copy", lambda: False)  # memory to spare: none
    assert {pid for _, pid in forked.split_map(_square_where, list(range(10)))} == {PARENT}
    monkeypatch.undo()
    monkeypatch.setattr(forked, "MIN_ITEMS", 2)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not forked.usable()
        assert {pid for _, pid in forked.split_map(_square_where, list(range(10)))} == {PARENT}
    finally:
        stop.set()
        other.join()


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_a_compile_is_byte_identical_with_the_child(
    example: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    inputs = read_inputs(example, example)
    delivered: list[bool] = []
    real = forked._received

    def received(*args: int) -> object:
        got = real(*args)
        delivered.append(got is not None)
        return got

    monkeypatch.setattr(forked, "_received", received)
    together = compile(inputs).files
    assert len(forks) == 1 and delivered == [True]  # the child's half was the one used
    monkeypatch.setenv("TOOLC_JOBS", "1")
    alone = compile(inputs).files
    assert len(forks) == 1
    assert together == alone and together


_ORPHAN = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
from toolc import forked
forked.MIN_ITEMS = 2
parent = os.getpid()

def slow(x):
    if os.getpid() != parent:
        print(os.getpid(), flush=True)
    time.sleep(60)
    return x

forked.split_map(slow, [1, 2])
"""


@one_core
def test_the_child_dies_with_its_parent() -> None:
    """A CI's timeout kills toolc: its child must not run on, holding the caller's pipes."""
    compiler = Path(forked.__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "TOOLC_JOBS"}
    parent = subprocess.Popen(
        [sys.executable, "-c", _ORPHAN, str(compiler)], env=env, stdout=subprocess.PIPE
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    for _ in range(100):  # gone, or dead and waiting for init to reap it
        try:
            with open(f"/proc/{child}/status") as status:
                state = next(x for x in status if x.startswith("State:"))
        except (OSError, StopIteration):
            return
        if "Z" in state.split()[1]:
            return
        time.sleep(0.05)
    os.kill(child, signal.SIGKILL)
    raise AssertionError(f"the child {child} outlived its parent: {state}")
