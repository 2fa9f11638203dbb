"""The server runtime's pure parts, unit-tested directly (tests/test_server_stdio.py runs
them end to end): sealing, multi-item normalization, the workflow's primary step, error
mapping, the request-state signature, the confirmation message, and what build_server
checks and precomputes."""

from __future__ import annotations

import ast
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import anyio
import pytest
from conftest import ROOT
from jsonschema import Draft202012Validator
from mcp import types
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from toolc.runtime import server_calls as calls
from toolc.runtime import server_confirmation as confirmation
from toolc.runtime import server_fields
from toolc.runtime import server_runtime as runtime
from toolc.runtime.server_items import normalize_multi_item
from toolc.runtime.server_sealing import (
    BadReturn,
    seal_failure,
    seal_return,
    workflow_primary,
)
from toolc.runtime.server_served import ServedTool
from toolc.runtime.server_types import Image, Items, Reply, ToolFailure

RUNTIME = ROOT / "compiler" / "toolc" / "runtime"


@dataclass(frozen=True)
class Err:
    retryable: bool
    hint: str | None


@dataclass(frozen=True)
class PreValidation:
    tool: str
    fail_open: bool


class Args(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    ids: list[str]


class Data(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)
    total: int


@dataclass(frozen=True)
class Spec:
    name: str = "t"
    version: str = "1.0.0"
    title: str = "T"
    mcp_server: str = "s"
    enabled: bool = True
    module: str = ".tools.t"
    require_confirmation: bool = False
    pre_validation: PreValidation | None = None
    multi_item: bool = False
    workflow: bool = False
    errors: Mapping[str, Err] = field(
        default_factory=lambda: MappingProxyType({"BUSY": Err(True, "Later.")})
    )
    args_model: type[BaseModel] = Args
    resolved_model: type[BaseModel] | None = None
    data_model: Any = Data


def accept(value: Any) -> None:
    return None


def refuse(value: Any) -> None:
    raise BadReturn("refused", [{"field": "data.total", "reason": "too big", "type": "t"}])


def results(*flags: bool, key: str = "success") -> dict[str, Any]:
    return {"results": [{"id": str(i), key: f} for i, f in enumerate(flags)]}


def status(data: dict[str, Any]) -> tuple[str, bool, int, int, int]:
    mi = data["metadata"]["multi_item"]
    return (
        data["multi_item_status"],
        data["partial_success"],
        mi["items_count"],
        mi["items_succeeded_count"],
        mi["items_failed_count"],
    )


# The runtime is copied verbatim into generated packages


def test_runtime_modules_import_only_stdlib_pydantic_and_mcp() -> None:
    # starlette: the SDK's own HTTP stack (mcp depends on it), for /healthz and /metrics;
    # prometheus_client: imported only when metrics are on (server_metrics);
    # opentelemetry: imported only when otel_observer is called (server_otel, decision 0103).
    # pydantic_core: pydantic's own serializer, installed with it (the wire text, 0126).
    allowed = {"pydantic", "pydantic_core", "mcp", "anyio", "uvicorn", "starlette"}
    allowed.add("prometheus_client")
    allowed.add("opentelemetry")
    for path in sorted(RUNTIME.glob("server_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert (node.module or "").startswith("server_"), (path, node.module)
                assert (RUNTIME / f"{node.module}.py").is_file()
                continue
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                top = name.partition(".")[0]
                assert top in allowed or top in __import__("sys").stdlib_module_names, (
                    path,
                    name,
                )


# Multi-item normalization (guide §4–5)


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ((True, True), ("SUCCESS", False, 2, 2, 0)),
        ((True, False, True), ("PARTIAL_SUCCESS", True, 3, 2, 1)),
        ((False, False), ("FAILED", False, 2, 0, 2)),
        ((True,), ("SUCCESS", False, 1, 1, 0)),
        ((), ("SUCCESS", False, 0, 0, 0)),
    ],
)
def test_normalization(flags: tuple[bool, ...], expected: tuple[Any, ...]) -> None:
    assert status(normalize_multi_item("t", results(*flags))) == expected
    assert status(normalize_multi_item("t", results(*flags, key="ok"))) == expected


def test_normalization_replaces_what_the_handler_set_and_keeps_the_rest() -> None:
    data = {
        **results(True, False),
        "multi_item_status": "SUCCESS",
        "partial_success": False,
        "original_ok": False,
        "secondary_error": {"code": "X", "message": "y"},
        "metadata": {"trace": "abc", "multi_item": {"status": "SUCCESS"}},
        "extra": 1,
    }
    normalized = normalize_multi_item("t", data)
    assert status(normalized) == ("PARTIAL_SUCCESS", True, 2, 1, 1)
    assert normalized["metadata"]["trace"] == "abc"
    assert normalized["metadata"]["multi_item"]["primary_tool"] == "t"
    assert normalized["extra"] == 1
    assert "original_ok" not in normalized and "secondary_error" not in normalized


def test_success_takes_precedence_over_ok() -> None:
    data = {"results": [{"success": False, "ok": True}]}
    assert status(normalize_multi_item("t", data))[0] == "FAILED"


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        {"results": {}},
        {"results": [{"id": 1}]},
        {"results": [{"success": "yes"}]},
        {"results": ["x"]},
    ],
)
def test_normalization_refuses_results_without_a_status(data: Any) -> None:
    with pytest.raises(BadReturn):
        normalize_multi_item("t", data)


