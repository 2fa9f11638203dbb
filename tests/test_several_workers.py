"""Several server processes behind one load balancer (issue 15, decision 0089): with the
request_state signing key from the environment and a shared FileStore, a confirmation
asked by one process is answered on another, and a replay is refused on either; without
the shared key the other process refuses the state. Plus the store's own guarantees."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import types
from mcp.shared.exceptions import MCPError
from runtime_support.harness import EXAMPLES, Connection, package
from toolc.runtime.server_state_store import FileStore, MemoryStore, signing_key

ACCEPT = types.ElicitResult(action="accept", content={"confirm": True})
ARGS = {"order_ids": ["P-100"]}
KEY = "k" * 40


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("workers")
    return package(EXAMPLES / "retail" / "generated" / "mcp_tools", root)


def _workers(pkg: Path, db: Path, keys: tuple[str, str]) -> Iterator[list[Connection]]:
    started = [
        Connection(
            pkg,
            "retail_handlers",
            env={"TOOLC_REQUEST_STATE_KEY": key, "RUNTIME_TEST_STATE_DB": str(db)},
        )
        for key in keys
    ]
    try:
        yield started
    finally:
        for connection in started:
            connection.close()


@pytest.fixture
def workers(pkg: Path, tmp_path: Path) -> Iterator[list[Connection]]:
    yield from _workers(pkg, tmp_path / "states.db", (KEY, KEY))


def _ask(connection: Connection) -> str:
    asked = connection.raw("cancelar_pedidos", ARGS)
    assert isinstance(asked, types.InputRequiredResult) and asked.request_state
    return asked.request_state


def _answer(connection: Connection, state: str) -> object:
    return connection.raw(
        "cancelar_pedidos", ARGS, input_responses={"confirm": ACCEPT}, request_state=state
    )


def _refused(connection: Connection, state: str) -> None:
    with pytest.raises(MCPError) as caught:
        _answer(connection, state)
    assert caught.value.error.message == "Invalid or expired requestState"


def test_asked_on_one_process_answered_on_the_other(workers: list[Connection]) -> None:
    one, other = workers
    assert one.protocol_version == "2026-07-28"
    state = _ask(one)
    done = _answer(other, state)
    assert isinstance(done, types.CallToolResult)
    assert other.sealed("cancelar_pedidos", done)["ok"] is True
    _refused(one, state)  # replayed where it was asked
    _refused(other, state)  # and where it was answered


def test_without_the_shared_key_the_other_process_refuses(pkg: Path, tmp_path: Path) -> None:
    for one, other in _workers(pkg, tmp_path / "states.db", (KEY, "z" * 40)):
        _refused(other, _ask(one))


_RACE = """
import sys
from toolc.runtime.server_state_store import FileStore
store = FileStore(sys.argv[1])
won = [n for n in (f"n{i}" for i in range(200)) if store.redeem(n)]
print(len(won), ",".join(won))
"""


def test_a_nonce_is_redeemed_once_across_processes(tmp_path: Path) -> None:
    db = tmp_path / "race.db"
    store = FileStore(db)
    for i in range(200):
        store.add(f"n{i}", time.time() + 60)
    racers = [
        subprocess.Popen([sys.executable, "-c", _RACE, str(db)], stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outputs = [r.communicate(timeout=60)[0].split() for r in racers]
    won = [n for out in outputs if len(out) > 1 for n in out[1].split(",")]
    assert sorted(won) == sorted(f"n{i}" for i in range(200))  # each exactly once
    assert not store.redeem("n0")
    store.close()


@pytest.mark.parametrize("make", [MemoryStore, lambda: FileStore(":memory:")])
def test_stores_refuse_expired_and_unknown_nonces(make: object) -> None:
    store = make()  # type: ignore[operator]
    store.add("old", time.time() - 1)
    store.add("new", time.time() + 60)
    assert not store.redeem("old") and not store.redeem("never")
    assert store.redeem("new") and not store.redeem("new")


def test_the_signing_key_comes_from_the_argument_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TOOLC_REQUEST_STATE_KEY", raising=False)
    assert signing_key() is None
    monkeypatch.setenv("TOOLC_REQUEST_STATE_KEY", KEY)
    assert signing_key() == KEY.encode()
    assert signing_key(b"x" * 32) == b"x" * 32
    with pytest.raises(ValueError, match="at least 32 bytes"):
        signing_key("short")
