"""The incremental path of a build: re-read only the entries an edit touched (in a copy of each
file where every other entry is blanked out), check them with the tools tied to them, re-emit
them, and take everything else from the build cache (`incremental.py`). Whenever the edit could
reach further than that, or the re-read finds an error, the caller falls back to reading the
whole config, so diagnostics and output are always those of a full build."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec
from msgspec import field

from toolc.cache import incremental
from toolc.cache.incremental import BuildCache, Files, RelSpan, ToolRecord
from toolc.cache.layout import split
from toolc.cache.uptodate import generator_fingerprint
from toolc.diagnostics import Diagnostic, sort_key
from toolc.emit.package import (
    SharedInputs,
    ToolOutput,
    assemble,
    emit_tool,
    shared_inputs,
)
from toolc.evolution.guard import policy_of
from toolc.model import Project
from toolc.model.ceilings import server_defaults
from toolc.model.facts import facts_of, validator_of
from toolc.pipeline import Compilation, Declared, Units, analyze, declarations
from toolc.source import LoadedFile
from toolc.source.inputs import POLICIES_FILE, TOOLS_FILE, Inputs
from toolc.source.yaml_loader import load_yaml


def read_files(inputs: Inputs) -> Files | None:
    """The config files cut into pieces, or None when either cannot be cut (a full compile
    then reports what is wrong with it)."""
    if inputs.problems:
        return None
    tools, policies = inputs.file(TOOLS_FILE), inputs.file(POLICIES_FILE)
    tools_text = tools.text() if tools is not None else None
    tools_layout = split(tools_text, "tools") if tools_text is not None else None
    if tools is None or tools_layout is None:
        return None
    if policies is None:
        return Files(tools.shown, tools_layout, None, None)
    policies_text = policies.text()
    policies_layout = split(policies_text, "tool_policies") if policies_text else None
    if policies_layout is None:
        return None
    return Files(tools.shown, tools_layout, policies.shown, policies_layout)


class Reuse(msgspec.Struct, frozen=True):
    """A build made of the re-read tools and the cache's other tools."""

    cache: BuildCache
    files: Files
    keep: set[str]  # the tools re-read, checked and emitted again
    diagnostics: list[Diagnostic]
    project: Project  # the re-read tools only, with every shared type
    kept: list[str] = field(default_factory=list)  # tools whose output came from the cache

    def compilation(self) -> Compilation | None:
        """The Compilation a full compile would return, the kept tools taken from the cache
        (None: the re-read tools' classes clash, which a full compile reports)."""
        from toolc.emit.client import NameClash

        targets: dict[str, list[str]] = {}
        for name in self.cache.tool_order:
            tool = self.project.tools.get(name)
            record = self.cache.records[name]
            validator = validator_of(tool) if tool else record.validator
            if validator is not None:
                targets.setdefault(validator, []).append(name)
        local = shared_inputs(self.project)
        shared = SharedInputs(
            local.types,
            {k: sorted(v) for k, v in targets.items()},
            local.nullable,
            local.type_names,
            local.portable,
        )
        outputs: dict[str, ToolOutput] = {}
        for name in sorted(self.cache.tool_order):
            record = self.cache.records[name]
            if name in self.keep or tuple(shared.targets.get(name, ())) != record.targets:
                outputs[name] = emit_tool(self.project.tools[name], shared)
            else:
                outputs[name] = self.cache.output(name)
                self.kept.append(name)
        try:
            package = assemble(outputs, shared)
        except NameClash:
            return None
        facts = {name: facts_of(tool) for name, tool in self.project.tools.items()}
        return Compilation(
            sorted(self.diagnostics, key=sort_key),
            self.files.sources(),
            package,
            self._declared(),
            policy_of(self.project),
            Units(outputs, shared, facts),
            server_ceilings=server_defaults(self.project.tools),
        )

    def _declared(self) -> dict[str, Declared]:
        fresh = declarations(self.project)
        tools = {}
        for name, record in self.cache.records.items():
            if name in fresh:
                tools[name] = fresh[name]
                continue
            entry, version, value = (self.files.absolute(rel) for rel in record.declared)
            served = record.output.python.serving
            tools[name] = Declared(served.server, served.enabled, entry, version, value)
        return tools


