"""Rules over the shared `types:` and the `$ref`s that reach them, and over `$ref`s (a type's
or a pointer) that lead back to the value they started at."""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any
from urllib.parse import unquote

from msgspec import UNSET

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.model import Project
from toolc.model.schemas import (
    Fragment,
    children,
    is_pointer,
    is_type_ref,
    keywords_of,
    pointer_segment,
    ref_name,
    schema_of,
)
from toolc.model.structs import stated_fields
from toolc.model.tools_file import Schema, SchemaKeywords
from toolc.source.document import JsonPath


def _root_refs(project: Project) -> dict[str, str]:
    """Each type that is, at its root, a `$ref` to another (validated at the same value)."""
    return {
        name: ref_name(ref)
        for name, schema in project.types.items()
        if (kw := keywords_of(schema)) is not None
        and (ref := kw.field_ref) is not None
        and is_type_ref(ref)
    }


def alias_cycles(project: Project) -> list[list[str]]:
    """Loops of root-level `$ref`s (A → B → A): they describe no value and send validators
    into endless recursion. Each loop once, starting at its first declared type."""
    edges = _root_refs(project)
    cycles: list[list[str]] = []
    seen: set[str] = set()
    for start in project.types:
        chain: list[str] = []
        node: str | None = start
        while node is not None and node not in seen and node not in chain:
            chain.append(node)
            node = edges.get(node)
        if node is not None and node in chain:
            cycles.append(chain[chain.index(node) :])
        seen.update(chain)
    return cycles


def references(ctx: CheckContext) -> Iterator[Diagnostic]:
    project = ctx.project
    edges: dict[str, set[str]] = {name: set() for name in project.types}
    damage = project.damage
    # Types named from parts a schema error made unreadable still count as used.
    reachable: set[str] = set(damage.lost_refs) if damage is not None else set()
    for node in ctx.nodes:
        kw, path = node.keywords, node.path
        from_type = node.root[1] if node.root[0] == "types" else None
        if kw.field_ref is not None and is_type_ref(kw.field_ref):
            name = ref_name(kw.field_ref)
            if from_type is None:
                reachable.add(name)
            else:
                edges[str(from_type)].add(name)
            if name not in project.types and (damage is None or damage.types_known):
                yield diag(
                    "unknown-ref",
                    project.spans.tool((*path, "$ref")),
                    f"`$ref` to undeclared type '{name}'{did_you_mean(name, project.types)}",
                    f"declare '{name}' under the top-level `types:` mapping",
                )
    frontier = list(reachable)
    while frontier:
        for name in edges.get(frontier.pop(), ()):
            if name not in reachable:
                reachable.add(name)
                frontier.append(name)
    for name in project.types:
        if name not in reachable:
            yield diag(
                "unused-type",
                project.spans.tool(("types", name), key=True),
                f"type '{name}' is not reachable from any tool",
                f"remove it or reference it with `$ref: '#/types/{name}'`",
            )
    for cycle in alias_cycles(project):
        loop = " -> ".join([*cycle, cycle[0]])
        yield diag(
            "ref-cycle",
            project.spans.tool(("types", cycle[0], "$ref")),
            f"types refer to each other with nothing in between: {loop}",
            "give the loop structure (an object property or array items), or break it",
        )


# Keywords that make a schema without `type` lower to a union of every JSON type, object
# included (mirrors the emitter: a typeless schema with none of them is `Any`).
_TYPE_SPECIFIC = frozenset(
    {"minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
     "exclusiveMaximum", "minItems", "maxItems", "items", "properties", "required",
     "additionalProperties", "uniqueItems"}
)  # fmt: skip


def _holds_recursion(kw: SchemaKeywords, at_root: bool) -> bool:
    """Whether a `$ref` below this schema node is behind a Python class, where a recursive
    reference is resolved lazily: an object member (`type: object`, `[object, "null"]`, or an
    object by its `properties` with no `type`) that is a shared type itself or declares its
    members. An `enum`/`const` node counts too: nothing below it becomes a Python type."""
    if kw.field_ref is not None and is_type_ref(kw.field_ref):
        return False
    if kw.enum is not None or kw.const is not UNSET:
        return True
    if kw.type is None:
        has_object = bool(_TYPE_SPECIFIC & stated_fields(kw))
    elif isinstance(kw.type, str):
        has_object = kw.type == "object"
    else:
        has_object = any(t == "object" for t in kw.type)
    closed = kw.additionalProperties is False
    return has_object and (at_root or bool(kw.properties) or kw.required is not None or closed)


