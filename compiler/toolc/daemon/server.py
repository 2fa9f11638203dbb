"""The daemon: one process of the user's, serving one command at a time over its socket.

Each `run` gets the client's command line, working directory, environment and umask for its
duration, and its output streams as the client's terminal has them (`Captured`), so that a
command run here prints, writes and exits exactly as it would have in the client. The daemon
refuses a command as soon as toolc's own files on disk are not the ones it loaded (a new
version, an edited checkout): it answers `stale`, the client builds itself, and the daemon
stops. Only clients of the daemon's own user are served (the socket is the user's alone, in
the private cache directory, and each peer's uid is checked)."""

from __future__ import annotations

import contextlib
import io
import os
import socket
import struct
import sys
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import toolc.workspace.committing as committing
from toolc.cache import resident
from toolc.cache.uptodate import _sources
from toolc.daemon import protocol
from toolc.resources import data_dir
from toolc.workspace.private import remove_socket

PACKAGE = Path(__file__).resolve().parent.parent
_REQUEST_TIMEOUT = 10.0
_FLUSH_AFTER = 0.5  # seconds without a command before pending build caches are written
_REPLY_TIMEOUT = 60.0


def code_signature(package: Path = PACKAGE) -> list[tuple[str, int, int, int]]:
    """toolc's own files as they are on disk now: its code, templates and schemas."""
    files = []
    for folder, suffix in (
        (str(package), ".py"),
        (str(data_dir("templates")), ".j2"),
        (str(data_dir("schemas")), ".json"),
    ):
        files += _sources(folder, suffix)
    found = []
    for name, path in files:
        try:
            st = os.stat(path)
        except OSError:
            continue
        found.append((name, st.st_size, st.st_mtime_ns, st.st_ino))
    return found


class Captured(io.TextIOBase):
    """A standard stream of the client's: text written is encoded as the client's stream
    would encode it and kept, in order with the other stream's, for the reply."""

    def __init__(self, kind: int, tty: bool, encoding: list[str], sink: list[tuple[int, bytes]]):
        self.kind, self.tty, self.sink = kind, tty, sink
        self._encoding, self._errors = encoding
        self.buffer = _Bytes(kind, sink)

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
    def __init__(self, kind: int, sink: list[tuple[int, bytes]]):
        self.kind, self.sink = kind, sink

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.sink.append((self.kind, bytes(data)))
        return len(data)


@contextlib.contextmanager
def as_client(request: dict[str, Any], sink: list[tuple[int, bytes]]) -> Iterator[None]:
    """The process as the client's: its environment, directory, umask and streams."""
    saved_env = dict(os.environ)
    streams = sys.stdout, sys.stderr
    tty, encoding = request["tty"], request["encoding"]
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in request["env"].items()})
    mask = os.umask(int(request["umask"]))
    try:
        os.chdir(request["cwd"])
        sys.stdout = Captured(protocol.STDOUT, bool(tty[0]), list(encoding[0]), sink)
        sys.stderr = Captured(protocol.STDERR, bool(tty[1]), list(encoding[1]), sink)
        yield
    finally:
        sys.stdout, sys.stderr = streams
        os.umask(mask)
        os.chdir("/")
        os.environ.clear()
        os.environ.update(saved_env)


class Daemon:
    def __init__(self, path: str, idle_timeout: float) -> None:
        self.path = path
        self.idle_timeout = idle_timeout
        self.code = code_signature()
        self.started = time.time()
        self.served = 0

    def serve(self) -> None:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        protocol.bind(listener, self.path)
        listener.listen(8)
        resident.enable()
        committing.defer_deletions()
        try:
            while True:
                # A pending cache is written after a short pause: a burst of rebuilds is
                # served from memory, and the disk has the newest cache soon after.
                pending = resident.pending()
                listener.settimeout(_FLUSH_AFTER if pending else (self.idle_timeout or None))
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    if pending:
                        resident.flush()
                        continue
                    return  # idle for too long
                with conn:
                    conn.settimeout(_REQUEST_TIMEOUT)  # a client that connects and says nothing
                    if not self._handle(conn):
                        return
        finally:
            listener.close()
            remove_socket(self.path)
            resident.flush()
            committing.finish_deletions()

    def _handle(self, conn: socket.socket) -> bool:
        """Answer one connection; False: stop."""
        if not _same_user(conn):
            return True
        try:
            frame = protocol.receive(conn)
        except (OSError, ValueError):
            return True
        request = protocol.value_of(frame[1]) if frame is not None else None
        if request is None:
            return True
        conn.settimeout(_REPLY_TIMEOUT)  # a client that stops reading its answer
        op = request.get("op")
        try:
            if op == "ping":
                protocol.send_value(conn, protocol.REPLY, self.status())
            elif op == "stop":
                protocol.send_value(conn, protocol.REPLY, {"stopped": True, "pid": os.getpid()})
                return False
            elif op == "run":
                stale = self._stale(request)
                if stale is not None:
                    protocol.send_value(conn, protocol.REPLY, {"stale": stale})
                    return False
                self._run(conn, request)
        except OSError:
            pass  # the client went away: the command ran (or not) as a whole all the same
        except Exception:  # a request not as the client sends them: nothing is answered, so
            traceback.print_exc(file=sys.__stderr__)  # a client runs its command itself
        return True

    def _stale(self, request: dict[str, Any]) -> str | None:
        """Why this daemon must not run the command (it then stops), or None."""
        if request.get("installation") != protocol.installation():
            return "it serves another toolc installation"
        if code_signature() != self.code:
            return "toolc's files changed since it started"
        return None

    def _run(self, conn: socket.socket, request: dict[str, Any]) -> None:
        from toolc.cli import run

        argv = [str(a) for a in request["argv"]]
        if not argv or argv[0] not in protocol.COMMANDS:
            protocol.send(conn, protocol.STATUS, b"2")
            return
        sink: list[tuple[int, bytes]] = []
        with as_client(request, sink):
            status = run(argv)
            committing.finish_cleanup()
            self.served += 1
            try:
                for kind, data in sink:
                    protocol.send(conn, kind, data)
                protocol.send(conn, protocol.STATUS, str(status).encode())
            finally:
                committing.finish_deletions()  # the old output, once the client has its answer

    def status(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "socket": self.path,
            "since": self.started,
            "served": self.served,
            "resident": resident.counts(),
        }


def _same_user(conn: socket.socket) -> bool:
    """The peer's uid (SO_PEERCRED): the socket's mode should already keep others out."""
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    uid: int = struct.unpack("3i", creds)[1]
    return uid == os.getuid()


def warm_up() -> None:
    """Import what a build and a rebuild use, so that the first command is served warm."""
    import toolc.cache.rebuild
    import toolc.cache.store
    import toolc.cli
    import toolc.emit.package
    import toolc.verbs
    import toolc.workspace.committing
    import toolc.workspace.staging  # noqa: F401
    from toolc.validate.ecma_regex import search

    search("a", "a")  # pydantic-core, which vetting a pattern loads