def _mini(files: Files, keep: set[str]) -> list[LoadedFile]:
    loaded = []
    for kind, shown, layout in (
        ("tools", files.tools_shown, files.tools),
        ("policies", files.policies_shown, files.policies),
    ):
        if layout is None or shown is None:
            continue
        if kind == "policies" and not keep & set(layout.entries):
            continue  # none of the re-read tools has a policy: the file would be read as empty
        value, spans, problems = load_yaml(layout.keeping(keep), shown)
        loaded.append(LoadedFile(shown, layout.text, value, spans, problems))
    return loaded


# Findings the re-read tools alone cannot judge: they consult every tool of the config
# (`description-unknown-arg` lets a backticked word be any tool's name; whether a shared
# type's pattern is in a result, `pattern-python-client`, depends on every tool's returns).
# Found in the re-read, they may be the absence of the tools not re-read: a full read
# decides.
WHOLE_CONFIG = frozenset({"description-unknown-arg", "pattern-python-client"})


def try_reuse(cache: BuildCache | None, files: Files | None) -> Reuse | None:
    """The incremental build, or None when only a full read gives the right answer."""
    if cache is None or files is None:
        return None
    changed = incremental.changed_names(cache, files)
    if not changed:  # unusable, or nothing changed (the up-to-date check said otherwise)
        return None
    keep = incremental.related(cache, changed)
    if len(keep) * 2 > len(cache.tool_order):
        return None  # most of the config changed: a full read is as fast and simpler
    diagnostics, project = analyze(_mini(files, keep))
    if project is None or any(d.is_error or d.code in WHOLE_CONFIG for d in diagnostics):
        return None
    if not incremental.consistent(cache, keep, project):
        return None
    if not _keys_in_place(files, declarations(project)):
        return None
    fresh = []
    for d in diagnostics:
        kept = files.keep(d)
        if kept is None:
            return None
        if incremental.owner(kept[1]) in keep:  # the frame's come from the cache
            fresh.append(d)
    for kept in cache.diagnostics:
        if incremental.owner(kept[1]) not in keep:
            fresh.append(files.restore(kept))
    return Reuse(cache, files, keep, fresh, project)


def _keys_in_place(files: Files, tools: Mapping[str, Declared]) -> bool:
    """Each re-read tool was parsed from its own entry (no quote or bracket ran past it)."""
    for name, declared in tools.items():
        if files.tools.piece_at(declared.entry.line) != (("entry", name), 0):
            return False
    return True


def cacheable(files: Files, tools: Mapping[str, Declared]) -> bool:
    """A full compile can seed the cache when its tools are the file's entries, in order."""
    return (
        list(files.tools.entries) == list(tools)
        and set(files.policies.entries if files.policies else ()) <= set(tools)
        and _keys_in_place(files, tools)
    )


def new_cache(
    files: Files, compilation: Compilation, previous: BuildCache | None
) -> BuildCache | None:
    """The cache after this build (the facts of the tools it did not analyse come from
    `previous`); None when a diagnostic cannot be tied to a piece of the files."""
    units, package = compilation.units, compilation.package
    assert units is not None and package is not None
    kept = []
    for d in compilation.diagnostics:
        rel = files.keep(d)
        if rel is None:
            return None
        kept.append(rel)
    tool_pieces = files.tools.entries
    policy_pieces = files.policies.entries if files.policies else {}
    records: dict[str, ToolRecord] = {}
    for name, piece in tool_pieces.items():
        old = previous.records.get(name) if previous is not None else None
        if name not in units.facts and old is not None:
            # A kept tool: its spans were made from these (Reuse._declared), and turning
            # them back gives these again; 1,000 tools' round trips cost ~8 ms a rebuild.
            declared: tuple[RelSpan, RelSpan, RelSpan] | None = old.declared
        else:
            declared = files.relative_declared(compilation.tools[name])
        if declared is None:
            return None
        if name in units.facts:
            validator, refs = units.facts[name].validator, units.facts[name].refs
        elif previous is not None:
            validator, refs = previous.records[name].validator, previous.records[name].refs
        else:
            return None
        policy = policy_pieces.get(name)
        record = ToolRecord(
            piece.digest,
            policy.digest if policy else None,
            validator,
            refs,
            tuple(units.shared.targets.get(name, ())),
            units.outputs[name],
            declared,
        )
        # The record loaded, when nothing in it changed: the cache is then written with the
        # bytes it was read from (incremental.unchanged_frames).
        records[name] = old if old == record else record
    return BuildCache(
        generator_fingerprint(),
        files.tools.frame,
        files.policies.frame if files.policies else None,
        list(tool_pieces),
        list(policy_pieces),
        records,
        kept,
        tools_json=package.files["tools.json"],
        item_spans=package.item_spans,
    )
