"""Walking the declared schema fragments, and their translation to standard JSON Schema 2020-12.

The config language differs from published JSON Schema in three spellings only: `list` is an
alias of `array`, `$ref` points at `#/types/<Name>` (published as `#/$defs/<Name>`), and the
runtime's `label` / `user_prompt` are published as the annotations `x-toolc-label` /
`x-toolc-user-prompt`. A `$ref` that is a JSON pointer (`#`, `#/$defs/X`, ...) points into the
fragment it is written in; publishing rebases it onto where the fragment lands (`base`), so a
published schema pasted in keeps its meaning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, overload
from urllib.parse import quote, unquote

import msgspec

from toolc.model.project import Project, ToolDecl
from toolc.model.structs import convert
from toolc.model.tools_file import ArgsKeywords, Schema, SchemaKeywords
from toolc.source.document import JsonPath

TYPES_REF = "#/types/"
DEFS_REF = "#/$defs/"
ANNOTATION_KEYS = {"label": "x-toolc-label", "user_prompt": "x-toolc-user-prompt"}
# Where subschemas sit, by keyword: one schema, a list of them, a map of them by name.
ONE = (
    "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties", "contentSchema",
)  # fmt: skip
MANY = ("allOf", "anyOf", "oneOf", "prefixItems")
NAMED = ("properties", "patternProperties", "dependentSchemas", "$defs")
# Keywords whose values are data, never schemas.
VALUES = ("const", "enum", "default", "examples")
# Each keyword's attribute (`$ref` is `field_ref`, `else` is `else_`, ...).
_ATTR = dict(
    zip(SchemaKeywords.__struct_encode_fields__, SchemaKeywords.__struct_fields__, strict=True)
)
# A top-level fragment: an argument, a caller form, `returns`, an item, a type. Any of them may
# be `true` (any JSON value) or `false` (none), as anywhere a schema goes in 2020-12.
Fragment = bool | SchemaKeywords


def roots(project: Project) -> Iterator[tuple[JsonPath, Fragment]]:
    """Every top-level schema fragment of the project, with its path in tools.yaml (the
    keywords of a tool's arguments object, `args_keywords`, as a fragment of their own)."""
    for name, tool in project.tools.items():
        for arg, spec in tool.args.items():
            yield ("tools", name, "args_schema", arg), spec
        for arg, spec in tool.accepts.items():
            yield ("tools", name, "accepts", arg), spec
        if tool.decl.args_keywords is not None:
            yield ("tools", name, "args_keywords"), args_keywords(tool.decl.args_keywords)
        if tool.decl.returns is not None:
            yield ("tools", name, "returns"), tool.decl.returns
        if tool.decl.multi_item is not None:
            yield ("tools", name, "multi_item", "item"), tool.decl.multi_item.item
    for type_name, schema in project.types.items():
        yield ("types", type_name), schema


def args_keywords(keywords: ArgsKeywords) -> Schema:
    """The tool-level keywords as a schema fragment (every one of them but `$schema` is a
    schema keyword), so the checks walk them like any fragment."""
    data = msgspec.to_builtins(keywords)
    data.pop("$schema", None)
    converted: SchemaKeywords = convert(data, SchemaKeywords)
    return converted


def schema_of(value: Fragment) -> Schema | None:
    """The object form of a subschema; None for `true`/`false`."""
    return value if isinstance(value, SchemaKeywords) else None


def keywords_of(value: Fragment) -> SchemaKeywords | None:
    """The keywords of a schema; None for `true`/`false`."""
    return value if isinstance(value, SchemaKeywords) else None


def children(kw: SchemaKeywords) -> Iterator[tuple[tuple[str | int, ...], Fragment]]:
    """The subschemas of one schema node, each with its path below the node."""
    for key in (*ONE, *MANY, *NAMED):
        value = getattr(kw, _ATTR[key])
        if value is None:
            continue
        if key in ONE:
            yield (key,), value
        elif key in MANY:
            yield from (((key, i), sub) for i, sub in enumerate(value))
        else:
            yield from (((key, name), sub) for name, sub in value.items())


def walk(schema: Fragment, path: JsonPath) -> Iterator[tuple[JsonPath, SchemaKeywords]]:
    """The schema and every schema nested in it (not `true`/`false`), depth first."""
    top = schema_of(schema)
    stack = [(path, top)] if top is not None else []
    while stack:
        here, kw = stack.pop()
        yield here, kw
        below = [((*here, *where), schema_of(sub)) for where, sub in children(kw)]
        stack.extend((p, s) for p, s in reversed(below) if s is not None)


def ref_name(ref: str) -> str:
    return ref.removeprefix(TYPES_REF)


def is_type_ref(ref: str) -> bool:
    return ref.startswith(TYPES_REF)


def is_pointer(ref: str) -> bool:
    """A JSON pointer into the fragment itself (`#`, `#/...`)."""
    return (ref == "#" or ref.startswith("#/")) and not is_type_ref(ref)


def pointer_segment(name: str | int) -> str:
    """One segment of a JSON pointer in a URI fragment: `~` and `/` escaped, then
    percent-encoded as RFC 3986 requires of a fragment."""
    escaped = str(name).replace("~", "~0").replace("/", "~1")
    if _FRAGMENT_SAFE.match(escaped):  # most names (identifiers): quote would leave them as is
        return escaped
    return quote(escaped, safe=_SAFE_PUNCTUATION)


_SAFE_PUNCTUATION = "!$&'()*+,;=:@-._~"
# What quote() never encodes with that `safe`: ASCII letters and digits, and the punctuation.
_FRAGMENT_SAFE = re.compile(r"[A-Za-z0-9!$&'()*+,;=:@\-._~]*\Z")


@overload
def to_json_schema(schema: Schema, base: str = "") -> dict[str, Any]: ...
@overload
def to_json_schema(schema: Fragment, base: str = "") -> dict[str, Any] | bool: ...
def to_json_schema(schema: Fragment, base: str = "") -> dict[str, Any] | bool:
    """The fragment as published JSON Schema 2020-12: type refs point into a `$defs` beside
    it, pointers are rebased onto `base` (the pointer of where the fragment is published);
    `true` and `false` as written."""
    data = msgspec.to_builtins(schema)  # by the published names, unset keywords left out
    out: dict[str, Any] | bool = _translate(data, base)
    return out


def _translate(node: Any, base: str) -> Any:
    if not isinstance(node, dict):
        return node  # true / false
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "type":
            out[key] = (
                ["array" if t == "list" else t for t in value]
                if isinstance(value, list)
                else ("array" if value == "list" else value)
            )
        elif key == "$ref":
            out[key] = publish_ref(value, base)
        elif key in ONE:
            out[key] = _translate(value, base)
        elif key in MANY:
            out[key] = [_translate(sub, base) for sub in value]
        elif key in NAMED:
            out[key] = {name: _translate(sub, base) for name, sub in value.items()}
        else:
            out[ANNOTATION_KEYS.get(key) or key] = value
    return out


def publish_ref(ref: str, base: str) -> str:
    if is_type_ref(ref):
        return DEFS_REF + ref_name(ref)
    if is_pointer(ref):
        return "#" + base + ref[1:]
    return ref  # not local: `check` refuses it


def refs_in(schema: Fragment) -> Iterator[tuple[JsonPath, str]]:
    """The shared types a fragment names, with where."""
    for path, kw in walk(schema, ()):
        if kw.field_ref is not None and is_type_ref(kw.field_ref):
            yield path, ref_name(kw.field_ref)


def args_object(tool: ToolDecl) -> dict[str, Any]:
    """The tool's arguments object as published (without the shared types): each argument
    under `properties` (its pointers rebased there), `required`, `additionalProperties: false`
    for `unknown_args: forbid`, and the tool-level `args_keywords` at the root."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            name: to_json_schema(spec, f"/properties/{pointer_segment(name)}")
            for name, spec in tool.args.items()
        },
    }
    if tool.requires:
        schema["required"] = list(tool.requires)
    if tool.decl.unknown_args == "forbid":
        schema["additionalProperties"] = False
    keywords = tool.decl.args_keywords
    if keywords is not None:
        dialect = keywords.field_schema
        schema.update(to_json_schema(args_keywords(keywords)))
        if dialect is not None:
            schema["$schema"] = dialect
    return schema


MISSING: Any = object()  # what a pointer that leads nowhere resolves to


def resolve(document: Any, ref: str) -> Any:
    """The value a local `$ref` (`#`, `#/a/b`, percent-encoded, `~0` `~1` escaped) points at
    in `document`, or MISSING."""
    node = document
    for raw in ref[2:].split("/") if ref != "#" else ():
        part = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return MISSING
    return node
