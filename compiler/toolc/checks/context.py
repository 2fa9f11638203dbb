"""What the checks share: the project, and indexes over its schema fragments computed once per
run (walking and translating every fragment once, not once per check)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from toolc.model import Project
from toolc.model.schemas import roots, to_json_schema, walk
from toolc.model.tools_file import SchemaKeywords
from toolc.source import JsonPath


@dataclass(frozen=True, slots=True)
class SchemaNode:
    path: JsonPath  # where the schema is in tools.yaml
    root: JsonPath  # the fragment it belongs to (an argument, returns, an item, a type)
    keywords: SchemaKeywords


def _published_nodes(path: JsonPath, schema: dict[str, Any], out: dict[JsonPath, Any]) -> None:
    out[path] = schema
    items = schema.get("items")
    if isinstance(items, dict):
        _published_nodes((*path, "items"), items, out)
    for name, sub in schema.get("properties", {}).items():
        _published_nodes((*path, "properties", name), sub, out)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        _published_nodes((*path, "additionalProperties"), extra, out)


@dataclass
class CheckContext:
    project: Project

    @cached_property
    def nodes(self) -> list[SchemaNode]:
        """Every schema of every fragment, nested ones included, in declaration order."""
        return [
            SchemaNode(path, root, kw)
            for root, schema in roots(self.project)
            for path, kw in walk(schema, root)
        ]

    @cached_property
    def published_roots(self) -> dict[JsonPath, dict[str, Any]]:
        """Each fragment as published JSON Schema, by the fragment's path."""
        return {root: to_json_schema(schema) for root, schema in roots(self.project)}

    @cached_property
    def published(self) -> dict[JsonPath, dict[str, Any]]:
        """Every schema node as published JSON Schema, by its path (views into the roots)."""
        out: dict[JsonPath, dict[str, Any]] = {}
        for root, schema in self.published_roots.items():
            _published_nodes(root, schema, out)
        return out

    @cached_property
    def published_types(self) -> dict[str, dict[str, Any]]:
        """The shared types as published, for a `$defs` beside a checked schema."""
        return {
            str(path[1]): schema
            for path, schema in self.published_roots.items()
            if path[0] == "types"
        }
