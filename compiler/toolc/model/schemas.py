"""Walking the declared schema fragments, and their translation to standard JSON Schema 2020-12.

The config language differs from published JSON Schema in three spellings only: `list` is an
alias of `array`, `$ref` points at `#/types/<Name>` (published as `#/$defs/<Name>`), and the
runtime's `label` / `user_prompt` are published as the annotations `x-toolc-label` /
`x-toolc-user-prompt`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolc.model.project import Project
from toolc.model.tools_file import Schema, SchemaKeywords
from toolc.source.document import JsonPath

TYPES_REF = "#/types/"
DEFS_REF = "#/$defs/"
ANNOTATION_KEYS = {"label": "x-toolc-label", "user_prompt": "x-toolc-user-prompt"}


def roots(project: Project) -> Iterator[tuple[JsonPath, Schema]]:
    """Every top-level schema fragment of the project, with its path in tools.yaml."""
    for name, tool in project.tools.items():
        for arg, spec in tool.args.items():
            yield ("tools", name, "args_schema", arg), spec
        for arg, spec in tool.accepts.items():
            yield ("tools", name, "accepts", arg), spec
        if tool.decl.returns is not None:
            yield ("tools", name, "returns"), tool.decl.returns
        if tool.decl.multi_item is not None:
            yield ("tools", name, "multi_item", "item"), tool.decl.multi_item.item
    for type_name, schema in project.types.items():
        yield ("types", type_name), schema


def walk(schema: Schema, path: JsonPath) -> Iterator[tuple[JsonPath, SchemaKeywords]]:
    """The schema and every schema nested in it, depth first."""
    stack = [(path, schema)]
    while stack:
        here, node = stack.pop()
        kw = node.root
        yield here, kw
        extra = kw.additionalProperties.root if kw.additionalProperties is not None else None
        if isinstance(extra, Schema):
            stack.append(((*here, "additionalProperties"), extra))
        for prop, sub in reversed(list((kw.properties or {}).items())):
            stack.append(((*here, "properties", prop), sub))
        if kw.items is not None:
            stack.append(((*here, "items"), kw.items))


def ref_name(ref: str) -> str:
    return ref.removeprefix(TYPES_REF)


def to_json_schema(schema: Schema) -> dict[str, Any]:
    """The fragment as published JSON Schema 2020-12 (refs point into a `$defs` beside it)."""
    data = schema.model_dump(by_alias=True, exclude_unset=True, mode="json")
    assert isinstance(data, dict)
    return _translate(data)


def _translate(node: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "type":
            out[key] = (
                ["array" if t == "list" else t for t in value]
                if isinstance(value, list)
                else ("array" if value == "list" else value)
            )
        elif key == "$ref":
            out[key] = DEFS_REF + ref_name(value)
        elif key in ("items",) or (key == "additionalProperties" and isinstance(value, dict)):
            out[key] = _translate(value)
        elif key == "properties":
            out[key] = {name: _translate(sub) for name, sub in value.items()}
        else:
            out[ANNOTATION_KEYS.get(key, key)] = value
    return out


def refs_in(schema: Schema) -> Iterator[tuple[JsonPath, str]]:
    for path, kw in walk(schema, ()):
        if kw.field_ref is not None:
            yield path, ref_name(kw.field_ref)
