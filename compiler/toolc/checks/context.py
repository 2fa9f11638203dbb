"""What the checks share: the project, and indexes over its schema fragments computed once per
run (walking and translating every fragment once, not once per check)."""

from __future__ import annotations

from functools import cached_property
from typing import Any

import jsonschema_rs
import msgspec

from toolc.checks.bounds import bound_problems
from toolc.checks.local_refs import ref_problems
from toolc.model import Project
from toolc.model.schemas import (
    MANY,
    NAMED,
    ONE,
    Fragment,
    args_object,
    is_pointer,
    is_type_ref,
    pointer_segment,
    refs_in,
    roots,
    to_json_schema,
    walk,
)
from toolc.model.tools_file import SchemaKeywords
from toolc.source.document import JsonPath


class SchemaNode(msgspec.Struct, frozen=True):
    path: JsonPath  # where the schema is in tools.yaml
    root: JsonPath  # the fragment it belongs to (an argument, returns, an item, a type)
    keywords: SchemaKeywords


# Which subschemas a keyword holds: one, a list, or a map of them.
_KIND = {**dict.fromkeys(ONE, 0), **dict.fromkeys(MANY, 1), **dict.fromkeys(NAMED, 2)}


def _published_nodes(path: JsonPath, schema: Any, out: dict[JsonPath, Any]) -> None:
    if not isinstance(schema, dict):
        return  # true / false
    out[path] = schema
    # One pass over the node's own keys: looking up each of the 19 keywords in every node made
    # this index 0.45 s under cProfile at 5,000 tools, now 0.23 s. `out` is only looked up.
    for key, sub in schema.items():
        kind = _KIND.get(key)
        if kind == 0:
            _published_nodes((*path, key), sub, out)
        elif kind == 1:
            for index, item in enumerate(sub):
                _published_nodes((*path, key, index), item, out)
        elif kind == 2:
            for name, item in sub.items():
                _published_nodes((*path, key, name), item, out)


def root_base(number: int, root: JsonPath) -> str:
    """Where the checks publish a fragment: a shared type where every tool publishes it, any
    other under a `$defs` name no type can have, so its pointers resolve beside the types."""
    if root[0] == "types":
        return f"/$defs/{pointer_segment(root[1])}"
    return f"/$defs/-r{number}"


class CheckContext(msgspec.Struct, dict=True):
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
    def published_roots(self) -> dict[JsonPath, Any]:
        """Each fragment as published JSON Schema, by the fragment's path."""
        return {
            root: to_json_schema(schema, root_base(n, root))
            for n, (root, schema) in enumerate(roots(self.project))
        }

    @cached_property
    def pointing_roots(self) -> dict[str, dict[str, Any]]:
        """The fragments (not types) that hold a JSON pointer, by their `$defs` name in the
        checks' documents: a node's stated values are judged with its fragment beside it."""
        # From the walk `nodes` already made (walking every fragment again: 0.9 s under cProfile
        # at 5,000 tools); the roots are still numbered and ordered as `roots` gives them.
        pointing = {
            node.root
            for node in self.nodes
            if node.keywords.field_ref is not None and is_pointer(node.keywords.field_ref)
        }
        found: dict[str, dict[str, Any]] = {}
        if not pointing:
            return found
        for n, (root, _) in enumerate(roots(self.project)):
            if root[0] != "types" and root in pointing:
                found[f"-r{n}"] = self.published_roots[root]
        return found

    @cached_property
    def unsatisfiable(self) -> dict[JsonPath, list[tuple[str, str]]]:
        """The schema nodes whose bounds leave no value: (keyword, why) by node."""
        found: dict[JsonPath, list[tuple[str, str]]] = {}
        for node in self.nodes:
            problems = list(bound_problems(node.keywords))
            if problems:
                found[node.path] = problems
        return found

    @cached_property
    def invalid_roots(self) -> dict[JsonPath, Any]:
        """The fragments that are not valid JSON Schema 2020-12, with the metaschema's error."""
        found: dict[JsonPath, Any] = {}
        for root, schema in self.published_roots.items():
            try:
                jsonschema_rs.meta.validate(schema)
            except jsonschema_rs.ValidationError as exc:
                found[root] = exc
        return found

    @cached_property
    def published(self) -> dict[JsonPath, dict[str, Any]]:
        """Every schema node as published JSON Schema, by its path (views into the roots)."""
        out: dict[JsonPath, dict[str, Any]] = {}
        for root, schema in self.published_roots.items():
            _published_nodes(root, schema, out)
        return out

    def judgeable(
        self, root: JsonPath, schema: Fragment, avoid: frozenset[str] = frozenset()
    ) -> bool:
        """Whether a whole fragment can be reasoned about: no part of it, nor of a type it
        reaches, was replaced for a schema error, and each `$ref` it reaches names a declared
        type outside `avoid` (types whose own check reports them)."""
        damage = self.project.damage
        if damage is not None and root in damage.damaged:
            return False
        stack: list[Fragment] = [schema]
        seen = set()
        while stack:
            for _, name in refs_in(stack.pop()):
                if name in seen:
                    continue
                if name in avoid or name not in self.project.types:
                    return False
                if damage is not None and damage.broken_type(name):
                    return False
                seen.add(name)
                stack.append(self.project.types[name])
        return True

    @cached_property
    def pointer_documents(self) -> list[tuple[JsonPath, Any, Fragment]]:
        """Each fragment holding a `$ref` other than a type's, with the document its pointers
        are read in: the fragment itself as published, or, for `args_keywords`, the arguments
        object. Only those: publishing every fragment again was 0.9 s at 5,000 tools, and a
        fragment without such a `$ref` has no problem for `ref_problems` to find."""
        referring = {
            node.root
            for node in self.nodes
            if node.keywords.field_ref is not None and not is_type_ref(node.keywords.field_ref)
        }
        found = []
        for root, schema in roots(self.project) if referring else ():
            if root not in referring:
                continue
            if root[-1] == "args_keywords":
                document: Any = args_object(self.project.tools[str(root[1])])
            else:
                document = to_json_schema(schema)
            found.append((root, document, schema))
        return found

    @cached_property
    def ref_problems(self) -> dict[JsonPath, tuple[str, str, str]]:
        """The schema nodes whose `$ref` is neither a type's nor a pointer that resolves."""
        return ref_problems(self.pointer_documents)

    @cached_property
    def published_types(self) -> dict[str, dict[str, Any]]:
        """The shared types as published, for a `$defs` beside a checked schema."""
        return {
            str(path[1]): schema
            for path, schema in self.published_roots.items()
            if path[0] == "types"
        }
