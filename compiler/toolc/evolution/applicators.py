"""The in-place applicators, old against new: `anyOf`/`oneOf` (unions), `allOf`, `not` and
`if`/`then`/`else`.

A node with a union is compared as the union of its branches, each with the node's other
keywords merged in (`{type: object, anyOf: [A, B]}` is `anyOf: [{type: object} ∧ A, ...]`), and
a node without one as the union of itself alone, so `{type: string}` → `anyOf: [{type: string},
{type: 'null'}]` is a branch added, not a type removed. In the direction of the walk, every
branch of the side that must be included (inputs: old; outputs: new) is compared with a branch of
the other side that means the same, else one sharing a type; one left without is a branch
removed (inputs) or added (outputs). A `oneOf` is a union only while each side's branches are
pairwise disjoint; otherwise any change of it is undecidable. `allOf` branches are constraints:
the same matching the other way round, a branch without a partner compared with `{}`. A `not` or
an `if` that changed is undecidable; `then`/`else` under the same `if` are compared in place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toolc.evolution.identity import ANNOTATIONS, deref, is_any, merge, pairwise_disjoint, same
from toolc.evolution.keywords import Sub, Walker, type_set

_ALL = "any"


def _schema(branch: Any) -> Mapping[str, Any]:
    if branch is False:
        return {"not": {}}
    return branch if isinstance(branch, Mapping) else {}


def _distribute(node: Mapping[str, Any], key: str) -> list[Mapping[str, Any]] | None:
    """The node as a list of branches meaning the same under `key`, or None when its other
    keywords cannot be merged into a branch exactly."""
    rest = {k: v for k, v in node.items() if k not in ANNOTATIONS and k not in ("$defs", key)}
    if key not in node:
        return [rest]  # X is anyOf [X], and oneOf [X]
    branches = node[key]
    if not isinstance(branches, list) or not branches:
        return None
    if not rest:
        return [_schema(b) for b in branches]  # kept whole: a $ref branch stays one
    out: list[Mapping[str, Any]] = []
    for branch in map(_schema, branches):
        merged = merge(rest, {"allOf": [branch]} if "$ref" in branch else branch)
        if merged is None:
            return None
        out.append(merged)
    return out


def unions(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str,
           sub: Sub) -> bool:  # fmt: skip
    """Compares the nodes whole as unions; False when they are compared keyword by keyword."""
    keys = [k for k in ("anyOf", "oneOf") if k in o or k in n]
    if len(keys) != 1:
        return False
    key = keys[0]
    old, new = _distribute(o, key), _distribute(n, key)
    if old is None or new is None:
        return False
    if key == "oneOf" and not (
        pairwise_disjoint(old, walk.old_document) and pairwise_disjoint(new, walk.new_document)
    ):
        return False  # no union: the other keywords are compared one by one beside it
    _branches(walk, key, old, new, path, where, sub, in_place=False)
    return True


def fallback_unions(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str,
                    where: str, sub: Sub) -> None:  # fmt: skip
    """The unions of nodes compared keyword by keyword (beside the node's other keywords)."""
    for key in ("anyOf", "oneOf"):
        if key not in o and key not in n:
            continue
        old = [_schema(b) for b in o[key]] if isinstance(o.get(key), list) else [{}]
        new = [_schema(b) for b in n[key]] if isinstance(n.get(key), list) else [{}]
        if key == "oneOf" and not (
            pairwise_disjoint(old, walk.old_document) and pairwise_disjoint(new, walk.new_document)
        ):
            _overlapping(walk, old, new, f"{path}/oneOf", where, sub)
        else:
            _branches(walk, key, old, new, path, where, sub, in_place=True)


def _overlapping(walk: Walker, old: list[Mapping[str, Any]], new: list[Mapping[str, Any]],
                 path: str, where: str, sub: Sub) -> None:  # fmt: skip
    """A oneOf that may hold a value in two branches: only annotations may change."""
    if len(old) == len(new) and all(
        same(a, b, walk.old_document, walk.new_document) for a, b in zip(old, new, strict=True)
    ):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            sub(a, b, f"{path}/{index}", where, True)
        return
    what = "oneOf changed, and its branches may overlap"
    walk.emit(f"{walk.direction}-schema-undecided", path, where, what)


def _partner(branch: Mapping[str, Any], doc: Any, others: list[Mapping[str, Any]],
             others_doc: Any, used: set[int], old_first: bool,
             reuse: Callable[[int], bool] = lambda _: True) -> int | None:  # fmt: skip
    """The branch of `others` to compare `branch` with: one meaning the same, else an unused
    one sharing a type, else a used one sharing a type that `reuse` allows."""
    for index, other in enumerate(others):
        pair = (branch, other, doc, others_doc) if old_first else (other, branch, others_doc, doc)
        if same(*pair):
            return index
    kinds = type_set(deref(branch, doc)[0])
    sharing = [i for i, b in enumerate(others) if kinds & type_set(deref(b, others_doc)[0])]
    unused = next((i for i in sharing if i not in used), None)
    return unused if unused is not None else next((i for i in sharing if reuse(i)), None)


def _brief(branch: Mapping[str, Any], doc: Any) -> str:
    kinds = type_set(deref(branch, doc)[0])
    return " | ".join(sorted(kinds)) if len(kinds) < 7 else _ALL


def _branches(walk: Walker, key: str, old: list[Mapping[str, Any]],
              new: list[Mapping[str, Any]], path: str, where: str, sub: Sub, *,
              in_place: bool) -> None:  # fmt: skip
    """Union branches in the walk's direction (see the module's docstring)."""
    old_doc, new_doc = walk.old_document, walk.new_document
    inner_old = walk.direction == "input"  # inputs: each old branch must fit in a new one
    inner, outer = (old, new) if inner_old else (new, old)
    inner_doc, outer_doc = (old_doc, new_doc) if inner_old else (new_doc, old_doc)
    lost, gained = (
        (f"{walk.direction}-union-branch-removed", f"{walk.direction}-union-branch-added")
        if inner_old
        else (f"{walk.direction}-union-branch-added", f"{walk.direction}-union-branch-removed")
    )
    used: set[int] = set()
    for i, branch in enumerate(inner):
        # An old input branch may fit in a new one that already holds another; a new output
        # branch shares an old one only if it fits in it entirely: else it is a new shape.
        def fits(j: int, branch: Mapping[str, Any] = branch) -> bool:
            return inner_old or walk.fits(outer[j], branch)

        j = _partner(branch, inner_doc, outer, outer_doc, used, inner_old, reuse=fits)
        verb = "removed" if inner_old else "added"
        if j is None:
            what = f"{key} branch {i} ({_brief(branch, inner_doc)}) {verb}"
            walk.emit(lost, f"{path}/{key}/{i}", where, what)
            continue
        used.add(j)
        a, b, at = (branch, outer[j], j) if inner_old else (outer[j], branch, i)
        sub(a, b, f"{path}/{key}/{at}", where, in_place)
    for j in sorted(set(range(len(outer))) - used):
        verb = "added" if inner_old else "removed"
        what = f"{key} branch {j} ({_brief(outer[j], outer_doc)}) {verb}"
        walk.emit(gained, f"{path}/{key}/{j}", where, what)


def conjunction(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str,
                where: str, sub: Sub) -> None:  # fmt: skip
    """`allOf`: each branch a constraint. Inputs: each new branch is compared with an old one
    (or `{}`: a new constraint); outputs: each old branch with a new one."""
    old = [_schema(b) for b in o["allOf"]] if isinstance(o.get("allOf"), list) else []
    new = [_schema(b) for b in n["allOf"]] if isinstance(n.get("allOf"), list) else []
    inner_new = walk.direction == "input"
    inner, outer = (new, old) if inner_new else (old, new)
    inner_doc, outer_doc = (
        (walk.new_document, walk.old_document)
        if inner_new
        else (walk.old_document, walk.new_document)
    )
    used: set[int] = set()
    for i, branch in enumerate(inner):
        j = _partner(branch, inner_doc, outer, outer_doc, used, not inner_new)
        partner: Any = {} if j is None else outer[j]
        if j is not None:
            used.add(j)
        a, b = (partner, branch) if inner_new else (branch, partner)
        at = i if inner_new else (j if j is not None else i)
        sub(a, b, f"{path}/allOf/{at}", where, True)
    for j in sorted(set(range(len(outer))) - used):
        a, b = (outer[j], {}) if inner_new else ({}, outer[j])
        sub(a, b, f"{path}/allOf/{j}", where, True)


def negation(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], path: str, where: str,
             sub: Sub) -> None:  # fmt: skip
    """`not`, and `if`/`then`/`else`: added narrows, removed widens, changed is undecidable."""
    _judged(walk, o, n, "not", path, where, sub, "not" in o, "not" in n)
    old_if = "if" in o and ("then" in o or "else" in o)
    new_if = "if" in n and ("then" in n or "else" in n)
    if _judged(walk, o, n, "if", path, where, sub, old_if, new_if) and old_if:
        for key in ("then", "else"):
            if key in o or key in n:
                sub(o.get(key, {}), n.get(key, {}), f"{path}/{key}", where, True)
    elif not old_if and not new_if:
        for key in ("if", "then", "else"):  # without both halves, none of them asserts
            if not same(o.get(key), n.get(key), walk.old_document, walk.new_document,
                        meaning=False):  # fmt: skip
                walk.note(f"{path}/{key}", f"'{key}' changed at {path}", same_values=True)


def _judged(walk: Walker, o: Mapping[str, Any], n: Mapping[str, Any], key: str, path: str,
            where: str, sub: Sub, was: bool, now: bool) -> bool:  # fmt: skip
    """Classifies the keyword's presence; True when it is on both sides and means the same."""
    at = f"{path}/{key}"
    if was and now:
        if same(o[key], n[key], walk.old_document, walk.new_document):
            if key == "not" and not is_any(o[key]):
                sub(o[key], n[key], at, where, True)  # annotations only: its prose findings
            return True
        walk.emit(f"{walk.direction}-schema-undecided", at, where, f"{key} changed")
    elif now:
        walk.emit(f"{walk.direction}-subschema-added", at, where, f"{key} added")
    elif was:
        walk.emit(f"{walk.direction}-subschema-removed", at, where, f"{key} removed")
    return False
