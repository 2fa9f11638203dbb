"""Handlers of examples/vitrine: `foto_produto` answers `SKU-404` with PRODUCT_NOT_FOUND,
any other SKU with its photo and the link to its technical sheet (given link first: the
server sends the image first); `descrever_produto` with a short WAV and the sheet embedded
as markdown."""

from __future__ import annotations

from markers import PNG
from mcp_tools import (
    DescreverProdutoArgs,
    DescreverProdutoData,
    FotoProdutoArgs,
    FotoProdutoData,
)
from mcp_tools.server_runtime import (
    Audio,
    EmbeddedText,
    Image,
    Reply,
    ResourceLink,
    ToolContext,
    ToolFailure,
)

# A tenth of a second of silence (8 kHz, mono, 16-bit): what a text-to-speech call returns.
WAV = (
    b"RIFF\x64\x06\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00"
    b"\x80>\x00\x00\x02\x00\x10\x00data@\x06\x00\x00" + b"\x00" * 1600
)


class Handlers:
    async def foto_produto(self, args: FotoProdutoArgs, ctx: ToolContext) -> Reply[FotoProdutoData]:
        if args.sku == "SKU-404":
            raise ToolFailure("PRODUCT_NOT_FOUND", f"Não há produto {args.sku}.")
        data = FotoProdutoData(sku=args.sku, nome="Caneca", legenda="Uma caneca azul.")
        sheet = ResourceLink(
            f"https://example.com/produtos/{args.sku}.pdf",
            f"{args.sku}.pdf",
            "application/pdf",
            title="Ficha técnica",
        )
        return Reply(data, content=[sheet, Image(PNG, "image/png")])

    async def descrever_produto(
        self, args: DescreverProdutoArgs, ctx: ToolContext
    ) -> Reply[DescreverProdutoData]:
        sheet = EmbeddedText(
            f"https://example.com/produtos/{args.sku}.md", "# Caneca\n350 ml.", "text/markdown"
        )
        speech = Audio(WAV, "audio/wav")
        data = DescreverProdutoData(sku=args.sku, duracao_segundos=0.1)
        return Reply(data, content=[sheet, speech])
