"""The multi-item guide's normalization (§4–5) and its workflow-backed tools (§4): what
a multi-item handler's data becomes before it is sealed. Pure functions over wire-form
data; `BadReturn` says what a handler returned that its contract does not allow."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .server_types import ToolFailure


class BadReturn(Exception):
    """A handler returned something its tool's contract does not allow. `problems`:
    each failing place as `{field, reason, type}` (never the value)."""

    def __init__(
        self, message: str, problems: Sequence[Mapping[str, str]] = ()
    ) -> None:
        super().__init__(message)
        self.problems = [dict(p) for p in problems] or [
            {"field": "data", "reason": message, "type": "contract"}
        ]


def is_mapping(value: Any) -> bool:
    # A plain dict first: wire data is dicts, and the abstract class's test is slow.
    return type(value) is dict or isinstance(value, Mapping)


def _item_ok(index: int, item: Any) -> bool:
    if is_mapping(item):
        flag = item["success"] if "success" in item else item.get("ok")
        if isinstance(flag, bool):
            return flag
    reason = "every item of results needs a boolean `success` or `ok`"
    where = {"field": f"data.results[{index}]", "reason": reason, "type": "multi_item"}
    raise BadReturn(reason, [where])


def normalize_multi_item(tool: str, data: Any) -> dict[str, Any]:
    """The guide's §5 fields over `data.results` (wire form), replacing any the handler
    set: `multi_item_status`, `partial_success`, `metadata.multi_item`."""
    return normalized_outcomes(tool, data)[0]


def normalized_outcomes(tool: str, data: Any) -> tuple[dict[str, Any], list[bool]]:
    """`normalize_multi_item`'s data, with each item's outcome (its `success` or `ok`)
    for the composition, which would otherwise read every item again. The data's
    `metadata` is a dict of its own, never the handler's."""
    if not is_mapping(data) or not isinstance(data.get("results"), list):
        raise BadReturn("a multi-item tool's data needs a `results` list")
    outcomes = [_item_ok(i, item) for i, item in enumerate(data["results"])]
    succeeded = outcomes.count(True)
    failed = len(outcomes) - succeeded
    status = "PARTIAL_SUCCESS" if succeeded and failed else "FAILED"
    if not failed:
        status = "SUCCESS"
    metadata = data.get("metadata")
    metadata = dict(metadata) if is_mapping(metadata) else {}
    metadata["multi_item"] = {
        "status": status,
        "items_count": len(outcomes),
        "items_succeeded_count": succeeded,
        "items_failed_count": failed,
        "primary_tool": tool,
    }
    normalized = dict(data)
    normalized.pop("original_ok", None)  # sealing sets both for a secondary failure
    normalized.pop("secondary_error", None)
    normalized.update(
        multi_item_status=status,
        partial_success=status == "PARTIAL_SUCCESS",
        metadata=metadata,
    )
    return normalized, outcomes


def workflow_primary(tool: str, run: Any) -> tuple[dict[str, Any] | None, Any]:
    """A workflow's output: `output[<tool>]` (whose `results` are authoritative) and the
    run's own failure, when it reports `ok: false` (`{ok, result: {status, output},
    error}`, or `{status, output}` without the wrapper). No `output[<tool>]` is None
    when the run reports its failure (it failed before its primary step)."""
    if not isinstance(run, Mapping):
        raise BadReturn("a workflow-backed tool returns the workflow's output")
    inner: Any = run
    if "result" in run and "output" not in run:
        inner = run["result"]
    # `ok: false` is the run's failure with the wrapper or without it (`{ok, status,
    # output, error}`): dropped, the auxiliary step's failure left no trace.
    failure: Any = (
        (run.get("error") or "workflow failed") if run.get("ok") is False else None
    )
    output = inner.get("output") if isinstance(inner, Mapping) else None
    primary = output.get(tool) if isinstance(output, Mapping) else None
    if not isinstance(primary, Mapping):
        if failure is not None:
            return None, failure
        raise BadReturn(f"the workflow output has no output[{tool!r}]")
    return dict(primary), failure


def workflow_failure(failure: Any) -> ToolFailure:
    """A workflow's own failure as a `ToolFailure`: `{code, message}` passes through,
    anything else is free text, kept internal (an undeclared code, logged)."""
    if isinstance(failure, ToolFailure):
        return failure
    if isinstance(failure, Mapping) and isinstance(failure.get("code"), str):
        return ToolFailure(
            failure["code"], str(failure.get("message", "")), failure.get("details")
        )
    # Free text from a workflow step is internal: it is logged, not sent.
    return ToolFailure("", f"workflow failure: {failure!r}")
