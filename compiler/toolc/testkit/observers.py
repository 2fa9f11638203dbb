"""How the kit sees what happened inside a call: each handler's calls counted (a refused or
declined call must never reach the handler), the client's answer to a confirmation question
(and how often it was asked), and the server's log (what a failing handler raised)."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from mcp import types


class Counting:
    """`inner` with each named handler wrapped to count its calls and keep the arguments
    it last received (what a pre-validator resolved, not what was sent); the rest passes
    through, so a missing handler is still missing when the server is created."""

    def __init__(self, inner: object, names: list[str]) -> None:
        self._inner = inner
        self.calls: Counter[str] = Counter()
        self.received: dict[str, Any] = {}
        for name in names:
            method = getattr(inner, name, None)
            if callable(method):
                setattr(self, name, self._counted(name, method))

    def _counted(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        async def handler(args: Any, ctx: Any) -> Any:
            self.calls[name] += 1
            self.received[name] = args
            return await method(args, ctx)

        return handler

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class Asker:
    """The client's confirmation answer (`accept` or `decline`), and how often it was asked."""

    def __init__(self) -> None:
        self.action = "accept"
        self.asked = 0

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked += 1
        if self.action == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action="decline")


class Logged(logging.Handler):
    """The server's log, kept so a failure can say what the handler raised."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def last(self) -> str:
        if not self.records:
            return ""
        record = self.records[-1]
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" [{type(record.exc_info[1]).__name__}: {record.exc_info[1]}]"
        return f" (server log: {text})"
