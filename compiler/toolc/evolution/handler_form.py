"""The handler's form of a tool declaring `accepts` (decision 0054: `handler_input_schema` in
its contract document): what the server hands the handler once the pre-validator has resolved
the caller's form. Callers never see it (their form is the inputSchema, compared as ever), so
a change to it breaks no caller; it changes what the handler is typed against and what the
pre-validator must return (decision 0067): `handler-form-changed`, a warning (a minor step)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolc.contract.canonical import canonical_bytes
from toolc.contract.snapshot import normalize
from toolc.evolution.findings import Finding, finding
from toolc.evolution.views import escape, input_schema, obj

PATH = "/handler_input_schema"


def _handler_form(contract: Mapping[str, Any]) -> Mapping[str, Any]:
    """The arguments as the handler receives them: its own form where the tool declares one,
    else the inputSchema (what the caller sends is what the handler gets)."""
    stated = contract.get("handler_input_schema")
    return obj(stated) if stated is not None else input_schema(contract)


def handler_form_changes(
    name: str, old: Mapping[str, Any], new: Mapping[str, Any]
) -> list[Finding]:
    if "handler_input_schema" not in old and "handler_input_schema" not in new:
        return []  # the handler gets the caller's form: the inputSchema's comparison says it
    was, now = normalize(_handler_form(old)), normalize(_handler_form(new))
    if canonical_bytes(was) == canonical_bytes(now):  # as JSON: `true` is not `1`
        return []
    old_args, new_args = obj(was.get("properties")), obj(now.get("properties"))
    changed = sorted(
        a
        for a in old_args.keys() | new_args.keys()
        if canonical_bytes(old_args.get(a)) != canonical_bytes(new_args.get(a))
    )
    if len(changed) == 1:
        where, what = f"{PATH}/properties/{escape(changed[0])}", f"argument '{changed[0]}'"
    else:
        listed = ", ".join(f"'{a}'" for a in changed)
        where, what = PATH, f"arguments {listed}" if changed else "a type it refers to"
    detail = f" ({what})" if what else ""
    return [finding("handler-form-changed", name, where, f"handler's form changed{detail}")]
