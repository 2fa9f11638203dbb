"""The fragment corpus (tests/evolution_fragments.py) as whole configs: each case becomes
tests/fixtures/evolution/kw-<case>/{before,after}/tools.yaml and expected.txt, so the rule
corpus (tests/test_evolution_rules.py) builds it and diffs it like every other case, with the
real CLI too. One tool `t` holds the fragment as its argument `value` and as the field `value`
of its data (for a `root` case: as its arguments object, `args_schema` + `args_keywords`, and
as its whole data, less the `$schema` only a tool declares); the expected lines are the
fragment's, at those places. A case the
language refuses (a `$dynamicRef`, another dialect) has no config.

`python tests/evolution_configs.py` rewrites the generated cases; a test keeps them fresh."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from evolution_fragments import CASES, Case

CORPUS = Path(__file__).parent / "fixtures" / "evolution"
PREFIX = "kw-"
INPUT_AT = "/tool/inputSchema/properties/value"
OUTPUT_AT = "/tool/outputSchema/$defs/envelope.Data/properties/value"
ROOT_INPUT_AT = "/tool/inputSchema"
ROOT_OUTPUT_AT = "/tool/outputSchema/$defs/envelope.Data"
# What the config language refuses, so no config can state it (decision 0051).
REFUSED = ("$dynamicRef", "draft-07")
# Where a whole config reads differently from the bare fragment: in `returns` the fragment's
# `$defs` sit inside the data (published there, pointers rebased), not beside it, and a `$ref`
# standing for the very schema it replaced is then no change of the data at all.
NOT_IN_WHOLE_CONFIG = {
    "anyOf-branch-by-ref": {"unclassified-change docs t " + OUTPUT_AT + "/anyOf/0"},
}


def buildable(case: Case) -> bool:
    text = json.dumps([case.old, case.new])
    return not any(word in text for word in REFUSED)


def _tool(fragment: Any, root: bool, required: bool) -> dict[str, Any]:
    tool: dict[str, Any] = {
        "version": "1.0.0",
        "description": "A tool whose contract changes.",
        "mcp_server": "demo",
        "tool_type": "query",
    }
    if root:
        assert isinstance(fragment, dict)
        keywords = {k: v for k, v in fragment.items() if k not in ("type", "properties")}
        tool["args_schema"] = fragment.get("properties", {})
        if keywords:
            tool["args_keywords"] = keywords
        tool["returns"] = {k: v for k, v in fragment.items() if k != "$schema"}
        return tool
    tool["args_schema"] = {"value": fragment}
    if required:
        tool["requires"] = ["value"]
    # in `returns` the fragment sits below `properties`: its `$defs` go to the root its
    # pointers are read from
    inner = dict(fragment) if isinstance(fragment, dict) else fragment
    defs = inner.pop("$defs", None) if isinstance(inner, dict) else None
    data = {"type": "object", "properties": {"value": inner}, "required": ["value"]}
    tool["returns"] = {**data, "$defs": defs} if defs else data
    return tool


def configs(case: Case) -> tuple[str, str, list[str]]:
    """The before and after tools.yaml (JSON, a YAML 1.2 document) and the expected lines."""
    # a `false` argument can only be absent: required, the tool could never be called
    required = case.old is not False and case.new is not False
    sides = []
    for fragment in (case.old, case.new):
        tools = {"tools": {"t": _tool(fragment, case.root, required)}}
        sides.append(json.dumps(tools, indent=2, ensure_ascii=False) + "\n")
    at_in, at_out = (ROOT_INPUT_AT, ROOT_OUTPUT_AT) if case.root else (INPUT_AT, OUTPUT_AT)
    lines = []
    for base, found in ((at_in, case.input), (at_out, case.output)):
        for line in found:
            rule, level, path = line.split()
            if case.root and base == at_out and path.startswith("/$schema"):
                continue  # the dialect is the tool's (`args_keywords`), never the data's
            lines.append(f"{rule} {level} t {base}{'' if path == '/' else path}")
    return sides[0], sides[1], sorted(set(lines) - NOT_IN_WHOLE_CONFIG.get(case.name, set()))


def write() -> list[str]:
    for old in CORPUS.glob(f"{PREFIX}*"):
        shutil.rmtree(old)
    made = []
    for case in CASES:
        if not buildable(case):
            continue
        before, after, lines = configs(case)
        directory = CORPUS / f"{PREFIX}{case.name}"
        for side, text in (("before", before), ("after", after)):
            (directory / side).mkdir(parents=True)
            (directory / side / "tools.yaml").write_text(text, encoding="utf-8")
        (directory / "expected.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        made.append(directory.name)
    return made


if __name__ == "__main__":
    print(f"{len(write())} cases written under {CORPUS}")