# Workflow output


def test_workflow_primary_in_the_wrapper() -> None:
    run = {
        "ok": False,
        "result": {"status": "COMPLETED", "output": {"t": results(True), "aux": {}}},
        "error": "aux failed",
    }
    assert workflow_primary("t", run) == (results(True), "aux failed")


def test_workflow_primary_bare() -> None:
    assert workflow_primary("t", {"output": {"t": results(False)}}) == (
        results(False),
        None,
    )


def test_workflow_primary_bare_that_failed_keeps_its_failure() -> None:
    """`{ok: false, status, output, error}` without the wrapper: the auxiliary step's
    failure was dropped and the answer sealed as a clean success."""
    run = {
        "ok": False,
        "status": "COMPLETED",
        "output": {"t": results(True), "aux": {"success": False}},
        "error": "aux failed",
    }
    assert workflow_primary("t", run) == (results(True), "aux failed")


@pytest.mark.parametrize(
    "run", [None, {}, {"output": {}}, {"output": {"other": {}}}, {"result": {}}]
)
def test_workflow_without_the_tool_s_step(run: Any) -> None:
    with pytest.raises(BadReturn):
        workflow_primary("t", run)


# Sealing


def test_seal_ok_is_compact_json_of_the_envelope() -> None:
    sealed = seal_return(Spec(), {"total": 1, "nome": "ação"}, accept)
    assert sealed.envelope == {
        "ok": True,
        "data": {"total": 1, "nome": "ação"},
        "meta": {"tool": "t", "version": "1.0.0"},
    }
    assert (
        sealed.text
        == '{"ok":true,"data":{"total":1,"nome":"ação"},"meta":{"tool":"t","version":"1.0.0"}}'
    )
    result = sealed.result()
    assert result.is_error is False
    assert result.structured_content == sealed.envelope
    assert [b.type for b in result.content] == ["text"]


@pytest.mark.parametrize(
    "returned",
    [
        {"total": 1, "nome": "ação"},
        {"total": "many"},  # INVALID_RESULT: an error answer
        Reply({"total": 1}, images=[Image(b"\x89PNG", "image/png")]),  # a content block
        {"total": 1, "free": {"gone": None, "list": [None, {"x": None}]}},
    ],
    ids=["ok", "error", "content", "nulls"],
)
def test_the_wire_dict_is_the_results_dump(returned: Any) -> None:
    """What call_tool hands the SDK (decision 0128) is what the model result dumps to, the
    nulls inside the envelope kept."""
    tool = calls.ServedTool(Spec(), lambda args, ctx: None)  # type: ignore[arg-type, return-value]
    sealed = seal_return(Spec(), returned, tool.check)
    dumped = sealed.result().model_dump(by_alias=True, mode="json", exclude_none=True)
    assert sealed.wire() == dumped
    assert json.dumps(sealed.wire()) == json.dumps(dumped)  # the same members, in order


def test_models_are_sealed_by_alias_with_the_fields_set() -> None:
    class Item(BaseModel):
        model_config = ConfigDict(serialize_by_alias=True)
        order_id: str = ""
        note: str | None = None

    sealed = seal_return(Spec(), {"total": 1, "item": Item(order_id="P")}, accept)
    assert sealed.envelope["data"]["item"] == {"order_id": "P"}


