"""The server runtime end to end: real server processes (the checked-in generated packages
of examples/retail and examples/telecom, and tests/runtime_support/lab built here, each
with the runtime copied in as the build ships it) driven by the SDK's real stdio client,
in both protocol eras. Handlers in tests/runtime_support choose their behaviour from the
arguments, so one process per fixture covers many cases. Every envelope goes through
`sealed`: it validates against the tool's published outputSchema, error results too."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import types
from mcp.shared.exceptions import MCPError
from runtime_support.harness import EXAMPLES, SUPPORT, Connection, build, package
from runtime_support.markers import PNG, SECRET
from toolc.verbs.listing import wire_size

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
ERROR_ID = re.compile(r"^[0-9a-f]{32}$")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("server_stdio")


def _pkg(root: Path, name: str) -> Path:
    return package(EXAMPLES / name / "generated" / "mcp_tools", root / name)


def _connect(*args: Any, **kwargs: Any) -> Iterator[Connection]:
    connection = Connection(*args, **kwargs)
    try:
        yield connection
    finally:
        connection.close()


@pytest.fixture(scope="module")
def retail_pkg(root: Path) -> Path:
    return _pkg(root, "retail")


@pytest.fixture(scope="module")
def telecom_pkg(root: Path) -> Path:
    return _pkg(root, "telecom")


@pytest.fixture(scope="module")
def lab_pkg(root: Path) -> Path:
    built = build(SUPPORT / "lab", root / "build" / "lab_tools")
    return package(built, root / "lab")


@pytest.fixture(scope="module")
def retail_log(root: Path) -> Path:
    return root / "retail.log"


@pytest.fixture(scope="module")
def retail(retail_pkg: Path, retail_log: Path) -> Iterator[Connection]:
    yield from _connect(retail_pkg, "retail_handlers", log=retail_log)


@pytest.fixture(scope="module")
def retail_legacy(retail_pkg: Path, root: Path) -> Iterator[Connection]:
    yield from _connect(retail_pkg, "retail_handlers", mode="legacy", log=root / "legacy.log")


@pytest.fixture(scope="module", params=["auto", "legacy"])
def retail_era(request: pytest.FixtureRequest) -> Connection:
    name = "retail" if request.param == "auto" else "retail_legacy"
    connection: Connection = request.getfixturevalue(name)
    return connection


@pytest.fixture(scope="module", params=["auto", "legacy"])
def retail_mute(request: pytest.FixtureRequest, retail_pkg: Path) -> Iterator[Connection]:
    """A client without the elicitation capability."""
    yield from _connect(retail_pkg, "retail_handlers", mode=request.param, elicitation=False)


@pytest.fixture(scope="module")
def telecom(telecom_pkg: Path, root: Path) -> Iterator[Connection]:
    yield from _connect(telecom_pkg, "telecom_handlers", log=root / "telecom.log")


@pytest.fixture(scope="module")
def telecom_legacy(telecom_pkg: Path) -> Iterator[Connection]:
    yield from _connect(telecom_pkg, "telecom_handlers", mode="legacy")


@pytest.fixture(scope="module", params=["auto", "legacy"])
def telecom_era(request: pytest.FixtureRequest) -> Connection:
    name = "telecom" if request.param == "auto" else "telecom_legacy"
    connection: Connection = request.getfixturevalue(name)
    return connection


@pytest.fixture(scope="module")
def lab(lab_pkg: Path, root: Path) -> Iterator[Connection]:
    yield from _connect(lab_pkg, "lab_handlers", server="lab", log=root / "lab.log")


def answering(connection: Connection, action: str) -> Connection:
    connection.asker.action = action
    connection.asker.questions.clear()
    return connection


def error(envelope: dict[str, Any], code: str) -> dict[str, Any]:
    assert envelope["ok"] is False, envelope
    assert envelope["error"]["code"] == code, envelope
    info: dict[str, Any] = envelope["error"]
    return info


def multi(envelope: dict[str, Any], status: str, counts: tuple[int, int]) -> None:
    data = envelope["data"]
    succeeded, failed = counts
    assert data["multi_item_status"] == status
    assert data["partial_success"] is (status == "PARTIAL_SUCCESS")
    assert data["metadata"]["multi_item"] == {
        "status": status,
        "items_count": succeeded + failed,
        "items_succeeded_count": succeeded,
        "items_failed_count": failed,
        "primary_tool": envelope["meta"]["tool"],
    }


# tools/list


def _listed(connection: Connection) -> list[dict[str, Any]]:
    return [
        t.model_dump(by_alias=True, mode="json", exclude_none=True)
        for t in connection.list_tools().tools
    ]


def test_the_eras_are_the_ones_asked_for(retail: Connection, retail_legacy: Connection) -> None:
    assert retail.protocol_version == MODERN
    assert retail_legacy.protocol_version == LEGACY


@pytest.mark.parametrize("name", ["retail", "retail_legacy", "telecom"])
def test_list_tools_is_tools_json(name: str, request: pytest.FixtureRequest) -> None:
    connection: Connection = request.getfixturevalue(name)
    listed = _listed(connection)
    assert listed == list(connection.published.values())
    assert all(t["_meta"]["version"] for t in listed)


def _jcs(value: Any) -> bytes:
    """RFC 8785 for what descriptors hold (no floats): members sorted by UTF-16 code units,
    compact, strings as JSON.stringify writes them. Written here apart from toolc's own."""
    if isinstance(value, dict):
        members = sorted(value.items(), key=lambda kv: kv[0].encode("utf-16-be"))
        inner = b",".join(json.dumps(k, ensure_ascii=False).encode() + b":" + _jcs(v)
                          for k, v in members)  # fmt: skip
        return b"{" + inner + b"}"
    if isinstance(value, list):
        return b"[" + b",".join(_jcs(v) for v in value) + b"]"
    assert not isinstance(value, float)
    return json.dumps(value, ensure_ascii=False).encode()


