"""How long each `tools/call` took and how it ended: one `Observation` per request that
answers an envelope, its `error_type` exactly the envelope's code (`ok` for success:
one label per outcome, decision 0078). Observers are plain callables (the stdio
servers' hook); `prometheus_observer` records them in the `mcp_tool_duration_seconds`
histogram, importing prometheus_client only then, since a generated package has no
extras.

The time a user spends answering a confirmation is not the tool's: `waiting_for_user`
takes it out of the duration (in-request elicitation), and a 2026-07-28 two-request
confirmation is observed once, by the request that carries the answer (the first answers
no envelope)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

METRIC = "mcp_tool_duration_seconds"


@dataclass(frozen=True, slots=True)
class Observation:
    """One answered `tools/call`: `seconds` excludes any wait for the user."""

    tool: str
    version: str
    error_type: str  # the envelope's code, `ok` for success
    seconds: float
    confirmed: bool


Observer = Callable[[Observation], object]


class CallWatch:
    """The running call: when it started, how long it waited for the user, whether the
    user confirmed it (set by the call path, read by the observers and the audit)."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.waited = 0.0
        self.confirmed = False

    def seconds(self) -> float:
        return max(0.0, time.perf_counter() - self.started - self.waited)


_CURRENT: ContextVar[CallWatch | None] = ContextVar("toolc_call_watch", default=None)


def start_call() -> CallWatch:
    watch = CallWatch()
    _CURRENT.set(watch)  # the SDK runs each request in its own task: its own context
    return watch


def mark_confirmed() -> bool:
    """Record that the user confirmed the running call (True: the call path's flag)."""
    watch = _CURRENT.get()
    if watch is not None:
        watch.confirmed = True
    return True


@contextmanager
def waiting_for_user() -> Iterator[None]:
    """Time spent in here is the user's, not the tool's."""
    started = time.perf_counter()
    try:
        yield
    finally:
        watch = _CURRENT.get()
        if watch is not None:
            watch.waited += time.perf_counter() - started


def outcome_code(envelope: Mapping[str, Any]) -> str:
    return "ok" if envelope.get("ok") else str(envelope["error"]["code"])


def notify(observers: tuple[Observer, ...], observation: Observation) -> None:
    """Each observer in turn; a failing one is logged and never changes the answer."""
    for observer in observers:
        try:
            observer(observation)
        except Exception:
            logger.exception("metrics observer %r failed", observer)


def prometheus_observer() -> tuple[Observer, Any]:
    """An observer recording `mcp_tool_duration_seconds{tool, version, error_type}` in a
    registry of its own (returned, for `/metrics`), so two servers in one process never
    collide in prometheus_client's global one."""
    try:
        import prometheus_client
    except ImportError as missing:
        raise RuntimeError(
            "metrics are enabled but prometheus_client is not installed: "
            "pip install prometheus-client (or turn metrics off)"
        ) from missing
    registry = prometheus_client.CollectorRegistry()
    histogram = prometheus_client.Histogram(
        METRIC,
        "Duration of MCP tools/call requests, by tool, version and envelope code.",
        ["tool", "version", "error_type"],
        registry=registry,
    )

    def observe(o: Observation) -> None:
        histogram.labels(o.tool, o.version, o.error_type).observe(o.seconds)

    return observe, registry


def exposition(registry: Any) -> tuple[bytes, str]:
    """The registry in Prometheus' text format, and its content type."""
    import prometheus_client

    return (
        prometheus_client.generate_latest(registry),
        prometheus_client.CONTENT_TYPE_LATEST,
    )
