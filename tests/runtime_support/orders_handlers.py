"""Handlers of tests/runtime_support/orders that keep idempotency as the guide gives it to
the domain (§9): each item is executed under its per-item key, once; a key already done
answers its stored outcome. `P-9xx` fails (`busy`) the first time its key is seen, so a
retry completes it. Every execution and every attempt is appended to ORDERS_LEDGER
(`executed|attempt order_id key`), which the tests read."""

from __future__ import annotations

import os
from typing import Any

import anyio
from mcp_tools import CancelOrdersArgs, CancelOrdersItem, SlowLookupArgs
from mcp_tools.server_runtime import Items, ToolContext


def _record(kind: str, order_id: str, key: str) -> None:
    with open(os.environ["ORDERS_LEDGER"], "a", encoding="utf-8") as ledger:
        ledger.write(f"{kind} {order_id} {key}\n")


class Handlers:
    def __init__(self) -> None:
        self.done: dict[str, CancelOrdersItem] = {}  # per-item key -> outcome
        self.seen: set[str] = set()

    async def cancel_orders(self, args: CancelOrdersArgs, ctx: ToolContext) -> Any:
        assert ctx.idempotency_key is not None
        assert len(ctx.item_keys) == len(args.order_ids)
        results = []
        for order_id, key in zip(args.order_ids, ctx.item_keys, strict=True):
            _record("attempt", order_id, key)
            if key in self.done:  # already executed under this key: not again
                results.append(self.done[key])
                continue
            first = key not in self.seen
            self.seen.add(key)
            if order_id.startswith("P-9") and first:
                results.append(CancelOrdersItem(order_id=order_id, success=False, reason="busy"))
                continue
            _record("executed", order_id, key)
            outcome = CancelOrdersItem(order_id=order_id, success=True, protocol=f"PR-{key[:8]}")
            self.done[key] = outcome
            results.append(outcome)
        return Items(results)

    async def slow_lookup(self, args: SlowLookupArgs, ctx: ToolContext) -> Any:
        await anyio.sleep(args.seconds)
        return {"done": True}
