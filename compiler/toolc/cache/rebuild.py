"""The incremental path of a build: re-read only the entries an edit touched (in a copy of each
file where every other entry is blanked out), check them with the tools tied to them, re-emit
them, and take everything else from the build cache (`incremental.py`). Whenever the edit could
reach further than that, or the re-read finds an error, the caller falls back to reading the
whole config, so diagnostics and output are always those of a full build."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from toolc.cache import incremental
from toolc.cache.incremental import BuildCache, Files, ToolRecord
from toolc.cache.layout import split
from toolc.cache.uptodate import generator_fingerprint
from toolc.diagnostics import Diagnostic, Span
from toolc.emit.package import PackageOutput, SharedInputs, ToolOutput, assemble, emit_tool
from toolc.model import Project, ToolDecl
from toolc.source import LoadedFile
from toolc.source.reader import MAX_FILE_BYTES
from toolc.source.yaml_loader import load_yaml
from toolc.workspace import read_regular

Analyze = Callable[[list[tuple[str, LoadedFile]]], tuple[list[Diagnostic], Project | None]]


def _text(path: Path) -> str | None:
    """A config file's text for the cache's cut, or None (a full read then reports what is
    wrong with it): only a regular file within the input limit is read."""
    data = read_regular(path, limit=MAX_FILE_BYTES, follow=True)
    try:
        return data.decode("utf-8") if data is not None else None
    except UnicodeDecodeError:
        return None


def read_files(tools: Path, tools_shown: str, policies: Path, policies_shown: str) -> Files | None:
    """The config files cut into pieces, or None when either cannot be cut."""
    tools_text = _text(tools)
    tools_layout = split(tools_text, "tools") if tools_text is not None else None
    if tools_layout is None:
        return None
    if not os.path.lexists(policies):
        return Files(tools_shown, tools_layout, None, None)
    policies_text = _text(policies)
    policies_layout = split(policies_text, "tool_policies") if policies_text else None
    if policies_layout is None:
        return None
    return Files(tools_shown, tools_layout, policies_shown, policies_layout)


@dataclass(frozen=True, slots=True)
class Reuse:
    """A build made of the re-read tools and the cache's other tools."""

    cache: BuildCache
    files: Files
    keep: set[str]  # the tools re-read, checked and emitted again
    diagnostics: list[Diagnostic]
    project: Project  # the re-read tools only, with every shared type
    kept: list[str] = field(default_factory=list)  # tools whose output came from the cache

    def known_digests(self) -> dict[str, str]:
        """The digests of the files kept from the last build (not hashed again)."""
        records = self.cache.records
        return {rel: d for name in self.kept for rel, d in records[name].digests.items()}

    def emit(self) -> tuple[PackageOutput, dict[str, ToolOutput], SharedInputs]:
        from toolc.emit.package import shared_inputs

        targets: dict[str, list[str]] = {}
        for name in self.cache.tool_order:
            tool = self.project.tools.get(name)
            record = self.cache.records[name]
            validator = incremental.validator_of(tool) if tool else record.validator
            if validator is not None:
                targets.setdefault(validator, []).append(name)
        local = shared_inputs(self.project)
        shared = SharedInputs(
            local.types,
            {k: sorted(v) for k, v in targets.items()},
            local.nullable,
            local.type_names,
        )
        outputs: dict[str, ToolOutput] = {}
        for name in sorted(self.cache.tool_order):
            record = self.cache.records[name]
            if name in self.keep or tuple(shared.targets.get(name, ())) != record.targets:
                outputs[name] = emit_tool(self.project.tools[name], shared)
            else:
                outputs[name] = self.cache.output(name)
                self.kept.append(name)
        return assemble(outputs, shared), outputs, shared

    def version_spans(self) -> dict[str, Span]:
        spans = {
            name: self.files.absolute(r.version_span) for name, r in self.cache.records.items()
        }
        for name in self.keep:
            spans[name] = self.project.spans.tool(("tools", name, "version"), key=True)
        return spans


def _mini(files: Files, keep: set[str]) -> list[tuple[str, LoadedFile]]:
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
        loaded.append((kind, LoadedFile(shown, layout.text, value, spans, problems)))
    return loaded


def try_reuse(cache: BuildCache | None, files: Files | None, analyze: Analyze) -> Reuse | None:
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
    if project is None or any(d.is_error for d in diagnostics):
        return None
    if not incremental.consistent(cache, keep, project) or not _keys_in_place(files, project):
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


def _keys_in_place(files: Files, project: Project) -> bool:
    """Each re-read tool was parsed from its own entry (no quote or bracket ran past it)."""
    for name in project.tools:
        line = project.spans.tool(("tools", name), key=True).line
        if files.tools.piece_at(line) != (("entry", name), 0):
            return False
    return True


def cacheable(files: Files | None, project: Project) -> bool:
    """A full read can seed the cache when its tools are the file's entries, in order."""
    return (
        files is not None
        and list(files.tools.entries) == list(project.tools)
        and set(files.policies.entries if files.policies else ()) <= set(project.tools)
        and _keys_in_place(files, project)
    )


Facts = tuple[str | None, frozenset[str]]  # a tool's validator, and the shared types it reaches


def facts_of(decls: Mapping[str, ToolDecl]) -> dict[str, Facts]:
    return {n: (incremental.validator_of(t), incremental.tool_refs(t)) for n, t in decls.items()}


def emit_releasing(
    decls: dict[str, ToolDecl], shared: SharedInputs
) -> tuple[dict[str, ToolOutput], dict[str, Facts]]:
    """Every tool's output, each tool's model let go once emitted (the caller holds no other
    reference): the models of 5,000 tools and their output together set the build's peak."""
    outputs: dict[str, ToolOutput] = {}
    facts: dict[str, Facts] = {}
    for name in sorted(decls):
        tool = decls.pop(name)
        outputs[name] = emit_tool(tool, shared)
        facts[name] = incremental.validator_of(tool), incremental.tool_refs(tool)
    return outputs, facts


def new_cache(
    files: Files,
    facts: Mapping[str, Facts],
    outputs: dict[str, ToolOutput],
    package: PackageOutput,
    shared: SharedInputs,
    version_spans: dict[str, Span],
    diagnostics: list[Diagnostic],
    previous: BuildCache | None,
    digests: Mapping[str, str],
) -> BuildCache | None:
    """The cache after this build (`facts`: of the tools read in it; the rest come from
    `previous`); None when a diagnostic cannot be tied to a piece of the files."""
    kept = []
    for d in diagnostics:
        rel = files.keep(d)
        if rel is None:
            return None
        kept.append(rel)
    tool_pieces = files.tools.entries
    policy_pieces = files.policies.entries if files.policies else {}
    records: dict[str, ToolRecord] = {}
    for name, piece in tool_pieces.items():
        span = files.relative(version_spans[name])
        if span is None:
            return None
        if name in facts:
            validator, refs = facts[name]
        elif previous is not None:
            validator, refs = previous.records[name].validator, previous.records[name].refs
        else:
            return None
        policy = policy_pieces.get(name)
        records[name] = ToolRecord(
            piece.digest,
            policy.digest if policy else None,
            validator,
            refs,
            tuple(shared.targets.get(name, ())),
            outputs[name],
            span,
            package.item_spans.get(name),
            {rel: digests[rel] for rel in outputs[name].files},
        )
    return BuildCache(
        generator_fingerprint(),
        files.tools.frame,
        files.policies.frame if files.policies else None,
        list(tool_pieces),
        list(policy_pieces),
        records,
        kept,
        tools_json=package.files["tools.json"],
    )