def test_images_come_before_the_text() -> None:
    reply = Reply({"total": 1}, images=[Image(b"\x89PNG", "image/png"), Image("QUJD", "image/gif")])
    result = seal_return(Spec(), reply, accept).result()
    assert [b.type for b in result.content] == ["image", "image", "text"]
    first = result.content[0]
    assert isinstance(first, types.ImageContent)
    assert (first.data, first.mime_type) == ("iVBORw==", "image/png")


def test_data_the_check_refuses_is_invalid_result_naming_the_field() -> None:
    sealed = seal_return(Spec(), {"total": 1}, refuse)
    error = sealed.envelope["error"]
    assert error["code"] == "INVALID_RESULT"
    assert len(error["errorId"]) == 32 and error["errorId"] in error["message"]
    assert "data.total" in error["message"]
    assert error["details"] == [{"field": "data.total", "reason": "too big", "type": "t"}]
    assert error["retryable"] is False and error["hint"]
    assert sealed.result().is_error is True


def test_the_data_model_names_the_failing_fields() -> None:
    tool = calls.ServedTool(Spec(), lambda args, ctx: None)  # type: ignore[arg-type, return-value]
    sealed = seal_return(Spec(), {"total": "many", "extra": 1}, tool.check)
    error = sealed.envelope["error"]
    assert error["code"] == "INVALID_RESULT"
    assert [d["field"] for d in error["details"]] == ["data.total"]
    assert "many" not in json.dumps(error)  # the value stays in the log


def test_data_that_is_not_json_is_invalid_result() -> None:
    for data in ({"total": float("nan")}, {"total": object()}):
        error = seal_return(Spec(), data, accept).envelope["error"]
        assert error["code"] == "INVALID_RESULT"
        assert error["details"][0]["field"] == "data"


def test_secondary_failure_only_for_multi_item_tools() -> None:
    sealed = seal_return(
        Spec(), Reply({"total": 1}, secondary_failure=ToolFailure("BUSY", "m")), accept
    )
    assert sealed.envelope["error"]["code"] == "INVALID_RESULT"


MULTI = Spec(multi_item=True)


@pytest.mark.parametrize(("flags", "items"), [((True,), 3), ((), 2), ((True, False, True), 2)])
def test_results_that_are_not_one_per_item_are_invalid(flags: tuple[bool, ...], items: int) -> None:
    """Items left out, none at all or one made up read as a clean SUCCESS (the guide's §4:
    the result of each item); the results stay beside the error for what completed."""
    sealed = seal_return(MULTI, results(*flags), accept, None, items)
    assert sealed.envelope["ok"] is False
    error = sealed.envelope["error"]
    assert error["code"] == "INVALID_RESULT" and error["details"][0]["field"] == "data.results"
    assert f"{len(flags)} result(s) for the {items} item(s)" in error["details"][0]["reason"]
    assert sealed.envelope["data"]["metadata"]["multi_item"]["items_count"] == len(flags)
    matched = seal_return(MULTI, results(*flags), accept, None, len(flags)).envelope
    assert matched["ok"] is (any(flags) or not flags)  # one per item: sealed as always


def test_the_items_a_handler_received_are_counted_by_their_wire_name() -> None:
    class Typed(BaseModel):
        model_config = ConfigDict(populate_by_name=True)
        order_ids: list[str] | None = Field(default=None, alias="order-ids")
        tags: list[str] | None = None

    schema = {"type": "object", "properties": {"order-ids": {"type": "array"}}}

    @dataclass(frozen=True)
    class WithSchema(Spec):
        input_schema: dict[str, Any] = field(default_factory=lambda: schema)

    served = ServedTool(WithSchema(multi_item=True), Handlers().t)
    assert served.items_count(Typed.model_validate({"order-ids": ["a", "b"]})) == 2
    assert served.items_count(Typed()) is None  # null: no list to count
    assert ServedTool(WithSchema(), Handlers().t).items_count(Typed()) is None
    # Two arrays: which holds the items is a guess (a filter of tags beside the orders),
    # so none is counted rather than refuse a correct handler.
    orders = {"$ref": "#/$defs/Ids"}  # the keys' rule takes `tags`, typed `array` itself
    both = {"properties": {"order-ids": orders, "tags": {"type": "array"}}, "$defs": {}}
    both["$defs"]["Ids"] = {"type": "array"}
    two = ServedTool(WithSchema(multi_item=True, input_schema=both), Handlers().t)
    assert two.items_count(Typed.model_validate({"order-ids": ["a", "b"], "tags": []})) is None


