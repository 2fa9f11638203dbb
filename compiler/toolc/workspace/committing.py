"""Replacing the output directory, the reference docs beside it and the snapshot as one step.

Each directory is staged beside itself (`staging.stage`), then all are swapped in with two
renames each and the snapshot replaced last; any failure before or during the swap puts every
one back byte-identical. toolc never deletes or overwrites a file it did not write: the user's
files inside a directory are carried into the new one (hard-linked), files written there while
the build ran are moved across after the swap, and an old file is deleted only if it is still
the file its manifest says toolc wrote. Builds of one output are serialized by a lock beside
it; a build killed at any point is repaired by the next one (`recover`)."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

import toolc.workspace.standby as standby
from toolc.workspace.files import Signature, temp_dir, temp_file
from toolc.workspace.lock import OutputLock
from toolc.workspace.manifest import MANIFEST, Manifest
from toolc.workspace.private import make_private_dir
from toolc.workspace.recovery import BACKUP, STAGING, move_late_files, recover, recover_tree
from toolc.workspace.staging import GENERATED_MARK, NotOwnedError, Staged, Tree, stage
from toolc.workspace.tree import empty_folder, remove_tree

__all__ = [
    "GENERATED_MARK",
    "NotOwnedError",
    "Tree",
    "commit",
    "commit_tree",
    "defer_deletions",
    "empty_trash",
    "finish_cleanup",
    "prepare_ahead",
    "remove_leftovers",
    "start_preparing",
    "stop_preparing",
    "trash_waiting",
]

Notify = Callable[[str], None]


def commit(
    out_dir: Path,
    files: dict[str, bytes],
    manifest: Manifest,
    snapshot_path: Path,
    snapshot: bytes,
    known: Mapping[str, Signature] | None = None,
    notify: Notify | None = None,
    beside: tuple[Tree, ...] = (),
) -> list[str]:
    """Replace the output directory with `files` (plus the manifest), the directories `beside`
    it (the reference docs) and the snapshot, as one. `known`: the files' signatures after the
    last build (from the build cache). Returns the output's files whose signature is not in
    `known` any more (written, or linked after a read)."""
    trees = (Tree(out_dir, files, manifest, known), *beside)
    return _commit(trees, (snapshot_path, snapshot), notify)


def commit_tree(target: Tree, notify: Notify | None = None) -> None:
    """Replace one directory toolc owns files in (`toolc docs`), under its own lock."""
    _commit((target,), None, notify)


def _commit(
    trees: tuple[Tree, ...], snapshot: tuple[Path, bytes] | None, notify: Notify | None
) -> list[str]:
    # Each directory's own lock, always in the order output then docs: a `toolc docs` run
    # (the docs' lock alone) and a build writing the same docs exclude each other.
    locks: list[OutputLock] = []
    made: list[Path] = []  # folders made for the locks, removed again when nothing is written
    try:
        for target in trees:
            made += _missing_folders(target.root.parent)
            target.root.parent.mkdir(parents=True, exist_ok=True)
            locks.append(OutputLock(target.root, notify))
            locks[-1].acquire()
        if snapshot is not None:
            recover(trees[0].root, snapshot[0], notify)
        for target in trees[snapshot is not None :]:
            recover_tree(target.root, notify)
        staged = _stage_all(trees)
        backups = _swap(staged, snapshot)
    except BaseException:
        _release(locks)
        for folder in reversed(made):  # "writes nothing unless everything succeeds"
            with contextlib.suppress(OSError):  # not empty: another build's lock, say
                folder.rmdir()
        raise
    for done in staged:  # the build daemon's head start on the next build (else nothing)
        standby.want(done.root)
    # The old directories are deleted in the background while the caller saves the build
    # cache (4,000 unlinks at 1,000 tools); the locks are held until they are gone, and
    # `finish_cleanup` waits for them before the process ends.
    cleanup = threading.Thread(target=_finish, args=(staged, backups, locks, notify), daemon=False)
    cleanup.start()
    _CLEANUPS.append(cleanup)
    return staged[0].unverified


def _missing_folders(folder: Path) -> list[Path]:
    """`folder` and its ancestors that do not exist yet, outermost first."""
    missing: list[Path] = []
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    return missing[::-1]


def _stage_all(trees: tuple[Tree, ...]) -> list[Staged]:
    staged: list[Staged] = []
    try:
        for target in trees:
            ready = standby.take(target.root)
            try:
                staged.append(stage(target, ready))
            except BaseException:
                if ready is not None:  # refused before staging into it
                    remove_tree(ready.staging)
                raise
    except BaseException:
        for done in staged:
            remove_tree(done.staging)
        raise
    return staged


def _swap(staged: list[Staged], snapshot: tuple[Path, bytes] | None) -> list[Path | None]:
    try:
        if snapshot is None:
            return _rename_in(staged, None, None)
        path, data = snapshot
        with temp_file(path.parent, f".{path.name}{STAGING}", "") as (stream, snapshot_tmp):
            stream.write(data)
            stream.close()
            return _rename_in(staged, snapshot_tmp, path)
    except BaseException:
        for done in staged:
            remove_tree(done.staging)
        raise


def _rename_in(
    staged: list[Staged], snapshot_tmp: Path | None, snapshot_path: Path | None
) -> list[Path | None]:
    """Two renames per directory, then the snapshot's replacement; on failure, every old
    directory back, in the reverse order."""
    backups: list[Path | None] = []
    swapped = 0
    try:
        for done in staged:
            backup = None
            if done.root.exists():
                backup = temp_dir(done.root.parent, f".{done.root.name}{BACKUP}")
            backups.append(backup)
            if backup is not None:
                os.rename(done.root, backup)  # onto the empty directory just made for it
            os.rename(done.staging, done.root)
            swapped += 1
        if snapshot_tmp is not None and snapshot_path is not None:
            os.replace(snapshot_tmp, snapshot_path)
    except BaseException:
        for index in reversed(range(len(backups))):
            done, backup = staged[index], backups[index]
            if index < swapped:
                os.rename(done.root, done.staging)
            if backup is not None and not done.root.exists():
                os.rename(backup, done.root)
        raise
    return backups


def _release(locks: list[OutputLock]) -> None:
    for lock in reversed(locks):
        lock.release()


def _finish(
    staged: list[Staged],
    backups: list[Path | None],
    locks: list[OutputLock],
    notify: Notify | None,
) -> None:
    try:
        doomed = [
            backup
            for done, backup in zip(staged, backups, strict=True)
            if backup is not None and _emptied(done, backup, notify)
        ]
        for backup in doomed:
            if not _to_trash(backup):
                remove_tree(backup, last=MANIFEST)
    finally:
        _release(locks)


def _to_trash(backup: Path) -> bool:
    """Move an old output out of the project in one rename, into the build daemon's trash
    (deleted when it is idle); False when there is no trash, or it is on another disk."""
    if _trash is None:
        return False
    global _trashed
    _trashed += 1
    try:
        os.rename(backup, _trash / f"{os.getpid()}-{_trashed}-{backup.name}")
    except OSError:
        return False
    return True


def _emptied(done: Staged, backup: Path, notify: Notify | None) -> bool:
    """Whether the old directory holds only what the swap left (to be deleted): files
    written there during the build are moved into the new one, or the old one is kept."""
    try:
        stranded = move_late_files(backup, done.root, done.owned, done.carried)
    except OSError as exc:  # the new directory stands; the old one is kept for the user
        stranded = [f"({exc})"]
    if stranded:
        if notify is not None:
            notify(f"kept {backup}: files written there during the build: {stranded}")
        return False
    return True


_CLEANUPS: list[threading.Thread] = []
_trash: Path | None = None
_trashed = 0


def defer_deletions(trash: Path) -> None:
    """For the build daemon: old outputs are moved into `trash` (a private folder on the
    same disk, made here) in one rename each, instead of being deleted file by file before
    the command returns; `empty_trash` deletes them when the daemon is idle. What a build
    reports about an old output (files written there during the build) is said before."""
    global _trash
    make_private_dir(trash)
    _trash = trash
    empty_trash()  # what a daemon killed earlier left


def prepare_ahead(folder: Path) -> None:
    """For the build daemon: after each swap, the next build's staging directory is made
    ahead in `folder` (`standby`), while the daemon answers and waits."""
    standby.enable(folder)


def start_preparing() -> None:
    """Make the staging directories the last command will want next (the daemon has answered
    it)."""
    standby.start()


def stop_preparing() -> None:
    """The staging directories made ahead, removed (the daemon stops)."""
    standby.discard_all()


def remove_leftovers(folders: list[Path]) -> None:
    """Trash and standby folders of build daemons that no longer run."""
    for folder in folders:
        remove_tree(folder)


def trash_waiting() -> bool:
    try:
        return _trash is not None and bool(os.listdir(_trash))
    except OSError:
        return False


def empty_trash() -> None:
    if _trash is not None:
        empty_folder(_trash)


def finish_cleanup() -> None:
    """Wait for the old outputs being deleted (or moved to the trash) in the background."""
    while _CLEANUPS:
        _CLEANUPS.pop().join()
