"""The layers of docs/architecture.md, enforced: no import cycles, each layer imports only what
its row allows, and only `workspace/` writes to disk. Imports inside functions count (they
still tie the modules together); imports under `if TYPE_CHECKING:` do not (they never run)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "compiler" / "toolc"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


class _Imports(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool) -> None:
        self.package = module if is_package else module.rpartition(".")[0]
        self.found: set[str] = set()

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
        ):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.found.update(alias.name for alias in node.names)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")[: len(self.package.split(".")) - node.level + 1]
            origin = ".".join([*base, *([node.module] if node.module else [])])
        else:
            origin = node.module or ""
        # `from pkg import sub` imports the module pkg.sub; `from mod import name`, mod.
        self.found.update(f"{origin}.{alias.name}" for alias in node.names)


def _resolve(name: str) -> str | None:
    """The toolc module an imported name lives in (None: not toolc's)."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


@cache
def imports_of(module: str) -> frozenset[str]:
    """Every module `module` imports: toolc's by module name, others by top-level name."""
    path = modules()[module]
    visitor = _Imports(module, path.name == "__init__.py")
    visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
    found = set()
    for name in visitor.found:
        if name == "toolc" or name.startswith("toolc."):
            target = _resolve(name)
            if target is not None and target != module:
                found.add(target)
        elif name and not name.startswith("."):
            found.add(name.split(".")[0])
    return frozenset(found)


def _cycles() -> list[list[str]]:
    """The strongly connected groups of the import graph (Tarjan), larger than one module."""
    graph = {m: [t for t in imports_of(m) if t in modules()] for m in modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return groups


def test_the_graph_is_read_whole() -> None:
    """The checks below look at every module, and find the imports they look for."""
    assert len(modules()) > 100
    assert "toolc.pipeline" in imports_of("toolc.verbs")
    assert "toolc.pipeline" in imports_of("toolc.cache.store")


def test_no_import_cycles() -> None:
    assert _cycles() == []


def _in(module: str, *layers: str) -> bool:
    return any(module == layer or module.startswith(layer + ".") for layer in layers)


def _importers(layer: str) -> Iterator[tuple[str, str]]:
    for module in modules():
        for target in imports_of(module):
            if _in(target, layer) and not _in(module, layer):
                yield module, target


def test_the_runtime_imports_nothing_of_toolc() -> None:
    """It is copied into every generated package, where toolc is not installed."""
    for module in modules():
        if _in(module, "toolc.runtime"):
            outside = [
                t
                for t in imports_of(module)
                if t.startswith("toolc") and not _in(t, "toolc.runtime")
            ]
            assert outside == [], module


def test_nothing_below_the_cache_imports_it() -> None:
    allowed = ("toolc.cache", "toolc.verbs", "toolc.cli", "toolc.daemon", "toolc.entry")
    assert [(m, t) for m, t in _importers("toolc.cache") if not _in(m, *allowed)] == []


def test_the_pipeline_knows_no_verb_cache_or_disk() -> None:
    below = [
        t
        for t in imports_of("toolc.pipeline")
        if _in(t, "toolc.cache", "toolc.verbs", "toolc.cli", "toolc.workspace")
    ]
    assert below == []


@pytest.mark.parametrize(
    "layer", ["toolc.model", "toolc.checks", "toolc.emit", "toolc.evolution", "toolc.contract"]
)
def test_the_inner_layers_import_no_outer_one(layer: str) -> None:
    outer = ("toolc.pipeline", "toolc.verbs", "toolc.cli", "toolc.cache", "toolc.serve")
    found = [(m, t) for m in modules() if _in(m, layer) for t in imports_of(m) if _in(t, *outer)]
    assert found == []


def test_the_model_reads_no_yaml_templates_or_disk() -> None:
    """The typed model is data: it reaches `source` only for its span types."""
    banned = {"yaml", "jinja2", "os", "io", "shutil", "subprocess"}
    for module in modules():
        if not _in(module, "toolc.model"):
            continue
        targets = imports_of(module)
        assert not targets & banned, module
        reading = [
            t
            for t in targets
            if _in(t, "toolc.source", "toolc.workspace") and t != "toolc.source.document"
        ]
        assert reading == [], module


_WRITES = {
    "write_bytes",
    "write_text",
    "mkdir",
    "unlink",
    "rmdir",
    "rename",
    "replace",
    "chmod",
    "symlink_to",
    "hardlink_to",
    "touch",
}
_OS_WRITES = {
    "replace",
    "rename",
    "remove",
    "unlink",
    "mkdir",
    "makedirs",
    "rmdir",
    "link",
    "symlink",
    "chmod",
    "fchmod",
    "truncate",
    "write",
}


def _opens_for_writing(node: ast.Call) -> bool:
    modes = [a for a in node.args[1:2] if isinstance(a, ast.Constant)]
    modes += [
        k.value for k in node.keywords if k.arg == "mode" and isinstance(k.value, ast.Constant)
    ]
    return any(isinstance(m.value, str) and bool(set(m.value) & set("wax+")) for m in modes)


def _writes(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name):
            if node.func.id == "open" and _opens_for_writing(node):
                yield node.lineno, "open for writing"
            continue
        if not isinstance(node.func, ast.Attribute):
            continue
        owner, name = node.func.value, node.func.attr
        if isinstance(owner, ast.Name) and owner.id in ("os", "shutil"):
            if owner.id == "shutil" or name in _OS_WRITES:
                yield node.lineno, f"{owner.id}.{name}"
            elif name == "open" and any(
                "WRONLY" in ast.unparse(a) or "RDWR" in ast.unparse(a) for a in node.args[1:]
            ):
                yield node.lineno, "os.open for writing"
        elif name in ("replace", "rename") and len(node.args) != 1:
            continue  # str.replace(old, new): a Path's takes one target
        elif name in _WRITES:
            yield node.lineno, name
        elif name == "open" and _opens_for_writing(node):
            yield node.lineno, "open for writing"


def test_only_the_workspace_writes() -> None:
    """The runtime (shipped, it writes nothing either) and the mock server's temporary
    package (through workspace.materialize) included."""
    found = []
    for module, path in modules().items():
        if _in(module, "toolc.workspace"):
            continue
        found += [
            (module, line, what)
            for line, what in _writes(ast.parse(path.read_text(encoding="utf-8")))
        ]
    assert found == []


def test_the_write_detector_finds_writes() -> None:
    """The check above can fail: it sees each way of writing it looks for."""
    sample = ast.parse(
        "import os, shutil\n"
        "p.write_bytes(b'')\nos.replace(a, b)\nshutil.rmtree(x)\nopen(f, 'w')\n"
        "os.open(f, os.O_WRONLY)\ntext.replace('a', 'b')\n"
    )
    assert [what for _, what in _writes(sample)] == [
        "write_bytes",
        "os.replace",
        "shutil.rmtree",
        "open for writing",
        "os.open for writing",
    ]
