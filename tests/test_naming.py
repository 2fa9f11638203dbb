from __future__ import annotations

import keyword

import pytest
from toolc.model.naming import pascal, snake


@pytest.mark.parametrize(
    ("name", "ident"),
    [
        ("order_ids", "order_ids"),
        ("orderId", "order_id"),
        ("OrderID", "order_id"),
        ("cancel-pedidos", "cancel_pedidos"),
        ("tool.v2", "tool_v2"),
        ("from", "from_"),
        ("class", "class_"),
        ("json", "json_"),
        ("schema", "schema_"),
        ("model_config", "model_config_"),
        ("2fa", "n_2fa"),
        ("--", "arg"),
        ("type", "type"),
    ],
)
def test_snake(name: str, ident: str) -> None:
    assert snake(name) == ident
    assert ident.isidentifier() and not keyword.iskeyword(ident)


@pytest.mark.parametrize(
    ("name", "ident"),
    [
        ("cancelar_pedidos", "CancelarPedidos"),
        ("cancelar-pedidos", "CancelarPedidos"),
        ("consultarPedidos", "ConsultarPedidos"),
        ("tool.with-dots", "ToolWithDots"),
        ("2fa", "N2fa"),
        ("class", "Class"),
    ],
)
def test_pascal(name: str, ident: str) -> None:
    assert pascal(name) == ident and ident.isidentifier()
