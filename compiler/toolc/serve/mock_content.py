"""The content a mock tool returns beside its data: one item per kind its `_meta.content`
declares, made with the served package's own runtime classes (its checks are `isinstance`
checks on them). Images and audio are real, tiny files (a 1x1 PNG or GIF, an SVG, a short
silent WAV), since hosts hand them to models that decode them; a declared image or audio type
the mock cannot make is left out, with a warning. Resources: text for a textual type, else
those samples or a few opaque bytes."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def _png() -> bytes:
    def chunk(tag: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(tag + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)  # 1x1, 8-bit RGBA
    pixels = zlib.compress(b"\x00\x2a\x7f\xd4\xff")  # one row: filter 0, one pixel
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def _wav(rate: int = 8000, samples: int = 800) -> bytes:
    """A tenth of a second of silence: 8 kHz, mono, 16-bit PCM."""
    body = b"\x00\x00" * samples
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * 2, 2, 16)
    return (
        b"RIFF" + struct.pack("<I", 36 + len(body)) + b"WAVE"
        + b"fmt " + struct.pack("<I", len(fmt)) + fmt
        + b"data" + struct.pack("<I", len(body)) + body
    )  # fmt: skip


_GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00"
    b"\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
_SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
SAMPLES: dict[str, bytes] = {
    "image/png": _png(),
    "image/gif": _GIF,
    "image/svg+xml": _SVG,
    "audio/wav": _wav(),
    "audio/x-wav": _wav(),
    "audio/wave": _wav(),
}
# A concrete type for a wildcard: the sample of its top-level type, else a generic one.
_FOR_TOP = {
    "image": "image/png",
    "audio": "audio/wav",
    "text": "text/plain",
    "application": "application/json",
}
_TEXT = {"text/plain": "A mock text.", "application/json": "{}", "text/markdown": "# Mock"}


def concrete(declared: str) -> str:
    """A media type that `declared` (maybe `type/*` or `*/*`) allows."""
    top, _, sub = declared.partition("/")
    if top == "*":
        return "text/plain"
    return _FOR_TOP.get(top, f"{top}/octet-stream") if sub == "*" else declared


def _textual(media_type: str) -> bool:
    top, _, sub = media_type.partition("/")
    return top == "text" or sub in ("json", "xml") or sub.endswith(("+json", "+xml"))


def mock_content(
    tool: str, declared: Mapping[str, Sequence[str]], runtime: Any, warn: Callable[[str], None]
) -> list[Any]:
    """One item per declared kind, in the runtime's classes (`runtime`: the package's
    server_runtime)."""
    items: list[Any] = []
    for kind, media in declared.items():
        types = [concrete(m) for m in media]
        if kind in ("image", "audio"):
            made = next((t for t in types if t in SAMPLES), None)
            if made is None:
                warn(f"tool '{tool}': no mock {kind} of type {', '.join(media)}; none is sent")
                continue
            cls = runtime.Image if kind == "image" else runtime.Audio
            items.append(cls(SAMPLES[made], made))
        elif kind == "resource_link":
            link = f"mock://{tool}/link"
            items.append(runtime.ResourceLink(link, f"{tool} link", types[0], "A mock link"))
        elif kind == "resource":
            chosen = next((t for t in types if _textual(t)), types[0])
            uri = f"mock://{tool}/resource"
            if _textual(chosen):
                text = _TEXT.get(chosen, "A mock resource.")
                items.append(runtime.EmbeddedText(uri, text, chosen))
            else:
                items.append(runtime.EmbeddedBlob(uri, SAMPLES.get(chosen, b"mock"), chosen))
    return items
