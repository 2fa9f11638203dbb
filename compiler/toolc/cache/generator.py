"""toolc's own fingerprint (its code and templates, hashed: `uptodate.generator_fingerprint`)
remembered under the files' signatures (size, mtime in ns, inode) in the user's cache
directory, as the output files' signatures are (filestats): a no-op build then stats the
~250 files instead of reading and hashing them (about 9 ms of a 0.1 s no-op, measured). A
changed, added or removed file changes the signatures, and the fingerprint is hashed again.
The record is authenticated with the user's cache key and refused when it is not the
user's own. Standard library only: the no-op check runs it first."""

from __future__ import annotations

import hashlib
import hmac
import marshal
import os

from toolc.cache.dirs import cache_folder
from toolc.cache.key import record_mac
from toolc.workspace.private import refusal

TYPE_CHECKING = False  # not typing's: see workspace.files
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


def remembered(files: Sequence[tuple[str, str]], compute: Callable[[], bytes]) -> bytes:
    """`compute()`, the fingerprint of `files` (`(name, path)` pairs), or what it gave
    before for files with these same signatures."""
    root = cache_folder()
    if root is None:
        return compute()
    stats = []
    for name, path in files:
        st = os.stat(path)
        stats.append((name, st.st_size, st.st_mtime_ns, st.st_ino))
    # marshal's version 2: no back-references, so equal lists give equal bytes (filestats.pack)
    signatures = hashlib.sha256(marshal.dumps(stats, 2)).hexdigest()
    record = os.path.join(root, f"generator-{signatures[:32]}.fingerprint")
    if refusal(record) is None:
        try:
            with open(record, "rb") as stream:
                mac, _, fingerprint = stream.read().partition(b"\n")
            if hmac.compare_digest(mac, record_mac(signatures, fingerprint).encode()):
                return fingerprint
        except OSError:
            pass  # no record yet, or not one this user made: hash the files
    fingerprint = compute()
    from pathlib import Path  # a new record: the no-op check's fast path never gets here

    from toolc.workspace.files import save_cache_bytes

    body = record_mac(signatures, fingerprint).encode() + b"\n" + fingerprint
    save_cache_bytes(Path(record), body)  # never raises: a cache costs only time
    return fingerprint
