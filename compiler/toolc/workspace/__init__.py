"""The only layer that writes to disk: the generated package, the reference docs and the snapshot
(committing.py, one build at a time under a lock beside the output, repairing what a killed
build left), the user's config when asked (`toolc bump --write`), new files that are never
overwritten (`toolc scaffold`), and the caches. Reading what it may overwrite is safe too:
regular files only, never through a planted link, never more than their size.

Its names load on first use (PEP 562): the no-op build reads a manifest and a few signatures,
and should not pay for the commit, the lock and the comparison it does not run."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolc.workspace.committing import (
        GENERATED_MARK,
        NotOwnedError,
        Tree,
        commit,
        commit_tree,
        finish_cleanup,
    )
    from toolc.workspace.compare import Drift
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
    "GENERATED_MARK": "committing",
    "NotOwnedError": "committing",
    "Tree": "committing",
    "commit": "committing",
    "commit_tree": "committing",
    "finish_cleanup": "committing",
    "Drift": "compare",
    "Signature": "files",
    "create_new": "files",
    "drop_dead_temps": "files",
    "materialize": "files",
    "read_regular": "files",
    "replace_file": "files",
    "save_cache": "files",
    "save_cache_bytes": "files",
    "signature": "files",
    "signatures": "files",
    "LockTimeout": "lock",
    "OutputLockHeld": "lock",
    "lock_path": "lock",
    "MANIFEST": "manifest",
    "Manifest": "manifest",
    "digest": "manifest",
}


# `compare` is left out: the function would be shadowed by its module of the same name
# once that is imported (call `toolc.workspace.compare.compare`).
def __getattr__(name: str) -> object:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"{__name__}.{home}")
    globals().update({n: getattr(module, n) for n, h in _HOME.items() if h == home})
    return globals()[name]


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
