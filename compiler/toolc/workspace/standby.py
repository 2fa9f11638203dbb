"""Staging directories made ahead, for the build daemon (decision 0124). After a build's swap a
thread hard-links the new output's generated files into a directory in the daemon's private
folder, while the daemon answers and waits; the next build of that output stages into it,
replacing only the files that changed, instead of linking every unchanged file while the user
waits (4,000 links at 1,000 tools, a third of a one-tool edit).

A standby is only ever a head start: the build keeps a file from it only while the output
still has that very file as its last build left it (`staging._reuse`), and stages everything
else as without it. It is used only while the output's manifest is the file it was made from,
and made only where what is made in it is what would be made beside the output (`_like_beside`:
the same disk and mount, no default ACL, setgid group or other SELinux label passed on).
Outside the daemon nothing here runs."""

from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path

import msgspec

from toolc.workspace.files import Signature, signature
from toolc.workspace.manifest import MANIFEST, Manifest
from toolc.workspace.private import make_private_dir
from toolc.workspace.tree import empty_folder, folders_of, remove_tree

_KEPT = 4  # outputs with a standby at once (a daemon serving several projects)


class Standby(msgspec.Struct, frozen=True):
    root: Path  # the output it was made from
    staging: Path  # the new directory, holding links to the output's generated files
    files: frozenset[str]  # what was linked
    folders: tuple[str, ...]  # what was made for them


_folder: Path | None = None
_wanted: list[Path] = []  # outputs swapped in by the command running now
_lock = threading.Lock()
_making: dict[Path, threading.Thread] = {}
_ready: dict[Path, tuple[Standby, Signature]] = {}  # oldest first; the manifest it was made from


def enable(folder: Path) -> None:
    """Make standbys in `folder` (private, on the daemon's side), after removing what a daemon
    killed earlier left there."""
    global _folder
    make_private_dir(folder)
    empty_folder(folder)
    _folder = folder


def want(root: Path) -> None:
    """The output `root` was just swapped in: make a standby of it once the command is over."""
    root = Path(os.path.abspath(root))  # the thread runs after the command, in another folder
    if _folder is not None and root not in _wanted:
        _wanted.append(root)


def start() -> None:
    """Start making the standbys the command wanted, in the background: the daemon calls it
    once it has answered (made beside the command, they would slow it down)."""
    while _folder is not None and _wanted:
        root = _wanted.pop(0)
        _discard(take(root))  # an older one is of no use any more
        maker = threading.Thread(target=_make, args=(_folder, root), daemon=True)
        with _lock:
            _making[root] = maker
        maker.start()


def take(root: Path) -> Standby | None:
    """The standby of `root`, waiting for it if it is being made; None when there is none, or
    the output's manifest changed since (another build replaced the output)."""
    if _folder is None:
        return None
    root = Path(os.path.abspath(root))
    with _lock:
        maker = _making.pop(root, None)
    if maker is not None:
        maker.join()
    with _lock:
        found = _ready.pop(root, None)
    if found is None:
        return None
    ready, made_from = found
    try:
        still = signature(root / MANIFEST) == made_from
    except OSError:
        still = False
    if still and os.path.isdir(ready.staging):
        return ready
    _discard(ready)
    return None


def wait() -> None:
    """Until the standbys being made are made."""
    with _lock:
        makers = list(_making.values())
    for maker in makers:
        maker.join()


def discard_all() -> None:
    """Every standby removed (the daemon stops)."""
    _wanted.clear()
    wait()
    with _lock:
        _making.clear()
        ready = [standby for standby, _ in _ready.values()]
        _ready.clear()
    for standby in ready:
        _discard(standby)


def _like_beside(folder: Path, parent: Path) -> bool:
    """Whether what is made in `folder` is what would be made in `parent`, the output's own
    folder, where a build alone stages: the same disk (a rename into place), and nothing
    that `parent` passes on to what is made in it: a default ACL, the setgid bit's group,
    another SELinux label."""
    try:
        here, there = os.stat(folder), os.stat(parent)
    except OSError:
        return False
    if here.st_dev != there.st_dev or there.st_mode & stat.S_ISGID:
        return False
    return _xattrs(parent) == _xattrs(folder)


def _xattrs(path: Path) -> tuple[bytes | None, bytes | None]:
    """A folder's default ACL and SELinux label (None: none, or not supported there)."""
    found: list[bytes | None] = []
    for name in ("system.posix_acl_default", "security.selinux"):
        try:
            found.append(os.getxattr(path, name))
        except OSError:
            found.append(None)
    return found[0], found[1]


def _discard(ready: Standby | None) -> None:
    if ready is not None:
        remove_tree(ready.staging)


def _make(folder: Path, root: Path) -> None:
    staging: Path | None = None
    try:
        made_from = signature(root / MANIFEST)
        manifest = Manifest.read(root)
        if manifest is None or not manifest.files or not _like_beside(folder, root.parent):
            return
        import tempfile

        # 0700 until a build takes it, whatever the umask of the command running meanwhile
        # (the build gives every folder its mode then).
        staging = Path(tempfile.mkdtemp(prefix=f"{root.name}.", dir=folder))
        old, new = str(root) + os.sep, str(staging) + os.sep
        folders = tuple(sorted(folders_of(manifest.files)))  # parents first
        for rel in folders:
            os.mkdir(new + rel)
            os.chmod(new + rel, 0o700)
        linked = []
        for rel in manifest.files:
            try:
                os.link(old + rel, new + rel, follow_symlinks=False)
            except OSError as exc:
                if exc.errno == errno.EXDEV:
                    raise  # another mount of the same disk: no rename into place either
                continue  # a file the user removed: the build writes it
            linked.append(rel)
        if not linked or signature(root / MANIFEST) != made_from:
            raise OSError("nothing linked, or the output was replaced meanwhile")
        ready = Standby(root, staging, frozenset(linked), folders)
    except OSError:
        if staging is not None:
            remove_tree(staging)
        return
    with _lock:
        _ready[root] = (ready, made_from)
        evicted = [_ready.pop(key)[0] for key in list(_ready)[: max(0, len(_ready) - _KEPT)]]
    for old_one in evicted:
        _discard(old_one)
