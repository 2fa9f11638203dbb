"""A tool's `content:` declaration (decisions 0056-0058) as the runtime judges it (kinds,
media types with wildcards and parameters, the default of images of any type, the sending
order), as toolc publishes it (`_meta.content` and the contract, only when it says more than
the default, so no existing tool's fingerprint moves), and what `toolc serve --mock` sends
for it: real tiny files."""

from __future__ import annotations

import base64
import json
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters, types
from runtime_support.harness import EXAMPLES, SUPPORT, sealed
from toolc.pipeline import compile
from toolc.runtime.server_content import (
    Audio,
    DeclaredContent,
    EmbeddedBlob,
    EmbeddedText,
    Image,
    ResourceLink,
    ordered,
)
from toolc.serve.mock_content import SAMPLES, concrete
from toolc.source.inputs import read_inputs

BIN = Path(sys.executable).parent
LINK = ResourceLink("https://example.com/a.pdf", "a.pdf", "application/pdf")


def _reasons(declared: Any, *items: object) -> list[str]:
    return [p["reason"] for p in DeclaredContent(declared).problems(items)]


def test_without_a_declaration_images_of_any_type_pass_and_nothing_else() -> None:
    assert _reasons(None, Image(b"x", "image/png"), Image("QUJD", "image/gif")) == []
    assert _reasons(None, Audio(b"x", "audio/wav"), LINK) == [
        "the tool declares no audio content",
        "the tool declares no resource_link content",
    ]
    assert _reasons({}, Image(b"x", "image/png")) == ["the tool declares no image content"]


@pytest.mark.parametrize(
    ("declared", "mime_type", "ok"),
    [
        ("text/*", "text/markdown; charset=utf-8", True),
        ("text/plain", "Text/Plain", True),
        ("*/*", "application/x-anything", True),
        ("text/*", "application/json", False),
        ("text/*", "text", False),  # no subtype
        ("text/*", "", False),
        ("application/json", "application/json+x", False),
    ],
)
def test_media_types_match_by_essence_and_wildcard(declared: str, mime_type: str, ok: bool) -> None:
    problems = _reasons({"resource": [declared]}, EmbeddedText("m://x", "t", mime_type))
    assert problems == (
        [] if ok else [f"a media type its resource content does not declare ({declared})"]
    )


def test_items_are_sent_by_kind_each_kind_in_the_handler_s_order() -> None:
    notes = EmbeddedText("m://n", "n", "text/plain")
    blob = EmbeddedBlob("m://b", b"b", "application/octet-stream")
    one, two = Image(b"1", "image/png"), Image(b"2", "image/png")
    audio = Audio(b"a", "audio/wav")
    items = [notes, LINK, one, blob, audio, two]
    assert ordered(items) == [one, two, audio, LINK, notes, blob]
    assert [i.block().type for i in ordered(items)] == [
        "image", "image", "audio", "resource_link", "resource", "resource"
    ]  # fmt: skip


def _published(tmp_path: Path, content: str | None) -> tuple[dict[str, Any], str]:
    text = (
        "tools:\n  foto:\n    version: 1.0.0\n    description: A photo.\n"
        "    mcp_server: s\n    tool_type: query\n"
    )
    if content is not None:
        text += f"    content: {content}\n"
    (tmp_path / "tools.yaml").write_text(text)
    compiled = compile(read_inputs(tmp_path, tmp_path))
    assert not compiled.has_errors, compiled.diagnostics
    (descriptor,) = json.loads(compiled.files["tools.json"])["tools"]
    assert compiled.package is not None
    return descriptor, compiled.package.snapshot["foto"].contract


def test_the_declaration_is_published_only_when_it_says_more_than_the_default(
    tmp_path: Path,
) -> None:
    bare, fingerprint = _published(tmp_path, None)
    assert "content" not in bare["_meta"]
    stated_default, same = _published(tmp_path, "{image: ['image/*']}")
    assert "content" not in stated_default["_meta"] and same == fingerprint
    declared, other = _published(
        tmp_path, "{resource: [text/plain], image: [image/png, image/gif]}"
    )
    assert declared["_meta"]["content"] == {
        "image": ["image/png", "image/gif"],  # kinds in sending order, types as written
        "resource": ["text/plain"],
    }
    assert other != fingerprint
    contract = json.loads(compile(read_inputs(tmp_path, tmp_path)).files["contracts/foto.json"])
    assert contract["content"] == {"image": ["image/gif", "image/png"], "resource": ["text/plain"]}
    _, reordered = _published(tmp_path, "{image: [image/gif, image/png], resource: [text/plain]}")
    assert reordered == other  # the order of media types means nothing
    nothing, _ = _published(tmp_path, "{}")
    assert nothing["_meta"]["content"] == {}  # text only: images refused too


