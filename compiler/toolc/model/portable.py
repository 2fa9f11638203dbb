"""The portable form of a published schema (decision 0075): every local `$ref` inlined and every
list of types written as `anyOf`, for clients and providers that resolve no `$ref` or read one
type. Both rewrites keep the meaning, so every instance is judged alike (tests/test_portable.py):

- `{"$ref": R, k: v}` means R and `{k: v}` both hold (2020-12): it becomes R's schema with the
  siblings merged in when they share no assertion with it and no keyword of one side reads
  one of the other's (`items` beside `prefixItems`, say; annotations the sibling states win,
  as they describe this use), else `{"allOf": [R], k: v}`.
- `"type": [a, b]` holds when one of the types does, which is what `anyOf: [{type: a},
  {type: b}]` says; the node's other keywords stay beside it (each applies to its own types).
  A node that already has an `anyOf` keeps its list: two `anyOf` cannot share one node.

A `$ref` that reaches itself (a recursive type) cannot be inlined: `Recursive` says which."""

from __future__ import annotations

from typing import Any

from toolc.model.schemas import MISSING, VALUES, resolve

# Keywords that never change a verdict: a sibling's replaces the referenced schema's.
ANNOTATIONS = frozenset(
    ("title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
     "$comment", "x-toolc-label", "x-toolc-user-prompt")
)  # fmt: skip


TYPES = frozenset(("null", "boolean", "object", "array", "number", "integer", "string"))


class Recursive(ValueError):
    """A `$ref` met again while it is being inlined: the schema is recursive."""

    def __init__(self, ref: str) -> None:
        super().__init__(ref)
        self.ref = ref


def portable(document: dict[str, Any]) -> dict[str, Any]:
    """`document` (a whole published schema) with its `$ref`s inlined and its type lists as
    `anyOf`; its root `$defs` is dropped once nothing points into it. Raises Recursive."""
    out = _rewrite(document, document, ())
    assert isinstance(out, dict)
    if "$defs" in out and not _points_into_defs({k: v for k, v in out.items() if k != "$defs"}):
        del out["$defs"]
    return out


def _rewrite(node: Any, document: dict[str, Any], expanding: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_rewrite(item, document, expanding) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        if ref in expanding:
            raise Recursive(ref)
        target = resolve(document, ref)
        if target is not MISSING:
            inlined = _rewrite(target, document, (*expanding, ref))
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            return _merged(inlined, _rewrite(siblings, document, expanding))
    out = {
        key: value if key in VALUES else _rewrite(value, document, expanding)
        for key, value in node.items()
        if key != "$defs" or node is not document
    }
    if node is document and "$defs" in node:
        out["$defs"] = node["$defs"]  # judged by portable(): kept only while pointed into
    kind = out.get("type")
    if isinstance(kind, list) and len(kind) > 1 and set(kind) <= TYPES and "anyOf" not in out:
        del out["type"]
        out["anyOf"] = [{"type": t} for t in kind]
    return out


# Keywords whose verdict reads others of the same schema object (2020-12): merged beside
# such a keyword of the other side, `items` would skip the elements `prefixItems` took, an
# `additionalProperties` spare the names `properties` lists, `unevaluated*` see annotations
# they could not see through `$ref`. `$ref` is an in-place applicator, as `allOf` is, so
# `allOf: [R]` keeps the meaning where merging does not.
_IN_PLACE = frozenset(("allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas"))
_READS: dict[str, frozenset[str]] = {
    "items": frozenset(("prefixItems",)),
    "additionalProperties": frozenset(("properties", "patternProperties")),
    "minContains": frozenset(("contains",)),
    "maxContains": frozenset(("contains",)),
    "then": frozenset(("if",)),
    "else": frozenset(("if",)),
    "unevaluatedItems": frozenset(("prefixItems", "items", "contains")) | _IN_PLACE,
    "unevaluatedProperties": frozenset(("properties", "patternProperties", "additionalProperties"))
    | _IN_PLACE,
}


def _interacting(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether a keyword of either side reads one of the other's."""
    return any(
        key in _READS and not _READS[key].isdisjoint(theirs)
        for mine, theirs in ((one, other), (other, one))
        for key in mine
    )


def _merged(target: Any, siblings: dict[str, Any]) -> Any:
    if not siblings:
        return target
    if isinstance(target, dict):
        shared = (set(target) & set(siblings)) - ANNOTATIONS
        if not shared and not _interacting(target, siblings):
            return {**target, **siblings}
    theirs = siblings.get("allOf")
    if isinstance(theirs, list):  # the siblings' own `allOf` joins the target's, never replaces it
        return {**siblings, "allOf": [target, *theirs]}
    return {"allOf": [target], **siblings}


def _points_into_defs(node: Any) -> bool:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs"):
            return True
        return any(_points_into_defs(v) for k, v in node.items() if k not in VALUES)
    if isinstance(node, list):
        return any(_points_into_defs(v) for v in node)
    return False
