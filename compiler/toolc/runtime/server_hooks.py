"""What happens to every answer before it leaves: the response ceiling, then one
metrics observation and one audit record (decisions 0078-0080). Kept out of the call
paths (server_calls, server_proxy) so they only say where the answer is final; a
proxied tool's answer, not an envelope, comes with its outcome code (decision 0102)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .server_audit import AuditHook, AuditRecord, audit, record_of
from .server_ceilings import Ceiling, enforce
from .server_metrics import CallWatch, Observation, Observer, notify, outcome_code
from .server_sealing import Sealed
from .server_types import SpecLike


@dataclass(frozen=True, slots=True)
class CallHooks:
    observers: tuple[Observer, ...] = ()
    audit: AuditHook | None = None

    async def answered(
        self,
        spec: SpecLike,
        ceiling: Ceiling | None,
        sealed: Sealed,
        watch: CallWatch,
        request_id: str | int | None,
    ) -> Sealed:
        """The answer as it will be sent, observed and audited once."""
        sealed = enforce(spec, ceiling, sealed)
        if self.observers:
            code = outcome_code(sealed.envelope)
            seen = Observation(
                spec.name, spec.version, code, watch.seconds(), watch.confirmed
            )
            notify(self.observers, seen)
        if self.audit is not None:  # a record only for a hook that reads it
            record = record_of(sealed.envelope, watch.confirmed, request_id)
            await audit(self.audit, record)
        return sealed

    async def forwarded(
        self,
        spec: SpecLike,
        code: str,
        error_id: str | None,
        data: Any,
        watch: CallWatch,
        request_id: str | int | None,
    ) -> None:
        """A proxied tool's answer (the origin's, not an envelope), observed and
        audited once: `code` is its outcome, `data` the origin's structuredContent."""
        seen = Observation(spec.name, spec.version, code, watch.seconds(), False)
        notify(self.observers, seen)
        record = AuditRecord(
            spec.name, spec.version, code, error_id, False, data, request_id
        )
        await audit(self.audit, record)
