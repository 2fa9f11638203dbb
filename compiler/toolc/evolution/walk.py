"""Comparing two JSON Schemas by meaning, in one direction: `input` (what callers send: narrowing
breaks) or `output` (what callers receive: widening breaks).

Local `$ref`s are followed on both sides before anything is compared, so a type moved between
inline and `$defs`, or a renamed `$def`, is no removal: it is recorded as a structural note (the
document changed, nothing a caller depends on did), which becomes one `unclassified-change`.
Every keyword of 2020-12 has its family: `keywords` (types, values, bounds), this module
(properties), `containers`, `applicators` (unions, allOf, not, if) and `vocabulary` (annotations,
content, core keywords); what no family classifies is a vendor extension.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec
from msgspec import field

from toolc.contract.snapshot import normalize
from toolc.evolution import applicators, containers, identity, keywords, vocabulary
from toolc.evolution.findings import Finding, finding
from toolc.evolution.identity import deref
from toolc.evolution.views import DATA_PTR, escape, obj

Direction = Literal["input", "output"]

# Keywords classified here or in `keywords`, beside 2020-12's (`vocabulary.COMPARED`); a
# difference in any other one (a vendor extension) is a change no rule classifies.
_KNOWN = frozenset(keywords.PROSE)

# Per direction: what removing, adding, requiring and un-requiring a property means.
_PROPERTY_RULES = {
    "input": ("arg-removed", "arg-added-required", "arg-added-optional", "arg-became-required",
              "arg-became-optional"),
    "output": ("data-field-removed", "data-field-added", "data-field-added",
               "data-field-became-required", "data-field-became-optional"),
}  # fmt: skip


def _describe(refs: tuple[str, ...]) -> str:
    return f"$ref '{refs[-1]}'" if refs else "an inline schema"


class Walk(msgspec.Struct, dict=True):
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

    def note(self, path: str, what: str, *, same_values: bool) -> None:
        """A difference no rule classifies: one that changes no value (a schema moved between
        inline and a `$ref`, a keyword that asserts nothing here), or a keyword outside the
        vocabulary of 2020-12 (a vendor extension: an annotation to validators)."""
        self.notes.append((path, what))

    def fits(self, old: Any, new: Any) -> bool:
        trial = Walk(self.tool, self.direction, self.old_document, self.new_document)
        trial.compare(old, new, "", "")
        return all(f.level in ("compatible", "docs") for f in trial.findings)

    def compare(
        self,
        old: Any,
        new: Any,
        path: str,
        where: str,
        *,
        in_item: bool = False,
        in_place: bool = False,
        visiting: frozenset[tuple[str | None, str | None]] = frozenset(),
    ) -> None:
        """`in_place`: below an applicator that applies to a value other keywords describe too
        (allOf, a union branch merged no further, then/else...): there a property is not
        declared by one schema alone, so an added or removed one is judged by its values."""
        o, old_refs = deref(_schema(old), self.old_document)
        n, new_refs = deref(_schema(new), self.new_document)
        if old_refs != new_refs:
            what = f"{_describe(old_refs)} became {_describe(new_refs)} at {path}"
            self.note(path, what, same_values=True)
        pair = (old_refs[-1] if old_refs else None, new_refs[-1] if new_refs else None)
        if pair != (None, None):
            # A recursive type reaches the same pair of definitions again: what lies below was
            # (or is being) compared already, and going on would never end.
            if pair in visiting:
                return
            visiting = visiting | {pair}
        keywords.prose(self, o, n, path, where)
        vocabulary.annotated(self, o, n, path, where)
        if self._never(o, n, path, where):
            return

        def sub(a: Any, b: Any, sub_path: str, sub_where: str, place: bool) -> None:
            self.compare(a, b, sub_path, sub_where, in_item=in_item,
                         in_place=in_place or place, visiting=visiting)  # fmt: skip

        if not applicators.unions(self, o, n, path, where, sub):
            self._keywords(o, n, path, where, in_item, in_place, visiting, sub)
        vocabulary.core(self, o, n, path, where)
        for key in sorted((o.keys() | n.keys()) - vocabulary.COMPARED - _KNOWN):
            if normalize(o.get(key)) != normalize(n.get(key)):
                self.note(f"{path}/{escape(key)}", f"'{key}' changed at {path}", same_values=False)

    def _keywords(self, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str,
                  in_item: bool, in_place: bool,
                  visiting: frozenset[tuple[str | None, str | None]],
                  sub: keywords.Sub) -> None:  # fmt: skip
        """The node's keywords one by one (each constrains the same value)."""
        if not keywords.types(self, o, n, path, where):
            return  # disjoint types: every other keyword's change is noise after that
        keywords.values(self, o, n, path, where)
        keywords.constraints(self, o, n, path, where)
        self._object(o, n, path, where, in_item, in_place, visiting)
        self._additional(o, n, path, where, in_item, in_place, visiting)
        if "items" in o or "items" in n:
            self.compare(
                o.get("items"),
                n.get("items"),
                f"{path}/items",
                f"{where}[]",
                in_item=in_item,
                in_place=in_place,
                visiting=visiting,
            )
        containers.arrays(self, o, n, path, where, sub)
        containers.objects(self, o, n, path, where, sub)
        applicators.fallback_unions(self, o, n, path, where, sub)
        applicators.conjunction(self, o, n, path, where, sub)
        applicators.negation(self, o, n, path, where, sub)

    def _never(self, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str) -> bool:
        """A `false` schema (or `not: {}`) on either side: nothing else of the pair matters."""
        old, new = _is_never(o), _is_never(n)
        if old and not new:
            self.emit(f"{self.direction}-subschema-removed", path, where,
                      "accepts values again (was false)")  # fmt: skip
        elif new and not old:
            self.emit(f"{self.direction}-subschema-added", path, where,
                      "accepts no value any more (false)")  # fmt: skip
        return old or new

    def _object(
        self,
        o: Mapping[str, Any],
        n: Mapping[str, Any],
        path: str,
        where: str,
        in_item: bool,
        in_place: bool,
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
            if in_place and was != now:
                self._by_value(o, n, name, path, where, in_item, visiting)
            elif was and not now:
                rule = "result-item-field-removed" if in_item else removed
                self.emit(rule, sub_path, sub_where, "removed")
            elif now and not was:
                rule = added_required if name in new_req else added_optional
                self.emit(rule, sub_path, sub_where, "added")
                if _undeclared_judged(o):  # its values were judged before it was declared
                    self._newly_declared(o, new_props.get(name), sub_path, sub_where,
                                         in_item, visiting)  # fmt: skip
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
                    in_place=in_place,
                    visiting=visiting,
                )

    def _newly_declared(self, o: Mapping[str, Any], now: Any, sub_path: str, sub_where: str,
                        in_item: bool,
                        visiting: frozenset[tuple[str | None, str | None]]) -> None:  # fmt: skip
        """A property declared now whose name the old object's `additionalProperties` or
        `patternProperties` judged: what it accepts now is compared with what they did
        (`{x: integer}` beside `additionalProperties: {type: string}` refuses "hello")."""
        if "patternProperties" in o:  # which patterns it matched is not decided here
            what = "declared now, its name judged by patternProperties before"
            self.emit(f"{self.direction}-schema-undecided", sub_path, sub_where, what)
            return
        self.compare(_extra(o), {} if now is None else now, sub_path, sub_where,
                     in_item=in_item, in_place=True, visiting=visiting)  # fmt: skip

    def _by_value(self, o: Mapping[str, Any], n: Mapping[str, Any], name: str, path: str,
                  where: str, in_item: bool,
                  visiting: frozenset[tuple[str | None, str | None]]) -> None:  # fmt: skip
        """A property declared on one side only, below an in-place applicator: its values are
        compared with what the other side's undeclared properties accept."""
        sub_path = f"{path}/properties/{escape(name)}"
        sub_where = f"{where}.{name}" if where else name
        old_req, new_req = _names(o.get("required")), _names(n.get("required"))
        if name in new_req - old_req:
            self.emit(_PROPERTY_RULES[self.direction][3], sub_path, sub_where, "became required")
        elif name in old_req - new_req:
            self.emit(_PROPERTY_RULES[self.direction][4], sub_path, sub_where, "became optional")
        if "patternProperties" in o or "patternProperties" in n:
            what = "declared on one side only, beside patternProperties"
            self.emit(f"{self.direction}-schema-undecided", sub_path, sub_where, what)
            return
        old_props, new_props = obj(o.get("properties")), obj(n.get("properties"))
        self.compare(
            old_props[name] if name in old_props else _extra(o),
            new_props[name] if name in new_props else _extra(n),
            sub_path, sub_where, in_item=in_item, in_place=True, visiting=visiting,
        )  # fmt: skip

    def _additional(
        self,
        o: Mapping[str, Any],
        n: Mapping[str, Any],
        path: str,
        where: str,
        in_item: bool,
        in_place: bool,
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
                in_place=in_place,
                visiting=visiting,
            )


def _schema(value: Any) -> Mapping[str, Any]:
    """A schema as an object: `true` (and an absent one) is `{}`, `false` is `not: {}`."""
    if value is False:
        return {"not": {}}
    return obj(value)


def _is_never(schema: Mapping[str, Any]) -> bool:
    return "not" in schema and identity.is_any(schema["not"])


def _undeclared_judged(schema: Mapping[str, Any]) -> bool:
    """Whether an object judges the values of names it does not declare: with a schema
    (or `false`) under `additionalProperties`, or with `patternProperties`."""
    extra = schema.get("additionalProperties", True)
    return "patternProperties" in schema or extra not in (True, {})


def _extra(schema: Mapping[str, Any]) -> Any:
    """The schema an undeclared property meets: `additionalProperties`, `{}` if absent."""
    return schema.get("additionalProperties", {})


def _names(value: Any) -> set[str]:
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()
