"""Content beyond the envelope's text (decisions 0056-0058), end to end: a tool declares
image, audio, resource-link and embedded-resource content (tests/runtime_support/media),
its handler returns typed items, and the server sends them ordered — images, audio, links,
embedded resources, then the one text block identical to structuredContent — to the SDK's
Python client in both protocol eras, to the official TypeScript client and to the typed
generated client; content a tool does not declare is INVALID_RESULT, never sent. The
shop-window example (examples/vitrine) sends its media before its documents."""

from __future__ import annotations

import base64
import importlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import types
from node_support import run_node
from runtime_support.client_support import client_package, server_params
from runtime_support.harness import EXAMPLES, SUPPORT, Connection, build, package
from runtime_support.markers import PNG

ORDER = ["image", "image", "audio", "resource_link", "resource", "resource", "text"]
WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "


@pytest.fixture(scope="module")
def media_pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(SUPPORT / "media", tmp_path_factory.mktemp("media") / "media_tools")


@pytest.fixture(scope="module", params=["auto", "legacy"])
def media(request: pytest.FixtureRequest, media_pkg: Path) -> Iterator[Connection]:
    connection = Connection(media_pkg, "media_handlers", mode=request.param)
    try:
        yield connection
    finally:
        connection.close()


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_every_kind_comes_through_ordered_beside_the_envelope(media: Connection) -> None:
    result = media.run(media.client.call_tool, "mostrar", {"case": "all"})
    envelope = media.sealed("mostrar", result)  # the text block is the envelope, last
    assert envelope == {"ok": True, "data": {"sku": "SKU-1"}, "meta": envelope["meta"]}
    assert [b.type for b in result.content] == ORDER
    first, second, audio, link, notes, spec, _ = result.content
    assert isinstance(first, types.ImageContent) and isinstance(second, types.ImageContent)
    assert base64.b64decode(first.data) == PNG and first.mime_type == "image/png"
    assert second.mime_type == "Image/PNG"  # media types compare case-insensitively
    assert isinstance(audio, types.AudioContent) and base64.b64decode(audio.data) == WAV
    assert isinstance(link, types.ResourceLink)
    assert (link.uri, link.name, link.mime_type, link.title) == (
        "https://example.com/sku-1.pdf",
        "sku-1.pdf",
        "application/pdf",
        "Ficha",
    )
    assert isinstance(notes, types.EmbeddedResource)
    assert isinstance(notes.resource, types.TextResourceContents)
    assert (notes.resource.text, notes.resource.mime_type) == (
        "Leve e resistente.",
        "text/markdown",
    )
    assert isinstance(spec, types.EmbeddedResource)
    assert isinstance(spec.resource, types.BlobResourceContents)
    assert base64.b64decode(spec.resource.blob) == b'{"peso": 1}'


@pytest.mark.parametrize(
    ("tool", "case", "field", "reason"),
    [
        ("mostrar", "gif", "content[1]", "does not declare (image/png)"),
        ("mostrar", "bad-base64", "content[0]", "not base64"),
        ("mostrar", "raw", "content[0]", "not a content item"),
        # a field of another type was a protocol error (-32602), counted "ok" by the hooks
        ("mostrar", "size", "content[0]", "resource_link block cannot hold (size: "),
        ("texto", "audio", "content[0]", "declares no audio content"),
        # a lone surrogate broke the SDK's writer: the call unanswered, the session over
        ("mostrar", "surrogate-link", "content[0]", "resource_link block that is not UTF-8"),
        ("mostrar", "surrogate-data", "data", "not JSON data"),
    ],
)
def test_undeclared_content_is_invalid_result_and_never_sent(
    media: Connection, tool: str, case: str, field: str, reason: str
) -> None:
    result = media.run(media.client.call_tool, tool, {"case": case})
    envelope = media.sealed(tool, result)
    error = envelope["error"]
    assert error["code"] == "INVALID_RESULT" and error["retryable"] is False
    assert [d["field"] for d in error["details"]] == [field]
    assert reason in error["details"][0]["reason"]
    assert [b.type for b in result.content] == ["text"]  # nothing of the refused answer
    after = media.run(media.client.call_tool, "texto", {"case": "plain"})
    assert media.sealed("texto", after)["ok"] is True  # the session goes on


