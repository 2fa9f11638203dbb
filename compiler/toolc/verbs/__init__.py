"""The verbs: each compiles, then does one thing with the Compilation.

    build    = compile → guard (what was built before) → write, atomically, under a lock
    check    = compile → guard → compare with the disk
    changes  = compile this and the baseline → the findings and bump verdict per tool
               (`toolc diff` prints them, `toolc bump` writes the versions)
    serve    = compile → run a mock server from the package in memory (`serve/`)
    docs     = compile → write the reference docs alone (`verbs.docs`; `build` writes them
               with the package when `docs_out` is set, `check` compares them)
    scaffold = compile → write one starting file, never overwriting

The build cache wraps `compile` from outside (`cache.store`): it hands back the same
Compilation when it can, and remembers the new one once the output is written."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec.structs import replace

from toolc import workspace
from toolc.checks.metadata import shown
from toolc.diagnostics import Diagnostic, sort_key
from toolc.diagnostics.paths import shown_path
from toolc.evolution.baseline import BaselineError, resolve
from toolc.evolution.changes import ToolChange, tool_changes
from toolc.evolution.previous import guard, read_previous, recorded, unseen_tools
from toolc.memory import collector_paused
from toolc.pipeline import Compilation, compile
from toolc.source.inputs import TOOLS_FILE, Inputs, inputs_of_texts, read_inputs
from toolc.verbs.docs import docs_drift, docs_tree
from toolc.verbs.listing import ServerCost, listing_costs, over_budget
from toolc.verbs.output import BuildResult, compare_output, write_output
from toolc.verbs.project_file import with_project_file
from toolc.workspace.recovery import old_outputs

if TYPE_CHECKING:  # the cache imports the emitters: `check` before a first build needs neither
    from toolc.cache.store import Store

__all__ = [
    "BuildResult",
    "build",
    "changes",
    "check_config",
    "compile_baseline",
    "compile_config",
    "scaffold",
    "served_servers",
]

Notify = Callable[[str], None]


def compile_config(
    config_dir: Path, cwd: Path | None = None, *, emit: bool = True, metadata_lint: bool = False
) -> Compilation:
    """The config in `config_dir`, compiled in memory (`toolc serve`, `diff`, `scaffold`, and
    `check` before the first build, which stops after the checks); the metadata lint's
    warnings only with `metadata_lint`."""
    with collector_paused():
        compiled = compile(read_inputs(config_dir, cwd or Path.cwd()), emit=emit)
    return replace(compiled, diagnostics=shown(compiled.diagnostics, metadata_lint))


def check_config(
    config_dir: Path,
    cwd: Path | None = None,
    *,
    metadata_lint: bool = False,
    targets: tuple[str, ...] = (),
) -> Compilation:
    """The config checked, not emitted: `toolc check` before the first build. With `targets`
    it is emitted, since the targets judge what `tools/list` would serve."""
    compiled = compile_config(config_dir, cwd, emit=bool(targets), metadata_lint=metadata_lint)
    found = targeted(compiled, targets)
    if not found:
        return compiled
    return replace(compiled, diagnostics=sorted([*compiled.diagnostics, *found], key=sort_key))


def check_listing(
    config_dir: Path,
    cwd: Path | None = None,
    *,
    metadata_lint: bool = False,
    targets: tuple[str, ...] = (),
    listing_budget: tuple[int, str] | None = None,
) -> BuildResult:
    """`check_config` with what each server's tools/list costs (`check --stats`, or a
    listing budget), before the first build: the config is emitted, nothing compared."""
    compiled = compile_config(config_dir, cwd, emit=True, metadata_lint=metadata_lint)
    found = [*compiled.diagnostics, *targeted(compiled, targets)]
    costs = None
    if compiled.package is not None and not compiled.has_errors:
        costs, over = _listing(compiled, listing_budget)
        found += over
    return BuildResult(
        sorted(found, key=sort_key), compiled.sources, False, tool_count=len(compiled.tools),
        costs=costs,
    )  # fmt: skip


def _listing(
    compilation: Compilation, listing_budget: tuple[int, str] | None
) -> tuple[list[ServerCost], list[Diagnostic]]:
    """Each server's tools/list cost, and the diagnostics of the budget when one is set."""
    served = {name: d.server for name, d in compilation.tools.items() if d.enabled}
    costs = listing_costs(compilation.files["tools.json"], served)
    if listing_budget is None:
        return costs, []
    entries = {name: d.entry for name, d in compilation.tools.items()}
    return costs, over_budget(costs, entries, *listing_budget)


