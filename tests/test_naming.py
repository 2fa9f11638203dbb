from __future__ import annotations

import keyword
from pathlib import Path

import pydantic
import pytest
from built_package import built_tools
from toolc.emit.pyimports import HELPERS
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


# Helpers the generated annotations call: pydantic evaluates a model's annotations in its
# class namespace, where a field of the same name would stand for the helper (`validated`
# is called only inside `default_factory` lambdas, which read the module's names).
IN_ANNOTATIONS = [n for n in HELPERS if n.islower() and n != "validated"]


@pytest.mark.parametrize("helper", IN_ANNOTATIONS)
def test_a_field_never_shadows_a_helper_its_annotations_call(helper: str) -> None:
    assert snake(helper) == helper + "_"


def test_fields_named_after_every_helper_build_and_validate(tmp_path: Path) -> None:
    """Found by `make fuzz`: a field named `conforms_number` (or `conforms`, `integral`)
    made the model unusable ("'NoneType' object is not callable")."""
    named = "\n".join(f"      {n}: {{type: string}}" for n in HELPERS if n.islower())
    config = f"""\
tools:
  t:
    version: 1.0.0
    description: fields named after the helpers
    mcp_server: s
    tool_type: query
    args_schema:
{named}
      checked: {{type: string, not: {{const: x}}}}
      bounded: {{type: integer, minimum: 3}}
      thirds: {{type: number, multipleOf: 3}}
      several: {{type: array, items: {{type: number}}, contains: {{minimum: 2}}}}
      unique: {{type: array, items: {{type: string}}, uniqueItems: true}}
"""
    model = built_tools(tmp_path, config, "helper_names_pkg")["t"].args_model
    made = model.model_validate({"conforms": "a", "checked": "y", "thirds": 3, "bounded": 4})
    assert made.conforms_ == "a" and made.thirds == 3.0
    with pytest.raises(pydantic.ValidationError):
        model.model_validate({"checked": "x"})
    with pytest.raises(pydantic.ValidationError):
        model.model_validate({"several": [1]})
