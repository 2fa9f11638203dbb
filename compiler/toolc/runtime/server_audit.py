"""The audit hook: called once per answered call, after sealing (and after the response
ceiling, so it sees what was sent), with what an audit trail records (ADR-016: "a
auditoria passou a ler o `data` do envelope"). A hook may be sync or async; whatever
it raises is logged and never changes the answer."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .server_metrics import outcome_code

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One answered call, as sealed."""

    tool: str
    version: str
    outcome: str  # the envelope's code, `ok` for success (the metric's error_type)
    error_id: str | None  # the `errorId` of a failure the server logged
    confirmed: bool  # the user confirmed it (False for a tool that asks nothing)
    data: Any  # the envelope's `data` (None when it has none)
    request_id: str | int | None


AuditHook = Callable[[AuditRecord], object]


def record_of(
    envelope: Mapping[str, Any], confirmed: bool, request_id: str | int | None
) -> AuditRecord:
    meta = envelope["meta"]
    error = envelope.get("error") or {}
    return AuditRecord(
        tool=meta["tool"],
        version=meta["version"],
        outcome=outcome_code(envelope),
        error_id=error.get("errorId"),
        confirmed=confirmed,
        data=envelope.get("data"),
        request_id=request_id,
    )


async def audit(hook: AuditHook | None, record: AuditRecord) -> None:
    if hook is None:
        return
    try:
        done = hook(record)
        if inspect.isawaitable(done):
            await done
    except Exception:
        logger.exception("audit hook failed for %s (%s)", record.tool, record.outcome)