def test_a_later_failure_explains_the_items_not_answered() -> None:
    """A partial result returned with a secondary failure (or a workflow run that
    failed after its step) keeps its code: the failure says why the rest was not done."""
    later = ToolFailure("BUSY", "stopped")
    sealed = seal_return(MULTI, Reply(results(True), secondary_failure=later), accept, None, 3)
    assert sealed.envelope["ok"] is True
    assert sealed.envelope["data"]["secondary_error"]["code"] == "BUSY"


def test_items_are_normalized() -> None:
    sealed = seal_return(MULTI, Items([{"id": "1", "ok": True}], {"extra": 2}), accept)
    data = sealed.envelope["data"]
    assert data["extra"] == 2 and status(data) == ("SUCCESS", False, 1, 1, 0)


def test_every_item_failed_is_an_error_answer_with_every_item() -> None:
    sealed = seal_return(MULTI, results(False, False), accept)
    assert not sealed.ok and sealed.result().is_error is True
    error = sealed.envelope["error"]
    assert error["code"] == "ALL_ITEMS_FAILED" and "2" in error["message"]
    assert "retryable" not in error and error["hint"]
    assert status(sealed.envelope["data"]) == ("FAILED", False, 2, 0, 2)
    assert len(sealed.envelope["data"]["results"]) == 2


def test_no_items_at_all_is_success() -> None:
    assert seal_return(MULTI, results(), accept).ok


def test_an_item_without_a_status_is_named() -> None:
    error = seal_return(MULTI, {"results": [{"success": True}, {"id": 1}]}, accept)
    assert error.envelope["error"]["code"] == "INVALID_RESULT"
    assert error.envelope["error"]["details"][0]["field"] == "data.results[1]"


def test_secondary_failure_after_a_completed_item() -> None:
    reply = Reply(results(True, False), secondary_failure=ToolFailure("BUSY", "later step"))
    sealed = seal_return(MULTI, reply, accept)
    assert sealed.ok
    assert sealed.envelope["data"]["original_ok"] is False
    assert sealed.envelope["data"]["secondary_error"] == {
        "code": "BUSY",
        "message": "later step",
        "retryable": True,
        "hint": "Later.",
    }


def test_secondary_failure_with_nothing_completed_fails_with_the_evidence() -> None:
    reply = Reply(results(False), secondary_failure=ToolFailure("BUSY", "later step"))
    sealed = seal_return(MULTI, reply, accept)
    assert not sealed.ok
    assert sealed.envelope["error"]["code"] == "BUSY"
    assert status(sealed.envelope["data"]) == ("FAILED", False, 1, 0, 1)
    assert list(sealed.envelope) == ["ok", "error", "meta", "data"]


def test_undeclared_secondary_code_is_tool_error() -> None:
    reply = Reply(results(True), secondary_failure=ToolFailure("NOPE", "secret"))
    error = seal_return(MULTI, reply, accept).envelope["data"]["secondary_error"]
    assert error["code"] == "TOOL_ERROR" and "secret" not in json.dumps(error)


def test_declared_failure() -> None:
    sealed = seal_failure(Spec(), ToolFailure("BUSY", "busy", {"n": 1}), accept)
    assert sealed.envelope["error"] == {
        "code": "BUSY",
        "message": "busy",
        "details": {"n": 1},
        "retryable": True,
        "hint": "Later.",
    }
    assert "data" not in sealed.envelope


def test_undeclared_failure_is_tool_error_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    sealed = seal_failure(Spec(), ToolFailure("VALIDATION_ERROR", "internal"), accept)
    error = sealed.envelope["error"]
    assert error["code"] == "TOOL_ERROR" and "internal" not in sealed.text
    assert error["errorId"] in caplog.text and "VALIDATION_ERROR" in caplog.text


