"""The only layer that writes to disk: the generated package, the reference docs and the snapshot
(committing.py, one build at a time under a lock beside the output, repairing what a killed
build left), the user's config when asked (`toolc bump --write`), new files that are never
overwritten (`toolc scaffold`), and the caches. Reading what it may overwrite is safe too:
regular files only, never through a planted link, never more than their size."""

from toolc.workspace.committing import (
    GENERATED_MARK,
    NotOwnedError,
    Tree,
    commit,
    commit_tree,
    finish_cleanup,
)
from toolc.workspace.compare import Drift, compare
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
