"""The source of an import: a JSON file holding a `tools/list` result (`{"tools": [...]}`, alone
or inside its JSON-RPC response) or a bare list of tools, or what a live server listed. Each
tool keeps where it came from (the file:line:col of its opening brace, or the server it was
listed by), so every warning about it is located."""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from toolc.diagnostics.codes import diag
from toolc.diagnostics.model import Diagnostic, Span

_WHITESPACE = " \t\n\r"


class SourceTool(msgspec.Struct, frozen=True):
    data: dict[str, Any]
    span: Span  # where the tool is written (a live server: the tools/list of its command)


class Source(msgspec.Struct, frozen=True):
    tools: list[SourceTool]
    server: str | None  # the name the server gives itself, when the source says it
    whole: Span  # the source as a whole: a file's first line, or a live listing (no lines)


def _span_at(shown: str, text: str, offset: int) -> Span:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span.point(shown, line, column)


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _WHITESPACE:
        at += 1
    return at


def _elements(text: str, start: int) -> list[int]:
    """The offsets of the elements of the JSON array that opens at `start`."""
    decoder = json.JSONDecoder()
    found: list[int] = []
    at = _skip(text, start + 1)
    while at < len(text) and text[at] != "]":
        found.append(at)
        _, at = decoder.raw_decode(text, at)
        at = _skip(text, at)
        at = _skip(text, at + 1) if at < len(text) and text[at] == "," else at
    return found


def _member(text: str, start: int, wanted: str) -> int | None:
    """The offset of the value of the member `wanted` of the JSON object opening at `start`
    (of its last occurrence, the one `json.loads` keeps)."""
    decoder = json.JSONDecoder()
    found = None
    at = _skip(text, start + 1)
    while at < len(text) and text[at] == '"':
        key, at = decoder.raw_decode(text, at)
        at = _skip(text, _skip(text, at) + 1)  # past the colon
        if key == wanted:
            found = at
        _, at = decoder.raw_decode(text, at)
        at = _skip(text, at)
        at = _skip(text, at + 1) if at < len(text) and text[at] == "," else at
    return found


def read_file(data: bytes, shown: str) -> tuple[Source | None, list[Diagnostic]]:
    """The tools of a JSON file, each located; None with the reason when it holds no tools."""
    try:
        return _read(data, shown)
    except RecursionError:  # Python's JSON decoder recurses: ~1000 levels exhaust the stack
        why = f"{shown} nests its values too deeply to be read: no config could hold them"
        return None, [diag("import-source-invalid", Span.whole_file(shown), why)]


def _read(data: bytes, shown: str) -> tuple[Source | None, list[Diagnostic]]:
    whole = Span.whole_file(shown)
    try:
        text = data.decode("utf-8-sig")
        value = json.loads(text, parse_float=_finite, parse_constant=_not_json)
    except UnicodeDecodeError:
        return None, [diag("import-source-invalid", whole, f"{shown} is not UTF-8 text")]
    except json.JSONDecodeError as exc:
        span = Span.point(shown, exc.lineno, exc.colno)
        return None, [diag("import-source-invalid", span, f"{shown} is not JSON: {exc.msg}")]
    except _Unreadable as exc:
        # Where a value starts (after `:`, `[` or `,`), not inside a string that holds it.
        where = re.search(r"[:\[,]\s*(" + re.escape(exc.literal) + r")(?![\w.+-])", text)
        span = _span_at(shown, text, where.start(1)) if where else whole
        hint = "write a finite number there: JSON Schema clients could not read this one"
        return None, [diag("import-source-invalid", span, f"{shown} {exc.why}", hint)]
    start = _skip(text, 0)
    if isinstance(value, dict) and isinstance(value.get("result"), dict) and "jsonrpc" in value:
        # a whole JSON-RPC response, as a proxy or a log keeps it
        found = _member(text, start, "result")
        assert found is not None
        value, start = value["result"], found
    problems: list[Diagnostic] = []
    if isinstance(value, dict) and isinstance(value.get("tools"), list):
        problems += _one_page(value, text, start, shown)
        found = _member(text, start, "tools")
        assert found is not None  # json.loads saw the member: the scan finds it
        listed, start, server = value["tools"], found, _server_of(value)
    elif isinstance(value, list):
        listed, server = value, None
    else:
        why = 'holds neither a tools/list result ({"tools": [...]}) nor a list of tools'
        return None, [diag("import-source-invalid", whole, f"{shown} {why}")]
    tools: list[SourceTool] = []
    for item, offset in zip(listed, _elements(text, start), strict=True):
        span = _span_at(shown, text, offset)
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            problems.append(
                diag("import-source-invalid", span, 'a tool must be an object with a "name"')
            )
            continue
        tools.append(SourceTool(item, span))
    return Source(tools, server, whole), problems


def _one_page(result: dict[str, Any], text: str, start: int, shown: str) -> list[Diagnostic]:
    """A saved result whose `nextCursor` says the server listed more tools than it holds."""
    cursor = result.get("nextCursor")
    if not isinstance(cursor, str):
        return []
    at = _member(text, start, "nextCursor")
    span = _span_at(shown, text, at) if at is not None else Span.whole_file(shown)
    why = f"{shown} is one page of a longer tools/list (nextCursor {cursor[:40]!r})"
    hint = "list the server live (--stdio or --url), which reads every page"
    return [diag("import-listing-partial", span, why, hint)]


class _Unreadable(ValueError):
    """A number no schema can hold: `literal` as written, `why` it cannot be read."""

    def __init__(self, literal: str, why: str) -> None:
        super().__init__(why)
        self.literal, self.why = literal, why


def _finite(literal: str) -> float:
    number = float(literal)
    if number in (float("inf"), float("-inf")):  # 1e400: valid JSON, beyond any double
        raise _Unreadable(literal, f"holds {literal}, a number beyond what a double holds")
    return number


def _not_json(literal: str) -> float:
    raise _Unreadable(literal, f"is not JSON: {literal} is no JSON number")


def _server_of(result: dict[str, Any]) -> str | None:
    """A saved result may carry the server's `serverInfo` (of `initialize`) beside its tools."""
    info = result.get("serverInfo")
    name = info.get("name") if isinstance(info, dict) else None
    return name if isinstance(name, str) else None


def nests_deeper(value: Any, limit: int) -> bool:
    """Whether the JSON value nests more than `limit` objects and arrays deep, found without
    recursion: what is deeper is skipped before anything recursive (the translation, PyYAML's
    writer) meets it."""
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            todo += [(v, depth + 1) for v in (item.values() if isinstance(item, dict) else item)]
    return False


def of_listing(tools: list[dict[str, Any]], server: str | None, shown: str) -> Source:
    """What a live server listed, located at the listing (`shown`: the command or the URL)."""
    span = Span.nowhere(shown)
    listed = [SourceTool(t, span) for t in tools if isinstance(t.get("name"), str)]
    return Source(listed, server, span)
