"""Bytes on disk → checked text → a LoadedFile. Refuses what is not a YAML text file before the
parser sees it, so binary and mis-encoded files get a precise diagnostic instead of a crash."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from toolc.diagnostics import Diagnostic, Span, diag
from toolc.diagnostics.textlines import position
from toolc.source.document import LoadedFile, SourceMap
from toolc.source.yaml_loader import load_yaml

MAX_FILE_BYTES = 32 * 1024 * 1024  # a 5,000-tool config is about 10 MiB


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """Line and column of a byte, as the parser's diagnostics count them (a leading
    byte-order mark is no column)."""
    before = data[:offset].removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
    return position(before, len(before))


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


def _refused(shown: str, code: str, message: str, hint: str | None = None) -> LoadedFile:
    return LoadedFile(
        shown, None, None, SourceMap(shown), [diag(code, Span.whole_file(shown), message, hint)]
    )


def what_it_is(mode: int) -> str | None:
    """What a path that is not a regular file is, in a word (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file"


def read_bytes(file: Path, shown: str) -> bytes | LoadedFile:
    """The file's bytes, or the refusal: only a regular file (a FIFO must not hang toolc, a
    device must not fill memory), never more than the limit (checked before reading)."""
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a link to itself, or a -> b -> a
            return _refused(
                shown, "not-a-file", f"{file.name} is a symbolic link in a loop",
                "point the link at the file, or replace it with the file",
            )  # fmt: skip
        if os.path.islink(file) and not file.exists():
            return _refused(
                shown, "not-a-file", f"{file.name} is a symbolic link to nothing",
                "point the link at the file, or replace it with the file",
            )  # fmt: skip
        return _refused(shown, "file-not-found", f"cannot read file: {exc.strerror}")
    st = os.fstat(fd)
    kind = what_it_is(st.st_mode)
    if kind is not None:
        os.close(fd)
        return _refused(
            shown, "not-a-file", f"{file.name} is {kind}, not a file",
            f"make {file.name} a regular YAML file",
        )  # fmt: skip
    with os.fdopen(fd, "rb") as stream:
        if st.st_size > MAX_FILE_BYTES:
            return _too_large(shown, st.st_size)
        data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:  # it grew while being read
        return _too_large(shown, len(data))
    return data


def _too_large(shown: str, size: int) -> LoadedFile:
    message = f"file is {size:,} bytes; toolc reads at most {MAX_FILE_BYTES:,}"
    hint = "split the tools across configs, or share repeated schemas through `types:`"
    return _refused(shown, "file-too-large", message, hint)


def load_file(file: Path, shown: str) -> LoadedFile:
    """Read and parse one config file. ``shown`` is the path as diagnostics print it."""
    data = read_bytes(file, shown)
    return data if isinstance(data, LoadedFile) else parse(data, shown, file.name)


def decoded(data: bytes) -> str | None:
    """The text a config file's bytes hold, as the parser reads it (None: not UTF-8)."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None


def parse(data: bytes, shown: str, name: str) -> LoadedFile:
    """A config file's bytes as YAML values with spans (`name`: the file's own name)."""
    text, problems = _decode(data, shown)
    if text is None:
        return LoadedFile(shown, None, None, SourceMap(shown), problems)
    value, spans, problems = load_yaml(text, shown)
    if value is None and not problems:
        hint = (
            "write `tool_policies: {}`, or delete the file"
            if name == "tool_policies.yaml"
            else "declare `tools:` with at least one tool"
        )
        problems = [diag("empty-file", Span.whole_file(shown), "file holds no YAML data", hint)]
    return LoadedFile(shown, text, value, spans, problems)
