"""Rules over the shared `types:` and the `$ref`s that reach them."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.model import Project
from toolc.model.schemas import ref_name
from toolc.model.tools_file import Schema, SchemaKeywords


def _root_refs(project: Project) -> dict[str, str]:
    """Each type that is, at its root, a `$ref` to another (validated at the same value)."""
    return {
        name: ref_name(schema.root.field_ref)
        for name, schema in project.types.items()
        if schema.root.field_ref is not None
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
    reachable: set[str] = set()
    for node in ctx.nodes:
        kw, path = node.keywords, node.path
        from_type = node.root[1] if node.root[0] == "types" else None
        if kw.field_ref is not None:
            name = ref_name(kw.field_ref)
            if from_type is None:
                reachable.add(name)
            else:
                edges[str(from_type)].add(name)
            if name not in project.types:
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


_ANNOTATIONS = frozenset(
    {"field_ref", "description", "title", "examples", "default", "deprecated", "format", "label",
     "user_prompt"}
)  # fmt: skip


def ref_siblings(ctx: CheckContext) -> Iterator[Diagnostic]:
    for node in ctx.nodes:
        kw = node.keywords
        if kw.field_ref is None:
            continue
        extra = sorted(kw.model_fields_set - _ANNOTATIONS)
        if extra:
            keyword = SchemaKeywords.model_fields[extra[0]].alias or extra[0]
            yield diag(
                "ref-siblings",
                ctx.project.spans.tool((*node.path, keyword), key=True),
                f"`{keyword}` beside `$ref` is not supported",
                "declare a shared type that adds the constraint, and reference that one",
            )


def _is_class(schema: Schema) -> bool:
    """Whether a shared type becomes a Python class (an object with declared members)."""
    kw = schema.root
    kind = kw.type.root if kw.type is not None and isinstance(kw.type.root, str) else None
    closed = kw.additionalProperties is not None and kw.additionalProperties.root is False
    return kind == "object" and bool(kw.properties or kw.required or closed)


def recursive_types(ctx: CheckContext) -> Iterator[Diagnostic]:
    """Recursion among shared types must pass through a class (see `recursive-type`)."""
    project = ctx.project
    edges: dict[str, set[str]] = {name: set() for name in project.types}
    for node in ctx.nodes:
        if node.root[0] == "types" and node.keywords.field_ref is not None:
            edges[str(node.root[1])].add(ref_name(node.keywords.field_ref))
    bare = {name for cycle in alias_cycles(project) for name in cycle}  # ref-cycle reports those
    plain = {n for n, schema in project.types.items() if not _is_class(schema) and n not in bare}
    for start in sorted(plain):
        stack, seen = list(edges[start] & plain), set()
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
                stack.extend(edges.get(current, set()) & plain)


CHECKS = (references, ref_siblings, recursive_types)
