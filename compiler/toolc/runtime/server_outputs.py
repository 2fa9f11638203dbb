"""The `format`s of a tool's published data schema, checked on what a handler returns,
as the official TypeScript SDK client checks structuredContent (server_formats). The
pydantic data model judges everything else; this walks only the schema nodes that have
a `format` at or below them, so a tool without formats pays nothing. Each failing place
is named (`data.created_at`), never its value."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from .server_formats import format_ok

Problem = dict[str, str]
_DEFS = "#/$defs/"
# At one schema node: its format, the type it refers to, its allOf branches, its
# members' schemas and the others', its items' schema (None or left out without a
# format below), and its one member that can fail when only one can.
_Plan = tuple[
    str | None, Any, tuple[Any, ...], dict[str, Any], Any, Any, tuple[str, Any] | None
]
# Where a value is: the root's name, or (where its parent is, its key or index, whether
# an index); spelled out (`data.results[0].at`) only for a failing value.
Where = str | tuple[Any, Any, bool]


def _field(where: Where) -> str:
    parts: list[str] = []
    while not isinstance(where, str):
        where, part, index = where
        parts.append(f"[{part}]" if index else f".{part}")
    return where + "".join(reversed(parts))


class FormatCheck:
    """The format checks of one data schema (`defs`: the outputSchema's `$defs`)."""

    def __init__(self, schema: Any, defs: Mapping[str, Any]) -> None:
        self.schema = schema
        self.defs = defs
        self._below: dict[int, bool] = {}
        self._members_of: dict[int, tuple[dict[str, Any], Any]] = {}
        self._plans: dict[int, _Plan | None] = {}

    # Decided on a tool's first answer, not at start-up: a server of a thousand tools
    # would walk every schema before it answers its first tools/list.
    @cached_property
    def _types(self) -> dict[str, bool]:
        """Which shared types have a format somewhere inside (through their own refs): a
        fixpoint over the refs, so recursive types are decided too."""
        local = {name: _own_format(d) for name, d in self.defs.items()}
        refs = {name: set(_refs(d)) for name, d in self.defs.items()}
        types = dict(local)
        changed = True
        while changed:
            changed = False
            for name in self.defs:
                if not types[name] and any(types.get(r) for r in refs[name]):
                    types[name] = changed = True
        return types

    @cached_property
    def needed(self) -> bool:
        """Whether the schema has a format anywhere to check."""
        return self._has_format(self.schema)

    def problems(self, value: Any, where: str = "data") -> list[Problem]:
        found: list[Problem] = []
        if self.needed:
            self._walk(self.schema, value, where, found, 0)
        return found

    def _target(self, node: Mapping[str, Any]) -> Any:
        name = _ref_name(node)
        return self.defs.get(name) if name is not None else None

    def _has_format(self, node: Any) -> bool:
        """Whether a `format` lies at or below `node` (memoized by node)."""
        if not isinstance(node, Mapping):
            return False
        key = id(node)
        if key not in self._below:
            name = _ref_name(node)
            here = isinstance(node.get("format"), str) or bool(
                name is not None and self._types.get(name)
            )
            subs = [self._has_format(sub) for sub in _subschemas(node)]
            self._below[key] = here or any(subs)
        return self._below[key]

    def _walk(
        self, node: Any, value: Any, where: Where, found: list[Problem], depth: int
    ) -> None:
        key = id(node)
        plan = self._plans[key] if key in self._plans else self._plan(node)
        if plan is None or depth > 200:
            return
        fmt, target, all_of, members, extra, items, single = plan
        if fmt is not None and not format_ok(fmt, value):
            reason = f"not a valid {fmt}, as JSON Schema clients check it"
            found.append({"field": _field(where), "reason": reason, "type": "format"})
        if target is not None:
            self._walk(target, value, where, found, depth + 1)
        for sub in all_of:
            self._walk(sub, value, where, found, depth + 1)
        if type(value) is dict or isinstance(value, Mapping):
            if single is not None:  # one member can fail: no need to read the others
                name, sub = single
                if name in value:
                    self._walk(sub, value[name], (where, name, False), found, depth + 1)
                return
            for name, item in value.items():
                sub = members.get(name, extra)
                if sub is not None:
                    self._walk(sub, item, (where, name, False), found, depth + 1)
        elif items is not None and isinstance(value, list):
            for index, item in enumerate(value):
                self._walk(items, item, (where, index, True), found, depth + 1)

    def _plan(self, node: Any) -> _Plan | None:
        """What a call does at `node`, decided once per node (None: no format at or
        below it): its own format, the shared type it refers to, its `allOf` branches,
        where object members and array items go, each only when a format lies below,
        and the one member to read when only one can fail."""
        plan: _Plan | None = None
        if isinstance(node, Mapping) and self._below.get(id(node)):
            fmt = node.get("format")
            target = self._target(node)
            if target is not None and not self._has_format(target):
                target = None
            all_of = tuple(
                sub for sub in node.get("allOf", ()) if self._has_format(sub)
            )
            members, extra = self._members(node)
            items = node.get("items")
            failing = [(n, sub) for n, sub in members.items() if sub is not None]
            plan = (
                fmt if isinstance(fmt, str) else None,
                target,
                all_of,
                members,
                extra,
                items if self._below.get(id(items)) else None,
                failing[0] if extra is None and len(failing) == 1 else None,
            )
        self._plans[id(node)] = plan
        return plan

    def _members(self, node: Mapping[str, Any]) -> tuple[dict[str, Any], Any]:
        """Where an object's members go: each property to its schema when a format lies
        at or below it, else to None (it shadows additionalProperties all the same), and
        any other member to additionalProperties when a format lies below it, else None
        (memoized by node). A call then descends only where a format can fail."""
        key = id(node)
        if key not in self._members_of:
            props = node.get("properties")
            props = props if isinstance(props, Mapping) else {}
            extra = node.get("additionalProperties")
            self._members_of[key] = (
                {n: sub if self._has_format(sub) else None for n, sub in props.items()},
                extra if self._has_format(extra) else None,
            )
        return self._members_of[key]


def _ref_name(node: Mapping[str, Any]) -> str | None:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_DEFS):
        return ref[len(_DEFS) :].replace("~1", "/").replace("~0", "~")
    return None


def _nodes(node: Any) -> list[Mapping[str, Any]]:
    """`node` and every schema inside it, refs not followed."""
    out: list[Mapping[str, Any]] = []
    stack = [node]
    while stack:
        here = stack.pop()
        if isinstance(here, Mapping):
            out.append(here)
            stack.extend(_subschemas(here))
    return out


def _own_format(node: Any) -> bool:
    return any(isinstance(n.get("format"), str) for n in _nodes(node))


def _refs(node: Any) -> list[str]:
    return [name for n in _nodes(node) if (name := _ref_name(n)) is not None]


def _subschemas(node: Mapping[str, Any]) -> list[Any]:
    subs: list[Any] = [node.get("items"), node.get("additionalProperties")]
    props = node.get("properties")
    if isinstance(props, Mapping):
        subs += list(props.values())
    subs += list(node.get("allOf", ()))
    return subs
