"""Response ceilings (issue 14 item 3), from a real server: `consultar_pedidos` of
examples/retail has a 64 KB ceiling. Data that fits the budget the handler sees
(`ctx.budget_bytes`) is always sent, even in the worst envelope (a logged secondary
failure); more is never sent: RESPONSE_TOO_LARGE, with the sizes in `details`. The
reserve toolc computes is the worst case measured here, and a ceiling too small to hold it
is refused at build time."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from runtime_support.harness import EXAMPLES, Connection, package
from toolc import verbs
from toolc.contract.reserve import refusal_bytes, reserve_bytes
from toolc.model.ceilings import reserve_of

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


@pytest.fixture(scope="module")
def budget() -> int:
    """`consultar_pedidos`'s data budget, as the registry gives it to the handler."""
    compiled = verbs.compile_config(EXAMPLES / "retail", emit=False)
    assert compiled.project is not None
    return CEILING - reserve_of(compiled.project.tools["consultar_pedidos"], CEILING)


def _orders(first: str, budget: int, extra: int = 0) -> list[str]:
    """`first`, then as many orders as one result each fills the budget with, and `extra`
    more: the handler answers one result per order, as a multi-item handler must."""
    orders = [first]
    results = [{"order_id": first, "ok": True}]
    while _size({"results": [*results, {"order_id": f"P-{len(orders)}", "ok": True}]}) <= budget:
        results.append({"order_id": f"P-{len(orders)}", "ok": True})
        orders.append(f"P-{len(orders)}")
    return orders + [f"P-{len(orders) + i}" for i in range(extra)]


def test_data_within_the_budget_is_sent(conn: Connection, budget: int) -> None:
    envelope = conn.call("consultar_pedidos", {"order_ids": _orders("P-800", budget)})
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


def test_the_worst_envelope_around_a_full_budget_still_fits(conn: Connection, budget: int) -> None:
    envelope = conn.call("consultar_pedidos", {"order_ids": _orders("P-802", budget)})
    assert envelope["ok"] and envelope["data"]["secondary_error"]["code"] == "TOOL_ERROR"
    assert _size(envelope) <= CEILING


def test_an_oversize_answer_is_never_sent(conn: Connection, budget: int) -> None:
    orders = _orders("P-801", budget, 100)
    result = conn.run(conn.client.call_tool, "consultar_pedidos", {"order_ids": orders})
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


def _sealed(envelope: dict[str, Any]) -> Any:
    from toolc.runtime.server_sealing import Sealed
    from toolc.runtime.server_wire import compact

    return Sealed(envelope, compact(envelope))


@pytest.mark.parametrize("dropped", ["details", "hint", "data", "message"])
def test_an_error_over_its_ceiling_keeps_its_code(dropped: str) -> None:
    """An error answer over the ceiling was RESPONSE_TOO_LARGE, its code, details and
    errorId lost (a VALIDATION_ERROR of long patterns, a declared error's long hint): it
    is shortened instead, what matters least first, and still fits."""
    from toolc.runtime.server_ceilings import Ceiling, enforce

    big = "x" * 2000
    error: dict[str, Any] = {"code": "NAO_ACHEI", "message": "Not found.", "retryable": False}
    error |= {"errorId": "e1", "details": [{"field": "a", "reason": big}], "hint": "Try."}
    envelope: dict[str, Any] = {"ok": False, "error": error, "meta": {"tool": "t", "version": "1"}}
    if dropped in ("hint", "data", "message"):
        error["details"] = {"small": 1}
    if dropped == "hint":
        error["hint"] = big
    if dropped == "data":
        envelope["data"] = {"results": [{"id": big, "success": False}]}
    if dropped == "message":
        error["message"] = big
    sent = enforce(Spec(), Ceiling(600, 100), _sealed(envelope)).envelope
    assert sent["error"]["code"] == "NAO_ACHEI" and sent["error"]["errorId"] == "e1"
    assert _size(sent) <= 600
    before = {"details": [], "hint": ["details"], "data": ["details", "hint"]}  # dropped first
    for key in before.get(dropped, ["details", "hint"]):
        assert key not in sent["error"], sent
    if dropped == "message":
        assert sent["error"]["message"].endswith("…") and "data" not in sent
        assert len(sent["error"]["message"]) > 300  # as much as fits, not nothing
    else:
        assert dropped not in sent and dropped not in sent["error"]
        assert sent["error"]["message"] == "Not found."


def test_an_answer_over_its_ceiling_is_still_refused() -> None:
    from toolc.runtime.server_ceilings import Ceiling, enforce

    envelope = {"ok": True, "data": {"text": "x" * 2000}, "meta": {"tool": "t", "version": "1"}}
    sent = enforce(Spec(), Ceiling(600, 100), _sealed(envelope)).envelope
    assert sent["error"]["code"] == "RESPONSE_TOO_LARGE"


def test_embedded_text_counts_toward_the_ceiling_media_do_not() -> None:
    """A text resource is text the model reads: 400 KB of it went through a 1 KB ceiling."""
    from dataclasses import replace

    from toolc.runtime.server_ceilings import Ceiling, enforce
    from toolc.runtime.server_content import EmbeddedText, Image

    envelope = {"ok": True, "data": {"n": 1}, "meta": {"tool": "t", "version": "1"}}
    small = _sealed(envelope)
    document = replace(small, content=(EmbeddedText("mem://d", "palavra " * 200, "text/plain"),))
    picture = replace(small, content=(Image(b"\x89PNG" * 1000, "image/png"),))
    assert enforce(Spec(), Ceiling(600, 100), document).envelope["error"]["code"] == (
        "RESPONSE_TOO_LARGE"
    )
    assert enforce(Spec(), Ceiling(600, 100), picture) is picture
    fits = replace(small, content=(EmbeddedText("mem://d", "palavra " * 20, "text/plain"),))
    assert enforce(Spec(), Ceiling(600, 100), fits) is fits


def test_an_error_with_embedded_text_drops_the_text_first() -> None:
    """The text resource counts toward the ceiling: an error carrying one lost its code
    (or was cut to nothing) while the document was kept."""
    from dataclasses import replace

    from toolc.runtime.server_ceilings import Ceiling, enforce
    from toolc.runtime.server_content import EmbeddedText, Image

    error = {"code": "ALL_ITEMS_FAILED", "message": "All 2 item(s) of t failed."}
    data = {"results": [{"id": "1", "success": False}, {"id": "2", "success": False}]}
    envelope = {"ok": False, "error": error, "data": data, "meta": {"tool": "t", "version": "1"}}
    picture = Image(b"png", "image/png")
    document = EmbeddedText("mem://d", "x" * 900, "text/plain")
    sealed = replace(_sealed(envelope), content=(picture, document))
    sent = enforce(Spec(), Ceiling(600, 100), sealed)
    assert sent.envelope == envelope and sent.content == (picture,)


class Spec:
    name = "t"
    version = "1"
