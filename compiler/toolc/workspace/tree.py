"""Listing an output directory: every file (symlinks included, never followed) and every
folder, as relative POSIX paths, `__pycache__` left out."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path


def tree(out_dir: Path) -> tuple[list[str], list[str]]:
    """os.walk on strings: pathlib's rglob cost 0.14 s here for the 4,000 files of a 1,000-tool
    package."""
    files: list[str] = []
    folders: list[str] = []
    root = str(out_dir)
    for here, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(here, root).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        links = [d for d in dirs if os.path.islink(os.path.join(here, d))]
        dirs[:] = [d for d in dirs if d not in links]
        folders += [prefix + d for d in dirs]
        files += [prefix + n for n in names] + [prefix + d for d in links]
    return sorted(files), sorted(folders)


def folders_of(files: Iterable[str]) -> set[str]:
    """Every folder the relative paths `files` are in, with their parents."""
    found: set[str] = set()
    for rel in files:
        folder = rel.rpartition("/")[0]
        while folder and folder not in found:
            found.add(folder)
            folder = folder.rpartition("/")[0]
    return found


def empty_folder(folder: Path) -> None:
    """Delete everything in `folder` (gone or unreadable: nothing to do)."""
    try:
        entries = sorted(os.listdir(folder))
    except OSError:
        return
    for entry in entries:
        remove_tree(folder / entry)


def remove_tree(root: Path, last: str | None = None) -> None:
    """Delete `root` bottom-up, the file `last` (relative) after every other one: a build
    killed while deleting an old output leaves that file (its manifest) until the end, so the
    next build still knows which of the remaining files were toolc's."""
    top = str(root)
    keep = os.path.join(top, last) if last else None
    for here, dirs, names in os.walk(top, topdown=False):
        for name in names:
            path = os.path.join(here, name)
            if path != keep:
                _quietly(os.unlink, path)
        for name in dirs:
            path = os.path.join(here, name)
            _quietly(os.unlink if os.path.islink(path) else os.rmdir, path)
    if keep is not None:
        _quietly(os.unlink, keep)
    _quietly(os.rmdir, top)


def _quietly(remove: Callable[[str], None], path: str) -> None:
    with contextlib.suppress(OSError):
        remove(path)
