"""The fields a tool's envelope `data` declares, for the description lint: its `returns`, or
for a multi-item tool the guide's normalized fields with `results[]` of its item. A path is
found, missing (with the names that level does declare), or undecidable (a composition, or an
object whose extra keys are data), when nothing may be said."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toolc.contract.framework import MULTI_ITEM_FIELDS
from toolc.model import ToolDecl
from toolc.model.schemas import keywords_of, ref_name
from toolc.model.tools_file import Schema, SchemaKeywords, SchemaOrBool

# Keywords after which the declared properties are not the whole story.
_OPEN = frozenset({"oneOf", "anyOf", "allOf", "not", "if", "then", "else", "patternProperties"})
ENVELOPE_KEYS = frozenset({"ok", "data", "error", "meta"})


@dataclass(frozen=True, slots=True)
class Lookup:
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
        found = self._children(None, ())
        return tuple(found) if found is not None else ()

    def lookup(self, path: tuple[str, ...]) -> Lookup:
        node: SchemaKeywords | None = None
        for depth, name in enumerate(path):
            children = self._children(node, path[:depth])
            if children is None:
                return Lookup(False, undecidable=True)
            if name not in children:
                return Lookup(False, depth=depth, siblings=tuple(children))
            node = children[name]
            if node is None:  # a framework field: what it holds is the framework's
                return Lookup(True)
        return Lookup(True)

    def _children(
        self, node: SchemaKeywords | None, above: tuple[str, ...]
    ) -> dict[str, SchemaKeywords | None] | None:
        if not above and self.multi_item is not None:
            return {f: self.multi_item if f == "results" else None for f in MULTI_ITEM_FIELDS}
        if not above:
            node = self.returns
        if node is None:
            return {}
        node = self._resolved(node)
        if node is None or _OPEN & node.model_fields_set:
            return None
        while node.items is not None and not node.properties:  # arrays are stepped through
            item = _keywords(node.items.root)
            inner = self._resolved(item) if item is not None else None
            if inner is None:
                return None
            node = inner
        extra = node.additionalProperties
        if extra is not None and extra.root is not False:
            return None  # a map: its keys are data, not names the schema declares
        return {name: _keywords(sub.root) for name, sub in (node.properties or {}).items()}

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
    return None if isinstance(schema, bool) else schema.root
