"""Response ceilings (ADR-016: "teto de resposta cobre o envelope"): a tool's answer is
judged by the bytes of the text that leaves, envelope included, and an answer over
its ceiling is never sent: RESPONSE_TOO_LARGE says so, with the sizes in `details`.
The envelope's text block counts, and so does the text of an embedded text resource;
media (images, audio, blobs) and links do not (decisions 0080, 0157). The handler sees
its data budget, `ceiling − reserve`, in its ToolContext: the reserve is the worst-case
envelope around its data, computed by toolc per tool."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

from .server_composition import compact_composition
from .server_content import EmbeddedText
from .server_sealing import Sealed, framework_error, seal_error
from .server_types import SpecLike
from .server_wire import compact

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Ceiling:
    ceiling_bytes: int
    reserve_bytes: int  # the most the envelope adds around the handler's data

    @property
    def budget_bytes(self) -> int:
        return max(0, self.ceiling_bytes - self.reserve_bytes)


def ceiling_of(spec: object) -> Ceiling | None:
    """The tool's ceiling, as the generated registry states it (None: no ceiling)."""
    ceiling = getattr(spec, "response_ceiling_bytes", None)
    if ceiling is None:
        return None
    return Ceiling(int(ceiling), int(getattr(spec, "response_reserve_bytes", 0)))


def enforce(spec: SpecLike, ceiling: Ceiling | None, sealed: Sealed) -> Sealed:
    """`sealed` when its text fits the ceiling. Otherwise an error answer is shortened
    to fit, keeping its code; any other is RESPONSE_TOO_LARGE (its content blocks
    dropped with the answer). The refusal is small and always sent: toolc refuses a
    ceiling too small to hold it (`response-ceiling-too-small`)."""
    if ceiling is None:
        return sealed
    # Embedded text resources are text the model reads too (media are not: hosts bound
    # them); they share the ceiling with the envelope's text (decision 0157).
    extra = sum(
        len(c.text.encode("utf-8"))
        for c in sealed.content
        if isinstance(c, EmbeddedText)
    )
    size = len(sealed.text.encode("utf-8")) + extra
    if size <= ceiling.ceiling_bytes:
        return sealed
    # Data within its budget is always sent: the reserve counts the compact composition.
    shorter = _unlisted(sealed)
    if (
        shorter is not None
        and len(shorter.text.encode()) + extra <= ceiling.ceiling_bytes
    ):
        return shorter
    slim = _slimmed(sealed, ceiling.ceiling_bytes)
    if slim is not None:  # an error keeps its code: RESPONSE_TOO_LARGE would hide it
        logger.warning(
            "%s: a %s answer of %d bytes exceeds its ceiling of %d; shortened",
            spec.name,
            sealed.envelope["error"].get("code"),
            size,
            ceiling.ceiling_bytes,
        )
        return slim
    logger.warning(
        "%s: an answer of %d bytes exceeds its ceiling of %d; refused",
        spec.name,
        size,
        ceiling.ceiling_bytes,
    )
    details = {
        "responseBytes": size,
        "ceilingBytes": ceiling.ceiling_bytes,
        "budgetBytes": ceiling.budget_bytes,
        "reserveBytes": ceiling.reserve_bytes,
    }
    message = (
        f"The answer of {spec.name} would take {size} bytes, over its ceiling of "
        f"{ceiling.ceiling_bytes}."
    )
    return seal_error(spec, framework_error("RESPONSE_TOO_LARGE", message, details))


def _unlisted(sealed: Sealed) -> Sealed | None:
    """A multi-item answer with its composition's item lists left out (None: none)."""
    data = sealed.envelope.get("data")
    metadata = data.get("metadata") if isinstance(data, dict) else None
    found = metadata.get("composition") if isinstance(metadata, dict) else None
    if not isinstance(found, dict) or found.get("listed") is False:
        return None
    assert isinstance(data, dict) and isinstance(metadata, dict)
    short = compact_composition(str(found.get("status")))
    envelope = {
        **sealed.envelope,
        "data": {**data, "metadata": {**metadata, "composition": short}},
    }
    return replace(sealed, envelope=envelope, text=compact(envelope))


def _fits(envelope: dict[str, Any], limit: int) -> str | None:
    """The envelope's text, when it fits `limit`."""
    text = compact(envelope)
    return text if len(text.encode("utf-8")) <= limit else None


def _slimmed(sealed: Sealed, limit: int) -> Sealed | None:
    """An error answer cut to fit `limit`, its code kept: without its embedded text
    resources (which count toward the ceiling; its media do not, and stay), then its
    `details`, then its `hint`, then the items beside it, then with its message
    shortened (None: even the code and an empty message do not fit)."""
    envelope = sealed.envelope
    error = envelope.get("error")
    if envelope.get("ok") is not False or not isinstance(error, dict):
        return None
    error = dict(error)
    envelope = {**envelope, "error": error}
    best: tuple[dict[str, Any], str] | None = None
    for drop in ("", "details", "hint", "data"):
        if drop:
            (envelope if drop == "data" else error).pop(drop, None)
        text = _fits(envelope, limit)
        if text is not None:
            best = envelope, text
            break
    if best is None:
        message = str(error.get("message", ""))
        low, high = 0, len(message)  # the longest cut of the message that fits
        while low <= high:
            middle = (low + high) // 2
            cut = message[:middle] + "…" if middle < len(message) else message
            shorter = {**envelope, "error": {**error, "message": cut}}
            text = _fits(shorter, limit)
            if text is not None:
                best, low = (shorter, text), middle + 1
            else:
                high = middle - 1
    if best is None:
        return None
    kept = tuple(c for c in sealed.content if not isinstance(c, EmbeddedText))
    return replace(sealed, envelope=best[0], text=best[1], content=kept)
