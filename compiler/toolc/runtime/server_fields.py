"""The field a pydantic error is about, as a caller names it: its wire path. pydantic's
`loc` also holds the branch of each union it tried: a model's class name, a tagged
union's tag, or a validator's own name (`mode.constrained-str`,
`content.text.data` for the field `content.data` of the branch tagged "text"). Those
are no fields of the arguments, so `details` drops them, reading the validator's own
core schema beside the `loc`. The server's `details` and the typed client's local
refusal are both made here, so they name a field alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from .server_framework import reason

Loc = Sequence[int | str]
# Schemas that hold another under `schema` and add nothing to a `loc`.
_WRAPPERS = frozenset((
    "model", "default", "nullable", "function-before", "function-after",
    "function-wrap", "json-or-python", "lax-or-strict", "with-default",
))  # fmt: skip
_SEQUENCES = frozenset(("list", "set", "frozenset", "generator"))


# At most this many problems are described, and a message names at most MAX_NAMED
# fields: 300,000 bad items in a 3 MB request made an 84 MB answer that held the event
# loop for seconds (decision 0146). The rest are counted in a last `truncated` entry.
MAX_PROBLEMS = 50
MAX_NAMED = 10
TRUNCATED = "truncated"


def problems(
    exc: ValidationError, root: str = "", schema: Any = None
) -> list[dict[str, str]]:
    """Each failing field of `exc` (below `root`) and why, never the value; `schema`:
    the core schema that raised it, to name fields as the wire does."""
    found = exc.errors(include_url=False, include_input=False)
    listed = [
        {
            "field": field_path(
                wire_loc(schema, e["loc"]) if schema else e["loc"], root
            ),
            "reason": reason(e),
            "type": e["type"],
        }
        for e in found[:MAX_PROBLEMS]
    ]
    if len(found) > MAX_PROBLEMS:
        listed.append(_truncated(len(found) - MAX_PROBLEMS))
    return listed


def capped(details: list[dict[str, str]]) -> list[dict[str, str]]:
    """`details` of at most MAX_PROBLEMS problems, the rest counted (a list `problems`
    made is so already; the format and content checks' lists are not)."""
    if len(details) <= MAX_PROBLEMS or details[-1].get("type") == TRUNCATED:
        return details
    return [*details[:MAX_PROBLEMS], _truncated(len(details) - MAX_PROBLEMS)]


def _truncated(more: int) -> dict[str, str]:
    """The last entry of a list cut at MAX_PROBLEMS: how many it leaves out."""
    return {"field": "", "reason": f"{more} more not listed", "type": TRUNCATED}


def named_fields(details: list[dict[str, str]]) -> str:
    """The fields a message names: the first MAX_NAMED failing ones, then `and more`."""
    fields = dict.fromkeys(
        d["field"] or "(arguments)" for d in details if d.get("type") != TRUNCATED
    )
    shown = list(fields)[:MAX_NAMED]
    cut = len(fields) > MAX_NAMED or any(d.get("type") == TRUNCATED for d in details)
    return ", ".join(shown) + (" and more" if cut else "")


def field_path(loc: Loc, text: str = "") -> str:
    """`results[0].reason`: a field's path as `details` says it (below `text`)."""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else part
    return text


def wire_loc(schema: Any, loc: Loc) -> tuple[int | str, ...]:
    """`loc` without its union branches, read along the core `schema` it was raised by;
    `loc` as it is where the schema is not what this reads."""
    try:
        found, _ = _walk(schema, tuple(loc), {}, 0)
    except (KeyError, TypeError, IndexError, AttributeError, RecursionError):
        return tuple(loc)
    return found


def _walk(
    node: Any, loc: tuple[int | str, ...], defs: dict[str, Any], depth: int
) -> tuple[tuple[int | str, ...], bool]:
    """The wire path of `loc` below `node`, and whether every step was understood."""
    out: list[int | str] = []
    while loc:
        if not isinstance(node, Mapping) or depth > 200:
            return (*out, *loc), False
        depth += 1
        kind = node.get("type")
        if isinstance(node.get("ref"), str):
            defs.setdefault(node["ref"], node)
        if kind == "definitions":
            defs.update((d["ref"], d) for d in node["definitions"])
            node = node["schema"]
        elif kind == "definition-ref":
            node = defs.get(node["schema_ref"])
        elif kind in _WRAPPERS:
            node = node.get("schema")
        elif kind == "model-fields":
            name, loc = loc[0], loc[1:]
            out.append(name)
            node = _field(node["fields"], name)
            if node is None:  # a member it does not declare (an extra): nothing below
                return (*out, *loc), False
        elif kind == "tagged-union":  # the tag: which branch, not a field
            node, loc = node["choices"].get(loc[0]), loc[1:]
        elif kind == "union":
            rest, clean = _branch(node["choices"], loc[0], loc[1:], defs, depth)
            return (*out, *rest), clean
        elif kind in _SEQUENCES:
            if not isinstance(loc[0], int):  # not this branch: an index comes here
                return (*out, *loc), False
            out.append(loc[0])
            node, loc = node.get("items_schema"), loc[1:]
        elif kind == "dict":
            out.append(loc[0])
            loc = loc[1:]
            if loc[:1] == ("[key]",):  # the key itself failed
                return (*out, *loc[1:]), True
            node = node.get("values_schema")
        elif kind == "tuple":
            out.append(loc[0])
            items, at = node["items_schema"], loc[0]
            node = (
                items[min(at, len(items) - 1)]
                if isinstance(at, int) and items
                else None
            )
            loc = loc[1:]
        else:
            return (*out, *loc), False
    return tuple(out), True


def _field(fields: Mapping[str, Any], name: int | str) -> Any:
    """The schema of the field a `loc` names: by its wire name (validation alias)."""
    for key, field in fields.items():
        alias = field.get("validation_alias")
        if (alias if isinstance(alias, str) else key) == name:
            return field["schema"]
    return None  # an extra member: no schema of its own


def _branch(
    choices: Sequence[Any],
    label: int | str,
    loc: tuple[int | str, ...],
    defs: dict[str, Any],
    depth: int,
) -> tuple[tuple[int | str, ...], bool]:
    """The rest of `loc` after a union's branch `label`: read along the branch the label
    names (its own label, or a model's class name), else along the first branch that
    understands it (a validator's own name, `constrained-str`, names no schema here)."""
    if not loc:
        return (), True
    branches = [c[0] if isinstance(c, tuple) else c for c in choices]
    for choice, branch in zip(choices, branches, strict=True):
        if _label(choice, branch, defs) == label:
            return _walk(branch, loc, dict(defs), depth)
    first: tuple[tuple[int | str, ...], bool] | None = None
    for branch in branches:
        found = _walk(branch, loc, dict(defs), depth)
        if found[1]:
            return found
        first = first or found
    return first if first is not None else (loc, False)


def _label(choice: Any, branch: Any, defs: Mapping[str, Any]) -> str | None:
    """The label pydantic gives a branch when it can be told: a custom one, or a model's
    class name (through a definition reference too)."""
    if isinstance(choice, tuple) and len(choice) > 1 and isinstance(choice[1], str):
        return choice[1]
    if isinstance(branch, Mapping) and branch.get("type") == "definition-ref":
        branch = defs.get(branch.get("schema_ref", ""))
    if isinstance(branch, Mapping) and branch.get("type") == "model":
        cls = branch.get("cls")
        return getattr(cls, "__name__", None)
    return None
