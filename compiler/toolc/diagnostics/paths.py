"""How paths print in diagnostics and messages: relative to the working directory when below it.
Standard library only: the no-op build prints with it before anything heavy is imported."""

from __future__ import annotations

import os
from pathlib import Path


def shown_path(file: Path, cwd: Path | None = None) -> str:
    """The path as diagnostics print it: relative to `cwd` (default: the working directory)
    when below it."""
    cwd = cwd or Path.cwd()
    try:
        return (
            os.path.relpath(file, cwd)
            if _resolved(file).is_relative_to(cwd.resolve())
            else str(file)
        )
    except ValueError:  # another drive on Windows
        return str(file)


def _resolved(file: Path) -> Path:
    """The file's real path; a link in a loop (which Python 3.11 resolves to a RuntimeError, not
    an OSError) stands where it is, so that the diagnostic about it has a place to print."""
    try:
        return file.resolve()
    except (RuntimeError, OSError):
        try:
            return file.parent.resolve() / file.name
        except (RuntimeError, OSError):  # the loop is above it: the path as given
            return file.absolute()
