"""Idempotency keys, retries of failed items and the composition instruction (issue 15,
decisions 0087/0088), end to end: the generated typed client of tests/runtime_support/
orders against a real server process over stdio, in both protocol eras. The handlers
(orders_handlers) dedupe by per-item key, as the guide gives idempotency to the domain;
their ledger shows what ran."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import StdioServerParameters
from runtime_support.client_support import Answers, client_package
from runtime_support.harness import SUPPORT, build
from toolc.runtime.server_keys import derive_item_keys, items_argument


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("orders")
    return build(SUPPORT / "orders", root / "build" / "mcp_tools")


@pytest.fixture(scope="module")
def pkg(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return client_package(built, tmp_path_factory.mktemp("orders_client"), "orders_gen_client")


def _session(built: Path, pkg: Any, ledger: Path, mode: str, script: Any) -> Any:
    client_cls = importlib.import_module(f"{pkg.__name__}.client").OrdersClient
    env = {
        "PYTHONPATH": os.pathsep.join([str(built.parent), str(SUPPORT)]),
        "ORDERS_LEDGER": str(ledger),
    }
    args = [str(SUPPORT / "serve.py"), built.name, "orders_handlers"]
    params = StdioServerParameters(command=sys.executable, args=args, env=env)
    answers = Answers()

    async def main() -> Any:
        async with client_cls.connect(params, confirm=answers, mode=mode) as tools:
            return await script(tools), answers

    return anyio.run(main)


def _ledger(path: Path, kind: str) -> list[tuple[str, str]]:
    rows = [line.split() for line in path.read_text(encoding="utf-8").splitlines()]
    return [(order, key) for k, order, key in rows if k == kind]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_a_retry_sends_only_the_failed_items_with_their_keys(
    built: Path, pkg: Any, tmp_path: Path, mode: str
) -> None:
    ledger = tmp_path / "ledger.txt"
    ids = ["P-1", "P-901", "P-2", "P-902"]

    async def script(tools: Any) -> Any:
        first = await tools.cancel_orders(order_ids=ids, note="moved")
        second = await first.retry_failed()
        return first, second

    (first, second), answers = _session(built, pkg, ledger, mode, script)
    runtime = importlib.import_module(f"{pkg.__name__}.client_runtime")
    assert first.ok and first.multi_item.status == "PARTIAL_SUCCESS"
    assert [i.order_id for i in first.multi_item.failed] == ["P-901", "P-902"]
    # The retry is confirmed again, naming only the items retried.
    assert len(answers.requests) == 2
    assert answers.requests[1].arguments == {"order_ids": ["P-901", "P-902"], "note": "moved"}
    assert '"P-901"' in answers.requests[1].message and "P-1" not in answers.requests[1].message
    # Merged: every item done, in the order sent, counts and status recomputed.
    assert isinstance(second, runtime.Success)
    assert second.multi_item.status == "SUCCESS" and second.multi_item.items_count == 4
    assert [r.order_id for r in second.data.results] == ids
    assert all(op and op.startswith("PR-") for op in second.multi_item.operation_ids)
    composition = second.envelope["data"]["metadata"]["composition"]
    assert composition["status"] == "SUCCESS" and composition["failed"] == []
    # No item ran twice; each retried item was attempted twice under one key.
    executed = _ledger(ledger, "executed")
    assert sorted(order for order, _ in executed) == sorted(ids)
    attempts = _ledger(ledger, "attempt")
    for order in ("P-901", "P-902"):
        keys = {key for o, key in attempts if o == order}
        assert len([o for o, _ in attempts if o == order]) == 2 and len(keys) == 1
    with pytest.raises(runtime.ToolCallError, match="no failed items"):
        anyio.run(second.retry_failed)


def test_the_same_request_key_resent_executes_nothing_again(
    built: Path, pkg: Any, tmp_path: Path
) -> None:
    ledger = tmp_path / "ledger.txt"

    async def script(tools: Any) -> Any:
        args = {"order_ids": ["P-1", "P-1", "P-2"]}
        once = await tools.call("cancel_orders", args, idempotency_key="order-42")
        again = await tools.call("cancel_orders", args, idempotency_key="order-42")
        return once, again

    (once, again), _ = _session(built, pkg, ledger, "auto", script)
    assert once.multi_item.status == again.multi_item.status == "SUCCESS"
    executed = _ledger(ledger, "executed")
    # Two equal items are two items (two keys), each executed once over both calls.
    assert [order for order, _ in executed] == ["P-1", "P-1", "P-2"]
    keys = derive_item_keys("order-42", ["P-1", "P-1", "P-2"])
    assert [key for _, key in executed] == keys and len(set(keys)) == 3
    assert once.multi_item.operation_ids == again.multi_item.operation_ids


def test_the_typed_method_sends_the_caller_s_key_and_timeout(
    built: Path, pkg: Any, tmp_path: Path
) -> None:
    """A typed method passes `idempotency_key` and `read_timeout_seconds` on as `call` does:
    the same key sent twice executes nothing again, and the timeout is the client's."""
    ledger = tmp_path / "ledger.txt"

    async def script(tools: Any) -> Any:
        once = await tools.cancel_orders(order_ids=["P-7"], idempotency_key="order-7")
        again = await tools.cancel_orders(order_ids=["P-7"], idempotency_key="order-7")
        runtime = importlib.import_module(f"{pkg.__name__}.client_runtime")
        with pytest.raises(runtime.ToolCallError):
            await tools.slow_lookup(seconds=3, read_timeout_seconds=0.05)
        return once, again

    (once, again), _ = _session(built, pkg, ledger, "auto", script)
    assert once.ok and again.ok
    assert _ledger(ledger, "executed") == [("P-7", derive_item_keys("order-7", ["P-7"])[0])]
    assert len(_ledger(ledger, "attempt")) == 2


