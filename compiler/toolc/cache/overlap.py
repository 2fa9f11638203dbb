"""A speed trick, kept out of the stories that use it: one computation run in a thread of
its own while the caller does other work, its answer (or its exception) taken after; and a
value one thread hands to another (`Handoff`).

The no-op check hashes the config files this way while it looks at the signatures of the
generated files: reading and hashing release the interpreter's lock, so on two cores the
hashing (about 9 ms of a 10 MB `tools.yaml`) hides behind the `stat` of 20,000 files
instead of coming before it (measured at 5,000 tools: 62 ms for both in a row, 56 ms
overlapped). A build writes its cache this way while it commits its output, and hands the
output's signatures over once they exist (store.Saving). Standard library only (`_thread`,
not threading): the no-op check runs before anything else is imported."""

from __future__ import annotations

import _thread

TYPE_CHECKING = False  # not typing's: see workspace.files
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    T = TypeVar("T")


def started(compute: Callable[[], T]) -> tuple[Callable[[], T], Callable[[], bool]]:
    """`compute` running in a thread now: its answer (call it to wait for the value, or
    to have the exception it raised raised here) and whether it is done (whether the
    answer would wait)."""
    outcome = Handoff()

    def run() -> None:
        try:
            outcome.give(compute())
        except BaseException as exc:  # raised again in the caller's thread
            outcome.fail(exc)

    _thread.start_new_thread(run, ())
    return outcome.take, outcome.given  # type: ignore[return-value]  # compute's own T


class Handoff:
    """A value one thread hands to another, once: `take` waits for `give` (or raises what
    `fail` was given)."""

    def __init__(self) -> None:
        self._ready = _thread.allocate_lock()
        self._ready.acquire()
        self._value: list[tuple[bool, object]] = []

    def give(self, value: object) -> None:
        self._value.append((True, value))
        self._ready.release()

    def fail(self, exc: BaseException) -> None:
        self._value.append((False, exc))
        self._ready.release()

    def given(self) -> bool:
        """Whether `take` would answer without waiting."""
        return not self._ready.locked()

    def take(self) -> object:
        with self._ready:  # released again: taken twice, it answers twice
            pass
        ok, value = self._value[0]
        if not ok:
            assert isinstance(value, BaseException)
            raise value
        return value
