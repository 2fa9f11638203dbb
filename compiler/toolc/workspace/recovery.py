"""Repairing what a killed build left, before the next one changes anything (under the
output's lock): staging directories are deleted; an old output renamed away is put back when
the output itself is missing (the build died between its two renames), else the user's files
still in it are moved into the output and it is deleted; temporary snapshots are removed."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from toolc.workspace.files import SCRATCH, read_regular
from toolc.workspace.lock import LOCK
from toolc.workspace.manifest import MANIFEST, Manifest
from toolc.workspace.tree import remove_tree, tree

STAGING = SCRATCH  # `.<output>.toolc-new-XXXX`: a build's staging directory
BACKUP = ".toolc-old-"  # `.<output>.toolc-old-XXXX`: the output a build replaced


def _directories(parent: Path, prefix: str) -> list[Path]:
    found = []
    for name in os.listdir(parent):
        if name.startswith(prefix):
            path = parent / name
            try:
                if stat.S_ISDIR(os.lstat(path).st_mode):
                    found.append(path)
            except OSError:
                continue
    return sorted(found, key=lambda p: (p.stat().st_mtime_ns, p.name))


def stands_for(path: Path) -> Path:
    """The path a scratch one of toolc's stands for, in each part: `.snap.json.toolc-new-x1y2`
    is `snap.json`, a staging folder `.mcp_tools.toolc-new-ab12/x.py` is `mcp_tools/x.py`, the
    lock `.mcp_tools.toolc-lock` is `mcp_tools`: what a message about it should name."""
    parts = []
    for part in path.parts:
        if part.startswith(".") and STAGING in part:
            part = part[1:].rsplit(STAGING, 1)[0]
        elif part.startswith(".") and part.endswith(LOCK):
            part = part[1 : -len(LOCK)]
        parts.append(part)
    return Path(*parts)


def old_outputs(out_dir: Path) -> list[Path]:
    """The outputs interrupted builds renamed away beside `out_dir`, newest first: until the
    next build recovers them, the last build's contract documents may be there."""
    parent = out_dir.parent
    try:
        return _directories(parent, f".{out_dir.name}{BACKUP}")[::-1]
    except OSError:
        return []


def recover(out_dir: Path, snapshot_path: Path, notify: Callable[[str], None] | None) -> None:
    recover_tree(out_dir, notify)
    snapshot_prefix = f".{snapshot_path.name}{STAGING}"
    for entry in os.listdir(snapshot_path.parent) if snapshot_path.parent.is_dir() else ():
        if entry.startswith(snapshot_prefix):
            (snapshot_path.parent / entry).unlink(missing_ok=True)


def recover_tree(out_dir: Path, notify: Callable[[str], None] | None) -> None:
    """One directory toolc owns files in (the output, the reference docs)."""
    parent, name = out_dir.parent, out_dir.name
    if not parent.is_dir():
        return
    for staging in _directories(parent, f".{name}{STAGING}"):
        remove_tree(staging)
    backups = _directories(parent, f".{name}{BACKUP}")
    if backups and not os.path.lexists(out_dir):
        os.rename(backups.pop(), out_dir)  # the newest: the output before the killed build
        if notify is not None:
            notify(f"restored {out_dir} as it was before an interrupted build")
    for backup in backups:
        _merge(backup, out_dir, notify)


def move_late_files(backup: Path, out_dir: Path, owned: set[str], carried: set[str]) -> list[str]:
    """After the swap, the user's files in the old output win: a carried file is replaced by
    its old-output path (the same inode, or the version saved while the build ran), and files
    that appeared there after the listing are moved across. Returns those that could not be
    placed (a generated file holds their path), which stay in `backup`."""
    files, folders = tree(backup)
    stranded = []
    for rel in folders:
        try:
            (out_dir / rel).mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            continue  # a generated file took its path: a late file in it is stranded below
    for rel in files:
        if rel in owned:
            continue
        target = out_dir / rel
        if rel not in carried and os.path.lexists(target):
            if not _same(backup / rel, target):
                stranded.append(rel)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(backup / rel, target)
    return stranded


def _same(a: Path, b: Path) -> bool:
    """The same file, or regular files with the same bytes: moving one onto the other loses
    nothing."""
    try:
        if os.path.samefile(a, b):
            return True
    except OSError:
        return False
    left = read_regular(a)
    return left is not None and left == read_regular(b, len(left))


def _merge(backup: Path, out_dir: Path, notify: Callable[[str], None] | None) -> None:
    """The user's files of an old output left behind into the output, then the old output
    gone. Without its manifest nothing in it is known to be toolc's: only files the output
    lacks are moved, and the rest is left where it is."""
    manifest = Manifest.read(backup)
    files = tree(backup)[0]
    owned = set(manifest.files) | {MANIFEST} if manifest else set()
    users = {rel for rel in files if rel not in owned} if manifest else set()
    try:
        stranded = move_late_files(backup, out_dir, owned, users)
    except OSError as exc:
        stranded = [f"({exc})"]
    if stranded:
        if notify is not None:
            notify(f"kept {backup} (an interrupted build's old output): {stranded}")
        return
    remove_tree(backup, last=MANIFEST)
