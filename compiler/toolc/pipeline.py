"""The whole story of compiling a config, in order:

    read (the bytes, once: `source.inputs`) → load (YAML → values with spans) → validate
    (published JSON Schemas) → lower (typed model) → check (cross-file rules) → emit
    ({path: bytes} in memory) → Compilation

Each phase runs only on what the phase before accepted, so one mistake is reported once, at its
source, rather than again by every later phase that trips over it. Nothing here writes, reads
the disk or knows about the build cache: the verbs (`verbs.py`) do one thing with a
Compilation, and the cache (`cache/`) hands one back without compiling when it can.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec
from msgspec import field

from toolc.checks import run_checks
from toolc.diagnostics import Diagnostic, Note, Span, diag, sort_key
from toolc.evolution.guard import Policy, policy_of
from toolc.forked import split_map
from toolc.memory import release_free_memory
from toolc.model import Project, SourceSpans, ToolDecl
from toolc.model.ceilings import server_defaults
from toolc.model.facts import ToolFacts, facts_of
from toolc.model.project import lower
from toolc.model.salvage import salvage
from toolc.model.tools_file import Tool
from toolc.source import LoadedFile
from toolc.source.inputs import Inputs
from toolc.validate.outcome import Validation, validate

if TYPE_CHECKING:  # the emitters are imported only when a compile emits
    from toolc.emit.client import NameClash
    from toolc.emit.package import PackageOutput, SharedInputs, ToolOutput

TOOL_FIELDS = frozenset(Tool.__struct_fields__)


class Declared(msgspec.Struct, frozen=True):
    """Where a tool is declared and how it is served: what the verbs point at and act on."""

    server: str
    enabled: bool
    entry: Span  # its key under `tools:`
    version: Span  # its `version:` key (the guard's diagnostics point there)
    version_value: Span  # the version's scalar (`toolc bump --write` edits it)


class Units(msgspec.Struct, frozen=True):
    """Each tool's output and facts, and what they were made with: what the cache keeps."""

    outputs: dict[str, ToolOutput]
    shared: SharedInputs
    facts: dict[str, ToolFacts]  # of the tools analysed in this compile


class Compilation(msgspec.Struct, frozen=True):
    diagnostics: list[Diagnostic]
    sources: dict[str, str]  # shown path → text, for rendering source lines
    package: PackageOutput | None = None  # the files and the snapshot entries
    tools: dict[str, Declared] = field(default_factory=dict)
    policy: Policy | None = None  # bump policy and accepted breaks, for the guard
    units: Units | None = None
    project: Project | None = None  # the typed model, when the compile stopped before emitting
    server_ceilings: dict[str, int] = field(default_factory=dict)  # for the reference docs

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    @property
    def files(self) -> dict[str, bytes]:
        return self.package.files if self.package is not None else {}


def compile(inputs: Inputs, *, emit: bool = True) -> Compilation:
    """read → load → validate → lower → check → emit, on the bytes `inputs` holds. With
    `emit=False` the compile stops after the checks and keeps the typed model."""
    loaded = [file.load() for file in inputs.files]
    sources = {f.path: f.text for f in loaded if f.text is not None}
    found, project = analyze(loaded) if loaded else ([], None)
    del loaded  # the span trees live on in `project` only, until it is let go below
    diagnostics = sorted([*inputs.problems, *found], key=sort_key)
    if project is None or any(d.is_error for d in diagnostics):
        return Compilation(diagnostics, sources)
    tools, policy = declarations(project), policy_of(project)
    if not emit:
        return Compilation(diagnostics, sources, None, tools, policy, project=project)
    from toolc.emit.client import NameClash
    from toolc.emit.package import assemble, shared_inputs

    shared = shared_inputs(project)
    decls = dict(project.tools)
    defaults = server_defaults(decls)
    # The span trees served the checks, which are done, and the typed model goes tool by tool
    # as each is emitted: both lower the build's peak (measured at 5,000 tools: 614 to 580 MB
    # for the spans; holding every model to the end was a third of the peak).
    del project
    release_free_memory()
    outputs, facts = _emit_each(decls, shared)
    try:
        package = assemble(outputs, shared)
    except NameClash as clash:
        diagnostics = sorted([*diagnostics, clash_diagnostic(clash, tools)], key=sort_key)
        return Compilation(diagnostics, sources)
    units = Units(outputs, shared, facts)
    return Compilation(
        diagnostics, sources, package, tools, policy, units, server_ceilings=defaults
    )


