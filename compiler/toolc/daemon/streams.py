"""The daemon's process made the client's for one command: its environment, working directory
and umask, and standard streams that encode and keep what the command prints as the client's
own streams would (`Captured`), in the order it was written, for the answer."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from typing import Any

from toolc.daemon import protocol
from toolc.workspace.files import set_umask

Sink = list[tuple[int, bytes]]


class Captured(io.TextIOBase):
    """One standard stream of the client's. The daemon keeps one of each for its whole life
    and binds it to each command in turn: click caches a wrapper for every stream object it
    sees, so a new stream per command would keep every command's output alive."""

    def __init__(self, kind: int) -> None:
        self.kind = kind
        self.tty = False
        self._encoding, self._errors = "utf-8", "strict"
        self.sink: Sink = []
        self.buffer = _Bytes(self)

    def bind(self, tty: bool, encoding: list[str], sink: Sink) -> None:
        self.tty, self.sink = tty, sink
        self._encoding, self._errors = str(encoding[0]), str(encoding[1])

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    @property
    def errors(self) -> str:  # type: ignore[override]
        return self._errors

    def isatty(self) -> bool:
        return self.tty

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # as a text stream refuses it (click probes with b"")
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if text:
            self.sink.append((self.kind, text.encode(self._encoding, self._errors)))
        return len(text)


class _Bytes(io.RawIOBase):
    def __init__(self, text: Captured) -> None:
        self.text = text

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.text.sink.append((self.text.kind, bytes(data)))
        return len(data)


_STREAMS = (Captured(protocol.STDOUT), Captured(protocol.STDERR))


@contextlib.contextmanager
def as_client(request: dict[str, Any], sink: Sink) -> Iterator[None]:
    """The process as the client's for the command: its environment, directory, umask and
    streams; everything put back after, whatever the command or the request held."""
    saved_env = dict(os.environ)
    streams = sys.stdout, sys.stderr
    mask = set_umask(0o077)
    try:
        tty, encoding = request["tty"], request["encoding"]
        set_umask(int(request["umask"]))
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in request["env"].items()})
        os.chdir(str(request["cwd"]))
        out, err = _STREAMS
        out.bind(bool(tty[0]), list(encoding[0]), sink)
        err.bind(bool(tty[1]), list(encoding[1]), sink)
        sys.stdout, sys.stderr = out, err
        yield
    finally:
        for stream in _STREAMS:
            stream.bind(False, ["utf-8", "strict"], [])  # let the command's output go
        sys.stdout, sys.stderr = streams
        set_umask(mask)
        os.chdir("/")
        os.environ.clear()
        os.environ.update(saved_env)
