"""The generated `client.py`: typed per-tool methods over `client_runtime.ToolClient`, driven
end to end against a real server process (examples/retail's package, the retail test
handlers), and type-checked as a user's code would be: right calls pass `mypy --strict`,
wrong ones do not."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from runtime_support.client_support import Answers, client_package, server_params
from runtime_support.harness import EXAMPLES, package
from toolc import verbs
from toolc.emit.client import CLIENT_ATTRIBUTES
from toolc.runtime.client_runtime import ToolClient

RETAIL = EXAMPLES / "retail" / "generated" / "mcp_tools"


def test_reserved_method_names_cover_the_client_class() -> None:
    public = {n for n in dir(ToolClient()) if not n.startswith("_")}
    assert public <= CLIENT_ATTRIBUTES


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return client_package(RETAIL, tmp_path_factory.mktemp("gen_client"), "retail_gen_client")


@pytest.fixture(scope="module")
def server_pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return package(RETAIL, tmp_path_factory.mktemp("gen_server"))


def _session(server_pkg: Path, pkg: Any, script: Any, confirm: Answers | None) -> Any:
    client_cls = importlib.import_module(f"{pkg.__name__}.client").RetailClient

    async def main() -> Any:
        params = server_params(server_pkg, "retail_handlers")
        async with client_cls.connect(params, confirm=confirm) as tools:
            return await script(tools)

    return anyio.run(main)


def test_typed_methods_end_to_end(server_pkg: Path, pkg: Any) -> None:
    answers = Answers()

    async def script(tools: Any) -> list[Any]:
        return [
            await tools.consultar_pedidos(order_ids=["P-1", "P-901"]),
            await tools.cancelar_pedidos(order_ids=["P-2"], motivo="mudei de ideia"),
            await tools.cancelar_pedidos(order_ids=["P-503"]),
            await tools.consultar_pedidos(order_ids=[]),  # minItems 1: refused locally
        ]

    looked, cancelled, failed, refused = _session(server_pkg, pkg, script, answers)
    runtime = importlib.import_module(f"{pkg.__name__}.client_runtime")  # the package's copy
    Success, Failure = runtime.Success, runtime.Failure
    assert isinstance(looked, Success)
    assert isinstance(looked.data, pkg.ConsultarPedidosData)
    assert looked.multi_item is not None and looked.multi_item.status == "PARTIAL_SUCCESS"
    assert [i.order_id for i in looked.multi_item.failed] == ["P-901"]
    assert isinstance(cancelled, Success) and cancelled.data.results[0].success is True
    assert [r.tool for r in answers.requests] == ["cancelar_pedidos", "cancelar_pedidos"]
    assert isinstance(answers.requests[0], runtime.ConfirmationRequest)
    assert isinstance(failed, Failure) and failed.error.code == "ORDER_SERVICE_UNAVAILABLE"
    assert failed.error.retryable is True
    assert isinstance(refused, Failure) and refused.local
    assert refused.error.code == "VALIDATION_ERROR"


def test_declining_the_question(server_pkg: Path, pkg: Any) -> None:
    answers = Answers()
    answers.yes = False

    async def script(tools: Any) -> Any:
        return await tools.cancelar_pedidos(order_ids=["P-2"])

    result = _session(server_pkg, pkg, script, answers)
    assert result.ok is False and result.error.code == "CONFIRMATION_DECLINED"


USER_CODE = """
from mcp import StdioServerParameters
from {pkg}.client import RetailClient
from {pkg}.client_runtime import ConfirmationRequest


async def ask(request: ConfirmationRequest) -> bool:
    return True


async def main() -> None:
    async with RetailClient.connect(StdioServerParameters(command="x"), confirm=ask) as tools:
        result = await tools.consultar_pedidos(order_ids={ids})
        if result.ok:
            print(result.data.results)
"""


@pytest.mark.parametrize(("ids", "ok"), [('["P-1"]', True), ("[1, 2]", False), ('"P-1"', False)])
def test_the_client_is_typed_for_its_callers(tmp_path: Path, ids: str, ok: bool) -> None:
    import shutil

    from mypy import api

    shutil.copytree(RETAIL, tmp_path / "mcp_tools")
    user = tmp_path / "agent.py"
    user.write_text(USER_CODE.format(pkg="mcp_tools", ids=ids))
    out, err, status = api.run(
        ["--strict", str(user), "--cache-dir", str(tmp_path / ".mypy"), "--no-incremental"]
    )
    assert (status == 0) == ok, out + err


OPTION_NAMES = """\
tools:
  t:
    version: 1.0.0
    description: Arguments named like the call options.
    mcp_server: s
    tool_type: query
    args_schema:
      idempotency_key: {type: string}
      read_timeout_seconds: {type: number}
"""


def test_call_options_give_way_to_arguments_of_the_same_name(tmp_path: Path) -> None:
    """Every method takes `read_timeout_seconds` and `idempotency_key`; where the tool has an
    argument of that name, the option takes trailing underscores and the argument keeps its
    name, both reaching `call` where they belong."""
    import black

    files = verbs.compile_baseline(OPTION_NAMES, None, "mem:")
    source = files["client.py"].decode()
    assert black.format_str(source, mode=black.Mode()) == source
    assert "idempotency_key_: str | None = None" in source
    assert "read_timeout_seconds_: float | None = None" in source
    root = tmp_path / "options_pkg"
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    sys.path.insert(0, str(tmp_path))
    try:
        client = importlib.import_module("options_pkg.client").SClient()
    finally:
        sys.path.remove(str(tmp_path))
    sent: list[Any] = []

    async def call(tool: str, args: Any, **options: Any) -> Any:
        sent.append((tool, args, options))

    client.call = call
    anyio.run(
        lambda: client.t(
            idempotency_key="k",
            read_timeout_seconds=1.5,
            idempotency_key_="order-1",
            read_timeout_seconds_=3.0,
        )
    )
    assert sent == [
        (
            "t",
            {"idempotency_key": "k", "read_timeout_seconds": 1.5},
            {"read_timeout_seconds": 3.0, "idempotency_key": "order-1"},
        )
    ]
