"""The manifest's name and its head read without a JSON parser: what the no-op check needs
to know of `.toolc-manifest.json` (workspace.manifest), kept apart because that module
imports msgspec and orjson, 13 ms the fast path of a no-op build does not pay (decision
0135). Imports only the standard library."""

from __future__ import annotations

import os

MANIFEST = ".toolc-manifest.json"

# The head as Manifest.to_bytes writes it: the small keys first, then the per-file maps.
_OPENING = b'{\n  "generator": "'
_MIDDLE = b'",\n  "inputs": "'
_HEAD_BYTES = 1 << 16


def made_from(out_dir: str, inputs: str) -> bool:
    """Whether the manifest in `out_dir` says it was made from `inputs`. Its head as toolc
    writes it is read as bytes; any other form (edited by hand) by the manifest's parser."""
    try:
        with open(os.path.join(out_dir, MANIFEST), "rb") as stream:
            head = stream.read(_HEAD_BYTES)
    except OSError:
        return False
    at = head.find(_MIDDLE)
    said = head[len(_OPENING) : at]
    # `at` past the opening: its closing quote must not be `_MIDDLE`'s opening one.
    if head.startswith(_OPENING) and at >= len(_OPENING) and _plain(said):
        # A generator without quotes or escapes: `_MIDDLE` is the manifest's own key, and the
        # string after it is `inputs` exactly when it holds these 64 characters.
        end, expected = at + len(_MIDDLE), f'{inputs}",\n  "files": '.encode()
        if head[end : end + len(expected)] == expected:
            return True
    found = read_head(out_dir)
    return found is not None and found.get("inputs") == inputs


def read_head(out_dir: str) -> dict[str, object] | None:
    """The manifest's small keys (`generator`, `inputs`) without the per-file maps, parsed;
    None when it has no head toolc could have written."""
    import orjson  # a manifest edited by hand only: toolc's own head is read as bytes

    try:
        with open(os.path.join(out_dir, MANIFEST), "rb") as stream:
            head = stream.read(_HEAD_BYTES)
        cut = head.find(b'\n  "files": ')
        if cut < 0:
            return None
        data = orjson.loads(head[: cut - 1] + b"\n}")  # drop the comma before "files"
    except (OSError, orjson.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _plain(text: bytes) -> bool:
    """Printable ASCII without a quote or a backslash: a JSON string's text as it reads."""
    return text.isascii() and text.decode().isprintable() and not {34, 92} & set(text)
