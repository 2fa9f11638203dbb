"""Handlers of examples/telecom (a pre-validated, workflow-backed multi-item tool) whose
behaviour each call's customer id chooses. The pre-validator:

- `2`: ineligible with a reason; `3`: resolves the items to canonical names, with a
  confirmation message; `4`: resolves to arguments of the wrong shape;
- `5`: raises; `6`: returns data that is not a decision; `7`: a domain failure;
- `8`: eligible, nothing resolved; `12`: resolves a key that is no argument;
- otherwise, names as the customer said them (the guide's §1–3) are resolved through the
  catalogue into canonical products, with one confirmation naming them; a name the
  catalogue lacks is kept (id 9…) so the tool reports it per item; products already
  canonical: eligible, arguments unchanged.

The tool returns the workflow's output: an item whose id starts with 9 fails; an item
named `aux-fail` makes a later step fail (`ok: false` on the run); customer `404` is a
declared failure; customer `500` returns an output without the tool's step; customers
`503` and `504` a run that failed before the tool's step (`ok: false`), with a declared
code and with free text; customer `405` raises its declared failure after its items, with
their results as data."""

from __future__ import annotations

from typing import Any

from mcp_tools import CancelarProdutosResolved, ValidarProdutosCancelamentoArgs
from mcp_tools.server_runtime import ToolContext, ToolFailure

CATALOGUE = {
    "tim fashion": {"id": "1001", "name": "TIM Fashion Mensal"},
    "aya audiobooks": {"id": "1002", "name": "Aya Audiobooks Premium"},
    "neymar jr": {"id": "1003", "name": "Neymar Jr"},
}


def _resolved(customer: str, said: list[Any]) -> dict[str, Any]:
    items = [
        CATALOGUE.get(name.casefold(), {"id": f"9{i:03}", "name": name})
        if isinstance(name, str)
        else name
        for i, name in enumerate(said)
    ]
    names = [i["name"] for i in items]
    listed = ", ".join(names[:-1]) + f" e {names[-1]}" if len(names) > 1 else names[0]
    return {
        "eligible": True,
        "transaction_decision": {
            "resolved_arguments": {"customer_id": customer, "items": items},
            "target_tool": "cancelar_produtos",
            "confirmation_message": f"Você confirma o cancelamento de {listed}?",
        },
    }


class Handlers:
    async def validar_produtos_cancelamento(
        self, args: ValidarProdutosCancelamentoArgs, ctx: ToolContext
    ) -> Any:
        customer = args.customer_id
        if customer == "2":
            return {"eligible": False, "reason": "Cliente com débito em aberto."}
        if customer == "12":  # a misnamed key: `itens` for `items`
            resolved = {"itens": [{"id": "1001", "name": "TIM Fashion Mensal"}]}
            return {
                "eligible": True,
                "transaction_decision": {
                    "resolved_arguments": resolved,
                    "target_tool": "cancelar_produtos",
                },
            }
        if customer == "3":
            items = [
                {"id": i["id"], "name": f"{i['name']} Mensal"}
                for i in args.items
                if isinstance(i, dict)
            ]
            names = ", ".join(i["name"] for i in items)
            return {
                "eligible": True,
                "transaction_decision": {
                    "resolved_arguments": {"customer_id": customer, "items": items},
                    "target_tool": "cancelar_produtos",
                    "confirmation_message": f"Você confirma o cancelamento de {names}?",
                },
            }
        if customer == "4":
            return {
                "eligible": True,
                "transaction_decision": {
                    "resolved_arguments": {"customer_id": customer, "items": ["TIM"]},
                    "target_tool": "cancelar_produtos",
                },
            }
        if customer == "5":
            raise RuntimeError("validator secret: token=abc123")
        if customer == "6":
            return {"eligible": "sim"}
        if customer == "7":
            raise ToolFailure("VALIDATOR_DOWN", "validator down")
        if customer != "8" and any(isinstance(i, str) for i in args.items):
            return _resolved(customer, list(args.items))
        return {"eligible": True}

    async def cancelar_produtos(self, args: CancelarProdutosResolved, ctx: ToolContext) -> Any:
        if args.customer_id == "404":
            raise ToolFailure("CUSTOMER_NOT_FOUND", "O cliente não existe.")
        if args.customer_id == "500":
            return {"status": "COMPLETED", "output": {"outra_etapa": {"results": []}}}
        if args.customer_id in ("503", "504"):
            failed = {"status": "FAILED", "output": {}}
            said: Any = {"code": "CUSTOMER_NOT_FOUND", "message": "Cliente desconhecido."}
            if args.customer_id == "504":
                said = "crm: timeout secret"
            return {"ok": False, "result": failed, "error": said}
        results = [
            {"id": p.id, "subject": p.name, "success": True, "protocol": f"X{p.id}"}
            if not p.id.startswith("9")
            else {"id": p.id, "subject": p.name, "success": False, "reason": "not_found"}
            for p in args.items
        ]
        step = {
            "results": results,
            "confirmed": ctx.confirmed,
            "pre_validated": ctx.decision is not None,
            "received": sorted({type(p).__name__ for p in args.items}),
        }
        run = {
            "status": "COMPLETED",
            "output": {"cancelar_produtos": step, "notificar": {"success": True}},
        }
        if args.customer_id == "405":  # a failure after the items: their evidence kept
            raise ToolFailure("CUSTOMER_NOT_FOUND", "O cliente sumiu.", data=run)
        if any(p.name == "aux-fail" for p in args.items):
            run["output"]["notificar"] = {"success": False, "error": "smtp: secret"}
            return {"ok": False, "result": run, "error": "falha em pós-processamento"}
        return run
