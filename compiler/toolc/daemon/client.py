"""The client side: hand `toolc build` / `toolc check` to a running daemon, or say it cannot
(None), and toolc runs the command itself as always. Whatever goes wrong before the daemon
answers (no daemon, a socket left by one that died, a daemon of a toolc since changed) ends
in None: the command then runs here, and a build run twice writes the same bytes."""

from __future__ import annotations

import os
import sys

from toolc.daemon import protocol

TYPE_CHECKING = False  # not typing's: see toolc.cache.dirs
if TYPE_CHECKING:
    from typing import Any


def forward(argv: list[str]) -> int | None:
    """The exit status of the command as the daemon ran it; None: run it here."""
    if not argv or argv[0] not in protocol.COMMANDS or os.environ.get("TOOLC_NO_DAEMON"):
        return None
    path = protocol.socket_path()
    # The common case, no daemon, costs one lstat and one stat.
    if path is None or not protocol.trusted(path) or protocol.busy(path):
        return None
    conn = _connected(path, None)
    if conn is None:
        return None
    try:
        request = {
            "op": "run",
            "installation": protocol.installation(),
            "python": protocol.interpreter(),
            "argv": list(argv),
            "cwd": os.getcwd(),
            "env": _environment(),
            "umask": _umask(),
            "tty": [_isatty(sys.stdout), _isatty(sys.stderr)],
            "encoding": [_encoding(sys.stdout), _encoding(sys.stderr)],
        }
        protocol.send_value(conn, protocol.REPLY, request)
        answer = _answer(conn)
    except (OSError, ValueError):
        return None  # the daemon died before it answered whole: nothing was printed
    except KeyboardInterrupt:  # the daemon ends its command whole; here it ends as alone:
        sys.stderr.write("\nAborted!\n")  # click's words and status for a command cut short
        return 1
    finally:
        conn.close()
    if answer is None:
        return None
    status, frames = answer
    try:
        for kind, data in frames:
            _write(sys.stdout if kind == protocol.STDOUT else sys.stderr, data)
    except BrokenPipeError:  # `toolc check --diff | head`: the reader has all it wanted
        pass
    return status


def _answer(conn: Any) -> tuple[int, list[tuple[int, bytes]]] | None:
    """The daemon's whole answer, read before a byte is printed (so that a daemon dying
    mid-answer never leaves half an output behind a full one): the status and the output
    frames; None when the daemon declined."""
    frames: list[tuple[int, bytes]] = []
    while True:
        frame = protocol.receive(conn)
        if frame is None:
            return None
        kind, data = frame
        if kind == protocol.STATUS:
            return int(data), frames
        if kind == protocol.REPLY:
            reply = protocol.value_of(data) or {}
            if "stale" in reply:  # the daemon runs other code than this toolc, and stops
                sys.stderr.write(f"toolc: the build daemon stopped ({reply['stale']}); ")
                sys.stderr.write("running here\n")
            return None  # or it declined (another interpreter setting): run it here
        frames.append((kind, data))


def _write(stream: Any, data: bytes) -> None:
    if stream is None:  # the standard stream is closed: as `print` to it would, drop it
        return
    stream.flush()
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a text-only stream put in place of the standard one
        stream.write(data.decode(_encoding(stream)[0], "replace"))
        return
    buffer.write(data)
    buffer.flush()


def _environment() -> dict[str, str]:
    """The client's environment, with its terminal's size where it has one: what the help
    text is wrapped to (click asks `shutil.get_terminal_size`, which reads COLUMNS first;
    the daemon's own output is its log)."""
    env = dict(os.environ)
    for fd in (1, 2):
        try:
            size = os.get_terminal_size(fd)
        except OSError:
            continue
        env.setdefault("COLUMNS", str(size.columns))
        env.setdefault("LINES", str(size.lines))
        break
    return env


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _encoding(stream: object) -> list[str]:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    return [encoding, getattr(stream, "errors", None) or "strict"]


def request(op: str, timeout: float = 5.0) -> dict[str, Any] | None:
    """`ping` or `stop`: the daemon's answer, None when no daemon answers in time."""
    path = protocol.socket_path()
    if path is None or not protocol.trusted(path):
        return None
    conn = _connected(path, timeout)
    if conn is None:
        return None
    try:
        protocol.send_value(conn, protocol.REPLY, {"op": op})
        frame = protocol.receive(conn)
    except (OSError, ValueError):
        return None
    finally:
        conn.close()
    if frame is None or frame[0] != protocol.REPLY:
        return None
    return protocol.value_of(frame[1])


def _connected(path: str, timeout: float | None) -> Any:
    """A connection to the daemon at `path` (a socket `protocol.trusted` vouched for), None
    unless the process behind it is the user's own (SO_PEERCRED)."""
    try:
        conn = protocol.connect(path, timeout)
    except OSError:
        return None
    try:
        if protocol.peer(conn)[1] == os.getuid():
            return conn
    except OSError:
        pass
    conn.close()
    return None
