"""The user's cache key and the MAC of the small cache records (filestats, cache.generator,
cache.noop_ticket). Apart from the codec: the no-op check authenticates its records with it
and does not need the codec's import (about 3 ms of a 0.1 s no-op, measured)."""

from __future__ import annotations

import hashlib
import hmac
import os

from toolc.workspace.private import create_private


def _config_dir() -> str:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "toolc")


def cache_key() -> bytes:
    """The key caches are authenticated with: `TOOLC_CACHE_KEY`, else the user's key file
    (made on first use, readable by the user alone)."""
    given = os.environ.get("TOOLC_CACHE_KEY")
    if given:
        return hashlib.sha256(b"toolc-cache-key\0" + given.encode()).digest()
    path = os.path.join(_config_dir(), "cache.key")
    try:
        with open(path, "rb") as stream:
            data = stream.read()
        if len(data) >= 32 and (os.stat(path).st_mode & 0o077) == 0:
            return data[:32]
    except OSError:
        pass
    key = os.urandom(32)  # what secrets.token_bytes does, without importing random
    create_private(path, key)
    return key


def record_mac(label: str, body: bytes) -> str:
    """The MAC of a small cache record (filestats, cache.generator, the no-op tickets):
    `body` under the `label` it is only valid for, with the user's cache key."""
    return hmac.new(cache_key(), label.encode() + b"\0" + body, hashlib.sha256).hexdigest()