def test_wildcards_resolve_to_a_type_the_mock_can_make() -> None:
    assert [concrete(m) for m in ("image/*", "audio/*", "*/*", "text/*", "video/mp4")] == [
        "image/png", "audio/wav", "text/plain", "text/plain", "video/mp4"
    ]  # fmt: skip


def _png_ok(data: bytes) -> bool:
    """A PNG's signature, and each chunk's length and CRC, up to IEND."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return False
    at, tags = 8, []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        tag, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        if zlib.crc32(tag + body) & 0xFFFFFFFF != crc:
            return False
        tags.append(tag)
        at += 12 + length
    return tags == [b"IHDR", b"IDAT", b"IEND"]


def test_the_mock_samples_are_real_files() -> None:
    assert _png_ok(SAMPLES["image/png"])
    wav = SAMPLES["audio/wav"]
    assert wav[:4] == b"RIFF" and wav[8:12] == b"WAVE"
    assert struct.unpack("<I", wav[4:8])[0] == len(wav) - 8


def test_the_mock_sends_one_item_of_each_declared_kind() -> None:
    config = SUPPORT / "media"

    async def main() -> tuple[types.ListToolsResult, types.CallToolResult]:
        params = StdioServerParameters(
            command=str(BIN / "toolc"), args=["serve", str(config), "--mock"]
        )
        async with Client(params) as client:
            listed = await client.list_tools()
            return listed, await client.call_tool("mostrar", {"case": "x"})

    listed, result = anyio.run(main)
    published = {
        t.name: t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in listed.tools
    }
    assert sealed(published["mostrar"], result)["ok"] is True
    image, audio, link, embedded, _ = result.content
    assert isinstance(image, types.ImageContent) and image.mime_type == "image/png"
    assert _png_ok(base64.b64decode(image.data))
    assert isinstance(audio, types.AudioContent) and audio.mime_type == "audio/wav"
    assert base64.b64decode(audio.data)[8:12] == b"WAVE"
    assert isinstance(link, types.ResourceLink) and link.mime_type == "application/pdf"
    assert isinstance(embedded, types.EmbeddedResource)
    assert isinstance(embedded.resource, types.TextResourceContents)
    assert embedded.resource.mime_type == "text/plain" and embedded.resource.text


def test_the_mock_of_the_shop_window_sends_what_each_tool_declares() -> None:
    config = EXAMPLES / "vitrine"

    async def main() -> dict[str, list[str]]:
        params = StdioServerParameters(
            command=str(BIN / "toolc"), args=["serve", str(config), "--mock"]
        )
        async with Client(params) as client:
            calls = {
                n: await client.call_tool(n, {"sku": "SKU-1"})
                for n in ("foto_produto", "descrever_produto")
            }
        return {n: [b.type for b in r.content] for n, r in calls.items()}

    assert anyio.run(main) == {
        "foto_produto": ["image", "resource_link", "text"],
        "descrever_produto": ["audio", "resource", "text"],
    }


def test_an_item_its_block_cannot_hold_is_refused_before_it_is_sent() -> None:
    """Checked here, not when the SDK builds the blocks after the hooks (a -32602 protocol
    error, counted "ok"): fields of another type, and data that is no bytes nor text."""
    link = ResourceLink("https://e.com/a.pdf", "a.pdf", "application/pdf", size="1KB")  # type: ignore[arg-type]
    found = _reasons(
        {"resource_link": ["application/pdf"], "image": ["image/*"]},
        link,
        Image(None, "image/png"),  # type: ignore[arg-type]
        Image(bytearray(b"x"), "image/png"),  # type: ignore[arg-type]
    )
    assert found[0].startswith("a field its resource_link block cannot hold (size: ")
    assert found[1] == "data of its image block is no bytes nor base64 text"
    assert len(found) == 2  # a bytearray is bytes: sent as such
