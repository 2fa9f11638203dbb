"""`toolc import`: a `tools/list` (a JSON file, or a live server listed by `toolc.remote`)
translated into a config that builds. Each tool is translated (`adopt.tools`), then the whole
config is compiled in memory: a tool the compiler refuses (a pattern with no linear-time
translation, a name that is no MCP name, ...) is skipped with the compiler's reason, so what
is written always builds and no schema is loosened to make it. Nothing is written when the
folder already has a config; the files are written by `workspace` only (decision 0070)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import msgspec
from msgspec import field

from toolc.adopt.listing import Source, nests_deeper
from toolc.adopt.schemas import NotCarried, Types, tool_classes
from toolc.adopt.tools import PLACEHOLDER, Translated, translate_tool
from toolc.adopt.yamltext import section
from toolc.diagnostics.codes import diag
from toolc.diagnostics.model import Diagnostic, Span
from toolc.pipeline import compile
from toolc.resources import schema_path
from toolc.source.inputs import inputs_of_texts
from toolc.source.yaml_errors import MAX_DEPTH
from toolc.verbs.import_proxied import drifted
from toolc.verbs.refused_write import write_failure
from toolc.workspace.files import create_all

CONFIG_FILES = ("tools.yaml", "tool_policies.yaml")
_SERVER = re.compile(r"[^A-Za-z0-9_.-]")
_TYPE_REF = re.compile(r"#/types/([A-Za-z0-9_]+)")
# A schema this deep is over the YAML reader's limit (MAX_DEPTH) however it is written, and
# would exhaust the stack of what translates and writes it (PyYAML's writer at ~350 levels):
# skipped first. What is shallower the compiler judges, as it judges any config.
_DEEP = 2 * MAX_DEPTH


class Imported(msgspec.Struct, dict=True):
    diagnostics: list[Diagnostic] = field(default_factory=list)
    config: dict[str, bytes] = field(default_factory=dict)  # tools.yaml (+ tool_policies.yaml)
    tools: list[str] = field(default_factory=list)  # the tools carried, in the source's order

    @property
    def failed(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def existing_config(out_dir: Path) -> list[Diagnostic]:
    """An import never overwrites a config: the files that are already there."""
    return [
        diag(
            "import-config-exists",
            Span.whole_file(str(out_dir / name)),
            f"{out_dir / name} exists, and toolc import never overwrites a config",
            "import into an empty folder, then merge by hand what you want to keep",
        )
        for name in CONFIG_FILES
        if os.path.lexists(out_dir / name)  # a dangling link too: creating it would fail
    ]


def _server_name(wanted: str | None, where: Span, found: list[Diagnostic]) -> str:
    if wanted is None:
        found.append(
            diag(
                "import-placeholder",
                where,
                "the source names no server: wrote mcp_server 'imported'",
                "name it with --server NAME",
            )
        )
        return "imported"
    name = _SERVER.sub("_", wanted)[:128] or "imported"
    if name != wanted:
        found.append(
            diag(
                "import-placeholder",
                where,
                f"the server name {wanted!r} is no mcp_server name: wrote {name!r}",
                "choose one with --server NAME",
            )
        )
    return name


def translate(
    source: Source,
    server: str | None,
    shown: str,
    origin: dict[str, Any] | None = None,
    targets: tuple[str, ...] = (),
) -> Imported:
    """The config the source's tools make, checked by the compiler; errors when none is left.
    With `origin` (the `command` or `url` of a `proxy:` key) each tool is proxied to it. With
    `targets` (the settings the config will be built with) a tool their rules refuse is
    skipped too, so that the config builds there."""
    result = Imported()
    where = source.tools[0].span if source.tools else source.whole
    mcp_server = _server_name(server or source.server, where, result.diagnostics)
    types = Types(tool_classes(t.data["name"] for t in source.tools))
    tools: dict[str, Translated] = {}
    spans: dict[str, Span] = {}
    for item in source.tools:
        name = item.data["name"]
        if name in tools:
            result.diagnostics.append(
                diag(
                    "import-tool-skipped",
                    item.span,
                    f"tool '{name}' is listed twice: the first is imported",
                )
            )
            continue
        deep = [k for k in ("inputSchema", "outputSchema") if nests_deeper(item.data.get(k), _DEEP)]
        if deep:
            why = f"/{deep[0]} nests deeper than {MAX_DEPTH} levels, toolc's limit"
            result.diagnostics.append(_skipped(item.span, name, why, "yaml-depth-limit"))
            continue
        draft: list[str] = []
        try:
            tool = translate_tool(item.data, mcp_server, types, draft, origin)
        except (NotCarried, TypeError, ValueError, AttributeError, KeyError) as exc:
            why = str(exc) if isinstance(exc, NotCarried) else f"malformed ({exc})"
            result.diagnostics.append(_skipped(item.span, name, why))
            continue
        tools[name], spans[name] = tool, item.span
        if draft:
            result.diagnostics.append(
                diag(
                    "import-dialect-translated",
                    item.span,
                    f"tool '{name}': {' and '.join(draft)} in draft-07, translated to 2020-12 "
                    "(the same instances accepted)",
                )
            )
        result.diagnostics += [diag(code, item.span, message) for code, message in tool.warnings]
        result.diagnostics += [
            diag(
                "import-placeholder",
                item.span,
                f"tool '{name}': {why}: wrote a placeholder {key} marked {PLACEHOLDER}",
                f"write its {key} in tools.yaml",
            )
            for key, why in tool.placeholders.items()
        ]
    listed = {t.data["name"]: t.data for t in source.tools} if origin is not None else None
    _settle(tools, types.schemas, spans, result, shown, source.whole, listed, targets)
    return result


def _skipped(span: Span, name: str, why: str, code: str | None = None) -> Diagnostic:
    """`code`: the compiler's diagnostic that refused the tool, whose explanation says
    what toolc takes instead."""
    explained = f"`toolc explain {code}` says what toolc takes; " if code else ""
    return diag(
        "import-tool-skipped",
        span,
        f"tool '{name}' not imported: {why}" + (f" [{code}]" if code else ""),
        f"{explained}declare it by hand in tools.yaml, or keep serving it outside toolc",
    )


def _reached(tools: dict[str, Translated], types: dict[str, Any]) -> dict[str, set[str]]:
    """Each tool's types, through the types they refer to."""
    reached: dict[str, set[str]] = {}
    for name, tool in tools.items():
        seen: set[str] = set()
        todo = set(_TYPE_REF.findall(json.dumps(tool.body)))
        while todo:
            found = todo.pop()
            if found not in seen and found in types:
                seen.add(found)
                todo |= set(_TYPE_REF.findall(json.dumps(types[found])))
        reached[name] = seen
    return reached


