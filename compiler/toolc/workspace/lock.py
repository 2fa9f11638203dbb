"""One build at a time per output: a lock file beside the output directory (never inside it,
so it never appears among the generated files), held from the first change on disk until the
old output is gone. A second build waits, saying so, up to a timeout (`TOOLC_LOCK_TIMEOUT`,
seconds, default 120), then gives up naming the lock. The file is removed on release; a holder
checks after locking that the path still names the file it locked (the classic unlink race)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path


class LockTimeout(Exception):
    """Another build of the same output held its lock for longer than the timeout."""

    def __init__(self, path: Path, waited: float) -> None:
        super().__init__(f"{path} held by another toolc build for {waited:.0f} s")
        self.path = path
        self.waited = waited


LOCK = ".toolc-lock"  # `.<output>.toolc-lock`, beside the output


def lock_path(out_dir: Path) -> Path:
    return out_dir.parent / f".{out_dir.name}{LOCK}"


def _timeout() -> float:
    try:
        return max(0.0, float(os.environ.get("TOOLC_LOCK_TIMEOUT", "120")))
    except ValueError:
        return 120.0


class OutputLock:
    def __init__(self, out_dir: Path, notify: Callable[[str], None] | None = None) -> None:
        self.path = lock_path(out_dir)
        self.out_dir = out_dir
        self.notify = notify
        self._fd: int | None = None

    def acquire(self) -> None:
        deadline = time.monotonic() + _timeout()
        told = False
        while True:
            try:
                fd = os.open(
                    self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644
                )
            except FileNotFoundError:
                # A build that failed removed the folder it made for the lock while this one
                # waited (committing._commit): make it again and take the lock there.
                self.path.parent.mkdir(parents=True, exist_ok=True)
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if not told and self.notify is not None:
                    self.notify(
                        f"waiting for another toolc build of {self.out_dir} (lock {self.path})"
                    )
                    told = True
                if time.monotonic() >= deadline:
                    raise LockTimeout(self.path, _timeout()) from None
                time.sleep(0.05)
                continue
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self._fd = fd
                return
            os.close(fd)  # the holder before us removed the file: lock the new one

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


class OutputLockHeld:
    """`with OutputLockHeld(out_dir):` holds the output's lock (for tests and tools that must
    keep builds out for a while)."""

    def __init__(self, out_dir: Path) -> None:
        self.lock = OutputLock(out_dir)

    def __enter__(self) -> OutputLock:
        self.lock.acquire()
        return self.lock

    def __exit__(self, *exc: object) -> None:
        self.lock.release()