def test_failure_with_items_keeps_completed_ones() -> None:
    failure = ToolFailure("BUSY", "stopped", data=Items([{"ok": True}, {"ok": False}]))
    sealed = seal_failure(MULTI, failure, accept)
    assert sealed.ok and sealed.envelope["data"]["secondary_error"]["code"] == "BUSY"


def test_workflow_failure_text_is_not_sent() -> None:
    spec = Spec(multi_item=True, workflow=True)
    run = {"ok": False, "result": {"output": {"t": results(True)}}, "error": "smtp secret"}
    sealed = seal_return(spec, run, accept)
    assert sealed.ok and "smtp" not in sealed.text
    assert sealed.envelope["data"]["secondary_error"]["code"] == "TOOL_ERROR"


def test_workflow_failure_with_a_declared_code() -> None:
    spec = Spec(multi_item=True, workflow=True)
    run = {
        "ok": False,
        "result": {"output": {"t": results(True)}},
        "error": {"code": "BUSY", "message": "m"},
    }
    error = seal_return(spec, run, accept).envelope["data"]["secondary_error"]
    assert (error["code"], error["message"]) == ("BUSY", "m")


def test_a_workflow_tool_may_return_items() -> None:
    spec = Spec(multi_item=True, workflow=True)
    assert seal_return(spec, Items([{"ok": True}]), accept).ok


def test_sealed_results_validate_against_a_published_output_schema() -> None:
    """The examples' published outputSchema accepts what sealing makes, every branch."""
    listing = json.loads(
        (ROOT / "examples/retail/generated/mcp_tools/tools.json").read_text(encoding="utf-8")
    )
    tool = next(t for t in listing["tools"] if t["name"] == "cancelar_pedidos")
    schema = tool["outputSchema"]
    spec = Spec(
        name="cancelar_pedidos",
        version=tool["_meta"]["version"],
        multi_item=True,
        errors={"ORDER_SERVICE_UNAVAILABLE": Err(True, "h")},
    )
    items = [{"order_id": "P-1", "success": True}, {"order_id": "P-2", "success": False}]
    failure = ToolFailure("ORDER_SERVICE_UNAVAILABLE", "m")
    sealed = [
        seal_return(spec, Items(items), accept),
        seal_return(spec, Reply(Items(items), secondary_failure=failure), accept),
        seal_return(spec, Reply(Items(items[1:]), secondary_failure=failure), accept),
        seal_return(spec, Items(items[1:]), accept),
        seal_return(spec, {"results": [{}]}, accept),
        seal_failure(spec, failure, accept),
        seal_failure(spec, ToolFailure("UNKNOWN", "m"), accept),
    ]
    validator = Draft202012Validator(schema)
    for one in sealed:
        validator.validate(one.envelope)


# Error mapping


def test_invalid_arguments_name_each_field_without_values() -> None:
    with pytest.raises(ValidationError) as caught:
        Args.model_validate({"ids": ["a", 7, "secret-value"], "x": "secret-value"})
    info = calls.invalid_arguments("t", caught.value)
    assert info["code"] == "VALIDATION_ERROR" and info["retryable"] is False
    assert info["details"] == [
        {"field": "ids[1]", "reason": "Input should be a valid string", "type": "string_type"},
        {"field": "x", "reason": "Extra inputs are not permitted", "type": "extra_forbidden"},
    ]
    assert "secret-value" not in json.dumps(info)
    assert info["message"] == "Invalid arguments for t: ids[1], x."


def test_field_paths() -> None:
    assert server_fields.field_path(["a", 0, "b", 2]) == "a[0].b[2]"
    assert server_fields.field_path([]) == ""


# Request state: a question's answer counts once, for that question


def test_request_state_redeems_once() -> None:
    states = confirmation.RequestStates()
    bound = confirmation.binding("t", {"ids": ["a"]})
    state = states.issue(bound)
    assert states.redeem(state, bound)
    assert not states.redeem(state, bound)


def test_request_state_is_bound_to_tool_and_arguments() -> None:
    states = confirmation.RequestStates()
    state = states.issue(confirmation.binding("t", {"ids": ["a"]}))
    assert not states.redeem(state, confirmation.binding("t", {"ids": ["b"]}))
    assert not states.redeem(state, confirmation.binding("u", {"ids": ["a"]}))
    assert states.redeem(state, confirmation.binding("t", {"ids": ["a"]}))


