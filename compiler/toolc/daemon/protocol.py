"""What the client and the daemon say to each other, over a Unix socket in the user's private
cache directory. Lean on purpose: the client runs before toolc imports anything else, and every
module it loads is paid by each build it hands over (json, pathlib, hashlib and the `socket`
module's enums cost about 15 ms together, measured), so it uses the interpreter's own
`marshal` and `_socket`.

A message is a frame: a kind byte, a 4-byte length and its bytes. A request is one frame of
marshalled data: `{"op": "run", "installation", "argv", "cwd", "env", "umask", "tty",
"encoding"}`, or `{"op": "ping"}` / `{"op": "stop"}`. A `run` is answered by output frames
(stream 1 or 2, the bytes in the order they were written) and a status frame, or by a `stale`
reply; `ping` and `stop` by one reply. Only the daemon's own user can connect (the socket is
theirs alone, and the daemon checks each peer's uid), so marshal reads only that user's data."""

from __future__ import annotations

import marshal
import os
import struct
import sys
import zlib

from toolc import __version__
from toolc.cache.dirs import cache_folder

TYPE_CHECKING = False  # not typing's: see toolc.cache.dirs
if TYPE_CHECKING:
    from typing import Any

STATUS, STDOUT, STDERR, REPLY = 0, 1, 2, 3  # frame kinds
_HEADER = struct.Struct(">BI")
_MARSHAL = 4
# The commands the daemon runs: the two that compile a config into its output.
COMMANDS = frozenset({"build", "check"})


def installation() -> str:
    """What the daemon must share with its clients: this toolc's code, on this Python. The
    socket's name holds a checksum of it; the daemon compares the whole of it."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return "\0".join((package, sys.executable, sys.version, __version__))


def interpreter() -> list[object]:
    """The interpreter's settings a command's result may depend on (its flags, as `-O`, `-W`,
    `-X utf8` set them, and the PYTHON* variables): a daemon started with others declines."""
    settings: list[object] = list(sys.flags)
    settings += sorted(f"{k}={v}" for k, v in os.environ.items() if k.startswith("PYTHON"))
    return settings


def socket_path() -> str | None:
    """The daemon's socket for this toolc (None: caching, and so the daemon, is off)."""
    folder = cache_folder()
    if folder is None:
        return None
    key = installation().encode()
    name = f"daemon-{zlib.crc32(key):08x}{zlib.adler32(key):08x}.sock"
    return os.path.join(os.path.abspath(folder), name)


def trusted(path: str) -> bool:
    """Whether `path` is a socket of the user's own, readable by the user alone, in a folder
    of theirs no one else can write to: a socket another user planted there (a shared cache
    folder) would otherwise receive the client's environment and answer for the daemon."""
    uid = os.getuid()
    try:
        folder = os.stat(os.path.dirname(path))
        sock = os.lstat(path)
    except OSError:
        return False
    return (
        folder.st_uid == uid
        and not folder.st_mode & 0o022
        and sock.st_uid == uid
        and not sock.st_mode & 0o077
        and (sock.st_mode & 0o170000) == 0o140000  # S_IFSOCK, without importing stat
    )


def peer(conn: Any) -> tuple[int, int, int]:
    """The connected process's pid, uid and gid (SO_PEERCRED, Linux)."""
    import _socket

    creds = conn.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    pid, uid, gid = struct.unpack("3i", creds)
    return pid, uid, gid


def busy(sock: str) -> bool:
    """Whether the daemon is running a command now (it holds its busy lock then): a client
    runs its own command rather than wait, as it would with no daemon."""
    import fcntl

    try:
        fd = os.open(beside(sock, ".busy"), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def beside(sock: str, kind: str) -> str:
    """A file of the daemon's beside its socket: `.lock` (held for its life), `.busy` (held
    while it runs a command), `.log` (its output), `.trash` (old outputs to delete),
    `.standby` (staging directories made ahead)."""
    return sock.removesuffix(".sock") + kind


def _address(path: str) -> tuple[str, str | None]:
    """A Unix socket's path may not exceed ~107 bytes: a longer one is reached from its
    folder by its bare name (the caller is single-threaded there)."""
    if len(os.fsencode(path)) < 100:
        return path, None
    folder, name = os.path.split(path)
    return name, folder


def _in(folder: str | None, act: Any, name: str) -> None:
    if folder is None:
        act(name)
        return
    here = os.open(".", os.O_RDONLY | os.O_CLOEXEC)  # back by descriptor, not by path
    try:
        os.chdir(folder)
        try:
            act(name)
        finally:
            os.fchdir(here)
    finally:
        os.close(here)


def connect(path: str, timeout: float | None = None) -> Any:
    import _socket  # the C module: `socket` itself imports enum, selectors and more

    conn = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        conn.settimeout(timeout)
        name, folder = _address(path)
        _in(folder, conn.connect, name)
    except BaseException:
        conn.close()
        raise
    return conn


def bind(server: Any, path: str) -> None:
    """Bind a listening socket at `path`, its file readable and writable by the user alone."""
    name, folder = _address(path)
    old = os.umask(0o177)
    try:
        _in(folder, server.bind, name)
    finally:
        os.umask(old)


def send(conn: Any, kind: int, data: bytes) -> None:
    conn.sendall(_HEADER.pack(kind, len(data)) + data)


def send_value(conn: Any, kind: int, value: Any) -> None:
    send(conn, kind, marshal.dumps(value, _MARSHAL))


def value_of(data: bytes) -> dict[str, Any] | None:
    """A request or reply: a dict with string keys, or None for anything else."""
    try:
        value = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    if type(value) is not dict or not all(type(k) is str for k in value):
        return None
    return value


def receive(conn: Any) -> tuple[int, bytes] | None:
    """The next frame, or None when the other side closed the connection between frames."""
    header = _exactly(conn, _HEADER.size)
    if header is None:
        return None
    kind, size = _HEADER.unpack(header)
    data = _exactly(conn, size)
    if data is None:
        raise ConnectionError("the connection closed inside a frame")
    return kind, data


def _exactly(conn: Any, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = conn.recv(min(left, 1 << 20))
        if not chunk:
            if left == size:
                return None
            raise ConnectionError("the connection closed inside a frame")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
