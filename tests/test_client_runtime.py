"""The client runtime (compiler/toolc/runtime/client_runtime.py): end to end against real
server processes on examples/retail's generated package (the server runtime copied in, as
the build ships it), in both protocol eras, with the models imported from a copy of the
same package; plus unit tests of the tolerant reading of envelopes a newer compatible
server may send. The retail handlers choose their behaviour from the order ids (see
tests/runtime_support/retail_handlers.py)."""

from __future__ import annotations

import base64
import copy
import dataclasses
import importlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, stdio_client, types
from runtime_support.client_support import Answers, Live, client_package, server_params
from runtime_support.harness import EXAMPLES, RUNTIME, package
from runtime_support.markers import PNG
from toolc.runtime.client_runtime import (
    ConfirmationRequest,
    ErrorReport,
    Failure,
    MissingArgument,
    Success,
    ToolCallError,
    ToolClient,
    missing_arguments,
    parse_envelope,
    parse_result,
)

RETAIL = EXAMPLES / "retail" / "generated" / "mcp_tools"
ERROR_ID = re.compile(r"^[0-9a-f]{32}$")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("client_runtime")


@pytest.fixture(scope="module")
def pkg(root: Path) -> Any:
    """The retail package as a client application imports it."""
    return client_package(RETAIL, root / "client", "retail_client_tools")


@pytest.fixture(scope="module")
def server_pkg(root: Path) -> Path:
    return package(RETAIL, root / "server")


def _live(*args: Any, **kwargs: Any) -> Iterator[Live]:
    live = Live(*args, **kwargs)
    try:
        yield live
    finally:
        live.close()


@pytest.fixture(scope="module", params=["auto", "legacy"])
def retail(request: pytest.FixtureRequest, server_pkg: Path, pkg: Any) -> Iterator[Live]:
    """A client with a `confirm` callback, in each protocol era."""
    yield from _live(
        server_pkg, "retail_handlers", pkg.ALL_TOOLS, mode=request.param, confirm=Answers()
    )


@pytest.fixture(scope="module", params=["auto", "legacy"])
def mute(request: pytest.FixtureRequest, server_pkg: Path, pkg: Any) -> Iterator[Live]:
    """A client without a `confirm` callback."""
    yield from _live(server_pkg, "retail_handlers", pkg.ALL_TOOLS, mode=request.param)


def _ok(envelope: Any) -> Success[Any]:
    assert isinstance(envelope, Success), envelope
    return envelope


def _err(envelope: Any, code: str) -> Failure[Any]:
    assert isinstance(envelope, Failure), envelope
    assert envelope.error.code == code, envelope.error
    return envelope


# End to end


def test_the_eras_are_the_ones_asked_for(retail: Live, request: pytest.FixtureRequest) -> None:
    era = "2026-07-28" if "auto" in request.node.callspec.id else "2025-11-25"
    session = retail.client.session
    assert session is not None and session.session.protocol_version == era  # type: ignore[union-attr]


def test_success_is_typed_with_the_generated_models(retail: Live, pkg: Any) -> None:
    envelope = _ok(retail.call("consultar_pedidos", {"order_ids": ["P-100", "P-101"]}))
    assert isinstance(envelope.data, pkg.ConsultarPedidosData)
    assert all(isinstance(i, pkg.ConsultarPedidosItem) for i in envelope.data.results)
    assert envelope.data.results[0].status == "shipped"
    assert envelope.meta.tool == "consultar_pedidos" and envelope.meta.version == "3.0.0"
    assert envelope.dropped == ()
    multi = envelope.multi_item
    assert multi is not None and multi.status == "SUCCESS" and multi.failed == ()
    assert (multi.items_count, multi.items_succeeded_count, multi.items_failed_count) == (2, 2, 0)
    assert multi.items == tuple(envelope.data.results)
    assert multi.original_ok is True and multi.secondary_error is None


