"""SARIF 2.1.0, the log GitHub code scanning and most review tools read: one run of the `toolc`
driver, each result pointing at the config's line and column, and the metadata of every rule a
result names taken from the catalogue (decision 0045), so a reviewer sees the same summary and
explanation `toolc explain` prints. `toolc check`/`build` report diagnostics here and
`toolc diff` its findings; both go through `sarif_log`."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PureWindowsPath
from typing import Literal
from urllib.parse import quote

import msgspec

from toolc import __version__
from toolc.diagnostics.catalogue import Aspect, catalogue
from toolc.diagnostics.model import Diagnostic, Span
from toolc.diagnostics.printable import cleaned, no_surrogates

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
Level = Literal["error", "warning", "note"]
# An evolution rule's level as a SARIF level: a break fails review, the rest informs it.
_RULE_LEVELS: Mapping[str, Level] = {"breaking": "error", "warning": "warning"}


class SarifResult(msgspec.Struct, frozen=True):
    """One result: the rule it reports, its level for this run, where, and what to do."""

    rule: str
    level: Level
    message: str
    span: Span | None
    related: tuple[tuple[Span, str], ...] = ()
    suppressed: str | None = None  # why it is accepted in source (an accepted break)


def _uri(path: str) -> str:
    """A URI reference for a shown path: relative paths stay relative (GitHub resolves them
    against the repository's root), absolute ones become file URIs. A name's bytes that
    are no UTF-8 are percent-encoded as they are; a backslash and a drive letter mean
    something only on Windows."""
    raw = _bytes(path)
    if os.name == "nt":
        if PureWindowsPath(path).is_absolute():
            return PureWindowsPath(path).as_uri()
        raw = raw.replace(b"\\", b"/")
    if path.startswith("/"):
        return "file://" + quote(raw, safe="/")
    return quote(raw, safe="/")


def _bytes(path: str) -> bytes:
    """The path's bytes: as the file system gave them (surrogateescape), a surrogate no
    name can hold as U+FFFD."""
    try:
        return path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return no_surrogates(path).encode("utf-8")


def _location(span: Span, message: str | None = None) -> dict[str, object]:
    region = {
        "startLine": span.line,
        "startColumn": span.column,
        "endLine": span.end_line,
        "endColumn": span.end_column,
    }
    physical: dict[str, object] = {"artifactLocation": {"uri": _uri(span.path)}}
    if span.placed:  # a source with no lines (a live server's listing) has no region
        physical["region"] = region
    where: dict[str, object] = {"physicalLocation": physical}
    if message is not None:
        where["message"] = {"text": message}
    return where


def _default_level(aspect: Aspect) -> Level:
    if aspect.kind == "diagnostic":
        return "error" if aspect.grade == "error" else "warning"
    return _RULE_LEVELS.get(aspect.grade, "note")


def _rule(rule_id: str) -> dict[str, object]:
    aspects = catalogue().get(rule_id, ())
    if not aspects:  # every ID toolc emits is catalogued (tests/test_catalogue.py); stay valid
        return {"id": rule_id}
    first = aspects[0]
    text = "\n\n".join(a.explanation for a in aspects)
    return {
        "id": rule_id,
        "shortDescription": {"text": first.summary},
        "fullDescription": {"text": text},
        "help": {"text": text},
        "defaultConfiguration": {"level": _default_level(first)},
        "properties": {"tags": sorted({a.kind for a in aspects} | {first.section})},
    }


def _result(r: SarifResult, index: int) -> dict[str, object]:
    out: dict[str, object] = {
        "ruleId": r.rule,
        "ruleIndex": index,
        "level": r.level,
        "message": {"text": r.message},
    }
    if r.span is not None:
        out["locations"] = [_location(r.span)]
    if r.related:
        out["relatedLocations"] = [
            {"id": i, **_location(span, text)} for i, (span, text) in enumerate(r.related)
        ]
    if r.suppressed is not None:
        out["suppressions"] = [{"kind": "inSource", "justification": r.suppressed}]
    return out


def sarif_log(results: Sequence[SarifResult]) -> str:
    """The whole log: rules in the order results first name them, results in the given order."""
    order: dict[str, int] = {}
    for r in results:
        order.setdefault(r.rule, len(order))
    run = {
        "tool": {
            "driver": {
                "name": "toolc",
                "version": __version__,
                "rules": [_rule(rule_id) for rule_id in order],
            }
        },
        "columnKind": "unicodeCodePoints",  # toolc's columns count characters
        "results": [_result(r, order[r.rule]) for r in results],
    }
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, ensure_ascii=False, indent=2) + "\n"


def render_sarif(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    """`check`/`build --format sarif`: each diagnostic a result, its notes related locations
    and its hint part of the message (SARIF has no field a viewer shows for a fix in words)."""
    return sarif_log(
        [
            SarifResult(
                d.code,
                "error" if d.is_error else "warning",
                d.message + (f"\nhint: {d.hint}" if d.hint else ""),
                d.span,
                tuple((n.span, n.message) for n in d.notes),
            )
            # paths as they are: a URI percent-encodes a name's bytes exactly
            for d in (cleaned(d, no_surrogates, paths=False) for d in diagnostics)
        ]
    )