@pytest.mark.parametrize("name", ["retail", "telecom"])
def test_each_listed_tool_carries_the_digest_of_what_it_lists(
    name: str, request: pytest.FixtureRequest
) -> None:
    """A gateway pins a tool by `_meta["dev.toolc/sha256"]`: the SHA-256 of the canonical JSON of
    the listed tool without `_meta`, recomputed here from what the client received."""
    connection: Connection = request.getfixturevalue(name)
    for tool in _listed(connection):
        meta = tool.pop("_meta")
        assert meta["dev.toolc/sha256"] == hashlib.sha256(_jcs(tool)).hexdigest(), tool["name"]


@pytest.mark.parametrize("name", ["retail", "telecom"])
def test_the_listing_cost_is_what_the_client_receives(
    name: str, request: pytest.FixtureRequest
) -> None:
    """`toolc check --stats` counts each descriptor's bytes as sent: the JSON the SDK client
    parsed, written back compactly, has exactly that size."""
    connection: Connection = request.getfixturevalue(name)
    for tool in connection.list_tools().tools:
        received = tool.model_dump_json(by_alias=True, exclude_none=True).encode()
        assert wire_size(connection.published[tool.name]) == len(received), tool.name


@pytest.mark.parametrize("name", ["retail", "telecom"])
def test_every_listed_tool_has_its_title_in_both_places(
    name: str, request: pytest.FixtureRequest
) -> None:
    """Directories and older clients read `annotations.title`, newer ones the top-level
    `title` (MCP 2025-06-18 on): both are published, and they agree."""
    connection: Connection = request.getfixturevalue(name)
    for tool in connection.list_tools().tools:
        assert tool.title and tool.annotations is not None
        assert tool.annotations.title == tool.title, tool.name


def test_list_tools_serves_one_mcp_server(lab: Connection) -> None:
    listed = _listed(lab)
    assert [t["name"] for t in listed] == ["checar", "reservar"]
    assert listed == [lab.published["checar"], lab.published["reservar"]]
    assert "outro" in lab.published  # published in tools.json, served by another server


# Successful calls and multi-item normalization