def test_content_blocks_beside_the_envelope_are_kept(retail: Live) -> None:
    retail.answering(True)
    envelope = _ok(retail.call("cancelar_pedidos", {"order_ids": ["P-507"]}))
    (image,) = envelope.content  # the envelope's own text block is not repeated here
    assert isinstance(image, types.ImageContent) and image.mime_type == "image/png"
    assert base64.b64decode(image.data) == PNG
    assert _ok(retail.call("consultar_pedidos", {"order_ids": ["P-100"]})).content == ()


def test_the_args_model_is_accepted_as_well_as_a_mapping(retail: Live, pkg: Any) -> None:
    args = pkg.ConsultarPedidosArgs(order_ids=["P-100"])
    assert _ok(retail.call("consultar_pedidos", args)).data.results[0].order_id == "P-100"


def test_partial_success_offers_the_failed_items_to_retry(retail: Live, pkg: Any) -> None:
    ids = ["P-100", "P-900", "P-101", "P-901"]
    envelope = _ok(retail.call("consultar_pedidos", {"order_ids": ids}))
    multi = envelope.multi_item
    assert multi is not None and multi.status == "PARTIAL_SUCCESS"
    assert (multi.items_count, multi.items_succeeded_count, multi.items_failed_count) == (4, 2, 2)
    assert [i.order_id for i in multi.failed] == ["P-900", "P-901"]
    assert all(isinstance(i, pkg.ConsultarPedidosItem) and i.ok is False for i in multi.failed)
    assert envelope.data.partial_success is True


def test_no_item_succeeds(retail: Live) -> None:
    envelope = _err(retail.call("consultar_pedidos", {"order_ids": ["P-900"]}), "ALL_ITEMS_FAILED")
    assert envelope.error.known and envelope.error.hint
    multi = envelope.multi_item
    assert multi is not None and multi.status == "FAILED" and len(multi.failed) == 1
    assert envelope.data is not None and envelope.data.multi_item_status == "FAILED"


def test_a_domain_error_has_its_code_retryable_and_hint(retail: Live) -> None:
    retail.answering(True)
    envelope = _err(
        retail.call("cancelar_pedidos", {"order_ids": ["P-503"]}), "ORDER_SERVICE_UNAVAILABLE"
    )
    assert envelope.error == ErrorReport(
        code="ORDER_SERVICE_UNAVAILABLE",
        message="O sistema de pedidos não respondeu.",
        details={"service": "orders"},
        retryable=True,
        hint="Tente novamente em alguns minutos.",
    )
    assert envelope.error.known and not envelope.local and envelope.data is None


def test_a_handler_exception_is_a_tool_error_with_an_error_id(retail: Live) -> None:
    envelope = _err(retail.call("consultar_pedidos", {"order_ids": ["P-500"]}), "TOOL_ERROR")
    assert envelope.error.error_id is not None and ERROR_ID.match(envelope.error.error_id)
    assert envelope.error.retryable is None and envelope.error.known


def test_a_secondary_failure_keeps_the_completed_items(retail: Live, pkg: Any) -> None:
    retail.answering(True)
    envelope = _ok(retail.call("cancelar_pedidos", {"order_ids": ["P-100", "P-905"]}))
    multi = envelope.multi_item
    assert multi is not None and multi.status == "PARTIAL_SUCCESS"
    assert multi.original_ok is False
    assert multi.secondary_error is not None
    assert multi.secondary_error.code == "ORDER_SERVICE_UNAVAILABLE"
    assert multi.secondary_error.retryable is True
    assert [i.order_id for i in multi.failed] == ["P-905"]
    assert isinstance(multi.failed[0], pkg.CancelarPedidosItem)
    assert multi.failed[0].reason == "already_shipped"


def test_a_failure_keeps_its_typed_per_item_evidence(retail: Live, pkg: Any) -> None:
    retail.answering(True)
    envelope = _err(
        retail.call("cancelar_pedidos", {"order_ids": ["P-905"]}), "ORDER_SERVICE_UNAVAILABLE"
    )
    assert isinstance(envelope.data, pkg.CancelarPedidosData)
    assert envelope.multi_item is not None and envelope.multi_item.status == "FAILED"
    assert [i.order_id for i in envelope.multi_item.failed] == ["P-905"]


