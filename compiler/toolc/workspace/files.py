"""Reading and writing single files safely: regular files only (a planted symlink, FIFO or
device is never followed or read), temporary names created exclusively (never through a
link), every write whole or not at all."""

from __future__ import annotations

import contextlib
import os
import stat
from operator import attrgetter

from toolc.workspace.private import make_private_dir, refusal

# The mark of toolc's scratch names: `.<name>.toolc-new-XXXX`, a file or a build's staging
# folder on its way into place (`recovery` clears and maps them back).
SCRATCH = ".toolc-new-"

# Not typing's, and pathlib only where a Path is made: the no-op build's fast path reads
# files here before anything else is imported (both imports cost it ~9 ms, measured).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from pathlib import Path
    from typing import BinaryIO

Signature = tuple[int, int, int]  # size, mtime in ns, inode: a file as a build left it

_UMASK = os.umask(0)
os.umask(_UMASK)


def current_umask() -> int:
    return _UMASK


def set_umask(mask: int) -> int:
    """Change the process's umask, and the one new files and folders are given here (the
    build daemon runs each command with its client's); returns the one it replaces. Kept in
    step with the process's, not read back from it: reading it means setting it, which other
    threads creating files would see."""
    global _UMASK
    old, _UMASK = _UMASK, mask
    os.umask(mask)
    return old


# A stat result's signature. attrgetter, not a function: the no-op check maps it over every
# generated file in one C-level pass (cache.filestats).
signature_of: Callable[[os.stat_result], Signature] = attrgetter("st_size", "st_mtime_ns", "st_ino")


def signature(path: str | Path) -> Signature:
    return signature_of(os.stat(path))


def signatures(out_dir: Path, files: Iterable[str]) -> dict[str, Signature]:
    root = str(out_dir) + os.sep
    return {rel: signature(root + rel) for rel in files}


def read_regular(
    path: str | Path, size: int | None = None, *, limit: int | None = None, follow: bool = False
) -> bytes | None:
    """The bytes of `path` if it is a regular file (not followed through a symlink unless
    `follow`) and, when `size` is given, exactly that long (at most `limit` bytes when given);
    None otherwise. Never blocks on a FIFO, never reads more than it stats."""
    opened = open_regular(path, size, limit=limit, follow=follow)
    if opened is None:
        return None
    fd, length = opened
    with os.fdopen(fd, "rb") as stream:
        data = stream.read(length + 1)
    return data if len(data) == length else None


def open_regular(
    path: str | Path, size: int | None = None, *, limit: int | None = None, follow: bool = False
) -> tuple[int, int] | None:
    """`read_regular`'s file, opened: its descriptor (the caller closes it) and its size as
    stated, or None (nothing opened)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    st = os.fstat(fd)
    if (
        not stat.S_ISREG(st.st_mode)
        or (size is not None and st.st_size != size)
        or (limit is not None and st.st_size > limit)
    ):
        os.close(fd)
        return None
    return fd, st.st_size


def is_regular(path: str | Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def temp_dir(parent: Path, prefix: str) -> Path:
    """A new, empty directory in `parent`, made exclusively, with the umask's permissions."""
    import tempfile  # here, not above: its import costs the no-op build ~15 ms (measured)
    from pathlib import Path

    made = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    os.chmod(made, 0o777 & ~_UMASK)
    return made


@contextlib.contextmanager
def temp_file(parent: Path, prefix: str, suffix: str = ".tmp") -> Iterator[tuple[BinaryIO, Path]]:
    """A new file in `parent`, created exclusively (O_EXCL: never through a planted link),
    removed again unless the caller renamed it away."""
    import tempfile  # see temp_dir
    from pathlib import Path

    fd, name = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=parent)
    path = Path(name)
    try:
        os.chmod(fd, 0o666 & ~_UMASK)
        with os.fdopen(fd, "wb") as stream:
            yield stream, path
    finally:
        path.unlink(missing_ok=True)


