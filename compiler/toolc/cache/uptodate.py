"""The no-op rebuild: decide from the raw bytes alone, before anything is parsed or imported,
whether a build would change nothing. Imports only the standard library, and takes paths as
strings: the fast path of `toolc build` (cache.noop_ticket) runs it before the command line
is parsed, where pathlib, typing and orjson would cost a fifth of a no-op (measured)."""

from __future__ import annotations

import functools
import hashlib
import os
from itertools import repeat

from toolc import __version__
from toolc.cache import filestats, generator
from toolc.cache.overlap import started
from toolc.resources import data_folder
from toolc.workspace.files import drop_dead_temps, open_regular, read_regular
from toolc.workspace.manifest_head import made_from

TYPE_CHECKING = False  # not typing's: see workspace.files
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path

    from toolc.workspace.files import Signature
    from toolc.workspace.manifest import Manifest

    AnyPath = str | Path

INPUT_FILES = ("tools.yaml", "tool_policies.yaml")


def _read(path: AnyPath) -> bytes | None:
    """A regular file only (a FIFO named tools.yaml must not hang the no-op check): None when
    nothing is there, and a marker no digest can come from when something else is (the real
    build that follows then says what is wrong)."""
    if not os.path.lexists(path):
        return None
    data = read_regular(path, follow=True, limit=_LIMIT)
    return data if data is not None else _UNREADABLE


_LIMIT = 1 << 28
_UNREADABLE = b"\0not a readable file: " + os.urandom(16)
_UNREADABLE_DIGEST = hashlib.sha256(_UNREADABLE).digest()


def _file_digest(path: AnyPath) -> bytes | None:
    """`sha256(_read(path))`, read in pieces into one buffer: half the time of reading the
    whole file first (8.5 against 16 ms for a tools.yaml of 10 MB, measured)."""
    if not os.path.lexists(path):
        return None
    opened = open_regular(path, follow=True, limit=_LIMIT)
    if opened is None:
        return _UNREADABLE_DIGEST
    fd, length = opened
    h, total = hashlib.sha256(), 0
    try:
        buffer = bytearray(min(length + 1, 1 << 20))
        view = memoryview(buffer)
        while count := os.readv(fd, [buffer]):
            h.update(view[:count])
            total += count
    except OSError:
        return _UNREADABLE_DIGEST
    finally:
        os.close(fd)
    return h.digest() if total == length else _UNREADABLE_DIGEST


@functools.cache
def generator_fingerprint() -> bytes:
    """toolc's own code and templates: a generator changed without a version bump (a
    development build) must not pass for an up-to-date one. About 250 small files, hashed
    once for each set of their signatures (cache.generator)."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    files = []
    for folder, suffix in ((package, ".py"), (data_folder("templates"), ".j2")):
        files += _sources(folder, suffix)

    def compute() -> bytes:
        h = hashlib.sha256(__version__.encode())
        for name, path in files:
            with open(path, "rb") as stream:
                h.update(name.encode() + b"\0" + stream.read())
        return h.digest()

    return generator.remembered(files, compute)


def _sources(folder: str, suffix: str) -> list[tuple[str, str]]:
    """`(name relative to folder, path)` of every file below `folder` ending in `suffix`, in
    the order of their names' parts. os.walk, not Path.rglob: a third of the time (about 5 ms
    of a no-op build, measured), for the same list."""
    found = []
    for top, _dirs, names in os.walk(folder):
        rel = os.path.relpath(top, folder).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        found += [(prefix + n, os.path.join(top, n)) for n in names if n.endswith(suffix)]
    return sorted(found, key=lambda item: item[0].split("/"))


def inputs_digest(
    config: Mapping[str, bytes | None], snapshot: bytes | None, out_dir: AnyPath, lints: str = ""
) -> str:
    """Everything a build reads: toolc itself, the config files' bytes (`config`: by file
    name, None when missing), the snapshot, the output location, and the settings that add
    findings (`lints`, see `lints_key`). Equal digests mean equal builds."""
    digests = {n: None if d is None else hashlib.sha256(d).digest() for n, d in config.items()}
    snapshot_digest = None if snapshot is None else hashlib.sha256(snapshot).digest()
    return _combined(digests, snapshot_digest, out_dir, lints)


def lints_key(metadata_lint: bool, listing_budget: int | None) -> str:
    """The settings that add findings to a build of the same files: a build with them on is
    no no-op of one without (its warnings were never said). "" when both are off, so the
    digest of a build without them is as it always was."""
    parts = (["metadata_lint"] if metadata_lint else []) + (
        [f"listing_budget={listing_budget}"] if listing_budget is not None else []
    )
    return ";".join(parts)


def _combined(
    config: Mapping[str, bytes | None], snapshot: bytes | None, out_dir: AnyPath, lints: str = ""
) -> str:
    """`inputs_digest` from each input's own digest (`config`: by file name)."""
    name = os.path.basename(os.fspath(out_dir))
    h = hashlib.sha256(generator_fingerprint() + f"\0{name}\0".encode())
    for name in INPUT_FILES:
        digest = config.get(name)
        h.update(b"\0missing\0" if digest is None else digest)
    h.update(b"\0missing\0" if snapshot is None else snapshot)
    if lints:
        h.update(b"\0lints\0" + lints.encode())
    return h.hexdigest()