def test_confirmation_accepted_through_the_callback(retail: Live) -> None:
    answers = retail.answering(True)
    envelope = _ok(retail.call("cancelar_pedidos", {"order_ids": ["P-100", "P-101"]}))
    assert envelope.data.model_extra["confirmed"] is True  # the handler saw the consent
    assert answers.requests == [
        ConfirmationRequest(
            message='Cancelar pedidos — os pedidos: "P-100", "P-101". Confirm?',
            tool="cancelar_pedidos",
            arguments={"order_ids": ["P-100", "P-101"]},
        )
    ]


def test_confirmation_declined_through_the_callback(retail: Live) -> None:
    answers = retail.answering(False)
    envelope = _err(
        retail.call("cancelar_pedidos", {"order_ids": ["P-100"], "motivo": "engano"}),
        "CONFIRMATION_DECLINED",
    )
    assert envelope.error.retryable is False
    assert [r.arguments for r in answers.requests] == [{"order_ids": ["P-100"], "motivo": "engano"}]


def test_a_failing_callback_confirms_nothing(retail: Live) -> None:
    answers = retail.answering(None)
    _err(retail.call("cancelar_pedidos", {"order_ids": ["P-100"]}), "CONFIRMATION_DECLINED")
    assert len(answers.requests) == 1


def test_a_tool_without_confirmation_asks_nothing(retail: Live) -> None:
    answers = retail.answering(False)
    _ok(retail.call("consultar_pedidos", {"order_ids": ["P-100"]}))
    assert answers.requests == []


def test_without_a_callback_confirmation_is_unavailable(mute: Live) -> None:
    assert mute.client.elicitation_callback is None
    envelope = _err(
        mute.call("cancelar_pedidos", {"order_ids": ["P-100"]}), "CONFIRMATION_UNAVAILABLE"
    )
    assert envelope.error.retryable is False and envelope.error.hint


def test_concurrent_confirmable_calls_each_get_their_own_question(retail: Live) -> None:
    answers = retail.answering(True)

    async def both() -> list[Any]:
        found: list[Any] = [None, None]

        async def one(i: int, ids: list[str]) -> None:
            found[i] = await retail.client.call("cancelar_pedidos", {"order_ids": ids})

        async with anyio.create_task_group() as tg:
            tg.start_soon(one, 0, ["P-100"])
            tg.start_soon(one, 1, ["P-200", "P-201"])
        return found

    first, second = retail.portal.call(both)
    assert [i.order_id for i in _ok(first).data.results] == ["P-100"]
    assert [i.order_id for i in _ok(second).data.results] == ["P-200", "P-201"]
    asked = sorted((r.message, str(r.arguments)) for r in answers.requests)
    assert [m for m, _ in asked] == [
        'Cancelar pedidos — os pedidos: "P-100". Confirm?',
        'Cancelar pedidos — os pedidos: "P-200", "P-201". Confirm?',
    ]
    assert [a for _, a in asked] == [
        str({"order_ids": ["P-100"]}),
        str({"order_ids": ["P-200", "P-201"]}),
    ]


def test_a_bare_client_session_of_2025_11_25(server_pkg: Path, pkg: Any) -> None:
    """A ClientSession the caller made, wired with the client's elicitation callback."""
    answers = Answers()

    async def run() -> tuple[str | None, Any, Any]:
        tools = ToolClient(confirm=answers, tools=pkg.ALL_TOOLS)
        params = server_params(server_pkg, "retail_handlers")
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write, elicitation_callback=tools.elicitation_callback) as session,
        ):
            await session.initialize()
            tools.bind(session)
            done = await tools.call("cancelar_pedidos", {"order_ids": ["P-100"]})
            answers.yes = False
            refused = await tools.call("cancelar_pedidos", {"order_ids": ["P-101"]})
            return session.protocol_version, done, refused

    version, done, refused = anyio.run(run)
    assert version == "2025-11-25"
    assert _ok(done).data.results[0].protocol == "C100"
    _err(refused, "CONFIRMATION_DECLINED")
    assert [(r.tool, r.arguments) for r in answers.requests] == [
        ("cancelar_pedidos", {"order_ids": ["P-100"]}),
        ("cancelar_pedidos", {"order_ids": ["P-101"]}),
    ]


