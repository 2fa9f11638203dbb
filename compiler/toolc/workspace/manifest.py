"""The manifest of a generated package (`.toolc-manifest.json`): which files toolc wrote, with
each one's digest and size, and the digest of the inputs that made them. It is committed with the
output, so it is deterministic (no machine-specific data), and it is untrusted input: an entry
that is not a plain relative path inside the package is ignored."""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec
import orjson
from msgspec import field

from toolc.workspace.manifest_head import MANIFEST

__all__ = ["MANIFEST", "Manifest", "digest", "plain_relative"]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def plain_relative(rel: str) -> bool:
    """A path inside the package: relative, POSIX, no `.`/`..`/empty parts, no NUL."""
    if not rel or "\0" in rel or "\\" in rel:
        return False
    # Each part between slashes, the first and last included: an empty part ("/a", "a//b",
    # "a/") leaves "//", and `.` or `..` leave "/./" or "/../". Three substring scans, not a
    # split: a manifest of 4,000 files checks 8,000 paths each time it is read.
    wrapped = f"/{rel}/"
    return "//" not in wrapped and "/./" not in wrapped and "/../" not in wrapped


class Manifest(msgspec.Struct, frozen=True):
    generator: str
    inputs: str  # sha256 of the raw inputs: equal means a rebuild would change nothing
    files: dict[str, str] = field(default_factory=dict)  # relative path → sha256
    sizes: dict[str, int] = field(default_factory=dict)  # relative path → bytes
    # The build that wrote it reported diagnostics: the next one of the same inputs is no
    # no-op, so that it reports them again (decision 0139). Written only when true, so a
    # clean config's manifest is as it always was.
    reported: bool = False

    def to_bytes(self) -> bytes:
        # The small keys first, the per-file maps last: the no-op check reads only the head
        # (`manifest_head`), which at 5,000 tools saves parsing 20,000 entries.
        option = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS
        head: dict[str, object] = {"generator": self.generator, "inputs": self.inputs}
        if self.reported:
            head["reported"] = True
        tail = {"files": self.files, "sizes": self.sizes}
        first = orjson.dumps(head, option=option)[:-2]  # without the closing "\n}"
        rest = orjson.dumps(tail, option=option)[1:]  # without the opening "{"
        return first + b"," + rest + b"\n"

    @classmethod
    def read(cls, out_dir: Path) -> Manifest | None:
        try:
            data = orjson.loads((out_dir / MANIFEST).read_bytes())
            files = data["files"]
            if not isinstance(files, dict):
                return None
            sizes = data.get("sizes", {})
            # An entry naming anything but a plain path inside the package is not toolc's:
            # dropped, so it can never make toolc touch that path. (JSON keys are strings.)
            plain = {k: str(v) for k, v in files.items() if plain_relative(k)}
            return cls(
                str(data["generator"]),
                str(data["inputs"]),
                plain,
                {k: int(v) for k, v in sizes.items() if k in plain or plain_relative(k)},
                data.get("reported") is True,
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError, orjson.JSONDecodeError):
            return None
