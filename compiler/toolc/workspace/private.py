"""The user's private files: the caches and their key, and the build daemon's socket, lock and
log. A cache file may be used only when it
and its directory belong to the user running toolc and are writable by nobody else (a cache
another user can plant or edit is not the user's own), and the file is a regular file. A shared
CI cache passes as long as it is restored as the user's own; its contents are then
authenticated (cache.codec)."""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # see workspace.files: the no-op build's fast path imports this first
if TYPE_CHECKING:
    from pathlib import Path


def refusal(path: str | Path) -> str | None:
    """Why the cache at `path` cannot be trusted, or None. A missing file is no reason
    (there is simply no cache yet); the caller tells the two apart with `exists`."""
    uid = os.getuid()
    path = os.fspath(path)
    for where, follow in ((os.path.dirname(path) or ".", True), (path, False)):
        try:
            st = os.stat(where) if follow else os.lstat(where)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"{where} cannot be examined ({exc.strerror})"
        if where is path and not stat.S_ISREG(st.st_mode):
            return f"{where} is not a regular file"
        if st.st_uid != uid:
            return f"{where} belongs to another user"
        if st.st_mode & 0o022:
            return f"{where} can be written by other users (`chmod go-w {where}`)"
    return None


def make_private_dir(folder: str | Path) -> None:
    """The cache directory, made readable and writable by the user alone when toolc makes it."""
    if not os.path.exists(folder):
        os.makedirs(folder, exist_ok=True)
        os.chmod(folder, 0o700)


def create_private(path: str | Path, data: bytes) -> None:
    """A new file readable by the user alone (the cache key), in a folder made 0700; never
    through a link planted at `path`."""
    make_private_dir(os.path.dirname(os.fspath(path)) or ".")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as stream:
        os.fchmod(stream.fileno(), 0o600)
        stream.write(data)


def open_private_log(path: str) -> int:
    """The build daemon's log, appended to, readable by the user alone."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)


def hold_private_lock(path: str, wait: bool = False, shared: bool = False) -> int | None:
    """A lock on `path` (made 0600), held until `release_lock` or the process ends; None when
    another process holds it and `wait` is off (a second build daemon of the same toolc)."""
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    try:
        fcntl.flock(fd, mode if wait else mode | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def release_lock(fd: int) -> None:
    os.close(fd)  # closing the only descriptor releases the flock


def lock_is_held(path: str) -> bool:
    """Whether a process holds the lock on `path` (a daemon running, for `toolc daemon`)."""
    try:
        fd = hold_private_lock(path)
    except OSError:  # no folder, or no file that can be made there: no daemon either
        return False
    if fd is None:
        return True
    release_lock(fd)
    return False


def remove_socket(path: str) -> None:
    """A Unix socket's file (the build daemon's), gone or not."""
    try:
        if stat.S_ISSOCK(os.lstat(path).st_mode):
            os.unlink(path)
    except OSError:
        pass