def test_a_tool_the_server_does_not_serve_raises(
    server_pkg: Path, pkg: Any, request: pytest.FixtureRequest
) -> None:
    spec = dataclasses.replace(pkg.ALL_TOOLS["consultar_pedidos"], name="nao_servida")
    tools = {**pkg.ALL_TOOLS, "nao_servida": spec}
    live = Live(server_pkg, "retail_handlers", tools)
    try:
        with pytest.raises(ToolCallError) as raised:
            live.call("nao_servida", {"order_ids": ["P-100"]})
        assert raised.value.code == -32602 and raised.value.tool == "nao_servida"
        assert "nao_servida" in str(raised.value)
        _ok(live.call("consultar_pedidos", {"order_ids": ["P-100"]}))  # still connected
    finally:
        live.close()


def test_a_server_that_cannot_start_raises(pkg: Any) -> None:
    params = server_params(Path("/nonexistent/mcp_tools"), "retail_handlers")
    params = params.model_copy(update={"args": ["-c", "import sys; sys.exit(3)"]})

    async def run() -> None:
        async with ToolClient.connect(params, tools=pkg.ALL_TOOLS, read_timeout_seconds=20):
            raise AssertionError("connected to nothing")

    with pytest.raises(ToolCallError, match="cannot connect"):
        anyio.run(run)


# Local validation