def test_a_partial_result_carries_the_composition_instruction(
    built: Path, pkg: Any, tmp_path: Path
) -> None:
    async def script(tools: Any) -> Any:
        return await tools.cancel_orders(order_ids=["P-1", "P-901"])

    result, _ = _session(built, pkg, tmp_path / "ledger.txt", "auto", script)
    composition = result.envelope["data"]["metadata"]["composition"]
    assert composition["version"] == "toolc.composition/1"
    assert composition["status"] == "PARTIAL_SUCCESS"
    assert "each item" in composition["instruction"]
    [done] = composition["succeeded"]
    assert done["item"] == "P-1" and done["operation_id"].startswith("PR-")
    assert composition["failed"] == [{"item": "P-901", "position": 1, "reason": "busy"}]


def test_a_handler_past_its_timeout_is_answered_tool_timeout(
    built: Path, pkg: Any, tmp_path: Path
) -> None:
    async def script(tools: Any) -> Any:
        return await tools.slow_lookup(seconds=5), await tools.slow_lookup(seconds=0)

    (late, quick), _ = _session(built, pkg, tmp_path / "ledger.txt", "auto", script)
    assert not late.ok and late.error.code == "TOOL_TIMEOUT"
    assert late.error.retryable is True and "0.5 s" in late.error.message
    assert quick.ok and quick.data.done is True  # the server goes on serving


def test_the_items_argument_is_the_one_array() -> None:
    assert items_argument({"properties": {"a": {"type": "array"}, "b": {}}}) == "a"
    assert items_argument({"properties": {"a": {"type": "array"}, "b": {"type": "array"}}}) is None
    assert items_argument({}) is None


