"""The only layer that writes to disk: the generated package, the reference docs and the snapshot
(committing.py, one build at a time under a lock beside the output, repairing what a killed
build left; for the build daemon, the next build's staging directory is made ahead:
standby.py), the user's config when asked (`toolc bump --write`), new files that are never
overwritten (`toolc scaffold`), and the caches. Reading what it may overwrite is safe too:
regular files only, never through a planted link, never more than their size.
Its parts load on first use (PEP 562): the no-op check needs only the manifest and the file
reading, not the staging and committing machinery (about 3.5 ms of a no-op's import,
measured)."""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # not typing's: its import costs the no-op build's fast path ~9 ms
if TYPE_CHECKING:
    from toolc.workspace.committing import (
        GENERATED_MARK,
        NotOwnedError,
        Tree,
        commit,
        commit_tree,
        finish_cleanup,
    )
    from toolc.workspace.comparing import Drift, compare
    from toolc.workspace.files import (
        Signature,
        create_new,
        drop_dead_temps,
        materialize,
        read_regular,
        replace_file,
        save_cache,
        save_cache_bytes,
        signature,
        signatures,
    )
    from toolc.workspace.lock import LockTimeout, OutputLockHeld, lock_path
    from toolc.workspace.manifest import MANIFEST, Manifest, digest

_HOME = {
    "Drift": "comparing",
    "compare": "comparing",
    "GENERATED_MARK": "committing",
    "LockTimeout": "lock",
    "MANIFEST": "manifest",
    "Manifest": "manifest",
    "NotOwnedError": "committing",
    "OutputLockHeld": "lock",
    "Signature": "files",
    "Tree": "committing",
    "commit": "committing",
    "commit_tree": "committing",
    "create_new": "files",
    "digest": "manifest",
    "drop_dead_temps": "files",
    "finish_cleanup": "committing",
    "lock_path": "lock",
    "materialize": "files",
    "read_regular": "files",
    "replace_file": "files",
    "save_cache": "files",
    "save_cache_bytes": "files",
    "signature": "files",
    "signatures": "files",
}


def __getattr__(name: str) -> object:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # once: later lookups find it without this function
    return value


__all__ = [
    "GENERATED_MARK",
    "MANIFEST",
    "Drift",
    "LockTimeout",
    "Manifest",
    "NotOwnedError",
    "OutputLockHeld",
    "Signature",
    "Tree",
    "commit",
    "commit_tree",
    "compare",
    "create_new",
    "digest",
    "drop_dead_temps",
    "finish_cleanup",
    "lock_path",
    "materialize",
    "read_regular",
    "replace_file",
    "save_cache",
    "save_cache_bytes",
    "signature",
    "signatures",
]