def test_all_items_succeed(retail: Connection) -> None:
    envelope = retail.call("consultar_pedidos", {"order_ids": ["P-100", "P-101"]})
    assert envelope["ok"] is True
    multi(envelope, "SUCCESS", (2, 0))
    assert envelope["data"]["results"] == [
        {"order_id": "P-100", "ok": True, "status": "shipped"},
        {"order_id": "P-101", "ok": True, "status": "shipped"},
    ]
    assert "original_ok" not in envelope["data"]


def test_some_items_fail(retail: Connection) -> None:
    envelope = retail.call("consultar_pedidos", {"order_ids": ["P-100", "P-900", "P-101"]})
    assert envelope["ok"] is True
    multi(envelope, "PARTIAL_SUCCESS", (2, 1))


def test_no_item_succeeds(retail: Connection) -> None:
    result = retail.run(
        retail.client.call_tool, "consultar_pedidos", {"order_ids": ["P-900", "P-901"]}
    )
    assert result.is_error is True  # an agent reading isError sees the failure
    envelope = retail.sealed("consultar_pedidos", result)
    info = error(envelope, "ALL_ITEMS_FAILED")
    assert "retryable" not in info and info["hint"]
    multi(envelope, "FAILED", (0, 2))
    assert [r["order_id"] for r in envelope["data"]["results"]] == ["P-900", "P-901"]


def test_a_tool_that_is_not_multi_item(lab: Connection) -> None:
    envelope = lab.call("reservar", {"codigo": "A1", "quantidade": 3})
    assert envelope == {
        "ok": True,
        "data": {"reservado": "A1", "pre_validado": True, "quantidade": 3},
        "meta": {"tool": "reservar", "version": "1.2.0"},
    }


def test_handler_context(retail: Connection) -> None:
    envelope = answering(retail, "accept").call("cancelar_pedidos", {"order_ids": ["P-1"]})
    data = envelope["data"]
    assert (data["tool"], data["version"], data["confirmed"]) == (
        "cancelar_pedidos",
        "2.0.0",
        True,
    )


def test_images_come_first(retail: Connection) -> None:
    answering(retail, "accept")
    result = retail.run(retail.client.call_tool, "cancelar_pedidos", {"order_ids": ["P-507"]})
    envelope = retail.sealed("cancelar_pedidos", result)
    assert envelope["ok"] is True
    image = result.content[0]
    assert isinstance(image, types.ImageContent)
    assert image.mime_type == "image/png"
    assert base64.b64decode(image.data) == PNG
    assert len(result.content) == 2


# Secondary failures: completed items are never erased


def test_secondary_failure_after_completed_items(retail: Connection) -> None:
    answering(retail, "accept")
    envelope = retail.call("cancelar_pedidos", {"order_ids": ["P-100", "P-105", "P-900"]})
    assert envelope["ok"] is True
    multi(envelope, "PARTIAL_SUCCESS", (2, 1))
    data = envelope["data"]
    assert data["original_ok"] is False
    assert data["secondary_error"] == {
        "code": "ORDER_SERVICE_UNAVAILABLE",
        "message": "A notificação ao cliente falhou.",
        "retryable": True,
        "hint": "Tente novamente em alguns minutos.",
    }


def test_secondary_failure_with_no_completed_item_fails_the_call(retail: Connection) -> None:
    answering(retail, "accept")
    envelope = retail.call("cancelar_pedidos", {"order_ids": ["P-905", "P-900"]})
    info = error(envelope, "ORDER_SERVICE_UNAVAILABLE")
    assert info["retryable"] is True
    multi(envelope, "FAILED", (0, 2))
    assert "original_ok" not in envelope["data"]


def test_declared_failure_raised_with_items_keeps_them(retail: Connection) -> None:
    answering(retail, "accept")
    envelope = retail.call("cancelar_pedidos", {"order_ids": ["P-100", "P-508"]})
    assert envelope["ok"] is True
    multi(envelope, "SUCCESS", (2, 0))
    assert envelope["data"]["original_ok"] is False
    assert envelope["data"]["secondary_error"]["message"] == "Caiu no meio."


# Domain errors and internal failures


