"""The no-op rebuild: decide from the raw bytes alone, before anything is parsed or imported,
whether a build would change nothing. Imports only the standard library."""

from __future__ import annotations

import hashlib
from pathlib import Path

from toolc import __version__
from toolc.workspace import Manifest, digest

INPUT_FILES = ("tools.yaml", "tool_policies.yaml")


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def inputs_digest(config_dir: Path, snapshot: bytes | None, out_dir: Path) -> str:
    """Everything a build reads: toolc's version, the config files, the snapshot, the output
    location. Equal digests mean equal builds."""
    h = hashlib.sha256(f"toolc {__version__}\0{out_dir.name}\0".encode())
    for name in INPUT_FILES:
        data = _read(config_dir / name)
        h.update(b"\0missing\0" if data is None else hashlib.sha256(data).digest())
    h.update(b"\0missing\0" if snapshot is None else hashlib.sha256(snapshot).digest())
    return h.hexdigest()


def is_up_to_date(config_dir: Path, out_dir: Path, snapshot_path: Path) -> bool:
    manifest = Manifest.read(out_dir)
    current = inputs_digest(config_dir, _read(snapshot_path), out_dir)
    if manifest is None or manifest.inputs != current:
        return False
    for rel, expected in manifest.files.items():
        try:
            if digest((out_dir / rel).read_bytes()) != expected:
                return False
        except OSError:
            return False
    return True
