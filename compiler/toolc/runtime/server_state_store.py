"""Where the 2026-07-28 confirmation's `request_state` nonces wait to be redeemed, and
where its signing key comes from (decision 0089): what several server processes behind
one load balancer share, so a question asked by one is answered on another without
sticky sessions. The key comes only at run time (`TOOLC_REQUEST_STATE_KEY`, or the
`create_server` argument), never from the project's configuration."""

from __future__ import annotations

import os
import sqlite3
import time
from collections import OrderedDict
from pathlib import Path
from typing import Protocol

KEY_ENV = "TOOLC_REQUEST_STATE_KEY"
_MIN_KEY_BYTES = 32


class SingleUseStore(Protocol):
    """Nonces issued and not yet redeemed. `redeem` must be atomic across every process
    sharing the store: of two redeeming the same nonce, exactly one gets True."""

    def add(self, nonce: str, expires: float) -> None: ...

    def redeem(self, nonce: str) -> bool: ...


class MemoryStore:
    """One process's store (the default), bounded: the oldest nonces go first."""

    def __init__(self, max_pending: int = 10_000) -> None:
        self._max_pending = max_pending
        self._pending: OrderedDict[str, float] = OrderedDict()

    def add(self, nonce: str, expires: float) -> None:
        now = time.time()
        while self._pending and (
            len(self._pending) >= self._max_pending
            or next(iter(self._pending.values())) <= now
        ):
            self._pending.popitem(last=False)
        self._pending[nonce] = expires

    def __len__(self) -> int:
        return len(self._pending)

    def redeem(self, nonce: str) -> bool:
        expires = self._pending.pop(nonce, None)
        return expires is not None and time.time() < expires


class FileStore:
    """A store in one SQLite file that every process on the host (or a shared disk with
    working POSIX locks) opens: a nonce is redeemed by deleting its row, which SQLite
    does atomically, so a replay on another process finds nothing. Expired rows are
    swept as new nonces are added."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        # Autocommit: each statement is its own transaction; wait out another writer.
        self._db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS pending "
            "(nonce TEXT PRIMARY KEY, expires REAL NOT NULL)"
        )

    def add(self, nonce: str, expires: float) -> None:
        self._db.execute("DELETE FROM pending WHERE expires <= ?", (time.time(),))
        self._db.execute("INSERT INTO pending VALUES (?, ?)", (nonce, expires))

    def redeem(self, nonce: str) -> bool:
        done = self._db.execute(
            "DELETE FROM pending WHERE nonce = ? AND expires > ?", (nonce, time.time())
        )
        return done.rowcount == 1

    def close(self) -> None:
        self._db.close()


def signing_key(key: bytes | str | None = None) -> bytes | None:
    """The shared signing key: `key`, else `TOOLC_REQUEST_STATE_KEY`, else None (a fresh
    per-process key). At least 32 bytes: a short key is refused, not stretched."""
    given = key if key is not None else os.environ.get(KEY_ENV) or None
    if given is None:
        return None
    raw = given.encode() if isinstance(given, str) else given
    if len(raw) < _MIN_KEY_BYTES:
        raise ValueError(
            f"the request_state signing key needs at least {_MIN_KEY_BYTES} bytes "
            f"(set {KEY_ENV} to a long random value)"
        )
    return raw