def _unguarded_refs(fragment: Fragment) -> set[str]:
    """The types a shared type refers to with no class between its root and the `$ref`."""
    found: set[str] = set()
    top = schema_of(fragment)
    stack: list[tuple[Schema, bool]] = [(top, True)] if top is not None else []
    while stack:
        kw, at_root = stack.pop()
        if kw.field_ref is not None and is_type_ref(kw.field_ref):
            found.add(ref_name(kw.field_ref))
            continue  # what stands beside it is checked by the evaluator, not lowered
        if _holds_recursion(kw, at_root):
            continue  # every reference below is behind a class
        # Applicators (`anyOf`, `allOf`, ...) are lowered in place: a `$ref` below one is as
        # unguarded as one beside it.
        below = (schema_of(sub) for _, sub in children(kw))
        stack.extend((sub, False) for sub in below if sub is not None)
    return found


def _unheld_types(project: Project, bare: set[str]) -> list[str]:
    """The types (sorted) that reach themselves with no class between (`recursive-type`)."""
    edges = {
        name: _unguarded_refs(schema) - bare
        for name, schema in project.types.items()
        if name not in bare
    }
    found = []
    for start in sorted(edges):
        stack, seen = list(edges[start]), set()
        while stack:
            current = stack.pop()
            if current == start:
                found.append(start)
                break
            if current not in seen:
                seen.add(current)
                stack.extend(edges.get(current, set()))
    return found


def recursive_types(ctx: CheckContext) -> Iterator[Diagnostic]:
    """Recursion among shared types must pass through a class (see `recursive-type`): a type
    alias that names itself (`Tree = list[Tree]`) is no Python type at all."""
    project = ctx.project
    bare = {name for cycle in alias_cycles(project) for name in cycle}  # ref-cycle reports those
    for start in _unheld_types(project, bare):
        yield diag(
            "recursive-type",
            project.spans.tool(("types", start), key=True),
            f"type '{start}' refers to itself without passing through an object",
            "wrap the recursion in an object with `properties`",
        )


# The applicators whose subschemas judge the very value their schema judges (not a property,
# an item or a name of it), with `not`, `if` (and its `then`/`else`) and `dependentSchemas`:
# a `$ref` below one of them is evaluated at that same value.
_IN_PLACE_MANY = ("allOf", "anyOf", "oneOf")
_SAME_VALUE_KEYS = ("field_ref", *_IN_PLACE_MANY, "not_", "if_", "dependentSchemas")
_SAME_VALUE = attrgetter(*_SAME_VALUE_KEYS)