def write_new(path: Path, data: bytes) -> None:
    """Write a file below a directory toolc just made (staging): no existing file to follow."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    with os.fdopen(fd, "wb") as stream:
        stream.write(data)


def replace_whole(path: Path, data: bytes, mode_of: Path | None = None) -> None:
    """Replace `path` with `data` in one step (the old bytes or the new, never a mix)."""
    with _staged(path, data, mode_of) as tmp:
        os.replace(tmp, path)


@contextlib.contextmanager
def _staged(path: Path, data: bytes, mode_of: Path | None = None) -> Iterator[Path]:
    """`data` in a new temporary beside `path` (`.<name>.toolc-new-XXXX`, which
    `recovery.stands_for` maps back), with the umask's permissions or `mode_of`'s; removed
    on the way out unless it was linked or renamed into place."""
    with temp_file(path.parent, f".{path.name}{SCRATCH}", "") as (stream, tmp):
        stream.write(data)
        stream.close()
        if mode_of is not None:
            os.chmod(tmp, stat.S_IMODE(os.stat(mode_of).st_mode))
        yield tmp


def save_cache(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Write a cache file whole or not at all, only where the user alone can write (made
    0700 when toolc makes it). A cache is an optimisation: a directory that cannot be written
    leaves the build as it is. Temporary files of killed builds (their pid gone) are removed
    on the way."""
    try:
        make_private_dir(path.parent)
        if refusal(path) is not None:
            return  # a directory other users can write: nothing of ours goes there
        _drop_stale_temps(path)
        with temp_file(path.parent, f".{path.name}.{os.getpid()}.") as (stream, tmp):
            write(stream)
            stream.close()
            os.replace(tmp, path)
    except Exception:  # the build is committed already: a cache not saved costs only time
        return


def save_cache_bytes(path: Path, data: bytes) -> None:
    """`save_cache` of bytes already made."""

    def write(stream: BinaryIO) -> None:
        stream.write(data)

    save_cache(path, write)


def _drop_stale_temps(path: Path) -> None:
    drop_dead_temps(path.parent, f".{path.name}.")


def drop_dead_temps(directory: str | Path, prefix: str) -> None:
    """Remove the cache temporaries (`<prefix>...<pid>.<random>.tmp`) of builds killed before
    they renamed them: their pid is gone. A no-op build calls it too (it saves nothing, and the
    build it follows may have been killed while saving)."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid = name.rsplit(".", 3)[1] if name.count(".") >= 3 else ""
        if pid.isdigit() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(directory, name))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def materialize(root: Path, files: Mapping[str, bytes]) -> None:
    """Write `files` under a fresh directory `root` (`toolc serve` runs a package from a
    temporary folder of its own)."""
    for rel, data in files.items():
        write_new(root / rel, data)


def create_new(path: Path, data: bytes) -> bool:
    """Write `path` only if it does not exist, whole or not at all. False: it exists."""
    return not create_all({path: data})


def create_all(
    new: Mapping[Path, bytes], replaced: Mapping[Path, bytes] | None = None
) -> list[Path]:
    """Create the files of `new` and rewrite those of `replaced` (permissions kept), all or
    none: the files of `new` that exist (nothing written), else []. Each goes to a temporary
    beside it first (a full disk strikes before any is in place), then is linked into place
    (never over anything), `replaced` renamed last. On a failure what this call made is
    removed, and the OSError names the file it was for."""
    replaced = replaced or {}
    there = [path for path in new if os.path.lexists(path)]
    if there:
        return there
    made: list[Path] = []
    placed: list[Path] = []
    done = False
    try:
        with contextlib.ExitStack() as temporaries:  # each removed once in place, or not
            staged: dict[Path, Path] = {}
            for path, data in (*new.items(), *replaced.items()):
                _make_folders(path.parent, made)
                mode_of = path if path in replaced else None
                try:
                    staged[path] = temporaries.enter_context(_staged(path, data, mode_of))
                except OSError as exc:
                    raise _about(exc, path) from exc
            for path in new:
                try:
                    os.link(staged[path], path)  # fails when `path` exists: no overwrite
                except FileExistsError:
                    return [path]  # appeared meanwhile: the user's; nothing of ours stays
                except OSError as exc:
                    raise _about(exc, path) from exc
                placed.append(path)
            for path in replaced:
                try:
                    os.replace(staged[path], path)
                except OSError as exc:
                    raise _about(exc, path) from exc
            done = True
    finally:  # our own files and folders, just made: nobody else's to lose
        for path in () if done else placed:
            with contextlib.suppress(OSError):
                os.unlink(path)
        for folder in () if done else reversed(made):
            with contextlib.suppress(OSError):
                os.rmdir(folder)
    return []


def _make_folders(folder: Path, made: list[Path]) -> None:
    """Make `folder` and the missing ones above it, recording each one made."""
    missing = []
    while not folder.is_dir() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for each in reversed(missing):
        os.mkdir(each, 0o777)  # the umask applies, as to every folder toolc makes
        made.append(each)


def _about(exc: OSError, path: Path) -> OSError:
    """`exc` naming `path`, not a temporary (the same subclass: OSError picks it by errno)."""
    return OSError(exc.errno, exc.strerror or str(exc), str(path))


def replace_file(path: Path, data: bytes) -> None:
    """Rewrite a file the user owns (tools.yaml, for `toolc bump --write`) in one step: the old
    bytes or the new ones, never a mix; its permissions kept."""
    replace_whole(path, data, mode_of=path)
