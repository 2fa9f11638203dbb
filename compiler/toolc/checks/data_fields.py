"""The fields a tool's envelope `data` declares, for the description lint: its `returns`, or
for a multi-item tool the guide's normalized fields with `results[]` of its item. A name in any
branch of an `allOf`/`anyOf`/`oneOf` or `then`/`else` is declared. A path is found, missing
(with the names that level does declare), or undecidable (an object whose extra keys are data,
a `true` branch), when nothing may be said."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from toolc.contract.framework import MULTI_ITEM_FIELDS
from toolc.model import ToolDecl
from toolc.model.schemas import keywords_of, ref_name
from toolc.model.structs import stated_fields
from toolc.model.tools_file import Schema, SchemaKeywords, SchemaOrBool

# Keywords whose keys are data, not names a schema declares.
_OPEN = frozenset({"patternProperties", "unevaluatedProperties"})
# Keywords whose branches may each declare fields: a name in any of them is declared.
_BRANCHES = ("allOf", "anyOf", "oneOf")
ENVELOPE_KEYS = frozenset({"ok", "data", "error", "meta"})


class Lookup(msgspec.Struct, frozen=True):
    found: bool
    undecidable: bool = False
    depth: int = 0  # the part that is missing
    siblings: tuple[str, ...] = ()  # what that level declares


class DataShape:
    """The declared `data` of one tool (None: the tool declares nothing about it)."""

    def __init__(self, tool: ToolDecl, types: Mapping[str, SchemaOrBool]) -> None:
        self.types = types
        multi = tool.decl.multi_item
        # `true` / `false` name no field: read as declaring nothing about the data
        self.multi_item = keywords_of(multi.item) if multi is not None else None
        returns = tool.decl.returns
        self.returns = keywords_of(returns) if returns is not None else None

    @property
    def declared(self) -> bool:
        return self.multi_item is not None or self.returns is not None

    def top_level(self) -> tuple[str, ...]:
        found = self._children([], ())
        return tuple(found) if found is not None else ()

    def lookup(self, path: tuple[str, ...]) -> Lookup:
        nodes: list[SchemaKeywords] = []
        for depth, name in enumerate(path):
            children = self._children(nodes, path[:depth])
            if children is None:
                return Lookup(False, undecidable=True)
            if name not in children:
                return Lookup(False, depth=depth, siblings=tuple(children))
            found = children[name]
            if found is None:  # a framework field: what it holds is the framework's
                return Lookup(True)
            nodes = found
        return Lookup(True)

    def _children(
        self, nodes: list[SchemaKeywords], above: tuple[str, ...]
    ) -> dict[str, list[SchemaKeywords] | None] | None:
        """The names declared at one level, each with the schemas that may hold it (several
        where union branches declare it alike); None when the level's names are data."""
        if not above and self.multi_item is not None:
            item = [self.multi_item]
            return {f: item if f == "results" else None for f in MULTI_ITEM_FIELDS}
        if not above:
            nodes = [self.returns] if self.returns is not None else []
        found: dict[str, list[SchemaKeywords] | None] = {}
        for node in nodes:
            if not self._collect(node, found):
                return None
        return found

    def _collect(
        self,
        node: SchemaKeywords,
        found: dict[str, list[SchemaKeywords] | None],
        within: frozenset[int] = frozenset(),
    ) -> bool:
        """Add what `node` declares to `found`; False: its names cannot be known (`within`:
        the schemas this one is a branch of, so a type that contains itself ends)."""
        resolved = self._resolved(node)
        if resolved is None or id(resolved) in within or _OPEN & stated_fields(resolved):
            return False
        node, within = resolved, within | {id(resolved)}
        if node.items is not None and not node.properties:  # arrays are stepped through
            item = _keywords(node.items)
            return item is not None and self._collect(item, found, within)
        extra = node.additionalProperties
        if extra is not None and extra is not False:
            return False  # a map: its keys are data, not names the schema declares
        for name, sub in (node.properties or {}).items():
            keywords = _keywords(sub)
            if keywords is None or (name in found and found[name] is None):
                found[name] = None  # `true`/`false`: nothing more may be said below it
            else:
                found[name] = [*(found.get(name) or []), keywords]
        branches = [b for key in _BRANCHES for b in getattr(node, key) or ()]
        branches += [b for b in (node.then, node.else_) if b is not None]
        for branch in branches:
            if branch is False:
                continue  # a branch no value takes declares nothing
            keywords = _keywords(branch)
            if keywords is None or not self._collect(keywords, found, within):
                return False
        return True

    def _resolved(self, node: SchemaKeywords) -> SchemaKeywords | None:
        seen: set[str] = set()
        while node.field_ref is not None:
            name = ref_name(node.field_ref)
            if name in seen or name not in self.types:
                return None
            seen.add(name)
            found = keywords_of(self.types[name])
            if found is None:
                return None
            node = found
        return node


def _keywords(schema: bool | Schema) -> SchemaKeywords | None:
    """A schema's keywords; `true`/`false` say nothing about names (unknown: no warning)."""
    return None if isinstance(schema, bool) else schema