class _NoServer:
    """A session that fails the test if anything is sent."""

    async def call_tool(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("sent to the server")


def test_invalid_arguments_are_refused_without_a_round_trip(pkg: Any) -> None:
    client = ToolClient(_NoServer(), tools=pkg.ALL_TOOLS)  # type: ignore[arg-type]
    envelope = anyio.run(client.call, "cancelar_pedidos", {"order_ids": ["X-1", 7]})
    failure = _err(envelope, "VALIDATION_ERROR")
    assert failure.local and failure.meta.tool == "cancelar_pedidos"
    assert failure.meta.version == "2.0.0" and failure.error.retryable is False
    assert (
        failure.error.message
        == "Invalid arguments for cancelar_pedidos: order_ids[0], order_ids[1]."
    )
    assert [(d["field"], d["type"]) for d in failure.error.details] == [
        ("order_ids[0]", "string_pattern_mismatch"),
        ("order_ids[1]", "string_type"),
    ]
    missing = _err(anyio.run(client.call, "cancelar_pedidos"), "VALIDATION_ERROR")
    assert missing.error.details[0]["field"] == "order_ids"
    assert "X-1" not in str(failure.error)  # the value sent is never echoed


def test_the_wire_form_is_what_was_set_by_alias(pkg: Any) -> None:
    sent: list[Any] = []

    class Recorder:
        async def call_tool(self, name: str, arguments: Any, timeout: Any, **meta: Any) -> Any:
            sent.append((name, arguments))
            return types.CallToolResult(
                content=[],
                structured_content={
                    "ok": False,
                    "error": {"code": "X", "message": "m"},
                    "meta": {"tool": name, "version": "9.0.0"},
                },
            )

    client = ToolClient(Recorder(), tools=pkg.ALL_TOOLS)  # type: ignore[arg-type]
    args = pkg.CancelarPedidosArgs(order_ids=["P-1"], extra_ignored=1)
    envelope = _err(anyio.run(client.call, "cancelar_pedidos", args), "X")
    assert sent == [("cancelar_pedidos", {"order_ids": ["P-1"]})]
    assert envelope.error.known is False and envelope.meta.version == "9.0.0"


def test_unknown_tools_and_unbound_clients_raise(pkg: Any) -> None:
    client = ToolClient(tools=pkg.ALL_TOOLS)
    with pytest.raises(ToolCallError, match="not a tool of this client"):
        anyio.run(client.call, "nenhuma", {})
    with pytest.raises(ToolCallError, match="not connected"):
        anyio.run(client.call, "consultar_pedidos", {"order_ids": ["P-1"]})


# Parameter collection


def test_missing_arguments_give_labels_and_prompts(pkg: Any) -> None:
    spec = pkg.TOOLS["cancelar_pedidos"]
    expected = [
        MissingArgument(
            name="order_ids",
            label="os pedidos",
            user_prompt="Quais pedidos deseja cancelar?",
            description="Lista de identificadores de pedidos a cancelar.",
        )
    ]
    assert missing_arguments(spec, {}) == expected
    assert missing_arguments(spec, {"motivo": "x", "order_ids": None}) == expected
    assert missing_arguments(spec, {"order_ids": ["P-1"]}) == []
    client = ToolClient(tools=pkg.ALL_TOOLS)
    assert client.missing_arguments("consultar_pedidos", {})[0].user_prompt == (
        "Quais pedidos deseja consultar?"
    )


def test_an_argument_without_label_falls_back_to_its_name(pkg: Any) -> None:
    @dataclasses.dataclass(frozen=True)
    class Bare:
        input_schema: Any

    spec: Any = Bare({"type": "object", "required": ["a"], "properties": {}})
    assert missing_arguments(spec, {}) == [MissingArgument("a", "a", None, None)]


# Tolerant reading of what a newer compatible server sends


def _envelope(tool: str = "cancelar_pedidos", **data: Any) -> dict[str, Any]:
    results = [
        {"order_id": "P-1", "success": True, "protocol": "C1"},
        {"order_id": "P-2", "success": False, "reason": "not_found"},
    ]
    return {
        "ok": True,
        "data": {
            "results": results,
            "multi_item_status": "PARTIAL_SUCCESS",
            "partial_success": True,
            "metadata": {
                "multi_item": {
                    "status": "PARTIAL_SUCCESS",
                    "items_count": 2,
                    "items_succeeded_count": 1,
                    "items_failed_count": 1,
                    "primary_tool": tool,
                }
            },
            **data,
        },
        "meta": {"tool": tool, "version": "2.0.0"},
    }


def test_a_newer_version_and_extra_open_fields_are_accepted(pkg: Any) -> None:
    sent = _envelope(novo_campo={"x": 1})
    sent["meta"]["version"] = "1.4.0"
    sent["data"]["results"][0]["entregue_em"] = "hoje"
    envelope = _ok(parse_envelope(pkg.TOOLS["cancelar_pedidos"], sent))
    assert envelope.meta.version == "1.4.0"
    assert envelope.data.model_extra == {"novo_campo": {"x": 1}}
    assert envelope.data.results[0].model_extra == {"entregue_em": "hoje"}
    assert envelope.dropped == () and envelope.envelope == sent


def test_extra_fields_of_closed_objects_are_dropped_and_listed(pkg: Any) -> None:
    sent = _envelope()
    sent["data"]["metadata"]["multi_item"]["items_skipped_count"] = 0
    sent["data"]["original_ok"] = False
    sent["data"]["secondary_error"] = {"code": "NOVO", "message": "m", "severity": "low"}
    kept = copy.deepcopy(sent)
    envelope = _ok(parse_envelope(pkg.TOOLS["cancelar_pedidos"], sent))
    assert isinstance(envelope.data, pkg.CancelarPedidosData)
    assert sorted(envelope.dropped) == [
        "metadata.multi_item.items_skipped_count",
        "secondary_error.severity",
    ]
    assert envelope.envelope == kept == sent  # what arrived, untouched
    multi = envelope.multi_item
    assert multi is not None and multi.original_ok is False
    assert multi.secondary_error == ErrorReport("NOVO", "m", known=False)


def test_unknown_error_codes_are_accepted_and_flagged(pkg: Any) -> None:
    sent = {
        "ok": False,
        "error": {"code": "RATE_LIMITED", "message": "devagar", "retryable": True, "novo": 1},
        "meta": {"tool": "consultar_pedidos", "version": "2.0.0"},
    }
    envelope = _err(parse_envelope(pkg.TOOLS["consultar_pedidos"], sent), "RATE_LIMITED")
    assert envelope.error == ErrorReport("RATE_LIMITED", "devagar", retryable=True, known=False)
    assert envelope.meta.version == "2.0.0" and envelope.data is None


def test_items_that_do_not_fit_stay_as_received_in_a_failure(pkg: Any) -> None:
    sent = _envelope()
    sent["ok"] = False
    sent["error"] = {"code": "ORDER_SERVICE_UNAVAILABLE", "message": "m"}
    sent["data"]["results"][1]["reason"] = "lost_in_transit"  # an enum value added later
    envelope = _err(
        parse_envelope(pkg.TOOLS["cancelar_pedidos"], sent), "ORDER_SERVICE_UNAVAILABLE"
    )
    assert envelope.data is None  # the whole no longer fits this client's Data model
    multi = envelope.multi_item
    assert multi is not None and multi.status == "PARTIAL_SUCCESS"
    assert isinstance(multi.items[0], pkg.CancelarPedidosItem)
    assert multi.failed == (sent["data"]["results"][1],)


def test_successful_data_that_does_not_fit_raises_with_the_envelope(pkg: Any) -> None:
    sent = _envelope()
    del sent["data"]["results"][0]["success"]
    with pytest.raises(ToolCallError, match=r"does not fit contract 2\.0\.0") as raised:
        parse_envelope(pkg.TOOLS["cancelar_pedidos"], sent)
    assert raised.value.envelope == sent and raised.value.code is None


@pytest.mark.parametrize(
    "sent",
    [None, [], {"ok": True}, {"ok": "yes", "meta": {"tool": "t", "version": "1"}},
     {"ok": False, "meta": {"tool": "t", "version": "1"}, "error": {"code": 1}}],
)  # fmt: skip
def test_what_is_no_envelope_raises(pkg: Any, sent: Any) -> None:
    with pytest.raises(ToolCallError):
        parse_envelope(pkg.TOOLS["consultar_pedidos"], sent)


def test_an_envelope_sent_only_as_text_is_read(pkg: Any) -> None:
    text = (
        '{"ok":false,"error":{"code":"TOOL_ERROR","message":"m"},"meta":{"tool":"t","version":"1"}}'
    )
    result = types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], is_error=True
    )
    _err(parse_result(pkg.TOOLS["consultar_pedidos"], result), "TOOL_ERROR")
    plain = types.CallToolResult(
        content=[types.TextContent(type="text", text="boom")], is_error=True
    )
    with pytest.raises(ToolCallError, match="no envelope: boom"):
        parse_result(pkg.TOOLS["consultar_pedidos"], plain)


def test_data_models_that_are_not_classes(pkg: Any) -> None:
    spec: Any = dataclasses.replace(pkg.TOOLS["cancelar_pedidos"], multi_item=False)
    listing = type("S", (), {"name": "l", "version": "1", "multi_item": False, "errors": {}})
    listing.data_model = list[str]
    sent = {"ok": True, "data": ["a"], "meta": {"tool": "l", "version": "1"}}
    assert _ok(parse_envelope(listing, sent)).data == ["a"]
    assert _ok(parse_envelope(spec, _envelope())).multi_item is None


def test_the_shipped_copy_is_the_source(pkg: Any) -> None:
    """The package carries the module verbatim (after the generated header), and it imports
    there (relative imports)."""
    copied = (Path(pkg.__file__).parent / "client_runtime.py").read_text(encoding="utf-8")
    header, _, body = copied.partition("\n")
    assert header.startswith("# Code generated by toolc ")
    assert body == (RUNTIME / "client_runtime.py").read_text(encoding="utf-8")
    module = importlib.import_module(f"{pkg.__name__}.client_runtime")
    assert issubclass(module.ToolCallError, Exception)