def test_binding_is_canonical() -> None:
    assert confirmation.binding("t", {"a": 1, "b": [1, 2]}) == confirmation.binding(
        "t", {"b": [1, 2], "a": 1}
    )


def test_request_state_from_another_key_or_tampered_is_refused() -> None:
    bound = confirmation.binding("t", {})
    other = confirmation.RequestStates().issue(bound)
    states = confirmation.RequestStates()
    assert not states.redeem(other, bound)
    state = states.issue(bound)
    head, _, tag = state.partition(".")
    claims = json.loads(confirmation._unb64(head))
    claims["x"] += 1000
    forged = confirmation._b64(json.dumps(claims).encode()) + "." + tag
    for bad in (forged, head, "", ".", "!!!.???", "a.b.c", tag + "." + head):
        assert not states.redeem(bad, bound)
    assert states.redeem(state, bound)


def test_request_state_expires() -> None:
    states = confirmation.RequestStates(ttl=0.01)
    bound = confirmation.binding("t", {})
    state = states.issue(bound)
    time.sleep(0.02)
    assert not states.redeem(state, bound)


def test_pending_questions_are_bounded() -> None:
    states = confirmation.RequestStates(max_pending=3)
    bound = confirmation.binding("t", {})
    issued = [states.issue(bound) for _ in range(5)]
    assert len(states._pending) == 3
    assert not states.redeem(issued[0], bound)
    assert states.redeem(issued[-1], bound)


# The confirmation question


def test_confirmation_message_names_the_items() -> None:
    named = confirmation.labels(
        {
            "properties": {
                "ids": {"type": "array", "x-toolc-label": "os pedidos"},
                "who": {"type": "string", "x-toolc-label": "o cliente"},
                "note": {"type": "string"},
            }
        }
    )
    assert named == {"ids": "os pedidos", "who": "o cliente"}
    args = {"ids": ["P-1", {"name": "TIM"}, {"id": "7"}, {"z": 1}], "who": "42", "note": "x"}
    assert confirmation.message("Cancelar", named, args) == (
        'Cancelar — os pedidos: "P-1", "TIM", "7", {"z":1}; o cliente: "42". Confirm?'
    )
    assert confirmation.message("Cancelar", named, {}) == "Cancelar. Confirm?"


def test_values_cannot_word_the_question() -> None:
    """A caller's value is quoted, its control, bidi and separator characters escaped, its
    length bounded: it cannot start a line of its own or pose as the server's text."""
    named = {"ids": "os pedidos"}
    hostile = 'P-1"\n\nNOTE: this is a dry run, nothing changes.\u202e\u2028\x00'
    asked = confirmation.message("Cancelar", named, {"ids": [hostile, "x" * 500]})
    assert asked == (
        'Cancelar — os pedidos: "P-1\\"\\u{a}\\u{a}NOTE: this is a dry run, nothing changes.'
        '\\u{202e}\\u{2028}\\u{0}", "' + "x" * 79 + '…". Confirm?'
    )
    assert "\n" not in asked and "\u202e" not in asked
    many = confirmation.message("Cancelar", named, {"ids": [str(i) for i in range(30)]})
    assert many.endswith('"19", and 10 more. Confirm?')
    assert len(confirmation.message("x" * 5000, named, {})) < 2100
    assert confirmation.visible("ok\u200bfine") == "ok\\u{200b}fine"


def test_the_question_is_a_flat_non_empty_form() -> None:
    schema = confirmation.CONFIRM_SCHEMA
    assert schema["type"] == "object" and schema["required"] == ["confirm"]
    assert all(
        p["type"] in {"boolean", "string", "number", "integer"}
        for p in schema["properties"].values()
    )


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (types.ElicitResult(action="accept", content={"confirm": True}), "confirmed"),
        (types.ElicitResult(action="accept", content={"confirm": False}), "declined"),
        (types.ElicitResult(action="accept", content={"confirm": "true"}), "declined"),
        (types.ElicitResult(action="accept"), "declined"),
        (types.ElicitResult(action="decline"), "declined"),
        (types.ElicitResult(action="cancel"), "declined"),
        (types.ListRootsResult(roots=[]), "declined"),
    ],
)
def test_only_an_explicit_yes_confirms(answer: Any, verdict: str) -> None:
    assert confirmation._verdict(answer) == verdict


