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
    if path is None or not os.path.exists(path):  # the common case: one stat
        return None
    try:
        conn = protocol.connect(path)
    except OSError:
        return None
    try:
        request = {
            "op": "run",
            "installation": protocol.installation(),
            "argv": list(argv),
            "cwd": os.getcwd(),
            "env": dict(os.environ),
            "umask": _umask(),
            "tty": [_isatty(sys.stdout), _isatty(sys.stderr)],
            "encoding": [_encoding(sys.stdout), _encoding(sys.stderr)],
        }
        protocol.send_value(conn, protocol.REPLY, request)
        return _relay(conn)
    except (OSError, ValueError):
        return None  # the daemon died before answering: run the command here
    finally:
        conn.close()


def _relay(conn: Any) -> int | None:
    """Print the daemon's output as it arrives; its status, or None when it declined."""
    while True:
        frame = protocol.receive(conn)
        if frame is None:
            return None
        kind, data = frame
        if kind == protocol.REPLY:  # {"stale": why}: the daemon runs other code, and stops
            reply = protocol.value_of(data) or {}
            sys.stderr.write(f"toolc: the build daemon stopped ({reply.get('stale')}); ")
            sys.stderr.write("running here\n")
            return None
        if kind == protocol.STATUS:
            return int(data)
        stream = sys.stdout if kind == protocol.STDOUT else sys.stderr
        stream.flush()
        buffer = getattr(stream, "buffer", None)
        if buffer is None:  # a text-only stream put in place of the standard one
            stream.write(data.decode(_encoding(stream)[0], "replace"))
            continue
        buffer.write(data)
        buffer.flush()


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
    """`ping` or `stop`: the daemon's answer, None when no daemon answers."""
    path = protocol.socket_path()
    if path is None or not os.path.exists(path):
        return None
    try:
        conn = protocol.connect(path, timeout)
    except OSError:
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