def targeted(compilation: Compilation, targets: tuple[str, ...]) -> list[Diagnostic]:
    """The findings of the provider targets asked, on the descriptors the servers publish."""
    if not targets or compilation.package is None or not compilation.tools:
        return []
    from toolc.targets.locate import target_diagnostics

    tools_file = next(iter(compilation.tools.values())).entry.path
    return target_diagnostics(
        compilation.files["tools.json"], targets, compilation.sources, tools_file
    )


def compile_baseline(tools: str, policies: str | None, where: str) -> Mapping[str, bytes]:
    """A baseline config given as texts (from git, or another directory), compiled the same
    way: its package's files."""
    with collector_paused():
        compiled = compile(inputs_of_texts(where, tools, policies))
    errors = [d for d in compiled.diagnostics if d.is_error]
    if errors or compiled.package is None:
        first = errors[0] if errors else None
        where_ = f"{first.span.path}:{first.span.line}: {first.message}" if first else ""
        raise BaselineError(f"the baseline config does not compile ({where_})")
    return compiled.package.files


def _compiled(inputs: Inputs, store: Store | None) -> Compilation:
    with collector_paused():
        reused = store.reuse(inputs) if store is not None else None
        return reused if reused is not None else compile(inputs)


def build(
    config_dir: Path,
    out_dir: Path,
    snapshot_path: Path,
    *,
    write: bool,
    cwd: Path | None = None,
    strict: bool = False,
    cache: bool = True,
    against: str | None = None,
    notify: Notify | None = None,
    stats: bool = False,
    listing_budget: tuple[int, str] | None = None,
    docs_dir: Path | None = None,
    metadata_lint: bool = False,
    targets: tuple[str, ...] = (),
    project_version: str | None = None,
) -> BuildResult:
    """compile → guard → write (or compare with the disk, when not `write`). With `stats` or
    a `listing_budget` (tokens, and where it was set) the result carries each server's
    `tools/list` cost, and a listing over the budget is a warning. With `docs_dir` the
    reference docs are written (compared) with the package, as one. The findings of the
    provider `targets` asked are errors, like any other. With `project_version` the package
    gets its own pyproject.toml at that version (`verbs.project_file`)."""
    from toolc.cache.store import open_store

    cwd = cwd or Path.cwd()
    inputs = read_inputs(config_dir, cwd)
    store = open_store(config_dir, out_dir, snapshot_path, notify) if cache else None
    compilation = _compiled(inputs, store)
    if project_version is not None and compilation.package is not None:
        compilation = with_project_file(compilation, out_dir.name, project_version)
    reread = store.reread if store is not None else None
    # The cache keeps every diagnostic; what this run reports is chosen here.
    diagnostics = shown(compilation.diagnostics, metadata_lint)
    result = BuildResult(diagnostics, compilation.sources, False, reread=reread)
    if compilation.package is None or compilation.has_errors or (strict and result.diagnostics):
        return result
    snapshot_shown = shown_path(snapshot_path, cwd)
    previous = read_previous(
        snapshot_path, snapshot_shown, against, config_dir, out_dir, compile_baseline,
        old_outputs(out_dir),
    )  # fmt: skip
    found = [*diagnostics, *guard(compilation, previous), *targeted(compilation, targets)]
    costs = None
    if stats or listing_budget is not None:
        costs, over = _listing(compilation, listing_budget)
        found += over
    result = BuildResult(
        sorted(found, key=sort_key), compilation.sources, False, None, compilation.files,
        reread, len(compilation.tools), costs,
    )  # fmt: skip
    if any(d.is_error or strict for d in result.diagnostics):  # under --strict a warning stops it
        return result
    if not write:
        docs = docs_drift(compilation, docs_dir, cwd) if docs_dir is not None else None
        return compare_output(result, out_dir, previous, compilation, cwd, docs)
    beside = (docs_tree(compilation, inputs, docs_dir),) if docs_dir is not None else ()
    from toolc.cache.uptodate import lints_key

    lints = lints_key(metadata_lint, listing_budget[0] if listing_budget else None)
    return write_output(
        result, inputs, compilation, store, out_dir, snapshot_path, cwd, notify, beside, lints
    )


