"""Handlers of examples/vitrine: `foto_produto` answers `SKU-404` with PRODUCT_NOT_FOUND,
any other SKU with its photo and the link to its technical sheet (given link first: the
server sends the image first)."""

from __future__ import annotations

from markers import PNG
from mcp_tools import FotoProdutoArgs, FotoProdutoData
from mcp_tools.server_runtime import (
    Image,
    Reply,
    ResourceLink,
    ToolContext,
    ToolFailure,
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
