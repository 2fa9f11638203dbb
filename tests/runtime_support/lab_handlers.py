"""Handlers of tests/runtime_support/lab: a pre-validator that fails open (`checar`) and
a tool that is not multi-item and forbids unknown arguments (`reservar`). The code
chooses the behaviour. `checar`: `boom` raises, `nao` is ineligible, `junk` is not a
decision, `resolve:X` resolves the code to X and the quantity to 2, `only-code:X` the
code alone; `reservar`: `esgotado` is a declared failure, `bad-return` returns data of
the wrong type, `nan` data that is not JSON.
The tool `outro` belongs to another mcp_server and has no handler here."""

from __future__ import annotations

from typing import Any

from lab_tools import ChecarArgs, ReservarArgs
from lab_tools.server_runtime import ToolContext, ToolFailure


class Handlers:
    async def checar(self, args: ChecarArgs, ctx: ToolContext) -> Any:
        if args.codigo == "boom":
            raise RuntimeError("checar exploded: secret")
        if args.codigo == "nao":
            return {"eligible": False}
        if args.codigo == "junk":
            return {"eligible": "yes"}
        if args.codigo.startswith("only-code:"):  # resolves the code alone
            return {
                "eligible": True,
                "transaction_decision": {
                    "resolved_arguments": {"codigo": args.codigo.partition(":")[2]},
                    "target_tool": "reservar",
                },
            }
        if args.codigo.startswith("resolve:"):
            resolved = {"codigo": args.codigo.removeprefix("resolve:"), "quantidade": 2}
            return {
                "eligible": True,
                "transaction_decision": {
                    "resolved_arguments": resolved,
                    "target_tool": "reservar",
                },
            }
        return {"eligible": True}

    async def reservar(self, args: ReservarArgs, ctx: ToolContext) -> Any:
        if args.codigo == "esgotado":
            raise ToolFailure("ESGOTADO", "Sem estoque.", {"codigo": args.codigo})
        if args.codigo == "bad-return":
            return {"reservado": 5}
        if args.codigo == "nan":
            return {"reservado": "x", "peso": float("nan")}
        data: dict[str, Any] = {
            "reservado": args.codigo,
            "pre_validado": ctx.decision is not None,
        }
        if args.quantidade is not None:
            data["quantidade"] = args.quantidade
        return data