def test_declared_domain_error(retail: Connection) -> None:
    answering(retail, "accept")
    envelope = retail.call("cancelar_pedidos", {"order_ids": ["P-503"]})
    assert error(envelope, "ORDER_SERVICE_UNAVAILABLE") == {
        "code": "ORDER_SERVICE_UNAVAILABLE",
        "message": "O sistema de pedidos não respondeu.",
        "details": {"service": "orders"},
        "retryable": True,
        "hint": "Tente novamente em alguns minutos.",
    }
    assert "data" not in envelope


def test_a_declared_error_whose_message_is_no_text_is_still_a_valid_envelope(
    retail: Connection,
) -> None:
    """`ToolFailure(code, 42)` was sent as `message: 42`, which the outputSchema refuses
    (the typed client then raised instead of returning a Failure)."""
    answering(retail, "accept")
    envelope = retail.call("cancelar_pedidos", {"order_ids": ["P-513"]})
    assert error(envelope, "ORDER_SERVICE_UNAVAILABLE")["message"] == "42"


def test_declared_domain_error_of_a_plain_tool(lab: Connection) -> None:
    info = error(lab.call("reservar", {"codigo": "esgotado"}), "ESGOTADO")
    assert info == {
        "code": "ESGOTADO",
        "message": "Sem estoque.",
        "details": {"codigo": "esgotado"},
        "retryable": True,
        "hint": "Tente outro código.",
    }


def _leaks(result: Any, *secrets: str) -> bool:
    wire = json.dumps(result.model_dump(mode="json", by_alias=True), ensure_ascii=False)
    return any(secret in wire for secret in secrets)


def test_handler_exception_is_tool_error_without_internals(
    retail: Connection, retail_log: Path
) -> None:
    result = retail.run(retail.client.call_tool, "consultar_pedidos", {"order_ids": ["P-500"]})
    info = error(retail.sealed("consultar_pedidos", result), "TOOL_ERROR")
    assert ERROR_ID.match(info["errorId"])
    assert info["errorId"] in info["message"]
    assert not _leaks(result, "hunter2", "RuntimeError", "Traceback", "/srv/")
    log = retail_log.read_text(encoding="utf-8")
    assert info["errorId"] in log and SECRET in log and "Traceback" in log


def test_each_failure_gets_a_fresh_error_id(retail: Connection) -> None:
    ids = {
        error(retail.call("consultar_pedidos", {"order_ids": ["P-500"]}), "TOOL_ERROR")["errorId"]
        for _ in range(3)
    }
    assert len(ids) == 3


def test_undeclared_code_is_tool_error(retail: Connection, retail_log: Path) -> None:
    answering(retail, "accept")
    result = retail.run(retail.client.call_tool, "cancelar_pedidos", {"order_ids": ["P-504"]})
    info = error(retail.sealed("cancelar_pedidos", result), "TOOL_ERROR")
    assert not _leaks(result, "hunter2", "NOT_DECLARED")
    log = retail_log.read_text(encoding="utf-8")
    assert info["errorId"] in log and "NOT_DECLARED" in log


@pytest.mark.parametrize("order", ["P-510", "P-511", "P-512"])
def test_a_handler_raising_system_exit_does_not_stop_the_server(
    retail: Connection, order: str
) -> None:
    """SystemExit, KeyboardInterrupt and a CancelledError the handler raised itself (the
    call was not cancelled: it ended the stdio server) are its bugs, sealed like any other
    exception; the server keeps answering."""
    info = error(retail.call("consultar_pedidos", {"order_ids": [order]}), "TOOL_ERROR")
    assert ERROR_ID.match(info["errorId"])
    assert retail.call("consultar_pedidos", {"order_ids": ["P-100"]})["ok"] is True


def test_results_without_item_status_are_invalid_result(retail: Connection) -> None:
    answering(retail, "accept")
    envelope = retail.call("cancelar_pedidos", {"order_ids": ["P-506"]})
    info = error(envelope, "INVALID_RESULT")
    assert info["details"][0]["field"].startswith("data.results[")


@pytest.mark.parametrize("codigo", ["bad-return", "nan"])
def test_data_outside_the_contract_is_invalid_result(lab: Connection, codigo: str) -> None:
    info = error(lab.call("reservar", {"codigo": codigo}), "INVALID_RESULT")
    assert ERROR_ID.match(info["errorId"]) and info["retryable"] is False


