"""The daemon: one process of the user's, serving one command at a time over its socket.

Each `run` gets the client's command line, working directory, environment and umask for its
duration, and its output streams as the client's terminal has them (`streams`), so that a
command run here prints, writes and exits exactly as it would have in the client. The daemon
refuses a command as soon as toolc's own files on disk are not the ones it loaded (a new
version, an edited checkout): it answers `stale`, the client builds itself, and the daemon
stops. Only clients of the daemon's own user are served (the socket is the user's alone, in
the private cache directory, and each peer's uid is checked)."""

from __future__ import annotations

import gc
import os
import socket
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import toolc.workspace.committing as committing
from toolc.cache import resident
from toolc.cache.uptodate import _sources
from toolc.daemon import protocol
from toolc.daemon.streams import Sink, as_client
from toolc.resources import data_dir
from toolc.workspace.private import (
    hold_private_lock,
    lock_is_held,
    release_lock,
    remove_socket,
)

PACKAGE = Path(__file__).resolve().parent.parent
_REQUEST_TIMEOUT = 10.0
_FLUSH_AFTER = 0.5  # seconds without a command before pending build caches are written
_REPLY_TIMEOUT = 60.0


def code_signature(package: Path = PACKAGE) -> list[tuple[str, int, int, int]]:
    """toolc's own files as they are on disk now (its code, templates and schemas), and the
    folders its dependencies are installed in (installing, upgrading or removing a package
    changes its folder's mtime)."""
    files = []
    for folder, suffix in (
        (str(package), ".py"),
        (str(data_dir("templates")), ".j2"),
        (str(data_dir("schemas")), ".json"),
    ):
        files += _sources(folder, suffix)
    files += [(path, path) for path in sys.path if path.endswith("-packages")]
    found = []
    for name, path in files:
        try:
            st = os.stat(path)
        except OSError:
            continue
        found.append((name, st.st_size, st.st_mtime_ns, st.st_ino))
    return found


def _leftovers(path: str) -> list[Path]:
    """The trash and standby folders of build daemons of other toolc installations that are
    not running (an upgrade leaves its old daemon's, holding links to old outputs)."""
    folder, mine = os.path.split(path)
    found = []
    for name in sorted(os.listdir(folder)):
        stem, _, kind = name.rpartition(".")
        if not name.startswith("daemon-") or kind not in ("trash", "standby"):
            continue
        if stem != mine.removesuffix(".sock") and not lock_is_held(
            os.path.join(folder, f"{stem}.lock")
        ):
            found.append(Path(folder, name))
    return found


class Daemon:
    def __init__(self, path: str, idle_timeout: float) -> None:
        self.path = path
        self.idle_timeout = idle_timeout
        self.code = code_signature()
        self.python = protocol.interpreter()
        self.started = time.time()
        self.served = 0

    def serve(self) -> None:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        protocol.bind(listener, self.path)
        listener.listen(8)
        resident.enable()
        committing.remove_leftovers(_leftovers(self.path))
        committing.defer_deletions(Path(protocol.beside(self.path, ".trash")))
        committing.prepare_ahead(Path(protocol.beside(self.path, ".standby")))
        try:
            while True:
                # A pending cache is written after a short pause: a burst of rebuilds is
                # served from memory, and the disk has the newest cache soon after.
                pending = resident.pending() or committing.trash_waiting()
                listener.settimeout(_FLUSH_AFTER if pending else (self.idle_timeout or None))
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    if pending:
                        committing.empty_trash()  # old outputs, moved out in one rename
                        resident.flush()
                        gc.collect()  # what the commands left in cycles, while nothing waits
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
            committing.stop_preparing()
            committing.empty_trash()

    def _handle(self, conn: socket.socket) -> bool:
        """Answer one connection; False: stop."""
        _pid, uid, gid = protocol.peer(conn)
        if uid != os.getuid() or gid != os.getgid():
            return True  # another user's (or group's) process: not served
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
                if request.get("python") != self.python:  # the client runs it itself
                    protocol.send_value(conn, protocol.REPLY, {"declined": "interpreter"})
                    return True
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
            return "toolc's files or its dependencies changed since it started"
        return None

    def _run(self, conn: socket.socket, request: dict[str, Any]) -> None:
        from toolc.cli import run

        argv = [str(a) for a in request["argv"]]
        if not argv or argv[0] not in protocol.COMMANDS:
            protocol.send(conn, protocol.STATUS, b"2")
            return
        # Held while the command runs: a client that finds it taken runs its own command.
        busy = hold_private_lock(protocol.beside(self.path, ".busy"), wait=True)
        sink: Sink = []
        try:
            with as_client(request, sink):
                status = run(argv)
                # The old output left the project (moved to the trash) and its lock was
                # released: the output folder is as a build alone leaves it.
                committing.finish_cleanup()
                self.served += 1
                for kind, data in sink:
                    protocol.send(conn, kind, data)
                sink.clear()
                protocol.send(conn, protocol.STATUS, str(status).encode())
        finally:
            if busy is not None:
                release_lock(busy)
            committing.start_preparing()  # the next build's head start, now it has answered

    def status(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "socket": self.path,
            "since": self.started,
            "served": self.served,
            "resident": resident.counts(),
        }


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
