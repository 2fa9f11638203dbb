"""The multi-item guide's §1–3, declared with `accepts` (decision 0053) and run over real
stdio with the SDK's client, in both protocol eras: the user says "quero cancelar TIM
Fashion, Aya Audiobooks e Neymar Jr", the call carries the names, the pre-validator
resolves them into canonical products and words the one confirmation, the handler gets
typed `Produto` items, and the results come out per item. examples/telecom's generated
package, with the handlers of tests/runtime_support/telecom_handlers.py."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator
from runtime_support.client_support import Answers, client_package, server_params
from runtime_support.harness import EXAMPLES, Connection, package

TELECOM = EXAMPLES / "telecom" / "generated" / "mcp_tools"
SAID = ["TIM Fashion", "Aya Audiobooks", "Neymar Jr"]
CANONICAL = [
    {"id": "1001", "name": "TIM Fashion Mensal"},
    {"id": "1002", "name": "Aya Audiobooks Premium"},
    {"id": "1003", "name": "Neymar Jr"},
]


@pytest.fixture(scope="module")
def server_pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return package(TELECOM, tmp_path_factory.mktemp("resolve_server"))


@pytest.fixture(scope="module", params=["auto", "legacy"])
def telecom(request: pytest.FixtureRequest, server_pkg: Path) -> Iterator[Connection]:
    connection = Connection(server_pkg, "telecom_handlers", mode=request.param)
    try:
        yield connection
    finally:
        connection.close()


def _asked(connection: Connection) -> list[str]:
    return [q.message for q in connection.asker.questions]


def _contract() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        (TELECOM / "contracts" / "cancelar_produtos.json").read_text(encoding="utf-8")
    )
    return document


def test_the_published_schema_takes_the_names_and_the_handler_form_is_recorded() -> None:
    published = json.loads((TELECOM / "schemas" / "cancelar_produtos.input.json").read_text())
    check = Draft202012Validator(published)
    assert check.is_valid({"customer_id": "123", "items": SAID})
    assert check.is_valid({"customer_id": "123", "items": CANONICAL})
    handler = Draft202012Validator(_contract()["handler_input_schema"])
    assert not handler.is_valid({"customer_id": "123", "items": SAID})
    assert handler.is_valid({"customer_id": "123", "items": CANONICAL})


def test_names_in_one_confirmation_typed_products_results_out(telecom: Connection) -> None:
    telecom.asker.action = "accept"
    telecom.asker.questions.clear()
    envelope = telecom.call("cancelar_produtos", {"customer_id": "123", "items": SAID})
    assert _asked(telecom) == [
        "Você confirma o cancelamento de TIM Fashion Mensal, Aya Audiobooks Premium e Neymar Jr?"
    ]
    assert envelope["ok"] is True
    data = envelope["data"]
    assert data["received"] == ["Produto"]  # the handler's items, typed
    assert [(r["id"], r["subject"], r["success"]) for r in data["results"]] == [
        ("1001", "TIM Fashion Mensal", True),
        ("1002", "Aya Audiobooks Premium", True),
        ("1003", "Neymar Jr", True),
    ]
    assert data["multi_item_status"] == "SUCCESS"


def test_a_name_the_catalogue_lacks_is_reported_per_item(telecom: Connection) -> None:
    telecom.asker.action = "accept"
    telecom.asker.questions.clear()
    args = {"customer_id": "123", "items": ["TIM Fashion", "Globoplay"]}
    data = telecom.call("cancelar_produtos", args)["data"]
    assert [(r["subject"], r["success"]) for r in data["results"]] == [
        ("TIM Fashion Mensal", True),
        ("Globoplay", False),
    ]
    assert data["multi_item_status"] == "PARTIAL_SUCCESS"
    assert data["metadata"]["multi_item"]["items_failed_count"] == 1


def test_names_nothing_resolved_fail_closed(telecom: Connection) -> None:
    telecom.asker.questions.clear()
    envelope = telecom.call("cancelar_produtos", {"customer_id": "8", "items": SAID})
    assert envelope["ok"] is False
    assert envelope["error"]["code"] == "PRE_VALIDATION_FAILED"
    assert [d["field"] for d in envelope["error"]["details"]] == [
        "items[0]",
        "items[1]",
        "items[2]",
    ]
    assert telecom.asker.questions == []


def test_a_value_outside_the_caller_form_is_refused_before_the_validator(
    telecom: Connection,
) -> None:
    envelope = telecom.call("cancelar_produtos", {"customer_id": "123", "items": [7]})
    assert envelope["error"]["code"] == "VALIDATION_ERROR"


def test_the_typed_client_sends_the_names(server_pkg: Path, tmp_path: Path) -> None:
    pkg = client_package(TELECOM, tmp_path, "telecom_resolve_client")
    client_cls = importlib.import_module(f"{pkg.__name__}.client").ContasClient
    answers = Answers()

    async def main() -> Any:
        params = server_params(server_pkg, "telecom_handlers")
        async with client_cls.connect(params, confirm=answers) as tools:
            return await tools.cancelar_produtos(customer_id="123", items=SAID)

    result = anyio.run(main)
    runtime = importlib.import_module(f"{pkg.__name__}.client_runtime")
    assert isinstance(result, runtime.Success)
    assert [r.subject for r in result.data.results] == [p["name"] for p in CANONICAL]
    assert [r.message for r in answers.requests] == [
        "Você confirma o cancelamento de TIM Fashion Mensal, Aya Audiobooks Premium e Neymar Jr?"
    ]


@pytest.mark.parametrize("customer", ["123", "405"])
def test_item_keys_follow_the_items_the_handler_received(
    telecom: Connection, customer: str
) -> None:
    """Keys follow the resolved items (the guide's §9: one key per item): "TIM Fashion"
    and "Globoplay" sent, and the result's `_meta` keys are those of the canonical items
    the handler received, derived from the request key as a client derives them; also
    when the handler raised a failure after its items (customer 405), whose results a
    client would otherwise retry by position."""
    from toolc.runtime.server_keys import ITEM_KEYS, REQUEST_KEY, derive_item_keys

    telecom.asker.action = "accept"
    args = {"customer_id": customer, "items": ["TIM Fashion", "Globoplay"]}
    result = telecom.run(
        telecom.client.call_tool, "cancelar_produtos", args, meta={REQUEST_KEY: "k-1"}
    )
    handled = (result.meta or {})[ITEM_KEYS]
    received = [{"id": "1001", "name": "TIM Fashion Mensal"}, {"id": "9001", "name": "Globoplay"}]
    assert handled == derive_item_keys("k-1", received), result.meta
    assert handled != derive_item_keys("k-1", args["items"])


def test_a_resolved_call_is_not_retried_by_position(server_pkg: Path, tmp_path: Path) -> None:
    """A retry resent the caller's item at the failed result's position, which after a
    resolution (another order, an expansion) is another item: an item already done ran
    again and the failed one never did. The handle now says why it cannot retry."""
    pkg = client_package(TELECOM, tmp_path, "telecom_retry_client")
    module = importlib.import_module(f"{pkg.__name__}.client")
    runtime = importlib.import_module(f"{pkg.__name__}.client_runtime")

    async def main() -> Any:
        params = server_params(server_pkg, "telecom_handlers")
        async with module.ContasClient.connect(params, confirm=Answers()) as tools:
            first = await tools.cancelar_produtos(
                customer_id="123", items=["TIM Fashion", "Globoplay"]
            )
            try:
                await first.retry_failed()
            except runtime.ToolCallError as exc:
                return first, str(exc)
            return first, None

    first, refused = anyio.run(main)
    assert first.multi_item.status == "PARTIAL_SUCCESS"
    assert refused is not None and "cannot be retried by position" in refused
