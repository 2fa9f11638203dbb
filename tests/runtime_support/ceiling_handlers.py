"""The retail handlers, with `consultar_pedidos` answering to its data budget (its ceiling
is 64 KB). `P-800`: as many items as the budget holds; `P-801`: a hundred items more; `P-802`: the
budget filled, then a failure with an undeclared code (the worst envelope: a logged
TOOL_ERROR as `secondary_error`). Each call checks that ctx carries ceiling and budget."""

from __future__ import annotations

import json
from typing import Any

from mcp_tools import TOOLS, ConsultarPedidosArgs, ConsultarPedidosItem
from mcp_tools.server_runtime import Items, Reply, ToolContext, ToolFailure
from retail_handlers import Handlers as RetailHandlers


def _item(n: int) -> dict[str, Any]:
    return {"order_id": f"P-{n}", "ok": True}


def _filled(budget: int, extra: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    while (
        len(json.dumps({"results": [*items, _item(len(items))]}, separators=(",", ":"))) <= budget
    ):
        items.append(_item(len(items)))
    return items + [_item(len(items) + i) for i in range(extra)]


class Handlers(RetailHandlers):
    async def consultar_pedidos(self, args: ConsultarPedidosArgs, ctx: ToolContext) -> Any:
        spec = TOOLS["consultar_pedidos"]
        assert ctx.ceiling_bytes == spec.response_ceiling_bytes == 65536
        assert ctx.budget_bytes == ctx.ceiling_bytes - spec.response_reserve_bytes
        wanted = {"P-800": 0, "P-801": 100, "P-802": 0}
        chosen = next((i for i in args.order_ids if i in wanted), None)
        if chosen is None:
            return await super().consultar_pedidos(args, ctx)
        results = [
            ConsultarPedidosItem.model_validate(i)
            for i in _filled(ctx.budget_bytes, wanted[chosen])
        ]
        if chosen == "P-802":
            return Reply(Items(results), secondary_failure=ToolFailure("NOT_DECLARED", ""))
        return Items(results)
