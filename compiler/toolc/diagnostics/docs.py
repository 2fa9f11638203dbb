"""docs/diagnostics.md, rendered from the code table so the two cannot drift."""

from __future__ import annotations

from toolc.diagnostics.codes import CODES

_GROUPS = {
    "input": "Reading the files",
    "yaml": "YAML",
    "schema": "The published schemas",
    "tools": "Rules across the declarations of tools.yaml",
    "policy": "tools.yaml and tool_policies.yaml together",
    "build": "The build: version guard and generated files",
}


def render_markdown() -> str:
    out = [
        "# Diagnostics",
        "",
        "<!-- Generated from compiler/toolc/diagnostics/codes.py by `make docs`. DO NOT EDIT. -->",
        "",
        "Every problem toolc reports has a code, a severity, a position (`file:line:column`) and a",
        "message that says how to fix it. `toolc explain CODE` prints the explanation below.",
        "Errors make `toolc check` exit 1; warnings do too under `--strict`.",
        "",
    ]
    for group, title in _GROUPS.items():
        out += [f"## {title}", "", "| code | severity | meaning |", "| --- | --- | --- |"]
        rules = [r for r in CODES.values() if r.group == group]
        out += [f"| [`{r.code}`](#{r.code}) | {r.severity.value} | {r.summary} |" for r in rules]
        out.append("")
        for r in rules:
            out += [
                f"### {r.code}",
                "",
                f"*{r.severity.value}* — {r.summary}",
                "",
                r.explanation,
                "",
            ]
    return "\n".join(out).rstrip("\n") + "\n"
