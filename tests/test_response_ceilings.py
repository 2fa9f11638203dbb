"""Response ceilings (issue 14 item 3), from a real server: `consultar_pedidos` of
examples/retail has a 64 KB ceiling. Data that fits the budget the handler sees
(`ctx.budget_bytes`) is always sent, even in the worst envelope (a logged secondary
failure); more is never sent: RESPONSE_TOO_LARGE, with the sizes in `details`. The
reserve toolc computes is the worst case measured here, and a ceiling too small to hold it
is refused at build time."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from runtime_support.harness import EXAMPLES, Connection, package
from toolc.contract.reserve import refusal_bytes, reserve_bytes

RETAIL = EXAMPLES / "retail" / "generated" / "mcp_tools"
CEILING = 65536


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Connection]:
    pkg = package(RETAIL, tmp_path_factory.mktemp("ceilings"))
    connection = Connection(pkg, "ceiling_handlers")
    try:
        yield connection
    finally:
        connection.close()


def _size(envelope: dict[str, object]) -> int:
    return len(json.dumps(envelope, ensure_ascii=False, separators=(",", ":")).encode())


def test_data_within_the_budget_is_sent(conn: Connection) -> None:
    envelope = conn.call("consultar_pedidos", {"order_ids": ["P-800"]})
    assert envelope["ok"] and _size(envelope) <= CEILING
    assert len(envelope["data"]["results"]) > 100  # the budget was really filled
    # its item lists did not fit beside a full budget: the composition says where to look
    composition = envelope["data"]["metadata"]["composition"]
    assert composition["listed"] is False and "from `results`" in composition["instruction"]


def test_a_small_answer_keeps_its_listed_composition(conn: Connection) -> None:
    envelope = conn.call("consultar_pedidos", {"order_ids": ["P-1", "P-2"]})
    composition = envelope["data"]["metadata"]["composition"]
    assert "listed" not in composition and len(composition["succeeded"]) == 2


def test_the_reserve_counts_the_composition_the_server_keeps() -> None:
    from toolc.contract.reserve import COMPACT_COMPOSITION
    from toolc.runtime.server_composition import compact_composition

    assert compact_composition("PARTIAL_SUCCESS") == COMPACT_COMPOSITION


def test_the_worst_envelope_around_a_full_budget_still_fits(conn: Connection) -> None:
    envelope = conn.call("consultar_pedidos", {"order_ids": ["P-802"]})
    assert envelope["ok"] and envelope["data"]["secondary_error"]["code"] == "TOOL_ERROR"
    assert _size(envelope) <= CEILING


def test_an_oversize_answer_is_never_sent(conn: Connection) -> None:
    result = conn.run(conn.client.call_tool, "consultar_pedidos", {"order_ids": ["P-801"]})
    envelope = conn.sealed("consultar_pedidos", result)
    assert len(result.content) == 1  # nothing of the refused answer leaves
    error = envelope["error"]
    assert error["code"] == "RESPONSE_TOO_LARGE" and error["retryable"] is False
    details = error["details"]
    assert details["ceilingBytes"] == CEILING and details["responseBytes"] > CEILING
    assert details["budgetBytes"] == CEILING - details["reserveBytes"]
    assert _size(envelope) <= CEILING


def test_tools_without_a_ceiling_are_unbounded(conn: Connection) -> None:
    ids = [f"P-{n}" for n in range(10000, 13000) if n % 100 != 5]  # plain successes
    envelope = conn.call("cancelar_pedidos", {"order_ids": ids})
    assert envelope["ok"] and _size(envelope) > CEILING


def test_the_reserve_grows_with_what_the_envelope_composes() -> None:
    plain = reserve_bytes("t", "1.0.0", False, {}, 1000)
    assert plain == len('{"ok":true,"data":,"meta":{"tool":"t","version":"1.0.0"}}')
    multi = reserve_bytes("t", "1.0.0", True, {}, 1000)
    hinted = reserve_bytes("t", "1.0.0", True, {"E": (True, "h" * 500)}, 1000)
    assert plain < multi < hinted and hinted - multi > 300  # its hint, not the message
    assert refusal_bytes("t", "1.0.0", 1000) < 400