def test_an_image_of_a_bytearray_is_sent_as_its_bytes(media: Connection) -> None:
    result = media.run(media.client.call_tool, "mostrar", {"case": "bytearray"})
    assert media.sealed("mostrar", result)["ok"] is True
    image = result.content[0]
    assert isinstance(image, types.ImageContent) and base64.b64decode(image.data) == PNG


def test_a_tool_declaring_no_content_answers_text_only(media: Connection) -> None:
    result = media.run(media.client.call_tool, "texto", {"case": "plain"})
    assert media.sealed("texto", result)["ok"] is True
    assert [b.type for b in result.content] == ["text"]


def test_the_typescript_client_gets_every_kind_ordered(media_pkg: Path) -> None:
    job = {
        "command": sys.executable,
        "args": [str(SUPPORT / "serve.py"), media_pkg.name, "media_handlers"],
        "env": {"PYTHONPATH": os.pathsep.join([str(media_pkg.parent), str(SUPPORT)])},
        "elicit": None,
        "calls": [
            {"name": "mostrar", "arguments": {"case": "all"}},
            {"name": "mostrar", "arguments": {"case": "gif"}},
        ],
    }
    out = run_node("ts_client.mjs", job)
    good, refused = (answer["result"] for answer in out["results"])  # no McpError: valid
    assert [b["type"] for b in good["content"]] == ORDER
    assert good["content"][-1]["text"] == _compact(good["structuredContent"])
    assert good["isError"] is False
    assert base64.b64decode(good["content"][0]["data"]) == PNG
    assert good["content"][3]["uri"] == "https://example.com/sku-1.pdf"
    assert good["content"][4]["resource"]["text"] == "Leve e resistente."
    assert refused["isError"] is True
    assert refused["structuredContent"]["error"]["code"] == "INVALID_RESULT"
    assert [b["type"] for b in refused["content"]] == ["text"]


def test_the_typed_client_exposes_the_content_typed(
    media_pkg: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    client_package(media_pkg, tmp_path_factory.mktemp("media_client"), "media_client")
    generated = importlib.import_module("media_client.client")
    runtime = importlib.import_module("media_client.server_content")

    async def call() -> Any:
        params = server_params(media_pkg, "media_handlers")
        async with generated.MediaClient.connect(params) as tools:
            return await tools.mostrar(case="all")

    envelope = anyio.run(call)
    assert type(envelope).__name__ == "Success" and envelope.data.sku == "SKU-1"
    kinds = [type(item).__name__ for item in envelope.attachments]
    assert kinds == ["Image", "Image", "Audio", "ResourceLink", "EmbeddedText", "EmbeddedBlob"]
    image = envelope.images[0]
    assert isinstance(image, runtime.Image) and image.data == PNG
    assert envelope.audio[0].data == WAV and envelope.audio[0].mime_type == "audio/wav"
    (link,) = envelope.resource_links
    assert (link.uri, link.mime_type, link.title) == (
        "https://example.com/sku-1.pdf",
        "application/pdf",
        "Ficha",
    )
    notes, spec = envelope.resources
    assert isinstance(notes, runtime.EmbeddedText) and notes.text == "Leve e resistente."
    assert isinstance(spec, runtime.EmbeddedBlob) and spec.data == b'{"peso": 1}'
    assert len(envelope.content) == 6  # the raw blocks, the envelope's text left out


def test_the_shop_window_sends_its_media_before_its_documents(tmp_path: Path) -> None:
    pkg = package(EXAMPLES / "vitrine" / "generated" / "mcp_tools", tmp_path)
    connection = Connection(pkg, "vitrine_handlers")
    try:
        result = connection.run(connection.client.call_tool, "foto_produto", {"sku": "SKU-7"})
        envelope = connection.sealed("foto_produto", result)
        missing = connection.call("foto_produto", {"sku": "SKU-404"})
        spoken = connection.run(connection.client.call_tool, "descrever_produto", {"sku": "SKU-7"})
        connection.sealed("descrever_produto", spoken)
    finally:
        connection.close()
    assert envelope["data"] == {"sku": "SKU-7", "nome": "Caneca", "legenda": "Uma caneca azul."}
    assert [b.type for b in result.content] == ["image", "resource_link", "text"]
    assert missing["error"]["code"] == "PRODUCT_NOT_FOUND"
    assert [b.type for b in spoken.content] == ["audio", "resource", "text"]