def _on_disk(config_dir: AnyPath) -> dict[str, bytes | None]:
    """The digests of the config files as they are now."""
    return {name: _file_digest(os.path.join(config_dir, name)) for name in INPUT_FILES}


def is_up_to_date(
    config_dir: AnyPath,
    out_dir: AnyPath,
    snapshot_path: AnyPath,
    *,
    cache: bool = True,
    docs_dir: AnyPath | None = None,
    project: str | None = None,
    lints: str = "",
) -> bool:
    """Whether a build would change nothing: the raw inputs hash to the manifest's digest (no
    parsing), and every file the manifest records is still the file the build wrote. A file
    whose signature (size, mtime, inode) is the one recorded after the last build is trusted
    unread, as make does; any other is hashed and compared with the manifest (a hand edit is
    found, and the build then restores the generated bytes). Without the recorded signatures
    (`cache=False`, a new machine) every file is hashed. `project`: the version of the
    package's own pyproject.toml when the build writes one, which the inputs do not cover."""
    out_dir = os.fspath(out_dir)
    if docs_dir is not None and not _docs_intact(config_dir, docs_dir):
        return False
    root = str(out_dir) + os.sep
    record = filestats.stats_file(config_dir, out_dir, snapshot_path) if cache else None
    # The inputs are hashed while the files the record lists are looked at (cache.overlap);
    # what was looked at counts only once the record proves to be these inputs' own.
    digests, hashed = started(lambda: (_on_disk(config_dir), _file_digest(snapshot_path)))
    digest = functools.cache(lambda: _combined(*digests(), out_dir, lints))
    try:
        raw = filestats.read(record)
        early, trusted = _looked_at(root, raw, hashed, digest)
    finally:
        digests()
    current = digest()
    if not made_from(out_dir, current) or _interrupted(out_dir):
        return False
    known = trusted if trusted is not None else filestats.verified(raw, current)
    if known is not None and known.reported:  # the build reports its warnings again
        return False
    manifest = _manifest(out_dir) if known is None else None
    names = known.names if known is not None else list(manifest.files) if manifest else []
    if manifest is None and known is None:
        return False
    if manifest is not None and manifest.reported:  # no record, as after `--no-cache`
        return False
    if not _project_file_is(out_dir, names, project):
        return False
    now = early if known is not None else _signatures(root, names)
    if now is None:  # a generated file is missing
        return False
    if known is not None and filestats.pack(now) == known.packed:  # the common case, whole
        if record is not None:  # the build before may have been killed saving its cache
            folder, name = os.path.split(record)
            drop_dead_temps(folder, f".{name.partition('.')[0]}.")
        return True
    seen: dict[str, Signature] = dict(zip(names, filestats.triples(now), strict=True))
    try:
        was = filestats.triples(known.flat) if known is not None else repeat(None)
    except (ValueError, EOFError, TypeError):  # not signatures after all: look at every file
        was = repeat(None)
    suspects = [rel for (rel, sig), old in zip(seen.items(), was, strict=False) if sig != old]
    manifest = manifest or _manifest(out_dir)
    if manifest is None or set(manifest.files) != set(names):
        return False
    for rel in suspects:
        data = read_regular(root + rel, manifest.sizes.get(rel))
        if data is None or hashlib.sha256(data).hexdigest() != manifest.files[rel]:
            return False  # edited by hand (or not a file any more): the build restores it
    if record is not None:  # the same bytes under new signatures: trust them next time
        from pathlib import Path

        from toolc.workspace.files import save_cache_bytes

        save_cache_bytes(Path(record), filestats.encode(current, seen))
    return True