def _settle(
    tools: dict[str, Translated],
    types: dict[str, Any],
    spans: dict[str, Span],
    result: Imported,
    shown: str,
    whole: Span,
    listed: dict[str, dict[str, Any]] | None,
    targets: tuple[str, ...] = (),
) -> None:
    """Compile the config; skip the tools its errors fall in, until it compiles clean (and,
    imported as proxied, the tools whose schemas it would publish otherwise than `listed`)."""
    while tools:
        reached = _reached(tools, types)
        used = {t: types[t] for t in types if any(t in r for r in reached.values())}
        texts, tool_lines, type_lines, policy_lines = _texts(tools, used, shown)
        compiled = compile(
            inputs_of_texts(shown, texts["tools.yaml"], texts.get("tool_policies.yaml")),
            emit=listed is not None or bool(targets),
        )
        errors = [d for d in compiled.diagnostics if d.is_error]
        if targets and not errors:  # the build's settings make their rules errors
            from toolc.verbs import targeted

            errors = [d for d in targeted(compiled, targets) if d.is_error]
        drift = drifted(compiled, listed) if listed is not None and not errors else {}
        for name, why in drift.items():
            result.diagnostics.append(_skipped(spans[name], name, why))
            del tools[name]
        if drift:
            continue
        if not errors:
            result.config = {n: t.encode("utf-8") for n, t in texts.items()}
            result.tools = list(tools)
            return
        blamed: dict[str, Diagnostic] = {}
        for d in errors:
            lines = policy_lines if d.span.path.endswith("tool_policies.yaml") else tool_lines
            owners = [n for n, (a, b) in lines.items() if a <= d.span.line <= b]
            for kind, (a, b) in type_lines.items():
                if a <= d.span.line <= b and not d.span.path.endswith("tool_policies.yaml"):
                    owners += [n for n, r in reached.items() if kind in r]
            for owner in owners or list(tools):  # unplaced: nothing of it can be trusted
                blamed.setdefault(owner, d)
        for name, d in blamed.items():
            result.diagnostics.append(
                _skipped(spans[name], name, f"toolc refuses it: {d.message}", d.code)
            )
            del tools[name]
    result.diagnostics.append(
        diag("import-no-tools", whole, "no tool could be imported: nothing written")
    )


