"""The official JSON-Schema-Test-Suite (draft 2020-12, vendored from the `jsonschema` 4.26.0
sdist with its licence under tests/fixtures/json-schema-test-suite) as toolc configs.

Each group's schema S becomes a tool `g<N>` with `args_schema: {value: S}` and
`requires: [value]` (S's root `$schema` dropped: a fragment declares no dialect; its pointers
are already relative to the fragment's root, as toolc reads them), and, where S is an object
schema, also a tool `g<N>_root` whose arguments object is S itself: `properties` as
`args_schema`, `required` as `requires`, `additionalProperties: false` as `unknown_args:
forbid`, every other keyword in `args_keywords` (a pointer from inside a property rebased onto
that property, or the root form skipped when it leaves it). A group is in scope unless it needs
what the language refuses (`$id`, dynamic references, `$vocabulary`, anchors as `$ref`
targets, non-local references); the list is committed (scope.txt), so the denominator is fixed.

`python tests/jsonschema_suite.py` prints the coverage per keyword."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SUITE = Path(__file__).parent / "fixtures" / "json-schema-test-suite"
CORE = SUITE / "draft2020-12"
SCOPE = SUITE / "scope.txt"
SUBSCHEMAS = ("properties", "patternProperties", "$defs", "dependentSchemas")
ROOT_KEYWORDS = frozenset((
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "minProperties", "maxProperties",
    "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas",
    "unevaluatedProperties", "$defs", "$comment", "$schema",
))  # fmt: skip
REFUSED = ("$id", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "definitions", "dependencies")


@dataclass(frozen=True)
class Group:
    file: str  # the suite file's stem: `anyOf`, `format/email`
    index: int
    description: str
    schema: Any
    tests: list[dict[str, Any]]

    @property
    def key(self) -> str:
        return f"{self.file}#{self.index}"


def groups(directory: Path = CORE) -> Iterator[Group]:
    for path in sorted(directory.glob("*.json")):
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            yield Group(path.stem, index, group["description"], group["schema"], group["tests"])


def keywords(schema: Any, found: set[str] | None = None) -> set[str]:
    """Every keyword a schema uses, at any depth ($ref targets are inside it)."""
    found = set() if found is None else found
    if isinstance(schema, dict):
        for key, value in schema.items():
            found.add(key)
            if key in ("const", "enum", "default", "examples", "dependentRequired"):
                continue
            if key in SUBSCHEMAS and isinstance(value, dict):
                for sub in value.values():
                    keywords(sub, found)
            else:
                keywords(value, found)
    elif isinstance(schema, list):
        for item in schema:
            keywords(item, found)
    return found


def refs(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            elif key not in ("const", "enum", "default", "examples"):
                yield from refs(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from refs(item)


def out_of_scope(group: Group) -> str | None:
    """Why a group needs what the language refuses, or None."""
    schema = group.schema
    if isinstance(schema, dict):
        schema = {k: v for k, v in schema.items() if k != "$schema"}
    used = keywords(schema)
    reasons = [k for k in REFUSED if k in used]
    targets = list(refs(schema))
    if any(not r.startswith("#") for r in targets):
        reasons.append("non-local $ref")
    if any(r.startswith("#") and r != "#" and not r.startswith("#/") for r in targets):
        reasons.append("$ref to an anchor")
    return ", ".join(reasons) or None


def value_form(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: v for k, v in schema.items() if k != "$schema"}
    return schema


def _rebased(schema: Any, prefix: str) -> Any:
    """A property's schema with the pointers into it made relative to it; None when one
    points outside it."""
    bad = [r for r in refs(schema) if r != prefix and not r.startswith(prefix + "/")]
    if bad:
        return None
    text = json.dumps(schema)
    for ref in sorted(set(refs(schema)), key=len, reverse=True):
        text = text.replace(json.dumps(ref), json.dumps("#" + ref[len(prefix) :]))
    return json.loads(text)


def root_form(schema: Any) -> dict[str, Any] | None:
    """The tool keys that make S the arguments object itself, or None."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return None
    extra = schema.get("additionalProperties")
    if extra not in (None, False) or set(schema) - ROOT_KEYWORDS - {
        "type", "properties", "required", "additionalProperties"
    }:  # fmt: skip
        return None
    tool: dict[str, Any] = {}
    args = {}
    for name, sub in schema.get("properties", {}).items():
        rebased = _rebased(sub, f"#/properties/{name}")
        if rebased is None:
            return None
        args[name] = rebased
    if args:
        tool["args_schema"] = args
    if schema.get("required"):
        if set(schema["required"]) - set(args):
            return None
        tool["requires"] = schema["required"]
    if extra is False:
        tool["unknown_args"] = "forbid"
    rest = {k: v for k, v in schema.items() if k in ROOT_KEYWORDS}
    if rest:
        tool["args_keywords"] = rest
    return tool


def tool_entries(group: Group) -> dict[str, dict[str, Any]]:
    """The tools a group becomes: `g<N>` and, for an object schema, `g<N>_root`."""
    head = {
        "version": "1.0.0",
        "description": group.description or "a group",
        "mcp_server": "suite",
        "tool_type": "query",
    }
    name = f"g{group.index}"
    # a `false` argument can only be absent (required, the tool could never be called): every
    # instance, sent as `value`, is then refused, as the suite's verdict says
    requires = {} if group.schema is False else {"requires": ["value"]}
    made = {name: {**head, **requires, "args_schema": {"value": value_form(group.schema)}}}
    root = root_form(group.schema)
    if root is not None:
        made[f"{name}_root"] = {**head, **root}
    return made


def scope_lines() -> list[str]:
    lines = []
    for group in groups():
        why = out_of_scope(group)
        state = "in" if why is None else f"out\t{why}"
        lines.append(f"{group.key}\t{state}\t{group.description}")
    return lines


def coverage(built: set[str]) -> list[tuple[str, int, int]]:
    """Per keyword: the in-scope groups using it, and how many of them built."""
    table: dict[str, list[int]] = {}
    for group in groups():
        if out_of_scope(group) is not None:
            continue
        for key in keywords(value_form(group.schema)) or {"(boolean schema)"}:
            counts = table.setdefault(key, [0, 0])
            counts[0] += 1
            counts[1] += group.key in built
    return sorted((k, n, b) for k, (n, b) in table.items())


if __name__ == "__main__":
    if sys.argv[1:] == ["--scope"]:
        SCOPE.write_text("\n".join(scope_lines()) + "\n", encoding="utf-8")
    else:
        built = set(json.loads(sys.stdin.read())) if not sys.stdin.isatty() else set()
        for key, n, b in coverage(built):
            print(f"| `{key}` | {n} | {b} |")
