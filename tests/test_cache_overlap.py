"""cache.overlap: the no-op check's one computation in a thread of its own."""

from __future__ import annotations

import threading

import pytest
from toolc.cache.overlap import started


def test_the_answer_is_the_computations_value_from_another_thread() -> None:
    answer, done = started(lambda: threading.get_ident())
    ident = answer()
    assert ident != threading.get_ident() and done()
    assert answer() == ident  # asked twice, the same answer


def test_the_computations_exception_is_raised_in_the_callers_thread() -> None:
    def fails() -> int:
        raise OSError("unreadable")

    answer, _ = started(fails)
    with pytest.raises(OSError, match="unreadable"):
        answer()
    with pytest.raises(OSError, match="unreadable"):
        answer()


def test_the_caller_works_while_it_runs() -> None:
    """The computation waits for the caller here: run in the caller's thread, it would
    give up after 10 s and answer False."""
    go = threading.Event()
    answer, done = started(lambda: go.wait(10))
    assert not done()
    go.set()
    assert answer() is True and done()
