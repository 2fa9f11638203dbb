"""Comparing two JSON Schemas by meaning, in one direction: `input` (what callers send: narrowing
breaks) or `output` (what callers receive: widening breaks).

Local `$ref`s are followed on both sides before anything is compared, so a type moved between
inline and `$defs`, or a renamed `$def`, is no removal: it is recorded as a structural note (the
document changed, nothing a caller depends on did), which becomes one `unclassified-change`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from toolc.contract.snapshot import normalize
from toolc.evolution import keywords
from toolc.evolution.findings import Finding, finding
from toolc.evolution.views import DATA_PTR, escape, obj

Direction = Literal["input", "output"]

# Keywords this module or `keywords` classifies; a difference in any other one (oneOf, not, a
# vendor extension...) is a change no rule classifies.
_KNOWN = frozenset(
    {"type", "enum", "const", "pattern", "format", "default", "deprecated", "uniqueItems",
     "properties", "required", "additionalProperties", "items", "$defs", "multipleOf",
     *keywords.LOWER, *keywords.UPPER, *keywords.PROSE}
)  # fmt: skip

# Per direction: what removing, adding, requiring and un-requiring a property means.
_PROPERTY_RULES = {
    "input": ("arg-removed", "arg-added-required", "arg-added-optional", "arg-became-required",
              "arg-became-optional"),
    "output": ("data-field-removed", "data-field-added", "data-field-added",
               "data-field-became-required", "data-field-became-optional"),
}  # fmt: skip


def _pointer(document: Mapping[str, Any], ref: str) -> Any:
    """The target of a local `$ref` (`#/$defs/Name`), or None."""
    node: Any = document
    for raw in ref[2:].split("/") if ref != "#" else []:
        key = raw.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, Mapping) or key not in node:
            return None
        node = node[key]
    return node


def deref(
    node: Mapping[str, Any], document: Mapping[str, Any]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """`node` with its chain of local `$ref`s followed (sibling keywords kept over the target's,
    as a `description` beside a `$ref` describes that use), and the refs followed. A ref that
    does not resolve, or loops, stays in place and is compared as an unknown keyword."""
    current = dict(node)
    followed: list[str] = []
    while (
        isinstance(ref := current.get("$ref"), str) and ref.startswith("#") and ref not in followed
    ):
        target = _pointer(document, ref)
        if not isinstance(target, Mapping):
            break
        followed.append(ref)
        current = {**target, **{k: v for k, v in current.items() if k != "$ref"}}
        if current.get("$ref") == ref:  # the sibling was the ref we just followed
            del current["$ref"]
    return current, tuple(followed)


def _describe(refs: tuple[str, ...]) -> str:
    return f"$ref '{refs[-1]}'" if refs else "an inline schema"


@dataclass
class Walk:
    tool: str
    direction: Direction
    old_document: Mapping[str, Any]  # where the old side's $refs resolve
    new_document: Mapping[str, Any]
    multi_item: bool = False  # output: `results[]` entries are result items
    findings: list[Finding] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)  # (path, what): unclassified

    def noun(self, where: str) -> str:
        if self.direction == "input":
            return f"argument '{where}'" if where else "the arguments"
        return f"data field '{where}'" if where else "the data"

    def emit(self, rule: str, path: str, where: str, what: str) -> None:
        self.findings.append(finding(rule, self.tool, path, f"{self.noun(where)} {what}"))

    def note(self, path: str, what: str, *, moved: bool) -> None:
        """A difference no rule classifies: a schema `moved` between inline and a `$ref` (the
        same values either way), or a keyword this walk does not understand."""
        self.notes.append((path, what))

    def compare(
        self,
        old: Any,
        new: Any,
        path: str,
        where: str,
        *,
        in_item: bool = False,
        visiting: frozenset[tuple[str | None, str | None]] = frozenset(),
    ) -> None:
        o, old_refs = deref(obj(old), self.old_document)
        n, new_refs = deref(obj(new), self.new_document)
        if old_refs != new_refs:
            what = f"{_describe(old_refs)} became {_describe(new_refs)} at {path}"
            self.note(path, what, moved=True)
        pair = (old_refs[-1] if old_refs else None, new_refs[-1] if new_refs else None)
        if pair != (None, None):
            # A recursive type reaches the same pair of definitions again: what lies below was
            # (or is being) compared already, and going on would never end.
            if pair in visiting:
                return
            visiting = visiting | {pair}
        keywords.prose(self, o, n, path, where)
        if not keywords.types(self, o, n, path, where):
            return  # disjoint types: every other keyword's change is noise after that
        keywords.values(self, o, n, path, where)
        keywords.constraints(self, o, n, path, where)
        self._object(o, n, path, where, in_item, visiting)
        if "items" in o or "items" in n:
            self.compare(
                o.get("items"),
                n.get("items"),
                f"{path}/items",
                f"{where}[]",
                in_item=in_item,
                visiting=visiting,
            )
        for key in sorted((o.keys() | n.keys()) - _KNOWN):
            if normalize(o.get(key)) != normalize(n.get(key)):
                self.note(f"{path}/{escape(key)}", f"'{key}' changed at {path}", moved=False)

    def _object(
        self,
        o: Mapping[str, Any],
        n: Mapping[str, Any],
        path: str,
        where: str,
        in_item: bool,
        visiting: frozenset[tuple[str | None, str | None]],
    ) -> None:
        removed, added_required, added_optional, became_required, became_optional = _PROPERTY_RULES[
            self.direction
        ]
        old_props, new_props = obj(o.get("properties")), obj(n.get("properties"))
        old_req, new_req = _names(o.get("required")), _names(n.get("required"))
        # A name in `required` without a schema is still a property callers must send/receive.
        for name in sorted(old_props.keys() | new_props.keys() | old_req | new_req):
            sub_path = f"{path}/properties/{escape(name)}"
            sub_where = f"{where}.{name}" if where else name
            was, now = name in old_props or name in old_req, name in new_props or name in new_req
            if was and not now:
                rule = "result-item-field-removed" if in_item else removed
                self.emit(rule, sub_path, sub_where, "removed")
            elif now and not was:
                rule = added_required if name in new_req else added_optional
                self.emit(rule, sub_path, sub_where, "added")
            else:
                if name in new_req and name not in old_req:
                    self.emit(became_required, sub_path, sub_where, "became required")
                elif name in old_req and name not in new_req:
                    self.emit(became_optional, sub_path, sub_where, "became optional")
                # the items of data's `results` are the tool's per-item results
                item = in_item or (self.multi_item and path == DATA_PTR and name == "results")
                self.compare(
                    old_props.get(name),
                    new_props.get(name),
                    sub_path,
                    sub_where,
                    in_item=item,
                    visiting=visiting,
                )
        self._additional(o, n, path, where, in_item, visiting)

    def _additional(
        self,
        o: Mapping[str, Any],
        n: Mapping[str, Any],
        path: str,
        where: str,
        in_item: bool,
        visiting: frozenset[tuple[str | None, str | None]],
    ) -> None:
        old, new = o.get("additionalProperties", True), n.get("additionalProperties", True)
        sub_path = f"{path}/additionalProperties"
        if old is False and new is not False:
            rule = (
                "input-object-opened" if self.direction == "input" else "output-constraint-loosened"
            )
            self.emit(rule, sub_path, where, "accepts undeclared properties again")
        elif new is False and old is not False:
            rule = (
                "input-object-closed"
                if self.direction == "input"
                else "output-constraint-tightened"
            )
            self.emit(rule, sub_path, where, "no longer accepts undeclared properties")
        elif isinstance(old, Mapping) or isinstance(new, Mapping):
            # `true` and absent mean the empty schema: any value
            self.compare(
                old if isinstance(old, Mapping) else {},
                new if isinstance(new, Mapping) else {},
                sub_path,
                f"{where}.*" if where else "*",
                in_item=in_item,
                visiting=visiting,
            )


def _names(value: Any) -> set[str]:
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()