# Argument validation


def test_missing_argument(retail: Connection) -> None:
    info = error(retail.call("consultar_pedidos", {}), "VALIDATION_ERROR")
    assert info["details"] == [
        {"field": "order_ids", "reason": "Field required", "type": "missing"}
    ]
    assert info["retryable"] is False


def test_arguments_absent(retail: Connection) -> None:
    result = retail.run(retail.client.call_tool, "consultar_pedidos", None)
    info = error(retail.sealed("consultar_pedidos", result), "VALIDATION_ERROR")
    assert [d["field"] for d in info["details"]] == ["order_ids"]


def test_patterns_mean_what_javascript_says(retail: Connection) -> None:
    """`^P-[0-9]+$` as ECMA-262 reads it: no match before a final newline (Python's `re`
    accepted "P-100\\n", which the published schema and every JavaScript client refuse)."""
    for refused in ("P-100\n", "P-100\r", "P-1\u2028"):
        info = error(retail.call("consultar_pedidos", {"order_ids": [refused]}), "VALIDATION_ERROR")
        assert info["details"][0]["field"] == "order_ids[0]"
    assert retail.call("consultar_pedidos", {"order_ids": ["P-100"]})["ok"] is True


def test_wrong_type(retail: Connection) -> None:
    info = error(retail.call("consultar_pedidos", {"order_ids": "P-100"}), "VALIDATION_ERROR")
    assert [(d["field"], d["type"]) for d in info["details"]] == [("order_ids", "list_type")]


def test_each_failing_field_is_named(retail: Connection) -> None:
    info = error(
        retail.call("consultar_pedidos", {"order_ids": ["P-1", "X", 7]}),
        "VALIDATION_ERROR",
    )
    fields = [d["field"] for d in info["details"]]
    assert fields == ["order_ids[1]", "order_ids[2]"]
    assert "order_ids[1]" in info["message"]


def test_extra_argument_ignored(retail: Connection) -> None:
    envelope = retail.call("consultar_pedidos", {"order_ids": ["P-1"], "extra": 1})
    assert envelope["ok"] is True


def test_extra_argument_forbidden(lab: Connection) -> None:
    info = error(lab.call("reservar", {"codigo": "A", "extra": 1}), "VALIDATION_ERROR")
    assert [(d["field"], d["type"]) for d in info["details"]] == [("extra", "extra_forbidden")]


def test_invalid_arguments_ask_no_question(retail_era: Connection) -> None:
    connection = answering(retail_era, "accept")
    envelope = connection.call("cancelar_pedidos", {"order_ids": []})
    error(envelope, "VALIDATION_ERROR")
    assert connection.asker.questions == []


# Pre-validation


def _products(*items: tuple[str, str]) -> list[dict[str, str]]:
    return [{"id": i, "name": n} for i, n in items]


def test_pre_validation_eligible(telecom_era: Connection) -> None:
    connection = answering(telecom_era, "accept")
    args = {"customer_id": "1", "items": _products(("1", "TIM Fashion"), ("2", "Aya"))}
    envelope = connection.call("cancelar_produtos", args)
    assert envelope["ok"] is True
    step = envelope["data"]
    assert step["pre_validated"] is True and step["confirmed"] is True
    [question] = connection.asker.questions
    assert question.message == (
        'Cancelar produtos — o cliente: "1"; os produtos: "TIM Fashion", "Aya". Confirm?'
    )


def test_pre_validation_ineligible(telecom_era: Connection) -> None:
    connection = answering(telecom_era, "accept")
    args = {"customer_id": "2", "items": _products(("1", "A"))}
    info = error(connection.call("cancelar_produtos", args), "PRE_VALIDATION_REJECTED")
    assert info["message"] == "Cliente com débito em aberto."
    assert info["details"] == {"reason": "Cliente com débito em aberto."}
    assert info["retryable"] is False
    assert connection.asker.questions == []


