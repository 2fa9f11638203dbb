"""The envelope's fixed terms are defined once, in toolc.contract.framework (decision 0044).
The shipped runtime cannot import toolc, so it carries one literal copy
(runtime/server_framework.py, read by the server's sealing and the client's parsing alike)
and the generated `envelope.py` is written from the contract: this is the one test that
keeps every copy identical to the definition."""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
from conftest import ROOT
from toolc.contract import framework as contract
from toolc.emit.envelope import multi_item_data_schema
from toolc.runtime import client_envelope, server_framework, server_sealing
from toolc.runtime.server_types import Reply, ToolFailure

GOLDEN = ROOT / "examples" / "retail" / "generated" / "mcp_tools"


def test_the_runtime_table_is_the_contracts() -> None:
    # Every code in the same order, with the same retryable and hint.
    assert list(server_framework.FRAMEWORK_ERRORS.items()) == list(
        contract.FRAMEWORK_ERRORS.items()
    )
    assert server_framework.FRAMEWORK_ERROR_CODES == contract.FRAMEWORK_ERROR_CODES
    assert server_framework.MULTI_ITEM_STATUSES == contract.MULTI_ITEM_STATUSES
    # The server seals with that one table and the client reads answers with it.
    assert server_sealing.FRAMEWORK_ERRORS is server_framework.FRAMEWORK_ERRORS
    assert server_sealing.FRAMEWORK_ERROR_CODES == contract.FRAMEWORK_ERROR_CODES
    assert dict(server_sealing.FRAMEWORK_ERRORS) == contract.FRAMEWORK_ERRORS  # retryable, hint
    assert server_sealing.MULTI_ITEM_STATUSES == contract.MULTI_ITEM_STATUSES
    assert set(contract.FRAMEWORK_ERROR_CODES) == client_envelope.FRAMEWORK_CODES
    assert set(server_sealing.FRAMEWORK_ERRORS) == client_envelope.FRAMEWORK_CODES


def test_the_generated_envelope_module_carries_the_contracts_terms() -> None:
    values: dict[str, Any] = {}
    for node in ast.parse((GOLDEN / "envelope.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(
            node.value, ast.Constant | ast.Tuple
        ):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            values[ast.unparse(target)] = ast.literal_eval(node.value)
    assert values["ENVELOPE_VERSION"] == contract.ENVELOPE_VERSION
    assert values["FRAMEWORK_ERROR_CODES"] == contract.FRAMEWORK_ERROR_CODES


@dataclass(frozen=True)
class _Error:
    retryable: bool
    hint: str | None


@dataclass(frozen=True)
class _Spec:
    name: str = "t"
    version: str = "1.0.0"
    multi_item: bool = True
    workflow: bool = False
    errors: Mapping[str, _Error] = field(default_factory=lambda: {"BUSY": _Error(True, None)})


def _accept(value: Any) -> None:
    return None


def _items(*flags: bool) -> dict[str, Any]:
    return {"results": [{"id": str(i), "success": f} for i, f in enumerate(flags)]}


@pytest.mark.parametrize("flags", [(True,), (True, False), (False,)])
def test_the_runtime_writes_the_contracts_multi_item_terms(flags: tuple[bool, ...]) -> None:
    """The multi-item fields and statuses the server writes are the contract's, which the
    published schema of a multi-item tool's data declares."""
    later = ToolFailure("BUSY", "a later step failed")
    data = server_sealing.seal_return(
        _Spec(), Reply(_items(*flags), secondary_failure=later), _accept
    )
    written = data.envelope["data"]
    assert written["multi_item_status"] in contract.MULTI_ITEM_STATUSES
    assert written["metadata"]["multi_item"]["status"] in contract.MULTI_ITEM_STATUSES
    with_secondary = set(contract.MULTI_ITEM_FIELDS)
    if not any(flags):  # nothing completed: the failure is the answer's error, not data's
        with_secondary -= {"original_ok", "secondary_error"}
    assert set(written) == with_secondary
    published = multi_item_data_schema("t", {"type": "object"}, None)["properties"]
    assert set(published) == set(contract.MULTI_ITEM_FIELDS)


def test_the_runtime_finds_the_data_where_toolc_does() -> None:
    # Both published forms (decision 0106), an outputSchema that is no envelope, `data: true`.
    from toolc.model.portable import portable

    outputs = [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((GOLDEN / "schemas").glob("*.output.json"))
    ]
    assert outputs
    for output in outputs:
        found = contract.success_data(output)
        assert found is not None and found == output["$defs"]["envelope.Data"]
        assert server_framework.success_data(output) == found
        inlined = portable(output)
        assert "$defs" not in inlined
        assert server_framework.success_data(inlined) == contract.success_data(inlined)
        assert contract.success_data(inlined) == inlined["oneOf"][0]["properties"]["data"]
    for other in ({"type": "object"}, {"oneOf": [{"properties": {"data": {}}}]}):
        assert contract.success_data(other) is None is server_framework.success_data(other)
    wide = {"oneOf": [{"properties": {"ok": {"const": True}, "data": True}}]}
    assert contract.success_data(wide) is True is server_framework.success_data(wide)
