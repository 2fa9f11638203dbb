"""Handlers of the proxy test's gateway: only its own tool; the proxied ones have none."""

from __future__ import annotations

from typing import Any


class Handlers:
    async def greet(self, args: Any, ctx: Any) -> dict[str, str]:
        return {"greeting": f"Hello, {args.name}!"}