# build_server


class Handlers:
    async def t(self, args: Args, ctx: runtime.ToolContext) -> Any:
        return {"total": len(args.ids)}

    async def v(self, args: Args, ctx: runtime.ToolContext) -> Any:
        return {"eligible": True}


def descriptor(name: str, version: str = "1.0.0") -> dict[str, Any]:
    return {
        "name": name,
        "description": name,
        "inputSchema": {"type": "object", "properties": {"ids": {"x-toolc-label": "ids"}}},
        "_meta": {"version": version},
    }


def test_build_server_serves_enabled_tools_of_one_server_from_a_prebuilt_listing() -> None:
    tools = {
        "t": Spec(),
        "u": Spec(name="u", module=".tools.u", mcp_server="other"),
        "w": Spec(name="w", module=".tools.w", enabled=False),
    }
    server = runtime.build_server(
        tools,
        [descriptor("t"), descriptor("u"), descriptor("w")],
        Handlers(),
        server="s",
        name="n",
        version="1",
    )
    entry = server.get_request_handler("tools/list")
    assert entry is not None
    first = anyio.run(entry.handler, None, None)
    assert [t.name for t in first.tools] == ["t"]
    assert first.tools[0].meta == {"version": "1.0.0"}
    assert anyio.run(entry.handler, None, None) is first
    assert server.get_tool_input_schema is not None
    assert server.get_tool_input_schema("t") == descriptor("t")["inputSchema"]
    assert server.get_tool_input_schema("u") is None


def test_build_server_needs_every_handler() -> None:
    tools = {"t": Spec(), "x": Spec(name="x", module=".tools.x")}
    with pytest.raises(ValueError, match="handlers lack: x"):
        runtime.build_server(
            tools,
            [descriptor("t"), descriptor("x")],
            Handlers(),
            server=None,
            name="n",
            version="1",
        )


def test_build_server_needs_the_pre_validator_on_the_same_server() -> None:
    tools = {
        "t": Spec(pre_validation=PreValidation("v", fail_open=False)),
        "v": Spec(name="v", module=".tools.v", mcp_server="other"),
    }
    with pytest.raises(ValueError, match="pre-validator 'v'"):
        runtime.build_server(
            tools, [descriptor("t")], Handlers(), server="s", name="n", version="1"
        )
    tools["v"] = Spec(name="v", module=".tools.v")
    runtime.build_server(tools, [descriptor("t")], Handlers(), server="s", name="n", version="1")


def test_build_server_refuses_a_listing_out_of_step_with_the_registry() -> None:
    with pytest.raises(ValueError, match="disagree"):
        runtime.build_server(
            {"t": Spec()},
            [descriptor("t", "2.0.0")],
            Handlers(),
            server=None,
            name="n",
            version="1",
        )


def test_a_multi_item_question_names_its_items_without_a_label() -> None:
    """The guide's §10: the confirmation shows the set. An items argument with no `label`
    was left out, and the question read `Cancelar. Confirm?`."""
    schema = {"type": "object", "properties": {"ids": {"type": "array", "items": {}}}}

    @dataclass(frozen=True)
    class Typed(Spec):
        input_schema: dict[str, Any] = field(default_factory=lambda: schema)

    for multi, named in ((True, {"ids": "ids"}), (False, {})):
        listed = {**descriptor("t"), "inputSchema": schema}
        server = runtime.build_server(
            {"t": Typed(multi_item=multi)}, [listed], Handlers(), server="s", name="n", version="1"
        )
        entry = server.get_request_handler("tools/call")
        assert entry is not None
        labels = entry.handler.__self__.tools["t"].labels  # type: ignore[attr-defined]
        assert labels == named
    asked = confirmation.message("Cancelar", {"ids": "ids"}, {"ids": ["P-1", "P-2"]})
    assert asked == 'Cancelar — ids: "P-1", "P-2". Confirm?'


def test_failure_with_invalid_items_keeps_its_code_and_drops_them() -> None:
    failure = ToolFailure("BUSY", "stopped", data={"results": [{"id": 1}]})
    sealed = seal_failure(MULTI, failure, accept)
    assert sealed.envelope["error"]["code"] == "BUSY" and "data" not in sealed.envelope