def test_pre_validation_resolves_arguments(telecom_era: Connection) -> None:
    connection = answering(telecom_era, "accept")
    args = {"customer_id": "3", "items": _products(("1", "TIM Fashion"), ("2", "Aya"))}
    envelope = connection.call("cancelar_produtos", args)
    assert [r["subject"] for r in envelope["data"]["results"]] == [
        "TIM Fashion Mensal",
        "Aya Mensal",
    ]
    [question] = connection.asker.questions
    assert question.message == "Você confirma o cancelamento de TIM Fashion Mensal, Aya Mensal?"


def test_pre_validation_resolving_the_wrong_shape(telecom: Connection) -> None:
    connection = answering(telecom, "accept")
    args = {"customer_id": "4", "items": _products(("1", "A"))}
    info = error(connection.call("cancelar_produtos", args), "PRE_VALIDATION_FAILED")
    assert [d["field"] for d in info["details"]] == ["items[0]"]
    assert connection.asker.questions == []


@pytest.mark.parametrize("customer", ["5", "6", "7"])
def test_pre_validator_failing_closed(telecom: Connection, customer: str) -> None:
    connection = answering(telecom, "accept")
    args = {"customer_id": customer, "items": _products(("1", "A"))}
    result = connection.run(connection.client.call_tool, "cancelar_produtos", args)
    info = error(connection.sealed("cancelar_produtos", result), "PRE_VALIDATION_FAILED")
    assert ERROR_ID.match(info["errorId"])
    assert not _leaks(result, "abc123", "validator down", "VALIDATOR_DOWN")
    assert connection.asker.questions == []


@pytest.mark.parametrize("codigo", ["boom", "junk"])
def test_pre_validator_failing_open(lab: Connection, codigo: str) -> None:
    envelope = lab.call("reservar", {"codigo": codigo})
    assert envelope["data"] == {"reservado": codigo, "pre_validado": False}


def test_pre_validation_rejects_without_a_reason(lab: Connection) -> None:
    info = error(lab.call("reservar", {"codigo": "nao"}), "PRE_VALIDATION_REJECTED")
    assert info["message"] and "details" not in info


def test_a_resolved_key_that_is_no_argument_fails_the_pre_validation(
    telecom: Connection,
) -> None:
    """With resolved_arguments merged over the call's (decision 0136), a misnamed key would
    leave what the caller sent in place, unsaid: it is PRE_VALIDATION_FAILED, named."""
    connection = answering(telecom, "accept")
    args = {"customer_id": "12", "items": _products(("1", "TIM Fashion"))}
    info = error(connection.call("cancelar_produtos", args), "PRE_VALIDATION_FAILED")
    assert [d["field"] for d in info["details"]] == ["itens"]
    assert connection.asker.questions == []  # refused before any question


def test_pre_validation_resolved_arguments_replace_the_call_s(lab: Connection) -> None:
    envelope = lab.call("reservar", {"codigo": "resolve:Z9"})
    assert envelope["data"] == {"reservado": "Z9", "pre_validado": True, "quantidade": 2}


def test_resolved_arguments_keep_the_arguments_they_do_not_name(lab: Connection) -> None:
    """The guide's §2 resolves `items` alone while its tool also takes `customer_id`: what
    the validator does not name stays as the caller sent it (decision 0136)."""
    envelope = lab.call("reservar", {"codigo": "only-code:Z7", "quantidade": 5})
    assert envelope["data"] == {"reservado": "Z7", "pre_validado": True, "quantidade": 5}


# Workflow-backed tool: output[<tool>].results is authoritative


def test_workflow_partial(telecom: Connection) -> None:
    answering(telecom, "accept")
    args = {"customer_id": "1", "items": _products(("1", "A"), ("9", "B"))}
    envelope = telecom.call("cancelar_produtos", args)
    assert envelope["ok"] is True
    multi(envelope, "PARTIAL_SUCCESS", (1, 1))
    assert "notificar" not in json.dumps(envelope)


