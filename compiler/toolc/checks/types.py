"""Rules over the shared `types:` and the `$ref`s that reach them."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec import UNSET

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.model import Project
from toolc.model.schemas import Fragment, children, is_type_ref, keywords_of, ref_name, schema_of
from toolc.model.structs import stated_fields
from toolc.model.tools_file import Schema, SchemaKeywords


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


def recursive_types(ctx: CheckContext) -> Iterator[Diagnostic]:
    """Recursion among shared types must pass through a class (see `recursive-type`): a type
    alias that names itself (`Tree = list[Tree]`) is no Python type at all."""
    project = ctx.project
    bare = {name for cycle in alias_cycles(project) for name in cycle}  # ref-cycle reports those
    edges = {
        name: _unguarded_refs(schema) - bare
        for name, schema in project.types.items()
        if name not in bare
    }
    for start in sorted(edges):
        stack, seen = list(edges[start]), set()
        while stack:
            current = stack.pop()
            if current == start:
                yield diag(
                    "recursive-type",
                    project.spans.tool(("types", start), key=True),
                    f"type '{start}' refers to itself without passing through an object",
                    "wrap the recursion in an object with `properties`",
                )
                break
            if current not in seen:
                seen.add(current)
                stack.extend(edges.get(current, set()))


CHECKS = (references, recursive_types)