def _pointed(document: Any, ref: str) -> JsonPath | None:
    """The steps a local pointer takes in `document` (as `schemas.resolve` reads it), when it
    leads to a schema object."""
    node, steps = document, list[str | int]()
    for raw in ref[2:].split("/") if ref != "#" else ():
        part = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
            steps.append(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
            steps.append(int(part))
        else:
            return None
    return tuple(steps) if isinstance(node, dict) else None


def _same_value_edges(ctx: CheckContext) -> dict[JsonPath, list[JsonPath]]:
    """Schema node → the schemas an evaluator applies to the same value next: its `$ref`'s
    target (a shared type, or what a pointer leads to) and its in-place applicators (`true` and
    `false` left out: they end a chain). A loop in this graph is evaluated forever."""
    types = ctx.project.types
    documents = {root: document for root, document, _ in ctx.pointer_documents}
    edges: dict[JsonPath, list[JsonPath]] = {}
    for node in ctx.nodes:
        kw = node.keywords
        if _SAME_VALUE(kw).count(None) == len(_SAME_VALUE_KEYS):
            continue  # most nodes: nothing applies at the same value (one C call: 67,000 nodes)
        path, root, ref = node.path, node.root, kw.field_ref
        targets: list[JsonPath] = []
        if ref is None:
            pass
        elif is_type_ref(ref):
            # from a type only: nothing leads from a type back into a tool's fragment
            if root[0] == "types" and isinstance(types.get(ref_name(ref)), SchemaKeywords):
                targets.append(("types", ref_name(ref)))
        elif is_pointer(ref) and root in documents:
            steps = _pointed(documents[root], ref)
            if steps is not None and root[-1] == "args_keywords" and steps[:1] == ("properties",):
                # in `args_keywords` a pointer reads the arguments object, whose properties are
                # the arguments
                targets.append(("tools", root[1], "args_schema", *steps[1:]))
            elif steps is not None:
                targets.append((*root, *steps))
        for key in _IN_PLACE_MANY:
            subs = getattr(kw, key)
            if subs:
                targets.extend(
                    (*path, key, i) for i, sub in enumerate(subs) if isinstance(sub, SchemaKeywords)
                )
        singles = [("not", kw.not_), ("if", kw.if_)]
        if kw.if_ is not None:
            singles += [("then", kw.then), ("else", kw.else_)]
        targets.extend((*path, key) for key, sub in singles if isinstance(sub, SchemaKeywords))
        for name, sub in (kw.dependentSchemas or {}).items():
            if isinstance(sub, SchemaKeywords):
                targets.append((*path, "dependentSchemas", name))
        if targets:
            edges[path] = targets
    return edges


def _loops(edges: dict[JsonPath, list[JsonPath]]) -> list[set[JsonPath]]:
    """The strongly connected components of the graph that hold a loop (Tarjan's algorithm,
    iterative: a deep schema must not exhaust Python's stack)."""
    index: dict[JsonPath, int] = {}
    low: dict[JsonPath, int] = {}
    stack: list[JsonPath] = []
    on_stack: set[JsonPath] = set()
    found: list[set[JsonPath]] = []
    for start in edges:
        if start in index:
            continue
        work: list[tuple[JsonPath, int]] = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            following = edges.get(node, [])
            if i < len(following):
                work.append((node, i + 1))
                nxt = following[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges.get(node, []):
                    found.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


def _cycle(
    start: JsonPath, component: set[JsonPath], edges: dict[JsonPath, list[JsonPath]]
) -> list[JsonPath]:
    """A shortest walk from `start` back to it inside its component."""
    came: dict[JsonPath, JsonPath] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in edges.get(node, []):
                if nxt == start:
                    walk = [node]
                    while walk[-1] != start:
                        walk.append(came[walk[-1]])
                    return [*reversed(walk), start]
                if nxt in component and nxt not in came:
                    came[nxt] = node
                    following.append(nxt)
        frontier = following
    return [start, start]  # unreachable: `start` lies on a loop of its component


def _label(path: JsonPath, root: JsonPath) -> str:
    """A node as a pointer: into the fragment the loop is in, or `#/types/<Name>/...`."""
    if path[0] == "types":
        base, rest = f"#/types/{pointer_segment(path[1])}", path[2:]
    else:
        base, rest = "#", path[len(root) :]
    return base + "".join(f"/{pointer_segment(step)}" for step in rest)


def ref_loops(ctx: CheckContext) -> Iterator[Diagnostic]:
    """`$ref`s (to a type or a pointer), through in-place applicators or none, that lead back
    to a schema already being evaluated at the same value: the schema describes no value of
    its own, and every validator, the generated models included, recurses forever. Loops of
    types the checks above report are left to them."""
    project = ctx.project
    bare = {name for cycle in alias_cycles(project) for name in cycle}
    reported = bare | set(_unheld_types(project, bare))
    edges = _same_value_edges(ctx)
    if not edges:
        return
    loops = _loops(edges)
    order = {node.path: n for n, node in enumerate(ctx.nodes)} if loops else {}
    nodes = {node.path: node for node in ctx.nodes} if loops else {}
    for component in loops:
        if any(p[0] == "types" and p[1] in reported for p in component):
            continue
        # every loop holds a `$ref` (applicators only lead deeper): the first one declared
        referring = [p for p in component if nodes[p].keywords.field_ref is not None]
        start = min(referring, key=order.__getitem__)
        root = nodes[start].root
        loop = " -> ".join(_label(p, root) for p in _cycle(start, component, edges))
        yield diag(
            "ref-cycle",
            project.spans.tool((*start, "$ref")),
            "`$ref` leads back to the same value with no property or item in between, so "
            f"validating it never ends: {loop}",
            "point a `$ref` of the loop at a schema outside it, or put the recursion under "
            "`properties` or `items` (e.g. `items: {$ref: '#'}`)",
        )


CHECKS = (references, recursive_types, ref_loops)
