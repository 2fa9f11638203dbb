"""The targets' findings as diagnostics at the tools.yaml span of what they are about. The
published descriptor is made from tools.yaml by a lowering that keeps its shape: an argument's
schema is `args_schema.<name>`, a shared type is `types.<name>`, the success data is `returns`;
a keyword toolc adds (an `additionalProperties` that is absent, a `$defs`) falls back to the
nearest declared node, the way every span lookup does (`SourceMap`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toolc.diagnostics import Diagnostic, diag
from toolc.diagnostics.codes import CODES
from toolc.source.document import JsonPath, SourceMap
from toolc.source.reader import parse
from toolc.targets.judge import Finding, Where, judge

DATA_DEFS = "envelope.Data"  # where the outputSchema holds the success data (emit.schemas)
# Where the portable form holds it: inlined in the success branch (decision 0106).
INLINED_DATA = ("oneOf", 0, "properties", "data")


def yaml_path(tool: str, where: Where) -> JsonPath:
    """The tools.yaml path a place in the descriptor was lowered from (as near as declared)."""
    entry: JsonPath = ("tools", tool)
    if not where:
        return entry
    part, rest = where[0], where[1:]
    if len(rest) >= 2 and rest[0] == "$defs":
        if part == "outputSchema" and rest[1] == DATA_DEFS:
            return (*entry, "returns", *rest[2:])
        return ("types", *rest[1:])
    if part == "outputSchema" and rest[: len(INLINED_DATA)] == INLINED_DATA:
        return (*entry, "returns", *rest[len(INLINED_DATA) :])
    if part == "outputSchema":
        return (*entry, "returns")
    if not rest:
        return (*entry, "args_schema")
    if len(rest) >= 2 and rest[0] == "properties":
        return (*entry, "args_schema", *rest[1:])
    if rest[0] == "required":
        return (*entry, "requires")
    if rest[0] == "additionalProperties":
        return (*entry, "unknown_args")
    return (*entry, "args_keywords", *rest)


def target_diagnostics(
    tools_json: bytes, targets: tuple[str, ...], sources: Mapping[str, str], tools_file: str
) -> list[Diagnostic]:
    """The findings of `targets` on the served descriptors, located in tools.yaml (the file
    is parsed again for its spans only when there is something to locate)."""
    descriptors: list[dict[str, Any]] = json.loads(tools_json)["tools"]
    findings = judge(descriptors, targets)
    if not findings:
        return []
    text = sources.get(tools_file, "")
    spans = parse(text.encode("utf-8"), tools_file, "tools.yaml").spans
    return [_located(f, spans) for f in findings]


def _located(finding: Finding, spans: SourceMap) -> Diagnostic:
    rule = CODES[finding.code]
    assert rule.target is not None
    where = "/".join(str(p) for p in finding.where) or "the tool"
    return diag(
        finding.code,
        spans.key_span(yaml_path(finding.tool, finding.where)),
        f"tool '{finding.tool}' is refused by target {rule.target.name}: {finding.message} "
        f"(published at {where})",
        rule.explanation.rpartition("Fix: ")[2],
    )
