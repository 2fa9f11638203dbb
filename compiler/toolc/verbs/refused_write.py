"""A write the operating system refused, as the `io-error` diagnostic every writing command
gives (`build`, `docs`, `import`, `init`, `scaffold`): the path the user asked for (never a
folder made on the way to it), what is wrong with it, and the fix. Each of those commands
writes all its files or none, so the hint can say what was left."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from toolc.diagnostics import Diagnostic, Span, diag
from toolc.diagnostics.paths import shown_path


class WriteRefused(Exception):
    """A refused write of a verb whose command learns only whether it wrote (`scaffold`)."""

    def __init__(self, found: Diagnostic) -> None:
        super().__init__(found.message)
        self.found = found


def write_failure(
    exc: OSError,
    wanted: tuple[Path, ...],
    cwd: Path,
    choose: str,
    *,
    doing: str = "write",
    left: str = "nothing was written",
    target: Path | None = None,
) -> Diagnostic:
    """`exc`, raised while writing (or, `doing`, reading) the paths `wanted`; `target`: the
    path it names, when the caller knows it better (a scratch name mapped back); `choose`:
    how to ask for another path ("choose another path (--out DIR)"); `left`: what the
    refusal left behind."""
    if target is None:
        target = Path(exc.filename) if isinstance(exc.filename, str) else wanted[0]
    # A folder made on the way to a path asked for (`--out afile/sub`): name that path.
    target = next((path for path in wanted if target in path.parents), target)
    said, hint = exc.strerror or str(exc), "fix the cause and run the command again"
    # EEXIST, ENOTDIR: a folder was wanted where a file is (the path itself, or above it).
    blocker = _file_in_the_way(target, exc.errno in (errno.EEXIST, errno.ENOTDIR))
    where = target
    if blocker is not None:
        where = blocker
        said = f"{shown_path(blocker, cwd)} is a file, not a directory"
        hint = f"move the file away, or {choose}"
    elif exc.errno == errno.ENOENT and not target.parent.is_dir():
        said = f"the folder {shown_path(target.parent, cwd)} does not exist"
        hint = f"create the folder, or {choose}"
    elif exc.errno == errno.EISDIR:
        hint = f"move the folder away, or {choose}"
    return diag(
        "io-error",
        Span.whole_file(shown_path(where, cwd)),
        f"cannot {doing} {shown_path(target, cwd)}: {said}",
        f"{hint}; {left}",
    )


def _file_in_the_way(path: Path, itself: bool) -> Path | None:
    """The nearest of `path`'s folders (and `path` itself, when a folder was wanted there)
    that exists as something other than a folder."""
    for folder in [path, *path.parents] if itself else path.parents:
        if folder.is_dir():
            return None
        if os.path.lexists(folder):
            return folder
    return None
