"""Handlers of tests/runtime_support/media: `mostrar` answers by `case` — `all` with one
item of every kind, given out of order (the server orders them), `gif` with an image of
an undeclared media type, `bad-base64` with image text that is no base64, `raw` with an
SDK block instead of a content item, `size` a link whose size is text, `bytearray` an
image whose bytes are a bytearray (sent as bytes), `surrogate-link` a link named with a lone
surrogate, `surrogate-data` data holding one (a file name read with surrogateescape); `texto` answers `audio` with content it declares
none of, anything else with data only."""

from __future__ import annotations

from typing import Any

from markers import PNG
from mcp import types
from media_tools.server_runtime import (
    Audio,
    EmbeddedBlob,
    EmbeddedText,
    Image,
    Reply,
    ResourceLink,
    ToolContext,
)

WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "
LINK = ResourceLink("https://example.com/sku-1.pdf", "sku-1.pdf", "application/pdf", "Ficha")
NOTES = EmbeddedText("mem://sku-1/notes", "Leve e resistente.", "text/markdown")
SPEC = EmbeddedBlob("mem://sku-1/spec", b'{"peso": 1}', "application/json")


class Handlers:
    async def mostrar(self, args: Any, ctx: ToolContext) -> Any:
        data = {"sku": "SKU-1"}
        if args.case == "all":
            content = [LINK, NOTES, Audio(WAV, "audio/wav"), Image(PNG, "image/png"), SPEC]
            return Reply(data, content=[*content, Image(PNG, "Image/PNG")])
        if args.case == "gif":
            return Reply(data, content=[Image(PNG, "image/png"), Image(PNG, "image/gif")])
        if args.case == "bad-base64":
            return Reply(data, content=[Image("not base64!", "image/png")])
        if args.case == "size":
            link = ResourceLink(LINK.uri, LINK.name, LINK.mime_type, size="1KB")  # type: ignore[arg-type]
            return Reply(data, content=[link])
        if args.case == "bytearray":
            return Reply(data, content=[Image(bytearray(PNG), "image/png")])  # type: ignore[arg-type]
        if args.case == "surrogate-link":
            name = b"caf\xe9.pdf".decode("utf-8", "surrogateescape")
            return Reply(data, content=[ResourceLink(LINK.uri, name, LINK.mime_type)])
        if args.case == "surrogate-data":
            return {"sku": b"caf\xe9".decode("utf-8", "surrogateescape")}
        if args.case == "raw":
            return Reply(data, content=[types.TextContent(type="text", text="hi")])
        return data

    async def texto(self, args: Any, ctx: ToolContext) -> Any:
        if args.case == "audio":
            return Reply({"sku": "SKU-1"}, content=[Audio(WAV, "audio/wav")])
        return {"sku": "SKU-1"}
