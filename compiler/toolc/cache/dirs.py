"""Where toolc keeps what it remembers between builds: the user's cache directory (as black
keeps its own), never the project, one set of files per config/output/snapshot triple.
`$TOOLC_CACHE_DIR`, else `$XDG_CACHE_HOME/toolc`, else `~/.cache/toolc`; `TOOLC_NO_CACHE=1`
turns it off. `os` alone at import: the build daemon's client (toolc.daemon.protocol) and the
no-op check import this before anything else."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing's: importing typing costs the daemon's client ~8 ms
if TYPE_CHECKING:
    from pathlib import Path


def cache_path(config_dir: Path, out_dir: Path, snapshot_path: Path, suffix: str) -> Path | None:
    """The cache file of this build for `suffix` (e.g. `pickle`); None when caching is off."""
    from pathlib import Path

    found = cache_file(config_dir, out_dir, snapshot_path, suffix)
    return None if found is None else Path(found)


def cache_file(
    config_dir: str | Path, out_dir: str | Path, snapshot_path: str | Path, suffix: str
) -> str | None:
    """`cache_path` as a string, for the no-op check, which imports no pathlib."""
    import hashlib

    root = cache_folder()
    if root is None:
        return None
    # realpath is what Path.resolve() computes: the same name for the same three folders.
    key = "\0".join(os.path.realpath(p) for p in (config_dir, out_dir, snapshot_path))
    named = hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return os.path.join(root, f"build-{named}.{suffix}")  # any name the system allows


def cache_folder() -> str | None:
    """The cache directory as a string; None when caching is off."""
    if os.environ.get("TOOLC_NO_CACHE"):
        return None
    root = os.environ.get("TOOLC_CACHE_DIR")
    if root is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "toolc")
    return root
