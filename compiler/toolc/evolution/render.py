"""`toolc diff` output in every format: text (a terminal), json (one object per finding, then a
summary naming the gate that failed), github (workflow annotations on the tool's line),
markdown (a PR comment: by mcp_server then tool, breaking first, with the required bump, and
the text the model reads in a section of its own), junit (one test case per changed tool) and
sarif (code scanning: one result per finding)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from toolc.diagnostics.printable import for_terminal
from toolc.diagnostics.render import _gh_data, _gh_property, json_line
from toolc.diagnostics.render_pages import junit
from toolc.diagnostics.render_pages import md_cell as _cell
from toolc.diagnostics.sarif import SarifResult, sarif_log
from toolc.evolution.changes import ToolChange
from toolc.evolution.findings import Finding

LEVELS = ("breaking", "warning", "compatible", "unclassified", "docs")


def _order(level: str) -> int:
    return LEVELS.index(level) if level in LEVELS else len(LEVELS)


def _versions(c: ToolChange) -> str:
    if c.old_version is None:
        return f"new at {c.new_version}"
    return f"{c.old_version} → {c.new_version if c.new_version is not None else 'removed'}"


def _verdict(c: ToolChange) -> str:
    if c.new_version is None:
        return "removal accepted" if c.ok else "removed without an accepted break"
    if c.level is None:
        return "no bump needed"
    needs = f"needs {c.level} (≥ {c.minimum})"
    return needs if c.ok else f"{needs}: version too low"


def render_text(changes: list[ToolChange], label: str) -> str:
    if not changes:
        return f"no contract changes against {label}\n"
    out = []
    for c in changes:
        mark = "ok" if c.ok else "FAIL"
        out.append(f"{c.tool} ({c.server or 'removed'}): {_versions(c)}, {_verdict(c)} [{mark}]")
        for f in sorted(c.findings, key=lambda f: (_order(f.level), f.path)):
            out.append(f"  {f.level:<12} {f.rule:<28} {for_terminal(f.message)}")
        for f in c.accepted:
            out.append(f"  {'accepted':<12} {f.rule:<28} {for_terminal(f.message)}")
    failed = [c.tool for c in changes if not c.ok]
    out.append(
        f"{len(changes)} tool(s) changed against {label}"
        + (f"; version gate failed for: {', '.join(failed)}" if failed else "")
    )
    return "\n".join(out) + "\n"


def render_json(changes: list[ToolChange], label: str) -> str:
    lines = []
    for c in changes:
        for f, accepted in [(f, False) for f in c.findings] + [(f, True) for f in c.accepted]:
            obj = {
                "tool": c.tool,
                "mcp_server": c.server or None,
                "rule": f.rule,
                "level": f.level,
                "path": f.path,
                "message": f.message,
                "accepted": accepted,
                "from": c.old_version,
                "to": c.new_version,
                "required_bump": c.level,
                "minimum_version": c.minimum,
                "gate": None if c.ok else "version-guard",
            }
            lines.append(json_line(obj))
    failed = [c.tool for c in changes if not c.ok]
    summary = {
        "summary": {
            "against": label,
            "changed_tools": len(changes),
            "failed_tools": failed,
            "gate": "version-guard" if failed else None,
        }
    }
    lines.append(json_line(summary))
    return "\n".join(lines) + "\n"


def _kind(c: ToolChange, f: Finding) -> Literal["error", "warning", "notice"]:
    """An error where this finding alone sets a bump the version misses; breaks and warnings
    warn; the rest is a notice."""
    if not c.ok and f.rule in c.forcing:
        return "error"
    return "warning" if f.level in ("breaking", "warning") else "notice"


def render_github(changes: list[ToolChange], label: str) -> str:
    out = []
    for c in changes:
        if c.span is None:
            continue
        for f in c.findings:
            kind = _kind(c, f)
            props = [
                f"file={_gh_property(c.span.path)}",
                f"line={c.span.line}",
                f"col={c.span.column}",
                f"title={_gh_property(f.rule)}",
            ]
            text = f"{f.message} ({f.level}; {_versions(c)}, {_verdict(c)})"
            out.append(f"::{kind} {','.join(props)}::{_gh_data(text)}\n")
    return "".join(out)


def render_markdown(changes: list[ToolChange], label: str) -> str:
    out = [f"## toolc diff against {label}", ""]
    if not changes:
        return "\n".join([*out, "No contract changes."]) + "\n"
    failed = [c for c in changes if not c.ok]
    out.append(
        f"**{len(changes)} tool(s) changed**"
        + (f", **{len(failed)} below the required version**." if failed else ".")
    )
    docs = []
    servers = sorted({c.server for c in changes})
    for server in servers:
        out += ["", f"### {server or 'Removed tools'}"]
        group = sorted(
            (c for c in changes if c.server == server),
            key=lambda c: (min((_order(f.level) for f in c.findings), default=9), c.tool),
        )
        for c in group:
            mark = "✅" if c.ok else "❌"
            out += ["", f"#### {mark} `{c.tool}` {_versions(c)}: {_verdict(c)}", ""]
            rows = [f for f in c.findings if f.level != "docs"]
            docs += [(c.tool, f) for f in c.findings if f.level == "docs"]
            if rows or c.accepted:
                out += ["| Level | Rule | Change |", "|---|---|---|"]
                for f in sorted(rows, key=lambda f: (_order(f.level), f.path)):
                    out.append(f"| {f.level} | `{f.rule}` | {_cell(f.message)} |")
                for f in c.accepted:
                    out.append(f"| accepted | `{f.rule}` | {_cell(f.message)} |")
            else:
                out.append("Text only (below).")
    if docs:
        out += ["", "### Text the model reads", ""]
        out += [f"- `{tool}`: {_cell(f.message)}" for tool, f in docs]
    return "\n".join(out) + "\n"


def render_junit(changes: list[ToolChange], label: str) -> str:
    cases: list[tuple[str, str, str | None, str]] = []
    for c in changes:
        details = "\n".join(f"{f.level} {f.rule}: {f.message}" for f in c.findings)
        failure = None if c.ok else f"{c.tool}: {_versions(c)}, {_verdict(c)}"
        cases.append((c.server or "removed", c.tool, failure, details))
    if not cases:
        cases.append(("toolc", f"no contract changes against {label}", None, ""))
    return junit("toolc diff", cases)


def render_sarif(changes: list[ToolChange], label: str) -> str:
    """Each finding a result at its tool's line (a removed tool has none), the accepted ones
    suppressed in source: the `accepted_breaks` entry is their justification."""
    results = [
        SarifResult(
            f.rule,
            "note" if (kind := _kind(c, f)) == "notice" else kind,
            f"{f.message} ({f.level}; {_versions(c)}, {_verdict(c)})",
            c.span,
        )
        for c in changes
        for f in c.findings
    ]
    results += [
        SarifResult(f.rule, "note", f"{f.message} ({f.level}; {_versions(c)})", c.span,
                    suppressed=f"an accepted break of {c.tool} (accepted_breaks)")
        for c in changes
        for f in c.accepted
    ]  # fmt: skip
    return sarif_log(results)


RENDERERS: dict[str, Callable[[list[ToolChange], str], str]] = {
    "text": render_text,
    "json": render_json,
    "github": render_github,
    "markdown": render_markdown,
    "junit": render_junit,
    "sarif": render_sarif,
}
