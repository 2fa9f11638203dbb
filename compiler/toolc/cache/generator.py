"""toolc's own fingerprint (its code and templates, hashed: `uptodate.generator_fingerprint`)
remembered under the files' signatures (size, mtime in ns, inode) in the user's cache
directory, as the output files' signatures are (filestats): a no-op build then stats the
~250 files instead of reading and hashing them (about 9 ms of a 0.1 s no-op, measured). A
changed, added or removed file changes the signatures, and the fingerprint is hashed again.
The record is authenticated with the user's cache key and refused when it is not the
user's own. Standard library and orjson only: the no-op check runs it first."""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable, Sequence

import orjson

from toolc.cache.dirs import cache_root
from toolc.cache.key import record_mac
from toolc.workspace.files import save_cache_bytes
from toolc.workspace.private import refusal


def remembered(files: Sequence[tuple[str, str]], compute: Callable[[], bytes]) -> bytes:
    """`compute()`, the fingerprint of `files` (`(name, path)` pairs), or what it gave
    before for files with these same signatures."""
    root = cache_root()
    if root is None:
        return compute()
    stats = []
    for name, path in files:
        st = os.stat(path)
        stats.append((name, st.st_size, st.st_mtime_ns, st.st_ino))
    signatures = hashlib.sha256(orjson.dumps(stats)).hexdigest()
    record = root / f"generator-{signatures[:32]}.json"
    if refusal(record) is None:
        try:
            meta = orjson.loads(record.read_bytes())
            fingerprint = bytes.fromhex(meta["fingerprint"])
            if hmac.compare_digest(str(meta["mac"]), record_mac(signatures, fingerprint)):
                return fingerprint
        except (OSError, ValueError, KeyError, TypeError):
            pass  # no record yet, or not one this user made: hash the files
    fingerprint = compute()
    body = {"fingerprint": fingerprint.hex(), "mac": record_mac(signatures, fingerprint)}
    save_cache_bytes(record, orjson.dumps(body))  # never raises: a cache costs only time
    return fingerprint