def _texts(
    tools: dict[str, Translated], types: dict[str, Any], shown: str
) -> tuple[
    dict[str, str],
    dict[str, tuple[int, int]],
    dict[str, tuple[int, int]],
    dict[str, tuple[int, int]],
]:
    header = [
        "# yaml-language-server: $schema=.toolc/tools.schema.json",
        f"# Imported by `toolc import` from {shown}: what each tool's tools/list entry says,",
        "# in toolc's language. Marked TODO(toolc import): values the source did not give.",
    ]
    marks = {
        n: {k: f"{PLACEHOLDER}: {why}" for k, why in t.placeholders.items()}
        for n, t in tools.items()
    }
    tool_text, tool_lines = section(
        "tools", {n: t.body for n, t in tools.items()}, marks, len(header)
    )
    lines = header + tool_text
    type_lines: dict[str, tuple[int, int]] = {}
    if types:
        type_text, type_lines = section("types", types, {}, len(lines))
        lines += type_text
    texts = {"tools.yaml": "\n".join(lines) + "\n"}
    policies = {n: t.policy for n, t in tools.items() if t.policy is not None}
    policy_lines: dict[str, tuple[int, int]] = {}
    if policies:
        top = [
            "# yaml-language-server: $schema=.toolc/tool_policies.schema.json",
            "# From the tools' annotations: destructive (or not said otherwise) → confirmed.",
        ]
        policy_text, policy_lines = section("tool_policies", policies, {}, len(top))
        texts["tool_policies.yaml"] = "\n".join(top + policy_text) + "\n"
    return texts, tool_lines, type_lines, policy_lines


def editor_schemas(out_dir: Path) -> dict[Path, bytes]:
    """The schemas the `$schema` lines name, for the folders that lack them."""
    found = {}
    for kind in ("tools", "policies"):
        source = schema_path(kind)
        target = out_dir / ".toolc" / source.name
        if not os.path.lexists(target):
            found[target] = source.read_bytes()
    return found


def write(out_dir: Path, imported: Imported, cwd: Path) -> tuple[list[Path], list[Diagnostic]]:
    """The config and its editor schemas, created together or not at all: the paths written,
    or why nothing was (a file there meanwhile, or the system's refusal)."""
    planned = {**editor_schemas(out_dir)}
    # tools.yaml last: a folder with one holds the whole import, even if the links are cut short
    for name in reversed(CONFIG_FILES):
        if name in imported.config:
            planned[out_dir / name] = imported.config[name]
    try:
        there = create_all(planned)
    except OSError as exc:
        return [], [write_failure(exc, (out_dir,), cwd, "import into another folder (--out DIR)")]
    if there:
        return [], [_appeared(path) for path in there]
    return list(planned), []


def _appeared(path: Path) -> Diagnostic:
    return diag(
        "import-config-exists",
        Span.whole_file(str(path)),
        f"{path} appeared while importing, and toolc import never overwrites a file",
        "import into an empty folder, then merge by hand what you want to keep",
    )
