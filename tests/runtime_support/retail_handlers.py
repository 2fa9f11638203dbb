"""Handlers of examples/retail whose behaviour each call's order ids choose.

- `P-9xx`: the item fails (`already_shipped` / `ok: false`);
- `P-500`: the handler raises an exception carrying a secret;
- `P-503`: a declared domain failure; `P-504`: an undeclared code; `P-513`: a declared
  failure whose message is a number;
- `P-505`, `P-905`: a secondary failure after the items (`Reply.secondary_failure`);
- `P-506`: results without a success flag; `P-507`: an image first;
- `P-508`: a declared failure raised with the per-item data;
- `P-510`: `consultar_pedidos` raises SystemExit, `P-511` KeyboardInterrupt, `P-512` a
  CancelledError of its own (nobody cancelled the call)."""

from __future__ import annotations

import asyncio
from typing import Any

from markers import PNG, SECRET
from mcp_tools import (
    CancelarPedidosArgs,
    CancelarPedidosItem,
    ConsultarPedidosArgs,
    ConsultarPedidosItem,
)
from mcp_tools.server_runtime import Image, Items, Reply, ToolContext, ToolFailure


class Handlers:
    async def cancelar_pedidos(self, args: CancelarPedidosArgs, ctx: ToolContext) -> Any:
        ids = args.order_ids
        if "P-500" in ids:
            raise RuntimeError(SECRET)
        if "P-503" in ids:
            raise ToolFailure(
                "ORDER_SERVICE_UNAVAILABLE",
                "O sistema de pedidos não respondeu.",
                {"service": "orders"},
            )
        if "P-504" in ids:
            raise ToolFailure("NOT_DECLARED", SECRET)
        if "P-513" in ids:
            raise ToolFailure("ORDER_SERVICE_UNAVAILABLE", 42)  # type: ignore[arg-type]
        if "P-506" in ids:
            return {"results": [{"order_id": i} for i in ids]}
        results = [
            CancelarPedidosItem.model_validate(
                {"order_id": i, "success": False, "reason": "already_shipped"}
                if i.startswith("P-9")
                else {"order_id": i, "success": True, "protocol": f"C{i[2:]}"}
            )
            for i in ids
        ]
        fields = {"confirmed": ctx.confirmed, "tool": ctx.tool, "version": ctx.version}
        if args.motivo is not None:
            fields["motivo"] = args.motivo
        items = Items(results, fields)
        if any(i.endswith("05") for i in ids):
            failure = ToolFailure("ORDER_SERVICE_UNAVAILABLE", "A notificação ao cliente falhou.")
            return Reply(items, secondary_failure=failure)
        if "P-508" in ids:
            raise ToolFailure("ORDER_SERVICE_UNAVAILABLE", "Caiu no meio.", data=items)
        if "P-507" in ids:
            return Reply(items, images=[Image(PNG, "image/png")])
        return items

    async def consultar_pedidos(self, args: ConsultarPedidosArgs, ctx: ToolContext) -> Any:
        if "P-500" in args.order_ids:
            raise RuntimeError(SECRET)
        if "P-510" in args.order_ids:
            raise SystemExit(3)
        if "P-511" in args.order_ids:
            raise KeyboardInterrupt
        if "P-512" in args.order_ids:
            raise asyncio.CancelledError
        return Items(
            [
                ConsultarPedidosItem.model_validate(
                    {"order_id": i, "ok": False}
                    if i.startswith("P-9")
                    else {"order_id": i, "ok": True, "status": "shipped"}
                )
                for i in args.order_ids
            ]
        )