def test_the_items_argument_may_be_a_shared_type_or_nullable() -> None:
    """An array through a `$ref` to a shared type, or nullable, is the items argument too:
    its calls carry a key per item (found by a review against the guide's §9)."""
    ids = {"type": "array", "items": {"type": "string"}}
    shared = {"properties": {"ids": {"$ref": "#/$defs/Ids"}}, "$defs": {"Ids": ids}}
    assert items_argument(shared) == "ids"
    chained = {"properties": {"x": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/Ids"}, "Ids": ids}}  # fmt: skip
    assert items_argument(chained) == "x"
    assert items_argument({"properties": {"ids": {**ids, "type": ["array", "null"]}}}) == "ids"
    either = {"anyOf": [{"$ref": "#/$defs/Ids"}, {"type": "null"}]}
    assert items_argument({"properties": {"ids": either}, "$defs": {"Ids": ids}}) == "ids"
    # Not arrays alone, a cycle, a missing type: none
    for prop in ({"type": ["array", "string"]}, {"anyOf": [ids, {"type": "string"}]},
                 {"$ref": "#/$defs/Loop"}, {"$ref": "#/$defs/Missing"}):  # fmt: skip
        schema = {"properties": {"ids": prop}, "$defs": {"Loop": {"$ref": "#/$defs/Loop"}}}
        assert items_argument(schema) is None, prop
    # Among several, the one typed `array` itself: a nullable list beside it takes nothing
    nullable = {**ids, "type": ["array", "null"]}
    assert items_argument({"properties": {"items": ids, "tags": nullable}}) == "items"
    two = {**shared, "properties": {"a": ids, "b": {"$ref": "#/$defs/Ids"}}}
    assert items_argument(two) == "a"
    assert (
        items_argument({**shared, "properties": {"a": nullable, "b": {"$ref": "#/$defs/Ids"}}})
        is None
    )


def test_a_declined_retry_keeps_the_items_to_retry(built: Path, pkg: Any, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.txt"

    async def script(tools: Any) -> Any:
        first = await tools.cancel_orders(order_ids=["P-3", "P-903"])
        tools.confirm.yes = False  # the user says no to the retry
        declined = await first.retry_failed()
        tools.confirm.yes = True
        return first, declined, await declined.retry_failed()

    (first, declined, done), answers = _session(built, pkg, ledger, "auto", script)
    assert first.multi_item.status == "PARTIAL_SUCCESS"
    assert not declined.ok and declined.error.code == "CONFIRMATION_DECLINED"
    assert done.ok and done.multi_item.status == "SUCCESS"
    assert [r.order_id for r in done.data.results] == ["P-3", "P-903"]
    asked = [r.arguments["order_ids"] for r in answers.requests]
    assert asked == [["P-3", "P-903"], ["P-903"], ["P-903"]]
    assert sorted(o for o, _ in _ledger(ledger, "executed")) == ["P-3", "P-903"]


SHARED_LIST = """
tools:
  cancelar:
    version: 1.0.0
    description: Cancela um ou mais pedidos.
    mcp_server: s
    tool_type: action
    confirmation_required: false
    requires: [ids]
    args_schema:
      ids: {$ref: "#/types/Ids"}
    multi_item:
      item:
        type: object
        required: [id, success]
        properties:
          id: {type: string}
          success: {type: boolean}
types:
  Ids: {type: array, items: {type: string}, minItems: 1}
"""


@pytest.fixture(scope="module")
def shared_list(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The package of SHARED_LIST, imported, with the typed client and the server in one
    process (`serve(handlers, script)` runs `script(client, session)`)."""
    root = tmp_path_factory.mktemp("shared_list")
    (root / "cfg").mkdir()
    (root / "cfg" / "tools.yaml").write_text(SHARED_LIST, encoding="utf-8")
    built = build(root / "cfg", root / "build" / "mcp_tools")
    return client_package(built, root / "imported", "shared_list_pkg")


def _serve(pkg: Any, handlers: Any, script: Any) -> Any:
    from mcp import Client

    server = importlib.import_module(f"{pkg.__name__}.server")
    client = importlib.import_module(f"{pkg.__name__}.client")

    async def main() -> Any:
        async with Client(server.create_server(handlers, metrics=False)) as session:
            return await script(client.SClient(session), session)

    return anyio.run(main)


def test_a_shared_list_type_gets_item_keys_and_a_retry(shared_list: Any) -> None:
    """The items of a `$ref` list argument each get a key, and the failed one is retried
    with its key."""
    seen: list[tuple[list[str], tuple[str, ...]]] = []

    class Handlers:
        async def cancelar(self, args: Any, ctx: Any) -> Any:
            seen.append((list(args.ids), ctx.item_keys))
            return {"results": [{"id": i, "success": i != "B" or len(seen) > 1} for i in args.ids]}

    async def script(tools: Any, session: Any) -> Any:
        first = await tools.cancelar(ids=["A", "B"])
        return first, await first.retry_failed()

    first, retried = _serve(shared_list, Handlers(), script)
    assert [ids for ids, _ in seen] == [["A", "B"], ["B"]]
    keys = seen[0][1]
    assert len(keys) == 2 and seen[1][1] == (keys[1],)
    assert first.data.multi_item_status == "PARTIAL_SUCCESS"
    assert retried.data.multi_item_status == "SUCCESS"


def test_a_merged_retry_keeps_a_later_step_s_failure(shared_list: Any) -> None:
    """The guide's §5: a later step's failure beside completed items is kept for audit
    (`original_ok: false`, `secondary_error`); merging a retry keeps it too."""
    runtime = importlib.import_module(f"{shared_list.__name__}.server_runtime")
    calls: list[list[str]] = []

    class Handlers:
        async def cancelar(self, args: Any, ctx: Any) -> Any:
            calls.append(list(args.ids))
            data = {"results": [{"id": i, "success": i != "B" or len(calls) > 1} for i in args.ids]}
            if len(calls) == 1:
                return data
            failure = runtime.ToolFailure("", "notification step failed")
            return runtime.Reply(data, secondary_failure=failure)

    async def script(tools: Any, session: Any) -> Any:
        first = await tools.cancelar(ids=["A", "B"])
        return first, await first.retry_failed()

    first, retried = _serve(shared_list, Handlers(), script)
    assert "secondary_error" not in first.envelope["data"]
    merged = retried.envelope["data"]
    assert merged["multi_item_status"] == "SUCCESS"
    assert merged["original_ok"] is False
    assert merged["secondary_error"]["code"] == "TOOL_ERROR"


def test_a_merged_retry_where_nothing_was_done_keeps_the_later_failure(
    shared_list: Any,
) -> None:
    """Every item failed and a later step failed too: the server answers that failure
    (retryable, its evidence kept). The merged retry said ALL_ITEMS_FAILED and lost it."""
    runtime = importlib.import_module(f"{shared_list.__name__}.server_runtime")

    class Handlers:
        async def cancelar(self, args: Any, ctx: Any) -> Any:
            data = {"results": [{"id": i, "success": False} for i in args.ids]}
            failure = runtime.ToolFailure("", "the order service is down")
            return runtime.Reply(data, secondary_failure=failure)

    async def script(tools: Any, session: Any) -> Any:
        first = await tools.cancelar(ids=["A"])
        return first, await first.retry_failed()

    first, retried = _serve(shared_list, Handlers(), script)
    assert first.envelope["error"]["code"] == "TOOL_ERROR"
    assert retried.envelope["ok"] is False
    assert retried.envelope["error"]["code"] == "TOOL_ERROR"
    assert retried.envelope["data"]["multi_item_status"] == "FAILED"


def test_an_idempotency_key_that_is_not_one_is_refused(shared_list: Any) -> None:
    """A key over 200 characters was dropped without a word, so the call ran without the
    deduplication asked for: the typed client refuses it, and so does the server."""
    ran: list[Any] = []

    class Handlers:
        async def cancelar(self, args: Any, ctx: Any) -> Any:
            ran.append(ctx.idempotency_key)
            return {"results": [{"id": i, "success": True} for i in args.ids]}

    async def script(tools: Any, session: Any) -> Any:
        with pytest.raises(ValueError, match="1 to 200 characters"):
            await tools.call("cancelar", {"ids": ["A"]}, idempotency_key="k" * 201)
        answers = []
        for key in ("k" * 201, "", 7):
            meta = {"dev.toolc/idempotency-key": key}
            answers.append(await session.call_tool("cancelar", {"ids": ["A"]}, meta=meta))
        fine = await session.call_tool(
            "cancelar", {"ids": ["A"]}, meta={"dev.toolc/idempotency-key": "k" * 200}
        )
        return answers, fine

    answers, fine = _serve(shared_list, Handlers(), script)
    for answer in answers:
        error = answer.structured_content["error"]
        assert error["code"] == "VALIDATION_ERROR", error
        assert error["details"][0]["field"] == "_meta.dev.toolc/idempotency-key"
    assert fine.structured_content["ok"] is True
    assert ran == ["k" * 200]


def test_an_item_json_cannot_write_still_gets_a_key() -> None:
    """The SDK reads NaN and Infinity from a request, and an item typed `{}` keeps them:
    deriving its key failed the call as an internal error."""
    keys = derive_item_keys("k", [float("nan"), float("inf"), 1])
    assert len(set(keys)) == 3
