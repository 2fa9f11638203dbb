"""A 2026-07-28 confirmation's `requestState` that is tampered with, replayed or expired is
refused over Streamable HTTP with the JSON-RPC error the SDK's own `RequestStateBoundary`
answers (mcp/server/request_state.py `_reject`, compared here with the SDK itself, not a copy),
the tool never running (issue 15 item 4, issue 6 item 10). The expired state is authentic and
still unredeemed: minted with the server's shared key into its shared store, already past its
time (decision 0089's key and store make that possible from outside the process)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import types
from mcp.server import request_state as sdk_request_state
from mcp.shared.exceptions import MCPError
from runtime_support.harness import EXAMPLES, Connection, package
from toolc.runtime.server_confirmation import RequestStates, binding
from toolc.runtime.server_state_store import FileStore, signing_key

ACCEPT = types.ElicitResult(action="accept", content={"confirm": True})
ARGS = {"order_ids": ["P-100"]}
KEY = "r" * 40


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Connection, Path]]:
    root = tmp_path_factory.mktemp("request-state")
    pkg = package(EXAMPLES / "retail" / "generated" / "mcp_tools", root)
    db = root / "states.db"
    env = {"TOOLC_REQUEST_STATE_KEY": KEY, "RUNTIME_TEST_STATE_DB": str(db)}
    connection = Connection(pkg, "retail_handlers", http=True, env=env)
    try:
        assert connection.protocol_version == "2026-07-28"
        yield connection, db
    finally:
        connection.close()


def _reference() -> types.ErrorData:
    with pytest.raises(MCPError) as caught:
        sdk_request_state._reject("tools/call", "the reference")
    return caught.value.error


def _ask(connection: Connection) -> str:
    asked = connection.raw("cancelar_pedidos", ARGS)
    assert isinstance(asked, types.InputRequiredResult) and asked.request_state
    return asked.request_state


def _refused(connection: Connection, state: str) -> None:
    with pytest.raises(MCPError) as caught:
        connection.raw(
            "cancelar_pedidos", ARGS, input_responses={"confirm": ACCEPT}, request_state=state
        )
    reference = _reference()
    assert caught.value.error.code == reference.code == types.INVALID_PARAMS
    assert caught.value.error.message == reference.message
    assert caught.value.error.data == reference.data


def test_a_tampered_state_is_refused(served: tuple[Connection, Path]) -> None:
    connection, _ = served
    state = _ask(connection)
    head, _, tag = state.partition(".")
    claims = json.loads(_unb64(head))
    claims["x"] += 3600  # a later expiry, the signature left as it was
    for bad in (_b64(json.dumps(claims).encode()) + "." + tag, head + "." + tag[::-1], "x"):
        _refused(connection, bad)


def test_a_replayed_state_is_refused(served: tuple[Connection, Path]) -> None:
    connection, _ = served
    state = _ask(connection)
    done = connection.raw(
        "cancelar_pedidos", ARGS, input_responses={"confirm": ACCEPT}, request_state=state
    )
    assert connection.sealed("cancelar_pedidos", done)["ok"] is True
    _refused(connection, state)


def test_an_expired_state_is_refused(served: tuple[Connection, Path]) -> None:
    connection, db = served
    store = FileStore(db)
    try:
        bound = binding("cancelar_pedidos", ARGS)
        expired = RequestStates(ttl=-1, key=signing_key(KEY), store=store).issue(bound)
        fresh = RequestStates(key=signing_key(KEY), store=store).issue(bound)
    finally:
        store.close()
    _refused(connection, expired)
    done = connection.raw(  # the same state, minted the same way but in time, is honoured
        "cancelar_pedidos", ARGS, input_responses={"confirm": ACCEPT}, request_state=fresh
    )
    assert connection.sealed("cancelar_pedidos", done)["ok"] is True


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