def test_workflow_auxiliary_failure_keeps_completed_items(telecom: Connection) -> None:
    answering(telecom, "accept")
    args = {"customer_id": "1", "items": _products(("1", "A"), ("2", "aux-fail"))}
    result = telecom.run(telecom.client.call_tool, "cancelar_produtos", args)
    envelope = telecom.sealed("cancelar_produtos", result)
    assert envelope["ok"] is True
    multi(envelope, "SUCCESS", (2, 0))
    assert envelope["data"]["original_ok"] is False
    assert envelope["data"]["secondary_error"]["code"] == "TOOL_ERROR"
    assert not _leaks(result, "smtp", "pós-processamento")


def test_workflow_failure_with_no_completed_item(telecom: Connection) -> None:
    answering(telecom, "accept")
    args = {"customer_id": "1", "items": _products(("9", "aux-fail"))}
    envelope = telecom.call("cancelar_produtos", args)
    error(envelope, "TOOL_ERROR")
    multi(envelope, "FAILED", (0, 1))


def test_workflow_declared_error(telecom: Connection) -> None:
    answering(telecom, "accept")
    args = {"customer_id": "404", "items": _products(("1", "A"))}
    info = error(telecom.call("cancelar_produtos", args), "CUSTOMER_NOT_FOUND")
    assert info["retryable"] is False
    assert info["hint"] == "Confirme o identificador do cliente."


def test_workflow_output_without_the_tool_s_step(telecom: Connection) -> None:
    answering(telecom, "accept")
    args = {"customer_id": "500", "items": _products(("1", "A"))}
    error(telecom.call("cancelar_produtos", args), "INVALID_RESULT")


def test_workflow_that_failed_before_the_tool_s_step(telecom: Connection) -> None:
    """A run reporting `ok: false` with no output of the tool's step answers its own
    failure: a declared code as declared, free text as TOOL_ERROR (never INVALID_RESULT,
    which would blame the handler's contract)."""
    answering(telecom, "accept")
    args = {"customer_id": "503", "items": _products(("1", "A"))}
    info = error(telecom.call("cancelar_produtos", args), "CUSTOMER_NOT_FOUND")
    assert info["message"] == "Cliente desconhecido."
    assert info["hint"] == "Confirme o identificador do cliente."
    args = {"customer_id": "504", "items": _products(("1", "A"))}
    result = telecom.run(telecom.client.call_tool, "cancelar_produtos", args)
    error(telecom.sealed("cancelar_produtos", result), "TOOL_ERROR")
    assert not _leaks(result, "crm", "secret")


# Confirmation, in both protocol eras


def test_confirmation_accepted(retail_era: Connection) -> None:
    connection = answering(retail_era, "accept")
    envelope = connection.call("cancelar_pedidos", {"order_ids": ["P-100", "P-101"]})
    assert envelope["ok"] is True and envelope["data"]["confirmed"] is True
    [question] = connection.asker.questions
    assert question.message == 'Cancelar pedidos — os pedidos: "P-100", "P-101". Confirm?'
    assert question.requested_schema == {
        "type": "object",
        "properties": {
            "confirm": {
                "type": "boolean",
                "title": "Confirm",
                "description": "True to go ahead, false to cancel.",
            }
        },
        "required": ["confirm"],
    }


@pytest.mark.parametrize("action", ["decline", "cancel", "accept-false"])
def test_confirmation_declined(retail_era: Connection, action: str) -> None:
    connection = answering(retail_era, action)
    envelope = connection.call("cancelar_pedidos", {"order_ids": ["P-100"]})
    info = error(envelope, "CONFIRMATION_DECLINED")
    assert info["retryable"] is False
    assert len(connection.asker.questions) == 1


def test_confirmation_unavailable(retail_mute: Connection) -> None:
    envelope = retail_mute.call("cancelar_pedidos", {"order_ids": ["P-100"]})
    info = error(envelope, "CONFIRMATION_UNAVAILABLE")
    assert info["hint"] and info["retryable"] is False


def test_a_tool_without_confirmation_asks_nothing(retail_mute: Connection) -> None:
    assert retail_mute.call("consultar_pedidos", {"order_ids": ["P-1"]})["ok"] is True


ACCEPT = types.ElicitResult(action="accept", content={"confirm": True})


