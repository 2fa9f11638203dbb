"""Bytes on disk → checked text → a LoadedFile. Refuses what is not a YAML text file before the
parser sees it, so binary and mis-encoded files get a precise diagnostic instead of a crash."""

from __future__ import annotations

from pathlib import Path

from toolc.diagnostics import Diagnostic, Span, diag
from toolc.source.document import LoadedFile, SourceMap
from toolc.source.yaml_loader import load_yaml

MAX_FILE_BYTES = 32 * 1024 * 1024  # a 5,000-tool config is about 10 MiB


def _position(data: bytes, offset: int) -> tuple[int, int]:
    before = data[:offset]
    line = before.count(b"\n") + 1
    col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
    return line, col


def _utf16(data: bytes) -> bool:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return True
    head = data[:64]  # ASCII text in UTF-16 has a NUL in every other byte
    return len(head) >= 4 and (
        head[1::2].count(0) == len(head[1::2]) or head[0::2].count(0) == len(head[0::2])
    )


def _decode(data: bytes, shown: str) -> tuple[str | None, list[Diagnostic]]:
    if _utf16(data):
        return None, [
            diag(
                "not-utf8",
                Span.whole_file(shown),
                "file is UTF-16 encoded; toolc reads UTF-8",
                "re-save the file as UTF-8",
            )
        ]
    if b"\x00" in data:
        line, col = _position(data, data.index(b"\x00"))
        return None, [
            diag(
                "binary-file",
                Span.point(shown, line, col),
                "file contains NUL bytes: this is binary data, not YAML",
                "check that the path names the YAML file",
            )
        ]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _position(data, exc.start)
        return None, [
            diag(
                "not-utf8",
                Span.point(shown, line, col),
                f"invalid UTF-8 byte 0x{data[exc.start]:02x}",
                "re-save the file as UTF-8",
            )
        ]
    return text.removeprefix("\ufeff"), []


def load_file(file: Path, shown: str) -> LoadedFile:
    """Read and parse one config file. ``shown`` is the path as diagnostics print it."""
    empty = SourceMap(shown)
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            return LoadedFile(
                shown,
                None,
                None,
                empty,
                [
                    diag(
                        "file-too-large",
                        Span.whole_file(shown),
                        f"file is {size:,} bytes; toolc reads at most {MAX_FILE_BYTES:,}",
                    )
                ],
            )
        data = file.read_bytes()
    except OSError as exc:
        return LoadedFile(
            shown,
            None,
            None,
            empty,
            [diag("file-not-found", Span.whole_file(shown), f"cannot read file: {exc.strerror}")],
        )
    text, problems = _decode(data, shown)
    if text is None:
        return LoadedFile(shown, None, None, empty, problems)
    value, spans, problems = load_yaml(text, shown)
    if value is None and not problems:
        hint = (
            "write `tool_policies: {}`, or delete the file"
            if file.name == "tool_policies.yaml"
            else "declare `tools:` with at least one tool"
        )
        problems = [diag("empty-file", Span.whole_file(shown), "file holds no YAML data", hint)]
    return LoadedFile(shown, text, value, spans, problems)