def analyze(files: list[LoadedFile]) -> tuple[list[Diagnostic], Project | None]:
    """validate → lower → check, on loaded files (tools.yaml first, then maybe the policies).

    With schema errors, the checks still run on what validated (`model.salvage`), so that
    independent mistakes are reported in one run; the project is then not returned, since
    parts of it are placeholders."""
    diagnostics: list[Diagnostic] = []
    validations: list[Validation | None] = []
    for kind, loaded in zip(("tools", "policies"), files, strict=False):
        diagnostics.extend(loaded.diagnostics)
        validation = validate(kind, loaded) if loaded.ok else None
        validations.append(validation)
        if validation is not None:
            diagnostics.extend(validation.diagnostics)
    if any(d.is_error for d in diagnostics):
        if any(v is None for v in validations):  # a file that did not load: nothing to judge
            return diagnostics, None
        diagnostics.extend(_partial_checks(files, validations))
        return diagnostics, None
    tools = files[0]
    policies = files[1] if len(files) > 1 else None
    spans = SourceSpans(tools.spans, policies.spans if policies else None)
    project = lower(tools.data, policies.data if policies else None, spans)
    for loaded in files:  # the typed model holds it all now; free the raw values early
        loaded.data = None
    del tools, policies
    diagnostics.extend(run_checks(project))
    return diagnostics, project


def _partial_checks(
    files: list[LoadedFile], validations: list[Validation | None]
) -> list[Diagnostic]:
    """The checks, on the parts of the config that validated."""
    tools, tools_check = files[0], validations[0]
    policies = files[1] if len(files) > 1 else None
    policies_check = validations[1] if len(files) > 1 else None
    assert tools_check is not None
    saved = salvage(
        tools.data,
        (tools_check.broken, tools_check.names),
        policies.data if policies else None,
        (policies_check.broken, policies_check.names) if policies_check else None,
        TOOL_FIELDS,
    )
    if saved is None:
        return []
    tools_data, policies_data, damage = saved
    spans = SourceSpans(tools.spans, policies.spans if policies else None)
    try:
        project = lower(tools_data, policies_data, spans, damage)
    except ValueError:  # a part the salvage kept that the model still refuses: judge nothing
        return []
    return run_checks(project)


def declarations(project: Project) -> dict[str, Declared]:
    spans = project.spans
    return {
        name: Declared(
            tool.decl.mcp_server,
            tool.enabled,
            spans.tool(("tools", name), key=True),
            spans.tool(("tools", name, "version"), key=True),
            spans.tool(("tools", name, "version")),
        )
        for name, tool in project.tools.items()
    }


def _emit_each(
    decls: dict[str, ToolDecl], shared: SharedInputs
) -> tuple[dict[str, ToolOutput], dict[str, ToolFacts]]:
    """Every tool's output, each tool's model let go once emitted (the caller holds no other
    reference): the models of 5,000 tools and their output together set the build's peak.
    Half of them may be emitted in a second process (toolc.forked): the same outputs."""
    from toolc.emit.package import emit_tool

    def emit_one(name: str) -> tuple[ToolOutput, ToolFacts]:
        tool = decls.pop(name)
        return emit_tool(tool, shared), facts_of(tool)

    # In the config's order, which is the order their models were built in: a child
    # forked for the second half then touches (and copies) mostly the pages of its own.
    names = list(decls)
    emitted = dict(zip(names, split_map(emit_one, names), strict=True))
    decls.clear()  # the tools a child emitted
    order = sorted(emitted)
    outputs = {name: emitted[name][0] for name in order}
    facts = {name: emitted[name][1] for name in order}
    return outputs, facts


def clash_diagnostic(clash: NameClash, tools: dict[str, Declared]) -> Diagnostic:
    """Two tools whose generated classes client.py would import under one name."""
    name, first, second = clash.name, clash.first, clash.second
    note = (Note(tools[first].version, f"'{first}' defines it too"),) if first in tools else ()
    return diag(
        "identifier-collision",
        tools[second].version,
        f"tools '{first}' and '{second}' both define the class '{name}', which the typed "
        "client imports from each",
        f"rename '{second}' or the argument or field that names the class",
        note,
    )
