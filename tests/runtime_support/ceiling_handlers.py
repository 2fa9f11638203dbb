"""The retail handlers, with `consultar_pedidos` answering one result per order (its ceiling
is 64 KB) when the first order is a marker: `P-800`, as the test sends as many orders as the
budget holds; `P-801`, a hundred more; `P-802`, the budget filled, then a failure with an
undeclared code (the worst envelope: a logged TOOL_ERROR as `secondary_error`). Each call
checks that ctx carries ceiling and budget."""

from __future__ import annotations

from typing import Any

from mcp_tools import TOOLS, ConsultarPedidosArgs, ConsultarPedidosItem
from mcp_tools.server_runtime import Items, Reply, ToolContext, ToolFailure
from retail_handlers import Handlers as RetailHandlers

MARKERS = ("P-800", "P-801", "P-802")


class Handlers(RetailHandlers):
    async def consultar_pedidos(self, args: ConsultarPedidosArgs, ctx: ToolContext) -> Any:
        spec = TOOLS["consultar_pedidos"]
        assert ctx.ceiling_bytes == spec.response_ceiling_bytes == 65536
        assert ctx.budget_bytes == ctx.ceiling_bytes - spec.response_reserve_bytes
        if args.order_ids[0] not in MARKERS:
            return await super().consultar_pedidos(args, ctx)
        results = [
            ConsultarPedidosItem.model_validate({"order_id": i, "ok": True}) for i in args.order_ids
        ]
        if args.order_ids[0] == "P-802":
            return Reply(Items(results), secondary_failure=ToolFailure("NOT_DECLARED", ""))
        return Items(results)
