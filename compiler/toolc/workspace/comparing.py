"""How the output directory differs from what a build would write (`toolc check`), read only:
regular files only, each read only when its size already matches."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from toolc.workspace.files import read_regular
from toolc.workspace.manifest import Manifest


class Drift(msgspec.Struct, frozen=True):
    missing: list[str]
    changed: list[str]
    orphaned: list[str]


def compare(out_dir: Path, files: dict[str, bytes]) -> Drift:
    previous = Manifest.read(out_dir)
    missing, changed = [], []
    for rel, data in files.items():
        path = out_dir / rel
        if not os.path.lexists(path):
            missing.append(rel)
        elif read_regular(path, len(data)) != data:
            changed.append(rel)
    owned = set(previous.files) if previous else set()
    orphaned = sorted(rel for rel in owned - set(files) if os.path.lexists(out_dir / rel))
    return Drift(missing, changed, orphaned)
