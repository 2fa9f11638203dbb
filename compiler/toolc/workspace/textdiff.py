"""Unified diffs between the output on disk and what a build would write (`check --diff`)."""

from __future__ import annotations

import difflib
from pathlib import Path

from toolc.workspace import Drift, read_regular


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "replace").splitlines(keepends=True)


def unified(out_dir: Path, drift: Drift, files: dict[str, bytes], prefix: str = "") -> str:
    chunks: list[str] = []
    for rel in sorted({*drift.missing, *drift.changed, *drift.orphaned}):
        on_disk = out_dir / rel
        old = _lines(read_regular(on_disk) or b"")
        new = _lines(files[rel]) if rel in files else []
        chunks.extend(difflib.unified_diff(old, new, f"a/{prefix}{rel}", f"b/{prefix}{rel}"))
    return "".join(chunks)
