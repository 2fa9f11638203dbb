"""Whether one JSON Schema accepts every value another accepts: `accepts_all(wider, narrower)`.

The evolution walk already answers it in its `input` direction: a change from `narrower` to
`wider` that would break a caller is a value `narrower` accepts and `wider` refuses. But the walk
judges callers, not values, so each of its findings is read again here by value:

- some prove a refused value (a type, `null` or an enum value dropped, a bound tightened, a
  property newly required, an object closed): the answer is `no`;
- some are about values the narrower side never holds (a `required` on a schema that cannot be
  an object, a length bound beside a `pattern`): judged on the node, or left `unknown`;
- a property the wider side does not declare is judged against its `additionalProperties`, and
  one it declares anew against the narrower side's (the walk calls both compatible or breaking
  by name, but a value is what it is);
- below an `enum` or `const` the values are few: each is validated against the wider schema;
- what no rule can decide (one regex against another) is `unknown`, never a guess.

Every schema the narrower side reaches is assumed satisfiable, as toolc's own checks make it
(bounds that leave a value, a non-empty enum, no required property a closed object refuses): a
`no` names a place where a value of the narrower side is refused, not a value itself.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any, Literal

import jsonschema_rs
import msgspec
from msgspec import field

from toolc.contract.canonical import canonical_bytes
from toolc.evolution.by_value import (
    APPLIES,
    KEYWORD_RULES,
    NAMED,
    WIDENING,
    kind,
    may_be,
    unmatched,
)
from toolc.evolution.keywords import show, type_set
from toolc.evolution.places import chain, readable, segments
from toolc.evolution.views import escape
from toolc.evolution.walk import Walk

Verdict = Literal["yes", "no", "unknown"]
_RANK = {"no": 0, "unknown": 1, "yes": 2}


class Inclusion(msgspec.Struct, frozen=True):
    verdict: Verdict
    pointer: str = ""  # where it is decided: a JSON pointer into the wider schema, through $refs
    detail: str = ""  # what differs there, from the narrower schema to the wider
    narrower_pointer: str | None = None  # the same place in the narrower schema, if elsewhere

    @property
    def narrower_at(self) -> str:
        return self.pointer if self.narrower_pointer is None else self.narrower_pointer


YES = Inclusion("yes")


class _Probe(Walk):
    """The walk, keeping each change's parts instead of a finding's sentence."""

    changes: list[tuple[str, str, str, str]] = field(default_factory=list)
    unclassified: list[tuple[str, str]] = field(default_factory=list)

    def emit(self, rule: str, path: str, where: str, what: str) -> None:
        self.changes.append((rule, path, where, what))

    def note(self, path: str, what: str, *, same_values: bool) -> None:
        if not same_values:  # e.g. a schema moved behind a $ref accepts the same values
            self.unclassified.append((path, what))


def accepts_all(
    wider: Mapping[str, Any],
    narrower: Mapping[str, Any],
    document: Mapping[str, Any],
    *,
    where: str = "",
    narrower_document: Mapping[str, Any] | None = None,
) -> Inclusion:
    """Does `wider` accept every value `narrower` accepts? `document` is where `wider`'s local
    `$ref`s resolve (and `narrower`'s, unless `narrower_document`); `where` names the value in
    details (`issues` gives `issues[]` for its items)."""
    judge = _Judge(document, narrower_document or document)
    return judge.judge(wider, narrower, where, frozenset())


class _Judge:
    def __init__(self, wider_doc: Mapping[str, Any], narrower_doc: Mapping[str, Any]) -> None:
        self.wider_doc, self.narrower_doc = wider_doc, narrower_doc

    def node(self, schema: Any, pointer: str, document: Mapping[str, Any]) -> Any:
        """The schema at `pointer` with its $refs followed, None where the side has none."""
        here, found = chain(schema, pointer, document)[-1]
        return found if here == pointer else None

    def judge(
        self, wider: Any, narrower: Any, where: str, seen: frozenset[tuple[bytes, bytes]]
    ) -> Inclusion:
        key = (canonical_bytes(wider), canonical_bytes(narrower))
        if key in seen:  # a recursive type met again: assumed, as subtyping of recursion is
            return YES
        seen = seen | {key}
        probe = _Probe("", "input", self.narrower_doc, self.wider_doc)
        probe.compare(narrower, wider, "", where)
        found: list[Inclusion] = []
        by_values: dict[str, Inclusion] = {}
        for rule, path, at, what in probe.changes:
            if rule in WIDENING or not self.reachable(narrower, path):
                continue
            enumerated = self.enumerated_ancestor(narrower, path)
            if enumerated is not None:
                if enumerated not in by_values:
                    by_values[enumerated] = self.values(wider, narrower, enumerated, where)
                found.append(by_values[enumerated])
                continue
            found.append(self.read(rule, path, at, what, wider, narrower, seen))
        found += [Inclusion("unknown", path, what) for path, what in probe.unclassified]
        return min(found, key=lambda i: _RANK[i.verdict], default=YES)

    def reachable(self, narrower: Any, path: str) -> bool:
        """Whether a narrower value can get to `path` at all: a property only inside something
        that may be an object, an item only inside something that may be an array."""
        way = chain(narrower, path, self.narrower_doc)
        for (_, parent), (here, _) in itertools.pairwise(way):
            kind = "array" if here.endswith("/items") else "object"
            if not isinstance(parent, Mapping) or not may_be(parent, kind):
                return False
        return True

    def enumerated_ancestor(self, narrower: Any, path: str) -> str | None:
        """The outermost node on the way to `path` whose values are listed (enum, const)."""
        for pointer, node in chain(narrower, path, self.narrower_doc):
            if isinstance(node, Mapping) and ("enum" in node or "const" in node):
                return pointer
        return None

    def values(self, wider: Any, narrower: Any, pointer: str, where: str) -> Inclusion:
        """Each listed value of the narrower node, validated against the wider node; a refused
        one is located at the keyword that refuses it."""
        listed = self.node(narrower, pointer, self.narrower_doc)
        target = self.node(wider, pointer, self.wider_doc)
        name = readable(where, pointer)
        if not isinstance(target, Mapping):
            return Inclusion("unknown", pointer, f"{name}: the values listed meet no schema")
        candidates = list(listed.get("enum", [])) if "enum" in listed else [listed.get("const")]
        if "enum" in listed and "const" in listed:
            const = canonical_bytes(listed["const"])
            candidates = [v for v in candidates if canonical_bytes(v) == const]
        own = jsonschema_rs.validator_for({**listed, "$defs": self.narrower_doc.get("$defs", {})})
        check = jsonschema_rs.validator_for({**target, "$defs": self.wider_doc.get("$defs", {})})
        for value in filter(own.is_valid, candidates):  # a listed value its own node refuses
            # is no value of the narrower side (toolc's checks refuse such a schema anyway)
            error = next(iter(check.iter_errors(value)), None)
            if error is not None:
                inside = "".join(
                    "/items" if isinstance(step, int) else f"/properties/{escape(str(step))}"
                    for step in error.instance_path
                )
                keyword = f"/{error.schema_path[-1]}" if error.schema_path else ""
                return Inclusion(
                    "no",
                    f"{pointer}{inside}{keyword}",
                    f"{name}: {show(value)} refused",
                    f"{pointer}/{'enum' if 'enum' in listed else 'const'}",
                )
        return YES

    def read(
        self, rule: str, path: str, at: str, what: str, wider: Any, narrower: Any,
        seen: frozenset[tuple[bytes, bytes]],
    ) -> Inclusion:  # fmt: skip
        """One walk change, read by value."""
        parts = segments(path)
        proven, undecided = (
            Inclusion("no", path, f"{at}: {what}"),
            Inclusion("unknown", path, f"{at}: {what}"),
        )
        if self.vacuous(narrower, parts):  # below a keyword that cannot apply to the values
            return YES
        if rule in KEYWORD_RULES:
            return undecided
        is_property = len(parts) >= 2 and parts[-2] == "properties"
        owner = "/".join(path.split("/")[: -2 if is_property else -1])
        n_node = self.node(narrower, owner, self.narrower_doc)
        w_node = self.node(wider, owner, self.wider_doc)
        if not isinstance(n_node, Mapping) or not isinstance(w_node, Mapping):
            return undecided
        if rule in ("arg-added-required", "arg-became-required", "input-object-closed"):
            return proven if may_be(n_node, "object") else YES
        if rule in ("arg-type-changed", "nullability-removed", "input-enum-value-removed"):
            return proven
        if rule == "input-enum-introduced":
            if type_set(n_node) <= {"boolean", "null"}:  # few values: try each
                listed = [v for v in (True, False, None) if may_be(n_node, kind(v))]
                check = jsonschema_rs.validator_for(
                    {**w_node, "$defs": self.wider_doc.get("$defs", {})}
                )
                refused = [v for v in listed if not check.is_valid(v)]
                return (
                    Inclusion("no", path, f"{at}: {show(refused[0])} refused") if refused else YES
                )
            return proven
        if rule in ("bound-tightened", "pattern-changed"):
            keyword = parts[-1]
            if not may_be(n_node, APPLIES.get(keyword, "")):
                return YES  # a bound on values the narrower side never holds
            if rule == "pattern-changed":
                if "pattern" in n_node:
                    return undecided  # one regex against another: not decidable here
                missed = unmatched(w_node["pattern"], n_node)
                if missed is None:
                    return undecided
                return Inclusion("no", path, f"{at}: {what} ({show(missed)} refused)")
            if keyword in ("minLength", "maxLength") and "pattern" in n_node:
                return undecided  # the pattern may exclude those lengths already
            if keyword == "uniqueItems" and n_node.get("maxItems", 2) < 2:
                return YES
            return proven
        if rule == "arg-removed":  # declared by narrower only: wider's undeclared properties
            if not may_be(n_node, "object"):
                return YES
            if "patternProperties" in w_node or "unevaluatedProperties" in w_node:
                return undecided  # the name may match a pattern, or be judged unevaluated
            extra = w_node.get("additionalProperties", True)
            if extra is False:
                what = f"{at}: not declared, and undeclared properties are refused"
                return Inclusion("no", f"{owner}/additionalProperties", what, path)
            prop = n_node.get("properties", {}).get(parts[-1], {})
            inner = self.judge(extra, prop, at, seen) if isinstance(extra, Mapping) else YES
            return inner if inner.verdict == "yes" else Inclusion(inner.verdict, path, inner.detail)
        if rule == "arg-added-optional":  # declared by wider only: narrower's undeclared ones
            if "patternProperties" in n_node or "unevaluatedProperties" in n_node:
                return undecided
            extra = n_node.get("additionalProperties", True)
            if extra is False or not may_be(n_node, "object"):
                return YES
            prop = w_node.get("properties", {}).get(parts[-1], {})
            inner = self.judge(prop, extra if isinstance(extra, Mapping) else {}, at, seen)
            return inner if inner.verdict == "yes" else Inclusion(inner.verdict, path, inner.detail)
        return undecided  # a rule this reading does not know yet: never a silent yes

    def vacuous(self, narrower: Any, parts: list[str]) -> bool:
        """Whether a keyword on the way is one of a kind of value (an object's
        `propertyNames`, an array's `contains`) the narrower schema there never holds."""
        index = 0
        while index < len(parts):
            keyword = parts[index]
            if keyword in APPLIES:
                owner = "".join(f"/{escape(p)}" for p in parts[:index])
                node = self.node(narrower, owner, self.narrower_doc)
                if isinstance(node, Mapping) and not may_be(node, APPLIES[keyword]):
                    return True
            index += 2 if keyword in NAMED else 1  # skip the name or index that follows
        return False
