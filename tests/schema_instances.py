"""Instances drawn from a JSON Schema by hypothesis-jsonschema (pinned, 0.23.1, its last
release). Its object strategy still calls `many.more()` and `many.reject()`, which the
hypothesis this suite pins replaced by iteration; `_OldMany` gives them back, with the old
logic (keep drawing while a weighted coin says so, within the size bounds), for that strategy
alone."""

from __future__ import annotations

from typing import Any

import hypothesis_jsonschema._from_schema as _from_schema
from hypothesis import strategies as st
from hypothesis.internal.conjecture import utils as cu
from hypothesis_jsonschema import from_schema


class _OldMany:
    def __init__(self, data: Any, min_size: int, max_size: float, average_size: float) -> None:
        self.data, self.min_size, self.max_size = data, min_size, max_size
        self.p_continue = cu._calc_p_continue(average_size - min_size, max_size - min_size)
        self.count = self.rejections = 0
        self.force_stop = False

    def more(self) -> bool:
        if self.min_size == self.max_size:
            go = self.count < self.min_size
        else:
            forced = None
            if self.force_stop or self.count >= self.max_size:
                forced = False
            elif self.count < self.min_size:
                forced = True
            go = self.data.draw_boolean(self.p_continue, forced=forced)
        self.count += go
        return go

    def reject(self) -> None:
        self.count -= 1
        self.rejections += 1
        if self.rejections > max(3, 2 * self.count):
            if self.count < self.min_size:
                self.data.mark_invalid()
            self.force_stop = True


class _Utils:
    many = _OldMany

    def __getattr__(self, name: str) -> Any:
        return getattr(cu, name)


if not hasattr(cu.many, "more"):
    _from_schema.cu = _Utils()  # type: ignore[assignment]


def instances(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of `schema` (its `$schema` left out: the strategy reads the keywords alike)."""
    return from_schema({k: v for k, v in schema.items() if k != "$schema"})
