"""Did-you-mean suggestions."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: str, candidates: Iterable[str]) -> str | None:
    pool = sorted(set(candidates))
    exact = [c for c in pool if c.lower() == word.lower()]
    if exact:
        return exact[0]
    found = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    return found[0] if found else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """`; did you mean 'x'?` or the empty string."""
    match = closest(word, candidates)
    return f"; did you mean '{match}'?" if match else ""
