"""What the kit checks in one answer, from outside: the seal (the envelope valid against the
tool's published outputSchema, formats included; its one text block the same JSON; `isError`
is `not ok`; `meta` naming the tool and version), that nothing internal went wrong (an
`errorId` means the server logged a failure of the handler), and for a multi-item tool the
guide's per-item evidence (§4–5): one result per item in order, a status that agrees."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match
from mcp import types

from toolc.contract.canonical import json_key

# Framework codes that, for arguments the schema allows, say the handler (or the server
# around it) is broken rather than the call refused for a domain reason: a pre-validator
# that raised or resolved what the tool does not take fails (a refusal is REJECTED).
BROKEN = (
    "TOOL_ERROR", "INVALID_RESULT", "TOOL_TIMEOUT", "VALIDATION_ERROR", "PRE_VALIDATION_FAILED"
)  # fmt: skip


def _ecma_regex(value: object) -> bool:
    """`format: regex` as JSON clients judge it: ECMA-262, not Python's `re`."""
    from toolc.validate.ecma_regex import Refused, translate

    found = translate(value) if isinstance(value, str) else None
    return not (isinstance(found, Refused) and found.invalid)


_FORMATS = FormatChecker()
_FORMATS.checkers = {**Draft202012Validator.FORMAT_CHECKER.checkers}
_FORMATS.checks("regex")(_ecma_regex)


class Failure(msgspec.Struct, frozen=True):
    tool: str
    case: str
    arguments: Any
    expected: str
    got: str

    def render(self) -> str:
        sent = json.dumps(self.arguments, ensure_ascii=False)
        return (
            f"FAIL {self.tool} [{self.case}]\n  arguments: {sent}\n"
            f"  expected: {self.expected}\n  got:      {self.got}"
        )


def seal_problems(descriptor: Mapping[str, Any], result: types.CallToolResult) -> list[str]:
    envelope = result.structured_content
    if not isinstance(envelope, dict):
        return ["no structuredContent object"]
    found = []
    validator = Draft202012Validator(descriptor["outputSchema"], format_checker=_FORMATS)
    error = best_match(validator.iter_errors(envelope))  # the deepest, not the envelope's oneOf
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        found.append(f"outputSchema: at /{where}: {error.message[:200]}")
    texts = [b for b in result.content if isinstance(b, types.TextContent)]
    if len(texts) != 1 or result.content[-1] is not texts[0]:
        found.append(f"{len(texts)} text block(s); one, last, was expected")
    elif _parsed(texts[0].text) != envelope:
        found.append("the text block is not the same JSON as structuredContent")
    if result.is_error is not (not envelope.get("ok")):
        found.append(f"isError is {result.is_error} with ok {envelope.get('ok')}")
    meta = {"tool": descriptor["name"], "version": descriptor.get("_meta", {}).get("version")}
    if envelope.get("meta") != meta:
        found.append(f"meta is {envelope.get('meta')}, not {meta}")
    return found


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def code(envelope: Mapping[str, Any]) -> str | None:
    error = envelope.get("error")
    return error.get("code") if isinstance(error, Mapping) else None


def broken(envelope: Mapping[str, Any]) -> str | None:
    """What went wrong inside, when the answer says so."""
    error = envelope.get("error")
    if not isinstance(error, Mapping):
        return None
    if error.get("code") in BROKEN or "errorId" in error:
        return f"{error.get('code')}: {error.get('message')}"
    return None


def _echoes(result: Any, item: Any) -> bool:
    """Whether a result names its item: holds the item (a scalar) as a value, or shares a
    field and value with it (an object)."""
    if not isinstance(result, Mapping):
        return False
    if isinstance(item, Mapping):
        return any(k in result and _same(result[k], v) for k, v in item.items() if k != "success")
    return any(_same(value, item) for value in result.values())


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: in Python `1 == True`, so item 1 would match `success: true`; 2 and
    2.0 are one number (a float field echoes an integer item). A value with no JSON (a NaN)
    is only itself."""
    key = json_key(a)
    return a is b if key is None else key == json_key(b)


def status_of(flags: Sequence[bool]) -> str:
    succeeded = sum(flags)
    if succeeded == len(flags):
        return "SUCCESS"
    return "PARTIAL_SUCCESS" if succeeded else "FAILED"


def multi_item_problems(tool: str, items: Sequence[Any], envelope: Mapping[str, Any]) -> list[str]:
    """The guide's checks of a multi-item answer that carries data (ok, or failed with its
    evidence kept); an error without data has nothing to check."""
    data = envelope.get("data")
    if not isinstance(data, Mapping) or not isinstance(data.get("results"), list):
        return [] if not envelope.get("ok") else ["data has no results[] list"]
    results = data["results"]
    found = []
    if len(results) != len(items):
        found.append(f"{len(results)} result(s) for {len(items)} item(s): one per item")
    named = [any(_echoes(r, i) for r in results) for i in items]
    if all(named) and len(results) == len(items):
        misplaced = [
            n for n, (r, i) in enumerate(zip(results, items, strict=True)) if not _echoes(r, i)
        ]
        if misplaced:
            found.append(f"results out of order (item(s) {misplaced} not at their position)")
    elif any(named) and not all(named):  # every item named, but not one result each: said
        missing = [
            json.dumps(i, ensure_ascii=False) for i, n in zip(items, named, strict=True) if not n
        ]
        found.append(f"no result names item(s) {', '.join(missing)}")
    flags = [r.get("success", r.get("ok")) if isinstance(r, Mapping) else None for r in results]
    if not results or not all(isinstance(f, bool) for f in flags):
        return found + ["every result needs a boolean success/ok"] * bool(results)
    done = [bool(f) for f in flags]
    status = status_of(done)
    multi = data.get("metadata", {}).get("multi_item", {})
    expected = {"status": status, "items_count": len(flags), "items_succeeded_count": sum(done),
                "items_failed_count": len(done) - sum(done), "primary_tool": tool}  # fmt: skip
    if data.get("multi_item_status") != status or multi != expected:
        found.append(f"multi_item_status/metadata disagree with the items: {status} expected")
    if data.get("partial_success") is not (status == "PARTIAL_SUCCESS"):
        found.append("partial_success disagrees with the items")
    if envelope.get("ok") is not (status != "FAILED"):
        found.append(f"ok is {envelope.get('ok')} for {status}: a success is never erased")
    if "secondary_error" in data and data.get("original_ok") is not False:
        found.append("a secondary_error without original_ok false")
    return found


def outcome(envelope: Mapping[str, Any]) -> str:
    """The checklist case an answer shows: SUCCESS, PARTIAL_SUCCESS, FAILED, secondary
    failure, or the error code."""
    data = envelope.get("data")
    if isinstance(data, Mapping) and "secondary_error" in data:
        return "secondary failure"
    if isinstance(data, Mapping) and isinstance(data.get("multi_item_status"), str):
        return str(data["multi_item_status"])
    return code(envelope) or "ok"
