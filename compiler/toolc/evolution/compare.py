"""Contract evolution: two contract documents of a tool in, the classified changes out.

Pure: no file, no git, no build. The callers (`toolc diff`, the version guard, `toolc bump`)
decide where the two sides come from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolc.contract.canonical import canonical_bytes
from toolc.evolution import views
from toolc.evolution.ceilings import ceiling_changes
from toolc.evolution.content import content_changes
from toolc.evolution.findings import ALL_TOOLS, Finding, finding, sort_key
from toolc.evolution.handler_form import handler_form_changes
from toolc.evolution.rules import RULES
from toolc.evolution.views import escape, obj
from toolc.evolution.walk import Walk

Contract = Mapping[str, Any]


def compare_tool(name: str, old: Contract | None, new: Contract | None) -> list[Finding]:
    """The classified changes of one tool from `old` to `new` (None: the tool does not exist on
    that side), sorted; the envelope is left out (`compare_all` reports it once)."""
    if old is None and new is None:
        return []
    if old is None:
        return [finding("tool-added", name, "/tool/name", "added")]
    if new is None:
        return [finding("tool-removed", name, "/tool/name", "removed")]
    old_view, new_view = views.tool_view(old), views.tool_view(new)
    moved = _moved(name, old, new)
    # As JSON, not as Python values: `True == 1` made `enum: [0, 1]` → `[false, true]` no
    # change at all, the guard asking a patch for a break.
    if canonical_bytes(old_view) == canonical_bytes(new_view):
        return moved
    found: list[Finding] = list(moved)
    notes: list[tuple[str, str]] = []
    _lifecycle(name, old, new, found)
    _text(name, old, new, found, notes)
    _schemas(name, old, new, found, notes)
    _errors(name, old, new, found, notes)
    _policy(name, obj(old.get("policy")), obj(new.get("policy")), found)
    found += content_changes(name, old, new)
    found += ceiling_changes(name, old, new)
    found += handler_form_changes(name, old, new)
    # Whatever no rule classified, or a structural move beside classified changes, is one
    # finding: the document's bytes changed, so the version must change at least by a patch.
    if notes or not found:
        path, what = notes[0] if notes else (_first(old_view, new_view), "")
        more = f" (and {len(notes) - 1} more)" if len(notes) > 1 else ""
        what = what or f"contract changed at {path} in a way no rule classifies"
        found.append(finding("unclassified-change", name, path, what + more))
    return sorted(found, key=sort_key)


def compare_all(old: Mapping[str, Contract], new: Mapping[str, Contract]) -> list[Finding]:
    """Every tool's classified changes, and one `envelope-changed` finding if toolc's envelope
    differs, sorted by tool, level (breaking first), path and rule."""
    found: list[Finding] = []
    for name in sorted(old.keys() | new.keys()):
        found += compare_tool(name, old.get(name), new.get(name))
    envelope = _envelope(old, new)
    if envelope is not None:
        found.append(envelope)
    return sorted(found, key=sort_key)


def _first(old: Any, new: Any) -> str:
    return views.first_difference(old, new) or "/"


def _moved(name: str, old: Contract, new: Contract) -> list[Finding]:
    """A tool served by another `mcp_server` (decision 0144); a document without one (made
    before toolc recorded it) tells nothing."""
    was, now = old.get("mcp_server"), new.get("mcp_server")
    if not isinstance(was, str) or not isinstance(now, str) or was == now:
        return []
    return [finding("tool-moved", name, "/mcp_server", f"mcp_server {was} → {now}")]


def _lifecycle(name: str, old: Contract, new: Contract, found: list[Finding]) -> None:
    was, now = old.get("enabled", True) is not False, new.get("enabled", True) is not False
    if was != now:
        rule = "tool-enabled" if now else "tool-disabled"
        found.append(finding(rule, name, "/enabled", "enabled" if now else "disabled"))
    if views.is_multi_item(old) != views.is_multi_item(new):
        what = "became multi-item" if views.is_multi_item(new) else "is no longer multi-item"
        found.append(finding("multi-item-changed", name, "/multi_item", what))
    elif views.is_multi_item(old):
        old_id = obj(old["multi_item"]).get("operation_id")
        new_id = obj(new["multi_item"]).get("operation_id")
        if old_id != new_id:
            rule = "operation-id-added" if old_id is None else "operation-id-changed"
            what = f"operation_id {old_id or 'none'} → {new_id or 'none'}"
            found.append(finding(rule, name, "/multi_item/operation_id", what))
    if views.is_proxied(old) != views.is_proxied(new):
        what = "became proxied" if views.is_proxied(new) else "is no longer proxied"
        found.append(finding("proxied-changed", name, "/proxied", what))


def _text(
    name: str, old: Contract, new: Contract, found: list[Finding], notes: list[tuple[str, str]]
) -> None:
    old_tool, new_tool = obj(old.get("tool")), obj(new.get("tool"))
    for key, rule in (("title", "title-changed"), ("description", "description-changed")):
        if old_tool.get(key) != new_tool.get(key):
            found.append(finding(rule, name, f"/tool/{key}", f"{key} changed"))
    old_notes, new_notes = obj(old_tool.get("annotations")), obj(new_tool.get("annotations"))
    for key in sorted(old_notes.keys() | new_notes.keys()):
        if old_notes.get(key) == new_notes.get(key):
            continue
        path = f"/tool/annotations/{escape(key)}"
        if key == "title":  # the display title, shown twice; report it once
            if old_tool.get("title") == new_tool.get("title"):
                found.append(finding("title-changed", name, path, "annotation title changed"))
        elif key in ("readOnlyHint", "destructiveHint") and not _same_operation(old, new):
            continue  # the hints follow operation_type: classified there
        elif key in _HINT_DEFAULTS:
            _hint(name, key, old_notes, new_notes, found, notes)
        else:
            notes.append((path, f"annotation '{key}' changed"))


# MCP's value of a hint a tool leaves out, and the value that claims the lesser risk: a host
# asks the user less, retries more, for a tool that claims it.
_HINT_DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
                  "openWorldHint": True}  # fmt: skip
_HINT_RELAXED = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
                 "openWorldHint": False}  # fmt: skip


def _hint(
    name: str,
    key: str,
    old: Mapping[str, Any],
    new: Mapping[str, Any],
    found: list[Finding],
    notes: list[tuple[str, str]],
) -> None:
    """A hint the tool states, compared by its effective value (absent: MCP's default)."""
    was, now = old.get(key, _HINT_DEFAULTS[key]), new.get(key, _HINT_DEFAULTS[key])
    path = f"/tool/annotations/{escape(key)}"
    if not isinstance(was, bool) or not isinstance(now, bool):
        notes.append((path, f"annotation '{key}' changed"))
    elif was != now:  # an equal effective value stated or dropped: bytes only (unclassified)
        rule = (
            "annotation-hint-relaxed" if now == _HINT_RELAXED[key] else "annotation-hint-tightened"
        )
        found.append(finding(rule, name, path, f"{key} {str(was).lower()} → {str(now).lower()}"))


def _same_operation(old: Contract, new: Contract) -> bool:
    return obj(old.get("policy")).get("operation_type") == obj(new.get("policy")).get(
        "operation_type"
    )


def _schemas(
    name: str, old: Contract, new: Contract, found: list[Finding], notes: list[tuple[str, str]]
) -> None:
    old_input, new_input = views.input_schema(old), views.input_schema(new)
    inputs = Walk(name, "input", old_input, new_input)
    # At the root, additionalProperties is unknown_args (compared below), not a schema change.
    inputs.compare(
        {k: v for k, v in old_input.items() if k != "additionalProperties"},
        {k: v for k, v in new_input.items() if k != "additionalProperties"},
        "/tool/inputSchema",
        "",
    )
    both_multi = views.is_multi_item(old) and views.is_multi_item(new)
    outputs = Walk(name, "output", views.output_schema(old), views.output_schema(new), both_multi)
    outputs.compare(views.data_schema(old), views.data_schema(new), views.data_pointer(new), "")
    for walk in (inputs, outputs):
        found += walk.findings
        notes += walk.notes
    old_mode, new_mode = old.get("unknown_args", "ignore"), new.get("unknown_args", "ignore")
    if old_mode != new_mode:
        if new_mode == "forbid":
            found.append(
                finding(
                    "unknown-args-forbidden",
                    name,
                    "/unknown_args",
                    "unknown arguments are now refused",
                )
            )
        elif old_mode == "forbid":
            found.append(
                finding(
                    "unknown-args-ignored",
                    name,
                    "/unknown_args",
                    "unknown arguments are now ignored",
                )
            )
        else:
            notes.append(("/unknown_args", f"unknown_args {old_mode!r} → {new_mode!r}"))


def _errors(
    name: str, old: Contract, new: Contract, found: list[Finding], notes: list[tuple[str, str]]
) -> None:
    old_errors, new_errors = obj(old.get("errors")), obj(new.get("errors"))
    for code in sorted(old_errors.keys() | new_errors.keys()):
        path = f"/errors/{escape(code)}"
        if code not in new_errors:
            found.append(finding("error-code-removed", name, path, f"error code {code} removed"))
        elif code not in old_errors:
            found.append(finding("error-code-added", name, path, f"error code {code} added"))
        else:
            was, now = obj(old_errors[code]), obj(new_errors[code])
            if bool(was.get("retryable")) != bool(now.get("retryable")):
                flip = "false → true" if now.get("retryable") else "true → false"
                what = f"error code {code} retryable {flip}"
                found.append(finding("error-retryable-changed", name, f"{path}/retryable", what))
            if was.get("hint") != now.get("hint"):
                what = f"error code {code} hint changed"
                found.append(finding("error-hint-changed", name, f"{path}/hint", what))
            if {k: v for k, v in was.items() if k not in ("retryable", "hint")} != {
                k: v for k, v in now.items() if k not in ("retryable", "hint")
            }:
                notes.append((path, f"error code {code} changed"))


def _policy(
    name: str, old: Mapping[str, Any], new: Mapping[str, Any], found: list[Finding]
) -> None:
    def add(rule: str, key: str, what: str) -> None:
        found.append(finding(rule, name, f"/policy/{key}", what))

    was, now = bool(old.get("require_confirmation")), bool(new.get("require_confirmation"))
    if was != now:
        rule = "confirmation-added" if now else "confirmation-removed"
        add(
            rule,
            "require_confirmation",
            "confirmation " + ("required" if now else "no longer required"),
        )
    old_op, new_op = old.get("operation_type"), new.get("operation_type")
    if old_op != new_op:
        rule = "operation-type-read-only" if new_op == "read_only" else "operation-type-changed"
        add(rule, "operation_type", f"operation_type {old_op} → {new_op}")
    old_limit, new_limit = old.get("handler_timeout_seconds"), new.get("handler_timeout_seconds")
    if old_limit != new_limit:
        what = f"handler_timeout_seconds {old_limit or 'none'} → {new_limit or 'none'}"
        add("handler-timeout-changed", "handler_timeout_seconds", what)
    old_pre, new_pre = obj(old.get("pre_validation")), obj(new.get("pre_validation"))
    old_on = bool(old_pre) and old_pre.get("enabled", True) is not False
    new_on = bool(new_pre) and new_pre.get("enabled", True) is not False
    if old_on != new_on:
        what = f"pre-validation by '{new_pre.get('tool')}'" if new_on else "pre-validation off"
        add("pre-validation-added" if new_on else "pre-validation-removed", "pre_validation", what)
    elif old_on and new_on:
        if old_pre.get("tool") != new_pre.get("tool"):
            what = f"validator '{old_pre.get('tool')}' → '{new_pre.get('tool')}'"
            add("pre-validation-changed", "pre_validation/tool", what)
        old_open, new_open = bool(old_pre.get("fail_open")), bool(new_pre.get("fail_open"))
        if old_open != new_open:
            rule = "pre-validation-relaxed" if new_open else "pre-validation-changed"
            add(rule, "pre_validation/fail_open", f"fail_open {old_open} → {new_open}".lower())


def _envelope(old: Mapping[str, Contract], new: Mapping[str, Contract]) -> Finding | None:
    """One finding for a change of toolc's envelope, naming the tools it reaches."""
    affected: list[str] = []
    codes_before: set[str] = set()
    codes_after: set[str] = set()
    for name in sorted(old.keys() & new.keys()):
        before, after = old[name], new[name]
        if views.is_multi_item(before) != views.is_multi_item(after):
            continue  # the tool's own change (multi-item-changed), not toolc's
        if views.is_proxied(before) or views.is_proxied(after):
            continue  # no envelope on one side at least: proxied-changed, or nothing
        if views.envelope_view(before) != views.envelope_view(after):
            affected.append(name)
            codes_before |= set(views.framework_codes(before))
            codes_after |= set(views.framework_codes(after))
    if not affected:
        return None
    versions_before = sorted({str(old[n].get("envelope_version")) for n in affected})
    versions_after = sorted({str(new[n].get("envelope_version")) for n in affected})
    was, now = ", ".join(versions_before), ", ".join(versions_after)
    what = f"the response envelope changed from {was} to {now}"
    if versions_before == versions_after:
        what = f"the response envelope changed but its version stayed {now}"
    if codes_after - codes_before:
        what += "; framework error codes added: " + ", ".join(sorted(codes_after - codes_before))
    if codes_before - codes_after:
        what += "; framework error codes removed: " + ", ".join(sorted(codes_before - codes_after))
    what += f"; {len(affected)} tool(s): {', '.join(affected)}"
    return Finding(
        "envelope-changed",
        RULES["envelope-changed"].level,
        ALL_TOOLS,
        "/envelope_version",
        what,
        tuple(affected),
    )
