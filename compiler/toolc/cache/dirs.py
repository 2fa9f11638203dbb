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
    import hashlib

    root = cache_root()
    if root is None:
        return None
    key = "\0".join(str(p.resolve()) for p in (config_dir, out_dir, snapshot_path))
    return root / f"build-{hashlib.sha256(key.encode()).hexdigest()[:24]}.{suffix}"


def cache_folder() -> str | None:
    """The cache directory as a string; None when caching is off."""
    if os.environ.get("TOOLC_NO_CACHE"):
        return None
    root = os.environ.get("TOOLC_CACHE_DIR")
    if root is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "toolc")
    return root


def cache_root() -> Path | None:
    """The cache directory; None when caching is off."""
    from pathlib import Path

    folder = cache_folder()
    return None if folder is None else Path(folder)
