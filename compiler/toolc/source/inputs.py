"""The config as one run reads it: the bytes of tools.yaml and tool_policies.yaml, read once.
Everything after reads these bytes: the parser, the build cache's cut into entries, and the
manifest's digest of what the build was made from."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from toolc.diagnostics import Diagnostic, Span, diag
from toolc.diagnostics.paths import shown_path
from toolc.source.document import LoadedFile
from toolc.source.reader import decoded, parse, read_bytes

TOOLS_FILE = "tools.yaml"
POLICIES_FILE = "tool_policies.yaml"
INPUT_NAMES = (TOOLS_FILE, POLICIES_FILE)


class InputFile(msgspec.Struct, frozen=True):
    name: str  # tools.yaml or tool_policies.yaml
    shown: str  # as diagnostics print it
    data: bytes | None  # None: refused (not a file, too large, unreadable)
    refused: LoadedFile | None = None  # the refusal's diagnostic

    @property
    def kind(self) -> str:
        return "tools" if self.name == TOOLS_FILE else "policies"

    def load(self) -> LoadedFile:
        if self.data is None:
            assert self.refused is not None
            return self.refused
        return parse(self.data, self.shown, self.name)

    def text(self) -> str | None:
        """The text the parser reads (None: refused, or not UTF-8)."""
        return decoded(self.data) if self.data is not None else None


class Inputs(msgspec.Struct, frozen=True):
    files: tuple[InputFile, ...]  # tools.yaml first, then tool_policies.yaml when it is there
    problems: tuple[Diagnostic, ...] = ()  # no tools.yaml; a tool_policies.yml not read

    def file(self, name: str) -> InputFile | None:
        return next((f for f in self.files if f.name == name), None)

    def raw(self, name: str) -> bytes | None:
        """A file's bytes for the manifest's digest (None: the file is not there)."""
        found = self.file(name)
        return found.data if found is not None else None


def _missing_tools_file(tools: Path, shown: str) -> Diagnostic:
    hint = "create tools.yaml with a top-level `tools:` mapping, or pass the directory that has it"
    if tools.with_suffix(".yml").exists():
        hint = "found tools.yml: toolc reads tools.yaml; rename the file"
    return diag(
        "file-not-found", Span.whole_file(shown), "no tools.yaml in the config directory", hint
    )


def _read(path: Path, cwd: Path) -> InputFile:
    shown = shown_path(path, cwd)
    data = read_bytes(path, shown)
    if isinstance(data, LoadedFile):
        return InputFile(path.name, shown, None, data)
    return InputFile(path.name, shown, data)


def read_inputs(config_dir: Path, cwd: Path) -> Inputs:
    tools, policies = config_dir / TOOLS_FILE, config_dir / POLICIES_FILE
    if not os.path.lexists(tools):
        return Inputs((), (_missing_tools_file(tools, shown_path(tools, cwd)),))
    files = [_read(tools, cwd)]
    # Whatever stands at tool_policies.yaml is read (a directory, a FIFO or a dangling link
    # is an error): skipping it would publish action tools without their confirmation.
    problems = []
    if os.path.lexists(policies):
        files.append(_read(policies, cwd))
    elif policies.with_suffix(".yml").is_file():
        # Silently skipping it would drop every confirmation and pre-validation rule.
        problems.append(
            diag(
                "file-not-found",
                Span.whole_file(shown_path(policies.with_suffix(".yml"), cwd)),
                "tool_policies.yml is not read: toolc reads tool_policies.yaml",
                "rename the file to tool_policies.yaml",
            )
        )
    return Inputs(tuple(files), tuple(problems))


def inputs_of_texts(where: str, tools: str, policies: str | None) -> Inputs:
    """A config given as texts (a baseline from git), shown under `where`."""
    files = []
    for name, text in ((TOOLS_FILE, tools), (POLICIES_FILE, policies)):
        if text is not None:
            shown = f"{where.rstrip('/')}/{name}" if not where.endswith(":") else where + name
            files.append(InputFile(name, shown, text.encode("utf-8")))
    return Inputs(tuple(files))