def changes(
    config_dir: Path, out_dir: Path, against: str | None, snapshot_path: Path | None = None
) -> tuple[Compilation, list[ToolChange], str]:
    """Each tool's change against the baseline (the last build, or `against`), with its
    verdict; and how the baseline is named. Raises BaselineError, also when the last
    build's output lacks a contract the snapshot records (every change would read as new)."""
    compiled = compile_config(config_dir)
    if compiled.package is None:
        return compiled, [], ""
    base = resolve(against, config_dir, out_dir, compile_baseline)
    unseen: list[str] = []
    unchanged: list[str] = []
    servers: dict[str, str] = {}
    if against is None and snapshot_path is not None:
        now = {name: entry.contract for name, entry in compiled.package.snapshot.items()}
        entries = recorded(snapshot_path)
        unseen, unchanged = unseen_tools(entries, base, old_outputs(out_dir), now)
        # Where each tool was is the snapshot's record, as the guard reads it (decision 0144).
        servers = {name: e.server for name, e in entries.items() if e.server is not None}
    if unseen:
        listed = ", ".join(unseen[:3]) + (f" and {len(unseen) - 3} more" if len(unseen) > 3 else "")
        raise BaselineError(
            f"the last build's output ({shown_path(out_dir, Path.cwd())}) lacks the contract "
            f"documents of {listed} that the snapshot records, or holds others, and they "
            "changed since: restore it (`toolc build` writes it while no contract changed), "
            "or compare with "
            "`--against` a git revision or the previous config"
        )
    old = {n: c for n in base.tools() if (c := base.contract(n)) is not None}
    new = {
        rel.removeprefix("contracts/").removesuffix(".json"): json.loads(data)
        for rel, data in compiled.package.files.items()
        if rel.startswith("contracts/")
    }
    # A tool whose contract is the snapshot's is unchanged, whatever the output holds.
    old.update({name: new[name] for name in unchanged if name in new})
    for name, server in servers.items():
        if name in old:
            old[name] = {**old[name], "mcp_server": server}
    shown = shown_path(config_dir / TOOLS_FILE, Path.cwd())
    label = base.label + (f" ({base.empty_because})" if base.empty_because else "")
    return compiled, tool_changes(old, new, compiled, shown), label


def served_servers(compilation: Compilation) -> list[str]:
    """The mcp_servers that serve at least one enabled tool."""
    return sorted({t.server for t in compilation.tools.values() if t.enabled})


def scaffold(compilation: Compilation, package: str, server: str, path: Path) -> bool:
    """Write a server's starting implementation at `path`; False when a file is there. The
    system refusing it (a file where a folder goes) ends the command with an io-error."""
    from toolc.emit.scaffold import scaffold_module
    from toolc.verbs.refused_write import WriteRefused, write_failure

    assert compilation.units is not None
    serving = {name: out.python.serving for name, out in compilation.units.outputs.items()}
    try:
        return workspace.create_new(path, scaffold_module(package, server, serving))
    except OSError as exc:  # nothing written: create_new removes what it made
        raise WriteRefused(
            write_failure(exc, (path,), Path.cwd(), "write it elsewhere (--file PATH)")
        ) from exc