def test_unrequested_answer_is_ignored(retail_era: Connection) -> None:
    connection = answering(retail_era, "decline")
    envelope = connection.call(
        "cancelar_pedidos", {"order_ids": ["P-100"]}, input_responses={"confirm": ACCEPT}
    )
    error(envelope, "CONFIRMATION_DECLINED")
    assert len(connection.asker.questions) == 1


def _question(connection: Connection, args: dict[str, Any], **kwargs: Any) -> str:
    asked = connection.raw("cancelar_pedidos", args, **kwargs)
    assert isinstance(asked, types.InputRequiredResult), asked
    assert asked.input_requests is not None and list(asked.input_requests) == ["confirm"]
    assert asked.request_state is not None
    return asked.request_state


def _refused(connection: Connection, args: dict[str, Any], state: str) -> None:
    """The SDK's reference servers' answer to a requestState they did not issue."""
    with pytest.raises(MCPError) as caught:
        connection.raw(
            "cancelar_pedidos", args, input_responses={"confirm": ACCEPT}, request_state=state
        )
    assert caught.value.error.code == types.INVALID_PARAMS
    assert caught.value.error.message == "Invalid or expired requestState"
    assert caught.value.error.data == {"reason": "invalid_request_state"}


def test_forged_request_state_is_refused(retail: Connection) -> None:
    args = {"order_ids": ["P-100"]}
    state = _question(retail, args)
    forged = state[:-2] + ("AA" if not state.endswith("AA") else "BB")
    for bad in (forged, "x.y", "", "not a state"):
        _refused(retail, args, bad)
    done = retail.raw(  # the real one still counts
        "cancelar_pedidos", args, input_responses={"confirm": ACCEPT}, request_state=state
    )
    assert retail.sealed("cancelar_pedidos", done)["ok"] is True


def test_an_answer_counts_once_and_for_its_own_call(retail: Connection) -> None:
    args = {"order_ids": ["P-100"]}
    state = _question(retail, args)
    _refused(retail, {"order_ids": ["P-101"]}, state)  # another call's question
    state = _question(retail, args)
    done = retail.raw(
        "cancelar_pedidos", args, input_responses={"confirm": ACCEPT}, request_state=state
    )
    assert isinstance(done, types.CallToolResult)
    assert retail.sealed("cancelar_pedidos", done)["ok"] is True
    _refused(retail, args, state)  # replayed


def test_each_question_has_its_own_state(retail: Connection) -> None:
    args = {"order_ids": ["P-100"]}
    assert _question(retail, args) != _question(retail, args)


def test_a_valid_state_without_an_answer_asks_again(retail: Connection) -> None:
    args = {"order_ids": ["P-100"]}
    state = _question(retail, args)
    _question(retail, args, request_state=state)


# The same server on Streamable HTTP (run_http)


@pytest.fixture(scope="module", params=["auto", "legacy"])
def retail_http(request: pytest.FixtureRequest, retail_pkg: Path) -> Iterator[Connection]:
    yield from _connect(retail_pkg, "retail_handlers", mode=request.param, http=True)


def test_streamable_http(retail_http: Connection) -> None:
    connection = answering(retail_http, "accept")
    assert _listed(connection) == list(connection.published.values())
    envelope = connection.call("cancelar_pedidos", {"order_ids": ["P-100", "P-900"]})
    multi(envelope, "PARTIAL_SUCCESS", (1, 1))
    assert len(connection.asker.questions) == 1
    info = error(connection.call("consultar_pedidos", {"order_ids": ["P-500"]}), "TOOL_ERROR")
    assert ERROR_ID.match(info["errorId"])
    error(connection.call("consultar_pedidos", {}), "VALIDATION_ERROR")


def test_thousands_of_bad_items_are_a_validation_error_within_the_ceiling(
    retail: Connection,
) -> None:
    """5,000 ids off the pattern: the answer listed each (hundreds of KB), so the 64 KB
    ceiling of consultar_pedidos turned it into RESPONSE_TOO_LARGE, "ask for less"."""
    envelope = retail.call("consultar_pedidos", {"order_ids": ["x"] * 5000})
    info = error(envelope, "VALIDATION_ERROR")
    assert info["message"].endswith(" and more.")
    assert len(info["details"]) == 51 and info["details"][-1]["type"] == "truncated"
