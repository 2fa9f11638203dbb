"""The parts of a config that schema errors leave intact, so the cross-file and fragment checks
can still judge them in the same run (issue 9, item 14).

From the raw values and the places where validation broke (`toolc.validate.outcome`), this
keeps what validated and records what it could not keep, in a `Damage` the checks consult:

- a broken schema node inside a fragment (an argument, `returns`, a result item, a type) is
  replaced by `{}`, the rest of the fragment kept, and the fragment marked damaged: checks of
  single nodes still run on it, comparisons of whole schemas (pre-validators, multi-item
  status) do not;
- a broken or missing key of a tool or policy is dropped (a required one gets a placeholder
  value) and named among the tool's unknown facts, so no check reasons from it;
- a tool whose name is invalid is left out entirely (its name is reported); one whose value is
  no mapping is known by name only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec
from msgspec import field

from toolc.diagnostics.suggest import closest
from toolc.source.document import JsonPath

# Values for the required keys of a tool that a schema error dropped: never reasoned from (the
# key is among the tool's unknown facts), only there so the typed model can be built.
PLACEHOLDERS = {"version": "0.0.0", "description": "-", "mcp_server": "-", "tool_type": "query"}
POLICY_KEYS = ("operation_type", "require_confirmation", "requires", "pre_validation")
TOP_KEYS = ("tools", "types", "bump_policy", "accepted_breaks")


class Damage(msgspec.Struct, frozen=True):
    """What schema errors left undecided in a project (a project that validated has none)."""

    unknown: Mapping[str, frozenset[str]] = field(default_factory=dict)  # per tool
    unreadable: frozenset[str] = frozenset()  # tools known by name only
    damaged: frozenset[JsonPath] = frozenset()  # fragment roots with a part replaced by {}
    lost_refs: frozenset[str] = frozenset()  # types referenced from the parts replaced
    types_known: bool = True  # False: `types:` itself is broken, so no `$ref` can be judged

    def broken_type(self, name: str) -> bool:
        return not self.types_known or ("types", name) in self.damaged


class _Paths:
    """The broken paths as a tree of their keys. The paths under a place are asked for once per
    tool, argument and type: scanning every broken path each time made a config with one error
    per tool quadratic (60,000 such tools took minutes); walking the tree costs the length of
    the place plus what lies under it."""

    __slots__ = ("below", "ends")

    def __init__(self) -> None:
        self.below: dict[str | int, _Paths] = {}
        self.ends: JsonPath | None = None  # the broken path that ends here

    @classmethod
    def of(cls, broken: Iterable[JsonPath]) -> _Paths:
        root = cls()
        for path in broken:
            node = root
            for key in path:
                sub = node.below.get(key)
                if sub is None:
                    sub = node.below[key] = cls()
                node = sub
            node.ends = path
        return root

    def under(self, prefix: JsonPath) -> set[JsonPath]:
        """The broken paths that start with `prefix`, less that prefix."""
        node = self
        for key in prefix:
            sub = node.below.get(key)
            if sub is None:
                return set()
            node = sub
        n = len(prefix)
        found: set[JsonPath] = set()
        todo = [node]
        while todo:  # a loop: a path is as deep as its YAML, which can pass the recursion limit
            node = todo.pop()
            if node.ends is not None:
                found.add(node.ends[n:])
            todo.extend(node.below.values())
        return found


def _refs(value: Any) -> Iterable[str]:
    """The types a dropped part names: any string that reads as a reference counts (the key
    holding it may be the misspelt `$ref` the error is about)."""
    if isinstance(value, str) and value.startswith("#/types/"):
        yield value.removeprefix("#/types/")
    elif isinstance(value, dict):
        for sub in value.values():
            yield from _refs(sub)
    elif isinstance(value, list):
        for sub in value:
            yield from _refs(sub)


def _fragment(value: Any, rel: set[JsonPath], lost: set[str]) -> Any:
    """The schema with each broken node replaced by `{}` (a broken keyword breaks its node)."""
    groups: dict[JsonPath, set[JsonPath]] = {}
    props = value.get("properties") if isinstance(value, dict) else None
    for p in rel:
        if not isinstance(value, dict) or not p:
            groups = {}
            break
        if p[0] == "properties" and len(p) >= 2 and isinstance(props, dict) and p[1] in props:
            groups.setdefault(p[:2], set()).add(p[2:])
        elif p[0] in ("items", "additionalProperties") and len(p) >= 2:
            if not isinstance(value.get(p[0]), dict):
                groups = {}
                break
            groups.setdefault(p[:1], set()).add(p[1:])
        else:
            groups = {}
            break
    if not groups:
        lost.update(_refs(value))
        return {}
    out = dict(value)
    for key, sub in groups.items():
        if key[0] == "properties":
            out["properties"] = {**out["properties"], key[1]: _fragment(props[key[1]], sub, lost)}  # type: ignore[index]
        else:
            out[str(key[0])] = _fragment(value[key[0]], sub, lost)
    return out


class _Salvage(msgspec.Struct, dict=True):
    broken: frozenset[JsonPath]
    names: frozenset[JsonPath]
    paths: _Paths  # `broken`, indexed
    unknown: dict[str, set[str]] = field(default_factory=dict)
    damaged: set[JsonPath] = field(default_factory=set)
    lost: set[str] = field(default_factory=set)

    def fragment(self, at: JsonPath, value: Any) -> Any:
        rel = self.paths.under(at)
        if not rel:
            return value
        self.damaged.add(at)
        return _fragment(value, rel, self.lost)

    def tool(self, name: str, raw: dict[str, Any], fields: frozenset[str]) -> dict[str, Any]:
        at: JsonPath = ("tools", name)
        unknown = self.unknown.setdefault(name, set())
        out: dict[str, Any] = {}
        for key, value in raw.items():
            mine = self.paths.under((*at, key))  # not a scan of the tool's paths per key
            if key not in fields:  # reported by the schema; perhaps a misspelt known key
                self.lost.update(_refs(value))
                meant = closest(key, fields)
                if meant is not None and meant not in raw:
                    unknown.add(meant)
                continue
            if not mine:
                out[key] = value
            elif key == "args_schema" and isinstance(value, dict) and () not in mine:
                if any((*at, key, arg) in self.names for arg in value):
                    unknown.add("args_schema")  # an argument with no valid name: the set is open
                out[key] = {
                    arg: self.fragment((*at, key, arg), spec)
                    for arg, spec in value.items()
                    if (*at, key, arg) not in self.names
                }
            elif key == "returns":
                out[key] = self.fragment((*at, key), value)
            elif key == "multi_item" and all(len(p) >= 2 and p[0] == "item" for p in mine):
                out[key] = {**value, "item": self.fragment((*at, key, "item"), value["item"])}
            else:
                unknown.add(key)
                self.lost.update(_refs(value))
        for key, placeholder in PLACEHOLDERS.items():
            if key not in out:
                unknown.add(key)
                out[key] = placeholder
        return out

    def policy(self, name: str, raw: Any) -> dict[str, Any]:
        at: JsonPath = ("tool_policies", name)
        unknown = self.unknown.setdefault(name, set())
        if at in self.broken or not isinstance(raw, dict):
            unknown.update(f"policy.{k}" for k in POLICY_KEYS)
            return {}
        out = {}
        for key, value in raw.items():
            if key in POLICY_KEYS and not self.paths.under((*at, key)):
                out[key] = value
            elif key in POLICY_KEYS:
                unknown.add(f"policy.{key}")
            elif (meant := closest(key, POLICY_KEYS)) is not None and meant not in raw:
                unknown.add(f"policy.{meant}")  # a misspelt key: its value is not known
        return out


def salvage(
    tools: Any,
    tools_broken: tuple[frozenset[JsonPath], frozenset[JsonPath]],
    policies: Any,
    policies_broken: tuple[frozenset[JsonPath], frozenset[JsonPath]] | None,
    tool_fields: frozenset[str],
) -> tuple[dict[str, Any], dict[str, Any] | None, Damage] | None:
    """The valid parts of both files and what is missing from them; None when nothing can be
    judged (the file's root or its `tools` mapping is broken)."""
    broken, names = tools_broken
    if not isinstance(tools, dict) or not isinstance(tools.get("tools"), dict):
        return None
    if () in broken or ("tools",) in broken:
        return None
    work = _Salvage(broken, names, _Paths.of(broken))
    kept: dict[str, Any] = {}
    unreadable: set[str] = set()
    for name, raw in tools["tools"].items():
        if ("tools", name) in names or ("tools", name) in broken or not isinstance(raw, dict):
            work.lost.update(_refs(raw))
            if ("tools", name) not in names:
                unreadable.add(name)
            continue
        kept[name] = work.tool(name, raw, tool_fields) if work.paths.under(("tools", name)) else raw
    strays = [key for key in tools if key not in TOP_KEYS]  # unknown keys, maybe misspelt
    for key in strays:
        work.lost.update(_refs(tools[key]))
    misspelt = {closest(key, TOP_KEYS) for key in strays} - set(tools)
    types_known = (
        ("types",) not in broken
        and isinstance(tools.get("types", {}), dict)
        and "types" not in misspelt
    )
    types: dict[str, Any] = {}
    for name, raw in (tools.get("types") or {}).items() if types_known else ():
        if ("types", name) in names:
            work.lost.update(_refs(raw))
        else:
            types[name] = work.fragment(("types", name), raw)
    out: dict[str, Any] = {"tools": kept, "types": types}
    if ("bump_policy",) not in broken and "bump_policy" in tools:
        out["bump_policy"] = tools["bump_policy"]
    if ("accepted_breaks",) not in broken and isinstance(tools.get("accepted_breaks"), list):
        out["accepted_breaks"] = [
            entry
            for i, entry in enumerate(tools["accepted_breaks"])
            if not work.paths.under(("accepted_breaks", i))
        ]
    salvaged_policies: dict[str, Any] | None = None
    if policies is not None and policies_broken is not None:
        p_broken, p_names = policies_broken
        work.broken, work.names, work.paths = p_broken, p_names, _Paths.of(p_broken)
        root = policies.get("tool_policies") if isinstance(policies, dict) else None
        if () in p_broken or ("tool_policies",) in p_broken or not isinstance(root, dict):
            for name in kept:
                work.policy(name, None)  # every policy fact of every tool is unknown
            salvaged_policies = {"tool_policies": {}}
        else:
            salvaged_policies = {
                "tool_policies": {
                    name: work.policy(name, raw)
                    for name, raw in root.items()
                    if ("tool_policies", name) not in p_names
                }
            }
    elif policies is not None:
        salvaged_policies = policies
    damage = Damage(
        {name: frozenset(facts) for name, facts in work.unknown.items() if facts},
        frozenset(unreadable),
        frozenset(work.damaged),
        frozenset(work.lost),
        types_known,
    )
    return out, salvaged_policies, damage
