"""Changes to a tool's response ceiling, classified by direction (decision 0080). A lower
ceiling (or a first one: no ceiling is an infinite one) refuses answers that used to be
sent, so a caller that got its data now gets RESPONSE_TOO_LARGE: breaking. A higher ceiling
(or none any more) sends every answer that was sent before: compatible."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolc.evolution.findings import Finding, finding

_PATH = "/response_ceiling_bytes"


def _ceiling(contract: Mapping[str, Any]) -> float:
    value = contract.get("response_ceiling_bytes")
    return float(value) if isinstance(value, int) else float("inf")


def _shown(value: float) -> str:
    return "none" if value == float("inf") else f"{int(value)} bytes"


def ceiling_changes(name: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Finding]:
    before, after = _ceiling(old), _ceiling(new)
    if before == after:
        return []
    what = f"response ceiling {_shown(before)} → {_shown(after)}"
    rule = "response-ceiling-lowered" if after < before else "response-ceiling-raised"
    return [finding(rule, name, _PATH, what)]