_PART = 2000  # files looked at between two glances at the hashing


def _looked_at(
    root: str,
    raw: filestats.Unverified | None,
    hashed: Callable[[], bool],
    digest: Callable[[], str],
) -> tuple[list[int] | None, filestats.Recorded | None]:
    """The signatures of the files `raw` lists, taken while the inputs are hashed (None
    when one is missing), and the record once the hashing, done meanwhile, verified it.
    Looking stops as soon as the record proves not to be these inputs' own: its files
    are then not the ones the check compares (a build most likely follows)."""
    names = raw.names if raw is not None else None
    if names is None:
        return None, None
    flat: list[int] = []
    trusted = None
    for start in range(0, len(names), _PART):
        if trusted is None and hashed():
            trusted = filestats.verified(raw, digest())
            if trusted is None:
                return None, None
        part = _signatures(root, names[start : start + _PART])
        if part is None:
            return None, trusted
        flat += part
    return flat, trusted


def _signatures(root: str, names: list[str]) -> list[int] | None:
    """`filestats.current` of `names`; None when one is missing."""
    try:
        return filestats.current(root, names)
    except OSError:
        return None


def _manifest(out_dir: str) -> Manifest | None:
    """The whole manifest, when the no-op needs its digests."""
    from pathlib import Path

    from toolc.workspace.manifest import Manifest as Read

    return Read.read(Path(out_dir))


def _project_file_is(out_dir: str, names: list[str], version: str | None) -> bool:
    """The package's pyproject.toml is there exactly when one is asked for, at its version
    (its other lines are checked with every file below)."""
    if version is None or "pyproject.toml" not in names:
        return version is None and "pyproject.toml" not in names
    data = _read(os.path.join(out_dir, "pyproject.toml")) or b""
    return f'\nversion = "{version}"\n'.encode() in data


def _docs_intact(config_dir: AnyPath, docs_dir: AnyPath) -> bool:
    """The reference docs were made from these inputs and are still what was written: a few
    small files, each hashed."""
    docs_dir = os.fspath(docs_dir)
    manifest = _manifest(docs_dir)
    if manifest is None or _interrupted(docs_dir):
        return False
    if manifest.inputs != _combined(_on_disk(config_dir), None, docs_dir):
        return False
    for rel, sha in manifest.files.items():
        data = read_regular(os.path.join(docs_dir, rel), manifest.sizes.get(rel))
        if data is None or hashlib.sha256(data).hexdigest() != sha:
            return False
    return True


def _interrupted(out_dir: str) -> bool:
    """What a killed build left beside the output (a staging or old output, its lock): a real
    build repairs it."""
    parent, name = os.path.split(out_dir)
    prefix = f".{name}.toolc-"
    try:
        return any(name.startswith(prefix) for name in os.listdir(parent or "."))
    except OSError:
        return True
