"""Rules over the shared `types:` and the `$ref`s that reach them."""

from __future__ import annotations

from collections.abc import Iterator

from toolc.checks.context import CheckContext
from toolc.diagnostics import Diagnostic, diag
from toolc.diagnostics.suggest import did_you_mean
from toolc.model import Project
from toolc.model.schemas import ref_name


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


CHECKS = (references,)
